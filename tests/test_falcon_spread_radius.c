/* The spread's own radius (escape_spread_radius, src/sim/escape.c, docs/falcon/rounds.md "Round 21"): an escaping bird's
 * spread from its topological neighbours' centroid has the gain min(1, (Rs / d)^p), d its distance to the falcon,
 * p escape_spread_falloff, Rs escape_spread_radius where it is above 0 and escape_radius where it is 0 (the gain
 * before the parameter). Constructed cases on the neutral rules (only the escape moves the birds); bad values are
 * refused. */
#include <string.h>

#include "util.h"

/* n birds flying +z at 5 m/s; the falcon sets up 20 m above their centre and dives at them at 20 m/s. No flight, no
 * part, no vacuole; manoeuvres that do not move a bird (escape_accel 0), copied at once: only the spread moves the
 * birds. escape_radius 20 m. */
static mur_flock_def radius_def(int32_t n, float view, float rs, float p)
{
    mur_flock_def d = falcon_above_def(n, 20.0f); /* escape_radius 20 m */
    d.view_radius = view;
    d.escape_reaction = 0.0f;
    d.escape_copy_speed = 0.0f;
    d.escape_spread = 10.0f;
    d.escape_spread_falloff = p;
    d.escape_spread_radius = rs;
    return d;
}

/* Three birds 2 m apart under the falcon's dive, flying n_ticks; the outer two's x velocities and the tick the left
 * one first moved (-1: never). */
static int three_under(float rs, float p, int n_ticks, float *pos, float *vel, float *d_first)
{
    mur_flock_def d = radius_def(3, 20.0f, rs, p);
    mur_flock *f = make(&d);
    put(f, 0, -2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 1, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 2, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    int first = -1;
    for (int t = 0; t < n_ticks; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        if (first < 0 && v.vel[0] != 0.0f) {
            first = t;
            const float *fp = v.falcon_pos;
            const float dx = fp[0] - v.pos[0], dy = fp[1] - v.pos[1], dz = fp[2] - v.pos[2];
            *d_first = sqrtf(dx * dx + dy * dy + dz * dz);
        }
    }
    const mur_view v = mur_flock_view(f);
    memcpy(pos, v.pos, 9 * sizeof *pos);
    memcpy(vel, v.vel, 9 * sizeof *vel);
    mur_flock_destroy(f);
    return first;
}

/* 0 is escape_radius bit for bit: the three birds with escape_spread_radius 0 and 20 (= escape_radius) end with the
 * same positions and velocities after 0.4 s, at p 1 and 2. */
static void falcon_spread_radius_off(void **st)
{
    (void)st;
    for (int k = 1; k <= 2; k++) {
        float pa[9], va[9], pb[9], vb[9], da = 0.0f, db = 0.0f;
        const int fa = three_under(0.0f, (float)k, 21, pa, va, &da);
        const int fb = three_under(20.0f, (float)k, 21, pb, vb, &db);
        assert_true(fa >= 0 && fa == fb);
        assert_true(va[0] < -0.5f && va[6] > 0.5f); /* it spread */
        assert_memory_equal(pa, pb, sizeof pa);
        assert_memory_equal(va, vb, sizeof va);
    }
}

/* Inside escape_radius the gain falls from the spread's own radius: the birds see the falcon within 20 m and spread
 * with all of escape_spread at Rs 0 (d < 20 m), with (Rs / d)^p of it at Rs 5 (d > 5 m at the first tick), and the
 * same distance in the first tick at p 1 and 2: u(5, 2) / u(0) = (u(5, 1) / u(0))^2. */
static void falcon_spread_radius_inside(void **st)
{
    (void)st;
    float pos[9], vel[9], d0 = 0.0f, d1 = 0.0f, d2 = 0.0f;
    const int f0 = three_under(0.0f, 2.0f, 60, pos, vel, &d0);
    assert_true(f0 >= 0);
    float u0, u1, u2;
    {
        float p[9], v[9];
        assert_int_equal(three_under(0.0f, 2.0f, f0 + 1, p, v, &d0), f0);
        u0 = -v[0];
        assert_int_equal(three_under(5.0f, 1.0f, f0 + 1, p, v, &d1), f0);
        u1 = -v[0];
        assert_int_equal(three_under(5.0f, 2.0f, f0 + 1, p, v, &d2), f0);
        u2 = -v[0];
    }
    assert_true(d0 < 20.0f && d0 > 5.0f);
    assert_true(fabsf(d1 - d0) < 0.1f && fabsf(d2 - d0) < 0.1f); /* read after the step: the bird moved */
    assert_near(u0, 10.0f * 0.02f, 1e-5); /* within escape_radius: all of it */
    /* d0 is read after the tick's step, the gain before it (the falcon 0.4 m farther): within 1 m */
    assert_true(u1 / u0 > 5.0f / (d0 + 1.0f) && u1 / u0 < 5.0f / (d0 - 1.0f));
    assert_near(u2 / u0, (u1 / u0) * (u1 / u0), 1e-5);
    assert_true(u0 > u1 && u1 > u2 && u2 > 0.0f);
    /* a radius past escape_radius gives a bird inside it no more than all of escape_spread */
    {
        float p[9], v[9], dd = 0.0f;
        assert_int_equal(three_under(40.0f, 2.0f, f0 + 1, p, v, &dd), f0);
        assert_near(-v[0], u0, 1e-6);
    }
}

/* Bad values: one line naming the value and the range; 0 (escape_radius) is the default. */
static void falcon_spread_radius_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_spread_radius=-1", "escape_spread_radius=1000.5",
                                      "escape_spread_radius=nan", "escape_spread_radius=inf"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_spread_radius");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_spread_radius=0", NULL));
    assert_true(mur_def_set_pair(&d, "escape_spread_radius=1000", NULL));
    assert_true(mur_flock_default_def().escape_spread_radius == 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_spread_radius_off),
        cmocka_unit_test(falcon_spread_radius_inside),
        cmocka_unit_test(falcon_spread_radius_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
