/* The OpenGL 3.3 core API as loaded by glad (generated at build time into the build folder). */
#ifndef MUR_GFX_GL_H
#define MUR_GFX_GL_H

#include "glad_gl.h"

#endif
