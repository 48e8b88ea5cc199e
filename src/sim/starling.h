/* The starling steering terms (starling.c, docs/rules.md "Starling rules"): relaxation to the cruise
 * speed, the roost attraction and banked turning. Called from the rules' update of one boid. */
#ifndef MUR_SIM_STARLING_H
#define MUR_SIM_STARLING_H

#include "rules.h"

/// Gravity used by banked turns, wu/s^2 (1 wu = 1 m).
#define MUR_GRAVITY 9.81f

/// Add the starling terms to the steering acceleration a of boid b; banking rewrites a's lateral part
/// and advances *roll (radians), with bank_align also toward nroll, the neighbours' mean roll.
void mur_starling_steer(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll,
                        float nroll);

/// The skin (issue 24, twelfth round): the vertical pull skin sgn(uy) min(1, |uy|)^skin_edge, uy the up
/// part of the mean unit direction to the neighbours: toward the side where they lie, 0 when they lie
/// above and below alike (the caller skips it when skin is 0 or the bird has no neighbours).
float mur_starling_skin(const mur_flock_def *d, float uy);

/// The skin's rim part: out = skin_rim min(1, |u_h|)^skin_edge u_h / |u_h| (x, z), u_h = (ux, uz) the
/// horizontal part of the mean unit direction to the neighbours; 0 for u_h = 0.
void mur_starling_skin_rim(const mur_flock_def *d, float ux, float uz, float out[2]);

/// Exposure-gated cohesion (issue 24, round s17): t = clamp((c - from) / (1 - from), 0, 1) for a centrality
/// c in [0, 1] and 0 < from < 1; 0 for c <= from (and for NaN).
float mur_starling_gate_from(float c, float from);

/// separation_exposed: the factor on the closest neighbour's separation vector (sx, sy, sz) that gives
/// it the kernel at the radius shrunk by exposure (C from the mean unit direction (ux, uy, uz), nn2 the
/// closest neighbour's squared distance); exactly 1 where the radius is not shrunk.
float mur_starling_exposed(const mur_flock_def *d, float ux, float uy, float uz, float sx, float sy, float sz,
                           float nn2);

/// separation_stiff: the factor on the closest neighbour's separation vector (sx, sy, sz) that adds the
/// hard-core push separation_stiff (r_c / max(d, r_c / 10) - 1) to its kernel, d = sqrt(nn2) below
/// r_c = separation_stiff_radius; exactly 1 at d >= r_c or where there is no push.
float mur_starling_stiff(const mur_flock_def *d, float sx, float sy, float sz, float nn2);

/// separation_outward (issue 24, twenty-first round): takes min(1, separation_outward t) (s.n) n off the separation
/// vector s = (sx, sy, sz) in place where s.n > 0, n = -u / |u| the outward normal, u = (ux, uy, uz) the mean
/// unit direction to the neighbours, t = clamp((min(1, |u|) - separation_outward_from) / (1 - from), 0, 1);
/// s is left exactly as it is where t = 0, s.n <= 0 or |u| = 0.
void mur_starling_outward(const mur_flock_def *d, float ux, float uy, float uz, float s[3]);

/// lone_pull (issue 24, twenty-second round): out = lone_pull min(1, (d - r) / r) k / d, k = (kx, ky, kz) the offset to
/// the closest neighbour, d = sqrt(nn2) its distance, r = separation_radius; exactly 0 where d <= r (separation's
/// reach), d is not finite, or k is 0.
void mur_starling_lone(const mur_flock_def *d, float kx, float ky, float kz, float nn2, float out[3]);

/// The vertical pulls' order gate (issue 24, thirteenth round): min(1, |m| / |v|)^up_order, m = (mx, my,
/// mz) the neighbours' mean velocity and v = (vx, vy, vz) the bird's own: 1 where the neighbours fly as
/// one at the bird's speed, about (1 / sqrt(k))^up_order among k neighbours flying every way; 1 for a
/// bird that does not move (the caller skips it when up_order is 0, so the bits stay).
float mur_starling_up_gate(const mur_flock_def *d, float mx, float my, float mz, float vx, float vy, float vz);

