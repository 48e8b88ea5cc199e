/* Exposure-gated cohesion (`centrality_from`, issue 24, round s17; docs/rules.md): with centrality p
 * and centrality_from C0, cohesion is scaled by t^p, t = clamp((C - C0) / (1 - C0), 0, 1), instead of
 * C^p, C = |mean unit direction to the neighbours|. Constructed neighbourhoods of one bird (at the
 * origin, flying (0, 0, 1), dt 1) whose answer is worked out by hand. */
#include "starling_util.h"

/* boid 0's velocity after one tick among neighbours nb[0..n-1] flying (0, 0, 1) (topo_k = n, no blind angle),
 * cohesion 1 (no ramp) towards their centre, centrality p from c0 */
static void cohesion_case(int n, const float nb[][3], float p, float c0, const double want[3])
{
    mur_flock_def d = topo_def(n + 1, 10.0f);
    d.cohesion = 1.0f;
    d.centrality = p;
    d.centrality_from = c0;
    float v[3];
    tick_vel(d, n, nb, 1.0f, v); /* the neighbours fly along with it, (0, 0, 1) */
    assert_vec(v, want[0], want[1], want[2], 1e-5);
}

static void exposed_bird(void **st)
{
    (void)st;
    /* both neighbours on one side, centre offset (1, 1, 0): C = |((1, 0, 0) + (0, 1, 0)) / 2| = 0.70711.
     * centrality 2 alone: C^2 = 1/2 of the pull, (0.5, 0.5). From C0 0.4: t = (0.70711 - 0.4) / 0.6 =
     * 0.51184, t^2 = 0.26198. With p 1 from 0.4: t = 0.51184. From 0.8 (above C): no pull. */
    const float edge[2][3] = {{2, 0, 0}, {0, 2, 0}};
    cohesion_case(2, edge, 2.0f, 0.0f, (const double[3]){0.5, 0.5, 1.0});
    cohesion_case(2, edge, 2.0f, 0.4f, (const double[3]){0.26198, 0.26198, 1.0});
    cohesion_case(2, edge, 1.0f, 0.4f, (const double[3]){0.51184, 0.51184, 1.0});
    cohesion_case(2, edge, 1.0f, 0.8f, (const double[3]){0.0, 0.0, 1.0});
}

static void interior_bird(void **st)
{
    (void)st;
    /* an interior bird: neighbours at (2, 0, 0), (0, 2, 0) and (-1, 0, 0), centre offset (1/3, 2/3, 0),
     * C = |(1, 0, 0) + (0, 1, 0) + (-1, 0, 0)| / 3 = 1/3. Centrality 1 alone pulls (1/9, 2/9); from
     * C0 0.4 (above C) it feels no cohesion; from 0.2, t = (1/3 - 0.2) / 0.8 = 1/6: (1/18, 1/9). */
    const float mid[3][3] = {{2, 0, 0}, {0, 2, 0}, {-1, 0, 0}};
    cohesion_case(3, mid, 1.0f, 0.0f, (const double[3]){1.0 / 9.0, 2.0 / 9.0, 1.0});
    cohesion_case(3, mid, 1.0f, 0.4f, (const double[3]){0.0, 0.0, 1.0});
    cohesion_case(3, mid, 1.0f, 0.2f, (const double[3]){1.0 / 18.0, 1.0 / 9.0, 1.0});
}

static void refused(void **st)
{
    (void)st;
    /* without centrality there is nothing to gate: refused with a one-line error naming it; out of
     * range refused by the table */
    mur_flock_def d = topo_def(3, 10.0f);
    d.centrality_from = 0.4f;
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "centrality_from 0.4 needs centrality > 0"));
    d.centrality = 2.0f;
    assert_false(mur_def_set_pair(&d, "centrality_from=1", &err));
    assert_non_null(strstr(err.msg, "centrality_from"));
    assert_true(mur_def_set_pair(&d, "centrality_from=0.35", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exposed_bird),
        cmocka_unit_test(interior_bird),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
