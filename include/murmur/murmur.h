/* murmur — a 3D boids flock library (no graphics in here).
 *
 * Usage:
 *   mur_flock_def def = mur_flock_default_def();
 *   def.boids = 5000;
 *   mur_error err;
 *   mur_flock *f = mur_flock_create(&def, &err);   // NULL on failure, err.msg says why
 *   for (...) mur_flock_step(f);                    // no allocation, cannot fail
 *   mur_view v = mur_flock_view(f);                 // read-only, valid until the next step/setter
 *   mur_flock_destroy(f);
 *
 * Units: lengths in world units (wu), time in seconds (s). Vectors are x,y,z with y up; the ground
 * is the plane y = ground. Every tick is synchronous (see docs/rules.md).
 */
#ifndef MURMUR_H
#define MURMUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUR_VERSION_STRING "0.1.0"

/* Every function of the API is marked MUR_API: the shared library exports these and nothing else
 * (it is built with hidden visibility). */
#if defined(__GNUC__)
#define MUR_API __attribute__((visibility("default")))
#else
#define MUR_API
#endif

/// Largest boid count the library accepts (memory, not speed, is the limit).
#define MUR_MAX_BOIDS 50000000
/// Largest predator count.
#define MUR_MAX_PREDATORS 1000

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
    float pitch;                ///< gain of the vertical part of the social steering (weak pitch), 0..1; 1 = full
    bool lift;                  ///< weak pitch along the rolled body's up axis instead of the vertical (with bank)
    float surge;                ///< gain of the social steering's part along the flight direction, 0..1; 1 = full
    float surge_separation;     ///< separation's own along-flight gain, 0..1, instead of surge; -1 = off (surge)
    float separation_up;        ///< separation's up part scaled by pitch + separation_up (1 - pitch), 0..1; 0 = off
    float separation_up_radius; ///< with separation_up: that part comes back times max(0, 1 - d / this), d the
                                ///< closest neighbour's distance, wu; 0 = at any distance (topological only)
    float separation_edge;      ///< separation scaled by max(0, 1 - separation_edge C^2) (C: centrality), 0..4; 0 = off
    float separation_exposed;   ///< the closest neighbour's separation radius times 1 - separation_exposed t,
                                ///< t = clamp((C - separation_exposed_from) / (1 - from), 0, 1), 0..1; 0 = off
    float separation_exposed_from; ///< centrality C from which separation_exposed shrinks the radius, 0..0.95
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

/// The defaults (documented in docs/parameters.md): the classic preset.
MUR_API mur_flock_def mur_flock_default_def(void);

/* ---------------------------------------------------------------- presets */

/// Number of presets ("classic", "starling", "vision-report").
MUR_API int mur_preset_count(void);
/// Name of preset i (0 <= i < count), NULL when out of range.
MUR_API const char *mur_preset_name(int i);
/// One line saying what preset i is for, NULL when out of range.
MUR_API const char *mur_preset_summary(int i);
/// The "name=value" settings preset i applies on top of the classic defaults, joined by '\n'.
MUR_API const char *mur_preset_settings(int i);
/// Replace def by the named preset (the classic defaults plus the preset's settings). False + err
/// (naming the allowed presets) for an unknown name; def is then unchanged.
MUR_API bool mur_def_preset(mur_flock_def *def, const char *name, mur_error *err);

/// The factor world=scale applies to the geometry: cbrt(max(boids, 1) / MUR_WORLD_REF_BOIDS); exactly 1
/// for world=fixed and at MUR_WORLD_REF_BOIDS boids.
MUR_API double mur_def_world_scale(const mur_flock_def *def);
/// The def as the simulation uses it: world_min, world_max, bounds_margin, goal_pos, ground, roost_pos
/// and roost_radius
/// multiplied by mur_def_world_scale (a copy of def for world=fixed). Programs draw and place the
/// camera from this; the flock's def (mur_flock_get_def) keeps the values as given.
MUR_API mur_flock_def mur_def_resolved(const mur_flock_def *def);
/// Library memory, bytes, that mur_flock_create(def) followed by mur_flock_set_threads(threads)
/// (0 = all cores) and, when metrics, mur_flock_set_metrics(true) will hold: the same figure
/// mur_flock_memory reports for that flock. Computed from the allocation table; allocates nothing.
MUR_API size_t mur_def_memory(const mur_flock_def *def, int threads, bool metrics);

