/* murmur-bench's starling states and memory readings (state.h).
 *
 * The settled state: the starling preset's spawn of `base` boids (the preset as a user gets it, with
 * boids = base) simulated settle_ticks ticks, written once to the cache as the library's CSV state
 * (mur_flock_save_csv: a temp file renamed into place, so a cache file is complete or absent) under a
 * name keyed by the base size, the ticks, and a hash of the library version, every parameter of the
 * def and the state hash of a short reference run (a change of the step's results makes a new key).
 * Larger states are copies of the base state side by side in x and z (a near-square array), each
 * copy's box view_radius apart from the next: at the first tick every boid has exactly the neighbours
 * it has in the settled base flock (the topological neighbours lie within view_radius), so the local
 * density, spacing and cell occupancy are the settled flock's while the count grows. What is not the
 * same as one big settled flock: the copies' borders (each copy has its own edge birds), the roost,
 * which turns the far copies back toward it (a few degrees per tick), and the density: a flock that
 * settles at the larger size round the same roost is denser (40k: 9% more candidates per boid, ticks
 * 1.1-1.4x dearer than 2 copies of 20k; docs/performance/rounds.md "Starling rows").
 */
#define _POSIX_C_SOURCE 200809L
#include "state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

mur_flock_def bench_starling_def(int32_t n)
{
    mur_flock_def d = mur_flock_default_def();
    mur_def_preset(&d, "starling", NULL);
    d.boids = n;
    return d;
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (h ^ 0xffu) * 1099511628211ULL; /* a separator */
}

/* The cache key of a base state: the library version, every parameter, the ticks, and the state
 * hash of 500 starlings after 20 ticks (the step's results: a changed step changes it). */
static uint64_t state_key(const mur_flock_def *d, int ticks)
{
    uint64_t h = fnv(14695981039346656037ULL, MUR_VERSION_STRING);
    h = fnv(h, "settled-v1");
    char buf[256];
    for (int i = 0; i < mur_param_count(); i++) {
        const mur_param *p = mur_param_at(i);
        if (p && mur_def_get(d, p->name, buf, sizeof buf)) {
            h = fnv(h, p->name);
            h = fnv(h, buf);
        }
    }
    snprintf(buf, sizeof buf, "ticks=%d", ticks);
    h = fnv(h, buf);
    mur_flock_def r = bench_starling_def(500);
    mur_flock *f = mur_flock_create(&r, NULL);
    if (f) {
        mur_flock_set_threads(f, 1);
        mur_flock_steps(f, 20);
        snprintf(buf, sizeof buf, "ref=%016llx", (unsigned long long)mur_flock_hash(f));
        h = fnv(h, buf);
        mur_flock_destroy(f);
    }
    return h;
}

/* mkdir -p; false when the folder cannot be made. */
static bool make_dirs(const char *path)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return false;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

/* The cache folder: dir, else $XDG_CACHE_HOME/murmur-bench, else $HOME/.cache/murmur-bench; "" when
 * none. */
