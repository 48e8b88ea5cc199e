/* The wave fit of the falcon's attacks (mur_wave_fit, src/sim/falcon.c) on constructed alarms whose
 * speed is known by hand: one front per detector, copied birds only. */
#include "util.h"
#include "falcon.h"
#include "falcon_scan.h"
#include "flock_impl.h"

/* Two fronts: detector A at x = 0 alarmed at tick 0, detector B at x = 100 alarmed at tick 150 (3 s
 * later); each spreads at 12 m/s along x away from its detector, birds 1.5 m apart (a hop of 6.25
 * ticks). Alarm tick of a bird at distance s from its detector: t0 + s / 12 / dt, rounded. */
static void falcon_wave_two_fronts(void **st)
{
    (void)st;
    enum { PER = 20, N = 2 + 2 * PER };
    const float dt = 0.02f, speed = 12.0f;
    int32_t tick[N], src[N];
    float pos[3 * N];
    memset(pos, 0, sizeof pos);
    tick[0] = 0; /* detector A */
    src[0] = 0;
    tick[1] = 150; /* detector B, 100 m away */
    src[1] = 1;
    pos[3] = 100.0f;
    for (int k = 0; k < PER; k++) {
        const float s = 1.5f * (float)(k + 1);
        const int32_t lag = (int32_t)lroundf(s / speed / dt);
        const int32_t a = 2 + k, b = 2 + PER + k;
        pos[3 * a] = s; /* front A toward +x */
        tick[a] = lag;
        src[a] = 0;
        pos[3 * b] = 100.0f - s; /* front B toward -x */
        tick[b] = 150 + lag;
        src[b] = 1;
    }
    int32_t used = -1;
    const double v = mur_wave_fit(tick, src, pos, NULL, N, dt, &used);
    assert_int_equal(used, 2 * PER); /* the copied birds, not the detectors */
    /* ticks are whole: the speed within the rounding of 1.5 m / 12 m/s = 6.25 ticks */
    assert_true(fabs(v - speed) < 0.05 * speed);
    /* the old reading (every bird against the first one alarmed, A) mixes B's front in: far off */
    int32_t first[N];
    for (int i = 0; i < N; i++)
        first[i] = 0;
    const double mixed = mur_wave_fit(tick, first, pos, NULL, N, dt, NULL);
    assert_true(fabs(mixed - speed) > 0.3 * speed);
    /* birds not alarmed, alarmed by a front whose first bird is unknown, or fewer than 3: no fit */
    for (int i = 2; i < N; i++)
        src[i] = i < N - 2 ? -1 : 0;
    assert_true(mur_wave_fit(tick, src, pos, NULL, N, dt, &used) == 0.0);
    assert_int_equal(used, 2);
    for (int i = 0; i < N; i++)
        tick[i] = -1;
    assert_true(mur_wave_fit(tick, first, pos, NULL, N, dt, &used) == 0.0);
    assert_int_equal(used, 0);
}

/* A small flock's fronts (docs/falcon.md): one or two hops each, the hops 0.6 and 1.4 m long (1 m on
 * average), each taking 5 ticks (0.1 s) whatever its length, as a copier reacts to a neighbour at any
 * distance. The alarm travels 1 m per 0.1 s: 10 m/s. A line with a free intercept through these
 * points reads the spread of the hops' lengths as speed (14.8 m/s by hand). */
