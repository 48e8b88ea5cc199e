/* Flock lifetime, setters, the step driver, views, stats and the state hash. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "internal.h"

void mur_set_error(mur_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

double mur_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int env_threads(void)
{
    const char *names[] = {"MURMUR_THREADS", "OMP_NUM_THREADS"};
    for (int k = 0; k < 2; k++) {
        const char *s = getenv(names[k]);
        if (s && *s) {
            char *end;
            long v = strtol(s, &end, 10);
            if (*end == 0 && v > 0)
                return v > MUR_MAX_THREADS ? MUR_MAX_THREADS : (int)v;
        }
    }
#ifdef _OPENMP
    int p = omp_get_num_procs();
    return p < 1 ? 1 : (p > MUR_MAX_THREADS ? MUR_MAX_THREADS : p);
#else
    return 1;
#endif
}

int mur_effective_threads(const mur_flock *f)
{
    return f->threads;
}

static void free_gather(mur_flock *f)
{
    for (int t = 0; t < MUR_MAX_THREADS; t++) {
        free(f->gather[t].x);
        free(f->gather[t].col);
        memset(&f->gather[t], 0, sizeof f->gather[t]);
    }
}

/* One block per thread: 7 zeroed arrays of MUR_GATHER_CAP + MUR_PAD floats and the column tables. */
static bool alloc_gather(mur_flock *f, int threads)
{
    const size_t stride = MUR_GATHER_CAP + MUR_PAD;
    for (int t = 0; t < threads; t++) {
        if (f->gather[t].x)
            continue;
        float *b = calloc(7 * stride, sizeof(float));
        int32_t *c = calloc(2 * MUR_GATHER_COLS + 2, sizeof(int32_t));
        if (!b || !c) {
            free(b);
            free(c);
            return false;
        }
        mur_gather *g = &f->gather[t];
        g->x = b;
        g->y = b + stride;
        g->z = b + 2 * stride;
        g->vx = b + 3 * stride;
        g->vy = b + 4 * stride;
        g->vz = b + 5 * stride;
        g->w = b + 6 * stride;
        g->col = c;
        g->self = c + MUR_GATHER_COLS + 1;
    }
    return true;
}

static bool grow(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes ? bytes : 1);
    if (!q)
        return false;
    *p = q;
    return true;
}

static bool ensure_metric_buffers(mur_flock *f)
{
    int64_t items = mur_rules_max_items(f->cap);
    size_t blocks = (size_t)f->cap / MUR_METRIC_BLOCK + 1;
    return grow((void **)&f->item_cnt, (size_t)items * 2 * sizeof(int64_t)) &&
           grow((void **)&f->item_nn, (size_t)items * sizeof(double)) &&
           grow(&f->msum, blocks * MUR_METRIC_BLOCK_BYTES);
}

/* Cells of half the view radius hold about one boid each at the benchmark's density (~1.1 cells per
 * boid at 100k and 1M); sparser flocks get larger cells (grid.c). */
static int64_t cells_for(int32_t n) { return (int64_t)n / 2 + 64; }

/* Sorted arrays: cap boids and MUR_PAD floats of slack, zeroed when grown, so vector loads past the
 * last boid read defined values. */
static bool grow_sorted(float **p, int32_t old_cap, int32_t cap)
{
    if (!grow((void **)p, ((size_t)cap + MUR_PAD) * sizeof(float)))
        return false;
    size_t from = old_cap < cap ? (size_t)old_cap : (size_t)cap;
    memset(*p + from, 0, ((size_t)cap + MUR_PAD - from) * sizeof(float));
    return true;
}

/* Make room for cap boids (never shrinks). On failure the flock is unchanged and usable. */
static bool reserve_boids(mur_flock *f, int32_t cap)
{
    if (cap <= f->cap && f->grid.cap_cells >= cells_for(cap))
        return true;
    size_t n = (size_t)cap;
    bool ok = grow((void **)&f->pos, 3 * n * sizeof(float)) && grow((void **)&f->vel, 3 * n * sizeof(float)) &&
              grow((void **)&f->perch, n * sizeof(int32_t)) && grow_sorted(&f->sx, f->cap, cap) &&
              grow_sorted(&f->sy, f->cap, cap) && grow_sorted(&f->sz, f->cap, cap) &&
              grow_sorted(&f->svx, f->cap, cap) && grow_sorted(&f->svy, f->cap, cap) &&
              grow_sorted(&f->svz, f->cap, cap) && grow_sorted(&f->sw, f->cap, cap) &&
              grow((void **)&f->order, n * sizeof(int32_t)) && grow((void **)&f->cellof, n * sizeof(int32_t));
    int64_t cc = cells_for(cap);
    ok = ok && grow((void **)&f->grid.start, (size_t)(cc + 1) * sizeof(int32_t));
    if (!ok)
        return false;
    f->cap = cap;
    f->grid.cap_cells = cc;
    if (f->metrics_every && !ensure_metric_buffers(f)) {
        f->metrics_every = false; /* the flock stays usable; metrics switch off */
        return false;
    }
    return true;
}


