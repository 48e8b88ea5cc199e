/* Groups over the grid against an independent all-pairs count, and the one-thread fallback on a busy
 * machine (src/sim/cores.c): its decisions on given timings, and that it never changes the state. */
#include "util.h"

#include "cores.h"

/* Minimum image as the library defines it (space.h), written out again here. */
static float min_image(float b, float a, float L, bool wrap)
{
    const float t = b - a;
    if (!wrap)
        return t;
    const float below = (b - L) - a, above = (b + L) - a;
    const float e = t > 0.5f * L ? below : t;
    return t < -0.5f * L ? above : e;
}

static int32_t find(int32_t *p, int32_t a)
{
    while (p[a] != a)
        a = p[a] = p[p[a]];
    return a;
}

/* Connected components of "closer than r", every pair tested (float, as the library). */
static int32_t groups_all_pairs(const mur_flock *f, float r, bool wrap, const float L[3])
{
    mur_view v = mur_flock_view(f);
    int32_t *p = malloc(sizeof(int32_t) * (size_t)v.boids);
    for (int32_t i = 0; i < v.boids; i++)
        p[i] = i;
    for (int32_t i = 0; i < v.boids; i++)
        for (int32_t j = i + 1; j < v.boids; j++) {
            float d2 = 0.0f;
            for (int a = 0; a < 3; a++) {
                float e = min_image(v.pos[3 * j + a], v.pos[3 * i + a], L[a], wrap);
                d2 += e * e;
            }
            if (d2 < r * r) {
                int32_t x = find(p, i), y = find(p, j);
                if (x != y)
                    p[x > y ? x : y] = x < y ? x : y;
            }
        }
    int32_t g = 0;
    for (int32_t i = 0; i < v.boids; i++)
        g += p[i] == i;
    free(p);
    return g;
}

/* Sparse flocks (many groups) in every bounds mode, both cell sizes, 1 and 2 threads, the grid and
 * brute force, every kernel path this CPU runs: the same count as every pair tested. */
static void groups_match_all_pairs(void **s)
{
    (void)s;
    const float radii[] = {3.0f, 5.0f, 8.0f};
    int checked_many = 0;
    for (int b = 0; b < MUR_BOUNDS_COUNT; b++)
        for (int ri = 0; ri < 3; ri++) {
            mur_flock_def d = neutral_def(3000);
            d.bounds = (mur_bounds)b;
            d.seed = 11 + (uint64_t)ri;
            d.view_radius = radii[ri];
            for (int a = 0; a < 3; a++) {
                d.world_min[a] = -30.0f;
                d.world_max[a] = 30.0f;
            }
            d.ground = -30.0f;
            mur_flock *f = make(&d);
            float L[3] = {60.0f, 60.0f, 60.0f};
            const int32_t want = groups_all_pairs(f, d.view_radius, d.bounds == MUR_BOUNDS_WRAP, L);
            for (int variant = 0; variant < 5 + MUR_SIMD_COUNT - MUR_SIMD_BASE; variant++) {
                /* 1/2 threads, reach 1/2, brute force, then each kernel path this CPU runs */
                mur_flock_set_threads(f, variant % 2 ? 2 : 1);
                assert_true(mur_flock_set_cell_reach(f, variant == 2 || variant == 3 ? 2 : 1, NULL));
                mur_flock_set_search(f, variant == 4 ? MUR_SEARCH_BRUTE : MUR_SEARCH_GRID);
                const mur_simd path = variant < 5 ? MUR_SIMD_AUTO : (mur_simd)(MUR_SIMD_BASE + variant - 5);
                if (!mur_flock_set_simd(f, path, NULL)) {
                    assert_true(path != MUR_SIMD_BASE); /* the portable path always runs */
                    continue;
                }
                mur_stats st = mur_flock_measure(f);
                if (st.groups != want)
                    fail_msg("bounds %s, radius %g, variant %d: %d groups, all pairs give %d",
                             mur_bounds_name(d.bounds), (double)d.view_radius, variant, st.groups, want);
            }
            checked_many += want > 20 && want < 2900;
            mur_flock_destroy(f);
        }
    assert_true(checked_many >= 4); /* the cases do have many groups of several boids */
}

