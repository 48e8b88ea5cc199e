/* Topological neighbours on the uniform grid (docs/murmuration-model.md). For the boid in cell c the
 * rings R = 0, 1, 2, ... (cells at Chebyshev cell distance exactly R) are visited, keeping the best
 * candidates in an insertion list ordered by (d2, boid index). After ring R every unvisited boid is at
 * least a bound b_R away (the nearest face of the visited block with cells beyond it, at least about
 * R cells), so the search stops once the list is full and its last distance is within b_R, when b_R
 * passes view_radius, or when the ring leaves the grid.
 *
 * Rings 0 and 1 are one block of at most 9 columns (each one slice of the sorted arrays, the own
 * column first), scanned with the threshold b_1: only candidates within b_1 can be in a list that
 * ring 1 makes certain. The block's boids are copied once per cell into one contiguous buffer (the
 * thread's gather buffer) that the cell's boids scan a vector at a time (topo_body.h); those that
 * pass are appended to a small buffer without branches and ranked into the list. A crowded cell
 * (more boids than the list holds) is scanned first: its k nearest may already be certain (ring 0),
 * and else give the rest of the block a closer threshold. When fewer than k pass (about 1 boid in 10
 * at 2 boids per cell), a second scan of the block's copy ranks its candidates out to 1.25 b_1 after
 * them, which usually completes the list; the rest of the block and the next rings follow, skipping
 * the columns and cells farther than the list's last distance, inserting one by one. In the pass, a boid
 * whose last search needed a radius r inside b_1 scans its block first with the threshold of 1.1 r + 0.1
 * wu (f->topo_hint), and the rest of the block only when that leaves the list short or the contacts
 * uncertain. The result does not depend on the visiting order or on the first radius, so the pass is
 * bit-identical for any grid, hint, thread count or vector path. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef MUR_TOPO_LISTS_TRACE
#include <stdio.h>
#endif

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

#include "topo.h"
#include "topo_batch.h"

#include "core.h"
#include "cores.h"
#include "kernel.h"
#include "step.h"

/* Hard-sphere contacts kept per boid (the nearest ones, ordered like the neighbours). */
#define MAX_CONTACTS MUR_TOPO_CONTACTS
/* Sorted slots per work item. */
#define ITEM_SLOTS 64
/* Candidates the block pass collects before they are ranked (a crowded block empties it into the
 * list earlier). */
#define BUF_SIZE 64

int mur_topo_list_size(const mur_flock_def *d)
{
    const int k = (int)floorf(d->topo_k);
    return k + (d->topo_k > (float)k ? 1 : 0);
}

/* Insert (d2, idx, slot) into the ascending list l of *n entries, at most cap. */
static inline void insert(mur_topo_nb *l, int *n, int cap, float d2, int32_t idx, int32_t slot)
{
    int m = *n;
    if (m == cap) {
        const mur_topo_nb *w = &l[m - 1];
        if (d2 > w->d2 || (d2 == w->d2 && idx > w->idx))
            return;
        m--;
    }
    while (m > 0 && (l[m - 1].d2 > d2 || (l[m - 1].d2 == d2 && l[m - 1].idx > idx))) {
        l[m] = l[m - 1];
        m--;
    }
    l[m] = (mur_topo_nb){d2, idx, slot};
    if (*n < cap)
        (*n)++;
}

/* The search state of one boid and the pass's constants. */
typedef struct search {
    float px, py, pz, vx, vy, vz;
    float k2s;          ///< mur_cone_k2s (topo_body.h T(in_cone))
    bool cone;
    float r2, vr;       ///< view radius squared, view radius
    float h2, hr;       ///< contact radius squared and contact radius (hard sphere)
    float hmin;         ///< smallest cell side
    float thr0;         ///< candidates farther than this (squared) are not looked at
    float thr;          ///< thr0, or the list's last distance once it is full
    float hint2;        ///< the first search radius squared (from the last tick's: topo_hint), or INFINITY
    int32_t self;       ///< own sorted slot
    uint64_t key[MUR_TOPO_MAX + 1]; ///< the list, ascending: d2's bits above the boid index (+1: a
    int32_t slot[MUR_TOPO_MAX + 1]; ///< slot written by ranks past the list)
    int n, cap;
    int nb;             ///< candidates in the buffer (block pass): d2 <= thr
    float bd2[BUF_SIZE + 16]; ///< (+16: rank_into pads the candidates it ranks with 16 values)
    int32_t bslot[BUF_SIZE];
    mur_topo_nb *hard;  ///< contacts (any direction) closer than the contact radius, or NULL
    int nh;
    int64_t tested;     ///< candidates tested
} search;

/* The rings 0 and 1 around one cell: at most 9 columns of up to 3 cells, each one slice of the sorted
 * arrays, the cell's own column first, then the face columns, then the edge columns. */
typedef struct block {
    int64_t cell;
    int32_t c[3];
    int ns;
    int32_t lo[9], hi[9];
    int32_t own_lo, own_hi;  ///< the cell itself
    int32_t total;           ///< boids in the block
    float face[6];           ///< per axis, the block's lower and upper face with cells beyond, or NAN
    float margin[3];         ///< per axis, the rounding margin of ring_bound
    float rmin;              ///< ring_bound's least bound for ring 1
} block;

/* A block's candidates gathered for its cell's boids (topo_body.h's gather), in a thread's gather
 * buffer (mur_gather: x, y, z, and the sorted slots as int32 in vx); blocks of more than cap
 * candidates are scanned in place. cell is the block's cell, or -1. With own_n > 0 (a crowded cell)
 * the cell's own boids come first. */
typedef struct gathered {
    int64_t cell;
    int32_t n, cap, own_n;
    float *x, *y, *z;
    int32_t *s;
} gathered;

/* Values the gather may write past cap: 16 per column copy and a vector of NaN. */
#define GATHER_SLACK 48

static inline float key_d2(uint64_t key)
{
    const uint32_t b = (uint32_t)(key >> 32);
    float d2;
    memcpy(&d2, &b, sizeof d2);
    return d2;
}

static inline float list_worst(const search *S)
{
    return key_d2(S->key[S->cap - 1]);
}

/* Whether the full list's last entry is within bound (every unvisited boid is at least that far). */
static inline bool list_certain(const search *S, float bound)
{
    return S->n == S->cap && list_worst(S) <= bound * bound;
}

/* Insert a candidate into the ascending list: distances are >= +0, so their bits order like the
 * values, and (d2, index) is one 64-bit key. */
