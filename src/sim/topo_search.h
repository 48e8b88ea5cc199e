/* The topological search's internals shared by topo.c (the search and the pass) and topo_lists.c
 * (the neighbour lists with a skin): the search state, the block of rings 0 and 1, the list and its
 * bounds. Not a public header; see topo.c for the search and topo_lists.c for the lists. */
#ifndef MUR_SIM_TOPO_SEARCH_H
#define MUR_SIM_TOPO_SEARCH_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "topo.h"

#include "core.h"
#include "step.h"

/* Hard-sphere contacts kept per boid (the nearest ones, ordered like the neighbours). */
#define MAX_CONTACTS MUR_TOPO_CONTACTS
/* Candidates the block pass collects before they are ranked (a crowded block empties it into the
 * list earlier). */
#define BUF_SIZE 64

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
    mur_topo_nb *hard;  ///< contacts wanted (hard_radius > 0: the rows contacts_out fills), or NULL
    _Alignas(32) int64_t hkey[MUR_TOPO_CONTACTS]; ///< the contacts (any direction) closer than the
    _Alignas(16) int32_t hslot[MUR_TOPO_CONTACTS]; ///< contact radius: keys as key[], ascending, and slots
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

/* Values the gather may write past cap: 16 per column copy, then two vectors of NaN (scan_gathered
 * tests two vectors at a time). */
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

/* A contact key after every real one (a real key's d2 bits are at most those of infinity). */
#define HKEY_NONE INT64_MAX

/* The contacts' empty entries: after every real key, so that contact_add needs no count of the
 * entries kept. */
static inline void contacts_clear(search *S)
{
    S->nh = 0;
    for (int m = 0; m < MAX_CONTACTS; m++)
        S->hkey[m] = HKEY_NONE;
}

/* The contact m's squared distance and boid index. */
static inline float contact_d2(const search *S, int m)
{
    return key_d2((uint64_t)S->hkey[m]);
}
static inline int32_t contact_idx(const search *S, int m)
{
    return (int32_t)(uint32_t)S->hkey[m];
}

typedef int64_t ckey4 __attribute__((vector_size(32)));
typedef int32_t cslot4 __attribute__((vector_size(16)));

/* insert(hard, &nh, MAX_CONTACTS, ...) on the keys, in vectors and without branches (the same
 * entries in the same order): the entries before the candidate in (d2, index) order are a prefix
 * (the empty ones after it); the candidate goes to the first entry after them, the entries from there
 * move down one and the last drops out; after all four, nothing changes. (The loop of insert ran as
 * far as the candidate's place, as random as its distance: its exit mispredicted.) */
static inline void contact_add(search *S, float d2, int32_t idx, int32_t slot)
{
    _Static_assert(MAX_CONTACTS == 4, "contact_add: 4 contacts, one vector");
    uint32_t b;
    memcpy(&b, &d2, sizeof b);
    const ckey4 kv = (ckey4){0} + (int64_t)((uint64_t)b << 32 | (uint32_t)idx);
    ckey4 k;
    cslot4 sl;
    memcpy(&k, S->hkey, sizeof k);
    memcpy(&sl, S->hslot, sizeof sl);
    const ckey4 before = k <= kv;
    /* the lane after the prefix: not before, and lane 0 or the lane below before */
    const ckey4 below = __builtin_shufflevector(before, (ckey4){0} - 1, 4, 0, 1, 2);
    const ckey4 at = ~before & below, moved = ~before & ~at;
    const ckey4 nk = (before & k) | (at & kv) | (moved & __builtin_shufflevector(k, k, 0, 0, 1, 2));
    /* the same lanes for the slots (one narrowing) */
    const cslot4 b32 = __builtin_convertvector(before, cslot4);
    const cslot4 a32 = ~b32 & __builtin_shufflevector(b32, (cslot4){0} - 1, 4, 0, 1, 2), m32 = ~b32 & ~a32;
    const cslot4 ns = (b32 & sl) | (a32 & ((cslot4){0} + slot)) | (m32 & __builtin_shufflevector(sl, sl, 0, 0, 1, 2));
    memcpy(S->hkey, &nk, sizeof nk);
    memcpy(S->hslot, &ns, sizeof ns);
    S->nh += S->nh < MAX_CONTACTS;
}

