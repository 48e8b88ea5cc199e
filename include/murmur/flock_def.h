/* murmur — the flock's definition: the enums its fields take, the error record, and mur_flock_def (every
 * parameter of the one table, docs/parameters.md). Included by murmur/murmur.h; include that, not this.
 *
 * Units: lengths in world units (wu), time in seconds (s). Vectors are x,y,z with y up.
 */
#ifndef MURMUR_FLOCK_DEF_H
#define MURMUR_FLOCK_DEF_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif


/// How the world box acts on the flock.
typedef enum mur_bounds {
    MUR_BOUNDS_SOFT = 0,   ///< per-axis push of bounds_turn inside bounds_margin of a wall (Parker)
    MUR_BOUNDS_WRAP = 1,   ///< torus; neighbours by minimum image
    MUR_BOUNDS_BOUNCE = 2, ///< put back on the wall, that velocity component reversed
    MUR_BOUNDS_NONE = 3,   ///< unbounded world
    MUR_BOUNDS_COUNT
} mur_bounds;

/// Neighbour search method. Results agree up to float rounding.
typedef enum mur_search {
    MUR_SEARCH_GRID = 0,  ///< uniform grid, 27-cell scan, O(N)
    MUR_SEARCH_BRUTE = 1, ///< every pair, O(N^2); for tests and benchmarks
    MUR_SEARCH_COUNT
} mur_search;

/// What a boid holds between its reactions (reaction_ticks > 1).
typedef enum mur_reaction_hold {
    MUR_HOLD_SUMS = 0, ///< the social steering of its last reading (its sums, contacts)
    MUR_HOLD_LIST = 1, ///< the list of its last reading: the sums from those neighbours' current state
    MUR_HOLD_COUNT
} mur_reaction_hold;

/// Which neighbours a boid uses.
typedef enum mur_neighbours {
    MUR_NEIGHBOURS_METRIC = 0,      ///< every visible boid within view_radius
    MUR_NEIGHBOURS_TOPOLOGICAL = 1, ///< the topo_k nearest visible boids within view_radius
    MUR_NEIGHBOURS_COUNT
} mur_neighbours;

/// What a boid count means for the size of the world (parameter `world`).
typedef enum mur_world_mode {
    MUR_WORLD_FIXED = 0, ///< the box, margin, goal, ground and roost are used as given, whatever the count
    MUR_WORLD_SCALE = 1, ///< they are given for MUR_WORLD_REF_BOIDS boids and scale with cbrt(boids / that)
    MUR_WORLD_COUNT
} mur_world_mode;

/// How the program draws the flock (parameter `look`; the library has no graphics and only carries it).
typedef enum mur_look {
    MUR_LOOK_STUDIO = 0, ///< lit, coloured birds over a slate sky and a gridded ground (for studying rules)
    MUR_LOOK_DUSK = 1,   ///< near-black birds against a bright dusk sky, their overlap darkening it
    MUR_LOOK_COUNT
} mur_look;

/// What stands on the horizon in the dusk look (parameter `horizon`).
typedef enum mur_horizon {
    MUR_HORIZON_TREES = 0, ///< a treeline
    MUR_HORIZON_REEDS = 1, ///< a reed bed
    MUR_HORIZON_NONE = 2,  ///< open sky down to the ground
    MUR_HORIZON_COUNT
} mur_horizon;

/// Where the falcon sets up an attack (parameter `falcon_strategy`).
typedef enum mur_falcon_strategy {
    MUR_FALCON_ABOVE = 0,  ///< falcon_setup above the flock's centre
    MUR_FALCON_BEHIND = 1, ///< behind it, along its heading
    MUR_FALCON_BESIDE = 2, ///< to its side
    MUR_FALCON_STRATEGY_COUNT
} mur_falcon_strategy;

