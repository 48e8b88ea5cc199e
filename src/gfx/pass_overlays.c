/* The overlays' pass (see renderer_internal.h): thin lines over the scene, drawn last and blended:
 * the world box's twelve edges (viewer key O), the goal marker (a cross at the goal, a line down to
 * the ground and a ring there; key G) and the biggest group's principal axes (key D), all read from
 * the frame's mur_scene. Built on the CPU into the renderer's lines[] (at most LINE_MAX_VERTS
 * vertices) and drawn with the line program. It owns lines[] and nlines.
 */
#include "renderer_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static void line_add(mur_renderer *r, const float a[3], const float b[3], const uint8_t c[4])
{
    if (r->nlines + 2 > LINE_MAX_VERTS)
        return;
    line_vertex *v = &r->lines[r->nlines];
    memcpy(v[0].pos, a, sizeof v[0].pos);
    memcpy(v[1].pos, b, sizeof v[1].pos);
    memcpy(v[0].rgba, c, 4);
    memcpy(v[1].rgba, c, 4);
    r->nlines += 2;
}

static void build_lines(mur_renderer *r, const mur_scene *s)
{
    r->nlines = 0;
    if (s->show_box) {
        const uint8_t c[4] = {200, 215, 235, 110};
        const float *lo = s->world_min, *hi = s->world_max;
        for (int e = 0; e < 12; e++) {
            /* edge e runs along axis e / 4; the other two axes take the corners of (e % 4) */
            int axis = e / 4, bits = e % 4;
            int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
            float a[3], b[3];
            a[axis] = lo[axis];
            b[axis] = hi[axis];
            a[o1] = b[o1] = (bits & 1) ? hi[o1] : lo[o1];
            a[o2] = b[o2] = (bits & 2) ? hi[o2] : lo[o2];
            line_add(r, a, b, c);
        }
    }
    if (s->goal_on) {
        const uint8_t c[4] = {255, 214, 60, 255};
        const uint8_t dim[4] = {255, 214, 60, 120};
        const float *g = s->goal_pos;
        float ext = 0.0f;
        for (int i = 0; i < 3; i++)
            ext = fmaxf(ext, s->world_max[i] - s->world_min[i]);
        float k = 0.03f * ext;
        for (int axis = 0; axis < 3; axis++) {
            float a[3] = {g[0], g[1], g[2]}, b[3] = {g[0], g[1], g[2]};
            a[axis] -= k;
            b[axis] += k;
            line_add(r, a, b, c);
        }
        float foot[3] = {g[0], s->ground, g[2]};
        line_add(r, g, foot, dim);
        const int seg = 40;
        for (int i = 0; i < seg; i++) {
            float t0 = (2.0f * GLM_PIf) * (float)i / (float)seg;
            float t1 = (2.0f * GLM_PIf) * (float)(i + 1) / (float)seg;
            float a[3] = {g[0] + k * cosf(t0), s->ground, g[2] + k * sinf(t0)};
            float b[3] = {g[0] + k * cosf(t1), s->ground, g[2] + k * sinf(t1)};
            line_add(r, a, b, c);
        }
    }
    if (s->axes_on) {
        static const uint8_t AXIS_RGBA[3][4] = {{255, 80, 220, 255}, {90, 235, 120, 255}, {70, 215, 255, 255}};
        for (int a = 0; a < 3; a++) {
            float p[3], q[3];
            for (int c = 0; c < 3; c++) {
                p[c] = s->axes_centre[c] - s->axes_half[a] * s->axes_dir[a][c];
                q[c] = s->axes_centre[c] + s->axes_half[a] * s->axes_dir[a][c];
            }
            line_add(r, p, q, AXIS_RGBA[a]);
        }
    }
}

/* After the sky: the lines, blended over everything drawn. */
void mur_pass_overlays(mur_renderer *r, const mur_render_frame *f, const mur_scene *s)
{
    build_lines(r, s);
    if (r->nlines > 0) {
        glUseProgram(r->line_prog);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->vp);
        mur_draw_colored(r, GL_LINES, r->lines, r->nlines);
        glDisable(GL_BLEND);
    }
}
