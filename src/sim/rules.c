/* The pass of one tick over every cell (docs/rules.md): it gathers each neighbourhood, runs the
 * neighbour kernel (kernel.c) and the rules of each boid (rules_boid.c mur_rules_update). Every boid's
 * result is computed by one thread in a fixed order, so the state is bit-identical for any thread
 * count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "rules.h"

#include "cores.h"
#include "falcon.h"
#include "flock_impl.h"
#include "kernel.h"
#include "space.h"
#include "step.h"

/* ---------------------------------------------------------------- the pass over the cells */

/* Neighbourhood of cell (cx,cy,cz): the cells within reach on each axis, as runs of cells adjacent in
 * y (contiguous in the sorted arrays). Returns the run count. */
static int neighbourhood(const mur_grid *g, const float L[3], int32_t cx, int32_t cy, int32_t cz, run *out)
{
    int32_t ck[3][5] = {{0}};
    float cs[3][5] = {{0}};
    int nk[3];
    const int32_t c[3] = {cx, cy, cz};
    for (int a = 0; a < 3; a++)
        nk[a] = mur_axis_cells(g, a, c[a], g->pairwise_wrap, L[a], ck[a], cs[a]);
    int nr = 0;
    for (int iz = 0; iz < nk[2]; iz++) {
        for (int ix = 0; ix < nk[0]; ix++) {
            for (int iy = 0; iy < nk[1]; iy++) {
                const int64_t cell = mur_cell_id(g, ck[0][ix], ck[1][iy], ck[2][iz]);
                const int32_t lo = g->start[cell], hi = g->start[cell + 1];
                /* merge with the previous run when the cells are adjacent with the same shift */
                if (nr > 0 && iy > 0 && out[nr - 1].hi == lo && ck[1][iy - 1] + 1 == ck[1][iy] &&
                    cs[1][iy - 1] == cs[1][iy]) {
                    out[nr - 1].hi = hi;
                    continue;
                }
                out[nr].lo = lo;
                out[nr].hi = hi;
                out[nr].sx = cs[0][ix];
                out[nr].sy = cs[1][iy];
                out[nr].sz = cs[2][iz];
                nr++;
            }
        }
    }
    return nr;
}
/* One z level of a column: the cells y0..y1 (adjacent in the sorted arrays) with a shift. */
typedef struct piece {
    int64_t zoff;   ///< cell id of (x=0, y=0, this z)
    int32_t y0, y1;
    float sy, sz;
} piece;

typedef int32_t (*gather_fn)(const mur_flock *, mur_gather *, const piece *, int, int, int32_t, int64_t, float,
                             int32_t, int32_t *, bool, int32_t, bool);

/* The pass's view of the tick: the step context and the kernel path. */
typedef struct tick_cfg {
    const mur_step *s;
    bool cone, pairwise, move, metrics;
    scan_fn kernel;
    scan2_fn kernel2;   ///< two boids per pass, or NULL
    scan_fn lean;       ///< the lean kernel for the row gather (kernel.h), or NULL (with kernel2)
    bool batch_update;  ///< the updates through mur_update_batch (rules_batch.c)
    gather_fn gather;
} tick_cfg;

/* Boids scanned before their updates run: the update of one boid is a chain of dependent scalar
 * operations (divisions, square roots) that overlaps with the next boids' updates when batched,
 * instead of stalling between two kernel calls. */
#define UPDATE_BATCH MUR_UPDATE_BATCH

/* The kernel's per-boid parameters. */
static inline void set_params(kparams *p, const tick_cfg *t, const boid_in *b)
{
    p->px = b->px; p->py = b->py; p->pz = b->pz;
    p->bvx = b->vx; p->bvy = b->vy; p->bvz = b->vz;
    if (t->cone)
        p->k2s = mur_cone_k2s(t->s->rule.cos_half, b->vlen);
}

/* Scan and update the boids [klo, khi) (sorted slots) of one cell against the candidates of J; boid k
 * is candidate self_off + k of J's arrays. */
