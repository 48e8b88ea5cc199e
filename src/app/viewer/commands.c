/* The viewer's commands: what a key of the bindings table (bindings.c) asks for, invoked by name
 * through viewer_command (commands.h), and the preset switch that the panel's request also takes
 * (through the loop). A command changes the flock (the worker is idle while inputs are applied) or
 * what the viewer shows (viewer_display and viewer_cmds are this file's), asks the owners of the run
 * state (viewer_run.c), the camera (viewer_camera.c), the trails, the mouse and the panel through
 * their functions, or leaves a request for the loop (a screenshot, a recording, quit:
 * viewer_take_requests); it tells the user through the message line (msg.h) and never calls back
 * into the table. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "scene.h"
#include "viewer.h"

/* A setter's outcome in the HUD: what was done, or the library's reason. */
static void report(viewer *v, bool ok, const mur_error *err, const char *done)
{
    mur_msg(&v->msg, "%s", ok ? done : err->msg);
}

/* ------------------------------------------------------------------ parameter nudging */

static bool nudgeable(const mur_param *p)
{
    return p->live && (p->type == MUR_PT_FLOAT || p->type == MUR_PT_INT)
           && strcmp(p->name, "boids") != 0 && strcmp(p->name, "predators") != 0;
}

int viewer_param_count(void)
{
    int n = 0;
    for (int i = 0; i < mur_param_count(); i++)
        n += nudgeable(mur_param_at(i));
    return n;
}

const mur_param *viewer_param(int k)
{
    for (int i = 0; i < mur_param_count(); i++) {
        const mur_param *p = mur_param_at(i);
        if (nudgeable(p) && k-- == 0)
            return p;
    }
    return NULL;
}

void viewer_param_value(const mur_flock_def *def, const mur_param *p, char *buf, size_t len)
{
    if (!mur_def_get(def, p->name, buf, len)) {
        snprintf(buf, len, "?");
        return;
    }
    if (p->type == MUR_PT_FLOAT)
        snprintf(buf, len, "%.4g", strtod(buf, NULL));
}

static void nudge(viewer *v, int dir, bool big)
{
    const mur_param *p = viewer_param(v->display.param_sel);
    if (!p)
        return;
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[128];
    if (!mur_def_get(&def, p->name, buf, sizeof buf))
        return;
    double x = strtod(buf, NULL), y;
    if (p->type == MUR_PT_INT) {
        double step = fmax(1.0, floor(fabs(x) * (big ? 0.5 : 0.1)));
        y = x + dir * step;
    } else {
        double f = big ? 2.0 : 1.1;
        if (x == 0.0) {
            double span = isfinite(p->max - p->min) && p->max - p->min < 1e5 ? p->max - p->min
                                                                            : 1.0;
            y = dir > 0 ? span * (big ? 0.1 : 0.01) : 0.0;
        } else {
            y = dir > 0 ? x * f : x / f;
        }
    }
    if (y > p->max)
        y = p->max;
    if (y < p->min || (p->min_open && y <= p->min))
        y = x;
    if (p->type == MUR_PT_INT)
        snprintf(buf, sizeof buf, "%.0f", y);
    else
        snprintf(buf, sizeof buf, "%.4g", y);
    char done[300];
    snprintf(done, sizeof done, "%s = %s %s", p->name, buf, p->unit);
    mur_error err = {{0}};
    report(v, mur_flock_set(v->flock, p->name, buf, &err), &err, done);
}

/* ------------------------------------------------------------------ actions */

static const char *onoff(bool b)
{
    return b ? "on" : "off";
}

static void set_boids(viewer *v, int64_t n)
{
    if (n < 0)
        n = 0;
    if (n > MUR_MAX_BOIDS)
        n = MUR_MAX_BOIDS;
    char done[64];
    snprintf(done, sizeof done, "boids: %lld", (long long)n);
    mur_error err = {{0}};
    const mur_flock_def before = mur_flock_get_def(v->flock);
    bool ok = mur_flock_set_boid_count(v->flock, (int32_t)n, &err);
    report(v, ok, &err, done);
    /* world=scale: the box grew or shrank with the count; the view and the birds' size follow */
    const mur_flock_def after = mur_flock_get_def(v->flock);
    const double k0 = mur_def_world_scale(&before), k1 = mur_def_world_scale(&after);
    if (ok && k1 != k0) {
        viewer_camera_scale(&v->camera, (float)(k1 / k0));
        v->display.boid_size = mur_boid_size(&after);
    }
}

