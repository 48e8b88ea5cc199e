/* New boids' places (src/sim/spawn.c): a batch of 65,536 or more is the same boids as the spawn by
 * index, stored along a Morton curve of their places; a smaller batch is the spawn by index. */
#include "util.h"

#define ORDER_MIN 65536 /* MUR_SPAWN_ORDER_MIN (src/sim/flock_impl.h) */

/* A flock of n boids in a fixed 200 wu box, made in one batch or grown in batches of step. */
static mur_flock *spawned(int32_t n, int32_t step)
{
    mur_flock_def d = neutral_def(step ? step : n); /* world=fixed: the box whatever the count */
    d.world = MUR_WORLD_FIXED;
    mur_flock *f = make(&d);
    for (int32_t m = step ? step : n; m < n;) {
        m = m + step < n ? m + step : n;
        assert_true(mur_flock_set_boid_count(f, m, NULL));
    }
    assert_int_equal(mur_flock_view(f).boids, n);
    return f;
}

static int by_row(const void *a, const void *b)
{
    return memcmp(a, b, 6 * sizeof(float));
}

/* The boids' rows (position, velocity) sorted bytewise: the same multiset in any order. */
static float *sorted_rows(const mur_flock *f)
{
    const mur_view v = mur_flock_view(f);
    float *r = malloc((size_t)v.boids * 6 * sizeof *r);
    assert_non_null(r);
    for (int32_t i = 0; i < v.boids; i++) {
        memcpy(r + 6 * (size_t)i, v.pos + 3 * (size_t)i, 3 * sizeof *r);
        memcpy(r + 6 * (size_t)i + 3, v.vel + 3 * (size_t)i, 3 * sizeof *r);
    }
    qsort(r, (size_t)v.boids, 6 * sizeof *r, by_row);
    return r;
}

/* Mean distance between boids i and i+1 for i in [from, to - 1): small when neighbours in space are
 * neighbours in storage. */
static double steps_between(const mur_flock *f, int32_t from, int32_t to)
{
    const mur_view v = mur_flock_view(f);
    double sum = 0.0;
    for (int32_t i = from; i + 1 < to; i++) {
        double d2 = 0.0;
        for (int a = 0; a < 3; a++) {
            const double e = (double)v.pos[3 * (size_t)i + 3 + a] - (double)v.pos[3 * (size_t)i + a];
            d2 += e * e;
        }
        sum += sqrt(d2);
    }
    return sum / (double)(to - from - 1);
}

static double step_distance(const mur_flock *f)
{
    return steps_between(f, 0, mur_flock_view(f).boids);
}

static bool same_rows(const mur_flock *a, const mur_flock *b)
{
    const mur_view u = mur_flock_view(a), v = mur_flock_view(b);
    return u.boids == v.boids && !memcmp(u.pos, v.pos, 3 * (size_t)u.boids * sizeof(float)) &&
           !memcmp(u.vel, v.vel, 3 * (size_t)u.boids * sizeof(float));
}

/* 70,000 boids in one batch: the boids of seven batches of 10,000 (each in index order), renumbered
 * along the curve: consecutive boids are a few wu apart instead of the box's mean distance. */
static void large_batch_is_the_same_boids_in_curve_order(void **s)
{
    (void)s;
    const int32_t n = 70000;
    mur_flock *one = spawned(n, 0), *grown = spawned(n, 10000);
    assert_false(same_rows(one, grown));
    float *a = sorted_rows(one), *b = sorted_rows(grown);
    assert_memory_equal(a, b, (size_t)n * 6 * sizeof *a);
    free(a);
    free(b);
    const double near = step_distance(one), far = step_distance(grown);
    print_message("mean step between consecutive boids: %.2f wu in one batch, %.2f wu grown\n", near, far);
    /* random pairs in a 200 wu cube are about 0.66 * 200 = 132 wu apart; the curve's steps are about the
     * boids' spacing (200 / cbrt(70,000) = 4.9 wu), with rarer jumps across the curve's turns */
    assert_true(far > 100.0);
    assert_true(near < 0.1 * far);
    mur_flock_destroy(one);
    mur_flock_destroy(grown);
}

/* The threshold: one boid fewer keeps the index order (the flock grown in small batches is the same,
 * bit for bit); at the threshold the order changes. */
static void threshold(void **s)
{
    (void)s;
    mur_flock *below = spawned(ORDER_MIN - 1, 0), *below_grown = spawned(ORDER_MIN - 1, 8192);
    assert_true(same_rows(below, below_grown));
    assert_int_equal(mur_flock_hash(below), mur_flock_hash(below_grown));
    mur_flock *at = spawned(ORDER_MIN, 0), *at_grown = spawned(ORDER_MIN, 8192);
    assert_false(same_rows(at, at_grown));
    assert_true(step_distance(at) < 0.1 * step_distance(at_grown));
    mur_flock_destroy(below);
    mur_flock_destroy(below_grown);
    mur_flock_destroy(at);
    mur_flock_destroy(at_grown);
}

