/* The grid and the brute-force search agree (up to float rounding), and thread counts and seeds give
 * bit-identical states. */
#include "util.h"

/* 10k random boids with every rule on. Created with the default speeds; the clamp is then lifted so
 * that one tick's velocity change is exactly dt*acc. */
static void unclamp(mur_flock *f)
{
    assert_true(mur_flock_set(f, "min_speed", "0", NULL));
    assert_true(mur_flock_set(f, "max_speed", "1e6", NULL));
}

/* MURMUR_TEST_QUICK=1 (the valgrind setup): a quarter of the boids in a box of the same density. */
static bool quick(void)
{
    const char *q = getenv("MURMUR_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

static mur_flock_def busy_def(mur_bounds b)
{
    mur_flock_def d = mur_flock_default_def();
    const float half = quick() ? 12.6f : 20.0f; /* 2500 boids: 40 * cbrt(1/4) = 25.2 wide */
    d.boids = quick() ? 2500 : 10000;
    d.bounds = b;
    d.view_radius = 4.0f;
    d.view_angle = 270.0f;
    d.separation_radius = 1.5f;
    d.goal = d.wind = true;
    d.predators = 4;
    d.predator_radius = 8.0f;
    /* a 40-unit box: about 30 neighbours each */
    for (int a = 0; a < 3; a++) {
        d.world_min[a] = -half;
        d.world_max[a] = half;
    }
    d.ground = -half;
    return d;
}

/* Cell reach of the grid flock in compare_methods (mur_flock_set_cell_reach). */
static int g_reach = 1;

static void compare_methods(mur_bounds b)
{
    mur_flock_def d = busy_def(b);
    d.neighbour_search = MUR_SEARCH_GRID;
    mur_flock *g = make(&d);
    assert_true(mur_flock_set_cell_reach(g, g_reach, NULL));
    d.neighbour_search = MUR_SEARCH_BRUTE;
    mur_flock *r = make(&d);
    mur_flock_set_threads(g, 2);
    mur_flock_set_threads(r, 2);
    unclamp(g);
    unclamp(r);
    mur_view v0 = mur_flock_view(g);
    float *vel0 = malloc(sizeof(float) * 3 * (size_t)v0.boids);
    memcpy(vel0, v0.vel, sizeof(float) * 3 * (size_t)v0.boids);
    mur_stats sg = mur_flock_measure(g), sr = mur_flock_measure(r);
    /* the same neighbour counts and groups whatever the search */
    assert_near(sg.mean_neighbours, sr.mean_neighbours, 1e-9);
    assert_int_equal(sg.groups, sr.groups);
    assert_true(sg.mean_neighbours > 15.0);
    mur_flock_step(g);
    mur_flock_step(r);
    mur_view a = mur_flock_view(g), c = mur_flock_view(r);
    double worst = 0.0;
    for (int32_t i = 0; i < a.boids; i++) {
        for (int k = 0; k < 3; k++) {
            double acc_g = (a.vel[3 * i + k] - vel0[3 * i + k]) / d.dt;
            double acc_b = (c.vel[3 * i + k] - vel0[3 * i + k]) / d.dt;
            double err = fabs(acc_g - acc_b) / (1.0 + fabs(acc_b));
            worst = err > worst ? err : worst;
        }
    }
    if (worst > 1e-3)
        fail_msg("bounds %s: grid and brute accelerations differ by %g (relative)", mur_bounds_name(b), worst);
    /* grid candidates are a small fraction of all boids */
    assert_true(mur_flock_stats(g).candidates_per_boid < 0.2 * d.boids);
    free(vel0);
    mur_flock_destroy(g);
    mur_flock_destroy(r);
}

static void grid_vs_brute_soft(void **s) { (void)s; compare_methods(MUR_BOUNDS_SOFT); }
static void grid_vs_brute_wrap(void **s) { (void)s; compare_methods(MUR_BOUNDS_WRAP); }
static void grid_vs_brute_bounce(void **s) { (void)s; compare_methods(MUR_BOUNDS_BOUNCE); }
static void grid_vs_brute_none(void **s) { (void)s; compare_methods(MUR_BOUNDS_NONE); }

/* A wrap world only 2 cells wide (view radius above a third of the box) still uses minimum images. */
static void narrow_wrap_world(void **s)
{
    (void)s;
    mur_flock_def d = busy_def(MUR_BOUNDS_WRAP);
    d.boids = 800;
    d.view_radius = 15.0f;
    d.neighbour_search = MUR_SEARCH_GRID;
    mur_flock *g = make(&d);
    d.neighbour_search = MUR_SEARCH_BRUTE;
    mur_flock *r = make(&d);
    unclamp(g);
    unclamp(r);
    mur_stats sg = mur_flock_measure(g), sr = mur_flock_measure(r);
    assert_near(sg.mean_neighbours, sr.mean_neighbours, 1e-9);
    assert_true(sg.mean_neighbours > 100.0);
    mur_flock_step(g);
    mur_flock_step(r);
    mur_view a = mur_flock_view(g), c = mur_flock_view(r);
    for (int32_t i = 0; i < 3 * a.boids; i++)
        assert_near(a.vel[i], c.vel[i], 1e-4 * (1.0 + fabs(c.vel[i])));
    mur_flock_destroy(g);
    mur_flock_destroy(r);
}

static uint64_t run_hash_path(int threads, uint64_t seed, mur_bounds b, int ticks, mur_simd path)
{
    mur_flock_def d = mur_flock_default_def();
    d.boids = 3000;
    d.seed = seed;
    d.bounds = b;
    d.perch = true;
    d.predators = 3;
    d.view_angle = 270.0f;
    d.goal = true;
    mur_flock *f = make(&d);
    mur_error err;
    if (!mur_flock_set_simd(f, path, &err))
        fail_msg("kernel path %s: %s", mur_simd_name(path), err.msg);
    mur_flock_set_threads(f, threads);
    mur_flock_set_metrics(f, true);
    mur_flock_steps(f, ticks);
    uint64_t h = mur_flock_hash(f);
    mur_flock_destroy(f);
    return h;
}

static uint64_t run_hash(int threads, uint64_t seed, mur_bounds b, int ticks)
{
    return run_hash_path(threads, seed, b, ticks, MUR_SIMD_AUTO);
}

static void threads_bit_identical(void **s)
{
    (void)s;
    const int ticks = quick() ? 30 : 120;
    for (int b = 0; b < MUR_BOUNDS_COUNT; b++) {
        uint64_t h1 = run_hash(1, 7, (mur_bounds)b, ticks);
        assert_int_equal(h1, run_hash(2, 7, (mur_bounds)b, ticks));
        assert_int_equal(h1, run_hash(4, 7, (mur_bounds)b, ticks));
        assert_int_equal(h1, run_hash(1, 7, (mur_bounds)b, ticks));
        assert_int_not_equal(h1, run_hash(1, 8, (mur_bounds)b, ticks));
    }
}

/* A pinned run: any change to the arithmetic of a tick shows up here. Update deliberately. */
#define PINNED_HASH 0xd274c793ef5c54aaULL
static void pinned_hash(void **s)
{
    (void)s;
    uint64_t h = run_hash(2, 42, MUR_BOUNDS_SOFT, 200);
    if (h != PINNED_HASH)
        fail_msg("state hash after 200 ticks is %016llx, pinned %016llx", (unsigned long long)h,
                 (unsigned long long)PINNED_HASH);
}

/* Every kernel path this CPU runs gives the pinned state; the ones it lacks are refused. */
static void pinned_hash_every_path(void **s)
{
    (void)s;
    mur_flock_def d = mur_flock_default_def();
    mur_flock *f = make(&d);
    mur_error err;
    assert_true(mur_flock_set_simd(f, MUR_SIMD_BASE, &err));
    assert_int_equal(mur_flock_simd(f), MUR_SIMD_BASE);
    assert_true(mur_flock_set_simd(f, MUR_SIMD_AUTO, &err));
    const mur_simd best = mur_flock_simd(f);
    assert_true(best >= MUR_SIMD_BASE && best < MUR_SIMD_COUNT);
    err.msg[0] = 0;
    assert_false(mur_flock_set_simd(f, MUR_SIMD_COUNT, &err));
    assert_true(strstr(err.msg, "not available") != NULL);
    assert_int_equal(mur_flock_simd(f), best); /* a refused path changes nothing */
    mur_flock_destroy(f);
    int ran = 0;
    for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++) {
        /* the widest path is always available; narrower x86 paths too where it is AVX */
        if (p > (int)best)
            continue;
        uint64_t h = run_hash_path(2, 42, MUR_BOUNDS_SOFT, 200, (mur_simd)p);
        if (h != PINNED_HASH)
            fail_msg("path %s: state hash after 200 ticks is %016llx, pinned %016llx", mur_simd_name((mur_simd)p),
                     (unsigned long long)h, (unsigned long long)PINNED_HASH);
        ran++;
    }
    print_message("pinned hash on %d kernel path(s), widest %s\n", ran, mur_simd_name(best));
}

/* Cells of half the view radius (reach 2) find the same neighbours as brute force, testing fewer
 * candidates than reach 1; other reaches are refused. */
static void grid_reach2_vs_brute(void **s)
{
    (void)s;
    g_reach = 2;
    compare_methods(MUR_BOUNDS_SOFT);
    compare_methods(MUR_BOUNDS_WRAP);
    g_reach = 1;
    mur_flock_def d = busy_def(MUR_BOUNDS_WRAP);
    double cand[3] = {0, 0, 0};
    for (int r = 1; r <= 2; r++) {
        mur_flock *f = make(&d);
        assert_true(mur_flock_set_cell_reach(f, r, NULL));
        mur_flock_step(f);
        cand[r] = mur_flock_stats(f).candidates_per_boid;
        mur_error err;
        assert_false(mur_flock_set_cell_reach(f, 3, &err));
        assert_true(strstr(err.msg, "expected 1 or 2") != NULL);
        assert_false(mur_flock_set_cell_reach(f, 0, NULL));
        mur_flock_destroy(f);
    }
    assert_true(cand[2] < 0.8 * cand[1]);
}

/* The metrics of the kernel's pass (mean neighbours, mean nearest-neighbour distance) on every kernel
 * path this CPU runs, with and without a view cone (both signs of its cosine), on a flock whose edge boids have no neighbour:
 * the same on every path, and without a cone the nearest distance of each boid by brute force. */
static void nearest_distance_every_path(void **s)
{
    (void)s;
    for (int cone = 0; cone < 3; cone++) { /* all round, a cone wider and one narrower than 180 deg */
        mur_flock_def d = mur_flock_default_def();
        d.boids = 3000;
        d.bounds = MUR_BOUNDS_SOFT;
        d.view_radius = 2.0f;
        d.view_angle = cone == 0 ? 360.0f : (cone == 1 ? 250.0f : 120.0f);
        d.seed = 5;
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = -15.0f;
            d.world_max[a] = 15.0f;
        }
        d.ground = -15.0f;
        mur_flock *f = make(&d);
        double want_nn = 0.0, want_k = 0.0;
        int32_t with = 0, lonely = 0;
        if (!cone) {
            mur_view v = mur_flock_view(f);
            const float r2 = d.view_radius * d.view_radius;
            for (int32_t i = 0; i < v.boids; i++) {
                float best = INFINITY;
                int k = 0;
                for (int32_t j = 0; j < v.boids; j++) {
                    const float dx = v.pos[3 * j] - v.pos[3 * i], dy = v.pos[3 * j + 1] - v.pos[3 * i + 1];
                    const float dz = v.pos[3 * j + 2] - v.pos[3 * i + 2];
                    const float d2 = dx * dx + dy * dy + dz * dz;
                    if (j != i && d2 < r2) {
                        k++;
                        best = d2 < best ? d2 : best;
                    }
                }
                want_k += k;
                if (k > 0) {
                    want_nn += sqrt((double)best);
                    with++;
                } else {
                    lonely++;
                }
            }
            assert_true(lonely > 10 && with > 1000); /* both cases occur */
            want_nn /= with;
            want_k /= v.boids;
        }
        mur_stats first = {0};
        int paths = 0;
        for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++) {
            if (!mur_flock_set_simd(f, (mur_simd)p, NULL))
                continue;
            for (int threads = 1; threads <= 2; threads++) {
                mur_flock_set_threads(f, threads);
                const mur_stats st = mur_flock_measure(f);
                if (paths++ == 0) {
                    first = st;
                    if (!cone) {
                        assert_near(st.mean_neighbours, want_k, 1e-9);
                        assert_near(st.nn_distance, want_nn, 1e-9 * want_nn);
                    }
                }
                if (memcmp(&st.nn_distance, &first.nn_distance, sizeof st.nn_distance) ||
                    memcmp(&st.mean_neighbours, &first.mean_neighbours, sizeof st.mean_neighbours))
                    fail_msg("cone %d, path %s, %d threads: nn %.17g, neighbours %.17g against %.17g, %.17g", cone,
                             mur_simd_name((mur_simd)p), threads, st.nn_distance, st.mean_neighbours,
                             first.nn_distance, first.mean_neighbours);
            }
        }
        assert_true(paths >= 2);
        mur_flock_destroy(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grid_vs_brute_soft),   cmocka_unit_test(grid_vs_brute_wrap),
        cmocka_unit_test(grid_vs_brute_bounce), cmocka_unit_test(grid_vs_brute_none),
        cmocka_unit_test(narrow_wrap_world),    cmocka_unit_test(threads_bit_identical),
        cmocka_unit_test(pinned_hash),          cmocka_unit_test(pinned_hash_every_path),
        cmocka_unit_test(grid_reach2_vs_brute),  cmocka_unit_test(nearest_distance_every_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
