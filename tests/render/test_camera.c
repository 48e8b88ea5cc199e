/* Orbit camera math without a window: orbit, zoom, pan, latitude clamp, follow, damping, reset,
 * near/far, projection and picking rays, the follow framing and keeping a point in view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "camera.h"

static const float LO[3] = {-60.0f, 0.0f, -60.0f};
static const float HI[3] = {60.0f, 60.0f, 60.0f};

static void near_eq(float a, float b, float tol)
{
    if (!(fabsf(a - b) <= tol))
        fail_msg("%g != %g (tolerance %g)", (double)a, (double)b, (double)tol);
}

static mur_camera fresh(void)
{
    mur_camera c;
    mur_camera_init(&c, LO, HI, 16.0f / 9.0f);
    mur_camera_snap(&c);
    return c;
}

static void home_looks_at_the_box(void **state)
{
    (void)state;
    mur_camera c = fresh();
    near_eq(c.cur.target[0], 0.0f, 1e-5f);
    near_eq(c.cur.target[1], 30.0f, 1e-5f);
    near_eq(c.cur.target[2], 0.0f, 1e-5f);
    float px[2], centre[3] = {0.0f, 30.0f, 0.0f};
    assert_true(mur_camera_project(&c, centre, 1280, 720, px));
    near_eq(px[0], 640.0f, 0.01f);
    near_eq(px[1], 360.0f, 0.01f);
    /* every corner of the box is in view */
    for (int i = 0; i < 8; i++) {
        float p[3] = {(i & 1) ? HI[0] : LO[0], (i & 2) ? HI[1] : LO[1], (i & 4) ? HI[2] : LO[2]};
        assert_true(mur_camera_project(&c, p, 1280, 720, px));
        assert_true(px[0] > -0.25f * 1280 && px[0] < 1.25f * 1280);
        assert_true(px[1] > -0.25f * 720 && px[1] < 1.25f * 720);
    }
    /* the eye is above the target (a view from above the horizon) */
    vec3 eye;
    mur_camera_eye(&c, eye);
    assert_true(eye[1] > c.cur.target[1]);
    near_eq(glm_vec3_distance(eye, c.cur.target), c.cur.distance, 1e-3f);
}

static void orbit_and_latitude_clamp(void **state)
{
    (void)state;
    mur_camera c = fresh();
    float yaw0 = c.goal.yaw;
    mur_camera_orbit(&c, 0.5f, 0.0f);
    near_eq(c.goal.yaw, yaw0 + 0.5f, 1e-6f);
    mur_camera_orbit(&c, 0.0f, 100.0f);
    near_eq(c.goal.pitch, c.max_pitch, 1e-6f);
    assert_true(c.max_pitch < 1.5707963f);
    mur_camera_orbit(&c, 0.0f, -1000.0f);
    near_eq(c.goal.pitch, -c.max_pitch, 1e-6f);
    /* at the clamp the view matrix is still well defined (no pole flip) */
    mur_camera_snap(&c);
    mat4 v;
    mur_camera_view(&c, v);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_true(isfinite(v[i][j]));
    /* orbiting keeps the distance to the target */
    vec3 eye;
    mur_camera_eye(&c, eye);
    near_eq(glm_vec3_distance(eye, c.cur.target), c.cur.distance, 1e-3f);
}

static void zoom_scales_with_distance(void **state)
{
    (void)state;
    mur_camera c = fresh();
    float d0 = c.goal.distance;
    mur_camera_zoom(&c, 1.0f);
    near_eq(c.goal.distance, d0 * c.zoom_step, 1e-3f);
    mur_camera_zoom(&c, 2.0f);
    near_eq(c.goal.distance, d0 * powf(c.zoom_step, 3.0f), 1e-3f);
    mur_camera_zoom(&c, -3.0f);
    near_eq(c.goal.distance, d0, 1e-2f);
    /* a notch is a factor: the step in wu is proportional to the distance */
    float far_step = c.goal.distance * (1.0f - c.zoom_step);
    mur_camera_zoom(&c, 10.0f);
    float near_step = c.goal.distance * (1.0f - c.zoom_step);
    assert_true(near_step < far_step);
    mur_camera_zoom(&c, 1000.0f);
    near_eq(c.goal.distance, c.min_distance, 1e-6f);
    mur_camera_zoom(&c, -1000.0f);
    near_eq(c.goal.distance, c.max_distance, 1e-3f);
}

