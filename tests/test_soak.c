/* Soak: a long run with every toggle switched on and off on a schedule.
 *
 *   test_soak            short version (suite soak, default meson test): about 1.2e7 boid-ticks
 *   test_soak --long     long version (benchmark 'soak-long': meson test --benchmark --suite soak-long):
 *                        about 1.2e8 boid-ticks
 *   MURMUR_SOAK_SCALE=X  multiply the length by X (e.g. 0.05 for a smoke run under valgrind)
 *
 * Every phase (PHASE ticks) changes the toggles: perching, predators shown/hidden and their count,
 * goal (moving), wind (changing direction), scatter, bounds soft -> bounce -> wrap -> none -> bounce
 * -> soft ..., the boid count up and down (0 included), the view angle, and (rarely, small flocks) the
 * brute-force search, and the thread count (all cores or one). Every CHECK ticks: every value finite; inside the world box in bounce and wrap,
 * inside the box plus 4 max_speed^2 / bounds_turn in soft (entered from bounce, never straight from none); perch
 * timers in [0, perch_max] and perched boids on the ground; metrics finite and polarisation in [0, 1].
 * After the warm-up cycle (every count and mode seen once) mur_flock_memory() must not change and the
 * resident set size (/proc/self/statm; under ASan the live heap) must not grow by more than 2 MiB. */
#include <time.h>
#include <unistd.h>

#include "util.h"

#define PHASE 125
#define CHECK 25

static bool g_long = false;

static double soak_scale(void)
{
    const char *s = getenv("MURMUR_SOAK_SCALE");
    double v = s ? strtod(s, NULL) : 1.0;
    return v > 0.0 && v <= 100.0 ? v : 1.0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Process memory: the resident set size, except under AddressSanitizer, whose quarantine of freed
 * blocks makes the RSS grow by design; there the sanitizer allocator's live heap bytes are used. */
#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif

#ifdef SOAK_ASAN
/* from the sanitizer runtime (declared here: gcc does not install <sanitizer/allocator_interface.h>) */
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t rss_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
static size_t rss_bytes(void)
{
    FILE *fp = fopen("/proc/self/statm", "r");
    if (!fp)
        fail_msg("cannot read /proc/self/statm");
    unsigned long size = 0, resident = 0;
    int got = fscanf(fp, "%lu %lu", &size, &resident);
    fclose(fp);
    assert_int_equal(got, 2);
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}
#endif

typedef struct checker {
    uint64_t checks, boid_ticks;
    mur_bounds mode;
    bool soft_ok; /* soft mode entered from bounce/wrap/soft (not straight from none) */
    double worst_soft; /* farthest a boid got outside the box in soft mode, wu */
} checker;

static void check_state(mur_flock *f, checker *c, uint64_t tick)
{
    mur_view v = mur_flock_view(f);
    mur_flock_def d = mur_flock_get_def(f);
    float lo[3], hi[3];
    bool boxed = c->mode == MUR_BOUNDS_BOUNCE || c->mode == MUR_BOUNDS_WRAP || (c->mode == MUR_BOUNDS_SOFT && c->soft_ok);
    /* soft bounds are a push, not a wall: with scatter, flee and wind pushing outward a boid can
     * overshoot by what it covers while turning back (the tolerance of test_features' long_run) */
    float slack = c->mode == MUR_BOUNDS_SOFT ? 4.0f * d.max_speed * d.max_speed / d.bounds_turn : 1e-3f;
    for (int a = 0; a < 3; a++) {
        lo[a] = d.world_min[a] - slack;
        hi[a] = d.world_max[a] + slack;
    }
    for (int32_t i = 0; i < v.boids; i++) {
        const float *p = v.pos + 3 * (size_t)i, *w = v.vel + 3 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            if (!isfinite(p[a]) || !isfinite(w[a]))
                fail_msg("tick %llu: boid %d has a non-finite value", (unsigned long long)tick, (int)i);
            if (c->mode == MUR_BOUNDS_SOFT) {
                double out = fmax((double)(d.world_min[a] - p[a]), (double)(p[a] - d.world_max[a]));
                if (out > c->worst_soft)
                    c->worst_soft = out;
            }
            if (boxed && (p[a] < lo[a] || p[a] > hi[a]))
                fail_msg("tick %llu, bounds %s: boid %d axis %d at %g, outside [%g, %g]", (unsigned long long)tick,
                         mur_bounds_name(c->mode), (int)i, a, (double)p[a], (double)lo[a], (double)hi[a]);
        }
        if (v.perch[i] < 0 || v.perch[i] > d.perch_max)
            fail_msg("tick %llu: boid %d perch timer %d outside [0, %d]", (unsigned long long)tick, (int)i,
                     (int)v.perch[i], (int)d.perch_max);
        if (v.perch[i] > 0 && (w[0] != 0.0f || w[1] != 0.0f || w[2] != 0.0f))
            fail_msg("tick %llu: perched boid %d moves", (unsigned long long)tick, (int)i);
    }
    for (int32_t k = 0; k < v.predators; k++)
        for (int a = 0; a < 3; a++)
            if (!isfinite(v.pred_pos[3 * k + a]) || !isfinite(v.pred_vel[3 * k + a]))
                fail_msg("tick %llu: predator %d has a non-finite value", (unsigned long long)tick, (int)k);
    mur_stats s = mur_flock_stats(f);
    if (s.metrics_valid && v.boids > 0) {
        assert_true(isfinite(s.centre[0]) && isfinite(s.centre[1]) && isfinite(s.centre[2]));
        assert_true(isfinite(s.diameter) && isfinite(s.mean_neighbours) && isfinite(s.nn_distance));
        assert_true(s.polarisation >= 0.0 && s.polarisation <= 1.0 + 1e-9);
        assert_true(s.perching >= 0 && s.perching <= v.boids);
        assert_true(s.groups >= 1 && s.groups <= v.boids);
    }
}

