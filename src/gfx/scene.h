/* What the renderer draws around the flock, built from the flock's parameters, and the drawing
 * policy of this machine (software GL or a GPU): written once for the viewer and the headless
 * mode alike. */
#ifndef MUR_GFX_SCENE_H
#define MUR_GFX_SCENE_H

#include <stdbool.h>

#include "murmur/murmur.h"

/// What to draw around the flock; filled from the flock's def every frame.
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
    bool tint_alarm;                  ///< tint the birds escaping from the falcon (mur_view.escape != 0)
    float time;                       ///< seconds, drives the wing beat
    mur_look look;                    ///< studio (lit colours) or dusk (dark birds on an evening sky)
    mur_horizon horizon;              ///< the dusk look's silhouette on the horizon
    bool shadows;                     ///< ground shadows under the boids (mur_shadows_wanted)
    bool axes_on;                     ///< draw the biggest group's principal axes (viewer key D)
    float axes_centre[3];             ///< their centre, wu
    float axes_dir[3][3];             ///< unit axes: thin, mid, long
    float axes_half[3];               ///< half extents along them, wu
} mur_scene;

/// The scene of def: box outline (unless bounds are none), ground, goal, speed range; boid_size and
/// time as given; colours by state (the viewer's toggles change the outline and the colours).
void mur_scene_from_def(const mur_flock_def *def, float boid_size, float time, mur_scene *s);

/// Body length of a boid for a world: half a separation radius (birds keep about that much air
/// between them), but visible in a big world and in a sparse flock (at least 0.15 of the mean
/// spacing: per area on a plane, per volume otherwise); at most 1/20 of the box.
float mur_boid_size(const mur_flock_def *d);

/// True for software GL (Mesa llvmpipe, softpipe, swrast): it pays per fragment and per primitive.
bool mur_gl_is_software(const char *gl_renderer);
/// MSAA samples for frames on this GL: MURMUR_MSAA if set, else none on software GL (about 2x the
/// frame time there) and 4 on a GPU or when the renderer is not known yet (NULL).
int mur_msaa_samples(const char *gl_renderer);
/// Ground shadows for a frame of this many boids: MURMUR_SHADOWS=0|1 if set; else on a GPU and for
/// offline frames (recordings, sized screenshots), and on software GL up to 4000 boids (above, the
/// extra quad per boid costs as much as the birds: 10k boids at 720p went from 45-51 to 77-84 ms).
bool mur_shadows_wanted(const char *gl_renderer, int boids, bool offline);
/// MSAA samples for offline frames (recordings), where quality matters more than the frame time:
/// MURMUR_MSAA if set, else 4 on any GL.
int mur_msaa_samples_offline(void);
/// The escaping birds tinted from the start: MURMUR_TINT_ALARM=1 (checked to be 0 or 1 by the app).
bool mur_tint_alarm_wanted(void);

#endif