static void pan_moves_in_view_plane(void **state)
{
    (void)state;
    mur_camera c = fresh();
    vec3 t0, e0;
    glm_vec3_copy(c.goal.target, t0);
    mur_camera_eye(&c, e0);
    vec3 fwd;
    glm_vec3_sub(t0, e0, fwd);
    glm_vec3_normalize(fwd);
    mur_camera_pan(&c, 0.25f, 0.0f);
    vec3 d;
    glm_vec3_sub(c.goal.target, t0, d);
    float view_h = 2.0f * c.goal.distance * tanf(0.5f * c.fov_y);
    near_eq(glm_vec3_norm(d), 0.25f * view_h, 1e-3f);
    near_eq(glm_vec3_dot(d, fwd), 0.0f, 1e-3f);
    near_eq(d[1], 0.0f, 1e-4f); /* horizontal pan stays level */
    glm_vec3_copy(c.goal.target, t0);
    mur_camera_pan(&c, 0.0f, 0.5f);
    glm_vec3_sub(c.goal.target, t0, d);
    near_eq(glm_vec3_norm(d), 0.5f * view_h, 1e-3f);
    near_eq(glm_vec3_dot(d, fwd), 0.0f, 1e-3f);
    /* dragging the scene up moves the target down */
    assert_true(d[1] < 0.0f);
}

static void follow_moves_target(void **state)
{
    (void)state;
    mur_camera c = fresh();
    float p[3] = {10.0f, 20.0f, -5.0f};
    mur_camera_follow(&c, p); /* off: ignored */
    near_eq(c.goal.target[0], 0.0f, 1e-6f);
    mur_camera_set_follow(&c, true);
    mur_camera_follow(&c, p);
    near_eq(c.goal.target[0], 10.0f, 1e-6f);
    near_eq(c.goal.target[1], 20.0f, 1e-6f);
    near_eq(c.goal.target[2], -5.0f, 1e-6f);
    for (int i = 0; i < 200; i++)
        mur_camera_update(&c, 1.0f / 60.0f);
    near_eq(c.cur.target[0], 10.0f, 1e-3f);
    float bad[3] = {NAN, 0.0f, 0.0f};
    mur_camera_follow(&c, bad);
    assert_true(isfinite(c.goal.target[0]));
    /* panning takes the camera back from the flock */
    mur_camera_pan(&c, 0.1f, 0.0f);
    assert_false(c.follow);
}

static void damping_is_dt_based(void **state)
{
    (void)state;
    mur_camera a = fresh(), b = fresh();
    mur_camera_orbit(&a, 1.0f, 0.0f);
    mur_camera_orbit(&b, 1.0f, 0.0f);
    float yaw0 = a.cur.yaw;
    mur_camera_update(&a, 0.0f);
    near_eq(a.cur.yaw, yaw0, 0.0f);
    /* one step of 0.1 s equals ten steps of 0.01 s: smooth at any frame rate */
    mur_camera_update(&a, 0.1f);
    for (int i = 0; i < 10; i++)
        mur_camera_update(&b, 0.01f);
    near_eq(a.cur.yaw, b.cur.yaw, 1e-4f);
    assert_true(a.cur.yaw > yaw0 && a.cur.yaw < yaw0 + 1.0f);
    for (int i = 0; i < 100; i++)
        mur_camera_update(&a, 0.1f);
    near_eq(a.cur.yaw, a.goal.yaw, 1e-4f);
}

static void reset_restores_view(void **state)
{
    (void)state;
    mur_camera c = fresh();
    mur_camera_orbit(&c, 1.0f, 0.3f);
    mur_camera_zoom(&c, 4.0f);
    mur_camera_pan(&c, 0.3f, 0.1f);
    mur_camera_set_follow(&c, true);
    mur_camera_reset(&c);
    near_eq(c.goal.yaw, c.home.yaw, 0.0f);
    near_eq(c.goal.pitch, c.home.pitch, 0.0f);
    near_eq(c.goal.distance, c.home.distance, 0.0f);
    near_eq(c.goal.target[0], c.home.target[0], 0.0f);
    assert_false(c.follow);
}

static void near_far_and_aspect(void **state)
{
    (void)state;
    mur_camera c = fresh();
    float n, f;
    mur_camera_near_far(&c, &n, &f);
    assert_true(n > 0.0f && f > n);
    assert_true(f / n <= 5001.0f);
    /* the whole box lies between the planes */
    vec3 eye;
    mur_camera_eye(&c, eye);
    for (int i = 0; i < 8; i++) {
        vec3 p = {(i & 1) ? HI[0] : LO[0], (i & 2) ? HI[1] : LO[1], (i & 4) ? HI[2] : LO[2]};
        float d = glm_vec3_distance(eye, p);
        assert_true(d > n && d < f);
    }
    mur_camera_set_aspect(&c, 800, 400);
    near_eq(c.aspect, 2.0f, 1e-6f);
    mur_camera_set_aspect(&c, 0, 0); /* minimised window: keep the last aspect */
    near_eq(c.aspect, 2.0f, 1e-6f);
    /* zoomed right in, the near plane stays in front of the target */
    mur_camera_zoom(&c, 1000.0f);
    mur_camera_snap(&c);
    mur_camera_near_far(&c, &n, &f);
    assert_true(n < c.cur.distance);
}

