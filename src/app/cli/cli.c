/* Command-line parsing. Every error is one line on stderr naming the value and what is allowed. */
#include "cli.h"

#include "cli_values.h"
#include "env.h"
#include "provenance.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mur_cli_free(mur_cli *cli)
{
    free(cli->at);
    cli->at = NULL;
    cli->nat = 0;
}

/* ------------------------------------------------------------------ the flag table */

/* The parse in progress: what pass 2 applies in command-line order once every flag is read. */
enum { MAX_FLAGS = 64 };

typedef struct parse_state {
    const char *params_file; /* --params FILE */
    char **sets;             /* "name=value" from --set, --boids, --seed, in order */
    int nsets;
    int count[MAX_FLAGS];    /* how often each flag of FLAGS was given */
} parse_state;

typedef enum {
    ARG_NONE,     /* --headless */
    ARG_VALUE,    /* --steps N or --steps=N */
    ARG_OPTIONAL, /* --list-params or --list-params=markdown (only with '=') */
} arg_kind;

typedef enum { SEC_SIM, SEC_BATCH, SEC_VIEW, SEC_INFO, SEC_COUNT } section;

/* The run modes a flag applies in: batch (--steps N), headless (--headless) and the viewer (a window,
 * recording or not). Information flags (--help, --list-*) apply everywhere. */
enum {
    M_BATCH = 1,
    M_HEADLESS = 2,
    M_VIEWER = 4,
    M_FRAMES = M_HEADLESS | M_VIEWER,
    M_ALL = M_BATCH | M_HEADLESS | M_VIEWER,
};

static const char *const SECTION_TITLE[SEC_COUNT] = {"Simulation", "Batch", "Viewer and recording",
                                                     "Information"};

struct flag_spec;
/// Apply one flag; val is NULL for ARG_NONE (and for ARG_OPTIONAL without '='). False after
/// printing the one-line error.
typedef bool (*flag_fn)(mur_cli *cli, parse_state *st, const struct flag_spec *f, const char *val);

typedef struct flag_spec {
    const char *name;    /* "--steps" */
    const char *alias;   /* another spelling ("-h"), or NULL */
    arg_kind kind;
    const char *metavar; /* "N", "FILE.csv" (ARG_OPTIONAL: the "[=...]" part) */
    section sec;
    const char *help;    /* one line; '\n' continues it on the next line */
    flag_fn apply;
    size_t field;        /* offsetof the mur_cli member the generic handlers set */
    unsigned modes;      /* M_*: the modes the flag applies in; given in another it is refused */
    bool list;           /* may be given more than once (--set, --at); any other flag is refused twice */
} flag_spec;

static bool add_set(parse_state *st, const char *name, const char *val)
{
    char *pair = malloc(strlen(name) + strlen(val) + 2);
    if (!pair)
        return mur_cli_fail("out of memory");
    sprintf(pair, "%s%s%s", name, name[0] ? "=" : "", val);
    st->sets[st->nsets++] = pair;
    return true;
}

/* --steps N (>= 0), --threads T (1..64), --frames N (>= 1): whole numbers in their ranges */
static bool set_whole(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    long long ll = 0;
    if (f->field == offsetof(mur_cli, threads)) {
        bool ok = mur_cli_parse_i64(f->name, val, 1, 64, &ll);
        cli->threads = (int)ll;
        return ok;
    }
    bool steps = f->field == offsetof(mur_cli, steps);
    bool ok = mur_cli_parse_i64(f->name, val, steps ? 0 : 1, steps ? 1000000000000LL : 1000000000LL, &ll);
    *(int64_t *)(void *)((char *)cli + f->field) = ll;
    return ok;
}

/* --boids N and --seed S go through the parameter table, in command-line order with --set */
static bool set_param_flag(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)cli;
    return add_set(st, f->name + 2, val);
}

static bool set_pair(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)cli;
    (void)f;
    return add_set(st, "", val);
}

static bool set_params_file(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)cli;
    (void)f;
    st->params_file = val;
    return true;
}

static bool set_string(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    *(const char **)(void *)((char *)cli + f->field) = val;
    return true;
}

static bool set_true(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    (void)val;
    *(bool *)(void *)((char *)cli + f->field) = true;
    return true;
}

