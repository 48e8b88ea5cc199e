/* Orbit camera (see camera.h). Pure math on cglm. */
#include "camera.h"

#include <math.h>

static const float default_fov = 0.7853982f; /* 45 degrees */
static const float default_yaw = 0.6108652f; /* 35 degrees */
static const float default_pitch = 0.3490659f; /* 20 degrees */

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static void clamp_pose(const mur_camera *c, mur_camera_pose *p)
{
    p->pitch = clampf(p->pitch, -c->max_pitch, c->max_pitch);
    p->distance = clampf(p->distance, c->min_distance, c->max_distance);
}

void mur_camera_scale(mur_camera *c, float k)
{
    if (!(k > 0.0f) || !isfinite(k))
        return;
    mur_camera_pose *poses[3] = {&c->cur, &c->goal, &c->home};
    for (int p = 0; p < 3; p++) {
        glm_vec3_scale(poses[p]->target, k, poses[p]->target);
        poses[p]->distance *= k;
    }
    glm_vec3_scale(c->scene_centre, k, c->scene_centre);
    c->scene_radius *= k;
    c->min_distance *= k;
    c->max_distance *= k;
}

void mur_camera_init(mur_camera *c, const float lo[3], const float hi[3], float aspect)
{
    vec3 centre, half;
    for (int i = 0; i < 3; i++) {
        centre[i] = 0.5f * (lo[i] + hi[i]);
        half[i] = 0.5f * fabsf(hi[i] - lo[i]);
    }
    float radius = glm_vec3_norm(half);
    if (!(radius > 1e-6f))
        radius = 1.0f;
    *c = (mur_camera){0};
    c->fov_y = default_fov;
    c->aspect = aspect > 0.0f ? aspect : 1.0f;
    c->max_pitch = glm_rad(85.0f);
    c->min_distance = radius * 0.01f;
    c->max_distance = radius * 20.0f;
    c->damping = 14.0f;
    c->zoom_step = 0.88f;
    c->follow_zoom = 1.0f;
    c->fit = 1.0f;
    c->fit_area = 0.5f;
    c->free_x0 = -1.0f;
    c->free_x1 = 1.0f;
    glm_vec3_copy(centre, c->scene_centre);
    /* the ground plane reaches out to about twice the box, so count it in */
    c->scene_radius = radius * 3.0f;

    /* Fit the box's bounding sphere into the narrower field of view, then come a little closer:
     * a soft-bounded flock rarely reaches the corners, and a filled frame looks alive. */
    float fov_x = 2.0f * atanf(tanf(0.5f * c->fov_y) * c->aspect);
    float fov = fminf(c->fov_y, fov_x);
    mur_camera_pose h;
    glm_vec3_copy(centre, h.target);
    h.yaw = default_yaw;
    h.pitch = default_pitch;
    h.distance = 0.72f * radius / sinf(0.5f * fov);
    c->home = h;
    mur_camera_reset(c);
}

void mur_camera_reset(mur_camera *c)
{
    c->goal = c->home;
    clamp_pose(c, &c->goal);
    c->follow = false;
    c->aim[0] = c->aim[1] = 0.0f;
}

void mur_camera_snap(mur_camera *c)
{
    c->cur = c->goal;
}

void mur_camera_orbit(mur_camera *c, float dyaw, float dpitch)
{
    c->goal.yaw += dyaw;
    /* keep the angle small so damping never takes the long way round */
    const float two_pi = 2.0f * GLM_PIf;
    while (c->goal.yaw - c->cur.yaw > 0.5f * two_pi) {
        c->goal.yaw -= two_pi;
    }
    while (c->goal.yaw - c->cur.yaw < -0.5f * two_pi) {
        c->goal.yaw += two_pi;
    }
    c->goal.pitch += dpitch;
    clamp_pose(c, &c->goal);
}

static void basis(const mur_camera_pose *p, vec3 fwd, vec3 right, vec3 up)
{
    /* eye offset from the target, as a unit vector */
    vec3 back = {cosf(p->pitch) * sinf(p->yaw), sinf(p->pitch), cosf(p->pitch) * cosf(p->yaw)};
    glm_vec3_negate_to(back, fwd);
    vec3 world_up = {0.0f, 1.0f, 0.0f};
    glm_vec3_cross(fwd, world_up, right);
    glm_vec3_normalize(right);
    glm_vec3_cross(right, fwd, up);
}

