/* The neighbour kernel's data and entry points (kernel.c), shared with the tick (rules.c), and the
 * small motion helpers shared by the boid update and the predators. */
#ifndef MUR_SIM_KERNEL_H
#define MUR_SIM_KERNEL_H

#include <math.h>

#include "internal.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MUR_X86_PATHS 1
#endif

/* A contiguous slice of the cell-sorted arrays and the image shift to add to its positions. */
typedef struct run {
    int32_t lo, hi;
    float sx, sy, sz;
} run;

/* Most runs of one neighbourhood: (2 reach + 1)^2 columns of at most 2 pieces (a wrap split) each. */
#define MAX_RUNS 50

/* Sums over one boid's neighbours. */
typedef struct acc {
    float cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, nn;
} acc;

typedef struct boid_in {
    float px, py, pz, vx, vy, vz;
    float vlen;     ///< |v|, for the view cone
} boid_in;

typedef struct scan_cfg {
    float r2, sr2;  ///< view and separation radius squared
    float cos_half; ///< cos(view_angle / 2)
    float L[3], hL[3];
} scan_cfg;

/* The neighbour kernel sums MUR_LANES (16) lanes: candidate j of a run always goes to lane
 * j mod 16 of each sum, and the lanes are added in one fixed tree at the end. It is compiled three
 * times with GCC vector types of the CPU's native width W (16 for AVX-512, 8 for AVX2, 4 for the
 * SSE2 baseline), lane l living in sub-vector l / W. Every lane does the same IEEE operations in the
 * same order on every path, so every CPU gives bit-identical sums. No FMA anywhere (-ffp-contract=off). */
typedef struct kparams {
    float px, py, pz, bvx, bvy, bvz;
    float k2;   ///< (cos_half * |v|)^2
    bool kpos;  ///< cos_half * |v| >= 0
    float r2, sr2, L[3], hL[3];
} kparams;

/* A slice [lo, hi) of the source arrays with the image shift to add to its positions. */
typedef struct scan_job {
    const float *x, *y, *z, *vx, *vy, *vz, *w;
    const run *runs;
    int nr;
    int32_t self;   ///< index of the boid itself in the source arrays (excluded in unshifted runs)
    bool cone, pairwise;
    bool nn;        ///< compute the nearest-neighbour distance (metrics)
    kparams p;
} scan_job;

typedef void (*scan_fn)(const scan_job *, acc *);
typedef void (*scan2_fn)(const scan_job *, const kparams *, int32_t, acc *);

/* One boid against every candidate of J (sums in a fixed 16-lane order); the AVX-512 path also has
 * a two-boid version sharing the candidate loads. */
void mur_scan_boid_base(const scan_job *J, acc *out);
#ifdef MUR_X86_PATHS
void mur_scan_boid_avx2(const scan_job *J, acc *out);
void mur_scan_boid_avx512(const scan_job *J, acc *out);
void mur_scan_boid2_avx512(const scan_job *J, const kparams *p2, int32_t self2, acc *out);
#endif

/* Offset from a to b with the minimum image in a wrapped world. */
static inline float image(float b, float a, float L, float hL, bool wrap)
{
    float t = b - a;
    if (!wrap)
        return t;
    return t > hL ? (b - L) - a : (t < -hL ? (b + L) - a : t);
}

static inline float unit_scale(float x, float y, float z)
{
    float l = sqrtf(x * x + y * y + z * z);
    return l > 0.0f ? 1.0f / l : 0.0f;
}

/* Speed limits, keeping direction. A zero velocity stays zero. */
static inline void clamp_speed(float *vx, float *vy, float *vz, float lo, float hi)
{
    float s2 = *vx * *vx + *vy * *vy + *vz * *vz;
    if (s2 > hi * hi) {
        float k = hi / sqrtf(s2);
        *vx *= k; *vy *= k; *vz *= k;
    } else if (s2 < lo * lo && s2 > 0.0f) {
        float k = lo / sqrtf(s2);
        *vx *= k; *vy *= k; *vz *= k;
    }
}

/* Bounds after the move: wrap into [min, max), or bounce off the walls. */
static inline void apply_walls(const mur_flock_def *d, float *p, float *v)
{
    if (d->bounds == MUR_BOUNDS_WRAP) {
        for (int a = 0; a < 3; a++) {
            float lo = d->world_min[a], hi = d->world_max[a], L = hi - lo;
            if (p[a] < lo || p[a] >= hi) {
                float q = p[a] - L * floorf((p[a] - lo) / L);
                if (!(q >= lo) || !(q < hi))
                    q = lo;
                p[a] = q;
            }
        }
    } else if (d->bounds == MUR_BOUNDS_BOUNCE) {
        for (int a = 0; a < 3; a++) {
            if (p[a] < d->world_min[a]) {
                p[a] = d->world_min[a];
                v[a] = -v[a];
            } else if (p[a] > d->world_max[a]) {
                p[a] = d->world_max[a];
                v[a] = -v[a];
            }
        }
    }
}

#endif
