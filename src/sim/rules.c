/* The rules of one tick (docs/rules.md): neighbour scan, steering, speed limits, bounds, perching,
 * predators. Every boid's result is computed by one thread in a fixed order, so the state is
 * bit-identical for any thread count. */
#include <math.h>
#include <stdlib.h>
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

/* The neighbour kernel sums MUR_LANES (16) lanes: candidate j of a run always goes to lane
 * j mod 16 of each sum, and the lanes are added in one fixed tree at the end. It is compiled three
 * times with GCC vector types of the CPU's native width W (16 for AVX-512, 8 for AVX2, 4 for the
 * SSE2 baseline), lane l living in sub-vector l / W. Every lane does the same IEEE operations in the
 * same order on every path, so every CPU gives bit-identical sums. No FMA anywhere (-ffp-contract=off). */
typedef struct kparams {
    float px, py, pz, bvx, bvy, bvz;
    float k2;   ///< (cos_half * |v|)^2
    bool kpos;  ///< cos_half * |v| >= 0
    float r2, sr2, L[3], hL[3];
} kparams;

/* A slice [lo, hi) of the source arrays with the image shift to add to its positions. */
typedef struct scan_job {
    const float *x, *y, *z, *vx, *vy, *vz, *w;
    const run *runs;
    int nr;
    int32_t self;   ///< index of the boid itself in the source arrays (excluded in unshifted runs)
    bool cone, pairwise;
    kparams p;
} scan_job;

#define VAND(T, a, m) ((T)((m) & (__typeof__(m))(a)))
#define VSEL(T, m, a, b) ((T)(((m) & (__typeof__(m))(a)) | (~(m) & (__typeof__(m))(b))))

/* KERNEL(name, W, attr): scan_boid_<name>, one boid against its candidates with W-wide vectors. Lanes
 * [s W, (s + 1) W) of the 16 are one pass over the candidates with the sums in registers. */
