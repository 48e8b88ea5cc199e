/* Uniform grid: geometry, counting sort of the boids by cell, cell-ordered copies of the hot data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grid.h"

#include "core.h"
#include "flock_impl.h"
#include "kernel.h"
#include "step.h"

/* Cells are made this much larger than the view radius so that rounding in the position -> cell
 * mapping can never put two boids closer than view_radius more than one cell apart. */
#define CELL_SLACK 1.0001f
#define MAX_DIM 65536
/* Topological cells: this many times the flock's spacing (the median distance to the k-th neighbour;
 * topo.c). Fewer candidates per block against more boids whose k nearest lie beyond it: 1.0, 1.3,
 * 1.6 and the 70th and 90th percentiles were tried; this took the fewest instructions (callgrind,
 * starling at 20k and 100k, settled). */
#define TOPO_CELL_SPACING 1.3

static void bbox(const mur_flock *f, const mur_step *s, float lo[3], float hi[3])
{
    float x0 = INFINITY, y0 = INFINITY, z0 = INFINITY;
    float x1 = -INFINITY, y1 = -INFINITY, z1 = -INFINITY;
    const float *p = f->pos;
    const int32_t n = f->n;
    const int nt = mur_step_threads(s, n, MUR_PAR_MIN_BBOX);
    (void)nt;
    /* min/max are exact, so the result does not depend on how threads split the work */
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min : x0, y0, z0) reduction(max : x1, y1, z1)
#endif
    for (int32_t i = 0; i < n; i++) {
        float x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
        x0 = x < x0 ? x : x0;
        y0 = y < y0 ? y : y0;
        z0 = z < z0 ? z : z0;
        x1 = x > x1 ? x : x1;
        y1 = y > y1 ? y : y1;
        z1 = z > z1 ? z : z1;
    }
    lo[0] = x0; lo[1] = y0; lo[2] = z0;
    hi[0] = x1; hi[1] = y1; hi[2] = z1;
}

/* Bins per axis of the outlier trim. */
#define TRIM_BINS 4096

/* Shrink [lo, hi] per axis to the bins holding all but about n / 1024 boids at each end (a straggler
 * far from the flock no longer stretches the grid over empty space). The boids outside go to the
 * boundary cells, which reach out to infinity (the grid build clamps; topo.c cell_gap). The three
 * axes' histograms are made in one pass over the positions, split between the threads, each thread
 * counting into its own and the counts added after: integers, so the same box for any thread count. */
static void trim_box(const mur_flock *f, const mur_step *s, float lo[3], float hi[3])
{
    const int32_t n = f->n;
    const int32_t cut = n / 1024;
    if (cut < 1)
        return;
    int32_t hist[3][TRIM_BINS];
    double w[3], inv[3];
    bool on[3];
    for (int a = 0; a < 3; a++) {
        w[a] = ((double)hi[a] - (double)lo[a]) / TRIM_BINS;
        on[a] = w[a] > 0.0;
        inv[a] = on[a] ? 1.0 / w[a] : 0.0;
    }
    memset(hist, 0, sizeof hist);
    const float *p = f->pos;
    const double l0 = lo[0], l1 = lo[1], l2 = lo[2];
    const int nt = mur_step_threads(s, n, MUR_PAR_MIN_BBOX);
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        int32_t h[3][TRIM_BINS];
        memset(h, 0, sizeof h);
#ifdef _OPENMP
#pragma omp for schedule(static) nowait
#endif
        for (int32_t i = 0; i < n; i++) {
            const double t0 = ((double)p[3 * i] - l0) * inv[0];
            const double t1 = ((double)p[3 * i + 1] - l1) * inv[1];
            const double t2 = ((double)p[3 * i + 2] - l2) * inv[2];
            h[0][t0 < TRIM_BINS - 1 ? (int32_t)t0 : TRIM_BINS - 1]++;
            h[1][t1 < TRIM_BINS - 1 ? (int32_t)t1 : TRIM_BINS - 1]++;
            h[2][t2 < TRIM_BINS - 1 ? (int32_t)t2 : TRIM_BINS - 1]++;
        }
#ifdef _OPENMP
#pragma omp critical
#endif
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < TRIM_BINS; b++)
                hist[a][b] += h[a][b];
    }
    for (int a = 0; a < 3; a++) {
        if (!on[a])
            continue;
        const int32_t *ha = hist[a];
        int32_t b0 = 0, b1 = TRIM_BINS - 1, run = 0;
        while (b0 < b1 && run + ha[b0] <= cut)
            run += ha[b0++];
        run = 0;
        while (b1 > b0 && run + ha[b1] <= cut)
            run += ha[b1--];
        const float l = (float)((double)lo[a] + b0 * w[a]), h = (float)((double)lo[a] + (b1 + 1) * w[a]);
        if (l > lo[a])
            lo[a] = l;
        if (h < hi[a])
            hi[a] = h;
    }
}