/* ---------------------------------------------------------------- parameter table */

typedef enum mur_param_type {
    MUR_PT_INT = 0,  ///< whole number in [min, max]
    MUR_PT_FLOAT,    ///< finite real in [min, max] (min exclusive where min_open)
    MUR_PT_SWITCH,   ///< on|off
    MUR_PT_VEC3,     ///< x,y,z, each finite
    MUR_PT_ENUM,     ///< one of choices ("a|b|c")
    MUR_PT_SEED      ///< unsigned 64-bit
} mur_param_type;

/// One row of the parameter table.
typedef struct mur_param {
    const char *name;     ///< the name used by --set and parameter files
    mur_param_type type;  ///< value kind
    double min, max;      ///< allowed range (INT, FLOAT, VEC3 components)
    bool min_open;        ///< min itself is not allowed
    const char *unit;     ///< unit, "" for none
    const char *choices;  ///< ENUM: "a|b|c"; SWITCH: "on|off"; else NULL
    const char *meaning;  ///< one line
    bool live;            ///< can change on a live flock with mur_flock_set()
} mur_param;

MUR_API int mur_param_count(void);
/// Row i (0 <= i < count), or NULL.
MUR_API const mur_param *mur_param_at(int i);
/// Row by name, or NULL.
MUR_API const mur_param *mur_param_find(const char *name);
/// Parse value for the named parameter and store it in def. Checks the value's own range only.
MUR_API bool mur_def_set(mur_flock_def *def, const char *name, const char *value, mur_error *err);
/// Parse "name=value" (spaces around = allowed).
MUR_API bool mur_def_set_pair(mur_flock_def *def, const char *pair, mur_error *err);
/// Write the value of the named parameter as text (the same syntax mur_def_set reads).
MUR_API bool mur_def_get(const mur_flock_def *def, const char *name, char *buf, size_t len);
/// Check every value and the cross-field rules (min_speed <= max_speed, world_min < world_max, ...).
MUR_API bool mur_def_check(const mur_flock_def *def, mur_error *err);
/// Read a parameter file: "name = value" lines, '#' comments, blank lines. Errors name file:line.
/// path "-" is standard input; a pipe or FIFO must deliver data within 10 s; a file over 64 MiB, a
/// line over 1024 bytes, a directory, a terminal and a device (but /dev/null) are refused. The input
/// is read once.
MUR_API bool mur_def_load_file(mur_flock_def *def, const char *path, mur_error *err);
/// mur_def_load_file, and the name of the last "preset = NAME" line into preset ("" when none).
MUR_API bool mur_def_read_file(mur_flock_def *def, const char *path, char *preset, size_t preset_len,
                               mur_error *err);

/* ---------------------------------------------------------------- the flock */

typedef struct mur_flock mur_flock;

/// Create a flock from def (checked first). Boids start at seeded random positions inside the world
/// box, with random directions at a speed between min_speed and max_speed. NULL on failure.
MUR_API mur_flock *mur_flock_create(const mur_flock_def *def, mur_error *err);
/// Create a flock whose boids and predators come from a CSV state file (see docs/rules.md);
/// def.boids and def.predators are replaced by the counts in the file. NULL on failure. The input
/// rules of mur_def_load_file hold ("-" is standard input; lines of at most 1024 bytes).
MUR_API mur_flock *mur_flock_load_csv(const mur_flock_def *def, const char *path, mur_error *err);
/// Destroy; NULL is a no-op.
MUR_API void mur_flock_destroy(mur_flock *f);

/// Advance one tick. No allocation; cannot fail.
MUR_API void mur_flock_step(mur_flock *f);
/// Advance n ticks.
MUR_API void mur_flock_steps(mur_flock *f, int64_t n);

