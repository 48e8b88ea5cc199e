/* The starling rules (src/sim/starling.c, the hard sphere of topo.c): the hard sphere keeps a
 * follower from overrunning, banking rolls into a turn within max_turn, the speed relaxes to
 * cruise_speed, centrality scales cohesion, and the presets set what they name. */
#include "starling_util.h"

/* A follower twice as fast right behind a leader that cannot see it: the hard sphere keeps them
 * hard_radius apart; without it the follower overruns. */
static double follower_gap(float hard)
{
    mur_flock_def d = topo_def(2, 10.0f);
    d.dt = 0.01f;
    d.hard_radius = hard;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 10, 0, 0);
    put(f, 1, -0.5f, 0, 0, 20, 0, 0);
    double least = 1e9;
    for (int t = 0; t < 20; t++) {
        mur_flock_step(f);
        mur_view v = mur_flock_view(f);
        double dx = v.pos[0] - v.pos[3];
        least = fabs(dx) < least ? fabs(dx) : least;
    }
    mur_flock_destroy(f);
    return least;
}

static void hard_sphere(void **st)
{
    (void)st;
    assert_true(follower_gap(0.2f) >= 0.2 * 0.9);
    assert_true(follower_gap(0.0f) < 0.05);
}

/* A boid steered sideways rolls into the turn (right turn: positive roll) and turns at most max_turn. */
static void banking(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(1, 10.0f);
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.dt = 0.01f;
    d.bank = true;
    d.max_turn = 90.0f;
    d.wind = true;
    d.wind_vel[0] = 0.0f; d.wind_vel[1] = 0.0f; d.wind_vel[2] = 50.0f; /* a push to the right of +x */
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 10, 0, 0);
    mur_flock_steps(f, 30);
    mur_view v = mur_flock_view(f);
    assert_true(v.roll[0] > 0.3f);
    const double heading = atan2((double)v.vel[2], (double)v.vel[0]) * 180.0 / 3.14159265358979;
    assert_true(heading > 0.0 && heading <= 90.0 * 0.3 + 1e-3);
    mur_flock_destroy(f);
    d.bank = false;
    f = make(&d);
    put(f, 0, 0, 0, 0, 10, 0, 0);
    mur_flock_steps(f, 30);
    assert_true(mur_flock_view(f).roll[0] == 0.0f);
    mur_flock_destroy(f);
}

/* Speed relaxes to cruise_speed with time constant speed_tau. */
static void cruise(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(1, 10.0f);
    d.dt = 0.001f;
    d.speed_tau = 1.0f;
    d.cruise_speed = 10.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 0, 0, 20);
    mur_flock_steps(f, 1000);
    mur_view v = mur_flock_view(f);
    assert_near(v.vel[2], 10.0 + 10.0 * exp(-1.0), 0.02);
    mur_flock_destroy(f);
}

/* Centrality (StarDisplay's circularity): cohesion times C^centrality, C = |mean unit direction to the
 * neighbours|. At an edge (both neighbours on one side: C = sqrt(1/2)) the pull is halved for
 * centrality 2; between its neighbours (C = 0) a boid feels no cohesion at all. */
static void centrality_case(const float nb[2][3], const double want[3])
{
    mur_flock_def d = topo_def(3, 10.0f);
    d.topo_k = 2.0f;
    d.view_angle = 360.0f;
    d.cohesion = 1.0f;
    d.centrality = 2.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 0, 0, 1);
    for (int j = 0; j < 2; j++)
        put(f, j + 1, nb[j][0], nb[j][1], nb[j][2], 0, 0, 1);
    mur_flock_steps(f, 1);
    assert_vec(mur_flock_view(f).vel, want[0], want[1], want[2], 1e-5);
    mur_flock_destroy(f);
}

