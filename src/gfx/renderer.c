/* The 3D scene (see renderer.h). */
#include "renderer.h"
#include "lod.h"
#include "shadows.h"

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

enum { LINE_MAX_VERTS = 256, GEOM_MAX_VERTS = 16384 };

typedef struct line_vertex {
    float pos[3];
    uint8_t rgba[4];
} line_vertex;

enum { SLOTS = 3 }; /* drawn, previous (for banking), being filled for the next frame */

typedef struct kind_slot {
    GLuint pos, vel, perch, roll;   /* perch and roll: boids only */
    GLuint prevv, ids;              /* boids only: each bird's previous velocity and index (lod.h order) */
    int count;     /* instances in this slot */
    uint64_t tick; /* tick + 1 of the state it holds, 0 = empty */
} kind_slot;

typedef struct kind_gpu {
    GLuint vao;
    kind_slot slot[SLOTS];
    int cur;           /* slot drawn */
    int mapped;        /* slot mapped for filling, or -1 */
    int count;         /* instances drawn */
    bool prev_valid;   /* the previous slot holds the same boids one or more ticks earlier */
    float prev_dt;     /* seconds between the two states */
    bool with_perch;
} kind_gpu;

/* What the upload needs besides GL (host memory, filled by the copy on any thread): the draw
 * order and each bird's previous velocity by index. */
struct mur_lod_state {
    int32_t cap;           /* birds the arrays hold */
    float *px;             /* scratch: projected sizes */
    int32_t *order;        /* draw order: bird indices */
    float *prev;           /* cap*3: the velocities of the last upload, by bird */
    int32_t n_prev;        /* birds in it */
    uint64_t tick_prev;    /* its tick */
    bool have_prev;
    int32_t counts[MUR_LOD_KINDS]; /* the last copy's full, lean and point birds */
};

/* Room for n birds (GL thread, between commits). False when memory runs out. */
static bool lod_reserve(mur_lod_state *L, int32_t n)
{
    if (n <= L->cap)
        return true;
    float *px = realloc(L->px, (size_t)n * sizeof(float));
    if (px)
        L->px = px;
    int32_t *order = realloc(L->order, (size_t)n * sizeof(int32_t));
    if (order)
        L->order = order;
    float *prev = realloc(L->prev, (size_t)n * 3 * sizeof(float));
    if (prev)
        L->prev = prev;
    if (!px || !order || !prev)
        return false;
    L->cap = n;
    L->have_prev = false;
    return true;
}

/* Uniform locations, looked up once when the programs are linked. */
enum {
    BU_VP, BU_TIME, BU_SPEED_RANGE, BU_COLOR_PERCH, BU_EYE, BU_SUN_DIR, BU_SKY_COLOR, BU_GROUND_COLOR,
    BU_FOG_COLOR, BU_FOG_DIST, BU_COLOR_MODE, BU_SIZE, BU_COLOR_FLY, BU_BANK_GAIN, BU_COUNT
};
static const char *const BOID_UNIFORMS[BU_COUNT] = {
    "u_vp", "u_time", "u_speed_range", "u_color_perch", "u_eye", "u_sun_dir", "u_sky_color",
    "u_ground_color", "u_fog_color", "u_fog_dist", "u_color_mode", "u_size", "u_color_fly", "u_bank_gain",
};
enum {
    PU_VP, PU_SIZE, PU_PX_PER_WU, PU_COLOR_FLY, PU_COLOR_PERCH, PU_SUN_DIR, PU_FOG_COLOR, PU_EYE,
    PU_FOG_DIST, PU_COUNT
};
static const char *const POINT_UNIFORMS[PU_COUNT] = {
    "u_vp", "u_size", "u_px_per_wu", "u_color_fly", "u_color_perch", "u_sun_dir", "u_fog_color",
    "u_eye", "u_fog_dist",
};