/// Which bird the falcon locks on to (parameter `falcon_target`).
typedef enum mur_falcon_target {
    MUR_FALCON_NEAREST = 0,  ///< the nearest bird in the lock-on cone
    MUR_FALCON_EXPOSED = 1,  ///< the bird in the cone farthest from the flock's centre (the most exposed)
    MUR_FALCON_CENTROID = 2, ///< none: it flies through the centroid of the flock
    MUR_FALCON_TARGET_COUNT
} mur_falcon_target;

/// The falcon's phase (mur_view.falcon_phase, metrics column falcon_state).
typedef enum mur_falcon_phase {
    MUR_FALCON_OFF = 0,      ///< no falcon
    MUR_FALCON_APPROACH = 1, ///< attack: from the set-up point toward the flock
    MUR_FALCON_PURSUIT = 2,  ///< attack: locked on, proportional navigation
    MUR_FALCON_RETREAT = 3,  ///< flying away after the attack
    MUR_FALCON_WAIT = 4      ///< away, waiting for the next attack
} mur_falcon_phase;

/// A bird's escape state (mur_view.escape, state CSV column escape): 0 calm, 1..4 escaping by a
/// manoeuvre, 5 refractory.
typedef enum mur_escape_state {
    MUR_ESCAPE_CALM = 0,
    MUR_ESCAPE_ZIGZAG = 1,
    MUR_ESCAPE_DIVE = 2,
    MUR_ESCAPE_TURN = 3,
    MUR_ESCAPE_SPEEDUP = 4,
    MUR_ESCAPE_REFRACTORY = 5
} mur_escape_state;

/// The boid count at which world=scale leaves the geometry as given (the default count).
#define MUR_WORLD_REF_BOIDS 2000

/// Error text filled in by functions that can fail (one line, no newline).
typedef struct mur_error {
    char msg[512];
} mur_error;

