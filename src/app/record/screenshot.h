/* Screenshots: the bound read framebuffer as a PNG, with the program's one-line report; or the
 * scene drawn again at any size (--screenshot-size). */
#ifndef MUR_APP_SCREENSHOT_H
#define MUR_APP_SCREENSHOT_H

#include <stdbool.h>

#include "renderer.h"

/// Save width x height pixels of the bound read framebuffer to path (temporary file + rename) and
/// print "murmur: screenshot PATH (WxH)" on stdout, or the error on stderr. True on success.
/// together: the run's --screenshot, renamed into place with the run's other outputs at its end
/// (outputs.h); else (a key) at once.
bool mur_screenshot(const char *path, int width, int height, bool together);
/// Draw the scene from cam (its aspect set to width / height) into an offscreen target of that size
/// (4x MSAA, or MURMUR_MSAA) and save it like mur_screenshot. The HUD is not drawn. Leaves the
/// default framebuffer bound.
bool mur_screenshot_scene(const char *path, mur_renderer *r, const mur_camera *cam, const mur_scene *scene,
                          int width, int height, bool together);

#endif