/* --help, --list-params, --list-keys: the bool at f->field, and the one after it for "=markdown" */
static bool set_listing(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    bool *on = (bool *)(void *)((char *)cli + f->field);
    *on = true;
    if (!val || strcmp(val, "text") == 0)
        return true;
    if (strcmp(val, "markdown") != 0)
        return mur_cli_fail("bad value '%s' for %s: expected text or markdown", val, f->name);
    if (on == &cli->help)
        cli->help_markdown = true;
    else if (on == &cli->list_params)
        cli->params_markdown = true;
    else
        cli->keys_markdown = true;
    return true;
}

static bool set_size(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    if (f->field == offsetof(mur_cli, shot_w))
        return mur_cli_parse_size(f->name, val, &cli->shot_w, &cli->shot_h);
    return mur_cli_parse_size(f->name, val, &cli->width, &cli->height);
}

static bool set_fps(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    double d = 0.0;
    bool ok = mur_cli_parse_real(f->name, val, 0.0, 1000.0, &d);
    cli->fps = d;
    return ok;
}

/* --ticks-per-frame N, --warmup N, --crf Q: whole numbers in their ranges */
static bool set_filming_int(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    long long ll = 0;
    if (f->field == offsetof(mur_cli, warmup)) {
        bool ok = mur_cli_parse_i64(f->name, val, 0, 1000000000LL, &ll);
        cli->warmup = ll;
        return ok;
    }
    bool tpf = f->field == offsetof(mur_cli, ticks_per_frame);
    bool ok = mur_cli_parse_i64(f->name, val, tpf ? 1 : 0, tpf ? 10000 : 63, &ll);
    *(int *)(void *)((char *)cli + f->field) = (int)ll;
    return ok;
}

/* --speed S (simulated seconds per video second), --fov DEG */
static bool set_real(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    double d = 0.0;
    if (f->field == offsetof(mur_cli, fov)) {
        char *end;
        d = strtod(val, &end);
        if (!*val || *end || !isfinite(d) || d < 1.0 || d > 170.0)
            return mur_cli_fail("bad value '%s' for --fov: expected degrees in [1, 170]", val);
        cli->fov = d;
        return true;
    }
    bool ok = mur_cli_parse_real(f->name, val, 0.0, 10000.0, &d);
    cli->speed = d;
    return ok;
}

/* --x264-preset NAME: one of x264's presets */
static bool set_preset(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    (void)f;
    cli->x264_preset = mur_x264_preset_known(val);
    if (cli->x264_preset)
        return true;
    return mur_cli_fail("bad value '%s' for --x264-preset: expected one of ultrafast, superfast, veryfast, faster, fast, "
                "medium, slow, slower, veryslow, placebo",
                val);
}

/* --camera-pos X,Y,Z and --look-at X,Y,Z: three finite numbers within 1e6 */
static bool set_point(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    float *out = (float *)(void *)((char *)cli + f->field);
    const char *p = val;
    for (int k = 0; k < 3; k++) {
        char *end;
        double d = strtod(p, &end);
        if (end == p || !isfinite(d) || fabs(d) > 1e6 || (k < 2 ? *end != ',' : *end != '\0'))
            return mur_cli_fail("bad value '%s' for %s: expected X,Y,Z (three numbers, each within +-1e6)", val, f->name);
        out[k] = (float)d;
        p = end + 1;
    }
    if (out == cli->cam_pos)
        cli->cam_pos_given = true;
    else
        cli->look_at_given = true;
    return true;
}

static bool set_camera(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    (void)f;
    cli->camera = val;
    return mur_cli_check_camera(val);
}

static bool set_onoff(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    if (f->field == offsetof(mur_cli, hud))
        cli->hud_given = true;
    return mur_cli_parse_onoff(f->name, val, (bool *)(void *)((char *)cli + f->field));
}

static bool set_at(mur_cli *cli, parse_state *st, const flag_spec *f, const char *val)
{
    (void)st;
    (void)f;
    bool ok = mur_cli_parse_at(val, &cli->at[cli->nat]);
    cli->nat += ok;
    return ok;
}

#define FIELD(m) offsetof(mur_cli, m)