static inline void list_add(search *S, float d2, int32_t idx, int32_t slot)
{
    uint32_t b;
    memcpy(&b, &d2, sizeof b);
    const uint64_t key = (uint64_t)b << 32 | (uint32_t)idx;
    int m;
    if (S->n == S->cap) {
        if (key >= S->key[S->cap - 1])
            return;
        m = S->cap - 1;
    } else {
        m = S->n++;
    }
    while (m > 0 && S->key[m - 1] > key) {
        S->key[m] = S->key[m - 1];
        S->slot[m] = S->slot[m - 1];
        m--;
    }
    S->key[m] = key;
    S->slot[m] = slot;
    if (S->n == S->cap) {
        const float w = list_worst(S);
        S->thr = w < S->thr0 ? w : S->thr0;
    }
}

/* Move the buffered candidates into the list one by one. */
static inline void buffer_flush(search *S, const int32_t *order)
{
    for (int i = 0; i < S->nb; i++)
        list_add(S, S->bd2[i], order[S->bslot[i]], S->bslot[i]);
    S->nb = 0;
}

#ifdef MUR_X86_PATHS
#include "topo_compress8.h"
#endif

/* After ring R around cell c every unvisited boid is at least this far: the nearest face of the
 * visited block that has cells beyond it (less a margin for the cell mapping's rounding), never less
 * than R cells. */
static inline __attribute__((always_inline)) float ring_bound(const mur_flock *f, const search *S, const int32_t c[3], int32_t R)
{
    const mur_grid *g = &f->grid;
    const float p[3] = {S->px, S->py, S->pz};
    float bound = INFINITY;
    for (int a = 0; a < 3; a++) {
        const float m = 0.05f * g->cell[a];
        if (c[a] - R > 0) {
            const float lo = g->origin[a] + (float)(c[a] - R) * g->cell[a];
            const float e = p[a] - lo - m;
            bound = e < bound ? e : bound;
        }
        if (c[a] + R + 1 < g->dims[a]) {
            const float hi = g->origin[a] + (float)(c[a] + R + 1) * g->cell[a];
            const float e = hi - p[a] - m;
            bound = e < bound ? e : bound;
        }
    }
    const float r = ((float)R - 0.05f) * S->hmin;
    return bound < r ? r : bound;
}

/* ring_bound(f, S, B->c, 1) from the block's faces (the same operations, the faces computed once per
 * cell). */
static inline float block_bound(const search *S, const block *B)
{
    const float p[3] = {S->px, S->py, S->pz};
    float bound = INFINITY;
    for (int a = 0; a < 3; a++) {
        /* a NAN face (no cells beyond) never lowers the bound */
        const float e0 = p[a] - B->face[2 * a] - B->margin[a];
        const float e1 = B->face[2 * a + 1] - p[a] - B->margin[a];
        bound = e0 < bound ? e0 : bound;
        bound = e1 < bound ? e1 : bound;
    }
    return bound < B->rmin ? B->rmin : bound;
}

/* Distance from coordinate p to cells [i0, i1] on axis a, less the rounding margin (never negative).
 * The first and last cells of an axis reach out to infinity: the grid may span less than the flock
 * (grid.c trims outliers into them). */
static inline float cell_gap(const mur_grid *g, int a, int32_t i0, int32_t i1, float p)
{
    const float m = 0.05f * g->cell[a];
    const float lo = i0 > 0 ? g->origin[a] + (float)i0 * g->cell[a] - m : -INFINITY;
    const float hi = i1 + 1 < g->dims[a] ? g->origin[a] + (float)(i1 + 1) * g->cell[a] + m : INFINITY;
    return p < lo ? lo - p : (p > hi ? p - hi : 0.0f);
}

/* The first (dir -1) or last (dir +1) cell on axis a, from ring cell r0 inwards, that can hold a boid
 * at coordinate q or nearer to the ring's centre: one cell of slack for rounding, clipped to the grid
 * (q may be infinite or NaN: then r0, clipped). */
static inline int32_t axis_range(const mur_grid *g, int a, float q, int32_t r0, int dir)
{
    const int32_t lim = dir < 0 ? (r0 < 0 ? 0 : r0) : (r0 >= g->dims[a] ? g->dims[a] - 1 : r0);
    const float t = (q - g->origin[a]) * g->inv_cell[a] + (float)dir;
    if (dir < 0)
        return t > (float)lim && t < (float)g->dims[a] ? (int32_t)t : lim;
    return t < (float)lim && t >= 0.0f ? (int32_t)t : lim;
}

/* The contacts' squared reach: the contact radius, or the last contact's distance once MAX_CONTACTS
 * are kept (only nearer ones, or as near with a lower index, can still enter). */
static inline float contact_limit(const search *S)
{
    return S->nh == MAX_CONTACTS ? S->hard[MAX_CONTACTS - 1].d2 : S->h2;
}

/* Candidates with d2 below this may still enter the contacts: the contact radius squared, or once
 * MAX_CONTACTS are kept the next float above the last one's d2 (as near with a lower index enters),
 * so that a crowd within the contact radius is not inserted one by one. */
static inline float contact_cut(const search *S)
{
    if (S->nh < MAX_CONTACTS)
        return S->h2;
    uint32_t b;
    memcpy(&b, &S->hard[MAX_CONTACTS - 1].d2, sizeof b);
    b++; /* d2 >= +0 and finite: the next float up */
    float c;
    memcpy(&c, &b, sizeof c);
    return c;
}

/* Cells whose squared gap exceeds this cannot hold a candidate the search still wants. */
static inline float scan_limit(const search *S, bool hard)
{
    const float h = hard ? contact_limit(S) : 0.0f;
    return h > S->thr ? h : S->thr;
}

/* Whether the contacts are final when every unvisited boid is at least bound away: none kept, all
 * within the contact radius visited, or MAX_CONTACTS kept within bound (as list_certain). Without the
 * last case a crowd (many boids within the contact radius) made every boid visit all of them. */
static inline bool contacts_certain(const search *S, float bound)
{
    return S->hard == NULL || bound >= S->hr ||
           (S->nh == MAX_CONTACTS && S->hard[MAX_CONTACTS - 1].d2 <= bound * bound);
}

/* Whether the list, and the contacts, hold only boids at the boid's own point (d2 = 0): then no boid
 * with a higher index can enter either, and a cell's slots are in index order (the grid's sort is
 * stable), so the rest of the boid's own cell can be skipped. This bounds the search among many
 * coincident boids (else each would scan all of them). */
