/* Screen-space text (stb_easy_font) and translucent panels, batched into one draw per frame. */
#ifndef MUR_GFX_HUD_H
#define MUR_GFX_HUD_H

#include <stdint.h>

typedef struct mur_hud mur_hud;

/// NULL on failure (reason printed). Needs a current GL context.
mur_hud *mur_hud_create(void);
void mur_hud_destroy(mur_hud *h);
/// Start a frame of width x height pixels; text is drawn `scale` times the font's native size.
void mur_hud_begin(mur_hud *h, int width, int height, float scale);
/// Queue text at (x, y) pixels from the top-left; '\n' starts a new line. Returns the width drawn.
float mur_hud_text(mur_hud *h, float x, float y, const char *text, const uint8_t rgba[4]);
/// Width in pixels of the widest line of text at the current scale; the line height.
float mur_hud_text_width(const mur_hud *h, const char *text);
float mur_hud_line_height(const mur_hud *h);
/// Queue a filled rectangle.
void mur_hud_rect(mur_hud *h, float x, float y, float w, float hgt, const uint8_t rgba[4]);
/// Draw everything queued (blended over the bound framebuffer, no depth test).
void mur_hud_end(mur_hud *h);

#endif
