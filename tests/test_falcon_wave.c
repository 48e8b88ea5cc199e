/* The wave fit of the falcon's attacks (mur_wave_fit, src/sim/falcon.c) on constructed alarms whose
 * speed is known by hand: one front per detector, copied birds only. */
#include "util.h"
#include "falcon.h"
#include "flock_impl.h"

/* Two fronts: detector A at x = 0 alarmed at tick 0, detector B at x = 100 alarmed at tick 150 (3 s
 * later); each spreads at 12 m/s along x away from its detector after a reaction of 5 ticks, birds
 * 1.5 m apart. Alarm tick of a bird at distance s from its detector: t0 + 5 + s / 12 / dt. */
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
        const int32_t lag = 5 + (int32_t)lroundf(s / speed / dt);
        const int32_t a = 2 + k, b = 2 + PER + k;
        pos[3 * a] = s; /* front A toward +x */
        tick[a] = lag;
        src[a] = 0;
        pos[3 * b] = 100.0f - s; /* front B toward -x */
        tick[b] = 150 + lag;
        src[b] = 1;
    }
    int32_t used = -1;
    const double v = mur_wave_fit(tick, src, pos, N, dt, &used);
    assert_int_equal(used, 2 * PER); /* the copied birds, not the detectors */
    /* ticks are whole: the speed within the rounding of 1.5 m / 12 m/s = 6.25 ticks */
    assert_true(fabs(v - speed) < 0.05 * speed);
    /* the old reading (every bird against the first one alarmed, A) mixes B's front in: far off */
    int32_t first[N];
    for (int i = 0; i < N; i++)
        first[i] = 0;
    const double mixed = mur_wave_fit(tick, first, pos, N, dt, NULL);
    assert_true(fabs(mixed - speed) > 0.3 * speed);
    /* birds not alarmed, alarmed by a front whose first bird is unknown, or fewer than 3: no fit */
    for (int i = 2; i < N; i++)
        src[i] = i < N - 2 ? -1 : 0;
    assert_true(mur_wave_fit(tick, src, pos, N, dt, &used) == 0.0);
    assert_int_equal(used, 2);
    for (int i = 0; i < N; i++)
        tick[i] = -1;
    assert_true(mur_wave_fit(tick, first, pos, N, dt, &used) == 0.0);
    assert_int_equal(used, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falcon_wave_two_fronts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