static void ray_picks_the_ground(void **state)
{
    (void)state;
    mur_camera c = fresh();
    vec3 o, d, hit;
    mur_camera_ray(&c, 640.0f, 360.0f, 1280, 720, o, d);
    /* the centre ray passes through the target */
    vec3 to_t;
    glm_vec3_sub(c.cur.target, o, to_t);
    glm_vec3_normalize(to_t);
    near_eq(glm_vec3_dot(to_t, d), 1.0f, 1e-5f);
    /* it looks down, so it meets the ground; the hit projects back to the same pixel */
    assert_true(mur_ray_hit_plane_y(o, d, 0.0f, hit));
    near_eq(hit[1], 0.0f, 1e-4f);
    float px[2];
    mur_camera_ray(&c, 300.0f, 600.0f, 1280, 720, o, d);
    assert_true(mur_ray_hit_plane_y(o, d, 0.0f, hit));
    assert_true(mur_camera_project(&c, hit, 1280, 720, px));
    near_eq(px[0], 300.0f, 0.05f);
    near_eq(px[1], 600.0f, 0.05f);
    /* a ray going up never meets a ground below */
    vec3 up = {0.0f, 1.0f, 0.0f};
    assert_false(mur_ray_hit_plane_y(o, up, 0.0f, hit));
    vec3 flat = {1.0f, 0.0f, 0.0f};
    assert_false(mur_ray_hit_plane_y(o, flat, 0.0f, hit));
}

static void project_behind_eye(void **state)
{
    (void)state;
    mur_camera c = fresh();
    vec3 eye, back;
    mur_camera_eye(&c, eye);
    glm_vec3_sub(eye, c.cur.target, back);
    glm_vec3_add(eye, back, back); /* twice as far, behind the eye */
    float px[2];
    assert_false(mur_camera_project(&c, back, 1280, 720, px));
    float above[3] = {0.0f, 40.0f, 0.0f};
    assert_true(mur_camera_project(&c, above, 1280, 720, px));
    assert_true(px[1] < 360.0f);
}

/* The share of a 1280x720 frame that a box's 8 projected corners span, and its centre in pixels. */
static float box_share(const mur_camera *c, const float box[4][3], float ctr[2])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int k = 0; k < 8; k++) {
        float q[3], px[2];
        for (int i = 0; i < 3; i++)
            q[i] = box[0][i] + (k & 1 ? 1.0f : -1.0f) * box[1][i] + (k & 2 ? 1.0f : -1.0f) * box[2][i]
                   + (k & 4 ? 1.0f : -1.0f) * box[3][i];
        assert_true(mur_camera_project(c, q, 1280, 720, px));
        x0 = fminf(x0, px[0]);
        x1 = fmaxf(x1, px[0]);
        y0 = fminf(y0, px[1]);
        y1 = fmaxf(y1, px[1]);
    }
    ctr[0] = 0.5f * (x0 + x1);
    ctr[1] = 0.5f * (y0 + y1);
    return (x1 - x0) * (y1 - y0) / (1280.0f * 720.0f);
}

/* Following a flock whose box is a thin, wide sheet off its centre of mass: the framing converges
 * to a box that fills fit_area of the frame, centred; with the right 40% covered, centred in the
 * rest; an observer's eye never goes under the ground. */
static void fit_frames_the_box(void **state)
{
    (void)state;
    mur_camera c = fresh();
    mur_camera_set_observer(&c, true, 0.0f);
    c.home.pitch = c.goal.pitch = c.cur.pitch = -0.4f;
    mur_camera_set_follow(&c, true);
    const float centre[3] = {10.0f, 40.0f, -5.0f};
    const float box[4][3] = {{14.0f, 41.0f, -5.0f}, {30.0f, 0.0f, 0.0f}, {0.0f, 3.0f, 0.0f}, {0.0f, 0.0f, 18.0f}};
    for (int f = 0; f < 600; f++) { /* 20 s at 30 fps */
        mur_camera_fit(&c, box, 1.0f / 30.0f);
        mur_camera_frame(&c, centre, 20.0f);
        mur_camera_update(&c, 1.0f / 30.0f);
        float eye[3];
        mur_camera_eye(&c, eye);
        assert_true(eye[1] >= 1.7f - 1e-3f);
    }
    float ctr[2];
    float share = box_share(&c, box, ctr);
    assert_true(share > 0.4f && share < 0.6f);
    near_eq(ctr[0], 640.0f, 20.0f);
    /* an observer's target never moves up (that would lift the eye above the flock): from below, the
     * box sits in the upper part of the frame, never below its centre */
    assert_true(ctr[1] > 120.0f && ctr[1] < 380.0f);

    /* the panel covers the right 40%: the box moves to the middle of the left 60% */
    mur_camera_set_free(&c, 0.0f, 768.0f, 1280);
    for (int f = 0; f < 600; f++) {
        mur_camera_fit(&c, box, 1.0f / 30.0f);
        mur_camera_frame(&c, centre, 20.0f);
        mur_camera_update(&c, 1.0f / 30.0f);
    }
    share = box_share(&c, box, ctr);
    near_eq(ctr[0], 384.0f, 20.0f);
    share /= 0.6f; /* of the free part; no wider than 90% of it */
    assert_true(share > 0.25f && share < 0.7f);
    /* the ray through the projected box's centre passes near the box's centre (not through it: the
     * near half of a deep box looks bigger) */
    vec3 o, d, oc, cr;
    mur_camera_ray(&c, ctr[0], ctr[1], 1280, 720, o, d);
    glm_vec3_sub((float *)box[0], o, oc);
    glm_vec3_cross(oc, d, cr);
    assert_true(glm_vec3_norm(cr) < 0.15f * glm_vec3_norm(oc));
}

