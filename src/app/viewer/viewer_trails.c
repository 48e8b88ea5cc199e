/* Trails: fading paths of the last frames (90 at start, Y doubles it up to VIEWER_TRAIL_LEN), for the selected bird or for a sample of
 * TRAIL_BIRDS birds spread over the flock (T cycles off > selected > sample > off). Positions are
 * taken at the sync point (worker idle), one per frame, and drawn as HUD dots that fade with age. */
#include <math.h>
#include <string.h>

#include "hud.h"
#include "viewer.h"

void viewer_trails_cycle(viewer *v)
{
    v->trails.mode = (v->trails.mode + 1) % 3;
    v->trails.count = 0;
    v->trails.head = 0;
    static const char *const names[3] = {"off", "for the selected bird (click one)", "for a sample of birds"};
    mur_msg(&v->msg, "trails %s", names[v->trails.mode]);
}

static int trail_len(const viewer *v)
{
    return v->trails.len > 0 ? v->trails.len : VIEWER_TRAIL_DEFAULT;
}

void viewer_trails_longer(viewer *v)
{
    int len = trail_len(v) * 2;
    v->trails.len = len > VIEWER_TRAIL_LEN ? 45 : len;
    mur_msg(&v->msg, "trails of %d frames (%.1f s at 30 fps)%s", v->trails.len, v->trails.len / 30.0,
            v->trails.mode ? "" : "; T shows them");
}

/* The birds a trail follows: the selected one, or every (boids / TRAIL_BIRDS)-th. */
static int trail_birds(const viewer *v, int32_t boids, int32_t *idx)
{
    if (v->trails.mode == 1) {
        if (v->sel.bird < 0 || v->sel.bird >= boids)
            return 0;
        idx[0] = v->sel.bird;
        return 1;
    }
    int n = boids < VIEWER_TRAIL_BIRDS ? (int)boids : VIEWER_TRAIL_BIRDS;
    for (int k = 0; k < n; k++)
        idx[k] = (int32_t)((int64_t)k * boids / n);
    return n;
}

void viewer_trails_update(viewer *v, const mur_view *from)
{
    if (v->trails.mode == 0)
        return;
    const mur_view view = *from;
    int32_t idx[VIEWER_TRAIL_BIRDS];
    int n = trail_birds(v, view.boids, idx);
    if (n != v->trails.birds || view.tick == v->trails.tick) {
        if (n != v->trails.birds) {
            v->trails.count = 0; /* another set of birds: start again */
            v->trails.birds = n;
        }
        if (view.tick == v->trails.tick && v->trails.count > 0)
            return; /* no tick since the last point (paused) */
    }
    v->trails.tick = view.tick;
    for (int k = 0; k < n; k++)
        memcpy(v->trails.pos[k][v->trails.head], view.pos + (size_t)idx[k] * 3, sizeof v->trails.pos[0][0]);
    v->trails.head = (v->trails.head + 1) % VIEWER_TRAIL_LEN;
    if (v->trails.count < trail_len(v))
        v->trails.count++;
}

void viewer_trails_draw(const viewer *v, mur_hud *h, float scale, int width, int height)
{
    if (v->trails.mode == 0 || v->trails.count < 2)
        return;
    mat4 vp;
    mur_camera_view_proj(&v->camera.cam, vp);
    const int len = trail_len(v), count = v->trails.count < len ? v->trails.count : len;
    for (int k = 0; k < v->trails.birds; k++)
        for (int a = 1; a < count; a++) {
            /* age a = 1 is the newest point but one; older points fade out */
            int slot = (v->trails.head - 1 - a + 2 * VIEWER_TRAIL_LEN) % VIEWER_TRAIL_LEN;
            const float *p = v->trails.pos[k][slot];
            vec4 x = {p[0], p[1], p[2], 1.0f}, clip;
            glm_mat4_mulv(vp, x, clip);
            if (!(clip[3] > 1e-6f) || fabsf(clip[2]) > clip[3])
                continue;
            float sx = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)width;
            float sy = (1.0f - (clip[1] / clip[3] * 0.5f + 0.5f)) * (float)height;
            float fade = 1.0f - (float)a / (float)len;
            uint8_t c[4] = {255, 245, 200, (uint8_t)(220.0f * fade)};
            mur_hud_rect(h, sx - scale, sy - scale, 2.0f * scale, 2.0f * scale, c);
        }
}
