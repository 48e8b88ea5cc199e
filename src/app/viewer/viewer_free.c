/* The interactive window's free run (docs/architecture.md, the viewer walk): the simulation worker
 * steps on its own real-time clock and publishes states (simthread.h); each frame takes the newest
 * one, uploads it and draws without waiting for a tick. Keys, clicks and panel edits wait for the
 * worker to lend the flock between two ticks; camera gestures act at once. Recordings and scripted
 * runs stay in the lock-step loop of viewer.c. */
#include "gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "clock.h"
#include "commands.h"
#include "recording.h"
#include "renderer.h"
#include "simthread.h"
#include "viewer.h"
#include "viewer_free.h"

static const double FRAME_BUDGET_FPS = 30.0; /* the free run's level of detail aims at this */
static const double FRAME_WORK_SHARE = 0.8;  /* ... with the upload and the draw in this share of a frame */
enum { MIN_MESH_BUDGET = 4000,               /* the nearest birds that stay meshes whatever it costs */
       MIN_BUDGET_FRAMES = 2 };              /* frames the budget is judged on */

/* Recordings are on the video's clock and scripted runs reproducible: both keep the lock-step. */
bool viewer_free_lockstep_wanted(const viewer *v)
{
    return (v->scripted && !v->real_clock) || v->rec.session != NULL;
}

/* What the worker is to do, from the loop's state (sent every frame; single ticks once). */
static mur_sim_ctl control_of(viewer *v)
{
    mur_sim_ctl c;
    memset(&c, 0, sizeof c);
    c.paused = v->run.paused;
    c.speed = v->run.speed;
    c.steps = viewer_run_take_steps(&v->run);
    c.measure = v->display.show_hud || v->display.show_axes;
    c.centre = v->camera.cam.follow || mur_cam_mode_wants_centre(&v->camera.mode);
    c.falcon = v->camera.mode.falcon;
    c.sel_bird = v->sel.bird;
    return c;
}

/* Start the free run; false when it could not (the loop stays in lock-step). */
bool viewer_free_start(viewer *v)
{
    mur_sim_ctl c = control_of(v);
    v->measured_seen = 0;
    v->sim_time0 = v->sim_time;
    v->ninq = 0;
    v->asked = false;
    v->free_run = mur_sim_free_start(v->sim, &c, v->metrics ? v->metrics->fp : NULL);
    if (!v->free_run) {
        fprintf(stderr, "murmur: no memory for the free-running simulation: the viewer stays in lock-step\n");
        v->real_clock = false;
        v->scripted = true; /* lock-step from now on */
    }
    return v->free_run;
}

void viewer_free_stop(viewer *v)
{
    mur_sim_free_stop(v->sim);
    v->free_run = false;
    v->asked = false;
    v->mesh_budget = 0; /* recordings draw by the default rules */
    v->budget_frames = 0;
    v->budget_work_s = 0.0;
    v->budget_skip = 0;
    mur_renderer_set_mesh_budget(v->renderer, 0);
}

/* The free run's level of detail (software GL, lod.h): while a frame's own work (upload and draw)
 * takes more than FRAME_WORK_SHARE of a frame at FRAME_BUDGET_FPS, fewer birds are meshes (the
 * nearest stay), the farther ones points (in the dusk look the CPU's splat, nearly free: splat.c);
 * with room to spare, more meshes again, up to the default rules. Decided on the mean of the frames
 * drawn since the last change (the first of them skipped: it may still draw the old order), as soon
 * as there are MIN_BUDGET_FRAMES of them and a tenth of a second has passed, so a slow frame rate
 * reaches its budget in a few frames, not seconds. */
void viewer_free_adapt_detail(viewer *v, double now, double work_s)
{
    if (v->budget_skip > 0) {
        v->budget_skip--;
        return;
    }
    v->budget_work_s += work_s;
    v->budget_frames++;
    if (v->budget_frames < MIN_BUDGET_FRAMES || now < v->next_budget)
        return;
    const double mean_ms = v->budget_work_s * 1000.0 / v->budget_frames;
    v->budget_work_s = 0.0;
    v->budget_frames = 0;
    v->next_budget = now + 0.1;
    const double target = FRAME_WORK_SHARE * 1000.0 / FRAME_BUDGET_FPS;
    int32_t lod[MUR_LOD_KINDS];
    mur_renderer_lod_counts(v->renderer, lod);
    const int32_t meshes = lod[MUR_LOD_FULL] + lod[MUR_LOD_LEAN];
    int32_t b = v->mesh_budget;
    if (mean_ms > target && meshes > MIN_MESH_BUDGET) {
        const double k = fmax(0.3, fmin(0.9, target / mean_ms));
        b = (int32_t)((double)meshes * k);
        b = b < MIN_MESH_BUDGET ? MIN_MESH_BUDGET : b;
    } else if (b > 0 && mean_ms < 0.6 * target) {
        b = (int32_t)((double)b * 1.25) + 1;
        b = b >= v->nboids ? 0 : b;
    }
    if (b != v->mesh_budget) {
        v->mesh_budget = mur_renderer_set_mesh_budget(v->renderer, b) ? b : 0;
        v->budget_skip = 1;
    }
}

/* The queued keys and clicks, with the flock on loan. Returns whether they changed it. */
static bool apply_queued(viewer *v)
{
    bool changed = false;
    for (int i = 0; i < v->ninq; i++) {
        const viewer_input *e = &v->inq[i];
        if (e->key == MUR_KEY_CLICK)
            changed = viewer_mouse_click(v, e->x, e->y, e->mods) || changed;
        else if (e->release)
            changed = viewer_mouse_predator_toggle(v, false) || changed;
        else
            changed = viewer_key(v, e->key, e->mods, e->repeat) || changed;
    }
    v->ninq = 0;
    return changed;
}

