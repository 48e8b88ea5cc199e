/* Recording: a session (offscreen target + PBO ring + recorder + progress line) used by the
 * headless recorder and by the window (--record, or V in the viewer). */
#ifndef MUR_APP_RECORD_H
#define MUR_APP_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "cli.h"
#include "recorder.h"
#include "target.h"

typedef struct mur_rec_session {
    mur_target *target;
    mur_recorder *rec;
    char path[1024];
    int64_t total;        ///< frames asked for, or -1 (until stopped)
    int64_t rendered;     ///< frames drawn into the target
    int64_t pushed;       ///< frames handed to the recorder
    double t0, last_progress;
    bool progress;        ///< stderr is a terminal: show the progress line
    bool failed;
} mur_rec_session;

/// MSAA samples for offscreen frames: MURMUR_MSAA if set, else 4 on GPUs and 0 on llvmpipe.
int mur_record_samples(void);
/// Open the recorder (checks before rendering) and the target. False + err.
bool mur_rec_begin(mur_rec_session *s, const char *path, int w, int h, double fps, int64_t total,
                   char *err, size_t err_len);
/// The scene (and the HUD if wanted) is drawn in s->target: resolve, start its readback and hand
/// finished frames to the recorder. False once the recorder failed.
bool mur_rec_frame(mur_rec_session *s);
/// Drain and finish; prints the summary line (or the error, or the interrupted line for signal
/// sig != 0). Returns the exit status: 0, MUR_EXIT_USAGE on failure, 128 + sig when interrupted.
int mur_rec_end(mur_rec_session *s, bool keep, int sig);

/// Camera mode for recordings: orbit:SECONDS (one turn per SECONDS), follow, fixed.
typedef struct mur_cam_mode {
    double orbit_s;       ///< > 0: seconds per turn
    bool follow;
} mur_cam_mode;
mur_cam_mode mur_cam_mode_parse(const char *spec);
/// Advance the camera by dt seconds of video time in this mode (centre: the flock centre).
void mur_cam_mode_apply(const mur_cam_mode *m, mur_camera *cam, const double centre[3], float dt);

/// SIGINT/SIGTERM stop a recording at a frame boundary: install, then poll mur_stop_signal().
void mur_install_stop_signals(void);
int mur_stop_signal(void);

/// Set the flock's tick to 1/fps (recordings advance one tick per frame). False + err.
bool mur_record_set_dt(mur_flock *f, double fps, char *err, size_t len);

/// murmur --record PATH --headless ...: the whole headless run. Returns the exit status.
int mur_record_headless(const mur_cli *cli, mur_flock *flock);

#endif