static inline bool zero_full(const search *S)
{
    return S->n == S->cap && (uint32_t)(S->key[S->cap - 1] >> 32) == 0u &&
           (S->hard == NULL || (S->nh == MAX_CONTACTS && S->hard[MAX_CONTACTS - 1].d2 == 0.0f));
}

/* A crowded cell's own slots [lo, hi) are scanned in chunks from j, with a zero_full test after
 * each: the whole cell when it holds at most OWN_CHUNK, else a first chunk of 16 (ranked into the
 * empty list on rank_into's short path, which stays short when all are tied) and then OWN_CHUNK at a
 * time. Returns the chunk's end. */
#define OWN_CHUNK 64
/* A gathered cell of more boids than this is crowded: its own boids are scanned first, in chunks
 * (zero_full), then the rest of its block; a cell of fewer is scanned with its block in one pass
 * from the first radius (topo_body.h). */
#define CROWDED OWN_CHUNK
static inline int32_t own_chunk_end(int32_t j, int32_t lo, int32_t hi)
{
    if (hi - lo <= OWN_CHUNK)
        return hi;
    const int32_t e = j + (j == lo ? 16 : OWN_CHUNK);
    return e < hi ? e : hi;
}

static const int32_t lane_iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* The search, once per vector width (topo_body.h): grow_base, gather_base, block_in_place_base,
 * beyond_base and their _avx2 twins. */
#define TOPO_GROW grow_base
#define TOPO_GATHER gather_base
#define TOPO_BLOCK_IN_PLACE block_in_place_base
#define TOPO_BEYOND beyond_base
#define TOPO_LIST_SCAN list_scan_base
#define TOPO_SERVE serve_base
#define TNAME base
#define TW 4
#define TATTR
#include "topo_body.h"
#ifdef MUR_X86_PATHS
#define TOPO_GROW grow_avx2
#define TOPO_GATHER gather_avx2
#define TOPO_BLOCK_IN_PLACE block_in_place_avx2
#define TOPO_BEYOND beyond_avx2
#define TOPO_LIST_SCAN list_scan_avx2
#define TOPO_SERVE serve_avx2
#define TNAME avx2
#define TW 8
#define TATTR __attribute__((target("avx2")))
#include "topo_body.h"
#endif

typedef void (*grow_fn)(const mur_flock *f, search *S, const block *B, gathered *G);
typedef int (*list_scan_fn)(const mur_flock *f, const block *B, int32_t k, float px, float py, float pz, float R2,
                            float *bd, int32_t *bi, int cap);

typedef void (*serve_fn)(const mur_flock *f, search *S, const int32_t *idx, int cnt, int32_t self_idx);

static serve_fn serve_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    if (simd == MUR_SIMD_AVX2 || simd == MUR_SIMD_AVX512)
        return serve_avx2;
#endif
    return serve_base;
}

static list_scan_fn list_scan_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    if (simd == MUR_SIMD_AVX2 || simd == MUR_SIMD_AVX512)
        return list_scan_avx2;
#endif
    return list_scan_base;
}

static grow_fn grow_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    /* the AVX-512 path uses the 8-lane search: a slice holds about 6 boids (the same list either way) */
    if (simd == MUR_SIMD_AVX2 || simd == MUR_SIMD_AVX512)
        return grow_avx2;
#endif
    return grow_base;
}

static inline int32_t axis_cell(float p, float origin, float inv, int32_t dim)
{
    float t = (p - origin) * inv;
    int32_t c = t > 0.0f ? (int32_t)t : 0;
    return c < dim ? c : dim - 1;
}

static inline float hmin_of(const mur_grid *g)
{
    float h = INFINITY;
    for (int a = 0; a < 3; a++)
        h = g->cell[a] < h ? g->cell[a] : h;
    return h;
}

/* The block of the cell holding position (px, py, pz) (the grid build's cell mapping), unless B
 * already is that cell's. */
