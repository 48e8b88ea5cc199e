/* HUD text and panels (see hud.h). stb_easy_font turns text into quads; we scale them and draw
 * them as triangles in one batch. */
#include "hud.h"

#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "shader.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

typedef struct hud_vertex {
    float x, y;
    uint8_t rgba[4];
} hud_vertex;

/* the vertex layout stb_easy_font writes */
typedef struct stb_vertex {
    float x, y, z;
    uint8_t rgba[4];
} stb_vertex;

struct mur_hud {
    GLuint prog, vao, vbo;
    GLint u_screen;   ///< uniform location, looked up once at creation
    hud_vertex *verts;
    size_t count, cap;
    int width, height;
    float scale;
    stb_vertex scratch[4096]; /* up to 1024 quads per call */
};

mur_hud *mur_hud_create(void)
{
    mur_hud *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->prog = mur_gl_program("hud.vert", "hud.frag");
    if (!h->prog) {
        free(h);
        return NULL;
    }
    h->u_screen = glGetUniformLocation(h->prog, "u_screen");
    glGenVertexArrays(1, &h->vao);
    glGenBuffers(1, &h->vbo);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(hud_vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(hud_vertex),
                          (void *)(2 * sizeof(float)));
    glBindVertexArray(0);
    h->scale = 1.0f;
    return h;
}

void mur_hud_destroy(mur_hud *h)
{
    if (!h)
        return;
    glDeleteVertexArrays(1, &h->vao);
    glDeleteBuffers(1, &h->vbo);
    glDeleteProgram(h->prog);
    free(h->verts);
    free(h);
}

void mur_hud_begin(mur_hud *h, int width, int height, float scale)
{
    h->count = 0;
    h->width = width;
    h->height = height;
    h->scale = scale > 0.0f ? scale : 1.0f;
}

static hud_vertex *reserve(mur_hud *h, size_t n)
{
    if (h->count + n > h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 4096;
        while (cap < h->count + n)
            cap *= 2;
        hud_vertex *v = realloc(h->verts, cap * sizeof *v);
        if (!v)
            return NULL;
        h->verts = v;
        h->cap = cap;
    }
    hud_vertex *out = h->verts + h->count;
    h->count += n;
    return out;
}

static void quad(mur_hud *h, float x0, float y0, float x1, float y1, const uint8_t c[4])
{
    hud_vertex *v = reserve(h, 6);
    if (!v)
        return;
    const float xs[6] = {x0, x1, x1, x0, x1, x0};
    const float ys[6] = {y0, y0, y1, y0, y1, y1};
    for (int i = 0; i < 6; i++) {
        v[i].x = xs[i];
        v[i].y = ys[i];
        memcpy(v[i].rgba, c, 4);
    }
}

void mur_hud_rect(mur_hud *h, float x, float y, float w, float hgt, const uint8_t rgba[4])
{
    quad(h, x, y, x + w, y + hgt, rgba);
}

float mur_hud_text_width(const mur_hud *h, const char *text)
{
    return (float)stb_easy_font_width((char *)text) * h->scale;
}

float mur_hud_line_height(const mur_hud *h)
{
    return 12.0f * h->scale;
}

float mur_hud_text(mur_hud *h, float x, float y, const char *text, const uint8_t rgba[4])
{
    unsigned char col[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
    /* stb_easy_font works in native pixels from (0,0); scale and place its quads ourselves.
     * Long texts are split by line so the scratch buffer never overflows. */
    float widest = 0.0f;
    const char *line = text;
    float ly = y;
    char buf[512];
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= sizeof buf)
            len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        int nq = stb_easy_font_print(0.0f, 0.0f, buf, col, h->scratch, (int)sizeof h->scratch);
        for (int q = 0; q < nq; q++) {
            const stb_vertex *s = &h->scratch[q * 4];
            quad(h, x + s[0].x * h->scale, ly + s[0].y * h->scale, x + s[2].x * h->scale,
                 ly + s[2].y * h->scale, s[0].rgba);
        }
        float w = mur_hud_text_width(h, buf);
        if (w > widest)
            widest = w;
        ly += mur_hud_line_height(h);
        if (!end)
            break;
        line = end + 1;
    }
    return widest;
}

void mur_hud_end(mur_hud *h)
{
    if (h->count == 0)
        return;
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(h->prog);
    glUniform2f(h->u_screen, (float)h->width, (float)h->height);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(h->count * sizeof(hud_vertex)), h->verts,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)h->count);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    h->count = 0;
}
