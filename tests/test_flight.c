/* The flight model (src/sim/flight.c, docs/rules.md "Flight"): a level bird at cruise speed holds its
 * height, a climbing bird slows and a diving one speeds up, a rolled bird turns toward its up side,
 * lift grows with speed when the pitch does not hold it, bad values are refused, extreme states stay
 * finite, and every path and thread count gives the same bits. */
#include <math.h>

#include "util.h"

/* One bird, flight on (bank on, cruise 10 m/s, speed_tau 2 s), dt 0.01 s, no neighbours. */
static mur_flock_def one_bird(void)
{
    mur_flock_def d = topo_def(1, 1000.0f);
    d.dt = 0.01f;
    d.ground = -1e4f;
    d.bank = true;
    d.bank_rate = 10.0f;
    d.max_turn = 120.0f;
    d.cruise_speed = 10.0f;
    d.speed_tau = 2.0f;
    d.flight = true;
    return d;
}

static double speed(const mur_view *v, int i)
{
    const float *u = v->vel + 3 * i;
    return sqrt((double)u[0] * u[0] + (double)u[1] * u[1] + (double)u[2] * u[2]);
}

/* Level at cruise speed: lift equals weight, the bird holds its height and speed. */
static void level_holds(void **st)
{
    (void)st;
    mur_flock_def d = one_bird();
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 10, 0, 0);
    mur_flock_steps(f, 500);
    mur_view v = mur_flock_view(f);
    assert_near(v.pos[1], 0.0, 1e-4);
    assert_near(speed(&v, 0), 10.0, 1e-4);
    assert_near(v.pos[0], 50.0, 1e-2);
    mur_flock_destroy(f);
}

/* Climbing at 30 degrees the bird slows (gravity along its path, 4.9 m/s^2, against a thrust that
 * starts at 0); diving it speeds up; without the flight (bank only) the speed stays. */
static double after_climb(float vy, bool flight)
{
    mur_flock_def d = one_bird();
    d.flight = flight;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 10.0f * cosf(0.5235988f), vy, 0);
    mur_flock_steps(f, 20);
    mur_view v = mur_flock_view(f);
    const double s = speed(&v, 0);
    mur_flock_destroy(f);
    return s;
}

static void climb_trades_speed(void **st)
{
    (void)st;
    const float up = 10.0f * sinf(0.5235988f);
    assert_true(after_climb(up, true) < 10.0 - 0.8);   /* 0.2 s at about -4.9 m/s^2 */
    assert_true(after_climb(-up, true) > 10.0 + 0.8);
    assert_near(after_climb(up, false), 10.0, 1e-3);
}

/* A push to the right of +x: the bird rolls right (positive roll, its up axis leans right), turns
 * right (+z) and, the lift coefficient raised by 1 / cos(roll), holds its height. */
static void roll_turns(void **st)
{
    (void)st;
    mur_flock_def d = one_bird();
    d.wind = true;
    d.wind_vel[0] = 0.0f; d.wind_vel[1] = 0.0f; d.wind_vel[2] = 5.0f;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, 10, 0, 0);
    mur_flock_steps(f, 100);
    mur_view v = mur_flock_view(f);
    assert_true(v.roll[0] > 0.3f); /* atan(5 / 9.81) = 0.47 */
    assert_true(v.vel[2] > 2.0f);
    assert_true(fabs((double)v.pos[1]) < 0.05);
    mur_flock_destroy(f);
}

/* Faster than cruise: with flight_hold 0 the lift grows with speed^2 and the bird climbs; with 1 its
 * pitch holds the lift at the weight and it stays level; past flight_lift_max it climbs again. */
static double height_fast(float hold, float lift_max, float s)
{
    mur_flock_def d = one_bird();
    d.speed_tau = 0.0f; /* no thrust: keep the speed */
    d.flight_hold = hold;
    d.flight_lift_max = lift_max;
    mur_flock *f = make(&d);
    put(f, 0, 0, 0, 0, s, 0, 0);
    mur_flock_steps(f, 10);
    const double y = mur_flock_view(f).pos[1];
    mur_flock_destroy(f);
    return y;
}

static void lift_grows_with_speed(void **st)
{
    (void)st;
    assert_true(height_fast(0.0f, 2.0f, 13.0f) > 0.02); /* 0.69 g up for 0.1 s: 0.03 m */
    assert_near(height_fast(1.0f, 2.0f, 13.0f), 0.0, 1e-4);
    /* slower than cruise: 7 m/s needs 2.04 times the lift coefficient, above lift_max 2: it sinks */
    assert_true(height_fast(1.0f, 2.0f, 7.0f) < -1e-3);
    assert_near(height_fast(1.0f, 2.5f, 7.0f), 0.0, 1e-4);
}

