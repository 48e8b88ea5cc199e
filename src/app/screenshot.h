/* Screenshots: the bound read framebuffer as a PNG, with the program's one-line report. */
#ifndef MUR_APP_SCREENSHOT_H
#define MUR_APP_SCREENSHOT_H

#include <stdbool.h>

/// Save width x height pixels of the bound read framebuffer to path (temporary file + rename) and
/// print "murmur: screenshot PATH (WxH)" on stdout, or the error on stderr. True on success.
bool mur_screenshot(const char *path, int width, int height);

#endif
