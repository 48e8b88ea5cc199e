/* Screenshots (see screenshot.h). */
#include "screenshot.h"

#include <stdio.h>

#include "capture.h"
#include "gl.h"
#include "scene.h"
#include "target.h"

bool mur_screenshot(const char *path, int width, int height)
{
    char err[1200];
    if (!mur_capture_png(path, width, height, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return false;
    }
    printf("murmur: screenshot %s (%dx%d)\n", path, width, height);
    fflush(stdout);
    return true;
}

bool mur_screenshot_scene(const char *path, mur_renderer *r, const mur_camera *cam, const mur_scene *scene,
                          int width, int height)
{
    char err[1024];
    mur_target *t = mur_target_create(width, height, mur_msaa_samples_offline(), err, sizeof err);
    if (!t) {
        fprintf(stderr, "murmur: --screenshot-size %dx%d: %s\n", width, height, err);
        return false;
    }
    mur_camera c = *cam;
    mur_camera_set_aspect(&c, width, height);
    mur_target_bind(t);
    mur_renderer_draw(r, &c, scene, width, height);
    mur_target_resolve(t);
    mur_target_bind_read(t);
    bool ok = mur_screenshot(path, width, height);
    mur_target_destroy(t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}
