/* The boid rules of one tick (rules_boid.c, rules.c): per-tick constants derived from the def, the per-boid
 * steering, and the pass over every cell that runs the neighbour kernel and the rules. */
#ifndef MUR_SIM_RULES_H
#define MUR_SIM_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "flock_impl.h"
#include "murmur/murmur.h"

struct mur_step;

/// The rules' per-tick constants (everything else is read from the def).
typedef struct mur_rule_k {
    float r2, sr2;    ///< view and separation radius squared
    float cos_half;   ///< cos(view_angle / 2)
    bool cone;        ///< view_angle < 360
    float cohesion;   ///< cohesion weight, negated while scatter is on
    float pr2;        ///< predator radius squared
    float max_lat;    ///< banking: largest lateral acceleration per unit speed (max_turn in rad/s)
    float gk, g2w;    ///< ground avoidance: ground_accel / ground_avoid and 2 sqrt(gk) (0 when off)
    float sep_cos;    ///< cos(separation_view / 2)
    bool sep_cone;    ///< separation_view < 360
} mur_rule_k;

/// The boid the neighbour search saw: position, velocity, |v| (for the view cone).
typedef struct boid_in {
    float px, py, pz, vx, vy, vz;
    float vlen;
} boid_in;

/// Hard-sphere corrections of one boid (topological pass): added to the new position and velocity.
typedef struct mur_contact {
    float dp[3], dv[3];
} mur_contact;

struct acc;

/// Steer boid i (state b, neighbour sums s, hard-sphere corrections c or NULL), move it, apply the
/// speed limits, perching and the walls; writes pos, vel, perch and roll of boid i only.
void mur_rules_update(mur_flock *f, const struct mur_step *st, int32_t i, const boid_in *b, const struct acc *s,
                      const mur_contact *c);

/// Boids the rules pass scans before their updates run (one batch for mur_update_batch).
#define MUR_UPDATE_BATCH 32
/// Whether mur_update_batch computes exactly what mur_rules_update does this tick (only the classic
/// terms are on). x86 builds only (rules_batch.c).
bool mur_batch_update_ok(const struct mur_step *st);
/// mur_rules_update (no contacts) of the nb <= MUR_UPDATE_BATCH boids ii[q] (state bb[q], sums ss[q]),
/// 4 at a time, with the same bits. x86 builds only (rules_batch.c).
void mur_update_batch(mur_flock *f, const struct mur_step *st, int nb, const int32_t *ii, const boid_in *bb,
                      const struct acc *ss);

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

/// The sums of one work item of a pass (the rules or the topological pass).
typedef struct mur_item_sums {
    int64_t cnt, with, cand;
    double nn;
} mur_item_sums;

/// Keep the metric sums of work item it for mur_pass_finish, which adds them in item order.
static inline void mur_item_keep(mur_flock *f, int64_t it, const mur_item_sums *S)
{
    f->item_cnt[2 * it] = S->cnt;
    f->item_cnt[2 * it + 1] = S->with;
    f->item_nn[it] = S->nn;
}

/// Most work items of the rules pass for cap boids (sizes the per-item metric sums).
int64_t mur_rules_max_items(int32_t cap);
/// One pass over every cell: with s->move, the tick's rules; with s->metrics, neighbour counts and
/// nearest-neighbour sums of the state before the move.
void mur_rules_pass(mur_flock *f, const struct mur_step *s, mur_pass_sums *out);
/// The end of a pass over `items` work items on nt threads (the rules or the topological pass): the
/// candidates, the least share of its wall time one thread ran (own[k], cores.h) and, with metrics,
/// the per-item sums added in item order, so the same for any thread count.
void mur_pass_finish(const mur_flock *f, int64_t items, bool metrics, int64_t candidates, const double *own,
                     int nt, mur_pass_sums *out);

#endif
