/* Screenshots (see screenshot.h). */
#include "screenshot.h"

#include <stdio.h>

#include "capture.h"

bool mur_screenshot(const char *path, int width, int height)
{
    char err[1200];
    if (!mur_capture_png(path, width, height, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return false;
    }
    printf("murmur: screenshot %s (%dx%d)\n", path, width, height);
    fflush(stdout);
    return true;
}
