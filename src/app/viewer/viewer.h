/* The viewer's shared state: window, loop, toggles, and the structs of each concern. Internal to the
 * viewer room (src/app/viewer). */
#ifndef MUR_APP_VIEWER_H
#define MUR_APP_VIEWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "cli.h"
#include "recording.h"
#include "camera_mode.h"
#include "pace.h"
#include "panel.h"
#include "msg.h"
#include "murmur/murmur.h"
#include "viewer_plots.h"

struct GLFWwindow;
struct mur_renderer;
struct mur_hud;
struct mur_scene;

#define VIEWER_SEL_MAX 512
#define VIEWER_TRAIL_LEN 90     /* frames a trail keeps (3 s at 30 fps) */
#define VIEWER_TRAIL_BIRDS 24   /* birds with a trail in the sample mode */

/* The viewer's state by concern. Each struct below is written by the one file named with it (others
 * read it); what stays directly in `viewer` is the loop's (viewer.c: time, sync, measurements) or
 * the toggles and camera that the commands (commands.c) and the loop change. */

/// The selected bird (a click on it), as of the last sync. Written by viewer_pick.c.
typedef struct viewer_sel {
    int32_t bird;              ///< boid index, -1 = none
    float pos[3], vel[3], speed, radius, angle;
    int32_t count;             ///< the neighbours its rules use (mur_flock_neighbours)
    int shown;                 ///< of which the nearest VIEWER_SEL_MAX are in nb
    bool topo;                 ///< topological neighbours (else metric)
    float nb[VIEWER_SEL_MAX][3];
} viewer_sel;

/// Trails (T). Written by viewer_trails.c.
typedef struct viewer_trails {
    int mode;                  ///< 0 off, 1 the selected bird, 2 a sample of birds
    int birds, head, count;
    uint64_t tick;             ///< tick of the newest point
    float pos[VIEWER_TRAIL_BIRDS][VIEWER_TRAIL_LEN][3];
} viewer_trails;

/// The mouse: buttons, the cursor, the cursor's predator (X). Written by viewer_mouse.c.
typedef struct viewer_mouse {
    int32_t pred;              ///< index of the cursor's predator (X), -1 = none
    bool pred_had;             ///< predators were on before
    bool left_down, right_down, dragged;
    double x, y, press_x, press_y; ///< window coordinates
} viewer_mouse;

/// The parameter panel. Written by viewer_panel.c.
typedef struct viewer_panel {
    bool show;                 ///< the parameter panel (E; Tab hides it with the HUD)
    struct mur_panel *ui;      ///< NULL without Dear ImGui
    mur_panel_io io;
    bool pending;              ///< the panel asked for changes, applied at the next sync
} viewer_panel;

/// Recording from the window (--record, or V). Written by viewer_record.c.
typedef struct viewer_rec {
    struct mur_recording *session; ///< NULL when not recording
    bool from_key;             ///< started by V (stopped by V, auto-named)
    bool drawing_video;        ///< the HUD is being drawn into the video (no recording marker)
    double start_time;         ///< v->time when the recording started
    int status;                ///< exit status of a recording that failed mid-run
} viewer_rec;