/* A published state becomes the one the HUD, the camera, the picking and the trails read. */
static void take_state(viewer *v, const mur_sim_state *st)
{
    v->def = st->def;
    v->nboids = st->boids;
    v->npredators = st->predators;
    v->predators_on = st->predators_on;
    v->tick = st->tick;
    if (st->has_centre) {
        memcpy(v->centre, st->centre, sizeof v->centre);
        v->radius = st->radius;
        v->has_box = st->has_box;
        memcpy(v->box, st->box, sizeof v->box);
        v->has_falcon = st->has_falcon;
        memcpy(v->falcon, st->falcon, sizeof v->falcon);
    }
    v->sim_time = v->sim_time0 + st->sim_time;
    v->sim_ms = st->step_ms;
    if (st->measured != v->measured_seen) {
        v->measured_seen = st->measured;
        v->stats = st->stats;
        v->measure_s = st->measure_s;
        viewer_plots_add(&v->plots, v->sim_time, &st->stats);
    } else {
        /* keep the last measured metrics; only the timings are new */
        mur_sim_stats_timings(&v->stats, &st->stats);
    }
    mur_view view = mur_sim_state_view(st);
    if (v->sel.bird >= 0 && (st->sel_bird == v->sel.bird || v->sel.bird >= st->boids))
        viewer_pick_from(v, &view, &st->def, st->sel_nb, st->sel_count);
    viewer_trails_update(v, &view);
}

bool viewer_take_panel(viewer *v)
{
    bool changed = false;
    const mur_panel_io *asked = viewer_panel_apply(v, &changed);
    if (asked) {
        /* the panel's requests that are the loop's or a command's to carry out */
        if (asked->new_preset >= 0 && viewer_apply_preset(v, asked->new_preset))
            changed = true;
        if (asked->pause_changed)
            viewer_run_set_paused(&v->run, asked->new_paused);
        if (asked->step)
            viewer_run_add_step(&v->run);
        if (asked->speed_changed && asked->new_speed > 0.0)
            viewer_run_set_speed(&v->run, asked->new_speed);
    }
    if (viewer_mouse_predator(v))
        changed = true;
    return changed;
}

/* A free run's inputs: the camera's at once; the keys, clicks, the panel and the cursor's predator
 * when the worker lends the flock (asked for without waiting: else the next frame asks again). */
static void free_inputs(viewer *v, const mur_key_event *keys, int nkeys, int *next_key, int64_t frame)
{
    v->input_frame = frame;
    mur_msg_clock(&v->msg, v->time, v->input_frame);
    glfwPollEvents(); /* the callbacks: the camera's gestures now, keys and clicks queued */
    while (*next_key < nkeys && keys[*next_key].frame <= frame && v->ninq < VIEWER_INPUTS) {
        const mur_key_event *e = &keys[*next_key];
        viewer_queue_input(v, e->key, e->mods, false, false, e->x, e->y);
        (*next_key)++;
    }
    bool need = v->ninq > 0 || v->panel.pending || v->mouse.pred >= 0;
    if (!need) {
        if (v->asked)
            mur_sim_give_back(v->sim, false); /* asked, then no longer needed */
        v->asked = false;
        return;
    }
    /* a panel edit waits for the tick under way: the panel's next frame would overwrite it */
    if (!(v->panel.pending ? mur_sim_borrow_wait(v->sim) : mur_sim_borrow(v->sim))) {
        v->asked = true;
        return;
    }
    v->asked = false;
    bool changed = apply_queued(v);
    changed = viewer_take_panel(v) || changed;
    /* the HUD and the selection as the inputs left them, before the next published state */
    v->def = mur_flock_get_def(v->flock);
    mur_view view = mur_flock_view(v->flock);
    v->nboids = view.boids;
    v->npredators = view.predators;
    v->predators_on = view.predators_on;
    if (v->sel.bird >= 0)
        viewer_pick_update(v);
    const viewer_requests req = viewer_take_requests(v);
    v->want_screenshot = v->want_screenshot || req.screenshot;
    v->quit = v->quit || req.quit;
    if (req.record_toggle) {
        /* a recording is on the video's clock: lock-step from here (the flock is still on loan,
         * so stopping the free run waits for nothing) */
        mur_sim_give_back(v->sim, changed);
        viewer_free_stop(v);
        if (viewer_toggle_recording(v))
            v->pace = mur_pace_of(v->cli, true); /* the video's frames from its first */
        return;
    }
    mur_sim_give_back(v->sim, changed);
}

/* A free-run frame: inputs, the worker's pace, and the newest state uploaded when there is one (or
 * when the camera made the drawn order stale). Returns the upload's seconds. */
double viewer_free_frame(viewer *v, const mur_key_event *keys, int nkeys, int *next_key)
{
    free_inputs(v, keys, nkeys, next_key, v->frame);
    if (!v->free_run)
        return 0.0;
    mur_sim_ctl c = control_of(v);
    mur_sim_control(v->sim, &c);
    bool fresh = false;
    const mur_sim_state *st = mur_sim_latest(v->sim, &fresh);
    if (!st)
        return 0.0;
    double t0 = mur_clock_s();
    if (fresh)
        take_state(v, st);
    if (fresh || v->frame <= 1 || mur_renderer_lod_stale(v->renderer)) {
        mur_upload_dst dst;
        if (mur_renderer_map(v->renderer, st->boids, st->predators, &dst)) {
            mur_view view = mur_sim_state_view(st);
            mur_upload_copy(&dst, &view);
        }
        mur_renderer_commit(v->renderer, st->tick, st->def.dt, st->predators_on);
    }
    return mur_clock_s() - t0;
}
