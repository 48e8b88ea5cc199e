/* The carried cell order (src/sim/carry.h, grid_carry.c): the grid build from the state the last pass
 * kept in its slot order gives the same bits as the build from the state by boid index, on every
 * kernel path and thread count, with perching boids, predators (the scalar update), metrics every
 * tick, the API's changes between ticks (a boid set, the count changed, a preset switched) and a
 * crowd; the carry holds the state whenever it is read (checked against it slot by slot). */
#include "util.h"

#include "carry.h"
#include "flock_impl.h"
#include "kernel.h"

/* Two flocks of d, the carry forced on (and checked) in one and off in the other. */
static void pair(mur_flock_def d, bool scalar, int p, int threads, mur_flock **on, mur_flock **off)
{
    *on = make_path(d, scalar, p, threads);
    *off = make_path(d, scalar, p, threads);
    if (!*on || !*off) {
        if (*on)
            mur_flock_destroy(*on);
        if (*off)
            mur_flock_destroy(*off);
        *on = *off = NULL;
        return;
    }
    mur_carry_set(*on, 1);
    (*on)->carry_check = true;
    mur_carry_set(*off, -1);
}

/* Step both n ticks, the hashes and the candidates tested equal after each; the carry read on every
 * tick after the first. */
static void step_same(mur_flock *on, mur_flock *off, int n, const char *what)
{
    for (int t = 0; t < n; t++) {
        mur_flock_step(on);
        mur_flock_step(off);
        if (mur_flock_hash(on) != mur_flock_hash(off))
            fail_msg("%s: tick %d: carried %016llx, by index %016llx", what, t, (unsigned long long)mur_flock_hash(on),
                     (unsigned long long)mur_flock_hash(off));
        /* the first search radii go through the carry too: the same radii, the same candidates */
        if (mur_flock_stats(on).candidates_per_boid != mur_flock_stats(off).candidates_per_boid)
            fail_msg("%s: tick %d: candidates %g carried, %g by index", what, t, mur_flock_stats(on).candidates_per_boid,
                     mur_flock_stats(off).candidates_per_boid);
        if (t > 0 && !on->carry_used)
            fail_msg("%s: tick %d: the carry was not read", what, t);
        assert_false(off->carry_used);
        assert_int_equal(on->carry_mismatch, 0);
    }
}

static void same_bits(void **st)
{
    (void)st;
    static const struct {
        const char *pairs[7];
        bool scalar;
    } cases[] = {
        {{NULL}, false},
        {{"bounds=soft", "goal=on", "wind=on", "wind_vel=1,0,2", "perch=on", "ground=38", "hard_radius=2"}, false},
        {{"perch=on", "ground=39", "perch_neighbours=on"}, false},
        {{"hard_radius=1"}, true},
        {{"bank_align=0"}, false},
    };
    const mur_simd best = mur_kernel_best();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int p = MUR_SIMD_BASE; p <= (int)best; p++)
            for (int threads = 1; threads <= 2; threads++) {
                mur_flock_def d;
                assert_true(mur_def_preset(&d, "starling", NULL));
                d.boids = 2500;
                for (int k = 0; k < 7 && cases[c].pairs[k]; k++)
                    assert_true(mur_def_set_pair(&d, cases[c].pairs[k], NULL));
                mur_flock *on, *off;
                pair(d, cases[c].scalar, p, threads, &on, &off);
                if (!on)
                    continue;
                char what[96];
                snprintf(what, sizeof what, "case %zu, path %s, %d threads", c, mur_simd_name((mur_simd)p), threads);
                step_same(on, off, 30, what);
                mur_flock_destroy(on);
                mur_flock_destroy(off);
            }
}

/* Metrics every tick (two grid builds a tick, both from the carry), a measurement between ticks, and
 * the API's changes: each is followed by ticks with the same bits. */
static void changes_between_ticks(void **st)
{
    (void)st;
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 3000;
    mur_flock *on, *off;
    pair(d, false, (int)mur_kernel_best(), 2, &on, &off);
    assert_non_null(on);
    mur_flock_set_metrics(on, true);
    mur_flock_set_metrics(off, true);
    step_same(on, off, 10, "metrics");
    const mur_stats a = mur_flock_measure(on), b = mur_flock_measure(off);
    assert_true(a.metrics_valid && b.metrics_valid);
    assert_true(a.nn_distance == b.nn_distance && a.mean_neighbours == b.mean_neighbours);
    step_same(on, off, 3, "after a measurement");
    mur_flock *both[2] = {on, off};
    for (int q = 0; q < 2; q++) {
        const mur_view v = mur_flock_view(both[q]);
        const float p[3] = {v.pos[0] + 5.0f, v.pos[1], v.pos[2]}, w[3] = {1.0f, 0.0f, 0.0f};
        assert_true(mur_flock_set_boid(both[q], 17, p, w, 0));
    }
    step_same(on, off, 3, "a boid set");
    for (int q = 0; q < 2; q++) {
        assert_true(mur_flock_set_boid_count(both[q], 2999, NULL));
        assert_true(mur_flock_set_boid_count(both[q], 3000, NULL)); /* the same count, a new boid */
    }
    step_same(on, off, 3, "the count changed");
    for (int q = 0; q < 2; q++)
        assert_true(mur_flock_apply_preset(both[q], "starling", 2500, NULL));
    step_same(on, off, 3, "a preset switched");
    for (int q = 0; q < 2; q++)
        assert_true(mur_flock_set(both[q], "perch", "on", NULL) && mur_flock_set(both[q], "ground", "39", NULL));
    step_same(on, off, 10, "perch switched on");
    mur_flock_destroy(on);
    mur_flock_destroy(off);
}

/* Coincident starlings (every boid in one cell) and a tight crowd: the same bits. */
static void crowd(void **st)
{
    (void)st;
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 2000;
    mur_flock *on, *off;
    pair(d, false, (int)mur_kernel_best(), 2, &on, &off);
    assert_non_null(on);
    mur_flock *both[2] = {on, off};
    for (int q = 0; q < 2; q++)
        for (int32_t i = 0; i < d.boids; i++)
            put(both[q], i, i % 2 ? 0.0f : 1e-3f * (float)(i % 97), 40.0f, 1e-3f * (float)(i % 89), 0, 0, 0);
    step_same(on, off, 6, "crowd");
    mur_flock_destroy(on);
    mur_flock_destroy(off);
}

/* The default (MUR_CARRY_MIN: off) does not use it; nor does the falcon's escape when forced on. */
static void when_used(void **st)
{
    (void)st;
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 2000;
    mur_flock *f = make(&d);
    mur_flock_steps(f, 3);
    assert_false(f->carry_used);
    assert_true(f->carry_cap == 0);
    mur_flock_destroy(f);
    d.falcon = true;
    f = make(&d);
    mur_carry_set(f, 1);
    mur_flock_steps(f, 3);
    assert_false(f->carry_used);
    mur_flock_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_bits),
        cmocka_unit_test(changes_between_ticks),
        cmocka_unit_test(crowd),
        cmocka_unit_test(when_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
