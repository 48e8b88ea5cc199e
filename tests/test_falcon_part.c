/* The part (escape_part_speed, src/sim/escape.c, docs/falcon.md): a bird that sees a fast falcon turns
 * away from the falcon's path line and speeds up, so birds on either side of the path turn apart; a
 * copier parts on its own side of the line, not its neighbour's. The flash (escape_flash_speed): an escape
 * started by a faster falcon, and its copies (up to escape_flash_hops), last escape_flash_time. From escape_wave_hops
 * copies on, a front started at medium speed copies the wave's manoeuvre, not the flight from the falcon's path. Constructed cases on the neutral rules
 * (no steering of their own: only the escape moves the birds); bad values are refused. */
#include "util.h"

/* Two or three birds flying +z at 5 m/s; the falcon sets up 20 m above their centre and dives at them
 * at 20 m/s (its path vertical, through x = 0). No flight from the path (escape_flee_time 0) and a
 * manoeuvre from the mix that does not move a bird (escape_accel 0): only the part moves them. */
static mur_flock_def part_def(int32_t n, float part_speed)
{
    mur_flock_def d = falcon_above_def(n, 20.0f);
    d.escape_part_speed = part_speed;
    d.escape_part_accel = 10.0f;
    d.escape_part_speedup = 5.0f;
    d.escape_reaction = 0.0f; /* a copier copies as soon as it may (escape_latency, one tick) */
    d.escape_copy_speed = 0.0f;
    return d;
}

/* Birds 3 m either side of the falcon's path: the falcon flies at about 20.6 m/s against them, over
 * escape_part_speed 10 m/s; both see it and part, the one at x = -3 to -x, the one at x = +3 to +x (a
 * banked turn away from the line on its own side, not both to one side), and both speed up along their
 * heading. With escape_part_speed 30 m/s (faster than the falcon flies against them) or 0 (off) neither
 * moves. */
static void falcon_part_turns_apart(void **st)
{
    (void)st;
    const float speeds[3] = {10.0f, 30.0f, 0.0f};
    for (int c = 0; c < 3; c++) {
        mur_flock_def d = part_def(2, speeds[c]);
        mur_flock *f = make(&d);
        put(f, 0, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 1, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        for (int t = 0; t < 11; t++) /* the set-up tick, then 10 ticks (0.2 s) */
            mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        if (c == 0) {
            assert_true(v.vel[0] < -0.5f); /* the bird at x = -3 turns to -x */
            assert_true(v.vel[3] > 0.5f);  /* the one at x = +3 to +x */
            assert_near(v.vel[0], -v.vel[3], 1e-4);
            assert_true(v.vel[2] > 5.5f && v.vel[5] > 5.5f); /* faster along the heading */
            assert_int_equal(v.escape[0] & 7, MUR_ESCAPE_TURN);
            assert_int_equal(v.escape[1] & 7, MUR_ESCAPE_TURN);
        } else {
            for (int i = 0; i < 2; i++) {
                assert_true(fabsf(v.vel[3 * i]) < 1e-6f);
                assert_near(v.vel[3 * i + 2], 5.0f, 1e-6);
            }
        }
        mur_flock_destroy(f);
    }
}

/* The copy keeps the side: bird D at x = +2 sees the falcon (15 m off); bird C at x = -2, 10 m lower, is
 * 25 m from it, beyond escape_radius, and can only copy D. The falcon's path runs down x = 0 (it dives at
 * their centre). With the part, D turns to +x and C, copying, to -x: away from the line on its own side.
 * A turn from the mix copied with its side (escape_copy_side, the wave) takes both to +x. */
static void falcon_part_copy_keeps_side(void **st)
{
    (void)st;
    for (int c = 0; c < 2; c++) {
        const bool part = c == 0;
        mur_flock_def d = part_def(2, part ? 10.0f : 0.0f);
        if (!part) { /* the wave's turn: every manoeuvre a turn away from the falcon, copied with its side */
            d.escape_accel = 10.0f;
            d.escape_zigzag = d.escape_dive = d.escape_speedup = 0.0f;
            d.escape_turn = 1.0f;
            d.escape_copy_side = true;
        }
        mur_flock *f = make(&d);
        put(f, 0, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);   /* D */
        put(f, 1, -2.0f, -10.0f, 0.0f, 0.0f, 0.0f, 5.0f); /* C */
        int c_start = -1, d_start = -1;
        for (int t = 1; t <= 16; t++) {
            mur_flock_step(f);
            const mur_view v = mur_flock_view(f);
            d_start = d_start < 0 && v.escape[0] != MUR_ESCAPE_CALM ? t : d_start;
            c_start = c_start < 0 && v.escape[1] != MUR_ESCAPE_CALM ? t : c_start;
        }
        const mur_view v = mur_flock_view(f);
        assert_true(d_start > 0 && c_start > d_start); /* C copied D, with the latency */
        assert_true(v.vel[0] > 0.2f);                  /* D to +x, away from the line */
        if (part)
            assert_true(v.vel[3] < -0.2f); /* C to -x: its own side of the line */
        else
            assert_true(v.vel[3] > 0.2f); /* the same side as D */
        mur_flock_destroy(f);
    }
}

/* D and C as in the flash cases below, with the flash at flash_speed and escape_flash_hops hops: the ticks each turns in 1.8 s
 * (within the refractory time, 2 s, after either manoeuvre), C having copied D; D's x at the end. */
static float flash_turns(float flash_speed, int32_t hops, int turn[2])
{
    mur_flock_def d = part_def(2, 10.0f);
    d.escape_flash_speed = flash_speed;
    d.escape_flash_time = 1.0f;
    d.escape_flash_hops = hops;
    mur_flock *f = make(&d);
    put(f, 0, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);   /* D */
    put(f, 1, -2.0f, -10.0f, 0.0f, 0.0f, 0.0f, 5.0f); /* C */
    int start[2] = {-1, -1};
    turn[0] = turn[1] = 0;
    for (int t = 1; t <= 90; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int i = 0; i < 2; i++) {
            turn[i] += (v.escape[i] & 7) == MUR_ESCAPE_TURN;
            start[i] = start[i] < 0 && v.escape[i] != MUR_ESCAPE_CALM ? t : start[i];
        }
    }
    assert_true(start[0] > 0 && start[1] > start[0]); /* C copied D */
    const float x = mur_flock_view(f).pos[0];
    mur_flock_destroy(f);
    return x;
}

