/* The reaction time (src/sim/react.h, reaction_ticks): a boid between its reactions keeps the social
 * steering of its last reading however its neighbours move, and reads them again on its phase tick;
 * the state differs from every tick's (its thread and path independence: test_topo_state.c). */
#include "util.h"

#include "flock_impl.h"
#include "react.h"

/* The hold changes the flight: R = 3 against every tick (the same state on 1 and 2 threads, the base
 * path and the brute-force search: test_topo_state.c bit_identical). */
static void hold_changes_flight(void **st)
{
    (void)st;
    mur_flock *a = make_starling(3000, 3, 2), *one = make_starling(3000, 1, 2);
    mur_flock_steps(a, 40);
    mur_flock_steps(one, 40);
    assert_true(mur_flock_hash(a) != mur_flock_hash(one));
    mur_flock_destroy(a);
    mur_flock_destroy(one);
}

/* A line of boids 1 wu apart flying along x; boid 0 at one end. */
static mur_flock *line(int32_t R)
{
    mur_flock *f = make_starling(12, R, 1);
    for (int32_t i = 0; i < 12; i++)
        put(f, i, 0.0f, 40.0f, (float)i * 1.0f, 10.0f, 0.0f, 0.0f);
    return f;
}

static void vel_of(const mur_flock *f, int32_t i, float *v)
{
    memcpy(v, f->vel + 3 * (size_t)i, 3 * sizeof(float));
}

/* Move boid 0's neighbour 1 (3 wu sideways) in copy b of a; step both once: whether boid 0's
 * velocity after the step differs. */
static bool move_changes_boid0(mur_flock *a, mur_flock *b)
{
    const mur_view v = mur_flock_view(b);
    float p[3], w[3];
    memcpy(p, v.pos + 3, sizeof p);
    memcpy(w, v.vel + 3, sizeof w);
    p[0] += 3.0f;
    assert_true(mur_flock_set_boid(b, 1, p, w, 0));
    mur_flock_steps(a, 1);
    mur_flock_steps(b, 1);
    float va[3], vb[3];
    vel_of(a, 0, va);
    vel_of(b, 0, vb);
    return memcmp(va, vb, sizeof va) != 0;
}

static void holds_between_reactions(void **st)
{
    (void)st;
    const int32_t R = 3;
    mur_flock *s0 = line(R);
    const uint32_t ph = mur_react_phase(s0->def.seed, 0, R);
    mur_flock_destroy(s0);
    for (uint32_t off = 0; off < (uint32_t)R; off++) {
        /* run until the next tick is boid 0's phase tick plus off */
        mur_flock *a = line(R), *b = line(R);
        mur_flock_steps(a, 6);
        mur_flock_steps(b, 6);
        while ((a->tick + ph) % (uint64_t)R != off) {
            mur_flock_steps(a, 1);
            mur_flock_steps(b, 1);
        }
        assert_true(mur_flock_hash(a) == mur_flock_hash(b));
        /* off 0: boid 0 reads its neighbours on this tick, and sees the move; else it holds */
        const bool changed = move_changes_boid0(a, b);
        assert_true(changed == (off == 0));
        if (off > 0) {
            /* it sees the move on its next phase tick */
            for (uint32_t t = off + 1; t < (uint32_t)R; t++) {
                mur_flock_steps(a, 1);
                mur_flock_steps(b, 1);
                float va[3], vb[3];
                vel_of(a, 0, va);
                vel_of(b, 0, vb);
                assert_true(memcmp(va, vb, sizeof va) == 0);
            }
            mur_flock_steps(a, 1);
            mur_flock_steps(b, 1);
            float va[3], vb[3];
            vel_of(a, 0, va);
            vel_of(b, 0, vb);
            assert_true(memcmp(va, vb, sizeof va) != 0);
        }
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
    /* control: every tick with R = 1 */
    mur_flock *a = line(1), *b = line(1);
    mur_flock_steps(a, 6);
    mur_flock_steps(b, 6);
    assert_true(move_changes_boid0(a, b));
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

/* The phases are spread: each of R values holds about 1/R of the boids. */
static void phases_spread(void **st)
{
    (void)st;
    for (int32_t R = 2; R <= 8; R++) {
        int32_t count[8] = {0};
        for (int32_t i = 0; i < 8000; i++) {
            const uint32_t p = mur_react_phase(7, i, R);
            assert_true(p < (uint32_t)R);
            count[p]++;
        }
        for (int32_t p = 0; p < R; p++)
            assert_near((double)count[p], 8000.0 / R, 0.1 * 8000.0 / R);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(holds_between_reactions),
        cmocka_unit_test(phases_spread),
        cmocka_unit_test(hold_changes_flight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