static void block_at(const mur_flock *f, float px, float py, float pz, block *B)
{
    const mur_grid *g = &f->grid;
    const int32_t *D = g->dims;
    int32_t c[3];
    c[0] = axis_cell(px, g->origin[0], g->inv_cell[0], D[0]);
    c[1] = axis_cell(py, g->origin[1], g->inv_cell[1], D[1]);
    c[2] = axis_cell(pz, g->origin[2], g->inv_cell[2], D[2]);
    const int64_t id = mur_cell_id(g, c[0], c[1], c[2]);
    if (id == B->cell)
        return;
    B->cell = id;
    memcpy(B->c, c, sizeof c);
    B->own_lo = g->start[id];
    B->own_hi = g->start[id + 1];
    static const int8_t cols[9][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    const int32_t y0 = c[1] > 0 ? c[1] - 1 : 0, y1 = c[1] + 1 < D[1] ? c[1] + 1 : D[1] - 1;
    for (int a = 0; a < 3; a++) {
        B->margin[a] = 0.05f * g->cell[a];
        B->face[2 * a] = c[a] - 1 > 0 ? g->origin[a] + (float)(c[a] - 1) * g->cell[a] : NAN;
        B->face[2 * a + 1] = c[a] + 2 < D[a] ? g->origin[a] + (float)(c[a] + 2) * g->cell[a] : NAN;
    }
    B->rmin = (1.0f - 0.05f) * hmin_of(g);
    B->ns = 0;
    B->total = 0;
    for (int q = 0; q < 9; q++) {
        const int32_t x = c[0] + cols[q][0], z = c[2] + cols[q][1];
        if (x < 0 || x >= D[0] || z < 0 || z >= D[2])
            continue;
        B->lo[B->ns] = g->start[mur_cell_id(g, x, y0, z)];
        B->hi[B->ns] = g->start[mur_cell_id(g, x, y1, z) + 1];
        B->total += B->hi[B->ns] - B->lo[B->ns];
        B->ns++;
    }
}

/* The per-pass part of the search state. */
static void search_setup(search *S, const mur_flock *f, const mur_step *s, mur_topo_nb *hard)
{
    const mur_flock_def *d = s->def;
    const mur_grid *g = &f->grid;
    memset(S, 0, sizeof *S);
    S->cone = s->rule.cone;
    S->r2 = s->rule.r2;
    S->vr = sqrtf(S->r2);
    /* contacts: boids that could reach hard_radius within this tick */
    float hc = d->hard_radius + 2.0f * d->max_speed * d->dt;
    hc = hc < d->view_radius ? hc : d->view_radius;
    S->h2 = hc * hc;
    S->hr = sqrtf(S->h2);
    S->hmin = INFINITY;
    for (int a = 0; a < 3; a++)
        S->hmin = g->cell[a] < S->hmin ? g->cell[a] : S->hmin;
    S->cap = mur_topo_list_size(d);
    S->hard = d->hard_radius > 0.0f ? hard : NULL;
}

/* The per-boid part: the boid in sorted slot k. */
static inline void search_boid(search *S, const mur_flock *f, const mur_step *s, int32_t k)
{
    S->px = f->sx[k];
    S->py = f->sy[k];
    S->pz = f->sz[k];
    S->vx = f->svx[k];
    S->vy = f->svy[k];
    S->vz = f->svz[k];
    S->k2s = mur_cone_k2s(s->rule.cos_half, sqrtf(S->vx * S->vx + S->vy * S->vy + S->vz * S->vz));
    S->self = k;
    S->n = 0;
    S->nb = 0;
    S->nh = 0;
    S->hint2 = INFINITY;
}

/* The search of the boid in sorted slot k: its list into out, its contacts into hard. */
static int find(const mur_flock *f, const mur_step *s, int32_t k, mur_topo_nb *out, mur_topo_nb *hard, int *nh)
{
    search S;
    search_setup(&S, f, s, hard);
    search_boid(&S, f, s, k);
    block B;
    B.cell = -1;
    block_at(f, S.px, S.py, S.pz, &B);
    enum { CAP = 512 };
    float gx[CAP + GATHER_SLACK], gy[CAP + GATHER_SLACK], gz[CAP + GATHER_SLACK];
    int32_t gs[CAP + GATHER_SLACK];
    gathered G = {-1, 0, CAP, 0, gx, gy, gz, gs};
    grow_for(s->simd)(f, &S, &B, &G);
    for (int q = 0; q < S.n; q++)
        out[q] = (mur_topo_nb){key_d2(S.key[q]), (int32_t)(uint32_t)S.key[q], S.slot[q]};
    *nh = S.nh;
    return S.n;
}

int mur_topo_find(const mur_flock *f, const mur_step *s, int32_t k, mur_topo_nb *out)
{
    mur_topo_nb hard[MAX_CONTACTS];
    int nh;
    return find(f, s, k, out, hard, &nh);
}

int mur_topo_find_contacts(const mur_flock *f, const mur_step *s, int32_t k, mur_topo_nb *out)
{
    mur_topo_nb list[MUR_TOPO_MAX];
    int nh;
    find(f, s, k, list, out, &nh);
    return nh;
}

#ifndef MUR_X86_PATHS
#include "topo_scalar.h"
#endif

/* Histogram of the boids' distances to their k-th neighbour (squared), by the top bits of the float
 * (exponent and 3 bits of mantissa: bins 9% apart in distance). Boids whose k nearest are all at their
 * own point are left out: coincident boids say nothing of the spacing (zero_full bounds their
 * search), and counted they made cells of no size. */
#define SPACING_BINS 2048
#define SPACING_SHIFT 20

/* The first search radius: the last tick's times HINT_SCALE plus HINT_ADD wu; hints are prefetched
 * HINT_AHEAD slots ahead (by boid index: random reads). */
#define HINT_SCALE 1.1f
#define HINT_ADD 0.1f
#define HINT_AHEAD 8

/* Neighbour lists with a skin (the Verlet lists of molecular dynamics), made exact for the k nearest.
 * At a build (one pass, the epoch's t0) every boid i keeps p0_i, its position, and the indices of
 * every other boid within R_i = its needed radius (the hint) * (1 + LIST_SKIN) + LIST_ADD, clipped to
 * its block's bound b1 (farther boids are outside the block, at least b1 away). At a later pass, with
 * d_j = p_j - p0_j, any boid j not in i's list is at least R_i - |d_j - d_i| away (triangle
 * inequality), and if j is in i's block |d_j - d_i| <= dev_i, the distance from d_i to the farthest
 * corner of the box of the block's displacements (per cell, tl_box); if j is outside the block it is
 * at least b1 away. So with B = min(R_i - dev_i, b1): when the list's members, tested as the search
 * tests them, give a full list whose last entry is closer than B (or B passes the view radius), and
 * the same for the contacts, no boid outside the list can enter either, and the result is the
 * search's, bits and order (rank_into and insert order by (d2, index)). Else the boid is searched. The
 * rounding margins (LIST_REL, LIST_ABS) cover the float errors of the displacements, the box
 * distance and the squares: each is a few ulps relative to the quantity or to the largest
 * displacement's magnitude. Whether a boid is served depends only on the state, so the pass is
 * bit-identical for any thread count and path. Off unless switched on (mur_topo_lists_set, or
 * MUR_TOPO_LISTS=1 at build time): measured slower than the search it replaces (docs/performance.md,
 * "Neighbour lists with a skin"). */
#define LIST_SKIN 0.25f
#define LIST_ADD 0.1f
/* passes an epoch serves at most */
#define LIST_MAX_AGE 8
/* a new epoch when more than this share of the last pass's searches were not served */
#define LIST_FALLBACK 0.25
/* passes without lists after an epoch whose first serving pass failed the share: doubled each time
 * up to LIST_REST_MAX (a forming flock then pays the builds rarely), back to LIST_REST0 after one that
 * passed */
#define LIST_REST0 2
#define LIST_REST_MAX 32
/* no list where the block holds more boids (a crowd: its search is bounded, a list scan would not be) */
#define LIST_BLOCK_MAX 1024
#define LIST_REL 0x1p-16f
/* 1: try the whole flock's box of displacements before the block's (measured: fewer boxes made, but
 * the flock's box is rarely tight enough: more instructions) */
#define LIST_FLOCK_BOX 0
#define LIST_ABS 0x1p-18f

/* what a pass does with the lists (bits): serve from them, build new ones (a new epoch) */
enum { TL_OFF = 0, TL_SERVE = 1, TL_BUILD = 2 };

/* The box of the displacements since t0 of the boids of a block, and the cell it is of. */
typedef struct dbox {
    int64_t cell;
    float lo[3], hi[3];
    float mag; ///< the largest magnitude of its bounds (the margin's scale)
} dbox;

static void block_box(const mur_flock *f, const block *B, dbox *X)
{
    const mur_grid *g = &f->grid;
    const int32_t *D = g->dims;
    const int32_t *c = B->c;
    X->cell = B->cell;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const int32_t y0 = c[1] > 0 ? c[1] - 1 : 0, y1 = c[1] + 1 < D[1] ? c[1] + 1 : D[1] - 1;
    for (int32_t z = c[2] - 1; z <= c[2] + 1; z++) {
        if (z < 0 || z >= D[2])
            continue;
        for (int32_t x = c[0] - 1; x <= c[0] + 1; x++) {
            if (x < 0 || x >= D[0])
                continue;
            const int64_t e = mur_cell_id(g, x, y1, z);
            for (int64_t id = mur_cell_id(g, x, y0, z); id <= e; id++) {
                const float *b = f->tl_box + 6 * id;
                for (int a = 0; a < 3; a++) {
                    lo[a] = b[a] < lo[a] ? b[a] : lo[a];
                    hi[a] = b[3 + a] > hi[a] ? b[3 + a] : hi[a];
                }
            }
        }
    }
    float mag = 0.0f;
    for (int a = 0; a < 3; a++) {
        X->lo[a] = lo[a];
        X->hi[a] = hi[a];
        mag = fabsf(lo[a]) > mag ? fabsf(lo[a]) : mag;
        mag = fabsf(hi[a]) > mag ? fabsf(hi[a]) : mag;
    }
    X->mag = mag;
}

/* Per cell, the box of its boids' displacements since t0 (cells [c0, c1)); an empty cell's is empty
 * (+inf, -inf). */
static void cell_boxes(mur_flock *f, int64_t c0, int64_t c1, float *part)
{
    float glo[3] = {INFINITY, INFINITY, INFINITY}, ghi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const int32_t *restrict start = f->grid.start, *restrict order = f->order;
    const float *restrict p0 = f->tl_p0;
    const float *restrict sx = f->sx, *restrict sy = f->sy, *restrict sz = f->sz;
    float *restrict box = f->tl_box;
    for (int64_t c = c0; c < c1; c++) {
        float lx = INFINITY, ly = INFINITY, lz = INFINITY, hx = -INFINITY, hy = -INFINITY, hz = -INFINITY;
        for (int32_t k = start[c]; k < start[c + 1]; k++) {
            const float *q = p0 + 3 * (size_t)order[k];
            const float dx = sx[k] - q[0], dy = sy[k] - q[1], dz = sz[k] - q[2];
            lx = dx < lx ? dx : lx;
            ly = dy < ly ? dy : ly;
            lz = dz < lz ? dz : lz;
            hx = dx > hx ? dx : hx;
            hy = dy > hy ? dy : hy;
            hz = dz > hz ? dz : hz;
        }
        glo[0] = lx < glo[0] ? lx : glo[0];
        glo[1] = ly < glo[1] ? ly : glo[1];
        glo[2] = lz < glo[2] ? lz : glo[2];
        ghi[0] = hx > ghi[0] ? hx : ghi[0];
        ghi[1] = hy > ghi[1] ? hy : ghi[1];
        ghi[2] = hz > ghi[2] ? hz : ghi[2];
        float *b = box + 6 * c;
        b[0] = lx;
        b[1] = ly;
        b[2] = lz;
        b[3] = hx;
        b[4] = hy;
        b[5] = hz;
    }
    for (int a = 0; a < 3; a++) {
        part[a] = glo[a];
        part[3 + a] = ghi[a];
    }
}

/* The whole flock's box from the threads' parts (min and max: the same for any split). */
static void flock_box(const float (*part)[6], int nt, dbox *X)
{
    X->cell = -2;
    X->mag = 0.0f;
    for (int a = 0; a < 3; a++) {
        float lo = INFINITY, hi = -INFINITY;
        for (int t = 0; t < nt; t++) {
            lo = part[t][a] < lo ? part[t][a] : lo;
            hi = part[t][3 + a] > hi ? part[t][3 + a] : hi;
        }
        X->lo[a] = lo;
        X->hi[a] = hi;
        X->mag = fabsf(lo) > X->mag ? fabsf(lo) : X->mag;
        X->mag = fabsf(hi) > X->mag ? fabsf(hi) : X->mag;
    }
}

/* The bound of serve_list with the displacements' box X: every boid outside boid i's list (its
 * displacement d) is at least this far from it now. */
static inline float list_bound(const mur_flock *f, const dbox *X, const float d[3], float b1, int32_t i)
{
    float dev2 = 0.0f, mag = X->mag;
    for (int a = 0; a < 3; a++) {
        const float e0 = d[a] - X->lo[a], e1 = X->hi[a] - d[a];
        const float e = e0 > e1 ? e0 : e1;
        dev2 += e * e;
        mag = fabsf(d[a]) > mag ? fabsf(d[a]) : mag;
    }
    const float dev = sqrtf(dev2) * (1.0f + LIST_REL) + mag * LIST_ABS;
    const float r = f->tl_r[i] - dev;
    return r < b1 ? r : b1;
}

/* Whether the list and the contacts in S are certain when every boid outside the list is at least
 * bnd away. */
static inline bool list_sure(const search *S, float bnd)
{
    if (!(bnd > 0.0f))
        return false;
    const float bnd2 = bnd * bnd * (1.0f - LIST_REL);
    const bool list_ok = S->n == S->cap ? list_worst(S) < bnd2 : bnd > S->vr * (1.0f + LIST_REL);
    return list_ok && (S->hard == NULL || (S->nh == MAX_CONTACTS && S->hard[MAX_CONTACTS - 1].d2 < bnd2) ||
                       bnd > S->hr * (1.0f + LIST_REL));
}

/* The search of boid i from its list: true when the list and the contacts it gives are the search's
 * (S holds them), false when they cannot be shown to be (S's list is then to be redone). The bound
 * from the whole flock's displacements (Xg) first; where it is too loose, the block's (X, made here). */
static bool serve_list(const mur_flock *f, serve_fn serve, search *S, const block *B, const dbox *Xg, dbox *X,
                       int32_t i)
{
    const float *p0 = f->tl_p0 + 3 * (size_t)i;
    const float d[3] = {S->px - p0[0], S->py - p0[1], S->pz - p0[2]};
    const float b1 = block_bound(S, B);
    S->thr0 = S->thr = INFINITY;
    serve(f, S, f->tl_idx + (size_t)MUR_TOPO_LIST_CAP * (size_t)i, f->tl_cnt[i], i);
    if (Xg && list_sure(S, list_bound(f, Xg, d, b1, i)))
        return true;
    if (X->cell != B->cell)
        block_box(f, B, X);
    return list_sure(S, list_bound(f, X, d, b1, i));
}

/* Build the list of boid i (slot k) at the epoch's t0, after its search: every other boid of its block
 * within R = r (1 + LIST_SKIN) + LIST_ADD (r: the radius its search needed) clipped to the block's
 * bound; at most MUR_TOPO_LIST_CAP (else R shrinks to the distance of the first left out). No list
 * (tl_r < 0) for a boid without r, in a crowded cell or a large block. */
static void build_list(mur_flock *f, list_scan_fn scan, const search *S, const block *B, int32_t i, int32_t k,
                       float r)
{
    f->tl_r[i] = -1.0f;
    f->tl_cnt[i] = 0;
    if (!(r > 0.0f) || B->own_hi - B->own_lo > CROWDED || B->total > LIST_BLOCK_MAX)
        return;
    const float b1 = block_bound(S, B);
    float R = r * (1.0f + LIST_SKIN) + LIST_ADD;
    R = R < b1 ? R : b1;
    enum { NB = 64 };
    float bd[NB];
    int32_t bi[NB];
    const int nb = scan(f, B, k, S->px, S->py, S->pz, R * R, bd, bi, NB);
    if (nb < 0)
        return; /* a crowd */
    int32_t *idx = f->tl_idx + (size_t)MUR_TOPO_LIST_CAP * (size_t)i;
    if (nb <= MUR_TOPO_LIST_CAP) {
        memcpy(idx, bi, sizeof(int32_t) * (size_t)nb);
        f->tl_cnt[i] = (uint8_t)nb;
        f->tl_r[i] = R * (1.0f - LIST_REL);
        return;
    }
    /* too many: ascending by distance, the nearest kept */
    for (int a = 1; a < nb; a++) {
        const float v = bd[a];
        const int32_t w = bi[a];
        int b = a;
        while (b > 0 && bd[b - 1] > v) {
            bd[b] = bd[b - 1];
            bi[b] = bi[b - 1];
            b--;
        }
        bd[b] = v;
        bi[b] = w;
    }
    /* to the distance of the first left out (ties left out with it) */
    const float cut = bd[MUR_TOPO_LIST_CAP];
    int m = 0;
    while (m < MUR_TOPO_LIST_CAP && bd[m] < cut)
        m++;
    memcpy(idx, bi, sizeof(int32_t) * (size_t)m);
    f->tl_cnt[i] = (uint8_t)m;
    f->tl_r[i] = sqrtf(cut) * (1.0f - LIST_REL);
}

/* The check of a served boid against brute force (tests: mur_topo_lists_check): every other boid
 * tested as the search tests it, inserted by (d2, index); a difference counts in tl_mismatch. */
static void check_served(mur_flock *f, const mur_step *s, const search *S, int32_t i, int32_t k)
{
    (void)s;
    mur_topo_nb l[MUR_TOPO_MAX], h[MAX_CONTACTS];
    int nl = 0, nh = 0;
    for (int32_t j = 0; j < f->n; j++) {
        const float dx = f->sx[j] - S->px, dy = f->sy[j] - S->py, dz = f->sz[j] - S->pz;
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (j == k || !(f->sw[j] > 0.0f) || !(d2 < S->r2))
            continue;
        if (S->hard && d2 < S->h2)
            insert(h, &nh, MAX_CONTACTS, d2, f->order[j], j);
        const float dot = dx * S->vx + dy * S->vy + dz * S->vz;
        if (S->cone && !(dot * fabsf(dot) >= d2 * S->k2s))
            continue;
        insert(l, &nl, S->cap, d2, f->order[j], j);
    }
    bool same = nl == S->n && (S->hard == NULL || nh == S->nh);
    for (int q = 0; same && q < nl; q++)
        same = key_d2(S->key[q]) == l[q].d2 && (int32_t)(uint32_t)S->key[q] == l[q].idx && S->slot[q] == l[q].slot;
    for (int q = 0; same && S->hard && q < nh; q++)
        same = S->hard[q].d2 == h[q].d2 && S->hard[q].idx == h[q].idx && S->hard[q].slot == h[q].slot;
    (void)i;
    if (!same) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        f->tl_mismatch++;
    }
}