/* With poison (the lean kernel), J's x array: the boid's own x there is MUR_FAR while it is scanned. */
static void scan_boids(mur_flock *f, const tick_cfg *t, scan_job *J, int32_t klo, int32_t khi, int32_t self_off,
                       int32_t ncand, mur_item_sums *S, float *poison)
{
    boid_in bb[UPDATE_BATCH];
    acc ss[UPDATE_BATCH];
    int32_t ii[UPDATE_BATCH], kk[UPDATE_BATCH];
    kparams p2 = J->p;
    for (int32_t k0 = klo; k0 < khi; k0 += UPDATE_BATCH) {
        const int32_t k1 = khi - k0 > UPDATE_BATCH ? k0 + UPDATE_BATCH : khi;
        int nb = 0;
        for (int32_t k = k0; k < k1; k++) {
            const int32_t i = f->order[k];
            if (!(f->sw[k] > MUR_W_PERCHED)) {
                if (t->move)
                    f->perch[i]--;
                if (t->s->escape) /* its escape does not run: its state still goes to the view (escape.c) */
                    mur_escape_publish_one(f, t->s, i);
                continue;
            }
            boid_in *b = &bb[nb];
            *b = (boid_in){f->sx[k], f->sy[k], f->sz[k], f->svx[k], f->svy[k], f->svz[k], 0.0f};
            if (t->cone)
                b->vlen = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
            if (t->move) {
                /* the update writes pos/vel in boid order (random): fetch the lines while the
                 * batch's kernels run instead of stalling on them in the update */
                __builtin_prefetch(f->pos + 3 * (size_t)i, 1);
                __builtin_prefetch(f->vel + 3 * (size_t)i, 1);
            }
            kk[nb] = k;
            ii[nb++] = i;
        }
        /* the kernel, two boids per pass over the candidates where it can (same sums per boid) */
        for (int q = 0; q < nb;) {
            set_params(&J->p, t, &bb[q]);
            J->self = self_off + kk[q];
            if (poison) {
                float *me = poison + J->self;
                const float keep = *me;
                *me = MUR_FAR;
                t->lean(J, &ss[q]);
                *me = keep;
                q++;
            } else if (t->kernel2 && q + 1 < nb) {
                set_params(&p2, t, &bb[q + 1]);
                t->kernel2(J, &p2, self_off + kk[q + 1], &ss[q]);
                q += 2;
            } else {
                t->kernel(J, &ss[q]);
                q++;
            }
        }
        S->cand += (int64_t)nb * ncand;
        if (t->metrics) {
            for (int q = 0; q < nb; q++) {
                S->cnt += (int64_t)ss[q].cnt;
                if (ss[q].cnt > 0.0f) {
                    S->nn += sqrt((double)ss[q].nn);
                    S->with++;
                }
            }
        }
#ifdef MUR_X86_PATHS
        if (t->move && t->batch_update) {
            mur_update_batch(f, t->s, nb, ii, bb, ss);
            continue;
        }
#endif
        if (t->move && t->s->escape)
            for (int q = 0; q < nb; q++)
                mur_escape_boid(f, t->s, ii[q], &bb[q], NULL, 0, 0);
        if (t->move)
            for (int q = 0; q < nb; q++)
                mur_rules_update(f, t->s, ii[q], &bb[q], &ss[q], NULL);
    }
}

static void job_init(scan_job *J, const tick_cfg *t)
{
    memset(J, 0, sizeof *J);
    J->cone = t->cone;
    J->pairwise = t->pairwise;
    J->nn = t->metrics;
    J->p.r2 = t->s->rule.r2;
    J->p.sr2 = t->s->rule.sr2;
    memcpy(J->p.L, t->s->world.L, sizeof J->p.L);
    memcpy(J->p.hL, t->s->world.hL, sizeof J->p.hL);
}

/* Boids [klo, khi) of cell (cx,cy,cz), one cell at a time: gather the cell's neighbourhood into the
 * buffer (or scan it in place, run by run, when it is too large), then scan and update every flying
 * boid. Used for the pairwise minimum image, brute force and windows too large for the row gather. */