static void centrality(void **st)
{
    (void)st;
    /* edge: centre offset (1, 1, 0), C^2 = 1/2 */
    centrality_case((const float[2][3]){{2, 0, 0}, {0, 2, 0}}, (const double[3]){0.5, 0.5, 1.0});
    /* between: centre offset (0.5, 0, 0) but C = 0 (classic cohesion would add 0.5 to vx) */
    centrality_case((const float[2][3]){{2, 0, 0}, {-1, 0, 0}}, (const double[3]){0.0, 0.0, 1.0});
    /* metric neighbours have no unit-direction sums: the def is refused */
    mur_flock_def d = topo_def(3, 10.0f);
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.centrality = 2.0f;
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "centrality"));
}

/* mur_flock_create refuses d with an error naming what */
static void assert_def_refused(mur_flock_def d, const char *what)
{
    mur_error err = {{0}};
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, what));
}

/* The counter-based draw of src/sim/core.c (splitmix64), written out again */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static float hash_unit(uint64_t seed, uint64_t a, uint64_t b)
{
    return (float)(mix64(seed ^ mix64(a ^ mix64(b + 0x632be59bd9b4e019ULL))) >> 40) * (1.0f / 16777216.0f);
}

/* Wander: two boids too far apart to see each other, alone in the first tick (tick 0); each adds
 * wander times its own unit vector (z = 2u - 1 up, azimuth 2 pi v, from the stream seed ^ 0x3a4de5 at
 * (tick, 2i) and (tick, 2i + 1)); with pitch 0.25 the up part keeps a quarter, and with wander_up
 * (issue 24, round s8) pitch + wander_up (1 - pitch) of it. Two threads give the same. */
static void wander_case(float pitch, float up, int threads)
{
    mur_flock_def d = topo_def(2, 10.0f);
    d.wander = 2.0f;
    d.pitch = pitch;
    d.wander_up = up;
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, threads);
    put(f, 0, -8, 0, 0, 0, 0, 1);
    put(f, 1, 8, 0, 0, 0, 0, 1);
    mur_flock_steps(f, 1);
    const mur_view v = mur_flock_view(f);
    for (int i = 0; i < 2; i++) {
        const uint64_t seed = d.seed ^ 0x3a4de5ULL;
        const double z = 2.0 * hash_unit(seed, 0, 2 * (uint64_t)i) - 1.0;
        const double phi = 2.0 * 3.14159265358979 * hash_unit(seed, 0, 2 * (uint64_t)i + 1);
        const double r = sqrt(1.0 - z * z);
        const double kup = (double)pitch + (double)up * (1.0 - (double)pitch);
        assert_vec(v.vel + 3 * i, 2.0 * r * cos(phi), kup * 2.0 * z, 1.0 + 2.0 * r * sin(phi), 1e-5);
    }
    /* two different draws */
    assert_true(fabs((double)v.vel[0] - (double)v.vel[3]) + fabs((double)v.vel[2] - (double)v.vel[5]) > 1e-3);
    mur_flock_destroy(f);
}

static void wander(void **st)
{
    (void)st;
    wander_case(1.0f, 0.0f, 1);
    wander_case(0.25f, 0.0f, 1);
    wander_case(1.0f, 0.0f, 2);
    wander_case(0.25f, 0.5f, 1); /* up part 0.625 of the draw's */
    wander_case(0.25f, 1.0f, 2); /* all of it */
}

/* Separation's own surge (issue 24, fifteenth round, third part): the closest neighbour, 0.5 ahead,
 * pushes back 0.75 (separation 1, radius 2, the closest one only); cohesion pulls toward the mean
 * offset (1, 0, 1.25) of it and the one at (2, 0, 2). The steering (1, 0, 0.5) keeps its part across
 * the flight (x); along it (z) surge 0.5 keeps half of both, 0.25 (vz 1.25); surge_separation 0 keeps
 * none of the separation's -0.75 and half of the cohesion's 1.25 (vz 1.625), 1 all of the separation's
 * (vz 0.875), and 0.5 is surge's own (vz 1.25); with surge 1 (off) surge_separation 0 scales the
 * separation alone (vz 2.25). Values between -1 and 0 are refused. */
