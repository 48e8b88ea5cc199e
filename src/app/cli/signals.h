/* The program's one signal policy: SIGINT, SIGTERM and SIGHUP ask the run to stop at the next safe
 * point (after the tick in progress in batch mode, at a frame boundary when rendering); the run then
 * writes its outputs as they stand and exits 128 + the signal's number. A second such signal stops at
 * once, removing the temporary files and writing nothing. SIGPIPE is ignored, so a closed pipe or a
 * dead ffmpeg is a write error with a message rather than a silent death; SIGXFSZ too, so a file
 * over the size limit is a write error (EFBIG) whose temporary file is removed. */
#ifndef MUR_APP_SIGNALS_H
#define MUR_APP_SIGNALS_H

/// Install the handlers (idempotent).
void mur_signals_install(void);
/// The stop signal received (SIGINT, SIGTERM or SIGHUP), or 0.
int mur_signals_stop(void);
/// "SIGINT", "SIGTERM", "SIGHUP" (else "a signal").
const char *mur_signal_name(int sig);

#endif
