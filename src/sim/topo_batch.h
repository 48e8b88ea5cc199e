/* The part of the topological pass after the searches (topo_batch.c, x86 builds): a batch of boids
 * whose neighbour lists and contacts are known gets its sums and its update 4 boids per SSE vector or
 * 8 per AVX2 vector, with the bits of topo.c's sums() and rules.c's mur_rules_update. */
#ifndef MUR_SIM_TOPO_BATCH_H
#define MUR_SIM_TOPO_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel.h"
#include "rules.h"
#include "topo.h"

struct mur_step;

/// Boids per batch (a multiple of 4).
#define MUR_TOPO_BATCH 8

/// A batch of searched boids: what their sums and updates read. Lane q is the q-th boid searched.
typedef struct mur_topo_batch {
    int nb;
    bool react;                 ///< the reaction time is on (react.h): fresh lanes keep their sums
    bool held[MUR_TOPO_BATCH];  ///< the boid holds its sums (react.h; n and nh are 0)
    bool carry;                 ///< the pass keeps the new states in the carried order (carry.h)
    int32_t i[MUR_TOPO_BATCH];  ///< boid index
    int32_t k[MUR_TOPO_BATCH];  ///< and its sorted slot
    int32_t n[MUR_TOPO_BATCH];  ///< neighbours in the list
    boid_in b[MUR_TOPO_BATCH];  ///< state the search saw (vlen unused)
    float d2[MUR_TOPO_MAX][MUR_TOPO_BATCH];      ///< the lists, ascending: squared distance
    int32_t slot[MUR_TOPO_MAX][MUR_TOPO_BATCH];  ///< and sorted slot
    int32_t nh[MUR_TOPO_BATCH]; ///< hard-sphere contacts (x86: hd2, hidx, hslot; else c, has_c)
    float hd2[MUR_TOPO_CONTACTS][MUR_TOPO_BATCH];
    int32_t hidx[MUR_TOPO_CONTACTS][MUR_TOPO_BATCH], hslot[MUR_TOPO_CONTACTS][MUR_TOPO_BATCH];
    bool has_c[MUR_TOPO_BATCH]; ///< contacts found (c applies)
    mur_contact c[MUR_TOPO_BATCH];
} mur_topo_batch;

#ifdef MUR_X86_PATHS
/// The contacts (topo.c contacts()), sums (sums()) and update (mur_rules_update) of every boid of the
/// batch, the same bits: true when done; false where the update has a term the batch leaves to
/// mur_rules_update (predators, plane mode): then B->c[q], B->has_c[q] and out[q] hold
/// the contacts and the sums of boid q for it.
bool mur_topo_batch_run(mur_flock *f, const struct mur_step *s, mur_topo_batch *B, acc *out);
/// mur_topo_batch_run 8 boids per AVX2 vector (topo_batch_avx2.c; only on CPUs with AVX2): the same bits.
bool mur_topo_batch_run_avx2(mur_flock *f, const struct mur_step *s, mur_topo_batch *B, acc *out);
#endif

/// The contacts, sums and updates of the batch (mur_topo_batch_run where it does them, else
/// mur_rules_update of each boid with B->c, B->has_c and out, which the caller filled on builds
/// without the x86 paths); empties the batch.
void mur_topo_batch_flush(mur_flock *f, const struct mur_step *s, mur_topo_batch *B, acc *out);

#endif
