/* Flock metrics: centre, diameter, polarisation, perching count and groups. Sums run over fixed blocks
 * of boids in double precision and are combined in block order, so they do not depend on threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "shape.h"

#include "flock_impl.h"
#include "kernel.h"
#include "step.h"

#ifdef MUR_X86_PATHS
#include <immintrin.h>
#endif

#define BLOCK MUR_METRIC_BLOCK

typedef mur_metric_block block_sum;

/* Concurrent union-find over sorted slots (Anderson & Woll style: link the larger root under the
 * smaller with a compare-and-swap). The partition, and so the group count, is the same whatever the
 * order of the unions. */
static int32_t uf_find(int32_t *parent, int32_t a)
{
    for (;;) {
        int32_t p = __atomic_load_n(&parent[a], __ATOMIC_RELAXED);
        if (p == a)
            return a;
        int32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
        if (gp != p) /* path halving */
            __atomic_compare_exchange_n(&parent[a], &p, gp, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        a = gp;
    }
}

static void uf_union(int32_t *parent, int32_t a, int32_t b)
{
    for (;;) {
        a = uf_find(parent, a);
        b = uf_find(parent, b);
        if (a == b)
            return;
        if (a < b) {
            int32_t t = a;
            a = b;
            b = t;
        }
        int32_t expect = a;
        if (__atomic_compare_exchange_n(&parent[a], &expect, b, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return;
    }
}

/* Hits of boid k against the 16 slots from j0 (those at or past j0 + m masked off): bit j set when
 * slot j0 + j is closer than sqrt(r2) (the minimum image on a wrapped world, mur_min_image). Two
 * versions with the same arithmetic per pair: AVX-512 (16 lanes, the mask straight from the compare;
 * reads up to 15 slots past the end, which the sorted arrays' MUR_PAD of slack allows), AVX2 (the same
 * lanes as two halves) and scalar. */
typedef uint32_t (*hits_fn)(const mur_flock *, int32_t, int32_t, int32_t, float, const mur_world *);

static uint32_t hits16_base(const mur_flock *f, int32_t k, int32_t j0, int32_t m, float r2, const mur_world *w)
{
    const float px = f->sx[k], py = f->sy[k], pz = f->sz[k];
    const int32_t e = m < 16 ? m : 16;
    uint32_t bits = 0;
    for (int32_t j = 0; j < e; j++) {
        const float ex = mur_min_image(f->sx[j0 + j], px, w->L[0], w->hL[0], w->wrap);
        const float ey = mur_min_image(f->sy[j0 + j], py, w->L[1], w->hL[1], w->wrap);
        const float ez = mur_min_image(f->sz[j0 + j], pz, w->L[2], w->hL[2], w->wrap);
        bits |= (uint32_t)(ex * ex + ey * ey + ez * ez < r2) << j;
    }
    return bits;
}

#ifdef MUR_X86_PATHS
static const int32_t hiota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
/* The hits of boid k against the slots j0 + o .. j0 + o + lanes - 1 as all-ones lanes of the int
 * vector `out`, for float and int vector types vf, vi of that many lanes (AVX-512: 16, AVX2: two
 * halves of 8: gcc splits a 16-lane vector badly where it has no 16-lane registers). */
#define HITS_LANES(vf, vi, out, f, k, j0, o, m, r2, w)                                                      \
    do {                                                                                                   \
        vf x_, y_, z_;                                                                                     \
        memcpy(&x_, (f)->sx + (j0) + (o), sizeof x_);                                                       \
        memcpy(&y_, (f)->sy + (j0) + (o), sizeof y_);                                                       \
        memcpy(&z_, (f)->sz + (j0) + (o), sizeof z_);                                                       \
        const vf zero_ = {0};                                                                              \
        const float px_ = (f)->sx[k], py_ = (f)->sy[k], pz_ = (f)->sz[k];                                  \
        vf ex_ = x_ - px_, ey_ = y_ - py_, ez_ = z_ - pz_;                                                 \
        if ((w)->wrap) {                                                                                   \
            /* mur_min_image: t < -hL ? (b + L) - a : (t > hL ? (b - L) - a : t) */                       \
            const vf hx_ = zero_ + (w)->hL[0], hy_ = zero_ + (w)->hL[1], hz_ = zero_ + (w)->hL[2];         \
            ex_ = HSEL(vf, vi, ex_ < -hx_, (x_ + (w)->L[0]) - px_, HSEL(vf, vi, ex_ > hx_, (x_ - (w)->L[0]) - px_, ex_)); \
            ey_ = HSEL(vf, vi, ey_ < -hy_, (y_ + (w)->L[1]) - py_, HSEL(vf, vi, ey_ > hy_, (y_ - (w)->L[1]) - py_, ey_)); \
            ez_ = HSEL(vf, vi, ez_ < -hz_, (z_ + (w)->L[2]) - pz_, HSEL(vf, vi, ez_ > hz_, (z_ - (w)->L[2]) - pz_, ez_)); \
        }                                                                                                  \
        vi idx_;                                                                                           \
        memcpy(&idx_, hiota + (o), sizeof idx_);                                                           \
        (out) = (ex_ * ex_ + ey_ * ey_ + ez_ * ez_ < zero_ + (r2)) & (idx_ < (m));                         \
    } while (0)
#define HSEL(vf, vi, m, a, b) ((vf)(((m) & (vi)(a)) | (~(m) & (vi)(b))))
typedef float hv16 __attribute__((vector_size(64)));
typedef int32_t hi16 __attribute__((vector_size(64)));
typedef float hv8 __attribute__((vector_size(32)));
typedef int32_t hi8 __attribute__((vector_size(32)));
__attribute__((target("avx512f"), always_inline)) static inline uint32_t hits16_avx512_in(const mur_flock *f,
    int32_t k, int32_t j0, int32_t m, float r2, const mur_world *w)
{
    hi16 hit;
    HITS_LANES(hv16, hi16, hit, f, k, j0, 0, m, r2, w);
    return _mm512_test_epi32_mask((__m512i)hit, (__m512i)hit);
}
__attribute__((target("avx512f"))) static uint32_t hits16_avx512(const mur_flock *f, int32_t k, int32_t j0,
                                                                  int32_t m, float r2, const mur_world *w)
{
    return hits16_avx512_in(f, k, j0, m, r2, w);
}
__attribute__((target("avx2"), always_inline)) static inline uint32_t hits16_avx2_in(const mur_flock *f,
    int32_t k, int32_t j0, int32_t m, float r2, const mur_world *w)
{
    hi8 lo, up;
    HITS_LANES(hv8, hi8, lo, f, k, j0, 0, m, r2, w);
    uint32_t bits = (uint32_t)_mm256_movemask_ps((__m256)lo);
    if (m > 8) {
        HITS_LANES(hv8, hi8, up, f, k, j0, 8, m, r2, w);
        bits |= (uint32_t)_mm256_movemask_ps((__m256)up) << 8;
    }
    return bits;
}
__attribute__((target("avx2"))) static uint32_t hits16_avx2(const mur_flock *f, int32_t k, int32_t j0, int32_t m,
                                                             float r2, const mur_world *w)
{
    return hits16_avx2_in(f, k, j0, m, r2, w);
}
#endif

/* The link rows of the boids [lo, lo + m), m <= 16, among themselves. */
typedef void (*rows_fn)(const mur_flock *, int32_t, int32_t, float, const mur_world *, uint32_t *);
static void rows_base(const mur_flock *f, int32_t lo, int32_t m, float r2, const mur_world *w, uint32_t *adj)
{
    for (int32_t k = 0; k < m; k++)
        adj[k] = hits16_base(f, lo + k, lo, m, r2, w);
}
#ifdef MUR_X86_PATHS
__attribute__((target("avx512f"))) static void rows_avx512(const mur_flock *f, int32_t lo, int32_t m, float r2,
                                                          const mur_world *w, uint32_t *adj)
{
    for (int32_t k = 0; k < m; k++)
        adj[k] = hits16_avx512_in(f, lo + k, lo, m, r2, w);
}
__attribute__((target("avx2"))) static void rows_avx2(const mur_flock *f, int32_t lo, int32_t m, float r2,
                                                       const mur_world *w, uint32_t *adj)
{
    for (int32_t k = 0; k < m; k++)
        adj[k] = hits16_avx2_in(f, lo + k, lo, m, r2, w);
}
#endif

/* Union boid k with every boid of [j0, j1) closer than sqrt(r2) that is not already in its set:
 * the distance test runs 16 candidates at a time, a find only follows a hit, a union only joins
 * two different roots. */
static void link_boid(const mur_flock *f, hits_fn hits16, int32_t *parent, int32_t k, int32_t j0, int32_t j1,
                      float r2, const mur_world *w)
{
    int32_t rk = -1;
    for (int32_t b = j0; b < j1; b += 16) {
        uint32_t bits = hits16(f, k, b, j1 - b, r2, w);
        if (bits && rk < 0)
            rk = uf_find(parent, k);
        while (bits) {
            const int32_t j = b + __builtin_ctz(bits);
            bits &= bits - 1;
            const int32_t rj = uf_find(parent, j);
            if (rj != rk) {
                uf_union(parent, rk, rj);
                rk = uf_find(parent, rk);
            }
        }
    }
}

/* Whether some boid of [k0, k1) is closer than sqrt(r2) to some boid of [j0, j1). */
static bool any_link(const mur_flock *f, hits_fn hits16, int32_t k0, int32_t k1, int32_t j0, int32_t j1,
                     float r2, const mur_world *w)
{
    for (int32_t k = k0; k < k1; k++)
        for (int32_t b = j0; b < j1; b += 16)
            if (hits16(f, k, b, j1 - b, r2, w))
                return true;
    return false;
}

/* Whether the boids [lo, hi) (at most 16) are connected among themselves: each boid's links as a
 * bit row, then the set reached from the first boid grown until it stops. */
static bool whole_cell(const mur_flock *f, rows_fn rows, int32_t lo, int32_t hi, float r2, const mur_world *w)
{
    const int32_t m = hi - lo;
    if (m <= 1)
        return true;
    uint32_t adj[16];
    rows(f, lo, m, r2, w, adj);
    const uint32_t all = (1u << m) - 1;
    uint32_t reach = 1, prev = 0;
    while (reach != prev) {
        prev = reach;
        for (uint32_t b = reach; b; b &= b - 1)
            reach |= adj[__builtin_ctz(b)];
        if (reach == all)
            return true;
    }
    return false;
}

/* Whether the boids [lo, hi) lie in a box whose diagonal is shorter than the link distance (a margin
 * for the rounding of the distances): then every pair is linked. A crowded cell (many boids at or
 * near one point) is so joined without its pairs' distance tests. */
static bool small_cell(const mur_flock *f, int32_t lo, int32_t hi, float r2)
{
    float b[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int32_t k = lo; k < hi; k++) {
        const float p[3] = {f->sx[k], f->sy[k], f->sz[k]};
        for (int a = 0; a < 3; a++) {
            b[a] = p[a] < b[a] ? p[a] : b[a];
            b[3 + a] = p[a] > b[3 + a] ? p[a] : b[3 + a];
        }
    }
    double d2 = 0.0;
    for (int a = 0; a < 3; a++)
        d2 += ((double)b[3 + a] - b[a]) * ((double)b[3 + a] - b[a]);
    return d2 < 0.999 * (double)r2;
}

/* What pass 2 of the groups needs. */
typedef struct link_ctx {
    int32_t *parent;
    const uint8_t *whole;
    float r2;
    const mur_world *w;
    hits_fn hits16;
    int64_t off[2][62];   ///< cell id offsets of the later neighbours of an inner cell: [0] others, [1] faces
    int noff[2];
} link_ctx;

/* Cell c against its neighbour nc (nc after c): whole cells are joined by their first link, once. */
static inline void link_pair(const mur_flock *f, const link_ctx *L, int64_t c, int32_t lo, int32_t hi, int32_t *ra,
                             int64_t nc)
{
    const int32_t lo2 = f->grid.start[nc], hi2 = f->grid.start[nc + 1];
    if (lo2 == hi2)
        return;
    if (L->whole[c] && L->whole[nc]) {
        if (*ra < 0)
            *ra = uf_find(L->parent, lo);
        const int32_t rb = uf_find(L->parent, lo2);
        if (*ra != rb && any_link(f, L->hits16, lo, hi, lo2, hi2, L->r2, L->w)) {
            uf_union(L->parent, *ra, rb);
            *ra = -1; /* find again when next needed */
        }
    } else {
        for (int32_t k = lo; k < hi; k++)
            link_boid(f, L->hits16, L->parent, k, lo2, hi2, L->r2, L->w);
        *ra = -1;
    }
}

/* Cell c against each neighbour cell after it: with `faces` those that share a face with it, else the
 * others (sharing an edge or a corner). */
static void link_cells(const mur_flock *f, const link_ctx *L, int64_t c, int faces)
{
    const mur_grid *g = &f->grid;
    const int32_t lo = g->start[c], hi = g->start[c + 1];
    if (lo == hi)
        return;
    int32_t ra = -1;
    int32_t cc[3];
    mur_cell_xyz(g, c, &cc[0], &cc[1], &cc[2]);
    const int R = g->reach;
    bool inner = true;
    for (int a = 0; a < 3; a++)
        inner &= cc[a] >= R && cc[a] < g->dims[a] - R;
    if (inner) {
        /* no wrap, no clip: the neighbours are fixed offsets of the cell id */
        for (int q = 0; q < L->noff[faces]; q++)
            link_pair(f, L, c, lo, hi, &ra, c + L->off[faces][q]);
        return;
    }
    /* the unique neighbour cells (wrapped or clipped); the pair distance uses the minimum image */
    int32_t ks[3][5] = {{0}};
    int nk[3];
    for (int a = 0; a < 3; a++)
        nk[a] = mur_axis_cells(g, a, cc[a], true, 0.0f, ks[a], NULL);
    for (int iz = 0; iz < nk[2]; iz++)
        for (int ix = 0; ix < nk[0]; ix++)
            for (int iy = 0; iy < nk[1]; iy++) {
                const int differ = (ks[0][ix] != cc[0]) + (ks[1][iy] != cc[1]) + (ks[2][iz] != cc[2]);
                if ((differ == 1) != (faces != 0))
                    continue;
                const int64_t nc = mur_cell_id(g, ks[0][ix], ks[1][iy], ks[2][iz]);
                if (nc > c) /* each cell pair once; the cell itself in pass 1 */
                    link_pair(f, L, c, lo, hi, &ra, nc);
            }
}

/* Groups: connected components of the graph linking boids closer than view_radius (no view cone,
 * perching boids included), over the grid already built for this tick, in two passes:
 *   1. inside each cell (threads own whole cells, so no two touch the same slots): the cell's unions;
 *      a cell whose boids then share one root is marked whole;
 *   2. each pair of neighbouring cells once: two whole cells already in one set are skipped without a
 *      distance test, two whole cells in different sets need one link (the first found joins both);
 *      otherwise every boid against the other cell (link_boid).
 * Only links between different sets are skipped or joined, so the partition, and the count, is the
 * one of every link (any thread count, any order). */
static int32_t count_groups(mur_flock *f, const mur_step *s)
{
    const mur_grid *g = &f->grid;
    const int32_t n = f->n;
    int32_t *parent = f->cellof; /* free after the sort */
    uint8_t *whole = f->cwhole;
    const float r2 = f->def.view_radius * f->def.view_radius;
    const mur_world *w = &s->world;
    const int64_t ncells = g->ncells;
    const int nt = mur_step_threads(s, n, MUR_PAR_MIN_RULES);
    int32_t groups = 0;
    hits_fn hits16 = hits16_base;
    rows_fn rows = rows_base;
#ifdef MUR_X86_PATHS
    if (s->simd == MUR_SIMD_AVX512) {
        hits16 = hits16_avx512;
        rows = rows_avx512;
    } else if (s->simd == MUR_SIMD_AVX2) {
        hits16 = hits16_avx2;
        rows = rows_avx2;
    }
#endif
    link_ctx L = {parent, whole, r2, w, hits16, {{0}}, {0, 0}};
    /* cells narrower across than the link distance (cells of half the view radius, reach 2): every
     * pair in a cell is linked, so each cell is whole without a distance test (a margin for the
     * rounding of a position to its cell) */
    const double diag2 = (double)g->cell[0] * g->cell[0] + (double)g->cell[1] * g->cell[1] +
                         (double)g->cell[2] * g->cell[2];
    const bool tight = diag2 < 0.999 * (double)r2;
    {
        const int R = g->reach;
        for (int oz = -R; oz <= R; oz++)
            for (int ox = -R; ox <= R; ox++)
                for (int oy = -R; oy <= R; oy++) {
                    const int64_t o = oy + (int64_t)g->dims[1] * (ox + (int64_t)g->dims[0] * oz);
                    const int face = (ox != 0) + (oy != 0) + (oz != 0) == 1;
                    if (o > 0)
                        L.off[face][L.noff[face]++] = o;
                }
    }
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 64)
#endif
        for (int64_t c = 0; c < ncells; c++) {
            const int32_t lo = g->start[c], hi = g->start[c + 1];
            if (tight || (hi - lo <= 16 ? whole_cell(f, rows, lo, hi, r2, w) : small_cell(f, lo, hi, r2))) {
                /* connected: every boid straight under the smallest slot, no union-find */
                for (int32_t k = lo; k < hi; k++)
                    parent[k] = lo;
                whole[c] = 1;
                continue;
            }
            for (int32_t k = lo; k < hi; k++)
                parent[k] = k;
            for (int32_t k = lo; k + 1 < hi; k++)
                link_boid(f, hits16, parent, k, k + 1, hi, r2, w);
            bool one = true;
            for (int32_t k = lo; k < hi; k++)
                one &= uf_find(parent, k) == lo; /* the smallest slot is the root */
            whole[c] = one;
        }
        /* the face neighbours first: they join most whole cells, so most of the other pairs then
         * find their two cells already in one set and cost no distance test */
        for (int faces = 1; faces >= 0; faces--) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16)
#endif
            for (int64_t c = 0; c < ncells; c++)
                link_cells(f, &L, c, faces);
        }
#ifdef _OPENMP
#pragma omp for schedule(static) reduction(+ : groups)
#endif
        for (int32_t i = 0; i < n; i++)
            groups += parent[i] == i;
    }
    return groups;
}

