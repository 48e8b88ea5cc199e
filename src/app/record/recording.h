/* A recording session: an offscreen target, its PBO readback ring, a frame sink (ffmpeg or PNGs)
 * and the progress line. Used by the headless mode and by the window (--record, or V). */
#ifndef MUR_APP_RECORDING_H
#define MUR_APP_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame_sink.h"
#include "murmur/murmur.h"
#include "progress.h"
#include "target.h"

typedef struct mur_recording {
    mur_target *target;
    mur_sink *sink;
    char path[1024];
    int64_t total;        ///< frames asked for, or -1 (until stopped)
    int64_t rendered;     ///< frames drawn into the target
    int64_t pushed;       ///< frames handed to the sink
    double t0;
    mur_progress prog;    ///< the progress line (stderr a terminal)
    bool failed;
} mur_recording;

/// Open the sink (checks before rendering) and the target. False + err.
bool mur_recording_begin(mur_recording *s, const char *path, int w, int h, double fps, const mur_encode *enc,
                         int64_t total, bool together, char *err, size_t err_len);
/// The scene (and the HUD if wanted) is drawn in s->target: resolve, start its readback and hand
/// finished frames to the sink. False once the sink failed.
bool mur_recording_frame(mur_recording *s);
/// Drain and finish; prints the summary line (or the error, or the interrupted line for signal
/// sig != 0). pace (or NULL) describes the video's pace on a second summary line. Returns the exit
/// status: 0, MUR_EXIT_USAGE on failure, 128 + sig when interrupted.
int mur_recording_end(mur_recording *s, bool keep, int sig, const char *pace);

#endif
