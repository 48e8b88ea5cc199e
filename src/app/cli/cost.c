/* Costs of a run before it starts (see cost.h). */
#include "cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The cost of one boid-tick on one thread, us, per neighbour mode (docs/performance/rounds.md, "The time
 * model"). Fitted on 2026-11-25 to single-thread CPU time per boid-tick of the release build on the
 * development machine (2 shared cores, AMD EPYC), at load average 2.6 to 5.7 from the other sessions:
 * `tools/cost_model.py build`, which runs
 *   murmur-bench --scenario uniform --n 20000 --threads 1 --fallback off --density D     (metric,
 *       D = 2, 5, 15, 30, 100, 300 expected neighbours)
 *   murmur-bench ... --neighbours topological --topo-k K                            (K = 1 to 20)
 * and the program's presets at 2000, 20000 and 100000 boids (`--threads 1`). CPU time, because the
 * wall time of a shared machine doubles with its load; on that machine's idle cores a boid-tick took
 * about half of this (0.10 us at 3 neighbours, metric), so the expectation leans to the slow side.
 *
 * Metric: COST_M_BASE + COST_M_NEIGHBOUR x the neighbours the density puts in the view sphere (the
 * kernel scans a block of cells about the sphere whatever the view cone; 0.15 to 1.38 us over 5 to 300
 * neighbours); in plane mode the block is flat and holds about half the candidates per neighbour.
 * Topological: COST_T_BASE + COST_T_CANDIDATE x the candidates the ring search scans: with cells of
 * MUR_TOPO_CELL_BOIDS boids the block of rings 0 and 1 holds a fixed number, and a larger list needs
 * ring 2 more often: 68 + 0.215 x list^2 candidates (murmur-bench cand/boid: 70 at topo_k 1, 80 at 6.5,
 * 153 at 20); plus COST_T_CONTACT per boid in the hard sphere's contact radius (hard_radius + 2
 * max_speed dt: the search scans out to it; the starling preset: 0.49 us at 2000 boids, 2.4 us at
 * 100000, 1.1 us without the hard sphere), plus COST_T_STARLING for the starling rules (speed control,
 * roost, banking: 0.06 us).
 * COST_PARALLEL is the gain of each further thread (idle machine, 2 threads: 0.5 to 0.9 from 100k
 * boids up, docs/performance/rounds.md), from COST_SERIAL_BELOW boids (below, the library's rules pass runs
 * on one thread: MUR_PAR_MIN_RULES). */
#define COST_M_BASE 0.145e-6
#define COST_M_NEIGHBOUR 0.0040e-6
#define COST_M_PLANE 0.5
#define COST_T_BASE 0.0935e-6
#define COST_T_CANDIDATE 0.0039e-6
#define COST_T_CANDIDATES_0 68.0
#define COST_T_CANDIDATES_K2 0.215
#define COST_T_CONTACT 0.0265e-6
#define COST_T_STARLING 0.06e-6
#define COST_PARALLEL 0.7
#define COST_SERIAL_BELOW 2000

static uint64_t mem_available(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    if (!fp)
        return UINT64_MAX;
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, fp))
        found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    fclose(fp);
    return found ? (uint64_t)kb * 1024u : UINT64_MAX;
}

