/* The lone bird's pull (`lone_pull`; issue 24, twenty-second round; docs/rules.md): a bird whose closest
 * neighbour is d >= r = separation_radius away steers towards it, lone_pull * min(1, (d - r) / r) * unit(d),
 * and feels nothing from it where d <= r. Constructed neighbourhoods of one bird (at the origin, flying (0, 0, 1),
 * dt 1, every other rule off, separation's weight 0 with its radius 1) whose answer is worked out by hand. */
#include "starling_util.h"

/* boid 0's velocity after one tick among neighbours nb[0..n-1] flying (0, 0, 1), lone_pull g */
static void lone_case(int n, const float nb[][3], float g, const double want[3])
{
    mur_flock_def d = topo_def(n + 1, 10.0f);
    d.separation_radius = 1.0f;
    d.separation_nearest = 1;
    d.lone_pull = g;
    float v[3];
    tick_vel(d, n, nb, 1.0f, v);
    assert_vec(v, want[0], want[1], want[2], 1e-5);
}

static void ramp_from_the_radius(void **st)
{
    (void)st;
    /* the closest at 1.5 along x: (1.5 - 1) / 1 = 0.5 of g towards it; the second (3 along y) plays no part */
    const float near15[2][3] = {{1.5f, 0, 0}, {0, 3.0f, 0}};
    lone_case(2, near15, 2.0f, (const double[3]){1.0, 0.0, 1.0});
    lone_case(2, near15, 0.5f, (const double[3]){0.25, 0.0, 1.0});
    /* the closest at 3 along -y, beyond 2 r: the whole g */
    const float far3[2][3] = {{0, -3.0f, 0}, {0, 0, 4.0f}};
    lone_case(2, far3, 2.0f, (const double[3]){0.0, -2.0, 1.0});
    /* along a diagonal at 1.2 * sqrt(2) = 1.69706: (0.69706) g along (1, 1, 0) / sqrt(2) */
    const float diag[1][3] = {{1.2f, 1.2f, 0}};
    lone_case(1, diag, 1.0f, (const double[3]){0.49290, 0.49290, 1.0});
    lone_case(2, near15, 0.0f, (const double[3]){0.0, 0.0, 1.0}); /* off */
}

static void within_reach(void **st)
{
    (void)st;
    /* the closest at 0.8 (inside the separation radius) and others at 3: no pull at all; at exactly r neither */
    const float held[3][3] = {{0.8f, 0, 0}, {0, 3.0f, 0}, {0, -3.0f, 0}};
    lone_case(3, held, 5.0f, (const double[3]){0.0, 0.0, 1.0});
    const float at_r[2][3] = {{1.0f, 0, 0}, {0, 3.0f, 0}};
    lone_case(2, at_r, 5.0f, (const double[3]){0.0, 0.0, 1.0});
}

static void separation_alone_inside(void **st)
{
    (void)st;
    /* with separation on (weight 1, radius 2, the closest only): the closest at 1.5 along x pushes with
     * 1 - 1.5 / 2 = 0.25 away and the lone pull (g 4) adds nothing; at 3 separation is 0 and the pull is
     * 4 * min(1, (3 - 2) / 2) = 2 towards it */
    mur_flock_def d = topo_def(3, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.lone_pull = 4.0f;
    float v[3];
    const float in[2][3] = {{1.5f, 0, 0}, {0, 5.0f, 0}};
    tick_vel(d, 2, in, 1.0f, v);
    assert_vec(v, -0.25, 0.0, 1.0, 1e-5);
    const float out[2][3] = {{3.0f, 0, 0}, {0, 5.0f, 0}};
    tick_vel(d, 2, out, 1.0f, v);
    assert_vec(v, 2.0, 0.0, 1.0, 1e-5);
}

static void refused(void **st)
{
    (void)st;
    /* a held reaction has no closest offset, metric neighbours no closest: refused with a one-line error; the
     * table's range 0..100 */
    mur_flock_def d = topo_def(3, 10.0f);
    d.lone_pull = 3.0f;
    d.reaction_ticks = 2;
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "lone_pull 3 needs reaction_ticks=1"));
    d.reaction_ticks = 1;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "lone_pull 3 needs neighbours=topological"));
    assert_false(mur_def_set_pair(&d, "lone_pull=101", &err));
    assert_non_null(strstr(err.msg, "lone_pull"));
    assert_false(mur_def_set_pair(&d, "lone_pull=-1", &err));
    assert_false(mur_def_set_pair(&d, "lone_pull=nan", &err));
    assert_true(mur_def_set_pair(&d, "lone_pull=2.5", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ramp_from_the_radius),
        cmocka_unit_test(within_reach),
        cmocka_unit_test(separation_alone_inside),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
