/* The upload ring (see renderer.h, renderer_internal.h): a flock's state on its way into GL. Each
 * kind (boids, predators) has three slots of buffers: the one drawn, the previous one (its
 * velocities bank the birds) and the one being filled. mur_renderer_map orphans and maps the next
 * slot's buffers (GL thread); mur_upload_copy copies the view into them in draw order, full birds,
 * then lean birds, then points (lod.h), with each bird's previous velocity (any thread, no GL);
 * mur_renderer_commit unmaps them, makes them the drawn slot and hands that to the birds' pass and
 * the shadows. This file owns the slots and the host memory of the draw order (mur_lod_state), and
 * the points' copy in host memory where the renderer splats them (mur_lod_state.pts_on).
 */
#include "renderer_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

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
    bool pts_ok = true;
    for (int b = 0; b < 2 && L->pts_on; b++) { /* the splat's copy of the points: only for the splat */
        float *pts = realloc(L->pts[b], (size_t)n * 3 * sizeof(float));
        if (pts)
            L->pts[b] = pts;
        pts_ok = pts_ok && pts;
    }
    if (!px || !order || !prev || !pts_ok)
        return false;
    L->cap = n;
    L->have_prev = false;
    return true;
}

void mur_lod_state_free(mur_lod_state *L)
{
    if (!L)
        return;
    free(L->px);
    free(L->order);
    free(L->prev);
    free(L->pts[0]);
    free(L->pts[1]);
    free(L);
}

/* The mesh's per-vertex attributes (0 position, 1 face normal, 2 part) into the bound VAO: the birds'
 * rings and the falcon draw the same mesh buffers. */
static void mesh_attribs(GLuint mesh_vbo, GLuint mesh_ibo)
{
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
}

void mur_ring_init(kind_gpu *k, GLuint mesh_vbo, GLuint mesh_ibo, bool with_perch)
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
        glGenBuffers(1, &k->slot[i].esc);
    }
    glBindVertexArray(k->vao);
    mesh_attribs(mesh_vbo, mesh_ibo);
    for (GLuint a = 3; a <= 5; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribDivisor(a, 1);
    }
    if (with_perch) {
        for (GLuint a = 6; a <= 9; a++) {
            glEnableVertexAttribArray(a);
            glVertexAttribDivisor(a, 1);
        }
    }
    glBindVertexArray(0);
}

void mur_falcon_vao_init(mur_renderer *r)
{
    glGenVertexArrays(1, &r->falcon_vao);
    glBindVertexArray(r->falcon_vao);
    mesh_attribs(r->mesh_vbo, r->mesh_ibo);
    glBindVertexArray(0);
}

/* The falcon of the state just copied becomes the drawn one; its previous velocity banks it. */
static void falcon_commit(mur_renderer *r, uint64_t tick, float dt)
{
    mur_falcon_host *n = &r->falcon_next, *d = &r->falcon;
    if (n->tick != tick)
        return; /* nothing copied into this state */
    const bool same = d->on && n->on && d->tick != 0 && tick > d->tick;
    memcpy(r->falcon_prev_vel, same ? d->vel : n->vel, sizeof r->falcon_prev_vel);
    r->falcon_prev_dt = same ? (float)(tick - d->tick) * dt : 0.0f;
    *d = *n;
    n->tick = 0;
}

static void kind_unmap(kind_gpu *k)
{
    if (k->mapped < 0)
        return;
    kind_slot *s = &k->slot[k->mapped];
    GLuint bufs[7] = {s->pos, s->vel, s->perch, s->roll, s->prevv, s->ids, s->esc};
    for (int i = 0; i < (k->with_perch ? 7 : 2); i++) {
        glBindBuffer(GL_ARRAY_BUFFER, bufs[i]);
        if (s->count > 0)
            glUnmapBuffer(GL_ARRAY_BUFFER);
    }
    k->mapped = -1;
}

void mur_ring_free(kind_gpu *k)
{
    kind_unmap(k);
    glDeleteVertexArrays(1, &k->vao);
    for (int i = 0; i < SLOTS; i++) {
        GLuint bufs[7] = {k->slot[i].pos,   k->slot[i].vel,   k->slot[i].perch,
                          k->slot[i].roll,  k->slot[i].prevv, k->slot[i].ids, k->slot[i].esc};
        glDeleteBuffers(7, bufs);
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
    d->escape = map_orphan(s->esc, (size_t)n);
    return n == 0 || (d->pos && d->vel && d->perch && d->roll && d->vel_prev && d->ids && d->escape);
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

bool mur_renderer_map(mur_renderer *r, int32_t boids, int32_t predators, mur_upload_dst *dst)
{
    memset(dst, 0, sizeof *dst);
    dst->boids = boids;
    dst->predators = predators;
    dst->falcon = &r->falcon_next;
    r->falcon_next.tick = 0;
    /* the order follows the last frame's camera (lod.h); without host memory every bird is full */
    dst->lod = r->lods && lod_reserve(r->lods, boids) ? r->lods : NULL;
    if (r->lods)
        r->lods->npts[r->lods->pts_fill] = -1; /* until a copy fills them */
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
        mur_birds_take(r);
        mur_shadows_source(r->shadows, r->boids.slot[r->boids.cur].pos);
    }
    kind_commit(&r->preds, tick + 1, dt);
    falcon_commit(r, tick + 1, dt);
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
        d->escape[q] = v->escape ? v->escape[i] : 0;
    }
    if (L) {
        if (L->pts_on) {
            /* the points' positions again, in host memory: the CPU splats them (splat.c) */
            const int32_t first = L->counts[MUR_LOD_FULL] + L->counts[MUR_LOD_LEAN];
            memcpy(L->pts[L->pts_fill], d->pos + 3 * (size_t)first,
                   (size_t)L->counts[MUR_LOD_POINTS] * 3 * sizeof(float));
            L->npts[L->pts_fill] = L->counts[MUR_LOD_POINTS];
        }
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
    if (d->falcon) {
        mur_falcon_host *f = d->falcon;
        f->on = v->falcon_phase != MUR_FALCON_OFF;
        memcpy(f->pos, v->falcon_pos, sizeof f->pos);
        memcpy(f->vel, v->falcon_vel, sizeof f->vel);
        f->tick = v->tick + 1;
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