static const flag_spec FLAGS[] = {
    {"--preset", NULL, ARG_VALUE, "NAME", SEC_SIM,
     "start from a preset: classic, starling or vision-report (default " MUR_DEFAULT_PRESET ";\n--list-presets shows what each sets); --params and --set change it further",
     set_string, FIELD(preset), M_ALL, false},
    {"--boids", NULL, ARG_VALUE, "N", SEC_SIM, "number of boids (same as --set boids=N)", set_param_flag, 0, M_ALL, false},
    {"--seed", NULL, ARG_VALUE, "S", SEC_SIM, "random seed (same as --set seed=S)", set_param_flag, 0, M_ALL, false},
    {"--set", NULL, ARG_VALUE, "name=value", SEC_SIM, "set a parameter (repeatable; wins over --params)",
     set_pair, 0, M_ALL, true},
    {"--params", NULL, ARG_VALUE, "FILE", SEC_SIM, "read 'name = value' lines ('#' comments)", set_params_file, 0, M_ALL, false},
    {"--init", NULL, ARG_VALUE, "FILE.csv", SEC_SIM, "start from a CSV state (kind,x,y,z,vx,vy,vz,perch)",
     set_string, FIELD(init_path), M_ALL, false},
    {"--resume", NULL, ARG_VALUE, "FILE.csv", SEC_BATCH,
     "continue a run from its --export: the state, its tick and time, preset and parameters\n(bit-identical to a run never stopped; --set and --at change it further)",
     set_string, FIELD(resume_path), M_BATCH, false},
    {"--save-params", NULL, ARG_VALUE, "FILE", SEC_SIM,
     "write a parameter file that repeats the run (murmur --params FILE)", set_string, FIELD(save_params), M_ALL, false},
    {"--threads", NULL, ARG_VALUE, "T", SEC_SIM,
     "worker threads (default: MURMUR_THREADS, OMP_NUM_THREADS or all cores; docs/environment.md lists every variable)", set_whole, FIELD(threads), M_ALL, false},
    {"--steps", NULL, ARG_VALUE, "N", SEC_BATCH, "run N ticks without a window", set_whole, FIELD(steps), M_BATCH, false},
    {"--export", NULL, ARG_VALUE, "FILE.csv", SEC_BATCH, "write the final state", set_string, FIELD(export_path), M_ALL, false},
    {"--metrics", NULL, ARG_VALUE, "FILE.csv", SEC_BATCH, "write metrics for ticks 0..N (also works in the viewer)",
     set_string, FIELD(metrics_path), M_ALL, false},
    {"--events", NULL, ARG_VALUE, "FILE.csv", SEC_BATCH,
     "write the falcon's events (attack_start, lock_on, catch, attack_end, wave; with --metrics also split and merge "
     "of groups): tick,time,event,bird,x,y,z,value,aux,count (docs/falcon.md)",
     set_string, FIELD(events_path), M_BATCH, false},
    {"--quiet", NULL, ARG_NONE, NULL, SEC_BATCH,
     "no cost line and no progress line on stderr (both show only when stderr is a terminal)",
     set_true, FIELD(quiet), M_BATCH, false},
    {"--force", NULL, ARG_NONE, NULL, SEC_SIM,
     "create the flock even when its memory exceeds what is free\n(MemAvailable, or the ulimit -v headroom)",
     set_true, FIELD(force), M_ALL, false},
    {"--at", NULL, ARG_VALUE, "TICK:name=value", SEC_BATCH,
     "change a parameter when the run reaches TICK (repeatable),\ne.g. --at 300:scatter=on --at 500:scatter=off",
     set_at, 0, M_BATCH, true},
    {"--size", NULL, ARG_VALUE, "WxH", SEC_VIEW, "window or frame size (default 1280x720)", set_size, 0, M_FRAMES, false},
    {"--frames", NULL, ARG_VALUE, "N", SEC_VIEW, "run N frames, then exit", set_whole, FIELD(frames), M_FRAMES, false},
    {"--screenshot", NULL, ARG_VALUE, "PATH", SEC_VIEW, "save the last frame as PNG", set_string,
     FIELD(screenshot), M_FRAMES, false},
    {"--keys", NULL, ARG_VALUE, "LIST", SEC_VIEW,
     "press keys without a person: \"P,K\" or \"10:P,20:Space\" (frame:key)", set_string, FIELD(keys), M_VIEWER, false},
    {"--record", NULL, ARG_VALUE, "PATH", SEC_VIEW,
     ".mp4/.mkv/.webm/.mov through ffmpeg, or a PNG pattern like f%05d.png", set_string, FIELD(record), M_FRAMES, false},
    {"--fps", NULL, ARG_VALUE, "F", SEC_VIEW, "recording frame rate (default 30)", set_fps, 0, M_FRAMES, false},
    {"--headless", NULL, ARG_NONE, NULL, SEC_VIEW, "render without a display (EGL)", set_true, FIELD(headless), M_HEADLESS, false},
    {"--camera", NULL, ARG_VALUE, "MODE", SEC_VIEW, "orbit:SECONDS, follow, falcon or fixed (default); with roost=on (the starling preset)\nthe default and orbit follow the biggest group; falcon frames the biggest group and the falcon while it attacks", set_camera, 0, M_FRAMES, false},
    {"--hud", NULL, ARG_VALUE, "on|off", SEC_VIEW, "draw the HUD (recordings default off)", set_onoff, FIELD(hud), M_FRAMES, false},
    {"--vsync", NULL, ARG_VALUE, "on|off", SEC_VIEW, "wait for the display (default on)", set_onoff, FIELD(vsync), M_VIEWER, false},
    {"--ticks-per-frame", NULL, ARG_VALUE, "N", SEC_VIEW,
     "ticks per recorded or scripted frame (scripted runs: default 1): time-lapse without changing dt", set_filming_int,
     FIELD(ticks_per_frame), M_FRAMES, false},
    {"--speed", NULL, ARG_VALUE, "S", SEC_VIEW,
     "simulated seconds per video second (recordings: default 1, real time;\ninstead of --ticks-per-frame; below dt x fps some frames repeat)",
     set_real, FIELD(speed), M_FRAMES, false},
    {"--warmup", NULL, ARG_VALUE, "N", SEC_VIEW, "run N ticks before the first frame", set_filming_int,
     FIELD(warmup), M_FRAMES, false},
    {"--crf", NULL, ARG_VALUE, "Q", SEC_VIEW,
     "video quality, lower is better: H.264 0..51 (default 18), VP9 0..63 (default 31)", set_filming_int,
     FIELD(crf), M_FRAMES, false},
    {"--x264-preset", NULL, ARG_VALUE, "NAME", SEC_VIEW,
     "x264 preset, ultrafast (default) .. veryslow: slower gives smaller files", set_preset, 0, M_FRAMES, false},
    {"--camera-pos", NULL, ARG_VALUE, "X,Y,Z", SEC_VIEW, "start the camera at this point (world units)",
     set_point, FIELD(cam_pos), M_FRAMES, false},
    {"--look-at", NULL, ARG_VALUE, "X,Y,Z", SEC_VIEW, "point the camera at this point (default: the world centre)",
     set_point, FIELD(look_at), M_FRAMES, false},
    {"--fov", NULL, ARG_VALUE, "DEG", SEC_VIEW, "vertical field of view in degrees, 1..170 (default 45)", set_real,
     FIELD(fov), M_FRAMES, false},
    {"--camera-path", NULL, ARG_VALUE, "FILE", SEC_VIEW,
     "keyframed camera: lines 'time x y z lx ly lz [fov]' (seconds of video),\nsmoothly interpolated",
     set_string, FIELD(camera_path), M_FRAMES, false},
    {"--screenshot-size", NULL, ARG_VALUE, "WxH", SEC_VIEW,
     "size of --screenshot and F12 images (default: the window or frame size)", set_size, FIELD(shot_w), M_FRAMES, false},
    {"--list-params", NULL, ARG_OPTIONAL, "[=markdown]", SEC_INFO,
     "print every parameter with default, range, unit and meaning", set_listing, FIELD(list_params), M_ALL, false},
    {"--list-keys", NULL, ARG_OPTIONAL, "[=markdown]", SEC_INFO, "print the viewer's keys and mouse bindings",
     set_listing, FIELD(list_keys), M_ALL, false},
    {"--help", "-h", ARG_OPTIONAL, "[=markdown]", SEC_INFO, "this text (markdown: docs/cli.md)", set_listing,
     FIELD(help), M_ALL, false},
    {"--list-presets", NULL, ARG_NONE, NULL, SEC_INFO, "print every preset and the parameters it sets", set_true,
     FIELD(list_presets), M_ALL, false},
    {"--version", NULL, ARG_NONE, NULL, SEC_INFO, "print the version", set_true, FIELD(version), M_ALL, false},
};
enum { NFLAGS = sizeof FLAGS / sizeof FLAGS[0] };
_Static_assert((int)NFLAGS <= (int)MAX_FLAGS, "parse_state counts at most MAX_FLAGS flags");

