/* The command line's value parsers (cli_flags.c's flag handlers call them): each refuses a bad value with
 * one line on stderr naming the value and what is allowed, and returns false. */
#ifndef MUR_APP_CLI_VALUES_H
#define MUR_APP_CLI_VALUES_H

#include <stdbool.h>

#include "cli.h"

/// One error line ("murmur: " + the text); fmt is always a literal (checked by the compiler), never
/// user text. Returns false.
bool mur_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/// A whole number in [lo, hi].
bool mur_cli_parse_i64(const char *flag, const char *s, long long lo, long long hi, long long *out);
/// A finite number in (lo, hi].
bool mur_cli_parse_real(const char *flag, const char *s, double lo, double hi, double *out);
/// on or off.
bool mur_cli_parse_onoff(const char *flag, const char *s, bool *out);
/// WxH, each in [16, 16384].
bool mur_cli_parse_size(const char *flag, const char *s, int *w, int *h);
/// --camera: orbit:SECONDS, follow, falcon or fixed.
bool mur_cli_check_camera(const char *s);
/// "TICK:name=value" -> at. Checks the syntax, the name (a live parameter) and the value's own range.
bool mur_cli_parse_at(const char *s, mur_at *at);
/// qsort order of --at changes: by tick.
int mur_cli_cmp_at(const void *a, const void *b);

#endif
