/* Whether the cores are really ours (cores.c): the step runs on all its threads while they get their
 * cores, and on one thread while other processes hold a core and two threads measure slower. The
 * thread count never changes a result (docs/architecture.md, determinism), only the speed. */
#ifndef MUR_SIM_CORES_H
#define MUR_SIM_CORES_H

#include <stdbool.h>
#include <stdint.h>

/// The choice between all threads (mode 0) and one (mode 1), with what it has measured.
typedef struct mur_cores {
    bool fixed;          ///< never fall back (mur_flock_set_thread_fallback(f, false))
    int mode;            ///< 0: all threads, 1: one thread
    bool probe;          ///< this tick tries the other mode
    double ms[2];        ///< smoothed ms per tick of each mode (< 0: not measured yet)
    int32_t contended;   ///< ticks on all threads in a row where a thread did not get its core
    int64_t since;       ///< ticks since the last probe
} mur_cores;

/// Forget what was measured (new thread count, new flock).
void mur_cores_reset(mur_cores *c);
/// Threads for the next tick of a flock set to `threads` (a probe tick tries the other mode).
int mur_cores_threads(mur_cores *c, int threads);
/// Threads of the current mode, never a probe (for ticks that only measure).
int mur_cores_current(const mur_cores *c, int threads);
/// After a moving tick on `used` threads: its time without the metrics, and the smallest share of
/// wall time that one of its threads spent running during the rules pass (1 = every thread had its
/// core the whole pass).
void mur_cores_update(mur_cores *c, int used, int threads, double ms, double own);

/// CPU time of the calling thread, ms.
double mur_thread_cpu_ms(void);
/// Start timing a pass on nt threads: own[0 .. nt) = 1 (a thread the runtime does not start counts as
/// having had its core); returns t0 for mur_own_share (0 on one thread, which is not timed).
double mur_own_start(double *own, int nt);
/// The share of the wall time since t0 (mur_now_ms) that the calling thread ran since its CPU time
/// was c0 (mur_thread_cpu_ms): about 1 when it had its core.
double mur_own_share(double t0, double c0);

#endif
