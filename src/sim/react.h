/* The reaction time (react.c, docs/rules.md "Reaction time"): with reaction_ticks R > 1 a boid re-reads
 * its topological neighbours and recomputes its social steering only on the ticks where
 * (tick + phase) % R == 0, its phase a hash of (seed, boid index) kept in a byte per boid (computed when
 * the rows grow or R or the seed changes), and holds the sums of that reading
 * in between. The hold is per boid, so the result is the same on any thread count and vector path. */
#ifndef MUR_SIM_REACT_H
#define MUR_SIM_REACT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "flock_impl.h"
#include "kernel.h"

/// Floats held per boid: the 15 of acc and the list's length.
#define MUR_REACT_FLOATS 16

/// Make the held rows cover f->n boids (new rows hold nothing) and the phases those of d's R and seed;
/// false when out of memory.
bool mur_react_reserve(mur_flock *f, const mur_flock_def *d);
/// Forget every boid's held steering (the clock or the state was set), or boid i's (i >= 0).
void mur_react_forget(mur_flock *f, int32_t i);
/// Release the rows (mur_flock_destroy).
void mur_react_free(mur_flock *f);
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

/// Keep boid i's reading (its sums and list length) of this tick.
static inline void mur_react_keep(mur_flock *f, int32_t i, const acc *a, int n)
{
    float *r = f->react + (size_t)MUR_REACT_FLOATS * (size_t)i;
    memcpy(r, a, sizeof *a);
    r[MUR_REACT_FLOATS - 1] = (float)n;
    f->react_at[i] = (uint32_t)f->tick + 1u;
}

/// Boid i's held sums; returns the held list's length.
static inline int mur_react_held(const mur_flock *f, int32_t i, acc *a)
{
    const float *r = f->react + (size_t)MUR_REACT_FLOATS * (size_t)i;
    memcpy(a, r, sizeof *a);
    return (int)r[MUR_REACT_FLOATS - 1];
}

#endif
