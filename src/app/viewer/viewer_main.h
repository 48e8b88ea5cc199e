/* The viewer room's entry points (built only with graphics): the window and the list of its
 * bindings. main.c calls them; nothing else in the viewer room is seen outside it. */
#ifndef MUR_APP_VIEWER_MAIN_H
#define MUR_APP_VIEWER_MAIN_H

#include <stdbool.h>

#include "cli.h"

/// The interactive viewer (a window; --frames, --screenshot, --keys, --record). Exit status.
int mur_viewer_main(const mur_cli *cli, mur_flock *flock);
/// murmur --list-keys[=markdown]: the key and mouse bindings from the viewer's binding table.
void mur_bindings_print(bool markdown);

#endif
