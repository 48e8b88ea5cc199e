/* The vacuole (escape_vacuole, src/sim/escape.c, docs/falcon.md): a bird near the attacking falcon flees
 * away from its path whatever the falcon's speed, and the metrics' birds near the falcon
 * (falcon_near, falcon_nn: src/sim/falcon_near.c) on a constructed state; the speed the birds met (the
 * attack_end event's aux), the closest approach (the closest event) and the falcon pressing home
 * (falcon_press). Constructed cases on the
 * neutral rules (only the escape moves the birds); bad values are refused. */
#include "util.h"

#include "falcon.h"
#include "flock_impl.h"

/* Two birds flying +z at 1 m/s, 3 m either side of x = 0; the falcon sets up 20 m above their centre and
 * comes down at them slowly (8 m/s: no flight from its path, no part, no manoeuvre that moves a bird). */
static mur_flock_def vac_def(float vacuole)
{
    mur_flock_def d = falcon_above_def(2, 8.0f);
    d.falcon_target = MUR_FALCON_CENTROID;
    d.escape_flee_accel = 10.0f;
    d.escape_vacuole = vacuole;
    return d;
}

/* The slow falcon passes down x = 0, about 3 m from each bird. With escape_vacuole 4 m both flee away from
 * its path once it is within 4 m: the one at x = -3 to -x, the one at x = +3 to +x, mirror images;
 * with 2 m (it never comes that near) or 0 (off) neither moves sideways. */
