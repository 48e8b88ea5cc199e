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
 * whose last search needed a radius r inside b_1 scans its block first with the threshold of
 * 1.01 r + 1.5 |r - r'| + 0.05 wu (f->topo_hint; r' the radius of the search before, kept there
 * as the move |r - r'|: loose where the boid's k-th distance moves, tight where it is steady), and the rest
 * of the block only when that leaves the list short or the contacts uncertain. The result does not
 * depend on the visiting order or on the first radius, so the pass is bit-identical for any grid,
 * hint, thread count or vector path. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

#include "topo.h"
#include "topo_search.h"
#include "topo_batch.h"

#include "core.h"
#include "falcon.h"
#include "cores.h"
#include "kernel.h"
#include "react.h"
#include "step.h"

/* Sorted slots per work item. */
#define ITEM_SLOTS 64

int mur_topo_list_size(const mur_flock_def *d)
{
    const int k = (int)floorf(d->topo_k);
    return k + (d->topo_k > (float)k ? 1 : 0);
}

#ifdef MUR_X86_PATHS
#include "topo_compress8.h"
#endif

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
/* The AVX-512 path: the same 8-lane search but for the gathered block's scan, 16 lanes at a time with
 * mask registers (TSCAN16: topo_body.h). */
#define TOPO_GROW grow_avx512
#define TOPO_GATHER gather_avx512
#define TOPO_BLOCK_IN_PLACE block_in_place_avx512
#define TOPO_BEYOND beyond_avx512
#define TOPO_LIST_SCAN list_scan_avx512
#define TOPO_SERVE serve_avx512
#define TNAME avx512
#define TW 8
#define TSCAN16 1
#define TATTR __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq")))
#include "topo_body.h"
#undef TSCAN16
#endif

static serve_fn serve_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    if (simd == MUR_SIMD_AVX512 && mur_kernel_search512())
        return serve_avx512;
    if (simd == MUR_SIMD_AVX2 || simd == MUR_SIMD_AVX512)
        return serve_avx2;
#endif
    return serve_base;
}

static list_scan_fn list_scan_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    if (simd == MUR_SIMD_AVX512 && mur_kernel_search512())
        return list_scan_avx512;
    if (simd == MUR_SIMD_AVX2 || simd == MUR_SIMD_AVX512)
        return list_scan_avx2;
#endif
    return list_scan_base;
}

static grow_fn grow_for(mur_simd simd)
{
    (void)simd;
#ifdef MUR_X86_PATHS
    /* the AVX-512 path: the 8-lane search with the block's scan on 16 lanes (the same list either way) */
    if (simd == MUR_SIMD_AVX512 && mur_kernel_search512())
        return grow_avx512;
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
    contacts_clear(S);
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
    grow_for(s->search_simd)(f, &S, &B, &G);
    for (int q = 0; q < S.n; q++)
        out[q] = (mur_topo_nb){key_d2(S.key[q]), (int32_t)(uint32_t)S.key[q], S.slot[q]};
    contacts_out(&S);
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

/* The first search radius: the last tick's r times HINT_SCALE, plus HINT_MOVE times how much r moved at
 * that search (topo_hint's second float; HINT_FIRST r when it had none before), plus HINT_ADD wu; hints are
 * prefetched HINT_AHEAD slots ahead (by boid index: random reads). Both are kept as the upper 16 bits
 * of a float, rounded up (at most 0.8% larger: the scale 1.005 makes about the 1.01 measured). */
#define HINT_SCALE 1.005f
#define HINT_MOVE 1.5f
#define HINT_ADD 0.05f
#define HINT_FIRST 0.06f
#define HINT_AHEAD 8

/* A hint's 16 bits: the upper half of x's float, rounded up (x >= 0), and back. */
static inline uint16_t hint_pack(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (uint16_t)((u + 0xffffu) >> 16);
}

static inline float hint_unpack(uint16_t h)
{
    const uint32_t u = (uint32_t)h << 16;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The reaction time in the pass (react.h): off, holding the sums, holding the list. */
enum { REACT_OFF, REACT_SUMS, REACT_LIST };

/* Boid i's held list (reaction_hold=list) as the search's list of this tick: its neighbours that still
 * count (a flying or counted perching one), ordered by their current squared distance and index as
 * the search orders, and the contacts among them (the search's contact radius, nearest first). The
 * held list's length is at most S->cap, so no neighbour is dropped for room. slot: every boid's
 * sorted slot this tick. */
static void held_list(const mur_flock *f, const int32_t *slot, search *S, int32_t i)
{
    const int32_t *idx;
    const int n = mur_react_list(f, i, &idx);
    S->thr0 = S->thr = INFINITY;
    for (int q = 0; q < n; q++) {
        const int32_t j = idx[q];
        if (j >= f->n)
            continue; /* removed (the count change forgets every list: a guard) */
        const int32_t k = slot[j];
        if (!(f->sw[k] > 0.0f))
            continue; /* perched, and perching boids do not count */
        const float dx = f->sx[k] - S->px, dy = f->sy[k] - S->py, dz = f->sz[k] - S->pz;
        const float d2 = dx * dx + dy * dy + dz * dz;
        list_add(S, d2, j, k);
        if (S->hard && d2 < S->h2)
            contact_add(S, d2, j, k);
    }
}

/* The held rows of the reaction time are read by boid index, in the pass's slot order (random): fetch
 * those of the boid HINT_AHEAD slots ahead, and with reaction_hold=list the slots of the neighbours of
 * the boid half as far ahead (its row fetched by then). Only the speed depends on it. */
/* A prefetch the optimiser keeps: gcc 12 at -O2 and above dropped the __builtin_prefetch calls of
 * react_prefetch (the object held only the pass's other 12 prefetches). */
static inline void keep_prefetch(const void *p)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p);
#endif
}

