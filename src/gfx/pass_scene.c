/* The scene's passes (see renderer_internal.h): the ground, a disc around the world box whose rings
 * fade into the horizon, with a grid of fading lines on it, drawn first; and the sky, a
 * screen-filling strip at the far plane coloured by the elevation of each view ray and a glow
 * toward the sun, drawn after the birds where nothing else was. All of it is built on the CPU into
 * the renderer's geom[] as vertex-coloured triangles and lines of the line program, so every
 * fragment shader stays trivial: software GL (llvmpipe) pays per fragment, and these cover most of
 * the screen. It owns the sky's and the ground's colours (the horizon's is shared).
 */
#include "renderer_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

const float mur_sky_horizon[3] = {0.230f, 0.290f, 0.380f};
static const float sky_zenith[3] = {0.050f, 0.080f, 0.150f};
static const float ground_color[3] = {0.105f, 0.120f, 0.135f};
static const float ground_line[3] = {0.300f, 0.340f, 0.380f};

void mur_line_put(line_vertex *v, float x, float y, float z, const float c[3], float a)
{
    v->pos[0] = x;
    v->pos[1] = y;
    v->pos[2] = z;
    v->rgba[0] = (uint8_t)(fminf(fmaxf(c[0], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[1] = (uint8_t)(fminf(fmaxf(c[1], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[2] = (uint8_t)(fminf(fmaxf(c[2], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[3] = (uint8_t)(fminf(fmaxf(a, 0.0f), 1.0f) * 255.0f + 0.5f);
}

int mur_line_quad_row(line_vertex *v, int n, const line_vertex *grid, int cols, int j)
{
    for (int i = 0; i < cols; i++) {
        int a = j * (cols + 1) + i, b = a + 1, c = a + cols + 1, d = c + 1;
        const int q[6] = {a, b, c, b, d, c};
        for (int k = 0; k < 6; k++)
            v[n++] = grid[q[k]];
    }
    return n;
}

static float smooth(float e0, float e1, float x)
{
    float t = fminf(fmaxf((x - e0) / (e1 - e0), 0.0f), 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static void mix3(const float a[3], const float b[3], float t, float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] + (b[i] - a[i]) * t;
}

/* Disc of radius `half` around the box centre: rings whose colour fades into the horizon. */
static int build_ground(line_vertex *v, const float c[3], float y, float half)
{
    enum { RINGS = 8, SEGS = 64 };
    int n = 0;
    for (int k = 0; k < RINGS; k++) {
        float r0 = half * (float)k / RINGS, r1 = half * (float)(k + 1) / RINGS;
        float c0[3], c1[3];
        mix3(ground_color, mur_sky_horizon, smooth(0.45f, 1.0f, r0 / half), c0);
        mix3(ground_color, mur_sky_horizon, smooth(0.45f, 1.0f, r1 / half), c1);
        for (int s = 0; s < SEGS; s++) {
            float a0 = (2.0f * GLM_PIf) * (float)s / SEGS, a1 = (2.0f * GLM_PIf) * (float)(s + 1) / SEGS;
            float p[4][2] = {{cosf(a0) * r0, sinf(a0) * r0}, {cosf(a1) * r0, sinf(a1) * r0},
                             {cosf(a0) * r1, sinf(a0) * r1}, {cosf(a1) * r1, sinf(a1) * r1}};
            const int tri[6] = {0, 2, 1, 1, 2, 3};
            for (int i = 0; i < 6; i++) {
                int q = tri[i];
                mur_line_put(&v[n++], c[0] + p[q][0], y, c[2] + p[q][1], q < 2 ? c0 : c1, 1.0f);
            }
        }
    }
    return n;
}

/* Grid lines on the ground, in segments whose alpha fades out with the distance from the centre.
 * Software GL pays per primitive: at most 40 lines each way, in segments of 4 cells (the fade
 * only needs a few vertices per line). */
static int build_grid(line_vertex *v, int room, const float c[3], float y, float half, float cell)
{
    enum { MAX_LINES = 40, SEG_CELLS = 4 };
    int n = 0;
    int lines = (int)floorf(half / cell);
    if (lines > MAX_LINES)
        lines = MAX_LINES;
    float reach = fminf(half, (float)lines * cell);
    float x0 = floorf(c[0] / cell) * cell, z0 = floorf(c[2] / cell) * cell;
    for (int axis = 0; axis < 2; axis++) {
        for (int i = -lines; i <= lines; i++) {
            for (int j = -lines; j < lines; j += SEG_CELLS) {
                if (n + 2 > room)
                    return n;
                int j1 = j + SEG_CELLS < lines ? j + SEG_CELLS : lines;
                float a = (float)i * cell, b0 = (float)j * cell, b1 = (float)j1 * cell;
                float p0[2] = {axis ? a : b0, axis ? b0 : a}, p1[2] = {axis ? a : b1, axis ? b1 : a};
                float r0 = hypotf(x0 + p0[0] - c[0], z0 + p0[1] - c[2]) / reach;
                float r1 = hypotf(x0 + p1[0] - c[0], z0 + p1[1] - c[2]) / reach;
                if (r0 > 1.0f && r1 > 1.0f)
                    continue;
                mur_line_put(&v[n++], x0 + p0[0], y, z0 + p0[1], ground_line, 0.55f * (1.0f - smooth(0.35f, 0.9f, r0)));
                mur_line_put(&v[n++], x0 + p1[0], y, z0 + p1[1], ground_line, 0.55f * (1.0f - smooth(0.35f, 0.9f, r1)));
            }
        }
    }
    return n;
}

/* Screen-filling strip at the far plane (NDC z = 1, drawn with LEQUAL after the scene, so only the
 * background is shaded), coloured by the elevation of the view ray at each vertex. */
static int build_sky(line_vertex *v, mat4 inv_vp, vec3 eye, const float sun[3])
{
    enum { ROWS = 24, COLS = 4 };
    line_vertex grid[(ROWS + 1) * (COLS + 1)];
    for (int j = 0; j <= ROWS; j++) {
        for (int i = 0; i <= COLS; i++) {
            float x = -1.0f + 2.0f * (float)i / COLS, y = -1.0f + 2.0f * (float)j / ROWS;
            vec4 ndc = {x, y, 1.0f, 1.0f}, w;
            glm_mat4_mulv(inv_vp, ndc, w);
            vec3 dir = {w[0] / w[3] - eye[0], w[1] / w[3] - eye[1], w[2] / w[3] - eye[2]};
            glm_vec3_normalize(dir);
            float col[3];
            mix3(mur_sky_horizon, sky_zenith, smooth(-0.05f, 0.55f, dir[1]), col);
            float glow = powf(fmaxf(glm_vec3_dot(dir, (float *)sun), 0.0f), 12.0f);
            col[0] += 0.20f * glow;
            col[1] += 0.14f * glow;
            col[2] += 0.08f * glow;
            mur_line_put(&grid[j * (COLS + 1) + i], x, y, 1.0f, col, 1.0f);
        }
    }
    line_vertex h;
    mur_line_put(&h, 0.0f, 0.0f, 0.0f, mur_sky_horizon, 1.0f);
    const uint8_t *horizon = h.rgba;
    int n = 0;
    for (int j = 0; j < ROWS; j++) {
        /* rows that are all horizon colour (the clear colour) need not be drawn: every pixel of
         * the background costs on software GL */
        bool plain = true;
        for (int i = 0; i < 2 * (COLS + 1) && plain; i++)
            plain = !memcmp(grid[j * (COLS + 1) + i].rgba, horizon, 4);
        if (plain)
            continue;
        n = mur_line_quad_row(v, n, grid, COLS, j);
    }
    return n;
}

/* Ground: a disc around the box that fades out before its edge, a hair behind what lies on it
 * (perching boids, the goal ring), then the grid on it. */
void mur_pass_ground(mur_renderer *r, const mur_render_frame *f, const mur_scene *s)
{
    float half = 1.6f * f->ext;
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->vp);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    mur_draw_colored(r, GL_TRIANGLES, r->geom, build_ground(r->geom, f->centre, s->ground, half));
    glDisable(GL_POLYGON_OFFSET_FILL);
    float cell = powf(10.0f, floorf(log10f(fmaxf(f->ext, 1e-3f) / 4.0f)));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    mur_draw_colored(r, GL_LINES, r->geom, build_grid(r->geom, GEOM_MAX_VERTS, f->centre, s->ground, half, cell));
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

/* The sky last, only where nothing was drawn (depth still at the far plane). */
void mur_pass_sky(mur_renderer *r, mur_render_frame *f)
{
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->ident);
    glDepthMask(GL_FALSE);
    mur_draw_colored(r, GL_TRIANGLES, r->geom, build_sky(r->geom, f->inv, f->eye, f->sun));
    glDepthMask(GL_TRUE);
}
