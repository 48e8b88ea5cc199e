/* Numbered file patterns (--record frames/f%05d.png): parsed and expanded by murmur's own code.
 * No text a user gives is ever a printf format. */
#ifndef MUR_APP_PATTERN_H
#define MUR_APP_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The integer conversions of a pattern (%d, %05d, %4i, %u; width at most 32); %% is a literal %.
/// *bad is set (and counting stops) at any other conversion.
int mur_pattern_conversions(const char *pattern, bool *bad);
/// The name of frame k of a pattern with exactly one integer conversion. False when the pattern is
/// not such a pattern or the name does not fit len.
bool mur_pattern_name(const char *pattern, int64_t k, char *out, size_t len);

#endif