static void surge_separation(void **st)
{
    (void)st;
    mur_flock_def d = surge_sep_def();
    const float nb[2][3] = {{0, 0, 0.5f}, {2, 0, 2}};
    const float sig[4] = {-1.0f, 0.0f, 1.0f, 0.5f};
    const double vz[4] = {1.25, 1.625, 0.875, 1.25};
    for (int q = 0; q < 4; q++) {
        d.surge_separation = sig[q];
        one_tick(d, 2, nb, (const double[3]){1.0, 0.0, vz[q]});
    }
    d.surge = 1.0f;
    d.surge_separation = 0.0f;
    one_tick(d, 2, nb, (const double[3]){1.0, 0.0, 2.25});
    d.surge_separation = -0.5f;
    assert_def_refused(d, "surge_separation -0.5: need -1");
}

/* Issue 24's flight model, each term by hand. Weak pitch: the cohesion toward (2, 2, 0) keeps its
 * horizontal part and a quarter of its vertical one. Separation from the closest one: only the
 * neighbour at 0.5 pushes, (1 - 0.5/2) = 0.75 away from it; from all: the mean of that and the 0.5
 * push from the one at 1. Cohesion ramp from 0.5 to 3: the neighbour at 0.4 does not pull, the one
 * at 1.75 (t = 0.5, smoothstep 0.5) pulls 0.5 along its unit vector, averaged over the two. Surge
 * scales the part along the flight direction. */
