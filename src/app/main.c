/* murmur: batch simulation, interactive viewer and recorder of a 3D boids flock. main() only
 * dispatches: information (--help, --version, --list-*), batch, headless or viewer. */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cli.h"
#include "cost.h"
#include "env.h"
#include "outputs.h"
#include "provenance.h"
#include "signals.h"
#include "sweep.h"
#ifdef MUR_HAVE_GFX
#include "headless.h"
#include "viewer_main.h"
#endif

#ifndef MUR_HAVE_GFX
static int no_graphics(void)
{
    fprintf(stderr, "murmur: this build has no graphics (built without GLFW/GL); use --steps N for batch mode\n");
    return MUR_EXIT_USAGE;
}
#endif

static int print_info(const mur_cli *cli)
{
    if (cli->help)
        mur_cli_print_help(cli->help_markdown);
    else if (cli->version)
        puts("murmur " MUR_VERSION_STRING);
    else if (cli->list_params)
        mur_print_params(cli->params_markdown, cli->preset);
    else if (cli->list_presets)
        mur_print_presets();
    else {
#ifdef MUR_HAVE_GFX
        mur_bindings_print(cli->keys_markdown);
#else
        return no_graphics();
#endif
    }
    return 0;
}

static int run_mode(mur_cli *cli)
{
    bool batch = cli->steps >= 0;
#ifndef MUR_HAVE_GFX
    if (!batch)
        return no_graphics();
#endif
    /* before any work: a graphics variable no renderer takes, two outputs on one file, or a flock
     * larger than the free memory */
    mur_error env_err;
    if (!batch && !mur_env_check_graphics(&env_err)) {
        fprintf(stderr, "murmur: %s\n", env_err.msg);
        return MUR_EXIT_USAGE;
    }
    if (!mur_outputs_distinct(cli) || (batch && !mur_batch_outputs_ok(cli)) || !mur_cost_memory_ok(cli))
        return MUR_EXIT_USAGE;
    /* a batch run says what it will cost before the flock is made (50M boids take a while to place) */
    if (batch && !cli->init_path && !cli->resume_path)
        mur_cost_announce(cli, &cli->def, mur_env_threads(cli->threads));
    mur_error err;
    const char *state = cli->init_path ? cli->init_path : cli->resume_path;
    mur_flock *f = state ? mur_flock_load_csv(&cli->def, state, &err) : mur_flock_create(&cli->def, &err);
    /* --resume: the saved tick and time too (the random numbers of perch timers follow the tick) */
    if (f && cli->resume_path && !mur_flock_set_clock(f, cli->resume_tick, cli->resume_time, &err)) {
        mur_flock_destroy(f);
        f = NULL;
    }
    if (!f) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return mur_signals_stop() ? 128 + mur_signals_stop() : MUR_EXIT_USAGE; /* a stop while a pipe was read */
    }
    if (!mur_env_apply(f, cli->threads > 0, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        mur_flock_destroy(f);
        return MUR_EXIT_USAGE;
    }
    if (cli->threads > 0)
        mur_flock_set_threads(f, cli->threads);
    int rc = MUR_EXIT_USAGE;
    if (batch)
        rc = mur_batch_main(cli, f);
#ifdef MUR_HAVE_GFX
    else if (cli->headless)
        rc = mur_headless_main(cli, f);
    else
        rc = mur_viewer_main(cli, f);
#endif
    mur_flock_destroy(f);
    return rc;
}

int main(int argc, char **argv)
{
    /* first of all, before any input is read: the OpenMP wait policy needs a fresh start of the
     * program (libgomp reads it when it loads), and a second parse after it would find a pipe given
     * as --params or --init empty */
    mur_env_wait_policy(argv);
    /* a stop request is honoured from here on: while a pipe is read, while the flock is made, in
     * every mode (signals.h) */
    mur_signals_install();
    mur_prov_set_command(argc, argv); /* for the '#' lines of every CSV the run writes */
    if (argc > 1 && !strcmp(argv[1], "sweep"))
        return mur_sweep_main(argc - 1, argv + 1);
    mur_cli cli;
    if (!mur_cli_parse(&cli, argc, argv))
        return mur_signals_stop() ? 128 + mur_signals_stop() : MUR_EXIT_USAGE;
    int rc = mur_cli_info_only(&cli) ? print_info(&cli) : run_mode(&cli);
    mur_cli_free(&cli);
    return rc;
}