/* The kept contacts into the rows of S->hard (when wanted). */
static inline void contacts_out(const search *S)
{
    if (S->hard)
        for (int m = 0; m < S->nh; m++)
            S->hard[m] = (mur_topo_nb){contact_d2(S, m), contact_idx(S, m), S->hslot[m]};
}

/* Move the buffered candidates into the list one by one. */
static inline void buffer_flush(search *S, const int32_t *order)
{
    for (int i = 0; i < S->nb; i++)
        list_add(S, S->bd2[i], order[S->bslot[i]], S->bslot[i]);
    S->nb = 0;
}

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
    return S->nh == MAX_CONTACTS ? contact_d2(S, MAX_CONTACTS - 1) : S->h2;
}

/* Candidates with d2 below this may still enter the contacts: the contact radius squared, or once
 * MAX_CONTACTS are kept the next float above the last one's d2 (as near with a lower index enters),
 * so that a crowd within the contact radius is not inserted one by one. */
static inline float contact_cut(const search *S)
{
    if (S->nh < MAX_CONTACTS)
        return S->h2;
    uint32_t b = (uint32_t)((uint64_t)S->hkey[MAX_CONTACTS - 1] >> 32);
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
           (S->nh == MAX_CONTACTS && contact_d2(S, MAX_CONTACTS - 1) <= bound * bound);
}

/* Whether the list, and the contacts, hold only boids at the boid's own point (d2 = 0): then no boid
 * with a higher index can enter either, and a cell's slots are in index order (the grid's sort is
 * stable), so the rest of the boid's own cell can be skipped. This bounds the search among many
 * coincident boids (else each would scan all of them). */
static inline bool zero_full(const search *S)
{
    return S->n == S->cap && (uint32_t)(S->key[S->cap - 1] >> 32) == 0u &&
           (S->hard == NULL || (S->nh == MAX_CONTACTS && contact_d2(S, MAX_CONTACTS - 1) == 0.0f));
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

typedef void (*grow_fn)(const mur_flock *f, search *S, const block *B, gathered *G);
typedef int (*list_scan_fn)(const mur_flock *f, const block *B, int32_t k, float px, float py, float pz, float R2,
                            float *bd, int32_t *bi, int cap);

typedef void (*serve_fn)(const mur_flock *f, search *S, const int32_t *idx, int cnt, int32_t self_idx);

/* what a pass does with the lists (bits): serve from them, build new ones (a new epoch) */
enum { TL_OFF = 0, TL_SERVE = 1, TL_BUILD = 2 };

/* 1: try the whole flock's box of displacements before the block's (measured: fewer boxes made, but
 * the flock's box is rarely tight enough: more instructions) */
#define LIST_FLOCK_BOX 0

/* The box of the displacements since t0 of the boids of a block, and the cell it is of. */
typedef struct dbox {
    int64_t cell;
    float lo[3], hi[3];
    float mag; ///< the largest magnitude of its bounds (the margin's scale)
} dbox;

/* topo_lists.c: the neighbour lists with a skin (see there). */
int mur_tl_plan(const mur_flock *f);
bool mur_tl_reserve(mur_flock *f);
void mur_tl_done(mur_flock *f, int mode, int64_t served, int64_t searched);
void mur_tl_cell_boxes(mur_flock *f, int64_t c0, int64_t c1, float *part);
void mur_tl_flock_box(const float (*part)[6], int nt, dbox *X);
bool mur_tl_serve(const mur_flock *f, serve_fn serve, search *S, const block *B, const dbox *Xg, dbox *X,
                  int32_t i);
void mur_tl_build(mur_flock *f, list_scan_fn scan, const search *S, const block *B, int32_t i, int32_t k, float r);
void mur_tl_check(mur_flock *f, const mur_step *s, const search *S, int32_t i, int32_t k);

#endif