static void falcon_wave_short_fronts(void **st)
{
    (void)st;
    enum { FRONTS = 8, PER = 4, N = FRONTS * PER };
    const float dt = 0.02f;
    int32_t tick[N], src[N];
    float pos[3 * N];
    memset(pos, 0, sizeof pos);
    for (int k = 0; k < FRONTS; k++) {
        const int32_t o = k * PER, t0 = 40 * k; /* the front's first bird, 10 m from the last front's */
        const float x0 = 10.0f * (float)k;
        tick[o] = t0;
        src[o] = o;
        pos[3 * o] = x0;
        /* one hop of 0.6 m, one of 1.4 m (tick t0 + 5), and two hops of 0.6 + 1.4 m (t0 + 10) */
        const float d[3] = {0.6f, 1.4f, 2.0f};
        const int32_t t[3] = {5, 5, 10};
        for (int h = 0; h < 3; h++) {
            const int32_t i = o + 1 + h;
            tick[i] = t0 + t[h];
            src[i] = o;
            pos[3 * i] = x0;
            pos[3 * i + 2] = d[h]; /* across x: the fronts never meet */
        }
    }
    int32_t used = -1;
    const double v = mur_wave_fit(tick, src, pos, NULL, N, dt, &used);
    assert_int_equal(used, FRONTS * 3);
    assert_true(fabs(v - 10.0) < 1e-4);
    /* the free intercept (the first version's fit) on the same points: 14.8 m/s */
    double sd = 0, stt = 0, sdd = 0, sdt = 0;
    for (int i = 0; i < N; i++) {
        if (src[i] == i)
            continue;
        const double dd = pos[3 * i + 2], tt = (tick[i] - tick[src[i]]) * (double)dt;
        sd += dd;
        stt += tt;
        sdd += dd * dd;
        sdt += dd * tt;
    }
    const double m = FRONTS * 3, free = (sdd - sd * sd / m) / (sdt - sd * stt / m);
    assert_true(fabs(free - 14.8) < 0.05);
}

/* A group flying across the flock (branch wave6): birds on a line along x, 1 m apart, each copying the
 * one before 5 ticks (0.1 s) later, so the alarm runs 10 m/s along the line; the group flies at 8 m/s
 * along z, so each bird is alarmed 0.8 m further along z per hop than its predecessor was. Read where
 * the birds were (the flock's frame, in which the group moves), the hops look sqrt(1 + 0.64) m long:
 * 12.8 m/s; in the frame of the front's first bird, which flies with the group: 10 m/s. */
static void falcon_wave_group_frame(void **st)
{
    (void)st;
    enum { N = 12 };
    const float dt = 0.02f, vz = 8.0f;
    int32_t tick[N], src[N];
    float pos[3 * N], vel[3 * N];
    memset(pos, 0, sizeof pos);
    memset(vel, 0, sizeof vel);
    for (int i = 0; i < N; i++) {
        tick[i] = 5 * i;
        src[i] = 0;
        pos[3 * i] = (float)i;
        pos[3 * i + 2] = vz * (float)tick[i] * dt;
        vel[3 * i + 2] = vz;
    }
    int32_t used = -1;
    const double v = mur_wave_fit(tick, src, pos, vel, N, dt, &used);
    assert_int_equal(used, N - 1);
    assert_true(fabs(v - 10.0) < 1e-3);
    const double flock = mur_wave_fit(tick, src, pos, NULL, N, dt, NULL);
    assert_true(fabs(flock - 10.0 * sqrt(1.64)) < 1e-3);
}

/* The burst (mur_burst) on constructed alarms: 4 birds the falcon alarmed itself whose nearest neighbour
 * was 1.0, 1.2, 0.8 and 1.0 m away at their alarm and 1.5, 1.8, 1.2 and 1.5 m at the end of their
 * manoeuvre (the part near its path opened by 1.5x); 3 copiers, 1.0 m and then 1.1 m (1.1x); a bird never
 * alarmed, one alarmed whose manoeuvre has not ended (-1) and one without a neighbour list (-1 at its
 * alarm) are not counted. */
