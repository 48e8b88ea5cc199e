/* Topological neighbours on the uniform grid (docs/murmuration-model.md). For the boid in cell c the
 * rings R = 0, 1, 2, ... (cells at Chebyshev cell distance exactly R) are visited, keeping the best
 * candidates in an insertion list ordered by (d2, boid index). After ring R every unvisited boid is at
 * least R * (smallest cell side) away, so the search stops once the list is full and its last
 * distance is within that bound, when the bound passes view_radius, or when the ring leaves the
 * grid. The result does not depend on the visiting order, so the pass is bit-identical for any grid,
 * thread count or kernel path. */
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "topo.h"

#include "kernel.h"
#include "step.h"

/* Hard-sphere contacts kept per boid (the nearest ones, ordered like the neighbours). */
#define MAX_CONTACTS 4
/* Sorted slots per work item. */
#define ITEM_SLOTS 64

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

/* The search state of one boid. */
typedef struct search {
    float px, py, pz, vx, vy, vz;
    float c;            ///< cos(view_angle / 2) * |v|
    bool cone;
    float r2, h2;       ///< view radius squared, contact radius squared (hard sphere)
    int32_t self;       ///< own sorted slot
    mur_topo_nb *list;
    int n, cap;
    mur_topo_nb *hard;  ///< contacts (any direction) closer than hard_radius, or NULL
    int nh;
    int wi;             ///< full list: the entry that is last in (d2, index) order (the list is kept
                        ///< unsorted while searching and sorted at the end)
    int64_t tested;     ///< candidates tested
} search;

static inline bool before(float d2a, int32_t ia, float d2b, int32_t ib)
{
    return d2a < d2b || (d2a == d2b && ia < ib);
}

/* The last entry of a full list. */
static inline int last_entry(const mur_topo_nb *l, int n)
{
    int w = 0;
    for (int q = 1; q < n; q++)
        if (before(l[w].d2, l[w].idx, l[q].d2, l[q].idx))
            w = q;
    return w;
}

/* One candidate j at squared distance d2 (already known to be closer than the list's last entry or
 * the contact radius). */
static inline void consider(const mur_flock *f, search *S, int32_t j, float d2, float dx, float dy, float dz,
                            float *worst)
{
    if (j == S->self || !(f->sw[j] > 0.0f) || !(d2 < S->r2))
        return;
    const int32_t idx = f->order[j];
    if (S->hard && d2 < S->h2)
        insert(S->hard, &S->nh, MAX_CONTACTS, d2, idx, j);
    if (S->cone) {
        /* dot >= c |d| without the root, as the metric kernel does */
        const float dot = dx * S->vx + dy * S->vy + dz * S->vz;
        const float dd = dot * dot, kd = d2 * (S->c * S->c);
        const bool vis = S->c >= 0.0f ? (dot >= 0.0f && dd >= kd) : (dot >= 0.0f || dd <= kd);
        if (!vis)
            return;
    }
    if (S->n < S->cap) {
        S->list[S->n++] = (mur_topo_nb){d2, idx, j};
        if (S->n < S->cap)
            return;
    } else {
        const mur_topo_nb *w = &S->list[S->wi];
        if (!before(d2, idx, w->d2, w->idx))
            return;
        S->list[S->wi] = (mur_topo_nb){d2, idx, j};
    }
    S->wi = last_entry(S->list, S->cap);
    *worst = S->list[S->wi].d2;
}

/* The candidates of sorted slots [lo, hi), in blocks of 16: the distances of a block are computed
 * together (vectorised), and only those closer than the list's last entry or the contact radius are
 * looked at one by one. */
