/* The record room's entry point: murmur --headless (built only with graphics). main.c calls it. */
#ifndef MUR_APP_HEADLESS_H
#define MUR_APP_HEADLESS_H

#include "cli.h"

/// murmur --headless ...: frames without a display, recorded or discarded. Exit status.
int mur_headless_main(const mur_cli *cli, mur_flock *flock);

#endif