static void run_item(mur_flock *f, const mur_step *s, grow_fn grow, list_scan_fn scan, serve_fn serve, const dbox *Xg,
                     mur_gather *gb, int32_t k0, int32_t k1, mur_item_sums *T, int32_t *hist, int mode,
                     int64_t *served, int64_t *searched)
{
    dbox X = {-1, {0}, {0}, 0.0f};
    mur_topo_nb hard[MAX_CONTACTS];
    search S;
    search_setup(&S, f, s, hard);
    block B;
    B.cell = -1;
    B.own_lo = B.own_hi = 0;
    /* the slots go into the float array vx as int32 (allocated memory: its type is that of the last
     * store) */
    gathered G = {-1, 0, MUR_GATHER_CAP - GATHER_SLACK, 0, gb->x, gb->y, gb->z, (int32_t *)(void *)gb->vx};
    float *restrict hint = f->topo_hint;
    const float h2 = S.hard ? S.h2 : 0.0f;
    mur_topo_batch TB;
    acc TA[MUR_TOPO_BATCH];
    TB.nb = 0;
    for (int32_t k = k0; k < k1; k++) {
        const int32_t i = f->order[k];
        if (!(f->sw[k] > MUR_W_PERCHED)) {
            if (mode & TL_BUILD) {
                /* every boid's position at t0, the perched too (they are others' neighbours) */
                float *q = f->tl_p0 + 3 * (size_t)i;
                q[0] = f->sx[k];
                q[1] = f->sy[k];
                q[2] = f->sz[k];
                f->tl_r[i] = -1.0f;
            }
            if (s->move)
                f->perch[i]--;
            continue;
        }
        search_boid(&S, f, s, k);
        {
            /* the last tick's radius, a little larger (the flock moves): the first radius searched */
            const float r = hint[i] * HINT_SCALE + HINT_ADD;
            S.hint2 = hint[i] > 0.0f ? r * r : INFINITY;
            if (k + HINT_AHEAD < k1) {
                const int32_t ia = f->order[k + HINT_AHEAD];
                __builtin_prefetch(hint + ia, 1);
                if (mode & TL_SERVE) {
                    /* the list's rows, by boid index (random reads) */
                    __builtin_prefetch(f->tl_idx + (size_t)MUR_TOPO_LIST_CAP * (size_t)ia);
                    __builtin_prefetch(f->tl_idx + (size_t)MUR_TOPO_LIST_CAP * (size_t)ia + 16);
                    __builtin_prefetch(f->tl_p0 + 3 * (size_t)ia);
                    __builtin_prefetch(f->tl_r + ia);
                    __builtin_prefetch(f->tl_cnt + ia);
                }
            }
        }
        if (s->move) {
            /* the update reads and writes boid i's rows (random order): fetch their lines while the
             * search runs instead of stalling on them after it */
            __builtin_prefetch(f->pos + 3 * (size_t)i, 1);
            __builtin_prefetch(f->pos + 3 * (size_t)i + 2, 1);
            __builtin_prefetch(f->vel + 3 * (size_t)i, 1);
            __builtin_prefetch(f->vel + 3 * (size_t)i + 2, 1);
            __builtin_prefetch(f->roll + i, 1);
            if (s->escape)
                __builtin_prefetch(f->erow + i, 1); /* the escape's row (escape.c) */
        }
        /* the boids of a cell are the slots [start, next start): the same block as the last boid's */
        if (!(k >= B.own_lo && k < B.own_hi))
            block_at(f, S.px, S.py, S.pz, &B);
        bool done = false;
        if ((mode & TL_SERVE) && f->tl_r[i] >= 0.0f) {
            done = serve_list(f, serve, &S, &B, LIST_FLOCK_BOX ? Xg : NULL, &X, i);
            if (!done) {
                S.n = 0;
                S.nb = 0;
                S.nh = 0;
            }
            *served += done;
            if (done && f->tl_check)
                check_served(f, s, &S, i, k);
        }
        *searched += 1;
        if (!done)
            grow(f, &S, &B, &G);
        {
            /* the radius this search needed: the list's and the contacts' (their radius while fewer
             * than MAX_CONTACTS were found) */
            const float w = S.n == S.cap ? key_d2(S.key[S.cap - 1]) : INFINITY;
            const float c = S.nh == MAX_CONTACTS ? S.hard[MAX_CONTACTS - 1].d2 : h2;
            const float m = w > c ? w : c;
            hint[i] = m < INFINITY ? sqrtf(m) : 0.0f;
            if (mode & TL_BUILD) {
                /* after the serve, which read the old epoch's position */
                float *q = f->tl_p0 + 3 * (size_t)i;
                q[0] = S.px;
                q[1] = S.py;
                q[2] = S.pz;
                build_list(f, scan, &S, &B, i, k, hint[i]);
            }
        }
        if (S.n == S.cap && S.key[S.cap - 1] >> 32 != 0)
            hist[(uint32_t)(S.key[S.cap - 1] >> (32 + SPACING_SHIFT))]++;
        if (s->metrics) {
            T->cnt += S.n;
            if (S.n > 0) {
                T->nn += sqrt((double)key_d2(S.key[0])); /* sums()'s nn */
                T->with++;
            }
        }
        if (s->move) {
            /* the update waits for the batch: the searches read only the sorted copies */
            const int q = TB.nb++;
            TB.i[q] = i;
            TB.n[q] = S.n;
            TB.b[q] = (boid_in){S.px, S.py, S.pz, S.vx, S.vy, S.vz, 0.0f};
            TB.nh[q] = S.nh;
#ifdef MUR_X86_PATHS
            for (int m = 0; m < S.n; m++) {
                TB.d2[m][q] = key_d2(S.key[m]);
                TB.slot[m][q] = S.slot[m];
            }
            for (int m = 0; m < S.nh; m++) {
                TB.hd2[m][q] = S.hard[m].d2;
                TB.hidx[m][q] = S.hard[m].idx;
                TB.hslot[m][q] = S.hard[m].slot;
            }
#else
            for (int m = 0; m < S.n; m++)
                TB.slot[m][q] = S.slot[m]; /* the escape's neighbours (escape.c) */
            contacts(f, s, &S, i, &TB.c[q]);
            TB.has_c[q] = S.nh > 0;
            sums(f, s, &S, &TA[q]);
#endif
            if (TB.nb == MUR_TOPO_BATCH)
                mur_topo_batch_flush(f, s, &TB, TA);
        }
    }
    if (TB.nb > 0)
        mur_topo_batch_flush(f, s, &TB, TA);
    T->cand += S.tested;
}

