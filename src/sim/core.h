/* The library's leaf module (core.c): error text, counter-based random numbers, the clock and the
 * constants every other part uses. Depends on nothing but murmur.h and libc. */
#ifndef MUR_SIM_CORE_H
#define MUR_SIM_CORE_H

#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "murmur/murmur.h"

/// 2 pi, the one place it is written (single and double precision uses derive from it).
#define MUR_TWO_PI 6.28318530717958647692
/// Most worker threads a flock will use.
#define MUR_MAX_THREADS 64

/// Fill err (when not NULL) with one line of text.
void mur_set_error(mur_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/// splitmix64 finaliser.
uint64_t mur_mix64(uint64_t x);
/// Uniform float in [0, 1) from a counter-based hash of (seed, a, b): a value depends only on its
/// arguments, never on the order in which threads ask for it.
float mur_hash_unit(uint64_t seed, uint64_t a, uint64_t b);

/// Monotonic clock in ms.
double mur_now_ms(void);
/// Worker threads for "all cores": the processor count, in [1, MUR_MAX_THREADS] (1 without OpenMP).
int mur_all_cores(void);
/// This thread's number in the parallel region (0 outside one, or without OpenMP).
static inline int mur_thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

#endif
