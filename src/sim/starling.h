/* The starling steering terms (starling.c, docs/rules.md "Starling rules"): relaxation to the cruise
 * speed, the roost attraction and banked turning. Called from the rules' update of one boid. */
#ifndef MUR_SIM_STARLING_H
#define MUR_SIM_STARLING_H

#include "rules.h"

/// Gravity used by banked turns, wu/s^2 (1 wu = 1 m).
#define MUR_GRAVITY 9.81f

/// Add the starling terms to the steering acceleration a of boid b; banking rewrites a's lateral part
/// and advances *roll (radians).
void mur_starling_steer(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll);

#endif
