/* Command-line options of the murmur program (batch, viewer and recording modes). */
#ifndef MUR_APP_CLI_H
#define MUR_APP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// The preset the program starts from when --preset is not given.
#define MUR_DEFAULT_PRESET "starling"

/// Exit status for bad input (flags, files, values) and unusable environments (no display, no ffmpeg).
#define MUR_EXIT_USAGE 2

/// A parameter change at a given tick (--at TICK:name=value), for scheduled experiments.
typedef struct mur_at {
    int64_t tick;               ///< applied before this tick is computed
    char name[64];              ///< parameter name (a live one)
    char value[192];            ///< value text
} mur_at;

typedef struct mur_cli {
    mur_flock_def def;          ///< parameters after the preset, --params and --set
    const char *preset;         ///< --preset NAME (default MUR_DEFAULT_PRESET), or the last preset line of --params
    char preset_buf[32];        ///< holds a preset name read from the parameter file
    bool list_presets;          ///< --list-presets
    bool boids_given;           ///< --boids or --set boids= was given
    int64_t steps;              ///< --steps N: batch mode when >= 0 (-1 = not given)
    const char *init_path;      ///< --init FILE.csv
    const char *resume_path;    ///< --resume FILE.csv: the state, its tick, time, preset and parameters
    uint64_t resume_tick;       ///< the tick and time --resume read
    double resume_time;
    const char *save_params;    ///< --save-params FILE: a parameter file that repeats the run
    const char *export_path;    ///< --export FILE.csv
    const char *metrics_path;   ///< --metrics FILE.csv (batch and viewer)
    const char *events_path;    ///< --events FILE.csv (batch): the falcon's events
    bool list_params;           ///< --list-params
    bool params_markdown;       ///< --list-params=markdown (docs/parameters.md)
    bool list_keys;             ///< --list-keys: the viewer's key and mouse bindings
    bool keys_markdown;         ///< --list-keys=markdown (the tables of docs/controls.md)
    bool help, version;         ///< --help, --version
    bool help_markdown;         ///< --help=markdown (docs/cli.md)
    int threads;                ///< --threads T (0 = default)
    bool quiet;                 ///< --quiet: no progress line and no cost announcement
    bool force;                 ///< --force: run even when the memory needed exceeds what is free
    struct mur_at *at;          ///< --at TICK:name=value changes, sorted by tick
    int nat;                    ///< number of --at changes
    /* viewer */
    int64_t frames;             ///< --frames N: run the window for N frames then exit (-1 = forever)
    const char *screenshot;     ///< --screenshot PATH: save the last frame
    int width, height;          ///< --size WxH (default 1280x720)
    const char *keys;           ///< --keys "P,K,..." or "10:P,20:K": keys applied at frames
    /* recording */
    const char *record;         ///< --record PATH (.mp4/.mkv/.webm/.mov or printf PNG pattern)
    double fps;                 ///< --fps F (default 30)
    bool headless;              ///< --headless: EGL, no display
    const char *camera;         ///< --camera orbit:SECONDS | follow | fixed
    bool hud;                   ///< --hud on|off (recordings default off, window default on)
    bool hud_given;             ///< --hud was given
    bool vsync;                 ///< --vsync on|off (default on)
    /* filming */
    int ticks_per_frame;        ///< --ticks-per-frame N (0 = not given: 1, or from --speed)
    double speed;               ///< --speed S: simulated seconds per video second (0 = not given)
    int64_t warmup;             ///< --warmup N: ticks before the first frame
    int crf;                    ///< --crf Q (-1 = the codec's default)
    const char *x264_preset;    ///< --x264-preset NAME, NULL = MURMUR_X264_PRESET or ultrafast
    /* camera */
    bool cam_pos_given, look_at_given;
    float cam_pos[3];           ///< --camera-pos X,Y,Z
    float look_at[3];           ///< --look-at X,Y,Z
    double fov;                 ///< --fov DEG (0 = default 45)
    const char *camera_path;    ///< --camera-path FILE: keyframes (time pos look_at fov)
    int shot_w, shot_h;         ///< --screenshot-size WxH (0 = the frame size)
} mur_cli;

/// Parse argv into cli. On error prints one line to stderr and returns false (exit MUR_EXIT_USAGE).
bool mur_cli_parse(mur_cli *cli, int argc, char **argv);
/// Free what mur_cli_parse allocated.
void mur_cli_free(mur_cli *cli);
/// True when the command line only asks for information (--help, --version, --list-*).
bool mur_cli_info_only(const mur_cli *cli);
/// Print the flags from the parser's own table: the --help text, or docs/cli.md (markdown).
void mur_cli_print_help(bool markdown);

#endif