/* The flash (escape_flash_speed): D (x = +2) sees the falcon diving at about 20.6 m/s against it and parts; C
 * (x = -2, 10 m lower, beyond escape_radius) copies D. With escape_flash_speed 10 m/s (the falcon faster than
 * that) D's part is a flash and lasts escape_flash_time (1 s: 50 ticks) instead of escape_time (0.55 s: 28
 * ticks), and C's copy of it too; with 30 m/s (faster than the falcon) or 0 (off) both last escape_time. A
 * flashing bird ends farther from the falcon's path (x = 0) than one that parts for escape_time. */
static void falcon_flash_lasts(void **st)
{
    (void)st;
    const float speeds[3] = {10.0f, 30.0f, 0.0f};
    float far[3];
    for (int c = 0; c < 3; c++) {
        int turn[2];
        far[c] = flash_turns(speeds[c], 0, turn);
        for (int i = 0; i < 2; i++)
            assert_int_equal(turn[i], c == 0 ? 50 : 28);
    }
    assert_true(far[0] > far[1] + 0.5f);
    assert_true(far[1] == far[2]); /* a flash speed over the falcon's is off */
}

/* The flash's copies fade (escape_flash_hops): the case above with the flash on (10 m/s). D saw the falcon, C
 * is one copy from it. With escape_flash_hops 1 C's copy is not a flash (escape_time: 28 ticks) while D's part
 * still is (50 ticks); with 2, or 0 (every copy a flash: round 11's rule), both are. */
static void falcon_flash_hops(void **st)
{
    (void)st;
    const int32_t hops[3] = {1, 2, 0};
    for (int c = 0; c < 3; c++) {
        int turn[2];
        (void)flash_turns(10.0f, hops[c], turn);
        assert_int_equal(turn[0], 50);
        assert_int_equal(turn[1], c == 0 ? 28 : 50);
    }
}

/* D and C as in the flash cases, the wave beyond the burst (escape_wave_hops) at hops: D, within the vacuole (25 m),
 * flees the falcon's path, and C copies the flight or, as the wave, a manoeuvre from the mix (all dive, escape_accel
 * 10); the falcon flies 20 m/s (its own speed; about 20.6 against D), escape_alarm_speed alarm, escape_part_speed
 * part. C's velocity after 0.2 s into cv. */