void mur_camera_pan(mur_camera *c, float dx, float dy)
{
    vec3 fwd, right, up;
    basis(&c->goal, fwd, right, up);
    /* one view height at the target's distance */
    float h = 2.0f * c->goal.distance * tanf(0.5f * c->fov_y);
    glm_vec3_muladds(right, -dx * h, c->goal.target);
    glm_vec3_muladds(up, -dy * h, c->goal.target);
    c->follow = false;
}

void mur_camera_zoom(mur_camera *c, float notches)
{
    if (c->follow)
        c->follow_zoom = clampf(c->follow_zoom * powf(c->zoom_step, notches), 0.05f, 20.0f);
    c->goal.distance *= powf(c->zoom_step, notches);
    clamp_pose(c, &c->goal);
}

void mur_camera_set_aspect(mur_camera *c, int width, int height)
{
    if (width > 0 && height > 0)
        c->aspect = (float)width / (float)height;
}

void mur_camera_set_follow(mur_camera *c, bool on)
{
    c->follow = on;
}

void mur_camera_follow(mur_camera *c, const float p[3])
{
    if (!c->follow)
        return;
    if (!(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])))
        return;
    glm_vec3_copy((float *)p, c->goal.target);
}

/* The observer's eye stays above the ground: the lowest latitude at this distance from the target. */
static void keep_above_ground(const mur_camera *c, mur_camera_pose *p)
{
    if (!c->observer || !(p->distance > 0.0f))
        return;
    float s = (c->ground_y + 1.7f - p->target[1]) / p->distance;
    float lo = asinf(clampf(s, -1.0f, 1.0f));
    if (p->pitch < lo)
        p->pitch = fminf(lo, c->max_pitch);
}

void mur_camera_frame(mur_camera *c, const float p[3], float radius)
{
    if (!c->follow)
        return;
    mur_camera_follow(c, p);
    if (!(radius > 0.0f) || !isfinite(radius))
        return;
    float fov_x = 2.0f * atanf(tanf(0.5f * c->fov_y) * c->aspect);
    float fov = fminf(c->fov_y, fov_x);
    c->goal.distance = c->follow_zoom * c->fit * 2.5f * radius / sinf(0.5f * fov);
    clamp_pose(c, &c->goal);
    /* the box's centre, measured by mur_camera_fit, to the centre of the free part */
    vec3 fwd, right, up;
    basis(&c->goal, fwd, right, up);
    float hh = c->goal.distance * tanf(0.5f * c->fov_y), hw = hh * c->aspect;
    glm_vec3_muladds(right, c->aim[0] * hw, c->goal.target);
    glm_vec3_muladds(up, c->aim[1] * hh, c->goal.target);
    keep_above_ground(c, &c->goal);
}

float mur_camera_fit(mur_camera *c, const float box[4][3], float dt)
{
    if (!c->follow)
        return -1.0f;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(box[i][k]))
                return -1.0f;
    float k = dt > 0.0f ? 1.0f - expf(-1.5f * dt) : 1.0f;
    mat4 vp;
    mur_camera_view_proj(c, vp);
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (int corner = 0; corner < 8; corner++) {
        vec4 q = {box[0][0], box[0][1], box[0][2], 1.0f}, clip;
        for (int a = 0; a < 3; a++) {
            float sgn = (corner >> a) & 1 ? 1.0f : -1.0f;
            for (int i = 0; i < 3; i++)
                q[i] += sgn * box[a + 1][i];
        }
        glm_mat4_mulv(vp, q, clip);
        if (!(clip[3] > 1e-6f)) {
            /* the eye is inside the box or behind it: step back */
            c->fit = clampf(c->fit * powf(1.5f, k), 0.05f, 20.0f);
            return -1.0f;
        }
        float x = clip[0] / clip[3], y = clip[1] / clip[3];
        x0 = fminf(x0, x);
        x1 = fmaxf(x1, x);
        y0 = fminf(y0, y);
        y1 = fmaxf(y1, y);
    }
    float rw = c->free_x1 - c->free_x0, rc = 0.5f * (c->free_x0 + c->free_x1);
    float bw = fmaxf(x1 - x0, 1e-4f), bh = fmaxf(y1 - y0, 1e-4f);
    float share = bw * bh / (rw * 2.0f);
    /* the linear scale that gives the wanted share, no wider or taller than 90% of the free part */
    float s = sqrtf(c->fit_area / share);
    s = fminf(s, fminf(1.0f * rw / bw, 2.0f / bh));
    s = clampf(s, 0.5f, 2.0f); /* a step at a time: the perspective of a deep box is not linear */
    c->fit = clampf(c->fit * powf(1.0f / s, k), 0.05f, 20.0f);
    c->aim[0] = clampf(c->aim[0] + k * (0.5f * (x0 + x1) - rc), -0.6f, 0.6f);
    /* an observer's target never moves up: that would lift the eye with it, above the flock (seen from
     * below, a wide flock's box projects above the screen's centre, and chasing it climbs) */
    c->aim[1] = clampf(c->aim[1] + k * 0.5f * (y0 + y1), -0.6f, c->observer ? 0.0f : 0.6f);
    return share;
}

