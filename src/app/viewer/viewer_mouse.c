/* The mouse in the viewer: orbit, pan, zoom (asked of the camera, viewer_camera.c), a click that
 * selects a bird (viewer_pick.c) or moves the goal, and the cursor's predator (X). viewer_mouse is
 * this file's; what changed the flock is returned, for the loop to upload it again. The gestures are
 * listed with the keys in the binding table (bindings.c) for the help and the docs. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>

#include "viewer.h"


static bool move_goal_to_cursor(viewer *v, double x, double y)
{
    /* cursor positions are in window coordinates; the camera works in framebuffer pixels */
    float sx = v->win_w > 0 ? (float)v->fb_w / (float)v->win_w : 1.0f;
    float sy = v->win_h > 0 ? (float)v->fb_h / (float)v->win_h : 1.0f;
    vec3 o, d, hit;
    mur_camera_ray(&v->camera.cam, (float)x * sx, (float)y * sy, v->fb_w, v->fb_h, o, d);
    const mur_flock_def given = mur_flock_get_def(v->flock);
    const mur_flock_def def = mur_def_resolved(&given); /* world=scale: where the flock flies */
    if (!mur_ray_hit_plane_y(o, d, def.ground, hit)) {
        mur_msg(&v->msg, "click on the ground to move the goal");
        return false;
    }
    /* keep the goal's height: the ground point says where, the height stays where birds fly */
    float pos[3] = {hit[0], def.goal_pos[1], hit[2]};
    /* the def holds the goal as given: for world=scale, at the reference count */
    const float k = (float)mur_def_world_scale(&given);
    const float given_pos[3] = {pos[0] / k, given.goal_pos[1], pos[2] / k};
    mur_flock_set_goal(v->flock, true, given_pos);
    mur_msg(&v->msg, "goal at %.1f, %.1f, %.1f", (double)pos[0], (double)pos[1], (double)pos[2]);
    return true;
}

void viewer_mouse_init(viewer *v)
{
    v->mouse.pred = -1;
    glfwGetCursorPos(v->win, &v->mouse.x, &v->mouse.y);
}

bool viewer_mouse_click(viewer *v, double x, double y, int mods)
{
    v->mouse.x = x;
    v->mouse.y = y;
    bool changed = viewer_mouse_button(v, GLFW_MOUSE_BUTTON_LEFT, true, mods);
    changed = viewer_mouse_button(v, GLFW_MOUSE_BUTTON_LEFT, false, mods) || changed;
    return changed;
}

bool viewer_mouse_button(viewer *v, int button, bool down, int mods)
{
    bool changed = false;
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        if (down) {
            v->mouse.left_down = true;
            v->mouse.dragged = false;
            v->mouse.press_x = v->mouse.x;
            v->mouse.press_y = v->mouse.y;
            v->mouse.right_down = v->mouse.right_down || (mods & GLFW_MOD_SHIFT);
        } else {
            /* a click: on a bird selects it, elsewhere moves the goal (and deselects) */
            if (v->mouse.left_down && !v->mouse.dragged && !(mods & GLFW_MOD_SHIFT)
                && !viewer_pick(v, v->mouse.x, v->mouse.y))
                changed = move_goal_to_cursor(v, v->mouse.x, v->mouse.y);
            v->mouse.left_down = false;
            v->mouse.right_down = false;
        }
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
        v->mouse.right_down = down;
    }
    return changed;
}

bool viewer_mouse_release_click(viewer *v, int button, int mods)
{
    bool click = button == GLFW_MOUSE_BUTTON_LEFT && v->mouse.left_down && !v->mouse.dragged
                 && !(mods & GLFW_MOD_SHIFT);
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        v->mouse.left_down = false;
    v->mouse.right_down = false; /* as viewer_mouse_button: a left release ends a Shift-drag too */
    return click;
}

void viewer_cursor(viewer *v, double x, double y)
{
    double dx = x - v->mouse.x, dy = y - v->mouse.y;
    v->mouse.x = x;
    v->mouse.y = y;
    if (!v->mouse.left_down && !v->mouse.right_down)
        return;
    if (fabs(x - v->mouse.press_x) + fabs(y - v->mouse.press_y) > 4.0)
        v->mouse.dragged = true;
    if (!v->mouse.dragged)
        return;
    float h = (float)(v->win_h > 0 ? v->win_h : 1);
    if (v->mouse.right_down) {
        viewer_camera_pan(&v->camera, (float)dx / h, -(float)dy / h);
    } else {
        /* a drag across the window height turns the view about 200 degrees */
        float k = 3.5f / h;
        viewer_camera_orbit(&v->camera, -(float)dx * k, (float)dy * k);
    }
}

void viewer_scroll(viewer *v, double dy)
{
    viewer_camera_zoom(&v->camera, (float)dy);
}

/* ------------------------------------------------------------------ the cursor as a predator */

bool viewer_mouse_predator_toggle(viewer *v, bool on)
{
    mur_flock *f = v->flock;
    mur_view view = mur_flock_view(f);
    if (on == (v->mouse.pred >= 0))
        return false;
    mur_error err = {{0}};
    if (on) {
        if (!mur_flock_set_predator_count(f, view.predators + 1, &err)) {
            mur_msg(&v->msg, "%s", err.msg);
            return false;
        }
        v->mouse.pred = view.predators;
        v->mouse.pred_had = view.predators_on;
        mur_flock_set_predators_on(f, true);
        viewer_mouse_predator(v);
        mur_msg(&v->msg, "the cursor is a predator (release X to stop)");
    } else {
        if (view.predators > v->mouse.pred)
            mur_flock_set_predator_count(f, v->mouse.pred, &err);
        mur_flock_set_predators_on(f, v->mouse.pred_had);
        v->mouse.pred = -1;
        mur_msg(&v->msg, "cursor predator off");
    }
    return true;
}

/* The worker is idle: put the cursor's predator where the cursor's ray meets the plane of the
 * camera's target, moving as the cursor moved since the last frame. */
bool viewer_mouse_predator(viewer *v)
{
    if (v->mouse.pred < 0)
        return false;
    mur_view view = mur_flock_view(v->flock);
    if (v->mouse.pred >= view.predators) {
        v->mouse.pred = -1; /* the predators were removed meanwhile */
        return false;
    }
    float sx = v->win_w > 0 ? (float)v->fb_w / (float)v->win_w : 1.0f;
    float sy = v->win_h > 0 ? (float)v->fb_h / (float)v->win_h : 1.0f;
    vec3 o, d, fwd;
    mur_camera_ray(&v->camera.cam, (float)v->mouse.x * sx, (float)v->mouse.y * sy, v->fb_w, v->fb_h, o, d);
    glm_vec3_sub(v->camera.cam.cur.target, o, fwd);
    float along = glm_vec3_dot(fwd, d) > 1e-6f ? glm_vec3_norm2(fwd) / glm_vec3_dot(fwd, d)
                                               : v->camera.cam.cur.distance;
    float p[3], vel[3] = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 3; i++)
        p[i] = o[i] + d[i] * along;
    const float *was = view.pred_pos + (size_t)v->mouse.pred * 3;
    float dt = (float)(v->def.dt > 0.0f ? v->def.dt : 0.05f);
    for (int i = 0; i < 3; i++)
        vel[i] = (p[i] - was[i]) / dt * 0.25f; /* the cursor's motion, damped: the heading it is drawn with */
    mur_flock_set_predator(v->flock, v->mouse.pred, p, vel);
    return true;
}
