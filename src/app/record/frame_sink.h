/* Recording sinks: a video through an ffmpeg process (.mp4 .mkv .webm .mov) or a PNG sequence
 * (a printf pattern such as frames/f%05d.png), fed by a writer thread through a small bounded
 * queue so rendering only waits when the writer falls behind by more than the queue.
 *
 * Everything that can be checked is checked in mur_sink_open(), before any rendering: the kind
 * of output, ffmpeg in PATH, the output folder exists and is writable. A video is written to a
 * temporary file next to PATH and renamed on success, so a failed run leaves nothing behind. */
#ifndef MUR_APP_FRAME_SINK_H
#define MUR_APP_FRAME_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mur_sink mur_sink;

typedef enum mur_sink_kind {
    MUR_SINK_NONE = 0, ///< not a recordable path
    MUR_SINK_VIDEO,    ///< .mp4 .mkv .webm .mov .gif through ffmpeg
    MUR_SINK_PNG,      ///< printf pattern with one integer conversion, .png
} mur_sink_kind;

/// What PATH asks for, or MUR_SINK_NONE with a one-line reason in err.
mur_sink_kind mur_sink_kind_of(const char *path, char *err, size_t err_len);

/// Encoder options: --crf and --preset.
typedef struct mur_encode {
    int crf;              ///< -1: the codec's default (H.264 18, VP9 31)
    const char *preset;   ///< x264 preset, NULL: MURMUR_X264_PRESET or ultrafast
} mur_encode;

/// Whether crf and preset fit PATH's codec (H.264: crf 0..51; VP9: 0..63, no preset; GIF and PNG:
/// neither). False + one line in err.
bool mur_sink_check_options(const char *path, int crf, const char *preset, char *err, size_t err_len);

/// Check everything and start the sink (spawns ffmpeg for videos). width x height RGBA frames at
/// fps frames per second. NULL + one line in err on failure (nothing is left behind).
/// together: the run's --record, renamed into place with its other outputs when the run ends
/// (outputs.h); else (a key in the viewer) the video when it closes, each PNG frame when written.
mur_sink *mur_sink_open(const char *path, int width, int height, double fps, const mur_encode *enc,
                        bool together, char *err, size_t err_len);

/// Queue one frame: RGBA8, rows bottom-up (as GL reads them), width*height*4 bytes, copied.
/// Blocks while the queue is full. False once the sink has failed (mur_sink_close says why).
bool mur_sink_push(mur_sink *r, const uint8_t *rgba);
/// True when the sink has failed (ffmpeg died, disk full): stop rendering and close.
bool mur_sink_failed(mur_sink *r);

typedef struct mur_sink_summary {
    int64_t frames;    ///< frames in the output
    uint64_t bytes;    ///< size of the output (all PNG files together)
    char path[1024];   ///< the video, or the first PNG file
} mur_sink_summary;

/// Drain the queue and finish. keep = false discards the output (removes the video or the PNGs
/// written). Returns false + err when the sink failed (the output is then removed); frees r.
bool mur_sink_close(mur_sink *r, bool keep, mur_sink_summary *sum, char *err,
                        size_t err_len);

/// Full path of `prog` found in PATH into out, or false.
bool mur_find_in_path(const char *prog, char *out, size_t out_len);

#endif
