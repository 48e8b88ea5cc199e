/* How local the boids' storage order stays as a flock flies (deterministic, no timing): the starling
 * preset's forming flock, every 10 ticks the mean distance between boids i and i+1 (consecutive in
 * storage) against the same between boids at random (a fixed shuffle: the distance of an order that
 * has drifted completely). Build and run against a build folder's library:
 *
 *   cc -O2 -std=c11 -Iinclude tools/spawn_order_locality.c -Lbuild-test/src/sim -lmurmur -lm -o /tmp/loc
 *   LD_LIBRARY_PATH=build-test/src/sim /tmp/loc [N] [TICKS]     (default 1000000 100)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "murmur/murmur.h"

static double dist(const float *p, int32_t i, int32_t j)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        const double e = (double)p[3 * (size_t)i + a] - (double)p[3 * (size_t)j + a];
        d2 += e * e;
    }
    return sqrt(d2);
}

int main(int argc, char **argv)
{
    const int32_t n = argc > 1 ? atoi(argv[1]) : 1000000;
    const int ticks = argc > 2 ? atoi(argv[2]) : 100;
    mur_flock_def d;
    if (!mur_def_preset(&d, "starling", NULL))
        return 1;
    d.boids = n;
    mur_error err = {{0}};
    mur_flock *f = mur_flock_create(&d, &err);
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    if (!f || !perm || n < 2) {
        fprintf(stderr, "spawn_order_locality: %s\n", f ? "out of memory" : err.msg);
        return 1;
    }
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    uint64_t r = 0x9E3779B97F4A7C15u;
    for (int32_t i = n - 1; i > 0; i--) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        const int32_t j = (int32_t)(r % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int t = 0;; t++) {
        if (t % 10 == 0) {
            const mur_view v = mur_flock_view(f);
            double seq = 0.0, rnd = 0.0;
            for (int32_t i = 0; i + 1 < n; i++) {
                seq += dist(v.pos, i, i + 1);
                rnd += dist(v.pos, perm[i], perm[i + 1]);
            }
            seq /= (double)(n - 1);
            rnd /= (double)(n - 1);
            printf("n=%d tick %d: storage step %.3f wu, random step %.3f wu, ratio %.4f, hash %016llx\n", (int)n,
                   t, seq, rnd, seq / rnd, (unsigned long long)mur_flock_hash(f));
            fflush(stdout);
        }
        if (t == ticks)
            break;
        mur_flock_step(f);
    }
    mur_flock_destroy(f);
    free(perm);
    return 0;
}