static inline void react_prefetch(const mur_flock *f, int react, const int32_t *react_slot, int32_t k, int32_t k1)
{
    if (k + HINT_AHEAD < k1) {
        const int32_t ia = f->order[k + HINT_AHEAD];
        keep_prefetch(f->react_at + ia);
        keep_prefetch(f->react_phase + ia);
        if (react == REACT_SUMS) {
            keep_prefetch(f->react + (size_t)MUR_REACT_FLOATS * (size_t)ia);
        } else {
            const int32_t *row = f->react_idx + (size_t)f->react_len * (size_t)ia;
            keep_prefetch(row);
            keep_prefetch(row + f->react_len - 1);
            keep_prefetch(f->react_n + ia);
        }
    }
    if (react == REACT_LIST && react_slot && k + HINT_AHEAD / 2 < k1) {
        const int32_t ib = f->order[k + HINT_AHEAD / 2];
        const int32_t *idx;
        const int n = mur_react_list(f, ib, &idx);
        for (int q = 0; q < n; q++)
            if (idx[q] < f->n)
                keep_prefetch(react_slot + idx[q]);
    }
}

/* Boid i (position x, y, z) at the lists' epoch t0 without a list of its own (topo_lists.c): its
 * position is still kept, for it is others' neighbour. */
static inline void tl_unlisted(mur_flock *f, int32_t i, float x, float y, float z)
{
    float *q = f->tl_p0 + 3 * (size_t)i;
    q[0] = x;
    q[1] = y;
    q[2] = z;
    f->tl_r[i] = -1.0f;
}

