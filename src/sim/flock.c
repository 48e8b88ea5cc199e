/* Flock lifetime and buffers, the step driver (one mur_step per tick, handed to the grid,
 * the predators, the metrics and the rules), views, stats and the state hash. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "falcon.h"
#include "flock_impl.h"
#include "react.h"
#include "grid.h"
#include "kernel.h"
#include "metrics.h"
#include "predators.h"
#include "rules.h"
#include "space.h"
#include "step.h"
#include "topo.h"

static void free_gather(mur_flock *f)
{
    for (int t = 0; t < MUR_MAX_THREADS; t++) {
        free(f->gather[t].x);
        free(f->gather[t].col);
        memset(&f->gather[t], 0, sizeof f->gather[t]);
    }
}

/* One gather buffer per thread: 7 zeroed arrays of GATHER_STRIDE floats and the column tables. */
#define GATHER_STRIDE MUR_GATHER_STRIDE
#define GATHER_FLOATS MUR_GATHER_FLOATS
#define GATHER_INTS (2 * MUR_GATHER_COLS + 2)

static bool alloc_gather(mur_flock *f, int threads)
{
    const size_t stride = GATHER_STRIDE;
    for (int t = 0; t < threads; t++) {
        if (f->gather[t].x)
            continue;
        float *b = calloc(GATHER_FLOATS, sizeof(float));
        int32_t *c = calloc(GATHER_INTS, sizeof(int32_t));
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

/* The flock's buffers: one row each, sized per unit of what it holds. Allocation, release and the
 * memory figure all read this table. */
typedef enum buf_per {
    PER_BOID,      ///< cap boids
    PER_SORTED,    ///< cap boids + MUR_PAD floats of slack, zeroed when grown (vector loads past the end)
    PER_CELL,      ///< cap_cells + 1
    PER_PREDATOR,  ///< pcap predators
    PER_ITEM,      ///< work items of the rules pass (metrics)
    PER_BLOCK      ///< metric blocks (metrics)
} buf_per;

typedef struct buffer {
    size_t off;    ///< offset of the pointer in mur_flock
    buf_per per;
    size_t bytes;  ///< bytes per unit
} buffer;

#define BUF(field, per, bytes) {offsetof(mur_flock, field), per, bytes}
static const buffer BUFFERS[] = {
    BUF(pos, PER_BOID, 3 * sizeof(float)),
    BUF(vel, PER_BOID, 3 * sizeof(float)),
    BUF(perch, PER_BOID, sizeof(int32_t)),
    BUF(roll, PER_BOID, sizeof(float)),
    BUF(order, PER_BOID, sizeof(int32_t)),
    BUF(cellof, PER_BOID, sizeof(int32_t)),
    BUF(sx, PER_SORTED, sizeof(float)),
    BUF(sy, PER_SORTED, sizeof(float)),
    BUF(sz, PER_SORTED, sizeof(float)),
    BUF(svx, PER_SORTED, sizeof(float)),
    BUF(svy, PER_SORTED, sizeof(float)),
    BUF(svz, PER_SORTED, sizeof(float)),
    BUF(sw, PER_SORTED, sizeof(float)),
    BUF(sroll, PER_SORTED, sizeof(float)),
    BUF(topo_hint, PER_SORTED, 2 * sizeof(uint16_t)), /* by boid index; PER_SORTED: zeroed when grown */
    BUF(grid.start, PER_CELL, sizeof(int32_t)),
    BUF(cwhole, PER_CELL, sizeof(uint8_t)),
    BUF(ppos, PER_PREDATOR, 3 * sizeof(float)),
    BUF(pvel, PER_PREDATOR, 3 * sizeof(float)),
    BUF(ptmp, PER_PREDATOR, 6 * sizeof(float)),
    BUF(item_cnt, PER_ITEM, 2 * sizeof(int64_t)),
    BUF(item_nn, PER_ITEM, sizeof(double)),
    BUF(msum, PER_BLOCK, sizeof(mur_metric_block)),
};
#define NBUFFERS (sizeof BUFFERS / sizeof BUFFERS[0])

/* The pointer of a row (copied, not cast: the fields are float * and int32_t *). */
static void *buf_get(const mur_flock *f, const buffer *b)
{
    void *p;
    memcpy(&p, (const char *)f + b->off, sizeof p);
    return p;
}

static void buf_put(mur_flock *f, const buffer *b, void *p)
{
    memcpy((char *)f + b->off, &p, sizeof p);
}

/* Cells of half the view radius hold about one boid each at the benchmark's density (~1.1 cells per
 * boid at 100k and 1M); sparser flocks get larger cells (grid.c). */
static int64_t metric_cells_for(int32_t n) { return (int64_t)n / 2 + 64; }
/* The topological search's cells are sized from the flock's spacing (grid.c): a thin flock in a
 * mostly empty bounding box occupies few of them, so it may use more cells than boids. */
static int64_t cells_for(int32_t n) { return (int64_t)n * MUR_TOPO_CELLS_PER_BOID + 64; }

/* Units of kind k for cap boids, cells cells and pcap predators. */
static size_t units(buf_per k, int32_t cap, int64_t cells, int32_t pcap)
{
    switch (k) {
    case PER_BOID: return (size_t)cap;
    case PER_SORTED: return (size_t)cap + MUR_PAD;
    case PER_CELL: return (size_t)cells + 1;
    case PER_PREDATOR: return (size_t)pcap;
    case PER_ITEM: return (size_t)mur_rules_max_items(cap);
    case PER_BLOCK: return (size_t)cap / MUR_METRIC_BLOCK + 1;
    }
    return 0;
}

/* Grow every row of the kinds [k0, k1] to the new sizes (never shrinks). A PER_SORTED row is zeroed
 * from its old end. On failure the rows already grown stay usable (larger) and the caller keeps the
 * old counts. */
static bool grow_rows(mur_flock *f, buf_per k0, buf_per k1, int32_t cap, int64_t cells, int32_t pcap)
{
    for (size_t r = 0; r < NBUFFERS; r++) {
        const buffer *b = &BUFFERS[r];
        if (b->per < k0 || b->per > k1)
            continue;
        const size_t n = units(b->per, cap, cells, pcap) * b->bytes;
        void *q = realloc(buf_get(f, b), n ? n : 1);
        if (!q)
            return false;
        if (b->per == PER_SORTED) {
            const size_t from = units(b->per, f->cap < cap ? f->cap : cap, 0, 0) - MUR_PAD;
            memset((char *)q + from * b->bytes, 0, n - from * b->bytes);
        }
        buf_put(f, b, q);
    }
    return true;
}

/* Bytes per boid of the boid rows (for the out-of-memory message). */
static size_t boid_bytes(void)
{
    size_t sum = 0;
    for (size_t r = 0; r < NBUFFERS; r++)
        if (BUFFERS[r].per == PER_BOID || BUFFERS[r].per == PER_SORTED)
            sum += BUFFERS[r].bytes;
    return sum;
}

static bool ensure_metric_buffers(mur_flock *f)
{
    return grow_rows(f, PER_ITEM, PER_BLOCK, f->cap, 0, 0);
}

/* Make room for cap boids (never shrinks). On failure the flock is unchanged and usable. */
static bool reserve_boids(mur_flock *f, int32_t cap)
{
    if (cap <= f->cap && f->grid.cap_cells >= cells_for(cap))
        return true;
    int64_t cc = cells_for(cap);
    if (!grow_rows(f, PER_BOID, PER_CELL, cap, cc, 0))
        return false;
    if (f->esc_cap > 0 && !mur_escape_reserve(f, cap))
        return false;
    f->cap = cap;
    f->grid.cap_cells = cc;
    f->grid.cap_metric = metric_cells_for(cap);
    if (f->metrics_every && !ensure_metric_buffers(f)) {
        f->metrics_every = false; /* the flock stays usable; metrics switch off */
        return false;
    }
    return true;
}

bool mur_flock_set_predator_count(mur_flock *f, int32_t n, mur_error *err)
{
    if (n < 0 || n > MUR_MAX_PREDATORS) {
        mur_set_error(err, "bad predator count %d: expected a whole number in [0, %d]", (int)n, MUR_MAX_PREDATORS);
        return false;
    }
    if (n > f->pcap) {
        if (!grow_rows(f, PER_PREDATOR, PER_PREDATOR, 0, 0, n)) {
            mur_set_error(err, "cannot allocate memory for %d predators", (int)n);
            return false;
        }
        f->pcap = n;
    }
    const mur_flock_def res = mur_def_resolved(&f->def);
    for (int32_t k = f->np; k < n; k++)
        mur_spawn_predator(f, &res, k, f->tick);
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
                      (double)n * (double)boid_bytes() / 1048576.0);
        return false;
    }
    /* new boids appear in the world of the new count (world=scale: the box grows with it) */
    mur_flock_def nd = f->def;
    nd.boids = n;
    const mur_flock_def res = mur_def_resolved(&nd);
    if (!mur_spawn_boids(f, &res, f->n, n, f->tick)) {
        mur_set_error(err, "cannot allocate memory to place %d new boids", (int)(n - f->n));
        return false;
    }
    f->n = n;
    mur_react_forget(f, -1); /* a removed boid's index may come back: no held steering */
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
    f->threads = mur_all_cores();
    mur_cores_reset(&f->cores);
    f->simd = mur_kernel_best();
    f->search_simd = mur_kernel_best_search();
    f->grid.want_reach = 1;
    /* each failure sets its own message: the caller's error need not start empty */
    bool ok = alloc_gather(f, f->threads);
    if (!ok)
        mur_set_error(err, "cannot allocate memory for the flock");
    ok = ok && mur_flock_set_boid_count(f, def->boids, err) && mur_flock_set_predator_count(f, def->predators, err);
    ok = ok && (!def->falcon || mur_falcon_switch(f, true, err));
    if (!ok) {
        mur_flock_destroy(f);
        return NULL;
    }
    return f;
}

