/* The one parameter table: parsing, validation, listing and live setting all read it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core.h"
#include "params_check.h"
#include "text_in.h"

typedef struct param_row {
    mur_param pub;
    size_t offset;    ///< into mur_flock_def
    const char *dflt; ///< the default (mur_flock_default_def), as the row's parser reads it
} param_row;

#define OFF(field) offsetof(mur_flock_def, field)
#define BIG 1e6

static const param_row ROWS[] = {
    {{"boids", MUR_PT_INT, 0, MUR_MAX_BOIDS, false, "", NULL, "number of boids", true}, OFF(boids), "2000"},
    {{"predators", MUR_PT_INT, 0, MUR_MAX_PREDATORS, false, "", NULL, "number of predators (0 = none)", true}, OFF(predators), "0"},
    {{"seed", MUR_PT_SEED, 0, 18446744073709551615.0, false, "", NULL, "seed of the initial state and the perch timers", false}, OFF(seed), "1"},
    {{"dt", MUR_PT_FLOAT, 0, 10, true, "s", NULL, "length of one tick", true}, OFF(dt), "0.05"},
    {{"view_radius", MUR_PT_FLOAT, 0, BIG, true, "wu", NULL, "a boid sees others closer than this", true}, OFF(view_radius), "6"},
    {{"view_angle", MUR_PT_FLOAT, 0, 360, true, "deg", NULL, "full angle of the view cone around the velocity (360 = all round)", true}, OFF(view_angle), "300"},
    {{"cohesion", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "weight of the pull toward the perceived centre of the neighbours", true}, OFF(cohesion), "0.4"},
    {{"alignment", MUR_PT_FLOAT, 0, BIG, false, "1/s", NULL, "weight of matching the neighbours' mean velocity", true}, OFF(alignment), "4"},
    {{"separation", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "weight of the push away from neighbours closer than separation_radius", true}, OFF(separation), "10"},
    {{"separation_radius", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "neighbours closer than this push the boid away", true}, OFF(separation_radius), "3"},
    {{"min_speed", MUR_PT_FLOAT, 0, BIG, false, "wu/s", NULL, "flying boids are sped up to at least this (0 = no minimum); with flight on the vertical speed is kept and the missing speed goes on the level heading (stall recovery: a bird stalled in a climb pitches over)", true}, OFF(min_speed), "6"},
    {{"max_speed", MUR_PT_FLOAT, 0, BIG, true, "wu/s", NULL, "flying boids are slowed to at most this", true}, OFF(max_speed), "12"},
    {{"bounds", MUR_PT_ENUM, 0, 0, false, "", "soft|wrap|bounce|none", "what the world box does to boids", true}, OFF(bounds), "soft"},
    {{"world_min", MUR_PT_VEC3, -BIG, BIG, false, "wu", NULL, "lower corner of the world box (x,y,z)", true}, OFF(world_min), "-60,-5,-60"},
    {{"world_max", MUR_PT_VEC3, -BIG, BIG, false, "wu", NULL, "upper corner of the world box (x,y,z)", true}, OFF(world_max), "60,60,60"},
    {{"bounds_margin", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "soft bounds: the push starts this far inside a wall", true}, OFF(bounds_margin), "10"},
    {{"bounds_turn", MUR_PT_FLOAT, 0, BIG, false, "wu/s^2", NULL, "soft bounds: strength of the push back into the box", true}, OFF(bounds_turn), "15"},
    {{"perch", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "boids reaching the ground perch there for a while", true}, OFF(perch), "off"},
    /* Parker's arrangement: the soft floor (world_min.y + bounds_margin) lies a little above the ground,
     * so boids turn back above it and only the steepest dives land. */
    {{"ground", MUR_PT_FLOAT, -BIG, BIG, false, "wu", NULL, "height (y) of the ground plane", true}, OFF(ground), "0"},
    {{"perch_min", MUR_PT_INT, 1, 1000000, false, "ticks", NULL, "shortest perch", true}, OFF(perch_min), "20"},
    {{"perch_max", MUR_PT_INT, 1, 1000000, false, "ticks", NULL, "longest perch", true}, OFF(perch_max), "100"},
    {{"goal", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "boids tend toward goal_pos", true}, OFF(goal), "off"},
    {{"goal_pos", MUR_PT_VEC3, -BIG, BIG, false, "wu", NULL, "the place boids tend to (x,y,z)", true}, OFF(goal_pos), "0,20,0"},
    {{"goal_weight", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "weight of the pull toward the goal", true}, OFF(goal_weight), "0.3"},
    {{"wind", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "a steady push on every flying boid", true}, OFF(wind), "off"},
    {{"wind_vel", MUR_PT_VEC3, -BIG, BIG, false, "wu/s^2", NULL, "the wind's push (x,y,z), added to every flying boid's acceleration", true}, OFF(wind_vel), "3,0,0"},
    {{"scatter", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "negate cohesion so the flock disperses", true}, OFF(scatter), "off"},
    {{"predator_radius", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "boids flee predators closer than this", true}, OFF(predator_radius), "12"},
    {{"predator_speed", MUR_PT_FLOAT, 0, BIG, false, "wu/s", NULL, "top speed of a predator", true}, OFF(predator_speed), "14"},
    {{"predator_turn", MUR_PT_FLOAT, 0, BIG, false, "1/s", NULL, "rate at which a predator turns toward the nearest flying boid (a tick turns it at most all the way)", true}, OFF(predator_turn), "3"},
    {{"flee", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "weight of the push away from close predators", true}, OFF(flee), "2"},
    {{"steer_unit", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "cohesion and alignment vectors scaled to unit length (as in the vision-distance report)", true}, OFF(steer_unit), "off"},
    {{"plane", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "2D mode: flying boids move on the plane y = (world_min.y + world_max.y)/2 with no vertical velocity", true}, OFF(plane), "off"},
    {{"perch_neighbours", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "perching boids count as neighbours of flying ones", true}, OFF(perch_neighbours), "on"},
    {{"neighbour_search", MUR_PT_ENUM, 0, 0, false, "", "grid|brute", "neighbour search: uniform grid (O(N)) or every pair (O(N^2))", true}, OFF(neighbour_search), "grid"},
    /* the starling rules, off by default (docs/murmuration-model.md) */
    {{"neighbours", MUR_PT_ENUM, 0, 0, false, "", "metric|topological", "which neighbours a boid uses: all within view_radius, or the topo_k nearest", true}, OFF(neighbours), "metric"},
    {{"topo_k", MUR_PT_FLOAT, 1, 20, false, "", NULL, "topological neighbours; the fractional part weights the (k+1)-th nearest", true}, OFF(topo_k), "6.5"},
    {{"cruise_speed", MUR_PT_FLOAT, 0, BIG, false, "wu/s", NULL, "speed the boids relax to (with speed_tau > 0)", true}, OFF(cruise_speed), "10"},
    {{"speed_tau", MUR_PT_FLOAT, 0, BIG, false, "s", NULL, "time constant of the relaxation to cruise_speed (0 = off)", true}, OFF(speed_tau), "0"},
    {{"roost", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "boids turn back toward the roost when farther than roost_radius (horizontal) and keep its altitude", true}, OFF(roost), "off"},
    {{"roost_pos", MUR_PT_VEC3, -BIG, BIG, false, "wu", NULL, "roost centre x, altitude y, centre z", true}, OFF(roost_pos), "0,40,0"},
    {{"roost_radius", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "horizontal radius inside which the roost does not pull", true}, OFF(roost_radius), "150"},
    {{"roost_weight", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "turn toward the roost per wu beyond roost_radius", true}, OFF(roost_weight), "0.2"},
    {{"roost_vertical", MUR_PT_FLOAT, 0, BIG, false, "1/s^2", NULL, "vertical pull toward the roost altitude (critically damped)", true}, OFF(roost_vertical), "0.01"},
    {{"ground_avoid", MUR_PT_FLOAT, 0, 10000, false, "wu", NULL, "ground avoidance: below this height above the ground a flying boid pulls up, hardest when low and diving, at most ground_accel (0 = off)", true}, OFF(ground_avoid), "0"},
    {{"ground_accel", MUR_PT_FLOAT, 0, 1000, false, "wu/s^2", NULL, "ground avoidance: largest upward acceleration of the pull-up (reached at the ground, or sooner when diving)", true}, OFF(ground_accel), "10"},
    {{"bank", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "banked turns: the turn follows a roll angle that lags the lateral steering", true}, OFF(bank), "off"},
    {{"bank_rate", MUR_PT_FLOAT, 0, 1000, true, "1/s", NULL, "rate at which the roll angle follows its target", true}, OFF(bank_rate), "10"},
    {{"bank_align", MUR_PT_FLOAT, 0, 1000, false, "1/s", NULL, "bank alignment: the roll also follows the mean roll of the neighbours at this rate (0 = off; with bank on, topological neighbours only)", true}, OFF(bank_align), "0"},
    {{"reaction_ticks", MUR_PT_INT, 1, 8, false, "ticks", NULL, "reaction time in ticks: each boid re-reads its topological neighbours and recomputes its social steering (neighbour sums, mean neighbour roll, hard-sphere contacts) once per this many ticks, its phase a hash of (seed, boid), and holds it in between; flight physics every tick; the held steering is not in the state file, so --resume and --init re-read every boid on their first tick (1 = every tick)", true}, OFF(reaction_ticks), "1"},
    {{"reaction_hold", MUR_PT_ENUM, 0, 0, false, "", "sums|list", "what a boid holds between its reactions (reaction_ticks > 1): sums = its social steering of the last reading (neighbour sums, mean roll, contacts); list = only who its neighbours are (the k boid indices of the last reading): every tick the sums, the mean roll and the hard-sphere contacts come from those neighbours' current positions and velocities, nearest first (a neighbour that stopped counting, perched without perch_neighbours, is dropped), so only the choice of neighbours lags", true}, OFF(reaction_hold), "sums"},
    {{"max_turn", MUR_PT_FLOAT, 0, 36000, true, "deg/s", NULL, "largest turn rate of a banked turn", true}, OFF(max_turn), "120"},
    {{"hard_radius", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "hard sphere: no two boids get closer (0 = off; topological neighbours only)", true}, OFF(hard_radius), "0"},
    {{"centrality", MUR_PT_FLOAT, 0, 8, false, "", NULL, "cohesion scaled by C^centrality, C = length of the mean unit direction to the neighbours (1 at the flock's edge, near 0 inside; 0 = off; topological neighbours only)", true}, OFF(centrality), "0"},
    {{"centrality_from", MUR_PT_FLOAT, 0, 0.95, false, "", NULL, "exposure-gated cohesion: with centrality > 0, cohesion is scaled by t^centrality instead of C^centrality, t = clamp((C - centrality_from) / (1 - centrality_from), 0, 1), so the interior (C <= centrality_from; about 0.25-0.4 in the starling preset) feels no cohesion and only exposed birds are pulled (0 = off: C^centrality; topological neighbours only)", true}, OFF(centrality_from), "0"},
    {{"rim_pull", MUR_PT_FLOAT, 0, 1000, false, "wu/s^2", NULL, "short-range rim pull: an exposed bird steers towards its 3 closest neighbours, rim_pull * t * (1/3) sum_q h(d_q / rim_spacing) unit(d_q), h(x) = 4 (x - 1) (2 - x) for 1 < x < 2 and 0 otherwise, t = clamp((C - rim_from) / (1 - rim_from), 0, 1), C = length of the mean unit direction to the neighbours, so a rim bird closes up on neighbours farther than rim_spacing without pulling on the group beyond 2 rim_spacing (0 = off; topological neighbours, reaction_ticks=1 only)", true}, OFF(rim_pull), "0"},
    {{"rim_spacing", MUR_PT_FLOAT, 0.01, 100, false, "wu", NULL, "rim_pull: the target spacing s0; the pull is 0 at s0, largest at 1.5 s0 and 0 again from 2 s0", true}, OFF(rim_spacing), "1.3"},
    {{"rim_from", MUR_PT_FLOAT, 0, 0.95, false, "", NULL, "rim_pull: the centrality C at and below which a bird feels no rim pull (the interior's C is about 0.25-0.4 in the starling preset)", true}, OFF(rim_from), "0.35"},
    {{"lone_pull", MUR_PT_FLOAT, 0, 100, false, "wu/s^2", NULL, "the lone bird's pull: a bird whose closest neighbour is d >= separation_radius r away (out of separation's reach) steers towards that neighbour, lone_pull * min(1, (d - r) / r) * unit(d), 0 at the radius and full from 2 r; zero wherever the closest neighbour's separation acts, so it never adds to the held flock's spacing forces (0 = off; topological neighbours, reaction_ticks=1 only)", true}, OFF(lone_pull), "0"},
    {{"pitch", MUR_PT_FLOAT, 0, 1, false, "", NULL, "gain of the vertical part of the social steering (cohesion, alignment, separation): weak pitch, birds climb and dive less readily than they turn (1 = full)", true}, OFF(pitch), "1"},
    {{"lift", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "lift along the body's up axis: the weak pitch acts along the up axis rolled by the bank angle (with bank on), so a banked bird climbs or dives readily along its rolled side axis", true}, OFF(lift), "off"},
    {{"surge", MUR_PT_FLOAT, 0, 1, false, "", NULL, "gain of the part of the social steering (cohesion, alignment, separation) along the flight direction: birds change speed through their thrust (cruise_speed, speed_tau) more than through their neighbours (1 = full)", true}, OFF(surge), "1"},
    {{"surge_separation", MUR_PT_FLOAT, -1, 1, false, "", NULL, "separation's own surge: the part of the separation steering along the flight direction is scaled by surge_separation instead of surge, while cohesion and alignment (and the rest of the social steering) keep surge (-1 = off: separation takes surge as the rest; 0 = none; 1 = full)", true}, OFF(surge_separation), "-1"},
    {{"surge_separation_radius", MUR_PT_FLOAT, 0, 10, false, "wu", NULL, "close-range full surge for separation: with surge_separation >= 0, separation's part along the flight direction is scaled by 1 (full) while the closest neighbour is nearer than this and by surge_separation from this distance on, so the nearest neighbour is kept off the flight axis while the fore-aft spacing further out is softer (0 = off: surge_separation at any distance; topological neighbours only, needs surge_separation >= 0)", true}, OFF(surge_separation_radius), "0"},
    {{"separation_up", MUR_PT_FLOAT, 0, 1, false, "", NULL, "separation escapes the weak pitch: its part along the up axis is scaled by pitch + separation_up * (1 - pitch) instead of pitch, so a bird dodges a neighbour above or below it while cohesion and alignment keep the weak pitch (0 = off; 1 = full)", true}, OFF(separation_up), "0"},
    {{"separation_up_radius", MUR_PT_FLOAT, 0, 10, false, "wu", NULL, "close-range vertical separation: separation_up's part comes back only for a closest neighbour nearer than this, times max(0, 1 - d / separation_up_radius) (d its distance), so stacked pairs split while the flock's vertical spacing keeps the weak pitch (0 = at any distance; topological neighbours only)", true}, OFF(separation_up_radius), "0"},
    {{"separation_edge", MUR_PT_FLOAT, 0, 4, false, "", NULL, "selfish herd: separation scaled by max(0, 1 - separation_edge * C^2), C = length of the mean unit direction to the neighbours (near 1 at the flock's edge, near 0 inside), so a bird at the edge tolerates closer neighbours (0 = off; topological neighbours only)", true}, OFF(separation_edge), "0"},
    {{"separation_exposed", MUR_PT_FLOAT, 0, 1, false, "", NULL, "exposure-dependent spacing: the closest neighbour's separation radius is separation_radius * (1 - separation_exposed * t), t = clamp((C - separation_exposed_from) / (1 - separation_exposed_from), 0, 1), C = length of the mean unit direction to the neighbours, so a bird more exposed than the interior keeps closer neighbours while the interior keeps the full radius (0 = off; topological neighbours, separation_nearest=1 and separation_view=360 only)", true}, OFF(separation_exposed), "0"},
    {{"separation_exposed_from", MUR_PT_FLOAT, 0, 0.95, false, "", NULL, "separation_exposed: the centrality C below which the radius is the full separation_radius (the interior's C is about 0.25-0.4 in the starling preset)", true}, OFF(separation_exposed_from), "0.4"},
    {{"separation_stiff", MUR_PT_FLOAT, 0, 100, false, "", NULL, "hard-core separation: the closest neighbour d away pushes with the kernel (1 - d / separation_radius, or separation_smooth's) plus separation_stiff * (r_c / max(d, r_c / 10) - 1) while d < r_c = separation_stiff_radius, so the push rises steeply inside r_c and the spacing hardly gives under the flock's weight (0 = off; topological neighbours, separation_nearest=1 and separation_view=360 only)", true}, OFF(separation_stiff), "0"},
    {{"separation_stiff_radius", MUR_PT_FLOAT, 0, 10, false, "wu", NULL, "separation_stiff: the core radius r_c inside which the hard-core push acts (at most separation_radius)", true}, OFF(separation_stiff_radius), "1.5"},
    {{"separation_outward", MUR_PT_FLOAT, 0, 10, false, "", NULL, "outward separation relief: an exposed bird's separation push s loses min(1, separation_outward * t) of its part along the outward normal n = -u / |u| where that part points out (s.n > 0): s - min(1, separation_outward * t) (s.n) n, t = clamp((C - separation_outward_from) / (1 - separation_outward_from), 0, 1), u = mean unit direction to the neighbours, C = min(1, |u|), so a rim bird keeps its spacing along the surface but does not flee its inner neighbours outward, without any pull (0 = off; topological neighbours only)", true}, OFF(separation_outward), "0"},
    {{"separation_outward_from", MUR_PT_FLOAT, 0, 0.95, false, "", NULL, "separation_outward: the centrality C at and below which the push is left whole (the interior's C is about 0.25-0.4 in the starling preset)", true}, OFF(separation_outward_from), "0.35"},
    {{"cohesion_up", MUR_PT_FLOAT, 0, 10, false, "", NULL, "cohesion escapes the weak pitch: its part along the up axis is scaled by pitch + cohesion_up * (1 - pitch) instead of pitch, so a bird closes up on neighbours above or below it while alignment keeps the weak pitch (0 = off; 1 = full; above 1 the flock is squeezed harder vertically than sideways)", true}, OFF(cohesion_up), "0"},
    {{"cohesion_caps", MUR_PT_FLOAT, 0, 10, false, "", NULL, "the caps pull: a bird whose neighbours lie mostly above or below it gets cohesion's part along the up axis back, scaled by pitch + cohesion_caps * t * (1 - pitch) instead of pitch, t = clamp((|u_y| - cohesion_caps_from) / (1 - cohesion_caps_from), 0, 1), u_y the up part of the mean unit direction to the neighbours, so the top and bottom of a flat flock close up onto it while the interior keeps the weak pitch (0 = off; topological neighbours only)", true}, OFF(cohesion_caps), "0"},
    {{"cohesion_caps_from", MUR_PT_FLOAT, 0, 0.95, false, "", NULL, "cohesion_caps and separation_caps: the one-sidedness |u_y| below which the caps pull is 0 (an interior bird's |u_y| is about 0.15-0.2 with 6.5 neighbours, a cap bird's about 0.5)", true}, OFF(cohesion_caps_from), "0.2"},
    {{"separation_caps", MUR_PT_FLOAT, 0, 10, false, "", NULL, "the caps' own spacing, with the caps pull: separation's part along the up axis is scaled by pitch + separation_caps * t * (1 - pitch) instead of pitch, t the caps pull's share (cohesion_caps_from), so a bird on the flock's top or bottom keeps its spacing to the layer it is pulled onto (0 = off; topological neighbours only)", true}, OFF(separation_caps), "0"},
    {{"wander", MUR_PT_FLOAT, 0, 100, false, "wu/s^2", NULL, "random steering (StarDisplay's random term): each tick every flying boid adds wander times a unit vector drawn from a counter-based hash of (seed, tick, boid), part of the social steering (weak pitch and surge apply); 0 = off", true}, OFF(wander), "0"},
    {{"wander_up", MUR_PT_FLOAT, 0, 1, false, "", NULL, "the random steering escapes the weak pitch: its part along the up axis is scaled by pitch + wander_up * (1 - pitch) instead of pitch, so the birds jitter up and down as much as sideways (with wander > 0; 0 = off; 1 = full)", true}, OFF(wander_up), "0"},
    {{"flight", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "flight model (with bank on and cruise_speed > 0): gravity (9.81 m/s^2) and lift along the body's up axis, g (speed / cruise_speed)^2 times a lift coefficient; the steering's horizontal lateral part sets the roll (bank_rate, bank_align, max_turn), its vertical part (after pitch) sets the lift coefficient (1 + a_y / g) / cos(roll), its horizontal forward part and the thrust toward cruise_speed (speed_tau) act along the flight direction; a climbing bird slows and a diving one speeds up (StarDisplay, Hildenbrandt et al. 2010)", true}, OFF(flight), "off"},
    {{"flight_lift_max", MUR_PT_FLOAT, 1, 10, false, "", NULL, "flight: largest lift coefficient, and largest lift as a multiple of the weight", true}, OFF(flight_lift_max), "2"},
    {{"flight_hold", MUR_PT_FLOAT, 0, 1, false, "", NULL, "flight: the bird's pitch makes up this share of the change its speed makes to the lift: the lift coefficient is also scaled by 1 + flight_hold ((cruise_speed / speed)^2 - 1) (0 = lift grows with speed^2; 1 = level flight at any speed the lift coefficient allows)", true}, OFF(flight_hold), "1"},
    {{"separation_nearest", MUR_PT_INT, 0, 20, false, "", NULL, "separation from the n closest neighbours only (0 = all in the list; topological neighbours only)", true}, OFF(separation_nearest), "0"},
    {{"separation_view", MUR_PT_FLOAT, 0, 360, false, "deg", NULL, "full angle of the separation cone around the velocity: of the list's neighbours only those within separation_view / 2 of the flight direction push (a rear blind angle for separation wider than the view cone's), and separation_nearest counts among them (360 = all; topological neighbours only)", true}, OFF(separation_view), "360"},
    {{"separation_smooth", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "StarDisplay's separation kernel: a neighbour d away pushes with weight 1 - smootherstep(d / separation_radius) (smootherstep(t) = t^3 (6 t^2 - 15 t + 10)) instead of 1 - d / separation_radius (off; topological neighbours only)", true}, OFF(separation_smooth), "off"},
    {{"skin", MUR_PT_FLOAT, 0, 100, false, "wu/s^2", NULL, "the skin (issue 24): a vertical pull of skin sgn(u_y) |u_y|^skin_edge, u_y the up part of the mean unit direction to the neighbours, so a bird with all its neighbours below it is pulled down and one with neighbours above and below it is not; world vertical, after the weak pitch (0 = off; topological neighbours only)", true}, OFF(skin), "0"},
    {{"skin_edge", MUR_PT_FLOAT, 1, 16, false, "", NULL, "the skin's exponent: the pull is skin sgn(u_y) |u_y|^skin_edge, so a higher exponent keeps it to the birds whose neighbours lie on one side vertically (the caps above and below a flat flock)", true}, OFF(skin_edge), "2"},
    {{"skin_rim", MUR_PT_FLOAT, 0, 100, false, "wu/s^2", NULL, "the skin's rim part: a horizontal pull of skin_rim min(1, |u_h|)^skin_edge along u_h / |u_h|, u_h the horizontal part of the mean unit direction to the neighbours, so a bird at the flock's side, front or back is pulled in; after the surge, so it acts fully fore and aft (0 = off; topological neighbours only)", true}, OFF(skin_rim), "0"},
    {{"up_order", MUR_PT_FLOAT, 0, 16, false, "", NULL, "the vertical pulls' order gate (issue 24, thirteenth round): skin, skin_rim, separation_up, cohesion_up and cohesion_caps are scaled by min(1, |v_n| / |v|)^up_order, v_n the neighbours' mean velocity and v the bird's own, so they act where the neighbours fly one way and fade where they fly every way (a flock forming from a disordered start) (0 = off: always in full; topological neighbours only)", true}, OFF(up_order), "0"},
    {{"spawn_spacing", MUR_PT_FLOAT, 0, 1000, false, "wu", NULL, "the start (issue 24, fourteenth round): new boids start as one compact ordered flock instead of uniform in the world box: uniform in an ellipsoid at the box's centre, semi-axes 4:2:1 (along a common horizontal heading, across, vertical) holding spawn_spacing^3 per boid, flying the common heading (a hash of the seed) within spawn_spread of it at cruise_speed (within min_speed..max_speed) (0 = off: uniform in the box, random directions)", true}, OFF(spawn_spacing), "0"},
    {{"spawn_spread", MUR_PT_FLOAT, 0, 180, false, "deg", NULL, "the compact start's heading spread: each boid's direction is uniform on the cone of this half-angle around the common heading (with spawn_spacing > 0)", true}, OFF(spawn_spread), "30"},
    {{"cohesion_near", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "cohesion ramp: neighbours closer than this do not pull (with cohesion_far > 0)", true}, OFF(cohesion_near), "0"},
    {{"cohesion_far", MUR_PT_FLOAT, 0, BIG, false, "wu", NULL, "cohesion ramp: the pull toward each neighbour grows smoothly from cohesion_near to full at cohesion_far (0 = off: the mean offset; topological neighbours only)", true}, OFF(cohesion_far), "0"},
    {{"world", MUR_PT_ENUM, 0, 0, false, "", "fixed|scale", "fixed: the box, margin, goal, ground and roost as given; scale: given for 2000 boids, scaled by cbrt(boids/2000) so the neighbour density stays", true}, OFF(world), "fixed"},
    /* drawing only (the program reads them; the simulation never does) */
    {{"look", MUR_PT_ENUM, 0, 0, false, "", "studio|dusk", "how the program draws the flock: studio (lit, coloured birds for studying rules) or dusk (dark birds against an evening sky)", true}, OFF(look), "studio"},
    {{"horizon", MUR_PT_ENUM, 0, 0, false, "", "trees|reeds|none", "the dusk look's silhouette on the horizon, for scale", true}, OFF(horizon), "trees"},
    /* the hunting falcon and the prey's escape (docs/falcon.md), off by default */
    {{"falcon", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "a falcon attacks the flock again and again: set-up, approach, lock-on, pursuit, retreat, wait", true}, OFF(falcon), "off"},
    {{"falcon_speed", MUR_PT_FLOAT, 0, 100, true, "m/s", NULL, "falcon's cruise speed (set-up, retreat, waiting)", true}, OFF(falcon_speed), "20"},
    {{"falcon_attack_speed", MUR_PT_FLOAT, 0, 100, true, "m/s", NULL, "falcon's top speed in an attack", true}, OFF(falcon_attack_speed), "30"},
    {{"falcon_stoop", MUR_PT_FLOAT, 0, 10, false, "", NULL, "a stoop is faster than a level attack: the attack's top speed is falcon_attack_speed * (1 + falcon_stoop * sin(the dive's angle below the horizon)) (0 = the same at any angle)", true}, OFF(falcon_stoop), "0.5"},
    {{"falcon_force", MUR_PT_FLOAT, 0, 1000, true, "N", NULL, "falcon's largest steering force (acceleration = force / falcon_mass)", true}, OFF(falcon_force), "20"},
    {{"falcon_mass", MUR_PT_FLOAT, 0, 100, true, "kg", NULL, "falcon's mass", true}, OFF(falcon_mass), "0.9"},
    {{"falcon_strategy", MUR_PT_ENUM, 0, 0, false, "", "above|behind|beside", "where an attack sets up: above, behind or beside the flock (falcon_setup from its centre)", true}, OFF(falcon_strategy), "above"},
    {{"falcon_setup", MUR_PT_FLOAT, 0, 10000, true, "m", NULL, "distance of an attack's set-up point from the flock's centre", true}, OFF(falcon_setup), "50"},
    {{"falcon_target", MUR_PT_ENUM, 0, 0, false, "", "nearest|exposed|centroid", "lock-on choice in the cone: the nearest bird, the most exposed (farthest from the flock's centre), or none (fly through the centroid)", true}, OFF(falcon_target), "nearest"},
    {{"falcon_gain", MUR_PT_FLOAT, 0, 20, false, "", NULL, "proportional navigation constant N of the pursuit (a = N w_LOS x v; 0 = steer straight at the bird)", true}, OFF(falcon_gain), "3"},
    {{"falcon_lock_radius", MUR_PT_FLOAT, 0, 1000, false, "m", NULL, "the falcon locks on to a bird closer than this ...", true}, OFF(falcon_lock_radius), "10"},
    {{"falcon_lock_angle", MUR_PT_FLOAT, 0, 180, false, "deg", NULL, "... and within this angle of its heading", true}, OFF(falcon_lock_angle), "22.5"},
    {{"falcon_catch", MUR_PT_FLOAT, 0, 100, false, "m", NULL, "a bird closer than this to the attacking falcon is caught (counted; removed with falcon_remove)", true}, OFF(falcon_catch), "0.2"},
    {{"falcon_dogfight", MUR_PT_FLOAT, 0, 1000, false, "s", NULL, "pursuit time after lock-on before the falcon gives up", true}, OFF(falcon_dogfight), "1"},
    {{"falcon_press", MUR_PT_FLOAT, 0, 100, false, "m", NULL, "the falcon presses the attack home: the pursuit goes on past falcon_dogfight until the falcon has come this near a flying bird in the attack (falcon_attack still ends it; 0 = off: it gives up after falcon_dogfight)", true}, OFF(falcon_press), "0"},
    {{"falcon_attack", MUR_PT_FLOAT, 0, 10000, true, "s", NULL, "longest attack, from the set-up point to the retreat", true}, OFF(falcon_attack), "10"},
    {{"falcon_retreat", MUR_PT_FLOAT, 0, 10000, false, "s", NULL, "time the falcon flies away from the flock after an attack", true}, OFF(falcon_retreat), "3"},
    {{"falcon_wait", MUR_PT_FLOAT, 0, 10000, false, "s", NULL, "time away before the next attack", true}, OFF(falcon_wait), "10"},
    {{"falcon_remove", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "caught birds are removed from the flock", true}, OFF(falcon_remove), "off"},
    {{"escape_radius", MUR_PT_FLOAT, 0, 10000, false, "m", NULL, "prey see an attacking falcon closer than this (exposed and in their field, or nearer than their farthest neighbour) and detect or flee it (0 = none; copying still spreads)", true}, OFF(escape_radius), "20"},
    {{"escape_fov", MUR_PT_FLOAT, 0, 360, false, "deg", NULL, "full angle of the field, facing away from the neighbours, in which a bird sees the falcon", true}, OFF(escape_fov), "270"},
    {{"escape_exposure", MUR_PT_FLOAT, 0, 1, false, "", NULL, "least exposure (|mean unit direction to the neighbours|: ~0 inside, toward 1 at the border) to detect", true}, OFF(escape_exposure), "0.3"},
    {{"escape_latency", MUR_PT_FLOAT, 0, 100, false, "s", NULL, "a bird copies a topological neighbour's escape once that one has escaped this long (whole ticks, at least 1)", true}, OFF(escape_latency), "0.02"},
    {{"escape_time", MUR_PT_FLOAT, 0, 100, true, "s", NULL, "duration of one escape manoeuvre", true}, OFF(escape_time), "0.55"},
    {{"escape_refractory", MUR_PT_FLOAT, 0, 1000, false, "s", NULL, "after an escape no new one (detected or copied) for this long", true}, OFF(escape_refractory), "2"},
    {{"escape_accel", MUR_PT_FLOAT, 0, 1000, false, "m/s^2", NULL, "acceleration of the manoeuvres (through the banked turn, the speed and the vertical pull)", true}, OFF(escape_accel), "20"},
    {{"escape_zigzag", MUR_PT_FLOAT, 0, 1, false, "", NULL, "weight of the zig-zag roll in the mix of manoeuvres (one way 0.25 s, then the other)", true}, OFF(escape_zigzag), "0.5"},
    {{"escape_dive", MUR_PT_FLOAT, 0, 1, false, "", NULL, "weight of the dive in the mix", true}, OFF(escape_dive), "0.15"},
    {{"escape_turn", MUR_PT_FLOAT, 0, 1, false, "", NULL, "weight of the turn away from the falcon in the mix", true}, OFF(escape_turn), "0.25"},
    {{"escape_speedup", MUR_PT_FLOAT, 0, 1, false, "", NULL, "weight of the speed-up in the mix", true}, OFF(escape_speedup), "0.1"},
    {{"escape_copy_side", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "a bird that copies takes its neighbour's side of the manoeuvre too (off: it turns or rolls away from the falcon itself)", true}, OFF(escape_copy_side), "on"},
    {{"escape_reaction", MUR_PT_FLOAT, 0, 100, false, "s", NULL, "mean reaction time of a calm bird to a copyable escaping neighbour escape_copy_dist away (with escape_copy_dist 0: it copies with a rate of k / escape_reaction per second, k such neighbours; 0 = at once)", true}, OFF(escape_reaction), "0.02"},
    {{"escape_flee_time", MUR_PT_FLOAT, 0, 100, false, "s", NULL, "a bird that sees the attacking falcon (escape_radius) and that it would reach within this time (distance / closing speed) flees straight away from the falcon's path, whatever it copies (0 = never): the flash expansion", true}, OFF(escape_flee_time), "0.75"},
    {{"escape_flee_accel", MUR_PT_FLOAT, 0, 1000, false, "m/s^2", NULL, "acceleration of the flight away from the falcon's path (escape_flee_time), while the falcon looms and to the end of the bird's manoeuvre (escape_time)", true}, OFF(escape_flee_accel), "40"},
    {{"escape_flee_loom", MUR_PT_FLOAT, 0, 1000, false, "1/s", NULL, "the flight away from the falcon's path has all of escape_flee_accel when the falcon looms at this rate (closing speed / distance) or faster, and that share of it when slower: a fast or close falcon makes the birds break away hard, a slow one barely (0 = always all)", true}, OFF(escape_flee_loom), "4"},
    {{"escape_copy_dist", MUR_PT_FLOAT, 0, 100, false, "m", NULL, "a calm bird copies its nearest escaping neighbour at a rate of 1 / escape_reaction when it is this far away, faster when nearer and slower when farther, as the inverse square of its distance (the neighbour's image: a far manoeuvre is seen later), however many neighbours escape; 0 = a rate of k / escape_reaction with k escaping neighbours at any distance", true}, OFF(escape_copy_dist), "1.5"},
    {{"escape_copy_speed", MUR_PT_FLOAT, 0, 1000, false, "m/s", NULL, "a calm bird sees a neighbour d away escape once that one has escaped d / escape_copy_speed (whole ticks, at least escape_latency, at most 15 ticks): the angle a neighbour's manoeuvre sweeps across its view grows the slower the farther it is, so a hop's time grows with its length and the alarm's speed does not follow the flock's spacing (0 = escape_latency at any distance)", true}, OFF(escape_copy_speed), "22"},
    {{"escape_copy_fade", MUR_PT_FLOAT, 0, 1, false, "", NULL, "an alarm's strength, 0..1: for a bird that sees the falcon the looming rate's share of escape_flee_loom (a slow or far falcon alarms weakly), for a copier its neighbour's less this; a neighbour whose strength is this or less is not copied, and a manoeuvre's acceleration is its strength's share of escape_accel: weak alarms make short, weak waves (0 = off: every alarm full and copied)", true}, OFF(escape_copy_fade), "0"},
    {{"escape_copy_flight", MUR_PT_SWITCH, 0, 0, false, "", "on|off", "a bird fleeing the falcon's path is copied as a flight: its copiers flee the path too, at escape_flee_accel times their strength (escape_copy_fade), so the flock bursts open around the path (off: its neighbours copy its manoeuvre)", true}, OFF(escape_copy_flight), "on"},
    {{"escape_spread", MUR_PT_FLOAT, 0, 1000, false, "m/s^2", NULL, "an escaping bird (its own alarm or a copy, whatever its manoeuvre or flight) also accelerates away from the centroid of its topological neighbours, at this times min(1, escape_radius / its distance to the falcon): the alarmed group opens, the harder the nearer the falcon (0 = off)", true}, OFF(escape_spread), "0"},
    {{"escape_spread_falloff", MUR_PT_FLOAT, 0, 8, false, "", NULL, "how fast escape_spread's gain falls with the falcon's distance d beyond escape_radius R: escape_spread times min(1, (R / d)^this), so the larger, the more only the birds nearest the falcon open the group (0 = no fall: all of escape_spread wherever the bird escapes; 1 = R / d, the gain before this parameter)", true}, OFF(escape_spread_falloff), "1"},
    {{"escape_spread_radius", MUR_PT_FLOAT, 0, 1000, false, "m", NULL, "the distance R from the falcon where escape_spread's gain starts to fall: escape_spread times min(1, (R / d)^escape_spread_falloff), d the bird's distance to the falcon, so a radius inside escape_radius keeps the full spread to the birds nearest the falcon's path (0 = off: R is escape_radius, the gain before this parameter)", true}, OFF(escape_spread_radius), "0"},
    {{"escape_spread_speed", MUR_PT_FLOAT, 0, 1000, false, "m/s", NULL, "v0: escape_spread's gain times clamp((c - v0) / v0, 0, 1), c the speed at which the falcon closed on the bird that started the escape's front (its own alarm; a copier takes its front's), so a slow attack (c up to v0) does not open the group and a fast one (c 2 v0 or more) opens it with all of escape_spread (0 = off: all of it whatever the speed)", true}, OFF(escape_spread_speed), "0"},
    {{"escape_alarm_speed", MUR_PT_FLOAT, 0, 1000, false, "m/s", NULL, "a bird that sees the attacking falcon closing on it slower than this (a slow attack, or one passing by) only turns away from it, and its neighbours do not copy the turn: the flock evades a slow falcon without a wave; at this closing speed or faster the bird picks a manoeuvre from the mix that its neighbours copy (the wave); a bird fleeing the falcon's path (escape_flee_time) is copied whatever the speed (0 = every bird that sees the falcon alarms its neighbours)", true}, OFF(escape_alarm_speed), "22"},
    {{"escape_part_speed", MUR_PT_FLOAT, 0, 1000, false, "m/s", NULL, "a calm bird that sees the attacking falcon (escape_radius) flying at this speed or faster against itself (a fast falcon: the startle) parts: it turns away from the falcon's path line (escape_part_accel) and speeds up (escape_part_speedup) for escape_time, instead of fleeing (escape_flee_time) or a manoeuvre from the mix; birds on either side of the path turn apart, and a copier parts too, away from the line on its own side: the flock opens where the falcon passes (0 = never)", true}, OFF(escape_part_speed), "30"},
    {{"escape_part_accel", MUR_PT_FLOAT, 0, 1000, false, "m/s^2", NULL, "sideways acceleration of the part (escape_part_speed): the banked turn away from the falcon's path line", true}, OFF(escape_part_accel), "40"},
    {{"escape_part_speedup", MUR_PT_FLOAT, 0, 1000, false, "m/s^2", NULL, "acceleration of the part along the bird's heading (the cruise speed pulls it back afterwards)", true}, OFF(escape_part_speedup), "20"},
    {{"escape_vacuole", MUR_PT_FLOAT, 0, 100, false, "m", NULL, "a bird this near the attacking falcon (and within escape_radius) flees away from the falcon's path line (straight away from the falcon when on it) at all of escape_flee_accel, whatever the falcon's speed and whatever the bird sees or is doing, for escape_time: a hole opens around the falcon (the vacuole) wherever it passes, slow or fast; the bird's neighbours copy the flight (escape_copy_flight) as they copy a flight from the falcon's path (0 = off)", true}, OFF(escape_vacuole), "16"},
    {{"escape_flash_speed", MUR_PT_FLOAT, 0, 1000, false, "m/s", NULL, "an escape a bird starts itself (a part, a flight, a manoeuvre) with the attacking falcon flying this fast or faster against it (a fast stoop) is a flash: it lasts escape_flash_time instead of escape_time, and so does every copy of it, so the birds go on breaking away from the falcon's path until the flock has opened (the flash expansion) (0 = off)", true}, OFF(escape_flash_speed), "40"},
    {{"escape_flash_time", MUR_PT_FLOAT, 0, 100, true, "s", NULL, "duration of a flash's manoeuvre or flight and of its copies (escape_flash_speed)", true}, OFF(escape_flash_time), "1.1"},
    {{"escape_flash_hops", MUR_PT_INT, 0, 100, false, "copies", NULL, "a copy of a flash this many copies or more from the bird that saw the fast falcon is not a flash: it lasts escape_time, so the flash holds the birds near the stoop and fades as it spreads (0 = every copy of a flash is a flash)", true}, OFF(escape_flash_hops), "10"},
    {{"escape_wave_hops", MUR_PT_INT, 0, 100, false, "copies", NULL, "in a front started by a bird that saw the falcon at medium speed (the falcon flying escape_alarm_speed or faster, and coming at the bird slower than escape_part_speed), a copy of a flight from the falcon's path or of a part this many copies or more from that bird is a manoeuvre from the mix, copied on as the wave's: the burst stays near the falcon and a wave of orientation runs on beyond it (0 = off: flights and parts are copied as such however far)", true}, OFF(escape_wave_hops), "1"},
};

