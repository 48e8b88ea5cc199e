/* The viewer's bindings: ONE table of keys (and the mouse gestures, for the help) with the help
 * text and the action of each. It drives the key handler, the help overlay (H) and the generated
 * key and mouse tables of docs/controls.md (murmur --list-keys=markdown). */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scene.h"
#include "viewer.h"
#include "viewer_main.h"

void viewer_message(viewer *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_until = v->time + 3.0;
    if (v->scripted)
        printf("viewer: frame %lld: %s\n", (long long)v->input_frame, v->message);
}

/* A setter's outcome in the HUD: what was done, or the library's reason. */
static void report(viewer *v, bool ok, const mur_error *err, const char *done)
{
    viewer_message(v, "%s", ok ? done : err->msg);
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
    const mur_param *p = viewer_param(v->param_sel);
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
        mur_camera_scale(&v->cam, (float)(k1 / k0));
        v->boid_size = mur_boid_size(&after);
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
        viewer_message(v, "reset: %d boids, seed %llu", (int)n, (unsigned long long)seed);
    else
        viewer_message(v, "reset failed: %s", err.msg);
}

static void act_cone(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[32];
    if (def.view_angle < 360.0f) {
        v->saved_view_angle = def.view_angle;
        snprintf(buf, sizeof buf, "360");
    } else {
        snprintf(buf, sizeof buf, "%g", v->saved_view_angle < 360.0f ? v->saved_view_angle : 270.0);
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
    v->paused = !v->paused;
    v->acc = 0.0;
    viewer_message(v, v->paused ? "paused" : "running");
}

static void act_step(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    if (!v->paused) {
        v->paused = true;
        viewer_message(v, "paused");
    }
    v->step_once++;
}

static void act_speed(viewer *v, int key, int mods)
{
    (void)mods;
    v->speed *= key == GLFW_KEY_RIGHT_BRACKET ? 2.0 : 0.5;
    v->speed = fmin(fmax(v->speed, 1.0 / 64.0), 16.0);
    viewer_message(v, "simulation speed x%g", v->speed);
}

/* P, G, W, S: the flock's switches */
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
    } else {
        what = "scatter";
        mur_flock_set_scatter(v->flock, on = !d.scatter);
    }
    viewer_message(v, "%s %s", what, onoff(on));
}

/* C, O, Tab, M, H/F1: what the viewer shows */
static void act_show(viewer *v, int key, int mods)
{
    (void)mods;
    switch (key) {
    case GLFW_KEY_C:
        v->color_by_speed = !v->color_by_speed;
        viewer_message(v, "colour by %s", v->color_by_speed ? "speed" : "state");
        break;
    case GLFW_KEY_O:
        v->show_box = !v->show_box;
        viewer_message(v, "world box %s", onoff(v->show_box));
        break;
    case GLFW_KEY_TAB:
        v->show_hud = !v->show_hud;
        break;
    case GLFW_KEY_E:
        if (!viewer_panel_available()) {
            viewer_message(v, "this build has no parameter panel (built without Dear ImGui, libimgui-dev)");
            break;
        }
        v->show_panel = !v->show_panel;
        v->show_hud = v->show_hud || v->show_panel;
        viewer_message(v, "parameter panel %s", onoff(v->show_panel));
        break;
    case GLFW_KEY_D:
        v->show_axes = !v->show_axes;
        mur_flock_set_group_shape(v->flock, v->show_axes); /* the worker is idle while keys are handled */
        v->show_hud = v->show_hud || v->show_axes; /* the metrics are measured while the HUD shows */
        viewer_message(v, "principal axes of the biggest group %s", onoff(v->show_axes));
        break;
    case GLFW_KEY_M:
        v->show_plots = !v->show_plots;
        v->show_hud = v->show_hud || v->show_plots;
        viewer_message(v, "live plots %s", onoff(v->show_plots));
        break;
    default:
        v->show_help = !v->show_help;
    }
}

