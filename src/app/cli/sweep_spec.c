/* Reading a sweep spec (sweep.h, docs/sweeps.md): 'key = value' lines, 'set NAME = VALUE' and
 * 'vary NAME = VALUES' lines, '#' comments. Every error is one line naming the file, the line and the
 * bad value. */
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/// Largest spec file, bytes.
#define MAX_SPEC (1 << 20)

static bool bad(const mur_sweep_spec *s, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool bad(const mur_sweep_spec *s, int line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        fprintf(stderr, "murmur: %s:%d: %s\n", s->path, line, msg);
    else
        fprintf(stderr, "murmur: %s: %s\n", s->path, msg);
    return false;
}

static char *trim(char *t)
{
    while (isspace((unsigned char)*t))
        t++;
    size_t l = strlen(t);
    while (l && isspace((unsigned char)t[l - 1]))
        t[--l] = 0;
    return t;
}

void mur_sweep_spec_free(mur_sweep_spec *s)
{
    for (int k = 0; k < s->nvary; k++)
        free(s->vary[k].values);
    free(s->boids);
    free(s->seeds);
    free(s->text);
    memset(s, 0, sizeof *s);
}

/* A whole number in [lo, hi]. */
static bool whole(const char *t, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    if (!*t || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A finite number. */
static bool real(const char *t, double *out)
{
    char *end;
    double v = strtod(t, &end);
    if (!*t || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* The values of a list ('a, b, c'; ';' separates them when one has commas: vectors) or a range
 * ('lo..hi' or 'lo..hi step s', numbers) as text, into *out (count *n). */
static bool expand(const mur_sweep_spec *s, int line, const char *what, char *val, bool vector, char (**out)[64],
                   int *n)
{
    *out = NULL;
    *n = 0;
    char *dots = strstr(val, "..");
    if (dots && !vector) {
        *dots = 0;
        char *hi_s = dots + 2, *step_s = strstr(hi_s, " step ");
        if (step_s) {
            *step_s = 0;
            step_s += 6;
        }
        double lo, hi, step = 1.0;
        char *a = trim(val), *b = trim(hi_s), *c = step_s ? trim(step_s) : NULL;
        if (!real(a, &lo) || !real(b, &hi) || (c && !real(c, &step)))
            return bad(s, line, "%s: bad range '%s..%s%s%s': expected LO..HI or LO..HI step S (numbers)", what, a, b,
                       c ? " step " : "", c ? c : "");
        if (!(step > 0.0) || hi < lo)
            return bad(s, line, "%s: bad range %s..%s step %s: need LO <= HI and a step > 0", what, a, b, c ? c : "1");
        double cnt = floor((hi - lo) / step + 1e-9) + 1.0;
        if (cnt > MUR_SWEEP_MAX_VALUES)
            return bad(s, line, "%s: the range %s..%s step %g has %.0f values (at most %d)", what, a, b, step, cnt,
                       MUR_SWEEP_MAX_VALUES);
        *out = calloc((size_t)cnt, sizeof **out);
        if (!*out)
            return bad(s, line, "out of memory");
        for (int k = 0; k < (int)cnt; k++) {
            double v = lo + k * step;
            if (fabs(v) < 1e-12 * step)
                v = 0.0; /* 0.1..0.3 step 0.1 must not give 2.8e-17 */
            snprintf((*out)[k], 64, "%.9g", v);
        }
        *n = (int)cnt;
        return true;
    }
    const char sep = strchr(val, ';') || vector ? ';' : ',';
    int cap = 1;
    for (const char *c = val; *c; c++)
        cap += *c == sep;
    if (cap > MUR_SWEEP_MAX_VALUES)
        return bad(s, line, "%s: %d values (at most %d)", what, cap, MUR_SWEEP_MAX_VALUES);
    *out = calloc((size_t)cap, sizeof **out);
    if (!*out)
        return bad(s, line, "out of memory");
    char *p = val;
    for (int k = 0; k < cap; k++) {
        char *e = strchr(p, sep);
        if (e)
            *e = 0;
        char *v = trim(p);
        if (!*v || strlen(v) >= 64)
            return bad(s, line, "%s: %s value in '%s'", what, *v ? "a too long" : "an empty", val);
        snprintf((*out)[k], 64, "%s", v);
        p = e ? e + 1 : p + strlen(p);
    }
    *n = cap;
    return true;
}

static const char *const KEYS = "preset, ticks, every, seeds, boids, metrics, threads, jobs, output, set NAME, vary NAME";

/* The base def: the preset and the set lines. */
static bool base_def(const mur_sweep_spec *s, mur_flock_def *def, mur_error *err)
{
    *def = mur_flock_default_def();
    if (!mur_def_preset(def, s->preset, err))
        return false;
    for (int k = 0; k < s->nsets; k++)
        if (!mur_def_set_pair(def, s->sets[k], err))
            return false;
    return true;
}

bool mur_sweep_run_def(const mur_sweep_spec *s, int64_t i, mur_flock_def *def, int *idx, int32_t *boids,
                       uint64_t *seed, mur_error *err)
{
    if (!base_def(s, def, err))
        return false;
    /* seeds innermost, then boids, then the varied parameters, the last one first */
    int64_t r = i;
    const int ns = s->nseeds ? s->nseeds : 1, nb = s->nboids ? s->nboids : 1;
    *seed = s->nseeds ? s->seeds[r % ns] : def->seed;
    r /= ns;
    *boids = s->nboids ? s->boids[r % nb] : def->boids;
    r /= nb;
    for (int k = s->nvary - 1; k >= 0; k--) {
        idx[k] = (int)(r % s->vary[k].count);
        r /= s->vary[k].count;
    }
    for (int k = 0; k < s->nvary; k++)
        if (!mur_def_set(def, s->vary[k].name, s->vary[k].values[idx[k]], err))
            return false;
    def->boids = *boids;
    def->seed = *seed;
    return mur_def_check(def, err);
}

/* One 'key = value' line. */
static bool spec_line(mur_sweep_spec *s, int line, char *key, char *val, bool *has_ticks)
{
    long long ll;
    if (!strncmp(key, "set ", 4) || !strncmp(key, "vary ", 5)) {
        const bool vary = key[0] == 'v';
        char *name = trim(key + (vary ? 5 : 4));
        const mur_param *p = mur_param_find(name);
        if (!p)
            return bad(s, line, "unknown parameter '%s' (murmur --list-params lists them)", name);
        if (!strcmp(name, "boids") || !strcmp(name, "seed"))
            return bad(s, line, "give %s with the '%s = ...' line (a list or a range)", name,
                       name[0] == 'b' ? "boids" : "seeds");
        for (int k = 0; k < s->nvary; k++)
            if (!strcmp(s->vary[k].name, name))
                return bad(s, line, "%s is varied twice", name);
        mur_flock_def d = mur_flock_default_def();
        mur_error err;
        if (!vary) {
            if (s->nsets == MUR_SWEEP_MAX_SETS)
                return bad(s, line, "more than %d set lines", MUR_SWEEP_MAX_SETS);
            if (!mur_def_set(&d, name, val, &err))
                return bad(s, line, "set %s = %s: %s", name, val, err.msg);
            snprintf(s->sets[s->nsets++], 256, "%s=%s", name, val);
            return true;
        }
        if (s->nvary == MUR_SWEEP_MAX_VARY)
            return bad(s, line, "more than %d varied parameters", MUR_SWEEP_MAX_VARY);
        mur_sweep_vary *v = &s->vary[s->nvary];
        snprintf(v->name, sizeof v->name, "%s", name);
        char what[96];
        snprintf(what, sizeof what, "vary %s", name);
        if (!expand(s, line, what, val, p->type == MUR_PT_VEC3, &v->values, &v->count)) {
            free(v->values);
            v->values = NULL;
            return false;
        }
        s->nvary++; /* owned by the spec from here (freed with it) */
        for (int k = 0; k < v->count; k++) {
            if (!mur_def_set(&d, name, v->values[k], &err))
                return bad(s, line, "vary %s: %s", name, err.msg); /* err names the value and the range */
            mur_def_get(&d, name, v->values[k], 64); /* the text the table shows: as the parameter reads back */
        }
        return true;
    }
    if (!strcmp(key, "preset")) {
        mur_flock_def d;
        mur_error err;
        if (strlen(val) >= sizeof s->preset || !mur_def_preset(&d, val, &err))
            return bad(s, line, "preset = %s: unknown preset (expected classic, starling or vision-report)", val);
        snprintf(s->preset, sizeof s->preset, "%s", val);
    } else if (!strcmp(key, "ticks")) {
        if (!whole(val, 1, 1000000000LL, &ll))
            return bad(s, line, "ticks = %s: expected a whole number in [1, 1000000000]", val);
        s->ticks = ll;
        *has_ticks = true;
    } else if (!strcmp(key, "every")) {
        if (!whole(val, 1, 1000000000LL, &ll))
            return bad(s, line, "every = %s: expected a whole number of ticks in [1, 1000000000]", val);
        s->every = ll;
    } else if (!strcmp(key, "threads") || !strcmp(key, "jobs")) {
        if (!whole(val, key[0] == 'j' ? 0 : 1, 64, &ll))
            return bad(s, line, "%s = %s: expected a whole number in [%d, 64]", key, val, key[0] == 'j' ? 0 : 1);
        *(key[0] == 'j' ? &s->jobs : &s->threads) = (int)ll;
    } else if (!strcmp(key, "output")) {
        if (!*val || strlen(val) >= 1024)
            return bad(s, line, "output = %s: expected a file name", val);
        snprintf(s->output, sizeof s->output, "%s", val);
    } else if (!strcmp(key, "boids") || !strcmp(key, "seeds")) {
        char(*vals)[64];
        int n;
        if (!expand(s, line, key, val, false, &vals, &n))
            return false;
        bool b = key[0] == 'b';
        void *arr = calloc((size_t)n, b ? sizeof(int32_t) : sizeof(uint64_t));
        if (!arr) {
            free(vals);
            return bad(s, line, "out of memory");
        }
        for (int k = 0; k < n; k++) {
            char *end;
            errno = 0;
            unsigned long long u = strtoull(vals[k], &end, 10);
            if (!vals[k][0] || *end || errno || vals[k][0] == '-' || (b && (u < 1 || u > MUR_MAX_BOIDS))) {
                bool ok = bad(s, line, "%s: bad value '%s': expected %s", key, vals[k],
                              b ? "a whole number of boids in [1, 50000000]" : "a whole number in [0, 2^64-1]");
                free(vals);
                free(arr);
                return ok;
            }
            if (b)
                ((int32_t *)arr)[k] = (int32_t)u;
            else
                ((uint64_t *)arr)[k] = u;
        }
        free(vals);
        if (b) {
            free(s->boids);
            s->boids = arr;
            s->nboids = n;
        } else {
            free(s->seeds);
            s->seeds = arr;
            s->nseeds = n;
        }
    } else if (!strcmp(key, "metrics")) {
        s->nmetrics = 0;
        for (char *p = strtok(val, ","); p; p = strtok(NULL, ",")) {
            char *m = trim(p);
            int col = -1;
            for (int c = 0; c < mur_stats_column_count(); c++)
                if (!strcmp(m, mur_stats_column_name(c)) && strcmp(m, "tick") && strcmp(m, "time_s"))
                    col = c;
            if (col < 0 || s->nmetrics == 32)
                return bad(s, line, "metrics: unknown metric '%s' (expected names of the --metrics columns, "
                                    "e.g. polarisation, diameter, groups; tick and time_s are always there)", m);
            s->metrics[s->nmetrics++] = col;
        }
        if (!s->nmetrics)
            return bad(s, line, "metrics: no metric named");
    } else {
        return bad(s, line, "unknown key '%s' (expected %s)", key, KEYS);
    }
    return true;
}

/* The folder of path, and path joined to it. */
static void relative(const char *folder, const char *name, char *out, size_t len)
{
    if (name[0] == '/' || !strcmp(folder, "."))
        snprintf(out, len, "%s", name);
    else
        snprintf(out, len, "%s/%s", folder, name);
}

bool mur_sweep_spec_read(const char *path, mur_sweep_spec *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(s->preset, sizeof s->preset, "%s", MUR_DEFAULT_PRESET);
    s->threads = 1;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_SPEC)
        return bad(s, 0, "cannot read the sweep spec: %s",
                   stat(path, &st) != 0 ? strerror(errno) : S_ISREG(st.st_mode) ? "over 1 MiB" : "not a regular file");
    FILE *fp = fopen(path, "r");
    if (!fp)
        return bad(s, 0, "cannot read the sweep spec: %s", strerror(errno));
    s->text = calloc((size_t)st.st_size + 1, 1);
    if (!s->text) {
        fclose(fp);
        return bad(s, 0, "out of memory");
    }
    size_t got = fread(s->text, 1, (size_t)st.st_size, fp);
    fclose(fp);
    s->text[got] = 0;
    bool ok = true, has_ticks = false;
    int lineno = 0;
    char *copy = strdup(s->text);
    if (!copy)
        return bad(s, 0, "out of memory");
    for (char *l = copy, *next; ok && l && *l; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        char *hash = strchr(l, '#');
        if (hash)
            *hash = 0;
        char *t = trim(l);
        if (!*t)
            continue;
        for (char *c = t; *c; c++)
            if ((unsigned char)*c < 32 && *c != '\t')
                ok = bad(s, lineno, "unexpected byte 0x%02x (not a text spec)", (unsigned char)*c);
        char *eq = ok ? strchr(t, '=') : NULL;
        if (ok && !eq)
            ok = bad(s, lineno, "'%.200s' is not 'key = value'", t);
        if (ok) {
            *eq = 0;
            char *key = trim(t), *val = trim(eq + 1);
            ok = spec_line(s, lineno, key, val, &has_ticks);
        }
    }
    free(copy);
    if (ok && !has_ticks)
        ok = bad(s, 0, "no 'ticks = N' line: how long is each run?");
    if (!ok) {
        mur_sweep_spec_free(s);
        return false;
    }
    if (!s->every || s->every > s->ticks)
        s->every = s->ticks;
    if (!s->nmetrics)
        for (int c = 0; c < mur_stats_column_count(); c++)
            if (strcmp(mur_stats_column_name(c), "tick") && strcmp(mur_stats_column_name(c), "time_s") &&
                s->nmetrics < 32)
                s->metrics[s->nmetrics++] = c;
    /* the folder of the spec: outputs are relative to it */
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(s->folder, sizeof s->folder, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    else
        snprintf(s->folder, sizeof s->folder, ".");
    if (!s->output[0]) {
        const char *base = slash ? slash + 1 : path, *dot = strrchr(base, '.');
        snprintf(s->output, sizeof s->output, "%.*s.csv", dot && dot != base ? (int)(dot - base) : (int)strlen(base),
                 base);
    }
    char name[1024];
    snprintf(name, sizeof name, "%.1023s", s->output);
    relative(s->folder, name, s->output, sizeof s->output);
    snprintf(s->parts, sizeof s->parts, "%s.parts", s->output);
    /* the number of runs, and every run's parameters valid together */
    double runs = (double)(s->nseeds ? s->nseeds : 1) * (s->nboids ? s->nboids : 1);
    for (int k = 0; k < s->nvary; k++)
        runs *= s->vary[k].count;
    if (runs > MUR_SWEEP_MAX_RUNS) {
        bad(s, 0, "%.0f runs (at most %d): give fewer values", runs, MUR_SWEEP_MAX_RUNS);
        mur_sweep_spec_free(s);
        return false;
    }
    s->runs = (int64_t)runs;
    mur_error err;
    mur_flock_def d;
    if (!base_def(s, &d, &err)) {
        bad(s, 0, "%s", err.msg);
        mur_sweep_spec_free(s);
        return false;
    }
    for (int64_t i = 0; i < s->runs; i++) {
        int idx[MUR_SWEEP_MAX_VARY];
        int32_t b;
        uint64_t seed;
        if (!mur_sweep_run_def(s, i, &d, idx, &b, &seed, &err)) {
            char vals[512] = "";
            for (int k = 0; k < s->nvary; k++) {
                size_t l = strlen(vals);
                snprintf(vals + l, sizeof vals - l, "%s=%s ", s->vary[k].name, s->vary[k].values[idx[k]]);
            }
            bad(s, 0, "run %lld (%sboids=%d): %s", (long long)i, vals, (int)b, err.msg);
            mur_sweep_spec_free(s);
            return false;
        }
    }
    return true;
}
