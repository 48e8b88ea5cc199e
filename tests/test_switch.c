/* Live preset switches (mur_flock_apply_preset, mur_flock_switch_def) and a fuzz of live parameter
 * changes: every preset to every other at several points of a flight, with 300 and 2000 boids; the
 * state stays finite, every boid is inside the new world within IN_S seconds of simulated time, and the
 * flock flies on. Then the same switches on 1, 2 and 4 threads give the same bits, and thousands of
 * random changes (mur_flock_set with in-range and out-of-range values of every parameter of the
 * table, preset switches) between steps keep the state finite and refuse every bad value.
 *
 * MURMUR_SWITCH_VERBOSE=1 prints what each switch measured (the ranges below come from such runs). */
#include "util.h"

/// The bound of "within a few seconds": simulated seconds after a switch by which every boid must be
/// inside the new world (mur_flock_switch_def puts them there at once; the bound is the contract).
#define IN_S 2.0
/// Ticks after the switch at which the flock is measured (it flies on).
#define AFTER 100

static bool verbose(void)
{
    const char *s = getenv("MURMUR_SWITCH_VERBOSE");
    return s && *s && strcmp(s, "0") != 0;
}

static mur_flock_def preset_def(const char *name)
{
    mur_flock_def d;
    mur_error err;
    if (!mur_def_preset(&d, name, &err))
        fail_msg("%s", err.msg);
    return d;
}

/* Every position, velocity, roll and predator finite; perch timers not negative. */
static void assert_finite(const mur_flock *f, const char *when)
{
    mur_view v = mur_flock_view(f);
    for (int32_t i = 0; i < v.boids; i++) {
        for (int a = 0; a < 3; a++)
            if (!isfinite(v.pos[3 * i + a]) || !isfinite(v.vel[3 * i + a]))
                fail_msg("%s, tick %llu: boid %d not finite (%g %g %g / %g %g %g)", when, (unsigned long long)v.tick,
                         (int)i, (double)v.pos[3 * i], (double)v.pos[3 * i + 1], (double)v.pos[3 * i + 2],
                         (double)v.vel[3 * i], (double)v.vel[3 * i + 1], (double)v.vel[3 * i + 2]);
        if (!isfinite(v.roll[i]) || v.perch[i] < 0)
            fail_msg("%s, tick %llu: boid %d roll %g perch %d", when, (unsigned long long)v.tick, (int)i,
                     (double)v.roll[i], (int)v.perch[i]);
    }
    for (int32_t k = 0; k < 3 * v.predators; k++)
        if (!isfinite(v.pred_pos[k]) || !isfinite(v.pred_vel[k]))
            fail_msg("%s, tick %llu: predator value %d not finite", when, (unsigned long long)v.tick, (int)k);
}

/* How far boid i is outside the world of r (resolved def), beyond what the world allows: with soft
 * walls the box grown by bounds_margin and the distance the push stops a boid at max_speed in
 * (max_speed^2 / 2 bounds_turn: 4.8 wu for classic, whose own flocks stay inside the box; a dense flock
 * just brought in was measured 0.16 wu past bounds_margin); bounce and wrap the box; no walls and a roost: 1.5 roost_radius
 * from the roost horizontally and 25 wu from its altitude (starling flocks reach 1.2 roost_radius and
 * 8 wu, measured); 0 when inside. */
static double outside(const mur_flock_def *r, const float *p)
{
    double o = 0.0;
    if (r->bounds != MUR_BOUNDS_NONE) {
        const double m = r->bounds == MUR_BOUNDS_SOFT
                             ? r->bounds_margin + (double)r->max_speed * r->max_speed / (2.0 * r->bounds_turn)
                             : 1e-3;
        for (int a = 0; a < 3; a++) {
            o = fmax(o, (double)r->world_min[a] - m - p[a]);
            o = fmax(o, p[a] - (double)r->world_max[a] - m);
        }
        return o;
    }
    if (!r->roost)
        return 0.0;
    const double dx = p[0] - r->roost_pos[0], dz = p[2] - r->roost_pos[2];
    o = fmax(o, sqrt(dx * dx + dz * dz) - 1.5 * r->roost_radius);
    return fmax(o, fabs((double)p[1] - r->roost_pos[1]) - 25.0);
}

