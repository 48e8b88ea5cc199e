/* The dusk look's points on the CPU (docs/rendering.md, "Points on the CPU"). On software GL a point
 * costs about as much as half a lean bird (vertex fetch, setup and binning of one primitive: about
 * 0.8 us of CPU on llvmpipe), so the 50 000 points of a 100 000-bird flock cost tens of ms a frame.
 * Here each point under 1.5 px is what point.vert's dusk branch makes of it (one pixel, its colour
 * hazed with distance, alpha its area), a larger one a small V of wings (GL's squares of 2 to 4
 * pixels read as blocks; such points come only from the budgets), blended in draw
 * order into a buffer of premultiplied colour and coverage (the "over" operator is associative, so
 * blending the buffer over the frame once gives what blending each point over it gives, up to the
 * rounding of 8-bit colour), then one textured quad over the pixels they touch. About 0.15 us a
 * point on the drawing thread (perf, 52k points at 1280x720, a busy machine). The studio look (depth-tested, lit points) and multisampled targets (recordings:
 * their points cover samples, not whole pixels) keep GL points.
 */
#include "renderer_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader.h"

/* One point as projected: its shape (one pixel, or a V: vw pixels wide, tip pixels at each wing tip)
 * at pixel column i0 and GL row top, its coverage a and its share of haze. */
typedef struct splat_pt {
    int32_t i0, top;
    int32_t vw, tip;
    float a, ahz; /* alpha, alpha x haze */
} splat_pt;

/* The rectangle's tiles (TILE x TILE pixels from its first): only those a point touched are
 * converted to texels and covered by the quads (most of a spread flock's rectangle is sky). */
enum { TILE = 16 };

struct mur_splat {
    GLuint prog, vao, vbo, tex;
    GLint u_view, u_tex, u_origin;
    int tw, th;      /* the texture's size: the viewport's */
    /* the touched rectangle's pixels, rw x rh, row-major from its first: coverage A and the haze's
     * share V of the premultiplied colour, which is (A - V) x bird + V x haze (every point blends the
     * same two colours); zeroed just before the points blend into it, so it is in the cache */
    float *acc;
    uint8_t *rgba;   /* the touched rectangle, packed, as 8-bit texels */
    uint8_t *touched; /* per tile of the rectangle, row-major: a point blended into it */
    float *quads;     /* the quads over runs of touched tiles: 6 vertices each, x and y in pixels */
    splat_pt *pts;   /* the points as projected, in draw order */
    int32_t cap;     /* points pts holds */
};

mur_splat *mur_splat_create(void)
{
    mur_splat *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->prog = mur_gl_program("splat.vert", "splat.frag");
    if (!sp->prog) {
        free(sp);
        return NULL;
    }
    sp->u_view = glGetUniformLocation(sp->prog, "u_view");
    sp->u_tex = glGetUniformLocation(sp->prog, "u_tex");
    sp->u_origin = glGetUniformLocation(sp->prog, "u_origin");
    glGenVertexArrays(1, &sp->vao);
    glGenBuffers(1, &sp->vbo);
    glBindVertexArray(sp->vao);
    glBindBuffer(GL_ARRAY_BUFFER, sp->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), NULL);
    glBindVertexArray(0);
    glGenTextures(1, &sp->tex);
    return sp;
}

void mur_splat_destroy(mur_splat *sp)
{
    if (!sp)
        return;
    glDeleteProgram(sp->prog);
    glDeleteVertexArrays(1, &sp->vao);
    glDeleteBuffers(1, &sp->vbo);
    glDeleteTextures(1, &sp->tex);
    free(sp->acc);
    free(sp->rgba);
    free(sp->touched);
    free(sp->quads);
    free(sp->pts);
    free(sp);
}