static void do_cell(mur_flock *f, const tick_cfg *t, int32_t cx, int32_t cy, int32_t cz, int32_t klo, int32_t khi,
                    mur_gather *gb, mur_item_sums *S)
{
    const mur_grid *g = &f->grid;
    if (klo >= khi)
        return;
    const int64_t c = mur_cell_id(g, cx, cy, cz);
    const int32_t lo = g->start[c], hi = g->start[c + 1];
    run runs[MAX_RUNS];
    int nr = neighbourhood(g, t->s->world.L, cx, cy, cz, runs);
    int32_t total = 0, self_base = -1;
    for (int r = 0; r < nr; r++)
        total += runs[r].hi - runs[r].lo;
    scan_job J;
    job_init(&J, t);
    run one;
    if (total + MUR_LANES <= MUR_GATHER_CAP) {
        int32_t o = 0;
        for (int r = 0; r < nr; r++) {
            const run *R = &runs[r];
            if (R->lo <= lo && hi <= R->hi && R->sx == 0.0f && R->sy == 0.0f && R->sz == 0.0f)
                self_base = o - R->lo;
            const int32_t m = R->hi - R->lo;
            const float shx = R->sx, shy = R->sy, shz = R->sz;
            const float *restrict ax = f->sx + R->lo, *restrict ay = f->sy + R->lo, *restrict az = f->sz + R->lo;
            const float *restrict avx = f->svx + R->lo, *restrict avy = f->svy + R->lo;
            const float *restrict avz = f->svz + R->lo, *restrict aw = f->sw + R->lo;
            float *restrict gx = gb->x + o, *restrict gy = gb->y + o, *restrict gz = gb->z + o;
            float *restrict gvx = gb->vx + o, *restrict gvy = gb->vy + o, *restrict gvz = gb->vz + o;
            float *restrict gw = gb->w + o;
#pragma omp simd
            for (int32_t j = 0; j < m; j++) {
                gx[j] = ax[j] + shx;
                gy[j] = ay[j] + shy;
                gz[j] = az[j] + shz;
                gvx[j] = avx[j];
                gvy[j] = avy[j];
                gvz[j] = avz[j];
                gw[j] = aw[j];
            }
            o += m;
        }
        one.lo = 0;
        one.hi = o;
        one.sx = one.sy = one.sz = 0.0f;
        J.x = gb->x; J.y = gb->y; J.z = gb->z;
        J.vx = gb->vx; J.vy = gb->vy; J.vz = gb->vz; J.w = gb->w;
        J.runs = &one;
        J.nr = 1;
    } else {
        J.x = f->sx; J.y = f->sy; J.z = f->sz;
        J.vx = f->svx; J.vy = f->svy; J.vz = f->svz; J.w = f->sw;
        J.runs = runs;
        J.nr = nr;
        self_base = 0;
    }
    scan_boids(f, t, &J, klo, khi, self_base, total, S, NULL);
}

/* The column copy, once per vector width (gather_body.h): gather_column_base, gather_column_avx2,
 * gather_column_avx512. */
#define GATHER_COLUMN gather_column_base
#define GATHER_VG vg_base
#define GATHER_VGI vgi_base
#define GW 4
#define GATTR
#include "gather_body.h"
#ifdef MUR_X86_PATHS
#define GATHER_COLUMN gather_column_avx2
#define GATHER_VG vg_avx2
#define GATHER_VGI vgi_avx2
#define GW 8
#define GATTR __attribute__((target("avx2")))
#include "gather_body.h"
#define GATHER_COLUMN gather_column_avx512
#define GATHER_VG vg_avx512
#define GATHER_VGI vgi_avx512
#define GW 16
#define GATTR __attribute__((target("avx512f")))
#include "gather_body.h"
#endif