/* The boids outside the world of the flock's def (outside()). */
static int32_t count_outside(const mur_flock *f, double *worst)
{
    const mur_flock_def d = mur_flock_get_def(f), r = mur_def_resolved(&d);
    mur_view v = mur_flock_view(f);
    int32_t out = 0;
    *worst = 0.0;
    for (int32_t i = 0; i < v.boids; i++) {
        const double o = outside(&r, v.pos + 3 * i);
        out += o > 0.0;
        *worst = fmax(*worst, o);
    }
    return out;
}

typedef struct after {
    double polarisation, neighbours, speed; ///< AFTER ticks after the switch; speed: mean, flying boids
    int32_t outside_at_switch;              ///< boids outside right after the switch
} after;

/* Switch f to preset `to` with `boids` boids and fly AFTER ticks: finite every tick, everyone inside
 * from IN_S on. */
static after switch_and_fly(mur_flock *f, const char *to, int32_t boids, const char *when)
{
    mur_error err = {{0}};
    if (!mur_flock_apply_preset(f, to, boids, &err))
        fail_msg("%s: %s", when, err.msg);
    const mur_flock_def d = mur_flock_get_def(f);
    assert_int_equal(d.neighbours, preset_def(to).neighbours);
    if (boids > 0)
        assert_int_equal(mur_flock_view(f).boids, boids);
    assert_finite(f, when);
    after a = {0};
    double worst;
    a.outside_at_switch = count_outside(f, &worst);
    const int in_ticks = (int)ceil(IN_S / d.dt);
    for (int t = 1; t <= AFTER || t <= in_ticks; t++) {
        mur_flock_step(f);
        assert_finite(f, when);
        if (t >= in_ticks) {
            const int32_t out = count_outside(f, &worst);
            if (out > 0)
                fail_msg("%s: %d boids outside the %s world %d ticks (%.2f s) after the switch, the worst by %.2f wu",
                         when, (int)out, to, t, t * (double)d.dt, worst);
        }
    }
    mur_stats s = mur_flock_measure(f);
    a.polarisation = s.polarisation;
    a.neighbours = s.mean_neighbours;
    mur_view v = mur_flock_view(f);
    double sum = 0.0;
    int32_t flying = 0;
    for (int32_t i = 0; i < v.boids; i++) {
        if (v.perch[i] > 0)
            continue;
        sum += sqrt((double)v.vel[3 * i] * v.vel[3 * i] + (double)v.vel[3 * i + 1] * v.vel[3 * i + 1] +
                    (double)v.vel[3 * i + 2] * v.vel[3 * i + 2]);
        flying++;
    }
    a.speed = flying > 0 ? sum / flying : 0.0;
    return a;
}

/* The flock flies on: AFTER ticks after the switch, a flock (mean neighbours well above none: it did
 * not scatter into lone boids), moving at the preset's speeds, polarisation a number in [0, 1]. The
 * lower bounds are about half the least measured (MURMUR_SWITCH_VERBOSE=1, seed 7): topological
 * (starling) 5.6 with 300 boids, 7.0 with 2000, against topo_k / 2 = 3.25; metric 5.4 with 300 (classic
 * from starling's first tick), 8.0 with 2000 (the same), against 2 and 4. */