static void geometry(mur_flock *f, const mur_step *s)
{
    mur_grid *g = &f->grid;
    const mur_flock_def *d = s->def;
    float lo[3], hi[3];
    g->wrap = d->bounds == MUR_BOUNDS_WRAP;
    if (g->wrap) {
        memcpy(lo, d->world_min, sizeof lo);
        memcpy(hi, d->world_max, sizeof hi);
    } else {
        bbox(f, s, lo, hi);
        if (s->cell_boids > 0.0f)
            trim_box(f, s, lo, hi);
    }
    double ext[3];
    for (int a = 0; a < 3; a++)
        ext[a] = (double)hi[a] - (double)lo[a];
    /* Cells of view_radius / 2 scanned 2 deep (a 5x5x5 block, 15.6 r^3 of volume) test 1.7x fewer
     * candidates than cells of view_radius scanned 1 deep (27 r^3). A wrapped axis needs 5 distinct
     * cells for that; otherwise fall back to reach 1. */
    int reach = g->want_reach == 2 || s->half_cells ? 2 : 1;
    double dims[3], r;
    if (s->cell_boids > 0.0f)
        reach = 1;
    for (;;) {
        r = (double)d->view_radius * CELL_SLACK / reach;
        if (s->cell_boids > 0.0f && f->n > 0) {
            /* topological search (topo.c): cells holding about cell_boids boids of the (trimmed)
             * bounding box, or smaller ones from the flock's measured spacing (the last pass's median
             * distance to the k-th neighbour), so that a thin flock in a mostly empty box does not put
             * hundreds of boids in a bird's block of 27 cells. A flock that fills its box keeps the
             * box's cells (1.3 times the spacing holds about 4 boids a cell there, not 2) */
            const double e = fmax(fmax(ext[0], ext[1]), ext[2]) * 1e-3 + 1e-6;
            const double vol = fmax(ext[0], e) * fmax(ext[1], e) * fmax(ext[2], e);
            double rt = cbrt(vol * s->cell_boids / f->n);
            if (f->topo_spacing > 0.0f)
                rt = fmin(fmax((double)f->topo_spacing * TOPO_CELL_SPACING, e), rt);
            r = fmin(rt, r);
        }
        for (int a = 0; a < 3; a++) {
            double k = floor(ext[a] / r);
            dims[a] = k < 1 ? 1 : (k > MAX_DIM ? MAX_DIM : k);
        }
        /* too many cells for the buffers (a sparse flock or a tiny radius): make cells larger. A metric
         * grid keeps to fewer cells (its sums follow the cell order: the pinned results) */
        const double cap = (double)(s->cell_boids > 0.0f || (g->want_reach == 2 && !s->half_cells) ? g->cap_cells
                                                                                              : g->cap_metric);
        while (dims[0] * dims[1] * dims[2] > cap) {
            double s = cbrt(dims[0] * dims[1] * dims[2] / cap) * 1.01;
            for (int a = 0; a < 3; a++)
                dims[a] = floor(dims[a] / s) < 1 ? 1 : floor(dims[a] / s);
        }
        bool narrow = false;
        for (int a = 0; a < 3; a++)
            narrow |= g->wrap && dims[a] < 2 * reach + 1;
        if (reach == 1 || !narrow)
            break;
        reach = 1;
    }
    g->reach = reach;
    g->pairwise_wrap = false;
    for (int a = 0; a < 3; a++) {
        g->dims[a] = (int32_t)dims[a];
        g->origin[a] = lo[a];
        double c = ext[a] / dims[a];
        if (!(c >= r))
            c = r; /* degenerate extent (all boids in one plane) */
        g->cell[a] = (float)c;
        g->inv_cell[a] = (float)(1.0 / c);
        if (g->wrap && g->dims[a] < 3)
            g->pairwise_wrap = true;
    }
    g->ncells = (int64_t)g->dims[0] * g->dims[1] * g->dims[2];
}

