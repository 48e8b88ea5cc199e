/* The free run of the interactive window (viewer_free.c): the loop in viewer.c calls these. */
#ifndef MUR_APP_VIEWER_FREE_H
#define MUR_APP_VIEWER_FREE_H

#include <stdbool.h>

#include "keyscript.h"
#include "viewer.h"

/// Recordings (the video's clock) and scripted runs (reproducible) keep the lock-step loop.
bool viewer_free_lockstep_wanted(const viewer *v);
/// Start the free run; false when it could not (the loop stays in lock-step).
bool viewer_free_start(viewer *v);
/// Stop it (waits for the tick under way); recordings then draw by the default rules.
void viewer_free_stop(viewer *v);
/// The level of detail on software GL: fewer meshes while a frame's upload and draw (work_s, this
/// frame's) miss their frame budget.
void viewer_free_adapt_detail(viewer *v, double now, double work_s);
/// One frame's inputs and the newest published state uploaded; returns the upload's seconds.
double viewer_free_frame(viewer *v, const mur_key_event *keys, int nkeys, int *next_key);
/// The parameter panel's edits and requests (preset, pause, step, speed) and the cursor's predator,
/// with the flock in hand; returns whether they changed it.
bool viewer_take_panel(viewer *v);
/// Queue a key or click until the worker lends the flock (the GLFW callbacks call it).
void viewer_queue_input(viewer *v, int key, int mods, bool repeat, bool release, double x, double y);

#endif
