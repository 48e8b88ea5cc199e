/* A GL 3.3 core context with no window for headless recording: EGL first (Mesa's surfaceless
 * platform, then the EGL device platform used by NVIDIA), a hidden GLFW window second. */
#ifndef MUR_APP_CONTEXT_H
#define MUR_APP_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mur_context mur_context;

/// Create and make current. NULL + one line in err when neither EGL nor a hidden window works.
mur_context *mur_context_headless(char *err, size_t err_len);
/// "EGL surfaceless", "EGL device", "hidden GLFW window".
const char *mur_context_kind(const mur_context *c);
void mur_context_destroy(mur_context *c);

#endif
