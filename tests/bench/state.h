/* murmur-bench's starling states and memory readings (state.c): the settled flock, made once by
 * simulation at a base size, cached on disk, and tiled up to larger sizes; the process's resident
 * memory from /proc/self/status. */
#ifndef MUR_BENCH_STATE_H
#define MUR_BENCH_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// How a settled state was made.
typedef struct bench_settled {
    float *pos, *vel;   ///< n*3 floats each (free with free())
    int32_t n;          ///< boids
    int32_t base;       ///< boids settled by simulation
    int32_t copies;     ///< copies of the base state tiled side by side (1: the simulated state itself)
    int settle_ticks;   ///< ticks the base state was simulated from the preset's spawn
    bool cached;        ///< the base state came from the cache (no simulation in this run)
    char path[1024];    ///< the cache file
} bench_settled;

/// The starling preset as a user gets it, with boids = n.
mur_flock_def bench_starling_def(int32_t n);

/// A settled starling state of n boids into *s: the preset's spawn of min(n, base_max) boids run
/// settle_ticks ticks (on `threads` threads, 0 = the environment's or all cores) and cached in
/// cache_dir (NULL: $XDG_CACHE_HOME/murmur-bench, else $HOME/.cache/murmur-bench, else no cache),
/// then, for n above that, copies of it side by side (see state.c). False + a message on stderr.
bool bench_settled_state(const char *cache_dir, int32_t n, int32_t base_max, int settle_ticks, int threads,
                         bench_settled *s);

/// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"); -1 when unreadable.
double bench_status_bytes(const char *field);
/// Reset the peak resident size (VmHWM) to the current one (/proc/self/clear_refs, Linux 4.0+).
bool bench_reset_peak(void);

#endif
