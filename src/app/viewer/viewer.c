/* The interactive viewer: a GLFW window, a fixed simulation tick decoupled from the frame rate,
 * the renderer, the HUD, screenshots and scripted runs (--frames, --screenshot, --keys). The loop
 * owns what stays directly in `viewer` (time, sync, measurements, the upload flag, the requests it
 * takes from the commands); the structs by concern it changes only through their owners' functions
 * (viewer.h). */
#include "gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "frame_cpu.h"
#include "viewer_main.h"
#include "hud.h"
#include "keyscript.h"
#include "recording.h"
#include "renderer.h"
#include "outputs.h"
#include "screenshot.h"
#include "shader.h"
#include "signals.h"
#include "simthread.h"
#include "bindings.h"
#include "commands.h"
#include "viewer.h"
#include "viewer_free.h"
#include "batch.h"

enum {
    MAX_TICKS_PER_FRAME = 5, /* catch-up cap: beyond this the simulation slows down instead */
};
static const double MAX_STEP_BUDGET_S = 0.050; /* stop catching up once steps took this long */
static const double SCRIPTED_FRAME_S = 1.0 / 30.0;

static char glfw_error[512];

static void on_glfw_error(int code, const char *desc)
{
    snprintf(glfw_error, sizeof glfw_error, "%s (GLFW error 0x%x)", desc, code);
}