/// Read-only view of the state. Pointers stay valid until the next step or setter call.
typedef struct mur_view {
    uint64_t tick;          ///< ticks done since creation
    int32_t boids;          ///< boid count
    const float *pos;       ///< boids*3 floats: x,y,z per boid (wu)
    const float *vel;       ///< boids*3 floats: vx,vy,vz per boid (wu/s)
    const int32_t *perch;   ///< boids ints: remaining perch ticks, 0 = flying
    int32_t predators;      ///< predator count (also when hidden)
    bool predators_on;      ///< predators shown and acting
    const float *pred_pos;  ///< predators*3 floats
    const float *pred_vel;  ///< predators*3 floats
    const float *roll;      ///< boids floats: bank (roll) angle in radians, + = right wing down; 0 without bank
    double time_s;          ///< simulated seconds since creation: the sum of every tick's dt
    int falcon_phase;       ///< mur_falcon_phase (MUR_FALCON_OFF: no falcon; the fields below are then 0/NULL)
    float falcon_pos[3];    ///< the falcon's position, m
    float falcon_vel[3];    ///< its velocity, m/s
    int32_t falcon_target;  ///< the bird it is locked on to, -1 for none
    int64_t falcon_attacks; ///< attacks started since the falcon came on
    int64_t falcon_catches; ///< birds caught since the falcon came on
    const uint8_t *escape;  ///< boids bytes: bits 0-2 mur_escape_state, bit 3 the manoeuvre's side (left); NULL without the falcon
} mur_view;

MUR_API mur_view mur_flock_view(const mur_flock *f);

/// What happened in an attack (mur_flock_events, the program's --events).
typedef enum mur_event_kind {
    MUR_EVENT_ATTACK_START = 0, ///< the falcon is at its set-up point (pos), attack number count
    MUR_EVENT_LOCK_ON = 1,      ///< locked on to bird (-1: the centroid) at distance value, m
    MUR_EVENT_CATCH = 2,        ///< bird caught at pos; count: catches so far
    MUR_EVENT_ATTACK_END = 3,   ///< the falcon retreats; count: birds alarmed in the attack; aux = the speed the birds
                                ///< met, m/s: the falcon's own speed on the attack's first tick with a flying bird
                                ///< within escape_radius (0: none came that near)
    MUR_EVENT_WAVE = 4,         ///< the attack's alarm wave: value = speed of the front, m/s (0: no fit),
                                ///< aux = the birds' mean speed, m/s; count: birds alarmed; bird: the first
    MUR_EVENT_COPIED = 5,       ///< with the wave: count = the birds whose first alarm in the attack was copied
                                ///< from a neighbour (the wave's birds), value = their share of the birds alarmed,
                                ///< aux = the birds alarmed by the falcon itself (saw it or fled from its path)
    MUR_EVENT_HOP = 6,          ///< with the wave: the copies hop by hop, count = copies, value = mean distance from
                                ///< the copied neighbour, m, aux = mean time after its alarm, s, pos[0] = mean
                                ///< number of neighbours that could be copied then
    MUR_EVENT_PART = 7,         ///< every 0.5 s for 30 s from the attack's end (or to the next attack): the birds alarmed in the attack
                                ///< (count, flying), value = their polarisation now, aux = at the attack's start
    MUR_EVENT_BURST = 8,        ///< with the wave: how far the birds alarmed opened up, each bird's nearest neighbour's
                                ///< distance at the end of its first manoeuvre in the attack over that at its alarm
                                ///< (sums over the birds): value = over the birds the falcon alarmed itself, aux =
                                ///< over those that copied, count = the birds alarmed by the falcon counted,
                                ///< pos[0] = the birds whose first alarm copied a flight (escape_copy_flight) or a part
    MUR_EVENT_PATH = 9,         ///< with the wave: the flock along the falcon's path, each bird's nearest neighbour's distance
                                ///< 0.5 s after the attack's end over that at its start (sums over the birds): value =
                                ///< over the birds the falcon came within 10 m of (count), aux = over the others
    MUR_EVENT_CLOSEST = 10,     ///< with attack_end: the attack's closest approach, on the first tick with the least
                                ///< distance from the falcon to a flying bird: bird = that bird (-1: no bird flew),
                                ///< pos = the falcon's position, value = the distance, m, aux = the falcon's speed,
                                ///< m/s, count = ticks from the attack's start (-1: no bird)
    MUR_EVENT_KIND_COUNT
} mur_event_kind;

