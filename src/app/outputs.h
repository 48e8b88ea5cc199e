/* The output paths of one command line (--export, --metrics, --record, --screenshot) must name
 * different files: two outputs written to one file would silently lose one of them. */
#ifndef MUR_APP_OUTPUTS_H
#define MUR_APP_OUTPUTS_H

#include <stdbool.h>

#include "cli.h"

/// False after printing one line naming both flags when two output paths resolve to one file: the
/// same path, a symbolic or hard link to it (the same inode), or a not-yet-existing path whose folder
/// and name match; a PNG pattern of --record matches each frame's name. Checks only; writes nothing.
bool mur_outputs_distinct(const mur_cli *cli);

#endif