#define NROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

static bool set_row(mur_flock_def *def, const param_row *r, const char *value, mur_error *err);

mur_flock_def mur_flock_default_def(void)
{
    mur_flock_def d;
    memset(&d, 0, sizeof d);
    for (int i = 0; i < NROWS; i++)
        set_row(&d, &ROWS[i], ROWS[i].dflt, NULL); /* a bad default shows in --list-params (cli_test) */
    return d;
}

int mur_param_count(void) { return NROWS; }

const mur_param *mur_param_at(int i)
{
    return (i >= 0 && i < NROWS) ? &ROWS[i].pub : NULL;
}

static const param_row *find_row(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < NROWS; i++)
        if (strcmp(ROWS[i].pub.name, name) == 0)
            return &ROWS[i];
    return NULL;
}

const mur_param *mur_param_find(const char *name)
{
    const param_row *r = find_row(name);
    return r ? &r->pub : NULL;
}

/* Describe the allowed range of a row, e.g. "a number in (0, 1e+06] wu". */
static void range_text(const mur_param *p, char *buf, size_t len)
{
    const char *unit = p->unit[0] ? " " : "";
    switch (p->type) {
    case MUR_PT_INT:
        snprintf(buf, len, "a whole number in [%.0f, %.0f]%s%s", p->min, p->max, unit, p->unit);
        break;
    case MUR_PT_FLOAT:
        snprintf(buf, len, "a number in %c%g, %g]%s%s", p->min_open ? '(' : '[', p->min, p->max, unit,
                 p->unit);
        break;
    case MUR_PT_VEC3:
        snprintf(buf, len, "x,y,z with each in [%g, %g]%s%s", p->min, p->max, unit, p->unit);
        break;
    case MUR_PT_SWITCH:
    case MUR_PT_ENUM:
        snprintf(buf, len, "one of %s", p->choices);
        break;
    case MUR_PT_SEED:
        snprintf(buf, len, "a whole number in [0, 18446744073709551615]");
        break;
    }
}

