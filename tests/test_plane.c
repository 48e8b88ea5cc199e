/* Plane mode (`plane = on`): flying boids move on y = (world_min.y + world_max.y)/2 with vy = 0, the
 * speed limits act on the horizontal speed, and the grid and brute-force searches still agree. */
#include "util.h"

static float plane_y(const mur_flock_def *d) { return 0.5f * (d->world_min[1] + d->world_max[1]); }

/* Every flying boid exactly on the plane with vy exactly 0; returns the largest horizontal speed. */
static double check_flat(const mur_flock *f, float y, const char *when)
{
    mur_view v = mur_flock_view(f);
    double top = 0.0;
    for (int32_t i = 0; i < v.boids; i++) {
        if (v.perch[i] > 0)
            continue;
        if (v.pos[3 * i + 1] != y || v.vel[3 * i + 1] != 0.0f)
            fail_msg("%s, tick %llu: boid %d at y = %.9g, vy = %.9g (plane y = %.9g)", when,
                     (unsigned long long)v.tick, (int)i, (double)v.pos[3 * i + 1], (double)v.vel[3 * i + 1],
                     (double)y);
        double h = hypot((double)v.vel[3 * i], (double)v.vel[3 * i + 2]);
        top = h > top ? h : top;
    }
    return top;
}

/* A busy flock with every rule on, toggles switched phase by phase, in every bounds mode: y and vy stay
 * exactly constant, boids still move horizontally, and the horizontal speed keeps its limits. */
static void flat_with_every_toggle(void **s)
{
    (void)s;
    static const char *phases[][2] = {
        {"scatter", "on"}, {"scatter", "off"}, {"goal", "on"}, {"wind", "on"}, {"predators", "3"},
        {"perch", "on"}, {"view_angle", "200"}, {"steer_unit", "on"}, {"neighbour_search", "brute"},
        {"bounds_margin", "30"},
    };
    for (int b = 0; b < MUR_BOUNDS_COUNT; b++) {
        mur_flock_def d = mur_flock_default_def();
        d.boids = 1500;
        d.bounds = (mur_bounds)b;
        d.plane = true;
        d.goal_pos[1] = 50.0f;   /* a goal, wind and predators all pulling off the plane */
        d.wind_vel[1] = -8.0f;
        d.ground = d.world_min[1];
        mur_flock *f = make(&d);
        const float y = plane_y(&d);
        mur_view v0 = mur_flock_view(f);
        float x0 = v0.pos[0], z0 = v0.pos[2];
        for (size_t ph = 0; ph < sizeof phases / sizeof phases[0]; ph++) {
            mur_error err;
            if (!mur_flock_set(f, phases[ph][0], phases[ph][1], &err))
                fail_msg("%s: %s", phases[ph][0], err.msg);
            for (int t = 0; t < 30; t++) {
                mur_flock_step(f);
                double top = check_flat(f, y, mur_bounds_name(d.bounds));
                assert_true(top <= (double)d.max_speed * (1.0 + 1e-6));
            }
        }
        /* the boids did move, horizontally; no one can land on a plane above the ground */
        mur_view v = mur_flock_view(f);
        assert_true(v.pos[0] != x0 || v.pos[2] != z0);
        assert_int_equal(mur_flock_measure(f).perching, 0);
        /* switched off, the flock is 3D again: the vertical forces act */
        assert_true(mur_flock_set(f, "plane", "off", NULL));
        mur_flock_steps(f, 5);
        v = mur_flock_view(f);
        int off_plane = 0;
        for (int32_t i = 0; i < v.boids; i++)
            off_plane += v.vel[3 * i + 1] != 0.0f;
        assert_true(off_plane > v.boids / 2);
        mur_flock_destroy(f);
    }
}

