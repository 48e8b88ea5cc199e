/* Camera modes of recordings and the viewer (see camera_mode.h). */
#include "camera_mode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mur_cam_mode mur_cam_mode_parse(const char *spec)
{
    mur_cam_mode m;
    memset(&m, 0, sizeof m);
    if (!spec)
        return m;
    if (!strncmp(spec, "orbit:", 6))
        m.orbit_s = strtod(spec + 6, NULL);
    else if (!strcmp(spec, "follow"))
        m.follow = true;
    else if (!strcmp(spec, "falcon"))
        m.follow = m.falcon = true;
    return m;
}

bool mur_cam_mode_wants_centre(const mur_cam_mode *m)
{
    return m->follow || (m->path.n > 0 && m->path.relative);
}

static void apply_path(const mur_cam_mode *m, mur_camera *cam, double t)
{
    float eye[3], at[3], fov;
    mur_cam_path_at(&m->path, t, eye, at, &fov);
    if (m->path.relative && m->have_centre)
        for (int i = 0; i < 3; i++) {
            eye[i] += (float)m->centre[i];
            at[i] += (float)m->centre[i];
        }
    mur_camera_set_fov(cam, glm_rad(fov));
    mur_camera_look(cam, eye, at);
}

bool mur_cam_setup(mur_camera *cam, mur_cam_mode *mode, const mur_cli *cli, const mur_flock_def *def, int width,
                   int height, char *err, size_t len)
{
    *mode = mur_cam_mode_parse(cli->camera);
    mur_camera_init(cam, def->world_min, def->world_max, (float)width / (float)(height > 0 ? height : 1));
    if (def->roost) {
        /* a murmuration is watched from the ground: an observer below the flock and at a distance,
         * looking up at it against the sky (the framing keeps the eye above the ground) */
        mur_camera_set_observer(cam, true, def->ground);
        cam->home.pitch = -0.55f;
        if (!(cli->fov > 0.0))
            mur_camera_set_fov(cam, glm_rad(55.0f)); /* a little wider: closer, so more from below */
        mur_camera_reset(cam);
    }
    if (cli->fov > 0.0)
        mur_camera_set_fov(cam, glm_rad((float)cli->fov));
    if (cli->cam_pos_given || cli->look_at_given) {
        vec3 eye, at;
        mur_camera_eye(cam, eye);
        glm_vec3_copy(cam->cur.target, at);
        if (cli->look_at_given) {
            /* the home direction and distance, around the new point */
            vec3 off;
            glm_vec3_sub(eye, at, off);
            memcpy(at, cli->look_at, sizeof at);
            glm_vec3_add(at, off, eye);
        }
        if (cli->cam_pos_given)
            memcpy(eye, cli->cam_pos, sizeof eye);
        float d = glm_vec3_distance(eye, at);
        if (!(d > 1e-4f)) {
            snprintf(err, len, "--camera-pos and --look-at are the same point: the camera needs a direction");
            return false;
        }
        mur_camera_look(cam, eye, at);
    }
    if (cli->camera_path) {
        if (!mur_cam_path_load(&mode->path, cli->camera_path, err, len))
            return false;
        apply_path(mode, cam, 0.0);
    }
    mur_camera_snap(cam);
    /* a roost world has no walls to frame (the starling preset): unless a fixed camera, a position or a
     * path is asked for, the camera (an orbit too) follows the biggest group as F does (F or Home stop
     * it in the viewer) */
    bool roam = (!cli->camera || mode->orbit_s > 0.0) && def->roost && !cli->cam_pos_given && !cli->look_at_given &&
                !cli->camera_path;
    if (mode->follow || roam)
        mur_camera_set_follow(cam, true);
    return true;
}

void mur_cam_mode_apply(mur_cam_mode *m, mur_camera *cam, const double centre[3], double radius,
                        const float (*box)[3], const float *falcon, double t, float dt)
{
    if (m->path.relative && isfinite(centre[0]) && isfinite(centre[1]) && isfinite(centre[2])) {
        /* the flock's centre, smoothed (half a second), so a change of biggest group glides */
        double k = m->have_centre && dt > 0.0f ? 1.0 - exp(-2.0 * (double)dt) : 1.0;
        for (int i = 0; i < 3; i++)
            m->centre[i] += (centre[i] - m->centre[i]) * k;
        m->have_centre = true;
    }
    if (m->path.n > 0) {
        apply_path(m, cam, t); /* exact: no damping on a path */
        return;
    }
    if (m->orbit_s > 0.0) {
        /* the goal and the drawn yaw turn together: a constant angular speed, no damping lag */
        float d = (float)(2.0 * GLM_PI / m->orbit_s) * dt;
        cam->goal.yaw += d;
        cam->cur.yaw += d;
    }
    if (m->follow || cam->follow) {
        cam->follow = true;
        if (box)
            mur_camera_fit(cam, box, dt);
        float c[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
        mur_camera_frame(cam, c, (float)radius);
        if (m->falcon && falcon)
            mur_camera_keep(cam, falcon, 0.8f);
    }
    mur_camera_update(cam, dt);
}

void mur_cam_mode_free(mur_cam_mode *m)
{
    mur_cam_path_free(&m->path);
}

void mur_cam_flags(const mur_camera *cam, char *buf, size_t len)
{
    vec3 eye;
    mur_camera_eye(cam, eye);
    snprintf(buf, len, "--camera-pos %.6g,%.6g,%.6g --look-at %.6g,%.6g,%.6g --fov %.6g", (double)eye[0],
             (double)eye[1], (double)eye[2], (double)cam->cur.target[0], (double)cam->cur.target[1],
             (double)cam->cur.target[2], (double)glm_deg(cam->fov_y));
}
