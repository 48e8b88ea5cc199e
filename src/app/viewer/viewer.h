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
#define VIEWER_TRAIL_LEN 1800   /* frames a trail can keep (60 s at 30 fps; Y sets the length) */
#define VIEWER_TRAIL_DEFAULT 90 /* frames a trail keeps at start (3 s at 30 fps) */
#define VIEWER_TRAIL_BIRDS 24   /* birds with a trail in the sample mode */
#define VIEWER_INPUTS 64        /* inputs waiting for the flock in a free run */

/// A key or click that waits for the flock (free run: applied when the worker lends it).
typedef struct viewer_input {
    int key;                   ///< GLFW_KEY_*, or MUR_KEY_CLICK (keyscript.h)
    int mods;
    bool repeat, release;      ///< a held key's repeat; a release (X)
    double x, y;               ///< a click's window point
} viewer_input;

/* The viewer's state by concern. Each struct below is written by the one file named with it; the
 * others read it, or ask the owner through its functions (declared below, by file). What stays
 * directly in `viewer` is the loop's (viewer.c): the window, time, sync, requests taken from the
 * commands, measurements. */

/// What the viewer shows (C O Tab M D H, the selected parameter) and the birds' size, which follows
/// the world's scale. Written by commands.c (viewer_commands_init, then the commands); the HUD, the
/// scene and the panel read it.
typedef struct viewer_display {
    bool show_hud, show_help, show_box, color_by_speed;
    bool tint_alarm;      ///< Shift+Z: birds escaping from the falcon tinted (off by default)
    bool hud_full;             ///< U: every number and toggle (else a minimal line; --hud on: full)
    bool show_plots;           ///< M: the live plots
    bool show_axes;            ///< D: the biggest group's principal axes
    float boid_size;
    int param_sel;             ///< index into the list of nudgeable parameters (Up / Down)
} viewer_display;

/// What a command asks the loop for, after the inputs (viewer_take_requests).
typedef struct viewer_requests {
    bool screenshot;           ///< F12
    bool record_toggle;        ///< V: start or stop a recording
    bool quit;                 ///< Esc, Q
} viewer_requests;

/// The commands' own memory and the requests they leave for the loop. Written by commands.c.
typedef struct viewer_cmds {
    char preset[32];           ///< name of the preset in force (the N key cycles them)
    float saved_view_angle;    ///< view angle to restore when the cone is toggled back on
    viewer_requests asked;     ///< taken (and cleared) by the loop through viewer_take_requests
} viewer_cmds;

/// The run state: pause, single ticks, speed, and the real-time accumulator. Written by
/// viewer_run.c; the commands, the panel's requests and the loop go through its functions.
typedef struct viewer_run {
    bool paused;
    int step_once;             ///< ticks requested by '.' (or the panel), taken by the next frame
    double speed;              ///< simulated seconds per real second
    double acc;                ///< unsimulated real time, s
    double dropped;            ///< simulated seconds skipped by the catch-up cap
} viewer_run;

/// The camera: the orbit camera, the --camera mode and J's watch. Written by viewer_camera.c; the
/// commands, the mouse and the loop ask through its functions, the drawing and picking read `cam`.
typedef struct viewer_camera {
    mur_camera cam;
    mur_cam_mode mode;         ///< --camera orbit:SECONDS / follow / fixed, --camera-path
    int watch;                 ///< J: 0 off, 1 the camera follows the selected bird, 2 rides behind it
    bool was_follow;           ///< the camera followed the flock in the last frame
} viewer_camera;

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
    int len;                   ///< frames a trail keeps (Y: 45 .. VIEWER_TRAIL_LEN; 0: the default)
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
    double start_time;         ///< v->time when the recording started
    int status;                ///< exit status of a recording that failed mid-run
} viewer_rec;

