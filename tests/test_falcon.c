/* The hunting falcon and the prey's escape (src/sim/falcon.c, docs/falcon.md): the attack cycle runs by
 * itself, catches are counted (and removed when asked), the falcon switches on a live flock, the state is
 * the same on any thread count and path and finite, bad values are refused; the escape spreads from a
 * detecting bird to others through topological neighbours with the latency. */
#include "util.h"

static mur_flock_def starling(int32_t boids)
{
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = boids;
    return d;
}

/* Events of a run of ticks: counts by kind. */
typedef struct tally {
    int64_t kind[MUR_EVENT_KIND_COUNT];
    int phases_seen[5];
    double wave_speed;
    double part_min, part_max; /* the part events' polarisations (now and at the attack's start) */
} tally;

static void run(mur_flock *f, int ticks, tally *t)
{
    for (int k = 0; k < ticks; k++) {
        mur_flock_step(f);
        mur_event ev[MUR_MAX_EVENTS];
        const int n = mur_flock_events(f, ev, MUR_MAX_EVENTS);
        assert_true(n <= MUR_MAX_EVENTS);
        for (int e = 0; e < n; e++) {
            assert_true(ev[e].kind >= 0 && ev[e].kind < MUR_EVENT_KIND_COUNT);
            assert_non_null(mur_event_name(ev[e].kind));
            if (t) {
                t->kind[ev[e].kind]++;
                if (ev[e].kind == MUR_EVENT_WAVE)
                    t->wave_speed = ev[e].value;
                if (ev[e].kind == MUR_EVENT_PART) {
                    const double lo = ev[e].value < ev[e].aux ? ev[e].value : ev[e].aux;
                    const double hi = ev[e].value > ev[e].aux ? ev[e].value : ev[e].aux;
                    t->part_min = t->kind[MUR_EVENT_PART] == 1 || lo < t->part_min ? lo : t->part_min;
                    t->part_max = t->kind[MUR_EVENT_PART] == 1 || hi > t->part_max ? hi : t->part_max;
                    assert_true(ev[e].count > 0);
                }
            }
        }
        const mur_view v = mur_flock_view(f);
        if (t && v.falcon_phase >= 0 && v.falcon_phase < 5)
            t->phases_seen[v.falcon_phase]++;
    }
}

/* The cycle runs by itself: set-up, approach, lock-on, pursuit, retreat, wait, and again. */
static void falcon_cycle(void **st)
{
    (void)st;
    mur_flock_def d = starling(600);
    d.falcon = true;
    d.falcon_wait = 2.0f;
    d.escape_flee_time = 0.0f; /* the birds fleeing its path leave a 600-bird flock no bird to lock on to in 30 s */
    mur_flock *f = make(&d);
    tally t = {{0}, {0}, 0, 0, 0};
    run(f, 1500, &t); /* 30 s */
    const mur_view v = mur_flock_view(f);
    assert_true(v.falcon_attacks >= 2);
    /* with every wave its hops; every 0.5 s after an attack's end the attacked part's polarisation */
    assert_int_equal(t.kind[MUR_EVENT_HOP], t.kind[MUR_EVENT_WAVE]);
    assert_true(t.kind[MUR_EVENT_PART] >= 2);
    assert_true(t.part_min >= 0.0 && t.part_max <= 1.0 + 1e-9);
    assert_true(t.kind[MUR_EVENT_ATTACK_START] >= 2);
    assert_true(t.kind[MUR_EVENT_LOCK_ON] >= 1);
    assert_true(t.kind[MUR_EVENT_ATTACK_END] >= 2);
    assert_true(t.kind[MUR_EVENT_WAVE] >= 1);
    for (int p = MUR_FALCON_APPROACH; p <= MUR_FALCON_WAIT; p++)
        assert_true(t.phases_seen[p] > 0);
    assert_int_equal(t.phases_seen[MUR_FALCON_OFF], 0);
    assert_non_null(v.escape);
    mur_flock_destroy(f);
}

