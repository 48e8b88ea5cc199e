/* The flock's state (struct mur_flock) and the sizes of its buffers. Owned by flock.c; the step's
 * modules (grid, rules, predators, metrics) and csv.c read and write the arrays. Not installed. */
#ifndef MUR_SIM_FLOCK_IMPL_H
#define MUR_SIM_FLOCK_IMPL_H

#include "core.h"
#include "cores.h"
#include "grid.h"

/// Capacity (candidates) of each thread's gather buffer; a neighbourhood larger than this is
/// scanned in place, run by run.
#define MUR_GATHER_CAP 4096
/// Most columns one gathered segment of a row holds (longer rows are split into segments).
#define MUR_GATHER_COLS 512
/// Floats of slack after the gather buffer and the sorted arrays: vector loads and the fixed-size
/// copies of the gather may run this far past the last valid candidate (masked out, never used).
#define MUR_PAD 32
/// Most boids in a topological neighbour list with a skin (topo.c "lists").
#define MUR_TOPO_LIST_CAP 24
/// Floats of each of the 7 arrays of a gather buffer (x, y, z, vx, vy, vz, w: one allocation), and in all.
#define MUR_GATHER_STRIDE (MUR_GATHER_CAP + MUR_PAD)
#define MUR_GATHER_FLOATS (7 * MUR_GATHER_STRIDE)
/// Sorted-slot weight (sw): a flying boid, a perching boid that counts as a neighbour, one that does not.
#define MUR_W_FLYING 2.0f
#define MUR_W_PERCHED 1.0f
/// Boids per block of the metric sums.
#define MUR_METRIC_BLOCK 4096

/// A thread's gather buffer: the columns of cells around one row of cells, contiguous, so the
/// neighbourhood of every cell of the row is one slice of it.
typedef struct mur_gather {
    float *x, *y, *z, *vx, *vy, *vz, *w;
    int32_t *col;    ///< MUR_GATHER_COLS + 1 column starts in the buffer
    int32_t *self;   ///< MUR_GATHER_COLS offsets of the row's own cell inside its column
} mur_gather;

/// The falcon (falcon.c): one agent, planned from the state at the start of the tick into next,
/// committed after the boids moved.
typedef struct mur_falcon {
    int phase;                 ///< mur_falcon_phase
    float pos[3], vel[3];
    int32_t target;            ///< locked-on bird, -1 none
    uint64_t phase_tick;       ///< tick the phase began
    uint64_t attack_tick;      ///< tick the current (or last) attack began
    int64_t attacks, catches;  ///< since the falcon came on
    float centre[3];           ///< the flock's centre at the start of the tick (mean of flying boids)
    float centre_vel[3];       ///< the flock's mean velocity at the start of the tick
    float mean_speed;          ///< the flying birds' mean speed at the start of the tick, m/s
    float nearest;             ///< distance to the nearest flying bird at the start of the tick, m (INFINITY: none)
    float fov_cos;             ///< cos of half escape_fov (the prey's field of view), set by the plan each tick
    int32_t caught;            ///< the bird caught this tick (removed at commit with falcon_remove), -1 none
    /* set once a tick for the birds' escapes (mur_escape_prepare, escape.c) */
    uint32_t copy_latency;     ///< escape_latency in ticks
    uint32_t esc_now;          ///< the tick, as the escape rows keep it
    bool esc_attacking;        ///< the falcon attacks (approach or pursuit)
    bool esc_path_tick;        ///< each bird's nearest neighbour goes into path_nn this tick
    float esc_r2;              ///< escape_radius squared
    float esc_vac2;            ///< escape_vacuole squared (0: off)
    int esc_fade;              ///< escape_copy_fade in 1/255 (0: off)
    float esc_flash2;          ///< escape_flash_speed squared (0: off)
    bool esc_full;             ///< tests: every bird's escape by escape_step, no quick path (escape.c)
    int32_t wave_first;        ///< the first bird alarmed in the current attack, -1 none
    float wave_first_pos[3];   ///< its position when it was alarmed
    uint64_t wave_first_tick;  ///< and the tick
    int phase_next;            ///< the plan's next phase, position, velocity, target
    float pos_next[3], vel_next[3];
    int32_t target_next;
    uint64_t end_tick;         ///< tick the last attack ended (the falcon leaving)
    float meet_speed;          ///< the falcon's speed, m/s, on the first tick of the attack it was within
                               ///< escape_radius of a flying bird (0: not yet); the attack_end event's aux
    /* the closest approach of the current attack (a reading, no state bit; the closest event) */
    float close_d2;            ///< the least squared distance to a flying bird at a tick's start (INFINITY: none yet)
    float close_speed;         ///< the falcon's speed on that tick, m/s
    float close_pos[3];        ///< the falcon's position then
    int32_t close_bird;        ///< the bird, -1 none
    uint64_t close_tick;       ///< the tick
    bool part_on;              ///< the attacked part's polarisation is sampled (30 s after the attack's end)
    int nevents;               ///< events of the last step
    mur_event events[MUR_MAX_EVENTS];
} mur_falcon;