/// Everything that defines a flock. Get one from mur_flock_default_def().
typedef struct mur_flock_def {
    int32_t boids;              ///< number of boids, 0..MUR_MAX_BOIDS
    int32_t predators;          ///< number of predators, 0 = none
    uint64_t seed;              ///< seed of the initial state and of perch timers
    float dt;                   ///< tick length in s, > 0
    float view_radius;          ///< neighbour radius in wu, > 0
    float view_angle;           ///< full view cone angle in degrees, (0, 360]; 360 = all round
    float cohesion;             ///< cohesion weight in 1/s^2 (pull to the perceived centre)
    float alignment;            ///< alignment weight in 1/s (match the perceived velocity)
    float separation;           ///< separation weight in 1/s^2 (push from close boids)
    float separation_radius;    ///< separation radius in wu, >= 0
    float min_speed;            ///< minimum speed in wu/s, >= 0 (0 = none)
    float max_speed;            ///< maximum speed in wu/s, >= min_speed
    mur_bounds bounds;          ///< what the world box does
    float world_min[3];         ///< world box lower corner in wu
    float world_max[3];         ///< world box upper corner in wu (> world_min per axis)
    float bounds_margin;        ///< soft bounds: distance from a wall where the push starts, wu
    float bounds_turn;          ///< soft bounds: push in wu/s^2
    bool perch;                 ///< perching on/off
    float ground;               ///< ground height (y) in wu
    int32_t perch_min;          ///< shortest perch in ticks, >= 1
    int32_t perch_max;          ///< longest perch in ticks, >= perch_min
    bool goal;                  ///< tend-to-place on/off
    float goal_pos[3];          ///< the goal in wu
    float goal_weight;          ///< goal weight in 1/s^2
    bool wind;                  ///< wind on/off
    float wind_vel[3];          ///< wind push in wu/s^2 (added to every flying boid's acceleration)
    bool scatter;               ///< scatter on/off (negates cohesion)
    float predator_radius;      ///< boids flee predators closer than this, wu
    float predator_speed;       ///< predator top speed in wu/s
    float predator_turn;        ///< rate at which a predator turns toward its target, 1/s (per tick at most all the way)
    float flee;                 ///< flee weight in 1/s^2
    bool steer_unit;            ///< normalise cohesion and alignment vectors to unit length (vision report)
    bool plane;                 ///< planar (2D) mode: flying boids move on y = (world_min.y + world_max.y)/2, vy = 0
    bool perch_neighbours;      ///< perching boids count as neighbours of flying ones
    mur_search neighbour_search; ///< grid or brute
    /* starling rules (docs/rules.md, docs/murmuration-model.md); the defaults keep them off */
    mur_neighbours neighbours;  ///< metric (classic) or topological
    float topo_k;               ///< topological: neighbours used, 1..20; the fractional part weights the (k+1)-th
    float cruise_speed;         ///< speed the boids relax to, wu/s (with speed_tau > 0)
    float speed_tau;            ///< time constant of the relaxation to cruise_speed, s; 0 = off
    bool roost;                 ///< roost attraction on/off
    float roost_pos[3];         ///< roost centre x, altitude y, centre z, wu
    float roost_radius;         ///< horizontal radius inside which the roost does not pull, wu
    float roost_weight;         ///< turning toward the roost per wu outside roost_radius, 1/s^2
    float roost_vertical;       ///< vertical pull toward the roost altitude, 1/s^2 (critically damped)
    float ground_avoid;         ///< ground avoidance: pull-up below this height above the ground, wu; 0 = off
    float ground_accel;         ///< ground avoidance: largest upward acceleration of the pull-up, wu/s^2
    bool bank;                  ///< banked turns on/off (roll angle lags the lateral steering)
    float bank_rate;            ///< rate at which the roll follows its target, 1/s
    float bank_align;           ///< rate at which the roll also follows the neighbours' mean roll, 1/s (0 = off;
                                ///< topological neighbours only)
    int32_t reaction_ticks;     ///< a boid re-reads its neighbours and recomputes its social steering once per this
                                ///< many ticks (phases staggered by boid), holding it in between; 1 = every tick
                                ///< (topological neighbours only)
    mur_reaction_hold reaction_hold; ///< what reaction_ticks holds between readings: the sums or the list
    float max_turn;             ///< largest turn rate, deg/s (caps the lateral acceleration at speed * rate)
    float hard_radius;          ///< hard-sphere radius, wu; 0 = off (topological neighbours only)
    float centrality;           ///< cohesion scaled by C^centrality, C = |mean unit direction to the neighbours|
                                ///< in [0, 1] (1 at the flock's edge, ~0 inside); 0 = off (topological only)
    float centrality_from;      ///< with centrality: cohesion scaled by t^centrality instead, t = clamp((C - from) /
                                ///< (1 - from), 0, 1), so birds with C <= from feel no cohesion, 0..0.95; 0 = off
    float rim_pull;             ///< short-range pull of exposed birds towards their closest 3 neighbours, wu/s^2;
                                ///< 0 = off (topological only; docs/rules.md)
    float rim_spacing;          ///< rim_pull's target spacing s0, wu: the pull acts between s0 and 2 s0
    float rim_from;             ///< rim_pull's exposure gate: weight clamp((C - from) / (1 - from), 0, 1), 0..0.95
    float lone_pull;            ///< a bird whose closest neighbour is d >= separation_radius r away steers towards it,
                                ///< lone_pull min(1, (d - r) / r), wu/s^2, 0..100; 0 = off (topological only)
    float pitch;                ///< gain of the vertical part of the social steering (weak pitch), 0..1; 1 = full
    bool lift;                  ///< weak pitch along the rolled body's up axis instead of the vertical (with bank)
    float surge;                ///< gain of the social steering's part along the flight direction, 0..1; 1 = full
    float surge_separation;     ///< separation's own along-flight gain, 0..1, instead of surge; -1 = off (surge)
    float surge_separation_radius; ///< with surge_separation: full along-flight separation (1) while the closest
                                   ///< neighbour is nearer than this, surge_separation from it on, wu; 0 = off
    float separation_up;        ///< separation's up part scaled by pitch + separation_up (1 - pitch), 0..1; 0 = off
    float separation_up_radius; ///< with separation_up: that part comes back times max(0, 1 - d / this), d the
                                ///< closest neighbour's distance, wu; 0 = at any distance (topological only)
    float separation_edge;      ///< separation scaled by max(0, 1 - separation_edge C^2) (C: centrality), 0..4; 0 = off
    float separation_exposed;   ///< the closest neighbour's separation radius times 1 - separation_exposed t,
                                ///< t = clamp((C - separation_exposed_from) / (1 - from), 0, 1), 0..1; 0 = off
    float separation_exposed_from; ///< centrality C from which separation_exposed shrinks the radius, 0..0.95
    float separation_stiff;     ///< hard core: the closest neighbour's separation kernel plus separation_stiff
                                ///< (r_c / max(d, r_c / 10) - 1) where d < r_c = separation_stiff_radius, 0..100; 0 = off
    float separation_stiff_radius; ///< separation_stiff's core radius r_c, wu, 0..separation_radius
    float separation_outward;   ///< an exposed bird's separation loses min(1, separation_outward t) of its part along the
                                ///< outward normal -u/|u| (u: mean unit direction to the neighbours), only where
                                ///< that part points out, t = clamp((C - separation_outward_from) / (1 - from), 0, 1),
                                ///< 0..10; 0 = off (topological only)
    float separation_outward_from; ///< centrality C from which separation_outward acts, 0..0.95
    float cohesion_up;          ///< cohesion's up part scaled by pitch + cohesion_up (1 - pitch), 0..1; 0 = off
    float cohesion_caps;        ///< the caps pull: cohesion's up part scaled by pitch + cohesion_caps t (1 - pitch),
                                ///< t = clamp((|u_y| - cohesion_caps_from) / (1 - from), 0, 1), u_y the up part of
                                ///< the mean unit direction to the neighbours, 0..10; 0 = off (topological only)
    float cohesion_caps_from;   ///< |u_y| from which cohesion_caps (and separation_caps) act, 0..0.95
    float separation_caps;      ///< separation's up part scaled by pitch + separation_caps t (1 - pitch), t as for
                                ///< cohesion_caps, 0..10; 0 = off (topological only)
    float wander;               ///< random steering: a unit vector per boid per tick times this, m/s^2, 0..100; 0 = off
    float wander_up;            ///< wander's up part scaled by pitch + wander_up (1 - pitch), 0..1; 0 = off
    bool flight;                ///< flight model on/off (with bank): gravity, lift along the body's up axis
                                ///< g (|v| / cruise_speed)^2 times a lift coefficient, turning by rolling
    float flight_lift_max;      ///< flight: largest lift coefficient and lift over weight, 1..10
    float flight_hold;          ///< flight: share of the speed's change to the lift that the bird's pitch makes
                                ///< up, 0..1 (0: lift ~ speed^2; 1: level at any speed within flight_lift_max)
    int32_t separation_nearest; ///< separation from the n closest neighbours only; 0 = all (topological only)
    float separation_view;      ///< full angle of the separation cone around the velocity, deg, 0..360: neighbours
                                ///< outside it do not push; 360 = all in the list (topological only)
    bool separation_smooth;     ///< separation kernel 1 - smootherstep(d / r) instead of 1 - d / r (topological only)
    float skin;                 ///< the skin: a vertical pull skin sgn(u_y) |u_y|^skin_edge toward the side where the
                                ///< neighbours lie, u_y the up part of the mean unit direction to them, m/s^2,
                                ///< 0..100; 0 = off (topological only)
    float skin_edge;            ///< the skin's exponent, 1..16: the higher, the more the pull is kept to the caps
    float skin_rim;             ///< the skin's rim part: a horizontal pull skin_rim |u_h|^skin_edge along u_h, u_h the
                                ///< horizontal part of the mean unit direction to the neighbours, m/s^2, 0..100;
                                ///< after the surge; 0 = off (topological only)
    float up_order;             ///< the vertical pulls' order gate, 0..16: skin, skin_rim, separation_up and
                                ///< cohesion_up (and cohesion_caps) scaled by min(1, |mean neighbour velocity| /
                                ///< |v|)^up_order;
                                ///< 0 = off (topological only)
    float spawn_spacing;        ///< the compact start: new boids uniform in an ellipsoid (4:2:1, along a common
                                ///< heading, across, vertical) at the box centre, spawn_spacing^3 wu^3 per boid,
                                ///< flying the common heading within spawn_spread; 0 = off (uniform in the box)
    float spawn_spread;         ///< the compact start's heading cone half-angle, deg, 0..180
    float cohesion_near;        ///< cohesion ramp: no pull from neighbours closer than this, wu (with cohesion_far)
    float cohesion_far;         ///< cohesion ramp: full pull from this distance on, wu; 0 = ramp off (topological)
    mur_world_mode world;       ///< fixed: geometry as given; scale: geometry for MUR_WORLD_REF_BOIDS, scaled
    /* drawing only: the program reads these, the simulation never does */
    mur_look look;              ///< studio or dusk
    mur_horizon horizon;        ///< the dusk look's silhouette on the horizon
    /* the hunting falcon and the prey's escape (docs/falcon.md); off by default */
    bool falcon;                ///< a falcon attacks the flock again and again (on/off)
    float falcon_speed;         ///< cruise speed (set-up, retreat), m/s
    float falcon_attack_speed;  ///< top speed in an attack, m/s
    float falcon_stoop;         ///< extra top speed in a dive: falcon_attack_speed * (1 + this * sin(dive angle))
    float falcon_force;         ///< largest steering force, N (acceleration = force / falcon_mass)
    float falcon_mass;          ///< mass, kg
    mur_falcon_strategy falcon_strategy; ///< where an attack sets up: above, behind or beside the flock
    float falcon_setup;         ///< distance of the set-up point from the flock's centre, m
    mur_falcon_target falcon_target; ///< lock-on choice: nearest, most exposed, or none (centroid)
    float falcon_gain;          ///< proportional navigation constant N (a = N w_LOS x v)
    float falcon_lock_radius;   ///< lock on to a bird closer than this, m
    float falcon_lock_angle;    ///< ... and within this angle of the heading, deg (half angle)
    float falcon_catch;         ///< a bird closer than this to the falcon in an attack is caught, m
    float falcon_dogfight;      ///< pursuit time after lock-on, s
    float falcon_press;         ///< the pursuit goes on past falcon_dogfight until the falcon came this near a bird, m (0: off)
    float falcon_attack;        ///< longest attack (set-up to retreat), s
    float falcon_retreat;       ///< time flying away from the flock after an attack, s
    float falcon_wait;          ///< time before the next attack after the retreat, s
    bool falcon_remove;         ///< caught birds are removed from the flock (on/off)
    float escape_radius;        ///< prey detect the falcon closer than this, m (0 = no detection)
    float escape_fov;           ///< full angle of the field facing outward in which prey see the falcon, deg
    float escape_exposure;      ///< least exposure (|mean unit direction to the neighbours|, 0..1) to detect
    float escape_latency;       ///< a bird copies a neighbour's escape after the neighbour escaped this long, s
    float escape_time;          ///< duration of one escape manoeuvre, s
    float escape_refractory;    ///< after an escape, no new escape for this long, s
    float escape_accel;         ///< acceleration of the manoeuvres, m/s^2
    float escape_zigzag;        ///< weight of the zig-zag roll in the mix (one way 0.25 s, then the other)
    float escape_dive;          ///< weight of the dive
    float escape_turn;          ///< weight of the turn away from the falcon
    float escape_speedup;       ///< weight of the speed-up
    bool escape_copy_side;      ///< copiers take the neighbour's side too (off: each turns away from the falcon itself)
    float escape_reaction;      ///< mean reaction time to a copyable escaping neighbour escape_copy_dist away, s (0 = at once)
    float escape_flee_time;     ///< a bird the falcon would reach within this time flees away from its path, s (0 = never)
    float escape_flee_accel;    ///< acceleration of that flight away from the falcon's path, m/s^2
    float escape_flee_loom;     ///< looming rate (closing speed / distance) of full flight, 1/s; slower: in proportion (0 = full)
    float escape_copy_dist;     ///< the nearest escaping neighbour is copied at rate 1 / escape_reaction when this far,
                                ///< nearer faster, farther slower, as the inverse square of its distance, m (0 = rate
                                ///< k / escape_reaction with k escaping neighbours at any distance)
    float escape_copy_speed;    ///< a neighbour d away is copied once it has escaped d / this (at least escape_latency,
                                ///< at most 15 ticks), m/s (0 = after escape_latency at any distance)
    float escape_copy_fade;     ///< an alarm's strength (seen: the looming rate's share of escape_flee_loom) falls by this
                                ///< at each copy; a spent one is not copied; the manoeuvre's acceleration is its share (0 = off)
    bool escape_copy_flight;    ///< a bird fleeing the falcon's path is copied as a flight from it (off: as its manoeuvre)
    float escape_spread;        ///< an escaping bird also accelerates away from its topological neighbours' centroid at
                                ///< this times min(1, escape_radius / its distance to the falcon), m/s^2 (0 = off)
    float escape_spread_falloff; ///< the exponent p of escape_spread's gain min(1, (escape_radius / distance)^p): the
                                 ///< larger, the more only the birds nearest the falcon spread (1 = the plain ratio)
    float escape_spread_radius; ///< the distance from the falcon where escape_spread's gain starts to fall, in place of
                                ///< escape_radius in min(1, (R / distance)^p), m (0 = off: escape_radius)
    float escape_spread_speed;  ///< v0: escape_spread's gain times clamp((c - v0) / v0, 0, 1), c the falcon's closing speed
                                ///< on the bird that started the front, carried to its copiers, m/s (0 = off: all of it)
    float escape_alarm_speed;   ///< a bird that sees the falcon closing slower than this only turns away from it, and
                                ///< is not copied; at this speed or faster it alarms its neighbours, m/s (0 = every
                                ///< bird that sees it alarms them)
    float escape_part_speed;    ///< a calm bird that sees the falcon flying at this speed or faster against itself
                                ///< (the startle) turns away from the falcon's path line and speeds up: the part; its
                                ///< copiers part too, each away from the line on its own side, m/s (0 = never)
    float escape_part_accel;    ///< sideways acceleration of the part (the turn apart), m/s^2
    float escape_part_speedup;  ///< acceleration of the part along the heading (the speed-up), m/s^2
    float escape_vacuole;       ///< a bird this near the attacking falcon (within escape_radius) flees away from its
                                ///< path at escape_flee_accel whatever the falcon's speed (the vacuole); its
                                ///< neighbours copy the flight, m (0 = off)
    float escape_flash_speed;   ///< an escape a bird starts itself with the falcon flying this fast or faster against it
                                ///< (a fast stoop) is a flash: it lasts escape_flash_time, and so do its copies, m/s (0 = off)
    float escape_flash_time;    ///< duration of a flash's manoeuvre or flight (and its copies'), s
    int32_t escape_flash_hops;  ///< a copy this many copies or more from the bird that saw the falcon is not a
                                ///< flash (it lasts escape_time), 0..100 (0 = every copy of a flash is a flash)
    int32_t escape_wave_hops;   ///< in a front started with the falcon at medium speed (flying escape_alarm_speed or
                                ///< faster, coming at the bird slower than escape_part_speed), a copy of a flight
                                ///< from the path or of a part this many copies or more from that bird is a manoeuvre
                                ///< from the mix (the wave), 0..100 (0 = off)
} mur_flock_def;

#ifdef __cplusplus
}
#endif

#endif /* MURMUR_FLOCK_DEF_H */
