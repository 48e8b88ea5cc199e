/* Costs of a run before it starts (see cost.h). */
#include "cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The cost of one boid-tick on one thread, s: COST_BASE + COST_PER_NEIGHBOUR x mean neighbours.
 * Fitted to release-build runs of this program on the development machine, idle (docs/performance.md,
 * "Batch runs at scale", tools/scale_figures.py); COST_PARALLEL is the gain of each further thread,
 * above COST_SERIAL_BELOW boids (below it the library's rules pass runs on one thread). */
#define COST_BASE 0.1e-6
#define COST_PER_NEIGHBOUR 0.0024e-6
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

double mur_expected_neighbours(const mur_flock_def *def)
{
    const mur_flock_def r = mur_def_resolved(def);
    if (r.boids < 2)
        return 0.0;
    const double pi = 3.14159265358979323846, rad = r.view_radius;
    double vol = 1.0, inv = 0.0;
    for (int a = 0; a < 3; a++) {
        double L = (double)r.world_max[a] - (double)r.world_min[a];
        vol *= L;
        inv += 1.0 / L;
    }
    /* the view cone of full angle A holds (1 - cos(A/2)) / 2 of the sphere */
    double cone = (1.0 - cos((double)r.view_angle * pi / 360.0)) / 2.0;
    double k = (double)(r.boids - 1) / vol * 4.0 / 3.0 * pi * rad * rad * rad * cone;
    /* walls: a face of area A cuts pi r^4 A / 4 out of the spheres of the boids near it, on average
     * 3 r / 8 x sum(1/L) of a sphere (first order in r/L) */
    if (r.bounds != MUR_BOUNDS_WRAP)
        k *= fmax(0.1, 1.0 - 3.0 * rad / 8.0 * inv);
    /* a box smaller than the view sphere: no more neighbours than boids */
    return fmin(k, (double)(r.boids - 1));
}

double mur_expected_tick_s(const mur_flock_def *def, int threads)
{
    double k = mur_expected_neighbours(def);
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores >= 1 && threads > cores)
        threads = (int)cores;
    double speedup = def->boids < COST_SERIAL_BELOW ? 1.0 : 1.0 + COST_PARALLEL * (threads > 1 ? threads - 1 : 0);
    return (double)def->boids * (COST_BASE + COST_PER_NEIGHBOUR * k) / speedup;
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
    /* the neighbours of the default flock: a world much denser explains a slow run */
    mur_flock_def ref = mur_flock_default_def();
    ref.view_radius = def.view_radius;
    ref.view_angle = def.view_angle;
    double k0 = mur_expected_neighbours(&ref);
    fprintf(stderr, "murmur: %d boids, world=%s: library memory %s (%s free); about %.1f neighbours each, "
                    "expected %s per tick, %s for %lld ticks%s\n",
            (int)def.boids, def.world == MUR_WORLD_SCALE ? "scale" : "fixed", mem, fr, k, tick, run,
            (long long)cli->steps,
            def.world == MUR_WORLD_FIXED && k > 4.0 * k0 && k0 > 0.0
                ? " (a denser world than the default's: --set world=scale keeps the default density)"
                : "");
    fflush(stderr);
}
