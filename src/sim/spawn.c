/* Where new boids and predators appear: seeded, uniform in the world box. A large batch of new boids
 * is stored along a Morton curve of their places (mur_spawn_boids), so that neighbours in space are
 * near each other in every per-boid array and a large flock's reads and writes by boid index stream
 * (docs/performance/rounds.md, "Birds stored in cell order"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "falcon.h"
#include "flock_impl.h"

/* The compact start (spawn_spacing > 0): the ellipsoid's semi-axis across the heading, b, from
 * (4/3) pi (2b) b (b/2) = boids spacing^3; along the heading 2b, vertical b/2. */
static float compact_semi(const mur_flock_def *d)
{
    return d->spawn_spacing * cbrtf(3.0f * (float)d->boids / (2.0f * (float)MUR_TWO_PI));
}

/* Seeded boid i of the compact start: the same streams as below, uniform in the ellipsoid (radius the cube
 * root of a uniform, direction uniform on the sphere), its direction uniform on the cone of spawn_spread
 * around the common horizontal heading (stream 7, one per salt), speed cruise_speed within the limits. */
static void spawn_compact(mur_flock *f, const mur_flock_def *d, int32_t i, uint64_t key, uint64_t salt)
{
    const float b = compact_semi(d);
    const float h = (float)MUR_TWO_PI * mur_hash_unit(d->seed, 7, salt);
    const float fx = cosf(h), fz = sinf(h); /* the heading; across it (-fz, 0, fx) */
    const float rad = cbrtf(mur_hash_unit(d->seed, 1, key));
    const float z = 2.0f * mur_hash_unit(d->seed, 1, key + 1) - 1.0f;
    const float phi = (float)MUR_TWO_PI * mur_hash_unit(d->seed, 1, key + 2);
    const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    const float along = 2.0f * b * rad * r * cosf(phi), across = b * rad * r * sinf(phi), up = 0.5f * b * rad * z;
    f->pos[3 * i] = 0.5f * (d->world_min[0] + d->world_max[0]) + along * fx - across * fz;
    f->pos[3 * i + 1] = 0.5f * (d->world_min[1] + d->world_max[1]) + up;
    f->pos[3 * i + 2] = 0.5f * (d->world_min[2] + d->world_max[2]) + along * fz + across * fx;
    /* on the cap: cos t uniform in [cos spread, 1], the azimuth round the heading uniform */
    const float ct = 1.0f - mur_hash_unit(d->seed, 2, key) * (1.0f - cosf(d->spawn_spread * (float)MUR_TWO_PI / 360.0f));
    const float st = sqrtf(fmaxf(0.0f, 1.0f - ct * ct));
    const float psi = (float)MUR_TWO_PI * mur_hash_unit(d->seed, 3, key);
    const float s = fminf(d->max_speed, fmaxf(d->min_speed, d->cruise_speed));
    const float cx = st * cosf(psi), cy = st * sinf(psi); /* across, up */
    f->vel[3 * i] = s * (ct * fx - cx * fz);
    f->vel[3 * i + 1] = s * cy;
    f->vel[3 * i + 2] = s * (ct * fz + cx * fx);
}

/* Seeded random boid i in the world box (stream 1): uniform, random direction, speed in [min, max]. */
static void spawn_box(mur_flock *f, const mur_flock_def *d, int32_t i, uint64_t key)
{
    for (int a = 0; a < 3; a++) {
        float u = mur_hash_unit(d->seed, 1, key + (uint64_t)a);
        f->pos[3 * i + a] = d->world_min[a] + u * (d->world_max[a] - d->world_min[a]);
        if (f->pos[3 * i + a] >= d->world_max[a])
            f->pos[3 * i + a] = d->world_min[a];
    }
    float z = 2.0f * mur_hash_unit(d->seed, 2, key) - 1.0f;
    float phi = (float)MUR_TWO_PI * mur_hash_unit(d->seed, 3, key);
    float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    float s = d->min_speed + mur_hash_unit(d->seed, 4, key) * (d->max_speed - d->min_speed);
    f->vel[3 * i] = s * r * cosf(phi);
    f->vel[3 * i + 1] = s * z;
    f->vel[3 * i + 2] = s * r * sinf(phi);
}

/* Seeded boid i: its place and velocity in the world box, or the compact start's (spawn_spacing > 0); not
 * perched, level, calm. */
static void spawn_boid(mur_flock *f, const mur_flock_def *d, int32_t i, uint64_t salt)
{
    const uint64_t key = ((uint64_t)i << 4) ^ (salt << 36);
    if (d->spawn_spacing > 0.0f)
        spawn_compact(f, d, i, key, salt);
    else
        spawn_box(f, d, i, key);
    f->perch[i] = 0;
    f->roll[i] = 0.0f;
    if (i < f->esc_cap)
        mur_escape_clear(f, i);
}

void mur_spawn_predator(mur_flock *f, const mur_flock_def *d, int32_t k, uint64_t salt)
{
    uint64_t key = ((uint64_t)k << 4) ^ (salt << 36);
    for (int a = 0; a < 3; a++) {
        float u = mur_hash_unit(d->seed, 5, key + (uint64_t)a);
        f->ppos[3 * k + a] = d->world_min[a] + u * (d->world_max[a] - d->world_min[a]);
        f->pvel[3 * k + a] = 0.0f;
    }
}