#define BLOCK 16
static void scan(const mur_flock *f, search *S, int32_t lo, int32_t hi)
{
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz;
    const float px = S->px, py = S->py, pz = S->pz, h2 = S->hard ? S->h2 : -1.0f;
    float worst = S->n == S->cap ? S->list[S->wi].d2 : S->r2;
    S->tested += hi - lo;
    for (int32_t j0 = lo; j0 < hi; j0 += BLOCK) {
        const int32_t m = hi - j0 < BLOCK ? hi - j0 : BLOCK;
        float dx[BLOCK], dy[BLOCK], dz[BLOCK], d2[BLOCK];
        for (int32_t q = 0; q < BLOCK; q++) {
            /* the sorted arrays have MUR_PAD floats of slack: reading past hi is safe, unused */
            dx[q] = X[j0 + q] - px;
            dy[q] = Y[j0 + q] - py;
            dz[q] = Z[j0 + q] - pz;
            d2[q] = dx[q] * dx[q] + dy[q] * dy[q] + dz[q] * dz[q];
        }
        for (int32_t q = 0; q < m; q++)
            if (d2[q] <= worst || d2[q] < h2)
                consider(f, S, j0 + q, d2[q], dx[q], dy[q], dz[q], &worst);
    }
}

/* Ring R around cell (cx, cy, cz), clipped to the grid. False when the ring is wholly outside. */
static bool ring(const mur_flock *f, search *S, const int32_t c[3], int32_t R)
{
    const mur_grid *g = &f->grid;
    const int32_t *D = g->dims;
    if (c[0] - R < 0 && c[0] + R >= D[0] && c[1] - R < 0 && c[1] + R >= D[1] && c[2] - R < 0 && c[2] + R >= D[2])
        return false;
    const int32_t z0 = c[2] - R < 0 ? 0 : c[2] - R, z1 = c[2] + R >= D[2] ? D[2] - 1 : c[2] + R;
    const int32_t x0 = c[0] - R < 0 ? 0 : c[0] - R, x1 = c[0] + R >= D[0] ? D[0] - 1 : c[0] + R;
    const int32_t y0 = c[1] - R < 0 ? 0 : c[1] - R, y1 = c[1] + R >= D[1] ? D[1] - 1 : c[1] + R;
    for (int32_t z = z0; z <= z1; z++) {
        const bool zface = z == c[2] - R || z == c[2] + R;
        for (int32_t x = x0; x <= x1; x++) {
            if (zface || x == c[0] - R || x == c[0] + R) {
                /* the whole column is on the ring: one slice of the sorted arrays */
                scan(f, S, g->start[mur_cell_id(g, x, y0, z)], g->start[mur_cell_id(g, x, y1, z) + 1]);
            } else {
                if (c[1] - R >= 0) {
                    const int64_t id = mur_cell_id(g, x, c[1] - R, z);
                    scan(f, S, g->start[id], g->start[id + 1]);
                }
                if (c[1] + R < D[1]) {
                    const int64_t id = mur_cell_id(g, x, c[1] + R, z);
                    scan(f, S, g->start[id], g->start[id + 1]);
                }
            }
        }
    }
    return true;
}

static inline int32_t axis_cell(float p, float origin, float inv, int32_t dim)
{
    float t = (p - origin) * inv;
    int32_t c = t > 0.0f ? (int32_t)t : 0;
    return c < dim ? c : dim - 1;
}

/* Grow rings until the list is certain (see the top of the file). */
static void grow(const mur_flock *f, search *S)
{
    const mur_grid *g = &f->grid;
    int32_t c[3];
    const float p[3] = {S->px, S->py, S->pz};
    float hmin = INFINITY;
    for (int a = 0; a < 3; a++) {
        c[a] = axis_cell(p[a], g->origin[a], g->inv_cell[a], g->dims[a]);
        hmin = g->cell[a] < hmin ? g->cell[a] : hmin;
    }
    const float vr = sqrtf(S->r2), hr = sqrtf(S->h2);
    for (int32_t R = 0;; R++) {
        if (!ring(f, S, c, R))
            break;
        /* every unvisited boid is at least as far as the nearest face of the visited block that has
         * cells beyond it (less a margin for the cell mapping's rounding); never less than R cells */
        float bound = INFINITY;
        for (int a = 0; a < 3; a++) {
            const float m = 0.05f * g->cell[a];
            if (c[a] - R > 0) {
                const float lo = g->origin[a] + (float)(c[a] - R) * g->cell[a];
                bound = fminf(bound, p[a] - lo - m);
            }
            if (c[a] + R + 1 < g->dims[a]) {
                const float hi = g->origin[a] + (float)(c[a] + R + 1) * g->cell[a];
                bound = fminf(bound, hi - p[a] - m);
            }
        }
        bound = fmaxf(bound, ((float)R - 0.05f) * hmin);
        if (!(bound > 0.0f))
            continue;
        if (bound >= vr)
            break;
        if (S->n == S->cap && S->list[S->wi].d2 <= bound * bound && bound >= hr)
            break;
    }
    /* sort the list by (d2, index) */
    for (int q = 1; q < S->n; q++) {
        const mur_topo_nb e = S->list[q];
        int m = q;
        while (m > 0 && before(e.d2, e.idx, S->list[m - 1].d2, S->list[m - 1].idx)) {
            S->list[m] = S->list[m - 1];
            m--;
        }
        S->list[m] = e;
    }
}

