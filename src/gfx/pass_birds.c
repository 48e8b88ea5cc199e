/* The birds' pass (see renderer.h, renderer_internal.h): the boids of the drawn slot as instanced
 * full birds, lean birds and points, each kind a contiguous range of the slot in draw order (lod.h),
 * the predators as larger full birds and the falcon as one bird of its own mesh (mesh.h; drawn from
 * constant attributes while mur_view.falcon_phase is not OFF); the boid shader's and the point
 * shader's uniforms, the alarmed birds' tint (scene.tint_alarm) among them. It owns
 * the drawn state's split into those kinds (taken from the upload at each commit), the vertex
 * arrays' pointers into the drawn slot, and the flock's colours.
 */
#include "renderer_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "frame_cpu.h"

const float mur_color_flying[3] = {0.98f, 0.62f, 0.22f};
const float mur_color_perching[3] = {0.30f, 0.90f, 0.40f};
const float mur_color_predator[3] = {0.95f, 0.12f, 0.16f};
const float mur_color_falcon[3] = {0.45f, 0.80f, 1.00f}; /* light blue: apart from the birds and the sky */

/* dusk: silhouettes against the sky (a starling at dusk is a dark shape; the falcon a little warmer) */
static const float dusk_bird[3] = {0.035f, 0.032f, 0.040f};
static const float dusk_predator[3] = {0.120f, 0.040f, 0.030f};
static const float dusk_falcon[3] = {0.045f, 0.040f, 0.048f}; /* as dark as the starlings */

/* The falcon's size against the birds': its mesh spans 2.0 where the bird's spans 1.56, and a
 * falcon's wingspan is about 1 m where a starling's is 0.4 m. */
#define FALCON_SCALE (2.5f * 1.56f / 2.0f)
static const float dusk_haze[3] = {0.560f, 0.530f, 0.570f}; /* the air between: greyer than the horizon */

static const float ambient_sky[3] = {0.55f, 0.65f, 0.85f};
static const float ambient_ground[3] = {0.22f, 0.20f, 0.18f};

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
    glBindBuffer(GL_ARRAY_BUFFER, s->esc);
    glVertexAttribIPointer(9, 1, GL_UNSIGNED_BYTE, 0, (void *)(size_t)first);
}

/* The boid slot just committed is drawn from now on: its split into full birds, lean birds and
 * points (the upload's counts; without host memory every bird is full) and the vertex arrays
 * reading it. */
void mur_birds_take(mur_renderer *r)
{
    const kind_slot *s = &r->boids.slot[r->boids.cur];
    memset(r->split, 0, sizeof r->split);
    if (r->lods) {
        memcpy(r->split, r->lods->counts, sizeof r->split);
        r->lods->pts_fill ^= 1; /* the points just copied are the drawn ones; the next copy fills the other */
    }
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
    glUniform1f(u[BU_INV_DT], k->prev_valid && k->prev_dt > 0.0f ? 1.0f / k->prev_dt : 0.0f);
    if (k == &r->boids)
        point_boids_at(k, first);
    else
        glBindVertexArray(k->vao);
    glDrawElementsInstanced(GL_TRIANGLES, lean ? r->lean_indices : r->mesh_indices,
                            GL_UNSIGNED_SHORT,
                            (void *)(lean ? (size_t)r->mesh_indices * sizeof(uint16_t) : 0),
                            count);
}

/* Distance at which the haze reaches about 40% (boid.vert): the studio's is short, for depth; at
 * dusk the air is clearer and the birds must stay darker than the sky. */
static float fog_dist(const mur_render_frame *f)
{
    return (f->dusk ? 6.0f : 2.5f) * f->ext;
}