static void assert_flies_on(const after *a, const char *to, int32_t boids, const char *when)
{
    const mur_flock_def d = preset_def(to);
    double min_nb;
    if (d.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL)
        min_nb = 0.5 * d.topo_k;
    else
        min_nb = boids >= 2000 ? 4.0 : 2.0;
    if (!(a->neighbours >= min_nb))
        fail_msg("%s: %.2f mean neighbours %d ticks after the switch, expected at least %.2f", when, a->neighbours,
                 AFTER, min_nb);
    if (!(a->polarisation >= 0.0 && a->polarisation <= 1.0 + 1e-9))
        fail_msg("%s: polarisation %g", when, a->polarisation);
    const double lo = d.min_speed * (1.0 - 1e-5), hi = d.max_speed * (1.0 + 1e-5);
    if (!(a->speed >= lo && a->speed <= hi))
        fail_msg("%s: mean speed %.3f outside [%g, %g]", when, a->speed, (double)d.min_speed, (double)d.max_speed);
}

/* A fresh flock of preset `from` with `boids` boids, flown `ticks` ticks. */
static mur_flock *flown(const char *from, int32_t boids, int ticks, int threads)
{
    mur_flock_def d = preset_def(from);
    d.boids = boids;
    d.seed = 7;
    mur_flock *f = make(&d);
    mur_flock_set_threads(f, threads);
    mur_flock_steps(f, ticks);
    return f;
}

/* A copy of f's boids (positions, velocities, perch timers) in a new flock of preset `from`: the
 * state a switch starts from, without flying the same ticks again (the roll and the tick are not
 * copied: no preset but starling banks, and a switch from starling goes to another). */
static mur_flock *clone(const mur_flock *f, const char *from)
{
    mur_flock_def d = preset_def(from);
    mur_view v = mur_flock_view(f);
    d.boids = v.boids;
    d.seed = 7;
    mur_flock *c = make(&d);
    mur_flock_set_threads(c, 1);
    for (int32_t i = 0; i < v.boids; i++)
        assert_true(mur_flock_set_boid(c, i, v.pos + 3 * i, v.vel + 3 * i, v.perch[i]));
    return c;
}

static void note(const char *when, const after *a)
{
    if (verbose())
        print_message("%-52s outside at switch %4d  +%d ticks: polarisation %.3f neighbours %6.2f speed %6.2f\n", when,
                      (int)a->outside_at_switch, AFTER, a->polarisation, a->neighbours, a->speed);
}

/* Every preset to every other, with 300 and 2000 boids, on the first tick, while the flock forms (100
 * ticks) and once settled (600 ticks), and twice in a row at 600 ticks (to the other, then at once on
 * to the third). One flight per preset and count; each switch starts from a copy of it. */
static void every_preset_to_every_other(void **state)
{
    (void)state;
    static const int32_t counts[] = {300, 2000};
    static const int points[] = {1, 100, 600};
    const int np = mur_preset_count();
    assert_true(np >= 2);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        const int32_t n = counts[c];
        for (int from = 0; from < np; from++) {
            const char *fname = mur_preset_name(from);
            mur_flock *src = flown(fname, n, 0, 1);
            for (size_t p = 0; p < sizeof points / sizeof points[0]; p++) {
                mur_flock_steps(src, points[p] - (int)mur_flock_view(src).tick);
                for (int to = 0; to < np; to++) {
                    if (to == from)
                        continue;
                    char when[160];
                    snprintf(when, sizeof when, "%d boids, %s -> %s at tick %d", (int)n, fname, mur_preset_name(to),
                             points[p]);
                    mur_flock *f = clone(src, fname);
                    after a = switch_and_fly(f, mur_preset_name(to), n, when);
                    note(when, &a);
                    assert_int_equal(a.outside_at_switch, 0);
                    assert_flies_on(&a, mur_preset_name(to), n, when);
                    mur_flock_destroy(f);
                    if (points[p] != 600)
                        continue;
                    /* twice in a row: on at once to the third preset (or back, with two) */
                    const int third = np > 2 ? 3 - from - to : from;
                    snprintf(when, sizeof when, "%d boids, %s -> %s -> %s at tick 600", (int)n, fname,
                             mur_preset_name(to), mur_preset_name(third));
                    f = clone(src, fname);
                    mur_error err = {{0}};
                    if (!mur_flock_apply_preset(f, mur_preset_name(to), n, &err))
                        fail_msg("%s: %s", when, err.msg);
                    assert_finite(f, when);
                    a = switch_and_fly(f, mur_preset_name(third), n, when);
                    note(when, &a);
                    assert_int_equal(a.outside_at_switch, 0);
                    assert_flies_on(&a, mur_preset_name(third), n, when);
                    mur_flock_destroy(f);
                }
            }
            mur_flock_destroy(src);
        }
    }
}

