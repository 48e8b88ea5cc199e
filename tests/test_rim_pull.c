/* The short-range rim pull (`rim_pull`, `rim_spacing`, `rim_from`; issue 24, round s18; docs/rules.md):
 * an exposed bird steers towards its 3 closest neighbours, rim_pull * t * (1/3) sum_q h(d_q / s0) unit(d_q),
 * h(x) = 4 (x - 1) (2 - x) on (1, 2) and 0 elsewhere, t = clamp((C - rim_from) / (1 - rim_from), 0, 1),
 * C = |mean unit direction to the neighbours|. Constructed neighbourhoods of one bird (at the origin,
 * flying (0, 0, 1), dt 1, every other rule off) whose answer is worked out by hand. */
#include "starling_util.h"

/* boid 0's velocity after one tick among neighbours nb[0..n-1] flying (0, 0, 1) (topo_k = n, no blind angle),
 * rim_pull g with spacing 1 from c0 */
static void rim_case(int n, const float nb[][3], float g, float c0, const double want[3])
{
    mur_flock_def d = topo_def(n + 1, 10.0f);
    d.rim_pull = g;
    d.rim_spacing = 1.0f;
    d.rim_from = c0;
    float v[3];
    tick_vel(d, n, nb, 1.0f, v); /* the neighbours fly along with it, (0, 0, 1) */
    assert_vec(v, want[0], want[1], want[2], 1e-5);
}

static void exposed_bird(void **st)
{
    (void)st;
    /* neighbours at 1.5 along x and y (h(1.5) = 1) and at 3 along z (beyond 2 s0: h = 0). C =
     * |(1, 0, 0) + (0, 1, 0) + (0, 0, 1)| / 3 = 0.57735. From 0: t = C, the pull C / 3 = 0.19245 along x
     * and y, none along z. From 0.5: t = (0.57735 - 0.5) / 0.5 = 0.15470, 0.051567. From 0.6 (above C): none. */
    const float edge[3][3] = {{1.5f, 0, 0}, {0, 1.5f, 0}, {0, 0, 3}};
    rim_case(3, edge, 1.0f, 0.0f, (const double[3]){0.19245, 0.19245, 1.0});
    rim_case(3, edge, 2.0f, 0.0f, (const double[3]){0.38490, 0.38490, 1.0});
    rim_case(3, edge, 1.0f, 0.5f, (const double[3]){0.051567, 0.051567, 1.0});
    rim_case(3, edge, 1.0f, 0.6f, (const double[3]){0.0, 0.0, 1.0});
    rim_case(3, edge, 0.0f, 0.0f, (const double[3]){0.0, 0.0, 1.0}); /* off */
}

static void nearest_three_only(void **st)
{
    (void)st;
    /* four neighbours on +x (C = 1, t = 1): at 0.9 (inside s0: h = 0), 1.25 and 1.75 (h = 4 * 0.25 *
     * 0.75 = 0.75 each) and 1.9, the fourth closest (h would be 0.36): (0 + 0.75 + 0.75) / 3 = 0.5 */
    const float line[4][3] = {{0.9f, 0, 0}, {1.25f, 0, 0}, {1.75f, 0, 0}, {1.9f, 0, 0}};
    rim_case(4, line, 1.0f, 0.0f, (const double[3]){0.5, 0.0, 1.0});
}

static void interior_bird(void **st)
{
    (void)st;
    /* four neighbours around it at 1.5 in the x-y plane: C = 0, no pull even from rim_from 0 */
    const float ring[4][3] = {{1.5f, 0, 0}, {-1.5f, 0, 0}, {0, 1.5f, 0}, {0, -1.5f, 0}};
    rim_case(4, ring, 5.0f, 0.0f, (const double[3]){0.0, 0.0, 1.0});
}

static void refused(void **st)
{
    (void)st;
    /* a held reaction has no rim sums, metric neighbours no closest three: refused with a one-line error;
     * a spacing of 0 by the table */
    mur_flock_def d = topo_def(3, 10.0f);
    d.rim_pull = 4.0f;
    d.reaction_ticks = 2;
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "rim_pull 4 needs reaction_ticks=1"));
    d.reaction_ticks = 1;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "rim_pull 4 needs neighbours=topological"));
    assert_false(mur_def_set_pair(&d, "rim_spacing=0", &err));
    assert_non_null(strstr(err.msg, "rim_spacing"));
    assert_true(mur_def_set_pair(&d, "rim_spacing=1.2", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exposed_bird),
        cmocka_unit_test(nearest_three_only),
        cmocka_unit_test(interior_bird),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