static void flight_model(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(2, 10.0f);
    d.cohesion = 1.0f;
    d.pitch = 0.25f;
    one_tick(d, 1, (const float[][3]){{2, 2, 0}}, (const double[3]){2.0, 0.5, 1.0});
    /* surge: the cohesion toward (2, 0, 2) keeps its part across the flight (x) and half (surge 0.5)
     * or none (surge 0) of its part along it (z) */
    d = topo_def(2, 10.0f);
    d.cohesion = 1.0f;
    d.surge = 0.5f;
    one_tick(d, 1, (const float[][3]){{2, 0, 2}}, (const double[3]){2.0, 0.0, 2.0});
    d.surge = 0.0f;
    one_tick(d, 1, (const float[][3]){{2, 0, 2}}, (const double[3]){2.0, 0.0, 1.0});
    d = topo_def(3, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    const float sep[2][3] = {{1, 0, 0}, {0, 0.5f, 0}};
    one_tick(d, 2, sep, (const double[3]){0.0, -0.75, 1.0});
    d.separation_nearest = 0;
    one_tick(d, 2, sep, (const double[3]){-0.25, -0.375, 1.0});
    d = topo_def(3, 10.0f);
    d.cohesion = 1.0f;
    d.cohesion_near = 0.5f;
    d.cohesion_far = 3.0f;
    one_tick(d, 2, (const float[][3]){{0.4f, 0, 0}, {0, 1.75f, 0}}, (const double[3]){0.0, 0.25, 1.0});
    /* cohesion_up (issue 24, eighth round): the cohesion toward (2, 2, 0) keeps pitch 0.25 of its up
     * part (0.5); with cohesion_up 0.5 it keeps 0.25 + 0.5 * 0.75 = 0.625 of it (1.25), with 1 all
     * of it. With lift and bank, flying level along z unbanked, the up axis is the vertical: the pull
     * toward (0, 2, 2) keeps its part along the flight (2) and 0.625 of its up part. */
    d = topo_def(2, 10.0f);
    d.cohesion = 1.0f;
    d.pitch = 0.25f;
    d.cohesion_up = 0.5f;
    one_tick(d, 1, (const float[][3]){{2, 2, 0}}, (const double[3]){2.0, 1.25, 1.0});
    d.cohesion_up = 1.0f;
    one_tick(d, 1, (const float[][3]){{2, 2, 0}}, (const double[3]){2.0, 2.0, 1.0});
    d.cohesion_up = 0.5f;
    d.lift = true;
    d.bank = true;
    d.max_turn = 120.0f;
    d.bank_rate = 10.0f;
    one_tick(d, 1, (const float[][3]){{0, 2, 2}}, (const double[3]){0.0, 1.25, 3.0});
    /* separation_up (issue 24, seventh round): the separation from the neighbour at (0, 0.5, 0) above,
     * -0.75 along y, is scaled by pitch 0.25 (-0.1875); with separation_up 0.5 by 0.25 + 0.5 * 0.75 =
     * 0.625 (-0.46875); with 1 at full strength. Flying level along z without a bank, the lift's up
     * axis is the vertical. The neighbour at (1, 0, 0) is farther: separation from the closest only. */
    d = topo_def(3, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.pitch = 0.25f;
    one_tick(d, 2, sep, (const double[3]){0.0, -0.1875, 1.0});
    d.separation_up = 0.5f;
    one_tick(d, 2, sep, (const double[3]){0.0, -0.46875, 1.0});
    d.separation_up = 1.0f;
    one_tick(d, 2, sep, (const double[3]){0.0, -0.75, 1.0});
    d.lift = true;
    d.bank = true;
    d.max_turn = 120.0f;
    d.bank_rate = 10.0f;
    d.separation_up = 0.5f;
    one_tick(d, 2, sep, (const double[3]){0.0, -0.46875, 1.0});
    /* separation_up_radius (issue 24, round s8): separation_up 1 comes back times 1 - d / radius for
     * the closest neighbour at d = 0.5: radius 1 gives half (0.25 + 0.5 * 0.75 = 0.625 of -0.75),
     * radius 2 three quarters (0.8125), radius 0.5 nothing (the weak pitch's 0.25); with and
     * without lift */
    const float up_radius[4] = {1.0f, 2.0f, 0.5f, 1.0f};
    const double up_want[4] = {-0.46875, -0.609375, -0.1875, -0.46875};
    d.separation_up = 1.0f;
    for (int q = 0; q < 4; q++) {
        d.lift = d.bank = q < 3; /* the last one without lift */
        d.separation_up_radius = up_radius[q];
        one_tick(d, 2, sep, (const double[3]){0.0, up_want[q], 1.0});
    }
    /* separation_edge: both neighbours on one side, C^2 = |((1, 0, 0) + (0, 1, 0)) / 2|^2 = 1/2, so
     * separation_edge 1 halves the push (-0.375) and 2 removes it */
    d = topo_def(3, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    d.separation_edge = 1.0f;
    one_tick(d, 2, sep, (const double[3]){0.0, -0.375, 1.0});
    d.separation_edge = 2.0f;
    one_tick(d, 2, sep, (const double[3]){0.0, 0.0, 1.0});
    /* separation_exposed (issue 24, round s15): the same two neighbours, C = |((1, 0, 0) + (0, 1, 0)) / 2|
     * = 0.70711; the closest one at d = 0.5 pushes 1 - d / r with r = 2 (1 - e t), t = (C - from) / (1 -
     * from): e 0.5 from 0 gives r = 1.29289 and -0.61327; e 1 from 0.2 gives t = 0.63388, r = 0.73223
     * and -0.31716; from 0.8 (above C) leaves the full radius's -0.75; e 1 from 0 r = 0.58579, -0.14645 */
    d.separation_edge = 0.0f;
    const float ex_e[4] = {0.5f, 1.0f, 0.5f, 1.0f}, ex_from[4] = {0.0f, 0.2f, 0.8f, 0.0f};
    const double ex_want[4] = {-0.61327, -0.31716, -0.75, -0.14645};
    for (int q = 0; q < 4; q++) {
        d.separation_exposed = ex_e[q];
        d.separation_exposed_from = ex_from[q];
        one_tick(d, 2, sep, (const double[3]){0.0, ex_want[q], 1.0});
    }
    /* a third neighbour on the other side, (-1.5, 0, 0): C = |(1, 0, 0) + (0, 1, 0) + (-1, 0, 0)| / 3 =
     * 1/3 is below from 0.4, so the interior bird keeps the full radius (-0.75) */
    d.topo_k = 3.0f;
    d.separation_exposed = 1.0f;
    d.separation_exposed_from = 0.4f;
    one_tick(d, 3, (const float[][3]){{1, 0, 0}, {0, 0.5f, 0}, {-1.5f, 0, 0}}, (const double[3]){0.0, -0.75, 1.0});
    /* refused with separation from more than the closest one, with a separation cone, and with metric
     * neighbours */
    mur_flock_def bad = d;
    bad.separation_nearest = 2;
    assert_def_refused(bad, "separation_exposed 1 needs separation_nearest=1");
    bad = d;
    bad.separation_view = 180.0f;
    assert_def_refused(bad, "separation_view 180");
    bad = d;
    bad.neighbours = MUR_NEIGHBOURS_METRIC;
    bad.separation_nearest = 0;
    assert_def_refused(bad, "separation_exposed");
    mur_error err = {{0}};
    d.separation_exposed = 0.0f;
    d.separation_edge = 2.0f;
    /* metric neighbours: the topological terms are refused */
    d.separation_nearest = 0;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_edge"));
    d.separation_edge = 0.0f;
    d.separation_up = 1.0f;
    d.separation_up_radius = 1.0f;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_up_radius"));
    d = topo_def(3, 10.0f);
    d.cohesion = 1.0f;
    d.cohesion_near = 0.5f;
    d.cohesion_far = 3.0f;
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "cohesion_far"));
    d.cohesion_far = 0.0f;
    d.separation_nearest = 1;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_nearest"));
}

/* Issue 24, eleventh round. separation_view: boid 0 flies along +z; a neighbour right behind it at
 * 0.5 m and one beside it at 1 m. All round (360) the closest (behind) pushes it forward by
 * 1 - 0.5/2 = 0.75; with a 200-degree separation cone the one behind is in the blind angle, so the one
 * beside is the closest it avoids (1 - 1/2 = 0.5 along -x), and alone behind it the bird is not pushed
 * at all. separation_smooth: the neighbour above at 0.5 m (t = 1/4) pushes 1 - t^3 (6 t^2 - 15 t + 10)
 * = 0.896484375 instead of 0.75. Both are refused with metric neighbours, and 400 degrees is out of
 * range. */
static void separation_view(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(3, 10.0f);
    d.separation = 1.0f;
    d.separation_radius = 2.0f;
    d.separation_nearest = 1;
    const float nb[2][3] = {{0, 0, -0.5f}, {1, 0, 0}};
    one_tick(d, 2, nb, (const double[3]){0.0, 0.0, 1.75});
    d.separation_view = 200.0f;
    one_tick(d, 2, nb, (const double[3]){-0.5, 0.0, 1.0});
    d.separation_nearest = 0; /* the mean over the neighbours in the cone: the one beside only */
    one_tick(d, 2, nb, (const double[3]){-0.5, 0.0, 1.0});
    one_tick(d, 1, nb, (const double[3]){0.0, 0.0, 1.0});
    d.separation_view = 360.0f;
    d.separation_nearest = 1;
    d.separation_smooth = true;
    one_tick(d, 1, (const float[][3]){{0, 0.5f, 0}}, (const double[3]){0.0, -0.896484375, 1.0});
    mur_error err = {{0}};
    d.neighbours = MUR_NEIGHBOURS_METRIC;
    d.separation_nearest = 0;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_smooth"));
    d.separation_smooth = false;
    d.separation_view = 200.0f;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "separation_view"));
    d = topo_def(3, 10.0f);
    d.separation_view = 400.0f;
    assert_false(mur_def_check(&d, &err));
    assert_non_null(strstr(err.msg, "separation_view"));
}

