/* The viewer's bindings table (bindings.c): keys and mouse gestures, their help text and the command
 * (commands.h) each key invokes. The key handler, the help overlay and docs/controls.md read it. */
#ifndef MUR_APP_BINDINGS_H
#define MUR_APP_BINDINGS_H

#include <stdbool.h>

#include "commands.h"

struct viewer;

/// One row of the binding table: a key binding (keys + command) or a mouse gesture (no command,
/// listed for the help overlay and the docs).
typedef struct viewer_binding {
    int keys[5];        ///< GLFW_KEY_* codes, 0-terminated (none for a mouse gesture)
    int mods;           ///< GLFW_MOD_* bits that must be held (0: any)
    bool repeat;        ///< also act on key repeat (held down)
    const char *label;  ///< keys as the help shows them, two spaces apart ("H  F1")
    const char *help;   ///< what it does, one short line (overlay and docs)
    const char *detail; ///< more for docs/controls.md, or NULL
    viewer_cmd cmd;     ///< VIEWER_CMD_NONE for a mouse gesture
} viewer_binding;
/// The table, in the help overlay's order.
const viewer_binding *viewer_bindings(int *count);
/// Apply a key press (from GLFW or from the --keys script); repeat: a key held down. True when the
/// press counted (the flock may have changed: the loop uploads it again even without a tick).
bool viewer_key(struct viewer *v, int key, int mods, bool repeat);

#endif