/* The modes of a flag in words, for --help, docs/cli.md and the refusals. */
static const char *modes_text(unsigned m)
{
    switch (m) {
    case M_BATCH:
        return "batch";
    case M_FRAMES:
        return "viewer, headless";
    case M_VIEWER:
        return "viewer";
    case M_HEADLESS:
        return "headless";
    default:
        return "all";
    }
}

static const flag_spec *find_flag(const char *name)
{
    for (size_t k = 0; k < NFLAGS; k++)
        if (strcmp(FLAGS[k].name, name) == 0 || (FLAGS[k].alias && strcmp(FLAGS[k].alias, name) == 0))
            return &FLAGS[k];
    return NULL;
}

/* Pass 1: argv[*i] (and its value) into cli and st; *i moves past what was used. */
static bool parse_flag(mur_cli *cli, parse_state *st, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    char name[64];
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
    if (nl >= sizeof name)
        return mur_cli_fail("unknown option '%s' (murmur --help lists them)", arg);
    memcpy(name, arg, nl);
    name[nl] = 0;
    const flag_spec *spec = find_flag(name);
    if (!spec)
        return mur_cli_fail("unknown option '%s' (murmur --help lists them)", arg);
    const char *val = eq ? eq + 1 : NULL;
    if (++st->count[spec - FLAGS] > 1 && !spec->list)
        return mur_cli_fail("%s given twice: give it once (only --set and --at may repeat)", spec->name);
    if (spec->kind == ARG_VALUE && !eq) {
        if (*i + 1 >= argc)
            return mur_cli_fail("missing value after %s", name);
        val = argv[++*i];
    } else if (spec->kind != ARG_NONE && eq && !eq[1]) {
        return mur_cli_fail("missing value after %s= (write %s=VALUE or %s VALUE)", name, name, name);
    } else if (spec->kind == ARG_NONE && eq) {
        return mur_cli_fail("option %s takes no value (got '%s')", name, eq + 1);
    }
    return spec->apply(cli, st, spec, val);
}