/* Bad values: a one-line error naming the value; flight needs bank and a cruise speed. */
static void refused(void **st)
{
    (void)st;
    mur_flock_def d = mur_flock_default_def();
    mur_error err = {{0}};
    assert_false(mur_def_set_pair(&d, "flight_lift_max=0.5", &err));
    assert_non_null(strstr(err.msg, "flight_lift_max"));
    assert_false(mur_def_set_pair(&d, "flight_hold=1.5", &err));
    assert_non_null(strstr(err.msg, "flight_hold"));
    assert_false(mur_def_set_pair(&d, "flight=maybe", &err));
    d = one_bird();
    d.bank = false;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "flight=on needs bank=on"));
    d = one_bird();
    d.cruise_speed = 0.0f;
    assert_null(mur_flock_create(&d, &err));
    assert_non_null(strstr(err.msg, "cruise_speed"));
}

/* Extreme states stay finite: straight up, straight down, still, very fast, a huge push. */
static void finite(void **st)
{
    (void)st;
    mur_flock_def d = one_bird();
    d.boids = 6;
    d.wind = true;
    d.wind_vel[0] = 1e6f; d.wind_vel[1] = -1e6f; d.wind_vel[2] = 1e6f;
    d.max_speed = 1e6f;
    mur_flock *f = make(&d);
    const float vv[6][3] = {{0, 10, 0}, {0, -10, 0}, {0, 0, 0}, {1e6f, 0, 0}, {1e-20f, 1e-20f, 0}, {3, 0, 4}};
    for (int i = 0; i < 6; i++)
        put(f, i, 10.0f * (float)i, 0, 0, vv[i][0], vv[i][1], vv[i][2]);
    for (int t = 0; t < 200; t++) {
        mur_flock_step(f);
        mur_view v = mur_flock_view(f);
        for (int i = 0; i < 6; i++) {
            assert_true(isfinite(v.roll[i]));
            for (int a = 0; a < 3; a++)
                assert_true(isfinite(v.vel[3 * i + a]));
        }
    }
    mur_flock_destroy(f);
    d = one_bird();
    mur_flock *g = make(&d);
    put(g, 0, 0, 0, 0, 0, 10, 0); /* straight up: it stalls, pitches over and flies on */
    mur_flock_steps(g, 400);
    mur_view v = mur_flock_view(g);
    assert_true(fabs((double)v.vel[0]) + fabs((double)v.vel[2]) > 1.0);
    mur_flock_destroy(g);
}

/* A bird at min_speed 2 (the starling preset's) pointed up at angle deg from level, at 2 m/s, flight
 * on or off, flown 8 s: the time of its highest point, its height gain and its final vertical speed. */
static void stall(float deg, bool flight, double *t_top, double *gain, double *vy_end)
{
    mur_flock_def d = one_bird();
    d.flight = flight;
    d.min_speed = 2.0f;
    d.max_speed = 30.0f;
    mur_flock *f = make(&d);
    const float r = deg * 0.017453293f;
    put(f, 0, 0, 0, 0, 2.0f * cosf(r), 2.0f * sinf(r), 0);
    double top = 0.0;
    *t_top = 0.0;
    for (int t = 1; t <= 800; t++) {
        mur_flock_step(f);
        mur_view v = mur_flock_view(f);
        if (v.pos[1] > top) {
            top = v.pos[1];
            *t_top = 0.01 * t;
        }
        *vy_end = v.vel[1];
        for (int a = 0; a < 3; a++)
            assert_true(isfinite(v.vel[a]));
        assert_true(speed(&v, 0) >= 2.0 * (1.0 - 1e-5) && speed(&v, 0) <= 30.0 * (1.0 + 1e-5));
    }
    *gain = top;
    mur_flock_destroy(f);
}

/* Stall recovery: with the flight on and min_speed 2 a bird pointed straight up or at 80 degrees
 * stops gaining height within 2 s (gravity takes its climb; the clamp adds the missing speed on its
 * level heading, not along its upward path), gains under 1 m and ends level or descending (the
 * flight pulls it out of the dive it falls into). The clamp along the path (the flight off) would
 * hold it at 2 m/s straight up: +16 m in 8 s, still climbing. */
static void stall_recovers(void **st)
{
    (void)st;
    const float angles[2] = {90.0f, 80.0f};
    for (int q = 0; q < 2; q++) {
        double t_top, gain, vy;
        stall(angles[q], true, &t_top, &gain, &vy);
        print_message("flight on, %g deg: top at %.2f s, +%.3f m, final v_y %.3f m/s\n", (double)angles[q], t_top,
                      gain, vy);
        assert_true(t_top < 2.0);
        assert_true(gain < 1.0);
        assert_true(vy < 0.5);
    }
}