/* The biggest group of the union-find left in f->cellof (sorted slots) by count_groups: its size,
 * centre, principal axes and extents, thin-axis angle and polarisation (src/sim/shape.h), in slot
 * order, so the same for any thread count. Skipped (group_size 0) when memory runs out. */
static void biggest_group(mur_flock *f, mur_stats *s)
{
    const int32_t n = f->n;
    int32_t *parent = f->cellof;
    s->group_size = 0;
    int32_t *size = calloc((size_t)n, sizeof *size);
    if (!size)
        return;
    int32_t best = -1;
    for (int32_t k = 0; k < n; k++) {
        const int32_t r = uf_find(parent, k);
        if (++size[r] > (best < 0 ? 0 : size[best]) || (size[r] == size[best] && r < best))
            best = r;
    }
    const int32_t m = size[best];
    float *pos = malloc(sizeof(float) * 6 * (size_t)m);
    if (pos) {
        float *vel = pos + 3 * (size_t)m;
        int32_t q = 0;
        for (int32_t k = 0; k < n; k++)
            if (uf_find(parent, k) == best) {
                const float p3[3] = {f->sx[k], f->sy[k], f->sz[k]}, v3[3] = {f->svx[k], f->svy[k], f->svz[k]};
                memcpy(pos + 3 * (size_t)q, p3, sizeof p3);
                memcpy(vel + 3 * (size_t)q, v3, sizeof v3);
                q++;
            }
        mur_shape_axes ax;
        mur_shape_extents(pos, vel, m, &ax);
        s->group_size = m;
        memcpy(s->group_centre, ax.centre, sizeof s->group_centre);
        memcpy(s->group_axis, ax.axis, sizeof s->group_axis);
        memcpy(s->group_extent, ax.extent, sizeof s->group_extent);
        s->group_thin_angle = ax.thin_angle_deg;
        s->group_polarisation = mur_shape_polarisation(vel, m);
        free(pos);
    }
    free(size);
}

