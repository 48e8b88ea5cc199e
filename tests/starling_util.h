/* Shared by the starling tests (test_starling.c, test_starling_caps.c, test_exposure_gate.c, test_rim_pull.c,
 * test_surge_radius.c): one tick of boid 0 among its neighbours, through the public API. */
#ifndef MUR_TEST_STARLING_UTIL_H
#define MUR_TEST_STARLING_UTIL_H

#include "util.h"

/* Boid 0 at the origin flying along +z at speed 1 (dt 1), its n neighbours at nb all flying (0, 0, nvz),
 * topo_k = n, no blind angle and the given def changes: boid 0's velocity after one tick. */
static inline void tick_vel(mur_flock_def d, int n, const float nb[][3], float nvz, float out[3])
{
    d.boids = n + 1;
    d.topo_k = (float)n;
    d.view_angle = 360.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 0, 0, 1);
    for (int j = 0; j < n; j++)
        put(f, j + 1, nb[j][0], nb[j][1], nb[j][2], 0, 0, nvz);
    mur_flock_steps(f, 1);
    memcpy(out, mur_flock_view(f).vel, 3 * sizeof(float));
    mur_flock_destroy(f);
}

/* The same with still neighbours: boid 0's new velocity must be want. */
static inline void one_tick(mur_flock_def d, int n, const float nb[][3], const double want[3])
{
    float v[3];
    tick_vel(d, n, nb, 0.0f, v);
    assert_vec(v, want[0], want[1], want[2], 1e-5);
}

/* Cohesion 1, separation 1 from the closest neighbour within 2 (a push of 1 - d / 2 away from it), surge 0.5,
 * topo_k 3, view radius 10: the set-up of separation's own surge (test_starling.c surge_separation,
 * test_surge_radius.c). */
static inline mur_flock_def surge_sep_def(void)
{
    mur_flock_def d = topo_def(3, 10.0f);
    d.cohesion = 1.0f;
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.surge = 0.5f;
    return d;
}

#endif