static void act_reset(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_flock_def def = mur_flock_get_def(v->flock);
    int32_t n = def.boids, np = def.predators;
    /* a new seed that differs run to run but is shown, so the state can be reproduced */
    uint64_t seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)v->frame ^ (def.seed + 1);
    def.seed = seed;
    def.boids = 0;
    def.predators = 0;
    mur_error err = {{0}};
    bool ok = mur_flock_apply_def(v->flock, &def, &err) && mur_flock_set_boid_count(v->flock, n, &err)
              && mur_flock_set_predator_count(v->flock, np, &err);
    if (ok)
        mur_msg(&v->msg, "reset: %d boids, seed %llu", (int)n, (unsigned long long)seed);
    else
        mur_msg(&v->msg, "reset failed: %s", err.msg);
}

static void act_cone(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[32];
    if (def.view_angle < 360.0f) {
        v->cmds.saved_view_angle = def.view_angle;
        snprintf(buf, sizeof buf, "360");
    } else {
        snprintf(buf, sizeof buf, "%g", v->cmds.saved_view_angle < 360.0f ? v->cmds.saved_view_angle : 270.0);
    }
    char done[64];
    snprintf(done, sizeof done, "view cone: %s deg", buf);
    mur_error err = {{0}};
    report(v, mur_flock_set(v->flock, "view_angle", buf, &err), &err, done);
}


static void act_pause(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_msg(&v->msg, viewer_run_toggle(&v->run) ? "paused" : "running");
}

static void act_step(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    if (viewer_run_step(&v->run))
        mur_msg(&v->msg, "paused");
}

static void act_speed(viewer *v, int key, int mods)
{
    (void)mods;
    mur_msg(&v->msg, "simulation speed x%g", viewer_run_faster(&v->run, key == GLFW_KEY_RIGHT_BRACKET));
}

/* P, G, W, S, L: the flock's switches */
static void act_switch(viewer *v, int key, int mods)
{
    (void)mods;
    mur_flock_def d = mur_flock_get_def(v->flock);
    const char *what = "perching";
    bool on = !d.perch;
    if (key == GLFW_KEY_P) {
        mur_flock_set_perch(v->flock, on);
    } else if (key == GLFW_KEY_G) {
        what = "goal";
        mur_flock_set_goal(v->flock, on = !d.goal, NULL);
    } else if (key == GLFW_KEY_W) {
        what = "wind";
        mur_flock_set_wind(v->flock, on = !d.wind, NULL);
    } else if (key == GLFW_KEY_L) {
        const char *look = d.look == MUR_LOOK_DUSK ? "studio" : "dusk";
        mur_flock_set(v->flock, "look", look, NULL); /* drawing only: the simulation never reads it */
        mur_msg(&v->msg, "look %s", look);
        return;
    } else if (key == GLFW_KEY_Z) {
        what = "falcon";
        mur_error err = {{0}};
        if (!mur_flock_set(v->flock, "falcon", (on = !d.falcon) ? "on" : "off", &err)) {
            mur_msg(&v->msg, "%s", err.msg);
            return;
        }
    } else {
        what = "scatter";
        mur_flock_set_scatter(v->flock, on = !d.scatter);
    }
    mur_msg(&v->msg, "%s %s", what, onoff(on));
}

/* C, O, Tab, M, H/F1, Shift+Z: what the viewer shows */
static void act_show(viewer *v, int key, int mods)
{
    viewer_display *d = &v->display;
    if (key == GLFW_KEY_Z && (mods & GLFW_MOD_SHIFT)) {
        d->tint_alarm = !d->tint_alarm;
        mur_msg(&v->msg, "alarmed birds tinted %s", onoff(d->tint_alarm));
        return;
    }
    switch (key) {
    case GLFW_KEY_C:
        d->color_by_speed = !d->color_by_speed;
        mur_msg(&v->msg, "colour by %s", d->color_by_speed ? "speed" : "state");
        break;
    case GLFW_KEY_O:
        d->show_box = !d->show_box;
        mur_msg(&v->msg, "world box %s", onoff(d->show_box));
        break;
    case GLFW_KEY_TAB:
        d->show_hud = !d->show_hud;
        break;
    case GLFW_KEY_U:
        d->hud_full = !d->hud_full || !d->show_hud;
        d->show_hud = true;
        mur_msg(&v->msg, "HUD %s", d->hud_full ? "full (U: minimal)" : "minimal (U: full)");
        break;
    case GLFW_KEY_E: {
        if (!viewer_panel_available()) {
            mur_msg(&v->msg, "this build has no parameter panel (built without Dear ImGui, libimgui-dev)");
            break;
        }
        bool shown = viewer_panel_toggle(v);
        d->show_hud = d->show_hud || shown;
        mur_msg(&v->msg, "parameter panel %s", onoff(shown));
        break;
    }
    case GLFW_KEY_D:
        d->show_axes = !d->show_axes;
        mur_flock_set_group_shape(v->flock, d->show_axes); /* the worker is idle while keys are handled */
        d->show_hud = d->show_hud || d->show_axes; /* the metrics are measured while the HUD shows */
        mur_msg(&v->msg, "principal axes of the biggest group %s", onoff(d->show_axes));
        break;
    case GLFW_KEY_M:
        d->show_plots = !d->show_plots;
        d->show_hud = d->show_hud || d->show_plots;
        mur_msg(&v->msg, "live plots %s", onoff(d->show_plots));
        break;
    default:
        d->show_help = !d->show_help;
    }
}