static void falcon_burst_local(void **st)
{
    (void)st;
    enum { N = 10 };
    int32_t tick[N], src[N];
    float nn[2 * N];
    const float before[N] = {1.0f, 1.2f, 0.8f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 5.0f, -1.0f};
    const float after[N] = {1.5f, 1.8f, 1.2f, 1.5f, 1.1f, 1.1f, 1.1f, 9.0f, -1.0f, 9.0f};
    for (int i = 0; i < N; i++) {
        tick[i] = i;
        src[i] = i < 4 ? i : 0;
        nn[2 * i] = before[i];
        nn[2 * i + 1] = after[i];
    }
    tick[7] = -1; /* never alarmed */
    src[9] = 9;   /* alarmed by the falcon, no list */
    double b[2];
    assert_int_equal(mur_burst(tick, src, nn, N, b), 4);
    assert_true(fabs(b[0] - 1.5) < 1e-6);
    assert_true(fabs(b[1] - 1.1) < 1e-6);
    /* nobody alarmed: 0 both ways */
    for (int i = 0; i < N; i++)
        tick[i] = -1;
    assert_int_equal(mur_burst(tick, src, nn, N, b), 0);
    assert_true(b[0] == 0.0 && b[1] == 0.0);
}

/* The falcon's path (mur_path_burst): 3 birds it passed within 10 m (distances 2, 5 and 9.9 m) whose
 * nearest neighbours were 1.0, 1.0 and 2.0 m away at the attack's start and 1.5, 1.5 and 2.0 m after
 * (5 / 4 = 1.25); 2 birds farther (10 m exactly and 30 m) at 1.0 and 1.0, then 0.9 and 0.9; one without
 * the sample after the attack is not counted. */
static void falcon_path_burst(void **st)
{
    (void)st;
    enum { N = 6 };
    const float d[N] = {2.0f, 5.0f, 9.9f, 10.0f, 30.0f, 1.0f};
    const float nn[2 * N] = {1.0f, 1.5f, 1.0f, 1.5f, 2.0f, 2.0f, 1.0f, 0.9f, 1.0f, 0.9f, 1.0f, -1.0f};
    float d2[N];
    for (int i = 0; i < N; i++)
        d2[i] = d[i] * d[i];
    double b[2];
    assert_int_equal(mur_path_burst(d2, nn, N, b), 3);
    assert_true(fabs(b[0] - 1.25) < 1e-6);
    assert_true(fabs(b[1] - 0.9) < 1e-6);
    d2[0] = d2[1] = d2[2] = INFINITY; /* the falcon passed no bird */
    assert_int_equal(mur_path_burst(d2, nn, N, b), 0);
    assert_true(b[0] == 0.0);
}

/* The falcon's passes over the flock on several threads (mur_falcon_scan, mur_falcon_cone,
 * falcon_scan.c): 20,000 birds (5 chunks) on whole-metre positions (the double sums exact whatever the
 * order) with many at the same distance from the falcon across the chunks' boundaries, some perched:
 * the sums, the nearest bird, the 16 nearest (index order on ties) and the bird in the lock-on cone are
 * those of one pass in index order, on 1, 2 and 3 threads. */