/* F, Home: the camera */
static void act_camera(viewer *v, int key, int mods)
{
    (void)mods;
    if (key == GLFW_KEY_F) {
        mur_camera_set_follow(&v->cam, !v->cam.follow);
        viewer_message(v, "follow the biggest group %s", onoff(v->cam.follow));
    } else if (key == GLFW_KEY_J) {
        v->watch = v->selected >= 0 ? (v->watch + 1) % 3 : 0;
        if (v->watch)
            viewer_message(v, "%s boid %d", v->watch == 1 ? "watching" : "riding with", (int)v->selected);
        else
            viewer_message(v, "%s", v->selected < 0 ? "click a bird first, then J watches it" : "watching off");
    } else if (key == GLFW_KEY_T) {
        viewer_trails_cycle(v);
    } else if (key == GLFW_KEY_I) {
        char flags[200];
        mur_cam_flags(&v->cam, flags, sizeof flags);
        printf("murmur: camera %s\n", flags);
        fflush(stdout);
        if (v->win)
            glfwSetClipboardString(v->win, flags);
        viewer_message(v, "camera (copied): %s", flags);
    } else {
        mur_camera_reset(&v->cam);
        viewer_message(v, "view reset");
    }
}

/* F12, V, Esc/Q: requests the loop carries out after the inputs */
static void act_request(viewer *v, int key, int mods)
{
    (void)mods;
    if (key == GLFW_KEY_F12)
        v->want_screenshot = true;
    else if (key == GLFW_KEY_V)
        v->want_record_toggle = true;
    else
        v->quit = true;
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
        viewer_message(v, "%s", err.msg);
        return;
    }
    mur_flock_set_predators_on(f, on);
    viewer_message(v, "predators %s (%d)", onoff(on), (int)mur_flock_view(f).predators);
}

static void act_mouse_predator(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    viewer_mouse_predator_toggle(v, v->mouse_pred < 0);
}

static void act_bounds(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    mur_bounds b = (mur_bounds)(((int)mur_flock_get_def(v->flock).bounds + 1) % (int)MUR_BOUNDS_COUNT);
    mur_flock_set_bounds(v->flock, b);
    viewer_message(v, "bounds: %s", mur_bounds_name(b));
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
void viewer_apply_preset(viewer *v, int i)
{
    mur_error err = {{0}};
    if (!mur_flock_apply_preset(v->flock, mur_preset_name(i), 0, &err)) {
        viewer_message(v, "%s", err.msg);
        return;
    }
    snprintf(v->preset, sizeof v->preset, "%s", mur_preset_name(i));
    v->flock_dirty = true; /* boids were moved: upload them again even without a tick (paused) */
    const mur_flock_def d = mur_flock_get_def(v->flock);
    char what[160];
    describe_world(&d, what, sizeof what);
    viewer_message(v, "preset %s: %s", mur_preset_name(i), what);
}

/* N: the next preset */
static void act_preset(viewer *v, int key, int mods)
{
    (void)key;
    (void)mods;
    int n = mur_preset_count(), next = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(mur_preset_name(i), v->preset) == 0)
            next = (i + 1) % n;
    viewer_apply_preset(v, next);
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
    v->param_sel = (v->param_sel + (key == GLFW_KEY_DOWN ? 1 : n - 1)) % n;
    const mur_param *p = viewer_param(v->param_sel);
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[128] = "";
    viewer_param_value(&def, p, buf, sizeof buf);
    viewer_message(v, "selected %s = %s %s", p->name, buf, p->unit);
}

static void act_nudge(viewer *v, int key, int mods)
{
    nudge(v, key == GLFW_KEY_RIGHT ? 1 : -1, (mods & GLFW_MOD_SHIFT) != 0);
}

/* ------------------------------------------------------------------ the table */