/* The defect of issue 21: starling -> vision-report -> classic with the presets' own counts put 1,900
 * of the classic flock's 2,000 boids on the vision report's 200 wu plane, 86% outside the classic box
 * for about 400 ticks. Now none is outside at any tick. */
static void starling_vision_classic(void **state)
{
    (void)state;
    mur_flock *f = flown("starling", 2000, 600, 1);
    mur_error err = {{0}};
    assert_true(mur_flock_apply_preset(f, "vision-report", 0, &err));
    assert_int_equal(mur_flock_view(f).boids, 100); /* the preset's count */
    const mur_flock_def vr = mur_flock_get_def(f);
    assert_true(vr.seed == 7);                      /* the flock keeps its seed */
    mur_view v = mur_flock_view(f);
    for (int32_t i = 0; i < v.boids; i++) {         /* on the plane, inside its box */
        assert_true(v.pos[3 * i + 1] == 0.0f && v.vel[3 * i + 1] == 0.0f);
        assert_true(v.roll[i] == 0.0f);             /* no banked turns: no roll */
    }
    mur_flock_steps(f, 200);
    assert_true(mur_flock_apply_preset(f, "classic", 0, &err));
    v = mur_flock_view(f);
    assert_int_equal(v.boids, 2000);
    double worst;
    assert_int_equal(count_outside(f, &worst), 0);
    /* the boids added are inside the classic box itself, as creation places them */
    const mur_flock_def c = mur_flock_get_def(f);
    for (int32_t i = 100; i < v.boids; i++)
        for (int a = 0; a < 3; a++)
            assert_true(v.pos[3 * i + a] >= c.world_min[a] && v.pos[3 * i + a] <= c.world_max[a]);
    for (int t = 0; t < 200; t++) {
        mur_flock_step(f);
        assert_finite(f, "starling -> vision-report -> classic");
        assert_int_equal(count_outside(f, &worst), 0);
    }
    mur_flock_destroy(f);
}

/* A flock that fits the new box moves as a whole: classic (settled, ~50 wu across) -> vision-report
 * keeps every distance between its boids on the plane's axes (a shift, not a scatter). */
static void fitting_flock_shifts_whole(void **state)
{
    (void)state;
    mur_flock *f = flown("classic", 300, 600, 1);
    float before[900];
    memcpy(before, mur_flock_view(f).pos, sizeof before);
    mur_error err = {{0}};
    assert_true(mur_flock_apply_preset(f, "vision-report", 300, &err));
    mur_view v = mur_flock_view(f);
    for (int a = 0; a < 3; a += 2) {
        const double shift = (double)v.pos[a] - before[a];
        assert_true(shift > 0.0); /* the classic box is -60..60, the vision report's 0..200 */
        for (int32_t i = 1; i < 300; i++)
            assert_near((double)v.pos[3 * i + a] - before[3 * i + a], shift, 1e-4 * (1.0 + fabs(shift)));
    }
    mur_flock_destroy(f);
}

/* A flock wider than the new box: vision-report's first tick (2000 boids over 200 x 200 wu) -> classic
 * (120 wu across): the boids inside the box keep their coordinates, the others get one inside, on
 * each axis where they were outside. */