/* The limits act on the horizontal speed: a steep boid keeps its horizontal velocity. */
static void clamp_is_horizontal(void **s)
{
    (void)s;
    mur_flock_def d = neutral_def(2);
    d.plane = true;
    d.max_speed = 4.0f;
    d.min_speed = 1.0f;
    d.view_radius = 1.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 30, 0, 3, 100, 0);      /* 3D speed 100, horizontal 3: inside [1, 4] */
    put(f, 1, 50, -20, 50, 0.1f, 5, 0);  /* horizontal 0.1: raised to 1 */
    mur_flock_step(f);
    mur_view v = mur_flock_view(f);
    assert_vec(v.vel, 3, 0, 0, 0);
    assert_vec(v.vel + 3, 1, 0, 0, 1e-6);
    assert_vec(v.pos, 3, 0, 0, 0);        /* plane y = (-100 + 100)/2 = 0 */
    assert_vec(v.pos + 3, 51, 0, 50, 1e-5);
    mur_flock_destroy(f);
}

/* Grid and brute force agree on a flock that lies in one plane (every boid in one layer of cells). */
static void grid_vs_brute_plane(void **s)
{
    (void)s;
    for (int b = 0; b < MUR_BOUNDS_COUNT; b++) {
        mur_flock_def d = mur_flock_default_def();
        d.boids = 3000;
        d.bounds = (mur_bounds)b;
        d.plane = true;
        d.view_radius = 5.0f;
        d.view_angle = 270.0f;
        d.separation_radius = 2.0f;
        d.neighbour_search = MUR_SEARCH_GRID;
        mur_flock *g = make(&d);
        d.neighbour_search = MUR_SEARCH_BRUTE;
        mur_flock *r = make(&d);
        /* one tick puts both on the plane (identically: the first tick's neighbours are the same) */
        mur_flock_step(g);
        mur_flock_step(r);
        check_flat(g, plane_y(&d), "grid");
        check_flat(r, plane_y(&d), "brute");
        /* from here on, compare one tick's velocity change, boid by boid */
        mur_view a = mur_flock_view(g);
        const size_t n3 = 3 * (size_t)a.boids;
        float *p0 = malloc(sizeof(float) * n3), *v0 = malloc(sizeof(float) * n3);
        memcpy(p0, a.pos, sizeof(float) * n3);
        memcpy(v0, a.vel, sizeof(float) * n3);
        for (int32_t i = 0; i < a.boids; i++)
            assert_true(mur_flock_set_boid(r, i, p0 + 3 * i, v0 + 3 * i, 0));
        mur_stats sg = mur_flock_measure(g), sr = mur_flock_measure(r);
        assert_near(sg.mean_neighbours, sr.mean_neighbours, 1e-9);
        assert_int_equal(sg.groups, sr.groups);
        assert_near(sg.diameter, sr.diameter, 1e-9);
        assert_true(sg.mean_neighbours > 5.0); /* a flat flock still has company */
        mur_flock_step(g);
        mur_flock_step(r);
        mur_view va = mur_flock_view(g), vb = mur_flock_view(r);
        for (size_t k = 0; k < n3; k++)
            assert_near(va.vel[k], vb.vel[k], 1e-4 * (1.0 + fabs(vb.vel[k])));
        free(p0);
        free(v0);
        mur_flock_destroy(g);
        mur_flock_destroy(r);
    }
}

/* Switched on mid-run, the next tick flattens the flock: vy = 0 and y = the plane for everyone. */
static void on_mid_run(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 2000;
    mur_flock *f = make(&d);
    mur_flock_steps(f, 40);
    mur_view v = mur_flock_view(f);
    int moving_up_or_down = 0;
    for (int32_t i = 0; i < v.boids; i++)
        moving_up_or_down += v.vel[3 * i + 1] != 0.0f;
    assert_true(moving_up_or_down > v.boids / 2);
    assert_true(mur_flock_set(f, "plane", "on", NULL));
    assert_true(mur_flock_get_def(f).plane);
    for (int t = 0; t < 200; t++) {
        mur_flock_step(f);
        double top = check_flat(f, plane_y(&d), "after plane=on");
        assert_true(top <= (double)d.max_speed * (1.0 + 1e-6));
    }
    mur_flock_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flat_with_every_toggle),
        cmocka_unit_test(clamp_is_horizontal),
        cmocka_unit_test(grid_vs_brute_plane),
        cmocka_unit_test(on_mid_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
