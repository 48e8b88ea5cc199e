/* The dusk look's scene (see renderer_internal.h, docs/rendering.md): a sky drawn first, as one
 * screen-filling strip whose vertices are coloured by the elevation of their view ray (bright and
 * warm at the horizon, deeper blue above, a glow where the sun has set; dark land below the
 * horizon, hazed toward it), then a silhouette on the horizon for scale (a treeline or a reed bed,
 * fixed in the world around the box centre, drawn with depth clamping so no far plane cuts it). Both
 * are built on the CPU into geom[] and drawn with the line program, without depth, before the birds,
 * whose dark, partly transparent silhouettes blend over them. Software GL pays per fragment: the
 * strip covers the screen once; the silhouette is a thin band.
 */
#include "renderer_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

const float mur_dusk_horizon[3] = {0.950f, 0.760f, 0.560f};
static const float dusk_zenith[3] = {0.310f, 0.400f, 0.600f};
static const float dusk_glow[3] = {0.060f, 0.010f, -0.060f};   /* added toward the set sun */
static const float land_near[3] = {0.060f, 0.058f, 0.060f};
static const float land_far[3] = {0.340f, 0.270f, 0.240f};      /* land in the haze at the horizon */
static const float silhouette[3] = {0.045f, 0.042f, 0.048f};

/* The silhouette's ring: its radius around the box centre (wu: a world unit is about a metre in the
 * starling preset) and its heights. */
#define RING_MIN_RADIUS 400.0f
#define TREE_SPACING 9.0f

static float clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }

static float smooth(float e0, float e1, float x)
{
    float t = clamp01((x - e0) / (e1 - e0));
    return t * t * (3.0f - 2.0f * t);
}

static void mix3(const float a[3], const float b[3], float t, float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] + (b[i] - a[i]) * t;
}

/* A number in [0, 1) from an integer (the same in every frame). */
static float hash01(uint32_t n)
{
    n = (n << 13U) ^ n;
    n = n * (n * n * 15731U + 789221U) + 1376312589U;
    return (float)(n & 0xffffffU) / 16777216.0f;
}

/* The dusk colour seen along the unit direction dir. */
static void dusk_color(const float dir[3], const float sun[3], float out[3])
{
    if (dir[1] < 0.0f) {
        mix3(land_far, land_near, smooth(0.0f, 0.12f, -dir[1]), out);
        return;
    }
    /* deeper slowly with elevation: most of a view up at a flock is the bright lower sky */
    mix3(mur_dusk_horizon, dusk_zenith, powf(smooth(0.0f, 0.9f, dir[1]), 0.8f), out);
    float h = hypotf(dir[0], dir[2]), hs = hypotf(sun[0], sun[2]);
    float az = h > 1e-6f && hs > 1e-6f ? (dir[0] * sun[0] + dir[2] * sun[2]) / (h * hs) : 0.0f;
    float glow = powf(0.5f + 0.5f * az, 4.0f) * (1.0f - smooth(0.0f, 0.5f, dir[1]));
    for (int i = 0; i < 3; i++)
        out[i] += dusk_glow[i] * glow;
}

/* The screen-filling strip: rows at even steps of NDC y and two a pixel apart at the horizon (where a
 * level camera sees it), so the land's edge is sharp. The bands of one colour at the bottom (the
 * near land, where its haze has faded out: every vertex of theirs the same bytes) but the last are
 * left out of the strip: *flat_rows pixel rows from the bottom are to be filled with *flat (a clear,
 * which software GL does as a fill of memory, not fragment by fragment); the last such band is
 * drawn all the same, over the edge of the fill, so each pixel gets what the whole strip gave it. */
