/* murmur-bench: scenario benchmark of the flock step (docs/performance.md).
 *
 *   murmur-bench [--scenario uniform|flock|all|coincident|crowded|crowd|starling|starling-forming|falcon|
 *                           starling-settled] [--n 1k,10k,100k,1M] [--method grid|brute|grid,brute]
 *                [--threads 1,2] [--ticks T] [--warmup W] [--repeats R] [--metrics on|off]
 *                [--brute-max N] [--neighbours metric|topological|metric,topological] [--bounds wrap|none]
 *                [--background-load N] [--fallback on|off] [--density D] [--topo-k K]
 *                [--cache DIR] [--settle-base N] [--settle-ticks T] [--crowd-max N] [--json]
 *
 * uniform: wrap world, view_radius 1, separation_radius 0.3, all-round view, speed 1, random start,
 *          30/(4/3 pi) boids per unit volume (cube side cbrt(N / 7.162)); 1 warm-up tick, 20 timed.
 * flock:   the default parameters and soft bounds at the same neighbour density (the default box
 *          scaled), ticks 500..1000 timed.
 * coincident: the starling preset with every boid at one point (0, 40, 0), at rest (default 20k
 *          boids); crowded: the starling preset in a 4 wu box (-2, 38, -2)..(2, 42, 2), bounds
 *          bounce (default 100k boids); crowd: both. No warm-up, 3 ticks timed: the crowd is the start
 *          (issue 21: any density is bounded). --neighbours metric runs them with the classic
 *          preset instead (every pair within view_radius: about N^2). Not part of `all`.
 * --neighbours topological: topo_k 6.5 nearest (src/sim/topo.c); a wrapped world has no topological
 * mode, so those rows run the uniform scenario with bounds none (--bounds none gives metric rows the
 * same world, for a like-for-like comparison).
 * Each repeat is a fresh flock; ms_per_tick is the median of all timed ticks (each timed alone).
 * --metrics on: every tick also computes every metric; metrics_ms is the median of the metrics' own
 * time per tick, step_ms the median of the rest of the tick.
 * --background-load N: N child processes spin (a busy loop each, the bench's priority) for the whole
 * run, the stand-in for a build or a browser beside the simulation; the bench stops them itself on
 * exit, on an error and on SIGINT/SIGTERM/SIGHUP, and the kernel kills them if the bench dies.
 * --fallback off: the step always runs on the threads asked for (mur_flock_set_thread_fallback).
 * --density D: both scenarios at D expected neighbours per boid instead of 30 (the box grows or
 * shrinks); --topo-k K: the topological rows' topo_k (default 6.5). The program's cost model
 * (src/app/cli/cost.c) is fitted to rows of both.
 * starling (issue 23; docs/performance.md "Starling rows"): for each size (default 20k, 100k, 1M) and
 * thread count (default 1, 2) the uniform metric step, then starling-forming (the starling preset's
 * spawn, the first 100 ticks), starling-settled (a settled flock, state.c: simulated once at
 * --settle-base boids and cached, copies side by side above; 2 warm-up + 20 timed ticks), coincident
 * and crowded (up to --crowd-max boids), then the uniform step again; every row gives its ratio to
 * the mean of the two uniform measurements, and its resident memory per boid (VmRSS, VmHWM).
 * starling-forming or starling-settled alone: that row with the uniform step around it.
 * falcon (issue 26): the starling preset's step with the falcon attacking against the same step without
 * it, alternated (--repeats pairs, default 3; --warmup 20, --ticks 40 by default), default 20k boids.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h>
#endif

#include "env.h"
#include "murmur/murmur.h"
#include "load.h"
#include "state.h"

#define MAX_LIST 32
#define PI 3.14159265358979323846

enum { SC_UNIFORM, SC_FLOCK, SC_COINCIDENT, SC_CROWDED, SC_FORMING, SC_SETTLED, SC_COUNT };
static const char *const SC_NAME[SC_COUNT] = {"uniform", "flock", "coincident", "crowded", "starling-forming",
                                              "starling-settled"};

typedef struct opts {
    bool run[SC_COUNT];
    bool json, metrics;
    int32_t n[MAX_LIST];
    int nn;
    int method[MAX_LIST];
    int nm;
    int threads[MAX_LIST];
    int nt;
    int ticks, warmup, repeats; /* < 0: scenario default */
    int32_t brute_max;
    int nb[MAX_LIST];  /* neighbour modes */
    int nnb;
    bool unwrapped;    /* --bounds none */
    int load;          /* background busy loops */
    bool fixed;        /* --fallback off: always the threads asked for */
    double density;    /* --density: expected neighbours per boid of the uniform scenario */
    double topo_k;     /* --topo-k: topo_k of the topological rows */
    bool starling;     /* starling rows (forming, settled) asked for: groups with a uniform reference */
    const char *cache; /* --cache: folder of the settled states (NULL: the user's cache folder) */
    int32_t settle_base; /* --settle-base: boids settled by simulation; larger states are copies */
    int settle_ticks;  /* --settle-ticks */
    int32_t crowd_max; /* --crowd-max: the starling scenario's crowd rows up to this many boids */
} opts;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of the process (every thread), ms. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void usage(FILE *fp)
{
    fputs("usage: murmur-bench [--scenario uniform|flock|all|coincident|crowded|crowd|starling|starling-forming|falcon|\n"
          "                               starling-settled] [--n 1k,10k,100k,1M]\n"
          "                    [--method grid|brute|grid,brute]\n"
          "                    [--threads 1,2] [--ticks T] [--warmup W] [--repeats R] [--metrics on|off]\n"
          "                    [--brute-max N] [--neighbours metric|topological|metric,topological]\n"
          "                    [--bounds wrap|none] [--background-load N] [--fallback on|off]\n"
          "                    [--density D] [--topo-k K] [--cache DIR] [--settle-base N] [--settle-ticks T]\n"
          "                    [--crowd-max N] [--json]\n"
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
          "  falcon: the starling step with the falcon attacking against it without, alternated (20k)\n"
          "  starling: starling-forming (the starling preset's spawn, first 100 ticks), starling-settled (a\n"
          "           settled flock, 2 warm-up + 20 timed ticks), coincident and crowded (up to --crowd-max\n"
          "           boids, default 100k), at 20k, 100k, 1M on 1 and 2 threads; each size\n"
          "           and thread count also runs the uniform scenario before and after, and every row\n"
          "           gives its ratio to it (and the crowd rows to the settled row)\n"
          "  --cache DIR: where settled states are kept (default $XDG_CACHE_HOME/murmur-bench or\n"
          "           ~/.cache/murmur-bench); --settle-base N: states up to N boids are settled by\n"
          "           simulation (default 20k), larger ones are copies of that side by side;\n"
          "           --settle-ticks T: ticks of that simulation (default 2500)\n",
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The flock definition of a scenario at n boids. */
static mur_flock_def scenario_def(const opts *o, int sc, int32_t n, mur_search method, int nb)
{
    const bool uniform = sc == SC_UNIFORM;
    mur_flock_def d = mur_flock_default_def();
    if (sc == SC_FORMING || sc == SC_SETTLED) { /* the preset as a user gets it (state.c) */
        d = bench_starling_def(n);
        d.neighbour_search = method;
        return d;
    }
    if (sc == SC_COINCIDENT || sc == SC_CROWDED) {
        if (nb == MUR_NEIGHBOURS_TOPOLOGICAL)
            mur_def_preset(&d, "starling", NULL);
        d.boids = n;
        d.neighbour_search = method;
        if (sc == SC_CROWDED) {
            d.bounds = MUR_BOUNDS_BOUNCE;
            for (int a = 0; a < 3; a++) {
                d.world_min[a] = a == 1 ? 38.0f : -2.0f;
                d.world_max[a] = a == 1 ? 42.0f : 2.0f;
            }
        }
        return d;
    }
    d.boids = n;
    d.neighbour_search = method;
    d.neighbours = (mur_neighbours)nb;
    d.topo_k = (float)o->topo_k;
    const double density = o->density / (4.0 / 3.0 * PI); /* per unit volume at view_radius 1 */
    if (uniform) {
        double L = cbrt((double)n / density);
        d.bounds = o->unwrapped || nb == MUR_NEIGHBOURS_TOPOLOGICAL ? MUR_BOUNDS_NONE : MUR_BOUNDS_WRAP;
        d.view_radius = 1.0f;
        d.separation_radius = 0.3f;
        d.view_angle = 360.0f;
        d.min_speed = d.max_speed = 1.0f;
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = 0.0f;
            d.world_max[a] = (float)L;
        }
    } else {
        d.bounds = MUR_BOUNDS_SOFT;
        double r = d.view_radius, vol = 1.0;
        for (int a = 0; a < 3; a++)
            vol *= (double)d.world_max[a] - (double)d.world_min[a];
        double s = cbrt((double)n / (density / (r * r * r)) / vol);
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = (float)(d.world_min[a] * s);
            d.world_max[a] = (float)(d.world_max[a] * s);
        }
        d.goal_pos[1] = (float)(d.goal_pos[1] * s);
    }
    return d;
}

