/* Picking and watching a bird: a click near a bird selects it; while selected its neighbours (the
 * boids its rules use, mur_flock_neighbours: all it sees within view_radius and its view cone, or in
 * topological mode the topo_k nearest of those) are marked, its view radius and view
 * cone are drawn around it, and its speed and neighbour count are shown next to it. Positions are read while the
 * simulation worker is idle (at the sync point), so they are the state on screen. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hud.h"
#include "viewer.h"

enum { PICK_PX = 12 };

/* Project p with the view-projection matrix vp into w x h pixels (top-left origin). */
static bool project(mat4 vp, const float p[3], int w, int h, float out[2])
{
    vec4 x = {p[0], p[1], p[2], 1.0f}, clip;
    glm_mat4_mulv(vp, x, clip);
    if (!(clip[3] > 1e-6f))
        return false;
    out[0] = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)w;
    out[1] = (1.0f - (clip[1] / clip[3] * 0.5f + 0.5f)) * (float)h;
    return clip[2] / clip[3] >= -1.0f && clip[2] / clip[3] <= 1.0f;
}

void viewer_pick_init(viewer *v)
{
    v->sel.bird = -1;
}

bool viewer_pick(viewer *v, double win_x, double win_y)
{
    float sx = v->win_w > 0 ? (float)v->fb_w / (float)v->win_w : 1.0f;
    float sy = v->win_h > 0 ? (float)v->fb_h / (float)v->win_h : 1.0f;
    float px = (float)win_x * sx, py = (float)win_y * sy;
    mur_view view = mur_flock_view(v->flock);
    mat4 vp;
    mur_camera_view_proj(&v->camera.cam, vp);
    int32_t best = -1;
    float best_d = (float)PICK_PX * sx;
    for (int32_t i = 0; i < view.boids; i++) {
        float s[2];
        if (!project(vp, view.pos + (size_t)i * 3, v->fb_w, v->fb_h, s))
            continue;
        float d = hypotf(s[0] - px, s[1] - py);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    v->sel.bird = best;
    viewer_pick_update(v);
    if (best >= 0)
        mur_msg(&v->msg, "selected boid %d: speed %.2f wu/s, %d %s", (int)best, (double)v->sel.speed,
                       (int)v->sel.count, v->sel.topo ? "topological neighbours (the nearest it sees)"
                                                      : "neighbours (all it sees within view_radius)");
    return best >= 0;
}

void viewer_pick_update(viewer *v)
{
    mur_view view = mur_flock_view(v->flock);
    mur_flock_def def = mur_flock_get_def(v->flock);
    int32_t nb[VIEWER_SEL_MAX];
    int32_t n = 0;
    if (v->sel.bird >= 0 && v->sel.bird < view.boids)
        n = mur_flock_neighbours(v->flock, v->sel.bird, nb, VIEWER_SEL_MAX);
    viewer_pick_from(v, &view, &def, nb, n);
}

void viewer_pick_from(viewer *v, const mur_view *view, const mur_flock_def *def, const int32_t *nb, int32_t n)
{
    if (v->sel.bird < 0 || v->sel.bird >= view->boids) {
        v->sel.bird = -1;
        v->sel.count = 0;
        v->sel.shown = 0;
        return;
    }
    const float *p = view->pos + (size_t)v->sel.bird * 3, *u = view->vel + (size_t)v->sel.bird * 3;
    memcpy(v->sel.pos, p, sizeof v->sel.pos);
    memcpy(v->sel.vel, u, sizeof v->sel.vel);
    v->sel.speed = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    /* the neighbours its rules use: metric (all it sees within view_radius) or topological (the
     * topo_k nearest it sees), from the library, so the marks are what the rules read */
    v->sel.count = n > 0 ? n : 0;
    v->sel.shown = n < VIEWER_SEL_MAX ? v->sel.count : VIEWER_SEL_MAX;
    for (int k = 0; k < v->sel.shown; k++)
        memcpy(v->sel.nb[k], view->pos + (size_t)nb[k] * 3, sizeof v->sel.nb[0]);
    v->sel.topo = def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL;
    v->sel.radius = def->view_radius;
    v->sel.angle = def->view_angle;
}

static void mark(mur_hud *h, float x, float y, float r, float t, const uint8_t c[4])
{
    mur_hud_rect(h, x - r, y - r, 2 * r, t, c);
    mur_hud_rect(h, x - r, y + r - t, 2 * r, t, c);
    mur_hud_rect(h, x - r, y - r, t, 2 * r, c);
    mur_hud_rect(h, x + r - t, y - r, t, 2 * r, c);
}

/* Inside a HUD frame (mur_hud_begin .. end): the markers of the selected bird. */
void viewer_pick_draw(const viewer *v, mur_hud *h, float scale, int width, int height)
{
    if (v->sel.bird < 0)
        return;
    static const uint8_t CYAN[4] = {60, 235, 255, 255};
    static const uint8_t YELLOW[4] = {255, 230, 60, 255};
    static const uint8_t RING[4] = {255, 230, 60, 150};
    mat4 vp;
    mur_camera_view_proj(&v->camera.cam, vp);
    float s[2];
    for (int k = 0; k < v->sel.shown; k++)
        if (project(vp, v->sel.nb[k], width, height, s))
            mark(h, s[0], s[1], 5.0f * scale, 2.0f * scale, CYAN);
    if (!project(vp, v->sel.pos, width, height, s))
        return;
    static const uint8_t DARK[4] = {8, 10, 16, 200};
    mark(h, s[0], s[1], 9.0f * scale, 4.0f * scale, DARK); /* a dark rim round the yellow square */
    mark(h, s[0], s[1], 8.0f * scale, 2.0f * scale, YELLOW);
    /* the view radius: a circle around the bird in the screen's plane */
    vec3 fwd, right, up, eye, world_up = {0.0f, 1.0f, 0.0f};
    mur_camera_eye(&v->camera.cam, eye);
    const float *t = v->camera.cam.cur.target;
    vec3 target = {t[0], t[1], t[2]};
    glm_vec3_sub(target, eye, fwd);
    glm_vec3_normalize(fwd);
    glm_vec3_cross(fwd, world_up, right);
    glm_vec3_normalize(right);
    glm_vec3_cross(right, fwd, up);
    for (int k = 0; k < 72; k++) {
        float a = (float)k * (2.0f * GLM_PIf) / 72.0f, q[3], c2[2];
        for (int i = 0; i < 3; i++)
            q[i] = v->sel.pos[i] + v->sel.radius * (cosf(a) * right[i] + sinf(a) * up[i]);
        if (project(vp, q, width, height, c2))
            mur_hud_rect(h, c2[0] - scale, c2[1] - scale, 2.0f * scale, 2.0f * scale, RING);
    }
    /* the heading: a short line of dots along the velocity; the view cone: four edges at half the
     * view angle from it (left, right, above, below), as long as the view radius */
    if (v->sel.speed > 0.0f) {
        vec3 f = {v->sel.vel[0] / v->sel.speed, v->sel.vel[1] / v->sel.speed, v->sel.vel[2] / v->sel.speed};
        vec3 a, b, up0 = {0.0f, 1.0f, 0.0f};
        if (fabsf(f[1]) > 0.99f)
            glm_vec3_copy((vec3){1.0f, 0.0f, 0.0f}, up0);
        glm_vec3_cross(f, up0, a);
        glm_vec3_normalize(a);
        glm_vec3_cross(a, f, b);
        float half = 0.5f * v->sel.angle * GLM_PIf / 180.0f;
        vec3 dirs[5];
        glm_vec3_copy(f, dirs[0]);
        for (int e = 0; e < 4; e++) {
            const float *side = e < 2 ? a : b;
            float sgn = (e & 1) ? -1.0f : 1.0f;
            for (int i = 0; i < 3; i++)
                dirs[e + 1][i] = cosf(half) * f[i] + sgn * sinf(half) * side[i];
        }
        bool cone = v->sel.angle < 360.0f;
        for (int e = 0; e < (cone ? 5 : 1); e++)
            for (int k = 1; k <= 12; k++) {
                float q[3], c2[2];
                for (int i = 0; i < 3; i++)
                    q[i] = v->sel.pos[i] + dirs[e][i] * v->sel.radius * (float)k / 12.0f;
                if (project(vp, q, width, height, c2))
                    mur_hud_rect(h, c2[0] - scale, c2[1] - scale, 2.0f * scale, 2.0f * scale, e ? RING : YELLOW);
            }
    }
    char text[96];
    snprintf(text, sizeof text, "boid %d  %.2f wu/s  %d neighbours", (int)v->sel.bird, (double)v->sel.speed,
             (int)v->sel.count);
    /* on a dark backing with a rim, so the label reads on any sky and over any birds (the yellow on
     * the backing is about 14:1) */
    static const uint8_t BACK[4] = {8, 10, 16, 215};
    static const uint8_t RIM[4] = {255, 230, 60, 90};
    float tx = s[0] + 12.0f * scale, ty = s[1] - 6.0f * scale, pad = 3.0f * scale;
    float tw = mur_hud_text_width(h, text), th = mur_hud_line_height(h);
    mur_hud_rect(h, tx - pad - scale, ty - pad - scale, tw + 2 * pad + 2 * scale, th + 2 * pad, RIM);
    mur_hud_rect(h, tx - pad, ty - pad, tw + 2 * pad, th + 2 * pad - 2.0f * scale, BACK);
    mur_hud_text(h, tx, ty, text, YELLOW);
}