static viewer *from(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

/* A free run: the input waits for the flock (applied when the worker lends it, apply_queued). */
void viewer_queue_input(viewer *v, int key, int mods, bool repeat, bool release, double x, double y)
{
    if (v->ninq < VIEWER_INPUTS)
        v->inq[v->ninq++] = (viewer_input){key, mods, repeat, release, x, y};
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    if (viewer_panel_wants_keyboard(from(w)))
        return; /* typing into the panel */
    viewer *v = from(w);
    if (v->free_run) {
        if (key == GLFW_KEY_X && action == GLFW_RELEASE)
            viewer_queue_input(v, key, mods, false, true, 0.0, 0.0);
        if (action == GLFW_PRESS || action == GLFW_REPEAT)
            viewer_queue_input(v, key, mods, action == GLFW_REPEAT, false, 0.0, 0.0);
        return;
    }
    if (key == GLFW_KEY_X && action == GLFW_RELEASE && viewer_mouse_predator_toggle(v, false))
        v->flock_dirty = true; /* X held: the cursor hunts; released: stops */
    if ((action == GLFW_PRESS || action == GLFW_REPEAT) && viewer_key(v, key, mods, action == GLFW_REPEAT))
        v->flock_dirty = true; /* upload the state again even without a tick (paused) */
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    if (action == GLFW_PRESS && viewer_panel_wants_mouse(from(w)))
        return; /* a press on the panel is the panel's */
    viewer *v = from(w);
    if (v->free_run && action == GLFW_RELEASE) {
        /* a press only starts a gesture; a click (select, move the goal) needs the flock */
        if (viewer_mouse_release_click(v, button, mods))
            viewer_queue_input(v, MUR_KEY_CLICK, mods, false, false, v->mouse.x, v->mouse.y);
        return;
    }
    if (viewer_mouse_button(from(w), button, action == GLFW_PRESS, mods))
        from(w)->flock_dirty = true;
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    viewer_cursor(from(w), x, y);
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    if (viewer_panel_wants_mouse(from(w)))
        return;
    viewer_scroll(from(w), dy);
}

static void on_fb_size(GLFWwindow *w, int width, int height)
{
    viewer *v = from(w);
    v->fb_w = width;
    v->fb_h = height;
    viewer_camera_aspect(&v->camera, width, height);
}

static void on_win_size(GLFWwindow *w, int width, int height)
{
    viewer *v = from(w);
    v->win_w = width;
    v->win_h = height;
}

/* ------------------------------------------------------------------ screenshots */

static void fill_scene(viewer *v, mur_scene *s)
{
    const viewer_display *d = &v->display;
    mur_scene_from_def(&v->def, d->boid_size, (float)v->time, s);
    s->shadows = mur_shadows_wanted((const char *)glGetString(GL_RENDERER), v->nboids, v->rec.session != NULL);
    s->show_box = s->show_box && d->show_box;
    s->color_by_speed = d->color_by_speed;
    s->tint_alarm = d->tint_alarm;
    const mur_stats *st = &v->stats;
    s->axes_on = d->show_axes && st->metrics_valid && st->group_size > 1;
    for (int a = 0; s->axes_on && a < 3; a++) {
        s->axes_centre[a] = (float)st->group_centre[a];
        s->axes_half[a] = 0.5f * (float)st->group_extent[a];
        for (int c = 0; c < 3; c++)
            s->axes_dir[a][c] = (float)st->group_axis[a][c];
    }
}

/* The window's back buffer: the frame just drawn, HUD included. */
static bool save_screenshot(viewer *v, const char *path, bool together)
{
    if (v->cli->shot_w > 0) {
        /* --screenshot-size: the scene drawn again at that size, from the same camera */
        mur_scene scene;
        fill_scene(v, &scene);
        scene.shadows = mur_shadows_wanted((const char *)glGetString(GL_RENDERER), v->nboids, true);
        return mur_screenshot_scene(path, v->renderer, &v->camera.cam, &scene, v->cli->shot_w, v->cli->shot_h, together);
    }
    glReadBuffer(GL_BACK);
    return mur_screenshot(path, v->fb_w, v->fb_h, together);
}

static void timestamped_screenshot(viewer *v)
{
    char path[64];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    size_t n = strftime(path, sizeof path, "murmur-%Y%m%d-%H%M%S", &tm);
    /* two shots in the same second get distinct names */
    snprintf(path + n, sizeof path - n, "-%03lld.png", (long long)(v->frame % 1000));
    if (save_screenshot(v, path, false))
        mur_msg(&v->msg, "saved %s", path);
}

/* ------------------------------------------------------------------ the loop */

/* Ticks for the next frame: the pace's (1 by default, pace.h) when scripted or recording
 * (reproducible, the video's own clock), else as many as real time asks for (accumulator, capped). */
static int ticks_for_frame(viewer *v, double real_dt, float dt)
{
    int ticks = 0;
    if (v->scripted || v->rec.session) {
        int n = mur_pace_ticks(&v->pace, v->rec.session ? v->cli->fps : 1.0 / SCRIPTED_FRAME_S, dt);
        ticks = v->run.paused ? 0 : n;
    } else {
        ticks = viewer_run_realtime(&v->run, real_dt, dt, MAX_TICKS_PER_FRAME);
    }
    return ticks + viewer_run_take_steps(&v->run);
}

/* The worker is idle here: take a snapshot of what the HUD and the scene need. */
static void snapshot(viewer *v)
{
    if (v->sel.bird >= 0)
        viewer_pick_update(v);
    mur_view view = mur_flock_view(v->flock);
    viewer_trails_update(v, &view);
    v->def = mur_flock_get_def(v->flock);
    v->nboids = view.boids;
    v->npredators = view.predators;
    v->predators_on = view.predators_on;
    v->tick = view.tick;
}

/* Hand the next frame's ticks to the worker, with GL buffers mapped for the state it produces. */
static void kick(viewer *v, int ticks)
{
    mur_sim_job job;
    memset(&job, 0, sizeof job);
    job.ticks = ticks;
    job.budget_s = v->scripted || v->rec.session ? 0.0 : MAX_STEP_BUDGET_S;
    /* a paused flock is copied again when the camera changed the birds' sizes on screen (lod.h) */
    job.copy = ticks > 0 || v->flock_dirty || v->frame <= 1 || mur_renderer_lod_stale(v->renderer);
    job.centre = v->camera.cam.follow || mur_cam_mode_wants_centre(&v->camera.mode);
    job.falcon = v->camera.mode.falcon;
    v->flock_dirty = false;
    if (job.copy)
        job.copy = mur_renderer_map(v->renderer, v->nboids, v->npredators, &job.dst);
    /* the metrics (groups are the costly part) a few times a second for the HUD, and never more
     * than a tenth of the worker's time (a measurement costs a quarter to a third of a tick at 100k
     * uniform boids: docs/performance/rounds.md, round 6) */
    double now = mur_clock_s();
    job.metrics = v->metrics ? v->metrics->fp : NULL;
    if (v->scripted || v->rec.session) {
        /* on the simulation's clock: every 0.25 simulated seconds, so scripted runs reproduce */
        if (v->sim_time >= v->next_measure_sim && ticks > 0) {
            job.measure = true;
            v->next_measure_sim = v->sim_time + 0.25;
        }
    } else if (v->display.show_hud && now >= v->next_measure) {
        job.measure = true;
        v->next_measure = now + fmax(0.25, 10.0 * v->measure_s);
    }
    mur_sim_kick(v->sim, &job);
}

/* Wait for the worker and make its state the one drawn. */
static double sync_worker(viewer *v, float dt)
{
    double t0 = mur_clock_s();
    mur_sim_result res;
    mur_sim_wait(v->sim, &res);
    double waited = mur_clock_s() - t0;
    if (res.copied)
        mur_renderer_commit(v->renderer, res.tick, dt, res.predators_on);
    if (res.has_centre) {
        memcpy(v->centre, res.centre, sizeof v->centre);
        v->radius = res.radius;
        v->has_box = res.has_box;
        memcpy(v->box, res.box, sizeof v->box);
        v->has_falcon = res.has_falcon;
        memcpy(v->falcon, res.falcon, sizeof v->falcon);
    }
    v->ticks_last = res.ticks_done;
    v->upload_ms = 0.0; /* the worker copied the state into the mapped buffers */
    v->sim_time += (double)res.ticks_done * (double)dt;
    if (res.measure_s > 0.0)
        v->measure_s = res.measure_s;
    if (res.ticks_done > 0) {
        mur_stats keep = v->stats;
        v->stats = res.stats;
        if (!res.stats.metrics_valid) {
            /* keep the last measured metrics; only the timings are new */
            v->stats = keep;
            mur_sim_stats_timings(&v->stats, &res.stats);
        }
        double ms = res.step_s * 1000.0 / res.ticks_done;
        v->sim_ms = v->sim_ms > 0.0 ? 0.9 * v->sim_ms + 0.1 * ms : ms;
        v->sum_sim_ms += res.step_s * 1000.0;
    } else if (res.stats.metrics_valid) {
        v->stats = res.stats;
    }
    if (res.stats.metrics_valid)
        viewer_plots_add(&v->plots, v->sim_time, &res.stats);
    return waited;
}

static void print_state(viewer *v)
{
    mur_flock_def d = mur_flock_get_def(v->flock);
    mur_view view = mur_flock_view(v->flock);
    const mur_flock_def w = mur_def_resolved(&d);
    int32_t lod[MUR_LOD_KINDS];
    mur_renderer_lod_counts(v->renderer, lod);
    int alarmed = 0;
    for (int32_t i = 0; view.escape && i < view.boids; i++)
        alarmed += (view.escape[i] & 7) != 0;
    printf("viewer: state tick=%llu boids=%d predators=%d predators_on=%s perch=%s goal=%s "
           "goal_pos=%g,%g,%g wind=%s scatter=%s bounds=%s view_angle=%g speed=%g paused=%s "
           "follow=%s color=%s hud=%s world=%s world_max_x=%g camera_distance=%g lod=%d,%d,%d "
           "falcon_phase=%d falcon_pos=%g,%g,%g alarmed=%d tint=%s\n",
           (unsigned long long)view.tick, (int)view.boids, (int)view.predators,
           view.predators_on ? "on" : "off", d.perch ? "on" : "off", d.goal ? "on" : "off",
           (double)d.goal_pos[0], (double)d.goal_pos[1], (double)d.goal_pos[2],
           d.wind ? "on" : "off", d.scatter ? "on" : "off", mur_bounds_name(d.bounds),
           (double)d.view_angle, v->run.speed, v->run.paused ? "yes" : "no", v->camera.cam.follow ? "on" : "off",
           v->display.color_by_speed ? "speed" : "state", v->display.show_hud ? "on" : "off",
           d.world == MUR_WORLD_SCALE ? "scale" : "fixed", (double)w.world_max[0],
           (double)v->camera.cam.goal.distance,
           (int)lod[MUR_LOD_FULL], (int)lod[MUR_LOD_LEAN], (int)lod[MUR_LOD_POINTS],
           view.falcon_phase, (double)view.falcon_pos[0], (double)view.falcon_pos[1], (double)view.falcon_pos[2],
           alarmed, v->display.tint_alarm ? "on" : "off");
}

static void apply_inputs(viewer *v, const mur_key_event *keys, int nkeys, int *next_key,
                         int64_t frame)
{
    v->input_frame = frame;
    mur_msg_clock(&v->msg, v->time, v->input_frame);
    while (*next_key < nkeys && keys[*next_key].frame <= frame) {
        const mur_key_event *e = &keys[*next_key];
        /* a scripted left click at a window point (--keys "F:Click@XxY"), or a key; either may
         * change the flock: upload it again even without a tick (paused) */
        bool changed = e->key == MUR_KEY_CLICK ? viewer_mouse_click(v, e->x, e->y, e->mods)
                                               : viewer_key(v, e->key, e->mods, false);
        v->flock_dirty = v->flock_dirty || changed;
        (*next_key)++;
    }
    glfwPollEvents(); /* the callbacks above: keys, buttons, the cursor, the wheel */
    if (viewer_take_panel(v))
        v->flock_dirty = true;
    /* what the commands asked of the loop */
    const viewer_requests req = viewer_take_requests(v);
    v->want_screenshot = v->want_screenshot || req.screenshot;
    v->quit = v->quit || req.quit;
    if (req.record_toggle && viewer_toggle_recording(v))
        v->pace = mur_pace_of(v->cli, true); /* the video's frames from its first */
}

/* Smoothed fps and ms per frame for the HUD; sums over the timed frames for the summary. */
static void account_frame(viewer *v, double frame_s, double interval, double waited, double upload_s,
                          double draw_s, bool timed)
{
    double ms = frame_s * 1000.0;
    v->frame_ms = v->frame_ms > 0.0 ? 0.9 * v->frame_ms + 0.1 * ms : ms;
    v->upload_ms = v->upload_ms > 0.0 ? 0.9 * v->upload_ms + 0.1 * upload_s * 1000.0 : upload_s * 1000.0;
    v->draw_ms = v->draw_ms > 0.0 ? 0.9 * v->draw_ms + 0.1 * draw_s * 1000.0 : draw_s * 1000.0;
    double wall = v->scripted ? frame_s : interval;
    v->fps = v->fps > 0.0 ? 0.9 * v->fps + 0.1 / wall : 1.0 / wall;
    if (timed) {
        v->sum_frame_ms += ms;
        v->sum_wait_ms += waited * 1000.0;
        v->sum_upload_ms += upload_s * 1000.0;
        v->sum_draw_ms += draw_s * 1000.0;
        v->timed_frames++;
    } else {
        v->sum_sim_ms = 0.0; /* the sum restarts with the timed frames */
    }
}

/* Lock-step (recordings, scripted runs): the loop is pipelined: after the worker delivers the state of
 * frame f, the inputs of frame f + 1 are applied (the worker is idle, so setters cannot race a step),
 * the worker starts the ticks of frame f + 1, and frame f is drawn meanwhile. Keys scripted for frame
 * f + 1 are therefore applied before its ticks, exactly as in an unpipelined loop: scripted runs give
 * the same states.
 * Free run (the interactive window; simthread.h): the worker steps on its own clock and publishes
 * states; each frame takes the newest one (never waiting for a tick), and keys and clicks are applied
 * when the worker lends the flock between two ticks. A recording started with V switches to
 * lock-step until it stops. */
static int run(viewer *v, const mur_key_event *keys, int nkeys)
{
    const mur_cli *cli = v->cli;
    int next_key = 0;
    int status = 0;
    double t_prev = mur_clock_s();
    /* the first frames compile shaders and warm caches: leave them out of the means */
    int64_t warmup = cli->frames > 40 ? 10 : 0;
    int sig = 0;
    bool kicked = false;

    v->frame = 1;
    if (viewer_free_lockstep_wanted(v) || !viewer_free_start(v)) {
        apply_inputs(v, keys, nkeys, &next_key, 1);
        snapshot(v);
        kick(v, ticks_for_frame(v, v->scripted ? SCRIPTED_FRAME_S : 0.0, v->def.dt));
        kicked = true;
    }
    v->frame = 0;
    while (true) {
        v->frame++;
        double t_start = mur_clock_s();
        double waited = 0.0, upload_s = 0.0;
        if (kicked) {
            waited = sync_worker(v, v->def.dt);
            upload_s = mur_clock_s() - t_start - waited; /* the commit of the worker's copy */
            kicked = false;
        }
        bool last = (cli->frames >= 0 && v->frame >= cli->frames) || v->quit
                    || glfwWindowShouldClose(v->win);
        sig = mur_signals_stop();
        if (sig)
            last = true;

        double now = mur_clock_s();
        double interval = fmax(now - t_prev, 1e-6);
        double real_dt = v->rec.session ? 1.0 / cli->fps
                         : v->scripted && !v->real_clock ? SCRIPTED_FRAME_S : fmin(interval, 0.25);
        t_prev = now;
        v->time += real_dt;
        mur_msg_clock(&v->msg, v->time, v->input_frame);
        if (v->free_run) {
            upload_s = viewer_free_frame(v, keys, nkeys, &next_key);
            if (!v->free_run && !last) {
                /* a recording started: lock-step from the next frame */
                snapshot(v);
                kick(v, ticks_for_frame(v, real_dt, v->def.dt));
                kicked = true;
            }
        } else if (!last) {
            apply_inputs(v, keys, nkeys, &next_key, v->frame + 1);
            snapshot(v);
            if (viewer_free_lockstep_wanted(v) || !viewer_free_start(v)) {
                kick(v, ticks_for_frame(v, real_dt, v->def.dt)); /* overlaps the drawing below */
                kicked = true;
            }
        } else {
            snapshot(v);
        }

        /* the flock is framed in the part of the window the panel leaves free (not in a video) */
        viewer_camera_free_part(&v->camera, 0.0f, v->rec.session ? (float)v->fb_w : viewer_panel_left(v), v->fb_w);
        if (viewer_camera_move(&v->camera, &v->sel, v->display.boid_size, v->centre, v->radius,
                               v->has_box ? (const float(*)[3])v->box : NULL, v->has_falcon ? v->falcon : NULL,
                               v->time, real_dt))
            mur_msg(&v->msg, "camera free: it no longer follows the flock (F follows it again)");

        mur_frame_cpu_mark(MUR_PART_LOOP);
        double t_draw = mur_clock_s();
        mur_scene scene;
        fill_scene(v, &scene);
        if (v->rec.session) {
            if (!viewer_draw_recorded(v, &scene))
                v->quit = true; /* the --record recording failed: this frame is the last */
        } else {
            mur_renderer_draw(v->renderer, &v->camera.cam, &scene, v->fb_w, v->fb_h);
            viewer_draw_hud(v, v->fb_w, v->fb_h, VIEWER_HUD_WINDOW);
            viewer_panel_draw(v);
            viewer_draw_help(v, v->fb_w, v->fb_h);
        }
        mur_frame_cpu_mark(MUR_PART_HUD);

        if (v->want_screenshot) {
            v->want_screenshot = false;
            timestamped_screenshot(v);
        }
        if (last && cli->screenshot) {
            if (!save_screenshot(v, cli->screenshot, true))
                status = MUR_EXIT_USAGE;
        }
        glfwSwapBuffers(v->win);
        mur_frame_cpu_mark(MUR_PART_SWAP);
        mur_frame_cpu_frame();
        double t_end = mur_clock_s();

        account_frame(v, t_end - t_start, interval, waited, upload_s, t_end - t_draw, v->frame > warmup);
        if (v->free_run)
            viewer_free_adapt_detail(v, t_end, upload_s + (t_end - t_draw));
        if (last)
            break;
    }
    if (v->free_run)
        viewer_free_stop(v);
    if (v->rec.session) {
        int st = viewer_stop_recording(v, sig);
        if (st != 0)
            status = st;
    } else if (v->rec.status != 0) {
        status = v->rec.status;
    }
    if (sig && status == 0)
        status = 128 + sig; /* stopped by a signal: say so in the status */
    mur_frame_cpu_report();
    return status;
}

/* ------------------------------------------------------------------ setup */

static int fail(const char *what)
{
    fprintf(stderr, "murmur: %s: %s\n", what, glfw_error[0] ? glfw_error : "unknown error");
    return MUR_EXIT_USAGE;
}

/* A visible GL 3.3 core window of width x height, current, GL loaded; NULL after printing why.
 * The multisampling follows the drawing policy (mur_msaa_samples): the window is made hidden first
 * with the GPU default, and made again when this GL wants another count (none on llvmpipe). */
static GLFWwindow *open_window(int width, int height)
{
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fail("cannot open a window (no display? the viewer needs X11; batch runs use --steps)");
        return NULL;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    int samples = mur_msaa_samples(NULL);
    glfwWindowHint(GLFW_SAMPLES, samples);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
#ifndef NDEBUG
    glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
    GLFWwindow *win = glfwCreateWindow(width, height, "murmur", NULL, NULL);
    if (win) {
        glfwMakeContextCurrent(win);
        PFNGLGETSTRINGPROC get_string = (PFNGLGETSTRINGPROC)glfwGetProcAddress("glGetString");
        int want = mur_msaa_samples(get_string ? (const char *)get_string(GL_RENDERER) : NULL);
        if (want != samples) {
            glfwMakeContextCurrent(NULL);
            glfwDestroyWindow(win);
            glfwWindowHint(GLFW_SAMPLES, want);
            win = glfwCreateWindow(width, height, "murmur", NULL, NULL);
        }
    }
    if (!win) {
        glfwTerminate();
        fail("cannot create an OpenGL 3.3 core window");
        return NULL;
    }
    glfwShowWindow(win);
    glfwMakeContextCurrent(win);
    int gl_version = gladLoadGL((GLADloadfunc)glfwGetProcAddress);
    if (!gl_version || GLAD_VERSION_MAJOR(gl_version) * 10 + GLAD_VERSION_MINOR(gl_version) < 33) {
        snprintf(glfw_error, sizeof glfw_error, "OpenGL 3.3 core is needed, got %d.%d",
                 GLAD_VERSION_MAJOR(gl_version), GLAD_VERSION_MINOR(gl_version));
        glfwDestroyWindow(win);
        glfwTerminate();
        fail("no suitable OpenGL context");
        return NULL;
    }
    return win;
}

/* The viewer's state before the loop: toggles, camera, --metrics, renderer, callbacks, a
 * recording asked for by --record. False after printing why. */
static bool setup(viewer *v)
{
    const mur_cli *cli = v->cli;
    mur_flock *flock = v->flock;
    GLFWwindow *win = v->win;
    v->scripted = cli->frames >= 0;
    /* MURMUR_VIEWER_CLOCK=real (checked in mur_viewer_main): a --frames run keeps the interactive
     * viewer's free-running simulation (for timing it); by default it is lock-step, reproducible */
    const char *clk = getenv("MURMUR_VIEWER_CLOCK");
    v->real_clock = clk && strcmp(clk, "real") == 0;
    mur_msg_init(&v->msg, v->scripted);
    viewer_run_init(&v->run);
    viewer_commands_init(v); /* the toggles (the HUD off in a recording without --hud on), the preset */
    glfwSetWindowUserPointer(win, v);
    glfwGetFramebufferSize(win, &v->fb_w, &v->fb_h);
    glfwGetWindowSize(win, &v->win_w, &v->win_h);

    mur_flock_def def = mur_flock_get_def(flock);
    char err[1024];
    const mur_flock_def world = mur_def_resolved(&def); /* world=scale: the box of this count */
    if (!viewer_camera_setup(&v->camera, cli, &world, v->fb_w, v->fb_h, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return false;
    }
    v->pace = mur_pace_of(cli, cli->record != NULL);
    /* metrics are measured a few times a second by the worker, not every tick, unless --metrics
     * asks for a row per tick */
    viewer_plots_init(&v->plots);
    if (!mur_outputs_open(cli, flock, &v->metrics))
        return false;
    (void)mur_warmup(cli, flock); /* stopped by a signal: the first frame ends the run */
    v->stats = mur_flock_measure(flock);
    memcpy(v->centre, v->stats.centre, sizeof v->centre);
    v->next_measure = mur_clock_s() + 0.25;
    snapshot(v);

    v->renderer = mur_renderer_create();
    v->hud = v->renderer ? mur_hud_create() : NULL;
    if (!v->renderer || !v->hud) {
        fprintf(stderr, "murmur: cannot set up the renderer (see the messages above)\n");
        return false;
    }
    glfwSetKeyCallback(win, on_key);
    glfwSetMouseButtonCallback(win, on_button);
    glfwSetCursorPosCallback(win, on_cursor);
    glfwSetScrollCallback(win, on_scroll);
    glfwSetFramebufferSizeCallback(win, on_fb_size);
    glfwSetWindowSizeCallback(win, on_win_size);
    /* after our callbacks: ImGui's GLFW backend chains to them */
    if (!viewer_panel_setup(v))
        return false;

    /* Ctrl-C / SIGTERM end the loop at a frame boundary, so a recording (--record, or V) is
     * always finished into a playable file */
    mur_signals_install();
    if (cli->record && !viewer_start_recording(v, cli->record, false))
        return false;
    return true;
}

/* Scripted runs (--frames): the timing line and the state, for tests and benchmarks. */
static void print_summary(viewer *v)
{
    double n = v->timed_frames > 0 ? (double)v->timed_frames : 1.0;
    double fm = v->sum_frame_ms / n, sm = v->sum_sim_ms / n, wm = v->sum_wait_ms / n;
    double um = v->sum_upload_ms / n, dm = v->sum_draw_ms / n;
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLES, &samples);
    if (v->real_clock) {
        /* a free run: sim is the worker's ms per tick (smoothed), on its own clock */
        printf("viewer: %lld frames %dx%d msaa=%d boids=%d: %.3f ms/frame (sim %.3f ms, render "
               "%.3f ms) waiting 0.000 ms; free run: %.1f fps, upload %.3f ms, draw %.3f ms, "
               "%llu ticks in %.2f s\n",
               (long long)v->frame, v->fb_w, v->fb_h, samples, (int)mur_flock_view(v->flock).boids,
               fm, v->sim_ms, um + dm, 1000.0 / (fm > 0.0 ? fm : 1.0), um, dm,
               (unsigned long long)mur_flock_view(v->flock).tick, v->time);
    } else {
        /* the simulation overlaps the drawing: render = the frame minus the wait for the worker */
        printf("viewer: %lld frames %dx%d msaa=%d boids=%d: %.3f ms/frame (sim %.3f ms, render "
               "%.3f ms) waiting %.3f ms; upload %.3f ms, draw %.3f ms\n",
               (long long)v->frame, v->fb_w, v->fb_h, samples, (int)mur_flock_view(v->flock).boids,
               fm, sm, fm - wm, wm, um, dm);
    }
    print_state(v);
}

int mur_viewer_main(const mur_cli *cli, mur_flock *flock)
{
    mur_key_event *keys = NULL;
    int nkeys = 0;
    char err[512];
    if (!mur_keyscript_parse(cli->keys, &keys, &nkeys, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    const char *clk = getenv("MURMUR_VIEWER_CLOCK");
    if (clk && strcmp(clk, "real") != 0 && strcmp(clk, "frames") != 0) {
        fprintf(stderr, "murmur: MURMUR_VIEWER_CLOCK=%s: allowed: real, frames\n", clk);
        free(keys);
        return MUR_EXIT_USAGE;
    }
    int width = cli->width > 0 ? cli->width : 1280, height = cli->height > 0 ? cli->height : 720;
    GLFWwindow *win = open_window(width, height);
    if (!win) {
        free(keys);
        return MUR_EXIT_USAGE;
    }
#ifndef NDEBUG
    mur_gl_debug_enable();
#endif
    glfwSwapInterval(cli->vsync ? 1 : 0);

    viewer *v = calloc(1, sizeof *v);
    int status = MUR_EXIT_USAGE;
    if (!v) {
        fprintf(stderr, "murmur: out of memory\n");
        goto done;
    }
    v->cli = cli;
    v->flock = flock;
    v->win = win;
    viewer_pick_init(v);
    viewer_mouse_init(v);
    if (!setup(v))
        goto done;
    v->sim = mur_sim_start(flock);
    if (!v->sim) {
        fprintf(stderr, "murmur: cannot start the simulation thread\n");
        viewer_stop_recording(v, 0);
        goto done;
    }
    status = run(v, keys, nkeys);
    mur_sim_stop(v->sim);
    v->sim = NULL;
    if (v->scripted)
        print_summary(v);
    status = mur_outputs_close(cli, flock, &v->metrics, status, NULL);
done:
    if (v) {
        mur_sim_stop(v->sim);
        mur_out_abort_all(); /* what was not committed above: the run failed */
        viewer_record_free(v);
        viewer_camera_free(&v->camera);
        viewer_panel_destroy(v);
        mur_hud_destroy(v->hud);
        mur_renderer_destroy(v->renderer);
    }
    free(v);
    free(keys);
    glfwDestroyWindow(win);
    glfwTerminate();
    fflush(stdout);
    return status;
}
