/* Outward separation relief (`separation_outward`, `separation_outward_from`; issue 24, twenty-first round
 * `model23`; docs/rules.md): an exposed bird's separation push s loses min(1, e t) (s.n) n where s.n > 0, n = -u / |u|
 * the outward normal, u the mean unit direction to its neighbours, t = clamp((C - C0) / (1 - C0), 0, 1),
 * C = min(1, |u|). Constructed neighbourhoods of one bird (at the origin, flying (0, 0, 1), dt 1, every other
 * rule off, separation 1 from the closest neighbour within 2: a push of 1 - d / 2 away from it). */
#include <math.h>

#include "starling_util.h"

static mur_flock_def out_def(float e, float from)
{
    mur_flock_def d = topo_def(3, 10.0f);
    d.hard_radius = 0.0f;
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.separation_outward = e;
    d.separation_outward_from = from;
    return d;
}

/* A rim bird: its closest neighbour 1 below it (a push of 0.5 straight up, out of the flock) and two more
 * lower down at (+-2, -4, 0). u = (0, -(1 + 8 / sqrt(20)) / 3, 0), C = |u| = 0.929618; the push is all
 * outward, so it keeps 1 - e t of it. */
static void outward_push_is_cut(void **st)
{
    (void)st;
    const float nb[3][3] = {{0, -1, 0}, {2, -4, 0}, {-2, -4, 0}};
    const double c = (1.0 + 8.0 / sqrt(20.0)) / 3.0;
    one_tick(out_def(0.0f, 0.35f), 3, nb, (const double[3]){0.0, 0.5, 1.0}); /* off: the whole push */
    const double t = (c - 0.35) / 0.65;                                       /* 0.891720 */
    one_tick(out_def(1.0f, 0.35f), 3, nb, (const double[3]){0.0, 0.5 * (1.0 - t), 1.0});
    one_tick(out_def(0.5f, 0.35f), 3, nb, (const double[3]){0.0, 0.5 * (1.0 - 0.5 * t), 1.0});
    /* e t above 1 takes the whole outward part and no more: no pull inward */
    one_tick(out_def(2.0f, 0.35f), 3, nb, (const double[3]){0.0, 0.0, 1.0});
    one_tick(out_def(1.1f, 0.35f), 3, nb, (const double[3]){0.0, 0.5 * (1.0 - 1.1 * t), 1.0}); /* 1.1 t = 0.98 */
    one_tick(out_def(1.0f, 0.0f), 3, nb, (const double[3]){0.0, 0.5 * (1.0 - c), 1.0}); /* t = C from 0 */
    /* gated from 0.95, above this bird's C: the whole push */
    one_tick(out_def(1.0f, 0.95f), 3, nb, (const double[3]){0.0, 0.5, 1.0});
}

/* The part along the surface stays: the closest neighbour at (0.6, -0.8, 0), 1 away (a push of 0.5 along
 * (-0.6, 0.8, 0)), two more at (0, -4, 0) and (0, -5, 0). u = (0.2, -0.2 - 2 / 3 ... ) worked out below; the
 * push loses e t (s.n) n only. */
static void surface_part_stays(void **st)
{
    (void)st;
    const float nb[3][3] = {{0.6f, -0.8f, 0}, {0, -4, 0}, {0, -5, 0}};
    const double ux = 0.6 / 3.0, uy = (-0.8 - 1.0 - 1.0) / 3.0, m = sqrt(ux * ux + uy * uy);
    const double nx = -ux / m, ny = -uy / m, sx = -0.3, sy = 0.4;
    const double p = sx * nx + sy * ny, t = (m - 0.35) / 0.65;
    assert_true(p > 0.0);
    const double wx = sx - t * p * nx, wy = sy - t * p * ny;
    one_tick(out_def(1.0f, 0.35f), 3, nb, (const double[3]){wx, wy, 1.0});
    /* what is left is along the surface: at right angles to n */
    assert_true(fabs(wx * nx + wy * ny - (1.0 - t) * p) < 1e-12);
}

/* A push that points into the flock is left whole: the closest neighbour 1 above (a push of 0.5 down), two
 * more 4 and 5 below; u = (0, (1 - 2) / 3, 0), C = 1/3, n = (0, 1, 0), s.n = -0.5. */
static void inward_push_stays(void **st)
{
    (void)st;
    const float nb[3][3] = {{0, 1, 0}, {0, -4, 0}, {0, -5, 0}};
    one_tick(out_def(1.0f, 0.0f), 3, nb, (const double[3]){0.0, -0.5, 1.0});
}

/* An interior bird (neighbours all round, C = 0 below any gate) keeps its push. */
static void interior_stays(void **st)
{
    (void)st;
    const float nb[4][3] = {{0, -1, 0}, {0, 3, 0}, {3, 0, 0}, {-3, 0, 0}};
    mur_flock_def d = out_def(1.0f, 0.0f);
    d.topo_k = 4.0f;
    one_tick(d, 4, nb, (const double[3]){0.0, 0.5, 1.0});
}

static void refused(void **st)
{
    (void)st;
    mur_error err = {{0}};
    mur_flock_def d = out_def(0.5f, 0.35f);
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.separation_nearest = 0;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_outward 0.5 needs neighbours=topological"));
    assert_false(mur_def_set_pair(&d, "separation_outward=10.5", &err));
    assert_non_null(strstr(err.msg, "separation_outward"));
    assert_false(mur_def_set_pair(&d, "separation_outward=-0.1", &err));
    assert_false(mur_def_set_pair(&d, "separation_outward=nan", &err));
    assert_false(mur_def_set_pair(&d, "separation_outward_from=0.99", &err));
    assert_true(mur_def_set_pair(&d, "separation_outward=0.8", &err));
    assert_true(mur_def_set_pair(&d, "separation_outward_from=0.5", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outward_push_is_cut),
        cmocka_unit_test(surface_part_stays),
        cmocka_unit_test(inward_push_stays),
        cmocka_unit_test(interior_stays),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
