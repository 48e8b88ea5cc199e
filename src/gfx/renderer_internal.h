/* The renderer's shared state, private to src/gfx (renderer.h is the interface). A frame's data
 * flows through five files, each owning some fields of struct mur_renderer:
 *   upload.c         the upload ring: boids and preds (kind_gpu: three buffer slots per kind), the
 *                    host memory of the draw order (lods, order_vp, order_k), preds_on, uploaded,
 *                    the falcon's state (falcon_next, falcon, falcon_prev_vel, falcon_prev_dt);
 *                    a view copied into GL in draw order;
 *   renderer.c       create and destroy (programs, uniform locations, meshes, vertex arrays: every
 *                    field is set there once), the frame's order of passes and the camera the next
 *                    draw order is made for (lod_vp, lod_k), and the line program's stream;
 *   pass_scene.c     the ground, grid and sky, built on the CPU into geom;
 *   pass_dusk.c      the dusk look's sky, land and horizon silhouette, built into geom (the
 *                    silhouette kept in sil_vbo while it stands where it stood: sil_n, sil_key);
 *   pass_birds.c     the instanced birds, lean birds and points of the drawn slot and the
 *                    predators; split, the drawn state's full, lean and point birds (lod.h),
 *                    and lod.mesh_budget (mur_renderer_set_mesh_budget);
 *   pass_overlays.c  the world box, the goal marker and the group's axes, built into lines, nlines;
 *   splat.c          the dusk look's points splatted on the CPU (splat: its program, texture and
 *                    host buffers), drawn by pass_birds.c in place of GL points where it can.
 * Ground shadows are shadows.c's, drawn between the ground and the birds. After create a file writes
 * only the fields named on its line; the others it reads.
 */
#ifndef MUR_GFX_RENDERER_INTERNAL_H
#define MUR_GFX_RENDERER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gl.h"
#include "lod.h"
#include "renderer.h"
#include "shadows.h"

/// The horizon's colour: the clear colour, the fog of the birds, the far rim of the ground (pass_scene.c).
extern const float mur_sky_horizon[3];
/// The dusk look's horizon: its clear colour and the haze of its birds (pass_dusk.c).
extern const float mur_dusk_horizon[3];

enum { LINE_MAX_VERTS = 256, GEOM_MAX_VERTS = 16384 };

/// A vertex of the line program: position and colour (ground, grid, sky and overlays).
typedef struct line_vertex {
    float pos[3];
    uint8_t rgba[4];
} line_vertex;

enum { SLOTS = 3 }; /* drawn, previous (for banking), being filled for the next frame */

typedef struct kind_slot {
    GLuint pos, vel, perch, roll;   /* perch and roll: boids only */
    GLuint prevv, ids;              /* boids only: each bird's previous velocity and index (lod.h order) */
    GLuint esc;                     /* boids only: each bird's escape byte (mur_view.escape; 0 without) */
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
    /* the points' positions in draw order, host memory for the CPU's splat (splat.c): two sets, the
     * one being filled (pts_fill) and the drawn one, swapped when a copy is committed; kept only where
     * the renderer splats (pts_on: the splat was made; else NULL and never filled) */
    bool pts_on;
    float *pts[2];         /* cap*3 each */
    int32_t npts[2];       /* points in each (-1: not filled: no splat) */
    int pts_fill;
};

/* The falcon's state on its way to a frame (mur_view.falcon_*). */
struct mur_falcon_host {
    bool on;        /* falcon_phase != MUR_FALCON_OFF */
    float pos[3], vel[3];
    uint64_t tick;  /* tick + 1 of the state, 0 = none */
};

/* Uniform locations, looked up once when the programs are linked. */
enum {
    BU_VP, BU_TIME, BU_SPEED_RANGE, BU_COLOR_PERCH, BU_EYE, BU_SUN_DIR, BU_SKY_COLOR, BU_GROUND_COLOR,
    BU_FOG_COLOR, BU_FOG_DIST, BU_COLOR_MODE, BU_SIZE, BU_COLOR_FLY, BU_BANK_GAIN, BU_LOOK, BU_PX_PER_WU,
    BU_INV_DT, BU_TINT, BU_COUNT
};
enum {
    PU_VP, PU_SIZE, PU_PX_PER_WU, PU_COLOR_FLY, PU_COLOR_PERCH, PU_SUN_DIR, PU_FOG_COLOR, PU_EYE,
    PU_FOG_DIST, PU_LOOK, PU_COUNT
};

