/* The 3D scene (see renderer.h). */
#include "renderer.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "mesh.h"
#include "shader.h"

const float mur_color_flying[3] = {0.98f, 0.62f, 0.22f};
const float mur_color_perching[3] = {0.30f, 0.90f, 0.40f};
const float mur_color_predator[3] = {0.95f, 0.12f, 0.16f};

static const float sky_zenith[3] = {0.050f, 0.080f, 0.150f};
static const float sky_horizon[3] = {0.230f, 0.290f, 0.380f};
static const float ground_color[3] = {0.105f, 0.120f, 0.135f};
static const float ground_line[3] = {0.300f, 0.340f, 0.380f};
static const float ambient_sky[3] = {0.55f, 0.65f, 0.85f};
static const float ambient_ground[3] = {0.22f, 0.20f, 0.18f};

enum { LINE_MAX_VERTS = 256 };

typedef struct line_vertex {
    float pos[3];
    uint8_t rgba[4];
} line_vertex;

typedef struct kind_gpu {
    GLuint vao;
    GLuint pos, vel[2], perch; /* instance buffers */
    int cur;                   /* vel[cur] is the newest velocity */
    int count;                 /* instances uploaded */
    bool prev_valid;           /* vel[cur ^ 1] holds the previous upload of the same boids */
    uint64_t tick;             /* tick of the last upload */
    float prev_dt;             /* seconds between the two uploads */
} kind_gpu;

struct mur_renderer {
    GLuint boid_prog, sky_prog, ground_prog, line_prog;
    GLuint mesh_vbo, mesh_ibo;
    int mesh_indices;
    kind_gpu boids, preds;
    bool preds_on;
    GLuint sky_vao;
    GLuint ground_vao, ground_vbo;
    GLuint line_vao, line_vbo;
    line_vertex lines[LINE_MAX_VERTS];
    int nlines;
    bool uploaded;
};

static void kind_init(kind_gpu *k, GLuint mesh_vbo, GLuint mesh_ibo, bool with_perch)
{
    memset(k, 0, sizeof *k);
    glGenVertexArrays(1, &k->vao);
    glGenBuffers(1, &k->pos);
    glGenBuffers(2, k->vel);
    glGenBuffers(1, &k->perch);
    glBindVertexArray(k->vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh_ibo);
    GLsizei stride = (GLsizei)sizeof(mur_mesh_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mur_mesh_vertex, pos));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mur_mesh_vertex, part));
    for (GLuint a = 3; a <= 5; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribDivisor(a, 1);
    }
    if (with_perch) {
        glEnableVertexAttribArray(6);
        glVertexAttribDivisor(6, 1);
    }
    glBindVertexArray(0);
}

static void kind_free(kind_gpu *k)
{
    glDeleteVertexArrays(1, &k->vao);
    glDeleteBuffers(1, &k->pos);
    glDeleteBuffers(2, k->vel);
    glDeleteBuffers(1, &k->perch);
}

/* Orphan the buffer's storage and copy new data in: the driver hands out fresh memory while the
 * previous frame may still read the old one. */
static void stream(GLuint buf, const void *data, size_t bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    if (bytes > 0 && data)
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, data);
}