/* The median of the histogram (its bin's upper edge), or 0 when it is empty. */
static float spacing_of(const int32_t *hist)
{
    int64_t total = 0;
    for (int b = 0; b < SPACING_BINS; b++)
        total += hist[b];
    if (total == 0)
        return 0.0f;
    const int64_t want = total / 2;
    int64_t run = 0;
    int b = 0;
    while (b < SPACING_BINS - 1 && run + hist[b] <= want)
        run += hist[b++];
    const uint32_t bits = (uint32_t)(b + 1) << SPACING_SHIFT;
    float d2;
    memcpy(&d2, &bits, sizeof d2);
    return sqrtf(d2);
}

/* What the pass does with the lists: none, build them (a new epoch), or serve from them. Decided from
 * the state and the last passes' counts only (never the timing or the threads). */
#ifndef MUR_TOPO_LISTS
#define MUR_TOPO_LISTS 0
#endif

static bool lists_on(const mur_flock *f)
{
    return f->tl_mode > 0 || (f->tl_mode == 0 && MUR_TOPO_LISTS);
}

/* The lists' rows for the flock's capacity (none grown on failure: then no lists this pass). */
static bool lists_reserve(mur_flock *f)
{
    const int32_t cap = f->cap;
    const int64_t cells = f->grid.cap_cells + 1;
    if (f->tl_cap >= cap && f->tl_cells >= cells)
        return true;
    float *p0 = realloc(f->tl_p0, sizeof(float) * 3 * (size_t)cap);
    if (p0)
        f->tl_p0 = p0;
    float *r = realloc(f->tl_r, sizeof(float) * (size_t)cap);
    if (r)
        f->tl_r = r;
    int32_t *idx = realloc(f->tl_idx, sizeof(int32_t) * MUR_TOPO_LIST_CAP * (size_t)cap);
    if (idx)
        f->tl_idx = idx;
    uint8_t *cnt = realloc(f->tl_cnt, (size_t)cap);
    if (cnt)
        f->tl_cnt = cnt;
    int32_t *so = realloc(f->slotof, sizeof(int32_t) * (size_t)cap);
    if (so)
        f->slotof = so;
    float *box = realloc(f->tl_box, sizeof(float) * 6 * (size_t)cells);
    if (box)
        f->tl_box = box;
    if (!p0 || !r || !idx || !cnt || !so || !box)
        return false;
    f->tl_cap = cap;
    f->tl_cells = cells;
    return true;
}

