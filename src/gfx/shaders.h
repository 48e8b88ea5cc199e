/* GLSL sources embedded at build time from shaders/ (see embed_shaders.py). */
#ifndef MUR_GFX_SHADERS_H
#define MUR_GFX_SHADERS_H

/// Source of the shader file `name` (e.g. "boid.vert"), or NULL if no such file was embedded.
const char *mur_shader_source(const char *name);

#endif
