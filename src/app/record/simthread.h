/* The simulation worker, in one of two modes.
 *
 * Lock-step (recordings, headless runs, scripted viewer runs: reproducible): it runs the ticks of the
 * next frame while the main thread draws the current one, then copies the new state straight into
 * GL buffers the main thread mapped for it. Between mur_sim_kick() and mur_sim_wait() the flock
 * belongs to the worker; the main thread calls no flock function (setters, views) in that window.
 * Key toggles are applied after mur_sim_wait(), before the next kick, so a setter never races a step.
 *
 * Free-running (the interactive viewer, mur_sim_free_start .. mur_sim_free_stop): the worker steps
 * on its own clock at the real-time rate (the pace and speed the main thread last sent through
 * mur_sim_control), and after every tick publishes a copy of the state into a triple buffer. Neither
 * thread waits for the other:
 *  - the flock belongs to the worker for the whole free run. The main thread touches it only while it
 *    holds it on loan: mur_sim_borrow() asks for it and returns true once the worker has parked
 *    between two ticks (it never blocks: false means "not yet, ask again next frame");
 *    mur_sim_give_back() ends the loan. Setters, views and queries are allowed only inside a loan.
 *    (mur_sim_borrow_wait() waits for the tick under way instead: the parameter panel's edits only.)
 *  - the published states: three mur_sim_state slots. One is the worker's (being filled), one the
 *    main thread's (the front: mur_sim_latest() returns it, valid until the next mur_sim_latest()),
 *    and one is the newest complete state waiting, handed over by one atomic exchange of its index
 *    in each direction. The main thread reads only the front slot, the worker writes only its own.
 *  - mur_sim_control() sets what the worker reads between ticks (pause, speed, single ticks, the
 *    metrics and centre wanted, the selected bird) under a mutex that is never held during a tick.
 * mur_sim_kick() is not allowed during a free run; mur_sim_free_stop() waits for the tick under way.
 * With mur_sim_borrow_wait() these are the only places the main thread waits for the worker: a
 * recording starts, the viewer ends, a panel edit. The worker waits for the main thread only for a
 * loan: parked from the tick boundary after the request until the main thread, at its next frame,
 * applies its inputs and gives the flock back (inputs only: keys, clicks, the panel, the cursor's
 * predator while X is held). The --metrics file is the worker's during a free run. */
#ifndef MUR_APP_SIMTHREAD_H
#define MUR_APP_SIMTHREAD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "murmur/murmur.h"
#include "renderer.h"

typedef struct mur_sim mur_sim;

typedef struct mur_sim_job {
    int ticks;            ///< ticks to run
    double budget_s;      ///< stop early once the ticks took this long (0 = run them all)
    mur_upload_dst dst;   ///< where to copy the state afterwards (boids = predators = 0 and no
    bool copy;            ///<   pointers: nothing); copy = false skips the copy
    bool measure;         ///< compute the flock metrics afterwards (mur_flock_measure)
    bool centre;          ///< the biggest group is wanted (a camera follows the flock)
    bool falcon;          ///< ... with the falcon in its box while there is one (--camera falcon)
    FILE *metrics;        ///< --metrics: one row per tick (the flock computes metrics every tick)
} mur_sim_job;

typedef struct mur_sim_result {
    int ticks_done;       ///< ticks actually run (< ticks when the budget ran out)
    double step_s;        ///< wall time of those ticks, s
    double measure_s;     ///< wall time of the metrics, s (0 when not measured)
    bool copied;          ///< the state went into dst
    bool has_centre;      ///< centre is set: job.centre asked for it, or the metrics gave it
    double centre[3];     ///< job.centre: the biggest group's centre (group.h); else the mean boid
                          ///<   position from the metrics when they describe this state
    double radius;        ///< job.centre: the biggest group's rms radius; else the mean distance to
                          ///<   the centre, wu
    bool has_box;         ///< box is set (job.centre: the biggest group's box, group.h)
    float box[4][3];      ///< its centre and three half axes, wu
    bool has_falcon;      ///< job.falcon and the falcon attacks (approach, pursuit): falcon is set
    float falcon[3];      ///< the falcon's position, wu (also inside box)
    mur_stats stats;      ///< mur_flock_stats after the ticks (metrics when measured)
    uint64_t tick;        ///< tick of the copied state
    bool predators_on;
} mur_sim_result;

#define MUR_SIM_SEL_MAX 512 ///< neighbours of the selected bird a published state carries