/* Ground avoidance by hand (ground 0, ground_avoid 10, ground_accel 10: gk = 1 /s^2, g2w = 2 /s;
 * dt 0.1): at y = 6 level the spring gives 4, so vy = 0.4; diving at 5 m/s 4 + 10 = 14 saturates at
 * 10, so vy = -5 + 1; climbing at 5 m/s -6 is clamped to 0; above the layer nothing. */
static double ground_tick(mur_flock_def d, float y, float vy)
{
    mur_flock *f = make(&d);
    put(f, 0, 0, y, 0, 5, vy, 0);
    mur_flock_steps(f, 1);
    const double out = mur_flock_view(f).vel[1];
    mur_flock_destroy(f);
    return out;
}

/* A flock of 400 starlings (the preset) diving at the ground from 6-12 m at 8 m/s down (10 m/s in
 * all): with the preset's ground avoidance no bird reaches below y = 0 in 5 s (lowest 3.4 m when
 * written); without it some reach -7.7 m. */
static double dive_lowest(bool avoid, int threads)
{
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 400;
    if (!avoid)
        d.ground_avoid = 0.0f;
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, threads);
    for (int32_t i = 0; i < d.boids; i++)
        put(f, i, (float)(i % 10) * 1.2f, 6.0f + (float)(i / 100) * 2.0f, (float)(i / 10 % 10) * 1.2f, 6, -8, 0);
    double lowest = 1e9;
    for (int t = 0; t < 250; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int32_t i = 0; i < d.boids; i++)
            lowest = v.pos[3 * i + 1] < lowest ? v.pos[3 * i + 1] : lowest;
    }
    mur_flock_destroy(f);
    return lowest;
}

