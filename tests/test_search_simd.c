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

/* Every path (AUTO and each forced one the CPU has) ends in the same state: a starling flock of `boids` birds with
 * `pairs` set, its first `crowd` birds packed along a curve of extent ext (x, y, z) at the origin, after `ticks`
 * ticks on 2 threads. `what` names the case in the failure message. */
static void same_on_every_path(const char *const pairs[3], int32_t boids, int32_t crowd, const float ext[3], int ticks,
                               const char *what)
{
    uint64_t h0 = 0;
    int ran = 0;
    for (int p = MUR_SIMD_AUTO; p < MUR_SIMD_COUNT; p++) {
        if (p != MUR_SIMD_AUTO && !mur_kernel_supports((mur_simd)p))
            continue;
        mur_flock_def d;
        assert_true(mur_def_preset(&d, "starling", NULL));
        d.boids = boids;
        for (int k = 0; k < 3 && pairs[k]; k++)
            assert_true(mur_def_set_pair(&d, pairs[k], NULL));
        mur_flock *f = make(&d);
        mur_flock_set_threads(f, 2);
        assert_true(mur_flock_set_simd(f, (mur_simd)p, NULL));
        for (int32_t i = 0; i < crowd; i++) {
            const float q = (float)i / (float)crowd;
            put(f, i, ext[0] * q, ext[1] * q * q, ext[2] * (1.0f - q), 10.0f, 0.0f, 1.0f);
        }
        mur_flock_steps(f, ticks);
        const uint64_t h = mur_flock_hash(f);
        if (ran++ == 0)
            h0 = h;
        else if (h != h0)
            fail_msg("%s, path %s (search %s): hash %016llx, auto %016llx", what, mur_simd_name((mur_simd)p),
                     mur_simd_name(mur_flock_search_simd(f)), (unsigned long long)h, (unsigned long long)h0);
        mur_flock_destroy(f);
    }
    assert_true(ran >= 2);
}

/* AUTO (on a Zen 4: the AVX2 kernels with the AVX-512 search) and every forced path: the same state
 * after 40 ticks, with contacts, a long list (more candidates than the 16-lane scan's buffer takes
 * before it is emptied) and a crowd in one cell (300 birds within 0.5 wu of one point: its own boids
 * scanned in chunks that end inside a vector, the masked tail). */
static void same_bits_every_mix(void **st)
{
    (void)st;
    static const char *const cases[][3] = {
        {NULL},
        {"hard_radius=2", NULL},
        {"topo_k=20", "hard_radius=1", NULL},
        {"view_angle=360", "topo_k=1.5", NULL},
    };
    static const float ext[3] = {0.5f, 0.3f, 0.4f};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int crowd = 0; crowd < 2; crowd++) {
            char what[48];
            snprintf(what, sizeof what, "case %zu crowd %d", c, crowd);
            same_on_every_path(cases[c], 2000, crowd ? 300 : 0, ext, 40, what);
        }
}

/* A block too big to gather (more than MUR_GATHER_CAP boids: 4,500 of 6,000 birds crowded into one
 * cell, within 0.8 wu of one point), so scanned in place (topo_body_grow.h block_in_place), and the
 * rings beyond it for the birds outside the crowd (topo_body.h slice; branch speed20 tried them on 16
 * lanes: not kept), with slices that end inside a vector. Every path the same state after 6 ticks,
 * with contacts and a list longer than one vector. */
static void same_bits_in_place(void **st)
{
    (void)st;
    static const char *const cases[][3] = {
        {"hard_radius=2", NULL},
        {"topo_k=20", "view_angle=360", NULL},
    };
    static const float ext[3] = {0.8f, 0.5f, 0.6f};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char what[32];
        snprintf(what, sizeof what, "in place, case %zu", c);
        same_on_every_path(cases[c], 6000, 4500, ext, 6, what);
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
