/* The viewer's camera (viewer_camera in viewer.h): the orbit camera (src/gfx/camera.h), the --camera
 * mode and J's watch of the selected bird. The commands (F, J, Home, a world that grew), the mouse
 * (orbit, pan, zoom) and the loop (the frame's motion, a resized framebuffer) change it only through
 * these functions; they call only the camera code of src/gfx and the record room. */
#include <math.h>

#include "viewer.h"

bool viewer_camera_setup(viewer_camera *c, const mur_cli *cli, const mur_flock_def *world, int width,
                         int height, char *err, size_t len)
{
    c->watch = 0;
    c->was_follow = false;
    return mur_cam_setup(&c->cam, &c->mode, cli, world, width, height, err, len);
}

void viewer_camera_free(viewer_camera *c)
{
    mur_cam_mode_free(&c->mode);
}

void viewer_camera_aspect(viewer_camera *c, int width, int height)
{
    mur_camera_set_aspect(&c->cam, width, height);
}

void viewer_camera_free_part(viewer_camera *c, float x0, float x1, int width)
{
    mur_camera_set_free(&c->cam, x0, x1, width);
}

void viewer_camera_scale(viewer_camera *c, float k)
{
    mur_camera_scale(&c->cam, k);
}

bool viewer_camera_follow_toggle(viewer_camera *c)
{
    mur_camera_set_follow(&c->cam, !c->cam.follow);
    return c->cam.follow;
}

int viewer_camera_watch_next(viewer_camera *c, bool have_bird)
{
    c->watch = have_bird ? (c->watch + 1) % 3 : 0;
    return c->watch;
}

void viewer_camera_reset(viewer_camera *c)
{
    mur_camera_reset(&c->cam);
}

void viewer_camera_orbit(viewer_camera *c, float dyaw, float dpitch)
{
    mur_camera_orbit(&c->cam, dyaw, dpitch);
}

void viewer_camera_pan(viewer_camera *c, float dx, float dy)
{
    mur_camera_pan(&c->cam, dx, dy);
}

void viewer_camera_zoom(viewer_camera *c, float notches)
{
    mur_camera_zoom(&c->cam, notches);
}

bool viewer_camera_move(viewer_camera *c, const viewer_sel *sel, float boid_size, const double centre[3],
                        double radius, const float (*box)[3], const float *falcon, double t, double real_dt)
{
    mur_camera *cam = &c->cam;
    const bool ended = c->was_follow && !cam->follow;
    if (sel->bird < 0)
        c->watch = 0;
    if (c->watch == 1) {
        /* J: the selected bird is the camera's target (orbit and zoom still work around it) */
        bool f = cam->follow;
        cam->follow = true;
        mur_camera_follow(cam, sel->pos);
        cam->follow = f;
    } else if (c->watch == 2 && sel->speed > 0.0f) {
        /* J twice: ride along, a few body lengths behind and a little above, looking ahead */
        float f[3] = {sel->vel[0] / sel->speed, sel->vel[1] / sel->speed, sel->vel[2] / sel->speed};
        for (int i = 0; i < 3; i++)
            cam->goal.target[i] = sel->pos[i] + f[i] * 4.0f * boid_size;
        cam->goal.yaw = atan2f(-f[0], -f[2]);
        cam->goal.pitch = asinf(fmaxf(-1.0f, fminf(1.0f, -f[1]))) + 0.25f;
        cam->goal.distance = 10.0f * boid_size;
        /* the shortest way round, as an orbit would take it */
        while (cam->goal.yaw - cam->cur.yaw > GLM_PIf)
            cam->goal.yaw -= 2.0f * GLM_PIf;
        while (cam->goal.yaw - cam->cur.yaw < -GLM_PIf)
            cam->goal.yaw += 2.0f * GLM_PIf;
    }
    const bool mode = c->mode.orbit_s > 0.0 || c->mode.follow || c->mode.path.n > 0;
    if (cam->follow) {
        if (box && c->watch == 0 && !mode) /* a mode fits the box itself */
            mur_camera_fit(cam, box, (float)real_dt);
        float p[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
        mur_camera_frame(cam, p, (float)radius);
    }
    if (mode)
        mur_cam_mode_apply(&c->mode, cam, centre, radius, c->watch == 0 ? box : NULL, c->watch == 0 ? falcon : NULL,
                           t - real_dt, (float)real_dt);
    else
        mur_camera_update(cam, (float)real_dt);
    c->was_follow = cam->follow;
    return ended;
}
