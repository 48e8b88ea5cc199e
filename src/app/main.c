/* murmur: batch simulation, interactive viewer and recorder of a 3D boids flock. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "env.h"

static void usage(void)
{
    puts("murmur " MUR_VERSION_STRING " - a 3D flock of boids\n"
         "\n"
         "Usage:\n"
         "  murmur [options]                      open the viewer (needs a display)\n"
         "  murmur --steps N [options]            batch: run N ticks, no window\n"
         "  murmur --record PATH --frames N ...   record a video or PNG frames\n"
         "\n"
         "Simulation:\n"
         "  --boids N             number of boids (same as --set boids=N)\n"
         "  --seed S              random seed (same as --set seed=S)\n"
         "  --set name=value      set a parameter (repeatable; wins over --params)\n"
         "  --params FILE         read 'name = value' lines ('#' comments)\n"
         "  --init FILE.csv       start from a CSV state (kind,x,y,z,vx,vy,vz,perch)\n"
         "  --threads T           worker threads (default: MURMUR_THREADS, OMP_NUM_THREADS or all cores;\n"
         "                        docs/environment.md lists every variable)\n"
         "  --list-params[=markdown]  print every parameter with default, range, unit and meaning\n"
         "\n"
         "Batch:\n"
         "  --steps N             run N ticks without a window\n"
         "  --export FILE.csv     write the final state\n"
         "  --metrics FILE.csv    write metrics for ticks 0..N (also works in the viewer)\n"
         "  --at TICK:name=value  change a parameter when the run reaches TICK (repeatable),\n"
         "                        e.g. --at 300:scatter=on --at 500:scatter=off\n"
         "\n"
         "Viewer and recording:\n"
         "  --size WxH            window or frame size (default 1280x720)\n"
         "  --frames N            run N frames, then exit\n"
         "  --screenshot PATH     save the last frame as PNG\n"
         "  --keys LIST           press keys without a person: \"P,K\" or \"10:P,20:Space\" (frame:key)\n"
         "  --record PATH         .mp4/.mkv/.webm/.mov through ffmpeg, or a PNG pattern like f%05d.png\n"
         "  --fps F               recording frame rate (default 30)\n"
         "  --headless            render without a display (EGL)\n"
         "  --camera MODE         orbit:SECONDS, follow or fixed (default)\n"
         "  --hud on|off          draw the HUD (recordings default off)\n"
         "  --vsync on|off        wait for the display (default on)\n"
         "\n"
         "  --help, --version\n"
         "\n"
         "Bad input exits with status 2 and one line naming the problem. See docs/ for the rules,\n"
         "parameters, controls and recording.");
}

static int run(mur_cli *cli)
{
    if (cli->help) {
        usage();
        return 0;
    }
    if (cli->version) {
        puts("murmur " MUR_VERSION_STRING);
        return 0;
    }
    if (cli->list_params) {
        mur_print_params(cli->params_markdown);
        return 0;
    }
    bool batch = cli->steps >= 0;
#ifndef MUR_HAVE_GFX
    if (!batch) {
        fprintf(stderr, "murmur: this build has no graphics (built without GLFW/GL); use --steps N for batch mode\n");
        return MUR_EXIT_USAGE;
    }
#endif
    if (!batch && !cli->boids_given && !cli->init_path)
        cli->def.boids = 4000; /* the viewer's first impression: a few thousand boids */
    mur_error err;
    mur_flock *f = cli->init_path ? mur_flock_load_csv(&cli->def, cli->init_path, &err)
                                  : mur_flock_create(&cli->def, &err);
    if (!f) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return MUR_EXIT_USAGE;
    }
    if (!mur_env_apply(f, cli->threads > 0, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        mur_flock_destroy(f);
        return MUR_EXIT_USAGE;
    }
    if (cli->threads > 0)
        mur_flock_set_threads(f, cli->threads);
    int rc;
    if (batch)
        rc = mur_batch_main(cli, f);
    else {
#ifdef MUR_HAVE_GFX
        rc = mur_viewer_main(cli, f);
#else
        rc = MUR_EXIT_USAGE;
#endif
    }
    mur_flock_destroy(f);
    return rc;
}

/* The viewer and the recorder share two cores with the GL driver's own threads (llvmpipe renders on
 * the CPU). OpenMP's default of spinning while it waits then steals the driver's time and a 3 ms step
 * takes 30 ms. The wait policy is read when the OpenMP runtime loads, before main, so set it and
 * start again once. An explicit OMP_WAIT_POLICY from the user is kept. */
static void passive_threads_for_graphics(char **argv)
{
    if (getenv("OMP_WAIT_POLICY"))
        return;
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    execv("/proc/self/exe", argv);
    /* exec failed (no /proc): carry on with the default policy */
}

int main(int argc, char **argv)
{
    mur_cli cli;
    if (!mur_cli_parse(&cli, argc, argv))
        return MUR_EXIT_USAGE;
    if (cli.steps < 0 && !cli.help && !cli.version && !cli.list_params)
        passive_threads_for_graphics(argv);
    int rc = run(&cli);
    mur_cli_free(&cli);
    return rc;
}