int32_t mur_metrics_label(mur_flock *f, const mur_step *st, int32_t *label)
{
    const int32_t n = f->n;
    int32_t *least = malloc(sizeof *least * (size_t)(n > 0 ? n : 1));
    if (!least)
        return -1;
    const int32_t groups = count_groups(f, st);
    int32_t *parent = f->cellof;
    for (int32_t k = 0; k < n; k++)
        least[k] = INT32_MAX;
    for (int32_t k = 0; k < n; k++) {
        const int32_t r = uf_find(parent, k), i = f->order[k];
        least[r] = i < least[r] ? i : least[r];
    }
    for (int32_t k = 0; k < n; k++)
        label[f->order[k]] = least[uf_find(parent, k)];
    free(least);
    return groups;
}

/* Position sums, unit velocity sums and counts of the boids of block b. */
static block_sum sum_block(const mur_flock *f, int64_t b, double lo_speed, double hi_speed)
{
    const float *p = f->pos, *v = f->vel;
    const int32_t n = f->n;
    block_sum a;
    memset(&a, 0, sizeof a);
    const double lo_v = lo_speed, hi_v = hi_speed;
    int32_t hi = (int32_t)((b + 1) * BLOCK < n ? (b + 1) * BLOCK : n);
    for (int32_t i = (int32_t)(b * BLOCK); i < hi; i++) {
        a.x += p[3 * i];
        a.y += p[3 * i + 1];
        a.z += p[3 * i + 2];
        if (f->perch[i] > 0) {
            a.perching++;
            continue;
        }
        double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
        double l = sqrt(vx * vx + vy * vy + vz * vz);
        a.at_limit += l <= lo_v || l >= hi_v;
        if (l > 0.0) {
            a.ux += vx / l;
            a.uy += vy / l;
            a.uz += vz / l;
        }
        a.flying++;
    }
    return a;
}