/// One boid's escape as the pass uses it: 16 bytes, one cache line touched per boid and tick.
typedef struct mur_esc_row {
    float acc[3];              ///< the escape acceleration of the tick
    uint32_t ts;               ///< (tick its state began << 7) | part (bit 6) | quiet (bit 5) | fled (bit 4) | side (bit 3) | state (bits 0-2)
} mur_esc_row;

struct mur_flock {
    mur_flock_def def;
    uint64_t tick;
    double time;               ///< simulated seconds: the sum of each tick's dt (mur_view.time_s)
    int32_t n, cap;            ///< boids, allocated boids
    float *pos, *vel;          ///< public state, 3 floats per boid
    int32_t *perch;            ///< remaining perch ticks
    float *roll;               ///< bank angle, radians (banked turns)
    int32_t np, pcap;          ///< predators, allocated predators
    float *ppos, *pvel;        ///< predators, 3 floats each
    float *ptmp;               ///< predators' next state (6 floats each)
    bool pred_on;              ///< runtime predator toggle
    /* scratch, cell-sorted, structure of arrays */
    float *sx, *sy, *sz, *svx, *svy, *svz, *sw;
    int32_t *order;            ///< sorted slot -> boid index
    float *sroll;              ///< sorted slot -> roll at the start of the tick (bank alignment only)
    /// sorted slot -> vx, vy, vz, roll side by side (4 floats, 64-byte aligned; roll where the roll is
    /// copied): the 8-lane batch's velocity rows of a neighbour in one 16-byte load. Allocated at the first
    /// topological build (srow_cap slots, grid.c); srow_written: this tick's build filled it (else the batch
    /// loads by row).
    float *srow;
    int32_t srow_cap;
    bool srow_written;
    int32_t *cellof;           ///< boid -> cell during the sort; union-find parents for groups
    mur_grid grid;
    uint8_t *cwhole;           ///< per cell: its boids are one group (metrics)
    double *item_nn;           ///< per work item: sum of nearest-neighbour distances (metrics)
    int64_t *item_cnt;         ///< per work item: neighbours counted, boids with a neighbour
    struct mur_metric_block *msum; ///< metrics block sums (MUR_METRIC_BLOCK boids a block, metrics.h)
    int threads;               ///< worker threads, 1..MUR_MAX_THREADS
    mur_cores cores;           ///< all threads or one, by what the last ticks measured
    mur_gather gather[MUR_MAX_THREADS];
    /// The topological pass left NaNs and slot numbers (not floats) in the gather buffers: the metric
    /// pass clears them before its first use (its lean kernel weights the lanes past a run's end by 0,
    /// and 0 times NaN is NaN; rules.c).
    bool gather_dirty;
    /// The last topological pass's typical distance to the k-th neighbour (a quantile over the boids
    /// with a full list), wu; 0 before the first. Sizes the search's cells (grid.c): only the speed
    /// depends on it, never a result.
    float topo_spacing;
    /// Per boid (by index), two 16-bit floats (a float's upper half, rounded up: topo.c): [2 i] the
    /// radius its last topological search needed (the k-th neighbour's distance, or the 4th
    /// contact's, whichever is larger), or 0, and [2 i + 1] how much that radius moved at that search
    /// (wu): the next search's first radius (topo.c; 4 bytes a boid). A hint: only the speed depends
    /// on it, never a result.
    uint16_t *topo_hint;
    /* The held neighbour readings (reaction_ticks > 1, react.h), allocated when first used, react_cap
     * boids, per boid (by index): the tick + 1 of its last reading (low 32 bits; 0: none) and its phase
     * (of react_phase_r ticks and react_phase_seed); with reaction_hold=sums (react_list false) the sums
     * of that reading (MUR_REACT_FLOATS floats: acc and the list's length), with reaction_hold=list its
     * list (react_len boid indices, react_n of them) and its sorted slot, which the grid build writes
     * when react_slots asks (react_slots_written: it did this tick). */
    float *react;
    uint32_t *react_at;
    uint8_t *react_phase;
    int32_t *react_idx;
    uint8_t *react_n;
    int32_t *react_slot;
    int32_t react_cap, react_len, react_phase_r;
    uint64_t react_phase_seed;
    bool react_list, react_slots, react_slots_written;
    /* The topological neighbour lists with a skin (topo.c "lists"; off unless switched on), all built
     * at one tick t0 (an epoch): per boid (by index) its position at t0, the radius R its list is
     * complete to at t0 (every other boid then farther than R is in it; < 0: no list), the list's
     * boid indices and their count; per boid its sorted slot (grid.c scatter, while lists are in
     * use); per cell the box of the displacements since t0 of its boids. Allocated when first used
     * (tl_cap boids, tl_cells cells). Only the speed depends on them, never a result. */
    float *tl_p0, *tl_r;
    int32_t *tl_idx;
    uint8_t *tl_cnt;
    int32_t *slotof;
    float *tl_box;
    int32_t tl_cap;
    int64_t tl_cells;
    int8_t tl_mode;            ///< 1 on, -1 off, 0 the build's default (MUR_TOPO_LISTS) (mur_topo_lists_set)
    bool tl_valid;             ///< the lists and tl_p0 describe one epoch of tl_n boids
    bool tl_slots;             ///< the grid build is to write slotof
    bool tl_slots_written;     ///< the last grid build wrote it
    int32_t tl_n;              ///< boids with a position at t0
    int32_t tl_age;            ///< passes since the epoch's build
    int32_t tl_rest, tl_rest_len; ///< passes left without lists, and the next rest's length
    int64_t tl_served, tl_searched; ///< the last pass: searches served from their lists, searches
    int64_t tl_served_all, tl_searched_all, tl_builds; ///< totals since creation (tests, tools)
    bool tl_check;             ///< tests: every served boid checked against brute force
    int64_t tl_mismatch;       ///< served boids that brute force found otherwise
    bool metrics_every;
    bool group_shape;          ///< metrics also describe the biggest group (mur_flock_set_group_shape)
    struct mur_track *track;   ///< the metrics over time' state (metrics_track.c), NULL until measured
    mur_simd simd;             ///< neighbour kernel path in use (never MUR_SIMD_AUTO)
    mur_simd search_simd;      ///< the topological search's path (simd, but under AUTO mur_kernel_best_search)
    mur_stats stats;
    /* the falcon and the prey's escape (falcon.c, escape.c): the rows exist once the falcon was on */
    mur_falcon falcon;
    int32_t esc_cap;           ///< boids the escape rows hold (0: not allocated)
    mur_esc_row *erow;         ///< per boid: the escape's working row (the pass reads and writes it)
    uint8_t *esc;              ///< per boid: mur_escape_state | side << 3 after the last tick (the view)
    uint8_t *ecopy;            ///< per boid: the escape a neighbour may copy next tick (kind | side << 3 | ticks escaped, at most 15, << 4), 0 none
    int32_t *alarm_tick;       ///< per boid: ticks from the attack's start to its first alarm in it, -1 none
    float *alarm_pos;          ///< per boid: its position then, 3 floats
    float *alarm_vel;          ///< per boid: its velocity then (the frame its copiers' alarms are read in), 3 floats
    int32_t *alarm_src;        ///< per boid: the bird whose own alarm started its front (itself: it saw the falcon), -1 none
    uint8_t *sesc;             ///< per sorted slot: ecopy of the boid there
    int32_t *alarm_from;       ///< per boid: the neighbour whose escape it copied (its first alarm), -1 none
    float *alarm_nn;           ///< per boid: its nearest neighbour's distance at its alarm and at the end of that
                               ///< manoeuvre (-1: not yet), 2 floats (the burst event)
    float *path_d2;            ///< per boid: the squared distance the attacking falcon came nearest it (the path event)
    float *path_nn;            ///< per boid: its nearest neighbour's distance at the attack's start and after its end (-1: not yet)
    uint8_t *estr;             ///< per boid: the strength of its escape, 0..255 (escape_copy_fade), written when it starts
    uint8_t *eflash;           ///< per boid: 0, or 1 + its copies from the bird that saw the falcon when its escape is a flash (escape_flash_speed, escape_flash_hops), written when it starts
    uint8_t *ewave;            ///< per boid: 0, or 1 + its copies from the bird that saw the falcon when its front began at medium speed (escape_wave_hops), written when it starts
    uint8_t *espd;             ///< per boid: escape_spread's share, 0..255 (escape_spread_speed), from the closing speed on its front's first bird, written when it starts
    uint8_t *alarm_k;          ///< per boid: how many neighbours it could copy then (at most 255)
    float *vel0;               ///< per boid: its velocity at the attack's start, 3 floats (the part event)
};