static bool bad_value(const mur_param *p, const char *value, mur_error *err)
{
    char range[160];
    range_text(p, range, sizeof range);
    mur_set_error(err, "bad value '%s' for %s: expected %s", value, p->name, range);
    return false;
}

/* Strict number parse: whole string, finite. */
static bool parse_double(const char *s, double *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end || end == s || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool in_range(const mur_param *p, double v)
{
    if (p->min_open ? !(v > p->min) : !(v >= p->min))
        return false;
    return v <= p->max;
}

static bool parse_enum(const char *choices, const char *value, int *out)
{
    const char *c = choices;
    int idx = 0;
    size_t vl = strlen(value);
    while (*c) {
        const char *bar = strchr(c, '|');
        size_t l = bar ? (size_t)(bar - c) : strlen(c);
        if (l == vl && strncmp(c, value, l) == 0) {
            *out = idx;
            return true;
        }
        if (!bar)
            break;
        c = bar + 1;
        idx++;
    }
    return false;
}

/* The parsers of one value, by type: false when the text is not a value of the row's type and range. */
static bool parse_int(const mur_param *p, const char *value, int32_t *out)
{
    const char *s = value;
    while (*s == ' ')
        s++;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (*end == ' ')
        end++;
    if (end == s || *end || errno || v < (long long)p->min || v > (long long)p->max)
        return false;
    *out = (int32_t)v;
    return true;
}

static bool parse_seed(const char *value, uint64_t *out)
{
    const char *s = value;
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '+' || !*s)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    while (*end == ' ')
        end++;
    if (end == s || *end || errno)
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool parse_float(const mur_param *p, const char *value, float *out)
{
    double v;
    /* the range applies to the stored float: 1e-85 passes (0, 10] as a double but is 0 as a float */
    if (!parse_double(value, &v) || !isfinite((float)v) || !in_range(p, (double)(float)v))
        return false;
    *out = (float)v;
    return true;
}

static bool parse_vec3(const mur_param *p, const char *value, float out[3])
{
    char buf[256];
    if (strlen(value) >= sizeof buf)
        return false;
    strcpy(buf, value);
    double v[3];
    char *save = buf;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(save, ',');
        if ((i < 2) != (comma != NULL))
            return false;
        if (comma)
            *comma = 0;
        if (!parse_double(save, &v[i]) || !in_range(p, (double)(float)v[i]))
            return false;
        save = comma ? comma + 1 : save;
    }
    for (int i = 0; i < 3; i++)
        out[i] = (float)v[i];
    return true;
}