/* Seeded random boid i (stream 1): uniform in the world box, random direction, speed in [min, max]. */
static void spawn_boid(mur_flock *f, int32_t i, uint64_t salt)
{
    const mur_flock_def *d = &f->def;
    uint64_t key = ((uint64_t)i << 4) ^ (salt << 36);
    for (int a = 0; a < 3; a++) {
        float u = mur_hash_unit(d->seed, 1, key + (uint64_t)a);
        f->pos[3 * i + a] = d->world_min[a] + u * (d->world_max[a] - d->world_min[a]);
        if (f->pos[3 * i + a] >= d->world_max[a])
            f->pos[3 * i + a] = d->world_min[a];
    }
    float z = 2.0f * mur_hash_unit(d->seed, 2, key) - 1.0f;
    float phi = 6.2831853f * mur_hash_unit(d->seed, 3, key);
    float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    float s = d->min_speed + mur_hash_unit(d->seed, 4, key) * (d->max_speed - d->min_speed);
    f->vel[3 * i] = s * r * cosf(phi);
    f->vel[3 * i + 1] = s * z;
    f->vel[3 * i + 2] = s * r * sinf(phi);
    f->perch[i] = 0;
}

static void spawn_predator(mur_flock *f, int32_t k, uint64_t salt)
{
    const mur_flock_def *d = &f->def;
    uint64_t key = ((uint64_t)k << 4) ^ (salt << 36);
    for (int a = 0; a < 3; a++) {
        float u = mur_hash_unit(d->seed, 5, key + (uint64_t)a);
        f->ppos[3 * k + a] = d->world_min[a] + u * (d->world_max[a] - d->world_min[a]);
        f->pvel[3 * k + a] = 0.0f;
    }
}

bool mur_flock_set_predator_count(mur_flock *f, int32_t n, mur_error *err)
{
    if (n < 0 || n > MUR_MAX_PREDATORS) {
        mur_set_error(err, "bad predator count %d: expected a whole number in [0, %d]", (int)n, MUR_MAX_PREDATORS);
        return false;
    }
    if (n > f->pcap) {
        size_t c = (size_t)n;
        if (!grow((void **)&f->ppos, 3 * c * sizeof(float)) || !grow((void **)&f->pvel, 3 * c * sizeof(float)) ||
            !grow((void **)&f->ptmp, 6 * c * sizeof(float))) {
            mur_set_error(err, "cannot allocate memory for %d predators", (int)n);
            return false;
        }
        f->pcap = n;
    }
    for (int32_t k = f->np; k < n; k++)
        spawn_predator(f, k, f->tick);
    f->np = n;
    f->def.predators = n;
    return true;
}

bool mur_flock_set_boid_count(mur_flock *f, int32_t n, mur_error *err)
{
    if (n < 0 || n > MUR_MAX_BOIDS) {
        mur_set_error(err, "bad boid count %d: expected a whole number in [0, %d]", (int)n, MUR_MAX_BOIDS);
        return false;
    }
    if (!reserve_boids(f, n)) {
        mur_set_error(err, "cannot allocate memory for %d boids (about %.0f MiB)", (int)n,
                      (double)n * 64.0 / 1048576.0);
        return false;
    }
    for (int32_t i = f->n; i < n; i++)
        spawn_boid(f, i, f->tick);
    f->n = n;
    f->def.boids = n;
    return true;
}

