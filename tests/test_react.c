/* The reaction time (src/sim/react.h, reaction_ticks): with reaction_hold=sums a boid between its
 * reactions keeps the social steering of its last reading however its neighbours move, and reads them
 * again on its phase tick; with reaction_hold=list it keeps only who its neighbours are, and their moves
 * change its steering at once. The state differs from every tick's (its thread and path independence:
 * test_topo_state.c). */
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
static mur_flock *line_hold(int32_t R, mur_reaction_hold hold)
{
    mur_flock *f = make_starling_hold(12, R, hold, 1);
    for (int32_t i = 0; i < 12; i++)
        put(f, i, 0.0f, 40.0f, (float)i * 1.0f, 10.0f, 0.0f, 0.0f);
    return f;
}

static mur_flock *line(int32_t R)
{
    return line_hold(R, MUR_HOLD_SUMS);
}

static void vel_of(const mur_flock *f, int32_t i, float *v)
{
    memcpy(v, f->vel + 3 * (size_t)i, 3 * sizeof(float));
}

/* Boid 0's velocities in a and b differ. */
static bool boid0_differs(const mur_flock *a, const mur_flock *b)
{
    float va[3], vb[3];
    vel_of(a, 0, va);
    vel_of(b, 0, vb);
    return memcmp(va, vb, sizeof va) != 0;
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
    return boid0_differs(a, b);
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
                assert_false(boid0_differs(a, b));
            }
            mur_flock_steps(a, 1);
            mur_flock_steps(b, 1);
            assert_true(boid0_differs(a, b));
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


/* Two copies of the line holding its list, stepped until the next tick is boid 0's phase tick plus off. */
static void line_pair(int32_t R, uint32_t off, mur_flock **a, mur_flock **b)
{
    *a = line_hold(R, MUR_HOLD_LIST);
    *b = line_hold(R, MUR_HOLD_LIST);
    const uint32_t ph = mur_react_phase((*a)->def.seed, 0, R);
    mur_flock_steps(*a, 6);
    mur_flock_steps(*b, 6);
    while (((*a)->tick + ph) % (uint64_t)R != off) {
        mur_flock_steps(*a, 1);
        mur_flock_steps(*b, 1);
    }
    assert_true(mur_flock_hash(*a) == mur_flock_hash(*b));
}

/* reaction_hold=list: a neighbour's move changes boid 0's steering on every tick, its reading tick or
 * not, while its list stays what its last reading found; a boid outside the list that comes close
 * changes it only on the reading tick. */