static void run_item(mur_flock *f, const mur_step *s, grow_fn grow, list_scan_fn scan, serve_fn serve, const dbox *Xg,
                     mur_gather *gb, int32_t k0, int32_t k1, mur_item_sums *T, int32_t *hist, int mode,
                     int64_t *served, int64_t *searched, int react)
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
    uint16_t *restrict hint = f->topo_hint; /* radius and move, side by side */
    const float h2 = S.hard ? S.h2 : 0.0f;
    mur_topo_batch TB;
    acc TA[MUR_TOPO_BATCH];
    TB.nb = 0;
    TB.react = react == REACT_SUMS;
    const int32_t R = s->def->reaction_ticks;
    const int32_t *react_slot = react == REACT_LIST ? mur_react_slots(f) : NULL;
    for (int32_t k = k0; k < k1; k++) {
        const int32_t i = f->order[k];
        if (react != REACT_OFF)
            react_prefetch(f, react, react_slot, k, k1);
        if (!(f->sw[k] > MUR_W_PERCHED)) {
            if (mode & TL_BUILD) /* every boid's position at t0, the perched too */
                tl_unlisted(f, i, f->sx[k], f->sy[k], f->sz[k]);
            if (s->move)
                f->perch[i]--;
            if (s->escape) /* its escape does not run: its state still goes to the view (escape.c) */
                mur_escape_publish_one(f, s, i);
            continue;
        }
        search_boid(&S, f, s, k);
        /* (reaction_hold=list reads its list's rows by slot: none written, every boid searches) */
        const bool held = react != REACT_OFF && (react == REACT_SUMS || react_slot) && !mur_react_fresh(f, i, R);
        if (held && (mode & TL_BUILD)) /* no search: no list of its own */
            tl_unlisted(f, i, S.px, S.py, S.pz);
        if (held && react == REACT_SUMS) {
            /* between its reactions: no search, the held sums (react.h), no contacts */
            acc a;
            const int n = mur_react_held(f, i, &a);
            if (s->metrics) {
                T->cnt += n;
                if (n > 0) {
                    T->nn += sqrt((double)a.nn);
                    T->with++;
                }
            }
            const int q = TB.nb++;
            TB.i[q] = i;
            TB.n[q] = 0;
            TB.b[q] = (boid_in){S.px, S.py, S.pz, S.vx, S.vy, S.vz, 0.0f};
            TB.nh[q] = 0;
            TB.held[q] = true;
#ifndef MUR_X86_PATHS
            TB.has_c[q] = false;
            TA[q] = a;
#endif
            if (TB.nb == MUR_TOPO_BATCH)
                mur_topo_batch_flush(f, s, &TB, TA);
            continue;
        }
        if (held) {
            /* reaction_hold=list between its reactions: no search, its held list (react.h) */
            held_list(f, react_slot, &S, i);
        } else {
            {
                /* the last tick's radius, a little larger (the flock moves): the first radius searched */
                const float h0 = hint_unpack(hint[2 * (size_t)i]), h1 = hint_unpack(hint[2 * (size_t)i + 1]);
                const float r = h0 * HINT_SCALE + h1 * HINT_MOVE + HINT_ADD;
                S.hint2 = h0 > 0.0f ? r * r : INFINITY;
                if (k + HINT_AHEAD < k1) {
                    const int32_t ia = f->order[k + HINT_AHEAD];
                    __builtin_prefetch(hint + 2 * (size_t)ia, 1);
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
                if (s->escape) {
                    /* the escape's row and the bytes it keeps beside it (escape.c: quick() and publish()) */
                    __builtin_prefetch(f->erow + i, 1);
                    __builtin_prefetch(f->path_d2 + i, 1);
                    __builtin_prefetch(f->esc + i, 1);
                    __builtin_prefetch(f->ecopy + i, 1);
                }
            }
            /* the boids of a cell are the slots [start, next start): the same block as the last boid's */
            if (!(k >= B.own_lo && k < B.own_hi))
                block_at(f, S.px, S.py, S.pz, &B);
            bool done = false;
            if ((mode & TL_SERVE) && f->tl_r[i] >= 0.0f) {
                done = mur_tl_serve(f, serve, &S, &B, LIST_FLOCK_BOX ? Xg : NULL, &X, i);
                if (!done) {
                    S.n = 0;
                    S.nb = 0;
                    contacts_clear(&S);
                }
                *served += done;
                if (done && f->tl_check)
                    mur_tl_check(f, s, &S, i, k);
            }
            *searched += 1;
            if (!done)
                grow(f, &S, &B, &G);
            {
                /* the radius this search needed: the list's and the contacts' (their radius while fewer
                 * than MAX_CONTACTS were found) */
                const float w = S.n == S.cap ? key_d2(S.key[S.cap - 1]) : INFINITY;
                const float c = S.nh == MAX_CONTACTS ? contact_d2(&S, MAX_CONTACTS - 1) : h2;
                const float m = w > c ? w : c;
                const float r = m < INFINITY ? sqrtf(m) : 0.0f;
                {
                    /* no radius before (the first search, or a list left short): the move is taken as
                     * HINT_FIRST r, so that the next first radius is about 1.1 r */
                    const float r0 = hint_unpack(hint[2 * (size_t)i]);
                    hint[2 * (size_t)i + 1] = hint_pack(r0 > 0.0f ? fabsf(r - r0) : HINT_FIRST * r);
                    hint[2 * (size_t)i] = hint_pack(r);
                }
                if (mode & TL_BUILD) {
                    /* after the serve, which read the old epoch's position */
                    float *q = f->tl_p0 + 3 * (size_t)i;
                    q[0] = S.px;
                    q[1] = S.py;
                    q[2] = S.pz;
                    mur_tl_build(f, scan, &S, &B, i, k, r);
                }
            }
            if (S.n == S.cap && S.key[S.cap - 1] >> 32 != 0)
                hist[(uint32_t)(S.key[S.cap - 1] >> (32 + SPACING_SHIFT))]++;
            if (react == REACT_LIST)
                mur_react_keep_list(f, i, S.key, S.n);
        }
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
            TB.held[q] = false;
#ifdef MUR_X86_PATHS
            for (int m = 0; m < S.n; m++) {
                TB.d2[m][q] = key_d2(S.key[m]);
                TB.slot[m][q] = S.slot[m];
            }
            if (f->srow_written) /* the batch's interleaved velocity rows (grid.c srow), read at its flush */
                for (int m = 0; m < S.n; m++)
                    __builtin_prefetch(f->srow + 4 * (size_t)S.slot[m]);
            for (int m = 0; m < S.nh; m++) {
                TB.hd2[m][q] = contact_d2(&S, m);
                TB.hidx[m][q] = contact_idx(&S, m);
                TB.hslot[m][q] = S.hslot[m];
            }
#else
            for (int m = 0; m < S.n; m++)
                TB.slot[m][q] = S.slot[m]; /* the escape's neighbours (escape.c) */
            contacts(f, s, &S, i, &TB.c[q]);
            TB.has_c[q] = S.nh > 0;
            sums(f, s, &S, &TA[q]);
            if (react == REACT_SUMS)
                mur_react_keep(f, i, &TA[q], S.n);
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

void mur_topo_pass(mur_flock *f, const mur_step *s, mur_pass_sums *out)
{
    const int64_t count = ((int64_t)f->n + ITEM_SLOTS - 1) / ITEM_SLOTS;
    const int nt = mur_step_threads(s, f->n, MUR_PAR_MIN_RULES);
    int64_t cand_total = 0;
    const grow_fn grow = grow_for(s->search_simd);
    f->gather_dirty = true; /* the gather buffers hold NaNs and slot numbers (mur_rules_pass clears them) */
    /* each thread's CPU time against the pass's wall time: did every thread have its core? (cores.h;
     * as mur_rules_pass) */
    double own[MUR_MAX_THREADS];
    const double t0 = mur_own_start(own, nt);
    int32_t hist_all[SPACING_BINS];
    memset(hist_all, 0, sizeof hist_all);
    int mode = mur_tl_plan(f);
    if ((mode & TL_SERVE) && !f->tl_slots_written)
        mode = TL_BUILD; /* the grid build did not write the slots */
    if (mode != TL_OFF && !mur_tl_reserve(f)) {
        mode = TL_OFF; /* out of memory: searched as without lists */
        f->tl_mode = -1;
    }
    const list_scan_fn scan = list_scan_for(s->search_simd);
    const serve_fn serve = serve_for(s->search_simd);
    int64_t served = 0, searched = 0;
    /* the reaction time: only with an update, and not while the escape reads the lists (react.h) */
    const int react = s->def->reaction_ticks > 1 && s->move && !s->escape && mur_react_reserve(f, s->def)
                          ? (f->react_list ? REACT_LIST : REACT_SUMS)
                          : REACT_OFF;
    f->react_slots = react == REACT_LIST; /* the next grid build writes the slots the held lists read */
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
            mur_tl_cell_boxes(f, ncells * t / T, ncells * (t + 1) / T, part[t]);
#ifdef _OPENMP
#pragma omp barrier
#endif
            mur_tl_flock_box((const float(*)[6])part, T, &Xg);
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
            run_item(f, s, grow, scan, serve, &Xg, &f->gather[tid], k0, k1, &T, hist, mode, &served, &searched, react);
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
    mur_tl_done(f, mode, served, searched);
    mur_pass_finish(f, count, s->metrics, cand_total, own, nt, out);
}