typedef struct viewer {
    const mur_cli *cli;
    mur_flock *flock;
    struct GLFWwindow *win;
    struct mur_renderer *renderer;
    struct mur_hud *hud;
    int fb_w, fb_h;   ///< framebuffer size, pixels
    int win_w, win_h; ///< window size, screen coordinates (differs from fb on HiDPI)

    /* the loop's own (viewer.c) */
    bool scripted;      ///< --frames given: one tick per frame, fixed frame time (reproducible)
    int64_t frame;      ///< frames drawn so far
    int64_t input_frame; ///< the frame (1-based, as in --keys) whose inputs are being applied
    double time;        ///< animation clock, s
    int ticks_last;     ///< ticks done in the last frame
    bool flock_dirty;   ///< an input changed the flock: upload the state even without a tick
    bool want_screenshot; ///< F12, taken from the commands: saved after this frame is drawn
    bool quit;          ///< Esc / Q, or a --record recording failed: this frame is the last

    /* by concern, each written by the file named */
    viewer_display display;    ///< commands.c
    viewer_cmds cmds;          ///< commands.c
    viewer_run run;            ///< viewer_run.c
    viewer_camera camera;      ///< viewer_camera.c
    viewer_sel sel;            ///< viewer_pick.c
    viewer_trails trails;      ///< viewer_trails.c
    viewer_mouse mouse;        ///< viewer_mouse.c
    viewer_panel panel;        ///< viewer_panel.c
    viewer_rec rec;            ///< viewer_record.c (recording from the window: --record, or V)
    mur_msg_line msg;          ///< msg.c (mur_msg writes, the HUD reads)
    viewer_plots plots;        ///< viewer_plots.c (the loop adds samples through viewer_plots_add)

    /* the flock as of the last sync point (the worker owns the flock between syncs; viewer.c) */
    struct mur_sim *sim;
    mur_flock_def def;         ///< parameters in force
    int32_t nboids, npredators;
    bool predators_on;
    uint64_t tick;
    double centre[3];          ///< the followed group's centre (or the mean boid position)
    double radius;             ///< the followed group's rms radius, wu (0: unknown)
    bool has_box;              ///< box holds the followed group's box (group.h)
    float box[4][3];
    bool has_falcon;           ///< falcon holds the attacking falcon's position (Shift+F keeps it in view)
    float falcon[3];
    double sim_time;           ///< simulated seconds since the start (the plots' clock)
    double next_measure_sim;   ///< scripted runs: simulated time of the next measurement
    double next_measure;       ///< when the metrics are next computed (s, glfwGetTime)
    double measure_s;          ///< how long the last measurement took, s

    mur_pace pace;             ///< ticks per frame of recorded and scripted frames (viewer.c)
    mur_afile *metrics;        ///< --metrics FILE: one row per tick, committed at exit (outputs.h)

    /* the free run (interactive: the worker steps on its own clock; simthread.h) */
    bool real_clock;           ///< MURMUR_VIEWER_CLOCK=real: --frames runs free too (timings)
    bool free_run;             ///< the worker is free-running now (no recording, not scripted)
    bool asked;                ///< a loan of the flock was asked for and not yet given back
    viewer_input inq[VIEWER_INPUTS]; ///< keys and clicks waiting for the flock
    int ninq;
    uint64_t measured_seen;    ///< the last measurement taken from a published state
    double sim_time0;          ///< sim_time when the free run started
    int32_t mesh_budget;       ///< the free run's level of detail: most meshes (0: the default rules)
    double next_budget;        ///< the budget is adapted no sooner (s, mur_clock_s)
    int budget_frames;         ///< frames summed in budget_work_s since the budget last changed
    double budget_work_s;      ///< their upload and draw, s
    int budget_skip;           ///< frames still to skip after a change (the old order may be drawn)

    /* measurements (smoothed; viewer.c) */
    double fps, frame_ms, sim_ms;
    double upload_ms, draw_ms; ///< the frame's upload of the state and its drawing (HUD included)
    double sum_upload_ms, sum_draw_ms; ///< totals over the timed frames
    mur_stats stats;
    double sum_frame_ms, sum_sim_ms; ///< totals over the run, for the scripted summary
    double sum_wait_ms;              ///< of the frame, time spent waiting for the worker
    int64_t timed_frames;
} viewer;

