/* The flag table of the command line (cli_flags.c), shared by the parser (cli.c) and the help
 * text (cli_help.c): what a flag is, its value kind, section and modes, and the handler that applies
 * it. Internal to the cli room. */
#ifndef MUR_APP_CLI_FLAGS_H
#define MUR_APP_CLI_FLAGS_H

#include <stddef.h>

#include "cli.h"

/* The parse in progress: what pass 2 applies in command-line order once every flag is read. */
enum { MAX_FLAGS = 64 };

typedef struct parse_state {
    const char *params_file; /* --params FILE */
    char **sets;             /* "name=value" from --set, --boids, --seed, in order */
    int nsets;
    int count[MAX_FLAGS];    /* how often each flag of mur_cli_flags was given */
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

/// The table, in --help order, and its length.
extern const flag_spec mur_cli_flags[];
extern const size_t mur_cli_nflags;
/// The row of a flag by its name or alias, or NULL.
const flag_spec *mur_cli_find_flag(const char *name);

#endif
