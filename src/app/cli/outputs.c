/* Distinct output files (see outputs.h). */
#include "outputs.h"

#include "pattern.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder part of path ("." when none) and its last component. */
static const char *split(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, len, ".");
        return path;
    }
    if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
    return slash + 1;
}

/* One directory entry: the same folder (inode) and the same name; literal paths when a folder is missing. */
static bool same_entry(const char *a, const char *b)
{
    char da[4096], db[4096];
    const char *na = split(a, da, sizeof da), *nb = split(b, db, sizeof db);
    struct stat sa, sb;
    if (stat(da, &sa) != 0 || stat(db, &sb) != 0)
        return strcmp(a, b) == 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && strcmp(na, nb) == 0;
}

/* A dangling symbolic link names the file it would create: its target, relative to the link's folder,
 * followed through a chain of links (as open() would, up to 40 of them). */
static const char *link_target(const char *path, char *out, size_t len)
{
    char cur[4096];
    snprintf(cur, sizeof cur, "%s", path);
    bool moved = false;
    for (int hop = 0; hop < 40; hop++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        char t[4096], dir[4096], next[4096];
        ssize_t n = readlink(cur, t, sizeof t - 1);
        if (n <= 0)
            break;
        t[n] = 0;
        split(cur, dir, sizeof dir);
        int w = t[0] == '/' ? snprintf(next, sizeof next, "%s", t) : snprintf(next, sizeof next, "%s/%s", dir, t);
        if (w <= 0 || (size_t)w >= sizeof next)
            break;
        memcpy(cur, next, (size_t)w + 1);
        moved = true;
    }
    int w = snprintf(out, len, "%s", cur);
    return moved && w > 0 && (size_t)w < len ? out : path;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return false;
    char ta[4096], tb[4096];
    return same_entry(link_target(a, ta, sizeof ta), link_target(b, tb, sizeof tb));
}

/* A PNG pattern (one integer conversion): the frame file it would write that has other's name, into
 * out; false when no frame of the pattern has that name. */
static bool pattern_frame(const char *pattern, const char *other, char *out, size_t len)
{
    char pdir[4096], odir[4096];
    const char *pb = split(pattern, pdir, sizeof pdir), *ob = split(other, odir, sizeof odir);
    const char *pc = strchr(pb, '%');
    while (pc && pc[1] == '%')
        pc = strchr(pc + 2, '%');
    if (!pc)
        return false;
    /* the text before the conversion must match literally (%% is one %), then the number */
    const char *p = pb, *o = ob;
    for (; p < pc; p++, o++) {
        if (*p == '%')
            p++;
        if (*o != *p)
            return false;
    }
    char *end;
    long k = strtol(o, &end, 10);
    if (end == o)
        return false;
    char name[4096];
    if (!mur_pattern_name(pb, k, name, sizeof name) || strcmp(name, ob) != 0)
        return false;
    int w = snprintf(out, len, "%s/%s", pdir, name);
    return w > 0 && (size_t)w < len;
}

/* A path with a conversion of any kind (%% is a literal %): --record's frame pattern. */
static bool is_pattern(const char *path)
{
    bool bad;
    return mur_pattern_conversions(path, &bad) > 0 || bad;
}

bool mur_outputs_distinct(const mur_cli *cli)
{
    const struct {
        const char *flag, *path;
    } out[] = {{"--export", cli->export_path},
               {"--metrics", cli->metrics_path},
               {"--events", cli->events_path},
               {"--record", cli->record},
               {"--screenshot", cli->screenshot},
               {"--save-params", cli->save_params}};
    const int n = (int)(sizeof out / sizeof out[0]);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const char *a = out[i].path, *b = out[j].path;
            if (!a || !b)
                continue;
            char frame[8192];
            bool same = false;
            const bool rec_a = strcmp(out[i].flag, "--record") == 0, rec_b = strcmp(out[j].flag, "--record") == 0;
            if (rec_a && is_pattern(a))
                same = pattern_frame(a, b, frame, sizeof frame) && same_file(frame, b);
            else if (rec_b && is_pattern(b))
                same = pattern_frame(b, a, frame, sizeof frame) && same_file(a, frame);
            else
                same = same_file(a, b);
            if (same) {
                fprintf(stderr, "murmur: %s %s and %s %s name the same file: give each output its own file\n",
                        out[i].flag, a, out[j].flag, b);
                return false;
            }
        }
    return true;
}

/* ------------------------------------------------------------------ the run's outputs */

/* Every output file of the run still to commit (or, open, still being written): their temporary
 * files are what a second signal removes. */
static mur_afile **reg;
static size_t nreg, capreg;
/* PNG frames are opened and committed by the recording's writer thread */
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

static void forget(mur_afile *a);

