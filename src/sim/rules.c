/* The rules of one tick (docs/rules.md): neighbour scan, steering, speed limits, bounds, perching,
 * the driver of the predators. Every boid's result is computed by one thread in a fixed order, so the state is
 * bit-identical for any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernel.h"

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
                             int32_t, int32_t *, bool, int32_t);

/* Everything one tick needs that is the same for every boid. */
typedef struct tick_cfg {
    scan_cfg scan;
    bool cone, pairwise, move, metrics;
    float dt, mc, coh, ali, sep, goal_w, flee, pr2, turn, margin;
    float goal[3], wind[3];
    bool goal_on, wind_on, soft, steer_unit, perch_on;
    int32_t np;
    const float *ppos;
    scan_fn kernel;
    scan2_fn kernel2;   ///< two boids per pass, or NULL
    gather_fn gather;
} tick_cfg;

static void update_boid(mur_flock *f, const tick_cfg *t, int32_t i, const boid_in *b, const acc *s)
{
    const mur_flock_def *d = &f->def;
    float axx = 0, ayy = 0, azz = 0;
    if (s->cnt > 0.0f) {
        float inv = 1.0f / s->cnt;
        float cx = s->cx * inv, cy = s->cy * inv, cz = s->cz * inv;
        float ax = s->ax * inv - b->vx, ay = s->ay * inv - b->vy, az = s->az * inv - b->vz;
        if (t->steer_unit) {
            float kc = unit_scale(cx, cy, cz), ka = unit_scale(ax, ay, az);
            cx *= kc; cy *= kc; cz *= kc;
            ax *= ka; ay *= ka; az *= ka;
        }
        axx = t->mc * t->coh * cx + t->ali * ax;
        ayy = t->mc * t->coh * cy + t->ali * ay;
        azz = t->mc * t->coh * cz + t->ali * az;
    }
    axx += t->sep * s->sx;
    ayy += t->sep * s->sy;
    azz += t->sep * s->sz;
    if (t->goal_on) {
        axx += t->goal_w * (t->goal[0] - b->px);
        ayy += t->goal_w * (t->goal[1] - b->py);
        azz += t->goal_w * (t->goal[2] - b->pz);
    }
    if (t->wind_on) {
        axx += t->wind[0];
        ayy += t->wind[1];
        azz += t->wind[2];
    }
    for (int32_t k = 0; k < t->np; k++) {
        const float *q = t->ppos + 3 * k;
        bool w = t->scan.L[0] > 0.0f;
        float dx = image(b->px, q[0], t->scan.L[0], t->scan.hL[0], w);
        float dy = image(b->py, q[1], t->scan.L[1], t->scan.hL[1], w);
        float dz = image(b->pz, q[2], t->scan.L[2], t->scan.hL[2], w);
        if (dx * dx + dy * dy + dz * dz < t->pr2) {
            axx += t->flee * dx;
            ayy += t->flee * dy;
            azz += t->flee * dz;
        }
    }
    if (t->soft) {
        float pp[3] = {b->px, b->py, b->pz};
        float *aa[3] = {&axx, &ayy, &azz};
        for (int a = 0; a < 3; a++) {
            if (pp[a] < d->world_min[a] + t->margin)
                *aa[a] += t->turn;
            else if (pp[a] > d->world_max[a] - t->margin)
                *aa[a] -= t->turn;
        }
    }
    float v[3] = {b->vx + t->dt * axx, b->vy + t->dt * ayy, b->vz + t->dt * azz};
    clamp_speed(&v[0], &v[1], &v[2], d->min_speed, d->max_speed);
    float p[3] = {b->px + t->dt * v[0], b->py + t->dt * v[1], b->pz + t->dt * v[2]};
    if (t->perch_on && p[1] <= d->ground) {
        p[1] = d->ground;
        v[0] = v[1] = v[2] = 0.0f;
        int32_t span = d->perch_max - d->perch_min + 1;
        int32_t r = (int32_t)(mur_hash_unit(d->seed, f->tick, (uint64_t)i) * (float)span);
        f->perch[i] = d->perch_min + (r < span ? r : span - 1);
    }
    apply_walls(d, p, v);
    memcpy(f->pos + 3 * (size_t)i, p, sizeof p);
    memcpy(f->vel + 3 * (size_t)i, v, sizeof v);
}

/* Per-work-item sums. */
typedef struct sums {
    int64_t cnt, with, cand;
    double nn;
} sums;

