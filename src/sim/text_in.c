/* Bounded text input (see text_in.h). */
#include "text_in.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core.h"

/* What kind of input st is: NULL when it can be read, else why not. */
static const char *refusal(int fd, const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "it is a directory";
    if (S_ISREG(st->st_mode)) {
        if ((uint64_t)st->st_size > MUR_TEXT_MAX_BYTES)
            return "larger than 64 MiB, the most murmur reads";
        return NULL;
    }
    if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode))
        return NULL;
    if (isatty(fd))
        return "it is a terminal (pipe or redirect a file instead)";
    if (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3)
        return NULL; /* /dev/null: an empty input */
    return "it is a device, not a file (give a regular file, a pipe, or - for standard input)";
}

bool mur_text_open(mur_text *t, const char *path, const char *what, size_t max_line, mur_error *err)
{
    memset(t, 0, sizeof *t);
    t->fd = -1;
    t->what = what;
    t->max_line = max_line;
    bool std_in = strcmp(path, "-") == 0;
    snprintf(t->name, sizeof t->name, "%s", std_in ? "standard input" : path);
    if (std_in) {
        t->fd = 0;
    } else {
        /* O_NONBLOCK: opening a FIFO must not wait for a writer (the reads below wait, bounded) */
        t->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (t->fd < 0) {
            mur_set_error(err, "cannot open %s '%s': %s", what, path, strerror(errno));
            return false;
        }
        t->own_fd = true;
    }
    struct stat st;
    const char *why = fstat(t->fd, &st) != 0 ? strerror(errno) : refusal(t->fd, &st);
    if (why) {
        mur_set_error(err, "cannot read %s '%s': %s", what, std_in ? "-" : path, why);
        mur_text_close(t);
        return false;
    }
    t->pipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
    if (t->own_fd) {
        int fl = fcntl(t->fd, F_GETFL);
        if (fl >= 0)
            fcntl(t->fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    t->line = malloc(max_line + 2);
    if (!t->line) {
        mur_set_error(err, "cannot read %s '%s': out of memory", what, t->name);
        mur_text_close(t);
        return false;
    }
    return true;
}

/* Refill buf: true with data or at the end (t->eof), false + err on an error. */
static bool fill(mur_text *t, mur_error *err)
{
    t->pos = t->len = 0;
    if (t->pipe) {
        /* wait for data (or the writer's close) at most MUR_TEXT_IDLE_S: a FIFO nobody writes
         * ends with a message, not a hang; a signal (Ctrl-C) ends the wait */
        struct pollfd p = {t->fd, POLLIN, 0};
        int r = poll(&p, 1, MUR_TEXT_IDLE_S * 1000);
        if (r < 0) {
            mur_set_error(err, "reading %s '%s' was %s", t->what, t->name,
                          errno == EINTR ? "interrupted by a signal" : strerror(errno));
            return false;
        }
        if (r == 0) {
            mur_set_error(err, "%s '%s': no data for %d s (a pipe or FIFO that nobody writes?)", t->what, t->name,
                          MUR_TEXT_IDLE_S);
            return false;
        }
    }
    ssize_t n;
    do
        n = read(t->fd, t->buf, sizeof t->buf);
    while (n < 0 && errno == EINTR && !t->pipe);
    if (n < 0) {
        mur_set_error(err, "reading %s '%s' was %s", t->what, t->name,
                      errno == EINTR ? "interrupted by a signal" : strerror(errno));
        return false;
    }
    if (n == 0)
        t->eof = true;
    t->len = (size_t)n;
    t->total += (uint64_t)n;
    if (t->total > MUR_TEXT_MAX_BYTES) {
        mur_set_error(err, "%s '%s': more than 64 MiB, the most murmur reads", t->what, t->name);
        return false;
    }
    return true;
}

int mur_text_line(mur_text *t, char **line, size_t *len, mur_error *err)
{
    size_t l = 0;
    bool ended = false; /* by its '\n' */
    t->lineno++;
    while (!ended) {
        if (t->pos == t->len && (t->eof || !fill(t, err) || t->eof))
            break;
        char *start = t->buf + t->pos;
        char *nl = memchr(start, '\n', t->len - t->pos);
        size_t take = nl ? (size_t)(nl - start) + 1 : t->len - t->pos;
        if (l + take > t->max_line) { /* a line and its end: at most max_line bytes */
            mur_set_error(err, "%s:%ld: line longer than %zu characters", t->name, t->lineno, t->max_line);
            return -1;
        }
        memcpy(t->line + l, start, take);
        l += take;
        t->pos += take;
        ended = nl != NULL;
    }
    if (!ended && !t->eof)
        return -1; /* fill() set err */
    t->line[l] = 0;
    *line = t->line;
    *len = l;
    return l > 0 ? 1 : 0;
}

void mur_text_close(mur_text *t)
{
    if (t->own_fd && t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    free(t->line);
    t->line = NULL;
}
