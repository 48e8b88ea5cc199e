/* Hard-core separation (`separation_stiff`, `separation_stiff_radius`; issue 24, twentieth round `model22`;
 * docs/rules.md): the closest neighbour d away pushes with the separation kernel K(d) (1 - d / r, or
 * separation_smooth's) plus k (r_c / max(d, r_c / 10) - 1) while d < r_c. Constructed neighbourhoods of one
 * bird (at the origin, flying (0, 0, 1), dt 1, every other rule off) whose answer is worked out by hand. */
#include "starling_util.h"

static mur_flock_def stiff_def(float k, float rc)
{
    mur_flock_def d = topo_def(3, 10.0f);
    d.hard_radius = 0.0f;
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.separation_stiff = k;
    d.separation_stiff_radius = rc;
    return d;
}

/* boid 0's new velocity with its closest neighbour at (0, y, 0) and a second one at (3, 0, 0), beyond the
 * separation radius: (0, -want, 1) */
static void push_case(mur_flock_def d, float y, double want)
{
    const float nb[2][3] = {{0, y, 0}, {3, 0, 0}};
    one_tick(d, 2, nb, (const double[3]){0.0, -want, 1.0});
}

static void inside_the_core(void **st)
{
    (void)st;
    /* d = 0.5, r = 2: the linear kernel 0.75; r_c = 1: k (1 / 0.5 - 1) = k more */
    push_case(stiff_def(0.0f, 1.0f), 0.5f, 0.75);  /* off */
    push_case(stiff_def(1.0f, 1.0f), 0.5f, 1.75);
    push_case(stiff_def(2.5f, 1.0f), 0.5f, 3.25);
    /* r_c = 2 (the whole separation radius): 0.75 + 1 * (2 / 0.5 - 1) = 3.75 */
    push_case(stiff_def(1.0f, 2.0f), 0.5f, 3.75);
    /* d = 0.8 with r_c = 1: 0.6 + 4 * (1 / 0.8 - 1) = 1.6 */
    push_case(stiff_def(4.0f, 1.0f), 0.8f, 1.6);
    /* the weight scales the whole push: separation 2 gives 2 * 1.75 */
    mur_flock_def d = stiff_def(1.0f, 1.0f);
    d.separation = 2.0f;
    push_case(d, 0.5f, 3.5);
}

static void outside_the_core(void **st)
{
    (void)st;
    /* d = 1.5 beyond r_c = 1: the kernel alone, 0.25, whatever k */
    push_case(stiff_def(0.0f, 1.0f), 1.5f, 0.25);
    push_case(stiff_def(10.0f, 1.0f), 1.5f, 0.25);
    /* exactly at r_c: nothing added */
    push_case(stiff_def(10.0f, 1.0f), 1.0f, 0.5);
}

static void capped_and_smooth(void **st)
{
    (void)st;
    /* d = 0.05 below r_c / 10 = 0.1: the added push is capped at k (10 - 1) = 9 k: 0.975 + 9 */
    push_case(stiff_def(1.0f, 1.0f), 0.05f, 9.975);
    /* separation_smooth: t = 0.25, 1 - smootherstep(t) = 1 - 0.015625 * 6.625 = 0.896484375, plus 1 */
    mur_flock_def d = stiff_def(1.0f, 1.0f);
    d.separation_smooth = true;
    push_case(d, 0.5f, 1.896484375);
}

static void refused(void **st)
{
    (void)st;
    mur_error err = {{0}};
    mur_flock_def d = stiff_def(2.0f, 1.0f);
    d.separation_nearest = 2;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_stiff 2 needs separation_nearest=1 and separation_view=360"));
    d = stiff_def(2.0f, 1.0f);
    d.separation_view = 180.0f;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_view 180"));
    d = stiff_def(2.0f, 1.0f);
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.separation_nearest = 0;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_stiff 2 needs neighbours=topological"));
    d = stiff_def(2.0f, 2.5f); /* the core beyond the separation radius */
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_stiff_radius 2.5: need 0 < separation_stiff_radius <= separation_radius (2)"));
    d = stiff_def(2.0f, 0.0f);
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_stiff_radius 0"));
    d = stiff_def(0.0f, 0.0f); /* off: the radius is not read */
    mur_flock *f = mur_flock_create(&d, &err);
    assert_non_null(f);
    mur_flock_destroy(f);
    assert_false(mur_def_set_pair(&d, "separation_stiff=101", &err));
    assert_non_null(strstr(err.msg, "separation_stiff"));
    assert_false(mur_def_set_pair(&d, "separation_stiff=-1", &err));
    assert_false(mur_def_set_pair(&d, "separation_stiff=nan", &err));
    assert_true(mur_def_set_pair(&d, "separation_stiff=3", &err));
    assert_true(mur_def_set_pair(&d, "separation_stiff_radius=1.5", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inside_the_core),
        cmocka_unit_test(outside_the_core),
        cmocka_unit_test(capped_and_smooth),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