static int build_dusk_sky(line_vertex *v, const mur_render_frame *f, int height, int *flat_rows, uint8_t flat[4])
{
    enum { ROWS = 24, COLS = 6, MAXR = ROWS + 3 };
    float ys[MAXR + 1];
    int nr = 0;
    for (int j = 0; j <= ROWS; j++)
        ys[nr++] = -1.0f + 2.0f * (float)j / ROWS;
    /* the horizon: the image of the level direction ahead (through the screen's centre), a point at
     * infinity */
    vec4 mid = {0.0f, 0.0f, 1.0f, 1.0f}, w0;
    glm_mat4_mulv((vec4 *)f->inv, mid, w0);
    vec4 ahead = {w0[0] / w0[3] - f->eye[0], 0.0f, w0[2] / w0[3] - f->eye[2], 0.0f}, clip;
    glm_mat4_mulv((vec4 *)f->vp, ahead, clip);
    if (clip[3] > 1e-6f) {
        float yh = clip[1] / clip[3], e = 1.0f / (float)(height > 1 ? height : 1);
        for (int k = -1; k <= 1; k += 2) {
            float y = yh + (float)k * e;
            if (y <= -1.0f || y >= 1.0f)
                continue;
            int i = nr++;
            while (i > 0 && ys[i - 1] > y) { /* keep the rows sorted */
                ys[i] = ys[i - 1];
                i--;
            }
            ys[i] = y;
        }
    }
    line_vertex grid[(MAXR + 1) * (COLS + 1)];
    for (int j = 0; j < nr; j++) {
        for (int i = 0; i <= COLS; i++) {
            float x = -1.0f + 2.0f * (float)i / COLS;
            vec4 ndc = {x, ys[j], 1.0f, 1.0f}, w;
            glm_mat4_mulv((vec4 *)f->inv, ndc, w);
            float dir[3] = {w[0] / w[3] - f->eye[0], w[1] / w[3] - f->eye[1], w[2] / w[3] - f->eye[2]};
            glm_vec3_normalize(dir);
            float col[3];
            dusk_color(dir, f->sun, col);
            mur_line_put(&grid[j * (COLS + 1) + i], x, ys[j], 0.0f, col, 1.0f);
        }
    }
    /* rows 0 .. lead - 1 (from the bottom) of the one colour of the first vertex */
    int lead = 0;
    for (int j = 0; j < nr; j++) {
        bool same = true;
        for (int i = 0; i <= COLS && same; i++)
            same = !memcmp(grid[j * (COLS + 1) + i].rgba, grid[0].rgba, sizeof grid[0].rgba);
        if (!same)
            break;
        lead++;
    }
    /* bands 0 .. lead - 2 are flat: fill below row lead - 2's top, i.e. the pixel rows whose centres
     * lie under it, and draw from band lead - 2 up (its pixels as the strip gives them) */
    const int first = lead >= 3 ? lead - 2 : 0;
    *flat_rows = 0;
    memset(flat, 0, 4);
    if (first > 0) {
        *flat_rows = (int)ceilf(0.5f * (ys[first] + 1.0f) * (float)height);
        memcpy(flat, grid[0].rgba, 4);
    }
    int n = 0;
    for (int j = first; j + 1 < nr; j++)
        n = mur_line_quad_row(v, n, grid, COLS, j);
    return n;
}

/* Height of the treeline at arc length s along the ring (wu): round crowns of trees about
 * TREE_SPACING apart, of 10 to 24 wu, some gaps, over low undergrowth. */
static float tree_height(float s, float circ)
{
    int ntrees = (int)(circ / TREE_SPACING);
    float best = 2.5f + 1.0f * sinf(s * 0.21f) * sinf(s * 0.057f);
    int k0 = (int)floorf(s / TREE_SPACING);
    for (int k = k0 - 1; k <= k0 + 2; k++) {
        int kk = ((k % ntrees) + ntrees) % ntrees;
        float r1 = hash01((uint32_t)kk * 3U + 1U), r2 = hash01((uint32_t)kk * 3U + 2U);
        if (r1 < 0.12f)
            continue; /* a gap */
        float c = ((float)k + 0.25f + 0.5f * r2) * TREE_SPACING;
        float h = 10.0f + 14.0f * hash01((uint32_t)kk * 3U + 3U);
        float rad = (0.18f + 0.3f * hash01((uint32_t)kk * 5U + 11U)) * h + 1.0f; /* poplars to oaks */
        float t = (s - c) / rad;
        if (t * t < 1.0f)
            best = fmaxf(best, h - rad + rad * sqrtf(1.0f - t * t));
        else if (fabsf(s - c) < 0.6f)
            best = fmaxf(best, h - rad); /* the trunk below the crown */
    }
    return best;
}

/* The ring of the silhouette: a treeline (quads from below the ground to the crowns) or a reed bed
 * (a low band and single-triangle blades). */