/// One event.
typedef struct mur_event {
    uint64_t tick;    ///< the tick it happened in
    int kind;         ///< mur_event_kind
    int32_t bird;     ///< the bird concerned, -1 none
    float pos[3];     ///< where, m
    double value, aux;
    int64_t count;
} mur_event;

/// Most events one step records.
#define MUR_MAX_EVENTS 8
/// The events of the last step (at most max copied to out); returns how many there were.
MUR_API int mur_flock_events(const mur_flock *f, mur_event *out, int max);
/// "attack_start", "lock_on", "catch", "attack_end", "wave", "copied", "hop", "part", "burst", "path", "closest";
/// NULL when out of range.
MUR_API const char *mur_event_name(int kind);
/// The def currently in force (after setters).
MUR_API mur_flock_def mur_flock_get_def(const mur_flock *f);
/// Set the flock's clock (tick and simulated time), as when a saved state is resumed: the counter-based
/// random numbers (perch timers) and mur_flock_hash follow the tick. False + err when time_s is not
/// finite or outside [0, 1e15]; the flock is then unchanged.
MUR_API bool mur_flock_set_clock(mur_flock *f, uint64_t tick, double time_s, mur_error *err);

/* Setters: each takes effect on the next tick. */
/// Set any live parameter by name from text (same syntax as --set). False + err on bad input.
MUR_API bool mur_flock_set(mur_flock *f, const char *name, const char *value, mur_error *err);
/// Apply a whole def (checked first); boid and predator counts are resized as needed (boids and
/// predators added start in def's world). The boids stay where they are (mur_flock_switch_def brings
/// them into def's world); banked turns off sets every roll to 0, perching off ends every perch.
MUR_API bool mur_flock_apply_def(mur_flock *f, const mur_flock_def *def, mur_error *err);
/// Switch a live flock to def (checked first, as mur_flock_apply_def; false + err and the flock
/// unchanged when it fails): every parameter and both counts, the boids flying on from where they are.
/// Boids it adds start as creation places them, in def's world; then every boid is brought into def's
/// world at once. With walls, per axis of the world box where some boid is outside it: the whole flock
/// moves along that axis by the least shift that puts it inside (bounds_margin from soft walls where it
/// fits), keeping its shape; a flock wider than the box stays, and the boids outside get a seeded
/// coordinate in the box. Without walls but with a roost, the same for the roost's horizontal disc
/// (roost_radius) and 10 wu around its altitude, where some boid is more than roost_radius / 4 outside
/// them (the roost turns boids back from there). No walls, no roost: nobody moves. Plane mode puts the
/// flying boids on its plane; predators outside are placed anew. Deterministic for a seed and a tick.
MUR_API bool mur_flock_switch_def(mur_flock *f, const mur_flock_def *def, mur_error *err);
/// Switch a live flock to the named preset (the viewer's N): mur_flock_switch_def with the preset's
/// def (mur_def_preset), keeping the flock's seed, and boids > 0 boids instead of the preset's count
/// (0 or less: the preset's). False + err for an unknown name (naming the presets) or a bad count.
MUR_API bool mur_flock_apply_preset(mur_flock *f, const char *name, int32_t boids, mur_error *err);
MUR_API void mur_flock_set_perch(mur_flock *f, bool on);           ///< off releases every perched boid
MUR_API void mur_flock_set_predators_on(mur_flock *f, bool on);    ///< hide/restore without losing them
MUR_API void mur_flock_set_goal(mur_flock *f, bool on, const float *pos); ///< pos may be NULL (keep)
MUR_API void mur_flock_set_wind(mur_flock *f, bool on, const float *vel); ///< vel may be NULL (keep)
MUR_API void mur_flock_set_scatter(mur_flock *f, bool on);
MUR_API void mur_flock_set_bounds(mur_flock *f, mur_bounds mode);
MUR_API void mur_flock_set_search(mur_flock *f, mur_search method);
/// Resize the flock; new boids start at random (seeded) places in the world box. False if n is out of
/// range or memory runs out (the flock is then unchanged).
MUR_API bool mur_flock_set_boid_count(mur_flock *f, int32_t n, mur_error *err);
MUR_API bool mur_flock_set_predator_count(mur_flock *f, int32_t n, mur_error *err);
/// Place boid i (0 <= i < boids): position, velocity, remaining perch ticks (0 = flying). False when
/// i is out of range or a value is not finite / negative. For tools and tests.
MUR_API bool mur_flock_set_boid(mur_flock *f, int32_t i, const float pos[3], const float vel[3], int32_t perch);
/// Place predator k (0 <= k < predators).
MUR_API bool mur_flock_set_predator(mur_flock *f, int32_t k, const float pos[3], const float vel[3]);
/// Worker threads for the step, 1..64 (more are clamped to 64); 0 = all cores (the default). The
/// library reads no environment variable: the murmur program maps MURMUR_THREADS and
/// OMP_NUM_THREADS onto this (docs/environment.md).
MUR_API void mur_flock_set_threads(mur_flock *f, int threads);
/// On (the default): a step on several threads that finds a core taken by another process (its
/// threads' CPU time short of the wall time) tries one thread and keeps whichever is faster, trying
/// again every few ticks; `mur_stats.threads_used` says what ran. Off: always the set threads. The
/// state is bit-identical either way (any thread count gives the same bits).
MUR_API void mur_flock_set_thread_fallback(mur_flock *f, bool on);
MUR_API int mur_flock_threads(const mur_flock *f);