static inline int32_t axis_cell(float p, float origin, float inv, int32_t dim)
{
    float t = (p - origin) * inv;
    int32_t c = t > 0.0f ? (int32_t)t : 0;
    return c < dim ? c : dim - 1;
}

/* Whether this tick's build fills the interleaved velocity rows (srow): those of the topological pass's
 * 8-lane batch (topo_batch.c, run where the step's path is AVX2 or AVX-512), grown to the flock's
 * capacity here (its contents are rewritten every build, so not kept); where the allocation fails, not
 * filled, and the batch loads the sorted rows one by one (the same floats). */
static bool srow_reserve(mur_flock *f, const mur_step *s)
{
#ifdef MUR_X86_PATHS
    const bool batch8 = s->simd == MUR_SIMD_AVX2 || s->simd == MUR_SIMD_AVX512;
#else
    const bool batch8 = false;
    (void)s;
#endif
    if (!batch8 || f->def.neighbours != MUR_NEIGHBOURS_TOPOLOGICAL || f->n == 0)
        return false;
    if (f->srow_cap < f->n) {
        const int32_t cap = f->cap > f->n ? f->cap : f->n;
        free(f->srow);
        /* aligned_alloc's size: a multiple of the alignment (C11) */
        f->srow = aligned_alloc(64, ((size_t)cap * 4 * sizeof(float) + 63) & ~(size_t)63);
        f->srow_cap = f->srow ? cap : 0;
    }
    return f->srow != NULL;
}

/* Copy boid i into sorted slot s. */
static inline void put(mur_flock *f, int32_t s, int32_t i)
{
    const float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
    f->sx[s] = p[0];
    f->sy[s] = p[1];
    f->sz[s] = p[2];
    f->svx[s] = v[0];
    f->svy[s] = v[1];
    f->svz[s] = v[2];
    f->sw[s] = f->perch[i] == 0 ? MUR_W_FLYING : (f->def.perch_neighbours ? MUR_W_PERCHED : 0.0f);
    f->order[s] = i;
    if (f->srow_written) {
        float *o = f->srow + 4 * (size_t)s;
        const float row[4] = {v[0], v[1], v[2], 0.0f};
        memcpy(o, row, sizeof row);
    }
}

/* Fill the sorted slots [s0, s1) from the public state, order[] already set. `perched`: some boid's
 * perch timer is not 0 (else every weight is MUR_W_FLYING, and the perch row, a third random read
 * per boid, is not read). `rows`: the interleaved copy too (srow, the topological pass's batch). */
#define FILL_AHEAD 24
static inline __attribute__((always_inline)) void fill_body(mur_flock *f, int32_t s0, int32_t s1, bool perched,
                                                             bool rows)
{
    const int32_t *restrict order = f->order;
    const float *restrict pos = f->pos, *restrict vel = f->vel;
    const int32_t *restrict perch = f->perch;
    float *restrict sx = f->sx, *restrict sy = f->sy, *restrict sz = f->sz;
    float *restrict svx = f->svx, *restrict svy = f->svy, *restrict svz = f->svz, *restrict sw = f->sw;
    float *restrict sr4 = rows ? f->srow : NULL;
    const float wp = f->def.perch_neighbours ? MUR_W_PERCHED : 0.0f;
    for (int32_t s = s0; s < s1; s++) {
        if (s + FILL_AHEAD < s1) {
            const int32_t q = order[s + FILL_AHEAD];
            __builtin_prefetch(pos + 3 * (size_t)q);
            __builtin_prefetch(vel + 3 * (size_t)q);
            if (perched)
                __builtin_prefetch(perch + q);
        }
        const int32_t i = order[s];
        const float *p = pos + 3 * (size_t)i, *v = vel + 3 * (size_t)i;
        sx[s] = p[0];
        sy[s] = p[1];
        sz[s] = p[2];
        svx[s] = v[0];
        svy[s] = v[1];
        svz[s] = v[2];
        sw[s] = !perched || perch[i] == 0 ? MUR_W_FLYING : wp;
        if (rows) {
            const float row[4] = {v[0], v[1], v[2], 0.0f};
            memcpy(sr4 + 4 * (size_t)s, row, sizeof row);
        }
    }
}

