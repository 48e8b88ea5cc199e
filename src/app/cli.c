/* Command-line parsing. Every error is one line on stderr naming the value and what is allowed. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "murmur: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return false;
}

static bool parse_i64(const char *flag, const char *s, long long lo, long long hi, long long *out)
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

static bool parse_real(const char *flag, const char *s, double lo, double hi, double *out)
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

static bool parse_onoff(const char *flag, const char *s, bool *out)
{
    if (s && strcmp(s, "on") == 0)
        *out = true;
    else if (s && strcmp(s, "off") == 0)
        *out = false;
    else
        return fail("bad value '%s' for %s: expected on or off", s ? s : "", flag);
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end != 'x')
        return fail("bad value '%s' for --size: expected WxH with each in [16, 16384], e.g. 1280x720", s ? s : "",
                    "");
    const char *t = end + 1;
    long b = strtol(t, &end, 10);
    if (end == t || *end || a < 16 || a > 16384 || b < 16 || b > 16384)
        return fail("bad value '%s' for --size: expected WxH with each in [16, 16384], e.g. 1280x720", s, "");
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool check_camera(const char *s)
{
    if (strcmp(s, "follow") == 0 || strcmp(s, "fixed") == 0)
        return true;
    if (strncmp(s, "orbit:", 6) == 0) {
        char *end;
        double v = strtod(s + 6, &end);
        if (s[6] && !*end && isfinite(v) && v > 0 && v <= 1e6)
            return true;
    }
    return fail("bad value '%s' for --camera: expected orbit:SECONDS (SECONDS in (0, 1e6]), follow or fixed", s, "");
}

typedef enum { ARG_NONE, ARG_VALUE } arg_kind;

typedef struct flag_spec {
    const char *name;
    arg_kind kind;
} flag_spec;

static const flag_spec FLAGS[] = {
    {"--steps", ARG_VALUE}, {"--boids", ARG_VALUE}, {"--seed", ARG_VALUE}, {"--set", ARG_VALUE},
    {"--params", ARG_VALUE}, {"--init", ARG_VALUE}, {"--export", ARG_VALUE}, {"--metrics", ARG_VALUE},
    {"--list-params", ARG_NONE}, {"--help", ARG_NONE}, {"-h", ARG_NONE}, {"--version", ARG_NONE},
    {"--threads", ARG_VALUE}, {"--frames", ARG_VALUE}, {"--screenshot", ARG_VALUE}, {"--size", ARG_VALUE},
    {"--keys", ARG_VALUE}, {"--record", ARG_VALUE}, {"--fps", ARG_VALUE}, {"--headless", ARG_NONE},
    {"--camera", ARG_VALUE}, {"--hud", ARG_VALUE}, {"--vsync", ARG_VALUE}, {"--at", ARG_VALUE},
};

/* "TICK:name=value" -> at. Checks the syntax, the name (a live parameter) and the value's own range. */
static bool parse_at(const char *s, mur_at *at)
{
    char *end;
    errno = 0;
    long long t = strtoll(s, &end, 10);
    if (end == s || *end != ':' || errno || t < 0 || t > 1000000000000LL)
        return fail("bad value '%s' for --at: expected TICK:name=value with TICK a whole number >= 0%s", s, "");
    const char *pair = end + 1;
    const char *eq = strchr(pair, '=');
    if (!eq || (size_t)(eq - pair) >= sizeof at->name || strlen(eq + 1) >= sizeof at->value)
        return fail("bad value '%s' for --at: expected TICK:name=value%s", s, "");
    memset(at, 0, sizeof *at);
    at->tick = t;
    memcpy(at->name, pair, (size_t)(eq - pair));
    strcpy(at->value, eq + 1);
    const mur_param *p = mur_param_find(at->name);
    if (!p)
        return fail("--at %s: unknown parameter '%s' (murmur --list-params lists them)", s, at->name);
    if (!p->live)
        return fail("--at %s: parameter '%s' cannot change during a run", s, at->name);
    mur_flock_def tmp = mur_flock_default_def();
    mur_error err;
    if (!mur_def_set(&tmp, at->name, at->value, &err))
        return fail("--at %s: %s", s, err.msg);
    return true;
}

static int cmp_at(const void *a, const void *b)
{
    const mur_at *x = a, *y = b;
    return (x->tick > y->tick) - (x->tick < y->tick);
}

void mur_cli_free(mur_cli *cli)
{
    free(cli->at);
    cli->at = NULL;
    cli->nat = 0;
}