/// One published state of a free run (host memory; the worker fills it, the main thread reads it).
typedef struct mur_sim_state {
    uint64_t tick;
    int32_t boids, predators;
    bool predators_on;
    float *pos, *vel, *roll;   ///< boids*3, boids*3, boids floats
    int32_t *perch;            ///< boids ints
    float *pred_pos, *pred_vel; ///< predators*3 floats
    mur_flock_def def;         ///< the parameters in force
    mur_stats stats;           ///< the last tick's stats; metrics from the last measurement
    uint64_t measured;         ///< serial of the measurement in stats (changes with each new one)
    bool has_centre;           ///< centre and radius as in mur_sim_result
    double centre[3], radius;
    bool has_box;              ///< box as in mur_sim_result
    float box[4][3];
    bool has_falcon;           ///< falcon as in mur_sim_result
    float falcon[3];
    double sim_time;           ///< simulated seconds since the free run started
    double step_ms;            ///< wall ms per tick, smoothed
    double measure_s;          ///< wall time of the last measurement, s
    uint64_t ticks;            ///< ticks done in this free run
    int32_t sel_bird;          ///< the selected bird whose neighbours follow (-1: none)
    int32_t sel_count;         ///< mur_flock_neighbours' count for it
    int32_t sel_nb[MUR_SIM_SEL_MAX]; ///< the first min(sel_count, MUR_SIM_SEL_MAX) of them
    int32_t cap_boids, cap_preds; ///< allocated sizes (the worker's)
} mur_sim_state;

/// What the main thread asks of a free run (mur_sim_control).
typedef struct mur_sim_ctl {
    bool paused;
    double speed;              ///< simulated seconds per real second
    int steps;                 ///< single ticks to add (paused or not)
    bool measure;              ///< metrics wanted (the HUD is shown): a few times a second
    bool centre;               ///< the biggest group's centre wanted (a camera follows)
    bool falcon;               ///< ... with the falcon in its box while there is one
    int32_t sel_bird;          ///< -1, or the bird whose neighbours each state carries
} mur_sim_ctl;

/// Start the worker for f. NULL when a thread cannot be started.
mur_sim *mur_sim_start(mur_flock *f);
/// Hand a job to the worker (asynchronous). Only one job at a time: wait before the next kick.
void mur_sim_kick(mur_sim *s, const mur_sim_job *job);
/// Wait for the job and take its result. Returns immediately when no job is running (result
/// zeroed except stats).
void mur_sim_wait(mur_sim *s, mur_sim_result *out);
/// Free run: the worker steps on its own clock (ctl as given) and publishes states, metrics rows
/// to `metrics` (NULL: none). Call with no job pending; returns once the first state is published.
/// False when the state memory cannot be had (the worker stays in lock-step).
bool mur_sim_free_start(mur_sim *s, const mur_sim_ctl *ctl, FILE *metrics);
/// End a free run (waits for the tick under way; any loan ends). No-op when not free-running.
void mur_sim_free_stop(mur_sim *s);
/// The worker's pace and requests (free run); ctl->steps are added to those not yet taken.
void mur_sim_control(mur_sim *s, const mur_sim_ctl *ctl);
/// The newest complete state (free run): the front slot, swapped for a newer one when the worker
/// published one since the last call (*fresh then true). NULL before the first state.
const mur_sim_state *mur_sim_latest(mur_sim *s, bool *fresh);
/// Ask for the flock (free run): true when the worker is parked and the flock is the main thread's
/// until mur_sim_give_back(). Never blocks.
bool mur_sim_borrow(mur_sim *s);
/// The same, waiting for the tick under way: for the one input that cannot wait a frame (the
/// parameter panel's edit, which the next panel frame would overwrite).
bool mur_sim_borrow_wait(mur_sim *s);
/// End a loan; changed: the main thread changed the flock (the worker publishes it at once).
void mur_sim_give_back(mur_sim *s, bool changed);
/// Give a view of a published state (the library's view shape, for uploads and trails).
mur_view mur_sim_state_view(const mur_sim_state *st);
/// Keep the metrics of *kept and take the tick and the step's timings (step, grid, candidates) of
/// *now: for a tick whose metrics were not measured.
void mur_sim_stats_timings(mur_stats *kept, const mur_stats *now);

/// Wait for any job, stop the worker, free s. NULL is a no-op.
void mur_sim_stop(mur_sim *s);

#endif