/* A batch added to an ordered flock is ordered on its own and leaves the boids before it alone. */
static void growth_orders_only_the_new_batch(void **s)
{
    (void)s;
    mur_flock *f = spawned(ORDER_MIN, 0), *g = spawned(ORDER_MIN, 0);
    assert_true(mur_flock_set_boid_count(g, 2 * ORDER_MIN, NULL));
    const mur_view u = mur_flock_view(f), v = mur_flock_view(g);
    assert_memory_equal(u.pos, v.pos, 3 * (size_t)ORDER_MIN * sizeof(float));
    assert_memory_equal(u.vel, v.vel, 3 * (size_t)ORDER_MIN * sizeof(float));
    /* the second batch is a curve of its own: its steps are short too (random pairs: about 132 wu) */
    assert_true(steps_between(g, ORDER_MIN, 2 * ORDER_MIN) < 10.0);
    mur_flock_destroy(f);
    mur_flock_destroy(g);
}

/* The starling preset at 70,000 (world=scale, a thin flat box): ordered, and its ticks the same on 1
 * and 2 threads. The spawn's hash is pinned: a change to the order shows here. */
#define PINNED_SPAWN 0x2d087173f2013664ULL
static void starling_ordered_threads(void **s)
{
    (void)s;
    uint64_t h[2] = {0, 0};
    for (int t = 1; t <= 2; t++) {
        mur_flock *f = make_starling(70000, 1, t);
        if (t == 1 && mur_flock_hash(f) != PINNED_SPAWN)
            fail_msg("spawn hash %016llx, pinned %016llx", (unsigned long long)mur_flock_hash(f),
                     (unsigned long long)PINNED_SPAWN);
        for (int k = 0; k < 2; k++)
            mur_flock_step(f);
        h[t - 1] = mur_flock_hash(f);
        mur_flock_destroy(f);
    }
    assert_int_equal(h[0], h[1]);
}

/* Issue 24, fourteenth round: the compact start (spawn_spacing 2, spawn_spread 20 deg) at 500 boids (spawn
 * by index) and 70,000 (the Morton order, its curve over the ellipsoid's cube): every boid lies in the
 * ellipsoid at the box's centre (0, 40, 0) with semi-axes 2b along the common heading, b across, b/2
 * vertical, b = 2 cbrt(3 n / (4 pi)) (9.85 m at 500), and reaches near its ends; it flies at cruise_speed
 * 10 (min 2, max 30) within 20 deg of the common heading, which is level (the mean velocity has no
 * vertical part to 0.02 of its length). Out of range it is refused. */
static void compact_start(void **s)
{
    (void)s;
    const int32_t ns[2] = {500, 70000};
    for (int q = 0; q < 2; q++) {
        const int32_t n = ns[q];
        mur_flock_def d = neutral_def(n);
        d.world = MUR_WORLD_FIXED;
        d.world_min[0] = d.world_min[2] = -20.0f;
        d.world_max[0] = d.world_max[2] = 20.0f;
        d.world_min[1] = 35.0f;
        d.world_max[1] = 45.0f;
        d.min_speed = 2.0f;
        d.max_speed = 30.0f;
        d.cruise_speed = 10.0f;
        d.spawn_spacing = 2.0f;
        d.spawn_spread = 20.0f;
        mur_flock *f = make(&d);
        const mur_view v = mur_flock_view(f);
        assert_int_equal(v.boids, n);
        double m[3] = {0, 0, 0};
        for (int32_t i = 0; i < n; i++)
            for (int a = 0; a < 3; a++)
                m[a] += v.vel[3 * (size_t)i + a];
        const double ml = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        assert_true(fabs(m[1]) < 0.02 * ml);
        const double hl = sqrt(m[0] * m[0] + m[2] * m[2]), fx = m[0] / hl, fz = m[2] / hl;
        const double b = 2.0 * cbrt(3.0 * n / (4.0 * 3.14159265358979323846));
        double far[3] = {0, 0, 0};
        for (int32_t i = 0; i < n; i++) {
            const float *p = v.pos + 3 * (size_t)i, *u = v.vel + 3 * (size_t)i;
            const double x = p[0], y = p[1] - 40.0, z = p[2];
            const double along = x * fx + z * fz, across = -x * fz + z * fx;
            const double e = pow(along / (2 * b), 2) + pow(across / b, 2) + pow(y / (0.5 * b), 2);
            assert_true(e <= 1.01); /* the heading from the mean velocity: off by a fraction of a degree */
            far[0] = fmax(far[0], fabs(along) / (2 * b));
            far[1] = fmax(far[1], fabs(across) / b);
            far[2] = fmax(far[2], fabs(y) / (0.5 * b));
            const double sp = sqrt((double)u[0] * u[0] + (double)u[1] * u[1] + (double)u[2] * u[2]);
            assert_near(sp, 10.0, 1e-4);
            const double c = (u[0] * fx + u[2] * fz) / sp; /* cos of the angle to the heading */
            assert_true(c >= cos(21.0 * 3.14159265358979323846 / 180.0));
        }
        for (int a = 0; a < 3; a++)
            assert_true(far[a] > 0.9);
        mur_flock_destroy(f);
    }
    mur_flock_def d = neutral_def(10);
    mur_error err = {{0}};
    assert_false(mur_def_set_pair(&d, "spawn_spacing=-1", &err));
    assert_non_null(strstr(err.msg, "spawn_spacing"));
    assert_false(mur_def_set_pair(&d, "spawn_spread=181", &err));
    assert_non_null(strstr(err.msg, "spawn_spread"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_batch_is_the_same_boids_in_curve_order),
        cmocka_unit_test(threshold),
        cmocka_unit_test(growth_orders_only_the_new_batch),
        cmocka_unit_test(starling_ordered_threads),
        cmocka_unit_test(compact_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
