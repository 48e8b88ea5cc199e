/* Ground shadows: a soft dark disc on the ground under every boid, wider and fainter the higher
 * the bird, so height above the ground and perched birds read at a glance. One instanced draw of
 * four vertices per boid, reading the boids' position buffer. Whether to draw them is the
 * scene's (mur_shadows_wanted, scene.h). */
#ifndef MUR_GFX_SHADOWS_H
#define MUR_GFX_SHADOWS_H

#include "gl.h"

typedef struct mur_shadows mur_shadows;

/// NULL on failure (the shader's reason is printed). Needs a current GL context.
mur_shadows *mur_shadows_create(void);
void mur_shadows_destroy(mur_shadows *s);
/// The boids' position buffer (3 floats per boid) drawn from now on.
void mur_shadows_source(mur_shadows *s, GLuint pos_buffer);
/// Draw count shadows on the plane y = ground; size: body length; fade: height at which a shadow
/// has faded to 1/e (wu). vp: the view-projection matrix (column-major 4x4).
void mur_shadows_draw(mur_shadows *s, const float *vp, float ground, float size, float fade, int count);

#endif
