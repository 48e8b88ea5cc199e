/* --keys scripts: key presses applied at given frames, so tests and scripts drive the viewer as a
 * person would. Syntax: items separated by commas; an item is [FRAME:][Shift+|Ctrl+|Alt+]KEY.
 * An item without a frame takes the previous item's frame (1 at the start): "P,K" presses P then K
 * at frame 1; "5:P,10:K,L" presses P at frame 5, K and L at frame 10. */
#ifndef MUR_APP_KEYSCRIPT_H
#define MUR_APP_KEYSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A scripted key press: GLFW key code + GLFW modifier bits, at a frame.
typedef struct mur_key_event {
    int64_t frame; ///< frame (1-based) at whose start the key is applied
    int key;       ///< GLFW_KEY_*, or MUR_KEY_CLICK
    int mods;      ///< GLFW_MOD_* bits
    double x, y;   ///< MUR_KEY_CLICK: the window point clicked
} mur_key_event;

/// A left click at a window point: the item "Click@XxY" (X, Y in window pixels from the top left).
#define MUR_KEY_CLICK 0x10000

/// Parse a --keys script. Events come out sorted by frame (stable). False + a one-line err on a
/// bad key name or frame.
bool mur_keyscript_parse(const char *spec, mur_key_event **out, int *count, char *err, size_t err_len);
/// GLFW key code for a key name ("Space", "F12", "P", "."), or -1.
int mur_key_from_name(const char *name);

#endif