static void list_sees_moves(void **st)
{
    (void)st;
    const int32_t R = 3;
    for (uint32_t off = 0; off < (uint32_t)R; off++) {
        mur_flock *a, *b;
        line_pair(R, off, &a, &b);
        const uint32_t at = a->react_at[0];
        int32_t idx[24];
        const int n = a->react_n[0];
        assert_true(n == 7); /* topo_k 6.5: the 7 nearest, boids 1..7 */
        memcpy(idx, a->react_idx, sizeof(int32_t) * (size_t)n);
        for (int q = 0; q < n; q++)
            assert_int_equal(idx[q], q + 1);
        /* boid 1 (in the list) 3 wu sideways: seen at once */
        assert_true(move_changes_boid0(a, b));
        if (off > 0) {
            /* a held tick: no new reading, the same list */
            assert_true(a->react_at[0] == at);
            assert_true(a->react_n[0] == n);
            assert_memory_equal(a->react_idx, idx, sizeof(int32_t) * (size_t)n);
        } else {
            assert_true(a->react_at[0] == (uint32_t)(a->tick - 1) + 1u);
        }
        mur_flock_destroy(a);
        mur_flock_destroy(b);
        /* boid 11 (not in the list) moved next to boid 0: seen only when boid 0 reads its neighbours */
        line_pair(R, off, &a, &b);
        const mur_view v = mur_flock_view(b);
        float p[3], w[3];
        memcpy(p, v.pos, sizeof p);
        memcpy(w, v.vel + 3 * 11, sizeof w);
        p[0] += 0.4f;
        assert_true(mur_flock_set_boid(b, 11, p, w, 0));
        mur_flock_steps(a, 1);
        mur_flock_steps(b, 1);
        assert_true(boid0_differs(a, b) == (off == 0));
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

/* reaction_hold=list with perch_neighbours off: a neighbour that perched between boid 0's readings is
 * dropped from its held list (where it sits does not matter); with perch_neighbours on it counts. */
static void list_drops_perched(void **st)
{
    (void)st;
    const int32_t R = 3;
    for (int pn = 0; pn < 2; pn++) {
        mur_flock *a, *b;
        line_pair(R, 1, &a, &b);
        for (int c = 0; c < 2; c++) {
            mur_flock *f = c ? b : a;
            assert_true(mur_flock_set(f, "perch_neighbours", pn ? "on" : "off", NULL));
            const mur_view v = mur_flock_view(f);
            float p[3], w[3] = {0.0f, 0.0f, 0.0f};
            memcpy(p, v.pos + 3, sizeof p);
            p[1] += c ? 2.0f : -2.0f; /* boid 1 perched 2 wu above or below its place */
            assert_true(mur_flock_set_boid(f, 1, p, w, 50));
        }
        mur_flock_steps(a, 1);
        mur_flock_steps(b, 1);
        assert_true(a->react_n[0] == 7); /* held: the list keeps its row; the pass skips boid 1 */
        assert_true(boid0_differs(a, b) == (pn == 1));
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

/* reaction_ticks 1: the hold is never used, whichever it is (the preset's state). */
static void list_r1_same(void **st)
{
    (void)st;
    mur_flock *a = make_starling_hold(2000, 1, MUR_HOLD_LIST, 2), *b = make_starling(2000, 1, 2);
    mur_flock_steps(a, 30);
    mur_flock_steps(b, 30);
    assert_true(mur_flock_hash(a) == mur_flock_hash(b));
    assert_true(a->react_at == NULL); /* no rows allocated */
    mur_flock_destroy(a);
    mur_flock_destroy(b);
    /* R = 3: the list hold differs from the sums hold and from every tick */
    mur_flock *l = make_starling_hold(2000, 3, MUR_HOLD_LIST, 2), *s = make_starling(2000, 3, 2),
              *one = make_starling(2000, 1, 2);
    mur_flock_steps(l, 30);
    mur_flock_steps(s, 30);
    mur_flock_steps(one, 30);
    assert_true(mur_flock_hash(l) != mur_flock_hash(s));
    assert_true(mur_flock_hash(l) != mur_flock_hash(one));
    /* the held rows: k indices, a count, a slot, a phase and a tick a boid; fewer bytes than the sums */
    assert_true(mur_flock_memory(l) < mur_flock_memory(s));
    assert_true(mur_flock_memory(s) - mur_flock_memory(l) ==
                (size_t)l->react_cap * (MUR_REACT_FLOATS * sizeof(float) - (7 * sizeof(int32_t) + 1 + sizeof(int32_t))));
    mur_flock_destroy(l);
    mur_flock_destroy(s);
    mur_flock_destroy(one);
}

/* The new parameter's refusals. */
static void hold_refusals(void **st)
{
    (void)st;
    mur_flock_def d = mur_flock_default_def();
    mur_error e;
    assert_false(mur_def_set(&d, "reaction_hold", "neighbours", &e));
    assert_non_null(strstr(e.msg, "bad value 'neighbours' for reaction_hold: expected one of sums|list"));
    assert_true(mur_def_set(&d, "reaction_hold", "list", &e));
    assert_true(d.reaction_hold == MUR_HOLD_LIST);
    d.reaction_ticks = 3; /* metric neighbours: refused, as with either hold */
    assert_false(mur_def_check(&d, &e));
    assert_non_null(strstr(e.msg, "reaction_ticks 3 needs neighbours=topological (or reaction_ticks=1)"));
    d.reaction_hold = (mur_reaction_hold)2;
    d.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    assert_false(mur_def_check(&d, &e));
    assert_non_null(strstr(e.msg, "reaction_hold"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(holds_between_reactions),
        cmocka_unit_test(phases_spread),
        cmocka_unit_test(hold_changes_flight),
        cmocka_unit_test(list_sees_moves),
        cmocka_unit_test(list_drops_perched),
        cmocka_unit_test(list_r1_same),
        cmocka_unit_test(hold_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
