/* The 3D scene: sky, ground, world box, goal marker, boids and predators (one instanced draw each).
 *
 * The renderer never changes the flock: it reads a mur_view and copies each array once into GL
 * (buffer orphaning, so the driver never waits for the previous frame to finish reading).
 */
#ifndef MUR_GFX_RENDERER_H
#define MUR_GFX_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include "camera.h"
#include "lod.h"
#include "murmur/murmur.h"
#include "scene.h"

typedef struct mur_renderer mur_renderer;

/// Create the GL objects (needs a current GL 3.3 context). NULL on failure (the reason is printed).
mur_renderer *mur_renderer_create(void);
void mur_renderer_destroy(mur_renderer *r);
/// Copy the view into GL if its tick differs from the last upload (or force). dt = seconds per tick.
void mur_renderer_upload(mur_renderer *r, const mur_view *v, float dt, bool force);

typedef struct mur_lod_state mur_lod_state;
typedef struct mur_falcon_host mur_falcon_host;

/// Where the next state goes: GL buffers mapped for writing (NULL where a count is 0). The boids go
/// in draw order (lod.h: full birds, lean birds, points), each with its index and previous velocity.
typedef struct mur_upload_dst {
    float *pos, *vel;          ///< boids*3 floats each
    int32_t *perch;            ///< boids ints
    float *roll;               ///< boids floats: bank angles (mur_view.roll)
    float *vel_prev;           ///< boids*3 floats: each bird's velocity at the previous upload
    int32_t *ids;              ///< boids ints: the bird's index in the flock
    uint8_t *escape;           ///< boids bytes: mur_view.escape (0 without the falcon)
    mur_lod_state *lod;        ///< the draw order's memory (NULL: index order, every bird full)
    mur_lod_view lod_view;     ///< the camera and thresholds the order is made for
    float *pred_pos, *pred_vel; ///< predators*3 floats each
    mur_falcon_host *falcon;   ///< the falcon's state (host memory of the renderer)
    int32_t boids, predators;  ///< sizes mapped
} mur_upload_dst;

/// Map (orphaned) buffers for the next state of boids and predators. The pointers may be filled from
/// any thread (mur_upload_copy) until mur_renderer_commit(), which must come from the GL thread
/// before the next map or draw of that state. False if GL could not map (draws stay as they were).
bool mur_renderer_map(mur_renderer *r, int32_t boids, int32_t predators, mur_upload_dst *dst);
/// Unmap the filled buffers and draw them from now on; tick and dt describe the copied state.
void mur_renderer_commit(mur_renderer *r, uint64_t tick, float dt, bool predators_on);
/// Copy the view into dst (plain memory copies, no GL: callable from a simulation thread).
void mur_upload_copy(const mur_upload_dst *dst, const mur_view *v);
/// The drawn order was made for another camera than the last frame's (lod.h): upload the state again
/// (a paused flock whose camera moves).
bool mur_renderer_lod_stale(const mur_renderer *r);
/// At most budget birds drawn as meshes, the nearest, the rest as points (software GL; lod.h);
/// 0: the default rules. The interactive window adapts it to its frame time. False (and no budget)
/// where budgets do not apply: a GPU, or MURMUR_BIRD forcing one drawing.
bool mur_renderer_set_mesh_budget(mur_renderer *r, int32_t budget);
/// The drawn state's full birds, lean birds and points (lod.h).
void mur_renderer_lod_counts(const mur_renderer *r, int32_t counts[MUR_LOD_KINDS]);
/// The drawn state's falcon: its position into pos; false when it has none (falcon off).
bool mur_renderer_falcon(const mur_renderer *r, float pos[3]);
/// Draw into the bound framebuffer, viewport width x height.
void mur_renderer_draw(mur_renderer *r, const mur_camera *cam, const mur_scene *s, int width,
                       int height);

/// The colours, also used by the tests (linear 0..1).
extern const float mur_color_flying[3];
extern const float mur_color_perching[3];
extern const float mur_color_predator[3];
extern const float mur_color_falcon[3];

#endif
