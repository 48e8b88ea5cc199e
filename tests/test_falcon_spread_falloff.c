/* The spread's fall-off (escape_spread_falloff, src/sim/escape.c, docs/falcon/rounds.md "Round 20"): an escaping bird's
 * spread from its topological neighbours' centroid has the gain min(1, (escape_radius / d)^p), d its distance to the
 * falcon; p = 1 is the gain before the parameter. Constructed cases on the neutral rules (only the escape moves the
 * birds); bad values are refused. */
#include <string.h>

#include "util.h"

/* n birds flying +z at 5 m/s; the falcon sets up 20 m above their centre and dives at them at 20 m/s. No flight, no
 * part, no vacuole; manoeuvres from the mix that do not move a bird (escape_accel 0), copied at once (escape_reaction
 * 0, escape_copy_speed 0): only the spread moves the birds. */
static mur_flock_def falloff_def(int32_t n, float radius, float view, float p)
{
    mur_flock_def d = falcon_above_def(n, 20.0f);
    d.view_radius = view;
    d.escape_radius = radius;
    d.escape_reaction = 0.0f;
    d.escape_copy_speed = 0.0f;
    d.escape_spread = 10.0f;
    d.escape_spread_falloff = p;
    return d;
}

static bool escaping(const mur_view *v, int i)
{
    return (v->escape[i] & 7) >= MUR_ESCAPE_ZIGZAG && (v->escape[i] & 7) <= MUR_ESCAPE_SPEEDUP;
}

/* Four birds in a row across their heading: two 4 m apart under the falcon's dive (exposed enough to see it, each
 * with the far ones on either side) and two 30 m out on either side. The near two see the falcon within
 * escape_radius (20 m) and escape; the far two copy them from 30 m or more from the falcon and spread outward (away
 * from the others' centroid). In the first tick of their spread they gain escape_spread dt (20 / d)^p sideways, d
 * the same for every p (within escape_radius the gain is 1 whatever p, so the birds move alike until then): with
 * u_p that speed, u_1 < u_0 (d > 20 m), u_1^2 = u_0 u_2, u_1^3 = u_0^2 u_3; p = 0 is no fall (escape_spread dt). */
static void falcon_spread_falloff_far(void **st)
{
    (void)st;
    const float ps[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    float u[4];
    int first[4];
    for (int c = 0; c < 4; c++) {
        mur_flock_def d = falloff_def(4, 20.0f, 100.0f, ps[c]);
        mur_flock *f = make(&d);
        put(f, 0, -30.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 1, -2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 2, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 3, 30.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        first[c] = -1;
        bool near_first = false;
        for (int t = 0; t < 60 && first[c] < 0; t++) {
            mur_flock_step(f);
            const mur_view v = mur_flock_view(f);
            near_first = near_first || v.vel[3] != 0.0f;
            if (v.vel[0] != 0.0f) {
                first[c] = t;
                assert_true(near_first); /* the near ones spread first: the far ones copy */
                assert_true(escaping(&v, 0) && escaping(&v, 3));
                u[c] = -v.vel[0];
                assert_near(v.vel[9], u[c], 1e-6); /* the other far bird as fast, outward */
                /* the far birds beyond escape_radius from the falcon */
                const float *fp = v.falcon_pos;
                const float dx = fp[0] - v.pos[0], dy = fp[1] - v.pos[1], dz = fp[2] - v.pos[2];
                assert_true(sqrtf(dx * dx + dy * dy + dz * dz) > 29.0f);
            }
        }
        assert_true(first[c] >= 0);
        mur_flock_destroy(f);
    }
    for (int c = 1; c < 4; c++)
        assert_int_equal(first[c], first[0]);
    assert_near(u[0], 10.0f * 0.02f, 1e-5);
    assert_true(u[0] > u[1] && u[1] > u[2] && u[2] > u[3] && u[3] > 0.0f);
    const double g = (double)u[1] / (double)u[0]; /* 20 / d */
    assert_true(g > 20.0 / 37.0 && g < 20.0 / 29.0);
    assert_near(u[2] / u[0], g * g, 1e-5);
    assert_near(u[3] / u[0], g * g * g, 1e-5);
}

/* Three birds 2 m apart under the falcon, all within escape_radius when they escape: the gain is 1 whatever p, so
 * p = 0, 2 and 3 leave p = 1's positions and velocities bit for bit after 0.4 s. */
static void falcon_spread_falloff_near(void **st)
{
    (void)st;
    const float ps[4] = {1.0f, 0.0f, 2.0f, 3.0f};
    float pos[4][9], vel[4][9];
    for (int c = 0; c < 4; c++) {
        mur_flock_def d = falloff_def(3, 20.0f, 20.0f, ps[c]);
        mur_flock *f = make(&d);
        put(f, 0, -2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 1, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 2, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        for (int t = 0; t < 21; t++)
            mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        assert_true(escaping(&v, 0) && escaping(&v, 2));
        memcpy(pos[c], v.pos, sizeof pos[c]);
        memcpy(vel[c], v.vel, sizeof vel[c]);
        mur_flock_destroy(f);
    }
    assert_true(vel[0][0] < -0.5f && vel[0][6] > 0.5f); /* it spread */
    for (int c = 1; c < 4; c++) {
        assert_memory_equal(pos[c], pos[0], sizeof pos[0]);
        assert_memory_equal(vel[c], vel[0], sizeof vel[0]);
    }
}

/* Bad values: one line naming the value and the range; 1 (the plain ratio) is the default. */
static void falcon_spread_falloff_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_spread_falloff=-1", "escape_spread_falloff=8.5",
                                      "escape_spread_falloff=nan", "escape_spread_falloff=inf"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_spread_falloff");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_spread_falloff=0", NULL));
    assert_true(mur_def_set_pair(&d, "escape_spread_falloff=8", NULL));
    assert_true(mur_flock_default_def().escape_spread_falloff == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_spread_falloff_far),
        cmocka_unit_test(falcon_spread_falloff_near),
        cmocka_unit_test(falcon_spread_falloff_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