/* The buffers and the texture for a w x h viewport. */
static bool fit(mur_splat *sp, int w, int h)
{
    if (w == sp->tw && h == sp->th)
        return true;
    free(sp->acc);
    free(sp->rgba);
    free(sp->touched);
    free(sp->quads);
    const size_t px = (size_t)w * (size_t)h, tiles = (size_t)(w / TILE + 1) * (size_t)(h / TILE + 1);
    sp->acc = malloc(px * 2 * sizeof(float));
    sp->rgba = malloc(px * 4);
    sp->touched = malloc(tiles);
    sp->quads = malloc(tiles * 12 * sizeof(float));
    if (!sp->acc || !sp->rgba || !sp->touched || !sp->quads) {
        free(sp->acc);
        free(sp->rgba);
        free(sp->touched);
        free(sp->quads);
        sp->acc = NULL;
        sp->rgba = NULL;
        sp->touched = NULL;
        sp->quads = NULL;
        sp->tw = sp->th = 0;
        return false;
    }
    sp->tw = w;
    sp->th = h;
    glBindTexture(GL_TEXTURE_2D, sp->tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}

/* Blend a point's coverage a and haze share ahz over pixels [i0, i1) of the rectangle's row j (the
 * span already clipped to the viewport, so inside the rectangle). */
static void blend_span(float *row, int i0, int i1, float a, float ahz)
{
    const float keep = 1.0f - a;
    for (float *px = row + 2 * i0, *end = row + 2 * i1; px < end; px += 2) {
        px[0] = a + px[0] * keep;
        px[1] = ahz + px[1] * keep;
    }
}

/* The rectangle being splatted: its first pixel, its width in pixels and in tiles, the viewport. */
typedef struct splat_rect {
    int x0, y0, rw, cols, w, h;
} splat_rect;

/* One span of a point, row j, pixels [s0, s1), clipped to the viewport (so inside the rectangle),
 * and the tiles it touches marked. */
static void span(mur_splat *sp, const splat_rect *R, int j, int s0, int s1, float a, float ahz)
{
    s0 = s0 < 0 ? 0 : s0;
    s1 = s1 > R->w ? R->w : s1;
    if (j < 0 || j >= R->h || s0 >= s1)
        return;
    const int i0 = s0 - R->x0, i1 = s1 - R->x0, r = j - R->y0;
    blend_span(sp->acc + 2 * (size_t)r * (size_t)R->rw, i0, i1, a, ahz);
    uint8_t *t = sp->touched + (size_t)(r / TILE) * (size_t)R->cols;
    t[i0 / TILE] = 1;
    t[(i1 - 1) / TILE] = 1; /* a span is at most 6 pixels: two tiles at most */
}

static uint8_t to8(float v)
{
    v = v * 255.0f + 0.5f;
    return (uint8_t)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
}

/* Room for n projected points. */
static bool reserve(mur_splat *sp, int32_t n)
{
    if (n <= sp->cap)
        return true;
    splat_pt *p = realloc(sp->pts, (size_t)n * sizeof *p);
    if (!p)
        return false;
    sp->pts = p;
    sp->cap = n;
    return true;
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

bool mur_splat_draw(mur_splat *sp, const mur_render_frame *f, const float *pos, int32_t n, float boid_size,
                    const float color[3], const float haze[3], float fog_dist)
{
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLES, &samples);
    if (samples > 0 || f->width <= 0 || f->height <= 0 || !fit(sp, f->width, f->height) || !reserve(sp, n))
        return false;
    const int w = f->width, h = f->height;
    const float *m = (const float *)f->vp; /* column-major: m[4 * col + row] */
    const float k = 0.7f * boid_size * f->px_per_wu, inv_fog = 1.0f / fmaxf(fog_dist, 1e-3f);
    int x0 = w, y0 = h, x1 = 0, y1 = 0; /* the touched rectangle, [x0, x1) x [y0, y1) */
    int32_t np = 0;
    /* first each point's shape, place and colour, and the rectangle they touch */
    for (int32_t q = 0; q < n; q++) {
        const float *p = pos + 3 * (size_t)q;
        const float cw = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
        const float cx = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
        const float cy = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
        const float cz = m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14];
        /* a point whose centre is outside the clip volume is not drawn (GL's rule for points) */
        if (!(cw > 0.0f) || fabsf(cx) > cw || fabsf(cy) > cw || fabsf(cz) > cw)
            continue;
        /* point.vert, dusk: a bird under 1.5 px one pixel, alpha its area; a larger one (points of
         * 1.5 px and more come only from the budgets: lod.h) a small V of wings, 3 to 6 pixels wide
         * and 2 high, its alpha the bird's area over the V's */
        const float size = k / fmaxf(cw, 1e-3f);
        const int vw = size >= 1.5f ? (int)fminf(fmaxf(floorf(1.3f * size + 0.5f), 3.0f), 6.0f) : 1;
        const int tip = vw >= 5 ? 2 : 1;                   /* each wing tip's pixels in the top row */
        const float npx = vw == 1 ? 1.0f : (float)(2 * tip + vw - 2);
        const float a = 0.92f * fminf(size * size / npx, 1.0f);
        const float dx = f->eye[0] - p[0], dy = f->eye[1] - p[1], dz = f->eye[2] - p[2];
        const float d2 = (dx * dx + dy * dy + dz * dz) * inv_fog * inv_fog;
        const float hz = fminf(1.0f - expf(-0.5f * d2), 0.5f);
        /* the pixels whose centres lie in the shape's box round the point, the centre snapped to
         * 1/256 pixel as llvmpipe's rasteriser does (its rows counted from the top) */
        const float iw = 1.0f / cw;
        const float xw = (cx * iw) * (0.5f * (float)w) + 0.5f * (float)w;
        const float yt = (cy * iw) * (-0.5f * (float)h) + 0.5f * (float)h;
        const int vh = vw == 1 ? 1 : 2;
        const int i0 = (int)ceilf((rintf(256.0f * (xw - 0.5f)) - 128.0f * (float)vw) / 256.0f);
        const int r0 = (int)ceilf((rintf(256.0f * (yt - 0.5f)) - 128.0f * (float)vh) / 256.0f);
        const int top = h - 1 - r0; /* GL's row of the top (the wing tips, or the one pixel) */
        /* the shape's box (rows top - vh + 1 to top), clipped to the viewport */
        const int bx0 = imax(i0, 0), bx1 = imin(i0 + vw, w), by0 = imax(top - vh + 1, 0), by1 = imin(top + 1, h);
        if (bx0 >= bx1 || by0 >= by1)
            continue;
        x0 = imin(x0, bx0);
        x1 = imax(x1, bx1);
        y0 = imin(y0, by0);
        y1 = imax(y1, by1);
        sp->pts[np++] = (splat_pt){i0, top, vw, tip, a, a * hz};
    }
    if (x0 >= x1 || y0 >= y1)
        return true; /* nothing on screen */
    const int rw = x1 - x0, rh = y1 - y0;
    const splat_rect R = {x0, y0, rw, (rw + TILE - 1) / TILE, w, h};
    const int rows = (rh + TILE - 1) / TILE;
    /* then the points blend, in draw order, into the rectangle (zeroed now: in the cache) */
    memset(sp->acc, 0, (size_t)rw * (size_t)rh * 2 * sizeof(float));
    memset(sp->touched, 0, (size_t)R.cols * (size_t)rows);
    for (int32_t q = 0; q < np; q++) {
        const splat_pt *p = &sp->pts[q];
        if (p->vw == 1) {
            span(sp, &R, p->top, p->i0, p->i0 + 1, p->a, p->ahz);
        } else {
            span(sp, &R, p->top, p->i0, p->i0 + p->tip, p->a, p->ahz);
            span(sp, &R, p->top, p->i0 + p->vw - p->tip, p->i0 + p->vw, p->a, p->ahz);
            span(sp, &R, p->top - 1, p->i0 + 1, p->i0 + p->vw - 1, p->a, p->ahz); /* the body */
        }
    }
    /* the touched tiles as 8-bit premultiplied texels, colour (A - V) x bird + V x haze (the others
     * are not drawn: their texels are left as they were), and a quad over each run of them in a row */
    int nq = 0;
    for (int ty = 0; ty < rows; ty++) {
        const int r0 = ty * TILE, r1 = r0 + TILE < rh ? r0 + TILE : rh;
        const uint8_t *t = sp->touched + (size_t)ty * (size_t)R.cols;
        for (int tx = 0; tx < R.cols;) {
            if (!t[tx]) {
                tx++;
                continue;
            }
            const int run0 = tx;
            while (tx < R.cols && t[tx])
                tx++;
            const int c0 = run0 * TILE, c1 = tx * TILE < rw ? tx * TILE : rw;
            for (int r = r0; r < r1; r++) {
                const float *px = sp->acc + 2 * ((size_t)r * (size_t)rw + (size_t)c0);
                uint8_t *o = sp->rgba + 4 * ((size_t)r * (size_t)rw + (size_t)c0);
                for (int i = c0; i < c1; i++, px += 2) {
                    const float A = px[0], V = px[1];
                    *o++ = to8((A - V) * color[0] + V * haze[0]);
                    *o++ = to8((A - V) * color[1] + V * haze[1]);
                    *o++ = to8((A - V) * color[2] + V * haze[2]);
                    *o++ = to8(A);
                }
            }
            const float qx0 = (float)(x0 + c0), qx1 = (float)(x0 + c1), qy0 = (float)(y0 + r0), qy1 = (float)(y0 + r1);
            const float v[12] = {qx0, qy0, qx1, qy0, qx0, qy1, qx1, qy0, qx1, qy1, qx0, qy1};
            memcpy(sp->quads + 12 * (size_t)nq++, v, sizeof v);
        }
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, sp->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, rw, rh, GL_RGBA, GL_UNSIGNED_BYTE, sp->rgba);
    glUseProgram(sp->prog);
    glUniform2f(sp->u_view, (float)w, (float)h);
    glUniform1i(sp->u_tex, 0);
    glUniform2i(sp->u_origin, x0, y0);
    /* (the dusk frame, the only one splatted, has no depth test: renderer.c) */
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA); /* premultiplied: colour + frame * (1 - coverage) */
    glBindVertexArray(sp->vao);
    glBindBuffer(GL_ARRAY_BUFFER, sp->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nq * 12 * sizeof(float)), sp->quads, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, 6 * nq);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}