void mur_metrics_state(mur_flock *f, const mur_step *st, mur_stats *s)
{
    const int32_t n = f->n;
    s->perching = 0;
    s->groups = 0;
    memset(s->centre, 0, sizeof s->centre);
    s->diameter = s->polarisation = 0.0;
    s->neighbour_turnover = -1.0;
    if (n == 0)
        return;
    const int64_t nb = (n + BLOCK - 1) / BLOCK;
    block_sum *bs = f->msum; /* sized by ensure_metric_buffers */
    const float *p = f->pos;
    const int nt = st->threads;
    (void)nt;
    /* at a speed limit: within MUR_SPEED_LIMIT_TOL of min_speed (when above 0) or of max_speed */
    const double vmin = st->def->min_speed, vmax = st->def->max_speed;
    const double lo_speed = vmin > 0.0 ? vmin * (1.0 + MUR_SPEED_LIMIT_TOL) : -1.0;
    const double hi_speed = vmax > 0.0 ? vmax * (1.0 - MUR_SPEED_LIMIT_TOL) : INFINITY;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
    for (int64_t b = 0; b < nb; b++)
        bs[b] = sum_block(f, b, lo_speed, hi_speed);
    block_sum t;
    memset(&t, 0, sizeof t);
    for (int64_t b = 0; b < nb; b++) {
        t.x += bs[b].x; t.y += bs[b].y; t.z += bs[b].z;
        t.ux += bs[b].ux; t.uy += bs[b].uy; t.uz += bs[b].uz;
        t.flying += bs[b].flying;
        t.perching += bs[b].perching;
        t.at_limit += bs[b].at_limit;
    }
    const double cx = t.x / n, cy = t.y / n, cz = t.z / n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
    for (int64_t b = 0; b < nb; b++) {
        double d = 0.0, xx = 0.0, yy = 0.0, zz = 0.0, xy = 0.0, xz = 0.0, yz = 0.0;
        int32_t hi = (int32_t)((b + 1) * BLOCK < n ? (b + 1) * BLOCK : n);
        for (int32_t i = (int32_t)(b * BLOCK); i < hi; i++) {
            double dx = p[3 * i] - cx, dy = p[3 * i + 1] - cy, dz = p[3 * i + 2] - cz;
            d += sqrt(dx * dx + dy * dy + dz * dz);
            xx += dx * dx;
            yy += dy * dy;
            zz += dz * dz;
            xy += dx * dy;
            xz += dx * dz;
            yz += dy * dz;
        }
        bs[b].dist = d;
        bs[b].cxx = xx;
        bs[b].cyy = yy;
        bs[b].czz = zz;
        bs[b].cxy = xy;
        bs[b].cxz = xz;
        bs[b].cyz = yz;
    }
    double dsum = 0.0, cov[3][3] = {{0}};
    for (int64_t b = 0; b < nb; b++) {
        dsum += bs[b].dist;
        cov[0][0] += bs[b].cxx;
        cov[1][1] += bs[b].cyy;
        cov[2][2] += bs[b].czz;
        cov[0][1] += bs[b].cxy;
        cov[0][2] += bs[b].cxz;
        cov[1][2] += bs[b].cyz;
    }
    cov[1][0] = cov[0][1];
    cov[2][0] = cov[0][2];
    cov[2][1] = cov[1][2];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            cov[a][c] /= n;
    s->centre[0] = cx;
    s->centre[1] = cy;
    s->centre[2] = cz;
    s->diameter = dsum / n;
    s->polarisation = t.flying > 0 ? sqrt(t.ux * t.ux + t.uy * t.uy + t.uz * t.uz) / (double)t.flying : 0.0;
    s->perching = (int32_t)t.perching;
    /* the thin axis: the eigenvector of the smallest eigenvalue; y is up */
    double val[3], vec[3][3];
    mur_shape_eig3(cov, val, vec);
    const double up = fabs(vec[0][1]) < 1.0 ? fabs(vec[0][1]) : 1.0;
    s->thin_tilt = n >= 3 && val[1] > 0.0 ? acos(up) * (180.0 / 3.14159265358979323846) : 0.0;
    s->at_speed_limit = t.flying > 0 ? (double)t.at_limit / (double)t.flying : 0.0;
    s->groups = count_groups(f, st);
    const double mean_unit[3] = {t.ux, t.uy, t.uz};
    mur_track_measure(f, st, mean_unit, uf_find, f->cellof, s);
    s->group_size = 0;
    if (f->group_shape)
        biggest_group(f, s);
}