/* Boids scanned before their updates run: the update of one boid is a chain of dependent scalar
 * operations (divisions, square roots) that overlaps with the next boids' updates when batched,
 * instead of stalling between two kernel calls. */
#define UPDATE_BATCH 32

/* The kernel's per-boid parameters. */
static inline void set_params(kparams *p, const tick_cfg *t, const boid_in *b)
{
    p->px = b->px; p->py = b->py; p->pz = b->pz;
    p->bvx = b->vx; p->bvy = b->vy; p->bvz = b->vz;
    if (t->cone) {
        float kc = t->scan.cos_half * b->vlen;
        p->k2 = kc * kc;
        p->kpos = kc >= 0.0f;
    }
}

/* Scan and update the boids [klo, khi) (sorted slots) of one cell against the candidates of J; boid k
 * is candidate self_off + k of J's arrays. */
static void scan_boids(mur_flock *f, const tick_cfg *t, scan_job *J, int32_t klo, int32_t khi, int32_t self_off,
                       int32_t ncand, sums *S)
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
            if (t->kernel2 && q + 1 < nb) {
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
        if (t->move)
            for (int q = 0; q < nb; q++)
                update_boid(f, t, ii[q], &bb[q], &ss[q]);
    }
}

static void job_init(scan_job *J, const tick_cfg *t)
{
    memset(J, 0, sizeof *J);
    J->cone = t->cone;
    J->pairwise = t->pairwise;
    J->nn = t->metrics;
    J->p.r2 = t->scan.r2;
    J->p.sr2 = t->scan.sr2;
    memcpy(J->p.L, t->scan.L, sizeof J->p.L);
    memcpy(J->p.hL, t->scan.hL, sizeof J->p.hL);
}

/* Boids [klo, khi) of cell (cx,cy,cz), one cell at a time: gather the cell's neighbourhood into the
 * buffer (or scan it in place, run by run, when it is too large), then scan and update every flying
 * boid. Used for the pairwise minimum image, brute force and windows too large for the row gather. */
static void do_cell(mur_flock *f, const tick_cfg *t, int32_t cx, int32_t cy, int32_t cz, int32_t klo, int32_t khi,
                    mur_gather *gb, sums *S)
{
    const mur_grid *g = &f->grid;
    if (klo >= khi)
        return;
    const int64_t c = mur_cell_id(g, cx, cy, cz);
    const int32_t lo = g->start[c], hi = g->start[c + 1];
    run runs[MAX_RUNS];
    int nr = neighbourhood(g, t->scan.L, cx, cy, cz, runs);
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
    scan_boids(f, t, &J, klo, khi, self_base, total, S);
}

/* GATHER(name, W, attr): gather_column_<name>, the column copy with W-float vectors. Appends column
 * xoff (shifted by shx) of the row's pieces to the buffer at o and returns the new end. Copies go W
 * floats at a time and may write up to W - 1 floats past the end (the buffer is padded; the next
 * piece overwrites them); the values are the same for every W. *center gets the buffer position of
 * the first boid of cell (x, cy). */
