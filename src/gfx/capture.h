/* Frame readback and PNG files. */
#ifndef MUR_GFX_CAPTURE_H
#define MUR_GFX_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Read width x height RGBA8 pixels of the bound read framebuffer (rows bottom-up, as GL gives
/// them) into out (width*height*4 bytes). The caller picks the read buffer (GL_BACK, an FBO).
void mur_capture_read(int width, int height, uint8_t *out);

/// Read width x height pixels of the bound read framebuffer and write them as a PNG (zlib level 3)
/// to fp. False + err on failure.
bool mur_capture_png(FILE *fp, int width, int height, char *err, size_t err_len);

/// Encode RGBA8 pixels as a PNG to fp (see mur_png_write). False + err (the reason) on failure.
bool mur_png_encode(FILE *fp, int width, int height, const uint8_t *rgba, bool bottom_up, int level, char *err,
                    size_t err_len);

/// Write RGBA8 pixels as a PNG (colour type RGB, alpha dropped). bottom_up: rows come bottom row
/// first (GL order) and are flipped. Written to a temporary file in the same folder, then renamed,
/// so a reader never sees half a file. level: zlib level 0..9 (1 is fast). False + err on failure.
bool mur_png_write(const char *path, int width, int height, const uint8_t *rgba, bool bottom_up,
                   int level, char *err, size_t err_len);

#endif