size_t mur_topo_lists_bytes(const mur_flock *f)
{
    return (size_t)f->tl_cap * (sizeof(float) * 4 + sizeof(int32_t) * (MUR_TOPO_LIST_CAP + 1) + 1) +
           (size_t)f->tl_cells * sizeof(float) * 6;
}

void mur_topo_lists_free(mur_flock *f)
{
    free(f->tl_p0);
    free(f->tl_r);
    free(f->tl_idx);
    free(f->tl_cnt);
    free(f->slotof);
    free(f->tl_box);
    f->tl_p0 = f->tl_r = f->tl_box = NULL;
    f->tl_idx = f->slotof = NULL;
    f->tl_cnt = NULL;
    f->tl_cap = 0;
    f->tl_cells = 0;
    f->tl_valid = false;
    f->tl_slots = false;
}

static int lists_plan(const mur_flock *f)
{
    if (!lists_on(f) || f->grid.wrap || f->def.neighbour_search == MUR_SEARCH_BRUTE || f->tl_rest > 0)
        return TL_OFF;
    if (!f->tl_valid || f->n > f->tl_n)
        return TL_BUILD;
    const bool poor = (double)(f->tl_searched - f->tl_served) > LIST_FALLBACK * (double)f->tl_searched;
    return TL_SERVE | (f->tl_age >= LIST_MAX_AGE || poor ? TL_BUILD : 0);
}