#define K(...) {__VA_ARGS__, 0}
static const viewer_binding BINDINGS[] = {
    {K(GLFW_KEY_SPACE), 0, false, "Space", "pause / resume the simulation", NULL, act_pause},
    {K(GLFW_KEY_PERIOD), 0, true, ".", "one tick (while paused)", "pauses first if running; repeats while held",
     act_step},
    {K(GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET), 0, false, "[  ]", "simulation slower / faster",
     "half / twice as fast, x1/64 .. x16 of real time", act_speed},
    {K(GLFW_KEY_P), 0, false, "P", "perching on / off", "off releases every perched boid", act_switch},
    {K(GLFW_KEY_K), 0, false, "K", "predators on / off (adds 3 if there are none)",
     "off hides them and on restores them", act_predators},
    {K(GLFW_KEY_X), 0, false, "X", "hold: the cursor is a predator",
     "one more predator, placed every frame where the cursor's ray meets the plane of the camera's target; "
     "boids flee it; released, it is removed (in a `--keys` script X toggles it)",
     act_mouse_predator},
    {K(GLFW_KEY_G), 0, false, "G", "goal on / off", "the goal is a yellow cross with a ring on the ground below it",
     act_switch},
    {K(0), 0, false, "click", "on a bird: select it; on the ground: move the goal there (and turn it on)",
     "a left click without a drag, within 12 pixels of a bird: the neighbours its rules use (within `view_radius`, "
     "inside the view cone; in topological mode the `topo_k` nearest of those) get cyan marks, its view radius a dotted ring, its heading a dotted line, its view cone four "
     "dotted edges, and its speed "
     "and neighbour count show next to it (scripted: `--keys \"5:Click@XxY\"`); elsewhere on the ground the "
     "goal moves there, keeping its height, and the selection ends", NULL},
    {K(GLFW_KEY_W), 0, false, "W", "wind on / off", "blows with `wind_vel`", act_switch},
    {K(GLFW_KEY_S), 0, false, "S", "scatter on / off", "negated cohesion", act_switch},
    {K(GLFW_KEY_N), 0, false, "N", "next preset: classic > starling > vision-report",
     "sets that preset's parameters and boid count live; the boids fly on from where they are, brought into its world", act_preset},
    {K(GLFW_KEY_B), 0, false, "B", "bounds mode: soft > wrap > bounce > none", "and back to soft", act_bounds},
    {K(GLFW_KEY_A), 0, false, "A", "view cone on / off (360 deg = all round)",
     "back to the previous angle, 270 if there was none", act_cone},
    {K(GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT), 0, false, "=  -",
     "boids x2 / /2 (also keypad + -)", "without a restart; new boids start at seeded random places", act_boids},
    {K(GLFW_KEY_R), 0, false, "R", "reset: new boids from a new seed",
     "same counts and parameters; the seed is shown in the HUD", act_reset},
    {K(GLFW_KEY_UP, GLFW_KEY_DOWN), 0, true, "Up  Down", "select a parameter",
     "a live one from the library's parameter table, shown in the HUD", act_select},
    {K(GLFW_KEY_LEFT, GLFW_KEY_RIGHT), 0, true, "Left  Right", "decrease / increase it (Shift: bigger steps)",
     "floats by a factor 1.1 (Shift: 2), whole numbers by 10% (at least 1); the library checks the value",
     act_nudge},
    {K(GLFW_KEY_C), 0, false, "C", "colour by state / by speed",
     "state: flying amber, perching green, predators red; speed: blue slow .. red fast", act_show},
    {K(GLFW_KEY_O), 0, false, "O", "world box outline on / off", NULL, act_show},
    {K(GLFW_KEY_F), 0, false, "F", "camera follows the biggest group, framed by its size",
     "the wheel zooms relative to that framing; panning stops following", act_camera},
    {K(GLFW_KEY_I), 0, false, "I", "print and copy the camera as flags",
     "`--camera-pos X,Y,Z --look-at X,Y,Z --fov DEG` on stdout and in the clipboard: the same view again "
     "with `murmur ... FLAGS`",
     act_camera},
    {K(GLFW_KEY_J), 0, false, "J", "watch the selected bird > ride behind it > off",
     "watching: the camera's target follows it, orbit and zoom work around it; riding: the camera flies a "
     "few body lengths behind and above it, looking ahead; a click away from birds also stops", act_camera},
    {K(GLFW_KEY_T), 0, false, "T", "trails: off > the selected bird > a sample of 24 birds",
     "fading paths of the last 90 frames", act_camera},
    {K(GLFW_KEY_HOME), 0, false, "Home", "reset the view", "also stops following", act_camera},
    {K(0), 0, false, "left drag", "orbit", "the latitude stops short of the poles", NULL},
    {K(0), 0, false, "right drag", "pan (or Shift + left drag)", "the middle button pans too", NULL},
    {K(0), 0, false, "wheel", "zoom", "each notch moves 12% of the distance, so it feels the same near and far",
     NULL},
    {K(GLFW_KEY_TAB), 0, false, "Tab", "hide / show the HUD and the parameter panel", NULL, act_show},
    {K(GLFW_KEY_E), 0, false, "E", "parameter panel on / off (mouse: sliders, toggles, presets, counts, pause, speed)",
     "every live parameter from the library's table with its unit, range and meaning as a tooltip; shown at "
     "start in interactive runs, not in scripted ones (`--frames`); never drawn into a recording; needs "
     "Dear ImGui (libimgui-dev) at build time",
     act_show},
    {K(GLFW_KEY_M), 0, false, "M", "live plots of the last simulated minute: diameter, polarisation, neighbours, groups, perching",
     "of simulated time, sampled every 0.25 simulated seconds (scripted runs reproduce), each graph scaled "
     "to its own maximum", act_show},
    {K(GLFW_KEY_D), 0, false, "D", "principal axes of the biggest group on / off (thin magenta, mid green, long cyan)",
     "lines through the group's centre along its principal axes, as long as its extents (2 sqrt(3 lambda) of the "
     "position covariance); the HUD gives the extents' ratios, the thin axis' angle to vertical and the "
     "group's polarisation (docs/murmuration.md compares them with starling flocks)", act_show},
    {K(GLFW_KEY_H, GLFW_KEY_F1), 0, false, "H  F1", "this help", NULL, act_show},
    {K(GLFW_KEY_F12), 0, false, "F12", "save a screenshot (PNG, timestamped name)",
     "`murmur-YYYYMMDD-HHMMSS-NNN.png` in the current folder; the path is printed", act_request},
    {K(GLFW_KEY_V), 0, false, "V", "start / stop recording a video (timestamped name, no HUD)",
     "`murmur-YYYYMMDD-HHMMSS.mp4`, or PNG frames in a folder of that name without ffmpeg; each frame "
     "advances `--ticks-per-frame` ticks (1 by default, dt unchanged) or follows `--speed`; a red REC mark "
     "with the video time and frame count shows in the window, never in the video; the HUD only with "
     "`--hud on` (see [recording.md](recording.md))",
     act_request},
    {K(GLFW_KEY_ESCAPE, GLFW_KEY_Q), 0, false, "Esc  Q", "quit", NULL, act_request},
};
#undef K

