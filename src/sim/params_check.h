/* The checks of a whole flock definition (params_check.c, mur_def_check): each value against its row of
 * the parameter table (params.c), then the rules that tie values together. */
#ifndef MUR_SIM_PARAMS_CHECK_H
#define MUR_SIM_PARAMS_CHECK_H

#include <stdbool.h>

#include "murmur/murmur.h"

/// Every value of def against its own row's range (params.c); false with err set at the first bad one.
bool mur_def_check_rows(const mur_flock_def *def, mur_error *err);

#endif