static void falcon_scan_chunks(void **st)
{
    (void)st;
    mur_flock_def d;
    assert_true(mur_def_preset(&d, "starling", NULL));
    d.boids = 20000;
    d.falcon = true;
    mur_flock *f = make(&d);
    const int32_t n = f->n;
    assert_int_equal(n, 20000);
    f->falcon.pos[0] = f->falcon.pos[1] = f->falcon.pos[2] = 0.0f;
    f->falcon.vel[0] = 20.0f; /* heading +x */
    f->falcon.vel[1] = f->falcon.vel[2] = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        /* distances 3..12 m on the axes, ties every 10 birds; the far ones 50+ m */
        const float r = i % 997 == 0 ? (float)(3 + (i / 997) % 10) : (float)(50 + i % 200);
        const int axis = i % 3;
        float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
        p[0] = p[1] = p[2] = 0.0f;
        p[axis] = (i / 3) % 2 ? -r : r;
        v[0] = (float)(i % 7);
        v[1] = -(float)(i % 5);
        v[2] = 1.0f;
        f->perch[i] = i % 4093 == 1 ? 5 : 0; /* a few perched (not counted) */
    }
    f->perch[4096 * 2] = 3; /* one at a chunk's first bird */
    /* the reference: one pass in index order (falcon.c before the passes were split) */
    double sum[3] = {0, 0, 0}, vs[3] = {0, 0, 0};
    int32_t flying = 0, near_i = -1, prey[MUR_SCAN_PREY], nprey = 0, pick = -1;
    float near_d2 = INFINITY, prey_d2[MUR_SCAN_PREY], best = 0.0f;
    const float lr2 = 100.0f, cos_lock = cosf(22.5f * 3.14159265f / 180.0f);
    for (int32_t i = 0; i < n; i++) {
        if (f->perch[i] > 0)
            continue;
        const float *p = f->pos + 3 * (size_t)i;
        for (int c = 0; c < 3; c++) {
            sum[c] += p[c];
            vs[c] += f->vel[3 * (size_t)i + c];
        }
        flying++;
        const float d2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if (d2 < near_d2) {
            near_d2 = d2;
            near_i = i;
        }
        if (nprey < MUR_SCAN_PREY || d2 < prey_d2[nprey - 1]) {
            int k = nprey < MUR_SCAN_PREY ? nprey++ : MUR_SCAN_PREY - 1;
            for (; k > 0 && prey_d2[k - 1] > d2; k--) {
                prey_d2[k] = prey_d2[k - 1];
                prey[k] = prey[k - 1];
            }
            prey_d2[k] = d2;
            prey[k] = i;
        }
        if (d2 < lr2 && p[0] * 20.0f >= cos_lock * sqrtf(d2) * 20.0f) {
            const float score = -d2; /* falcon_target nearest */
            if (pick < 0 || score > best) {
                pick = i;
                best = score;
            }
        }
    }
    assert_true(near_i >= 0 && pick >= 0 && nprey == MUR_SCAN_PREY);
    d.falcon_target = MUR_FALCON_NEAREST;
    for (int threads = 1; threads <= 3; threads++) {
        mur_scan S;
        mur_falcon_scan(f, threads, true, true, &S);
        assert_int_equal(S.flying, flying);
        for (int c = 0; c < 3; c++) {
            assert_true(S.sum[c] == sum[c]);
            assert_true(S.vs[c] == vs[c]);
        }
        assert_true(S.speed > 0.0);
        assert_int_equal(S.near_i, near_i);
        assert_true(S.near_d2 == near_d2);
        assert_int_equal(S.nprey, nprey);
        for (int k = 0; k < nprey; k++) {
            assert_int_equal(S.prey[k], prey[k]);
            assert_true(S.prey_d2[k] == prey_d2[k]);
        }
        assert_int_equal(mur_falcon_cone(f, &d, threads, cos_lock, lr2), pick);
        /* without the nearest birds: the sums alone */
        mur_scan T;
        mur_falcon_scan(f, threads, false, false, &T);
        assert_int_equal(T.flying, flying);
        assert_true(T.sum[0] == sum[0] && T.near_i == -1 && T.nprey == 0 && T.speed == 0.0);
    }
    mur_flock_destroy(f);
}

/* The escape's quick paths (escape.c quick(): calm, refractory and manoeuvring birds the falcon does
 * not loom over) do what escape_step does for those birds: a flock attacked from 10 m, every tick
 * against the same flock with every bird through escape_step (esc_full), with the default escape, with
 * the alarm's fade, the neighbour's side off and the copied flight off, and without the flight from the
 * looming falcon and the quiet turn, with many parts (escape_part_speed 15) copied as the wave's manoeuvres after two copies (escape_wave_hops 2), without the vacuole, and with
 * many flashes (escape_flash_speed 15) fading after one copy (escape_flash_hops 2), and with the spread
 * (escape_spread 10); the state hash, the
 * escape rows (acceleration and state), the closest approaches and the published escapes the same bits on every tick, on 1 and 2 threads. The
 * attack puts birds in every state the quick paths take (calm, each manoeuvre, fled, refractory). */
