/* Output files that are either complete or absent: write to a temp file beside the target, then
 * rename. Targets that exist and are not regular files (/dev/stdout, /dev/full, a FIFO) are written
 * directly. Shared by the library (CSV state) and the program (metrics, frames). */
#ifndef MUR_ATOMIC_FILE_H
#define MUR_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "murmur/murmur.h"

typedef struct mur_afile {
    FILE *fp;            ///< write here
    char *path;          ///< the target
    char *tmp;           ///< the temp file, NULL when writing directly
} mur_afile;

/// Open for writing; false + err (naming the path and the reason) when it cannot be created.
bool mur_afile_open(mur_afile *a, const char *path, mur_error *err);
/// Flush, check every write, rename into place. False + err on any failure (nothing left behind).
bool mur_afile_commit(mur_afile *a, mur_error *err);
/// Drop the temp file (after an error or an interruption).
void mur_afile_abort(mur_afile *a);

#endif