struct mur_renderer {
    GLuint boid_prog, line_prog;
    GLint boid_u[BU_COUNT], point_u[PU_COUNT], line_u_vp;
    GLuint mesh_vbo, mesh_ibo;
    int mesh_indices;             /* the full bird: indices [0, mesh_indices) */
    int lean_indices;             /* the lean bird: the next lean_indices */
    mur_lod_policy lod;           /* which bird each size gets (lod.h) */
    float lod_vp[16], lod_k;      /* the last frame's camera, for the next state's order */
    float order_vp[16], order_k;  /* the camera of the order being filled or drawn */
    mur_lod_state *lods;          /* the upload's order and previous velocities (host memory) */
    int32_t split[MUR_LOD_KINDS]; /* the drawn state: full, lean and point birds, in that order */
    GLuint point_prog, point_vao; /* points: the boids' buffers read per vertex, not per instance */
    mur_shadows *shadows;           /* ground shadows (shadows.c) */
    kind_gpu boids, preds;
    bool preds_on;
    GLuint line_vao, line_vbo;
    line_vertex lines[LINE_MAX_VERTS];
    int nlines;
    line_vertex geom[GEOM_MAX_VERTS]; /* ground, grid and sky, built on the CPU */
    bool uploaded;
};

static void kind_init(kind_gpu *k, GLuint mesh_vbo, GLuint mesh_ibo, bool with_perch)
{
    memset(k, 0, sizeof *k);
    k->mapped = -1;
    k->with_perch = with_perch;
    glGenVertexArrays(1, &k->vao);
    for (int i = 0; i < SLOTS; i++) {
        glGenBuffers(1, &k->slot[i].pos);
        glGenBuffers(1, &k->slot[i].vel);
        glGenBuffers(1, &k->slot[i].perch);
        glGenBuffers(1, &k->slot[i].roll);
        glGenBuffers(1, &k->slot[i].prevv);
        glGenBuffers(1, &k->slot[i].ids);
    }
    glBindVertexArray(k->vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh_ibo);
    GLsizei stride = (GLsizei)sizeof(mur_mesh_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mur_mesh_vertex, pos));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          (void *)offsetof(mur_mesh_vertex, face_normal));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mur_mesh_vertex, part));
    for (GLuint a = 3; a <= 5; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribDivisor(a, 1);
    }
    if (with_perch) {
        for (GLuint a = 6; a <= 8; a++) {
            glEnableVertexAttribArray(a);
            glVertexAttribDivisor(a, 1);
        }
    }
    glBindVertexArray(0);
}

static void kind_unmap(kind_gpu *k)
{
    if (k->mapped < 0)
        return;
    kind_slot *s = &k->slot[k->mapped];
    GLuint bufs[6] = {s->pos, s->vel, s->perch, s->roll, s->prevv, s->ids};
    for (int i = 0; i < (k->with_perch ? 6 : 2); i++) {
        glBindBuffer(GL_ARRAY_BUFFER, bufs[i]);
        if (s->count > 0)
            glUnmapBuffer(GL_ARRAY_BUFFER);
    }
    k->mapped = -1;
}

static void kind_free(kind_gpu *k)
{
    kind_unmap(k);
    glDeleteVertexArrays(1, &k->vao);
    for (int i = 0; i < SLOTS; i++) {
        GLuint bufs[6] = {k->slot[i].pos,   k->slot[i].vel,   k->slot[i].perch,
                          k->slot[i].roll,  k->slot[i].prevv, k->slot[i].ids};
        glDeleteBuffers(6, bufs);
    }
}

/* Orphan the buffer's storage and map the fresh one: the driver hands out new memory while a
 * queued frame may still read the old one, and the caller (any thread) copies the state straight
 * into it, the only copy of the state on its way to GL. */
static void *map_orphan(GLuint buf, size_t bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    if (bytes == 0)
        return NULL;
    return glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes,
                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT
                                | GL_MAP_UNSYNCHRONIZED_BIT);
}