static void fill(mur_flock *f, int32_t s0, int32_t s1, bool perched)
{
    const bool rows = f->srow_written;
    if (perched && rows)
        fill_body(f, s0, s1, true, true);
    else if (perched)
        fill_body(f, s0, s1, true, false);
    else if (rows)
        fill_body(f, s0, s1, false, true);
    else
        fill_body(f, s0, s1, false, false);
}

/* The other per-slot copies of the topological pass, filled with the hot data (split between the
 * threads by slots) rather than on one thread in the tick: the roll each boid starts the tick with
 * (bank alignment reads its neighbours') and the falcon's escape snapshot (escape.c: the neighbours'
 * escapes of the tick before, while the pass rewrites ecopy). Nothing between the build and the pass
 * writes roll or ecopy. */
static bool copy_roll(const mur_flock *f, const mur_step *s)
{
    return f->def.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && s->def->bank && s->def->bank_align > 0.0f;
}

static bool copy_escape(const mur_flock *f, const mur_step *s)
{
    return f->def.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && s->escape;
}

static void fill_extra(mur_flock *f, bool roll, bool esc, int32_t s0, int32_t s1)
{
    const int32_t *restrict order = f->order;
    if (roll) {
        const float *restrict r = f->roll;
        float *restrict sr = f->sroll, *restrict sr4 = f->srow;
        for (int32_t k = s0; k < s1; k++) {
            if (k + FILL_AHEAD < s1)
                __builtin_prefetch(r + order[k + FILL_AHEAD]);
            sr[k] = r[order[k]];
            if (f->srow_written)
                sr4[4 * (size_t)k + 3] = sr[k];
        }
    }
    if (esc) {
        const uint8_t *restrict e = f->ecopy;
        uint8_t *restrict se = f->sesc;
        for (int32_t k = s0; k < s1; k++)
            se[k] = e[order[k]];
    }
}

/* Count the boids of each cell and turn the counts into cursors: start[c + 1] = the first slot of
 * cell c. start[1 .. ncells] must be 0. */
static void count_cells(mur_flock *f)
{
    const int32_t n = f->n;
    const int32_t *restrict cellof = f->cellof;
    int32_t *restrict start = f->grid.start;
    for (int32_t i = 0; i < n; i++)
        start[cellof[i] + 1]++;
    int32_t run = 0;
    for (int64_t c = 0; c < f->grid.ncells; c++) {
        const int32_t k = start[c + 1];
        start[c + 1] = run;
        run += k;
    }
}

/* start[c + 1] is the next free slot of cell c; after the moves, the start of cell c + 1. Only the
 * boid indices are scattered (one stream of 4-byte writes, which the caches absorb); the hot data is
 * then filled in slot order: sequential writes, and reads of pos/vel that the prefetches overlap,
 * instead of 8 streams of random writes. */
static void scatter(mur_flock *f)
{
    const int32_t n = f->n;
    const int32_t *restrict cellof = f->cellof;
    int32_t *restrict start = f->grid.start;
    int32_t *restrict order = f->order;
    f->tl_slots_written = f->tl_slots && f->tl_cap >= n;
    /* the held lists of the reaction time read the slots of the topological lists when those are
     * written (react.h mur_react_slots) */
    f->react_slots_written = !f->tl_slots_written && f->react_slots && f->react_cap >= n;
    if (f->tl_slots_written || f->react_slots_written) {
        /* the topological lists name boids by index: their slots, written in index order here */
        int32_t *restrict slotof = f->tl_slots_written ? f->slotof : f->react_slot;
        for (int32_t i = 0; i < n; i++) {
            const int32_t k = start[cellof[i] + 1]++;
            order[k] = i;
            slotof[i] = k;
        }
        return;
    }
    for (int32_t i = 0; i < n; i++)
        order[start[cellof[i] + 1]++] = i;
}

/* Counting sort by cell, stable (boids keep their index order inside a cell), so the sorted order and
 * every result computed from it are the same for any thread count. On several threads the cell of
 * each boid and the fill of the sorted arrays (random reads of pos/vel: most of the time) are split
 * between the threads; the count and the scatter of the indices run on one thread in between. Split
 * by cell ranges they were slower than on one thread (each thread read every boid's cell, and
 * whether a boid was in its range was a branch mispredicted half the time: docs/performance/rounds.md,
 * round 6), and they take one barrier fewer so. */
