/* The flight model (flight.c, docs/rules.md "Flight"): gravity, lift along the body's up axis that
 * grows with the square of the speed, turning by rolling, weak pitch through the lift coefficient.
 * Scalar, per boid: the scalar update (starling.c) and the batched one (topo_batch.c) call the same
 * function, so both give the same bits. */
#ifndef MUR_SIM_FLIGHT_H
#define MUR_SIM_FLIGHT_H

#include "rules.h"

/// Whether the flight acts: flight on, with bank (its roll is the banked turn's).
static inline bool mur_flight_on(const mur_flock_def *d)
{
    return d->flight && d->bank;
}

/// The roll step of a banked turn: the lateral acceleration lat wanted (across the heading,
/// horizontal, + to the right), capped at speed s times max_turn, sets the target roll
/// atan(want / g) (within +-1.5 rad); *roll follows it at bank_rate and, with bank_align, the
/// neighbours' mean roll nroll. Shared by the banked turn (starling.c) and the flight.
void mur_roll_follow(const mur_flock_def *d, const mur_rule_k *k, float s, float lat, float *roll, float nroll);

/// The flight (flight = on, with bank): the steering a of boid b (its social part and the roost's
/// turn and altitude control already in it) becomes the acceleration that moves the bird. a is read
/// in the level frame of the flight: its horizontal lateral part sets the roll target
/// (mur_roll_follow), its vertical part a_y the lift coefficient
/// c = (1 + a_y / g) / cos(roll) (1 + flight_hold ((cruise_speed / |v|)^2 - 1)), clamped to
/// [0, flight_lift_max], and its horizontal forward part plus the thrust toward cruise_speed
/// (speed_tau, as starling.c's relaxation) acts along the flight direction. The bird then feels lift
/// g (|v| / cruise_speed)^2 c (at most flight_lift_max g) along its body's up axis (the up axis
/// across the flight direction rolled by the new roll) and gravity g downward. Finite for any finite
/// input; a bird flying straight up or down takes the x axis as its side axis.
void mur_flight(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll,
                float nroll);

/// The speed limits with the flight on (in place of mur_clamp_speed): faster than hi, the velocity
/// is scaled to hi along the path; slower than lo (and moving), the vertical speed v_y stays and the
/// horizontal speed becomes sqrt(lo^2 - v_y^2) along the level heading (the -z axis for a bird within
/// 0.06 deg of vertical): a bird that stalls in a climb pitches over and gravity takes its climb
/// instead of the clamp holding it at lo along its upward path. A zero velocity stays zero.
void mur_flight_clamp(float v[3], float lo, float hi);

#endif
