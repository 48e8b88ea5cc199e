/* Output files that are either complete or absent (mur_afile_* in murmur.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* The descriptor a /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N path names, else -1:
 * such a path is written through the descriptor the program already has (its offset and append
 * mode kept), never reopened (which would truncate a file the shell redirected into). */
static int fd_path(const char *path)
{
    if (!strcmp(path, "/dev/stdout"))
        return 1;
    if (!strcmp(path, "/dev/stderr"))
        return 2;
    const char *n = !strncmp(path, "/dev/fd/", 8) ? path + 8 : !strncmp(path, "/proc/self/fd/", 14) ? path + 14 : NULL;
    if (!n || !*n)
        return -1;
    char *end;
    long fd = strtol(n, &end, 10);
    return *end || fd < 0 || fd > INT_MAX ? -1 : (int)fd;
}

/* A temporary name beside target: TARGET.tmpPID when it fits the system's name limit, else a short
 * hidden name in the same folder (a 255-byte name is allowed, so is its output). */
static char *temp_name(const char *target)
{
    static unsigned counter;
    size_t l = strlen(target);
    char *t = malloc(l + 64);
    if (!t)
        return NULL;
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    int w = snprintf(t, l + 64, "%s.tmp%ld", target, (long)getpid());
    if (w > 0 && strlen(base) + (size_t)w - l <= NAME_MAX)
        return t;
    int dl = slash ? (int)(slash - target) + 1 : 0;
    snprintf(t, l + 64, "%.*s.murmur-%ld-%u.tmp", dl, target, (long)getpid(), counter++);
    return t;
}

bool mur_afile_open(mur_afile *a, const char *path, mur_error *err)
{
    memset(a, 0, sizeof *a);
    a->path = strdup(path);
    if (!a->path) {
        mur_set_error(err, "cannot write '%s': out of memory", path);
        return false;
    }
    int fd = fd_path(path);
    if (fd >= 0) {
        /* the program's own descriptor, as it is */
        int d = dup(fd);
        a->fp = d >= 0 ? fdopen(d, "wb") : NULL;
        if (!a->fp) {
            int e = errno;
            if (d >= 0)
                close(d);
            mur_set_error(err, "cannot write '%s': %s", path, strerror(e));
            mur_afile_abort(a);
            return false;
        }
        return true;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        mur_set_error(err, "cannot write '%s': it is a directory", path);
        mur_afile_abort(a);
        return false;
    }
    /* a device, a FIFO or a socket (or a link to one) is written into, never replaced */
    bool direct = exists && !S_ISREG(st.st_mode);
    /* a symbolic link to a file: the file it names gets the new contents, the link stays */
    struct stat lst;
    if (!direct && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = exists ? realpath(path, NULL) : NULL;
        if (real) {
            a->target = real;
        } else {
            direct = true; /* a dangling link: open() creates what it names */
        }
    }
    if (!direct) {
        a->tmp = temp_name(a->target ? a->target : path);
        if (!a->tmp) {
            mur_set_error(err, "cannot write '%s': out of memory", path);
            mur_afile_abort(a);
            return false;
        }
    }
    /* O_EXCL: a temporary name never opens somebody else's file */
    int f = direct ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)
                   : open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    a->fp = f >= 0 ? fdopen(f, "wb") : NULL;
    if (!a->fp) {
        int e = errno;
        if (f >= 0)
            close(f);
        mur_set_error(err, "cannot write '%s': %s", path, strerror(e));
        if (f >= 0 && a->tmp)
            unlink(a->tmp);
        free(a->tmp);
        a->tmp = NULL;
        mur_afile_abort(a);
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
    free(a->target);
    memset(a, 0, sizeof *a);
}

bool mur_afile_finish(mur_afile *a, mur_error *err)
{
    if (!a->fp) {
        if (a->tmp)
            return true; /* finished before (a target other than a temporary file is cleared then) */
        mur_set_error(err, "internal error: file not open");
        return false;
    }
    int e = 0;
    if (fflush(a->fp) != 0 || ferror(a->fp))
        e = errno ? errno : EIO;
    if (fclose(a->fp) != 0 && !e)
        e = errno ? errno : EIO;
    a->fp = NULL;
    if (e) {
        mur_set_error(err, "cannot write '%s': %s", a->path, strerror(e));
        mur_afile_abort(a);
        return false;
    }
    if (!a->tmp)
        mur_afile_abort(a); /* written directly: done (with no file open and no temp, abort only frees) */
    return true;
}

bool mur_afile_commit(mur_afile *a, mur_error *err)
{
    if (!a->path) {
        mur_set_error(err, "internal error: file not open");
        return false;
    }
    if (!mur_afile_finish(a, err))
        return false;
    if (!a->tmp)
        return true; /* written directly: finish cleared a */
    if (rename(a->tmp, a->target ? a->target : a->path) != 0) {
        mur_set_error(err, "cannot write '%s': %s", a->path, strerror(errno));
        mur_afile_abort(a);
        return false;
    }
    free(a->tmp);
    a->tmp = NULL; /* in place: abort below only frees the rest */
    mur_afile_abort(a);
    return true;
}