typedef struct viewer {
    const mur_cli *cli;
    mur_flock *flock;
    struct GLFWwindow *win;
    struct mur_renderer *renderer;
    struct mur_hud *hud;
    mur_camera cam;
    int fb_w, fb_h;   ///< framebuffer size, pixels
    int win_w, win_h; ///< window size, screen coordinates (differs from fb on HiDPI)

    /* time */
    bool scripted;      ///< --frames given: one tick per frame, fixed frame time (reproducible)
    bool paused;
    int step_once;      ///< ticks requested by '.'
    double speed;       ///< simulated seconds per real second
    double acc;         ///< unsimulated real time, s
    int64_t frame;      ///< frames drawn so far
    int64_t input_frame; ///< the frame (1-based, as in --keys) whose inputs are being applied
    double time;        ///< animation clock, s
    int ticks_last;     ///< ticks done in the last frame
    double dropped;     ///< simulated seconds skipped by the catch-up cap

    /* display */
    bool show_hud, show_help, show_box, color_by_speed;
    float boid_size;
    int param_sel;      ///< index into the list of nudgeable parameters
    bool want_screenshot;
    viewer_panel panel;        ///< viewer_panel.c
    bool want_record_toggle;   ///< V pressed: start or stop a recording
    bool flock_dirty;          ///< a setter ran: upload the state even without a tick
    bool quit;
    mur_msg_line msg;       ///< the message line (msg.c owns it: mur_msg writes, the HUD reads)
    float saved_view_angle; ///< view angle to restore when the cone is toggled back on
    char preset[32];        ///< name of the preset in force (the N key cycles them)

    viewer_sel sel;            ///< viewer_pick.c

    int watch;                 ///< J: 0 off, 1 the camera follows the selected bird, 2 rides behind it

    viewer_trails trails;      ///< viewer_trails.c
    viewer_mouse mouse;        ///< viewer_mouse.c

    /* the flock as of the last sync point (the worker owns the flock between syncs) */
    struct mur_sim *sim;
    mur_flock_def def;         ///< parameters in force
    int32_t nboids, npredators;
    bool predators_on;
    uint64_t tick;
    double centre[3];          ///< the followed group's centre (or the mean boid position)
    double radius;             ///< the followed group's rms radius, wu (0: unknown)
    double sim_time;           ///< simulated seconds since the start (the plots' clock)
    double next_measure_sim;   ///< scripted runs: simulated time of the next measurement
    double next_measure;       ///< when the metrics are next computed (s, glfwGetTime)
    double measure_s;          ///< how long the last measurement took, s

    /* recording from the window (--record, or V) */
    viewer_rec rec;            ///< viewer_record.c
    mur_pace pace;             ///< ticks per frame of recorded and scripted frames
    mur_cam_mode cam_mode;     ///< --camera orbit:SECONDS / follow / fixed

    /* live plots (M) and --metrics */
    bool show_plots;
    bool show_axes;            ///< D: the biggest group's principal axes
    viewer_plots plots;
    mur_afile *metrics;        ///< --metrics FILE: one row per tick, committed at exit (outputs.h)

    /* measurements (smoothed) */
    double fps, frame_ms, sim_ms;
    mur_stats stats;
    double sum_frame_ms, sum_sim_ms; ///< totals over the run, for the scripted summary
    double sum_wait_ms;              ///< of the frame, time spent waiting for the worker
    int64_t timed_frames;
} viewer;

/* viewer_mouse.c */
/// No cursor predator; the cursor where the window has it.
void viewer_mouse_init(viewer *v);
/// A left click at a window point (--keys "F:Click@XxY").
void viewer_mouse_click(viewer *v, double x, double y, int mods);
void viewer_mouse_button(viewer *v, int button, bool down, int mods);
void viewer_cursor(viewer *v, double x, double y);
void viewer_scroll(viewer *v, double dy);
/// X: the cursor's ray becomes a predator (one more predator, placed every frame), or stops.
void viewer_mouse_predator_toggle(viewer *v, bool on);
/// Place the cursor's predator (worker idle).
void viewer_mouse_predator(viewer *v);

/* viewer_record.c */
/// Start recording to path (from_key: V, auto-named, until V again). False after saying why.
bool viewer_start_recording(viewer *v, const char *path, bool from_key);
/// Finish the recording (sig: the stop signal, or 0). Returns its exit status.
int viewer_stop_recording(viewer *v, int sig);
/// V: start an auto-named recording, or stop the one running.
void viewer_toggle_recording(viewer *v);
/// Draw the frame into the recording target, hand it over and show it in the window.
void viewer_draw_recorded(viewer *v, const struct mur_scene *scene);

/* viewer_panel.c */
bool viewer_panel_setup(viewer *v);
void viewer_panel_destroy(viewer *v);
bool viewer_panel_available(void);
/// E: show or hide the panel; returns whether it is now on.
bool viewer_panel_toggle(viewer *v);
bool viewer_panel_shown(const viewer *v); ///< drawn in the window this frame (E on, HUD not hidden)
bool viewer_panel_wants_mouse(const viewer *v);
bool viewer_panel_wants_keyboard(const viewer *v);
void viewer_panel_draw(viewer *v);
/// The worker is idle: apply the panel's parameter changes; returns its other requests (a preset,
/// pause, step, speed) for the loop to carry out, or NULL when it asked for nothing.
const mur_panel_io *viewer_panel_apply(viewer *v);

/* viewer_pick.c */
/// Nothing selected.
void viewer_pick_init(viewer *v);
/// Select the bird nearest (within 12 px) the window point; none: deselect. True if one was hit.
/// Only while the worker is idle.
bool viewer_pick(viewer *v, double win_x, double win_y);
/// Refresh the selected bird and its neighbours from the flock (worker idle).
void viewer_pick_update(viewer *v);
/// The markers of the selected bird, inside a HUD frame.
void viewer_pick_draw(viewer *v, struct mur_hud *h, float scale);

/* viewer_trails.c */
/// T: off > the selected bird > a sample of birds > off.
void viewer_trails_cycle(viewer *v);
/// Add the drawn state's positions (worker idle).
void viewer_trails_update(viewer *v);
/// The trails as fading dots, inside a HUD frame.
void viewer_trails_draw(viewer *v, struct mur_hud *h, float scale);

/* viewer_hud.c */
void viewer_draw_hud(viewer *v);

#endif