static void search_init(search *S, const mur_flock *f, const mur_step *s, int32_t k, mur_topo_nb *list,
                        mur_topo_nb *hard)
{
    const mur_flock_def *d = s->def;
    S->px = f->sx[k];
    S->py = f->sy[k];
    S->pz = f->sz[k];
    S->vx = f->svx[k];
    S->vy = f->svy[k];
    S->vz = f->svz[k];
    S->cone = s->rule.cone;
    S->c = s->rule.cos_half * sqrtf(S->vx * S->vx + S->vy * S->vy + S->vz * S->vz);
    S->r2 = s->rule.r2;
    /* contacts: boids that could reach hard_radius within this tick */
    float hc = d->hard_radius + 2.0f * d->max_speed * d->dt;
    hc = hc < d->view_radius ? hc : d->view_radius;
    S->h2 = hc * hc;
    S->self = k;
    S->list = list;
    S->n = 0;
    S->cap = mur_topo_list_size(d);
    S->hard = d->hard_radius > 0.0f ? hard : NULL;
    S->nh = 0;
    S->wi = 0;
    S->tested = 0;
}

int mur_topo_find(const mur_flock *f, const mur_step *s, int32_t k, mur_topo_nb *out)
{
    search S;
    mur_topo_nb hard[MAX_CONTACTS];
    search_init(&S, f, s, k, out, hard);
    grow(f, &S);
    return S.n;
}

/* The sums the rules read (kernel.h's acc), over the list in its order: weights 1, the last one
 * frac(topo_k) when the list holds floor(topo_k) + 1. Separation (docs/rules.md): the mean over the
 * neighbours closer than separation_radius of -unit(d) (1 - |d| / separation_radius). */
static void sums(const mur_flock *f, const mur_step *s, const search *S, acc *a)
{
    const mur_flock_def *d = s->def;
    const int kk = (int)floorf(d->topo_k);
    const float frac = d->topo_k - (float)kk;
    memset(a, 0, sizeof *a);
    const float sr = d->separation_radius;
    float sw = 0.0f;
    for (int q = 0; q < S->n; q++) {
        const int32_t j = S->list[q].slot;
        const float w = q < kk ? 1.0f : frac;
        const float dx = f->sx[j] - S->px, dy = f->sy[j] - S->py, dz = f->sz[j] - S->pz;
        a->cnt += w;
        a->cx += w * dx;
        a->cy += w * dy;
        a->cz += w * dz;
        a->ax += w * f->svx[j];
        a->ay += w * f->svy[j];
        a->az += w * f->svz[j];
        const float dist = sqrtf(S->list[q].d2);
        if (dist > 0.0f) {
            const float u = w / dist;
            a->ux += u * dx;
            a->uy += u * dy;
            a->uz += u * dz;
        }
        if (dist < sr && dist > 0.0f) {
            const float m = w * (1.0f - dist / sr) / dist;
            a->sx -= m * dx;
            a->sy -= m * dy;
            a->sz -= m * dz;
        }
        sw += w;
    }
    if (sw > 0.0f) {
        a->sx /= sw;
        a->sy /= sw;
        a->sz /= sw;
    }
    a->nn = S->n > 0 ? S->list[0].d2 : INFINITY;
}