/* commands.c (the commands themselves are in commands.h) */
/// The display and the commands' memory at the start, from the command line and the flock.
void viewer_commands_init(viewer *v);
/// The requests the commands left since the last call (F12, V, quit); cleared.
viewer_requests viewer_take_requests(viewer *v);

/* viewer_run.c */
/// Running at real speed.
void viewer_run_init(viewer_run *r);
/// Space: pause or resume (the accumulator starts again); returns whether it is now paused.
bool viewer_run_toggle(viewer_run *r);
/// '.': one tick more for the next frame; pauses first. Returns whether it paused now.
bool viewer_run_step(viewer_run *r);
/// '[' or ']': half or twice as fast, within x1/64 .. x16; returns the new speed.
double viewer_run_faster(viewer_run *r, bool faster);
/// The panel's requests: pause or run (the accumulator kept), one tick more, a speed.
void viewer_run_set_paused(viewer_run *r, bool paused);
void viewer_run_add_step(viewer_run *r);
void viewer_run_set_speed(viewer_run *r, double speed);
/// Real-time runs: the ticks real_dt asks for at the speed (none while paused), at most max_ticks
/// (the rest is dropped).
int viewer_run_realtime(viewer_run *r, double real_dt, float dt, int max_ticks);
/// The single ticks asked for since the last call; cleared.
int viewer_run_take_steps(viewer_run *r);

/* viewer_camera.c */
/// The starting camera (--camera-pos, --look-at, --fov, --camera, --camera-path) for the world and
/// a width x height frame. False with the reason in err.
bool viewer_camera_setup(viewer_camera *c, const mur_cli *cli, const mur_flock_def *world, int width,
                         int height, char *err, size_t len);
void viewer_camera_free(viewer_camera *c);
/// The frame's aspect (the framebuffer was resized).
void viewer_camera_aspect(viewer_camera *c, int width, int height);
/// The world grew or shrank by k (world=scale): the view follows.
void viewer_camera_scale(viewer_camera *c, float k);
/// F: follow the biggest group or stop; returns whether it now follows.
bool viewer_camera_follow_toggle(viewer_camera *c);
/// J: off > watch > ride > off with a selected bird, else off; returns the new state (0, 1, 2).
int viewer_camera_watch_next(viewer_camera *c, bool have_bird);
/// Home: the starting view; stops following.
void viewer_camera_reset(viewer_camera *c);
/// The mouse: orbit (radians), pan (fractions of the window height), zoom (wheel notches).
void viewer_camera_orbit(viewer_camera *c, float dyaw, float dpitch);
void viewer_camera_pan(viewer_camera *c, float dx, float dy);
void viewer_camera_zoom(viewer_camera *c, float notches);
/// Once a frame: J's bird (sel), following the group (centre, radius), the --camera mode at the
/// animation time t, damped motion over real_dt.
/// The part of the window nothing covers (the parameter panel at the right edge): [x0, x1) pixels
/// of a width-pixel framebuffer; the flock is centred and framed in it.
void viewer_camera_free_part(viewer_camera *c, float x0, float x1, int width);
/// Returns true when the camera stopped following the flock since the last frame (a pan, Home, F).
bool viewer_camera_move(viewer_camera *c, const viewer_sel *sel, float boid_size, const double centre[3],
                        double radius, const float (*box)[3], const float *falcon, double t, double real_dt);

/* viewer_mouse.c: the functions that can change the flock return whether they did (the loop then
 * uploads it again even without a tick) */
/// No cursor predator; the cursor where the window has it.
void viewer_mouse_init(viewer *v);
/// A left click at a window point (--keys "F:Click@XxY").
bool viewer_mouse_click(viewer *v, double x, double y, int mods);
bool viewer_mouse_button(viewer *v, int button, bool down, int mods);
void viewer_cursor(viewer *v, double x, double y);
void viewer_scroll(viewer *v, double dy);
/// X: the cursor's ray becomes a predator (one more predator, placed every frame), or stops.
bool viewer_mouse_predator_toggle(viewer *v, bool on);
/// A button's release in a free run (the flock is the worker's): ends the press or drag and
/// returns whether it is a click, which the loop applies as a scripted click when it holds the flock.
bool viewer_mouse_release_click(viewer *v, int button, int mods);
/// Place the cursor's predator (worker idle).
bool viewer_mouse_predator(viewer *v);

