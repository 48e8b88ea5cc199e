/* The program's one signal policy: SIGINT and SIGTERM ask the run to stop at the next safe point
 * (a tick in batch mode, a frame boundary when rendering), so outputs are finished or removed,
 * never left half-written; SIGPIPE is ignored, so a closed pipe or a dead ffmpeg is a write error
 * with a message rather than a silent death. */
#ifndef MUR_APP_SIGNALS_H
#define MUR_APP_SIGNALS_H

/// Install the handlers (idempotent).
void mur_signals_install(void);
/// The stop signal received (SIGINT or SIGTERM), or 0.
int mur_signals_stop(void);

#endif