/* p within margin of the centre of the free part, seen from pose q (the projection of mur_camera_proj). */
static bool in_view(const mur_camera *c, const mur_camera_pose *q, const float p[3], float margin)
{
    vec3 fwd, right, up, eye, d;
    basis(q, fwd, right, up);
    glm_vec3_scale(fwd, -q->distance, eye);
    glm_vec3_add(eye, (float *)q->target, eye);
    glm_vec3_sub((float *)p, eye, d);
    const float z = glm_vec3_dot(d, fwd), t = tanf(0.5f * c->fov_y);
    if (!(z > 1e-3f))
        return false;
    const float x = glm_vec3_dot(d, right) / (z * t * c->aspect), y = glm_vec3_dot(d, up) / (z * t);
    return fabsf(x) <= margin * 0.5f * (c->free_x1 - c->free_x0) && fabsf(y) <= margin;
}

bool mur_camera_keep(mur_camera *c, const float p[3], float margin)
{
    if (!c->follow || !(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])))
        return false;
    bool moved = false;
    for (int it = 0; it < 96 && !in_view(c, &c->goal, p, margin); it++) {
        moved = true;
        if (c->goal.distance < c->max_distance) {
            /* 5% a step: the smallest zoom that holds p, so the framing does not jump */
            c->goal.distance = fminf(c->goal.distance * 1.05f, c->max_distance);
            c->fit = clampf(c->fit * 1.05f, 0.05f, 20.0f);
        } else {
            glm_vec3_lerp(c->goal.target, (float *)p, 0.1f, c->goal.target);
        }
        keep_above_ground(c, &c->goal);
    }
    return moved;
}

void mur_camera_set_free(mur_camera *c, float x0, float x1, int width)
{
    if (width <= 0 || !(x1 > x0)) {
        c->free_x0 = -1.0f;
        c->free_x1 = 1.0f;
        return;
    }
    c->free_x0 = clampf(2.0f * x0 / (float)width - 1.0f, -1.0f, 0.9f);
    c->free_x1 = clampf(2.0f * x1 / (float)width - 1.0f, c->free_x0 + 0.1f, 1.0f);
}

void mur_camera_set_observer(mur_camera *c, bool on, float ground_y)
{
    c->observer = on;
    c->ground_y = ground_y;
}

void mur_camera_look(mur_camera *c, const float eye[3], const float target[3])
{
    vec3 d = {eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]};
    float dist = glm_vec3_norm(d);
    mur_camera_pose p = c->home;
    glm_vec3_copy((float *)target, p.target);
    if (dist > 1e-6f) {
        p.distance = dist;
        p.pitch = asinf(clampf(d[1] / dist, -1.0f, 1.0f));
        p.yaw = atan2f(d[0], d[2]);
    }
    c->max_distance = fmaxf(c->max_distance, 2.0f * dist);
    c->min_distance = fminf(c->min_distance, 0.5f * dist);
    clamp_pose(c, &p);
    c->home = c->goal = c->cur = p;
}

void mur_camera_set_fov(mur_camera *c, float fov_y)
{
    c->fov_y = clampf(fov_y, glm_rad(1.0f), glm_rad(170.0f));
}

