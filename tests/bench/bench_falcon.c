/* murmur-bench's falcon row (bench.h; issue 26): the starling preset's step with the falcon attacking
 * against the same step without it, alternated (--repeats pairs, default 3; --warmup 20, --ticks 40 by
 * default), default 20k boids. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "env.h"
#include "load.h"

/* Milliseconds per tick of the starling preset at n boids (the spawn, warm ticks first), with or
 * without the falcon (set up 10 m from the flock: it attacks during the timed ticks); median of the
 * ticks. */
static double falcon_ms(const opts *o, int32_t n, int threads, bool falcon, int warm, int ticks, uint64_t *hash,
                        double *cpu, int *simd)
{
    mur_flock_def d = bench_starling_def(n);
    d.falcon = falcon;
    d.falcon_setup = 10.0f;
    mur_error err;
    mur_flock *f = mur_flock_create(&d, &err);
    if (!f) {
        fprintf(stderr, "murmur-bench: %s\n", err.msg);
        return NAN;
    }
    if (!mur_env_apply(f, threads > 0, &err)) {
        fprintf(stderr, "murmur-bench: %s\n", err.msg);
        exit(2);
    }
    bench_apply_simd(o, f);
    if (threads > 0)
        mur_flock_set_threads(f, threads);
    mur_flock_set_thread_fallback(f, !o->fixed);
    mur_flock_steps(f, warm);
    double *t = malloc(2 * (size_t)ticks * sizeof *t);
    if (!t)
        exit(1);
    for (int i = 0; i < ticks; i++) {
        const double t0 = now_ms(), c0 = cpu_ms();
        mur_flock_step(f);
        t[i] = now_ms() - t0;
        t[ticks + i] = cpu_ms() - c0;
    }
    const double m = median(t, (size_t)ticks);
    *cpu = median(t + ticks, (size_t)ticks);
    *hash = mur_flock_hash(f);
    *simd = (int)mur_flock_simd(f);
    free(t);
    mur_flock_destroy(f);
    return m;
}

/* The falcon row (issue 26): the starling step with the falcon against the same step without it,
 * alternated (without, with, without, with, ... --repeats pairs, default 3), at each size (default
 * 20k) and thread count; the ratio of the medians of the pairs. */
int run_falcon(const opts *o)
{
    const int warm = o->warmup >= 0 ? o->warmup : 20, ticks = o->ticks > 0 ? o->ticks : 40;
    const int pairs = o->repeats > 0 ? o->repeats : 3;
    if (!o->json)
        printf("%-8s %8s %3s %5s %10s %10s %7s %7s %7s %7s\n", "scenario", "n", "thr", "ticks", "off ms", "on ms",
               "ratio", "min r", "cpu r", "load");
    for (int ni = 0; ni < o->nn; ni++)
        for (int ti = 0; ti < o->nt; ti++) {
            const int32_t n = o->n[ni];
            const int thr = o->threads[ti];
            double off[MAX_LIST], on[MAX_LIST], rat[MAX_LIST], coff[MAX_LIST], con[MAX_LIST];
            uint64_t h0 = 0, h1 = 0;
            int simd = 0;
            const int np = pairs < MAX_LIST ? pairs : MAX_LIST;
            for (int k = 0; k < np; k++) {
                off[k] = falcon_ms(o, n, thr, false, warm, ticks, &h0, &coff[k], &simd);
                on[k] = falcon_ms(o, n, thr, true, warm, ticks, &h1, &con[k], &simd);
                rat[k] = on[k] / off[k];
                if (!isfinite(rat[k]))
                    return 1;
            }
            double lo = rat[0];
            for (int k = 1; k < np; k++)
                lo = fmin(lo, rat[k]);
            const double moff = median(off, (size_t)np), mon = median(on, (size_t)np);
            const double cr = median(con, (size_t)np) / median(coff, (size_t)np);
            const double load = loadavg();
            if (o->json)
                printf("{\"scenario\":\"falcon\",\"n\":%d,\"threads\":%d,\"ticks\":%d,\"pairs\":%d,"
                       "\"off_ms_per_tick\":%.6g,\"on_ms_per_tick\":%.6g,\"ratio\":%.6g,\"min_ratio\":%.6g,"
                       "\"cpu_ratio\":%.6g,\"loadavg\":%.3g,\"hash_off\":\"%016llx\",\"hash_on\":\"%016llx\",\"simd\":\"%s\"}\n",
                       (int)n, thr, ticks, np, moff, mon, mon / moff, lo, cr, load, (unsigned long long)h0,
                       (unsigned long long)h1, mur_simd_name((mur_simd)simd));
            else
                printf("%-8s %8d %3d %5d %10.3f %10.3f %7.3f %7.3f %7.3f %7.2f\n", "falcon", (int)n, thr, ticks, moff,
                       mon, mon / moff, lo, cr, load);
            fflush(stdout);
        }
    return 0;
}
