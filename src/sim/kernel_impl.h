/* The neighbour kernel's shared pieces (see kernel.h): the lane tables of the reduction, the lane
 * helpers and the masked sums every path uses. Included by kernel_base.c, kernel_avx2.c and
 * kernel_avx512.c, each of which then includes kernel_body.h once for its vector width. */
#ifndef MUR_SIM_KERNEL_IMPL_H
#define MUR_SIM_KERNEL_IMPL_H

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

#endif