const viewer_binding *viewer_bindings(int *count)
{
    *count = (int)(sizeof BINDINGS / sizeof BINDINGS[0]);
    return BINDINGS;
}

/* The binding of a key with these modifiers held: the first row with the key whose required
 * modifiers are all held. */
static const viewer_binding *binding_of(int key, int mods)
{
    for (size_t i = 0; i < sizeof BINDINGS / sizeof BINDINGS[0]; i++) {
        const viewer_binding *b = &BINDINGS[i];
        if (!b->action || (mods & b->mods) != b->mods)
            continue;
        for (const int *k = b->keys; *k; k++)
            if (*k == key)
                return b;
    }
    return NULL;
}

void viewer_key(viewer *v, int key, int mods, bool repeat)
{
    const viewer_binding *b = binding_of(key, mods);
    if (repeat && !(b && b->repeat))
        return;
    v->flock_dirty = true; /* upload the state again even without a tick (paused) */
    if (b)
        b->action(v, key, mods);
}

/* ------------------------------------------------------------------ murmur --list-keys */

/* "H  F1" -> "`H`, `F1`" for keys; mouse gestures stay plain words */
static void print_label(const viewer_binding *b)
{
    if (!b->action) {
        fputs(b->label, stdout);
        return;
    }
    const char *p = b->label;
    bool first = true;
    while (*p) {
        const char *end = strstr(p, "  ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        printf("%s`%.*s`", first ? "" : ", ", (int)n, p);
        first = false;
        p += n;
        while (*p == ' ')
            p++;
    }
}

static void print_table(bool keys)
{
    int n;
    const viewer_binding *b = viewer_bindings(&n);
    printf("| %s | action |\n| --- | --- |\n", keys ? "key" : "input");
    for (int i = 0; i < n; i++) {
        if ((b[i].action != NULL) != keys)
            continue;
        fputs("| ", stdout);
        print_label(&b[i]);
        printf(" | %s%s%s |\n", b[i].help, b[i].detail ? "; " : "", b[i].detail ? b[i].detail : "");
    }
}

void mur_bindings_print(bool markdown)
{
    if (markdown) {
        puts("<!-- generated by `murmur --list-keys=markdown` from the viewer's binding table (src/app/bindings.c);\n"
             "     tests/docs_test.py fails when this part is stale and rewrites it with --update -->\n"
             "## Keys\n");
        print_table(true);
        puts("\n## Mouse\n");
        print_table(false);
        puts("<!-- end of the generated part -->");
        return;
    }
    int n;
    const viewer_binding *b = viewer_bindings(&n);
    for (int i = 0; i < n; i++)
        printf("%-12s %s\n", b[i].label, b[i].help);
}
