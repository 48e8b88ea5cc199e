/* The pace of recorded and scripted frames: how many ticks each frame advances. The tick length
 * (dt) is never changed for a video: --ticks-per-frame N or --speed S (simulated seconds per video
 * second; default 1 for a recording) sets the pace instead. */
#ifndef MUR_APP_PACE_H
#define MUR_APP_PACE_H

#include <stddef.h>

#include "cli.h"

typedef struct mur_pace {
    int ticks_per_frame;  ///< > 0: fixed ticks per frame
    double speed;         ///< > 0: simulated seconds per video second (ticks_per_frame is 0)
    double acc;           ///< simulated time owed but not yet ticked, s
} mur_pace;

/// The pace the command line asks for; by default a video (video: a recording) plays at the
/// flock's real pace (--speed 1: one second of video is one second of flight) and a scripted run
/// without a recording takes 1 tick per frame.
mur_pace mur_pace_of(const mur_cli *cli, bool video);
/// Ticks for the next frame at fps frames per second with ticks of dt seconds.
int mur_pace_ticks(mur_pace *p, double fps, float dt);
/// "1 tick of 0.05 s per frame: 1.5 simulated s per video s" into buf.
void mur_pace_describe(const mur_pace *p, double fps, float dt, char *buf, size_t len);
/// --warmup: run the ticks before the first frame, a tick at a time; false when a stop signal came
/// (signals.h) before they were done.
bool mur_warmup(const mur_cli *cli, mur_flock *f);

#endif