/// Code path of the neighbour kernel. Every path gives bit-identical results; only speed differs.
typedef enum mur_simd {
    MUR_SIMD_AUTO = 0,   ///< the widest this CPU runs, but AVX2 on AMD Zen 4 (the default)
    MUR_SIMD_BASE = 1,   ///< SSE2 / plain C, 4 lanes
    MUR_SIMD_AVX2 = 2,   ///< AVX2 with FMA, 8 lanes (x86-64 gcc builds)
    MUR_SIMD_AVX512 = 3, ///< AVX-512F, 16 lanes (x86-64 gcc builds)
    MUR_SIMD_COUNT
} mur_simd;

/// Choose the kernel path (AUTO: the widest available, but AVX2 where AVX-512 is split in halves:
/// AMD Zen 4). False + err when this CPU or build lacks
/// the path; the flock then keeps its path.
MUR_API bool mur_flock_set_simd(mur_flock *f, mur_simd path, mur_error *err);
/// The path in use (never AUTO).
MUR_API mur_simd mur_flock_simd(const mur_flock *f);
/// "auto", "base", "avx2", "avx512".
MUR_API const char *mur_simd_name(mur_simd path);
/// Grid cells per view radius: 1 (the default: cells of view_radius, 27 cells scanned) or 2 (cells
/// of view_radius / 2 scanned 2 deep: fewer candidates, measured slower here; docs/performance.md).
/// A wrapped world too small for 5 cells per axis uses 1 anyway. False + err for any other value.
MUR_API bool mur_flock_set_cell_reach(mur_flock *f, int reach, mur_error *err);
/// Compute the metrics part of mur_stats during every step (costs one extra pass).
MUR_API void mur_flock_set_metrics(mur_flock *f, bool every_tick);
/// Metrics also describe the biggest group (mur_stats group_*; off by default: one more pass over
/// every boid, on one thread). Takes effect at the next measure.
MUR_API void mur_flock_set_group_shape(mur_flock *f, bool on);

/* ---------------------------------------------------------------- stats, metrics, hash */