static inline int32_t column_size(const mur_flock *f, const piece *pc, int np, int64_t xoff)
{
    const int32_t *start = f->grid.start;
    int32_t n = 0;
    for (int p = 0; p < np; p++)
        n += start[pc[p].zoff + xoff + pc[p].y1 + 1] - start[pc[p].zoff + xoff + pc[p].y0];
    return n;
}

/* The row of cells (x = 0..D-1, cy, cz). Its neighbourhood is gathered column by column (column x =
 * the cells (x, cy +- reach, cz +- reach), z level by z level, each level one contiguous slice of the
 * sorted arrays), with the wrapped columns before x = 0 and after x = D - 1 shifted by -+L; the
 * neighbourhood of cell x is then the columns x - reach .. x + reach, one slice of the buffer. A row
 * too long for the buffer is split into segments; a cell whose window alone is too large goes to
 * do_cell. */
/* The pieces of the columns around row (cy, cz): for each z level within reach (wrapped with its
 * shift, or clipped) the y range within reach, split in two where it wraps. *cp gets the first piece
 * of the row's own z level. Returns the count (at most 2 (2 reach + 1)). */
static int row_pieces(const mur_grid *g, const float L[3], int32_t cy, int32_t cz, piece *pc, int *cp)
{
    const int H = g->reach;
    const int32_t dx = g->dims[0], dy = g->dims[1], dz = g->dims[2];
    const bool wrap = g->wrap;
    int np = 0;
    for (int oz = -H; oz <= H; oz++) {
        int32_t zk = cz + oz;
        float sz = 0.0f;
        if (!wrap) {
            if (zk < 0 || zk >= dz)
                continue;
        } else if (zk < 0) {
            zk += dz;
            sz = -L[2];
        } else if (zk >= dz) {
            zk -= dz;
            sz = L[2];
        }
        const int64_t zoff = (int64_t)dy * dx * zk;
        int32_t ya = cy - H, yb = cy + H;
        if (!wrap) {
            ya = ya < 0 ? 0 : ya;
            yb = yb >= dy ? dy - 1 : yb;
        } else if (ya < 0) {
            pc[np++] = (piece){zoff, ya + dy, dy - 1, -L[1], sz};
            ya = 0;
        } else if (yb >= dy) {
            if (oz == 0)
                *cp = np;
            pc[np++] = (piece){zoff, ya, dy - 1, 0.0f, sz};
            pc[np++] = (piece){zoff, 0, yb - dy, L[1], sz};
            continue;
        }
        if (oz == 0)
            *cp = np;
        pc[np++] = (piece){zoff, ya, yb, 0.0f, sz};
    }
    return np;
}

