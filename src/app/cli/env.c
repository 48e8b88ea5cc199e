/* The simulation's environment variables (env.h, docs/environment.md). */
#include "env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *get(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static bool fail(mur_error *err, const char *name, const char *value, const char *allowed)
{
    snprintf(err->msg, sizeof err->msg, "bad %s='%.60s': expected %s", name, value, allowed);
    return false;
}

/* A whole number >= 1; with list, items may follow after a comma (OMP_NUM_THREADS=4,2: the outer level). */
static bool parse_threads(const char *s, bool list, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno || v < 1 || (*end && !(list && *end == ',')))
        return false;
    *out = v > 1024 ? 1024 : (int)v; /* the library clamps to its own maximum */
    return true;
}

static bool apply_threads(mur_flock *f, mur_error *err)
{
    int t;
    const char *v = get("MURMUR_THREADS");
    if (v) {
        if (!parse_threads(v, false, &t))
            return fail(err, "MURMUR_THREADS", v, "a whole number >= 1 (worker threads; more than 64 means 64)");
        mur_flock_set_threads(f, t);
        return true;
    }
    v = get("OMP_NUM_THREADS");
    if (v) {
        if (!parse_threads(v, true, &t))
            return fail(err, "OMP_NUM_THREADS", v, "a whole number >= 1, or a list whose first item is one");
        mur_flock_set_threads(f, t);
    }
    return true;
}

int mur_env_threads(int threads)
{
    int t;
    if (threads > 0)
        return threads;
    const char *v = get("MURMUR_THREADS");
    if (v)
        return parse_threads(v, false, &t) ? t : 0;
    v = get("OMP_NUM_THREADS");
    return v && parse_threads(v, true, &t) ? t : 0;
}

void mur_env_wait_policy(char **argv)
{
    if (getenv("OMP_WAIT_POLICY"))
        return;
    /* a bad thread count is reported once the flags are read (mur_env_apply); a restart would only
     * have OpenMP print its own complaint about it a second time */
    int t;
    const char *mt = get("MURMUR_THREADS"), *ot = get("OMP_NUM_THREADS");
    if ((mt && !parse_threads(mt, false, &t)) || (ot && !parse_threads(ot, true, &t)))
        return;
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    execv("/proc/self/exe", argv);
}

bool mur_env_apply(mur_flock *f, bool threads_given, mur_error *err)
{
    if (!threads_given && !apply_threads(f, err))
        return false;
    const char *v = get("MURMUR_SIMD");
    if (v) {
        int path = -1;
        for (int p = MUR_SIMD_BASE; p < MUR_SIMD_COUNT; p++)
            if (!strcmp(v, mur_simd_name((mur_simd)p)))
                path = p;
        if (path < 0)
            return fail(err, "MURMUR_SIMD", v, "base, avx2 or avx512 (unset: the library's choice)");
        mur_error e;
        if (!mur_flock_set_simd(f, (mur_simd)path, &e)) {
            snprintf(err->msg, sizeof err->msg, "bad MURMUR_SIMD='%.40s': %.400s", v, e.msg);
            return false;
        }
    }
    v = get("MURMUR_CELL_REACH");
    if (v) {
        if (strcmp(v, "1") && strcmp(v, "2"))
            return fail(err, "MURMUR_CELL_REACH", v, "1 (cells of view_radius, the default) or 2 (half as large)");
        mur_flock_set_cell_reach(f, v[0] - '0', NULL);
    }
    return true;
}

static const char *const X264_PRESETS[] = {"ultrafast", "superfast", "veryfast", "faster", "fast",
                                           "medium", "slow", "slower", "veryslow", "placebo"};

const char *mur_x264_preset_known(const char *name)
{
    for (size_t k = 0; k < sizeof X264_PRESETS / sizeof X264_PRESETS[0]; k++)
        if (!strcmp(name, X264_PRESETS[k]))
            return X264_PRESETS[k];
    return NULL;
}

bool mur_env_check_graphics(mur_error *err)
{
    const char *v = get("MURMUR_MSAA");
    if (v) {
        char *end;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (*end || errno || n < 0 || n > 16)
            return fail(err, "MURMUR_MSAA", v, "a whole number in [0, 16] (samples per pixel)");
    }
    v = get("MURMUR_SHADOWS");
    if (v && strcmp(v, "0") && strcmp(v, "1"))
        return fail(err, "MURMUR_SHADOWS", v, "0 or 1");
    v = get("MURMUR_BIRD");
    if (v && strcmp(v, "full") && strcmp(v, "lean") && strcmp(v, "points") && strcmp(v, "none"))
        return fail(err, "MURMUR_BIRD", v, "full, lean, points or none");
    v = get("MURMUR_SPLAT");
    if (v && strcmp(v, "0") && strcmp(v, "1"))
        return fail(err, "MURMUR_SPLAT", v, "0 or 1");
    v = get("MURMUR_TINT_ALARM");
    if (v && strcmp(v, "0") && strcmp(v, "1"))
        return fail(err, "MURMUR_TINT_ALARM", v, "0 or 1");
    v = get("MURMUR_FRAME_CPU");
    if (v && strcmp(v, "0") && strcmp(v, "1"))
        return fail(err, "MURMUR_FRAME_CPU", v, "0 or 1");
    v = get("MURMUR_X264_PRESET");
    if (v && !mur_x264_preset_known(v))
        return fail(err, "MURMUR_X264_PRESET", v,
                    "one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo");
    return true;
}