mur_flock *mur_flock_create(const mur_flock_def *def, mur_error *err)
{
    if (!mur_def_check(def, err))
        return NULL;
    mur_flock *f = calloc(1, sizeof *f);
    if (!f) {
        mur_set_error(err, "cannot allocate a flock");
        return NULL;
    }
    f->def = *def;
    f->pred_on = true;
    f->threads = env_threads();
    f->simd = mur_rules_pick_simd();
    const char *reach = getenv("MURMUR_CELL_REACH");
    f->grid.want_reach = reach && !strcmp(reach, "2") ? 2 : 1;
    if (!alloc_gather(f, f->threads) || !mur_flock_set_boid_count(f, def->boids, err) ||
        !mur_flock_set_predator_count(f, def->predators, err)) {
        if (err && !err->msg[0])
            mur_set_error(err, "cannot allocate memory for the flock");
        mur_flock_destroy(f);
        return NULL;
    }
    return f;
}

void mur_flock_destroy(mur_flock *f)
{
    if (!f)
        return;
    void *ptrs[] = {f->pos, f->vel, f->perch, f->ppos, f->pvel, f->ptmp, f->sx, f->sy, f->sz, f->svx,
                    f->svy, f->svz, f->sw, f->order, f->cellof, f->grid.start, f->item_nn, f->item_cnt, f->msum};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    free_gather(f);
    free(f);
}

static void build(mur_flock *f)
{
    if (f->def.neighbour_search == MUR_SEARCH_BRUTE)
        mur_grid_build_brute(f);
    else
        mur_grid_build(f);
}

/* One tick, optionally measuring the state it starts from. */
static void tick(mur_flock *f, bool move, bool metrics)
{
    double t0 = mur_now_ms();
    mur_stats st;
    memset(&st, 0, sizeof st);
    st.tick = f->tick;
    st.boids = f->n;
    st.predators = f->pred_on ? f->np : 0;
    int64_t neigh = 0, with = 0, cand = 0;
    double nn = 0.0;
    if (f->n > 0)
        build(f);
    double t1 = mur_now_ms();
    if (move && f->pred_on && f->np > 0)
        mur_predators_plan(f);
    if (metrics)
        mur_metrics_state(f, &st);
    double t2 = mur_now_ms();
    if (f->n > 0)
        mur_rules_pass(f, move, metrics, &neigh, &nn, &with, &cand);
    if (move && f->pred_on && f->np > 0)
        mur_predators_commit(f);
    if (move)
        f->tick++;
    double t3 = mur_now_ms();
    int32_t flying = f->n - st.perching;
    if (metrics) {
        st.metrics_valid = true;
        st.mean_neighbours = flying > 0 ? (double)neigh / flying : 0.0;
        st.nn_distance = with > 0 ? nn / (double)with : 0.0;
    }
    st.candidates_per_boid = f->n > 0 ? (double)cand / f->n : 0.0;
    st.grid_ms = t1 - t0;
    st.metrics_ms = t2 - t1;
    st.step_ms = t3 - t0;
    f->stats = st;
}

void mur_flock_step(mur_flock *f)
{
    tick(f, true, f->metrics_every);
}

void mur_flock_steps(mur_flock *f, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        mur_flock_step(f);
}

mur_stats mur_flock_measure(mur_flock *f)
{
    if (!ensure_metric_buffers(f)) {
        mur_stats s = f->stats;
        s.metrics_valid = false;
        return s;
    }
    tick(f, false, true);
    return f->stats;
}

mur_stats mur_flock_stats(const mur_flock *f) { return f->stats; }

void mur_flock_set_metrics(mur_flock *f, bool every_tick)
{
    f->metrics_every = every_tick && ensure_metric_buffers(f);
}

mur_view mur_flock_view(const mur_flock *f)
{
    mur_view v;
    v.tick = f->tick;
    v.boids = f->n;
    v.pos = f->pos;
    v.vel = f->vel;
    v.perch = f->perch;
    v.predators = f->np;
    v.predators_on = f->pred_on;
    v.pred_pos = f->ppos;
    v.pred_vel = f->pvel;
    return v;
}

mur_flock_def mur_flock_get_def(const mur_flock *f) { return f->def; }