typedef struct mur_stats {
    uint64_t tick;              ///< tick the numbers describe
    int32_t boids;              ///< boid count
    int32_t predators;          ///< active predators (0 when hidden)
    double step_ms;             ///< wall time of the last step, ms
    double grid_ms;             ///< of which grid build and reorder, ms
    double metrics_ms;          ///< of which metrics, ms
    double candidates_per_boid; ///< pairs tested per flying boid in the last step
    int32_t threads_used;       ///< threads the last step ran on (mur_flock_set_thread_fallback)
    /* metrics: valid when metrics_valid */
    bool metrics_valid;         ///< metrics computed for this tick
    double centre[3];           ///< mean position, wu
    double diameter;            ///< mean distance to the centre, wu
    double polarisation;        ///< |mean unit velocity| of flying boids, 0..1
    double mean_neighbours;     ///< mean |N(i)| over flying boids
    double nn_distance;         ///< mean distance to the nearest neighbour within view_radius, wu
    int32_t perching;           ///< boids perching
    int32_t groups;             ///< connected components of the "within view_radius" graph
    /* the biggest group (the most boids; ties: the one with the lowest grid slot), docs/rules.md */
    int32_t group_size;         ///< its boids
    double group_centre[3];     ///< its mean position, wu
    double group_axis[3][3];    ///< its principal axes (unit): [0] thin, [1] mid, [2] long
    double group_extent[3];     ///< its extents along them, 2 sqrt(3 lambda), wu: thin <= mid <= long
    double group_thin_angle;    ///< angle of its thin axis to vertical, degrees (0..90)
    double group_polarisation;  ///< |mean unit velocity| of its boids, 0..1
    double time_s;              ///< simulated seconds at `tick` (the sum of every tick's dt)
    /* flock metrics over time (docs/rules.md, "Metrics over time"); CSV columns after `time_s` */
    double thin_tilt;           ///< angle of the whole flock's thin principal axis to vertical, degrees (0..90)
    double neighbour_turnover;  ///< mean share of 7 nearest neighbours still among them 10 s later (0..1; -1 before the first 10 s)
    double at_speed_limit;      ///< share of flying boids within 0.1% of min_speed or max_speed, 0..1
    int64_t heading_changes;    ///< mean heading turns of more than 30 degrees since tracking began
    int64_t splits;             ///< sub-flock splits since tracking began
    int64_t merges;             ///< sub-flock merges since tracking began
    double heading_changes_per_min; ///< heading_changes per minute of tracked (simulated) time
    double splits_per_min;      ///< splits per minute of tracked time
    double merges_per_min;      ///< merges per minute of tracked time
    /* the falcon (docs/falcon.md): 0 without it */
    double falcon_distance;     ///< from the falcon to the nearest flying bird, m
    double alarmed;             ///< share of the boids escaping (escape state 1..4), 0..1
    int32_t falcon_state;       ///< mur_falcon_phase
    int32_t falcon_near;        ///< flying birds within 10 m of the falcon
    double falcon_nn;           ///< their mean nearest-neighbour distance (to any flying bird, at most 5 m), m
} mur_stats;

/* The metrics CSV (one row per tick, docs/rules.md): its columns are defined here, once. Numbers are
 * written with %.9g (floating point) or as whole numbers. */
/// Number of columns.
MUR_API int mur_stats_column_count(void);
/// Name of column i (0 <= i < count), e.g. "tick", "centre_x"; NULL when out of range.
MUR_API const char *mur_stats_column_name(int i);
/// Column i of s as text into buf (snprintf semantics: returns the length it needed, -1 when i is
/// out of range).
MUR_API int mur_stats_column_text(const mur_stats *s, int i, char *buf, size_t len);
/// Write the header line (names joined by ',', then '\n'). False when a write fails.
MUR_API bool mur_stats_write_header(FILE *fp);
/// Write the row of s. False when a write fails.
MUR_API bool mur_stats_write_row(FILE *fp, const mur_stats *s);

/// Groups of a point cloud: the connected components of the graph that links points closer than
/// link (wu). label[i] = the smallest index in point i's group. The same union-find over a uniform
/// grid as the flock's `groups` metric (which is this with link = view_radius), so the metrics, the
/// viewer's camera and the research tools (src/sim/shape.c) share one definition and one code.
/// pos: n points (x, y, z), finite. Returns the number of groups, or -1 with err set (a bad argument
/// or no memory).
MUR_API int32_t mur_label_groups(const float *pos, int32_t n, float link, int32_t *label, mur_error *err);
/// Principal axes: the eigen-decomposition of a symmetric 3x3 matrix a (cyclic Jacobi; a is not
/// modified): the eigenvalues ascending in val, vec[k] the unit eigenvector of val[k] (its largest
/// component positive). The one solver of the shape measures (src/sim/shape.c) and of the program's
/// group box (the follow camera's framing).
MUR_API void mur_eigen_sym3(double a[3][3], double val[3], double vec[3][3]);

