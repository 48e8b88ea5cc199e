/* Issue 24's vertical pulls on the starling flock (src/sim/starling.c): the skin (skin, skin_edge,
 * skin_rim), the caps pull (cohesion_caps, separation_caps) and the order of the up terms; split from
 * test_starling.c. */
#include "starling_util.h"

/* Seven neighbours on a unit ring one unit below the origin, at (cos t, -1, sin t), t = 2 pi j / 7, and
 * the same ring above it (the skin's and the caps pull's cases). */
static void rings7(float below[7][3], float above[7][3])
{
    for (int j = 0; j < 7; j++) {
        const double t = 2.0 * 3.14159265358979323846 * j / 7.0;
        below[j][0] = above[j][0] = (float)cos(t);
        below[j][2] = above[j][2] = (float)sin(t);
        below[j][1] = -1.0f;
        above[j][1] = 1.0f;
    }
}

/* Issue 24, twelfth round: the skin. Boid 0 flies along +z (dt 1) with its 7 neighbours below it at
 * (cos t, -1, sin t), t = 2 pi j / 7: the mean unit direction to them is (0, -1/sqrt 2, 0), so skin 2
 * with skin_edge 2 pulls it down by 2 * 1/2 = 1 and skin_edge 4 by 2 * 1/4 = 0.5; mirrored above, up
 * by 1. With three neighbours above, three mirrored below and one behind (u_y = 0) it is not pulled;
 * nothing acts sideways. Out of range and with metric neighbours it is refused (skin_rim too). */
static void skin(void **st)
{
    (void)st;
    float below[7][3], above[7][3], both[7][3];
    rings7(below, above);
    for (int k = 0; k < 3; k++) {
        const double t = 2.0 * 3.14159265358979323846 * k / 3.0;
        for (int m = 0; m < 2; m++) {
            both[2 * k + m][0] = (float)cos(t);
            both[2 * k + m][1] = m ? -1.0f : 1.0f;
            both[2 * k + m][2] = (float)sin(t);
        }
    }
    both[6][0] = both[6][1] = 0.0f;
    both[6][2] = -1.0f;
    mur_flock_def d = topo_def(8, 10.0f);
    d.skin = 2.0f;
    d.skin_edge = 2.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -1.0, 1.0});
    one_tick(d, 7, (const float(*)[3])above, (const double[3]){0.0, 1.0, 1.0});
    one_tick(d, 7, (const float(*)[3])both, (const double[3]){0.0, 0.0, 1.0});
    d.skin_edge = 4.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -0.5, 1.0});
    d.skin = 0.0f; /* off: not pulled */
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, 0.0, 1.0});
    /* the rim part: 7 neighbours at (1, cos t, sin t) on its right, mean unit direction (1/sqrt 2, 0, 0):
     * skin_rim 2 with skin_edge 2 pulls it along +x by 1 (the vertical skin is off); with the 7 below
     * (u_h = 0) not at all */
    float side[7][3];
    for (int j = 0; j < 7; j++) {
        const double t = 2.0 * 3.14159265358979323846 * j / 7.0;
        side[j][0] = 1.0f;
        side[j][1] = (float)cos(t);
        side[j][2] = (float)sin(t);
    }
    d.skin_edge = 2.0f;
    d.skin_rim = 2.0f;
    one_tick(d, 7, (const float(*)[3])side, (const double[3]){1.0, 0.0, 1.0});
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, 0.0, 1.0});
    d.skin_rim = 0.0f;
    mur_error err = {{0}};
    assert_false(mur_def_set_pair(&d, "skin=-1", &err));
    assert_non_null(strstr(err.msg, "skin"));
    assert_false(mur_def_set_pair(&d, "skin_edge=0.5", &err));
    assert_non_null(strstr(err.msg, "skin_edge"));
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    const float on[2][2] = {{2.0f, 0.0f}, {0.0f, 1.0f}}; /* skin, then skin_rim alone */
    for (int q = 0; q < 2; q++) {
        d.skin = on[q][0];
        d.skin_rim = on[q][1];
        assert_null(mur_flock_create(&d, &err));
        assert_non_null(strstr(err.msg, q ? "skin_rim" : "skin"));
    }
}

/* Issue 24, round s16: the caps pull. Boid 0 flies along +z (dt 1) with its 7 neighbours below it at
 * (cos t, -1, sin t), t = 2 pi j / 7: cohesion 1 pulls it by the mean offset (0, -1, 0), and the mean
 * unit direction to them is (0, -1/sqrt 2, 0), |u_y| = 0.70711. With pitch 0.25 it keeps 0.25 of the
 * up part (-0.25); with cohesion_caps 1 from 0.2, t = (0.70711 - 0.2) / 0.8 = 0.63388 and it keeps
 * 0.25 + 0.63388 * 0.75 = 0.72541 of it, with 2 0.25 + 2 * 0.63388 * 0.75 = 1.20083; from 0.8 (above
 * 0.70711) only the pitch's 0.25. Mirrored above, up. An interior bird, one neighbour at (0, 1, 0) and one
 * at (0, -3, 0) (cohesion's up part -1, u_y = 0), keeps the pitch's -0.25. With lift and bank, level and
 * unbanked, the up axis is the vertical: the same. Out of range and with metric neighbours: refused.
 * separation_caps gives separation's up part back by the same share (below). */
