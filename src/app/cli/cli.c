/* Command-line parsing: each flag through the table's handler (cli_flags.c), then the parameters
 * in command-line order, the --at schedule, the modes and the combinations of flags. Every error is
 * one line on stderr naming the value and what is allowed. */
#include "cli.h"

#include "cli_flags.h"
#include "cli_values.h"
#include "provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mur_cli_free(mur_cli *cli)
{
    free(cli->at);
    cli->at = NULL;
    cli->nat = 0;
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
    const flag_spec *spec = mur_cli_find_flag(name);
    if (!spec)
        return mur_cli_fail("unknown option '%s' (murmur --help lists them)", arg);
    const char *val = eq ? eq + 1 : NULL;
    if (++st->count[spec - mur_cli_flags] > 1 && !spec->list)
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
        if (cli->init_path || st->params_file || st->count[mur_cli_find_flag("--preset") - mur_cli_flags])
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
    bool batch = st->count[mur_cli_find_flag("--steps") - mur_cli_flags] > 0;
    bool headless = st->count[mur_cli_find_flag("--headless") - mur_cli_flags] > 0;
    if (batch && headless)
        return mur_cli_fail("--steps runs a batch without frames and --headless renders frames: give one of them");
    unsigned mode = batch ? M_BATCH : headless ? M_HEADLESS : M_VIEWER;
    static const char *const MODE_NAME[] = {"", "batch mode (--steps)", "a --headless run", "", "the viewer"};
    for (size_t k = 0; k < mur_cli_nflags; k++) {
        const flag_spec *f = &mur_cli_flags[k];
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