#define KERNEL(NAME, W, ATTR)                                                                                 \
    typedef float vf_##NAME __attribute__((vector_size(4 * (W))));                                          \
    typedef int32_t vi_##NAME __attribute__((vector_size(4 * (W))));                                        \
    typedef struct lanes_##NAME {                                                                            \
        vf_##NAME cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, nn;                                               \
    } lanes_##NAME;                                                                                          \
    static inline __attribute__((always_inline)) ATTR void chunk_##NAME(lanes_##NAME *a, const float *const *src, \
        int32_t o, int32_t idx0, float shx, float shy, float shz, int32_t self, const kparams *p,          \
        const bool cone, const bool pairwise)                                                               \
    {                                                                                                        \
        typedef vf_##NAME vf;                                                                                \
        typedef vi_##NAME vi;                                                                                \
        const vf zero = {0};                                                                                 \
        vi iota;                                                                                             \
        for (int l = 0; l < (W); l++)                                                                        \
            iota[l] = l;                                                                                     \
        vf x, y, z, w, vx, vy, vz;                                                                           \
        memcpy(&x, src[0] + o, sizeof x);                                                                    \
        memcpy(&y, src[1] + o, sizeof y);                                                                    \
        memcpy(&z, src[2] + o, sizeof z);                                                                    \
        memcpy(&w, src[6] + o, sizeof w);                                                                    \
        vf dx, dy, dz;                                                                                       \
        if (pairwise) {                                                                                      \
            const vf tx = x - p->px, ty = y - p->py, tz = z - p->pz;                                         \
            const vf hx = zero + p->hL[0], hy = zero + p->hL[1], hz = zero + p->hL[2];                      \
            dx = VSEL(vf, tx > hx, (x - p->L[0]) - p->px, VSEL(vf, tx < -hx, (x + p->L[0]) - p->px, tx));   \
            dy = VSEL(vf, ty > hy, (y - p->L[1]) - p->py, VSEL(vf, ty < -hy, (y + p->L[1]) - p->py, ty));   \
            dz = VSEL(vf, tz > hz, (z - p->L[2]) - p->pz, VSEL(vf, tz < -hz, (z + p->L[2]) - p->pz, tz));   \
        } else {                                                                                             \
            dx = (x + shx) - p->px;                                                                          \
            dy = (y + shy) - p->py;                                                                          \
            dz = (z + shz) - p->pz;                                                                          \
        }                                                                                                    \
        const vf d2 = dx * dx + dy * dy + dz * dz;                                                           \
        const vi idx = iota + idx0;                                                                          \
        vi m = (d2 < zero + p->r2) & (idx != self) & (w > zero);                                             \
        if (cone) {                                                                                          \
            /* dot >= c|v| sqrt(d2) without the root: squares compared, by the sign of c|v| */              \
            const vf dot = dx * p->bvx + dy * p->bvy + dz * p->bvz;                                          \
            const vf dd = dot * dot, kd = d2 * p->k2;                                                        \
            const vi ahead = dot >= zero;                                                                    \
            const vi kp = (vi){0} - (int32_t)p->kpos;                                                        \
            m &= (kp & ahead & (dd >= kd)) | (~kp & (ahead | (dd <= kd)));                                   \
        }                                                                                                    \
        memcpy(&vx, src[3] + o, sizeof vx);                                                                  \
        memcpy(&vy, src[4] + o, sizeof vy);                                                                  \
        memcpy(&vz, src[5] + o, sizeof vz);                                                                  \
        a->cnt += VAND(vf, zero + 1.0f, m);                                                                  \
        a->cx += VAND(vf, dx, m);                                                                            \
        a->cy += VAND(vf, dy, m);                                                                            \
        a->cz += VAND(vf, dz, m);                                                                            \
        a->ax += VAND(vf, vx, m);                                                                            \
        a->ay += VAND(vf, vy, m);                                                                            \
        a->az += VAND(vf, vz, m);                                                                            \
        const vi ms = m & (d2 < zero + p->sr2);                                                              \
        a->sx -= VAND(vf, dx, ms);                                                                           \
        a->sy -= VAND(vf, dy, ms);                                                                           \
        a->sz -= VAND(vf, dz, ms);                                                                           \
        const vf dn = VSEL(vf, m, d2, zero + INFINITY);                                                      \
        a->nn = VSEL(vf, dn < a->nn, dn, a->nn);                                                             \
    }                                                                                                        \
    static inline __attribute__((always_inline)) ATTR void runs_##NAME(const scan_job *J,                    \
        lanes_##NAME *all, const bool cone, const bool pairwise)                                            \
    {                                                                                                        \
        const float *src[7] = {J->x, J->y, J->z, J->vx, J->vy, J->vz, J->w};                                 \
        for (int s = 0; s < MUR_LANES / (W); s++) {                                                          \
            const int32_t so = s * (W);                                                                      \
            lanes_##NAME a;                                                                                  \
            const vf_##NAME zero = {0};                                                                      \
            a.cnt = a.cx = a.cy = a.cz = a.ax = a.ay = a.az = a.sx = a.sy = a.sz = zero;                     \
            a.nn = zero + INFINITY;                                                                          \
            for (int r = 0; r < J->nr; r++) {                                                                \
                const run *R = &J->runs[r];                                                                  \
                const bool shifted = R->sx != 0.0f || R->sy != 0.0f || R->sz != 0.0f;                       \
                const int32_t self = shifted ? -1 : J->self;                                                 \
                int32_t j = R->lo;                                                                           \
                for (; j + MUR_LANES <= R->hi; j += MUR_LANES)                                               \
                    chunk_##NAME(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, &J->p, cone, pairwise); \
                if (j < R->hi) {                                                                             \
                    /* the tail, padded with candidates of weight 0 */                                       \
                    float t[7][MUR_LANES];                                                                   \
                    memset(t, 0, sizeof t);                                                                  \
                    for (int k = 0; k < 7; k++)                                                              \
                        memcpy(t[k], src[k] + j, sizeof(float) * (size_t)(R->hi - j));                      \
                    const float *ts[7] = {t[0], t[1], t[2], t[3], t[4], t[5], t[6]};                         \
                    chunk_##NAME(&a, ts, so, j + so, R->sx, R->sy, R->sz, self, &J->p, cone, pairwise);     \
                }                                                                                            \
            }                                                                                                \
            all[s] = a;                                                                                      \
        }                                                                                                    \
    }                                                                                                        \
    static ATTR void scan_boid_##NAME(const scan_job *J, acc *out)                                           \
    {                                                                                                        \
        lanes_##NAME all[MUR_LANES / (W)];                                                                   \
        if (J->cone) {                                                                                       \
            if (J->pairwise)                                                                                 \
                runs_##NAME(J, all, true, true);                                                             \
            else                                                                                             \
                runs_##NAME(J, all, true, false);                                                            \
        } else {                                                                                             \
            if (J->pairwise)                                                                                 \
                runs_##NAME(J, all, false, true);                                                            \
            else                                                                                             \
                runs_##NAME(J, all, false, false);                                                           \
        }                                                                                                    \
        /* the fixed tree: lane l += lane l + w for w = 8, 4, 2, 1 (across sub-vectors, then inside one) */ \
        for (int w = MUR_LANES / 2; w >= 1; w /= 2) {                                                        \
            if (w >= (W)) {                                                                                  \
                for (int s = 0; s < w / (W); s++)                                                            \
                    LANES_ADD(all[s], all[s + w / (W)]);                                                     \
            } else {                                                                                         \
                vi_##NAME mask;                                                                              \
                for (int l = 0; l < (W); l++)                                                                \
                    mask[l] = (l + w) % (W);                                                                 \
                lanes_##NAME sh;                                                                             \
                LANES_SHUF(sh, all[0], mask);                                                                \
                LANES_ADD(all[0], sh);                                                                       \
            }                                                                                                \
        }                                                                                                    \
        out->cnt = all[0].cnt[0];                                                                            \
        out->cx = all[0].cx[0];                                                                              \
        out->cy = all[0].cy[0];                                                                              \
        out->cz = all[0].cz[0];                                                                              \
        out->ax = all[0].ax[0];                                                                              \
        out->ay = all[0].ay[0];                                                                              \
        out->az = all[0].az[0];                                                                              \
        out->sx = all[0].sx[0];                                                                              \
        out->sy = all[0].sy[0];                                                                              \
        out->sz = all[0].sz[0];                                                                              \
        out->nn = all[0].nn[0];                                                                              \
    }

