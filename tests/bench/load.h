/* murmur-bench's background load (--background-load): busy child processes beside the benchmark,
 * stopped on exit, on SIGINT/SIGTERM/SIGHUP/SIGQUIT and (through PR_SET_PDEATHSIG) when the bench dies. */
#ifndef MUR_BENCH_LOAD_H
#define MUR_BENCH_LOAD_H

#include <stdbool.h>

/// Start n busy loops; false (all stopped again) when a fork fails.
bool load_start(int n);
/// The 1-minute load average (NAN when /proc is missing).
double loadavg(void);

#endif
