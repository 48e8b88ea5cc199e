/* murmur-bench: scenario benchmark of the flock step (docs/performance.md).
 *
 *   murmur-bench [--scenario uniform|flock|all|coincident|crowded|crowd|starling|starling-forming|falcon|
 *                           starling-settled] [--n 1k,10k,100k,1M] [--method grid|brute|grid,brute]
 *                [--threads 1,2] [--ticks T] [--warmup W] [--repeats R] [--metrics on|off]
 *                [--brute-max N] [--neighbours metric|topological|metric,topological] [--bounds wrap|none]
 *                [--background-load N] [--fallback on|off] [--density D] [--topo-k K]
 *                [--cache DIR] [--settle-base N] [--settle-ticks T] [--crowd-max N] [--json]
 *                [--simd auto|base|avx2|avx512]
 *
 * The command line (this file) and its scenarios, each in its own file with the shared driver
 * bench_run.c (bench.h: the options and a row's result):
 *   uniform, flock       bench_uniform.c   the uniform metric step and the default flock's
 *   coincident, crowded  bench_crowd.c     crowds from the start (crowd: both)
 *   starling, starling-forming, starling-settled
 *                        bench_starling.c  the starling groups around the uniform step (state.c)
 *   falcon               bench_falcon.c    the starling step with and without the falcon, alternated
 * --neighbours topological: topo_k 6.5 nearest (src/sim/topo.c); a wrapped world has no topological
 * mode, so those rows run the uniform scenario with bounds none (--bounds none gives metric rows the
 * same world, for a like-for-like comparison).
 * --background-load N: N child processes spin (a busy loop each, the bench's priority) for the whole
 * run, the stand-in for a build or a browser beside the simulation; the bench stops them itself on
 * exit, on an error and on SIGINT/SIGTERM/SIGHUP, and the kernel kills them if the bench dies.
 * --simd P: every flock on kernel path P (mur_flock_set_simd; over MURMUR_SIMD); the rows name it ("simd",
 *   and the topological search's path "search_simd": under auto on AMD Zen 4, avx512 where simd is avx2).
 * --fallback off: the step always runs on the threads asked for (mur_flock_set_thread_fallback).
 * --density D: both scenarios at D expected neighbours per boid instead of 30 (the box grows or
 * shrinks); --topo-k K: the topological rows' topo_k (default 6.5). The program's cost model
 * (src/app/cli/cost.c) is fitted to rows of both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h>
#endif

#include "bench.h"
#include "env.h"
#include "load.h"

static void usage(FILE *fp)
{
    fputs("usage: murmur-bench [--scenario uniform|flock|all|coincident|crowded|crowd|starling|starling-forming|falcon|\n"
          "                               starling-settled] [--n 1k,10k,100k,1M]\n"
          "                    [--method grid|brute|grid,brute]\n"
          "                    [--threads 1,2] [--ticks T] [--warmup W] [--repeats R] [--metrics on|off]\n"
          "                    [--brute-max N] [--neighbours metric|topological|metric,topological]\n"
          "                    [--bounds wrap|none] [--background-load N] [--fallback on|off]\n"
          "                    [--density D] [--topo-k K] [--reaction-ticks R] [--reaction-hold sums|list] [--flight on|off]\n"
          "                    [--cache DIR] [--settle-base N] [--settle-ticks T]\n"
          "                    [--crowd-max N] [--reference on|off] [--json]\n"
          "                    [--spawn-order index|cell|shuffle] [--per-tick on|off]\n"
          "                    [--simd auto|base|avx2|avx512]\n"
          "  uniform: wrap world, ~30 neighbours, 1 warm-up + 20 timed ticks (x repeats, default 3)\n"
          "  flock:   default parameters, soft bounds, same density; ticks 500..1000 timed\n"
          "  coincident: starling preset, every boid at one point (default 20k); crowded: starling preset\n"
          "           in a 4 wu box, bounds bounce (default 100k); crowd: both; 3 ticks from the start\n"
          "           (--neighbours metric: the classic preset)\n"
          "  brute runs only up to --brute-max boids (default 20000); --ticks applies to both methods\n"
          "  topological rows run the uniform scenario with bounds none (--bounds none: metric rows too)\n"
          "  --metrics on: every metric every tick, timed apart (metrics_ms) from the rest (step_ms)\n"
          "  --background-load N: N busy loops (child processes) run beside the benchmark (0..16)\n"
          "  --fallback off: always the threads asked for (on, the default: one thread while that is faster)\n"
          "  --density D: D expected neighbours per boid in both scenarios (default 30, (0, 1000])\n"
          "  --topo-k K: topo_k of the topological rows (default 6.5, [1, 20])\n"
          "  --reaction-ticks R: reaction_ticks of the starling-forming and -settled rows (default 1, [1, 8];\n"
          "           the settled state is simulated with the preset's 1)\n"
          "  --flight on|off: the flight model (flight=on, lift=off, min_speed=0) in the starling-forming and\n"
          "           -settled rows (default off; the settled state is simulated without it)\n"
          "  --reaction-hold sums|list: their reaction_hold (default sums)\n"
          "  falcon: the starling step with the falcon attacking against it without, alternated (20k)\n"
          "  starling: starling-forming (the starling preset's spawn, first 100 ticks), starling-settled (a\n"
          "           settled flock, 2 warm-up + 20 timed ticks), coincident and crowded (up to --crowd-max\n"
          "           boids, default 100k), at 20k, 100k, 1M on 1 and 2 threads; each size\n"
          "           and thread count also runs the uniform scenario before and after, and every row\n"
          "           gives its ratio to it (and the crowd rows to the settled row)\n"
          "  --cache DIR: where settled states are kept (default $XDG_CACHE_HOME/murmur-bench or\n"
          "           ~/.cache/murmur-bench); --settle-base N: states up to N boids are settled by\n"
          "           simulation (default 20k), larger ones are copies of that side by side;\n"
          "           --settle-ticks T: ticks of that simulation (default 2500)\n"
          "  --reference off: the starling rows without the uniform step around them (for profiles)\n"
          "  --spawn-order cell|shuffle: the starling-forming and -settled rows' boids renumbered along a\n"
          "           Morton curve of their positions, or at random (another state: what the order of the\n"
          "           boids' rows costs; default index: the library's own spawn order, which is\n"
          "           already a Morton curve of the spawn's places for 65,536 boids or more)\n"
          "  --simd P: the kernel path of every flock (default auto: the library's choice, or MURMUR_SIMD);\n"
          "           a path this CPU lacks is an error; each JSON row names the path it ran (\"simd\")\n"
          "  --per-tick on: each timed tick's ms, CPU ms, grid ms and candidates per boid on stderr\n",
          fp);
}

static bool parse_count(const char *s, int32_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return false;
    if (*end == 'k' || *end == 'K')
        v *= 1e3, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1e6, end++;
    if (*end || !(v >= 1 && v <= MUR_MAX_BOIDS))
        return false;
    *out = (int32_t)llround(v);
    return true;
}

/* Split a comma list; each item through fn. */
static bool each_item(const char *list, bool (*fn)(const char *, void *), void *ctx)
{
    char buf[512];
    if (strlen(list) >= sizeof buf)
        return false;
    strcpy(buf, list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (!fn(tok, ctx))
            return false;
    return true;
}

static bool add_n(const char *s, void *ctx)
{
    opts *o = ctx;
    return o->nn < MAX_LIST && parse_count(s, &o->n[o->nn++]);
}

static bool add_method(const char *s, void *ctx)
{
    opts *o = ctx;
    if (o->nm >= MAX_LIST)
        return false;
    if (!strcmp(s, "grid"))
        o->method[o->nm++] = MUR_SEARCH_GRID;
    else if (!strcmp(s, "brute"))
        o->method[o->nm++] = MUR_SEARCH_BRUTE;
    else
        return false;
    return true;
}

static bool add_neighbours(const char *s, void *ctx)
{
    opts *o = ctx;
    if (o->nnb >= MAX_LIST)
        return false;
    if (!strcmp(s, "metric"))
        o->nb[o->nnb++] = MUR_NEIGHBOURS_METRIC;
    else if (!strcmp(s, "topological"))
        o->nb[o->nnb++] = MUR_NEIGHBOURS_TOPOLOGICAL;
    else
        return false;
    return true;
}

static bool add_threads(const char *s, void *ctx)
{
    opts *o = ctx;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 1 || v > 64 || o->nt >= MAX_LIST)
        return false;
    o->threads[o->nt++] = (int)v;
    return true;
}

