/* The boid rules of one tick (rules.c): per-tick constants derived from the def, the per-boid
 * steering, and the pass over every cell that runs the neighbour kernel and the rules. */
#ifndef MUR_SIM_RULES_H
#define MUR_SIM_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

struct mur_step;

/// The rules' per-tick constants (everything else is read from the def).
typedef struct mur_rule_k {
    float r2, sr2;    ///< view and separation radius squared
    float cos_half;   ///< cos(view_angle / 2)
    bool cone;        ///< view_angle < 360
    float cohesion;   ///< cohesion weight, negated while scatter is on
    float pr2;        ///< predator radius squared
} mur_rule_k;

/// Derive the constants from the def.
void mur_rules_prepare(const mur_flock_def *d, mur_rule_k *k);

/// Neighbour and kernel totals of one pass.
typedef struct mur_pass_sums {
    int64_t neighbours;   ///< neighbours counted (metrics)
    int64_t with_nn;      ///< flying boids with a neighbour (metrics)
    double nn_sum;        ///< sum of their nearest-neighbour distances (metrics)
    int64_t candidates;   ///< candidates tested
    double own_core;      ///< least share of the pass's wall time one of its threads ran (cores.h)
} mur_pass_sums;

/// Most work items of the rules pass for cap boids (sizes the per-item metric sums).
int64_t mur_rules_max_items(int32_t cap);
/// One pass over every cell: with s->move, the tick's rules; with s->metrics, neighbour counts and
/// nearest-neighbour sums of the state before the move.
void mur_rules_pass(mur_flock *f, const struct mur_step *s, mur_pass_sums *out);

#endif