static void falcon_vacuole_opens(void **st)
{
    (void)st;
    const float vac[3] = {4.0f, 2.0f, 0.0f};
    for (int c = 0; c < 3; c++) {
        mur_flock_def d = vac_def(vac[c]);
        mur_flock *f = make(&d);
        put(f, 0, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
        put(f, 1, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
        float far_x = 0.0f;
        for (int t = 0; t < 200; t++) { /* 4 s: the falcon reaches them after about 2.5 s */
            mur_flock_step(f);
            const mur_view v = mur_flock_view(f);
            far_x = fmaxf(far_x, fabsf(v.vel[3]));
            assert_near(v.vel[0], -v.vel[3], 1e-4);
        }
        const mur_view v = mur_flock_view(f);
        if (c == 0) {
            assert_true(v.pos[0] < -3.2f && v.pos[3] > 3.2f); /* apart, each away from the falcon */
            assert_true(far_x > 0.5f);
        } else {
            assert_true(far_x < 1e-6f);
        }
        mur_flock_destroy(f);
    }
}

/* The birds near the falcon: falcon at the origin, attacking. Within 10 m: birds at x = 1 and 2.5 (each
 * the other's nearest, 1.5 m), at x = 9 (nearest: the one at x = 11, outside the 10 m but counted as a
 * neighbour), at y = 8 (alone: its nearest, 9.4 m off, counts as 5 m) and a perched one (left out). */
static void falcon_near_measured(void **st)
{
    (void)st;
    mur_flock_def d = vac_def(0.0f);
    d.boids = 7;
    mur_flock *f = make(&d);
    put(f, 0, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 1, 2.5f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 2, 9.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 3, 11.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 4, 0.0f, 8.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    put(f, 5, 0.0f, 0.0f, 30.0f, 0.0f, 0.0f, 5.0f);
    put(f, 6, 1.2f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
    f->perch[6] = 10;
    f->falcon.pos[0] = f->falcon.pos[1] = f->falcon.pos[2] = 0.0f;
    double nn = -1.0;
    int32_t k = -1;
    f->falcon.phase = MUR_FALCON_OFF;
    mur_falcon_near(f, &nn, &k);
    assert_int_equal(k, 0);
    assert_near(nn, 0.0, 0.0);
    f->falcon.phase = MUR_FALCON_APPROACH;
    mur_falcon_near(f, &nn, &k);
    assert_int_equal(k, 4);
    assert_near(nn, (1.5 + 1.5 + 2.0 + 5.0) / 4.0, 1e-6);
    f->falcon.pos[0] = 100.0f; /* no bird near */
    mur_falcon_near(f, &nn, &k);
    assert_int_equal(k, 0);
    assert_near(nn, 0.0, 0.0);
    f->perch[6] = 0;
    mur_flock_destroy(f);
}

/* The two birds of the falcon's pass (flying +z at 1 m/s, x = -3 and +3 m) under a falcon like vac_def's, sped up
 * to 20 m/s, for the readings below. */
static mur_flock *pass_flock(mur_flock_def d, float attack)
{
    d.falcon_attack_speed = 20.0f;
    d.falcon_attack = attack;
    mur_flock *f = make(&d);
    put(f, 0, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    put(f, 1, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    return f;
}

/* One step; the step's events of kind a and b into *ea and *eb (each left as it was when there is none). */
static void step_events(mur_flock *f, int a, mur_event *ea, int b, mur_event *eb)
{
    mur_flock_step(f);
    mur_event ev[MUR_MAX_EVENTS];
    const int k = mur_flock_events(f, ev, MUR_MAX_EVENTS);
    for (int e = 0; e < k; e++) {
        if (ev[e].kind == a && ea)
            *ea = ev[e];
        if (ev[e].kind == b && eb)
            *eb = ev[e];
    }
}

/* The speed the birds met (the attack_end event's aux): the falcon sets up 20 m above the two birds at 8 m/s
 * and speeds up towards 20 m/s as it comes down. Read here tick by tick from the state at the start of each
 * step: its speed on the first attacking tick with a bird nearer than escape_radius. With escape_radius 20 m
 * that is at once (about 8 m/s), with 5 m later and faster; with 0 no bird sees it and aux is 0. */
static double met_speed(float radius, double *expected)
{
    mur_flock_def d = vac_def(0.0f);
    d.escape_radius = radius;
    mur_flock *f = pass_flock(d, 3.0f);
    mur_event end = {.kind = -1};
    *expected = 0.0;
    for (int t = 0; t < 400 && end.kind < 0; t++) {
        const mur_falcon *F = &f->falcon;
        const bool attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
        float near2 = INFINITY;
        for (int i = 0; i < 2; i++) {
            const float r[3] = {f->pos[3 * i] - F->pos[0], f->pos[3 * i + 1] - F->pos[1], f->pos[3 * i + 2] - F->pos[2]};
            near2 = fminf(near2, dot3(r, r));
        }
        if (attacking && *expected == 0.0 && near2 < radius * radius)
            *expected = len3(F->vel);
        step_events(f, MUR_EVENT_ATTACK_END, &end, -1, NULL);
    }
    mur_flock_destroy(f);
    return end.kind < 0 ? -1.0 : end.aux;
}

static void falcon_met_speed(void **st)
{
    (void)st;
    double e20, e5, e0;
    const double a20 = met_speed(20.0f, &e20), a5 = met_speed(5.0f, &e5), a0 = met_speed(0.0f, &e0);
    assert_true(e20 >= 8.0 && e20 < 9.0); /* met at once: still near its set-up speed */
    assert_near(a20, e20, 1e-9);
    assert_true(e5 > e20 + 2.0 && e5 <= 20.0); /* met later, faster */
    assert_near(a5, e5, 1e-9);
    assert_near(e0, 0.0, 0.0);
    assert_near(a0, 0.0, 0.0);
}

/* The closest approach (the closest event, with attack_end): the same falcon at the two birds 6 m apart,
 * aiming at their centroid, passes down between them, so its least distance to a bird is about 3 m (their
 * half spacing), reached later than the birds first see it and so at a higher speed than the speed they met.
 * Read here tick by tick from the state at the start of each attacking step: the first tick with the least
 * distance, the bird, the falcon's speed and position then; the event must give them exactly. */
static void falcon_closest_approach(void **st)
{
    (void)st;
    mur_flock *f = pass_flock(vac_def(0.0f), 3.0f);
    float best = INFINITY, speed = 0.0f, at[3] = {0, 0, 0};
    int32_t bird = -1;
    uint64_t tick = 0;
    mur_event start = {.kind = -1}, close = {.kind = -1}, end = {.kind = -1};
    for (int t = 0; t < 400 && end.kind < 0; t++) {
        const mur_falcon *F = &f->falcon;
        const bool attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
        for (int i = 0; attacking && i < 2; i++) {
            const float r[3] = {f->pos[3 * i] - F->pos[0], f->pos[3 * i + 1] - F->pos[1], f->pos[3 * i + 2] - F->pos[2]};
            if (dot3(r, r) < best) {
                best = dot3(r, r);
                speed = len3(F->vel);
                bird = i;
                tick = f->tick;
                memcpy(at, F->pos, sizeof at);
            }
        }
        if (start.kind < 0)
            step_events(f, MUR_EVENT_ATTACK_START, &start, -1, NULL);
        else
            step_events(f, MUR_EVENT_ATTACK_END, &end, MUR_EVENT_CLOSEST, &close);
    }
    mur_flock_destroy(f);
    assert_true(start.kind >= 0 && end.kind >= 0 && close.kind >= 0);
    assert_int_equal(close.tick, end.tick); /* written with attack_end */
    assert_string_equal(mur_event_name(MUR_EVENT_CLOSEST), "closest");
    assert_true(sqrtf(best) > 2.5f && sqrtf(best) < 3.5f); /* by hand: about the birds' half spacing */
    assert_near(close.value, sqrt((double)best), 1e-9);
    assert_near(close.aux, speed, 1e-9);
    assert_int_equal(close.bird, bird);
    assert_int_equal(close.count, (int64_t)(tick - start.tick));
    for (int c = 0; c < 3; c++)
        assert_near(close.pos[c], at[c], 0.0);
    assert_true(close.aux > end.aux + 2.0 && close.aux <= 20.0); /* later than met (about 8 m/s), faster */
}

/* The falcon presses home (falcon_press): the same pass between two birds 6 m apart, its closest approach about
 * 3 m. The attack's length (the attack_end event's value) and the flock's state hash 6 s on: with 0 (off) the
 * falcon gives up falcon_dogfight (1 s) after lock-on; with 2 m it never comes that near and goes on to
 * falcon_attack (4 s); with 5 m it came that near before the dogfight ended: as with 0, bit for bit. */
static double pressed_attack(float press, uint64_t *hash)
{
    mur_flock_def d = vac_def(0.0f);
    d.falcon_dogfight = 1.0f;
    d.falcon_press = press;
    mur_flock *f = pass_flock(d, 4.0f);
    mur_event end = {.kind = -1};
    for (int t = 0; t < 300; t++) {
        mur_event e = {.kind = -1};
        step_events(f, MUR_EVENT_ATTACK_END, &e, -1, NULL);
        end = end.kind < 0 ? e : end;
    }
    *hash = mur_flock_hash(f);
    mur_flock_destroy(f);
    return end.kind < 0 ? -1.0 : end.value;
}

static void falcon_presses_home(void **st)
{
    (void)st;
    uint64_t h0, h2, h5;
    const double l0 = pressed_attack(0.0f, &h0), l2 = pressed_attack(2.0f, &h2), l5 = pressed_attack(5.0f, &h5);
    assert_true(l0 > 1.0 && l0 < 3.0); /* lock-on, then 1 s */
    assert_true(l2 >= 4.0 - 1e-6 && l2 < 4.1); /* to falcon_attack */
    assert_near(l5, l0, 0.0);
    assert_true(h5 == h0);
    assert_true(h2 != h0);
}

/* Bad values: one line naming the value and the range. */
static void falcon_vacuole_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"escape_vacuole=-1", "escape_vacuole=101", "escape_vacuole=nan",
                                      "escape_vacuole=inf"};
    assert_refused(bad, sizeof bad / sizeof bad[0], "escape_vacuole");
    static const char *const bad_press[] = {"falcon_press=-1", "falcon_press=101", "falcon_press=nan",
                                            "falcon_press=inf"};
    assert_refused(bad_press, sizeof bad_press / sizeof bad_press[0], "falcon_press");
    mur_flock_def d = mur_flock_default_def();
    assert_true(mur_def_set_pair(&d, "escape_vacuole=0", NULL));
    assert_true(mur_def_set_pair(&d, "escape_vacuole=100", NULL));
    assert_true(mur_def_set_pair(&d, "falcon_press=0", NULL));
    assert_true(mur_def_set_pair(&d, "falcon_press=100", NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_vacuole_opens),
        cmocka_unit_test(falcon_near_measured),
        cmocka_unit_test(falcon_met_speed),
        cmocka_unit_test(falcon_closest_approach),
        cmocka_unit_test(falcon_presses_home),
        cmocka_unit_test(falcon_vacuole_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
