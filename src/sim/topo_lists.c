/* The neighbour lists with a skin (topo.h mur_topo_lists_set; off by default): the lists' build, the
 * bound that serves a boid from its list, and the plan of which passes build or serve. The search
 * they replace is topo.c's; their vector kernels (list_scan, serve) are topo_body_grow.h's. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef MUR_TOPO_LISTS_TRACE
#include <stdio.h>
#endif

#include "topo.h"
#include "topo_search.h"

#include "core.h"
#include "step.h"

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
 * MUR_TOPO_LISTS=1 at build time): measured slower than the search it replaces (docs/performance/rounds.md,
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
#define LIST_ABS 0x1p-18f

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
void mur_tl_cell_boxes(mur_flock *f, int64_t c0, int64_t c1, float *part)
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
void mur_tl_flock_box(const float (*part)[6], int nt, dbox *X)
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

/* The bound of mur_tl_serve with the displacements' box X: every boid outside boid i's list (its
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
    return list_ok && (S->hard == NULL || (S->nh == MAX_CONTACTS && contact_d2(S, MAX_CONTACTS - 1) < bnd2) ||
                       bnd > S->hr * (1.0f + LIST_REL));
}

/* The search of boid i from its list: true when the list and the contacts it gives are the search's
 * (S holds them), false when they cannot be shown to be (S's list is then to be redone). The bound
 * from the whole flock's displacements (Xg) first; where it is too loose, the block's (X, made here). */
bool mur_tl_serve(const mur_flock *f, serve_fn serve, search *S, const block *B, const dbox *Xg, dbox *X,
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
void mur_tl_build(mur_flock *f, list_scan_fn scan, const search *S, const block *B, int32_t i, int32_t k,
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
void mur_tl_check(mur_flock *f, const mur_step *s, const search *S, int32_t i, int32_t k)
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
        same = contact_d2(S, q) == h[q].d2 && contact_idx(S, q) == h[q].idx && S->hslot[q] == h[q].slot;
    (void)i;
    if (!same) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        f->tl_mismatch++;
    }
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
bool mur_tl_reserve(mur_flock *f)
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

int mur_tl_plan(const mur_flock *f)
{
    if (!lists_on(f) || f->grid.wrap || f->def.neighbour_search == MUR_SEARCH_BRUTE || f->tl_rest > 0)
        return TL_OFF;
    if (!f->tl_valid || f->n > f->tl_n)
        return TL_BUILD;
    const bool poor = (double)(f->tl_searched - f->tl_served) > LIST_FALLBACK * (double)f->tl_searched;
    return TL_SERVE | (f->tl_age >= LIST_MAX_AGE || poor ? TL_BUILD : 0);
}

void mur_tl_done(mur_flock *f, int mode, int64_t served, int64_t searched)
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
    f->tl_slots = (mur_tl_plan(f) & TL_SERVE) != 0;
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