static bool kind_map(kind_gpu *k, int n, mur_upload_dst *d, bool boids)
{
    kind_unmap(k);
    int idx = (k->cur + 1) % SLOTS;
    kind_slot *s = &k->slot[idx];
    s->count = n;
    s->tick = 0;
    k->mapped = idx;
    const size_t f3 = (size_t)n * 3 * sizeof(float), f1 = (size_t)n * sizeof(float);
    if (!boids) {
        d->pred_pos = map_orphan(s->pos, f3);
        d->pred_vel = map_orphan(s->vel, f3);
        return n == 0 || (d->pred_pos && d->pred_vel);
    }
    d->pos = map_orphan(s->pos, f3);
    d->vel = map_orphan(s->vel, f3);
    d->perch = map_orphan(s->perch, (size_t)n * sizeof(int32_t));
    d->roll = map_orphan(s->roll, f1);
    d->vel_prev = map_orphan(s->prevv, f3);
    d->ids = map_orphan(s->ids, (size_t)n * sizeof(int32_t));
    return n == 0 || (d->pos && d->vel && d->perch && d->roll && d->vel_prev && d->ids);
}

/* The boids' per-instance attributes from bird first of the drawn slot on (each kind of bird is a
 * contiguous range: lod.h). GL 3.3 has no base instance, so the pointers move instead. */
static void point_boids_at(kind_gpu *k, int32_t first)
{
    const kind_slot *s = &k->slot[k->cur];
    const size_t f3 = (size_t)first * 3 * sizeof(float), f1 = (size_t)first * sizeof(float);
    glBindVertexArray(k->vao);
    glBindBuffer(GL_ARRAY_BUFFER, s->pos);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 0, (void *)f3);
    glBindBuffer(GL_ARRAY_BUFFER, s->vel);
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, (void *)f3);
    glBindBuffer(GL_ARRAY_BUFFER, s->prevv);
    glVertexAttribPointer(5, 3, GL_FLOAT, GL_FALSE, 0, (void *)f3);
    glBindBuffer(GL_ARRAY_BUFFER, s->perch);
    glVertexAttribIPointer(6, 1, GL_INT, 0, (void *)f1);
    glBindBuffer(GL_ARRAY_BUFFER, s->roll);
    glVertexAttribPointer(7, 1, GL_FLOAT, GL_FALSE, 0, (void *)f1);
    glBindBuffer(GL_ARRAY_BUFFER, s->ids);
    glVertexAttribIPointer(8, 1, GL_INT, 0, (void *)f1);
}

