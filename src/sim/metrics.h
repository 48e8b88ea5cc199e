/* Flock metrics of the current state (metrics.c). The neighbour counts and nearest-neighbour
 * distances come from the rules pass (rules.c); the CSV columns are in stats.c. */
#ifndef MUR_SIM_METRICS_H
#define MUR_SIM_METRICS_H

#include "murmur/murmur.h"

struct mur_step;

/// The sums of one block of MUR_METRIC_BLOCK boids (mur_metrics_state), added in block order. The
/// flock's allocation table sizes its block buffer by this struct: a new state sum is a field here.
typedef struct mur_metric_block {
    double x, y, z, ux, uy, uz, dist;
    double cxx, cyy, czz, cxy, cxz, cyz; ///< position covariance sums about the centre (thin_tilt)
    int64_t flying, perching, at_limit;
} mur_metric_block;

/// Centre, diameter, polarisation, perching and groups of the current state (grid already built).
void mur_metrics_state(mur_flock *f, const struct mur_step *s, mur_stats *out);
/// The groups of the grid just built (metric cells of view_radius): label[i] = the smallest boid
/// index in boid i's group (room for f->n). Returns the number of groups, -1 without memory.
int32_t mur_metrics_label(mur_flock *f, const struct mur_step *s, int32_t *label);

/* Metrics over time (metrics_track.c, docs/rules.md). */
#define MUR_TRACK_K 7              ///< neighbours compared by the turnover
#define MUR_TRACK_SAMPLES 256      ///< boids sampled for the turnover (every stride-th boid)
#define MUR_TRACK_SECONDS 10.0     ///< turnover window, s
#define MUR_TRACK_TURN_DEG 30.0    ///< a heading change: the mean heading turned this far
#define MUR_SPEED_LIMIT_TOL 0.001  ///< at a speed limit: within this fraction of min or max speed

/// Update the tracked metrics for the flock's current tick and write them into st: mean_unit is the
/// sum of the flying boids' unit velocities (any scale), parent the union-find over sorted slots
/// that count_groups left (find its find). Once per tick; a repeated tick only reports.
void mur_track_measure(mur_flock *f, const struct mur_step *s, const double mean_unit[3],
                       int32_t (*find)(int32_t *, int32_t), int32_t *parent, mur_stats *st);
/// Allocate the tracker for the flock's size now (mur_flock_set_metrics). False without memory.
bool mur_track_reserve(mur_flock *f);
void mur_track_free(mur_flock *f);
size_t mur_track_memory(const mur_flock *f);
/// Bytes the tracker holds for n boids.
size_t mur_track_bytes(int32_t n);
/// The turnover window in ticks for tick length dt: round(10 s / dt), at least 1.
int32_t mur_track_window(float dt);
/// The smallest group counted as a sub-flock by splits and merges: max(3, ceil(n / 100)).
int32_t mur_track_subflock_min(int32_t n);

#endif
