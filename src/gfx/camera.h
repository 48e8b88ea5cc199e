/* Orbit camera: a pure module (no GL, no window), so it is tested without a display.
 *
 * The camera looks at `target` from `distance` away, at longitude `yaw` and latitude `pitch`
 * (radians; y is up). Input changes the goal values; mur_camera_update() moves the current values
 * toward them with a dt-based exponential damping, so motion is smooth at any frame rate.
 */
#ifndef MUR_GFX_CAMERA_H
#define MUR_GFX_CAMERA_H

#include <stdbool.h>

#include <cglm/cglm.h>

typedef struct mur_camera_pose {
    vec3 target;    ///< point looked at, wu
    float yaw;      ///< longitude around +y, radians (0 = eye on +z)
    float pitch;    ///< latitude, radians (+ = eye above the target)
    float distance; ///< eye to target, wu
} mur_camera_pose;

typedef struct mur_camera {
    mur_camera_pose cur;    ///< what is drawn
    mur_camera_pose goal;   ///< where input wants to go
    mur_camera_pose home;   ///< Home resets to this
    float fov_y;            ///< vertical field of view, radians
    float aspect;           ///< width / height
    float max_pitch;        ///< latitude clamp, radians, short of the poles
    float min_distance;     ///< zoom limits, wu
    float max_distance;
    float damping;          ///< 1/s; 0 = no damping (jump to the goal)
    float zoom_step;        ///< distance factor per wheel notch (< 1: zoom in per positive notch)
    bool follow;            ///< target follows the flock centre (mur_camera_follow)
    float follow_zoom;      ///< while following: distance as a multiple of the framing distance
    float fit;              ///< while following: the framing distance's factor that mur_camera_fit
                            ///<   adjusts so the flock's box fills about fit_area of the free part
    float fit_area;         ///< the share of the free part of the frame the flock's box should fill
    float aim[2];           ///< while following: the target's offset from the group centre, in
                            ///<   half view widths (x) and heights (y), so the box sits centred
    float free_x0, free_x1; ///< the part of the frame nothing covers, NDC x (-1..1 when nothing does)
    bool observer;          ///< an observer on the ground: the eye stays above ground_y + 1.7 wu
    float ground_y;
    vec3 scene_centre;      ///< bounding sphere of what is drawn, for near/far
    float scene_radius;
} mur_camera;

/// The world grew k times about the origin (world=scale after a boid-count change): targets,
/// distances, zoom limits and the scene sphere scale with it; the angles stay.
void mur_camera_scale(mur_camera *c, float k);
/// Fit the home view to the world box [lo, hi] for the given aspect (width/height) and reset to it.
void mur_camera_init(mur_camera *c, const float lo[3], const float hi[3], float aspect);
/// Back to the home view (also turns follow off).
void mur_camera_reset(mur_camera *c);
/// Orbit by the given angles (radians); latitude is clamped to +-max_pitch.
void mur_camera_orbit(mur_camera *c, float dyaw, float dpitch);
/// Pan the target in the view plane; dx, dy in fractions of the view height (+x right, +y up).
void mur_camera_pan(mur_camera *c, float dx, float dy);
/// Zoom by wheel notches (+ = closer); the step is a factor, so it scales with the distance.
void mur_camera_zoom(mur_camera *c, float notches);
/// Window size changed.
void mur_camera_set_aspect(mur_camera *c, int width, int height);
void mur_camera_set_follow(mur_camera *c, bool on);
/// While following, move the target goal to p (the flock centre).
void mur_camera_follow(mur_camera *c, const float p[3]);
/// While following, frame a group: target p, distance so that a sphere of twice radius fits the
/// view with some air (2.5 radii, times follow_zoom, which the wheel changes while following). radius <= 0: pan only.
void mur_camera_frame(mur_camera *c, const float p[3], float radius);
/// While following: measure the flock's box (box[0]: its centre, box[1..3]: its three half axes, wu;
/// the 8 corners are projected with the current pose) and move fit and aim toward a box that fills
/// fit_area of the free part of the frame, centred in it, no wider or taller than 90% of it. dt: s of
/// smoothing (<= 0: the whole correction at once). Returns the box's share of the free part, or -1.
float mur_camera_fit(mur_camera *c, const float box[4][3], float dt);
/// While following: keep the point p (the attacking falcon of --camera falcon) within margin (a
/// share of the half width and half height, e.g. 0.8) of the centre of the free part of the frame,
/// seen from the goal pose. Where the framing leaves it out the goal zooms out about its target (the
/// framed group's centre; fit grows with it, so the framing keeps the new distance and eases back in
/// at its own pace): the group and p then both stay in view. At the zoom limit (max_distance) they
/// do not both fit, and p comes first: the target moves toward p until p is in. True when it moved the goal.
bool mur_camera_keep(mur_camera *c, const float p[3], float margin);
/// The part of a width-pixel frame that nothing covers: [x0, x1) pixels; the projection is shifted
/// so the view's centre is the centre of that part.
void mur_camera_set_free(mur_camera *c, float x0, float x1, int width);
/// An observer standing on the ground (y = ground_y): the framing keeps the eye above it.
void mur_camera_set_observer(mur_camera *c, bool on, float ground_y);
/// Look from eye at target: both the current and the goal pose, and the home view (Home returns
/// here). The latitude is clamped short of the poles; the zoom limits widen to hold the distance.
void mur_camera_look(mur_camera *c, const float eye[3], const float target[3]);
/// Vertical field of view, radians (clamped to 1..170 degrees).
void mur_camera_set_fov(mur_camera *c, float fov_y);
/// Advance the damping by dt seconds.
void mur_camera_update(mur_camera *c, float dt);
/// Jump to the goal at once (for scripted runs and tests).
void mur_camera_snap(mur_camera *c);

void mur_camera_eye(const mur_camera *c, vec3 out);
/// Near and far planes fitted to the scene sphere around the current eye.
void mur_camera_near_far(const mur_camera *c, float *near_z, float *far_z);
void mur_camera_view(const mur_camera *c, mat4 out);
void mur_camera_proj(const mur_camera *c, mat4 out);
void mur_camera_view_proj(const mur_camera *c, mat4 out);
/// Project a world point to pixels (x right, y down from the top-left) in a width x height image.
/// False if the point is behind the eye or outside the near/far range.
bool mur_camera_project(const mur_camera *c, const float p[3], int width, int height, float out[2]);
/// The ray through pixel (px, py) (top-left origin): origin = eye, dir = unit direction.
void mur_camera_ray(const mur_camera *c, float px, float py, int width, int height, vec3 origin,
                    vec3 dir);
/// Intersect a ray with the plane y = h; false if parallel or behind the origin.
bool mur_ray_hit_plane_y(const vec3 origin, const vec3 dir, float h, vec3 out);

#endif
