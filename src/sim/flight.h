/* The flight model (flight.c, docs/rules.md "Flight"): gravity, lift along the body's up axis that
 * grows with the square of the speed, turning by rolling, weak pitch through the lift coefficient.
 * Scalar, per boid: the scalar update (starling.c) and the batched one (topo_batch.c) call the same
 * function, so both give the same bits. */
#ifndef MUR_SIM_FLIGHT_H
#define MUR_SIM_FLIGHT_H

#include "rules.h"

/// The roll step of a banked turn: the lateral acceleration lat wanted (across the heading,
/// horizontal, + to the right), capped at speed s times max_turn, sets the target roll
/// atan(want / g) (within +-1.5 rad); *roll follows it at bank_rate and, with bank_align, the
/// neighbours' mean roll nroll. Shared by the banked turn (starling.c) and the flight.
void mur_roll_follow(const mur_flock_def *d, const mur_rule_k *k, float s, float lat, float *roll, float nroll);

/// The flight (flight = on, with bank): the steering a of boid b (its social part, the cruise thrust
/// and the roost's turn already in it) becomes the acceleration that moves the bird. The parts of a
/// across the flight direction are taken out: the horizontal lateral part sets the roll target
/// (mur_roll_follow), the part along the up axis across the flight direction n0 sets the lift
/// coefficient c = (1 + a.n0 / g) / cos(roll) (clamped to [0, flight_lift_max]); the bird then feels
/// lift g (|v| / cruise_speed)^2 c along its body's up axis u (n0 rolled by the new roll about the
/// flight direction; the magnitude at most flight_lift_max g) and gravity g downward. The part of a
/// along the flight direction (thrust) stays. Finite for any finite input; a bird flying straight up
/// or down rolls about the x axis.
void mur_flight(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll,
                float nroll);

#endif
