/* The output paths of one command line (--export, --metrics, --record, --screenshot) must name
 * different files: two outputs written to one file would silently lose one of them. */
#ifndef MUR_APP_OUTPUTS_H
#define MUR_APP_OUTPUTS_H

#include <stdbool.h>

#include "cli.h"
#include "murmur/murmur.h"

/// False after printing one line naming both flags when two output paths resolve to one file: the
/// same path, a symbolic or hard link to it (the same inode), or a not-yet-existing path whose folder
/// and name match; a PNG pattern of --record matches each frame's name. Checks only; writes nothing.
bool mur_outputs_distinct(const mur_cli *cli);

/* The run's outputs. Every output file named on the command line (--export, --metrics, --screenshot,
 * --record) is written to a temporary file beside it and renamed into place together with the others
 * when the run ends (mur_out_commit_all): a run that fails leaves every earlier file as it was and
 * no new one. Outputs the viewer makes on a key (F12, R) commit each on its own. */

/// Open an output (mur_afile_open) and track it until it is committed or dropped. NULL + err.
mur_afile *mur_out_open(const char *path, mur_error *err);
/// The output is whole: with together it waits for mur_out_commit_all, else it is renamed now. False
/// + err when writing it failed (it is then dropped). a is no longer the caller's unless together.
bool mur_out_done(mur_afile *a, bool together, mur_error *err);
/// Discard one output (its temporary file removed).
void mur_out_drop(mur_afile *a);
/// Rename every tracked output into place. On a failure, the outputs this call renamed are put back
/// as they were and the rest removed: false + err. Nothing is tracked afterwards.
bool mur_out_commit_all(mur_error *err);
/// Remove every tracked output's temporary file, and forget them.
void mur_out_abort_all(void);
/// From a signal handler: unlink the temporary files (no allocation, no stdio).
void mur_out_unlink_temps(void);

#endif