static void wide_flock_keeps_the_boids_inside(void **state)
{
    (void)state;
    mur_flock *f = flown("vision-report", 2000, 1, 1);
    static float before[6000];
    memcpy(before, mur_flock_view(f).pos, sizeof before);
    mur_error err = {{0}};
    assert_true(mur_flock_apply_preset(f, "classic", 2000, &err));
    const mur_flock_def c = mur_flock_get_def(f);
    mur_view v = mur_flock_view(f);
    int32_t kept = 0, moved = 0;
    for (int32_t i = 0; i < 2000; i++) {
        for (int a = 0; a < 3; a += 2) {
            const float b = before[3 * i + a], p = v.pos[3 * i + a];
            assert_true(p >= c.world_min[a] && p <= c.world_max[a]);
            if (b >= c.world_min[a] && b <= c.world_max[a]) {
                assert_true(p == b);
                kept++;
            } else {
                moved++;
            }
        }
    }
    /* x and z uniform over 0..200, the box's part 0..60: about 30% kept */
    assert_true(kept > 800 && moved > 2000);
    mur_flock_destroy(f);
}

/* The same switches on 1, 2 and 4 threads: the same bits. */
static void switch_is_deterministic(void **state)
{
    (void)state;
    uint64_t h[3];
    static const int threads[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        mur_flock *f = flown("starling", 1500, 150, threads[k]);
        mur_error err = {{0}};
        assert_true(mur_flock_apply_preset(f, "vision-report", 0, &err));
        mur_flock_steps(f, 60);
        assert_true(mur_flock_apply_preset(f, "classic", 0, &err));
        mur_flock_steps(f, 60);
        assert_true(mur_flock_apply_preset(f, "starling", 2500, &err));
        mur_flock_steps(f, 60);
        h[k] = mur_flock_hash(f);
        mur_flock_destroy(f);
    }
    assert_true(h[0] == h[1]);
    assert_true(h[0] == h[2]);
}

/* Topological then metric neighbours on every kernel path this CPU runs: the topological pass leaves
 * NaNs in the thread buffers that the metric kernels read past a run's end (weighted by 0); the state
 * stays finite. */
static void topological_then_metric_every_path(void **state)
{
    (void)state;
    for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++) {
        mur_flock *f = flown("starling", 2000, 50, 2);
        mur_error err = {{0}};
        if (!mur_flock_set_simd(f, (mur_simd)p, &err)) {
            mur_flock_destroy(f);
            continue;
        }
        mur_flock_steps(f, 5);
        /* a hard sphere, centrality, separation from the closest few and the cohesion ramp need
         * topological neighbours */
        static const char *const topo_only[] = {"hard_radius", "centrality", "separation_nearest", "cohesion_far",
                                                      "bank_align"};
        for (size_t q = 0; q < sizeof topo_only / sizeof topo_only[0]; q++)
            assert_true(mur_flock_set(f, topo_only[q], "0", &err));
        assert_true(mur_flock_set(f, "neighbours", "metric", &err));
        for (int t = 0; t < 5; t++) {
            mur_flock_step(f);
            assert_finite(f, mur_simd_name((mur_simd)p));
        }
        mur_flock_destroy(f);
    }
}

/* Bad switches change nothing: an unknown preset (the error names the presets), a count over the
 * limit, a def that fails its check. */
static void bad_switch_changes_nothing(void **state)
{
    (void)state;
    mur_flock *f = flown("classic", 300, 10, 1);
    const uint64_t h = mur_flock_hash(f);
    mur_error err = {{0}};
    assert_false(mur_flock_apply_preset(f, "nope", 0, &err));
    assert_non_null(strstr(err.msg, "starling"));
    assert_false(mur_flock_apply_preset(f, "starling", MUR_MAX_BOIDS + 1, &err));
    assert_non_null(strstr(err.msg, "boid"));
    assert_false(mur_flock_apply_preset(f, NULL, 0, &err));
    mur_flock_def d = preset_def("starling");
    d.world_min[0] = d.world_max[0];
    assert_false(mur_flock_switch_def(f, &d, &err));
    assert_true(mur_flock_hash(f) == h);
    assert_int_equal(mur_flock_get_def(f).neighbours, MUR_NEIGHBOURS_METRIC);
    assert_int_equal(mur_flock_view(f).boids, 300);
    mur_flock_destroy(f);
}

