/* Topological neighbours (topo.c, docs/murmuration-model.md): each boid uses its topo_k nearest
 * visible neighbours, found on the uniform grid by rings of cells that grow until the k nearest are
 * certain. Ordered by (distance^2, boid index), so the neighbours and every sum over them are the
 * same whatever the grid, the thread count or the kernel path. */
#ifndef MUR_SIM_TOPO_H
#define MUR_SIM_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "flock_impl.h"
#include "rules.h"

struct mur_step;

/// Most neighbours in a list: floor(20) + 1.
#define MUR_TOPO_MAX 21
/// Boids per grid cell the topological search asks the grid for.
#define MUR_TOPO_CELL_BOIDS 2.0f

/// One neighbour: squared distance, boid index, sorted slot.
typedef struct mur_topo_nb {
    float d2;
    int32_t idx, slot;
} mur_topo_nb;

/// Neighbours used: k = floor(topo_k), plus one when topo_k has a fractional part.
int mur_topo_list_size(const mur_flock_def *d);

/// The list of the boid in sorted slot k (grid built): its nearest visible neighbours within
/// view_radius, ascending by (d2, index), at most mur_topo_list_size(); returns the count.
int mur_topo_find(const mur_flock *f, const struct mur_step *s, int32_t k, mur_topo_nb *out);

/// Hard-sphere contacts kept per boid.
#define MUR_TOPO_CONTACTS 4

/// The hard-sphere contacts of the boid in sorted slot k (grid built, hard_radius > 0): the
/// MUR_TOPO_CONTACTS nearest others in any direction closer than min(hard_radius + 2 max_speed dt,
/// view_radius), ascending by (d2, index), from the same search as mur_topo_find; returns the count.
int mur_topo_find_contacts(const mur_flock *f, const struct mur_step *s, int32_t k, mur_topo_nb *out);

/// Switch the neighbour lists with a skin on or off (topo.c "lists"; off by default, unless the
/// library is built with -DMUR_TOPO_LISTS=1): only the speed changes, never a result. Off, every boid
/// is searched each pass.
void mur_topo_lists_set(mur_flock *f, bool on);
/// The lists' memory, bytes (0 until first used).
size_t mur_topo_lists_bytes(const mur_flock *f);
/// Release the lists' memory (mur_flock_destroy).
void mur_topo_lists_free(mur_flock *f);

/// The tick's rules pass in topological mode (same contract as mur_rules_pass).
void mur_topo_pass(mur_flock *f, const struct mur_step *s, mur_pass_sums *out);

#endif