/// A batch of at least this many new boids is stored along a Morton curve of their places (spawn.c):
/// above the largest flock of docs/murmuration.md's results (32,000), so every published hash stays;
/// measured to pay at 1M and not to cost at 100k (docs/performance/rounds.md, "Birds stored in cell order").
#ifndef MUR_SPAWN_ORDER_MIN
#define MUR_SPAWN_ORDER_MIN 65536
#endif
/// Place boids from..to-1 anew in def's world (resolved), each seeded by (its index, salt); a batch of
/// MUR_SPAWN_ORDER_MIN or more is then stored in the Morton order of their places (the same boids,
/// renumbered). False when out of memory for that order (the rows from..to-1 are then undefined).
bool mur_spawn_boids(mur_flock *f, const mur_flock_def *d, int32_t from, int32_t to, uint64_t salt);
/// Place predator k anew in def's world (resolved), seeded by (k, salt) (spawn.c; the preset switch,
/// switch.c, places those outside the new world so).
void mur_spawn_predator(mur_flock *f, const mur_flock_def *d, int32_t k, uint64_t salt);
/// Allocate the gather buffers of threads 0..threads-1 that are missing; false when out of memory
/// (flock.c; mur_flock_set_threads, flock_set.c).
bool mur_flock_reserve_gather(mur_flock *f, int threads);

#endif