static void cache_dir_of(const char *dir, char *out, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    out[0] = '\0';
    if (dir)
        snprintf(out, len, "%s", dir);
    else if (xdg && xdg[0] == '/')
        snprintf(out, len, "%s/murmur-bench", xdg);
    else if (home && home[0])
        snprintf(out, len, "%s/.cache/murmur-bench", home);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The base state: from the cache, else simulated (and cached). NULL + a message on failure. */
static mur_flock *base_state(const char *dir, int32_t base, int ticks, int threads, bench_settled *s)
{
    mur_flock_def d = bench_starling_def(base);
    mur_error err;
    char folder[800];
    cache_dir_of(dir, folder, sizeof folder);
    s->path[0] = '\0';
    if (folder[0])
        snprintf(s->path, sizeof s->path, "%s/starling-settled-n%d-t%d-%016llx.csv", folder, (int)base, ticks,
                 (unsigned long long)state_key(&d, ticks));
    struct stat st;
    if (s->path[0] && stat(s->path, &st) == 0) {
        mur_flock *f = mur_flock_load_csv(&d, s->path, &err);
        if (f && mur_flock_view(f).boids == base) {
            s->cached = true;
            return f;
        }
        fprintf(stderr, "murmur-bench: ignoring the cached state %s (%s); making it again\n", s->path,
                f ? "wrong boid count" : err.msg);
        mur_flock_destroy(f);
    }
    mur_flock *f = mur_flock_create(&d, &err);
    if (!f) {
        fprintf(stderr, "murmur-bench: %s\n", err.msg);
        return NULL;
    }
    if (threads > 0)
        mur_flock_set_threads(f, threads);
    fprintf(stderr, "murmur-bench: settling %d starlings for %d ticks (once: cached in %s)\n", (int)base, ticks,
            s->path[0] ? s->path : "nowhere, no cache folder");
    double t0 = now_s();
    mur_flock_steps(f, ticks);
    fprintf(stderr, "murmur-bench: settled in %.1f s\n", now_s() - t0);
    if (s->path[0] && !make_dirs(folder))
        fprintf(stderr, "murmur-bench: cannot make the cache folder %s (%s); going on without\n", folder,
                strerror(errno));
    else if (s->path[0] && !mur_flock_save_csv(f, s->path, &err))
        fprintf(stderr, "murmur-bench: cannot cache the settled state: %s; going on without\n", err.msg);
    return f;
}

bool bench_settled_state(const char *cache_dir, int32_t n, int32_t base_max, int settle_ticks, int threads,
                         bench_settled *s)
{
    memset(s, 0, sizeof *s);
    const int32_t base = n < base_max ? n : base_max;
    mur_flock *f = base_state(cache_dir, base, settle_ticks, threads, s);
    if (!f)
        return false;
    s->n = n;
    s->base = base;
    s->settle_ticks = settle_ticks;
    s->copies = (int32_t)((n + base - 1) / base);
    s->pos = malloc(sizeof(float) * 3 * (size_t)n);
    s->vel = malloc(sizeof(float) * 3 * (size_t)n);
    if (!s->pos || !s->vel) {
        fprintf(stderr, "murmur-bench: out of memory for a %d-boid state\n", (int)n);
        free(s->pos);
        free(s->vel);
        mur_flock_destroy(f);
        return false;
    }
    mur_view v = mur_flock_view(f);
    /* the base flock's extent in x and z */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int32_t i = 0; i < base; i++)
        for (int a = 0; a < 3; a++) {
            lo[a] = fmin(lo[a], (double)v.pos[3 * i + a]);
            hi[a] = fmax(hi[a], (double)v.pos[3 * i + a]);
        }
    const double gap = (double)bench_starling_def(base).view_radius;
    const int32_t cols = (int32_t)ceil(sqrt((double)s->copies)), rows = (s->copies + cols - 1) / cols;
    const double step[2] = {hi[0] - lo[0] + gap, hi[2] - lo[2] + gap};
    for (int32_t q = 0; q < s->copies; q++) {
        /* copy q at column q % cols, row q / cols, the array centred on the base flock */
        const double dx = ((double)(q % cols) - 0.5 * (cols - 1)) * step[0];
        const double dz = ((double)(q / cols) - 0.5 * (rows - 1)) * step[1];
        for (int32_t j = 0; j < base && (int64_t)q * base + j < n; j++) {
            const size_t i = 3 * ((size_t)q * (size_t)base + (size_t)j);
            s->pos[i] = (float)((double)v.pos[3 * j] + dx);
            s->pos[i + 1] = v.pos[3 * j + 1];
            s->pos[i + 2] = (float)((double)v.pos[3 * j + 2] + dz);
            memcpy(s->vel + i, v.vel + 3 * j, 3 * sizeof(float));
        }
    }
    mur_flock_destroy(f);
    return true;
}

double bench_status_bytes(const char *field)
{
    FILE *fp = fopen("/proc/self/status", "r");
    if (!fp)
        return -1.0;
    char line[256];
    double v = -1.0;
    const size_t len = strlen(field);
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, field, len) && line[len] == ':') {
            double kib;
            if (sscanf(line + len + 1, "%lf", &kib) == 1)
                v = kib * 1024.0;
            break;
        }
    fclose(fp);
    return v;
}

bool bench_reset_peak(void)
{
    FILE *fp = fopen("/proc/self/clear_refs", "w");
    if (!fp)
        return false;
    bool ok = fputs("5", fp) >= 0;
    return fclose(fp) == 0 && ok;
}
