/* How an output was made: the '#' comment lines every CSV murmur writes opens with (version, source
 * revision, preset, seed, boid count, the parameters that differ from the preset, the command line,
 * the tick length; a state file also its tick and time), --save-params, and reading a state file's
 * lines back for --resume. */
#ifndef MUR_APP_PROVENANCE_H
#define MUR_APP_PROVENANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "murmur/murmur.h"

/// The source revision (git describe at build time, "unknown" outside a git checkout).
const char *mur_prov_revision(void);
/// Remember the command line for the comment lines (main.c, before parsing).
void mur_prov_set_command(int argc, char **argv);
/// The remembered command line, each argument quoted for a POSIX shell where it needs it.
const char *mur_prov_command(void);
/// The comment lines for def (started from preset): version and revision, preset, seed, boids, tick
/// length, one '# set: name = value' line per parameter whose value differs from the preset's, the
/// command line; with state, the '# tick:' and '# time_s:' of the flock f. False when a write fails.
bool mur_prov_write(FILE *fp, const char *preset, const mur_flock_def *def, const mur_flock *f, bool state);
/// --save-params: a parameter file that repeats the run: comment lines, 'preset = NAME', then boids,
/// seed and every parameter that differs from the preset; --at changes and --init as comments.
bool mur_prov_write_params(FILE *fp, const mur_cli *cli);

/// What --resume reads from a state file's comment lines.
typedef struct mur_resume {
    char preset[32];       ///< '# preset:'
    char (*sets)[256];     ///< '# set: name = value' lines, as "name=value"
    int nsets;
    uint64_t tick;         ///< '# tick:'
    double time_s;         ///< '# time_s:'
} mur_resume;

/// Read the comment lines at the top of the state file path (a regular file: it is read again to
/// load the boids). False after printing one line naming the file and what is missing.
bool mur_resume_read(const char *path, mur_resume *r);
void mur_resume_free(mur_resume *r);

#endif
