/* The neighbour kernel: one boid (or two, on AVX-512) against a slice of candidates, branch-free,
 * in GCC vector types of three widths with one fixed 16-lane summation order (see kernel.h). */
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif

#include "kernel.h"

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
    ATTR void mur_scan_boid_##NAME(const scan_job *J, acc *out)                                           \
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
    ATTR __attribute__((unused)) void mur_scan_boid2_##NAME(const scan_job *J, const kparams *p2, int32_t self2, acc *out) \
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
#ifdef MUR_X86_PATHS
KERNEL(avx2, 8, __attribute__((target("avx2"))))
KERNEL(avx512, 16, __attribute__((target("avx512f"))))
#endif


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