void mur_camera_update(mur_camera *c, float dt)
{
    if (!(dt > 0.0f))
        return;
    float k = c->damping > 0.0f ? 1.0f - expf(-c->damping * dt) : 1.0f;
    mur_camera_pose *a = &c->cur;
    const mur_camera_pose *b = &c->goal;
    for (int i = 0; i < 3; i++)
        a->target[i] += (b->target[i] - a->target[i]) * k;
    a->yaw += (b->yaw - a->yaw) * k;
    a->pitch += (b->pitch - a->pitch) * k;
    /* zoom in log space so it feels the same near and far */
    a->distance *= powf(b->distance / a->distance, k);
    keep_above_ground(c, a);
}

void mur_camera_eye(const mur_camera *c, vec3 out)
{
    const mur_camera_pose *p = &c->cur;
    vec3 back = {cosf(p->pitch) * sinf(p->yaw), sinf(p->pitch), cosf(p->pitch) * cosf(p->yaw)};
    glm_vec3_scale(back, p->distance, out);
    glm_vec3_add(out, (float *)p->target, out);
}

void mur_camera_near_far(const mur_camera *c, float *near_z, float *far_z)
{
    vec3 eye;
    mur_camera_eye(c, eye);
    float d = glm_vec3_distance(eye, (float *)c->scene_centre);
    /* the far plane must hold the whole scene and the target, wherever the user panned */
    float f = fmaxf(d + c->scene_radius, c->cur.distance * 2.0f);
    float n = fmaxf(d - c->scene_radius, 0.0f);
    /* 24-bit depth: keep far/near below ~5000, and never cut what is right at the target */
    n = fmaxf(n, f / 5000.0f);
    n = fminf(n, c->cur.distance * 0.5f);
    *near_z = n;
    *far_z = f;
}

void mur_camera_view(const mur_camera *c, mat4 out)
{
    vec3 eye, up = {0.0f, 1.0f, 0.0f};
    mur_camera_eye(c, eye);
    glm_lookat(eye, (float *)c->cur.target, up, out);
}

void mur_camera_proj(const mur_camera *c, mat4 out)
{
    float n, f;
    mur_camera_near_far(c, &n, &f);
    glm_perspective(c->fov_y, c->aspect, n, f, out);
    /* the view's centre at the centre of the free part of the frame (clip x += shift * w) */
    out[2][0] -= 0.5f * (c->free_x0 + c->free_x1);
}

void mur_camera_view_proj(const mur_camera *c, mat4 out)
{
    mat4 v, p;
    mur_camera_view(c, v);
    mur_camera_proj(c, p);
    glm_mat4_mul(p, v, out);
}

bool mur_camera_project(const mur_camera *c, const float p[3], int width, int height, float out[2])
{
    mat4 vp;
    mur_camera_view_proj(c, vp);
    vec4 x = {p[0], p[1], p[2], 1.0f}, clip;
    glm_mat4_mulv(vp, x, clip);
    if (!(clip[3] > 0.0f))
        return false;
    float ndc_x = clip[0] / clip[3], ndc_y = clip[1] / clip[3], ndc_z = clip[2] / clip[3];
    if (ndc_z < -1.0f || ndc_z > 1.0f)
        return false;
    out[0] = (ndc_x * 0.5f + 0.5f) * (float)width;
    out[1] = (1.0f - (ndc_y * 0.5f + 0.5f)) * (float)height;
    return true;
}

void mur_camera_ray(const mur_camera *c, float px, float py, int width, int height, vec3 origin,
                    vec3 dir)
{
    vec3 fwd, right, up;
    basis(&c->cur, fwd, right, up);
    mur_camera_eye(c, origin);
    float ndc_x = 2.0f * px / (float)(width > 0 ? width : 1) - 1.0f - 0.5f * (c->free_x0 + c->free_x1);
    float ndc_y = 1.0f - 2.0f * py / (float)(height > 0 ? height : 1);
    float t = tanf(0.5f * c->fov_y);
    glm_vec3_copy(fwd, dir);
    glm_vec3_muladds(right, ndc_x * t * c->aspect, dir);
    glm_vec3_muladds(up, ndc_y * t, dir);
    glm_vec3_normalize(dir);
}

bool mur_ray_hit_plane_y(const vec3 origin, const vec3 dir, float h, vec3 out)
{
    if (fabsf(dir[1]) < 1e-6f)
        return false;
    float t = (h - origin[1]) / dir[1];
    if (!(t > 0.0f))
        return false;
    for (int i = 0; i < 3; i++)
        out[i] = origin[i] + t * dir[i];
    return true;
}
