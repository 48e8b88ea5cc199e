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

#endif