/* The smallest birds on software GL (lod.h): one shaded point each, count of them from first on. */
static void draw_points(mur_renderer *r, const mur_render_frame *f, const mur_scene *s, int32_t first, int32_t count)
{
    const GLint *u = r->point_u;
    glUseProgram(r->point_prog);
    glUniformMatrix4fv(u[PU_VP], 1, GL_FALSE, (const float *)f->vp);
    glUniform1f(u[PU_SIZE], s->boid_size);
    glUniform1f(u[PU_PX_PER_WU], f->px_per_wu);
    glUniform3fv(u[PU_COLOR_FLY], 1, f->dusk ? dusk_bird : mur_color_flying);
    glUniform3fv(u[PU_COLOR_PERCH], 1, f->dusk ? dusk_bird : mur_color_perching);
    glUniform3fv(u[PU_SUN_DIR], 1, f->sun);
    glUniform3fv(u[PU_FOG_COLOR], 1, f->dusk ? dusk_haze : mur_sky_horizon);
    glUniform3fv(u[PU_EYE], 1, f->eye);
    glUniform1f(u[PU_FOG_DIST], fog_dist(f));
    glUniform1i(u[PU_LOOK], f->dusk ? 1 : 0);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(r->point_vao);
    glDrawArrays(GL_POINTS, first, count);
    glDisable(GL_PROGRAM_POINT_SIZE);
}

/* The falcon: one bird of its own mesh, its instance attributes constants (no buffers). */
static void draw_falcon(mur_renderer *r, const mur_render_frame *f, const mur_scene *s)
{
    const GLint *u = r->boid_u;
    const float dt = r->falcon_prev_dt;
    const float gain = s->bank_g > 0.0f && dt > 0.0f ? 1.0f / (s->bank_g * dt) : 0.0f;
    glUniform1i(u[BU_COLOR_MODE], 0);
    glUniform1f(u[BU_SIZE], s->boid_size * FALCON_SCALE);
    glUniform3fv(u[BU_COLOR_FLY], 1, f->dusk ? dusk_falcon : mur_color_falcon);
    glUniform1f(u[BU_BANK_GAIN], gain);
    glUniform1f(u[BU_INV_DT], dt > 0.0f ? 1.0f / dt : 0.0f);
    glBindVertexArray(r->falcon_vao);
    glVertexAttrib3fv(3, r->falcon.pos);
    glVertexAttrib3fv(4, r->falcon.vel);
    glVertexAttrib3fv(5, r->falcon_prev_vel);
    glVertexAttribI1i(6, 0);
    glVertexAttrib1f(7, 0.0f);
    glVertexAttribI1i(8, 7); /* its own wing beat (boid.vert hashes the index) */
    glDrawElements(GL_TRIANGLES, r->falcon_indices, GL_UNSIGNED_SHORT,
                   (void *)((size_t)(r->mesh_indices + r->lean_indices) * sizeof(uint16_t)));
    glBindVertexArray(0);
}

/* Boids (full birds, lean birds, points: lod.h) and predators. In the dusk look their dark
 * silhouettes are blended over the sky (alpha = the bird's coverage of its pixels, lower for a bird
 * smaller than a pixel or two: boid.vert, point.vert), without writing depth, so overlapping birds
 * darken the sky the more the denser they are, in any order. */