#define GATHER(NAME, W, ATTR)                                                                                  \
    typedef float vg_##NAME __attribute__((vector_size(4 * (W))));                                          \
    static ATTR int32_t gather_column_##NAME(const mur_flock *f, mur_gather *gb, const piece *pc, int np, int cp, \
                                             int32_t cy, int64_t xoff, float shx, int32_t o, int32_t *center, \
                                             bool prefetch, int32_t dy)                                     \
    {                                                                                                        \
        typedef vg_##NAME vg;                                                                                \
        const int32_t *restrict start = f->grid.start;                                                       \
        /* local copies of the pointers: stores through float * could otherwise alias them */               \
        const float *restrict ax = f->sx, *restrict ay = f->sy, *restrict az = f->sz;                        \
        const float *restrict avx = f->svx, *restrict avy = f->svy, *restrict avz = f->svz;                  \
        const float *restrict aw = f->sw;                                                                    \
        float *restrict gx = gb->x, *restrict gy = gb->y, *restrict gz = gb->z;                              \
        float *restrict gvx = gb->vx, *restrict gvy = gb->vy, *restrict gvz = gb->vz, *restrict gw = gb->w; \
        const vg zero = {0};                                                                                 \
        const vg sx = zero + shx;                                                                            \
        for (int p = 0; p < np; p++) {                                                                       \
            const int32_t lo = start[pc[p].zoff + xoff + pc[p].y0];                                          \
            const int32_t hi = start[pc[p].zoff + xoff + pc[p].y1 + 1];                                      \
            if (p == cp)                                                                                     \
                *center = o + (start[pc[p].zoff + xoff + cy] - lo);                                          \
            const vg sy = zero + pc[p].sy, sz = zero + pc[p].sz;                                             \
            if (prefetch) {                                                                                  \
                /* the same piece of the next column, needed after this cell's boids are scanned: too   \
                 * many streams (7 arrays x 3 z levels) for the hardware prefetchers */                     \
                const int32_t nlo = start[pc[p].zoff + xoff + dy + pc[p].y0];                                \
                const int32_t nhi = start[pc[p].zoff + xoff + dy + pc[p].y1 + 1];                            \
                for (int32_t q = nlo; q < nhi + 15; q += 16) {                                               \
                    __builtin_prefetch(ax + q);                                                              \
                    __builtin_prefetch(ay + q);                                                              \
                    __builtin_prefetch(az + q);                                                              \
                    __builtin_prefetch(avx + q);                                                             \
                    __builtin_prefetch(avy + q);                                                             \
                    __builtin_prefetch(avz + q);                                                             \
                    __builtin_prefetch(aw + q);                                                              \
                }                                                                                            \
            }                                                                                                \
            int32_t q = o;                                                                                   \
            for (int32_t j = lo; j < hi; j += (W), q += (W)) {                                               \
                vg a;                                                                                        \
                memcpy(&a, ax + j, sizeof a); a += sx; memcpy(gx + q, &a, sizeof a);                         \
                memcpy(&a, ay + j, sizeof a); a += sy; memcpy(gy + q, &a, sizeof a);                         \
                memcpy(&a, az + j, sizeof a); a += sz; memcpy(gz + q, &a, sizeof a);                         \
                memcpy(gvx + q, avx + j, sizeof a);                                                          \
                memcpy(gvy + q, avy + j, sizeof a);                                                          \
                memcpy(gvz + q, avz + j, sizeof a);                                                          \
                memcpy(gw + q, aw + j, sizeof a);                                                            \
            }                                                                                                \
            o += hi - lo;                                                                                    \
        }                                                                                                    \
        return o;                                                                                            \
    }

GATHER(base, 4, )
#ifdef MUR_X86_PATHS
GATHER(avx2, 8, __attribute__((target("avx2"))))
GATHER(avx512, 16, __attribute__((target("avx512f"))))
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
static void do_row(mur_flock *f, const tick_cfg *t, int32_t cy, int32_t cz, mur_gather *gb, sums *S)
{
    const mur_grid *g = &f->grid;
    const int H = g->reach;
    const int32_t dx = g->dims[0], dy = g->dims[1], dz = g->dims[2];
    const bool wrap = g->wrap;
    const float *L = t->scan.L;
    piece pc[10];
    int np = 0, cp = -1;
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
                cp = np;
            pc[np++] = (piece){zoff, ya, dy - 1, 0.0f, sz};
            pc[np++] = (piece){zoff, 0, yb - dy, L[1], sz};
            continue;
        }
        if (oz == 0)
            cp = np;
        pc[np++] = (piece){zoff, ya, yb, 0.0f, sz};
    }
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
                o = t->gather(f, gb, pc, np, cp, cy, xoff, shx, o, &gb->self[c - cs], xk + 1 < dx, dy);
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
            scan_boids(f, t, &J, klo, khi, gb->self[x - cs] - klo, one.hi - one.lo, S);
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

