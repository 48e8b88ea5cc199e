/* The neighbour kernel on AVX2 + FMA: 8 lanes (kernel_body.h). Its functions: mur_scan_boid_avx2,
 * mur_scan_boid_lean_avx2. */
#include "kernel_impl.h"

#ifdef MUR_X86_PATHS
#define KERNEL_SCAN mur_scan_boid_avx2
#define KERNEL_SCAN_LEAN mur_scan_boid_lean_avx2
#define KW 8
#define KATTR __attribute__((target("avx2,fma")))
#define KMIN KMIN_AVX2
#define KREDUCE8 1 /* kernel_body.h: the 8-lane reduction */
#define KMASK KMASK_AND
#define MADD MADD_AND
#define MSUB MSUB_AND
/* The lean kernel's sums weighted by 1 or 0 with a fused multiply-add: the product is exact (x or a
 * zero), so fma(w, x, acc) rounds as acc + x, or leaves acc (acc + a zero; the sums start at +0 and
 * are never -0), the bits of the masked add in 2 instructions fewer per sum. Only where the candidate
 * values are finite (0 times inf is NaN): the lean buffer, whose excluded x is MUR_FAR. */
#define WADD(A, X, W) ((A) = (__typeof__(A))_mm256_fmadd_ps((__m256)(W), (__m256)(X), (__m256)(A)))
#define WSUB(A, X, W) ((A) = (__typeof__(A))_mm256_fnmadd_ps((__m256)(W), (__m256)(X), (__m256)(A)))
#include "kernel_body.h"
#else
typedef int mur_kernel_avx2_absent; /* not an x86-64 gcc build: no such path (ISO C wants a declaration) */
#endif