static bool parse_switch(const char *value, bool *out)
{
    int idx;
    if (!parse_enum("on|off", value, &idx)) {
        if (strcmp(value, "1") == 0 || strcmp(value, "true") == 0)
            idx = 0;
        else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0)
            idx = 1;
        else
            return false;
    }
    *out = idx == 0;
    return true;
}

/* Set the field of row r from its text. */
static bool set_row(mur_flock_def *def, const param_row *r, const char *value, mur_error *err)
{
    const mur_param *p = &r->pub;
    char *field = (char *)def + r->offset;
    if (!value)
        value = "";
    bool ok = false;
    int idx;
    switch (p->type) {
    case MUR_PT_INT:
        ok = parse_int(p, value, (int32_t *)field);
        break;
    case MUR_PT_SEED:
        ok = parse_seed(value, (uint64_t *)field);
        break;
    case MUR_PT_FLOAT:
        ok = parse_float(p, value, (float *)field);
        break;
    case MUR_PT_VEC3:
        if (strlen(value) >= 256)
            return bad_value(p, "(too long)", err);
        ok = parse_vec3(p, value, (float *)field);
        break;
    case MUR_PT_SWITCH:
        ok = parse_switch(value, (bool *)field);
        break;
    case MUR_PT_ENUM:
        ok = parse_enum(p->choices, value, &idx);
        if (ok)
            memcpy(field, &idx, sizeof idx); /* every enum field is an int-sized C enum */
        break;
    }
    return ok || bad_value(p, value, err);
}