/// Weak pitch on the social steering a of boid b, whose roll is roll (radians): without lift (or bank)
/// a[1] *= pitch (exact when pitch is 1); with lift the part of a along the body's up axis (the up
/// axis across the flight direction, rolled by roll) is scaled by pitch, so a banked bird's strong
/// axis, its rolled side axis, has a vertical part (docs/rules.md, "Lift along the body's up axis").
void mur_starling_pitch(const mur_flock_def *d, const boid_in *b, float roll, float a[3]);
/// Thrust, not the neighbours, sets the speed: the part of the social steering a along boid b's flight
/// direction is scaled by surge (the caller skips it when surge is 1, so the bits stay).
/// After mur_starling_pitch: separation sep (its acceleration, separation weight included) gets back
/// separation_up (1 - pitch) of its part along the same up axis (the vertical without lift or bank), so
/// its up part is scaled by pitch + separation_up (1 - pitch) (the caller skips it when separation_up
/// is 0, so the bits stay).
void mur_starling_separation_up(const mur_flock_def *d, const boid_in *b, float roll, const float sep[3],
                                float a[3]);
/// The share of separation_up that acts for a closest neighbour at squared distance nn2: 1 when
/// separation_up_radius is 0, else max(0, 1 - sqrt(nn2) / separation_up_radius) (0 for nn2 infinite).
float mur_starling_up_near(const mur_flock_def *d, float nn2);
/// As mur_starling_separation_up for cohesion coh (its acceleration, cohesion weight and centrality
/// included) with cohesion_up (the caller skips it when cohesion_up is 0).
void mur_starling_cohesion_up(const mur_flock_def *d, const boid_in *b, float roll, const float coh[3], float a[3]);
/// The caps pull's share t = clamp((|uy| - cohesion_caps_from) / (1 - cohesion_caps_from), 0, 1) for a bird
/// whose mean unit direction to its neighbours has up part uy: 0 in the interior (neighbours above and below
/// alike), up to 1 where they all lie straight above or below.
float mur_starling_caps(const mur_flock_def *d, float uy);
/// Both: vector v gets back kup times its part along the weak pitch's up axis (the vertical without
/// lift or bank, or when b flies nearly straight up or down).
void mur_starling_up_back(const mur_flock_def *d, const boid_in *b, float roll, float kup, const float v[3],
                          float a[3]);
/// Random steering (wander > 0): wander times a unit vector drawn from a counter-based hash of (seed,
/// tick, boid i): the same for any thread count and for the scalar and batched updates.
void mur_starling_wander(const mur_flock_def *d, uint64_t tick, int32_t i, float w[3]);
void mur_starling_surge(const mur_flock_def *d, const boid_in *b, float a[3]);
/// Separation's own surge (surge_separation >= 0), after mur_starling_surge: a gets
/// (surge_separation - surge) (sep . f) f, f = b's flight direction and sep the separation's
/// acceleration (its weight included, before the weak pitch), so separation's part along the flight is
/// scaled by surge_separation instead of surge (nothing for a bird that does not move; the caller skips
/// it when surge_separation is negative, so the bits stay).
/// sigma = mur_starling_surge_sep_gain(d, nn2) takes surge_separation's place (nn2: the closest neighbour's
/// squared distance).
void mur_starling_surge_separation(const mur_flock_def *d, const boid_in *b, const float sep[3], float nn2,
                                   float a[3]);
/// Separation's along-flight factor for a bird whose closest neighbour is at squared distance nn2:
/// 1 (full) when surge_separation_radius > 0 and sqrt(nn2) < surge_separation_radius, else
/// surge_separation (exactly, so the bits stay with the radius at 0; nn2 infinite: surge_separation).
float mur_starling_surge_sep_gain(const mur_flock_def *d, float nn2);

/// Ground avoidance (ground_avoid > 0): the upward acceleration of a boid at height y with vertical
/// velocity vy: below ground + ground_avoid a critically damped pull-up,
/// clamp(gk (ground_avoid - h) - g2w vy, 0, ground_accel) with h = y - ground; 0 above (and for NaN).
float mur_ground_pull(const mur_flock_def *d, const mur_rule_k *k, float y, float vy);

#endif
