/* The world box, written once: wrap lengths, the minimum image, the soft-bounds push, the walls and
 * the speed limits. Used by the boid rules (rules.c), the predators (predators.c) and the metrics
 * (metrics.c); the neighbour kernel has the vector form of the minimum image (kernel_body.h). */
#ifndef MUR_SIM_SPACE_H
#define MUR_SIM_SPACE_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "murmur/murmur.h"

/// The box as one tick sees it.
typedef struct mur_world {
    bool wrap;       ///< torus (bounds = wrap)
    bool soft;       ///< soft bounds push (bounds = soft)
    float L[3];      ///< wrap lengths (world_max - world_min); 0 when not wrapped
    float hL[3];     ///< L / 2
    bool plane;      ///< plane mode: flying boids move on y = plane_y with no vertical velocity
    float plane_y;   ///< (world_min.y + world_max.y) / 2
} mur_world;

static inline void mur_world_init(mur_world *w, const mur_flock_def *d)
{
    memset(w, 0, sizeof *w);
    w->wrap = d->bounds == MUR_BOUNDS_WRAP;
    w->soft = d->bounds == MUR_BOUNDS_SOFT;
    w->plane = d->plane;
    w->plane_y = 0.5f * (d->world_min[1] + d->world_max[1]);
    if (w->wrap) {
        for (int a = 0; a < 3; a++) {
            w->L[a] = d->world_max[a] - d->world_min[a];
            w->hL[a] = 0.5f * w->L[a];
        }
    }
}

/// Offset from a to b on one axis: with wrap the minimum image (the nearest of b - L, b, b + L).
/// Every value computed, then selected, so loops over it vectorise.
static inline float mur_min_image(float b, float a, float L, float hL, bool wrap)
{
    const float t = b - a;
    if (!wrap)
        return t;
    const float below = (b - L) - a, above = (b + L) - a;
    const float e = t > hL ? below : t;
    return t < -hL ? above : e;
}

/// Soft bounds: out[a] += push within bounds_margin of the lower wall of axis a, -= push near the
/// upper one (push is an acceleration for boids, a velocity change for predators).
static inline void mur_soft_push(const mur_flock_def *d, const float p[3], float *const out[3], float push)
{
    for (int a = 0; a < 3; a++) {
        if (p[a] < d->world_min[a] + d->bounds_margin)
            *out[a] += push;
        else if (p[a] > d->world_max[a] - d->bounds_margin)
            *out[a] -= push;
    }
}

/// Plane mode, on a boid's new velocity before the speed limits: no vertical velocity, so every
/// vertical force (the soft bounds' included) is dropped and the limits act on the horizontal speed.
static inline void mur_plane_velocity(const mur_world *w, float v[3])
{
    if (w->plane)
        v[1] = 0.0f;
}

/// Plane mode, on a boid's new position: the height of the plane.
static inline void mur_plane_position(const mur_world *w, float p[3])
{
    if (w->plane)
        p[1] = w->plane_y;
}

/// 1 / |(x, y, z)|, or 0 for the zero vector.
static inline float mur_unit_scale(float x, float y, float z)
{
    float l = sqrtf(x * x + y * y + z * z);
    return l > 0.0f ? 1.0f / l : 0.0f;
}

/// Speed limits, keeping direction. A zero velocity stays zero.
static inline void mur_clamp_speed(float v[3], float lo, float hi)
{
    float s2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (s2 > hi * hi) {
        float k = hi / sqrtf(s2);
        v[0] *= k; v[1] *= k; v[2] *= k;
    } else if (s2 < lo * lo && s2 > 0.0f) {
        float k = lo / sqrtf(s2);
        v[0] *= k; v[1] *= k; v[2] *= k;
    }
}

/// Bounds after the move: wrap into [min, max), or bounce off the walls.
static inline void mur_apply_walls(const mur_flock_def *d, float p[3], float v[3])
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
