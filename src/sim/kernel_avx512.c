/* The neighbour kernel on AVX-512F: 16 lanes, one boid or two at a time (kernel_body.h). Its functions:
 * mur_scan_boid_avx512, mur_scan_boid2_avx512. */
#include "kernel_impl.h"

#ifdef MUR_X86_PATHS
#define KERNEL_SCAN mur_scan_boid_avx512
#define KERNEL_SCAN2 mur_scan_boid2_avx512
#define KW 16
#define KATTR __attribute__((target("avx512f")))
#define KMIN KMIN_AVX512
#define KMASK KMASK_AVX512
#define MADD MADD_AVX512
#define MSUB MSUB_AVX512
#include "kernel_body.h"
#else
typedef int mur_kernel_avx512_absent; /* not an x86-64 gcc build: no such path (ISO C wants a declaration) */
#endif
