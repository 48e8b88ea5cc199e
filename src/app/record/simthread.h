/* The simulation worker: runs the ticks of the next frame while the main thread draws the current
 * one, then copies the new state straight into GL buffers the main thread mapped for it (the only
 * copy of the state per frame).
 *
 * Contract: between mur_sim_kick() and mur_sim_wait() the flock belongs to the worker; the main
 * thread calls no flock function (setters, views) in that window. Key toggles are applied after
 * mur_sim_wait(), before the next kick, so a setter never races a step. */
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
    mur_stats stats;      ///< mur_flock_stats after the ticks (metrics when measured)
    uint64_t tick;        ///< tick of the copied state
    bool predators_on;
} mur_sim_result;

/// Start the worker for f. NULL when a thread cannot be started.
mur_sim *mur_sim_start(mur_flock *f);
/// Hand a job to the worker (asynchronous). Only one job at a time: wait before the next kick.
void mur_sim_kick(mur_sim *s, const mur_sim_job *job);
/// Wait for the job and take its result. Returns immediately when no job is running (result
/// zeroed except stats).
void mur_sim_wait(mur_sim *s, mur_sim_result *out);
/// Wait for any job, stop the worker, free s. NULL is a no-op.
void mur_sim_stop(mur_sim *s);

#endif
