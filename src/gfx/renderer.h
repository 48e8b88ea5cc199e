/* The 3D scene: sky, ground, world box, goal marker, boids and predators (one instanced draw each).
 *
 * The renderer never changes the flock: it reads a mur_view and copies each array once into GL
 * (buffer orphaning, so the driver never waits for the previous frame to finish reading).
 */
#ifndef MUR_GFX_RENDERER_H
#define MUR_GFX_RENDERER_H

#include <stdbool.h>

#include "camera.h"
#include "murmur/murmur.h"

typedef struct mur_renderer mur_renderer;

/// What to draw around the flock; the viewer fills it from the flock's def every frame.
typedef struct mur_scene {
    float world_min[3], world_max[3]; ///< world box, wu
    float ground;                     ///< ground height, wu
    bool show_box;                    ///< draw the world box outline
    bool goal_on;                     ///< draw the goal marker
    float goal_pos[3];
    float min_speed, max_speed;       ///< for the speed colour map, wu/s
    float boid_size;                  ///< body length of a boid, wu (predators are larger)
    float bank_g;                     ///< lateral acceleration that banks a boid 45 degrees, wu/s^2
    bool color_by_speed;              ///< colour boids by speed instead of by state
    float time;                       ///< seconds, drives the wing beat
} mur_scene;

/// Create the GL objects (needs a current GL 3.3 context). NULL on failure (the reason is printed).
mur_renderer *mur_renderer_create(void);
void mur_renderer_destroy(mur_renderer *r);
/// Copy the view into GL if its tick differs from the last upload (or force). dt = seconds per tick.
void mur_renderer_upload(mur_renderer *r, const mur_view *v, float dt, bool force);
/// Draw into the bound framebuffer, viewport width x height.
void mur_renderer_draw(mur_renderer *r, const mur_camera *cam, const mur_scene *s, int width,
                       int height);

/// The colours, also used by the tests (linear 0..1).
extern const float mur_color_flying[3];
extern const float mur_color_perching[3];
extern const float mur_color_predator[3];

#endif
