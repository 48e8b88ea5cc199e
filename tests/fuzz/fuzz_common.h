/* Shared by the fuzz harnesses (built with libFuzzer by tools/fuzz.sh, and with gcc by replay.c).
 *
 * The readers take paths, so each input is written to one scratch file per process: a memfd opened
 * again through /proc/self/fd/N (nothing left behind, even after a crash), or a file under /dev/shm
 * (else /tmp) when memfd_create is not available. */
#ifndef MUR_FUZZ_COMMON_H
#define MUR_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "murmur/murmur.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fz_fd = -1;
static char fz_path[128];

static inline void fz_cleanup(void)
{
    if (fz_fd >= 0 && strncmp(fz_path, "/proc/", 6) != 0)
        unlink(fz_path);
}

/* Abort with a message: libFuzzer and the replay program both report an abort as a failure. */
#define FZ_CHECK(cond, ...)                                                                                 \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);                                              \
            fprintf(stderr, __VA_ARGS__);                                                                   \
            fputc('\n', stderr);                                                                            \
            abort();                                                                                        \
        }                                                                                                   \
    } while (0)

/* Replace the scratch file's contents with data; returns its path. */
static inline const char *fz_write_input(const uint8_t *data, size_t size)
{
    if (fz_fd < 0) {
#ifdef __linux__
        fz_fd = (int)memfd_create("murmur-fuzz", 0);
        if (fz_fd >= 0)
            snprintf(fz_path, sizeof fz_path, "/proc/self/fd/%d", fz_fd);
#endif
        if (fz_fd < 0) {
            const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
            snprintf(fz_path, sizeof fz_path, "%s/murmur-fuzz-%ld", dir, (long)getpid());
            fz_fd = open(fz_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
            FZ_CHECK(fz_fd >= 0, "cannot create %s: %s", fz_path, strerror(errno));
        }
        atexit(fz_cleanup);
    }
    FZ_CHECK(ftruncate(fz_fd, 0) == 0, "ftruncate: %s", strerror(errno));
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fz_fd, data + done, size - done, (off_t)done);
        FZ_CHECK(w > 0, "pwrite: %s", strerror(errno));
        done += (size_t)w;
    }
    return fz_path;
}

/* The one-line error contract: a non-empty message without a newline. */
static inline void fz_check_error(const mur_error *err)
{
    size_t l = strnlen(err->msg, sizeof err->msg);
    FZ_CHECK(l > 0 && l < sizeof err->msg, "error message empty or unterminated");
    FZ_CHECK(memchr(err->msg, '\n', l) == NULL, "error message has a newline: %s", err->msg);
}

/* Everything a flock exposes is finite. */
static inline void fz_check_finite(const mur_flock *f)
{
    mur_view v = mur_flock_view(f);
    for (size_t i = 0; i < 3 * (size_t)v.boids; i++)
        FZ_CHECK(isfinite(v.pos[i]) && isfinite(v.vel[i]), "boid value %zu not finite", i / 3);
    for (int32_t i = 0; i < v.boids; i++)
        FZ_CHECK(v.perch[i] >= 0, "negative perch timer");
    for (size_t i = 0; i < 3 * (size_t)v.predators; i++)
        FZ_CHECK(isfinite(v.pred_pos[i]) && isfinite(v.pred_vel[i]), "predator value not finite");
}

/* Run a few ticks of a flock made from def with the counts capped (a fuzzer must stay fast). */
static inline void fz_run_def(mur_flock_def d)
{
    if (d.boids > 64)
        d.boids = 64;
    if (d.predators > 3)
        d.predators = 3;
    mur_error err = {{0}};
    mur_flock *f = mur_flock_create(&d, &err);
    if (!f) {
        fz_check_error(&err);
        return;
    }
    mur_flock_set_threads(f, 1);
    mur_flock_set_metrics(f, true);
    mur_flock_steps(f, 3);
    (void)mur_flock_measure(f);
    (void)mur_flock_hash(f);
    mur_flock_destroy(f);
}

#endif
