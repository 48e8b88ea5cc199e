/* Bounded reading of the library's text inputs (parameter files, CSV states): a regular file up to
 * MUR_TEXT_MAX_BYTES, standard input ("-"), or a pipe/FIFO that must deliver data within
 * MUR_TEXT_IDLE_S; terminals, directories and devices (but /dev/null) are refused. Memory stays
 * bounded (one read buffer and one line of at most max_line bytes), whatever the input holds. */
#ifndef MUR_SIM_TEXT_IN_H
#define MUR_SIM_TEXT_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// Largest input read (bytes): 64 MiB, about 700,000 state rows.
#define MUR_TEXT_MAX_BYTES (64u << 20)
/// A pipe or FIFO that delivers nothing for this long is an error (seconds).
#define MUR_TEXT_IDLE_S 10

typedef struct mur_text {
    int fd;
    bool own_fd;        ///< opened here (not standard input)
    bool pipe;          ///< a pipe, FIFO or socket: each read waits at most MUR_TEXT_IDLE_S
    bool eof;
    const char *what;   ///< "parameter file", "state file": for messages
    char name[512];     ///< the path, or "standard input"
    char buf[65536];
    size_t pos, len;    ///< unread bytes: buf[pos..len)
    uint64_t total;     ///< bytes read so far
    char *line;         ///< the current line, max_line + 2 bytes
    size_t max_line;
    long lineno;
} mur_text;

/// Open path ("-": standard input) as the input `what`. False + err naming the path and why.
bool mur_text_open(mur_text *t, const char *path, const char *what, size_t max_line, mur_error *err);
/// The next line into *line (NUL-terminated, its end "\n" or "\r\n" kept), its length in *len.
/// 1: a line; 0: the end; -1: an error in err (a line over max_line bytes, an input over
/// MUR_TEXT_MAX_BYTES, a pipe idle for MUR_TEXT_IDLE_S, a read error or a signal).
int mur_text_line(mur_text *t, char **line, size_t *len, mur_error *err);
/// Close (standard input stays open) and free.
void mur_text_close(mur_text *t);

#endif