static int build_silhouette(line_vertex *v, int room, const mur_render_frame *f, const mur_scene *s)
{
    const float radius = fmaxf(RING_MIN_RADIUS, 8.0f * f->ext);
    const float cx = f->centre[0], cz = f->centre[2], y0 = s->ground - 2.0f;
    const float circ = 2.0f * GLM_PIf * radius;
    float col[3];
    mix3(silhouette, mur_dusk_horizon, 0.12f, col);
    int n = 0;
    if (s->horizon == MUR_HORIZON_TREES) {
        int segs = (int)(circ / 2.0f);
        if (segs * 6 > room)
            segs = room / 6;
        float s0 = 0.0f, h0 = tree_height(0.0f, circ);
        for (int i = 1; i <= segs; i++) {
            float s1 = circ * (float)i / (float)segs, h1 = tree_height(i == segs ? 0.0f : s1, circ);
            float a0 = s0 / radius, a1 = s1 / radius;
            float x0 = cx + radius * cosf(a0), z0 = cz + radius * sinf(a0);
            float x1 = cx + radius * cosf(a1), z1 = cz + radius * sinf(a1);
            mur_line_put(&v[n++], x0, y0, z0, col, 1.0f);
            mur_line_put(&v[n++], x1, y0, z1, col, 1.0f);
            mur_line_put(&v[n++], x0, s->ground + h0, z0, col, 1.0f);
            mur_line_put(&v[n++], x1, y0, z1, col, 1.0f);
            mur_line_put(&v[n++], x1, s->ground + h1, z1, col, 1.0f);
            mur_line_put(&v[n++], x0, s->ground + h0, z0, col, 1.0f);
            s0 = s1;
            h0 = h1;
        }
    } else if (s->horizon == MUR_HORIZON_REEDS) {
        int band = (int)(circ / 8.0f);
        for (int i = 0; i < band && n + 6 <= room; i++) {
            float a0 = 2.0f * GLM_PIf * (float)i / (float)band, a1 = 2.0f * GLM_PIf * (float)(i + 1) / (float)band;
            float x0 = cx + radius * cosf(a0), z0 = cz + radius * sinf(a0);
            float x1 = cx + radius * cosf(a1), z1 = cz + radius * sinf(a1);
            float top = s->ground + 1.8f;
            mur_line_put(&v[n++], x0, y0, z0, col, 1.0f);
            mur_line_put(&v[n++], x1, y0, z1, col, 1.0f);
            mur_line_put(&v[n++], x0, top, z0, col, 1.0f);
            mur_line_put(&v[n++], x1, y0, z1, col, 1.0f);
            mur_line_put(&v[n++], x1, top, z1, col, 1.0f);
            mur_line_put(&v[n++], x0, top, z0, col, 1.0f);
        }
        int blades = (room - n) / 3;
        int want = (int)(circ / 0.7f);
        if (blades > want)
            blades = want;
        for (int i = 0; i < blades; i++) {
            float a = 2.0f * GLM_PIf * ((float)i + hash01((uint32_t)i * 2U + 7U)) / (float)blades;
            float h = 3.0f + 4.0f * hash01((uint32_t)i * 2U + 8U), lean = (hash01((uint32_t)i + 99U) - 0.5f) * 1.6f;
            float ca = cosf(a), sa = sinf(a), w = 0.35f;
            float tx = -sa, tz = ca; /* along the ring */
            float x = cx + radius * ca, z = cz + radius * sa;
            mur_line_put(&v[n++], x - w * tx, s->ground + 1.0f, z - w * tz, col, 1.0f);
            mur_line_put(&v[n++], x + w * tx, s->ground + 1.0f, z + w * tz, col, 1.0f);
            mur_line_put(&v[n++], x + lean * tx, s->ground + h, z + lean * tz, col, 1.0f);
        }
    }
    return n;
}

/* The sky and the land below the horizon, everywhere (the frame's first pass: it replaces the clear;
 * the dusk frame has no depth test: renderer.c). */
void mur_pass_dusk_sky(mur_renderer *r, const mur_render_frame *f, int height)
{
    int flat_rows = 0;
    uint8_t flat[4];
    const int n = build_dusk_sky(r->geom, f, height, &flat_rows, flat);
    if (flat_rows > 0) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, f->width, flat_rows);
        glClearColor(flat[0] / 255.0f, flat[1] / 255.0f, flat[2] / 255.0f, flat[3] / 255.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
    }
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->ident);
    mur_draw_colored(r, GL_TRIANGLES, r->geom, n);
}

/* The silhouette on the horizon (none with horizon=none): no depth test (the dusk frame has none), its
 * depth clamped so the far plane (set by the flock) does not cut it; the birds are always nearer. */
void mur_pass_dusk_horizon(mur_renderer *r, const mur_render_frame *f, const mur_scene *s)
{
    if (s->horizon == MUR_HORIZON_NONE)
        return;
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->vp);
    /* fixed in the world: built again only when its ring or the ground moved (a world resize, another
     * preset) or the horizon changed */
    const float key[5] = {fmaxf(RING_MIN_RADIUS, 8.0f * f->ext), f->centre[0], f->centre[2], s->ground,
                          (float)s->horizon};
    glBindVertexArray(r->sil_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->sil_vbo);
    if (r->sil_n < 0 || memcmp(key, r->sil_key, sizeof key) != 0) {
        r->sil_n = build_silhouette(r->geom, GEOM_MAX_VERTS, f, s);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->sil_n * sizeof r->geom[0]), r->geom, GL_STATIC_DRAW);
        memcpy(r->sil_key, key, sizeof key);
    }
    glEnable(GL_DEPTH_CLAMP);
    if (r->sil_n > 0)
        glDrawArrays(GL_TRIANGLES, 0, r->sil_n);
    glDisable(GL_DEPTH_CLAMP);
}
