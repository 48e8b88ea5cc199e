/* The viewer's one message line: what an action did or why it could not, shown in the HUD for a few
 * seconds and, in scripted runs (--frames), echoed on stdout with the frame whose inputs are being
 * applied. Every file of the viewer room may write it; it calls no one (only the C library). The
 * loop (viewer.c) tells it the time and the frame; the HUD (viewer_hud.c) reads it. */
#ifndef MUR_APP_MSG_H
#define MUR_APP_MSG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mur_msg_line {
    char text[200];   ///< the last message
    double until;     ///< shown while the clock is before this, s
    double now;       ///< the viewer's animation clock, s (mur_msg_clock)
    int64_t frame;    ///< the frame (1-based, as in --keys) whose inputs are being applied
    bool echo;        ///< scripted run: also print each message on stdout
} mur_msg_line;

/// Start empty; echo: print each message on stdout too.
void mur_msg_init(mur_msg_line *m, bool echo);
/// The loop's clock and the frame whose inputs are applied, for the messages that follow.
void mur_msg_clock(mur_msg_line *m, double now, int64_t frame);
/// Show a message for 3 s (printf format).
void mur_msg(mur_msg_line *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/// The message while it is shown, else NULL.
const char *mur_msg_shown(const mur_msg_line *m);

#endif