/* ------------------------------------------------------------------ the fuzz of live changes */

static uint64_t rng_state;

static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(void) { return (double)(rng() >> 11) * (1.0 / 9007199254740992.0); }

/* A value in [lo, hi]: uniform in a small range around the defaults most of the time, else either end,
 * just above an open minimum, or log-uniform over the whole range (the extremes the table allows). */
static double in_range_value(const mur_param *p, double lo, double hi)
{
    const double r = unit();
    if (r < 0.1)
        return lo;
    if (r < 0.2)
        return hi;
    if (r < 0.6) {
        const double top = fmin(hi, lo + 100.0);
        return lo + unit() * (top - lo);
    }
    if (lo >= 0.0 && hi > 0.0) {
        const double a = log(fmax(lo, 1e-6)), b = log(hi);
        return fmin(hi, fmax(lo, exp(a + unit() * (b - a))));
    }
    (void)p;
    return lo + unit() * (hi - lo);
}

/* The text of a random value of p, in its range (*in = true) or not. Counts are kept small (boids at
 * most 400, predators 20) so the fuzz stays fast; out of range: past either end, not a number, NaN and
 * infinities, a float for an int, an unknown choice. */
static void random_value(const mur_param *p, char *buf, size_t len, bool *in)
{
    *in = unit() < 0.7;
    double lo = p->min, hi = p->max;
    if (strcmp(p->name, "boids") == 0)
        hi = 400;
    if (strcmp(p->name, "predators") == 0)
        hi = 20;
    if (!*in) {
        static const char *junk[] = {"nan", "inf", "-inf", "", "x", "1e39", "1,2", "0x"};
        const double r = unit();
        if (r < 0.3 || p->type == MUR_PT_SWITCH || p->type == MUR_PT_ENUM) {
            snprintf(buf, len, "%s", p->type == MUR_PT_ENUM || p->type == MUR_PT_SWITCH ? (unit() < 0.5 ? "maybe" : "2")
                                                                                        : junk[rng() % 8]);
        } else if (p->type == MUR_PT_SEED) {
            snprintf(buf, len, "-1");
        } else {
            const double v = r < 0.65 ? (p->min_open ? p->min : p->min - 1.0 - unit() * 10.0)
                                      : p->max * 2.0 + 1.0;
            if (p->type == MUR_PT_VEC3)
                snprintf(buf, len, "0,%.9g,0", v);
            else
                snprintf(buf, len, "%.9g", v);
        }
        return;
    }
    switch (p->type) {
    case MUR_PT_INT:
        snprintf(buf, len, "%.0f", fmin(hi, fmax(lo, floor(in_range_value(p, lo, hi)))));
        break;
    case MUR_PT_FLOAT: {
        double v = in_range_value(p, lo, hi);
        if (p->min_open && !(v > lo))
            v = lo + fmax(1e-6, fabs(lo) * 1e-6);
        snprintf(buf, len, "%.9g", v);
        break;
    }
    case MUR_PT_VEC3: {
        double c[3];
        for (int a = 0; a < 3; a++)
            c[a] = unit() < 0.9 ? -200.0 + 400.0 * unit() : (unit() < 0.5 ? lo : hi);
        snprintf(buf, len, "%.9g,%.9g,%.9g", c[0], c[1], c[2]);
        break;
    }
    case MUR_PT_SWITCH:
        snprintf(buf, len, "%s", unit() < 0.5 ? "on" : "off");
        break;
    case MUR_PT_ENUM: {
        int n = 1;
        for (const char *q = p->choices; *q; q++)
            n += *q == '|';
        int k = (int)(rng() % (uint64_t)n);
        const char *q = p->choices;
        for (int i = 0; i < k; i++)
            q = strchr(q, '|') + 1;
        const char *bar = strchr(q, '|');
        snprintf(buf, len, "%.*s", (int)(bar ? (size_t)(bar - q) : strlen(q)), q);
        break;
    }
    case MUR_PT_SEED:
        snprintf(buf, len, "%llu", (unsigned long long)(rng() >> 1));
        break;
    }
}

