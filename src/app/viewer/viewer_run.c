/* The viewer's run state (viewer_run in viewer.h): pause, single ticks, the speed, and the real-time
 * accumulator that turns frame time into whole ticks. The commands (Space, '.', '[', ']'), the
 * panel's requests (through the loop) and the loop change it only through these functions; they call
 * no one. */
#include <math.h>

#include "viewer.h"

void viewer_run_init(viewer_run *r)
{
    *r = (viewer_run){.speed = 1.0};
}

bool viewer_run_toggle(viewer_run *r)
{
    r->paused = !r->paused;
    r->acc = 0.0;
    return r->paused;
}

bool viewer_run_step(viewer_run *r)
{
    bool paused_now = !r->paused;
    r->paused = true;
    r->step_once++;
    return paused_now;
}

double viewer_run_faster(viewer_run *r, bool faster)
{
    r->speed *= faster ? 2.0 : 0.5;
    r->speed = fmin(fmax(r->speed, 1.0 / 64.0), 16.0);
    return r->speed;
}

void viewer_run_set_paused(viewer_run *r, bool paused)
{
    r->paused = paused;
}

void viewer_run_add_step(viewer_run *r)
{
    r->step_once++;
}

void viewer_run_set_speed(viewer_run *r, double speed)
{
    r->speed = speed;
}

int viewer_run_realtime(viewer_run *r, double real_dt, float dt, int max_ticks)
{
    if (r->paused)
        return 0;
    r->acc += real_dt * r->speed;
    int ticks = (int)floor(r->acc / (double)dt);
    r->acc -= (double)ticks * (double)dt;
    if (ticks > max_ticks) {
        /* cannot keep up: drop the backlog instead of spiralling */
        r->dropped += (double)(ticks - max_ticks) * (double)dt;
        ticks = max_ticks;
        r->acc = 0.0;
    }
    return ticks;
}

int viewer_run_take_steps(viewer_run *r)
{
    int n = r->step_once;
    r->step_once = 0;
    return n;
}