static void wave_copy(int32_t hops, float alarm, float part, float cv[3])
{
    mur_flock_def d = part_def(2, part);
    d.escape_vacuole = 25.0f;
    d.escape_accel = 10.0f;
    d.escape_zigzag = d.escape_turn = d.escape_speedup = 0.0f;
    d.escape_dive = 1.0f;
    d.escape_alarm_speed = alarm;
    d.escape_wave_hops = hops;
    mur_flock *f = make(&d);
    put(f, 0, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);   /* D */
    put(f, 1, -2.0f, -10.0f, 0.0f, 0.0f, 0.0f, 5.0f); /* C */
    int start[2] = {-1, -1};
    for (int t = 1; t <= 10; t++) { /* C stays beyond escape_radius (20 m) from the falcon */
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int i = 0; i < 2; i++)
            start[i] = start[i] < 0 && v.escape[i] != MUR_ESCAPE_CALM ? t : start[i];
    }
    assert_true(start[0] > 0 && start[1] > start[0]); /* C copied D */
    const mur_view v = mur_flock_view(f);
    assert_true(v.vel[0] > 0.2f); /* D flees to +x, away from the path, whatever C does */
    for (int c = 0; c < 3; c++)
        cv[c] = v.vel[3 + c];
    mur_flock_destroy(f);
}

/* The wave beyond the burst (escape_wave_hops): D flees the falcon's path (the vacuole), C is one copy from D. With
 * escape_wave_hops 1 C's copy is the wave's manoeuvre (a dive), not the flight: it goes down and not sideways
 * (escape_alarm_speed 0 or 15 m/s, under the falcon's 20; escape_part_speed 30, over its 20.6 against D); with 2 (C
 * too near D), or 0 (off), C flees the path too, to -x. Not in a front that is not at medium speed: with
 * escape_alarm_speed 25 m/s (the falcon flies slower: a slow front) or escape_part_speed 10 m/s (the falcon comes at D
 * faster: the startle's speed, a fast front) C flees at escape_wave_hops 1 too. */
static void falcon_wave_hops(void **st)
{
    (void)st;
    static const struct {
        int32_t hops;
        float alarm, part;
        bool wave;
    } cases[] = {{1, 0.0f, 30.0f, true},  {1, 15.0f, 30.0f, true}, {2, 0.0f, 30.0f, false},
                 {0, 0.0f, 30.0f, false}, {1, 25.0f, 30.0f, false}, {1, 0.0f, 10.0f, false}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        float cv[3];
        wave_copy(cases[k].hops, cases[k].alarm, cases[k].part, cv);
        if (cases[k].wave) {
            assert_true(cv[1] < -0.2f);        /* the dive */
            assert_true(fabsf(cv[0]) < 1e-6f); /* not the flight */
        } else {
            assert_true(cv[0] < -0.2f); /* the flight, away from the path on C's side */
            assert_true(cv[1] > -0.2f); /* no dive */
        }
    }
}

/* Bad values: one line naming the value and the range. */
static void falcon_part_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_part_speed=-1", "escape_part_speed=1001", "escape_part_speed=nan",
                                      "escape_part_accel=-0.5", "escape_part_accel=inf", "escape_part_accel=1001",
                                      "escape_part_speedup=-1", "escape_part_speedup=nan", "escape_part_speedup=1e9"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_part_");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_part_speed=1000", NULL));
    assert_true(mur_def_set_pair(&d, "escape_part_accel=0", NULL));
    static const char *const flash[] = {"escape_flash_speed=-1", "escape_flash_speed=1001", "escape_flash_speed=nan",
                                        "escape_flash_time=0", "escape_flash_time=-1", "escape_flash_time=101",
                                        "escape_flash_time=inf", "escape_flash_hops=-1", "escape_flash_hops=101",
                                        "escape_flash_hops=1.5"};
    assert_refused(flash, sizeof flash / sizeof flash[0], "escape_flash_");
    assert_true(mur_def_set_pair(&d, "escape_flash_speed=0", NULL));
    assert_true(mur_def_set_pair(&d, "escape_flash_time=100", NULL));
    assert_true(mur_def_set_pair(&d, "escape_flash_hops=100", NULL));
    assert_int_equal(mur_flock_default_def().escape_flash_hops, 10);
    static const char *const wave[] = {"escape_wave_hops=-1", "escape_wave_hops=101", "escape_wave_hops=2.5",
                                       "escape_wave_hops=nan"};
    assert_refused(wave, sizeof wave / sizeof wave[0], "escape_wave_hops");
    assert_true(mur_def_set_pair(&d, "escape_wave_hops=100", NULL));
    assert_true(mur_def_set_pair(&d, "escape_wave_hops=0", NULL));
    assert_int_equal(mur_flock_default_def().escape_wave_hops, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_part_turns_apart),
        cmocka_unit_test(falcon_part_copy_keeps_side),
        cmocka_unit_test(falcon_flash_lasts),
        cmocka_unit_test(falcon_flash_hops),
        cmocka_unit_test(falcon_wave_hops),
        cmocka_unit_test(falcon_part_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
