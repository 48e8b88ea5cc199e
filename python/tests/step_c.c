/* The C side of tools/python_step_bench.py: the same flock as the Python side (preset, boids, seed,
 * threads), the same warm-up, then each of `ticks` steps timed alone; prints the medians in ms of the
 * wall time and of the process's CPU time (all its threads).
 *
 *   step_c PRESET BOIDS SEED WARMUP TICKS THREADS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "murmur/murmur.h"

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: step_c PRESET BOIDS SEED WARMUP TICKS THREADS\n");
        return 2;
    }
    mur_error err;
    mur_flock_def def;
    if (!mur_def_preset(&def, argv[1], &err) || !mur_def_set(&def, "boids", argv[2], &err) ||
        !mur_def_set(&def, "seed", argv[3], &err)) {
        fprintf(stderr, "step_c: %s\n", err.msg);
        return 2;
    }
    const long warmup = strtol(argv[4], NULL, 10), ticks = strtol(argv[5], NULL, 10);
    const int threads = (int)strtol(argv[6], NULL, 10);
    if (warmup < 0 || ticks < 1 || ticks > 100000 || threads < 0) {
        fprintf(stderr, "step_c: bad WARMUP, TICKS or THREADS\n");
        return 2;
    }
    mur_flock *f = mur_flock_create(&def, &err);
    if (!f) {
        fprintf(stderr, "step_c: %s\n", err.msg);
        return 2;
    }
    mur_flock_set_threads(f, threads);
    mur_flock_steps(f, warmup);
    double *ms = malloc(sizeof *ms * 2 * (size_t)ticks), *cpu = ms + ticks;
    if (!ms) {
        mur_flock_destroy(f);
        return 1;
    }
    for (long t = 0; t < ticks; t++) {
        const double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_ms(CLOCK_MONOTONIC);
        mur_flock_step(f);
        ms[t] = clock_ms(CLOCK_MONOTONIC) - t0;
        cpu[t] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    qsort(ms, (size_t)ticks, sizeof *ms, cmp);
    qsort(cpu, (size_t)ticks, sizeof *cpu, cmp);
    printf("median_ms %.4f cpu_ms %.4f hash %016llx\n", ms[ticks / 2], cpu[ticks / 2],
           (unsigned long long)mur_flock_hash(f));
    free(ms);
    mur_flock_destroy(f);
    return 0;
}
