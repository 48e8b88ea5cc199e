/* Issue 24's metrics (docs/rules.md, "Metrics over time"), each on a constructed state whose answer is
 * known by hand: thin-axis tilt, share at a speed limit, neighbour turnover, heading changes, splits
 * and merges; and the same numbers for one and two threads. The states are written straight into the
 * flock and measured with mur_flock_measure (nothing moves); f->tick is set to place them in time. */
#include "util.h"
#include "flock_impl.h"
#include "metrics.h"

static void place(mur_flock *f, int32_t i, float x, float y, float z, float vx, float vy, float vz)
{
    const float p[3] = {x, y, z}, v[3] = {vx, vy, vz};
    memcpy(f->pos + 3 * i, p, sizeof p);
    memcpy(f->vel + 3 * i, v, sizeof v);
}

static mur_stats measure_at(mur_flock *f, uint64_t tick)
{
    f->tick = tick;
    const mur_stats s = mur_flock_measure(f);
    assert_true(s.metrics_valid);
    return s;
}

/* A 4 x 2 x 8 lattice (thin along its second axis) turned by a about z: the thin axis is a degrees
 * from vertical. */
static void metrics24_thin_tilt(void **st)
{
    (void)st;
    const double angles[] = {0.0, 30.0, 65.0, 90.0};
    for (int c = 0; c < 4; c++) {
        mur_flock_def d = neutral_def(64);
        mur_flock *f = make(&d);
        const double a = angles[c] * 3.14159265358979323846 / 180.0;
        int32_t i = 0;
        for (int z = 0; z < 8; z++)
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 4; x++, i++) /* x spans 3, y (thin) 1, z 7 */
                    place(f, i, (float)(x * cos(a) - y * sin(a)), (float)(x * sin(a) + y * cos(a)), (float)z, 0, 0, 1);
        for (int threads = 1; threads <= 2; threads++) {
            mur_flock_set_threads(f, threads);
            const mur_stats s = measure_at(f, 0);
            assert_true(fabs(s.thin_tilt - angles[c]) < 1e-3);
        }
        mur_flock_destroy(f);
    }
    /* fewer than 3 boids: no plane, 0, finite */
    mur_flock_def d = neutral_def(2);
    mur_flock *f = make(&d);
    place(f, 0, 0, 0, 0, 1, 0, 0);
    place(f, 1, 1, 1, 0, 1, 0, 0);
    const mur_stats s = measure_at(f, 0);
    assert_true(s.thin_tilt == 0.0 && s.neighbour_turnover == -1.0 && s.at_speed_limit == 0.0);
    mur_flock_destroy(f);
}

/* 8 flying boids with min_speed 5, max_speed 10 (tolerance 0.1%: <= 5.005 or >= 9.99) and one
 * perching boid at the limit, which does not count: 4 of 8. */
static void metrics24_speed_limit(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(9);
    d.min_speed = 5.0f;
    d.max_speed = 10.0f;
    mur_flock *f = make(&d);
    const float speeds[9] = {5.0f, 5.004f, 5.01f, 7.0f, 9.985f, 9.995f, 10.0f, 8.0f, 5.0f};
    for (int32_t i = 0; i < 9; i++)
        place(f, i, (float)i, 0, 0, 0, 0, speeds[i]);
    f->perch[8] = 5;
    for (int threads = 1; threads <= 2; threads++) {
        mur_flock_set_threads(f, threads);
        const mur_stats s = measure_at(f, 0);
        assert_int_equal(s.perching, 1);
        assert_true(fabs(s.at_speed_limit - 0.5) < 1e-12);
    }
    mur_flock_destroy(f);
}

/* 16 boids in two cubes of 8 (side 1, 100 apart): each boid's 7 nearest are its cube. dt = 1, so the
 * window is 10 ticks. Ticks 0-9: cubes {0-7} and {8-15}; ticks 10-19: cubes {0-3, 8-11} and
 * {4-7, 12-15}: each boid keeps 3 of its 7. Every boid is compared once by tick 19 (boid j at tick
 * 10 + j mod 10): 3/7; before tick 10 nothing is known (-1). */
