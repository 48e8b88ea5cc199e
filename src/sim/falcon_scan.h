/* The falcon's passes over the flock (falcon_scan.c): on the step's threads, the same result on any
 * thread count. */
#ifndef MUR_SIM_FALCON_SCAN_H
#define MUR_SIM_FALCON_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// The nearest prey kept (the approach steers at their centroid, falcon.c).
#define MUR_SCAN_PREY 16

/// What a pass over the flying boids gives (index order within each part).
typedef struct mur_scan {
    double sum[3], vs[3];         ///< sums of the positions and velocities
    double speed;                 ///< sum of the speeds (only when asked)
    int32_t flying;               ///< boids counted
    int32_t near_i;               ///< the nearest to the falcon (-1 none; only when asked)
    float near_d2;                ///< its squared distance
    int nprey;                    ///< the nearest MUR_SCAN_PREY, sorted, index order on ties
    int32_t prey[MUR_SCAN_PREY];
    float prey_d2[MUR_SCAN_PREY];
} mur_scan;

/// The flying boids' sums, with nearest the birds nearest to the falcon's position, with speed the
/// sum of their speeds.
void mur_falcon_scan(const mur_flock *f, int threads, bool nearest, bool speed, mur_scan *out);
/// The bird the falcon locks on to in its cone (within lr2, squared, and the half-angle whose cosine is
/// cos_lock, of its heading), by def's falcon_target; -1 none.
int32_t mur_falcon_cone(const mur_flock *f, const mur_flock_def *d, int threads, float cos_lock, float lr2);

#endif
