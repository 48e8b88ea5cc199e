/* The topological search's own SIMD path (branch speed19): AUTO takes the widest path for the search
 * (mur_kernel_best_search: AVX-512 where the CPU has it, on AMD Zen 4 too, where the rest stays on
 * mur_kernel_best's AVX2), a forced path sets the search too, and every mix of paths gives the same
 * bits: the 16-lane block scan of the AVX-512 path (topo_body.h TSCAN16) finds the lists and contacts
 * of the 8- and 4-lane ones. The k-NN and contacts of each path against brute force: test_topo.c. */
#include "util.h"

#include "kernel.h"

static void auto_and_forced(void **st)
{
    (void)st;
    mur_flock *f = make_starling(500, 1, 1);
    assert_int_equal(mur_flock_simd(f), mur_kernel_best());
    assert_int_equal(mur_flock_search_simd(f), mur_kernel_best_search());
    assert_int_equal(mur_kernel_best_search(), mur_kernel_widest());
    for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++) {
        if (!mur_kernel_supports((mur_simd)p))
            continue;
        assert_true(mur_flock_set_simd(f, (mur_simd)p, NULL));
        assert_int_equal(mur_flock_simd(f), p);
        assert_int_equal(mur_flock_search_simd(f), p);
        mur_error err;
        assert_false(mur_flock_set_simd(f, MUR_SIMD_COUNT, &err)); /* refused: neither changes */
        assert_int_equal(mur_flock_simd(f), p);
        assert_int_equal(mur_flock_search_simd(f), p);
    }
    assert_true(mur_flock_set_simd(f, MUR_SIMD_AUTO, NULL));
    assert_int_equal(mur_flock_simd(f), mur_kernel_best());
    assert_int_equal(mur_flock_search_simd(f), mur_kernel_widest());
    mur_flock_destroy(f);
}

/* AUTO (on a Zen 4: the AVX2 kernels with the AVX-512 search) and every forced path: the same state
 * after 40 ticks, with contacts, a long list (more candidates than the 16-lane scan's buffer takes
 * before it is emptied) and a crowd in one cell (its own boids scanned in chunks that end inside a
 * vector: the masked tail). */
static void same_bits_every_mix(void **st)
{
    (void)st;
    static const char *const cases[][3] = {
        {NULL},
        {"hard_radius=2", NULL},
        {"topo_k=20", "hard_radius=1", NULL},
        {"view_angle=360", "topo_k=1.5", NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int crowd = 0; crowd < 2; crowd++) {
            uint64_t h0 = 0;
            int ran = 0;
            for (int p = MUR_SIMD_AUTO; p < MUR_SIMD_COUNT; p++) {
                if (p != MUR_SIMD_AUTO && !mur_kernel_supports((mur_simd)p))
                    continue;
                mur_flock_def d;
                assert_true(mur_def_preset(&d, "starling", NULL));
                d.boids = 2000;
                for (int k = 0; k < 3 && cases[c][k]; k++)
                    assert_true(mur_def_set_pair(&d, cases[c][k], NULL));
                mur_flock *f = make(&d);
                mur_flock_set_threads(f, 2);
                assert_true(mur_flock_set_simd(f, (mur_simd)p, NULL));
                if (crowd) /* 300 birds within 0.5 wu of one point, in one cell */
                    for (int32_t i = 0; i < 300; i++) {
                        const float q = (float)i / 300.0f;
                        put(f, i, 0.5f * q, 0.3f * q * q, 0.4f * (1.0f - q), 10.0f, 0.0f, 1.0f);
                    }
                mur_flock_steps(f, 40);
                const uint64_t h = mur_flock_hash(f);
                if (ran++ == 0)
                    h0 = h;
                else if (h != h0)
                    fail_msg("case %zu crowd %d path %s (search %s): hash %016llx, auto %016llx", c, crowd,
                             mur_simd_name((mur_simd)p), mur_simd_name(mur_flock_search_simd(f)),
                             (unsigned long long)h, (unsigned long long)h0);
                mur_flock_destroy(f);
            }
            assert_true(ran >= 2);
        }
    }
}

/* A block too big to gather (more than MUR_GATHER_CAP boids: 4,500 of 6,000 birds crowded into one
 * cell), so scanned in place (topo_body_grow.h block_in_place), and the rings beyond it for the birds
 * outside the crowd (topo_body.h slice; branch speed20 tried them on 16 lanes: not kept), with
 * slices that end inside a vector. Every path the same state after 6 ticks, with contacts and a list
 * longer than one vector. */
static void same_bits_in_place(void **st)
{
    (void)st;
    static const char *const cases[][3] = {
        {"hard_radius=2", NULL},
        {"topo_k=20", "view_angle=360", NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t h0 = 0;
        int ran = 0;
        for (int p = MUR_SIMD_AUTO; p < MUR_SIMD_COUNT; p++) {
            if (p != MUR_SIMD_AUTO && !mur_kernel_supports((mur_simd)p))
                continue;
            mur_flock_def d;
            assert_true(mur_def_preset(&d, "starling", NULL));
            d.boids = 6000;
            for (int k = 0; k < 3 && cases[c][k]; k++)
                assert_true(mur_def_set_pair(&d, cases[c][k], NULL));
            mur_flock *f = make(&d);
            mur_flock_set_threads(f, 2);
            assert_true(mur_flock_set_simd(f, (mur_simd)p, NULL));
            for (int32_t i = 0; i < 4500; i++) { /* within 0.8 wu of one point */
                const float q = (float)i / 4500.0f;
                put(f, i, 0.8f * q, 0.5f * q * q, 0.6f * (1.0f - q), 10.0f, 0.0f, 1.0f);
            }
            mur_flock_steps(f, 6);
            const uint64_t h = mur_flock_hash(f);
            if (ran++ == 0)
                h0 = h;
            else if (h != h0)
                fail_msg("case %zu path %s (search %s): hash %016llx, auto %016llx", c, mur_simd_name((mur_simd)p),
                         mur_simd_name(mur_flock_search_simd(f)), (unsigned long long)h, (unsigned long long)h0);
            mur_flock_destroy(f);
        }
        assert_true(ran >= 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_and_forced),
        cmocka_unit_test(same_bits_every_mix),
        cmocka_unit_test(same_bits_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
