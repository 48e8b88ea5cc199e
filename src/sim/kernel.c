/* The neighbour kernel: one boid (or two, on AVX-512) against a slice of candidates, branch-free,
 * in GCC vector types of three widths with one fixed 16-lane summation order (see kernel.h). The
 * paths are kernel_base.c, kernel_avx2.c and kernel_avx512.c (one shared body, kernel_body.h); here,
 * which of them this CPU runs. */
#include "kernel.h"

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