typedef struct result {
    double ms_per_tick, mean_neighbours, candidates, bytes_per_boid, grid_ms, metrics_ms, step_ms;
    double threads_used;  /* mean threads the steps ran on (the library drops to 1 on a busy machine) */
    double load;          /* 1-minute load average after the measurement */
    int ticks, threads;
    uint64_t hash;
    double mean_ms;       /* mean of the timed ticks */
    double cpu_ms;        /* median CPU time of the process per tick (all threads) */
    double rss_peak, rss; /* resident memory per boid: peak growth over the row, growth at its end */
} result;

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One measurement: `repeats` fresh flocks, each warmed up and then timed tick by tick. st: the
 * settled state (SC_SETTLED), else NULL. The resident memory is read around the first repeat. */
static bool run_one(const opts *o, int sc, int32_t n, int method, int nb, int threads, const bench_settled *st,
                    result *r)
{
    const bool uniform = sc == SC_UNIFORM, crowd = sc == SC_COINCIDENT || sc == SC_CROWDED;
    const bool forming = sc == SC_FORMING, settled = sc == SC_SETTLED;
    mur_flock_def d = scenario_def(o, sc, n, (mur_search)method, nb);
    int warm = o->warmup >= 0 ? o->warmup : (uniform ? 1 : (crowd || forming ? 0 : (settled ? 2 : 500)));
    int ticks = o->ticks > 0 ? o->ticks : (uniform ? 20 : (crowd ? 3 : (forming ? 100 : (settled ? 20 : 500))));
    int reps = o->repeats > 0 ? o->repeats : (uniform ? 3 : 1);
    const bool peak_reset = bench_reset_peak();
    const double rss0 = bench_status_bytes("VmRSS");
    size_t nt = (size_t)ticks * (size_t)reps, k = 0;
    double *t = malloc(4 * nt * sizeof *t);
    if (!t)
        return false;
    double *tm = t + nt, *ts = t + 2 * nt, *tc = t + 3 * nt; /* metrics part, the rest, CPU time */
    double gsum = 0.0, csum = 0.0, usum = 0.0;
    mur_flock *f = NULL;
    for (int rep = 0; rep < reps; rep++) {
        mur_flock_destroy(f);
        mur_error err;
        f = mur_flock_create(&d, &err);
        if (!f) {
            fprintf(stderr, "murmur-bench: %s\n", err.msg);
            free(t);
            return false;
        }
        if (!mur_env_apply(f, threads > 0, &err)) {
            fprintf(stderr, "murmur-bench: %s\n", err.msg);
            exit(2);
        }
        if (threads > 0)
            mur_flock_set_threads(f, threads);
        r->threads = mur_flock_threads(f);
        mur_flock_set_thread_fallback(f, !o->fixed);
        mur_flock_set_metrics(f, o->metrics);
        if (sc == SC_COINCIDENT) {
            const float p[3] = {0.0f, 40.0f, 0.0f}, v[3] = {0.0f, 0.0f, 0.0f};
            for (int32_t i = 0; i < n; i++)
                mur_flock_set_boid(f, i, p, v, 0);
        }
        if (settled)
            for (int32_t i = 0; i < n; i++)
                mur_flock_set_boid(f, i, st->pos + 3 * (size_t)i, st->vel + 3 * (size_t)i, 0);
        mur_flock_steps(f, warm);
        for (int i = 0; i < ticks; i++, k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            mur_flock_step(f);
            t[k] = now_ms() - t0;
            tc[k] = cpu_ms() - c0;
            mur_stats s = mur_flock_stats(f);
            gsum += s.grid_ms;
            tm[k] = s.metrics_ms;
            ts[k] = t[k] - s.metrics_ms;
            csum += s.candidates_per_boid;
            usum += s.threads_used;
        }
        if (rep == 0) {
            const double hwm = bench_status_bytes("VmHWM"), rss = bench_status_bytes("VmRSS");
            /* the kernel updates VmHWM lazily: it can lag the current VmRSS by a few pages */
            r->rss_peak = peak_reset && hwm >= 0.0 && rss0 >= 0.0 ? (fmax(hwm, rss) - rss0) / (double)n : NAN;
            r->rss = rss >= 0.0 && rss0 >= 0.0 ? (rss - rss0) / (double)n : NAN;
        }
    }
    r->cpu_ms = median(tc, nt);
    r->mean_ms = 0.0;
    for (size_t q = 0; q < nt; q++)
        r->mean_ms += t[q] / (double)nt;
    r->ms_per_tick = median(t, nt);
    r->metrics_ms = median(tm, nt);
    r->step_ms = median(ts, nt);
    r->threads_used = usum / (double)nt;
    r->load = loadavg();
    r->ticks = (int)nt;
    r->grid_ms = gsum / (double)nt;
    r->candidates = csum / (double)nt;
    r->hash = mur_flock_hash(f);
    mur_stats m = mur_flock_measure(f);
    r->mean_neighbours = m.metrics_valid ? m.mean_neighbours : NAN;
    r->bytes_per_boid = (double)mur_flock_memory(f) / (double)n;
    free(t);
    mur_flock_destroy(f);
    return true;
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

/* The fields every JSON row has, without the closing brace. */
static void print_json_core(const opts *o, const char *sname, int32_t n, const char *mname, const char *bname,
                            const result *r)
{
    double ns = r->ms_per_tick * 1e6 / (double)n;
    printf("{\"scenario\":\"%s\",\"n\":%d,\"method\":\"%s\",\"neighbours\":\"%s\",\"threads\":%d,\"metrics\":%s,"
           "\"ticks\":%d,\"ms_per_tick\":%.6g,\"ns_per_boid_tick\":%.6g,\"mean_neighbours\":%.6g,"
           "\"candidates_per_boid\":%.6g,\"bytes_per_boid\":%.6g,\"grid_ms\":%.6g,"
           "\"metrics_ms\":%.6g,\"step_ms\":%.6g,\"threads_used\":%.4g,\"background_load\":%d,"
           "\"loadavg\":%.3g,\"hash\":\"%016llx\"",
           sname, (int)n, mname, bname, r->threads, o->metrics ? "true" : "false", r->ticks, r->ms_per_tick, ns,
           r->mean_neighbours, r->candidates, r->bytes_per_boid, r->grid_ms, r->metrics_ms, r->step_ms,
           r->threads_used, o->load, r->load, (unsigned long long)r->hash);
}

/* One result row, as JSON or as a table line. */
static void print_row(const opts *o, int sc, int32_t n, int mi, int bi, const result *r)
{
    const char *sname = SC_NAME[sc];
    const char *mname = mur_search_name((mur_search)o->method[mi]);
    const char *bname = mur_neighbours_name((mur_neighbours)o->nb[bi]);
    double ns = r->ms_per_tick * 1e6 / (double)n;
    if (o->json) {
        print_json_core(o, sname, n, mname, bname, r);
        printf("}\n");
    } else
        printf("%-8s %9d %-6s %-11s %3d %-4s %6d %11.4f %13.2f %10.2f %10.1f %9.1f %9.3f %10.3f %9.3f %5.2f %5.2f\n",
               sname, (int)n, mname, bname, r->threads, o->metrics ? "on" : "off", r->ticks, r->ms_per_tick, ns,
               r->mean_neighbours, r->candidates, r->bytes_per_boid, r->grid_ms, r->metrics_ms, r->step_ms,
               r->threads_used, r->load);
}

/* ---------------------------------------------------------------- starling groups */

/* A JSON number, null when not finite. */
static const char *jnum(char *buf, size_t len, double x)
{
    if (isfinite(x))
        snprintf(buf, len, "%.6g", x);
    else
        snprintf(buf, len, "null");
    return buf;
}

/* One row of a starling group: the core fields plus the reference (u: the uniform rows before and
 * after; NULL for those rows themselves), the settled row's ns (crowd rows; NAN when none), the CPU
 * time and the resident memory; st for the settled row. */
static void print_starling_row(const opts *o, int sc, int32_t n, const result *r, const result *u,
                               double settled_ns, const bench_settled *st)
{
    const bool ref = u == NULL;
    const double per = 1e6 / (double)n, cpu_ns = r->cpu_ms * per;
    const double u0 = ref ? NAN : u[0].ms_per_tick * per, u1 = ref ? NAN : u[1].ms_per_tick * per;
    const double ucpu = ref ? NAN : 0.5 * (u[0].cpu_ms + u[1].cpu_ms) * per;
    const char *bname = mur_neighbours_name(ref ? MUR_NEIGHBOURS_METRIC : MUR_NEIGHBOURS_TOPOLOGICAL);
    const double ns = r->ms_per_tick * 1e6 / (double)n, mean_ns = r->mean_ms * 1e6 / (double)n;
    const double uni = 0.5 * (u0 + u1), ratio = ns / uni, mean_ratio = mean_ns / uni, vs_settled = ns / settled_ns;
    char b[8][32];
    if (o->json) {
        print_json_core(o, SC_NAME[sc], n, mur_search_name((mur_search)o->method[0]), bname, r);
        printf(",\"role\":\"%s\",\"mean_ms_per_tick\":%s,\"mean_ns_per_boid_tick\":%s,\"cpu_ns_per_boid_tick\":%s,"
               "\"rss_bytes_per_boid\":%s,\"rss_peak_bytes_per_boid\":%s",
               ref ? "reference" : "row", jnum(b[0], 32, r->mean_ms), jnum(b[1], 32, mean_ns), jnum(b[6], 32, cpu_ns),
               jnum(b[2], 32, r->rss), jnum(b[3], 32, r->rss_peak));
        if (!ref)
            printf(",\"uniform_ns_per_boid_tick\":%s,\"uniform_ns_before\":%s,\"uniform_ns_after\":%s,"
                   "\"ratio_to_uniform\":%s,\"mean_ratio_to_uniform\":%s,\"cpu_ratio_to_uniform\":%s,"
                   "\"ratio_to_settled\":%s",
                   jnum(b[0], 32, uni), jnum(b[1], 32, u0), jnum(b[2], 32, u1), jnum(b[3], 32, ratio),
                   jnum(b[4], 32, mean_ratio), jnum(b[6], 32, cpu_ns / ucpu), jnum(b[5], 32, vs_settled));
        if (st)
            printf(",\"settled_base\":%d,\"settled_copies\":%d,\"settle_ticks\":%d,\"settled_cached\":%s",
                   (int)st->base, (int)st->copies, st->settle_ticks, st->cached ? "true" : "false");
        printf("}\n");
    } else
        printf("%-16s %8d %3d %5d %10.3f %9.1f %9.1f %9.1f %7.2f %7.2f %7.2f %7.2f %8.1f %8.1f %8.1f %8.1f %5.2f\n",
               SC_NAME[sc], (int)n, r->threads, r->ticks, r->ms_per_tick, ns, mean_ns, uni, ratio, mean_ratio,
               cpu_ns / ucpu, vs_settled, r->bytes_per_boid, r->rss, r->rss_peak, r->candidates, r->load);
    fflush(stdout);
}

/* The starling rows: for each size and thread count, the uniform metric step, the asked rows, the
 * uniform step again; each row against the mean of the two. */
static int run_starling(const opts *o)
{
    const int rows[] = {SC_FORMING, SC_SETTLED, SC_COINCIDENT, SC_CROWDED};
    const int method = o->method[0];
    int status = 0;
    if (!o->json)
        printf("%-16s %8s %3s %5s %10s %9s %9s %9s %7s %7s %7s %7s %8s %8s %8s %8s %5s\n", "scenario", "n", "thr",
               "ticks", "ms/tick", "ns/b-t", "mean ns", "uni ns", "ratio", "mean r", "cpu r", "/settl", "lib B/b",
               "rss B/b", "peak B/b", "cand/b", "load");
    for (int ni = 0; ni < o->nn; ni++) {
        const int32_t n = o->n[ni];
        bench_settled st;
        bool have_state = false;
        if (o->run[SC_SETTLED]) {
            have_state = bench_settled_state(o->cache, n, o->settle_base, o->settle_ticks, 0, &st);
            status |= !have_state;
        }
        for (int ti = 0; ti < o->nt; ti++) {
            const int thr = o->threads[ti];
            result u[2], r[4];
            bool got[4] = {false, false, false, false};
            if (!run_one(o, SC_UNIFORM, n, method, MUR_NEIGHBOURS_METRIC, thr, NULL, &u[0]))
                return 1;
            for (int k = 0; k < 4; k++) {
                const int sc = rows[k];
                /* the crowd rows up to --crowd-max boids (default 100k) */
                if (!o->run[sc] || (sc == SC_SETTLED && !have_state) ||
                    ((sc == SC_COINCIDENT || sc == SC_CROWDED) && n > o->crowd_max))
                    continue;
                got[k] = run_one(o, sc, n, method, MUR_NEIGHBOURS_TOPOLOGICAL, thr, sc == SC_SETTLED ? &st : NULL,
                                 &r[k]);
                status |= !got[k];
            }
            if (!run_one(o, SC_UNIFORM, n, method, MUR_NEIGHBOURS_METRIC, thr, NULL, &u[1]))
                return 1;
            const double settled_ns = got[1] ? r[1].ms_per_tick * 1e6 / (double)n : NAN;
            print_starling_row(o, SC_UNIFORM, n, &u[0], NULL, NAN, NULL);
            for (int k = 0; k < 4; k++)
                if (got[k])
                    print_starling_row(o, rows[k], n, &r[k], u, k >= 2 ? settled_ns : NAN,
                                       rows[k] == SC_SETTLED ? &st : NULL);
            print_starling_row(o, SC_UNIFORM, n, &u[1], NULL, NAN, NULL);
        }
        if (have_state) {
            free(st.pos);
            free(st.vel);
        }
    }
    return status;
}

/* ---------------------------------------------------------------- the falcon row */

/* Milliseconds per tick of the starling preset at n boids (the spawn, warm ticks first), with or
 * without the falcon (set up 10 m from the flock: it attacks during the timed ticks); median of the
 * ticks. */
static double falcon_ms(const opts *o, int32_t n, int threads, bool falcon, int warm, int ticks, uint64_t *hash,
                        double *cpu)
{
    mur_flock_def d = bench_starling_def(n);
    d.falcon = falcon;
    d.falcon_setup = 10.0f;
    mur_error err;
    mur_flock *f = mur_flock_create(&d, &err);
    if (!f) {
        fprintf(stderr, "murmur-bench: %s\n", err.msg);
        return NAN;
    }
    if (!mur_env_apply(f, threads > 0, &err)) {
        fprintf(stderr, "murmur-bench: %s\n", err.msg);
        exit(2);
    }
    if (threads > 0)
        mur_flock_set_threads(f, threads);
    mur_flock_set_thread_fallback(f, !o->fixed);
    mur_flock_steps(f, warm);
    double *t = malloc(2 * (size_t)ticks * sizeof *t);
    if (!t)
        exit(1);
    for (int i = 0; i < ticks; i++) {
        const double t0 = now_ms(), c0 = cpu_ms();
        mur_flock_step(f);
        t[i] = now_ms() - t0;
        t[ticks + i] = cpu_ms() - c0;
    }
    const double m = median(t, (size_t)ticks);
    *cpu = median(t + ticks, (size_t)ticks);
    *hash = mur_flock_hash(f);
    free(t);
    mur_flock_destroy(f);
    return m;
}

/* The falcon row (issue 26): the starling step with the falcon against the same step without it,
 * alternated (without, with, without, with, ... --repeats pairs, default 3), at each size (default
 * 20k) and thread count; the ratio of the medians of the pairs. */
static int run_falcon(const opts *o)
{
    const int warm = o->warmup >= 0 ? o->warmup : 20, ticks = o->ticks > 0 ? o->ticks : 40;
    const int pairs = o->repeats > 0 ? o->repeats : 3;
    if (!o->json)
        printf("%-8s %8s %3s %5s %10s %10s %7s %7s %7s %7s\n", "scenario", "n", "thr", "ticks", "off ms", "on ms",
               "ratio", "min r", "cpu r", "load");
    for (int ni = 0; ni < o->nn; ni++)
        for (int ti = 0; ti < o->nt; ti++) {
            const int32_t n = o->n[ni];
            const int thr = o->threads[ti];
            double off[MAX_LIST], on[MAX_LIST], rat[MAX_LIST], coff[MAX_LIST], con[MAX_LIST];
            uint64_t h0 = 0, h1 = 0;
            const int np = pairs < MAX_LIST ? pairs : MAX_LIST;
            for (int k = 0; k < np; k++) {
                off[k] = falcon_ms(o, n, thr, false, warm, ticks, &h0, &coff[k]);
                on[k] = falcon_ms(o, n, thr, true, warm, ticks, &h1, &con[k]);
                rat[k] = on[k] / off[k];
                if (!isfinite(rat[k]))
                    return 1;
            }
            double lo = rat[0];
            for (int k = 1; k < np; k++)
                lo = fmin(lo, rat[k]);
            const double moff = median(off, (size_t)np), mon = median(on, (size_t)np);
            const double cr = median(con, (size_t)np) / median(coff, (size_t)np);
            const double load = loadavg();
            if (o->json)
                printf("{\"scenario\":\"falcon\",\"n\":%d,\"threads\":%d,\"ticks\":%d,\"pairs\":%d,"
                       "\"off_ms_per_tick\":%.6g,\"on_ms_per_tick\":%.6g,\"ratio\":%.6g,\"min_ratio\":%.6g,"
                       "\"cpu_ratio\":%.6g,\"loadavg\":%.3g,\"hash_off\":\"%016llx\",\"hash_on\":\"%016llx\"}\n",
                       (int)n, thr, ticks, np, moff, mon, mon / moff, lo, cr, load, (unsigned long long)h0,
                       (unsigned long long)h1);
            else
                printf("%-8s %8d %3d %5d %10.3f %10.3f %7.3f %7.3f %7.3f %7.2f\n", "falcon", (int)n, thr, ticks, moff,
                       mon, mon / moff, lo, cr, load);
            fflush(stdout);
        }
    return 0;
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
    if (!o.json)
        printf("%-8s %9s %-6s %-11s %3s %-4s %6s %11s %13s %10s %10s %9s %9s %10s %9s %5s %5s\n", "scenario", "n",
               "method", "neighbours", "thr", "met", "ticks", "ms/tick", "ns/boid-tick", "neighbours", "cand/boid",
               "B/boid", "grid ms", "metrics ms", "step ms", "used", "load");
    int status = 0;
    for (int sc = 0; sc < SC_COUNT; sc++) {
        if (!o.run[sc])
            continue;
        /* the crowd scenarios' own sizes unless --n is given: 20k coincident, 100k in the box */
        const int32_t crowd_n = sc == SC_COINCIDENT ? 20000 : 100000;
        const bool own_n = default_n && (sc == SC_COINCIDENT || sc == SC_CROWDED);
        for (int mi = 0; mi < o.nm; mi++)
          for (int bi = 0; bi < o.nnb; bi++)
            for (int ni = 0; ni < (own_n ? 1 : o.nn); ni++)
                for (int ti = 0; ti < o.nt; ti++) {
                    int32_t n = own_n ? crowd_n : o.n[ni];
                    if (o.method[mi] == MUR_SEARCH_BRUTE && n > o.brute_max)
                        continue;
                    result r;
                    int thr = o.threads[ti];
                    if (!run_one(&o, sc, n, o.method[mi], o.nb[bi], thr, NULL, &r)) {
                        status = 1;
                        continue;
                    }
                    print_row(&o, sc, n, mi, bi, &r);
                    fflush(stdout);
                }
    }
    return status;
}