/* The one-line error contract: a message, no newline. */
static void assert_one_line(const mur_error *err, const char *what)
{
    const size_t l = strnlen(err->msg, sizeof err->msg);
    if (l == 0 || l >= sizeof err->msg || memchr(err->msg, '\n', l))
        fail_msg("%s: the error is not one line: '%s'", what, err->msg);
}

#define FUZZ_CHANGES 3000

static void fuzz_live_changes(void **state)
{
    (void)state;
    rng_state = 20240521;
    mur_flock *f = flown("classic", 200, 20, 1);
    const int np = mur_param_count();
    int accepted = 0, refused_in = 0, switches = 0;
    for (int change = 0; change < FUZZ_CHANGES; change++) {
        char what[400];
        mur_error err = {{0}};
        if (unit() < 0.08) {
            const char *to = mur_preset_name((int)(rng() % (uint64_t)mur_preset_count()));
            const int32_t boids = unit() < 0.3 ? 0 : (int32_t)(rng() % 401);
            snprintf(what, sizeof what, "change %d: preset %s, %d boids", change, to, (int)boids);
            /* the preset's own count can be large (2000): fewer ticks then */
            if (!mur_flock_apply_preset(f, to, boids, &err))
                fail_msg("%s: %s", what, err.msg);
            switches++;
        } else {
            const mur_param *p = mur_param_at((int)(rng() % (uint64_t)np));
            char val[256], before[256], now[256];
            bool in;
            random_value(p, val, sizeof val, &in);
            snprintf(what, sizeof what, "change %d: %s = '%s' (%s range)", change, p->name, val, in ? "in" : "out of");
            mur_flock_def d0 = mur_flock_get_def(f);
            assert_true(mur_def_get(&d0, p->name, before, sizeof before));
            const uint64_t h0 = mur_flock_hash(f);
            const bool ok = mur_flock_set(f, p->name, val, &err);
            if (ok) {
                if (!in || !p->live)
                    fail_msg("%s: accepted", what);
                accepted++;
            } else {
                assert_one_line(&err, what);
                /* refused: nothing changed */
                mur_flock_def d1 = mur_flock_get_def(f);
                assert_true(mur_def_get(&d1, p->name, now, sizeof now));
                if (strcmp(before, now) != 0 || mur_flock_hash(f) != h0)
                    fail_msg("%s: refused ('%s') but %s changed from %s to %s", what, err.msg, p->name, before, now);
                /* an in-range value of a live parameter is refused only by a rule across fields */
                if (in && p->live)
                    refused_in++;
            }
        }
        const int32_t n = mur_flock_view(f).boids;
        const int steps = n > 1000 ? 1 : 1 + (int)(rng() % 3);
        for (int s = 0; s < steps; s++) {
            mur_flock_step(f);
            assert_finite(f, what);
        }
    }
    if (verbose())
        print_message("fuzz: %d changes, %d accepted, %d in-range values refused by a cross-field rule, %d preset switches\n",
                      FUZZ_CHANGES, accepted, refused_in, switches);
    /* most in-range values go through (the cross-field rules refuse a few) */
    assert_true(accepted > FUZZ_CHANGES / 3);
    assert_true(refused_in < accepted / 2);
    assert_true(switches > FUZZ_CHANGES / 20);
    mur_flock_destroy(f);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]); /* one test by name, e.g. test_switch fuzz_live_changes */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starling_vision_classic),
        cmocka_unit_test(fitting_flock_shifts_whole),
        cmocka_unit_test(wide_flock_keeps_the_boids_inside),
        cmocka_unit_test(switch_is_deterministic),
        cmocka_unit_test(topological_then_metric_every_path),
        cmocka_unit_test(bad_switch_changes_nothing),
        cmocka_unit_test(every_preset_to_every_other),
        cmocka_unit_test(fuzz_live_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