static void kind_upload(kind_gpu *k, int n, const float *pos, const float *vel,
                        const int32_t *perch, uint64_t tick, float dt)
{
    bool same = k->count == n && k->tick != 0 && tick > k->tick;
    k->prev_dt = same ? (float)(tick - k->tick) * dt : 0.0f;
    k->cur ^= 1;
    stream(k->pos, pos, (size_t)n * 3 * sizeof(float));
    stream(k->vel[k->cur], vel, (size_t)n * 3 * sizeof(float));
    if (perch)
        stream(k->perch, perch, (size_t)n * sizeof(int32_t));
    k->prev_valid = same;
    k->count = n;
    k->tick = tick;

    glBindVertexArray(k->vao);
    glBindBuffer(GL_ARRAY_BUFFER, k->pos);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindBuffer(GL_ARRAY_BUFFER, k->vel[k->cur]);
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    /* without a previous upload of the same boids, "previous" is the current: no bank */
    glBindBuffer(GL_ARRAY_BUFFER, k->vel[same ? k->cur ^ 1 : k->cur]);
    glVertexAttribPointer(5, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    if (perch) {
        glBindBuffer(GL_ARRAY_BUFFER, k->perch);
        glVertexAttribIPointer(6, 1, GL_INT, 0, NULL);
    }
    glBindVertexArray(0);
}

mur_renderer *mur_renderer_create(void)
{
    mur_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->boid_prog = mur_gl_program("boid.vert", "boid.frag");
    r->sky_prog = mur_gl_program("sky.vert", "sky.frag");
    r->ground_prog = mur_gl_program("ground.vert", "ground.frag");
    r->line_prog = mur_gl_program("line.vert", "line.frag");
    if (!r->boid_prog || !r->sky_prog || !r->ground_prog || !r->line_prog) {
        mur_renderer_destroy(r);
        return NULL;
    }

    mur_mesh_vertex mesh[MUR_BIRD_MAX_VERTS];
    uint16_t idx[MUR_BIRD_MAX_INDICES];
    int nverts = 0;
    r->mesh_indices = mur_mesh_bird(mesh, &nverts, idx);
    glGenBuffers(1, &r->mesh_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nverts * sizeof mesh[0]), mesh,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &r->mesh_ibo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_ibo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->mesh_indices * sizeof idx[0]), idx,
                 GL_STATIC_DRAW);
    kind_init(&r->boids, r->mesh_vbo, r->mesh_ibo, true);
    kind_init(&r->preds, r->mesh_vbo, r->mesh_ibo, false);

    glGenVertexArrays(1, &r->sky_vao);

    glGenVertexArrays(1, &r->ground_vao);
    glGenBuffers(1, &r->ground_vbo);
    glBindVertexArray(r->ground_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->ground_vbo);
    glBufferData(GL_ARRAY_BUFFER, 8 * sizeof(float), NULL, GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);

    glGenVertexArrays(1, &r->line_vao);
    glGenBuffers(1, &r->line_vbo);
    glBindVertexArray(r->line_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof r->lines, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(line_vertex),
                          (void *)offsetof(line_vertex, pos));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(line_vertex),
                          (void *)offsetof(line_vertex, rgba));
    glBindVertexArray(0);
    return r;
}

void mur_renderer_destroy(mur_renderer *r)
{
    if (!r)
        return;
    if (r->mesh_vbo) {
        kind_free(&r->boids);
        kind_free(&r->preds);
        glDeleteBuffers(1, &r->mesh_vbo);
        glDeleteBuffers(1, &r->mesh_ibo);
        glDeleteVertexArrays(1, &r->sky_vao);
        glDeleteVertexArrays(1, &r->ground_vao);
        glDeleteBuffers(1, &r->ground_vbo);
        glDeleteVertexArrays(1, &r->line_vao);
        glDeleteBuffers(1, &r->line_vbo);
    }
    GLuint progs[] = {r->boid_prog, r->sky_prog, r->ground_prog, r->line_prog};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        if (progs[i])
            glDeleteProgram(progs[i]);
    free(r);
}

void mur_renderer_upload(mur_renderer *r, const mur_view *v, float dt, bool force)
{
    bool changed = !r->uploaded || force || v->tick + 1 != r->boids.tick
                   || v->boids != r->boids.count
                   || v->predators != r->preds.count;
    r->preds_on = v->predators_on;
    if (!changed)
        return;
    /* tick 0 is a real state too: store tick + 1 so "never uploaded" stays distinguishable */
    kind_upload(&r->boids, v->boids, v->pos, v->vel, v->perch, v->tick + 1, dt);
    kind_upload(&r->preds, v->predators, v->pred_pos, v->pred_vel, NULL, v->tick + 1, dt);
    r->uploaded = true;
}

/* ------------------------------------------------------------------ lines: box and goal */

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
            float t0 = 6.2831853f * (float)i / (float)seg;
            float t1 = 6.2831853f * (float)(i + 1) / (float)seg;
            float a[3] = {g[0] + k * cosf(t0), s->ground, g[2] + k * sinf(t0)};
            float b[3] = {g[0] + k * cosf(t1), s->ground, g[2] + k * sinf(t1)};
            line_add(r, a, b, c);
        }
    }
}

/* ------------------------------------------------------------------ draw */

static GLint loc(GLuint p, const char *name)
{
    return glGetUniformLocation(p, name);
}

static void draw_kind(mur_renderer *r, const kind_gpu *k, float size, const float color[3],
                      float bank_gain)
{
    if (k->count <= 0)
        return;
    GLuint p = r->boid_prog;
    glUniform1f(loc(p, "u_size"), size);
    glUniform3fv(loc(p, "u_color_fly"), 1, color);
    glUniform1f(loc(p, "u_bank_gain"), k->prev_valid && k->prev_dt > 0.0f ? bank_gain / k->prev_dt
                                                                         : 0.0f);
    glBindVertexArray(k->vao);
    glDrawElementsInstanced(GL_TRIANGLES, r->mesh_indices, GL_UNSIGNED_SHORT, NULL, k->count);
}

