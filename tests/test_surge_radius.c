/* Separation full along the flight at close range (`surge_separation_radius`; issue 24, round s19;
 * docs/rules.md): with surge_separation sigma >= 0, separation's part along the flight direction is
 * scaled by 1 while the closest neighbour is nearer than the radius and by sigma from it on. Constructed
 * neighbourhoods of one bird (at the origin, flying (0, 0, 1), dt 1, still neighbours), worked out by
 * hand as test_starling.c's surge_separation case, through the batched update and the scalar one
 * (up_order on sends the tick through rules_boid.c and, with no vertical pull, changes nothing else). */
#include "starling_util.h"

/* starling_util.h's surge_sep_def with surge_separation sigma and its radius */
static mur_flock_def surge_def(float sigma, float radius, bool scalar)
{
    mur_flock_def d = surge_sep_def();
    d.surge_separation = sigma;
    d.surge_separation_radius = radius;
    if (scalar)
        d.up_order = 0.5f;
    return d;
}

static void close_neighbour(void **st)
{
    (void)st;
    /* the closest neighbour 0.5 ahead pushes back 0.75; cohesion pulls toward (1, 0, 1.25). Along the
     * flight: surge 0.5 keeps 0.5 * (1.25 - 0.75) = 0.25, then separation's (sigma - 0.5) * -0.75:
     * sigma 0 gives vz 1.625, sigma 1 (full) vz 0.875. A radius above 0.5 makes it full whatever sigma;
     * a radius at or below 0.5 leaves sigma; 0 is off. */
    const float nb[2][3] = {{0, 0, 0.5f}, {2, 0, 2}};
    for (int scalar = 0; scalar < 2; scalar++) {
        one_tick(surge_def(0.0f, 0.0f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.625});
        one_tick(surge_def(0.0f, 1.0f, scalar), 2, nb, (const double[3]){1.0, 0.0, 0.875});
        one_tick(surge_def(0.0f, 0.51f, scalar), 2, nb, (const double[3]){1.0, 0.0, 0.875});
        one_tick(surge_def(0.0f, 0.5f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.625});
        one_tick(surge_def(0.0f, 0.4f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.625});
        one_tick(surge_def(0.3f, 1.0f, scalar), 2, nb, (const double[3]){1.0, 0.0, 0.875});
        one_tick(surge_def(0.3f, 0.4f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.4});
    }
    /* with surge 1 (off), sigma 0 and a radius of 1: full, the plain sum (1, 0, 1 + 1.25 - 0.75) */
    mur_flock_def d = surge_def(0.0f, 1.0f, false);
    d.surge = 1.0f;
    one_tick(d, 2, nb, (const double[3]){1.0, 0.0, 1.5});
}

static void far_neighbour(void **st)
{
    (void)st;
    /* the closest neighbour 1.5 ahead pushes back 0.25; cohesion pulls toward (1, 0, 1.75). Along the
     * flight surge keeps 0.5 * 1.5 = 0.75, then (sigma - 0.5) * -0.25: with a radius of 1 (1.5 beyond it)
     * sigma 0 gives vz 1.875; with a radius of 2 separation is full, vz 1.625 */
    const float nb[2][3] = {{0, 0, 1.5f}, {2, 0, 2}};
    for (int scalar = 0; scalar < 2; scalar++) {
        one_tick(surge_def(0.0f, 1.0f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.875});
        one_tick(surge_def(0.0f, 2.0f, scalar), 2, nb, (const double[3]){1.0, 0.0, 1.625});
    }
}

static void across_the_flight(void **st)
{
    (void)st;
    /* the closest neighbour 0.5 to the side: its push (-0.75, 0, 0) is across the flight, which no
     * surge scales; cohesion pulls toward (1.25, 0, 1): vz 1 + 0.5, vx 1.25 - 0.75, any radius */
    const float nb[2][3] = {{0.5f, 0, 0}, {2, 0, 2}};
    for (int scalar = 0; scalar < 2; scalar++) {
        one_tick(surge_def(0.0f, 0.0f, scalar), 2, nb, (const double[3]){0.5, 0.0, 1.5});
        one_tick(surge_def(0.0f, 1.0f, scalar), 2, nb, (const double[3]){0.5, 0.0, 1.5});
    }
}

static void refused(void **st)
{
    (void)st;
    /* without separation's own surge the radius has nothing to scale; metric neighbours have no closest
     * neighbour in their sums: refused with a one-line error; a negative radius by the table */
    mur_flock_def d = surge_def(-1.0f, 1.0f, false);
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "surge_separation_radius 1 needs surge_separation 0..1"));
    d.surge_separation = 0.4f;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.separation_nearest = 0; /* topological only too */
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "surge_separation_radius 1 needs neighbours=topological"));
    assert_false(mur_def_set_pair(&d, "surge_separation_radius=-1", &err));
    assert_non_null(strstr(err.msg, "surge_separation_radius"));
    assert_true(mur_def_set_pair(&d, "surge_separation_radius=1.2", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(close_neighbour),
        cmocka_unit_test(far_neighbour),
        cmocka_unit_test(across_the_flight),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