static void do_row(mur_flock *f, const tick_cfg *t, int32_t cy, int32_t cz, mur_gather *gb, mur_item_sums *S)
{
    const mur_grid *g = &f->grid;
    const int H = g->reach;
    const int32_t dx = g->dims[0], dy = g->dims[1];
    const bool wrap = g->wrap;
    const float *L = t->s->world.L;
    piece pc[10];
    int cp = -1;
    const int np = row_pieces(g, L, cy, cz, pc, &cp);
    const int32_t colmin = wrap ? -H : 0, colmax = wrap ? dx - 1 + H : dx - 1;
    scan_job J;
    job_init(&J, t);
    J.x = gb->x; J.y = gb->y; J.z = gb->z;
    J.vx = gb->vx; J.vy = gb->vy; J.vz = gb->vz; J.w = gb->w;
    run one = {0, 0, 0.0f, 0.0f, 0.0f};
    J.runs = &one;
    J.nr = 1;
    int32_t xs = 0;
    while (xs < dx) {
        /* a segment: columns from cs, cells from xs */
        const int32_t cs = xs - H > colmin ? xs - H : colmin;
        int32_t c = cs, x = xs, o = 0;
        gb->col[0] = 0;
        bool full = false;
        for (; x < dx; x++) {
            const int32_t wend = x + H < colmax ? x + H : colmax;
            for (; c <= wend; c++) {
                const int32_t xk = c < 0 ? c + dx : (c >= dx ? c - dx : c);
                const float shx = c < 0 ? -L[0] : (c >= dx ? L[0] : 0.0f);
                const int64_t xoff = (int64_t)dy * xk;
                if (c - cs >= MUR_GATHER_COLS || o + column_size(f, pc, np, xoff) + MUR_LANES > MUR_GATHER_CAP) {
                    full = true;
                    break;
                }
                o = t->gather(f, gb, pc, np, cp, cy, xoff, shx, o, &gb->self[c - cs], xk + 1 < dx, dy,
                              t->lean != NULL);
                gb->col[c - cs + 1] = o;
            }
            if (full)
                break;
            const int64_t cell = mur_cell_id(g, x, cy, cz);
            const int32_t klo = g->start[cell], khi = g->start[cell + 1];
            if (klo == khi)
                continue;
            const int32_t wlo = x - H > colmin ? x - H : colmin;
            one.lo = gb->col[wlo - cs];
            one.hi = gb->col[wend - cs + 1];
            if (t->lean) /* the lean kernel's last chunk reads past the window (kernel.h): the slots
                          * from o on are not gathered yet (o + MUR_LANES <= the buffer's end) */
                for (int k = 0; k < MUR_LANES; k++)
                    gb->x[one.hi + k] = MUR_FAR;
            scan_boids(f, t, &J, klo, khi, gb->self[x - cs] - klo, one.hi - one.lo, S, t->lean ? gb->x : NULL);
        }
        if (full && x == xs) {
            /* this cell's window alone does not fit */
            const int64_t cell = mur_cell_id(g, x, cy, cz);
            do_cell(f, t, x, cy, cz, g->start[cell], g->start[cell + 1], gb, S);
            x++;
        }
        xs = x;
    }
}

static void tick_config(const mur_flock *f, const mur_step *s, tick_cfg *t)
{
    memset(t, 0, sizeof *t);
    t->s = s;
    t->cone = s->rule.cone;
    t->pairwise = f->grid.pairwise_wrap;
    t->move = s->move;
    t->metrics = s->metrics;
#ifdef MUR_X86_PATHS
    t->batch_update = mur_batch_update_ok(s);
#endif
    t->kernel = mur_scan_boid_base;
    t->kernel2 = NULL; /* two boids need 22 sum vectors: only the 32 AVX-512 registers hold them */
    t->lean = mur_scan_boid_lean_base;
    t->gather = gather_column_base;
#ifdef MUR_X86_PATHS
    if (s->simd == MUR_SIMD_AVX2) {
        t->kernel = mur_scan_boid_avx2;
        t->lean = mur_scan_boid_lean_avx2;
        t->gather = gather_column_avx2;
    } else if (s->simd == MUR_SIMD_AVX512) {
        t->kernel = mur_scan_boid_avx512;
        t->kernel2 = mur_scan_boid2_avx512;
        t->lean = NULL; /* the two-boid kernel needs each boid visible to the other */
        t->gather = gather_column_avx512;
    }
#endif
}

/* Boids per work item when every boid is in one cell (brute force). */
#define BRUTE_CHUNK 64

int64_t mur_rules_max_items(int32_t cap)
{
    return (int64_t)cap / 32 + 64;
}

/* The work items of a pass: groups of whole rows of cells (fixed y and z), at most
 * mur_rules_max_items() of them, in row order; with brute force, chunks of BRUTE_CHUNK boids. */
typedef struct items {
    bool one_cell, sliding;
    int64_t rows, rows_per_item, count;
} items;

static items plan_items(const mur_flock *f)
{
    const mur_grid *g = &f->grid;
    items I;
    I.one_cell = g->ncells == 1;
    I.sliding = !g->pairwise_wrap;
    I.rows = (int64_t)g->dims[1] * g->dims[2];
    const int64_t max_items = mur_rules_max_items(f->cap);
    I.rows_per_item = (I.rows + max_items - 1) / max_items;
    I.count = I.one_cell ? (f->n + BRUTE_CHUNK - 1) / BRUTE_CHUNK : (I.rows + I.rows_per_item - 1) / I.rows_per_item;
    return I;
}