static void lists_done(mur_flock *f, int mode, int64_t served, int64_t searched)
{
    f->tl_served = served;
    f->tl_searched = searched;
    f->tl_served_all += served;
    f->tl_searched_all += searched;
    if (mode == TL_OFF) {
        if (f->tl_rest > 0)
            f->tl_rest--;
        f->tl_valid = false;
    } else if (mode & TL_BUILD) {
        f->tl_valid = true;
        f->tl_n = f->n;
        f->tl_age = 0;
        f->tl_builds++;
        f->tl_served = f->tl_searched = 0; /* the old epoch's */
    } else {
        f->tl_age++;
        if (f->tl_age == 1) {
            /* the epoch's first serving pass: a poor one rests the lists (a forming flock) */
            if ((double)(searched - served) > LIST_FALLBACK * (double)searched) {
                f->tl_rest = f->tl_rest_len;
                f->tl_rest_len = f->tl_rest_len * 2 > LIST_REST_MAX ? LIST_REST_MAX : f->tl_rest_len * 2;
                f->tl_valid = false;
            } else {
                f->tl_rest_len = LIST_REST0;
            }
        }
    }
    if (f->tl_rest_len < LIST_REST0)
        f->tl_rest_len = LIST_REST0;
    f->tl_slots = (lists_plan(f) & TL_SERVE) != 0;
#ifdef MUR_TOPO_LISTS_TRACE
    fprintf(stderr, "TL tick %llu mode %d served %lld / %lld age %d rest %d\n", (unsigned long long)f->tick, mode,
                (long long)served, (long long)searched, f->tl_age, f->tl_rest);
#endif
}

void mur_topo_lists_set(mur_flock *f, bool on)
{
    f->tl_mode = on ? 1 : -1;
    f->tl_valid = false;
    f->tl_slots = false;
}

void mur_topo_pass(mur_flock *f, const mur_step *s, mur_pass_sums *out)
{
    const int64_t count = ((int64_t)f->n + ITEM_SLOTS - 1) / ITEM_SLOTS;
    const int nt = mur_step_threads(s, f->n, MUR_PAR_MIN_RULES);
    int64_t cand_total = 0;
    const grow_fn grow = grow_for(s->simd);
    f->gather_dirty = true; /* the gather buffers hold NaNs and slot numbers (mur_rules_pass clears them) */
    /* each thread's CPU time against the pass's wall time: did every thread have its core? (cores.h;
     * as mur_rules_pass) */
    double own[MUR_MAX_THREADS];
    const double t0 = mur_own_start(own, nt);
    int32_t hist_all[SPACING_BINS];
    memset(hist_all, 0, sizeof hist_all);
    int mode = lists_plan(f);
    if ((mode & TL_SERVE) && !f->tl_slots_written)
        mode = TL_BUILD; /* the grid build did not write the slots */
    if (mode != TL_OFF && !lists_reserve(f)) {
        mode = TL_OFF; /* out of memory: searched as without lists */
        f->tl_mode = -1;
    }
    const list_scan_fn scan = list_scan_for(s->simd);
    const serve_fn serve = serve_for(s->simd);
    int64_t served = 0, searched = 0;
    const int64_t ncells = f->grid.ncells;
    float part[MUR_MAX_THREADS][6];
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        dbox Xg = {-2, {0}, {0}, 0.0f};
        if (mode & TL_SERVE) {
            /* the boxes of the displacements, by cell ranges; the barrier before the searches */
#ifdef _OPENMP
            const int t = omp_get_thread_num(), T = omp_get_num_threads();
#else
            const int t = 0, T = 1;
#endif
            cell_boxes(f, ncells * t / T, ncells * (t + 1) / T, part[t]);
#ifdef _OPENMP
#pragma omp barrier
#endif
            flock_box((const float(*)[6])part, T, &Xg);
        }
        const int tid = mur_thread_id();
        int32_t hist[SPACING_BINS];
        memset(hist, 0, sizeof hist);
        const double c0 = nt > 1 ? mur_thread_cpu_ms() : 0.0;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4) reduction(+ : cand_total, served, searched) nowait
#endif
        for (int64_t it = 0; it < count; it++) {
            mur_item_sums T = {0, 0, 0, 0.0};
            const int32_t k0 = (int32_t)(it * ITEM_SLOTS);
            const int32_t k1 = k0 + ITEM_SLOTS < f->n ? k0 + ITEM_SLOTS : f->n;
            run_item(f, s, grow, scan, serve, &Xg, &f->gather[tid], k0, k1, &T, hist, mode, &served, &searched);
            cand_total += T.cand;
            if (s->metrics)
                mur_item_keep(f, it, &T);
        }
        if (nt > 1)
            own[tid] = mur_own_share(t0, c0);
        for (int b = 0; b < SPACING_BINS; b++) {
            if (hist[b] == 0)
                continue;
#ifdef _OPENMP
#pragma omp atomic
#endif
            hist_all[b] += hist[b];
        }
    }
    f->topo_spacing = spacing_of(hist_all);
    lists_done(f, mode, served, searched);
    mur_pass_finish(f, count, s->metrics, cand_total, own, nt, out);
}
