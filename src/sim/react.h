/* The reaction time (react.c, docs/rules.md "Reaction time"): with reaction_ticks R > 1 a boid re-reads
 * its topological neighbours only on the ticks where (tick + phase) % R == 0, its phase a hash of
 * (seed, boid index) kept in a byte per boid, and in between holds either the social steering of that
 * reading (reaction_hold=sums: its sums) or only the reading's list (reaction_hold=list: the k boid
 * indices, whose current state gives the sums every tick, topo.c). The hold is per boid, so the result
 * is the same on any thread count and vector path. */
#ifndef MUR_SIM_REACT_H
#define MUR_SIM_REACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flock_impl.h"
#include "kernel.h"

/// Floats held per boid with reaction_hold=sums: the first 18 of acc (all but lone_pull's closest offset, which
/// needs reaction_ticks=1) and the list's length.
#define MUR_REACT_FLOATS 19

/// Make the held rows of d's mode cover f->n boids (new rows hold nothing; a new mode, list length,
/// R or seed forgets every boid's); false when out of memory.
bool mur_react_reserve(mur_flock *f, const mur_flock_def *d);
/// Forget every boid's held reading (the clock or the state was set), or boid i's (i >= 0).
void mur_react_forget(mur_flock *f, int32_t i);
/// Release the rows (mur_flock_destroy).
void mur_react_free(mur_flock *f);
/// Bytes of the held rows (mur_flock_bytes).
size_t mur_react_bytes(const mur_flock *f);
/// Boid i's phase in [0, R).
uint32_t mur_react_phase(uint64_t seed, int32_t i, int32_t R);

/// Whether boid i reads its neighbours this tick (R > 1, rows reserved): its phase tick, or it holds
/// no reading of the last R ticks.
static inline bool mur_react_fresh(const mur_flock *f, int32_t i, int32_t R)
{
    const uint32_t at = f->react_at[i], now = (uint32_t)f->tick;
    if (at == 0 || (uint32_t)(now - (at - 1u)) >= (uint32_t)R)
        return true;
    return (f->tick + f->react_phase[i]) % (uint64_t)R == 0;
}

/// Keep boid i's reading (its sums and list length) of this tick (reaction_hold=sums).
static inline void mur_react_keep(mur_flock *f, int32_t i, const acc *a, int n)
{
    float *r = f->react + (size_t)MUR_REACT_FLOATS * (size_t)i;
    memcpy(r, a, offsetof(acc, kx));
    r[MUR_REACT_FLOATS - 1] = (float)n;
    f->react_at[i] = (uint32_t)f->tick + 1u;
}

/// Boid i's held sums; returns the held list's length (reaction_hold=sums).
static inline int mur_react_held(const mur_flock *f, int32_t i, acc *a)
{
    const float *r = f->react + (size_t)MUR_REACT_FLOATS * (size_t)i;
    memcpy(a, r, offsetof(acc, kx));
    a->kx = a->ky = a->kz = 0.0f; /* lone_pull's, never held (it needs reaction_ticks=1) */
    return (int)r[MUR_REACT_FLOATS - 1];
}

/// Keep boid i's list of this tick (reaction_hold=list): the boid indices in the low 32 bits of the
/// search's keys key[0..n-1], n at most the list length.
static inline void mur_react_keep_list(mur_flock *f, int32_t i, const uint64_t *key, int n)
{
    int32_t *r = f->react_idx + (size_t)f->react_len * (size_t)i;
    for (int q = 0; q < n; q++)
        r[q] = (int32_t)(uint32_t)key[q];
    f->react_n[i] = (uint8_t)n;
    f->react_at[i] = (uint32_t)f->tick + 1u;
}

/// Boid i's held list (reaction_hold=list): its length, the indices at *idx.
static inline int mur_react_list(const mur_flock *f, int32_t i, const int32_t **idx)
{
    *idx = f->react_idx + (size_t)f->react_len * (size_t)i;
    return f->react_n[i];
}

/// The sorted slot of every boid this tick (reaction_hold=list), or NULL when the grid build did not
/// write them (then every boid reads its neighbours).
static inline const int32_t *mur_react_slots(const mur_flock *f)
{
    if (f->tl_slots_written)
        return f->slotof; /* the topological lists' (topo_lists.c) */
    return f->react_slots_written ? f->react_slot : NULL;
}

#endif