void mur_flock_destroy(mur_flock *f)
{
    if (!f)
        return;
    for (size_t r = 0; r < NBUFFERS; r++)
        free(buf_get(f, &BUFFERS[r]));
    free_gather(f);
    mur_topo_lists_free(f);
    free(f->srow);
    mur_react_free(f);
    mur_track_free(f);
    mur_escape_free(f);
    free(f);
}

/* The context of one tick: built here once, read by every part of the tick. */
static void step_init(mur_step *s, mur_flock *f, bool move, bool metrics)
{
    memset(s, 0, sizeof *s);
    s->res = mur_def_resolved(&f->def);
    s->def = &s->res;
    s->threads = move ? mur_cores_threads(&f->cores, f->threads) : mur_cores_current(&f->cores, f->threads);
    s->move = move;
    s->metrics = metrics;
    s->simd = f->simd;
    s->search_simd = f->search_simd;
    mur_world_init(&s->world, s->def);
    s->np = f->pred_on ? f->np : 0;
    s->ppos = f->ppos;
    mur_rules_prepare(s->def, &s->rule);
    s->starling = s->def->speed_tau > 0.0f || s->def->roost || s->def->bank;
    s->escape = move && s->def->falcon && f->esc_cap >= f->n;
    /* the topological search wants small cells, the groups metric cells of the view radius: a
     * topological tick with metrics builds the groups' grid first, of half the view radius (each cell
     * within the view radius across: metrics.c count_groups), then the search's (tick) */
    const bool topo = s->def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL;
    s->cell_boids = topo && !metrics ? MUR_TOPO_CELL_BOIDS : 0.0f;
    s->half_cells = topo && metrics;
}