/* F, Shift+F, Home: the camera */
static void act_camera(viewer *v, int key, int mods)
{
    if (key == GLFW_KEY_F && (mods & GLFW_MOD_SHIFT)) {
        v->camera.mode.falcon = !v->camera.mode.falcon;
        if (v->camera.mode.falcon)
            mur_camera_set_follow(&v->camera.cam, true);
        mur_msg(&v->msg, "follow the falcon and the flock %s", v->camera.mode.falcon ? "on" : "off (the flock only)");
    } else if (key == GLFW_KEY_F && v->camera.mode.falcon && v->camera.cam.follow) {
        v->camera.mode.falcon = false; /* from the falcon and the flock to the flock alone */
        mur_msg(&v->msg, "follow the biggest group on (Shift+F: the falcon too)");
    } else if (key == GLFW_KEY_F) {
        v->camera.mode.falcon = false;
        bool on = viewer_camera_follow_toggle(&v->camera);
        mur_msg(&v->msg, "follow the biggest group %s", on ? "on" : "off (F follows it again)");
    } else if (key == GLFW_KEY_J) {
        int watch = viewer_camera_watch_next(&v->camera, v->sel.bird >= 0);
        if (watch)
            mur_msg(&v->msg, "%s boid %d", watch == 1 ? "watching" : "riding with", (int)v->sel.bird);
        else
            mur_msg(&v->msg, "%s", v->sel.bird < 0 ? "click a bird first, then J watches it" : "watching off");
    } else if (key == GLFW_KEY_T) {
        viewer_trails_cycle(v);
    } else if (key == GLFW_KEY_Y) {
        viewer_trails_longer(v);
    } else if (key == GLFW_KEY_I) {
        char flags[200];
        mur_cam_flags(&v->camera.cam, flags, sizeof flags);
        printf("murmur: camera %s\n", flags);
        fflush(stdout);
        if (v->win)
            glfwSetClipboardString(v->win, flags);
        mur_msg(&v->msg, "camera (copied): %s", flags);
    } else {
        viewer_camera_reset(&v->camera);
        mur_msg(&v->msg, "view reset");
    }
}

/* F12, V, Esc/Q: requests the loop carries out after the inputs */
static void act_request(viewer *v, int key, int mods)
{
    (void)mods;
    if (key == GLFW_KEY_F12)
        v->cmds.asked.screenshot = true;
    else if (key == GLFW_KEY_V)
        v->cmds.asked.record_toggle = true;
    else
        v->cmds.asked.quit = true;
}

static void act_predators(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_flock *f = v->flock;
    mur_view view = mur_flock_view(f);
    bool on = !(view.predators_on && view.predators > 0);
    mur_error err = {{0}};
    if (on && view.predators == 0 && !mur_flock_set_predator_count(f, 3, &err)) {
        mur_msg(&v->msg, "%s", err.msg);
        return;
    }
    mur_flock_set_predators_on(f, on);
    mur_msg(&v->msg, "predators %s (%d)", onoff(on), (int)mur_flock_view(f).predators);
}

static void act_mouse_predator(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    viewer_mouse_predator_toggle(v, v->mouse.pred < 0);
}

static void act_bounds(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_bounds b = (mur_bounds)(((int)mur_flock_get_def(v->flock).bounds + 1) % (int)MUR_BOUNDS_COUNT);
    mur_flock_set_bounds(v->flock, b);
    mur_msg(&v->msg, "bounds: %s", mur_bounds_name(b));
}

/* What a switch set, for the message line: "2000 boids, world -60..60 x -5..60 x -60..60, soft walls"
 * (the geometry as the simulation uses it, mur_def_resolved), or the roost for a flock without walls. */
static void describe_world(const mur_flock_def *def, char *buf, size_t len)
{
    const mur_flock_def r = mur_def_resolved(def);
    if (r.bounds == MUR_BOUNDS_NONE && r.roost) {
        snprintf(buf, len, "%d boids, no walls, roost %g,%g,%g radius %g", (int)r.boids, (double)r.roost_pos[0],
                 (double)r.roost_pos[1], (double)r.roost_pos[2], (double)r.roost_radius);
        return;
    }
    snprintf(buf, len, "%d boids, world %g..%g x %g..%g x %g..%g, %s walls%s", (int)r.boids, (double)r.world_min[0],
             (double)r.world_max[0], (double)r.world_min[1], (double)r.world_max[1], (double)r.world_min[2],
             (double)r.world_max[2], mur_bounds_name(r.bounds), r.plane ? ", plane" : "");
}

