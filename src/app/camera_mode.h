/* Camera modes (--camera orbit:SECONDS | follow | fixed), driven by the video's clock. */
#ifndef MUR_APP_CAMERA_MODE_H
#define MUR_APP_CAMERA_MODE_H

#include <stdbool.h>

#include "camera.h"

typedef struct mur_cam_mode {
    double orbit_s;       ///< > 0: seconds per turn
    bool follow;
} mur_cam_mode;

/// The mode of a --camera value (checked by the parser); NULL is fixed.
mur_cam_mode mur_cam_mode_parse(const char *spec);
/// Advance the camera by dt seconds of video time in this mode (centre: the flock centre).
void mur_cam_mode_apply(const mur_cam_mode *m, mur_camera *cam, const double centre[3], float dt);

#endif