#define LANES_ADD(A, B)                                                                                       \
    do {                                                                                                     \
        (A).cnt += (B).cnt;                                                                                  \
        (A).cx += (B).cx;                                                                                    \
        (A).cy += (B).cy;                                                                                    \
        (A).cz += (B).cz;                                                                                    \
        (A).ax += (B).ax;                                                                                    \
        (A).ay += (B).ay;                                                                                    \
        (A).az += (B).az;                                                                                    \
        (A).sx += (B).sx;                                                                                    \
        (A).sy += (B).sy;                                                                                    \
        (A).sz += (B).sz;                                                                                    \
        (A).nn = VSEL(__typeof__((A).nn), (B).nn < (A).nn, (B).nn, (A).nn);                                 \
    } while (0)
#define LANES_SHUF(D, A, M)                                                                                   \
    do {                                                                                                     \
        (D).cnt = __builtin_shuffle((A).cnt, M);                                                             \
        (D).cx = __builtin_shuffle((A).cx, M);                                                               \
        (D).cy = __builtin_shuffle((A).cy, M);                                                               \
        (D).cz = __builtin_shuffle((A).cz, M);                                                               \
        (D).ax = __builtin_shuffle((A).ax, M);                                                               \
        (D).ay = __builtin_shuffle((A).ay, M);                                                               \
        (D).az = __builtin_shuffle((A).az, M);                                                               \
        (D).sx = __builtin_shuffle((A).sx, M);                                                               \
        (D).sy = __builtin_shuffle((A).sy, M);                                                               \
        (D).sz = __builtin_shuffle((A).sz, M);                                                               \
        (D).nn = __builtin_shuffle((A).nn, M);                                                               \
    } while (0)

KERNEL(base, 4, )
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MUR_X86_PATHS 1
KERNEL(avx2, 8, __attribute__((target("avx2"))))
KERNEL(avx512, 16, __attribute__((target("avx512f"))))
#endif

typedef void (*scan_fn)(const scan_job *, acc *);

