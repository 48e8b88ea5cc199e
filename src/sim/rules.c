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

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif

/* A contiguous slice of the cell-sorted arrays and the image shift to add to its positions. */
typedef struct run {
    int32_t lo, hi;
    float sx, sy, sz;
} run;

/* Most runs of one neighbourhood: (2 reach + 1)^2 columns of at most 2 pieces (a wrap split) each. */
#define MAX_RUNS 50

/* Neighbourhood of cell (cx,cy,cz): the cells within reach on each axis, as runs of cells adjacent in
 * y (contiguous in the sorted arrays). Returns the run count. */
static int neighbourhood(const mur_grid *g, const float L[3], int32_t cx, int32_t cy, int32_t cz, run *out)
{
    int32_t ck[3][5] = {{0}};
    float cs[3][5] = {{0}};
    int nk[3];
    const int H = g->reach;
    const int32_t c[3] = {cx, cy, cz};
    for (int a = 0; a < 3; a++) {
        const int32_t D = g->dims[a];
        nk[a] = 0;
        for (int o = -H; o <= H; o++) {
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
    bool nn;        ///< compute the nearest-neighbour distance (metrics)
    kparams p;
} scan_job;

/* Lane numbers, and the lane rotations l -> (l + w) mod W of the reduction tree (the first W entries
 * of row w are the rotation for a vector of W lanes when w < W). Constants, so no lane-by-lane
 * construction per boid. */
static const int32_t lane_iota[MUR_LANES] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
static const int32_t lane_rot_w[3][9][MUR_LANES] = {
    {{0},
     {1, 2, 3, 0},
     {2, 3, 0, 1},
     {0},
     {0},
     {0},
     {0},
     {0},
     {0}},
    {{0},
     {1, 2, 3, 4, 5, 6, 7, 0},
     {2, 3, 4, 5, 6, 7, 0, 1},
     {0},
     {4, 5, 6, 7, 0, 1, 2, 3},
     {0},
     {0},
     {0},
     {0}},
    {{0},
     {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0},
     {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1},
     {0},
     {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3},
     {0},
     {0},
     {0},
     {8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7}}
};

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
        int32_t o, int32_t idx0, float shx, float shy, float shz, int32_t self, int32_t hi, const kparams *p, \
        const bool cone, const bool pairwise, const bool tail, const bool nnd)                              \
    {                                                                                                        \
        typedef vf_##NAME vf;                                                                                \
        typedef vi_##NAME vi;                                                                                \
        const vf zero = {0};                                                                                 \
        vi iota;                                                                                             \
        memcpy(&iota, lane_iota, sizeof iota);                                                               \
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
        if (tail) /* lanes past the run's end: whatever is there, weight 0 */                               \
            m &= idx < hi;                                                                                   \
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
        const vi ms = m & (d2 < zero + p->sr2);                                                              \
        {                                                                                                    \
            KMASK_##NAME(km, m);                                                                             \
            KMASK_##NAME(kms, ms);                                                                           \
            MADD_##NAME(a->cnt, zero + 1.0f, km);                                                            \
            MADD_##NAME(a->cx, dx, km);                                                                      \
            MADD_##NAME(a->cy, dy, km);                                                                      \
            MADD_##NAME(a->cz, dz, km);                                                                      \
            MADD_##NAME(a->ax, vx, km);                                                                      \
            MADD_##NAME(a->ay, vy, km);                                                                      \
            MADD_##NAME(a->az, vz, km);                                                                      \
            MSUB_##NAME(a->sx, dx, kms);                                                                     \
            MSUB_##NAME(a->sy, dy, kms);                                                                     \
            MSUB_##NAME(a->sz, dz, kms);                                                                     \
        }                                                                                                    \
        if (nnd) {                                                                                           \
            const vf dn = VSEL(vf, m, d2, zero + INFINITY);                                                  \
            a->nn = VSEL(vf, dn < a->nn, dn, a->nn);                                                         \
        }                                                                                                    \
    }                                                                                                        \
    static inline __attribute__((always_inline)) ATTR void runs_##NAME(const scan_job *J,                    \
        lanes_##NAME *all, const bool cone, const bool pairwise, const bool nnd)                            \
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
                    chunk_##NAME(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise, \
                                 false, nnd);                                                                \
                if (j < R->hi)                                                                               \
                    chunk_##NAME(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise, \
                                 true, nnd);                                                                 \
            }                                                                                                \
            all[s] = a;                                                                                      \
        }                                                                                                    \
    }                                                                                                        \
    /* two boids of one cell against the same candidates: each boid's lanes get exactly the operations  \
     * of runs_, the candidate loads are shared */                                                       \
    static inline __attribute__((always_inline)) ATTR void runs2_##NAME(const scan_job *J, const kparams *p2, \
        int32_t self2, lanes_##NAME *all, lanes_##NAME *all2, const bool cone, const bool pairwise, const bool nnd) \
    {                                                                                                        \
        const float *src[7] = {J->x, J->y, J->z, J->vx, J->vy, J->vz, J->w};                                 \
        for (int s = 0; s < MUR_LANES / (W); s++) {                                                          \
            const int32_t so = s * (W);                                                                      \
            lanes_##NAME a, b;                                                                               \
            const vf_##NAME zero = {0};                                                                      \
            a.cnt = a.cx = a.cy = a.cz = a.ax = a.ay = a.az = a.sx = a.sy = a.sz = zero;                     \
            a.nn = zero + INFINITY;                                                                          \
            b = a;                                                                                           \
            for (int r = 0; r < J->nr; r++) {                                                                \
                const run *R = &J->runs[r];                                                                  \
                const bool shifted = R->sx != 0.0f || R->sy != 0.0f || R->sz != 0.0f;                       \
                const int32_t self = shifted ? -1 : J->self, sb = shifted ? -1 : self2;                      \
                int32_t j = R->lo;                                                                           \
                for (; j + MUR_LANES <= R->hi; j += MUR_LANES) {                                             \
                    chunk_##NAME(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise, \
                                 false, nnd);                                                                \
                    chunk_##NAME(&b, src, j + so, j + so, R->sx, R->sy, R->sz, sb, R->hi, p2, cone, pairwise, \
                                 false, nnd);                                                                \
                }                                                                                            \
                if (j < R->hi) {                                                                             \
                    chunk_##NAME(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise, \
                                 true, nnd);                                                                 \
                    chunk_##NAME(&b, src, j + so, j + so, R->sx, R->sy, R->sz, sb, R->hi, p2, cone, pairwise, \
                                 true, nnd);                                                                 \
                }                                                                                            \
            }                                                                                                \
            all[s] = a;                                                                                      \
            all2[s] = b;                                                                                     \
        }                                                                                                    \
    }                                                                                                        \
    static inline __attribute__((always_inline)) ATTR void reduce_##NAME(lanes_##NAME *all, acc *out)        \
    {                                                                                                        \
        /* the fixed tree: lane l += lane l + w for w = 8, 4, 2, 1 (across sub-vectors, then inside one) */ \
        for (int w = MUR_LANES / 2; w >= 1; w /= 2) {                                                        \
            if (w >= (W)) {                                                                                  \
                for (int s = 0; s < w / (W); s++)                                                            \
                    LANES_ADD(all[s], all[s + w / (W)]);                                                     \
            } else {                                                                                         \
                vi_##NAME mask;                                                                              \
                memcpy(&mask, lane_rot_w[(W) == 4 ? 0 : ((W) == 8 ? 1 : 2)][w], sizeof mask);                                                     \
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
    }                                                                                                        \
    static ATTR void scan_boid_##NAME(const scan_job *J, acc *out)                                           \
    {                                                                                                        \
        lanes_##NAME all[MUR_LANES / (W)];                                                                   \
        /* one specialised copy per combination of the per-tick switches */                                 \
        const int sel = (J->cone ? 4 : 0) | (J->pairwise ? 2 : 0) | (J->nn ? 1 : 0);                          \
        switch (sel) {                                                                                       \
        case 0: runs_##NAME(J, all, false, false, false); break;                                            \
        case 1: runs_##NAME(J, all, false, false, true); break;                                             \
        case 2: runs_##NAME(J, all, false, true, false); break;                                             \
        case 3: runs_##NAME(J, all, false, true, true); break;                                              \
        case 4: runs_##NAME(J, all, true, false, false); break;                                             \
        case 5: runs_##NAME(J, all, true, false, true); break;                                              \
        case 6: runs_##NAME(J, all, true, true, false); break;                                              \
        default: runs_##NAME(J, all, true, true, true); break;                                              \
        }                                                                                                    \
        reduce_##NAME(all, out);                                                                             \
    }                                                                                                        \
    static ATTR __attribute__((unused)) void scan_boid2_##NAME(const scan_job *J, const kparams *p2, int32_t self2, acc *out) \
    {                                                                                                        \
        lanes_##NAME all[MUR_LANES / (W)], all2[MUR_LANES / (W)];                                            \
        const int sel = (J->cone ? 4 : 0) | (J->pairwise ? 2 : 0) | (J->nn ? 1 : 0);                          \
        switch (sel) {                                                                                       \
        case 0: runs2_##NAME(J, p2, self2, all, all2, false, false, false); break;                          \
        case 1: runs2_##NAME(J, p2, self2, all, all2, false, false, true); break;                           \
        case 2: runs2_##NAME(J, p2, self2, all, all2, false, true, false); break;                           \
        case 3: runs2_##NAME(J, p2, self2, all, all2, false, true, true); break;                            \
        case 4: runs2_##NAME(J, p2, self2, all, all2, true, false, false); break;                           \
        case 5: runs2_##NAME(J, p2, self2, all, all2, true, false, true); break;                            \
        case 6: runs2_##NAME(J, p2, self2, all, all2, true, true, false); break;                            \
        default: runs2_##NAME(J, p2, self2, all, all2, true, true, true); break;                            \
        }                                                                                                    \
        reduce_##NAME(all, out);                                                                             \
        reduce_##NAME(all2, out + 1);                                                                        \
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
#if defined(__clang__)
/* clang's __builtin_shufflevector wants constant lanes: move them one by one (same values). */
#define SHUF1(D, A, M, F)                                                                                     \
    for (int l_ = 0; l_ < (int)(sizeof(M) / sizeof(int32_t)); l_++)                                          \
        (D).F[l_] = (A).F[(M)[l_]]
#define LANES_SHUF(D, A, M)                                                                                   \
    do {                                                                                                     \
        SHUF1(D, A, M, cnt); SHUF1(D, A, M, cx); SHUF1(D, A, M, cy); SHUF1(D, A, M, cz);                     \
        SHUF1(D, A, M, ax); SHUF1(D, A, M, ay); SHUF1(D, A, M, az);                                          \
        SHUF1(D, A, M, sx); SHUF1(D, A, M, sy); SHUF1(D, A, M, sz); SHUF1(D, A, M, nn);                      \
    } while (0)
#else
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
#endif

/* Masked sums: acc += (m ? x : +0). With AVX-512 a merge-masked add (acc where the mask is off) does
 * the same in one instruction: the sums start at +0 and a sum of +0 and anything is never -0, so
 * adding +0 never changes one. The other paths AND the operand with the mask. */
#define KMASK_AND(K, M) const __typeof__(M) K = (M)
#define MADD_AND(A, X, K) ((A) += VAND(__typeof__(A), (X), (K)))
#define MSUB_AND(A, X, K) ((A) -= VAND(__typeof__(A), (X), (K)))
#define KMASK_base KMASK_AND
#define MADD_base MADD_AND
#define MSUB_base MSUB_AND
#define KMASK_avx2 KMASK_AND
#define MADD_avx2 MADD_AND
#define MSUB_avx2 MSUB_AND
#define KMASK_avx512(K, M) const __mmask16 K = _mm512_test_epi32_mask((__m512i)(M), (__m512i)(M))
#define MADD_avx512(A, X, K) ((A) = (__typeof__(A))_mm512_mask_add_ps((__m512)(A), (K), (__m512)(A), (__m512)(X)))
#define MSUB_avx512(A, X, K) ((A) = (__typeof__(A))_mm512_mask_sub_ps((__m512)(A), (K), (__m512)(A), (__m512)(X)))

KERNEL(base, 4, )
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MUR_X86_PATHS 1
KERNEL(avx2, 8, __attribute__((target("avx2"))))
KERNEL(avx512, 16, __attribute__((target("avx512f"))))
#endif

typedef void (*scan_fn)(const scan_job *, acc *);
typedef void (*scan2_fn)(const scan_job *, const kparams *, int32_t, acc *);

/* The widest path this CPU runs (MURMUR_SIMD=base|avx2|avx512 forces one, for tests and the bench):
 * 0 base, 1 AVX2, 2 AVX-512. Called once per flock, at create. */
int mur_rules_pick_simd(void)
{
#ifdef MUR_X86_PATHS
    const char *e = getenv("MURMUR_SIMD");
    __builtin_cpu_init();
    bool a512 = __builtin_cpu_supports("avx512f"), a2 = __builtin_cpu_supports("avx2");
    if (e && !strcmp(e, "base"))
        return 0;
    if (e && !strcmp(e, "avx2") && a2)
        return 1;
    if (a512)
        return 2;
    if (a2)
        return 1;
#endif
    return 0;
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
    t->kernel = scan_boid_base;
    t->kernel2 = NULL; /* two boids need 22 sum vectors: only the 32 AVX-512 registers hold them */
    t->gather = gather_column_base;
#ifdef MUR_X86_PATHS
    if (f->simd == 1) {
        t->kernel = scan_boid_avx2;
        t->kernel2 = NULL;
        t->gather = gather_column_avx2;
    } else if (f->simd == 2) {
        t->kernel = scan_boid_avx512;
        t->kernel2 = scan_boid2_avx512;
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
