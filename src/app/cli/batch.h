#ifndef MUR_APP_BATCH_H
#define MUR_APP_BATCH_H
#include <stdio.h>

#include "cli.h"
/// Run cli->steps ticks without any window, writing --export and --metrics (checked first with
/// mur_batch_outputs_ok). Returns the exit status.
int mur_batch_main(const mur_cli *cli, mur_flock *f);
/// Before any work: --export and --metrics can be created (one line on stderr and false if not).
bool mur_batch_outputs_ok(const mur_cli *cli);
/// --metrics for a run with frames (viewer, headless): open the file, write the header and turn on
/// per-tick metrics. False after printing why (exit MUR_EXIT_USAGE).
bool mur_outputs_open(const mur_cli *cli, mur_flock *f, mur_afile **metrics);
/// At the end of a run: the last metrics row, --export, and every output of the run (outputs.h)
/// committed together when status is 0 or a signal's (128+N); else all of them removed. Returns
/// status, or MUR_EXIT_USAGE after printing a failure.
/// last: the final state's metrics when the caller has them (else measured here).
int mur_outputs_close(const mur_cli *cli, mur_flock *f, mur_afile **metrics, int status, const mur_stats *last);
/// Print the parameter table (text or markdown) to stdout.
/// --list-params: every parameter with its value in preset `preset` (what murmur starts from) and in
/// the library's defaults (the classic preset).
void mur_print_params(bool markdown, const char *preset);
/// --list-presets: every preset, its summary and the parameters it sets on top of the classic defaults.
void mur_print_presets(void);
#endif
