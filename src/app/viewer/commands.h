/* The viewer's commands (commands.c): the small interface through which the bindings table acts.
 * A row of the table names its command; viewer_command carries it out. Commands never call back
 * into the table; they report through the message line (msg.h). */
#ifndef MUR_APP_COMMANDS_H
#define MUR_APP_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "murmur/murmur.h"

struct viewer;

typedef enum viewer_cmd {
    VIEWER_CMD_NONE = 0,      ///< a mouse gesture: listed for the help, no command
    VIEWER_CMD_PAUSE,         ///< pause / resume
    VIEWER_CMD_STEP,          ///< one tick (pauses first)
    VIEWER_CMD_SPEED,         ///< slower / faster (by the key: ] faster)
    VIEWER_CMD_SWITCH,        ///< the flock's switches: P perch, G goal, W wind, Y falcon, else scatter
    VIEWER_CMD_PREDATORS,     ///< predators on / off
    VIEWER_CMD_MOUSE_PREDATOR, ///< the cursor as a predator on / off
    VIEWER_CMD_PRESET,        ///< the next preset
    VIEWER_CMD_BOUNDS,        ///< the next bounds mode
    VIEWER_CMD_CONE,          ///< view cone on / off
    VIEWER_CMD_BOIDS,         ///< boids x2 (= +) or /2
    VIEWER_CMD_RESET,         ///< new boids from a new seed
    VIEWER_CMD_SELECT,        ///< select a parameter (Down: the next)
    VIEWER_CMD_NUDGE,         ///< change it (Right: up; Shift: bigger steps)
    VIEWER_CMD_SHOW,          ///< what the viewer shows: C O Tab E D M H
    VIEWER_CMD_CAMERA,        ///< the camera: F J T I Home
    VIEWER_CMD_REQUEST,       ///< asks the loop: F12 screenshot, V recording, else quit
    VIEWER_CMD_COUNT
} viewer_cmd;

/// Carry out cmd for the key (and its modifiers) that asked for it. The worker is idle.
void viewer_command(struct viewer *v, viewer_cmd cmd, int key, int mods);
/// Switch to preset i (N, and the panel's request through the loop): its parameters and boid count,
/// live; worker idle. True when it was applied (the boids moved: upload them again).
bool viewer_apply_preset(struct viewer *v, int i);

/// Number of parameters that can be nudged, and the table row of the i-th.
int viewer_param_count(void);
const mur_param *viewer_param(int i);
/// The parameter's current value as short text (floats to 4 significant digits).
void viewer_param_value(const mur_flock_def *def, const mur_param *p, char *buf, size_t len);

#endif
