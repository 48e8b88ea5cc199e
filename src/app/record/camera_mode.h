/* Camera modes (--camera orbit:SECONDS | follow | falcon | fixed, --camera-path FILE) and the starting
 * camera (--camera-pos, --look-at, --fov), driven by the video's clock. */
#ifndef MUR_APP_CAMERA_MODE_H
#define MUR_APP_CAMERA_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "camera.h"
#include "camera_path.h"
#include "cli.h"

typedef struct mur_cam_mode {
    double orbit_s;       ///< > 0: seconds per turn
    bool follow;
    bool falcon;          ///< follow the biggest group and the falcon together (--camera falcon)
    mur_cam_path path;    ///< --camera-path keyframes (n = 0: none)
    bool have_centre;     ///< a relative path: centre holds the flock's smoothed centre
    double centre[3];
} mur_cam_mode;

/// The mode needs the biggest group's centre (it follows the flock, or flies a relative path).
bool mur_cam_mode_wants_centre(const mur_cam_mode *m);
/// The mode of a --camera value (checked by the parser); NULL is fixed.
mur_cam_mode mur_cam_mode_parse(const char *spec);
/// The camera and mode of the command line for a width x height frame: home view of the world,
/// then --fov, --camera-pos / --look-at, --camera, --camera-path (read here). False + err.
bool mur_cam_setup(mur_camera *cam, mur_cam_mode *mode, const mur_cli *cli, const mur_flock_def *def, int width,
                   int height, char *err, size_t len);
/// Advance the camera by dt seconds of video time in this mode; t is the video time of the frame
/// (for a path). centre and radius: the biggest group (radius <= 0: centre only).
/// box: the group's box (group.h) that the framing fits, or NULL. falcon: the attacking falcon
/// (--camera falcon), which the framing keeps in view (mur_camera_keep), or NULL.
void mur_cam_mode_apply(mur_cam_mode *m, mur_camera *cam, const double centre[3], double radius,
                        const float (*box)[3], const float *falcon, double t, float dt);
void mur_cam_mode_free(mur_cam_mode *m);
/// The camera as command-line flags: "--camera-pos X,Y,Z --look-at X,Y,Z --fov DEG".
void mur_cam_flags(const mur_camera *cam, char *buf, size_t len);

#endif