/* viewer_record.c */
/// Start recording to path (from_key: V, auto-named, until V again). False after saying why.
bool viewer_start_recording(viewer *v, const char *path, bool from_key);
/// Finish the recording (sig: the stop signal, or 0). Returns its exit status.
int viewer_stop_recording(viewer *v, int sig);
/// V: start an auto-named recording, or stop the one running. True when one started.
bool viewer_toggle_recording(viewer *v);
/// Draw the frame into the recording target, hand it over and show it in the window. False when
/// the run should end (a --record recording failed).
bool viewer_draw_recorded(viewer *v, const struct mur_scene *scene);
/// A recording that was never ended (a failed start-up): freed as it stands.
void viewer_record_free(viewer *v);

/* viewer_panel.c */
bool viewer_panel_setup(viewer *v);
void viewer_panel_destroy(viewer *v);
bool viewer_panel_available(void);
/// E: show or hide the panel; returns whether it is now on.
bool viewer_panel_toggle(viewer *v);
bool viewer_panel_shown(const viewer *v); ///< drawn in the window this frame (E on, HUD not hidden)
/// The panel's left edge in framebuffer pixels (the framebuffer's width when it is not shown).
float viewer_panel_left(const viewer *v);
bool viewer_panel_wants_mouse(const viewer *v);
bool viewer_panel_wants_keyboard(const viewer *v);
void viewer_panel_draw(viewer *v);
/// The worker is idle: apply the panel's parameter changes (*flock_changed: they were applied);
/// returns its other requests (a preset, pause, step, speed) for the loop to carry out, or NULL
/// when it asked for nothing.
const mur_panel_io *viewer_panel_apply(viewer *v, bool *flock_changed);

/* viewer_pick.c */
/// Nothing selected.
void viewer_pick_init(viewer *v);
/// Select the bird nearest (within 12 px) the window point; none: deselect. True if one was hit.
/// Only while the worker is idle.
bool viewer_pick(viewer *v, double win_x, double win_y);
/// Refresh the selected bird and its neighbours from the flock (worker idle).
void viewer_pick_update(viewer *v);
/// The same from a published state (free run): its view, def and the selected bird's neighbours.
void viewer_pick_from(viewer *v, const mur_view *view, const mur_flock_def *def, const int32_t *nb, int32_t n);
/// The markers of the selected bird, inside a HUD frame of width x height pixels.
void viewer_pick_draw(const viewer *v, struct mur_hud *h, float scale, int width, int height);

/* viewer_trails.c */
/// T: off > the selected bird > a sample of birds > off.
void viewer_trails_cycle(viewer *v);
/// Y: the trails' length, doubled (45 to 1800 frames, then back to 45).
void viewer_trails_longer(viewer *v);
/// Add the drawn state's positions (worker idle).
void viewer_trails_update(viewer *v, const mur_view *view);
/// The trails as fading dots, inside a HUD frame of width x height pixels.
void viewer_trails_draw(const viewer *v, struct mur_hud *h, float scale, int width, int height);

/* viewer_hud.c */
/// Where the HUD goes.
typedef enum viewer_hud_mode {
    VIEWER_HUD_WINDOW, ///< the window: as the toggles say, and the recording marker while recording
    VIEWER_HUD_VIDEO,  ///< into a recording (--hud on): no marker; the trails and marks only with the HUD
    VIEWER_HUD_MARKER, ///< the window over a frame whose HUD came with the video: the HUD and help
                       ///< left out, the trails, the selected bird's marks and the recording marker
} viewer_hud_mode;
/// The HUD over a frame of width x height pixels (the window's framebuffer or the recording target).
void viewer_draw_hud(const viewer *v, int width, int height, viewer_hud_mode mode);
/// The help overlay (H) in the window, drawn last: over the HUD and the parameter panel.
void viewer_draw_help(const viewer *v, int width, int height);

#endif