/* The widest path this CPU runs (MURMUR_SIMD=base|avx2|avx512 forces one, for tests and the bench). */
static scan_fn pick_scan(void)
{
#ifdef MUR_X86_PATHS
    const char *e = getenv("MURMUR_SIMD");
    __builtin_cpu_init();
    bool a512 = __builtin_cpu_supports("avx512f"), a2 = __builtin_cpu_supports("avx2");
    if (e && !strcmp(e, "base"))
        return scan_boid_base;
    if (e && !strcmp(e, "avx2") && a2)
        return scan_boid_avx2;
    if (a512)
        return scan_boid_avx512;
    if (a2)
        return scan_boid_avx2;
#endif
    return scan_boid_base;
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
    scan_fn kernel;
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

/* Boids [klo, khi) of cell c: gather the cell's neighbourhood into one padded buffer (or scan it in
 * place, run by run, when it is too large), then scan and update every flying boid. */
static void do_cell(mur_flock *f, const tick_cfg *t, int64_t c, int32_t klo, int32_t khi, mur_gather *gb,
                    int64_t *cnt_out, int64_t *with_out, double *nn_out, int64_t *cand_out)
{
    const mur_grid *g = &f->grid;
    const int32_t lo = g->start[c], hi = g->start[c + 1];
    *cnt_out = *with_out = *cand_out = 0;
    *nn_out = 0.0;
    if (klo >= khi)
        return;
    const int32_t cx = (int32_t)(c % g->dims[0]);
    const int32_t cy = (int32_t)((c / g->dims[0]) % g->dims[1]);
    const int32_t cz = (int32_t)(c / ((int64_t)g->dims[0] * g->dims[1]));
    run runs[27];
    int nr = neighbourhood(g, t->scan.L, cx, cy, cz, runs);
    int32_t total = 0, self_base = -1;
    for (int r = 0; r < nr; r++)
        total += runs[r].hi - runs[r].lo;
    const bool gathered = total + MUR_LANES - 1 <= MUR_GATHER_CAP;
    scan_job J;
    run one;
    if (gathered) {
        int32_t o = 0;
        for (int r = 0; r < nr; r++) {
            const run *R = &runs[r];
            if (R->lo <= lo && hi <= R->hi && R->sx == 0.0f && R->sy == 0.0f && R->sz == 0.0f)
                self_base = o - R->lo;
            const int32_t m = R->hi - R->lo;
            /* plain loops, not memcpy: the runs are short (a few cells) and a libc call costs more */
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
        /* pad to whole chunks with weight-0 candidates */
        for (; o % MUR_LANES; o++) {
            gb->x[o] = gb->y[o] = gb->z[o] = 0.0f;
            gb->vx[o] = gb->vy[o] = gb->vz[o] = gb->w[o] = 0.0f;
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
    }
    J.cone = t->cone;
    J.pairwise = t->pairwise;
    J.p.r2 = t->scan.r2;
    J.p.sr2 = t->scan.sr2;
    memcpy(J.p.L, t->scan.L, sizeof J.p.L);
    memcpy(J.p.hL, t->scan.hL, sizeof J.p.hL);
    int64_t cnt_sum = 0, cand = 0, with = 0;
    double nn_sum = 0.0;
    for (int32_t k = klo; k < khi; k++) {
        const int32_t i = f->order[k];
        if (!(f->sw[k] > MUR_W_PERCHED)) {
            if (t->move)
                f->perch[i]--;
            continue;
        }
        boid_in b = {f->sx[k], f->sy[k], f->sz[k], f->svx[k], f->svy[k], f->svz[k], 0.0f};
        J.p.px = b.px; J.p.py = b.py; J.p.pz = b.pz;
        J.p.bvx = b.vx; J.p.bvy = b.vy; J.p.bvz = b.vz;
        if (t->cone) {
            b.vlen = sqrtf(b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
            float kc = t->scan.cos_half * b.vlen;
            J.p.k2 = kc * kc;
            J.p.kpos = kc >= 0.0f;
        }
        J.self = gathered ? self_base + k : k;
        acc s;
        t->kernel(&J, &s);
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
    t->kernel = pick_scan();
}

/* Boids per work item when every boid is in one cell (brute force); items <= cap_cells always. */
#define BRUTE_CHUNK 64

void mur_rules_pass(mur_flock *f, bool move, bool metrics, int64_t *neigh, double *nn_sum, int64_t *with_nn,
                    int64_t *cand)
{
    tick_cfg t;
    tick_config(f, &t, move, metrics);
    const int32_t n = f->n;
    const bool one_cell = f->grid.ncells == 1;
    const int64_t items = one_cell ? (n + BRUTE_CHUNK - 1) / BRUTE_CHUNK : f->grid.ncells;
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
        for (int64_t c = 0; c < items; c++) {
            int64_t cnt = 0, with = 0, cd = 0;
            double nn = 0.0;
            if (one_cell) {
                /* brute force: one cell holding every boid, split into chunks of boids */
                int32_t klo = (int32_t)(c * BRUTE_CHUNK), khi = klo + BRUTE_CHUNK < n ? klo + BRUTE_CHUNK : n;
                do_cell(f, &t, 0, klo, khi, gb, &cnt, &with, &nn, &cd);
            } else {
                do_cell(f, &t, c, f->grid.start[c], f->grid.start[c + 1], gb, &cnt, &with, &nn, &cd);
            }
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
        for (int64_t c = 0; c < items; c++) {
            ns += f->cell_cnt[2 * c];
            nw += f->cell_cnt[2 * c + 1];
            nnv += f->cell_nn[c];
        }
        *neigh = ns;
        *with_nn = nw;
        *nn_sum = nnv;
    }
}

/* Nearest flying boid to q (minimum image when wrap): the smallest squared distance, ties to the
 * smallest boid index, exactly as a scan in index order would pick. The cell-sorted copies are scanned
 * in blocks by all threads with a vectorised minimum; a (distance, index) minimum does not depend on
 * the order it is taken in, so the answer is the same for any thread count. -1 when none flies. */
#define NEAR_BLOCK 2048
static int32_t nearest_flying(const mur_flock *f, const float *q, bool wrap, const float L[3], const float hL[3],
                              float *best_out)
{
    const int32_t n = f->n;
    const int64_t nblocks = (n + NEAR_BLOCK - 1) / NEAR_BLOCK;
    const float qx = q[0], qy = q[1], qz = q[2];
    const float Lx = L[0], Ly = L[1], Lz = L[2], hx = hL[0], hy = hL[1], hz = hL[2];
    float best = INFINITY;
    int32_t bi = -1;
    int nt = mur_effective_threads(f);
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (n > 50000)
#endif
    {
        float tb = INFINITY;
        int32_t ti = -1;
        float d2[NEAR_BLOCK];
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (int64_t blk = 0; blk < nblocks; blk++) {
            const int32_t lo = (int32_t)(blk * NEAR_BLOCK);
            const int32_t m = n - lo < NEAR_BLOCK ? n - lo : NEAR_BLOCK;
            const float *restrict X = f->sx + lo, *restrict Y = f->sy + lo, *restrict Z = f->sz + lo;
            const float *restrict W = f->sw + lo;
            float bm = INFINITY;
            for (int32_t j = 0; j < m; j++) {
                float x = X[j], y = Y[j], z = Z[j];
                float dx = x - qx, dy = y - qy, dz = z - qz;
                if (wrap) {
                    /* every candidate value computed, then selected: lets the loop vectorise */
                    float ax = (x - Lx) - qx, ay = (y - Ly) - qy, az = (z - Lz) - qz;
                    float bx = (x + Lx) - qx, by = (y + Ly) - qy, bz = (z + Lz) - qz;
                    float ex = dx > hx ? ax : dx, ey = dy > hy ? ay : dy, ez = dz > hz ? az : dz;
                    dx = dx < -hx ? bx : ex;
                    dy = dy < -hy ? by : ey;
                    dz = dz < -hz ? bz : ez;
                }
                float dd = dx * dx + dy * dy + dz * dz;
                dd = W[j] > MUR_W_PERCHED ? dd : INFINITY;
                d2[j] = dd;
                bm = dd < bm ? dd : bm;
            }
            if (bm < INFINITY && bm <= tb) {
                for (int32_t j = 0; j < m; j++) {
                    if (d2[j] == bm) {
                        int32_t i = f->order[lo + j];
                        if (bm < tb || i < ti) {
                            tb = bm;
                            ti = i;
                        }
                    }
                }
            }
        }
#ifdef _OPENMP
#pragma omp critical(mur_nearest)
#endif
        {
            if (ti >= 0 && (tb < best || (tb == best && ti < bi))) {
                best = tb;
                bi = ti;
            }
        }
    }
    *best_out = best;
    return bi;
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
        int32_t bi = nearest_flying(f, q, wrap, L, hL, &best);
        if (bi >= 0) {
            tx = image(f->pos[3 * bi], q[0], L[0], hL[0], wrap);
            ty = image(f->pos[3 * bi + 1], q[1], L[1], hL[1], wrap);
            tz = image(f->pos[3 * bi + 2], q[2], L[2], hL[2], wrap);
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
