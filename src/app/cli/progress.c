/* The progress line (see progress.h). */
#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"

void mur_progress_init(mur_progress *p, bool wanted)
{
    p->on = wanted && isatty(2);
    p->shown = false;
    p->t0 = p->last = mur_clock_s();
}

bool mur_progress_due(const mur_progress *p)
{
    return p->on && mur_clock_s() - p->last >= MUR_PROGRESS_PERIOD;
}

void mur_progress_show(mur_progress *p, const char *fmt, ...)
{
    if (!p->on)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    p->shown = true;
    p->last = mur_clock_s();
}

void mur_progress_end(mur_progress *p, bool keep)
{
    if (!p->on || !p->shown)
        return;
    fputs(keep ? "\n" : "\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}

void mur_progress_eta(double s, char *buf, size_t len)
{
    if (!isfinite(s) || s < 0.0 || s > 1e9) {
        snprintf(buf, len, "ETA ?");
        return;
    }
    long long t = llround(s);
    if (t < 60)
        snprintf(buf, len, "ETA %lld s", t);
    else if (t < 3600)
        snprintf(buf, len, "ETA %lld min %02lld s", t / 60, t % 60);
    else
        snprintf(buf, len, "ETA %lld h %02lld min", t / 3600, (t % 3600) / 60);
}

void mur_progress_rate(double r, char *buf, size_t len)
{
    static const char *const prefix[] = {"", " k", " M", " G", " T"};
    int k = 0;
    while (fabs(r) >= 1000.0 && k < 4) {
        r /= 1000.0;
        k++;
    }
    snprintf(buf, len, r >= 100.0 || k == 0 ? "%.0f%s" : "%.3g%s", r, prefix[k]);
}