/* Pass 2: --preset, --params, then --set/--boids/--seed in order, then the whole def is checked. */
static bool apply_parameters(mur_cli *cli, const parse_state *st)
{
    mur_error err;
    if (cli->resume_path) {
        if (cli->init_path || st->params_file || st->count[find_flag("--preset") - FLAGS])
            return mur_cli_fail("--resume restores the state, preset and parameters of its file: it excludes --init, "
                                "--preset and --params (change parameters with --set)");
        mur_resume r;
        if (!mur_resume_read(cli->resume_path, &r))
            return false;
        bool ok = mur_def_preset(&cli->def, r.preset, &err);
        snprintf(cli->preset_buf, sizeof cli->preset_buf, "%s", r.preset);
        cli->preset = cli->preset_buf;
        for (int k = 0; ok && k < r.nsets; k++)
            ok = mur_def_set_pair(&cli->def, r.sets[k], &err);
        cli->resume_tick = r.tick;
        cli->resume_time = r.time_s;
        mur_resume_free(&r);
        if (!ok)
            return mur_cli_fail("--resume %s: %s", cli->resume_path, err.msg);
    } else if (!mur_def_preset(&cli->def, cli->preset, &err)) {
        return mur_cli_fail("--preset: %s", err.msg);
    }
    /* the file is read once (it may be a pipe); its last preset line names the preset for the HUD */
    char file_preset[sizeof cli->preset_buf];
    if (st->params_file && !mur_def_read_file(&cli->def, st->params_file, file_preset, sizeof file_preset, &err))
        return mur_cli_fail("%s", err.msg);
    if (st->params_file && file_preset[0]) {
        snprintf(cli->preset_buf, sizeof cli->preset_buf, "%s", file_preset);
        cli->preset = cli->preset_buf;
    }
    if (st->params_file && cli->def.boids != mur_flock_default_def().boids)
        cli->boids_given = true;
    for (int k = 0; k < st->nsets; k++) {
        if (strncmp(st->sets[k], "boids=", 6) == 0)
            cli->boids_given = true;
        if (!mur_def_set_pair(&cli->def, st->sets[k], &err))
            return mur_cli_fail("%s", err.msg);
    }
    if (!mur_cli_info_only(cli) && !mur_def_check(&cli->def, &err))
        return mur_cli_fail("%s", err.msg);
    return true;
}

