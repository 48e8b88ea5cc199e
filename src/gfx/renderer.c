/* The renderer (see renderer.h; its state and files: renderer_internal.h): create and destroy every
 * GL object it draws with (the boid, point and line programs and their uniform locations, the bird
 * meshes, the upload ring's and the points' and lines' vertex arrays, the shadows), and one frame:
 * the camera and light every pass shares, then the passes in their order (ground and grid, shadows,
 * birds, sky, overlays; in the dusk look: sky and land, silhouette, birds blended over them,
 * overlays). The line program's stream (mur_draw_colored) is here as well, shared by the scene and
 * the overlays.
 */
#include "renderer_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame_cpu.h"
#include "mesh.h"
#include "shader.h"

static const char *const BOID_UNIFORMS[BU_COUNT] = {
    "u_vp", "u_time", "u_speed_range", "u_color_perch", "u_eye", "u_sun_dir", "u_sky_color",
    "u_ground_color", "u_fog_color", "u_fog_dist", "u_color_mode", "u_size", "u_color_fly", "u_bank_gain",
    "u_look", "u_px_per_wu", "u_inv_dt", "u_tint",
};
static const char *const POINT_UNIFORMS[PU_COUNT] = {
    "u_vp", "u_size", "u_px_per_wu", "u_color_fly", "u_color_perch", "u_sun_dir", "u_fog_color",
    "u_eye", "u_fog_dist", "u_look",
};

/* A vertex array of the line program's vertices (position, colour) over a buffer of its own. */
static void line_vertex_array(GLuint *vao, GLuint *vbo, size_t bytes, GLenum usage)
{
    glGenVertexArrays(1, vao);
    glGenBuffers(1, vbo);
    glBindVertexArray(*vao);
    glBindBuffer(GL_ARRAY_BUFFER, *vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, usage);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(line_vertex), (void *)offsetof(line_vertex, pos));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(line_vertex), (void *)offsetof(line_vertex, rgba));
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
    int fverts = 0;
    r->falcon_indices = mur_mesh_falcon(mesh + nverts, &fverts, idx + r->mesh_indices + r->lean_indices, nverts);
    nverts += fverts;
    /* Software GL (llvmpipe) pays per primitive: there each bird's mesh follows its size on screen
     * (lod.h); a GPU always draws the full bird. MURMUR_BIRD=full|lean|points forces one. */
    const bool software = mur_gl_is_software((const char *)glGetString(GL_RENDERER));
    r->lod = mur_lod_policy_for(software, getenv("MURMUR_BIRD"));
    const char *bird = getenv("MURMUR_BIRD");
    r->no_boids = bird && !strcmp(bird, "none");
    r->lods = calloc(1, sizeof *r->lods); /* NULL: every bird full, in index order */
    /* the dusk look's points on the CPU (splat.c) where GL is software (a GPU draws GL points far
     * cheaper than one CPU thread blends them); MURMUR_SPLAT=1 forces the splat, 0 forbids it */
    const char *splat = getenv("MURMUR_SPLAT");
    const bool want_splat = splat && *splat ? !strcmp(splat, "1") : software;
    r->splat = want_splat ? mur_splat_create() : NULL;
    if (r->lods)
        r->lods->pts_on = r->splat != NULL; /* the upload keeps the points in host memory only for it */
    glGenBuffers(1, &r->mesh_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nverts * sizeof mesh[0]), mesh,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &r->mesh_ibo);
    glBindBuffer(GL_ARRAY_BUFFER, r->mesh_ibo);
    glBufferData(GL_ARRAY_BUFFER,
                 (GLsizeiptr)((size_t)(r->mesh_indices + r->lean_indices + r->falcon_indices) * sizeof idx[0]), idx,
                 GL_STATIC_DRAW);
    mur_ring_init(&r->boids, r->mesh_vbo, r->mesh_ibo, true);
    mur_ring_init(&r->preds, r->mesh_vbo, r->mesh_ibo, false);
    mur_falcon_vao_init(r);
    glGenVertexArrays(1, &r->point_vao);
    glBindVertexArray(r->point_vao);
    glEnableVertexAttribArray(3);
    glEnableVertexAttribArray(4);
    glEnableVertexAttribArray(6);
    glEnableVertexAttribArray(8);
    glBindVertexArray(0);

    line_vertex_array(&r->line_vao, &r->line_vbo, sizeof r->lines, GL_STREAM_DRAW);
    line_vertex_array(&r->sil_vao, &r->sil_vbo, 0, GL_STATIC_DRAW);
    r->sil_n = -1; /* not built */
    glBindVertexArray(0);
    return r;
}