static void ground_avoidance(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(1, 10.0f);
    d.dt = 0.1f;
    d.ground = 0.0f;
    d.ground_avoid = 10.0f;
    d.ground_accel = 10.0f;
    assert_near(ground_tick(d, 6.0f, 0.0f), 0.4, 1e-5);
    assert_near(ground_tick(d, 6.0f, -5.0f), -4.0, 1e-5);
    assert_near(ground_tick(d, 6.0f, 5.0f), 5.0, 1e-5);
    assert_near(ground_tick(d, 12.0f, -5.0f), -5.0, 1e-5);
    assert_near(ground_tick(d, -3.0f, 0.0f), 1.0, 1e-5); /* below the ground: the whole ground_accel */
    assert_true(dive_lowest(true, 1) > 0.0);
    assert_true(dive_lowest(true, 2) > 0.0);
    assert_true(dive_lowest(false, 1) < 0.0);
}

static void presets(void **st)
{
    (void)st;
    mur_flock_def d, c = mur_flock_default_def();
    assert_true(mur_def_preset(&d, "classic", NULL));
    assert_memory_equal(&d, &c, sizeof d);
    for (int i = 0; i < mur_preset_count(); i++) {
        mur_error e;
        assert_true(mur_def_preset(&d, mur_preset_name(i), &e));
        assert_true(mur_def_check(&d, &e));
    }
    mur_error e;
    d = c;
    assert_false(mur_def_preset(&d, "stirling", &e));
    assert_non_null(strstr(e.msg, "classic|starling|vision-report"));
    assert_memory_equal(&d, &c, sizeof d);
    assert_true(mur_def_preset(&d, "starling", NULL));
    assert_int_equal(d.neighbours, MUR_NEIGHBOURS_TOPOLOGICAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hard_sphere), cmocka_unit_test(banking), cmocka_unit_test(cruise),
        cmocka_unit_test(centrality),  cmocka_unit_test(presets), cmocka_unit_test(flight_model),
        cmocka_unit_test(surge_separation),
        cmocka_unit_test(ground_avoidance), cmocka_unit_test(wander), cmocka_unit_test(separation_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
