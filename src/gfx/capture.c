/* Frame readback and PNG files (see capture.h). */
#include "capture.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gl.h"
#include "murmur/murmur.h"

void mur_capture_read(int width, int height, uint8_t *out)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out);
}

typedef struct png_job {
    FILE *fp;
    int width, height;
    const uint8_t *rgba;
    bool bottom_up;
    int level;
    uint8_t *row;
    char msg[256];
} png_job;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_job *job = png_get_error_ptr(png);
    snprintf(job->msg, sizeof job->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Kept apart from the setjmp caller so no local changes between setjmp and longjmp. */
static bool encode(png_job *job)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, job, on_png_error,
                                              on_png_warning);
    if (!png) {
        snprintf(job->msg, sizeof job->msg, "out of memory");
        return false;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(job->msg, sizeof job->msg, "out of memory");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_init_io(png, job->fp);
    png_set_compression_level(png, job->level);
    png_set_filter(png, 0, PNG_FILTER_SUB);
    png_set_IHDR(png, info, (png_uint_32)job->width, (png_uint_32)job->height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < job->height; y++) {
        int src = job->bottom_up ? job->height - 1 - y : y;
        const uint8_t *in = job->rgba + (size_t)src * (size_t)job->width * 4;
        for (int x = 0; x < job->width; x++)
            memcpy(job->row + (size_t)x * 3, in + (size_t)x * 4, 3);
        png_write_row(png, job->row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

bool mur_png_encode(FILE *fp, int width, int height, const uint8_t *rgba, bool bottom_up, int level, char *err,
                    size_t err_len)
{
    if (width <= 0 || height <= 0 || !rgba) {
        snprintf(err, err_len, "nothing to write (%dx%d)", width, height);
        return false;
    }
    uint8_t *row = malloc((size_t)width * 3);
    if (!row) {
        snprintf(err, err_len, "out of memory");
        return false;
    }
    png_job job = {.fp = fp, .width = width, .height = height, .rgba = rgba, .bottom_up = bottom_up,
                   .level = level, .row = row};
    errno = 0;
    bool ok = encode(&job);
    /* libpng says only "Write Error" when a write fails: the system's reason says more (a full disk,
     * a file over the size limit) */
    if (!ok)
        snprintf(err, err_len, "%s", errno && !strcmp(job.msg, "Write Error") ? strerror(errno) : job.msg);
    free(row);
    return ok;
}

bool mur_png_write(const char *path, int width, int height, const uint8_t *rgba, bool bottom_up,
                   int level, char *err, size_t err_len)
{
    mur_afile a;
    mur_error e;
    if (!mur_afile_open(&a, path, &e)) {
        snprintf(err, err_len, "%s", e.msg);
        return false;
    }
    char why[256];
    if (!mur_png_encode(a.fp, width, height, rgba, bottom_up, level, why, sizeof why)) {
        mur_afile_abort(&a);
        snprintf(err, err_len, "%s: cannot write PNG: %s", path, why);
        return false;
    }
    if (!mur_afile_commit(&a, &e)) {
        snprintf(err, err_len, "%s", e.msg);
        return false;
    }
    return true;
}

bool mur_capture_png(FILE *fp, int width, int height, char *err, size_t err_len)
{
    size_t bytes = (size_t)width * (size_t)height * 4;
    uint8_t *px = malloc(bytes ? bytes : 1);
    if (!px) {
        snprintf(err, err_len, "out of memory for a %dx%d screenshot", width, height);
        return false;
    }
    mur_capture_read(width, height, px);
    bool ok = mur_png_encode(fp, width, height, px, true, 3, err, err_len);
    free(px);
    return ok;
}