/* Catches are counted; with falcon_remove the caught birds leave the flock. */
static void falcon_catches(void **st)
{
    (void)st;
    for (int remove = 0; remove <= 1; remove++) {
        mur_flock_def d = starling(400);
        d.falcon = true;
        d.falcon_catch = 3.0f; /* a generous catch distance: some catches in a short run */
        d.falcon_wait = 1.0f;
        d.falcon_retreat = 1.0f;
        d.falcon_remove = remove;
        d.escape_flee_time = 0.0f; /* no flight from the falcon's path: birds stay to be caught */
        mur_flock *f = make(&d);
        tally t = {{0}, {0}, 0, 0, 0};
        run(f, 2000, &t);
        const mur_view v = mur_flock_view(f);
        assert_true(v.falcon_catches >= 1);
        assert_int_equal(v.falcon_catches, t.kind[MUR_EVENT_CATCH]);
        assert_int_equal(v.boids, remove ? 400 - v.falcon_catches : 400);
        assert_int_equal(mur_flock_get_def(f).boids, v.boids);
        mur_flock_destroy(f);
    }
}

/* The boids' positions and velocities, hashed (FNV-1a). */
static uint64_t boid_hash(const mur_flock *f)
{
    const mur_view v = mur_flock_view(f);
    uint64_t h = 0xcbf29ce484222325ULL;
    const unsigned char *b[2] = {(const void *)v.pos, (const void *)v.vel};
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof(float) * 3 * (size_t)v.boids; i++) {
            h ^= b[a][i];
            h *= 0x100000001b3ULL;
        }
    for (int32_t i = 0; v.escape && i < v.boids; i++) {
        h ^= v.escape[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The same bits on 1, 2 and 3 threads, on every kernel path, and through the 4-wide update
 * (topo_batch.c) and the scalar one (a predator that acts on nobody sends every boid through
 * mur_rules_update); the metric (classic) pass too. */
static void falcon_deterministic(void **st)
{
    (void)st;
    uint64_t ref = 0;
    bool have = false;
    for (int scalar = 0; scalar <= 1; scalar++) {
        for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++) {
            for (int threads = 1; threads <= 3; threads++) {
                mur_flock_def d = starling(1500);
                d.falcon = true;
                d.falcon_setup = 20.0f; /* a quick first attack */
                mur_flock *f = make_path(d, scalar, p, threads);
                if (!f)
                    continue;
                run(f, 150, NULL);
                const mur_view v = mur_flock_view(f);
                int alarmed = 0;
                for (int32_t i = 0; i < v.boids; i++)
                    alarmed += v.escape[i] != MUR_ESCAPE_CALM;
                assert_true(alarmed > 0); /* the escape ran */
                const uint64_t h = boid_hash(f);
                if (!have) {
                    ref = h;
                    have = true;
                } else if (h != ref) {
                    fail_msg("scalar %d, path %s, %d threads: %016llx, first %016llx", scalar,
                             mur_simd_name((mur_simd)p), threads, (unsigned long long)h, (unsigned long long)ref);
                }
                mur_flock_destroy(f);
            }
        }
    }
    /* the classic (metric) pass: detection only, the same on any thread count */
    uint64_t c[2];
    for (int threads = 1; threads <= 2; threads++) {
        mur_flock_def d = mur_flock_default_def();
        d.boids = 3000;
        d.falcon = true;
        d.falcon_setup = 20.0f;
        mur_flock *f = make(&d);
        mur_flock_set_threads(f, threads);
        run(f, 200, NULL);
        c[threads - 1] = mur_flock_hash(f);
        mur_flock_destroy(f);
    }
    assert_true(c[0] == c[1]);
}

/* At 12,000 birds the falcon's passes over the flock run on the step's threads (falcon_scan.c) and each
 * bird publishes its own escape in the pass: the same state on 1, 2 and 3 threads while the falcon
 * attacks and the alarm spreads. */
static void falcon_deterministic_large(void **st)
{
    (void)st;
    uint64_t ref = 0;
    for (int threads = 1; threads <= 3; threads++) {
        mur_flock_def d = starling(12000);
        d.falcon = true;
        d.falcon_setup = 10.0f;
        mur_flock *f = make(&d);
        mur_flock_set_threads(f, threads);
        run(f, 60, NULL);
        const mur_view v = mur_flock_view(f);
        int alarmed = 0;
        for (int32_t i = 0; i < v.boids; i++)
            alarmed += v.escape[i] != MUR_ESCAPE_CALM;
        assert_true(alarmed > 0);
        const uint64_t h = mur_flock_hash(f);
        if (threads == 1)
            ref = h;
        else if (h != ref)
            fail_msg("%d threads: %016llx, 1 thread %016llx", threads, (unsigned long long)h, (unsigned long long)ref);
        mur_flock_destroy(f);
    }
}

static void all_finite(const mur_flock *f)
{
    const mur_view v = mur_flock_view(f);
    for (int64_t k = 0; k < 3 * (int64_t)v.boids; k++) {
        assert_true(isfinite(v.pos[k]));
        assert_true(isfinite(v.vel[k]));
    }
    for (int c = 0; c < 3; c++)
        assert_true(isfinite(v.falcon_pos[c]) && isfinite(v.falcon_vel[c]));
}

/* Extreme values within the ranges stay finite. */
static void falcon_finite(void **st)
{
    (void)st;
    static const char *const cases[][6] = {
        {"falcon_force=1000", "falcon_mass=0.001", "falcon_gain=20", "escape_accel=1000", "falcon_attack_speed=100", NULL},
        {"falcon_gain=0", "falcon_catch=100", "falcon_remove=on", "escape_time=100", "escape_latency=0", NULL},
        {"falcon_strategy=beside", "falcon_target=centroid", "falcon_setup=10000", "escape_radius=10000", "escape_exposure=0", NULL},
        {"falcon_strategy=behind", "falcon_target=exposed", "escape_zigzag=0", "escape_dive=0", "escape_turn=0", "escape_speedup=0"},
        {"escape_copy_speed=1000", "escape_copy_fade=1", "escape_copy_flight=on", "escape_flee_time=100", "escape_flee_accel=1000", NULL},
        {"escape_copy_speed=0.001", "escape_copy_fade=0.001", "escape_copy_flight=off", "escape_latency=100", "escape_reaction=0", NULL},
        {"escape_alarm_speed=1000", "escape_copy_fade=0.02", "falcon_strategy=beside", "falcon_attack_speed=5", NULL},
        {"escape_alarm_speed=0.001", "escape_flee_time=0", "falcon_attack_speed=100", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mur_flock_def d = starling(500);
        d.falcon = true;
        for (int j = 0; j < 6 && cases[k][j]; j++)
            assert_true(mur_def_set_pair(&d, cases[k][j], NULL));
        mur_flock *f = make(&d);
        run(f, 400, NULL);
        all_finite(f);
        mur_flock_destroy(f);
    }
}

/* Bad values: one line naming the value and the range; falcon with wrap refused. */
static void falcon_bad_values(void **st)
{
    (void)st;
    static const char *const bad[] = {"falcon=maybe", "falcon_speed=0", "falcon_speed=nan", "falcon_gain=-1",
                                      "falcon_strategy=below", "falcon_target=random", "falcon_catch=inf",
                                      "escape_fov=361", "escape_exposure=2", "escape_time=0", "falcon_mass=0",
                                      "escape_reaction=-1", "escape_flee_time=nan", "escape_flee_accel=2000",
                                      "escape_flee_loom=-1", "escape_flee_loom=inf", "falcon_stoop=-0.5",
                                      "falcon_stoop=11", "escape_copy_dist=-1", "escape_copy_dist=nan",
                                      "escape_copy_dist=101", "escape_copy_speed=-1", "escape_copy_speed=nan",
                                      "escape_copy_speed=1001", "escape_copy_fade=-0.1", "escape_copy_fade=1.5",
                                      "escape_copy_fade=inf", "escape_alarm_speed=-1",
                                      "escape_alarm_speed=1001", "escape_alarm_speed=nan"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mur_flock_def d = mur_flock_default_def();
        mur_error err = {{0}};
        assert_false(mur_def_set_pair(&d, bad[k], &err));
        assert_non_null(strstr(err.msg, "bad value"));
        assert_null(strchr(err.msg, '\n'));
    }
    mur_flock_def d = mur_flock_default_def();
    d.falcon = true;
    d.bounds = MUR_BOUNDS_WRAP;
    mur_error err = {{0}};
    assert_false(mur_def_check(&d, &err));
    assert_non_null(strstr(err.msg, "falcon"));
}

/* On a live flock through the table (what --set, --at, the viewer and the panel use); off hides the
 * escape state; the flock without the falcon keeps the state it would have had. */
static void falcon_live(void **st)
{
    (void)st;
    mur_flock_def d = starling(500);
    mur_flock *a = make(&d), *b = make(&d);
    run(a, 50, NULL);
    run(b, 50, NULL);
    mur_error err = {{0}};
    assert_true(mur_flock_set(a, "falcon", "on", &err));
    assert_true(mur_flock_get_def(a).falcon);
    run(a, 200, NULL);
    mur_view v = mur_flock_view(a);
    assert_true(v.falcon_phase != MUR_FALCON_OFF);
    assert_non_null(v.escape);
    assert_true(v.falcon_attacks >= 1);
    /* the state CSV: roll, then the escape column at the end, and the file reads back */
    char path[] = "/tmp/murmur_falcon_csvXXXXXX";
    const int fdesc = mkstemp(path);
    assert_true(fdesc >= 0);
    FILE *fp = fdopen(fdesc, "w+");
    assert_true(mur_flock_write_csv(a, fp));
    rewind(fp);
    char line[256];
    assert_non_null(fgets(line, sizeof line, fp));
    assert_string_equal(line, "kind,x,y,z,vx,vy,vz,perch,roll,escape\n");
    int rows = 0;
    while (fgets(line, sizeof line, fp)) {
        const char *last = strrchr(line, ',');
        assert_non_null(last);
        const int e = atoi(last + 1);
        assert_true(e >= MUR_ESCAPE_CALM && e <= MUR_ESCAPE_REFRACTORY);
        assert_int_equal(e, v.escape[rows] & 7);
        rows++;
    }
    assert_int_equal(rows, v.boids);
    fclose(fp);
    mur_flock *back = mur_flock_load_csv(&d, path, &err);
    assert_non_null(back);
    assert_int_equal(mur_flock_view(back).boids, v.boids);
    mur_flock_destroy(back);
    remove(path);
    assert_true(mur_flock_set(a, "falcon", "off", &err));
    v = mur_flock_view(a);
    assert_int_equal(v.falcon_phase, MUR_FALCON_OFF);
    assert_null(v.escape);
    run(a, 10, NULL);
    /* the memory figure follows the rows */
    assert_true(mur_flock_memory(a) > mur_flock_memory(b));
    mur_flock_def fd = starling(500);
    fd.falcon = true;
    assert_true(mur_def_memory(&fd, 1, false) > mur_def_memory(&d, 1, false));
    /* a flock that never had the falcon: the same as before the falcon existed */
    run(b, 10, NULL);
    assert_null(mur_flock_view(b).escape);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

/* A chain of birds 1 m apart along z, flying +x side by side, each seeing its 2 nearest (the birds on
 * either side); the falcon sets up beside the chain's last bird, close enough for that bird alone to
 * see it (the end bird is exposed: all its neighbours on one side). No manoeuvre moves a bird
 * (escape_accel 0), so the alarm must spread by copying: bird 39 - m at the tick of the first alarm
 * plus m latencies, and the wave's speed is 1 m per latency. */
static void chain_alarm_at(float latency, int expect_l, float gap, float copy_speed)
{
    const int n = 40;
    mur_flock_def d = topo_def(n, 1000.0f);
    d.dt = 0.02f;
    d.topo_k = 2.0f;
    d.view_radius = 3.0f * gap;
    d.escape_copy_speed = copy_speed;
    d.escape_copy_fade = 0.0f; /* every alarm at full strength: the chain's far end is reached */
    d.escape_copy_flight = false;
    d.falcon = true;
    d.falcon_strategy = MUR_FALCON_BESIDE;
    d.falcon_setup = 19.5f * gap + 2.0f; /* the chain's centre is z = 19.5 gap: the falcon 2 m beyond the end */
    d.falcon_speed = 1.0f;
    d.falcon_attack_speed = 1.0f;
    d.falcon_attack = 3.0f;
    d.falcon_retreat = 9.0f; /* the wave is measured at the end of the retreat: all alarmed by then */
    d.escape_radius = 2.5f;
    d.escape_accel = 0.0f;
    d.escape_latency = latency;
    d.escape_exposure = 0.5f;
    d.escape_reaction = 0.0f; /* copy at once after the latency: the hops are known by hand */
    d.escape_alarm_speed = 0.0f; /* the falcon closes at 1 m/s: every bird that sees it alarms */
    d.escape_flee_time = 0.0f;
    d.escape_vacuole = 0.0f; /* the falcon comes within 2 m of the end bird: no flight from it (the vacuole) */
    mur_flock *f = make(&d);
    for (int i = 0; i < n; i++)
        put(f, i, 0.0f, 40.0f, gap * (float)i, 10.0f, 0.0f, 0.0f);
    int first[40];
    for (int i = 0; i < n; i++)
        first[i] = -1;
    double speed = -1.0;
    for (int t = 1; t <= 700; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int i = 0; i < n; i++)
            if (first[i] < 0 && (v.escape[i] & 7) >= MUR_ESCAPE_ZIGZAG && (v.escape[i] & 7) <= MUR_ESCAPE_SPEEDUP)
                first[i] = t;
        mur_event ev[MUR_MAX_EVENTS];
        const int ne = mur_flock_events(f, ev, MUR_MAX_EVENTS);
        for (int e = 0; e < ne; e++)
            if (ev[e].kind == MUR_EVENT_WAVE && speed < 0.0) {
                speed = ev[e].value;
                assert_int_equal(ev[e].count, n);
                assert_int_equal(ev[e].bird, n - 1);
            }
    }
    /* the end bird saw the falcon in the first tick after the set-up; the others copied, one
     * latency per bird down the chain */
    assert_int_equal(first[n - 1], 2);
    for (int m = 0; m < n - 1; m++)
        if (first[n - 1 - m] != 2 + m * expect_l)
            fail_msg("latency %g: bird %d alarmed after %d ticks, expected %d", (double)latency, n - 1 - m,
                     first[n - 1 - m], 2 + m * expect_l);
    /* the first bird of the chain sees birds 1 and 2: it copies bird 2; with escape_copy_speed bird 2, twice
     * as far, is seen twice as late, but at most 15 ticks after its alarm (the age the snapshot holds) */
    if (copy_speed > 0.0f) {
        const int lat = (int)lroundf(latency / 0.02f) < 1 ? 1 : (int)lroundf(latency / 0.02f);
        const int need2 = (int)lroundf(2.0f * gap / (copy_speed * 0.02f)); /* a whole number here */
        const int via2 = first[2] + (need2 < 15 ? (need2 > lat ? need2 : lat) : (15 > lat ? 15 : lat));
        assert_int_equal(first[0], first[1] + expect_l < via2 ? first[1] + expect_l : via2);
    } else {
        assert_int_equal(first[0], first[2] + expect_l);
    }
    assert_near(speed, gap / (expect_l * 0.02), 0.03 * gap / (expect_l * 0.02));
    mur_flock_destroy(f);
}

static void chain_alarm(float latency, int expect_l)
{
    chain_alarm_at(latency, expect_l, 1.0f, 0.0f);
}

static void falcon_alarm_spreads(void **st)
{
    (void)st;
    chain_alarm(0.05f, 3); /* 2.5 ticks: whole ticks, rounded */
    chain_alarm(0.1f, 5);
    chain_alarm(0.0f, 1);  /* at least one tick: the neighbours read the state at the tick's start */
}

/* The chain of falcon_alarm_spreads, nearly still, the falcon set up 2 m beyond its end bird and closing at
 * 1 m/s: that bird alone sees it, looming at about 0.5/s (1 m/s over 2 m). Returns how many birds were ever
 * escaping in 300 ticks; *end: the end bird's first escape state, *first: whether bird 0 (the far end of
 * the chain) was ever alarmed. */
static int faint_alarm(float fade, float alarm_speed, int *end, bool *first)
{
    const int n = 40;
    mur_flock_def d = topo_def(n, 1000.0f);
    d.dt = 0.02f;
    d.topo_k = 2.0f;
    d.view_radius = 3.0f;
    d.falcon = true;
    d.falcon_strategy = MUR_FALCON_BESIDE;
    d.falcon_setup = 21.5f;
    d.falcon_speed = 1.0f;
    d.falcon_attack_speed = 1.0f;
    d.falcon_attack = 3.0f;
    d.falcon_retreat = 4.0f;
    d.escape_radius = 2.5f;
    d.escape_accel = 0.0f;
    d.escape_exposure = 0.5f;
    d.escape_reaction = 0.0f;
    d.escape_flee_time = 0.0f;
    d.escape_copy_fade = fade;
    d.escape_flee_loom = 1.0f;
    d.escape_alarm_speed = alarm_speed;
    d.escape_vacuole = 0.0f; /* the end bird is alarmed by seeing the falcon, not by the vacuole */
    mur_flock *f = make(&d);
    for (int i = 0; i < n; i++)
        put(f, i, 0.0f, 40.0f, (float)i, 0.01f, 0.0f, 0.0f); /* nearly still: the falcon closes at 1 m/s */
    int ever = 0, seen[40] = {0};
    *end = MUR_ESCAPE_CALM;
    for (int t = 1; t <= 300; t++) {
        mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        for (int i = 0; i < n; i++)
            if (!seen[i] && (v.escape[i] & 7) >= MUR_ESCAPE_ZIGZAG && (v.escape[i] & 7) <= MUR_ESCAPE_SPEEDUP) {
                seen[i] = 1;
                ever++;
                if (i == n - 1)
                    *end = v.escape[i] & 7;
            }
    }
    assert_true(seen[n - 1]); /* the end bird saw the falcon */
    *first = seen[0];
    mur_flock_destroy(f);
    return ever;
}

/* escape_copy_fade: the end bird's alarm, looming at about 0.5/s, half of escape_flee_loom (here 1/s), has a
 * strength of about 0.5 and falls by 0.1 a copy: it dies out within a few hops, where at full strength
 * (escape_copy_fade 0) it runs the chain's length (falcon_alarm_spreads). */
static void falcon_copy_fades(void **st)
{
    (void)st;
    int end;
    bool first;
    const int ever = faint_alarm(0.1f, 0.0f, &end, &first); /* every bird that sees the falcon alarms */
    if (!(ever >= 2 && ever <= 10)) /* a few copies, then the alarm is spent */
        fail_msg("%d birds alarmed", ever);
    assert_false(first);
}

/* escape_alarm_speed: the end bird sees the falcon closing at 1 m/s. Under an alarm speed of 2 m/s it only
 * turns away and nobody copies it (one bird escaping); under 0.5 m/s it alarms its neighbour and the alarm
 * runs the chain's length (every alarm at full strength). */
static void falcon_alarm_speed(void **st)
{
    (void)st;
    int end;
    bool first;
    int ever = faint_alarm(0.0f, 2.0f, &end, &first);
    if (ever != 1)
        fail_msg("quiet: %d birds alarmed", ever);
    assert_int_equal(end, MUR_ESCAPE_TURN);
    assert_false(first);
    ever = faint_alarm(0.0f, 0.5f, &end, &first);
    if (ever != 40)
        fail_msg("loud: %d birds alarmed", ever);
    assert_true(first);
}

/* escape_copy_speed: a neighbour d away is copied once it has escaped d / escape_copy_speed, so the alarm
 * runs at that speed whatever the birds' spacing: 10 m/s along chains 1 m apart (5 ticks a hop) and 2 m
 * apart (10 ticks), where a fixed latency runs twice as fast along the looser chain. At least
 * escape_latency: 0.2 s (10 ticks) holds the 1 m hops to 10 ticks. */
static void falcon_copy_speed_spacing(void **st)
{
    (void)st;
    chain_alarm_at(0.02f, 5, 1.0f, 10.0f);
    chain_alarm_at(0.02f, 10, 2.0f, 10.0f);
    chain_alarm_at(0.06f, 3, 2.0f, 0.0f); /* the fixed latency: 3 ticks a hop at either spacing */
    chain_alarm_at(0.2f, 10, 1.0f, 10.0f);
}

/* The flight from the falcon's path: two birds 3 m either side of a falcon diving at them from above
 * (the path vertical) flee in opposite directions, across the path; a bird the falcon would reach
 * only later than escape_flee_time does not flee, nor does one that cannot see it (escape_fov 1 deg,
 * facing away from its neighbour, and the falcon farther than that neighbour). The neutral rules (no
 * steering of their own) and manoeuvres without acceleration (escape_accel 0), so only the flight
 * moves them. */
static void falcon_flee_parts(void **st)
{
    (void)st;
    for (int c = 0; c <= 2; c++) {
        const bool far = c == 1, blind = c == 2;
        mur_flock_def d = topo_def(2, 1000.0f);
        d.dt = 0.02f;
        d.falcon = true;
        d.falcon_strategy = MUR_FALCON_ABOVE;
        d.falcon_setup = 20.0f; /* 20 m above the birds' centre, flying down at 20 m/s: 1 s to reach them */
        d.escape_radius = 30.0f;
        d.escape_accel = 0.0f;
        d.escape_fov = blind ? 1.0f : 270.0f;
        d.escape_flee_time = far ? 0.5f : 2.0f;
        d.escape_flee_accel = 10.0f;
        d.escape_flee_loom = 0.0f; /* all of the flight's acceleration (its strength: falcon_flee_looms) */
        mur_flock *f = make(&d);
        put(f, 0, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        put(f, 1, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
        for (int t = 0; t < 10; t++)
            mur_flock_step(f);
        const mur_view v = mur_flock_view(f);
        if (far || blind) { /* 0.5 s: the falcon is 16 m away at 20 m/s, 0.8 s: no flight yet */
            assert_true(fabsf(v.vel[0]) < 1e-6f && fabsf(v.vel[3]) < 1e-6f);
            if (blind)
                assert_int_equal(v.escape[0] & 7, MUR_ESCAPE_CALM);
        } else {
            assert_true(v.vel[0] < -0.5f); /* the bird at x = -3 flees to -x */
            assert_true(v.vel[3] > 0.5f);  /* the one at x = +3 to +x */
            assert_near(v.vel[0], -v.vel[3], 1e-4);
            assert_true((v.escape[0] & 7) >= MUR_ESCAPE_ZIGZAG && (v.escape[0] & 7) <= MUR_ESCAPE_SPEEDUP);
        }
        mur_flock_destroy(f);
    }
}

/* The flight's strength grows with the falcon's looming rate (closing speed / distance): the same two
 * birds 3 m either side of a falcon diving from 20 m above, at 20 or at 40 m/s. With escape_flee_loom 0
 * both flee alike (all of escape_flee_accel from the first tick: 10 ticks at 10 m/s^2, 2 m/s); with
 * escape_flee_loom 4/s the slow falcon (looming at about 1/s at 20 m, 1.25/s after 0.2 s) gives about a
 * quarter of that, the fast one (2/s to 3.3/s) about twice as much as the slow one. */
static void falcon_flee_looms(void **st)
{
    (void)st;
    float got[2][2];
    for (int l = 0; l < 2; l++)
        for (int fast = 0; fast < 2; fast++) {
            mur_flock_def d = topo_def(2, 1000.0f);
            d.dt = 0.02f;
            d.falcon = true;
            d.falcon_strategy = MUR_FALCON_ABOVE;
            d.falcon_setup = 20.0f;
            d.falcon_speed = d.falcon_attack_speed = fast ? 40.0f : 20.0f;
            d.falcon_stoop = 0.0f;
            d.escape_radius = 30.0f;
            d.escape_accel = 0.0f;
            d.escape_flee_time = 2.0f;
            d.escape_flee_accel = 10.0f;
            d.escape_flee_loom = l ? 4.0f : 0.0f;
            d.escape_part_speed = 0.0f; /* the flight alone: at 40 m/s the fast falcon would startle them (the part) */
            mur_flock *f = make(&d);
            put(f, 0, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
            put(f, 1, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f);
            for (int t = 0; t < 11; t++) /* the set-up tick, then 10 ticks of flight */
                mur_flock_step(f);
            const mur_view v = mur_flock_view(f);
            assert_near(v.vel[0], -v.vel[3], 1e-4);
            got[l][fast] = v.vel[3];
            mur_flock_destroy(f);
        }
    print_message("flight after 0.2 s, m/s: full %.3f %.3f, by looming %.3f %.3f\n", (double)got[0][0],
                  (double)got[0][1], (double)got[1][0], (double)got[1][1]);
    assert_true(got[0][0] > 1.8f && got[0][0] <= 2.0f); /* the neutral rules' drag takes a little */
    assert_near(got[0][1], got[0][0], 0.04 * got[0][0]);
    assert_true(got[1][0] > 0.2f * got[0][0] && got[1][0] < 0.35f * got[0][0]);
    assert_true(got[1][1] > 1.7f * got[1][0] && got[1][1] <= got[0][1]);
}

/* A stoop is faster than a level attack: diving straight down from 100 m above two birds, the falcon
 * reaches falcon_attack_speed * (1 + falcon_stoop) (30 * 1.5 = 45 m/s) and no more; from beside (level)
 * at most falcon_attack_speed; with falcon_stoop 0 the dive too. */
static void falcon_stoops(void **st)
{
    (void)st;
    for (int c = 0; c < 3; c++) {
        mur_flock_def d = topo_def(2, 1000.0f);
        d.dt = 0.02f;
        d.falcon = true;
        d.falcon_strategy = c == 1 ? MUR_FALCON_BESIDE : MUR_FALCON_ABOVE;
        d.falcon_setup = 100.0f;
        d.falcon_stoop = c == 2 ? 0.0f : 0.5f;
        d.escape_radius = 0.0f;
        d.escape_flee_time = 0.0f;
        mur_flock *f = make(&d);
        put(f, 0, -1.0f, 50.0f, 0.0f, 0.0f, 0.0f, 1.0f);
        put(f, 1, 1.0f, 50.0f, 0.0f, 0.0f, 0.0f, 1.0f);
        float top = 0.0f;
        for (int t = 0; t < 120; t++) { /* 2.4 s: 100 m at 20 to 45 m/s, before it reaches them */
            mur_flock_step(f);
            const mur_view v = mur_flock_view(f);
            const float s2 = sqrtf(v.falcon_vel[0] * v.falcon_vel[0] + v.falcon_vel[1] * v.falcon_vel[1] +
                                   v.falcon_vel[2] * v.falcon_vel[2]);
            top = s2 > top ? s2 : top;
        }
        if (c == 0)
            assert_true(top > 40.0f && top <= 45.0f + 1e-3f);
        else
            assert_true(top > 28.0f && top <= 30.0f + 1e-3f);
        mur_flock_destroy(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_cycle),      cmocka_unit_test(falcon_catches), cmocka_unit_test(falcon_deterministic),
        cmocka_unit_test(falcon_finite),     cmocka_unit_test(falcon_bad_values), cmocka_unit_test(falcon_live), cmocka_unit_test(falcon_alarm_spreads), cmocka_unit_test(falcon_copy_speed_spacing), cmocka_unit_test(falcon_copy_fades), cmocka_unit_test(falcon_alarm_speed),
        cmocka_unit_test(falcon_flee_parts), cmocka_unit_test(falcon_flee_looms),
        cmocka_unit_test(falcon_stoops),
        cmocka_unit_test(falcon_deterministic_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