void mur_pass_birds(mur_renderer *r, const mur_render_frame *f, const mur_scene *s)
{
    const GLint *u = r->boid_u;
    if (f->dusk) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
    }
    glUseProgram(r->boid_prog);
    glUniformMatrix4fv(u[BU_VP], 1, GL_FALSE, (const float *)f->vp);
    glUniform1f(u[BU_TIME], s->time);
    glUniform2f(u[BU_SPEED_RANGE], s->min_speed, s->max_speed);
    glUniform3fv(u[BU_COLOR_PERCH], 1, f->dusk ? dusk_bird : mur_color_perching);
    glUniform3fv(u[BU_EYE], 1, f->eye);
    glUniform3fv(u[BU_SUN_DIR], 1, f->sun);
    glUniform3fv(u[BU_SKY_COLOR], 1, ambient_sky);
    glUniform3fv(u[BU_GROUND_COLOR], 1, ambient_ground);
    glUniform3fv(u[BU_FOG_COLOR], 1, f->dusk ? dusk_haze : mur_sky_horizon);
    glUniform1f(u[BU_FOG_DIST], fog_dist(f));
    glUniform1i(u[BU_LOOK], f->dusk ? 1 : 0);
    glUniform1f(u[BU_PX_PER_WU], f->px_per_wu);
    float gain = s->bank_g > 0.0f ? 1.0f / s->bank_g : 0.0f;
    glUniform1i(u[BU_COLOR_MODE], s->color_by_speed ? 1 : 0);
    glUniform1i(u[BU_TINT], s->tint_alarm ? 1 : 0);
    int32_t none[MUR_LOD_KINDS] = {0};
    const int32_t *n = r->no_boids ? none : r->split;
    const float *fly = f->dusk ? dusk_bird : mur_color_flying;
    draw_kind(r, &r->boids, s->boid_size, fly, gain, false, 0, n[MUR_LOD_FULL]);
    draw_kind(r, &r->boids, s->boid_size, fly, gain, true, n[MUR_LOD_FULL], n[MUR_LOD_LEAN]);
    mur_frame_cpu_mark(MUR_PART_MESHES);
    if (n[MUR_LOD_POINTS] > 0) {
        /* the dusk look's points on the CPU where it can (splat.c), else GL points */
        const mur_lod_state *L = r->lods;
        const int drawn = L ? L->pts_fill ^ 1 : 0;
        if (!(f->dusk && r->splat && L && L->npts[drawn] == n[MUR_LOD_POINTS]
              && mur_splat_draw(r->splat, f, L->pts[drawn], n[MUR_LOD_POINTS], s->boid_size, dusk_bird, dusk_haze,
                                fog_dist(f))))
            draw_points(r, f, s, n[MUR_LOD_FULL] + n[MUR_LOD_LEAN], n[MUR_LOD_POINTS]);
        glUseProgram(r->boid_prog);
    }
    mur_frame_cpu_mark(MUR_PART_POINTS);
    glUniform1i(u[BU_TINT], 0); /* predators and the falcon: attribute 9 is a constant */
    glVertexAttribI1i(9, 0);
    if (r->preds_on) {
        glUniform1i(u[BU_COLOR_MODE], 0);
        glVertexAttribI1i(6, 0);
        glVertexAttribI1i(8, -1); /* no index: the instance number varies the predators */
        draw_kind(r, &r->preds, s->boid_size * 2.6f, f->dusk ? dusk_predator : mur_color_predator, 0.0f, false, 0, r->preds.count);
    }
    if (r->falcon.on)
        draw_falcon(r, f, s);
    if (f->dusk) {
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
}

bool mur_renderer_lod_stale(const mur_renderer *r)
{
    const bool by_size = r->lod.software && r->lod.forced < 0
                         && (r->boids.count >= r->lod.lean_from
                             || (r->lod.mesh_budget > 0 && r->boids.count > r->lod.mesh_budget));
    return by_size && (r->order_k != r->lod_k || memcmp(r->order_vp, r->lod_vp, sizeof r->lod_vp) != 0);
}

bool mur_renderer_set_mesh_budget(mur_renderer *r, int32_t budget)
{
    const bool applies = r->lod.software && r->lod.forced < 0;
    r->lod.mesh_budget = applies && budget > 0 ? budget : 0;
    return applies;
}

void mur_renderer_lod_counts(const mur_renderer *r, int32_t counts[MUR_LOD_KINDS])
{
    memcpy(counts, r->split, sizeof r->split);
}

bool mur_renderer_falcon(const mur_renderer *r, float pos[3])
{
    memcpy(pos, r->falcon.pos, sizeof r->falcon.pos);
    return r->falcon.on;
}