/* Work item it: its boids scanned and (with move) updated, its sums into S. */
static void run_item(mur_flock *f, const tick_cfg *t, const items *I, int64_t it, mur_gather *gb,
                     mur_item_sums *S)
{
    const mur_grid *g = &f->grid;
    if (I->one_cell) {
        /* brute force: one cell holding every boid, split into chunks of boids */
        const int32_t n = f->n;
        int32_t klo = (int32_t)(it * BRUTE_CHUNK), khi = klo + BRUTE_CHUNK < n ? klo + BRUTE_CHUNK : n;
        do_cell(f, t, 0, 0, 0, klo, khi, gb, S);
        return;
    }
    const int64_t r1 = (it + 1) * I->rows_per_item < I->rows ? (it + 1) * I->rows_per_item : I->rows;
    for (int64_t r = it * I->rows_per_item; r < r1; r++) {
        const int32_t cy = (int32_t)(r % g->dims[1]), cz = (int32_t)(r / g->dims[1]);
        if (I->sliding) {
            do_row(f, t, cy, cz, gb, S);
        } else {
            for (int32_t x = 0; x < g->dims[0]; x++) {
                const int64_t c = mur_cell_id(g, x, cy, cz);
                do_cell(f, t, x, cy, cz, g->start[c], g->start[c + 1], gb, S);
            }
        }
    }
}

/* Each item's metric sums are kept apart and added in item order, so they do not depend on the
 * thread count. */
void mur_rules_pass(mur_flock *f, const mur_step *s, mur_pass_sums *out)
{
    tick_cfg t;
    tick_config(f, s, &t);
    if (f->gather_dirty) {
        /* after a topological tick (a live switch to metric neighbours): the kernels read up to 15
         * lanes past a run's end, weighted by 0, and the lean kernel's 0 * NaN would be NaN */
        for (int k = 0; k < MUR_MAX_THREADS; k++)
            if (f->gather[k].x)
                memset(f->gather[k].x, 0, sizeof(float) * MUR_GATHER_FLOATS);
        f->gather_dirty = false;
    }
    const items I = plan_items(f);
    const bool metrics = s->metrics;
    const int nt = mur_step_threads(s, f->n, MUR_PAR_MIN_RULES);
    int64_t cand_total = 0;
    /* each thread's CPU time against the pass's wall time: did every thread have its core? */
    double own[MUR_MAX_THREADS];
    const double t0 = mur_own_start(own, nt);
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        const int tid = mur_thread_id();
        mur_gather *gb = &f->gather[tid];
        const double c0 = nt > 1 ? mur_thread_cpu_ms() : 0.0;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1) reduction(+ : cand_total) nowait
#endif
        for (int64_t it = 0; it < I.count; it++) {
            mur_item_sums S = {0, 0, 0, 0.0};
            run_item(f, &t, &I, it, gb, &S);
            cand_total += S.cand;
            if (metrics)
                mur_item_keep(f, it, &S);
        }
        if (nt > 1)
            own[tid] = mur_own_share(t0, c0);
    }
    mur_pass_finish(f, I.count, metrics, cand_total, own, nt, out);
}

void mur_pass_finish(const mur_flock *f, int64_t items, bool metrics, int64_t candidates, const double *own,
                     int nt, mur_pass_sums *out)
{
    memset(out, 0, sizeof *out);
    out->candidates = candidates;
    out->own_core = 1.0;
    for (int k = 0; k < nt && nt > 1; k++)
        out->own_core = own[k] < out->own_core ? own[k] : out->own_core;
    if (metrics) {
        /* fixed order over items: the same sums for any thread count */
        for (int64_t it = 0; it < items; it++) {
            out->neighbours += f->item_cnt[2 * it];
            out->with_nn += f->item_cnt[2 * it + 1];
            out->nn_sum += f->item_nn[it];
        }
    }
}