/* mur_camera_keep (--camera falcon): a point the framing leaves out is brought within the margin by
 * zooming out about the target, which stays (the framed group stays in view too), and the framing
 * keeps the new distance (fit grew); a point inside moves nothing; at the zoom limit the target
 * moves toward the point instead. */
static void keep_holds_the_point(void **state)
{
    (void)state;
    mur_camera c = fresh();
    mur_camera_set_follow(&c, true);
    const float centre[3] = {0.0f, 30.0f, 0.0f}, falcon[3] = {70.0f, 80.0f, -20.0f};
    mur_camera_frame(&c, centre, 10.0f);
    mur_camera_snap(&c);
    float px[2];
    assert_false(mur_camera_project(&c, falcon, 1280, 720, px) && px[0] >= 0 && px[0] < 1280 && px[1] >= 0 &&
                 px[1] < 720);
    const mur_camera_pose before = c.goal;
    const float fit = c.fit;
    assert_true(mur_camera_keep(&c, falcon, 0.8f));
    mur_camera_snap(&c);
    assert_true(mur_camera_project(&c, falcon, 1280, 720, px));
    /* within 80% of the half width and height of the centre, and no further out than needed */
    assert_true(fabsf(px[0] - 640.0f) <= 0.8f * 640.0f + 1.0f && fabsf(px[1] - 360.0f) <= 0.8f * 360.0f + 1.0f);
    assert_true(fabsf(px[0] - 640.0f) > 0.7f * 640.0f || fabsf(px[1] - 360.0f) > 0.7f * 360.0f);
    for (int i = 0; i < 3; i++)
        near_eq(c.goal.target[i], before.target[i], 1e-4f);
    assert_true(c.goal.distance > before.distance && c.fit > fit);
    near_eq(c.goal.distance / before.distance, c.fit / fit, 1e-3f);
    /* the next framing keeps the distance */
    mur_camera_frame(&c, centre, 10.0f);
    near_eq(c.goal.distance, c.cur.distance, 1e-3f * c.cur.distance);
    /* inside: nothing moves */
    assert_false(mur_camera_keep(&c, centre, 0.8f));
    /* at the zoom limit the point comes first: the target moves toward it */
    c.max_distance = c.goal.distance;
    const float far_point[3] = {400.0f, 30.0f, 0.0f};
    assert_true(mur_camera_keep(&c, far_point, 0.8f));
    near_eq(c.goal.distance, c.max_distance, 1e-3f);
    assert_true(c.goal.target[0] > 10.0f);
    mur_camera_snap(&c);
    assert_true(mur_camera_project(&c, far_point, 1280, 720, px) && fabsf(px[0] - 640.0f) <= 0.8f * 640.0f + 1.0f);
    /* not following: nothing */
    mur_camera_set_follow(&c, false);
    assert_false(mur_camera_keep(&c, (float[3]){1e4f, 0.0f, 0.0f}, 0.8f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(home_looks_at_the_box),
        cmocka_unit_test(orbit_and_latitude_clamp),
        cmocka_unit_test(zoom_scales_with_distance),
        cmocka_unit_test(pan_moves_in_view_plane),
        cmocka_unit_test(follow_moves_target),
        cmocka_unit_test(damping_is_dt_based),
        cmocka_unit_test(reset_restores_view),
        cmocka_unit_test(near_far_and_aspect),
        cmocka_unit_test(ray_picks_the_ground),
        cmocka_unit_test(project_behind_eye),
        cmocka_unit_test(fit_frames_the_box),
        cmocka_unit_test(keep_holds_the_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