static void falcon_escape_quick_exact(void **st)
{
    (void)st;
    for (int variant = 0; variant < 7; variant++) {
        mur_flock_def d;
        assert_true(mur_def_preset(&d, "starling", NULL));
        d.boids = 2000;
        d.seed = 11 + (uint64_t)variant;
        d.falcon = true;
        d.falcon_setup = 10.0f;
        if (variant == 1) {
            d.escape_copy_fade = 0.25f;
            d.escape_copy_side = false;
            d.escape_copy_flight = false;
        } else if (variant == 2) {
            d.escape_flee_time = 0.0f;
            d.escape_alarm_speed = 0.0f;
        } else if (variant == 3) {
            d.escape_part_speed = 15.0f; /* many parts (escape_step's own acceleration) */
            d.escape_wave_hops = 2;      /* parts copied as the wave's manoeuvres (branch react14) */
        } else if (variant == 4) {
            d.escape_vacuole = 0.0f; /* no vacuole (the model until branch react11; the default's 16 m in the others) */
        } else if (variant == 5) {
            d.escape_flash_speed = 15.0f; /* many flashes (escape_flash_time; branch react12) */
            d.escape_flash_hops = 2;      /* fading after a copy (branch react13; the default 10 in the others) */
        } else if (variant == 6) {
            d.escape_spread = 10.0f; /* the spread from the neighbours (branch react20): no quick path for a manoeuvre */
        }
        mur_flock *a = make(&d), *b = make(&d);
        mur_flock_set_threads(a, 1 + variant % 2);
        mur_flock_set_threads(b, 1 + variant % 2);
        b->falcon.esc_full = true;
        int32_t seen[6] = {0, 0, 0, 0, 0, 0}, fled = 0, parted = 0, flashed = 0;
        for (int t = 0; t < 150; t++) {
            mur_flock_step(a);
            mur_flock_step(b);
            assert_true(mur_flock_hash(a) == mur_flock_hash(b));
            const size_t n = (size_t)a->n;
            assert_int_equal(a->n, b->n);
            assert_memory_equal(a->erow, b->erow, n * sizeof *a->erow);
            assert_memory_equal(a->path_d2, b->path_d2, n * sizeof *a->path_d2);
            assert_memory_equal(a->esc, b->esc, n);
            assert_memory_equal(a->ecopy, b->ecopy, n);
            for (size_t i = 0; i < n; i++) {
                seen[a->esc[i] & 7]++;
                fled += (a->erow[i].ts & 16u) != 0;   /* FLEE */
                parted += (a->erow[i].ts & 64u) != 0; /* PART */
                flashed += (a->erow[i].ts & 128u) != 0; /* FLASH */
            }
        }
        for (int k = 0; k < 6; k++) /* with many parts (variant 3) the startled birds all turn */
            if (!(seen[k] > 0) && !(variant == 3 && k != MUR_ESCAPE_TURN && k != MUR_ESCAPE_REFRACTORY &&
                                    k != MUR_ESCAPE_CALM))
                fail_msg("variant %d: no bird in escape state %d", variant, k);
        if (variant < 2)
            assert_true(fled > 0);
        if (variant == 3)
            assert_true(parted > 0);
        if (variant == 5)
            assert_true(flashed > 0);
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_wave_two_fronts),
        cmocka_unit_test(falcon_wave_short_fronts),
        cmocka_unit_test(falcon_wave_group_frame),
        cmocka_unit_test(falcon_burst_local),
        cmocka_unit_test(falcon_path_burst),
        cmocka_unit_test(falcon_scan_chunks),
        cmocka_unit_test(falcon_escape_quick_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
