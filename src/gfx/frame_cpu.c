/* The frame's CPU split (see frame_cpu.h): process CPU time between marks, every thread's. */
#include "frame_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl.h"

static int on = -1;
static double last, sum[MUR_PART_COUNT];
static long frames = -1; /* the first frame (programs compiled, buffers made) is not counted */
static const char *const NAMES[MUR_PART_COUNT] = {"loop", "clear", "sky", "horizon", "meshes", "points", "birds", "overlays", "hud", "swap"};

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mur_frame_cpu_on(void)
{
    if (on < 0) {
        const char *e = getenv("MURMUR_FRAME_CPU");
        on = e && !strcmp(e, "1");
    }
    return on;
}

void mur_frame_cpu_mark(mur_frame_part part)
{
    if (!mur_frame_cpu_on())
        return;
    glFinish();
    double t = cpu_s();
    if (frames >= 0 && last > 0.0)
        sum[part] += t - last;
    last = t;
}

void mur_frame_cpu_frame(void)
{
    if (!mur_frame_cpu_on())
        return;
    if (frames < 0)
        memset(sum, 0, sizeof sum);
    frames++;
}

void mur_frame_cpu_report(void)
{
    if (!mur_frame_cpu_on() || frames <= 0)
        return;
    double total = 0.0;
    fprintf(stderr, "frame_cpu: frames=%ld", frames);
    for (int i = 0; i < MUR_PART_COUNT; i++) {
        fprintf(stderr, " %s=%.3f", NAMES[i], 1e3 * sum[i] / (double)frames);
        total += sum[i];
    }
    fprintf(stderr, " total=%.3f (CPU ms per frame, every thread)\n", 1e3 * total / (double)frames);
}