bool mur_def_set(mur_flock_def *def, const char *name, const char *value, mur_error *err)
{
    const param_row *r = find_row(name);
    if (!r) {
        mur_set_error(err, "unknown parameter '%s'", name ? name : "");
        return false;
    }
    return set_row(def, r, value, err);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = 0;
    return s;
}

bool mur_def_set_pair(mur_flock_def *def, const char *pair, mur_error *err)
{
    const char *eq = pair ? strchr(pair, '=') : NULL;
    if (!eq) {
        mur_set_error(err, "bad setting '%s': expected name=value", pair ? pair : "");
        return false;
    }
    char name[128], value[256];
    size_t nl = (size_t)(eq - pair);
    if (nl >= sizeof name || strlen(eq + 1) >= sizeof value) {
        mur_set_error(err, "bad setting '%.60s...': too long", pair);
        return false;
    }
    memcpy(name, pair, nl);
    name[nl] = 0;
    strcpy(value, eq + 1);
    return mur_def_set(def, trim(name), trim(value), err);
}

/* Choices of an enum row ("a|b|c"): the count, and the name of value v. */
static int enum_count(const char *choices)
{
    int n = 1;
    for (const char *c = choices; *c; c++)
        n += *c == '|';
    return n;
}

static void enum_name(const char *choices, int v, char *buf, size_t len)
{
    const char *c = choices;
    for (int i = 0; i < v && c; i++) {
        c = strchr(c, '|');
        c = c ? c + 1 : NULL;
    }
    if (!c || v < 0) {
        snprintf(buf, len, "?");
        return;
    }
    const char *bar = strchr(c, '|');
    snprintf(buf, len, "%.*s", (int)(bar ? (size_t)(bar - c) : strlen(c)), c);
}