/* Address space left under RLIMIT_AS: the limit less the process's current size (/proc/self/statm). */
static uint64_t as_headroom(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    unsigned long long pages = 0;
    FILE *fp = fopen("/proc/self/statm", "r");
    if (fp) {
        if (fscanf(fp, "%llu", &pages) != 1)
            pages = 0;
        fclose(fp);
    }
    uint64_t used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
    return (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
}

uint64_t mur_free_memory(const char **limit)
{
    uint64_t avail = mem_available(), as = as_headroom();
    if (limit)
        *limit = as < avail ? "address-space limit, ulimit -v" : "MemAvailable";
    return as < avail ? as : avail;
}

/* Boids per unit volume of def's (resolved) box, per unit area in plane mode (the box's x-z face). */
static double density(const mur_flock_def *r)
{
    double v = 1.0;
    for (int a = 0; a < 3; a++)
        if (!(r->plane && a == 1))
            v *= (double)r->world_max[a] - (double)r->world_min[a];
    return v > 0.0 ? (double)(r->boids - 1) / v : 0.0;
}

/* Mean boids within the view radius (inside the view cone when `cone`) of boids spread evenly over
 * def's resolved box, less what the walls cut off (not for wrap); at most boids - 1. */
static double density_neighbours(const mur_flock_def *def, bool cone)
{
    const mur_flock_def r = mur_def_resolved(def);
    if (r.boids < 2)
        return 0.0;
    const double pi = 3.14159265358979323846, rad = r.view_radius, A = r.view_angle * pi / 180.0;
    double inv = 0.0;
    for (int a = 0; a < 3; a++)
        if (!(r.plane && a == 1))
            inv += 1.0 / ((double)r.world_max[a] - (double)r.world_min[a]);
    double k, wall;
    if (r.plane) {
        /* a disc; the cone is a sector of A / 2pi. A wall of length l cuts 2 r^3 l / 3 out of the discs
         * of the boids near it: 4 r / (3 pi) x sum(1/L) of a disc */
        k = density(&r) * pi * rad * rad * (cone ? A / (2.0 * pi) : 1.0);
        wall = 4.0 * rad / (3.0 * pi) * inv;
    } else {
        /* the view cone of full angle A holds (1 - cos(A/2)) / 2 of the sphere; a face of area F cuts
         * pi r^4 F / 4 out of the spheres of the boids near it: 3 r / 8 x sum(1/L) of a sphere (first
         * order in r/L) */
        k = density(&r) * 4.0 / 3.0 * pi * rad * rad * rad * (cone ? (1.0 - cos(A / 2.0)) / 2.0 : 1.0);
        wall = 3.0 * rad / 8.0 * inv;
    }
    if (r.bounds != MUR_BOUNDS_WRAP)
        k *= fmax(0.1, 1.0 - wall);
    /* a box smaller than the view sphere: no more neighbours than boids */
    return fmin(k, (double)(r.boids - 1));
}

double mur_expected_neighbours(const mur_flock_def *def)
{
    double k = density_neighbours(def, true);
    /* topological: the topo_k nearest visible boids within the view radius, whatever the density */
    return def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL ? fmin((double)def->topo_k, k) : k;
}

/* Seconds of one boid-tick on one thread (the constants above). */
static double boid_tick_s(const mur_flock_def *def)
{
    if (def->neighbours != MUR_NEIGHBOURS_TOPOLOGICAL)
        return COST_M_BASE + COST_M_NEIGHBOUR * density_neighbours(def, false) * (def->plane ? COST_M_PLANE : 1.0);
    const mur_flock_def r = mur_def_resolved(def);
    const double list = ceil((double)def->topo_k), pi = 3.14159265358979323846;
    double t = COST_T_BASE + COST_T_CANDIDATE * (COST_T_CANDIDATES_0 + COST_T_CANDIDATES_K2 * list * list);
    if (r.hard_radius > 0.0f) {
        const double hc = (double)r.hard_radius + 2.0 * (double)r.max_speed * (double)r.dt;
        t += COST_T_CONTACT * density(&r) * (r.plane ? pi * hc * hc : 4.0 / 3.0 * pi * hc * hc * hc);
    }
    if (r.speed_tau > 0.0f || r.roost || r.bank)
        t += COST_T_STARLING;
    return t;
}

double mur_expected_tick_s(const mur_flock_def *def, int threads)
{
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores >= 1 && threads > cores)
        threads = (int)cores;
    double speedup = def->boids < COST_SERIAL_BELOW ? 1.0 : 1.0 + COST_PARALLEL * (threads > 1 ? threads - 1 : 0);
    return (double)def->boids * boid_tick_s(def) / speedup;
}

