/* Keyframed camera paths (--camera-path FILE): one keyframe per line,
 *     time x y z lx ly lz [fov]
 * time in seconds of video (increasing), the eye at (x, y, z) looking at (lx, ly, lz), the vertical
 * field of view in degrees (default: the previous keyframe's, 45 for the first). '#' starts a
 * comment. Between keyframes the eye and the point looked at follow Catmull-Rom splines (smooth,
 * through every keyframe), the field of view eases; before the first and after the last keyframe
 * the camera holds still. A line `relative` makes every point an offset from the flock (the centre of
 * its biggest group, smoothed), so the path flies with the flock wherever it goes. */
#ifndef MUR_APP_CAMERA_PATH_H
#define MUR_APP_CAMERA_PATH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mur_cam_key {
    double t;
    float eye[3], at[3];
    float fov_deg;
} mur_cam_key;

typedef struct mur_cam_path {
    mur_cam_key *keys;
    int n;
    bool relative;        ///< `relative`: eye and point looked at are offsets from the flock's centre
} mur_cam_path;

/// Read FILE. False + one line in err (file:line: what is wrong and what is allowed).
bool mur_cam_path_load(mur_cam_path *p, const char *path, char *err, size_t len);
/// The camera at time t: eye, point looked at, fov in degrees.
void mur_cam_path_at(const mur_cam_path *p, double t, float eye[3], float at[3], float *fov_deg);
void mur_cam_path_free(mur_cam_path *p);

#endif