static void cubes(mur_flock *f, bool mixed)
{
    for (int32_t i = 0; i < 16; i++) {
        const int32_t cube = mixed ? (i % 8) / 4 : i / 8, corner = mixed ? i % 4 + 4 * (i >= 8) : i % 8;
        place(f, i, (float)(corner & 1) + 100.0f * (float)cube, (float)((corner >> 1) & 1), (float)((corner >> 2) & 1),
              1, 0, 0);
    }
}

/* A flock of the cubes, unmixed, measured at ticks 0-9: nothing to compare yet, two groups. */
static mur_flock *cubes_first_window(const mur_flock_def *d)
{
    mur_flock *f = make(d);
    cubes(f, false);
    for (uint64_t t = 0; t < 10; t++) {
        const mur_stats s = measure_at(f, t);
        assert_true(s.neighbour_turnover == -1.0);
        assert_int_equal(s.groups, 2);
    }
    return f;
}

static void metrics24_turnover(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(16);
    d.view_radius = 2.0f;
    assert_int_equal(mur_track_window(1.0f), 10);
    assert_int_equal(mur_track_window(0.02f), 500);
    mur_flock *f = cubes_first_window(&d);
    cubes(f, true);
    mur_stats s;
    for (uint64_t t = 10; t < 20; t++)
        s = measure_at(f, t);
    assert_true(fabs(s.neighbour_turnover - 3.0 / 7.0) < 1e-12);
    /* unchanged for another window: every boid keeps all 7 */
    for (uint64_t t = 20; t < 30; t++)
        s = measure_at(f, t);
    assert_true(fabs(s.neighbour_turnover - 1.0) < 1e-12);
    mur_flock_destroy(f);
    /* measured at ticks 0-9 and then 25-34: no list is exactly one window old, nothing is compared */
    f = cubes_first_window(&d);
    for (uint64_t t = 25; t < 35; t++)
        assert_true(measure_at(f, t).neighbour_turnover == -1.0);
    mur_flock_destroy(f);
}

/* The mean heading (all boids alike) turns 0, 20, 35, 60, 70 degrees in the horizontal plane over
 * ticks 0-4 (dt = 1 s, so 4 ticks = 1/15 min): a change at 35 (35 from 0), none at 60 (25 from 35),
 * one at 70 (35 from 35): 2 changes, 30 a minute. */
static void metrics24_heading_changes(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(8);
    mur_flock *f = make(&d);
    const double deg[5] = {0, 20, 35, 60, 70};
    mur_stats s;
    for (int t = 0; t < 5; t++) {
        const double a = deg[t] * 3.14159265358979323846 / 180.0;
        for (int32_t i = 0; i < 8; i++)
            place(f, i, (float)i, 0, 0, (float)(2.0 * cos(a)), 0, (float)(2.0 * sin(a)));
        s = measure_at(f, (uint64_t)t);
        assert_int_equal(s.heading_changes, t >= 4 ? 2 : t >= 2 ? 1 : 0);
    }
    assert_true(fabs(s.heading_changes_per_min - 30.0) < 1e-9);
    /* a repeated measure of the same tick counts nothing again */
    s = measure_at(f, 4);
    assert_int_equal(s.heading_changes, 2);
    mur_flock_destroy(f);
}

/* 40 boids on a line (spacing 1, link 1.5; sub-flocks: at least 3 boids). Tick 0: one group. Tick 1:
 * pieces 0-19, 20-29, 30-37 and the pair 38-39 (too small to count): 2 splits. Tick 2: 0-29 joined
 * again: 1 merge. Then two boids change sub-flock (no event). dt = 1: 4 ticks = 1/15 min, 30 splits and
 * 15 merges a minute. */