/* One tick, optionally measuring the state it starts from. */
static void tick(mur_flock *f, bool move, bool metrics)
{
    double t0 = mur_now_ms();
    mur_step s;
    step_init(&s, f, move, metrics);
    mur_stats st;
    memset(&st, 0, sizeof st);
    st.tick = f->tick;
    st.time_s = f->time;
    st.boids = f->n;
    st.predators = s.np;
    mur_pass_sums ps;
    memset(&ps, 0, sizeof ps);
    if (f->n > 0) {
        if (f->def.neighbour_search == MUR_SEARCH_BRUTE)
            mur_grid_build_brute(f, &s);
        else
            mur_grid_build(f, &s);
    }
    double t1 = mur_now_ms();
    if (move && s.np > 0)
        mur_predators_plan(f, &s);
    if (s.escape)
        mur_falcon_plan(f, &s);
    if (metrics)
        mur_metrics_state(f, &s, &st);
    if (metrics && f->def.falcon && f->esc_cap >= f->n)
        mur_falcon_measure(f, &st);
    if (s.half_cells && f->n > 0 && f->def.neighbour_search != MUR_SEARCH_BRUTE) {
        /* the search's own grid (on the groups' cells a dense flock puts hundreds of boids in a
         * cell: 8x slower). The neighbours found do not depend on the cells, so the state is the
         * one without metrics. */
        s.cell_boids = MUR_TOPO_CELL_BOIDS;
        s.half_cells = false;
        mur_grid_build(f, &s);
    }
    double t2 = mur_now_ms();
    /* the rolls the tick starts from (bank alignment) and the escape snapshot in slot order were
     * copied by the grid build, on every thread (grid.c fill_extra) */
    if (f->n > 0 && f->def.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL)
        mur_topo_pass(f, &s, &ps);
    else if (f->n > 0)
        mur_rules_pass(f, &s, &ps);
    if (move && s.np > 0)
        mur_predators_commit(f);
    if (s.escape)
        mur_falcon_commit(f, &s);
    if (move) {
        f->tick++;
        f->time += (double)f->def.dt;
    }
    double t3 = mur_now_ms();
    int32_t flying = f->n - st.perching;
    if (metrics) {
        st.metrics_valid = true;
        st.mean_neighbours = flying > 0 ? (double)ps.neighbours / flying : 0.0;
        st.nn_distance = ps.with_nn > 0 ? ps.nn_sum / (double)ps.with_nn : 0.0;
    }
    st.candidates_per_boid = f->n > 0 ? (double)ps.candidates / f->n : 0.0;
    st.threads_used = s.threads;
    if (move && f->n >= MUR_PAR_MIN_RULES)
        mur_cores_update(&f->cores, s.threads, f->threads, (t3 - t0) - (t2 - t1), ps.own_core);
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

int32_t mur_label_groups(const float *pos, int32_t n, float link, int32_t *label, mur_error *err)
{
    if (n < 0 || (n > 0 && (!pos || !label))) {
        mur_set_error(err, "mur_label_groups: %d points (need 0 or more, with positions and labels)", (int)n);
        return -1;
    }
    if (!(link > 0.0f) || !isfinite(link)) {
        mur_set_error(err, "link distance %g is out of range: need a finite distance above 0", (double)link);
        return -1;
    }
    for (int64_t i = 0; i < 3 * (int64_t)n; i++)
        if (!isfinite(pos[i])) {
            mur_set_error(err, "point %lld has a coordinate %g: need finite positions", (long long)(i / 3), (double)pos[i]);
            return -1;
        }
    if (n == 0)
        return 0;
    /* a flock of the points at rest whose view radius is the link: its metric grid and groups */
    mur_flock_def d = mur_flock_default_def();
    d.boids = n;
    d.predators = 0;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.neighbour_search = MUR_SEARCH_GRID;
    d.view_radius = link;
    d.separation_radius = 0.0f;
    d.bounds = MUR_BOUNDS_NONE;
    mur_flock *f = mur_flock_create(&d, err);
    if (!f)
        return -1;
    memcpy(f->pos, pos, sizeof(float) * 3 * (size_t)n);
    int32_t groups = -1;
    if (ensure_metric_buffers(f)) {
        mur_step s;
        step_init(&s, f, false, true);
        mur_grid_build(f, &s);
        groups = mur_metrics_label(f, &s, label);
    }
    if (groups < 0)
        mur_set_error(err, "no memory for the groups of %d points", (int)n);
    mur_flock_destroy(f);
    return groups;
}

void mur_flock_set_metrics(mur_flock *f, bool every_tick)
{
    f->metrics_every = every_tick && ensure_metric_buffers(f) && mur_track_reserve(f);
}

void mur_flock_set_group_shape(mur_flock *f, bool on)
{
    f->group_shape = on;
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
    v.roll = f->roll;
    v.time_s = f->time;
    const mur_falcon *F = &f->falcon;
    const bool on = f->def.falcon && f->esc_cap > 0;
    v.falcon_phase = on ? F->phase : MUR_FALCON_OFF;
    for (int c = 0; c < 3; c++) {
        v.falcon_pos[c] = on ? F->pos[c] : 0.0f;
        v.falcon_vel[c] = on ? F->vel[c] : 0.0f;
    }
    v.falcon_target = on ? F->target : -1;
    v.falcon_attacks = F->attacks;
    v.falcon_catches = F->catches;
    v.escape = on ? f->esc : NULL;
    return v;
}

/* Lets flock_set.c grow the per-thread gather buffers for a new thread count. */
bool mur_flock_reserve_gather(mur_flock *f, int threads) { return alloc_gather(f, threads); }

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
    if (f->def.falcon && f->esc_cap > 0) { /* only with the falcon: every hash without it stays */
        const mur_falcon *F = &f->falcon;
        h = fnv(h, &F->phase, sizeof F->phase);
        h = fnv(h, F->pos, sizeof F->pos);
        h = fnv(h, F->vel, sizeof F->vel);
        h = fnv(h, f->esc, n);
    }
    return h;
}

