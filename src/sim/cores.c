/* Falling back to one thread on a busy machine (cores.h).
 *
 * An OpenMP step on 2 threads waits at every barrier for its slower thread. When another process
 * takes one of the 2 cores, that thread runs a fraction of the time and the step becomes slower than
 * on 1 thread (0.76x at 100k boids with 2 busy loops beside it). The step cannot know the load in
 * advance, so it watches itself:
 *   - on all threads, each thread's CPU time in the rules pass against the pass's wall time tells
 *     whether every thread had its core. While they do (an idle machine) nothing else happens: no
 *     probe, no cost. After CONTENDED such ticks in a row in which one did not, the next tick is a
 *     probe on one thread;
 *   - on one thread, every PROBE_EVERY ticks a probe tick runs on all threads;
 *   - each mode keeps a smoothed time per tick; the step takes the faster mode (with a margin, so
 *     noise does not flip it every probe), and goes back to all threads at once when a probe there
 *     had its cores.
 * Results never depend on this: every thread count gives the same bits. */
#include "cores.h"

#include <time.h>

#include "core.h"

#define CONTENDED 2       /* ticks in a row with a thread off its core before a probe on one */
#define PROBE_EVERY 16    /* ticks between probes */
#define OWN_CORE 0.85     /* a thread that ran this share of the pass had its core */
#define MARGIN 0.92       /* switch when the other mode is this much faster */
#define SMOOTH 0.3        /* weight of a new tick in the smoothed time */

void mur_cores_reset(mur_cores *c)
{
    c->mode = 0;
    c->probe = false;
    c->ms[0] = c->ms[1] = -1.0;
    c->contended = 0;
    c->since = PROBE_EVERY; /* a first probe may come at once */
}

int mur_cores_threads(mur_cores *c, int threads)
{
    if (threads <= 1 || c->fixed)
        return threads;
    const int mode = c->probe ? 1 - c->mode : c->mode;
    return mode == 0 ? threads : 1;
}

int mur_cores_current(const mur_cores *c, int threads)
{
    return threads <= 1 || c->fixed || c->mode == 0 ? threads : 1;
}

void mur_cores_update(mur_cores *c, int used, int threads, double ms, double own)
{
    if (threads <= 1 || c->fixed || !(ms > 0.0))
        return;
    const int m = used == threads ? 0 : 1;
    const bool was_probe = c->probe;
    c->probe = false;
    c->since++;
    /* a probe's single tick counts more: it is all that mode gets for a while */
    const double w = c->ms[m] < 0.0 ? 1.0 : (was_probe ? 0.5 : SMOOTH);
    c->ms[m] = c->ms[m] < 0.0 ? ms : (1.0 - w) * c->ms[m] + w * ms;
    if (m == 0) {
        c->contended = own < OWN_CORE ? c->contended + 1 : 0;
        if (was_probe && own >= OWN_CORE) {
            c->mode = 0; /* the cores are ours again */
            return;
        }
    }
    if (c->ms[0] > 0.0 && c->ms[1] > 0.0) {
        const int other = 1 - c->mode;
        if (was_probe && c->ms[other] < MARGIN * c->ms[c->mode]) {
            c->mode = other;
            c->since = 0;
            c->contended = 0;
            return;
        }
    }
    if (c->since < PROBE_EVERY)
        return;
    if (c->mode == 1 || c->contended >= CONTENDED) {
        c->probe = true;
        c->since = 0;
    }
}

double mur_thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double mur_own_share(double t0, double c0)
{
    const double wall = mur_now_ms() - t0;
    return wall > 0.0 ? (mur_thread_cpu_ms() - c0) / wall : 1.0;
}

double mur_own_start(double *own, int nt)
{
    for (int k = 0; k < nt; k++)
        own[k] = 1.0;
    return nt > 1 ? mur_now_ms() : 0.0;
}