static void cohesion_caps(void **st)
{
    (void)st;
    float below[7][3], above[7][3];
    rings7(below, above);
    const float inside[2][3] = {{0, 1, 0}, {0, -3, 0}};
    mur_flock_def d = topo_def(8, 10.0f);
    d.cohesion = 1.0f;
    d.pitch = 0.25f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -0.25, 1.0});
    d.cohesion_caps = 1.0f;
    d.cohesion_caps_from = 0.2f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -0.725413, 1.0});
    one_tick(d, 7, (const float(*)[3])above, (const double[3]){0.0, 0.725413, 1.0});
    one_tick(d, 2, inside, (const double[3]){0.0, -0.25, 1.0});
    d.cohesion_caps = 2.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -1.200825, 1.0});
    d.cohesion_caps_from = 0.8f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -0.25, 1.0});
    d.cohesion_caps = 1.0f;
    d.cohesion_caps_from = 0.2f;
    d.lift = true;
    d.bank = true;
    d.max_turn = 120.0f;
    d.bank_rate = 10.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, -0.725413, 1.0});
    one_tick(d, 2, inside, (const double[3]){0.0, -0.25, 1.0});
    /* separation_caps: separation 1 from all seven (radius 2, each at sqrt 2) pushes it up by (1 - sqrt 2 / 2)
     * / sqrt 2 = 0.20711, of which the pitch keeps 0.25 (0.051777), separation_caps 1 from 0.2 0.72541
     * (0.150238); cohesion_caps alone leaves the push at the pitch's */
    d = topo_def(8, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.pitch = 0.25f;
    d.cohesion_caps_from = 0.2f;
    d.cohesion_caps = 1.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, 0.051777, 1.0});
    d.separation_caps = 1.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, 0.150238, 1.0});
    d.cohesion_caps = 0.0f;
    one_tick(d, 7, (const float(*)[3])below, (const double[3]){0.0, 0.150238, 1.0});
    one_tick(d, 2, inside, (const double[3]){0.0, -0.0625, 1.0}); /* (0, 1, 0) pushes -0.5 / 2, pitched */
    mur_error err = {{0}};
    assert_false(mur_def_set_pair(&d, "separation_caps=11", &err));
    assert_non_null(strstr(err.msg, "separation_caps"));
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_caps 1 needs neighbours=topological"));
    d.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    d.separation_caps = 0.0f;
    d.cohesion_caps = 1.0f;
    assert_false(mur_def_set_pair(&d, "cohesion_caps=10.5", &err));
    assert_non_null(strstr(err.msg, "cohesion_caps"));
    assert_false(mur_def_set_pair(&d, "cohesion_caps_from=1", &err));
    assert_non_null(strstr(err.msg, "cohesion_caps_from"));
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "cohesion_caps 1 needs neighbours=topological"));
}

/* Issue 24, thirteenth round: the vertical pulls' order gate. The skin case above (7 neighbours below,
 * skin 2, skin_edge 2: pulled down by 1) with the neighbours flying (0, 0, 0.5): their mean velocity is
 * half boid 0's speed, so up_order 2 scales the pull by 0.5^2 = 0.25 and up_order 1 by 0.5; neighbours
 * flying (0, 0, 2) (faster: min(1, 2) = 1) or up_order 0 leave it whole, neighbours at rest (the mean
 * velocity 0) take it all. The rim part is scaled alike, and so is separation_up: one neighbour 1 below
 * inside separation_radius 2 with pitch 0 pushes boid 0 up only through separation_up, and the push
 * with the neighbour at half speed is 0.25 of the one up_order 0 gives. Out of range and with metric
 * neighbours it is refused. */
static void up_order(void **st)
{
    (void)st;
    float below[7][3], side[7][3];
    for (int j = 0; j < 7; j++) {
        const double t = 2.0 * 3.14159265358979323846 * j / 7.0;
        below[j][0] = (float)cos(t);
        below[j][1] = -1.0f;
        below[j][2] = (float)sin(t);
        side[j][0] = 1.0f;
        side[j][1] = (float)cos(t);
        side[j][2] = (float)sin(t);
    }
    mur_flock_def d = topo_def(8, 10.0f);
    d.skin = 2.0f;
    d.skin_edge = 2.0f;
    const struct {
        float order, nvz, want;
    } cases[] = {{0.0f, 0.5f, -1.0f}, {2.0f, 0.5f, -0.25f}, {1.0f, 0.5f, -0.5f}, {2.0f, 2.0f, -1.0f},
                 {2.0f, 0.0f, 0.0f},  {0.0f, 0.0f, -1.0f}};
    float v[3];
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++) {
        d.up_order = cases[q].order;
        tick_vel(d, 7, (const float(*)[3])below, cases[q].nvz, v);
        assert_vec(v, 0.0, cases[q].want, 1.0, 1e-5);
    }
    d.skin = 0.0f;
    d.skin_rim = 2.0f;
    d.up_order = 2.0f;
    tick_vel(d, 7, (const float(*)[3])side, 0.5f, v);
    assert_vec(v, 0.25, 0.0, 1.0, 1e-5);
    d.skin_rim = 0.0f;
    /* separation_up: the push with the gate against the one without */
    const float one_below[1][3] = {{0.0f, -1.0f, 0.0f}};
    mur_flock_def e = topo_def(2, 10.0f);
    e.separation = 1.0f;
    e.separation_radius = 2.0f;
    e.pitch = 0.0f;
    e.separation_up = 1.0f;
    float v0[3];
    tick_vel(e, 1, one_below, 0.5f, v0);
    assert_true(v0[1] > 0.1);
    e.up_order = 2.0f;
    tick_vel(e, 1, one_below, 0.5f, v);
    assert_near(v[1], 0.25 * v0[1], 1e-5);
    mur_error err = {{0}};
    assert_false(mur_def_set_pair(&d, "up_order=-1", &err));
    assert_non_null(strstr(err.msg, "up_order"));
    assert_false(mur_def_set_pair(&d, "up_order=17", &err));
    assert_non_null(strstr(err.msg, "up_order"));
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.up_order = 2.0f;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "up_order"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skin),
        cmocka_unit_test(cohesion_caps),
        cmocka_unit_test(up_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
