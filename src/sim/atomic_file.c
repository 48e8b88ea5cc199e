/* Output files that are either complete or absent (mur_afile_* in murmur.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"

bool mur_afile_open(mur_afile *a, const char *path, mur_error *err)
{
    memset(a, 0, sizeof *a);
    struct stat st;
    bool direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    if (direct && S_ISDIR(st.st_mode)) {
        mur_set_error(err, "cannot write '%s': it is a directory", path);
        return false;
    }
    a->path = strdup(path);
    if (!a->path) {
        mur_set_error(err, "cannot write '%s': out of memory", path);
        return false;
    }
    if (!direct) {
        size_t l = strlen(path) + 32;
        a->tmp = malloc(l);
        if (!a->tmp) {
            free(a->path);
            mur_set_error(err, "cannot write '%s': out of memory", path);
            return false;
        }
        snprintf(a->tmp, l, "%s.tmp%ld", path, (long)getpid());
    }
    a->fp = fopen(direct ? path : a->tmp, "wb");
    if (!a->fp) {
        int e = errno;
        mur_set_error(err, "cannot write '%s': %s", path, strerror(e));
        free(a->tmp);
        free(a->path);
        memset(a, 0, sizeof *a);
        return false;
    }
    return true;
}

void mur_afile_abort(mur_afile *a)
{
    if (a->fp)
        fclose(a->fp);
    if (a->tmp)
        unlink(a->tmp);
    free(a->tmp);
    free(a->path);
    memset(a, 0, sizeof *a);
}

bool mur_afile_commit(mur_afile *a, mur_error *err)
{
    if (!a->fp) {
        mur_set_error(err, "internal error: file not open");
        return false;
    }
    int e = 0;
    if (fflush(a->fp) != 0 || ferror(a->fp))
        e = errno ? errno : EIO;
    if (fclose(a->fp) != 0 && !e)
        e = errno ? errno : EIO;
    a->fp = NULL;
    if (!e && a->tmp && rename(a->tmp, a->path) != 0)
        e = errno;
    if (e) {
        mur_set_error(err, "cannot write '%s': %s", a->path, strerror(e));
        mur_afile_abort(a);
        return false;
    }
    free(a->tmp);
    free(a->path);
    memset(a, 0, sizeof *a);
    return true;
}