bool mur_cli_parse(mur_cli *cli, int argc, char **argv)
{
    memset(cli, 0, sizeof *cli);
    cli->def = mur_flock_default_def();
    cli->steps = -1;
    cli->frames = -1;
    cli->width = 1280;
    cli->height = 720;
    cli->fps = 30.0;
    cli->vsync = true;
    cli->hud = true;

    /* pass 1: flags and their values; pass 2 applies parameters in the right order */
    const char *params_file = NULL;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets); /* "name=value" in order */
    if (!sets)
        return fail("out of memory%s%s", "", "");
    int nsets = 0;
    bool ok = true;
    cli->at = calloc((size_t)argc + 1, sizeof *cli->at);
    if (!cli->at) {
        free(sets);
        return fail("out of memory%s%s", "", "");
    }
    for (int i = 1; ok && i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        char name[64];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
        if (nl >= sizeof name) {
            ok = fail("unknown option '%s' (murmur --help lists them)%s", arg, "");
            break;
        }
        memcpy(name, arg, nl);
        name[nl] = 0;
        const flag_spec *spec = NULL;
        for (size_t k = 0; k < sizeof FLAGS / sizeof FLAGS[0]; k++)
            if (strcmp(FLAGS[k].name, name) == 0)
                spec = &FLAGS[k];
        if (!spec) {
            ok = fail("unknown option '%s' (murmur --help lists them)%s", arg, "");
            break;
        }
        if (spec->kind == ARG_VALUE) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                ok = fail("missing value after %s%s", name, "");
                break;
            }
        } else if (eq && strcmp(name, "--list-params") != 0) {
            ok = fail("option %s takes no value (got '%s')", name, eq + 1);
            break;
        }
        long long ll = 0;
        double d = 0.0;
        if (!strcmp(name, "--steps")) {
            ok = parse_i64(name, val, 0, 1000000000000LL, &ll);
            cli->steps = ll;
        } else if (!strcmp(name, "--boids") || !strcmp(name, "--seed")) {
            /* through the parameter table, in command-line order with --set */
            char *pair = malloc(strlen(val) + 8);
            if (!pair) {
                ok = fail("out of memory%s%s", "", "");
                break;
            }
            sprintf(pair, "%s=%s", name + 2, val);
            sets[nsets++] = pair;
        } else if (!strcmp(name, "--set")) {
            char *pair = strdup(val);
            if (!pair) {
                ok = fail("out of memory%s%s", "", "");
                break;
            }
            sets[nsets++] = pair;
        } else if (!strcmp(name, "--params")) {
            params_file = val;
        } else if (!strcmp(name, "--init")) {
            cli->init_path = val;
        } else if (!strcmp(name, "--export")) {
            cli->export_path = val;
        } else if (!strcmp(name, "--metrics")) {
            cli->metrics_path = val;
        } else if (!strcmp(name, "--list-params")) {
            cli->list_params = true;
            if (eq) {
                if (strcmp(eq + 1, "markdown") == 0)
                    cli->params_markdown = true;
                else if (strcmp(eq + 1, "text") != 0)
                    ok = fail("bad value '%s' for --list-params: expected text or markdown%s", eq + 1, "");
            }
        } else if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            cli->help = true;
        } else if (!strcmp(name, "--version")) {
            cli->version = true;
        } else if (!strcmp(name, "--threads")) {
            ok = parse_i64(name, val, 1, 64, &ll);
            cli->threads = (int)ll;
        } else if (!strcmp(name, "--frames")) {
            ok = parse_i64(name, val, 1, 1000000000LL, &ll);
            cli->frames = ll;
        } else if (!strcmp(name, "--screenshot")) {
            cli->screenshot = val;
        } else if (!strcmp(name, "--size")) {
            ok = parse_size(val, &cli->width, &cli->height);
        } else if (!strcmp(name, "--keys")) {
            cli->keys = val;
        } else if (!strcmp(name, "--record")) {
            cli->record = val;
        } else if (!strcmp(name, "--fps")) {
            ok = parse_real(name, val, 0.0, 1000.0, &d);
            cli->fps = d;
        } else if (!strcmp(name, "--headless")) {
            cli->headless = true;
        } else if (!strcmp(name, "--camera")) {
            ok = check_camera(val);
            cli->camera = val;
        } else if (!strcmp(name, "--hud")) {
            ok = parse_onoff(name, val, &cli->hud);
            cli->hud_given = true;
        } else if (!strcmp(name, "--vsync")) {
            ok = parse_onoff(name, val, &cli->vsync);
        } else if (!strcmp(name, "--at")) {
            ok = parse_at(val, &cli->at[cli->nat]);
            cli->nat += ok;
        }
    }
    mur_error err;
    if (ok && params_file && !mur_def_load_file(&cli->def, params_file, &err))
        ok = fail("%s%s", err.msg, "");
    if (ok && params_file && cli->def.boids != mur_flock_default_def().boids)
        cli->boids_given = true;
    for (int k = 0; ok && k < nsets; k++) {
        if (strncmp(sets[k], "boids=", 6) == 0)
            cli->boids_given = true;
        if (!mur_def_set_pair(&cli->def, sets[k], &err))
            ok = fail("%s%s", err.msg, "");
    }
    for (int k = 0; k < nsets; k++)
        free((void *)sets[k]);
    free(sets);
    if (ok && !cli->help && !cli->version && !cli->list_params && !mur_def_check(&cli->def, &err))
        ok = fail("%s%s", err.msg, "");
    /* stable sort by tick, then check that every scheduled state is valid as a whole */
    if (ok && cli->nat > 1) {
        for (int k = 0; k < cli->nat; k++)
            cli->at[k].tick = cli->at[k].tick * 4096 + k; /* keep command-line order within a tick */
        qsort(cli->at, (size_t)cli->nat, sizeof *cli->at, cmp_at);
        for (int k = 0; k < cli->nat; k++)
            cli->at[k].tick /= 4096;
    }
    mur_flock_def sched = cli->def;
    for (int k = 0; ok && k < cli->nat; k++) {
        mur_def_set(&sched, cli->at[k].name, cli->at[k].value, NULL);
        bool last_of_tick = k + 1 == cli->nat || cli->at[k + 1].tick != cli->at[k].tick;
        if (last_of_tick && !mur_def_check(&sched, &err)) {
            fprintf(stderr, "murmur: --at %lld: the parameters at that tick are invalid: %s\n",
                    (long long)cli->at[k].tick, err.msg);
            ok = false;
        }
    }
    if (!ok)
        mur_cli_free(cli);
    return ok;
}
