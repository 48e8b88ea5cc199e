/* Camera modes of recordings and the viewer (see camera_mode.h). */
#include "camera_mode.h"

#include <stdlib.h>
#include <string.h>

mur_cam_mode mur_cam_mode_parse(const char *spec)
{
    mur_cam_mode m = {0.0, false};
    if (!spec)
        return m;
    if (!strncmp(spec, "orbit:", 6))
        m.orbit_s = strtod(spec + 6, NULL);
    else if (!strcmp(spec, "follow"))
        m.follow = true;
    return m;
}

void mur_cam_mode_apply(const mur_cam_mode *m, mur_camera *cam, const double centre[3], float dt)
{
    if (m->orbit_s > 0.0) {
        /* the goal and the drawn yaw turn together: a constant angular speed, no damping lag */
        float d = (float)(6.283185307179586 / m->orbit_s) * dt;
        cam->goal.yaw += d;
        cam->cur.yaw += d;
    }
    if (m->follow || cam->follow) {
        cam->follow = true;
        float c[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
        mur_camera_follow(cam, c);
    }
    mur_camera_update(cam, dt);
}

