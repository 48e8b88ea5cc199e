/* Pace of recorded and scripted frames (see pace.h). */
#include "pace.h"

#include "signals.h"

#include <math.h>
#include <stdio.h>

mur_pace mur_pace_of(const mur_cli *cli, bool video)
{
    mur_pace p = {cli->ticks_per_frame, cli->speed, 0.0};
    if (p.ticks_per_frame <= 0 && !(p.speed > 0.0)) {
        /* a video plays at the flock's own pace; a scripted run takes one tick a frame */
        if (video)
            p.speed = 1.0;
        else
            p.ticks_per_frame = 1;
    }
    if (p.ticks_per_frame > 0)
        p.speed = 0.0;
    return p;
}

int mur_pace_ticks(mur_pace *p, double fps, float dt)
{
    if (p->ticks_per_frame > 0)
        return p->ticks_per_frame;
    /* simulated time owed, in whole ticks; the remainder carries to the next frame (the small
     * allowance keeps 0.1 / 0.05 from coming out as 1.9999 ticks) */
    p->acc += p->speed / fps;
    double n = floor(p->acc / (double)dt + 1e-6);
    if (n < 0.0)
        n = 0.0;
    if (n > 100000.0)
        n = 100000.0;
    p->acc -= n * (double)dt;
    return (int)n;
}

void mur_pace_describe(const mur_pace *p, double fps, float dt, char *buf, size_t len)
{
    if (p->ticks_per_frame > 0)
        snprintf(buf, len, "%d tick%s of %g s per frame: %.3g simulated s per video s", p->ticks_per_frame,
                 p->ticks_per_frame == 1 ? "" : "s", (double)dt, (double)p->ticks_per_frame * (double)dt * fps);
    else
        snprintf(buf, len, "%.3g simulated s per video s (ticks of %g s)", p->speed, (double)dt);
}

bool mur_warmup(const mur_cli *cli, mur_flock *f)
{
    /* a tick at a time, so a stop signal is honoured within one tick */
    for (int64_t t = 0; t < cli->warmup; t++) {
        if (mur_signals_stop())
            return false;
        mur_flock_step(f);
    }
    return !mur_signals_stop();
}