void mur_renderer_draw(mur_renderer *r, const mur_camera *cam, const mur_scene *s, int width,
                       int height)
{
    mat4 vp, inv;
    vec3 eye;
    mur_camera_view_proj(cam, vp);
    glm_mat4_inv(vp, inv);
    mur_camera_eye(cam, eye);
    float ext = 0.0f, centre[3];
    for (int i = 0; i < 3; i++) {
        ext = fmaxf(ext, s->world_max[i] - s->world_min[i]);
        centre[i] = 0.5f * (s->world_min[i] + s->world_max[i]);
    }
    float sun[3] = {0.45f, 0.80f, 0.35f};
    glm_vec3_normalize(sun);

    glViewport(0, 0, width, height);
    glClearColor(sky_horizon[0], sky_horizon[1], sky_horizon[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);

    int skip = getenv("SKIP") ? atoi(getenv("SKIP")) : 0;
    /* sky */
    if (!(skip & 1)) {
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glUseProgram(r->sky_prog);
    glUniformMatrix4fv(loc(r->sky_prog, "u_inv_vp"), 1, GL_FALSE, (const float *)inv);
    glUniform3fv(loc(r->sky_prog, "u_eye"), 1, eye);
    glUniform3fv(loc(r->sky_prog, "u_zenith"), 1, sky_zenith);
    glUniform3fv(loc(r->sky_prog, "u_horizon"), 1, sky_horizon);
    glUniform3fv(loc(r->sky_prog, "u_sun_dir"), 1, sun);
    glBindVertexArray(r->sky_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glDepthMask(GL_TRUE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);

    /* ground: a square around the box, fading out before its edge */
    float half = 1.6f * ext;
    float quad[8] = {centre[0] - half, centre[2] - half, centre[0] + half, centre[2] - half,
                     centre[0] - half, centre[2] + half, centre[0] + half, centre[2] + half};
    GLuint g = r->ground_prog;
    glUseProgram(g);
    glBindVertexArray(r->ground_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->ground_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof quad, quad);
    glUniformMatrix4fv(loc(g, "u_vp"), 1, GL_FALSE, (const float *)vp);
    glUniform1f(loc(g, "u_ground"), s->ground);
    glUniform3fv(loc(g, "u_eye"), 1, eye);
    glUniform3fv(loc(g, "u_color"), 1, ground_color);
    glUniform3fv(loc(g, "u_line_color"), 1, ground_line);
    glUniform3fv(loc(g, "u_fog_color"), 1, sky_horizon);
    glUniform2f(loc(g, "u_centre"), centre[0], centre[2]);
    float cell = powf(10.0f, floorf(log10f(fmaxf(ext, 1e-3f) / 4.0f)));
    glUniform1f(loc(g, "u_cell"), cell);
    glUniform1f(loc(g, "u_fade"), half);
    /* draw the ground a hair behind what lies on it (perching boids, the goal ring) */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    if (!(skip & 2)) glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_POLYGON_OFFSET_FILL);

    /* boids and predators: one instanced draw each */
    GLuint p = r->boid_prog;
    glUseProgram(p);
    glUniformMatrix4fv(loc(p, "u_vp"), 1, GL_FALSE, (const float *)vp);
    glUniform1f(loc(p, "u_time"), s->time);
    glUniform2f(loc(p, "u_speed_range"), s->min_speed, s->max_speed);
    glUniform3fv(loc(p, "u_color_perch"), 1, mur_color_perching);
    glUniform3fv(loc(p, "u_eye"), 1, eye);
    glUniform3fv(loc(p, "u_sun_dir"), 1, sun);
    glUniform3fv(loc(p, "u_sky_color"), 1, ambient_sky);
    glUniform3fv(loc(p, "u_ground_color"), 1, ambient_ground);
    glUniform3fv(loc(p, "u_fog_color"), 1, sky_horizon);
    glUniform1f(loc(p, "u_fog_dist"), 2.5f * ext);
    float gain = s->bank_g > 0.0f ? 1.0f / s->bank_g : 0.0f;
    glUniform1i(loc(p, "u_color_mode"), s->color_by_speed ? 1 : 0);
    if (!(skip & 4)) draw_kind(r, &r->boids, s->boid_size, mur_color_flying, gain);
    if (r->preds_on) {
        glUniform1i(loc(p, "u_color_mode"), 0);
        glVertexAttribI1i(6, 0);
        draw_kind(r, &r->preds, s->boid_size * 2.6f, mur_color_predator, 0.0f);
    }

    /* box and goal */
    build_lines(r, s);
    if (r->nlines > 0) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUseProgram(r->line_prog);
        glUniformMatrix4fv(loc(r->line_prog, "u_vp"), 1, GL_FALSE, (const float *)vp);
        glBindVertexArray(r->line_vao);
        glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
        glBufferData(GL_ARRAY_BUFFER, sizeof r->lines, NULL, GL_STREAM_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->nlines * sizeof(line_vertex)),
                        r->lines);
        glDrawArrays(GL_LINES, 0, r->nlines);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
    glUseProgram(0);
}
