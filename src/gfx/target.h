/* An offscreen render target of a fixed size (multisampled colour + depth, resolved into a
 * single-sample framebuffer) and a ring of pixel buffer objects that reads frames back without
 * waiting for the GPU: frame i is read when frame i + ring - 1 has been queued.
 *
 * Used by recordings (window or headless) so the frame is independent of the window and the HUD. */
#ifndef MUR_GFX_TARGET_H
#define MUR_GFX_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mur_target mur_target;

/// Create a width x height target with `samples` MSAA samples (0 or 1 = none). NULL + err on failure.
mur_target *mur_target_create(int width, int height, int samples, char *err, size_t err_len);
void mur_target_destroy(mur_target *t);
int mur_target_width(const mur_target *t);
int mur_target_height(const mur_target *t);
int mur_target_samples(const mur_target *t);

/// Bind the target's draw framebuffer (multisampled when samples > 1) for drawing the scene.
void mur_target_bind(mur_target *t);
/// Resolve the multisampled image into the single-sample one (no-op without MSAA).
void mur_target_resolve(mur_target *t);
/// Blit the resolved image to the default framebuffer, scaled to dst_w x dst_h (window preview).
void mur_target_present(mur_target *t, int dst_w, int dst_h);

/// Bind the resolved image as the read framebuffer (for a one-off glReadPixels, e.g. a screenshot).
void mur_target_bind_read(mur_target *t);
/// Start reading the resolved image into the next PBO of the ring (asynchronous).
void mur_target_read_start(mur_target *t);
/// The oldest frame started and not yet taken, if the ring is full or `drain` is set: maps it and
/// returns its RGBA8 rows (bottom-up), or NULL when nothing is due. Call mur_target_read_done()
/// before the next GL use of the ring.
const uint8_t *mur_target_read_take(mur_target *t, bool drain);
void mur_target_read_done(mur_target *t);

#endif