void mur_grid_build(mur_flock *f, const mur_step *s)
{
    mur_grid *g = &f->grid;
    geometry(f, s);
    const int32_t n = f->n;
    const int32_t dx = g->dims[0], dy = g->dims[1], dz = g->dims[2];
    const float ox = g->origin[0], oy = g->origin[1], oz = g->origin[2];
    const float ix = g->inv_cell[0], iy = g->inv_cell[1], iz = g->inv_cell[2];
    const int64_t ncells = g->ncells;
    int32_t *restrict cellof = f->cellof;
    int32_t *restrict start = g->start;
    const float *p = f->pos;
    const int32_t *restrict perch = f->perch;
    int32_t perched = 0; /* some boid perches: written 1 by any thread before the barrier */
    const int nt = mur_step_threads(s, n, MUR_PAR_MIN_SORT);
    /* a tick with metrics builds the groups' grid (half_cells) and then the search's: the copies once */
    const bool roll = !s->half_cells && copy_roll(f, s), esc = !s->half_cells && copy_escape(f, s);
    f->srow_written = !s->half_cells && srow_reserve(f, s);
    start[0] = 0;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        const int t = mur_thread_id();
#ifdef _OPENMP
        const int T = omp_get_num_threads();
#else
        const int T = 1;
#endif
        const int32_t i0 = (int32_t)((int64_t)n * t / T), i1 = (int32_t)((int64_t)n * (t + 1) / T);
        const int64_t c0 = ncells * t / T, c1 = ncells * (t + 1) / T;
        int32_t any = 0;
        for (int32_t i = i0; i < i1; i++) {
            int32_t cx = axis_cell(p[3 * i], ox, ix, dx);
            int32_t cy = axis_cell(p[3 * i + 1], oy, iy, dy);
            int32_t cz = axis_cell(p[3 * i + 2], oz, iz, dz);
            cellof[i] = cy + dy * (cx + dx * cz); /* mur_cell_id */
            any |= perch[i]; /* read in boid order here: streamed, where fill reads it at random */
        }
        memset(start + c0 + 1, 0, sizeof(int32_t) * (size_t)(c1 - c0));
        if (any) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
            perched = 1;
        }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
        {
            count_cells(f);
            scatter(f);
        } /* the single's barrier */
        fill(f, i0, i1, perched != 0);
        fill_extra(f, roll, esc, i0, i1);
    }
}

void mur_grid_build_brute(mur_flock *f, const mur_step *s)
{
    mur_grid *g = &f->grid;
    g->wrap = f->def.bounds == MUR_BOUNDS_WRAP;
    g->pairwise_wrap = g->wrap;
    g->reach = 1;
    for (int a = 0; a < 3; a++) {
        g->dims[a] = 1;
        g->origin[a] = 0.0f;
        g->cell[a] = INFINITY;
        g->inv_cell[a] = 0.0f;
    }
    g->ncells = 1;
    g->start[0] = 0;
    g->start[1] = f->n;
    f->tl_slots_written = false;
    f->react_slots_written = f->react_slots && f->react_cap >= f->n;
    f->srow_written = srow_reserve(f, s);
    for (int32_t i = 0; i < f->n; i++) {
        put(f, i, i);
        if (f->react_slots_written)
            f->react_slot[i] = i;
    }
    fill_extra(f, copy_roll(f, s), copy_escape(f, s), 0, f->n);
}

int mur_axis_cells(const mur_grid *g, int a, int32_t c, bool unique, float L, int32_t *ks, float *shift)
{
    const int32_t D = g->dims[a];
    int n = 0;
    for (int o = -g->reach; o <= g->reach; o++) {
        int32_t k = c + o;
        float s = 0.0f;
        if (!g->wrap) {
            if (k < 0 || k >= D)
                continue;
        } else if (unique) {
            k = ((k % D) + D) % D;
            bool dup = false;
            for (int m = 0; m < n; m++)
                dup |= ks[m] == k;
            if (dup)
                continue;
        } else if (k < 0) {
            k += D;
            s = -L;
        } else if (k >= D) {
            k -= D;
            s = L;
        }
        ks[n] = k;
        if (shift)
            shift[n] = s;
        n++;
    }
    return n;
}