mur_afile *mur_out_open(const char *path, mur_error *err)
{
    mur_afile *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err->msg, sizeof err->msg, "cannot write '%.400s': out of memory", path);
        return NULL;
    }
    pthread_mutex_lock(&reg_mu);
    if (nreg == capreg) {
        size_t cap = capreg ? 2 * capreg : 16;
        mur_afile **r = realloc(reg, cap * sizeof *r);
        if (r) {
            reg = r;
            capreg = cap;
        }
    }
    bool room = nreg < capreg;
    if (room)
        reg[nreg++] = a; /* tracked before its temporary file exists: a signal may come at any time */
    pthread_mutex_unlock(&reg_mu);
    if (!room) {
        free(a);
        snprintf(err->msg, sizeof err->msg, "cannot write '%.400s': out of memory", path);
        return NULL;
    }
    if (!mur_afile_open(a, path, err)) {
        forget(a);
        return NULL;
    }
    return a;
}

/* Untrack a (cleared or committed) and free it. */
static void forget(mur_afile *a)
{
    pthread_mutex_lock(&reg_mu);
    for (size_t k = 0; k < nreg; k++)
        if (reg[k] == a) {
            memmove(reg + k, reg + k + 1, (nreg - k - 1) * sizeof *reg);
            nreg--;
            break;
        }
    pthread_mutex_unlock(&reg_mu);
    free(a);
}

bool mur_out_done(mur_afile *a, bool together, mur_error *err)
{
    if (!mur_afile_finish(a, err)) {
        forget(a);
        return false;
    }
    if (!a->tmp) { /* written straight into a device or pipe: nothing to rename */
        forget(a);
        return true;
    }
    if (together)
        return true;
    bool ok = mur_afile_commit(a, err);
    forget(a);
    return ok;
}

void mur_out_drop(mur_afile *a)
{
    if (!a)
        return;
    mur_afile_abort(a);
    forget(a);
}

void mur_out_abort_all(void)
{
    pthread_mutex_lock(&reg_mu);
    for (size_t k = 0; k < nreg; k++) {
        mur_afile_abort(reg[k]);
        free(reg[k]);
    }
    nreg = 0;
    free(reg);
    reg = NULL;
    capreg = 0;
    pthread_mutex_unlock(&reg_mu);
}

/* A hard link to what was at path before a commit replaced it (restored if a later output of the
 * same commit fails), or NULL when there was nothing (or links are not supported: then no undo). */
static char *keep_old(const char *path, size_t k)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    char dir[4096];
    split(path, dir, sizeof dir);
    size_t l = strlen(dir) + 64;
    char *b = malloc(l);
    if (!b)
        return NULL;
    snprintf(b, l, "%s/.murmur-%ld-%zu.old", dir, (long)getpid(), k);
    if (link(path, b) != 0) {
        free(b);
        return NULL;
    }
    return b;
}

bool mur_out_commit_all(mur_error *err)
{
    bool ok = true;
    size_t done = 0;
    char **old = calloc(nreg ? nreg : 1, sizeof *old);
    bool *existed = calloc(nreg ? nreg : 1, sizeof *existed);
    bool *renamed = calloc(nreg ? nreg : 1, sizeof *renamed);
    if (!old || !existed || !renamed) {
        free(old);
        free(existed);
        free(renamed);
        snprintf(err->msg, sizeof err->msg, "cannot write the outputs: out of memory");
        mur_out_abort_all();
        return false;
    }
    for (; done < nreg && ok; done++) {
        mur_afile *a = reg[done];
        if (a->fp && !mur_afile_finish(a, err)) {
            ok = false;
            break;
        }
        if (!a->tmp)
            continue;
        const char *final = a->target ? a->target : a->path;
        struct stat st;
        existed[done] = lstat(final, &st) == 0;
        old[done] = keep_old(final, done);
        if (rename(a->tmp, final) != 0) {
            snprintf(err->msg, sizeof err->msg, "cannot write '%.400s': %s", a->path, strerror(errno));
            ok = false;
            break;
        }
        renamed[done] = true;
        free(a->tmp);
        a->tmp = NULL; /* in place */
    }
    if (!ok) {
        /* undo what this commit renamed: each earlier output back as it was */
        for (size_t k = 0; k < done; k++) {
            mur_afile *a = reg[k];
            if (!renamed[k])
                continue;
            const char *final = a->target ? a->target : a->path;
            if (old[k])
                rename(old[k], final);
            else if (!existed[k])
                unlink(final);
        }
    }
    for (size_t k = 0; k < nreg; k++) {
        if (old[k]) {
            unlink(old[k]); /* after an undo it was renamed back: gone already */
            free(old[k]);
        }
    }
    free(old);
    free(existed);
    free(renamed);
    mur_out_abort_all(); /* removes the temporary files not renamed, frees the rest */
    return ok;
}

void mur_out_unlink_temps(void)
{
    for (size_t k = 0; k < nreg; k++)
        if (reg[k] && reg[k]->tmp)
            unlink(reg[k]->tmp);
}
