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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_batch_is_the_same_boids_in_curve_order),
        cmocka_unit_test(threshold),
        cmocka_unit_test(growth_orders_only_the_new_batch),
        cmocka_unit_test(starling_ordered_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
