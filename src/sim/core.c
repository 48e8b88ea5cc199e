/* Error text, counter-based random numbers and the clock (core.h). */
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

void mur_set_error(mur_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

uint64_t mur_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

float mur_hash_unit(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t h = mur_mix64(seed ^ mur_mix64(a ^ mur_mix64(b + 0x632be59bd9b4e019ULL)));
    /* top 24 bits -> exactly representable float in [0, 1) */
    return (float)(h >> 40) * (1.0f / 16777216.0f);
}

double mur_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int mur_all_cores(void)
{
#ifdef _OPENMP
    int p = omp_get_num_procs();
    return p < 1 ? 1 : (p > MUR_MAX_THREADS ? MUR_MAX_THREADS : p);
#else
    return 1;
#endif
}
