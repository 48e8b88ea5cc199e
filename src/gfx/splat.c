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

struct mur_splat {
    GLuint prog, vao, tex;
    GLint u_rect, u_view, u_tex, u_origin;
    int tw, th;      /* the texture's size: the viewport's */
    float *acc;      /* tw*th*4: premultiplied colour and coverage; zero between frames */
    uint8_t *rgba;   /* the touched rectangle, packed, as 8-bit texels */
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
    sp->u_rect = glGetUniformLocation(sp->prog, "u_rect");
    sp->u_view = glGetUniformLocation(sp->prog, "u_view");
    sp->u_tex = glGetUniformLocation(sp->prog, "u_tex");
    sp->u_origin = glGetUniformLocation(sp->prog, "u_origin");
    glGenVertexArrays(1, &sp->vao);
    glGenTextures(1, &sp->tex);
    return sp;
}

void mur_splat_destroy(mur_splat *sp)
{
    if (!sp)
        return;
    glDeleteProgram(sp->prog);
    glDeleteVertexArrays(1, &sp->vao);
    glDeleteTextures(1, &sp->tex);
    free(sp->acc);
    free(sp->rgba);
    free(sp);
}

/* The buffers and the texture for a w x h viewport. */
static bool fit(mur_splat *sp, int w, int h)
{
    if (w == sp->tw && h == sp->th)
        return true;
    free(sp->acc);
    free(sp->rgba);
    const size_t px = (size_t)w * (size_t)h;
    sp->acc = calloc(px * 4, sizeof(float));
    sp->rgba = malloc(px * 4);
    if (!sp->acc || !sp->rgba) {
        free(sp->acc);
        free(sp->rgba);
        sp->acc = NULL;
        sp->rgba = NULL;
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

/* Blend premultiplied colour and coverage c over pixels [i0, i1) of row j (clipped to the w x h
 * viewport), growing the touched rectangle. */
static void blend_span(mur_splat *sp, int w, int h, int j, int i0, int i1, const float c[4], int *x0, int *y0,
                       int *x1, int *y1)
{
    if (j < 0 || j >= h)
        return;
    i0 = i0 < 0 ? 0 : i0;
    i1 = i1 > w ? w : i1;
    if (i0 >= i1)
        return;
    *x0 = i0 < *x0 ? i0 : *x0;
    *x1 = i1 > *x1 ? i1 : *x1;
    *y0 = j < *y0 ? j : *y0;
    *y1 = j + 1 > *y1 ? j + 1 : *y1;
    const float keep = 1.0f - c[3];
    float *px = sp->acc + 4 * ((size_t)j * (size_t)w + (size_t)i0);
    for (int i = i0; i < i1; i++, px += 4) {
        px[0] = c[0] + px[0] * keep;
        px[1] = c[1] + px[1] * keep;
        px[2] = c[2] + px[2] * keep;
        px[3] = c[3] + px[3] * keep;
    }
}

static uint8_t to8(float v)
{
    v = v * 255.0f + 0.5f;
    return (uint8_t)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
}

bool mur_splat_draw(mur_splat *sp, const mur_render_frame *f, const float *pos, int32_t n, float boid_size,
                    const float color[3], const float haze[3], float fog_dist)
{
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLES, &samples);
    if (samples > 0 || f->width <= 0 || f->height <= 0 || !fit(sp, f->width, f->height))
        return false;
    const int w = f->width, h = f->height;
    const float *m = (const float *)f->vp; /* column-major: m[4 * col + row] */
    const float k = 0.7f * boid_size * f->px_per_wu, inv_fog = 1.0f / fmaxf(fog_dist, 1e-3f);
    int x0 = w, y0 = h, x1 = 0, y1 = 0; /* the touched rectangle, [x0, x1) x [y0, y1) */
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
        const float c[4] = {(color[0] + (haze[0] - color[0]) * hz) * a,
                            (color[1] + (haze[1] - color[1]) * hz) * a,
                            (color[2] + (haze[2] - color[2]) * hz) * a, a};
        /* the pixels whose centres lie in the shape's box round the point, the centre snapped to
         * 1/256 pixel as llvmpipe's rasteriser does (its rows counted from the top) */
        const float iw = 1.0f / cw;
        const float xw = (cx * iw) * (0.5f * (float)w) + 0.5f * (float)w;
        const float yt = (cy * iw) * (-0.5f * (float)h) + 0.5f * (float)h;
        const int vh = vw == 1 ? 1 : 2;
        const int i0 = (int)ceilf((rintf(256.0f * (xw - 0.5f)) - 128.0f * (float)vw) / 256.0f);
        const int r0 = (int)ceilf((rintf(256.0f * (yt - 0.5f)) - 128.0f * (float)vh) / 256.0f);
        const int top = h - 1 - r0; /* GL's row of the top (the wing tips, or the one pixel) */
        if (vw == 1) {
            blend_span(sp, w, h, top, i0, i0 + 1, c, &x0, &y0, &x1, &y1);
        } else {
            blend_span(sp, w, h, top, i0, i0 + tip, c, &x0, &y0, &x1, &y1);
            blend_span(sp, w, h, top, i0 + vw - tip, i0 + vw, c, &x0, &y0, &x1, &y1);
            blend_span(sp, w, h, top - 1, i0 + 1, i0 + vw - 1, c, &x0, &y0, &x1, &y1); /* the body */
        }
    }
    if (x0 >= x1 || y0 >= y1)
        return true; /* nothing on screen */
    const int rw = x1 - x0, rh = y1 - y0;
    uint8_t *t = sp->rgba;
    for (int j = y0; j < y1; j++) {
        float *px = sp->acc + 4 * ((size_t)j * (size_t)w + (size_t)x0);
        for (int i = 0; i < 4 * rw; i++)
            *t++ = to8(px[i]);
        memset(px, 0, (size_t)rw * 4 * sizeof(float)); /* zero again for the next frame */
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, sp->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, rw, rh, GL_RGBA, GL_UNSIGNED_BYTE, sp->rgba);
    glUseProgram(sp->prog);
    glUniform4f(sp->u_rect, (float)x0, (float)y0, (float)x1, (float)y1);
    glUniform2f(sp->u_view, (float)w, (float)h);
    glUniform1i(sp->u_tex, 0);
    glUniform2i(sp->u_origin, x0, y0);
    glDisable(GL_DEPTH_TEST);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA); /* premultiplied: colour + frame * (1 - coverage) */
    glBindVertexArray(sp->vao);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_DEPTH_TEST);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}
