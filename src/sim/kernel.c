/* The neighbour kernel: one boid (or two, on AVX-512) against a slice of candidates, branch-free,
 * in GCC vector types of three widths with one fixed 16-lane summation order (see kernel.h). */
#include <math.h>
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
#define KMASK_AVX512(K, M) const __mmask16 K = _mm512_test_epi32_mask((__m512i)(M), (__m512i)(M))
#define MADD_AVX512(A, X, K) ((A) = (__typeof__(A))_mm512_mask_add_ps((__m512)(A), (K), (__m512)(A), (__m512)(X)))
#define MSUB_AVX512(A, X, K) ((A) = (__typeof__(A))_mm512_mask_sub_ps((__m512)(A), (K), (__m512)(A), (__m512)(X)))

/* The smaller of a and b, b where they are equal or either is NaN: a < b ? a : b lane by lane, which is
 * what minps does in one instruction (gcc does not find it in the select). */
#ifdef MUR_X86_PATHS
#define KMIN_BASE(a, b) ((__typeof__(a))_mm_min_ps((__m128)(a), (__m128)(b)))
#else
#define KMIN_BASE(a, b) VSEL(__typeof__(a), (a) < (b), (a), (b))
#endif
#define KMIN_AVX2(a, b) ((__typeof__(a))_mm256_min_ps((__m256)(a), (__m256)(b)))
#define KMIN_AVX512(a, b) ((__typeof__(a))_mm512_min_ps((__m512)(a), (__m512)(b)))

/* The three paths: kernel_body.h once per vector width. */
#define KMIN KMIN_BASE
#define KMASK KMASK_AND
#define MADD MADD_AND
#define MSUB MSUB_AND
#define KNAME base
#define KW 4
#define KATTR
#include "kernel_body.h"
#undef KNAME
#undef KW
#undef KATTR
#ifdef MUR_X86_PATHS
#define KNAME avx2
#define KW 8
#define KATTR __attribute__((target("avx2,fma")))
#undef KMIN
#define KMIN KMIN_AVX2
/* The lean kernel's sums weighted by 1 or 0 with a fused multiply-add: the product is exact (x or a
 * zero), so fma(w, x, acc) rounds as acc + x, or leaves acc (acc + a zero; the sums start at +0 and
 * are never -0), the bits of the masked add in 2 instructions fewer per sum. Only where the candidate
 * values are finite (0 times inf is NaN): the lean buffer, whose excluded x is MUR_FAR. */
#define WADD(A, X, W) ((A) = (__typeof__(A))_mm256_fmadd_ps((__m256)(W), (__m256)(X), (__m256)(A)))
#define WSUB(A, X, W) ((A) = (__typeof__(A))_mm256_fnmadd_ps((__m256)(W), (__m256)(X), (__m256)(A)))
#include "kernel_body.h"
#undef WADD
#undef WSUB
#undef KNAME
#undef KW
#undef KATTR
#undef KMASK
#undef MADD
#undef MSUB
#define KMASK KMASK_AVX512
#define MADD MADD_AVX512
#define MSUB MSUB_AVX512
#define KNAME avx512
#define KW 16
#define KATTR __attribute__((target("avx512f")))
#undef KMIN
#define KMIN KMIN_AVX512
#include "kernel_body.h"
#endif


bool mur_kernel_supports(mur_simd path)
{
    if (path == MUR_SIMD_BASE)
        return true;
#ifdef MUR_X86_PATHS
    __builtin_cpu_init();
    if (path == MUR_SIMD_AVX2) /* every AVX2 CPU of note has FMA too; its lean kernel uses it */
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (path == MUR_SIMD_AVX512)
        return __builtin_cpu_supports("avx512f");
#endif
    return false;
}

mur_simd mur_kernel_best(void)
{
    if (mur_kernel_supports(MUR_SIMD_AVX512))
        return MUR_SIMD_AVX512;
    if (mur_kernel_supports(MUR_SIMD_AVX2))
        return MUR_SIMD_AVX2;
    return MUR_SIMD_BASE;
}
