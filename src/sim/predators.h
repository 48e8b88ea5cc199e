/* Predators (predators.c): planned from the state at the start of the tick, committed after the
 * boids moved (docs/rules.md). */
#ifndef MUR_SIM_PREDATORS_H
#define MUR_SIM_PREDATORS_H

#include "murmur/murmur.h"

struct mur_step;

/// Each predator's next position and velocity (the sorted copies must be built).
void mur_predators_plan(mur_flock *f, const struct mur_step *s);
/// Make the planned state the current one.
void mur_predators_commit(mur_flock *f);

#endif
