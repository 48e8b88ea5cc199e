/* Recording sinks (frame_sink.h): the bounded queue and its writer thread, which hands each frame
 * to the sink's kind: sink_ffmpeg.c (a video through ffmpeg) or sink_png.c (a PNG sequence);
 * sink_paths.c checks the path first. The sink's state is in sink_impl.h. */
#include "sink_impl.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ writer thread */

static void fail_locked(mur_sink *r, const char *msg)
{
    if (!r->failed)
        snprintf(r->fail_msg, sizeof r->fail_msg, "%s", msg);
    r->failed = true;
    pthread_cond_broadcast(&r->cv);
}

static void *writer(void *arg)
{
    mur_sink *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (r->count == 0 && !r->closing && !r->failed)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->failed || r->count == 0)
            break;
        int idx = ((r->head - r->count) % QUEUE + QUEUE) % QUEUE;
        int64_t i = r->written;
        pthread_mutex_unlock(&r->mu);

        char msg[2048] = "";
        bool ok = r->kind == MUR_SINK_VIDEO ? mur_sink_ffmpeg_frame(r, r->slot[idx], i, msg, sizeof msg)
                                            : mur_sink_png_frame(r, r->slot[idx], i, msg, sizeof msg);

        pthread_mutex_lock(&r->mu);
        if (!ok) {
            fail_locked(r, msg);
            break;
        }
        r->written++;
        r->count--;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ------------------------------------------------------------------ public */

static void free_recorder(mur_sink *r)
{
    for (int i = 0; i < QUEUE; i++)
        free(r->slot[i]);
    if (r->log_fd >= 0)
        close(r->log_fd);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}

mur_sink *mur_sink_open(const char *path, int width, int height, double fps, const mur_encode *enc, bool together,
                        char *err, size_t err_len)
{
    mur_sink_kind kind = mur_sink_kind_of(path, err, err_len);
    if (kind == MUR_SINK_NONE)
        return NULL;
    if (strlen(path) >= 1000) {
        snprintf(err, err_len, "--record: path too long");
        return NULL;
    }
    char ffmpeg[PATH_MAX];
    if (kind == MUR_SINK_VIDEO && !mur_find_in_path("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        snprintf(err, err_len,
                 "--record %s: ffmpeg is not installed (not found in PATH); install it, or record "
                 "PNG frames with a pattern like frames/f%%05d.png",
                 path);
        return NULL;
    }
    mur_sink *r = calloc(1, sizeof *r);
    if (r == NULL) {
        snprintf(err, err_len, "out of memory for the %s sink", kind == MUR_SINK_VIDEO ? "video" : "PNG");
        return NULL;
    }
    r->kind = kind;
    r->together = together;
    r->w = width;
    r->h = height;
    r->frame_bytes = (size_t)width * (size_t)height * 4;
    r->pipe_fd = -1;
    r->log_fd = -1;
    snprintf(r->path, sizeof r->path, "%s", path);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    for (int i = 0; i < QUEUE; i++) {
        r->slot[i] = malloc(r->frame_bytes);
        if (!r->slot[i]) {
            snprintf(err, err_len, "out of memory for %dx%d frames", width, height);
            free_recorder(r);
            return NULL;
        }
    }

    bool ready = kind == MUR_SINK_PNG ? mur_sink_png_dir_writable(r, err, err_len)
                                      : mur_sink_ffmpeg_open(r, path, ffmpeg, fps, enc, err, err_len);
    if (!ready) {
        free_recorder(r);
        return NULL;
    }
    if (pthread_create(&r->thread, NULL, writer, r) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        if (kind == MUR_SINK_VIDEO) {
            char why[8];
            mur_sink_ffmpeg_reap(r, why, sizeof why);
            mur_out_drop(r->video);
        }
        free_recorder(r);
        return NULL;
    }
    r->thread_started = true;
    return r;
}

bool mur_sink_push(mur_sink *r, const uint8_t *rgba)
{
    pthread_mutex_lock(&r->mu);
    while (r->count == QUEUE && !r->failed)
        pthread_cond_wait(&r->cv, &r->mu);
    if (r->failed) {
        pthread_mutex_unlock(&r->mu);
        return false;
    }
    int idx = r->head;
    pthread_mutex_unlock(&r->mu);
    /* the slot is ours: the writer only reads slots counted in `count` */
    memcpy(r->slot[idx], rgba, r->frame_bytes);
    pthread_mutex_lock(&r->mu);
    r->head = (r->head + 1) % QUEUE;
    r->count++;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return true;
}

bool mur_sink_failed(mur_sink *r)
{
    pthread_mutex_lock(&r->mu);
    bool f = r->failed;
    pthread_mutex_unlock(&r->mu);
    return f;
}

bool mur_sink_close(mur_sink *r, bool keep, mur_sink_summary *sum, char *err,
                        size_t err_len)
{
    pthread_mutex_lock(&r->mu);
    if (!keep) {
        r->count = 0; /* drop what is queued */
    }
    r->closing = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->thread_started)
        pthread_join(r->thread, NULL);

    bool ok = !r->failed;
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", r->fail_msg);
    if (r->kind == MUR_SINK_VIDEO) {
        ok = mur_sink_ffmpeg_finish(r, ok, keep, msg, sizeof msg);
    } else if ((!ok || !keep) && !r->together) {
        /* frames committed one by one (a key's recording in the viewer): those of this run go; a
         * recording of the run's own (--record) is removed with its other outputs, unrenamed */
        mur_sink_png_remove(r, r->written + 1);
    }
    if (sum) {
        memset(sum, 0, sizeof *sum);
        sum->frames = ok && keep ? r->written : 0;
        sum->bytes = r->out_bytes;
        if (r->kind == MUR_SINK_VIDEO)
            snprintf(sum->path, sizeof sum->path, "%s", r->path);
        else
            mur_sink_png_name(r, 0, sum->path, sizeof sum->path);
    }
    if (!ok)
        snprintf(err, err_len, "%s", msg);
    free_recorder(r);
    return ok;
}
