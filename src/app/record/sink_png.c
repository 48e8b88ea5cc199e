/* Frame sinks: a PNG sequence, one file per frame through a temporary file (outputs.h), named by
 * the printf pattern the user gave (sink_impl.h). */
#include "sink_impl.h"

#include <stdio.h>
#include <unistd.h>

#include "capture.h"
#include "pattern.h"

enum { PNG_LEVEL = 1 };

void mur_sink_png_name(const mur_sink *r, int64_t i, char *out, size_t len)
{
    if (!mur_pattern_name(r->path, i, out, len) && len)
        out[0] = 0; /* checked when the sink opened: one integer conversion, a name that fits */
}

/* A PNG pattern's folder takes files (checked on the name of the first frame). */
bool mur_sink_png_dir_writable(const mur_sink *r, char *err, size_t err_len)
{
    char first[1100];
    mur_sink_png_name(r, 0, first, sizeof first);
    return mur_sink_dir_writable(first, err, err_len);
}

/* One frame of a PNG sequence, through a temporary file (outputs.h): committed at once, or with the
 * run's other outputs. */
bool mur_sink_png_frame(mur_sink *r, const uint8_t *rgba, int64_t i, char *msg, size_t len)
{
    char name[1100];
    mur_sink_png_name(r, i, name, sizeof name);
    mur_error e;
    mur_afile *a = mur_out_open(name, &e);
    if (!a) {
        snprintf(msg, len, "--record %.400s: %s", r->path, e.msg);
        return false;
    }
    char why[300];
    if (!mur_png_encode(a->fp, r->w, r->h, rgba, true, PNG_LEVEL, why, sizeof why)) {
        mur_out_drop(a);
        snprintf(msg, len, "--record %.400s: frame %.400s: cannot write PNG: %s", r->path, name, why);
        return false;
    }
    long bytes = ftell(a->fp);
    if (!mur_out_done(a, r->together, &e)) {
        snprintf(msg, len, "--record %.400s: %s", r->path, e.msg);
        return false;
    }
    r->out_bytes += bytes > 0 ? (uint64_t)bytes : 0;
    return true;
}

void mur_sink_png_remove(mur_sink *r, int64_t n)
{
    char name[1100];
    for (int64_t i = 0; i < n; i++) {
        mur_sink_png_name(r, i, name, sizeof name);
        unlink(name);
    }
}
