/* Inside the frame sinks (frame_sink.h): the sink's state and what its parts give each other. The
 * data flows frame_sink.c (the queue, the writer thread) -> sink_ffmpeg.c (the encoder pipe) or
 * sink_png.c (the PNG sequence); sink_paths.c checks paths before anything starts. Only these four
 * files include this header. */
#ifndef MUR_APP_SINK_IMPL_H
#define MUR_APP_SINK_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "frame_sink.h"
#include "outputs.h"

enum { QUEUE = 4 };

struct mur_sink {
    mur_sink_kind kind;
    int w, h;
    size_t frame_bytes;
    char path[1024];      /* what the user asked for (video path or PNG pattern) */
    char out[1024];       /* video: the file ffmpeg writes (a temporary name unless direct) */
    bool direct;          /* video written straight to path (a device or FIFO, no rename) */
    bool together;        /* committed with the run's other outputs (outputs.h), else on its own */
    mur_afile *video;     /* the video's temporary file (not direct) */

    /* ffmpeg */
    pid_t pid;
    int pipe_fd;          /* ffmpeg's stdin, -1 once closed */
    int log_fd;           /* ffmpeg's stderr (an unlinked temporary file) */

    /* queue */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *slot[QUEUE];
    int head, count;      /* next slot to fill; slots filled and not yet written */
    bool closing, failed;
    char fail_msg[2048];
    int64_t written;      /* frames the sink has taken */
    uint64_t out_bytes;   /* the output's size: the PNG files together, or the finished video */
};

/* sink_paths.c */
/// The extension of path's last component ("" if none).
const char *mur_sink_extension(const char *path);
/// The folder of path ("." or "/" included).
void mur_sink_dir_of(const char *path, char *out, size_t len);
/// The folder of file exists and takes a new file; else false + one line in err.
bool mur_sink_dir_writable(const char *file, char *err, size_t err_len);

/* sink_ffmpeg.c: a video through an ffmpeg process */
/// The output (a device or FIFO as it is, else the run's temporary file) and ffmpeg writing it.
bool mur_sink_ffmpeg_open(mur_sink *r, const char *path, const char *ffmpeg, double fps, const mur_encode *enc,
                          char *err, size_t err_len);
/// Frame i to ffmpeg (writer thread); false + one line in msg.
bool mur_sink_ffmpeg_frame(mur_sink *r, const uint8_t *rgba, int64_t i, char *msg, size_t len);
/// Close the pipe and wait for ffmpeg; true when it exited 0, else why.
bool mur_sink_ffmpeg_reap(mur_sink *r, char *why, size_t len);
/// At close: reap ffmpeg, then commit (ok and keep) or drop the video. Returns ok, or false + msg.
bool mur_sink_ffmpeg_finish(mur_sink *r, bool ok, bool keep, char *msg, size_t len);

/* sink_png.c: a PNG sequence */
/// The file name of frame i.
void mur_sink_png_name(const mur_sink *r, int64_t i, char *out, size_t len);
/// The pattern's folder takes files (checked on the name of the first frame).
bool mur_sink_png_dir_writable(const mur_sink *r, char *err, size_t err_len);
/// Frame i as a PNG file (writer thread); false + one line in msg.
bool mur_sink_png_frame(mur_sink *r, const uint8_t *rgba, int64_t i, char *msg, size_t len);
/// Remove the first n frames' files.
void mur_sink_png_remove(mur_sink *r, int64_t n);

#endif