static void tick_config(const mur_flock *f, tick_cfg *t, bool move, bool metrics)
{
    const mur_flock_def *d = &f->def;
    memset(t, 0, sizeof *t);
    t->scan.r2 = d->view_radius * d->view_radius;
    t->scan.sr2 = d->separation_radius * d->separation_radius;
    t->cone = d->view_angle < 360.0f;
    t->scan.cos_half = (float)cos((double)d->view_angle * 0.5 * 3.14159265358979323846 / 180.0);
    if (d->bounds == MUR_BOUNDS_WRAP) {
        for (int a = 0; a < 3; a++) {
            t->scan.L[a] = d->world_max[a] - d->world_min[a];
            t->scan.hL[a] = 0.5f * t->scan.L[a];
        }
    }
    t->pairwise = f->grid.pairwise_wrap;
    t->move = move;
    t->metrics = metrics;
    t->dt = d->dt;
    t->mc = d->scatter ? -1.0f : 1.0f;
    t->coh = d->cohesion;
    t->ali = d->alignment;
    t->sep = d->separation;
    t->goal_on = d->goal;
    t->goal_w = d->goal_weight;
    memcpy(t->goal, d->goal_pos, sizeof t->goal);
    t->wind_on = d->wind;
    memcpy(t->wind, d->wind_vel, sizeof t->wind);
    t->flee = d->flee;
    t->pr2 = d->predator_radius * d->predator_radius;
    t->soft = d->bounds == MUR_BOUNDS_SOFT;
    t->turn = d->bounds_turn;
    t->margin = d->bounds_margin;
    t->steer_unit = d->steer_unit;
    t->perch_on = d->perch;
    t->np = f->pred_on ? f->np : 0;
    t->ppos = f->ppos;
    t->kernel = mur_scan_boid_base;
    t->kernel2 = NULL; /* two boids need 22 sum vectors: only the 32 AVX-512 registers hold them */
    t->gather = gather_column_base;
#ifdef MUR_X86_PATHS
    if (f->simd == 1) {
        t->kernel = mur_scan_boid_avx2;
        t->kernel2 = NULL;
        t->gather = gather_column_avx2;
    } else if (f->simd == 2) {
        t->kernel = mur_scan_boid_avx512;
        t->kernel2 = mur_scan_boid2_avx512;
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

/* Work items: groups of whole rows of cells (fixed y and z), at most mur_rules_max_items() of them, in
 * row order; with brute force, chunks of BRUTE_CHUNK boids. Each item's metric sums are kept apart
 * and added in item order, so they do not depend on the thread count. */
void mur_rules_pass(mur_flock *f, bool move, bool metrics, int64_t *neigh, double *nn_sum, int64_t *with_nn,
                    int64_t *cand)
{
    tick_cfg t;
    tick_config(f, &t, move, metrics);
    const mur_grid *g = &f->grid;
    const int32_t n = f->n;
    const bool one_cell = g->ncells == 1;
    const int64_t rows = (int64_t)g->dims[1] * g->dims[2];
    const int64_t max_items = mur_rules_max_items(f->cap);
    const int64_t rows_per_item = (rows + max_items - 1) / max_items;
    const int64_t items = one_cell ? (n + BRUTE_CHUNK - 1) / BRUTE_CHUNK : (rows + rows_per_item - 1) / rows_per_item;
    const bool sliding = !g->pairwise_wrap;
    int nt = mur_effective_threads(f);
    int64_t cand_total = 0;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1 && n >= 2000)
#endif
    {
#ifdef _OPENMP
        mur_gather *gb = &f->gather[omp_get_thread_num()];
#else
        mur_gather *gb = &f->gather[0];
#endif
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1) reduction(+ : cand_total)
#endif
        for (int64_t it = 0; it < items; it++) {
            sums S = {0, 0, 0, 0.0};
            if (one_cell) {
                /* brute force: one cell holding every boid, split into chunks of boids */
                int32_t klo = (int32_t)(it * BRUTE_CHUNK), khi = klo + BRUTE_CHUNK < n ? klo + BRUTE_CHUNK : n;
                do_cell(f, &t, 0, 0, 0, klo, khi, gb, &S);
            } else {
                const int64_t r1 = (it + 1) * rows_per_item < rows ? (it + 1) * rows_per_item : rows;
                for (int64_t r = it * rows_per_item; r < r1; r++) {
                    const int32_t cy = (int32_t)(r % g->dims[1]), cz = (int32_t)(r / g->dims[1]);
                    if (sliding) {
                        do_row(f, &t, cy, cz, gb, &S);
                    } else {
                        for (int32_t x = 0; x < g->dims[0]; x++) {
                            const int64_t c = mur_cell_id(g, x, cy, cz);
                            do_cell(f, &t, x, cy, cz, g->start[c], g->start[c + 1], gb, &S);
                        }
                    }
                }
            }
            cand_total += S.cand;
            if (metrics) {
                f->item_cnt[2 * it] = S.cnt;
                f->item_cnt[2 * it + 1] = S.with;
                f->item_nn[it] = S.nn;
            }
        }
    }
    *cand = cand_total;
    if (metrics) {
        /* fixed order over items: the same sums for any thread count */
        int64_t ns = 0, nw = 0;
        double nnv = 0.0;
        for (int64_t it = 0; it < items; it++) {
            ns += f->item_cnt[2 * it];
            nw += f->item_cnt[2 * it + 1];
            nnv += f->item_nn[it];
        }
        *neigh = ns;
        *with_nn = nw;
        *nn_sum = nnv;
    }
}