/* The shortest %g text that reads back as the same float. */
static void short_float(char *buf, size_t len, float v)
{
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, len, "%.*g", digits, (double)v);
        if ((float)strtod(buf, NULL) == v)
            return;
    }
}

bool mur_def_get(const mur_flock_def *def, const char *name, char *buf, size_t len)
{
    const param_row *r = find_row(name);
    if (!r || !buf || !len)
        return false;
    const char *field = (const char *)def + r->offset;
    switch (r->pub.type) {
    case MUR_PT_INT:
        snprintf(buf, len, "%d", (int)*(const int32_t *)field);
        break;
    case MUR_PT_SEED:
        snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case MUR_PT_FLOAT:
        short_float(buf, len, *(const float *)field);
        break;
    case MUR_PT_VEC3: {
        const float *v = (const float *)field;
        char a[32], b[32], c[32];
        short_float(a, sizeof a, v[0]);
        short_float(b, sizeof b, v[1]);
        short_float(c, sizeof c, v[2]);
        snprintf(buf, len, "%s,%s,%s", a, b, c);
        break;
    }
    case MUR_PT_SWITCH:
        snprintf(buf, len, "%s", *(const bool *)field ? "on" : "off");
        break;
    case MUR_PT_ENUM: {
        int v;
        memcpy(&v, field, sizeof v);
        enum_name(r->pub.choices, v, buf, len);
        break;
    }
    }
    return true;
}

