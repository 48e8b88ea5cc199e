/* The command line's value parsers (cli_values.h). Every error is one line on stderr naming the
 * value and what is allowed. */
#include "cli_values.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool mur_cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("murmur: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

bool mur_cli_parse_i64(const char *flag, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = s && *s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "murmur: bad value '%s' for %s: expected a whole number in [%lld, %lld]\n", s ? s : "",
                flag, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool mur_cli_parse_real(const char *flag, const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = s && *s ? strtod(s, &end) : NAN;
    if (!s || !*s || *end || !isfinite(v) || !(v > lo) || v > hi) {
        fprintf(stderr, "murmur: bad value '%s' for %s: expected a number in (%g, %g]\n", s ? s : "", flag, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool mur_cli_parse_onoff(const char *flag, const char *s, bool *out)
{
    if (s && strcmp(s, "on") == 0)
        *out = true;
    else if (s && strcmp(s, "off") == 0)
        *out = false;
    else
        return mur_cli_fail("bad value '%s' for %s: expected on or off", s ? s : "", flag);
    return true;
}

bool mur_cli_parse_size(const char *flag, const char *s, int *w, int *h)
{
    char *end;
    long a = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end != 'x')
        return mur_cli_fail("bad value '%s' for %s: expected WxH with each in [16, 16384], e.g. 1280x720", s ? s : "",
                    flag);
    const char *t = end + 1;
    long b = strtol(t, &end, 10);
    if (end == t || *end || a < 16 || a > 16384 || b < 16 || b > 16384)
        return mur_cli_fail("bad value '%s' for %s: expected WxH with each in [16, 16384], e.g. 1280x720", s, flag);
    *w = (int)a;
    *h = (int)b;
    return true;
}

bool mur_cli_check_camera(const char *s)
{
    if (strcmp(s, "follow") == 0 || strcmp(s, "falcon") == 0 || strcmp(s, "fixed") == 0)
        return true;
    if (strncmp(s, "orbit:", 6) == 0) {
        char *end;
        double v = strtod(s + 6, &end);
        if (s[6] && !*end && isfinite(v) && v > 0 && v <= 1e6)
            return true;
    }
    return mur_cli_fail("bad value '%s' for --camera: expected orbit:SECONDS (SECONDS in (0, 1e6]), follow, falcon or fixed", s);
}

/* "TICK:name=value" -> at. Checks the syntax, the name (a live parameter) and the value's own range. */
bool mur_cli_parse_at(const char *s, mur_at *at)
{
    char *end;
    errno = 0;
    long long t = strtoll(s, &end, 10);
    if (end == s || *end != ':' || errno || t < 0 || t > 1000000000000LL)
        return mur_cli_fail("bad value '%s' for --at: expected TICK:name=value with TICK a whole number >= 0", s);
    const char *pair = end + 1;
    const char *eq = strchr(pair, '=');
    if (!eq || (size_t)(eq - pair) >= sizeof at->name || strlen(eq + 1) >= sizeof at->value)
        return mur_cli_fail("bad value '%s' for --at: expected TICK:name=value", s);
    memset(at, 0, sizeof *at);
    at->tick = t;
    memcpy(at->name, pair, (size_t)(eq - pair));
    strcpy(at->value, eq + 1);
    const mur_param *p = mur_param_find(at->name);
    if (!p)
        return mur_cli_fail("--at %s: unknown parameter '%s' (murmur --list-params lists them)", s, at->name);
    if (!p->live)
        return mur_cli_fail("--at %s: parameter '%s' cannot change during a run", s, at->name);
    mur_flock_def tmp = mur_flock_default_def();
    mur_error err;
    if (!mur_def_set(&tmp, at->name, at->value, &err))
        return mur_cli_fail("--at %s: %s", s, err.msg);
    return true;
}

int mur_cli_cmp_at(const void *a, const void *b)
{
    const mur_at *x = a, *y = b;
    return (x->tick > y->tick) - (x->tick < y->tick);
}
