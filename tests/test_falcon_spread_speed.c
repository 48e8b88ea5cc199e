/* The spread's speed gate (escape_spread_speed v0, src/sim/escape.c, docs/falcon/rounds.md "Round 26"): escape_spread's
 * gain times clamp((c - v0) / v0, 0, 1), c the falcon's closing speed on the bird that started the escape's front, a
 * copier carrying its front's share. Constructed cases on the neutral rules (only the escape moves the birds); bad
 * values are refused. */
#include <string.h>

#include "util.h"

/* n birds flying +z at 5 m/s; the falcon sets up 20 m above their centre and dives at them at 20 m/s (closing on the
 * birds under it at about 20 m/s). Manoeuvres that do not move a bird (escape_accel 0), copied at once: only the
 * spread (escape_spread 10 m/s^2, no fall with distance: p 0) moves the birds. */
static mur_flock_def speed_def(int32_t n, float view, float v0)
{
    mur_flock_def d = falcon_above_def(n, 20.0f); /* escape_radius 20 m */
    d.view_radius = view;
    d.escape_reaction = 0.0f;
    d.escape_copy_speed = 0.0f;
    d.escape_spread = 10.0f;
    d.escape_spread_falloff = 0.0f;
    d.escape_spread_speed = v0;
    return d;
}

/* Birds at x = xs[m] (y = z = 0) under the falcon's dive, flying n_ticks; their velocities (3 n floats) and the tick
 * each first moved (-1: never). */
static void row_under(const float *xs, int n, float view, float v0, int n_ticks, float *pos, float *vel, int *first)
{
    mur_flock_def d = speed_def(n, view, v0);
    mur_flock *f = make(&d);
    for (int m = 0; m < n; m++) {
        put(f, m, xs[m], 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        first[m] = -1;
    }
    for (int t = 0; t < n_ticks; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int m = 0; m < n; m++)
            if (first[m] < 0 && v.vel[3 * m] != 0.0f)
                first[m] = t;
    }
    const mur_view v = mur_flock_view(f);
    memcpy(pos, v.pos, 3 * (size_t)n * sizeof *pos);
    memcpy(vel, v.vel, 3 * (size_t)n * sizeof *vel);
    mur_flock_destroy(f);
}

static const float THREE[3] = {-2.0f, 0.0f, 2.0f};

/* A gate the dive passes at once is all of the spread, bit for bit: v0 1 m/s (c >= 2 v0: share 255 / 255 = 1) ends
 * with the positions and velocities of v0 0 (off) after 0.6 s, and the birds spread. */
static void falcon_spread_speed_full(void **st)
{
    (void)st;
    float pa[9], va[9], pb[9], vb[9];
    int fa[3], fb[3];
    row_under(THREE, 3, 20.0f, 0.0f, 30, pa, va, fa);
    row_under(THREE, 3, 20.0f, 1.0f, 30, pb, vb, fb);
    assert_true(fa[0] >= 0 && fa[0] == fb[0]);
    assert_true(va[0] < -0.5f && va[6] > 0.5f); /* it spread */
    assert_memory_equal(pa, pb, sizeof pa);
    assert_memory_equal(va, vb, sizeof va);
}

/* A slow attack for the gate does not open the group: with v0 25 m/s (the dive closes at about 20) the outer birds
 * never move across; with v0 15 their first tick's spread is (c - 15) / 15 of off's, about a third. */
static void falcon_spread_speed_gate(void **st)
{
    (void)st;
    float p[9], v0v[9], v15[9], v25[9];
    int f0[3], f15[3], f25[3];
    row_under(THREE, 3, 20.0f, 0.0f, 60, p, v0v, f0);
    row_under(THREE, 3, 20.0f, 25.0f, 60, p, v25, f25);
    assert_true(f0[0] >= 0 && f0[2] >= 0);
    assert_int_equal(f25[0], -1);
    assert_int_equal(f25[2], -1);
    assert_true(v25[0] == 0.0f && v25[6] == 0.0f);
    /* the first tick of the spread, under v0 0 and 15 */
    row_under(THREE, 3, 20.0f, 0.0f, f0[0] + 1, p, v0v, f0);
    row_under(THREE, 3, 20.0f, 15.0f, f0[0] + 1, p, v15, f15);
    assert_int_equal(f15[0], f0[0]);
    assert_near(-v0v[0], 10.0f * 0.02f, 1e-5); /* all of it, off */
    const float q = v15[0] / v0v[0];
    assert_true(q > 0.28f && q < 0.36f); /* (c - 15) / 15 with c 19.2 .. 20.4 m/s */
}

/* A copier carries its front's share, not its own closing speed: birds 16 and 30 m to either side of the three under
 * the dive (the falcon above the row's centre, beyond escape_radius from them at first, the dive closing on them at
 * about 15 and 11 m/s: under v0 15 their own share would be about 0 and 0) copy the birds under the dive, the outer
 * ones through them, and each spreads in its first tick with about a third of off's spread, as the birds under it. */
static void falcon_spread_speed_carried(void **st)
{
    (void)st;
    static const float XS[7] = {-30.0f, -16.0f, -2.0f, 0.0f, 2.0f, 16.0f, 30.0f};
    float p[21], va[21], vb[21];
    int first[7], fa[7], fb[7];
    row_under(XS, 7, 20.0f, 0.0f, 60, p, va, first);
    /* the copies, outwards from the birds under the dive */
    assert_true(first[2] >= 0 && first[1] > first[2] && first[0] > first[1]);
    for (int m = 0; m < 3; m++) {
        const int t = first[m];
        row_under(XS, 7, 20.0f, 0.0f, t + 1, p, va, fa);
        row_under(XS, 7, 20.0f, 15.0f, t + 1, p, vb, fb);
        assert_int_equal(fb[m], t);
        assert_true(va[3 * m] < 0.0f); /* away from its neighbours, which are at +x */
        const float q = vb[3 * m] / va[3 * m];
        assert_true(q > 0.28f && q < 0.36f);
    }
}

/* Bad values: one line naming the value and the range; 0 (off) is the default. */
static void falcon_spread_speed_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_spread_speed=-1", "escape_spread_speed=1000.5", "escape_spread_speed=nan",
                                      "escape_spread_speed=inf"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_spread_speed");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_spread_speed=0", NULL));
    assert_true(mur_def_set_pair(&d, "escape_spread_speed=1000", NULL));
    assert_true(mur_flock_default_def().escape_spread_speed == 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_spread_speed_full),
        cmocka_unit_test(falcon_spread_speed_gate),
        cmocka_unit_test(falcon_spread_speed_carried),
        cmocka_unit_test(falcon_spread_speed_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
