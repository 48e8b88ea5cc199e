/* The viewer's shared state: window, loop, toggles. Internal to src/app (viewer*.c). */
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
#include "murmur/murmur.h"
#include "viewer_plots.h"

struct GLFWwindow;
struct mur_renderer;
struct mur_hud;
struct mur_scene;

#define VIEWER_SEL_MAX 512
#define VIEWER_TRAIL_LEN 90     /* frames a trail keeps (3 s at 30 fps) */
#define VIEWER_TRAIL_BIRDS 24   /* birds with a trail in the sample mode */

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
    char message[200];  ///< last action, shown in the HUD for a while
    double message_until;
    bool want_screenshot;
    bool show_panel;           ///< the parameter panel (E; Tab hides it with the HUD)
    struct mur_panel *panel;   ///< NULL without Dear ImGui
    mur_panel_io panel_io;
    bool panel_pending;        ///< the panel asked for changes, applied at the next sync
    bool want_record_toggle;   ///< V pressed: start or stop a recording
    bool flock_dirty;          ///< a setter ran: upload the state even without a tick
    bool quit;
    float saved_view_angle; ///< view angle to restore when the cone is toggled back on
    char preset[32];        ///< name of the preset in force (the N key cycles them)

    /* the selected bird (a click on it), as of the last sync */
    int32_t selected;          ///< boid index, -1 = none
    float sel_pos[3], sel_vel[3], sel_speed, sel_radius, sel_angle;
    int32_t sel_count;         ///< the neighbours its rules use (mur_flock_neighbours)
    int sel_shown;             ///< of which the nearest VIEWER_SEL_MAX are in sel_nb
    bool sel_topo;             ///< topological neighbours (else metric)
    float sel_nb[VIEWER_SEL_MAX][3];

    int watch;                 ///< J: 0 off, 1 the camera follows the selected bird, 2 rides behind it

    /* trails (T) */
    int trail_mode;            ///< 0 off, 1 the selected bird, 2 a sample of birds
    int trail_birds, trail_head, trail_count;
    uint64_t trail_tick;       ///< tick of the newest point
    float trail[VIEWER_TRAIL_BIRDS][VIEWER_TRAIL_LEN][3];

    /* mouse */
    int32_t mouse_pred;        ///< index of the cursor's predator (X), -1 = none
    bool mouse_pred_had;       ///< predators were on before
    bool left_down, right_down, dragged;
    double mouse_x, mouse_y, press_x, press_y;

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
    struct mur_recording *rec;
    bool rec_from_key;         ///< started by V (stopped by V, auto-named)
    bool drawing_video;        ///< the HUD is being drawn into the video (no recording marker)
    double rec_start_time;     ///< v->time when the recording started
    mur_pace pace;             ///< ticks per frame of recorded and scripted frames
    int rec_status;            ///< exit status of a recording that failed mid-run
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

/* bindings.c */
/// One row of the binding table: a key binding (keys + action) or a mouse gesture (no action,
/// listed for the help overlay and the docs).
typedef struct viewer_binding {
    int keys[5];        ///< GLFW_KEY_* codes, 0-terminated (none for a mouse gesture)
    int mods;           ///< GLFW_MOD_* bits that must be held (0: any)
    bool repeat;        ///< also act on key repeat (held down)
    const char *label;  ///< keys as the help shows them, two spaces apart ("H  F1")
    const char *help;   ///< what it does, one short line (overlay and docs)
    const char *detail; ///< more for docs/controls.md, or NULL
    void (*action)(struct viewer *v, int key, int mods); ///< NULL for a mouse gesture
} viewer_binding;
/// The table, in the help overlay's order.
const viewer_binding *viewer_bindings(int *count);
/// Apply a key press (from GLFW or from the --keys script); repeat: a key held down.
void viewer_key(viewer *v, int key, int mods, bool repeat);
/// Switch to preset i (N and the panel): its parameters and boid count, live; worker idle.
void viewer_apply_preset(viewer *v, int i);

/* viewer_mouse.c */
void viewer_mouse_button(viewer *v, int button, bool down, int mods);
void viewer_cursor(viewer *v, double x, double y);
void viewer_scroll(viewer *v, double dy);
/// X: the cursor's ray becomes a predator (one more predator, placed every frame), or stops.
void viewer_mouse_predator_toggle(viewer *v, bool on);
/// Place the cursor's predator (worker idle).
void viewer_mouse_predator(viewer *v);
/// Show msg in the HUD for a few seconds (and on stdout when scripted).
void viewer_message(viewer *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/// Number of parameters that can be nudged, and the table row of the i-th.
int viewer_param_count(void);
const mur_param *viewer_param(int i);
/// The parameter's current value as short text (floats to 4 significant digits).
void viewer_param_value(const mur_flock_def *def, const mur_param *p, char *buf, size_t len);

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
bool viewer_panel_shown(const viewer *v); ///< drawn in the window this frame (E on, HUD not hidden)
bool viewer_panel_wants_mouse(const viewer *v);
bool viewer_panel_wants_keyboard(const viewer *v);
void viewer_panel_draw(viewer *v);
void viewer_panel_apply(viewer *v);

/* viewer_pick.c */
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