static void line(mur_flock *f, const float *gap_after, int ngaps)
{
    float x = 0.0f;
    for (int32_t i = 0; i < 40; i++) {
        place(f, i, x, 0, 0, 1, 0, 0);
        x += 1.0f;
        for (int g = 0; g < ngaps; g++)
            if ((float)i == gap_after[g])
                x += 10.0f;
    }
}

static void metrics24_splits_merges(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(40);
    d.view_radius = 1.5f;
    mur_flock *f = make(&d);
    assert_int_equal(mur_track_subflock_min(40), 3);
    assert_int_equal(mur_track_subflock_min(1000), 10);
    /* tick by tick: the line's gaps, then the groups and the splits and merges so far. Tick 3: two
     * boids of 30-37 go over to 0-29 (0-31, 32-37): two boids are no sub-flock, so neither a split
     * nor a merge. Tick 4: unchanged. */
    static const struct {
        float gaps[3];
        int ngaps, groups, splits, merges;
    } TICKS[] = {
        {{0}, 0, 1, 0, 0},
        {{19, 29, 37}, 3, 4, 2, 0},
        {{29, 37}, 2, 3, 2, 1},
        {{31, 37}, 2, 3, 2, 1},
        {{31, 37}, 2, 3, 2, 1},
    };
    mur_stats s;
    for (int t = 0; t < 5; t++) {
        line(f, TICKS[t].gaps, TICKS[t].ngaps);
        s = measure_at(f, (uint64_t)t);
        assert_int_equal(s.groups, TICKS[t].groups);
        assert_int_equal(s.splits, TICKS[t].splits);
        assert_int_equal(s.merges, TICKS[t].merges);
    }
    assert_true(fabs(s.splits_per_min - 30.0) < 1e-9);
    assert_true(fabs(s.merges_per_min - 15.0) < 1e-9);
    mur_flock_destroy(f);
}

/* A moving flock with metrics every tick: every new column the same for 1 and 2 threads, finite. */
static void metrics24_threads(void **st)
{
    (void)st;
    mur_flock_def d = mur_flock_default_def();
    d.boids = 1500;
    d.dt = 0.5f; /* a 20-tick turnover window */
    mur_flock *a = make(&d), *b = make(&d);
    mur_flock_set_threads(a, 1);
    mur_flock_set_threads(b, 2);
    mur_flock_set_metrics(a, true);
    mur_flock_set_metrics(b, true);
    for (int t = 0; t < 45; t++) {
        mur_flock_step(a);
        mur_flock_step(b);
        const mur_stats x = mur_flock_stats(a), y = mur_flock_stats(b);
        assert_true(x.metrics_valid && y.metrics_valid);
        assert_memory_equal(&x.thin_tilt, &y.thin_tilt, sizeof x.thin_tilt);
        assert_memory_equal(&x.neighbour_turnover, &y.neighbour_turnover, sizeof x.neighbour_turnover);
        assert_memory_equal(&x.at_speed_limit, &y.at_speed_limit, sizeof x.at_speed_limit);
        assert_int_equal(x.heading_changes, y.heading_changes);
        assert_int_equal(x.splits, y.splits);
        assert_int_equal(x.merges, y.merges);
        assert_true(isfinite(x.thin_tilt) && isfinite(x.neighbour_turnover) && isfinite(x.at_speed_limit) &&
                    isfinite(x.heading_changes_per_min) && isfinite(x.splits_per_min) && isfinite(x.merges_per_min));
        if (t >= 21) /* the first window has passed */
            assert_true(x.neighbour_turnover >= 0.0 && x.neighbour_turnover <= 1.0);
    }
    assert_int_equal(mur_flock_hash(a), mur_flock_hash(b));
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(metrics24_thin_tilt),     cmocka_unit_test(metrics24_speed_limit),
        cmocka_unit_test(metrics24_turnover),      cmocka_unit_test(metrics24_heading_changes),
        cmocka_unit_test(metrics24_splits_merges), cmocka_unit_test(metrics24_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