#define MORTON_BITS 10 /* per axis: 2^30 cells over the box, a few boids a cell at 1M */
#define MORTON_SIDE (1u << MORTON_BITS)
#define RADIX_BITS 10
#define RADIX_PASSES ((3 * MORTON_BITS + RADIX_BITS - 1) / RADIX_BITS)

/* The 10 low bits of v spread to every third bit. */
static uint32_t spread3(uint32_t v)
{
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

/* Boid i's Morton key: its place in cells of one side for all three axes (the box's longest extent over
 * MORTON_SIDE), so a thin box is not cut into flat cells. */
static uint32_t morton_key(const float *p, const float lo[3], float inv)
{
    uint32_t m = 0;
    for (int a = 0; a < 3; a++) {
        const float u = (p[a] - lo[a]) * inv;
        const uint32_t q = u > 0.0f ? (u < (float)(MORTON_SIDE - 1) ? (uint32_t)u : MORTON_SIDE - 1) : 0u;
        m |= spread3(q) << a;
    }
    return m;
}

/* ix[0..m) sorted by key (stable: equal keys keep their order), by a least significant digit radix sort;
 * key and ix are the inputs, tk and tx the same sizes as scratch. The sorted arrays end in key and ix. */
static void radix_sort(uint32_t *key, int32_t *ix, uint32_t *tk, int32_t *tx, size_t m)
{
    size_t count[1u << RADIX_BITS];
    for (int p = 0; p < RADIX_PASSES; p++) {
        const int sh = p * RADIX_BITS;
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < m; i++)
            count[(key[i] >> sh) & ((1u << RADIX_BITS) - 1)]++;
        size_t sum = 0;
        for (size_t b = 0; b < (1u << RADIX_BITS); b++) {
            const size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < m; i++) {
            const size_t at = count[(key[i] >> sh) & ((1u << RADIX_BITS) - 1)]++;
            tk[at] = key[i];
            tx[at] = ix[i];
        }
        uint32_t *sk = key;
        key = tk;
        tk = sk;
        int32_t *sx = ix;
        ix = tx;
        tx = sx;
    }
    if (RADIX_PASSES % 2) { /* the last pass wrote to the scratch arrays */
        memcpy(tk, key, m * sizeof *key);
        memcpy(tx, ix, m * sizeof *ix);
    }
}

bool mur_spawn_boids(mur_flock *f, const mur_flock_def *d, int32_t from, int32_t to, uint64_t salt)
{
    const size_t m = to > from ? (size_t)(to - from) : 0;
    float ext = 0.0f, lo[3] = {d->world_min[0], d->world_min[1], d->world_min[2]};
    for (int a = 0; a < 3; a++)
        ext = fmaxf(ext, d->world_max[a] - d->world_min[a]);
    if (d->spawn_spacing > 0.0f) { /* the compact start: the cube round its ellipsoid (long semi-axis 2b) */
        const float b2 = 2.0f * compact_semi(d);
        for (int a = 0; a < 3; a++)
            lo[a] = 0.5f * (d->world_min[a] + d->world_max[a]) - b2;
        ext = 2.0f * b2;
    }
    const bool order = m >= (size_t)MUR_SPAWN_ORDER_MIN && ext > 0.0f && isfinite(ext);
    uint32_t *key = NULL;
    int32_t *ix = NULL;
    if (order) {
        key = malloc(2 * m * sizeof *key);
        ix = malloc(2 * m * sizeof *ix);
        if (!key || !ix) {
            free(key);
            free(ix);
            return false;
        }
    }
    for (int32_t i = from; i < to; i++)
        spawn_boid(f, d, i, salt);
    if (!order)
        return true;
    /* The same boids (each spawned from its own index's seed, as above), stored in the order of their
     * Morton keys, equal keys in index order. */
    const float inv = (float)MORTON_SIDE / ext;
    for (size_t k = 0; k < m; k++) {
        key[k] = morton_key(f->pos + 3 * ((size_t)from + k), lo, inv);
        ix[k] = (int32_t)k;
    }
    radix_sort(key, ix, key + m, ix + m, m);
    /* slot from + k takes the boid spawned at from + ix[k]: the permutation's cycles in place (key[k] = 1
     * once slot k holds its boid), so the order costs 16 bytes a new boid for the sort and nothing more */
    memset(key, 0, m * sizeof *key);
    float *pos = f->pos + 3 * (size_t)from, *vel = f->vel + 3 * (size_t)from;
    for (size_t k = 0; k < m; k++) {
        if (key[k])
            continue;
        float p[3], v[3];
        memcpy(p, pos + 3 * k, sizeof p);
        memcpy(v, vel + 3 * k, sizeof v);
        size_t j = k;
        for (size_t src = (size_t)ix[j]; src != k; j = src, src = (size_t)ix[j]) {
            memcpy(pos + 3 * j, pos + 3 * src, sizeof p);
            memcpy(vel + 3 * j, vel + 3 * src, sizeof v);
            key[j] = 1;
        }
        memcpy(pos + 3 * j, p, sizeof p);
        memcpy(vel + 3 * j, v, sizeof v);
        key[j] = 1;
    }
    free(key);
    free(ix);
    return true;
}