typedef struct mur_splat mur_splat;

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
    /* the falcon (mur_view.falcon_*): one bird of its own mesh, its state in host memory and drawn
     * from constant vertex attributes (no buffers of its own); upload.c owns these */
    GLuint falcon_vao;
    int falcon_indices;           /* the falcon: the next falcon_indices after the lean bird's */
    mur_falcon_host falcon_next;  /* filled by mur_upload_copy (any thread) between map and commit */
    mur_falcon_host falcon;       /* the drawn falcon */
    float falcon_prev_vel[3];     /* its velocity at the previous commit (for banking) */
    float falcon_prev_dt;         /* seconds between the two, 0: unknown (no bank) */
    GLuint line_vao, line_vbo;
    /* the dusk look's silhouette, fixed in the world: built once into its own buffer (pass_dusk.c owns
     * these) and built again only when what it stands on changes (sil_key: its ring's centre and
     * radius, the ground, the horizon kind) */
    GLuint sil_vao, sil_vbo;
    int sil_n;
    float sil_key[5];
    line_vertex lines[LINE_MAX_VERTS];
    int nlines;
    line_vertex geom[GEOM_MAX_VERTS]; /* ground, grid and sky, built on the CPU */
    bool uploaded;
    bool no_boids;                /* MURMUR_BIRD=none: the boids are not drawn (the sky behind them) */
    mur_splat *splat;             /* the dusk look's points on the CPU (NULL: GL points; MURMUR_SPLAT=0) */
};

/// What every pass of a frame shares (renderer.c fills it).
typedef struct mur_render_frame {
    mat4 vp, inv, ident;
    bool dusk;       /* the dusk look (scene.look) */
    vec3 eye;
    float ext;       /* largest side of the world box, wu */
    float centre[3]; /* box centre */
    float sun[3];
    float px_per_wu; /* pixels per world unit at distance 1 */
    int width, height; /* the viewport, pixels */
} mur_render_frame;

/* upload.c: the ring's vertex array and buffers of one kind (boids with perch, roll, previous
 * velocity and index; predators without), and their release. */
void mur_ring_init(kind_gpu *k, GLuint mesh_vbo, GLuint mesh_ibo, bool with_perch);
void mur_ring_free(kind_gpu *k);
/* upload.c: the falcon's vertex array (its mesh only: the instance attributes are constants). */
void mur_falcon_vao_init(mur_renderer *r);
void mur_lod_state_free(mur_lod_state *L);

/* renderer.c: n vertices of the line program (bound, with its u_vp set) from v, as mode. */
void mur_draw_colored(mur_renderer *r, GLenum mode, const line_vertex *v, int n);

/* pass_birds.c: the newly committed boid slot becomes the drawn one for the birds and points
 * (their split into kinds, their vertex arrays); then the passes. */
void mur_birds_take(mur_renderer *r);
void mur_pass_birds(mur_renderer *r, const mur_render_frame *f, const mur_scene *s);

/* pass_scene.c: one line-program vertex at (x, y, z) of colour c (0..1, clamped) and alpha a. */
void mur_line_put(line_vertex *v, float x, float y, float z, const float c[3], float a);
/* pass_scene.c: the quads (two triangles each, 6 vertices) between row j and row j + 1 of a grid of
 * rows of cols + 1 vertices, into v from v[n]; returns the new n. The sky strips of both looks. */
int mur_line_quad_row(line_vertex *v, int n, const line_vertex *grid, int cols, int j);

/* pass_scene.c: the ground disc and its grid (first), the sky where nothing was drawn (after the birds). */
void mur_pass_ground(mur_renderer *r, const mur_render_frame *f, const mur_scene *s);
void mur_pass_sky(mur_renderer *r, mur_render_frame *f);

/* pass_dusk.c: the dusk sky and land (first, everywhere), the silhouette on the horizon (before the birds). */
void mur_pass_dusk_sky(mur_renderer *r, const mur_render_frame *f, int height);
void mur_pass_dusk_horizon(mur_renderer *r, const mur_render_frame *f, const mur_scene *s);

/* splat.c: the CPU splat of the dusk look's points (create: NULL when it cannot); draw n points at
 * pos (draw order) as point.vert's dusk squares would be blended, one textured quad over the pixels
 * they touch; false (nothing drawn) where it does not apply: a multisampled target. */
mur_splat *mur_splat_create(void);
void mur_splat_destroy(mur_splat *sp);
bool mur_splat_draw(mur_splat *sp, const mur_render_frame *f, const float *pos, int32_t n, float boid_size,
                    const float color[3], const float haze[3], float fog_dist);

/* pass_overlays.c: world box, goal marker and principal axes (last). */
void mur_pass_overlays(mur_renderer *r, const mur_render_frame *f, const mur_scene *s);

#endif