/* One step of a bird at 1 m/s straight up and one at 1 m/s 80 degrees up (min_speed 2): with the
 * flight on the clamp keeps the vertical speed (below 1 m/s after gravity) and puts the rest of the
 * 2 m/s on the level heading (for the vertical one, the way the lift first pushed it); with it off (bank only) it scales along
 * the path, so the vertical bird stays vertical at 2 m/s. */
static void stall_clamp(void **st)
{
    (void)st;
    for (int flight = 0; flight <= 1; flight++) {
        mur_flock_def d = one_bird();
        d.boids = 2;
        d.flight = flight;
        d.min_speed = 2.0f;
        d.max_speed = 30.0f;
        mur_flock *f = make(&d);
        put(f, 0, 0, 0, 0, 0, 1, 0);
        put(f, 1, 500, 0, 0, 0.17364818f, 0.98480775f, 0);
        mur_flock_step(f);
        mur_view v = mur_flock_view(f);
        for (int i = 0; i < 2; i++)
            assert_near(speed(&v, i), 2.0, 1e-5);
        if (flight) {
            assert_true(v.vel[1] < 1.0f && v.vel[1] > 0.8f && v.vel[4] < 1.0f && v.vel[4] > 0.8f);
            assert_near(v.vel[0], 0.0, 0.0);
            assert_true(fabsf(v.vel[2]) > 1.7f); /* the lift's first push sets the heading */
            assert_true(v.vel[3] > 1.7f);
        } else {
            assert_near(v.vel[0], 0.0, 0.0);
            assert_near(v.vel[2], 0.0, 0.0);
            assert_near(v.vel[1], 2.0, 1e-5);
            assert_near(v.vel[4] / v.vel[3], 0.98480775 / 0.17364818, 1e-3);
        }
        mur_flock_destroy(f);
    }
}

/* The starling preset with the flight on, min_speed 0 and the preset's 2 (with birds set stalled in
 * a climb, so the flight's clamp acts): the scalar update and every kernel path on 1 and 2 threads
 * give the same state. */
static void same_bits(void **st)
{
    (void)st;
    for (int lo = 0; lo <= 2; lo += 2) {
        uint64_t ref = 0;
        bool have = false;
        for (int scalar = 0; scalar <= 1; scalar++)
            for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++)
                for (int threads = 1; threads <= 2; threads++) {
                    mur_flock_def d;
                    assert_true(mur_def_preset(&d, "starling", NULL));
                    d.boids = 1500;
                    d.flight = true;
                    d.lift = false;
                    d.min_speed = (float)lo;
                    mur_flock *f = make_path(d, scalar, p, threads);
                    if (!f)
                        continue;
                    if (lo > 0) { /* every 25th bird stalled straight up, every 25th at 80 degrees */
                        const mur_view v0 = mur_flock_view(f);
                        for (int i = 0; i < v0.boids; i += 25) {
                            const float *q = v0.pos + 3 * i;
                            put(f, i, q[0], q[1], q[2], 0, 1.5f, 0);
                            if (i + 1 < v0.boids)
                                put(f, i + 1, q[3], q[4], q[5], 0.26f, 1.47f, 0);
                        }
                    }
                    mur_flock_steps(f, 150);
                    const mur_view v = mur_flock_view(f);
                    /* the boids only (the predator differs) */
                    uint64_t h = 1469598103934665603ULL;
                    const unsigned char *b = (const unsigned char *)v.pos;
                    for (size_t q = 0; q < sizeof(float) * 3 * (size_t)v.boids; q++)
                        h = (h ^ b[q]) * 1099511628211ULL;
                    b = (const unsigned char *)v.roll;
                    for (size_t q = 0; q < sizeof(float) * (size_t)v.boids; q++)
                        h = (h ^ b[q]) * 1099511628211ULL;
                    if (!have) {
                        ref = h;
                        have = true;
                    } else if (h != ref) {
                        fail_msg("min_speed %d, scalar %d, path %s, %d threads: %016llx, first %016llx", lo, scalar,
                                 mur_simd_name((mur_simd)p), threads, (unsigned long long)h, (unsigned long long)ref);
                    }
                    mur_flock_destroy(f);
                }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level_holds), cmocka_unit_test(climb_trades_speed), cmocka_unit_test(roll_turns),
        cmocka_unit_test(lift_grows_with_speed), cmocka_unit_test(refused), cmocka_unit_test(finite),
        cmocka_unit_test(stall_recovers), cmocka_unit_test(stall_clamp),
        cmocka_unit_test(same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
