/* Shared helpers for the cmocka suites. */
#ifndef MUR_TEST_UTIL_H
#define MUR_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "murmur/murmur.h"

/* A def where every rule is off: add back exactly what a test needs. */
static inline mur_flock_def neutral_def(int32_t boids)
{
    mur_flock_def d = mur_flock_default_def();
    d.boids = boids;
    d.predators = 0;
    d.dt = 1.0f;
    d.cohesion = d.alignment = d.separation = 0.0f;
    d.separation_radius = 0.0f;
    d.view_radius = 10.0f;
    d.view_angle = 360.0f;
    d.min_speed = 0.0f;
    d.max_speed = 1e6f;
    d.bounds = MUR_BOUNDS_NONE;
    d.world_min[0] = d.world_min[1] = d.world_min[2] = -100.0f;
    d.world_max[0] = d.world_max[1] = d.world_max[2] = 100.0f;
    d.ground = -100.0f;
    d.perch = d.goal = d.wind = d.scatter = false;
    return d;
}

/* neutral_def with topological neighbours (topo_k 6.5, view radius 6, a 270 degree cone) in a box of
 * half-side box. */
static inline mur_flock_def topo_def(int32_t n, float box)
{
    mur_flock_def d = neutral_def(n);
    d.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    d.topo_k = 6.5f;
    d.view_radius = 6.0f;
    d.view_angle = 270.0f;
    for (int a = 0; a < 3; a++) {
        d.world_min[a] = -box;
        d.world_max[a] = box;
    }
    return d;
}

/* n birds on the neutral rules (topo_def: no steering of their own) in a 1000 wu world, dt 0.02 s, view 20 m, and a
 * falcon that sets up 20 m above their centre and comes straight down at them at `speed` m/s (no stoop). Every
 * escape response that would move a bird is off (the mix's manoeuvre, the flight from the path, the alarm's
 * speed-up, the part, the vacuole): each test switches on only the response it pins. */
static inline mur_flock_def falcon_above_def(int32_t n, float speed)
{
    mur_flock_def d = topo_def(n, 1000.0f);
    d.dt = 0.02f;
    d.view_radius = 20.0f;
    d.falcon = true;
    d.falcon_strategy = MUR_FALCON_ABOVE;
    d.falcon_setup = 20.0f;
    d.falcon_speed = d.falcon_attack_speed = speed;
    d.falcon_stoop = 0.0f;
    d.escape_radius = 20.0f;
    d.escape_accel = 0.0f;
    d.escape_flee_time = 0.0f;
    d.escape_alarm_speed = 0.0f;
    d.escape_part_speed = 0.0f;
    d.escape_vacuole = 0.0f;
    return d;
}

static inline mur_flock *make(const mur_flock_def *d)
{
    mur_error err = {{0}};
    mur_flock *f = mur_flock_create(d, &err);
    if (!f)
        fail_msg("mur_flock_create: %s", err.msg);
    mur_flock_set_threads(f, 1);
    return f;
}

/// A flock of d on kernel path p (mur_simd) and the given threads; with scalar, a predator that does
/// nothing forces the scalar update. NULL when this CPU or build lacks the path.
static inline mur_flock *make_path(mur_flock_def d, bool scalar, int p, int threads)
{
    if (scalar) {
        d.predators = 1;
        d.predator_radius = 0.0f;
        d.flee = 0.0f;
    }
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, threads);
    if (!mur_flock_set_simd(f, (mur_simd)p, NULL)) {
        mur_flock_destroy(f);
        return NULL;
    }
    return f;
}

/// The starling preset at n boids with reaction_ticks R, on the given threads.
/* The starling preset with n boids, reaction_ticks R holding hold (mur_reaction_hold), on threads. */
static inline mur_flock *make_starling_hold(int32_t n, int32_t R, mur_reaction_hold hold, int threads)
{
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = n;
    d.reaction_ticks = R;
    d.reaction_hold = hold;
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, threads);
    return f;
}

static inline mur_flock *make_starling(int32_t n, int32_t R, int threads)
{
    return make_starling_hold(n, R, MUR_HOLD_SUMS, threads);
}

static inline void put(mur_flock *f, int32_t i, float x, float y, float z, float vx, float vy, float vz)
{
    const float p[3] = {x, y, z}, v[3] = {vx, vy, vz};
    assert_true(mur_flock_set_boid(f, i, p, v, 0));
}

#define assert_near(a, b, tol)                                                                              \
    do {                                                                                                    \
        double a_ = (double)(a), b_ = (double)(b);                                                          \
        if (!(fabs(a_ - b_) <= (tol)))                                                                      \
            fail_msg("%s = %.9g, expected %s = %.9g (tolerance %g)", #a, a_, #b, b_, (double)(tol));         \
    } while (0)

/* Each NAME=VALUE of bad[0..n) refused on the defaults with one line naming the parameter (name) and
 * "bad value". */
static inline void assert_refused(const char *const *bad, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++) {
        mur_flock_def d = mur_flock_default_def();
        mur_error err = {{0}};
        assert_false(mur_def_set_pair(&d, bad[k], &err));
        assert_non_null(strstr(err.msg, "bad value"));
        assert_non_null(strstr(err.msg, name));
        assert_null(strchr(err.msg, '\n'));
    }
}

static inline void assert_vec(const float *v, double x, double y, double z, double tol)
{
    assert_near(v[0], x, tol);
    assert_near(v[1], y, tol);
    assert_near(v[2], z, tol);
}

#endif