static void human_bytes(double b, char *out, size_t len)
{
    if (b >= 1024.0 * 1024.0 * 1024.0)
        snprintf(out, len, "%.2f GiB", b / (1024.0 * 1024.0 * 1024.0));
    else
        snprintf(out, len, "%.1f MiB", b / (1024.0 * 1024.0));
}

static void human_time(double s, char *out, size_t len)
{
    if (s < 1.0)
        snprintf(out, len, "%.3g ms", s * 1e3);
    else if (s < 120.0)
        snprintf(out, len, "%.3g s", s);
    else if (s < 7200.0)
        snprintf(out, len, "%.0f min", s / 60.0);
    else
        snprintf(out, len, "%.1f h", s / 3600.0);
}

bool mur_cost_memory_ok(const mur_cli *cli)
{
    if (cli->force || cli->init_path) /* --init: the count is the file's, known once it is read */
        return true;
    const char *limit;
    uint64_t avail = mur_free_memory(&limit);
    size_t need = mur_def_memory(&cli->def, cli->threads, true);
    if (avail == UINT64_MAX || (uint64_t)need <= avail)
        return true;
    char a[32], b[32];
    human_bytes((double)need, a, sizeof a);
    human_bytes((double)avail, b, sizeof b);
    fprintf(stderr, "murmur: %d boids need %s of library memory but only %s is free (%s): use fewer boids, or --force to try anyway\n",
            (int)cli->def.boids, a, b, limit);
    return false;
}

void mur_cost_announce(const mur_cli *cli, const mur_flock_def *defp, int threads)
{
    const mur_flock_def def = *defp;
    double k = mur_expected_neighbours(&def), t = mur_expected_tick_s(&def, threads);
    if (cli->quiet || !isatty(2))
        return;
    const char *limit;
    uint64_t avail = mur_free_memory(&limit);
    char mem[32], fr[32], tick[32], run[32];
    human_bytes((double)mur_def_memory(&def, threads, true), mem, sizeof mem);
    if (avail == UINT64_MAX)
        snprintf(fr, sizeof fr, "unknown");
    else
        human_bytes((double)avail, fr, sizeof fr);
    human_time(t, tick, sizeof tick);
    human_time(t * (double)cli->steps, run, sizeof run);
    /* metric neighbours: against the preset's own flock (its count and box) at this view, a world
     * much denser explains a slow run. Topological neighbours do not grow with the density: topo_k
     * sets them and the cost */
    char nb[96], dense[160] = "";
    if (def.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL) {
        if (k < (double)def.topo_k - 0.05)
            snprintf(nb, sizeof nb, "about %.1f neighbours each (topo_k %.1f, fewer within view_radius)", k,
                     (double)def.topo_k);
        else
            snprintf(nb, sizeof nb, "%.1f neighbours each (topo_k)", (double)def.topo_k);
    } else {
        snprintf(nb, sizeof nb, "about %.1f neighbours each", k);
        mur_flock_def ref = mur_flock_default_def();
        const char *preset = cli->preset ? cli->preset : MUR_DEFAULT_PRESET;
        mur_def_preset(&ref, preset, NULL);
        ref.view_radius = def.view_radius;
        ref.view_angle = def.view_angle;
        ref.plane = def.plane;
        ref.bounds = def.bounds;
        double k0 = mur_expected_neighbours(&ref);
        if (k0 > 0.0 && k > 4.0 * k0)
            snprintf(dense, sizeof dense, " (%.0f times the neighbours of the %s preset's %d boids%s)", k / k0, preset,
                     (int)ref.boids,
                     def.world == MUR_WORLD_FIXED ? ": --set world=scale grows the box with the count" : "");
    }
    fprintf(stderr, "murmur: %d boids, world=%s: library memory %s (%s free); %s, expected %s per tick, %s for %lld ticks%s\n",
            (int)def.boids, def.world == MUR_WORLD_SCALE ? "scale" : "fixed", mem, fr, nb, tick, run,
            (long long)cli->steps, dense);
    fflush(stderr);
}