bool mur_def_check_rows(const mur_flock_def *def, mur_error *err)
{
    /* every value against its own range, via its text form (one code path with the parser) */
    for (int i = 0; i < NROWS; i++) {
        const mur_param *p = &ROWS[i].pub;
        char buf[200];
        const char *field = (const char *)def + ROWS[i].offset;
        if (p->type == MUR_PT_FLOAT && !isfinite(*(const float *)field))
            return bad_value(p, "non-finite", err);
        if (p->type == MUR_PT_VEC3) {
            const float *v = (const float *)field;
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
                return bad_value(p, "non-finite", err);
        }
        if (p->type == MUR_PT_ENUM) {
            int v;
            memcpy(&v, field, sizeof v);
            if (v < 0 || v >= enum_count(p->choices))
                return bad_value(p, "out of range", err);
            continue;
        }
        mur_def_get(def, p->name, buf, sizeof buf);
        mur_flock_def tmp = *def;
        if (!mur_def_set(&tmp, p->name, buf, err))
            return false;
    }
    return true;
}

/* The presets' table is presets.c; applying one goes through this file's parser. */
bool mur_def_preset(mur_flock_def *def, const char *name, mur_error *err)
{
    const int n = mur_preset_count();
    for (int i = 0; i < n; i++) {
        if (!name || strcmp(name, mur_preset_name(i)) != 0)
            continue;
        mur_flock_def d = mur_flock_default_def();
        const char *s = mur_preset_settings(i);
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t l = nl ? (size_t)(nl - s) : strlen(s);
            char pair[160];
            snprintf(pair, sizeof pair, "%.*s", (int)l, s);
            if (!mur_def_set_pair(&d, pair, err))
                return false; /* a bad table row: caught by the presets test */
            s += nl ? l + 1 : l;
        }
        *def = d;
        return true;
    }
    char names[128] = "";
    for (int i = 0; i < n; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? "|" : "", mur_preset_name(i));
    mur_set_error(err, "bad preset '%s': expected one of %s", name ? name : "", names);
    return false;
}

