/* The one progress line of the program (batch runs and recordings): on stderr, only when stderr is a
 * terminal, redrawn in place at most four times a second, finished with a newline or cleared. */
#ifndef MUR_APP_PROGRESS_H
#define MUR_APP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/// Seconds between two redraws (at most four a second).
#define MUR_PROGRESS_PERIOD 0.25

typedef struct mur_progress {
    bool on;      ///< wanted and stderr is a terminal
    bool shown;   ///< a line is on the screen
    double t0;    ///< start, mur_clock_s
    double last;  ///< last redraw, mur_clock_s
} mur_progress;

/// Start the clock; the line shows only when wanted and stderr is a terminal.
void mur_progress_init(mur_progress *p, bool wanted);
/// True when a redraw is due now (on, and MUR_PROGRESS_PERIOD since the start or the last redraw).
bool mur_progress_due(const mur_progress *p);
/// Redraw the line with printf-style text (nothing when off).
void mur_progress_show(mur_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/// End the line: keep leaves it on the screen with a newline, else it is erased. Nothing when none shows.
void mur_progress_end(mur_progress *p, bool keep);
/// "ETA 42 s", "ETA 12 min 05 s", "ETA 3 h 20 min" for a remaining time in seconds ("ETA ?" if unknown).
void mur_progress_eta(double seconds, char *buf, size_t len);
/// A rate with an SI prefix: "812 k", "2.31 M" (per second; the caller adds the unit).
void mur_progress_rate(double per_s, char *buf, size_t len);

#endif
