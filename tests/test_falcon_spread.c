/* The spread (escape_spread, src/sim/escape.c, docs/falcon/rounds.md "Round 19"): an escaping bird also accelerates away
 * from its topological neighbours' centroid, at escape_spread times min(1, escape_radius / its distance to the
 * falcon), so the alarmed group opens. Constructed cases on the neutral rules (no steering of their own: only the
 * escape moves the birds); bad values are refused. */
#include "util.h"

/* n birds flying +z at 5 m/s; the falcon sets up 20 m above their centre and dives at them at 20 m/s. No flight
 * from the path, no part, no vacuole, and manoeuvres from the mix that do not move a bird (escape_accel 0): only
 * the spread moves them. */
static mur_flock_def spread_def(int32_t n, float spread)
{
    mur_flock_def d = falcon_above_def(n, 20.0f);
    d.escape_reaction = 0.0f;
    d.escape_copy_speed = 0.0f;
    d.escape_spread = spread;
    return d;
}

/* Three birds in a row across their heading, 2 m apart, under the falcon's path. With escape_spread 10 m/s^2 the
 * outer two, escaping, move apart (each away from its neighbours' centroid, on its own side, as fast as the other)
 * and the middle one, on its neighbours' centroid, does not; with 0 (off) none moves sideways. */
static void falcon_spread_opens(void **st)
{
    (void)st;
    const float spreads[2] = {10.0f, 0.0f};
    for (int c = 0; c < 2; c++) {
        mur_flock_def d = spread_def(3, spreads[c]);
        mur_flock *f = make(&d);
        put(f, 0, -2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 1, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 2, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        for (int t = 0; t < 11; t++) /* the set-up tick, then 10 ticks (0.2 s) */
            mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int i = 0; i < 3; i++)
            assert_true((v.escape[i] & 7) >= MUR_ESCAPE_ZIGZAG && (v.escape[i] & 7) <= MUR_ESCAPE_SPEEDUP);
        if (c == 0) {
            assert_true(v.vel[0] < -0.5f); /* the bird at x = -2 to -x */
            assert_true(v.vel[6] > 0.5f);  /* the one at x = +2 to +x */
            assert_near(v.vel[0], -v.vel[6], 1e-3);
            assert_true(fabsf(v.vel[3]) < 1e-4f); /* the middle one stays */
            assert_true(v.pos[6] - v.pos[0] > 4.05f);
        } else {
            for (int i = 0; i < 3; i++)
                assert_true(fabsf(v.vel[3 * i]) < 1e-6f);
            assert_near(v.pos[6] - v.pos[0], 4.0f, 1e-4);
        }
        mur_flock_destroy(f);
    }
}

/* Bad values: one line naming the value and the range; 0 (off) is the default. */
static void falcon_spread_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_spread=-1", "escape_spread=1001", "escape_spread=nan", "escape_spread=inf"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_spread");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_spread=1000", NULL));
    assert_true(mur_def_set_pair(&d, "escape_spread=0", NULL));
    assert_true(mur_flock_default_def().escape_spread == 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_spread_opens),
        cmocka_unit_test(falcon_spread_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
