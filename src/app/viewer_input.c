/* Keys and mouse -> library setters, camera moves and display toggles. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "viewer.h"

static const viewer_help_line HELP[] = {
    {"Space", "pause / resume the simulation"},
    {".", "one tick (while paused)"},
    {"[  ]", "simulation slower / faster"},
    {"P", "perching on / off"},
    {"K", "predators on / off (adds 3 if there are none)"},
    {"G", "goal on / off"},
    {"click", "on the ground: move the goal there (and turn it on)"},
    {"W", "wind on / off"},
    {"S", "scatter on / off"},
    {"B", "bounds mode: soft > wrap > bounce > none"},
    {"A", "view cone on / off (360 deg = all round)"},
    {"=  -", "boids x2 / /2 (also keypad + -)"},
    {"R", "reset: new boids from a new seed"},
    {"Up  Down", "select a parameter"},
    {"Left  Right", "decrease / increase it (Shift: bigger steps)"},
    {"C", "colour by state / by speed"},
    {"O", "world box outline on / off"},
    {"F", "camera follows the flock centre"},
    {"Home", "reset the view"},
    {"left drag", "orbit"},
    {"right drag", "pan (or Shift + left drag)"},
    {"wheel", "zoom"},
    {"Tab", "hide / show the HUD"},
    {"M", "live plots of the last minute: diameter, polarisation, neighbours, groups, perching"},
    {"H  F1", "this help"},
    {"F12", "save a screenshot (PNG, timestamped name)"},
    {"V", "start / stop recording a video (timestamped name, no HUD)"},
    {"Esc  Q", "quit"},
};

const viewer_help_line *viewer_help(int *count)
{
    *count = (int)(sizeof HELP / sizeof HELP[0]);
    return HELP;
}

void viewer_message(viewer *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_until = v->time + 3.0;
    if (v->scripted)
        printf("viewer: frame %lld: %s\n", (long long)v->frame, v->message);
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
    mur_error err = {{0}};
    if (mur_flock_set(v->flock, p->name, buf, &err))
        viewer_message(v, "%s = %s %s", p->name, buf, p->unit);
    else
        viewer_message(v, "%s", err.msg);
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
    mur_error err = {{0}};
    if (mur_flock_set_boid_count(v->flock, (int32_t)n, &err))
        viewer_message(v, "boids: %lld", (long long)n);
    else
        viewer_message(v, "%s", err.msg);
}

static void reset_flock(viewer *v)
{
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

static void toggle_cone(viewer *v)
{
    mur_flock_def def = mur_flock_get_def(v->flock);
    char buf[32];
    if (def.view_angle < 360.0f) {
        v->saved_view_angle = def.view_angle;
        snprintf(buf, sizeof buf, "360");
    } else {
        snprintf(buf, sizeof buf, "%g", v->saved_view_angle < 360.0f ? v->saved_view_angle : 270.0);
    }
    mur_error err = {{0}};
    if (mur_flock_set(v->flock, "view_angle", buf, &err))
        viewer_message(v, "view cone: %s deg", buf);
    else
        viewer_message(v, "%s", err.msg);
}

void viewer_key(viewer *v, int key, int mods)
{
    mur_flock *f = v->flock;
    mur_flock_def def = mur_flock_get_def(f);
    bool shift = (mods & GLFW_MOD_SHIFT) != 0;
    v->flock_dirty = true; /* upload the state again even without a tick (paused) */
    switch (key) {
    case GLFW_KEY_SPACE:
        v->paused = !v->paused;
        v->acc = 0.0;
        viewer_message(v, v->paused ? "paused" : "running");
        break;
    case GLFW_KEY_PERIOD:
        if (!v->paused) {
            v->paused = true;
            viewer_message(v, "paused");
        }
        v->step_once++;
        break;
    case GLFW_KEY_LEFT_BRACKET:
    case GLFW_KEY_RIGHT_BRACKET:
        v->speed *= key == GLFW_KEY_RIGHT_BRACKET ? 2.0 : 0.5;
        v->speed = fmin(fmax(v->speed, 1.0 / 64.0), 16.0);
        viewer_message(v, "simulation speed x%g", v->speed);
        break;
    case GLFW_KEY_P:
        mur_flock_set_perch(f, !def.perch);
        viewer_message(v, "perching %s", onoff(!def.perch));
        break;
    case GLFW_KEY_K: {
        mur_view view = mur_flock_view(f);
        bool on = !(view.predators_on && view.predators > 0);
        mur_error err = {{0}};
        if (on && view.predators == 0 && !mur_flock_set_predator_count(f, 3, &err)) {
            viewer_message(v, "%s", err.msg);
            break;
        }
        mur_flock_set_predators_on(f, on);
        viewer_message(v, "predators %s (%d)", onoff(on), (int)mur_flock_view(f).predators);
        break;
    }
    case GLFW_KEY_G:
        mur_flock_set_goal(f, !def.goal, NULL);
        viewer_message(v, "goal %s", onoff(!def.goal));
        break;
    case GLFW_KEY_W:
        mur_flock_set_wind(f, !def.wind, NULL);
        viewer_message(v, "wind %s", onoff(!def.wind));
        break;
    case GLFW_KEY_S:
        mur_flock_set_scatter(f, !def.scatter);
        viewer_message(v, "scatter %s", onoff(!def.scatter));
        break;
    case GLFW_KEY_B: {
        mur_bounds b = (mur_bounds)(((int)def.bounds + 1) % (int)MUR_BOUNDS_COUNT);
        mur_flock_set_bounds(f, b);
        viewer_message(v, "bounds: %s", mur_bounds_name(b));
        break;
    }
    case GLFW_KEY_A:
        toggle_cone(v);
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        set_boids(v, def.boids == 0 ? 100 : (int64_t)def.boids * 2);
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        set_boids(v, def.boids / 2);
        break;
    case GLFW_KEY_R:
        reset_flock(v);
        break;
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN: {
        int n = viewer_param_count();
        if (n > 0) {
            v->param_sel = (v->param_sel + (key == GLFW_KEY_DOWN ? 1 : n - 1)) % n;
            const mur_param *p = viewer_param(v->param_sel);
            char buf[128] = "";
            viewer_param_value(&def, p, buf, sizeof buf);
            viewer_message(v, "selected %s = %s %s", p->name, buf, p->unit);
        }
        break;
    }
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
        nudge(v, key == GLFW_KEY_RIGHT ? 1 : -1, shift);
        break;
    case GLFW_KEY_C:
        v->color_by_speed = !v->color_by_speed;
        viewer_message(v, "colour by %s", v->color_by_speed ? "speed" : "state");
        break;
    case GLFW_KEY_O:
        v->show_box = !v->show_box;
        viewer_message(v, "world box %s", onoff(v->show_box));
        break;
    case GLFW_KEY_F:
        mur_camera_set_follow(&v->cam, !v->cam.follow);
        viewer_message(v, "follow flock %s", onoff(v->cam.follow));
        break;
    case GLFW_KEY_HOME:
        mur_camera_reset(&v->cam);
        viewer_message(v, "view reset");
        break;
    case GLFW_KEY_TAB:
        v->show_hud = !v->show_hud;
        break;
    case GLFW_KEY_M:
        v->show_plots = !v->show_plots;
        if (v->show_plots)
            v->show_hud = true;
        viewer_message(v, "live plots %s", v->show_plots ? "on" : "off");
        break;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
        v->show_help = !v->show_help;
        break;
    case GLFW_KEY_F12:
        v->want_screenshot = true;
        break;
    case GLFW_KEY_V:
        v->want_record_toggle = true;
        break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
        v->quit = true;
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------------ mouse */

static void move_goal_to_cursor(viewer *v, double x, double y)
{
    /* cursor positions are in window coordinates; the camera works in framebuffer pixels */
    float sx = v->win_w > 0 ? (float)v->fb_w / (float)v->win_w : 1.0f;
    float sy = v->win_h > 0 ? (float)v->fb_h / (float)v->win_h : 1.0f;
    vec3 o, d, hit;
    mur_camera_ray(&v->cam, (float)x * sx, (float)y * sy, v->fb_w, v->fb_h, o, d);
    mur_flock_def def = mur_flock_get_def(v->flock);
    if (!mur_ray_hit_plane_y(o, d, def.ground, hit)) {
        viewer_message(v, "click on the ground to move the goal");
        return;
    }
    /* keep the goal's height: the ground point says where, the height stays where birds fly */
    float pos[3] = {hit[0], def.goal_pos[1], hit[2]};
    mur_flock_set_goal(v->flock, true, pos);
    v->flock_dirty = true;
    viewer_message(v, "goal at %.1f, %.1f, %.1f", (double)pos[0], (double)pos[1], (double)pos[2]);
}

void viewer_mouse_button(viewer *v, int button, bool down, int mods)
{
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        if (down) {
            v->left_down = true;
            v->dragged = false;
            v->press_x = v->mouse_x;
            v->press_y = v->mouse_y;
            v->right_down = v->right_down || (mods & GLFW_MOD_SHIFT);
        } else {
            if (v->left_down && !v->dragged && !(mods & GLFW_MOD_SHIFT))
                move_goal_to_cursor(v, v->mouse_x, v->mouse_y);
            v->left_down = false;
            v->right_down = false;
        }
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
        v->right_down = down;
    }
}

void viewer_cursor(viewer *v, double x, double y)
{
    double dx = x - v->mouse_x, dy = y - v->mouse_y;
    v->mouse_x = x;
    v->mouse_y = y;
    if (!v->left_down && !v->right_down)
        return;
    if (fabs(x - v->press_x) + fabs(y - v->press_y) > 4.0)
        v->dragged = true;
    if (!v->dragged)
        return;
    float h = (float)(v->win_h > 0 ? v->win_h : 1);
    if (v->right_down) {
        mur_camera_pan(&v->cam, (float)dx / h, -(float)dy / h);
    } else {
        /* a drag across the window height turns the view about 200 degrees */
        float k = 3.5f / h;
        mur_camera_orbit(&v->cam, -(float)dx * k, (float)dy * k);
    }
}

void viewer_scroll(viewer *v, double dy)
{
    mur_camera_zoom(&v->cam, (float)dy);
}
