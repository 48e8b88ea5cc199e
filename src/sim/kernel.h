/* The neighbour kernel's data and entry points (kernel.c, kernel_body.h), used by the rules pass
 * (rules.c). */
#ifndef MUR_SIM_KERNEL_H
#define MUR_SIM_KERNEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// Lanes of the neighbour kernel's sums (fixed, whatever the CPU's vector width).
#define MUR_LANES 16
/// The x of a candidate the lean kernel must not count: finite (0 times it is 0, which the AVX2 lean
/// kernel's weighted sums need), and so far that its squared distance overflows to +inf and fails
/// every comparison.
#define MUR_FAR 3.4028234663852886e38f

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
    float ux, uy, uz; ///< sum of the unit directions to the neighbours (topological pass only)
    float rl;         ///< weighted sum of the neighbours' rolls (topological pass with bank_align only)
    float rx, ry, rz; ///< rim_pull's sum over the MUR_RIM_NEAREST closest (topological pass with rim_pull only)
    float kx, ky, kz; ///< the offset to the closest neighbour (topological pass with lone_pull only)
} acc;

/// Closest neighbours that rim_pull steers towards (docs/rules.md "Short-range rim pull").
#define MUR_RIM_NEAREST 3

/// rim_pull's term of one of the MUR_RIM_NEAREST closest neighbours, at offset (dx, dy, dz) and distance
/// dist: h(dist / s0) unit(d) added to a->rx, ry, rz, h(x) = 4 (x - 1) (2 - x) for 1 < x < 2, else 0.
static inline void mur_rim_add(acc *a, float s0, float dx, float dy, float dz, float dist)
{
    const float x = dist / s0;
    if (!(x > 1.0f && x < 2.0f))
        return;
    const float h = 4.0f * (x - 1.0f) * (2.0f - x) / dist;
    a->rx += h * dx;
    a->ry += h * dy;
    a->rz += h * dz;
}

/* The neighbour kernel sums MUR_LANES (16) lanes: candidate j of a run always goes to lane
 * j mod 16 of each sum, and the lanes are added in one fixed tree at the end. It is compiled three
 * times with GCC vector types of the CPU's native width W (16 for AVX-512, 8 for AVX2, 4 for the
 * SSE2 baseline), lane l living in sub-vector l / W. Every lane does the same IEEE operations in the
 * same order on every path, so every CPU gives bit-identical sums. No FMA contraction
 * (-ffp-contract=off); the AVX2 lean kernel's explicit fused multiply-adds have exact products. */
typedef struct kparams {
    float px, py, pz, bvx, bvy, bvz;
    float k2s;  ///< mur_cone_k2s: the view cone's test is dot |dot| >= k2s d2
    float r2, sr2, L[3], hL[3];
} kparams;

/// The view cone's constant k |k| for k = cos(view_angle / 2) * |v|: a candidate at d (squared length
/// d2) is in view when dot |dot| >= k |k| d2, dot = d . v (the metric kernels and the topological
/// search test it so).
static inline float mur_cone_k2s(float cos_half, float vlen)
{
    const float k = cos_half * vlen;
    return k * fabsf(k);
}

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
/* The same sums over one unshifted run whose excluded candidates (weight 0, the boid itself) have
 * x = MUR_FAR (the row gather's buffer, rules.c); J->w and J->self are not read. The MUR_LANES - 1
 * slots after the run must hold finite values with x = MUR_FAR too (the last chunk reads them as
 * candidates that never count, instead of testing each lane against the end). */
void mur_scan_boid_lean_base(const scan_job *J, acc *out);
#ifdef MUR_X86_PATHS
void mur_scan_boid_avx2(const scan_job *J, acc *out);
void mur_scan_boid_lean_avx2(const scan_job *J, acc *out);
void mur_scan_boid_avx512(const scan_job *J, acc *out);
void mur_scan_boid2_avx512(const scan_job *J, const kparams *p2, int32_t self2, acc *out);
#endif

/// Whether this CPU and build run path (AUTO is not a path: false).
bool mur_kernel_supports(mur_simd path);
/// The widest path this CPU runs.
mur_simd mur_kernel_widest(void);
/// The path AUTO picks: the widest, but AVX2 where AVX-512 runs as two 256-bit halves (AMD Zen 4:
/// measured slower there, docs/performance/rounds.md branch speed17).
mur_simd mur_kernel_best(void);
/// The path AUTO picks for the topological search (topo.c): the widest. On AMD Zen 4 too, where its
/// 16-lane block scan measured faster than the AVX2 path's 8 lanes (docs/performance/rounds.md, branch speed19),
/// while the uniform step stays on mur_kernel_best's AVX2.
mur_simd mur_kernel_best_search(void);
/// Whether this CPU runs the AVX-512 path's 16-lane search (topo.c grow_avx512: compiled for AVX-512 F,
/// VL, BW and DQ, which every AVX-512 CPU but the Xeon Phi has); where not, that path searches on 8 lanes.
bool mur_kernel_search512(void);

#endif
