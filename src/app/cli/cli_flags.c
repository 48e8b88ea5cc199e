/* The flag table: every flag's name, value kind, section, help line, modes and the handler that
 * applies it (cli_flags.h). Every error is one line on stderr naming the value and what is allowed. */
#include "cli_flags.h"

#include "cli_values.h"
#include "env.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const flag_spec mur_cli_flags[] = {
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
     "write the falcon's events (attack_start, lock_on, catch, attack_end with the speed the birds met as aux, closest (the closest approach: distance, speed), wave; "
     "with --metrics also split and merge of groups): tick,time,event,bird,x,y,z,value,aux,count (docs/falcon.md)",
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
    {"--camera", NULL, ARG_VALUE, "MODE", SEC_VIEW, "orbit:SECONDS, follow, falcon or fixed (default); with roost=on (the starling preset)\nthe default and orbit follow the biggest group; falcon frames the biggest group and keeps the falcon in view while it attacks", set_camera, 0, M_FRAMES, false},
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
const size_t mur_cli_nflags = sizeof mur_cli_flags / sizeof mur_cli_flags[0];
_Static_assert(sizeof mur_cli_flags / sizeof mur_cli_flags[0] <= MAX_FLAGS, "parse_state counts at most MAX_FLAGS flags");

const flag_spec *mur_cli_find_flag(const char *name)
{
    for (size_t k = 0; k < mur_cli_nflags; k++)
    {
        const flag_spec *f = &mur_cli_flags[k];
        if (strcmp(f->name, name) == 0 || (f->alias && strcmp(f->alias, name) == 0))
            return f;
    }
    return NULL;
}
