/* The program's one clock: monotonic seconds, for frame timing, budgets, progress and summaries. */
#ifndef MUR_APP_CLOCK_H
#define MUR_APP_CLOCK_H

/// Seconds on the monotonic clock (an arbitrary origin: use differences).
double mur_clock_s(void);

#endif