/* "preset = NAME": the def becomes that preset (later lines change it further). True when the line
 * is a preset line; e->msg is then empty or the error. */
static bool is_preset_line(const char *s, mur_error *e, mur_flock_def *def, char *preset, size_t preset_len)
{
    const char *eq = strchr(s, '=');
    size_t nl = (size_t)(eq - s);
    while (nl > 0 && (s[nl - 1] == ' ' || s[nl - 1] == '\t'))
        nl--;
    e->msg[0] = 0;
    if (nl != 6 || strncmp(s, "preset", 6) != 0)
        return false;
    char v[128];
    snprintf(v, sizeof v, "%s", eq + 1);
    const char *name = trim(v);
    if (mur_def_preset(def, name, e) && preset)
        snprintf(preset, preset_len, "%s", name);
    return true;
}

bool mur_def_load_file(mur_flock_def *def, const char *path, mur_error *err)
{
    return mur_def_read_file(def, path, NULL, 0, err);
}

bool mur_def_read_file(mur_flock_def *def, const char *path, char *preset, size_t preset_len, mur_error *err)
{
    if (preset && preset_len)
        preset[0] = 0;
    mur_text t;
    if (!mur_text_open(&t, path, "parameter file", 1024, err))
        return false;
    char *line = NULL;
    size_t l = 0;
    int got = 0;
    bool ok = true;
    while (ok && (got = mur_text_line(&t, &line, &l, err)) > 0) {
        const char *name = t.name;
        long lineno = t.lineno;
        for (size_t i = 0; i < l; i++) {
            unsigned char c = (unsigned char)line[i];
            if (c < 32 && c != '\t' && c != '\n' && c != '\r') {
                mur_set_error(err, "%s:%ld: control byte 0x%02x: not a text parameter file", name, lineno, c);
                ok = false;
                break;
            }
        }
        if (!ok)
            break;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = trim(line);
        if (!*s)
            continue;
        mur_error e;
        if (!strchr(s, '=')) {
            mur_set_error(err, "%s:%ld: expected 'name = value', got '%.200s'", name, lineno, s);
            ok = false;
        } else if (is_preset_line(s, &e, def, preset, preset_len)) {
            if (e.msg[0]) {
                mur_set_error(err, "%s:%ld: %s", name, lineno, e.msg);
                ok = false;
            }
        } else if (!mur_def_set_pair(def, s, &e)) {
            mur_set_error(err, "%s:%ld: %s", name, lineno, e.msg);
            ok = false;
        }
    }
    ok = ok && got >= 0; /* got < 0: mur_text_line set err */
    mur_text_close(&t);
    return ok;
}

double mur_def_world_scale(const mur_flock_def *def)
{
    if (!def || def->world != MUR_WORLD_SCALE || def->boids == MUR_WORLD_REF_BOIDS)
        return 1.0;
    return cbrt((double)(def->boids > 1 ? def->boids : 1) / (double)MUR_WORLD_REF_BOIDS);
}

mur_flock_def mur_def_resolved(const mur_flock_def *def)
{
    mur_flock_def r = *def;
    const double k = mur_def_world_scale(def);
    if (k == 1.0)
        return r;
    for (int a = 0; a < 3; a++) {
        r.world_min[a] = (float)(k * def->world_min[a]);
        r.world_max[a] = (float)(k * def->world_max[a]);
        r.goal_pos[a] = (float)(k * def->goal_pos[a]);
        r.roost_pos[a] = (float)(k * def->roost_pos[a]);
    }
    r.roost_radius = (float)(k * def->roost_radius);
    r.bounds_margin = (float)(k * def->bounds_margin);
    r.ground = (float)(k * def->ground);
    return r;
}

const char *mur_bounds_name(mur_bounds b)
{
    static const char *names[] = {"soft", "wrap", "bounce", "none"};
    return (b >= 0 && b < MUR_BOUNDS_COUNT) ? names[b] : "?";
}

const char *mur_neighbours_name(mur_neighbours m)
{
    static const char *names[] = {"metric", "topological"};
    return (m >= 0 && m < MUR_NEIGHBOURS_COUNT) ? names[m] : "?";
}

const char *mur_search_name(mur_search s)
{
    static const char *names[] = {"grid", "brute"};
    return (s >= 0 && s < MUR_SEARCH_COUNT) ? names[s] : "?";
}
