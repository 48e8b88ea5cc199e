/* What a run will cost, said before it starts: the library's memory for the boid count (refused
 * when more than the machine has free, unless --force), the neighbours a boid will have at this
 * density and the expected time per tick (the model is in docs/performance/rounds.md). */
#ifndef MUR_APP_COST_H
#define MUR_APP_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"

/// Free memory for this process, bytes: the smaller of /proc/meminfo MemAvailable and what the
/// address-space limit (RLIMIT_AS, `ulimit -v`) leaves above the process's current size. *limit
/// names the one that binds. UINT64_MAX when neither is known.
uint64_t mur_free_memory(const char **limit);
/// Mean neighbours per boid of def's boids spread evenly over its (resolved) box: density x the view
/// cone's volume, less what the walls cut off (not for wrap).
double mur_expected_neighbours(const mur_flock_def *def);
/// Expected seconds per tick for def's boids on `threads` threads, from the measured cost per
/// boid-tick at mur_expected_neighbours (docs/performance/rounds.md).
double mur_expected_tick_s(const mur_flock_def *def, int threads);
/// Before creating the flock: false after printing one line naming both numbers when the library
/// memory for cli->def exceeds the free memory (and no --force).
bool mur_cost_memory_ok(const mur_cli *cli);
/// Before a batch run of def's flock on `threads` threads (0 = all cores), before the flock is created
/// (after, with --init): the one cost line (memory, neighbours, time per tick and for the run) on
/// stderr, when stderr is a terminal and not --quiet (off a terminal stderr keeps its one summary or
/// error line).
void mur_cost_announce(const mur_cli *cli, const mur_flock_def *def, int threads);

#endif
