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
    int64_t flying, perching;
} mur_metric_block;

/// Centre, diameter, polarisation, perching and groups of the current state (grid already built).
void mur_metrics_state(mur_flock *f, const struct mur_step *s, mur_stats *out);
/// The groups of the grid just built (metric cells of view_radius): label[i] = the smallest boid
/// index in boid i's group (room for f->n). Returns the number of groups, -1 without memory.
int32_t mur_metrics_label(mur_flock *f, const struct mur_step *s, int32_t *label);

#endif
