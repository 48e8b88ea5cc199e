/* Screenshots (see screenshot.h). */
#include "screenshot.h"

#include <stdio.h>

#include "capture.h"
#include "outputs.h"
#include "gl.h"
#include "scene.h"
#include "target.h"

bool mur_screenshot(const char *path, int width, int height, bool together)
{
    mur_error e;
    mur_afile *a = mur_out_open(path, &e);
    if (!a) {
        fprintf(stderr, "murmur: %s\n", e.msg);
        return false;
    }
    char err[300];
    if (!mur_capture_png(a->fp, width, height, err, sizeof err)) {
        mur_out_drop(a);
        fprintf(stderr, "murmur: %s: cannot write PNG: %s\n", path, err);
        return false;
    }
    if (!mur_out_done(a, together, &e)) {
        fprintf(stderr, "murmur: %s\n", e.msg);
        return false;
    }
    printf("murmur: screenshot %s (%dx%d)\n", path, width, height);
    fflush(stdout);
    return true;
}

bool mur_screenshot_scene(const char *path, mur_renderer *r, const mur_camera *cam, const mur_scene *scene,
                          int width, int height, bool together)
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
    bool ok = mur_screenshot(path, width, height, together);
    mur_target_destroy(t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}
