/* The neighbour kernel: one boid (or two, on AVX-512) against a slice of candidates, branch-free,
 * in GCC vector types of three widths with one fixed 16-lane summation order (see kernel.h). The
 * paths are kernel_base.c, kernel_avx2.c and kernel_avx512.c (one shared body, kernel_body.h); here,
 * which of them this CPU runs. */
#include "kernel.h"

#ifdef MUR_X86_PATHS
#include <cpuid.h>
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

mur_simd mur_kernel_widest(void)
{
    if (mur_kernel_supports(MUR_SIMD_AVX512))
        return MUR_SIMD_AVX512;
    if (mur_kernel_supports(MUR_SIMD_AVX2))
        return MUR_SIMD_AVX2;
    return MUR_SIMD_BASE;
}

/* Whether this CPU runs each 512-bit operation as two 256-bit halves: AMD family 0x19 (Zen 4; Zen 3,
 * the same family, has no AVX-512). There the AVX-512 path's uniform step took more CPU time than
 * AVX2's in 19 of 20 alternated rounds, median 1.084x (docs/performance/rounds.md, branch speed17); the
 * starling step runs the same 8-lane search on either. */
static bool avx512_halves(void)
{
#ifdef MUR_X86_PATHS
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return false;
    /* "AuthenticAMD" in ebx, edx, ecx */
    if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u)
        return false;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    unsigned family = (a >> 8) & 0xfu;
    if (family == 0xfu)
        family += (a >> 20) & 0xffu;
    return family == 0x19u;
#else
    return false;
#endif
}

mur_simd mur_kernel_best_search(void) { return mur_kernel_widest(); }

bool mur_kernel_search512(void)
{
#ifdef MUR_X86_PATHS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
}

mur_simd mur_kernel_best(void)
{
    if (mur_kernel_supports(MUR_SIMD_AVX512) && !avx512_halves())
        return MUR_SIMD_AVX512;
    if (mur_kernel_supports(MUR_SIMD_AVX2))
        return MUR_SIMD_AVX2;
    return MUR_SIMD_BASE;
}