/* Stable sort of the --at changes by tick, then check that every scheduled state is valid. */
static bool check_schedule(mur_cli *cli)
{
    if (cli->nat > 1) {
        for (int k = 0; k < cli->nat; k++)
            cli->at[k].tick = cli->at[k].tick * 4096 + k; /* keep command-line order within a tick */
        qsort(cli->at, (size_t)cli->nat, sizeof *cli->at, mur_cli_cmp_at);
        for (int k = 0; k < cli->nat; k++)
            cli->at[k].tick /= 4096;
    }
    mur_flock_def sched = cli->def;
    mur_error err;
    for (int k = 0; k < cli->nat; k++) {
        if (cli->resume_path && (uint64_t)cli->at[k].tick < cli->resume_tick)
            return mur_cli_fail("--at %lld:%s=%s is before tick %llu, where --resume starts: the state's parameters "
                                "hold the changes made before it",
                                (long long)cli->at[k].tick, cli->at[k].name, cli->at[k].value,
                                (unsigned long long)cli->resume_tick);
        mur_def_set(&sched, cli->at[k].name, cli->at[k].value, NULL);
        bool last_of_tick = k + 1 == cli->nat || cli->at[k + 1].tick != cli->at[k].tick;
        if (last_of_tick && !mur_def_check(&sched, &err)) {
            fprintf(stderr, "murmur: --at %lld: the parameters at that tick are invalid: %s\n",
                    (long long)cli->at[k].tick, err.msg);
            return false;
        }
    }
    return true;
}

/* Every flag given applies in the run's mode (from the flag table): batch with --steps, headless
 * with --headless, else the viewer. */
static bool check_modes(const mur_cli *cli, const parse_state *st)
{
    if (mur_cli_info_only(cli))
        return true;
    bool batch = st->count[find_flag("--steps") - FLAGS] > 0;
    bool headless = st->count[find_flag("--headless") - FLAGS] > 0;
    if (batch && headless)
        return mur_cli_fail("--steps runs a batch without frames and --headless renders frames: give one of them");
    unsigned mode = batch ? M_BATCH : headless ? M_HEADLESS : M_VIEWER;
    static const char *const MODE_NAME[] = {"", "batch mode (--steps)", "a --headless run", "", "the viewer"};
    for (size_t k = 0; k < NFLAGS; k++) {
        const flag_spec *f = &FLAGS[k];
        if (!st->count[k] || (f->modes & mode))
            continue;
        if (f->modes == M_BATCH)
            return mur_cli_fail("%s works only in batch mode (with --steps N), not in %s", f->name, MODE_NAME[mode]);
        if (f->modes == M_VIEWER)
            return mur_cli_fail("%s works only in the viewer (a window), not in %s", f->name, MODE_NAME[mode]);
        return mur_cli_fail("%s works in the viewer and in --headless runs, not in batch mode (--steps)", f->name);
    }
    return true;
}

/* Flags that exclude or need each other. */
static bool check_combinations(const mur_cli *cli)
{
    if (cli->ticks_per_frame > 0 && cli->speed > 0.0)
        return mur_cli_fail("--ticks-per-frame and --speed both set the pace of the video: give one");
    if (cli->camera_path && (cli->camera || cli->cam_pos_given || cli->look_at_given))
        return mur_cli_fail("--camera-path sets the camera: it excludes --camera, --camera-pos and --look-at");
    if (cli->headless && cli->shot_w > 0 && !cli->screenshot)
        return mur_cli_fail("--screenshot-size needs --screenshot PATH with --headless");
    return true;
}

static void defaults(mur_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    cli->def = mur_flock_default_def();
    cli->preset = MUR_DEFAULT_PRESET;
    cli->steps = -1;
    cli->frames = -1;
    cli->width = 1280;
    cli->height = 720;
    cli->fps = 30.0;
    cli->vsync = true;
    cli->hud = true;
    cli->crf = -1;
}

