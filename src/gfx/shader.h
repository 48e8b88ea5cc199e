/* Shader programs from the embedded sources, and GL debug output. */
#ifndef MUR_GFX_SHADER_H
#define MUR_GFX_SHADER_H

#include <stdbool.h>

#include "gl.h"

/// Compile and link the embedded shaders `vs` and `fs` (file names such as "boid.vert").
/// On failure prints the shader's name and the info log to stderr and returns 0.
GLuint mur_gl_program(const char *vs, const char *fs);
/// Route KHR_debug messages (errors, warnings; not notifications) to stderr, if the context has it.
/// Returns true when debug output is on.
bool mur_gl_debug_enable(void);

#endif