static bool finite3(const float *v)
{
    return v && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

bool mur_flock_set_boid(mur_flock *f, int32_t i, const float pos[3], const float vel[3], int32_t perch)
{
    if (i < 0 || i >= f->n || !finite3(pos) || !finite3(vel) || perch < 0)
        return false;
    memcpy(f->pos + 3 * (size_t)i, pos, 3 * sizeof(float));
    memcpy(f->vel + 3 * (size_t)i, vel, 3 * sizeof(float));
    f->perch[i] = perch;
    return true;
}

bool mur_flock_set_predator(mur_flock *f, int32_t k, const float pos[3], const float vel[3])
{
    if (k < 0 || k >= f->np || !finite3(pos) || !finite3(vel))
        return false;
    memcpy(f->ppos + 3 * (size_t)k, pos, 3 * sizeof(float));
    memcpy(f->pvel + 3 * (size_t)k, vel, 3 * sizeof(float));
    return true;
}

bool mur_flock_apply_def(mur_flock *f, const mur_flock_def *def, mur_error *err)
{
    if (!mur_def_check(def, err))
        return false;
    if (def->boids != f->n && !mur_flock_set_boid_count(f, def->boids, err))
        return false;
    if (def->predators != f->np && !mur_flock_set_predator_count(f, def->predators, err))
        return false;
    bool was_perch = f->def.perch;
    f->def = *def;
    if (was_perch && !def->perch)
        mur_flock_set_perch(f, false);
    return true;
}

void mur_flock_set_perch(mur_flock *f, bool on)
{
    f->def.perch = on;
    if (!on)
        memset(f->perch, 0, sizeof(int32_t) * (size_t)f->n);
}

void mur_flock_set_predators_on(mur_flock *f, bool on) { f->pred_on = on; }

void mur_flock_set_goal(mur_flock *f, bool on, const float *pos)
{
    f->def.goal = on;
    if (pos) {
        for (int a = 0; a < 3; a++)
            if (isfinite(pos[a]))
                f->def.goal_pos[a] = pos[a];
    }
}

void mur_flock_set_wind(mur_flock *f, bool on, const float *vel)
{
    f->def.wind = on;
    if (vel) {
        for (int a = 0; a < 3; a++)
            if (isfinite(vel[a]))
                f->def.wind_vel[a] = vel[a];
    }
}

void mur_flock_set_scatter(mur_flock *f, bool on) { f->def.scatter = on; }

void mur_flock_set_bounds(mur_flock *f, mur_bounds mode)
{
    if (mode >= 0 && mode < MUR_BOUNDS_COUNT)
        f->def.bounds = mode;
}

void mur_flock_set_search(mur_flock *f, mur_search method)
{
    if (method >= 0 && method < MUR_SEARCH_COUNT)
        f->def.neighbour_search = method;
}

void mur_flock_set_threads(mur_flock *f, int threads)
{
    int t = threads > 0 ? threads : env_threads();
    if (t > MUR_MAX_THREADS)
        t = MUR_MAX_THREADS;
    if (alloc_gather(f, t))
        f->threads = t;
}

int mur_flock_threads(const mur_flock *f) { return f->threads; }

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t mur_flock_hash(const mur_flock *f)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t n = (size_t)f->n, np = (size_t)f->np;
    h = fnv(h, &f->tick, sizeof f->tick);
    h = fnv(h, &f->n, sizeof f->n);
    h = fnv(h, f->pos, 3 * n * sizeof(float));
    h = fnv(h, f->vel, 3 * n * sizeof(float));
    h = fnv(h, f->perch, n * sizeof(int32_t));
    h = fnv(h, &f->np, sizeof f->np);
    h = fnv(h, f->ppos, 3 * np * sizeof(float));
    h = fnv(h, f->pvel, 3 * np * sizeof(float));
    return h;
}

size_t mur_flock_memory(const mur_flock *f)
{
    size_t b = sizeof *f;
    b += (size_t)f->cap * (3 + 3 + 1 + 7 + 2) * 4 + 7 * MUR_PAD * 4;
    b += (size_t)f->pcap * 12 * 4;
    b += (size_t)(f->grid.cap_cells + 1) * 4;
    if (f->item_cnt)
        b += (size_t)mur_rules_max_items(f->cap) * (16 + 8) +
             ((size_t)f->cap / MUR_METRIC_BLOCK + 1) * MUR_METRIC_BLOCK_BYTES;
    for (int t = 0; t < MUR_MAX_THREADS; t++)
        if (f->gather[t].x)
            b += sizeof(float) * 7 * (MUR_GATHER_CAP + MUR_PAD) + sizeof(int32_t) * (2 * MUR_GATHER_COLS + 2);
    return b;
}