bool mur_cli_parse(mur_cli *cli, int argc, char **argv)
{
    defaults(cli);
    parse_state st;
    memset(&st, 0, sizeof st);
    st.sets = calloc((size_t)argc + 1, sizeof(char *));
    cli->at = calloc((size_t)argc + 1, sizeof *cli->at);
    if (!st.sets || !cli->at) {
        free(st.sets);
        mur_cli_free(cli);
        return mur_cli_fail("out of memory");
    }
    bool ok = true;
    for (int i = 1; ok && i < argc; i++)
        ok = parse_flag(cli, &st, argc, argv, &i);
    if (ok && st.params_file && cli->init_path && !strcmp(st.params_file, "-") && !strcmp(cli->init_path, "-"))
        ok = mur_cli_fail("--params - and --init - both read standard input: give one of them a file");
    ok = ok && check_modes(cli, &st) && apply_parameters(cli, &st);
    for (int k = 0; k < st.nsets; k++)
        free(st.sets[k]);
    free(st.sets);
    ok = ok && check_schedule(cli) && check_combinations(cli);
    if (!ok)
        mur_cli_free(cli);
    return ok;
}

bool mur_cli_info_only(const mur_cli *cli)
{
    return cli->help || cli->version || cli->list_params || cli->list_keys || cli->list_presets;
}

/* ------------------------------------------------------------------ --help and docs/cli.md */

static void flag_title(const flag_spec *f, char *buf, size_t len)
{
    const char *meta = f->metavar ? f->metavar : "";
    snprintf(buf, len, "%s%s%s%s%s", f->name, f->kind == ARG_VALUE ? " " : "", meta, f->alias ? ", " : "",
             f->alias ? f->alias : "");
}

/* One flag: an indented --help line (continued lines aligned), or a markdown table row. */
static void print_flag(const flag_spec *f, bool markdown)
{
    char title[64];
    flag_title(f, title, sizeof title);
    if (markdown) {
        fputs("| `", stdout);
        for (const char *p = title; *p; p++)
            fputs(*p == '|' ? "\\|" : (char[2]){*p, 0}, stdout);
        printf("` | %s | ", modes_text(f->modes));
    } else {
        printf("  %-26s", title);
        if (strlen(title) >= 26)
            printf("\n  %-26s", "");
    }
    for (const char *p = f->help; *p; p++)
        if (*p == '\n')
            fputs(markdown ? " " : "\n                            ", stdout);
        else if (*p == '|' && markdown)
            fputs("\\|", stdout);
        else
            putchar(*p);
    if (markdown)
        puts(" |");
    else if (f->modes != M_ALL)
        printf(" [%s]\n", modes_text(f->modes));
    else
        putchar('\n');
}

#ifdef MUR_HAVE_GFX
#define GFX_BUILD 1
#else
#define GFX_BUILD 0
#endif

static const char *const TEXT_HEAD =
    "murmur " MUR_VERSION_STRING " - a 3D flock of boids\n"
    "\n"
    "Usage:\n"
#ifdef MUR_HAVE_GFX
    "  murmur [options]                      open the viewer (needs a display)\n"
    "  murmur --steps N [options]            batch: run N ticks, no window\n"
    "  murmur --record PATH --frames N ...   record a video or PNG frames\n"
    "  murmur --headless --record PATH --frames N ...   the same without a display (EGL)\n"
    "  murmur sweep SPEC [--jobs J] [--index I]   a parameter sweep (docs/sweeps.md)";
#else
    "  murmur --steps N [options]            batch: run N ticks (this build has no viewer)\n"
    "  murmur sweep SPEC [--jobs J] [--index I]   a parameter sweep (docs/sweeps.md)";
#endif
static const char *const TEXT_TAIL =
    "\n[batch], [viewer, headless], [viewer]: the modes a flag works in (batch: --steps N; headless:\n"
    "--headless); given in another mode it is refused. Only --set and --at may be given twice.\n"
    "Bad input exits with status 2 and one line naming the problem; a run stopped by SIGINT, SIGTERM\n"
    "or SIGHUP writes its outputs as they stand and exits 128 + the signal (docs/cli.md). See docs/ for\n"
    "the rules, parameters, controls and recording.";
