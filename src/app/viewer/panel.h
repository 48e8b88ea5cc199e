/* The parameter panel: a Dear ImGui window built from the library's parameter table (every live
 * parameter as a slider or field with its unit, range and meaning as a tooltip), the presets, the
 * boid and predator counts, pause, step and speed. One C++ file (panel.cpp) behind this C interface; the
 * viewer applies what the panel asks for when the simulation worker is idle. Drawn in the window
 * only, never into a recording. */
#ifndef MUR_APP_PANEL_H
#define MUR_APP_PANEL_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

#ifdef __cplusplus
extern "C" {
#endif

struct GLFWwindow;
typedef struct mur_panel mur_panel;

/// What the panel shows (in) and what it asks for (out, applied by the viewer).
typedef struct mur_panel_io {
    /* in */
    mur_flock_def def;      ///< parameters in force (counts included)
    int preset;             ///< index of the preset in force (mur_preset_name), -1 if unknown
    bool paused;
    double speed;           ///< simulated seconds per real second
    uint64_t tick;
    double fps;
    /* out */
    bool def_changed;       ///< apply new_def (a whole def: mur_flock_apply_def checks it)
    mur_flock_def new_def;
    bool pause_changed;     ///< set paused to new_paused
    bool new_paused;
    int new_preset;         ///< switch to this preset (index), -1: no change
    bool step;              ///< advance one tick
    bool speed_changed;
    double new_speed;
    char error[512];        ///< a value the parameter parser refused (shown until the next change)
} mur_panel_io;

/// Set up ImGui on the window (after the viewer's own GLFW callbacks: ImGui chains to them).
/// NULL (reason printed) on failure.
mur_panel *mur_panel_create(struct GLFWwindow *win);
void mur_panel_destroy(mur_panel *p);
/// Build and draw the panel over the window's framebuffer; io->*_changed say what to apply.
void mur_panel_draw(mur_panel *p, mur_panel_io *io);
/// The mouse or the keyboard is over or in the panel: the viewer must not act on it.
/// (x, y): the cursor in window coordinates; inside the panel counts even before ImGui has seen it.
bool mur_panel_wants_mouse(const mur_panel *p, double x, double y);
bool mur_panel_wants_keyboard(const mur_panel *p);
/// The left edge of the panel in the last frame it was drawn, window coordinates.
float mur_panel_left(const mur_panel *p);

#ifdef __cplusplus
}
#endif

#endif