static int parse_int(const char *s, int lo)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (*end || v < lo || v > 100000000) ? -1 : (int)v;
}

/* The command line into *o and *scenario: -1 to go on, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, opts *o, const char **scenario)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
            continue;
        } else if (!v) {
            fprintf(stderr, "murmur-bench: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "--scenario")) {
            *scenario = v;
            ok = !strcmp(v, "uniform") || !strcmp(v, "flock") || !strcmp(v, "all") || !strcmp(v, "coincident") ||
                 !strcmp(v, "crowded") || !strcmp(v, "crowd") || !strcmp(v, "starling") ||
                 !strcmp(v, "starling-forming") || !strcmp(v, "starling-settled") || !strcmp(v, "falcon");
        } else if (!strcmp(a, "--cache")) {
            o->cache = v;
            ok = v[0] != '\0';
        } else if (!strcmp(a, "--settle-base")) {
            ok = parse_count(v, &o->settle_base);
        } else if (!strcmp(a, "--crowd-max")) {
            ok = parse_count(v, &o->crowd_max);
        } else if (!strcmp(a, "--settle-ticks")) {
            ok = (o->settle_ticks = parse_int(v, 0)) >= 0;
        } else if (!strcmp(a, "--n")) {
            ok = each_item(v, add_n, o);
        } else if (!strcmp(a, "--method")) {
            ok = each_item(v, add_method, o);
        } else if (!strcmp(a, "--neighbours")) {
            ok = each_item(v, add_neighbours, o);
        } else if (!strcmp(a, "--bounds")) {
            ok = !strcmp(v, "wrap") || !strcmp(v, "none");
            o->unwrapped = !strcmp(v, "none");
        } else if (!strcmp(a, "--threads")) {
            ok = each_item(v, add_threads, o);
        } else if (!strcmp(a, "--ticks")) {
            ok = (o->ticks = parse_int(v, 1)) > 0;
        } else if (!strcmp(a, "--warmup")) {
            ok = (o->warmup = parse_int(v, 0)) >= 0;
        } else if (!strcmp(a, "--repeats")) {
            ok = (o->repeats = parse_int(v, 1)) > 0;
        } else if (!strcmp(a, "--brute-max")) {
            ok = parse_count(v, &o->brute_max);
        } else if (!strcmp(a, "--metrics")) {
            ok = !strcmp(v, "on") || !strcmp(v, "off");
            o->metrics = !strcmp(v, "on");
        } else if (!strcmp(a, "--reference")) {
            ok = !strcmp(v, "on") || !strcmp(v, "off");
            o->no_reference = !strcmp(v, "off");
        } else if (!strcmp(a, "--spawn-order")) {
            ok = !strcmp(v, "index") || !strcmp(v, "cell") || !strcmp(v, "shuffle");
            o->spawn_order = !strcmp(v, "cell") ? 1 : !strcmp(v, "shuffle") ? 2 : 0;
        } else if (!strcmp(a, "--simd")) {
            o->simd = -1;
            for (int p = MUR_SIMD_AUTO; p < MUR_SIMD_COUNT; p++)
                if (!strcmp(v, mur_simd_name((mur_simd)p)))
                    o->simd = p;
            if (o->simd < 0) {
                fprintf(stderr, "murmur-bench: bad value '%s' for --simd: expected one of auto|base|avx2|avx512\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--per-tick")) {
            ok = !strcmp(v, "on") || !strcmp(v, "off");
            o->per_tick = !strcmp(v, "on");
        } else if (!strcmp(a, "--fallback")) {
            ok = !strcmp(v, "on") || !strcmp(v, "off");
            o->fixed = !strcmp(v, "off");
        } else if (!strcmp(a, "--density") || !strcmp(a, "--topo-k")) {
            const bool dens = !strcmp(a, "--density");
            char *end;
            double x = strtod(v, &end);
            if (end == v || *end || !(dens ? x > 0.0 && x <= 1000.0 : x >= 1.0 && x <= 20.0)) {
                fprintf(stderr, "murmur-bench: bad value '%s' for %s: expected a number in %s\n", v, a,
                        dens ? "(0, 1000]" : "[1, 20]");
                return 2;
            }
            *(dens ? &o->density : &o->topo_k) = x;
        } else if (!strcmp(a, "--reaction-ticks")) {
            o->reaction_ticks = parse_int(v, 1);
            if (o->reaction_ticks < 1 || o->reaction_ticks > 8) {
                fprintf(stderr, "murmur-bench: bad value '%s' for --reaction-ticks: expected a whole number in [1, 8]\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--flight")) {
            if (strcmp(v, "on") && strcmp(v, "off")) {
                fprintf(stderr, "murmur-bench: bad value '%s' for --flight: expected on or off\n", v);
                return 2;
            }
            o->flight = !strcmp(v, "on");
        } else if (!strcmp(a, "--reaction-hold")) {
            if (strcmp(v, "sums") && strcmp(v, "list")) {
                fprintf(stderr, "murmur-bench: bad value '%s' for --reaction-hold: expected one of sums|list\n", v);
                return 2;
            }
            o->reaction_hold = !strcmp(v, "list");
        } else if (!strcmp(a, "--background-load")) {
            o->load = parse_int(v, 0);
            if (o->load < 0 || o->load > 16) {
                fprintf(stderr, "murmur-bench: bad value '%s' for --background-load: expected a whole number in [0, 16]\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "murmur-bench: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "murmur-bench: bad value '%s' for %s (see --help)\n", v, a);
            return 2;
        }
        i++;
    }
    return -1;
}

int main(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.ticks = o.warmup = o.repeats = -1;
    o.brute_max = 20000;
    o.density = 30.0;
    o.topo_k = 6.5;
    o.settle_base = 20000;
    o.settle_ticks = 2500;
    o.crowd_max = 100000;
    o.reaction_ticks = 1;
    o.simd = -1;
    const char *scenario = "all";
    mur_env_wait_policy(argv); /* OMP_WAIT_POLICY=PASSIVE unless set, as the murmur program (env.h) */
    int rc = parse_args(argc, argv, &o, &scenario);
    if (rc >= 0)
        return rc;
    if (!strcmp(scenario, "falcon")) {
        if (o.nn == 0)
            o.n[o.nn++] = 20000;
        if (o.nt == 0)
            o.threads[o.nt++] = 0;
        return run_falcon(&o);
    }
    const bool starling = !strcmp(scenario, "starling");
    o.run[SC_UNIFORM] = !strcmp(scenario, "uniform") || !strcmp(scenario, "all");
    o.run[SC_FLOCK] = !strcmp(scenario, "flock") || !strcmp(scenario, "all");
    o.run[SC_COINCIDENT] = !strcmp(scenario, "coincident") || !strcmp(scenario, "crowd") || starling;
    o.run[SC_CROWDED] = !strcmp(scenario, "crowded") || !strcmp(scenario, "crowd") || starling;
    o.run[SC_FORMING] = !strcmp(scenario, "starling-forming") || starling;
    o.run[SC_SETTLED] = !strcmp(scenario, "starling-settled") || starling;
    o.starling = o.run[SC_FORMING] || o.run[SC_SETTLED];
    const bool crowd_only = !o.run[SC_UNIFORM] && !o.run[SC_FLOCK];
    const bool default_n = o.nn == 0;
    if (default_n) {
        const int32_t def_n[] = {1000, 10000, 100000, 1000000}, star_n[] = {20000, 100000, 1000000};
        for (int k = 0; k < (o.starling ? 3 : 4); k++)
            o.n[o.nn++] = o.starling ? star_n[k] : def_n[k];
    }
    if (o.nm == 0)
        o.method[o.nm++] = MUR_SEARCH_GRID;
    if (o.nnb == 0) /* the crowd scenarios: the starling preset's */
        o.nb[o.nnb++] = crowd_only ? MUR_NEIGHBOURS_TOPOLOGICAL : MUR_NEIGHBOURS_METRIC;
    if (o.nt == 0 && o.starling) {
        o.threads[o.nt++] = 1;
        o.threads[o.nt++] = 2;
    }
    if (o.nt == 0)
        o.threads[o.nt++] = 0; /* 0: MURMUR_THREADS, OMP_NUM_THREADS or all cores (env.c) */

    if (o.load > 0 && !load_start(o.load))
        return 1;
    if (o.starling) {
#ifdef __GLIBC__
        /* every large block its own mapping, returned on free: a row's resident memory starts from what
         * the rows before it left (glibc's adaptive threshold would keep freed flocks on the heap) */
        mallopt(M_MMAP_THRESHOLD, 16 * 1024);
        mallopt(M_TRIM_THRESHOLD, 16 * 1024);
#endif
        return run_starling(&o);
    }
    return run_table(&o, default_n);
}