static const char *const MARKDOWN_HEAD =
    "# Command line\n"
    "\n"
    "Generated by `murmur --help=markdown` from the parser's own flag table; a test fails when this\n"
    "file is stale. Without `--steps` or `--headless`, murmur opens the viewer; `--steps N` runs a batch\n"
    "without a window; `--record PATH --frames N` records a video or PNG frames. A value follows its\n"
    "flag as the next argument or after `=` (`--steps 100`, `--steps=100`). The modes column says where a\n"
    "flag works (batch: `--steps N`; headless: `--headless`; viewer: a window, recording or not); a flag\n"
    "given in another mode is refused, and so is a flag given twice, except `--set` and `--at`. Bad input exits with\n"
    "status 2 and one line naming the problem. Parameters are listed in [parameters.md](parameters.md),\n"
    "the viewer's keys in [controls.md](controls.md), recording in [recording.md](recording.md),\n"
    "parameter sweeps (`murmur sweep SPEC`) in [sweeps.md](sweeps.md). Every CSV murmur writes opens with\n"
    "`#` lines that say how it was made (version, revision, preset, seed, boids, the parameters that\n"
    "differ from the preset, the command line, the tick length; a state also its tick and time).";

static const char *const MARKDOWN_TAIL =
    "\n## Inputs\n"
    "\n"
    "`--params` and `--init` read a regular file of at most 64 MiB (lines of at most 1024 bytes), `-` for\n"
    "standard input, or a pipe or FIFO (`--init <(zcat state.csv.gz)`), which must deliver data within\n"
    "10 s of each wait; every input is read once. A directory, a terminal or a device (but `/dev/null`,\n"
    "an empty input) is refused. `--camera-path` reads a regular file of at most 1 MiB.\n"
    "\n"
    "## Outputs\n"
    "\n"
    "Every output of a run (`--export`, `--metrics`, `--screenshot`, `--record`, each frame of a PNG\n"
    "sequence) is written to a temporary file beside it (`NAME.tmpPID`, or `.murmur-PID-K.tmp` when that\n"
    "name would pass the system's 255-byte limit) and all of them are renamed into place together when\n"
    "the run ends. A run that fails leaves no new output and every older file exactly as it was. A\n"
    "device, a FIFO or a socket (or a link to one) is written into, never replaced; `/dev/stdout`,\n"
    "`/dev/stderr` and `/dev/fd/N` write through the descriptor murmur was given; a symbolic link to a\n"
    "file keeps the link and replaces the file it names. Screenshots (F12) and recordings (R) started by a\n"
    "key in the viewer are committed each on its own. After SIGKILL or SIGQUIT a temporary file may be\n"
    "left; a partial file under the final name never is.\n"
    "\n"
    "## Exit status and signals\n"
    "\n"
    "| status | meaning |\n"
    "| --- | --- |\n"
    "| 0 | the run finished and every output is in place |\n"
    "| 2 | an error: bad input (a flag, a value, a file), an unusable environment (no display, no ffmpeg), or a failure while writing (a full disk, a file over the size limit, ffmpeg dying); one line on stderr says which, and no output is left |\n"
    "| 129, 130, 143 | stopped by SIGHUP, SIGINT (Ctrl-C) or SIGTERM (128 + the signal's number) |\n"
    "\n"
    "SIGINT, SIGTERM and SIGHUP stop a run after the tick in progress (a batch run, the warm-up) or at the\n"
    "next frame (viewer, headless); the run then writes its outputs as they stand: the metrics through the\n"
    "last finished tick, the state of that tick, a finished and playable video of the frames rendered (also\n"
    "when the whole process group gets the signal, as from a terminal's Ctrl-C: ffmpeg runs in a process\n"
    "group of its own). A second such signal stops at once and writes nothing (temporary files removed).\n"
    "Every line on stderr that reports an error comes with a non-zero status.\n";

void mur_cli_print_help(bool markdown)
{
    puts(markdown ? MARKDOWN_HEAD : TEXT_HEAD);
    for (int sec = 0; sec < SEC_COUNT; sec++) {
        if (markdown)
            printf("\n## %s\n\n| flag | modes | meaning |\n| --- | --- | --- |\n", SECTION_TITLE[sec]);
        else
            printf("\n%s:\n", SECTION_TITLE[sec]);
#ifndef MUR_HAVE_GFX
        if (sec == SEC_VIEW) {
            puts(markdown ? "| | | this build has no graphics (built without GLFW/GL) |"
                          : "  (none: this build has no graphics; it was built without GLFW/GL)");
            continue;
        }
#endif
        for (size_t k = 0; k < NFLAGS; k++)
            if ((int)FLAGS[k].sec == sec && (GFX_BUILD || strcmp(FLAGS[k].name, "--list-keys") != 0))
                print_flag(&FLAGS[k], markdown);
    }
    fputs(markdown ? MARKDOWN_TAIL : TEXT_TAIL, stdout);
    if (!markdown)
        putchar('\n');
}