void mur_renderer_destroy(mur_renderer *r)
{
    if (!r)
        return;
    if (r->mesh_vbo) {
        mur_ring_free(&r->boids);
        mur_ring_free(&r->preds);
        glDeleteVertexArrays(1, &r->falcon_vao);
        glDeleteBuffers(1, &r->mesh_vbo);
        glDeleteBuffers(1, &r->mesh_ibo);
        glDeleteVertexArrays(1, &r->line_vao);
        glDeleteBuffers(1, &r->line_vbo);
        glDeleteVertexArrays(1, &r->sil_vao);
        glDeleteBuffers(1, &r->sil_vbo);
    }
    if (r->point_vao)
        glDeleteVertexArrays(1, &r->point_vao);
    mur_shadows_destroy(r->shadows);
    GLuint progs[] = {r->boid_prog, r->line_prog, r->point_prog};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        if (progs[i])
            glDeleteProgram(progs[i]);
    mur_lod_state_free(r->lods);
    mur_splat_destroy(r->splat);
    free(r);
}

/* The line program's vertices, streamed: one buffer, orphaned for each draw. */
void mur_draw_colored(mur_renderer *r, GLenum mode, const line_vertex *v, int n)
{
    if (n <= 0)
        return;
    glBindVertexArray(r->line_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
    /* orphan: the previous draw from this buffer may still be reading it */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * sizeof *v), v, GL_STREAM_DRAW);
    glDrawArrays(mode, 0, n);
}

/* One frame: what every pass shares, the GL state they start from, then the passes in order. */
void mur_renderer_draw(mur_renderer *r, const mur_camera *cam, const mur_scene *s, int width,
                       int height)
{
    mur_render_frame f;
    mur_camera_view_proj(cam, f.vp);
    glm_mat4_inv(f.vp, f.inv);
    glm_mat4_identity(f.ident);
    mur_camera_eye(cam, f.eye);
    f.ext = 0.0f;
    for (int i = 0; i < 3; i++) {
        f.ext = fmaxf(f.ext, s->world_max[i] - s->world_min[i]);
        f.centre[i] = 0.5f * (s->world_min[i] + s->world_max[i]);
    }
    f.dusk = s->look == MUR_LOOK_DUSK;
    /* the studio's sun is high; the dusk's has just set, low to the side */
    f.sun[0] = f.dusk ? 0.80f : 0.45f;
    f.sun[1] = f.dusk ? 0.06f : 0.80f;
    f.sun[2] = f.dusk ? 0.45f : 0.35f;
    glm_vec3_normalize(f.sun);

    glViewport(0, 0, width, height);
    f.width = width;
    f.height = height;
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glDepthFunc(GL_LEQUAL);
    if (f.dusk) {
        /* no clear and no depth: the dusk sky covers every pixel (its first pass), and nothing of
         * the look writes depth (the birds blend without it), so the depth test passed every
         * fragment; on llvmpipe the clear of colour and depth cost about as much CPU as the sky itself */
        glDisable(GL_DEPTH_TEST);
    } else {
        glClearColor(mur_sky_horizon[0], mur_sky_horizon[1], mur_sky_horizon[2], 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_DEPTH_TEST);
    }
    mat4 proj;
    mur_camera_proj(cam, proj);
    f.px_per_wu = proj[1][1] * 0.5f * (float)height;
    /* the camera the next state's draw order is made for (lod.h) */
    memcpy(r->lod_vp, f.vp, sizeof r->lod_vp);
    r->lod_k = s->boid_size * f.px_per_wu;
    mur_frame_cpu_mark(MUR_PART_CLEAR);
    if (f.dusk) {
        /* the sky first: the birds blend over it */
        mur_pass_dusk_sky(r, &f, height);
        mur_frame_cpu_mark(MUR_PART_SKY);
        mur_pass_dusk_horizon(r, &f, s);
        mur_frame_cpu_mark(MUR_PART_HORIZON);
        mur_pass_birds(r, &f, s);
    } else {
        mur_pass_ground(r, &f, s);
        mur_frame_cpu_mark(MUR_PART_SKY);
        if (s->shadows && r->split[MUR_LOD_POINTS] == 0) /* points: shadows would cost as much as the birds */
            mur_shadows_draw(r->shadows, (const float *)f.vp, s->ground, s->boid_size, 0.08f * f.ext, r->boids.count);
        mur_pass_birds(r, &f, s);
        mur_pass_sky(r, &f);
    }
    mur_frame_cpu_mark(MUR_PART_BIRDS);
    mur_pass_overlays(r, &f, s);
    mur_frame_cpu_mark(MUR_PART_OVERLAYS);
    glBindVertexArray(0);
    glUseProgram(0);
}