/* Hard sphere: a contact that would come closer than hard_radius within this tick (at the closing
 * speed of the start of the tick) loses half the closing speed, and one already closer moves half the
 * overlap away; the other boid does the mirror image (an inelastic contact), so a follower cannot
 * overrun a boid in front that does not see it. */
static void contacts(const mur_flock *f, const mur_step *s, const search *S, int32_t i, mur_contact *c)
{
    const float hr = s->def->hard_radius;
    memset(c, 0, sizeof *c);
    for (int q = 0; q < S->nh; q++) {
        const int32_t j = S->hard[q].slot;
        float ux = f->sx[j] - S->px, uy = f->sy[j] - S->py, uz = f->sz[j] - S->pz;
        const float dist = sqrtf(S->hard[q].d2);
        if (dist > 0.0f) {
            ux /= dist;
            uy /= dist;
            uz /= dist;
        } else {
            ux = S->hard[q].idx > i ? 1.0f : -1.0f; /* coincident: split along x by index */
            uy = uz = 0.0f;
        }
        if (dist < hr) {
            const float push = 0.5f * (hr - dist);
            c->dp[0] -= push * ux;
            c->dp[1] -= push * uy;
            c->dp[2] -= push * uz;
        }
        const float close = (S->vx - f->svx[j]) * ux + (S->vy - f->svy[j]) * uy + (S->vz - f->svz[j]) * uz;
        if (close > 0.0f && dist - close * s->def->dt < hr) {
            c->dv[0] -= 0.5f * close * ux;
            c->dv[1] -= 0.5f * close * uy;
            c->dv[2] -= 0.5f * close * uz;
        }
    }
}

typedef struct item_sums {
    int64_t cnt, with, cand;
    double nn;
} item_sums;

static void run_item(mur_flock *f, const mur_step *s, int32_t k0, int32_t k1, item_sums *T)
{
    mur_topo_nb list[MUR_TOPO_MAX], hard[MAX_CONTACTS];
    for (int32_t k = k0; k < k1; k++) {
        const int32_t i = f->order[k];
        if (!(f->sw[k] > MUR_W_PERCHED)) {
            if (s->move)
                f->perch[i]--;
            continue;
        }
        search S;
        search_init(&S, f, s, k, list, hard);
        grow(f, &S);
        acc a;
        sums(f, s, &S, &a);
        T->cand += S.tested;
        if (s->metrics) {
            T->cnt += S.n;
            if (S.n > 0) {
                T->nn += sqrt((double)a.nn);
                T->with++;
            }
        }
        if (s->move) {
            mur_contact c;
            contacts(f, s, &S, i, &c);
            const boid_in b = {S.px, S.py, S.pz, S.vx, S.vy, S.vz, 0.0f};
            mur_rules_update(f, s, i, &b, &a, S.nh > 0 ? &c : NULL);
        }
    }
}

void mur_topo_pass(mur_flock *f, const mur_step *s, mur_pass_sums *out)
{
    const int64_t count = ((int64_t)f->n + ITEM_SLOTS - 1) / ITEM_SLOTS;
    const int nt = mur_step_threads(s, f->n, MUR_PAR_MIN_RULES);
    int64_t cand_total = 0;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 4) reduction(+ : cand_total)
#endif
    for (int64_t it = 0; it < count; it++) {
        item_sums T = {0, 0, 0, 0.0};
        const int32_t k0 = (int32_t)(it * ITEM_SLOTS);
        const int32_t k1 = k0 + ITEM_SLOTS < f->n ? k0 + ITEM_SLOTS : f->n;
        run_item(f, s, k0, k1, &T);
        cand_total += T.cand;
        if (s->metrics) {
            f->item_cnt[2 * it] = T.cnt;
            f->item_cnt[2 * it + 1] = T.with;
            f->item_nn[it] = T.nn;
        }
    }
    memset(out, 0, sizeof *out);
    out->candidates = cand_total;
    if (s->metrics) {
        for (int64_t it = 0; it < count; it++) {
            out->neighbours += f->item_cnt[2 * it];
            out->with_nn += f->item_cnt[2 * it + 1];
            out->nn_sum += f->item_nn[it];
        }
    }
}