static void soak(void **state)
{
    (void)state;
    const double scale = soak_scale();
    const int32_t base = g_long ? 4000 : 2000;
    /* boid counts per phase, repeating: the mean is about 1.1 * base */
    const double counts[] = {1.0, 1.5, 2.0, 1.0, 0.5, 0.0, 0.25, 1.0, 1.75, 1.0, 1.25, 0.75};
    const int ncounts = (int)(sizeof counts / sizeof counts[0]);
    const mur_bounds modes[] = {MUR_BOUNDS_SOFT, MUR_BOUNDS_BOUNCE, MUR_BOUNDS_WRAP, MUR_BOUNDS_NONE, MUR_BOUNDS_BOUNCE};
    const float angles[] = {300.0f, 360.0f, 120.0f, 30.0f, 200.0f};
    const uint64_t target = (uint64_t)((g_long ? 1.2e8 : 1.2e7) * scale);

    mur_flock_def d = mur_flock_default_def();
    d.boids = base;
    d.predators = 2;
    d.seed = 20240601;
    d.perch_min = 5;
    d.perch_max = 60;
    mur_flock *f = make(&d);
    mur_flock_set_metrics(f, true);

    checker c = {0, 0, MUR_BOUNDS_SOFT, true, 0.0};
    size_t mem_after_warmup = 0, rss_after_warmup = 0, rss_max = 0;
    const int warmup_phases = 2 * ncounts; /* every count, mode and toggle seen */
    uint64_t tick = 0;
    int phase = 0;
    double t0 = now_ms();
    while (c.boid_ticks < target) {
        /* the schedule: primes so that the combinations drift */
        mur_error err = {{0}};
        int32_t n = (int32_t)(counts[phase % ncounts] * base);
        assert_true(mur_flock_set_boid_count(f, n, &err));
        mur_bounds mode = modes[phase % 5];
        c.soft_ok = !(mode == MUR_BOUNDS_SOFT && c.mode == MUR_BOUNDS_NONE);
        c.mode = mode;
        mur_flock_set_bounds(f, mode);
        mur_flock_set_perch(f, phase % 2 == 0);
        mur_flock_set_predators_on(f, phase % 3 != 2);
        assert_true(mur_flock_set_predator_count(f, (phase % 7) % 4, &err));
        const float goal[3] = {(float)(phase % 5) * 20.0f - 40.0f, 30.0f, (float)(phase % 3) * 30.0f - 30.0f};
        mur_flock_set_goal(f, phase % 4 == 1 || phase % 4 == 2, goal);
        const float wind[3] = {(float)((phase % 3) - 1) * 4.0f, 0.5f, (float)((phase % 5) - 2) * 2.0f};
        mur_flock_set_wind(f, phase % 5 >= 2, wind);
        mur_flock_set_scatter(f, phase % 6 == 3);
        char angle[32];
        snprintf(angle, sizeof angle, "%g", (double)angles[phase % 5]);
        assert_true(mur_flock_set(f, "view_angle", angle, &err));
        mur_flock_set_threads(f, phase % 4 == 3 ? 1 : 0); /* mostly all cores, sometimes one */
        mur_flock_set_search(f, (phase % 23 == 11 && n <= 1000) ? MUR_SEARCH_BRUTE : MUR_SEARCH_GRID);

        for (int t = 0; t < PHASE; t += CHECK) {
            mur_flock_steps(f, CHECK);
            tick += CHECK;
            c.boid_ticks += (uint64_t)n * CHECK;
            check_state(f, &c, tick);
            c.checks++;
        }
        phase++;
        size_t rss = rss_bytes();
        if (phase == warmup_phases) {
            mem_after_warmup = mur_flock_memory(f);
            rss_after_warmup = rss;
        } else if (phase > warmup_phases) {
            if (mur_flock_memory(f) != mem_after_warmup)
                fail_msg("phase %d: mur_flock_memory %zu, after warm-up %zu", phase, mur_flock_memory(f),
                         mem_after_warmup);
            if (rss > rss_after_warmup + 2u * 1024u * 1024u)
                fail_msg("phase %d: process memory grew from %zu to %zu bytes after warm-up", phase, rss_after_warmup, rss);
        }
        if (rss > rss_max)
            rss_max = rss;
    }
    double secs = (now_ms() - t0) / 1000.0;
    assert_true(phase > warmup_phases); /* the memory checks ran */
    printf("soak: %llu boid-ticks, %llu ticks, %d phases, %llu checks in %.1f s (%d threads at the end); "
           "library memory %zu bytes, process memory %zu KiB after warm-up, max %zu KiB; soft bounds overshoot at most %.1f wu\n",
           (unsigned long long)c.boid_ticks, (unsigned long long)tick, phase, (unsigned long long)c.checks, secs,
           mur_flock_threads(f), mem_after_warmup, rss_after_warmup / 1024, rss_max / 1024, c.worst_soft);
    mur_flock_destroy(f);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--long") == 0)
            g_long = true;
        else {
            fprintf(stderr, "usage: test_soak [--long]\n");
            return 2;
        }
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(soak)};
    return cmocka_run_group_tests_name(g_long ? "soak-long" : "soak", tests, NULL, NULL);
}
