/* The starling rows' boids renumbered (--spawn-order): along a Morton curve of the positions (cell),
 * the same boids in an order where nearby boids have nearby indices, so that the tick's reads and writes
 * by boid index stream; or at random (shuffle), as a flock's order drifts after long flight. Another
 * flock (its hash differs); it measures what the order of the rows costs, not a result of the preset. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const uint64_t *sort_key;

static int by_key(const void *a, const void *b)
{
    const uint64_t x = sort_key[*(const int32_t *)a], y = sort_key[*(const int32_t *)b];
    return (x > y) - (x < y);
}

/* The 10 low bits of v spread to every third bit. */
static uint64_t spread3(uint64_t v)
{
    uint64_t r = 0;
    for (int b = 0; b < 10; b++)
        r |= ((v >> b) & 1u) << (3 * b);
    return r;
}

void bench_renumber(mur_flock *f, bool cell)
{
    const mur_view v = mur_flock_view(f);
    const int32_t n = v.boids;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            lo[a] = fminf(lo[a], v.pos[3 * (size_t)i + a]);
            hi[a] = fmaxf(hi[a], v.pos[3 * (size_t)i + a]);
        }
    uint64_t *key = malloc((size_t)n * sizeof *key);
    int32_t *ix = malloc((size_t)n * sizeof *ix);
    float *st = malloc((size_t)n * 6 * sizeof *st);
    if (!key || !ix || !st) {
        free(key);
        free(ix);
        free(st);
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        uint64_t m = 0;
        for (int a = 0; a < 3; a++) {
            const float u = (v.pos[3 * (size_t)i + a] - lo[a]) / (hi[a] - lo[a] + 1e-6f);
            m |= spread3((uint64_t)(u * 1023.0f)) << a;
        }
        key[i] = m;
        ix[i] = i;
        memcpy(st + 6 * (size_t)i, v.pos + 3 * (size_t)i, 3 * sizeof *st);
        memcpy(st + 6 * (size_t)i + 3, v.vel + 3 * (size_t)i, 3 * sizeof *st);
    }
    if (cell) {
        sort_key = key;
        qsort(ix, (size_t)n, sizeof *ix, by_key);
    } else {
        uint64_t r = 0x9E3779B97F4A7C15u; /* xorshift64, a fixed seed: the same shuffle every run */
        for (int32_t i = n - 1; i > 0; i--) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            const int32_t j = (int32_t)(r % (uint64_t)(i + 1));
            const int32_t t = ix[i];
            ix[i] = ix[j];
            ix[j] = t;
        }
    }
    for (int32_t i = 0; i < n; i++)
        mur_flock_set_boid(f, i, st + 6 * (size_t)ix[i], st + 6 * (size_t)ix[i] + 3, 0);
    free(key);
    free(ix);
    free(st);
}