/* Given timings: idle ticks never probe; a contended core leads to a probe on one thread, which wins
 * when faster; one thread probes all threads again and returns when they have their cores. */
static void fallback_decisions(void **s)
{
    (void)s;
    mur_cores c;
    memset(&c, 0, sizeof c);
    mur_cores_reset(&c);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(mur_cores_threads(&c, 2), 2);
        mur_cores_update(&c, 2, 2, 5.0, 0.97);
    }
    /* contended: 2 threads at 20 ms with a thread running 40% of the pass */
    int t = 2, ticks = 0;
    for (; ticks < 10 && t == 2; ticks++) {
        t = mur_cores_threads(&c, 2);
        mur_cores_update(&c, t, 2, t == 2 ? 20.0 : 10.0, t == 2 ? 0.4 : 1.0);
    }
    assert_int_equal(t, 1); /* the probe ran on one thread */
    assert_true(ticks <= 4);
    assert_int_equal(mur_cores_threads(&c, 2), 1); /* and it stays */
    assert_int_equal(mur_cores_current(&c, 2), 1); /* measuring ticks too */
    /* still contended: probes on 2 threads lose, one thread stays, 1 tick in 16 probes */
    int on_two = 0;
    for (int i = 0; i < 160; i++) {
        t = mur_cores_threads(&c, 2);
        on_two += t == 2;
        mur_cores_update(&c, t, 2, t == 2 ? 20.0 : 10.0, t == 2 ? 0.4 : 1.0);
    }
    assert_true(on_two >= 5 && on_two <= 12);
    assert_int_equal(c.mode, 1);
    /* the load goes away: the next probe on 2 threads has its cores and stays */
    for (int i = 0; i < 20; i++) {
        t = mur_cores_threads(&c, 2);
        mur_cores_update(&c, t, 2, t == 2 ? 5.0 : 10.0, t == 2 ? 0.97 : 1.0);
    }
    assert_int_equal(c.mode, 0);
    assert_int_equal(mur_cores_threads(&c, 2), 2);
    assert_int_equal(mur_cores_current(&c, 2), 2);
    /* contended but 2 threads still faster (one busy loop): the probe on one loses, 2 stay */
    int on_one = 0;
    for (int i = 0; i < 160; i++) {
        t = mur_cores_threads(&c, 2);
        on_one += t == 1;
        mur_cores_update(&c, t, 2, t == 2 ? 7.0 : 10.0, t == 2 ? 0.6 : 1.0);
    }
    assert_true(on_one >= 5 && on_one <= 12);
    assert_int_equal(c.mode, 0);
    /* fixed: always what was asked */
    c.fixed = true;
    for (int i = 0; i < 40; i++) {
        assert_int_equal(mur_cores_threads(&c, 2), 2);
        mur_cores_update(&c, 2, 2, 20.0, 0.1);
    }
}

/* The fallback on or off, the state is the same bits (and the stats say what ran). */
static void fallback_same_state(void **s)
{
    (void)s;
    uint64_t h[2];
    for (int on = 0; on < 2; on++) {
        mur_flock_def d = mur_flock_default_def();
        d.boids = 4000;
        mur_flock *f = make(&d);
        mur_flock_set_threads(f, 2);
        mur_flock_set_thread_fallback(f, on);
        for (int i = 0; i < 40; i++) {
            mur_flock_step(f);
            int u = mur_flock_stats(f).threads_used;
            assert_true(on ? (u == 1 || u == 2) : u == 2);
        }
        h[on] = mur_flock_hash(f);
        mur_flock_destroy(f);
    }
    assert_int_equal(h[0], h[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(groups_match_all_pairs),
        cmocka_unit_test(fallback_decisions),
        cmocka_unit_test(fallback_same_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
