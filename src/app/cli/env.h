/* The environment variables of the simulation (docs/environment.md), read here and nowhere else: the
 * library reads no environment. */
#ifndef MUR_APP_ENV_H
#define MUR_APP_ENV_H

#include <stdbool.h>

#include "murmur/murmur.h"

/// Apply MURMUR_THREADS (else OMP_NUM_THREADS; both skipped when threads_given, i.e. --threads),
/// MURMUR_SIMD and MURMUR_CELL_REACH to f. An unset or empty variable changes nothing. False + err
/// (one line naming the variable, its value and what is allowed) on a bad value; f may then have
/// taken the variables before it.
bool mur_env_apply(mur_flock *f, bool threads_given, mur_error *err);
/// The worker threads a flock will get before it exists (for the cost line): threads when > 0, else
/// a valid MURMUR_THREADS or OMP_NUM_THREADS, else 0 (all cores).
int mur_env_threads(int threads);

/// Unless OMP_WAIT_POLICY is set: set it to PASSIVE and start the program again (argv as given), once.
/// OpenMP reads the policy when its runtime loads, before main. Its default spins while a thread
/// waits; on a machine whose cores are shared (other programs, the GL driver's threads beside the
/// viewer) the spinning takes the time the working thread needs, and a 2-thread step became several
/// times slower than 1 thread (docs/performance/rounds.md). Returns only when the policy was already set or
/// the exec failed (no /proc: the default policy stays).
void mur_env_wait_policy(char **argv);

/// The graphics variables (MURMUR_MSAA, MURMUR_SHADOWS, MURMUR_BIRD, MURMUR_SPLAT, MURMUR_TINT_ALARM,
/// MURMUR_X264_PRESET): false + err
/// (one line) when one is set to a value they do not take.
bool mur_env_check_graphics(mur_error *err);
/// The x264 preset of that name (a static string), or NULL when x264 has none.
const char *mur_x264_preset_known(const char *name);

#endif
