/* Offscreen target and PBO readback ring (see target.h). */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl.h"

enum { RING = 3 }; /* frames in flight: llvmpipe or a GPU finishes frame i while i+1, i+2 are queued */

struct mur_target {
    int w, h, samples;
    GLuint ms_fbo, ms_color, ms_depth; /* multisampled (only when samples > 1) */
    GLuint fbo, color, depth;          /* single-sample, resolved */
    GLuint pbo[RING];
    int head, pending;                 /* next PBO to fill; frames started and not taken */
    int mapped;                        /* PBO index mapped by read_take, or -1 */
};

static bool complete(GLuint fbo, const char *what, char *err, size_t len)
{
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, len, "the %s framebuffer is incomplete (status 0x%x)", what, st);
        return false;
    }
    return true;
}

void mur_target_destroy(mur_target *t)
{
    if (!t)
        return;
    if (t->mapped >= 0)
        mur_target_read_done(t);
    glDeleteBuffers(RING, t->pbo);
    GLuint fbos[] = {t->fbo, t->ms_fbo};
    GLuint rbs[] = {t->color, t->depth, t->ms_color, t->ms_depth};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(4, rbs);
    free(t);
}

mur_target *mur_target_create(int width, int height, int samples, char *err, size_t err_len)
{
    GLint max_rb = 0, max_samples = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    if (width > max_rb || height > max_rb) {
        snprintf(err, err_len, "frame size %dx%d is larger than this GL allows (%d)", width, height,
                 max_rb);
        return NULL;
    }
    mur_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    t->w = width;
    t->h = height;
    t->mapped = -1;
    t->samples = samples > max_samples ? max_samples : samples;
    if (t->samples < 2)
        t->samples = 0;

    glGenFramebuffers(1, &t->fbo);
    glGenRenderbuffers(1, &t->color);
    glGenRenderbuffers(1, &t->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, t->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth);
    bool ok = complete(t->fbo, "frame", err, err_len);
    if (ok && t->samples) {
        glGenFramebuffers(1, &t->ms_fbo);
        glGenRenderbuffers(1, &t->ms_color);
        glGenRenderbuffers(1, &t->ms_depth);
        glBindRenderbuffer(GL_RENDERBUFFER, t->ms_color);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, t->samples, GL_RGBA8, width, height);
        glBindRenderbuffer(GL_RENDERBUFFER, t->ms_depth);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, t->samples, GL_DEPTH_COMPONENT24, width,
                                         height);
        glBindFramebuffer(GL_FRAMEBUFFER, t->ms_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  t->ms_color);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                                  t->ms_depth);
        ok = complete(t->ms_fbo, "multisampled frame", err, err_len);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (ok) {
        glGenBuffers(RING, t->pbo);
        for (int i = 0; i < RING; i++) {
            glBindBuffer(GL_PIXEL_PACK_BUFFER, t->pbo[i]);
            glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)((size_t)width * (size_t)height * 4),
                         NULL, GL_STREAM_READ);
        }
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    if (!ok || glGetError() != GL_NO_ERROR) {
        if (ok)
            snprintf(err, err_len, "cannot allocate a %dx%d frame (out of GL memory?)", width,
                     height);
        mur_target_destroy(t);
        return NULL;
    }
    return t;
}

int mur_target_width(const mur_target *t)
{
    return t->w;
}

int mur_target_height(const mur_target *t)
{
    return t->h;
}

int mur_target_samples(const mur_target *t)
{
    return t->samples;
}

void mur_target_bind(mur_target *t)
{
    glBindFramebuffer(GL_FRAMEBUFFER, t->samples ? t->ms_fbo : t->fbo);
    glViewport(0, 0, t->w, t->h);
}

void mur_target_resolve(mur_target *t)
{
    if (!t->samples)
        return;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->ms_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->fbo);
    glBlitFramebuffer(0, 0, t->w, t->h, 0, 0, t->w, t->h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
}

void mur_target_present(mur_target *t, int dst_w, int dst_h)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    bool same = dst_w == t->w && dst_h == t->h;
    if (!same) {
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    /* keep the aspect ratio: letterbox inside the window */
    int w = dst_w, h = (int)((double)dst_w * t->h / t->w);
    if (h > dst_h) {
        h = dst_h;
        w = (int)((double)dst_h * t->w / t->h);
    }
    int x = (dst_w - w) / 2, y = (dst_h - h) / 2;
    glBlitFramebuffer(0, 0, t->w, t->h, x, y, x + w, y + h, GL_COLOR_BUFFER_BIT,
                      same ? GL_NEAREST : GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, dst_w, dst_h);
}

void mur_target_bind_read(mur_target *t)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
}

void mur_target_read_start(mur_target *t)
{
    mur_target_bind_read(t);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, t->pbo[t->head]);
    glReadPixels(0, 0, t->w, t->h, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    t->head = (t->head + 1) % RING;
    t->pending++;
}

const uint8_t *mur_target_read_take(mur_target *t, bool drain)
{
    if (t->pending == 0 || (!drain && t->pending < RING))
        return NULL;
    int idx = ((t->head - t->pending) % RING + RING) % RING;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, t->pbo[idx]);
    void *p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0,
                               (GLsizeiptr)((size_t)t->w * (size_t)t->h * 4), GL_MAP_READ_BIT);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    t->pending--;
    if (!p)
        return NULL;
    t->mapped = idx;
    return p;
}

void mur_target_read_done(mur_target *t)
{
    if (t->mapped < 0)
        return;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, t->pbo[t->mapped]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    t->mapped = -1;
}
