/* The modes that need graphics (built only with GLFW/GL): the viewer, the headless renderer and
 * recorder, and the list of the viewer's bindings. main.c dispatches to them. */
#ifndef MUR_APP_GFX_MODES_H
#define MUR_APP_GFX_MODES_H

#include <stdbool.h>

#include "cli.h"

/// The interactive viewer (a window; --frames, --screenshot, --keys, --record). Exit status.
int mur_viewer_main(const mur_cli *cli, mur_flock *flock);
/// murmur --headless ...: frames without a display, recorded or discarded. Exit status.
int mur_headless_main(const mur_cli *cli, mur_flock *flock);
/// murmur --list-keys[=markdown]: the key and mouse bindings from the viewer's binding table.
void mur_bindings_print(bool markdown);
/// Before any OpenMP thread starts: a wait policy that leaves the GL driver its CPU time (may
/// re-execute the program once).

#endif