static void kind_commit(kind_gpu *k, uint64_t tick, float dt)
{
    if (k->mapped < 0)
        return;
    int idx = k->mapped;
    kind_unmap(k);
    kind_slot *s = &k->slot[idx], *prev = &k->slot[k->cur];
    bool same = prev->tick != 0 && prev->count == s->count && tick > prev->tick;
    k->prev_dt = same ? (float)(tick - prev->tick) * dt : 0.0f;
    k->prev_valid = same;
    s->tick = tick;
    k->count = s->count;
    /* without a previous state of the same boids, "previous" is the current: no bank */
    GLuint prev_vel = same ? prev->vel : s->vel;
    k->cur = idx;

    glBindVertexArray(k->vao);
    glBindBuffer(GL_ARRAY_BUFFER, s->pos);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindBuffer(GL_ARRAY_BUFFER, s->vel);
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    /* boids: their own previous velocities, copied in draw order (the order changes with the view) */
    glBindBuffer(GL_ARRAY_BUFFER, k->with_perch ? s->prevv : prev_vel);
    glVertexAttribPointer(5, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray(0);
}

mur_renderer *mur_renderer_create(void)
{
    mur_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->boid_prog = mur_gl_program("boid.vert", "boid.frag");
    r->line_prog = mur_gl_program("line.vert", "line.frag");
    r->point_prog = mur_gl_program("point.vert", "point.frag");
    r->shadows = mur_shadows_create();
    if (!r->boid_prog || !r->line_prog || !r->point_prog || !r->shadows) {
        mur_renderer_destroy(r);
        return NULL;
    }
    for (int i = 0; i < BU_COUNT; i++)
        r->boid_u[i] = glGetUniformLocation(r->boid_prog, BOID_UNIFORMS[i]);
    for (int i = 0; i < PU_COUNT; i++)
        r->point_u[i] = glGetUniformLocation(r->point_prog, POINT_UNIFORMS[i]);
    r->line_u_vp = glGetUniformLocation(r->line_prog, "u_vp");

    mur_mesh_vertex mesh[MUR_BIRD_MAX_VERTS];
    uint16_t idx[MUR_BIRD_MAX_INDICES];
    int nverts = 0;
    r->mesh_indices = mur_mesh_bird(mesh, &nverts, idx);
    r->lean_indices = mur_mesh_bird_lean(idx + r->mesh_indices);
    /* Software GL (llvmpipe) pays per primitive: there each bird's mesh follows its size on screen
     * (lod.h); a GPU always draws the full bird. MURMUR_BIRD=full|lean|points forces one. */
    r->lod = mur_lod_policy_for(mur_gl_is_software((const char *)glGetString(GL_RENDERER)), getenv("MURMUR_BIRD"));
    r->lods = calloc(1, sizeof *r->lods); /* NULL: every bird full, in index order */
    glGenBuffers(1, &r->mesh_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nverts * sizeof mesh[0]), mesh,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &r->mesh_ibo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_ibo);
    glBufferData(GL_ARRAY_BUFFER,
                 (GLsizeiptr)((size_t)(r->mesh_indices + r->lean_indices) * sizeof idx[0]), idx,
                 GL_STATIC_DRAW);
    kind_init(&r->boids, r->mesh_vbo, r->mesh_ibo, true);
    kind_init(&r->preds, r->mesh_vbo, r->mesh_ibo, false);
    glGenVertexArrays(1, &r->point_vao);
    glBindVertexArray(r->point_vao);
    glEnableVertexAttribArray(3);
    glEnableVertexAttribArray(4);
    glEnableVertexAttribArray(6);
    glEnableVertexAttribArray(8);
    glBindVertexArray(0);

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
        glDeleteVertexArrays(1, &r->line_vao);
        glDeleteBuffers(1, &r->line_vbo);
    }
    if (r->point_vao)
        glDeleteVertexArrays(1, &r->point_vao);
    mur_shadows_destroy(r->shadows);
    GLuint progs[] = {r->boid_prog, r->line_prog, r->point_prog};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        if (progs[i])
            glDeleteProgram(progs[i]);
    if (r->lods) {
        free(r->lods->px);
        free(r->lods->order);
        free(r->lods->prev);
        free(r->lods);
    }
    free(r);
}

bool mur_renderer_map(mur_renderer *r, int32_t boids, int32_t predators, mur_upload_dst *dst)
{
    memset(dst, 0, sizeof *dst);
    dst->boids = boids;
    dst->predators = predators;
    /* the order follows the last frame's camera (lod.h); without host memory every bird is full */
    dst->lod = r->lods && lod_reserve(r->lods, boids) ? r->lods : NULL;
    dst->lod_view = mur_lod_view_for(&r->lod, boids, r->lod_vp, 1.0f, r->lod_k);
    memcpy(r->order_vp, r->lod_vp, sizeof r->order_vp);
    r->order_k = r->lod_k;
    bool ok = kind_map(&r->boids, boids, dst, true);
    ok = kind_map(&r->preds, predators, dst, false) && ok;
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return ok;
}