/* A preset's parameters and boid count, live (mur_flock_apply_preset): the boids keep flying from where
 * they are, brought into the preset's world. */
bool viewer_apply_preset(viewer *v, int i)
{
    mur_error err = {{0}};
    if (!mur_flock_apply_preset(v->flock, mur_preset_name(i), 0, &err)) {
        mur_msg(&v->msg, "%s", err.msg);
        return false;
    }
    snprintf(v->cmds.preset, sizeof v->cmds.preset, "%s", mur_preset_name(i));
    const mur_flock_def d = mur_flock_get_def(v->flock);
    char what[160];
    describe_world(&d, what, sizeof what);
    mur_msg(&v->msg, "preset %s: %s", mur_preset_name(i), what);
    return true; /* boids were moved: the caller uploads them again even without a tick (paused) */
}

/* N: the next preset */
static void act_preset(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    int n = mur_preset_count(), next = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(mur_preset_name(i), v->cmds.preset) == 0)
            next = (i + 1) % n;
    (void)viewer_apply_preset(v, next); /* the key asked for an upload already (viewer_key) */
}

static void act_boids(viewer *v, int key, int mods)
{
    (void)mods;
    int32_t n = mur_flock_get_def(v->flock).boids;
    if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD)
        set_boids(v, n == 0 ? 100 : (int64_t)n * 2);
    else
        set_boids(v, n / 2);
}

static void act_select(viewer *v, int key, int mods)
{
    (void)mods;
    int n = viewer_param_count();
    if (n <= 0)
        return;
    v->display.param_sel = (v->display.param_sel + (key == GLFW_KEY_DOWN ? 1 : n - 1)) % n;
    const mur_param *p = viewer_param(v->display.param_sel);
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[128] = "";
    viewer_param_value(&def, p, buf, sizeof buf);
    mur_msg(&v->msg, "selected %s = %s %s", p->name, buf, p->unit);
}

static void act_nudge(viewer *v, int key, int mods)
{
    nudge(v, key == GLFW_KEY_RIGHT ? 1 : -1, (mods & GLFW_MOD_SHIFT) != 0);
}

/* ------------------------------------------------------------------ by name */

typedef void (*command_fn)(viewer *v, int key, int mods);
static const command_fn COMMANDS[VIEWER_CMD_COUNT] = {
    [VIEWER_CMD_PAUSE] = act_pause,       [VIEWER_CMD_STEP] = act_step,
    [VIEWER_CMD_SPEED] = act_speed,       [VIEWER_CMD_SWITCH] = act_switch,
    [VIEWER_CMD_PREDATORS] = act_predators, [VIEWER_CMD_MOUSE_PREDATOR] = act_mouse_predator,
    [VIEWER_CMD_PRESET] = act_preset,     [VIEWER_CMD_BOUNDS] = act_bounds,
    [VIEWER_CMD_CONE] = act_cone,         [VIEWER_CMD_BOIDS] = act_boids,
    [VIEWER_CMD_RESET] = act_reset,       [VIEWER_CMD_SELECT] = act_select,
    [VIEWER_CMD_NUDGE] = act_nudge,       [VIEWER_CMD_SHOW] = act_show,
    [VIEWER_CMD_CAMERA] = act_camera,     [VIEWER_CMD_REQUEST] = act_request,
};

/* ------------------------------------------------------------------ the commands' state */

void viewer_commands_init(viewer *v)
{
    const mur_cli *cli = v->cli;
    /* recordings show a clean frame: the HUD only with --hud on */
    v->display = (viewer_display){
        .show_hud = cli->hud_given ? cli->hud : !cli->record,
        .hud_full = cli->hud_given && cli->hud,
        .show_box = true,
        .tint_alarm = mur_tint_alarm_wanted(), /* Shift+Z's tint of the escaping birds, from the start */
    };
    const mur_flock_def def = mur_flock_get_def(v->flock);
    v->display.boid_size = mur_boid_size(&def);
    v->cmds = (viewer_cmds){.saved_view_angle = 270.0f};
    snprintf(v->cmds.preset, sizeof v->cmds.preset, "%s", cli->preset);
}

viewer_requests viewer_take_requests(viewer *v)
{
    viewer_requests r = v->cmds.asked;
    v->cmds.asked = (viewer_requests){0};
    return r;
}

void viewer_command(viewer *v, viewer_cmd cmd, int key, int mods)
{
    if (cmd > VIEWER_CMD_NONE && cmd < VIEWER_CMD_COUNT && COMMANDS[cmd])
        COMMANDS[cmd](v, key, mods);
}