/// Stats of the last step (metrics if enabled or measured).
MUR_API mur_stats mur_flock_stats(const mur_flock *f);
/// Compute the metrics for the current state now and return them.
MUR_API mur_stats mur_flock_measure(mur_flock *f);
/// The neighbours boid i's rules use on the next tick, as they see the current state: boids other
/// than i within view_radius and its view cone (perching ones only with perch_neighbours), all of
/// them in metric mode, the mur_topo_list_size nearest (topo_k, rounded up: the last one counts
/// with the fractional weight) in topological mode. Ordered by distance, then index. Writes at most
/// max indices to out and returns how many there are (possibly more than max); -1 for a bad i.
/// Brute force over the flock (O(N)): for picking and checks, not per-boid use.
MUR_API int32_t mur_flock_neighbours(const mur_flock *f, int32_t i, int32_t *out, int32_t max);
/// 64-bit hash of the full state (tick, boids, predators, perch timers).
MUR_API uint64_t mur_flock_hash(const mur_flock *f);
/// Library memory held by the flock, bytes.
MUR_API size_t mur_flock_memory(const mur_flock *f);

/* ---------------------------------------------------------------- CSV state */

/// Write the state as CSV (kind,x,y,z,vx,vy,vz,perch,roll) through a temp file + rename.
MUR_API bool mur_flock_save_csv(const mur_flock *f, const char *path, mur_error *err);
/// Write the same CSV to an open stream (an mur_afile's fp, to commit with other outputs). False when
/// a write failed.
MUR_API bool mur_flock_write_csv(const mur_flock *f, FILE *fp);

/* ---------------------------------------------------------------- output files */

/// A file that appears complete or not at all: written to a temp file beside the target (PATH.tmpPID,
/// or a short hidden name in the same folder when that would pass the system's name limit) and
/// renamed into place by mur_afile_commit. A target that exists and is not a regular file (a FIFO,
/// a device) is written into directly, never replaced; /dev/stdout, /dev/stderr, /dev/fd/N and
/// /proc/self/fd/N write through the program's own descriptor; a symbolic link to a file keeps the
/// link and replaces the file it names. Used by mur_flock_save_csv; open to programs.
typedef struct mur_afile {
    FILE *fp;     ///< write here (NULL once finished)
    char *path;   ///< the target as given
    char *tmp;    ///< the temp file, NULL when writing directly
    char *target; ///< the file a symbolic link names (renamed over instead of the link), or NULL
} mur_afile;

/// Open for writing. False + err (naming the path and the reason) when it cannot be created; a is
/// then cleared.
MUR_API bool mur_afile_open(mur_afile *a, const char *path, mur_error *err);
/// Flush, check every write, close and rename into place. False + err on any failure, and nothing is
/// left behind (the temp file is removed).
MUR_API bool mur_afile_commit(mur_afile *a, mur_error *err);
/// Close and remove the temp file (after an error or an interruption). A cleared a is a no-op.
MUR_API void mur_afile_abort(mur_afile *a);
/// Flush, check every write and close, keeping the temp file for a later mur_afile_commit (or
/// mur_afile_abort): several outputs can be written first and renamed together. A direct target is
/// done (a cleared). False + err on a failure, and the temp file is removed.
MUR_API bool mur_afile_finish(mur_afile *a, mur_error *err);

/// Names of enum values ("soft", "grid", ...).
MUR_API const char *mur_bounds_name(mur_bounds b);
MUR_API const char *mur_search_name(mur_search s);
MUR_API const char *mur_neighbours_name(mur_neighbours m);

#ifdef __cplusplus
}
#endif
#endif