void mur_renderer_commit(mur_renderer *r, uint64_t tick, float dt, bool predators_on)
{
    /* tick 0 is a real state too: store tick + 1 so "empty" stays distinguishable */
    bool boids_mapped = r->boids.mapped >= 0;
    kind_commit(&r->boids, tick + 1, dt);
    if (boids_mapped) {
        const kind_slot *s = &r->boids.slot[r->boids.cur];
        memset(r->split, 0, sizeof r->split);
        if (r->lods)
            memcpy(r->split, r->lods->counts, sizeof r->split);
        else
            r->split[MUR_LOD_FULL] = s->count;
        point_boids_at(&r->boids, 0);
        glBindVertexArray(r->point_vao);
        glBindBuffer(GL_ARRAY_BUFFER, s->pos);
        glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        glBindBuffer(GL_ARRAY_BUFFER, s->vel);
        glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        glBindBuffer(GL_ARRAY_BUFFER, s->perch);
        glVertexAttribIPointer(6, 1, GL_INT, 0, NULL);
        glBindBuffer(GL_ARRAY_BUFFER, s->ids);
        glVertexAttribIPointer(8, 1, GL_INT, 0, NULL);
        glBindVertexArray(0);
        mur_shadows_source(r->shadows, s->pos);
    }
    kind_commit(&r->preds, tick + 1, dt);
    r->preds_on = predators_on;
    r->uploaded = true;
}

/* The boids in draw order (lod.h): each bird's state, its index, and its previous velocity when the
 * last upload held the same birds one or more ticks earlier (else the current one: no bank). */
static void copy_boids(const mur_upload_dst *d, const mur_view *v, int32_t n)
{
    mur_lod_state *L = d->lod;
    if (L)
        mur_lod_order(&d->lod_view, v->pos, n, L->px, L->order, L->counts);
    const bool prev_ok = L && L->have_prev && L->n_prev == n && v->tick > L->tick_prev;
    for (int32_t q = 0; q < n; q++) {
        const int32_t i = L ? L->order[q] : q;
        const float *vel = v->vel + 3 * (size_t)i;
        memcpy(d->pos + 3 * (size_t)q, v->pos + 3 * (size_t)i, 3 * sizeof(float));
        memcpy(d->vel + 3 * (size_t)q, vel, 3 * sizeof(float));
        memcpy(d->vel_prev + 3 * (size_t)q, prev_ok ? L->prev + 3 * (size_t)i : vel, 3 * sizeof(float));
        d->perch[q] = v->perch[i];
        d->roll[q] = v->roll ? v->roll[i] : 0.0f;
        d->ids[q] = i;
    }
    if (L) {
        memcpy(L->prev, v->vel, (size_t)n * 3 * sizeof(float));
        L->n_prev = n;
        L->tick_prev = v->tick;
        L->have_prev = true;
    }
}

void mur_upload_copy(const mur_upload_dst *d, const mur_view *v)
{
    int32_t n = d->boids < v->boids ? d->boids : v->boids;
    int32_t np = d->predators < v->predators ? d->predators : v->predators;
    if (d->pos && n > 0)
        copy_boids(d, v, n);
    else if (d->lod)
        memset(d->lod->counts, 0, sizeof d->lod->counts);
    if (d->pred_pos && np > 0) {
        memcpy(d->pred_pos, v->pred_pos, (size_t)np * 3 * sizeof(float));
        memcpy(d->pred_vel, v->pred_vel, (size_t)np * 3 * sizeof(float));
    }
}

