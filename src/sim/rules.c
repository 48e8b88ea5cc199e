/* The rules of one tick (docs/rules.md): neighbour scan, steering, speed limits, bounds, perching,
 * predators. Every boid's result is computed by one thread in a fixed order, so the state is
 * bit-identical for any thread count. */
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "internal.h"

/* A contiguous slice of the cell-sorted arrays and the image shift to add to its positions. */
typedef struct run {
    int32_t lo, hi;
    float sx, sy, sz;
} run;

/* Neighbourhood of cell (cx,cy,cz): at most 27 cells as at most 18 runs. Returns the run count. */
static int neighbourhood(const mur_grid *g, const float L[3], int32_t cx, int32_t cy, int32_t cz, run *out)
{
    int32_t ck[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    float cs[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    int nk[3];
    const int32_t c[3] = {cx, cy, cz};
    for (int a = 0; a < 3; a++) {
        const int32_t D = g->dims[a];
        nk[a] = 0;
        for (int o = -1; o <= 1; o++) {
            int32_t k = c[a] + o;
            float s = 0.0f;
            if (!g->wrap) {
                if (k < 0 || k >= D)
                    continue;
            } else if (g->pairwise_wrap) {
                k = ((k % D) + D) % D;
                bool dup = false;
                for (int m = 0; m < nk[a]; m++)
                    dup |= ck[a][m] == k;
                if (dup)
                    continue;
            } else if (k < 0) {
                k += D;
                s = -L[a];
            } else if (k >= D) {
                k -= D;
                s = L[a];
            }
            ck[a][nk[a]] = k;
            cs[a][nk[a]] = s;
            nk[a]++;
        }
    }
    int nr = 0;
    const int32_t dx = g->dims[0], dy = g->dims[1];
    for (int iz = 0; iz < nk[2]; iz++) {
        for (int iy = 0; iy < nk[1]; iy++) {
            const int32_t row = dx * (ck[1][iy] + dy * ck[2][iz]);
            for (int ix = 0; ix < nk[0]; ix++) {
                const int32_t k = ck[0][ix];
                const int32_t lo = g->start[row + k], hi = g->start[row + k + 1];
                /* merge with the previous run when the cells are adjacent with the same shift */
                if (nr > 0 && ix > 0 && out[nr - 1].hi == lo && ck[0][ix - 1] + 1 == k && cs[0][ix - 1] == cs[0][ix]) {
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

/* Sums over one boid's neighbours. */
typedef struct acc {
    float cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, nn;
} acc;

typedef struct boid_in {
    float px, py, pz, vx, vy, vz;
    float vlen;     ///< |v|, for the view cone
} boid_in;

typedef struct scan_cfg {
    float r2, sr2;  ///< view and separation radius squared
    float cos_half; ///< cos(view_angle / 2)
    float L[3], hL[3];
} scan_cfg;

/* The inner loop: candidates [0, m) of the arrays, positions shifted by (sx,sy,sz), slot `self`
 * excluded. Branch-free so it vectorises; cone and pairwise minimum image are compile-time cases. */
static inline __attribute__((always_inline)) void scan(const float *restrict X, const float *restrict Y,
    const float *restrict Z, const float *restrict VX, const float *restrict VY, const float *restrict VZ,
    const float *restrict W, int32_t m, float sx, float sy, float sz, int32_t self, const boid_in *b,
    const scan_cfg *cfg, acc *out, const bool cone, const bool pairwise)
{
    float cnt = 0, cx = 0, cy = 0, cz = 0, ax = 0, ay = 0, az = 0, sepx = 0, sepy = 0, sepz = 0;
    float nn = out->nn;
    const float px = b->px, py = b->py, pz = b->pz;
    const float r2 = cfg->r2, sr2 = cfg->sr2;
    const float bvx = b->vx, bvy = b->vy, bvz = b->vz, cvl = cfg->cos_half * b->vlen;
    const float Lx = cfg->L[0], Ly = cfg->L[1], Lz = cfg->L[2];
    const float hx = cfg->hL[0], hy = cfg->hL[1], hz = cfg->hL[2];
#pragma omp simd reduction(+ : cnt, cx, cy, cz, ax, ay, az, sepx, sepy, sepz) reduction(min : nn)
    for (int32_t j = 0; j < m; j++) {
        float dx, dy, dz;
        if (pairwise) {
            /* minimum image: subtract the image offset from p_j first, so nothing rounds at the scale of L */
            float tx = X[j] - px, ty = Y[j] - py, tz = Z[j] - pz;
            dx = tx > hx ? (X[j] - Lx) - px : (tx < -hx ? (X[j] + Lx) - px : tx);
            dy = ty > hy ? (Y[j] - Ly) - py : (ty < -hy ? (Y[j] + Ly) - py : ty);
            dz = tz > hz ? (Z[j] - Lz) - pz : (tz < -hz ? (Z[j] + Lz) - pz : tz);
        } else {
            dx = (X[j] + sx) - px;
            dy = (Y[j] + sy) - py;
            dz = (Z[j] + sz) - pz;
        }
        float d2 = dx * dx + dy * dy + dz * dz;
        bool in = d2 < r2 && j != self;
        if (cone)
            in = in && (dx * bvx + dy * bvy + dz * bvz >= cvl * sqrtf(d2));
        float w = in ? W[j] : 0.0f;
        cnt += w;
        cx += w * dx;
        cy += w * dy;
        cz += w * dz;
        ax += w * VX[j];
        ay += w * VY[j];
        az += w * VZ[j];
        float ws = d2 < sr2 ? w : 0.0f;
        sepx -= ws * dx;
        sepy -= ws * dy;
        sepz -= ws * dz;
        float dn = w > 0.0f ? d2 : INFINITY;
        nn = dn < nn ? dn : nn;
    }
    out->cnt += cnt;
    out->cx += cx; out->cy += cy; out->cz += cz;
    out->ax += ax; out->ay += ay; out->az += az;
    out->sx += sepx; out->sy += sepy; out->sz += sepz;
    out->nn = nn;
}

static inline void scan_any(const float *X, const float *Y, const float *Z, const float *VX, const float *VY,
    const float *VZ, const float *W, int32_t m, float sx, float sy, float sz, int32_t self, const boid_in *b,
    const scan_cfg *cfg, acc *out, bool cone, bool pairwise)
{
    if (cone) {
        if (pairwise)
            scan(X, Y, Z, VX, VY, VZ, W, m, sx, sy, sz, self, b, cfg, out, true, true);
        else
            scan(X, Y, Z, VX, VY, VZ, W, m, sx, sy, sz, self, b, cfg, out, true, false);
    } else {
        if (pairwise)
            scan(X, Y, Z, VX, VY, VZ, W, m, sx, sy, sz, self, b, cfg, out, false, true);
        else
            scan(X, Y, Z, VX, VY, VZ, W, m, sx, sy, sz, self, b, cfg, out, false, false);
    }
}

/* Offset from a to b with the minimum image in a wrapped world. */
static inline float image(float b, float a, float L, float hL, bool wrap)
{
    float t = b - a;
    if (!wrap)
        return t;
    return t > hL ? (b - L) - a : (t < -hL ? (b + L) - a : t);
}

static inline float unit_scale(float x, float y, float z)
{
    float l = sqrtf(x * x + y * y + z * z);
    return l > 0.0f ? 1.0f / l : 0.0f;
}

/* Speed limits, keeping direction. A zero velocity stays zero. */
static inline void clamp_speed(float *vx, float *vy, float *vz, float lo, float hi)
{
    float s2 = *vx * *vx + *vy * *vy + *vz * *vz;
    if (s2 > hi * hi) {
        float k = hi / sqrtf(s2);
        *vx *= k; *vy *= k; *vz *= k;
    } else if (s2 < lo * lo && s2 > 0.0f) {
        float k = lo / sqrtf(s2);
        *vx *= k; *vy *= k; *vz *= k;
    }
}

/* Bounds after the move: wrap into [min, max), or bounce off the walls. */
static inline void apply_walls(const mur_flock_def *d, float *p, float *v)
{
    if (d->bounds == MUR_BOUNDS_WRAP) {
        for (int a = 0; a < 3; a++) {
            float lo = d->world_min[a], hi = d->world_max[a], L = hi - lo;
            if (p[a] < lo || p[a] >= hi) {
                float q = p[a] - L * floorf((p[a] - lo) / L);
                if (!(q >= lo) || !(q < hi))
                    q = lo;
                p[a] = q;
            }
        }
    } else if (d->bounds == MUR_BOUNDS_BOUNCE) {
        for (int a = 0; a < 3; a++) {
            if (p[a] < d->world_min[a]) {
                p[a] = d->world_min[a];
                v[a] = -v[a];
            } else if (p[a] > d->world_max[a]) {
                p[a] = d->world_max[a];
                v[a] = -v[a];
            }
        }
    }
}

/* Everything one tick needs that is the same for every boid. */
typedef struct tick_cfg {
    scan_cfg scan;
    bool cone, pairwise, move, metrics;
    float dt, mc, coh, ali, sep, goal_w, flee, pr2, turn, margin;
    float goal[3], wind[3];
    bool goal_on, wind_on, soft, steer_unit, perch_on;
    int32_t np;
    const float *ppos;
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

/* One cell: gather its neighbourhood (or scan it in place when too large), then every boid in it. */
static void do_cell(mur_flock *f, const tick_cfg *t, int64_t c, mur_gather *gb, int64_t *cnt_out,
                    int64_t *with_out, double *nn_out, int64_t *cand_out)
{
    const mur_grid *g = &f->grid;
    const int32_t lo = g->start[c], hi = g->start[c + 1];
    if (lo == hi)
        return;
    const int32_t cx = (int32_t)(c % g->dims[0]);
    const int32_t cy = (int32_t)((c / g->dims[0]) % g->dims[1]);
    const int32_t cz = (int32_t)(c / ((int64_t)g->dims[0] * g->dims[1]));
    run runs[27];
    int nr = neighbourhood(g, t->scan.L, cx, cy, cz, runs);
    int32_t total = 0, self_base = -1;
    for (int r = 0; r < nr; r++)
        total += runs[r].hi - runs[r].lo;
    const bool gathered = total <= MUR_GATHER_CAP;
    if (gathered) {
        int32_t o = 0;
        for (int r = 0; r < nr; r++) {
            const run *R = &runs[r];
            if (R->lo <= lo && hi <= R->hi && R->sx == 0.0f && R->sy == 0.0f && R->sz == 0.0f)
                self_base = o - R->lo;
            for (int32_t j = R->lo; j < R->hi; j++, o++) {
                gb->x[o] = f->sx[j] + R->sx;
                gb->y[o] = f->sy[j] + R->sy;
                gb->z[o] = f->sz[j] + R->sz;
            }
            int32_t m = R->hi - R->lo, base = o - m;
            memcpy(gb->vx + base, f->svx + R->lo, sizeof(float) * (size_t)m);
            memcpy(gb->vy + base, f->svy + R->lo, sizeof(float) * (size_t)m);
            memcpy(gb->vz + base, f->svz + R->lo, sizeof(float) * (size_t)m);
            memcpy(gb->w + base, f->sw + R->lo, sizeof(float) * (size_t)m);
        }
    }
    int64_t cnt_sum = 0, cand = 0, with = 0;
    double nn_sum = 0.0;
    for (int32_t k = lo; k < hi; k++) {
        const int32_t i = f->order[k];
        if (f->perch[i] > 0) {
            if (t->move)
                f->perch[i]--;
            continue;
        }
        boid_in b = {f->sx[k], f->sy[k], f->sz[k], f->svx[k], f->svy[k], f->svz[k], 0.0f};
        if (t->cone)
            b.vlen = sqrtf(b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
        acc s = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, INFINITY};
        if (gathered) {
            scan_any(gb->x, gb->y, gb->z, gb->vx, gb->vy, gb->vz, gb->w, total, 0, 0, 0, self_base + k, &b,
                     &t->scan, &s, t->cone, t->pairwise);
        } else {
            for (int r = 0; r < nr; r++) {
                const run *R = &runs[r];
                scan_any(f->sx + R->lo, f->sy + R->lo, f->sz + R->lo, f->svx + R->lo, f->svy + R->lo,
                         f->svz + R->lo, f->sw + R->lo, R->hi - R->lo, R->sx, R->sy, R->sz,
                         (R->lo <= k && k < R->hi && R->sx == 0.0f && R->sy == 0.0f && R->sz == 0.0f) ? k - R->lo : -1,
                         &b, &t->scan, &s, t->cone, t->pairwise);
            }
        }
        cand += total;
        if (t->metrics) {
            cnt_sum += (int64_t)s.cnt;
            if (s.cnt > 0.0f) {
                nn_sum += sqrt((double)s.nn);
                with++;
            }
        }
        if (t->move)
            update_boid(f, t, i, &b, &s);
    }
    *cnt_out = cnt_sum;
    *with_out = with;
    *nn_out = nn_sum;
    *cand_out = cand;
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
}

void mur_rules_pass(mur_flock *f, bool move, bool metrics, int64_t *neigh, double *nn_sum, int64_t *with_nn,
                    int64_t *cand)
{
    tick_cfg t;
    tick_config(f, &t, move, metrics);
    const int64_t ncells = f->grid.ncells;
    int nt = mur_effective_threads(f);
    int64_t cand_total = 0;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
#ifdef _OPENMP
        mur_gather *gb = &f->gather[omp_get_thread_num()];
#else
        mur_gather *gb = &f->gather[0];
#endif
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 8) reduction(+ : cand_total)
#endif
        for (int64_t c = 0; c < ncells; c++) {
            int64_t cnt = 0, with = 0, cd = 0;
            double nn = 0.0;
            do_cell(f, &t, c, gb, &cnt, &with, &nn, &cd);
            cand_total += cd;
            if (metrics) {
                f->cell_cnt[2 * c] = cnt;
                f->cell_cnt[2 * c + 1] = with;
                f->cell_nn[c] = nn;
            }
        }
    }
    *cand = cand_total;
    if (metrics) {
        /* fixed order over cells: the same sums for any thread count */
        int64_t ns = 0, nw = 0;
        double nnv = 0.0;
        for (int64_t c = 0; c < ncells; c++) {
            ns += f->cell_cnt[2 * c];
            nw += f->cell_cnt[2 * c + 1];
            nnv += f->cell_nn[c];
        }
        *neigh = ns;
        *with_nn = nw;
        *nn_sum = nnv;
    }
}

/* Predators steer toward the nearest flying boid (minimum image in a wrapped world) at up to
 * predator_speed. Computed from the state at the start of the tick into ptmp. */
void mur_predators_plan(mur_flock *f)
{
    const mur_flock_def *d = &f->def;
    const bool wrap = d->bounds == MUR_BOUNDS_WRAP;
    float L[3], hL[3];
    for (int a = 0; a < 3; a++) {
        L[a] = d->world_max[a] - d->world_min[a];
        hL[a] = 0.5f * L[a];
    }
    for (int32_t k = 0; k < f->np; k++) {
        const float *q = f->ppos + 3 * k;
        float v[3] = {f->pvel[3 * k], f->pvel[3 * k + 1], f->pvel[3 * k + 2]};
        float best = INFINITY, tx = 0, ty = 0, tz = 0;
        const float *p = f->pos;
        for (int32_t i = 0; i < f->n; i++) {
            if (f->perch[i] > 0)
                continue;
            float dx = image(p[3 * i], q[0], L[0], hL[0], wrap);
            float dy = image(p[3 * i + 1], q[1], L[1], hL[1], wrap);
            float dz = image(p[3 * i + 2], q[2], L[2], hL[2], wrap);
            float d2 = dx * dx + dy * dy + dz * dz;
            if (d2 < best) {
                best = d2;
                tx = dx; ty = dy; tz = dz;
            }
        }
        if (best < INFINITY) {
            float k2 = unit_scale(tx, ty, tz) * d->predator_speed;
            /* turn toward the target at a rate of 3/s, never overshooting */
            float g = 3.0f * d->dt;
            g = g > 1.0f ? 1.0f : g;
            v[0] += g * (tx * k2 - v[0]);
            v[1] += g * (ty * k2 - v[1]);
            v[2] += g * (tz * k2 - v[2]);
        }
        if (d->bounds == MUR_BOUNDS_SOFT) {
            for (int a = 0; a < 3; a++) {
                if (q[a] < d->world_min[a] + d->bounds_margin)
                    v[a] += d->dt * d->bounds_turn;
                else if (q[a] > d->world_max[a] - d->bounds_margin)
                    v[a] -= d->dt * d->bounds_turn;
            }
        }
        clamp_speed(&v[0], &v[1], &v[2], 0.0f, d->predator_speed);
        float np[3] = {q[0] + d->dt * v[0], q[1] + d->dt * v[1], q[2] + d->dt * v[2]};
        if (np[1] < d->ground) {
            np[1] = d->ground;
            v[1] = v[1] < 0.0f ? -v[1] : v[1];
        }
        apply_walls(d, np, v);
        memcpy(f->ptmp + 6 * k, np, sizeof np);
        memcpy(f->ptmp + 6 * k + 3, v, sizeof v);
    }
}

void mur_predators_commit(mur_flock *f)
{
    for (int32_t k = 0; k < f->np; k++) {
        memcpy(f->ppos + 3 * k, f->ptmp + 6 * k, 3 * sizeof(float));
        memcpy(f->pvel + 3 * k, f->ptmp + 6 * k + 3, 3 * sizeof(float));
    }
}
