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

/* The enums, mur_error and mur_flock_def (every parameter): */
#include "flock_def.h"

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
    MUR_SIMD_AUTO = 0,   ///< the widest this CPU runs, but AVX2 on AMD Zen 4 for all but the topological
                         ///< search (the default; mur_flock_search_simd)
    MUR_SIMD_BASE = 1,   ///< SSE2 / plain C, 4 lanes
    MUR_SIMD_AVX2 = 2,   ///< AVX2 with FMA, 8 lanes (x86-64 gcc builds)
    MUR_SIMD_AVX512 = 3, ///< AVX-512F, 16 lanes (x86-64 gcc builds)
    MUR_SIMD_COUNT
} mur_simd;

/// Choose the kernel path (AUTO: the widest available, but AVX2 where AVX-512 is split in halves:
/// AMD Zen 4, except for the topological search, which takes the widest there too). A path other than
/// AUTO sets every kernel, the search included. False + err when this CPU or build lacks
/// the path; the flock then keeps its path.
MUR_API bool mur_flock_set_simd(mur_flock *f, mur_simd path, mur_error *err);
/// The path in use (never AUTO).
MUR_API mur_simd mur_flock_simd(const mur_flock *f);
/// The topological search's path in use (never AUTO): mur_flock_simd's, but AVX-512 under AUTO on AMD
/// Zen 4, where its 16-lane block scan measured faster and the uniform step slower.
MUR_API mur_simd mur_flock_search_simd(const mur_flock *f);
/// "auto", "base", "avx2", "avx512".
MUR_API const char *mur_simd_name(mur_simd path);
/// Grid cells per view radius: 1 (the default: cells of view_radius, 27 cells scanned) or 2 (cells
/// of view_radius / 2 scanned 2 deep: fewer candidates, measured slower here; docs/performance/rounds.md).
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