void mur_renderer_upload(mur_renderer *r, const mur_view *v, float dt, bool force)
{
    bool changed = !r->uploaded || force || v->tick + 1 != r->boids.slot[r->boids.cur].tick
                   || v->boids != r->boids.count || v->predators != r->preds.count;
    r->preds_on = v->predators_on;
    if (!changed)
        return;
    mur_upload_dst d;
    mur_renderer_map(r, v->boids, v->predators, &d);
    mur_upload_copy(&d, v);
    mur_renderer_commit(r, v->tick, dt, v->predators_on);
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

/* ------------------------------------------------------------------ ground and sky
 * Built on the CPU as vertex-coloured triangles so every fragment shader stays trivial: software
 * GL (llvmpipe) pays per fragment, and these cover most of the screen. */

static void put(line_vertex *v, float x, float y, float z, const float c[3], float a)
{
    v->pos[0] = x;
    v->pos[1] = y;
    v->pos[2] = z;
    v->rgba[0] = (uint8_t)(fminf(fmaxf(c[0], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[1] = (uint8_t)(fminf(fmaxf(c[1], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[2] = (uint8_t)(fminf(fmaxf(c[2], 0.0f), 1.0f) * 255.0f + 0.5f);
    v->rgba[3] = (uint8_t)(fminf(fmaxf(a, 0.0f), 1.0f) * 255.0f + 0.5f);
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
        mix3(ground_color, sky_horizon, smooth(0.45f, 1.0f, r0 / half), c0);
        mix3(ground_color, sky_horizon, smooth(0.45f, 1.0f, r1 / half), c1);
        for (int s = 0; s < SEGS; s++) {
            float a0 = (2.0f * GLM_PIf) * (float)s / SEGS, a1 = (2.0f * GLM_PIf) * (float)(s + 1) / SEGS;
            float p[4][2] = {{cosf(a0) * r0, sinf(a0) * r0}, {cosf(a1) * r0, sinf(a1) * r0},
                             {cosf(a0) * r1, sinf(a0) * r1}, {cosf(a1) * r1, sinf(a1) * r1}};
            const int tri[6] = {0, 2, 1, 1, 2, 3};
            for (int i = 0; i < 6; i++) {
                int q = tri[i];
                put(&v[n++], c[0] + p[q][0], y, c[2] + p[q][1], q < 2 ? c0 : c1, 1.0f);
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
                put(&v[n++], x0 + p0[0], y, z0 + p0[1], ground_line, 0.55f * (1.0f - smooth(0.35f, 0.9f, r0)));
                put(&v[n++], x0 + p1[0], y, z0 + p1[1], ground_line, 0.55f * (1.0f - smooth(0.35f, 0.9f, r1)));
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
            mix3(sky_horizon, sky_zenith, smooth(-0.05f, 0.55f, dir[1]), col);
            float glow = powf(fmaxf(glm_vec3_dot(dir, (float *)sun), 0.0f), 12.0f);
            col[0] += 0.20f * glow;
            col[1] += 0.14f * glow;
            col[2] += 0.08f * glow;
            put(&grid[j * (COLS + 1) + i], x, y, 1.0f, col, 1.0f);
        }
    }
    line_vertex h;
    put(&h, 0.0f, 0.0f, 0.0f, sky_horizon, 1.0f);
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
        for (int i = 0; i < COLS; i++) {
            int a = j * (COLS + 1) + i, b = a + 1, c = a + COLS + 1, d = c + 1;
            const int q[6] = {a, b, c, b, d, c};
            for (int k = 0; k < 6; k++)
                v[n++] = grid[q[k]];
        }
    }
    return n;
}

/* ------------------------------------------------------------------ draw */

/* What every pass of a frame shares. */
typedef struct frame {
    mat4 vp, inv, ident;
    vec3 eye;
    float ext;       /* largest side of the world box, wu */
    float centre[3]; /* box centre */
    float sun[3];
    float px_per_wu; /* pixels per world unit at distance 1 */
} frame;

static void draw_colored(mur_renderer *r, GLenum mode, const line_vertex *v, int n)
{
    if (n <= 0)
        return;
    glBindVertexArray(r->line_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
    /* orphan: the previous draw from this buffer may still be reading it */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * sizeof *v), v, GL_STREAM_DRAW);
    glDrawArrays(mode, 0, n);
}

/* count instances of kind k from instance first on, with the full or the lean bird. */
static void draw_kind(mur_renderer *r, kind_gpu *k, float size, const float color[3], float bank_gain,
                      bool lean, int32_t first, int32_t count)
{
    if (count <= 0)
        return;
    const GLint *u = r->boid_u;
    glUniform1f(u[BU_SIZE], size);
    glUniform3fv(u[BU_COLOR_FLY], 1, color);
    glUniform1f(u[BU_BANK_GAIN], k->prev_valid && k->prev_dt > 0.0f ? bank_gain / k->prev_dt : 0.0f);
    if (k == &r->boids)
        point_boids_at(k, first);
    else
        glBindVertexArray(k->vao);
    glDrawElementsInstanced(GL_TRIANGLES, lean ? r->lean_indices : r->mesh_indices,
                            GL_UNSIGNED_SHORT,
                            (void *)(lean ? (size_t)r->mesh_indices * sizeof(uint16_t) : 0),
                            count);
}

/* Ground: a disc around the box that fades out before its edge, a hair behind what lies on it
 * (perching boids, the goal ring), then the grid on it. */
static void draw_ground(mur_renderer *r, const frame *f, const mur_scene *s)
{
    float half = 1.6f * f->ext;
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->vp);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    draw_colored(r, GL_TRIANGLES, r->geom, build_ground(r->geom, f->centre, s->ground, half));
    glDisable(GL_POLYGON_OFFSET_FILL);
    float cell = powf(10.0f, floorf(log10f(fmaxf(f->ext, 1e-3f) / 4.0f)));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    draw_colored(r, GL_LINES, r->geom, build_grid(r->geom, GEOM_MAX_VERTS, f->centre, s->ground, half, cell));
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

/* The smallest birds on software GL (lod.h): one shaded point each, count of them from first on. */
static void draw_points(mur_renderer *r, const frame *f, const mur_scene *s, int32_t first, int32_t count)
{
    const GLint *u = r->point_u;
    glUseProgram(r->point_prog);
    glUniformMatrix4fv(u[PU_VP], 1, GL_FALSE, (const float *)f->vp);
    glUniform1f(u[PU_SIZE], s->boid_size);
    glUniform1f(u[PU_PX_PER_WU], f->px_per_wu);
    glUniform3fv(u[PU_COLOR_FLY], 1, mur_color_flying);
    glUniform3fv(u[PU_COLOR_PERCH], 1, mur_color_perching);
    glUniform3fv(u[PU_SUN_DIR], 1, f->sun);
    glUniform3fv(u[PU_FOG_COLOR], 1, sky_horizon);
    glUniform3fv(u[PU_EYE], 1, f->eye);
    glUniform1f(u[PU_FOG_DIST], 2.5f * f->ext);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(r->point_vao);
    glDrawArrays(GL_POINTS, first, count);
    glDisable(GL_PROGRAM_POINT_SIZE);
}

/* Boids (full birds, lean birds, points: lod.h) and predators. */
static void draw_flock(mur_renderer *r, const frame *f, const mur_scene *s)
{
    const GLint *u = r->boid_u;
    glUseProgram(r->boid_prog);
    glUniformMatrix4fv(u[BU_VP], 1, GL_FALSE, (const float *)f->vp);
    glUniform1f(u[BU_TIME], s->time);
    glUniform2f(u[BU_SPEED_RANGE], s->min_speed, s->max_speed);
    glUniform3fv(u[BU_COLOR_PERCH], 1, mur_color_perching);
    glUniform3fv(u[BU_EYE], 1, f->eye);
    glUniform3fv(u[BU_SUN_DIR], 1, f->sun);
    glUniform3fv(u[BU_SKY_COLOR], 1, ambient_sky);
    glUniform3fv(u[BU_GROUND_COLOR], 1, ambient_ground);
    glUniform3fv(u[BU_FOG_COLOR], 1, sky_horizon);
    glUniform1f(u[BU_FOG_DIST], 2.5f * f->ext);
    float gain = s->bank_g > 0.0f ? 1.0f / s->bank_g : 0.0f;
    glUniform1i(u[BU_COLOR_MODE], s->color_by_speed ? 1 : 0);
    const int32_t *n = r->split;
    draw_kind(r, &r->boids, s->boid_size, mur_color_flying, gain, false, 0, n[MUR_LOD_FULL]);
    draw_kind(r, &r->boids, s->boid_size, mur_color_flying, gain, true, n[MUR_LOD_FULL], n[MUR_LOD_LEAN]);
    if (n[MUR_LOD_POINTS] > 0) {
        draw_points(r, f, s, n[MUR_LOD_FULL] + n[MUR_LOD_LEAN], n[MUR_LOD_POINTS]);
        glUseProgram(r->boid_prog);
    }
    if (r->preds_on) {
        glUniform1i(u[BU_COLOR_MODE], 0);
        glVertexAttribI1i(6, 0);
        glVertexAttribI1i(8, -1); /* no index: the instance number varies the predators */
        draw_kind(r, &r->preds, s->boid_size * 2.6f, mur_color_predator, 0.0f, false, 0, r->preds.count);
    }
}

/* The sky last, only where nothing was drawn (depth still at the far plane); then box and goal. */
static void draw_sky_and_marks(mur_renderer *r, frame *f, const mur_scene *s)
{
    glUseProgram(r->line_prog);
    glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->ident);
    glDepthMask(GL_FALSE);
    draw_colored(r, GL_TRIANGLES, r->geom, build_sky(r->geom, f->inv, f->eye, f->sun));
    glDepthMask(GL_TRUE);
    build_lines(r, s);
    if (r->nlines > 0) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniformMatrix4fv(r->line_u_vp, 1, GL_FALSE, (const float *)f->vp);
        draw_colored(r, GL_LINES, r->lines, r->nlines);
        glDisable(GL_BLEND);
    }
}

bool mur_renderer_lod_stale(const mur_renderer *r)
{
    const bool by_size = r->lod.software && r->lod.forced < 0 && r->boids.count >= r->lod.lean_from;
    return by_size && (r->order_k != r->lod_k || memcmp(r->order_vp, r->lod_vp, sizeof r->lod_vp) != 0);
}

void mur_renderer_lod_counts(const mur_renderer *r, int32_t counts[MUR_LOD_KINDS])
{
    memcpy(counts, r->split, sizeof r->split);
}

void mur_renderer_draw(mur_renderer *r, const mur_camera *cam, const mur_scene *s, int width,
                       int height)
{
    frame f;
    mur_camera_view_proj(cam, f.vp);
    glm_mat4_inv(f.vp, f.inv);
    glm_mat4_identity(f.ident);
    mur_camera_eye(cam, f.eye);
    f.ext = 0.0f;
    for (int i = 0; i < 3; i++) {
        f.ext = fmaxf(f.ext, s->world_max[i] - s->world_min[i]);
        f.centre[i] = 0.5f * (s->world_min[i] + s->world_max[i]);
    }
    f.sun[0] = 0.45f;
    f.sun[1] = 0.80f;
    f.sun[2] = 0.35f;
    glm_vec3_normalize(f.sun);

    glViewport(0, 0, width, height);
    glClearColor(sky_horizon[0], sky_horizon[1], sky_horizon[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    mat4 proj;
    mur_camera_proj(cam, proj);
    f.px_per_wu = proj[1][1] * 0.5f * (float)height;
    /* the camera the next state's draw order is made for (lod.h) */
    memcpy(r->lod_vp, f.vp, sizeof r->lod_vp);
    r->lod_k = s->boid_size * f.px_per_wu;
    draw_ground(r, &f, s);
    if (s->shadows && r->split[MUR_LOD_POINTS] == 0) /* points: shadows would cost as much as the birds */
        mur_shadows_draw(r->shadows, (const float *)f.vp, s->ground, s->boid_size, 0.08f * f.ext, r->boids.count);
    draw_flock(r, &f, s);
    draw_sky_and_marks(r, &f, s);
    glBindVertexArray(0);
    glUseProgram(0);
}