/* The gather buffers of t threads, bytes. */
static size_t gather_bytes(int t)
{
    return (size_t)t * (sizeof(float) * GATHER_FLOATS + sizeof(int32_t) * GATHER_INTS);
}

size_t mur_def_memory(const mur_flock_def *def, int threads, bool metrics)
{
    if (!def)
        return 0;
    const int32_t n = def->boids > 0 ? def->boids : 0, np = def->predators > 0 ? def->predators : 0;
    size_t b = sizeof(mur_flock);
    for (size_t r = 0; r < NBUFFERS; r++) {
        const buf_per k = BUFFERS[r].per;
        if ((k == PER_ITEM || k == PER_BLOCK) && !metrics)
            continue; /* the metric rows exist only once metrics were asked for */
        if (k == PER_PREDATOR && np == 0)
            continue; /* never allocated for a flock without predators */
        b += units(k, n, cells_for(n), np) * BUFFERS[r].bytes;
    }
    if (metrics)
        b += mur_track_bytes(n); /* allocated at the first measure */
    if (def->falcon)
        b += (size_t)n * mur_escape_bytes_per_boid();
    /* gather buffers are never released: those of creation (all cores) and of any larger count */
    int t = threads > 0 ? threads : mur_all_cores();
    t = t > MUR_MAX_THREADS ? MUR_MAX_THREADS : t;
    return b + gather_bytes(t > mur_all_cores() ? t : mur_all_cores());
}

size_t mur_flock_memory(const mur_flock *f)
{
    size_t b = sizeof *f;
    for (size_t r = 0; r < NBUFFERS; r++)
        if (buf_get(f, &BUFFERS[r]))
            b += units(BUFFERS[r].per, f->cap, f->grid.cap_cells, f->pcap) * BUFFERS[r].bytes;
    b += (size_t)f->esc_cap * mur_escape_bytes_per_boid();
    b += mur_topo_lists_bytes(f);
    b += (size_t)f->srow_cap * 4 * sizeof(float);
    b += mur_react_bytes(f);
    for (int t = 0; t < MUR_MAX_THREADS; t++)
        if (f->gather[t].x)
            b += sizeof(float) * GATHER_FLOATS + sizeof(int32_t) * GATHER_INTS;
    return b + mur_track_memory(f);
}
