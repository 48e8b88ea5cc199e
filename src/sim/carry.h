/* The carried cell order (grid_carry.c): a large topological flock's state after the pass, in the
 * pass's slot order, so that the next grid build reads it streaming instead of by boid index.
 * Only the speed depends on it, never a result. Not installed. */
#ifndef MUR_SIM_CARRY_H
#define MUR_SIM_CARRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flock_impl.h"

struct mur_step;

/// Boids from which the carried order is used (the build's default; mur_carry_set overrides). Off
/// (INT32_MAX): measured, it paid at no size: at 100k its grid build is 1.4-1.8x the build by index
/// and the tick's CPU time 0.98-1.02x; at 1M the tick's CPU time 1.03x forming and 0.99x settled, and
/// its 44 bytes a boid more raise the simulated misses past a 32 MiB cache 1.39x (docs/performance.md,
/// branch speed11). Exact (tests/test_carry.c), so a build may switch it on with -DMUR_CARRY_MIN=N.
#ifndef MUR_CARRY_MIN
#define MUR_CARRY_MIN INT32_MAX
#endif

/// Tests and tools: 1 always, -1 never, 0 from MUR_CARRY_MIN boids.
void mur_carry_set(mur_flock *f, int mode);
/// The topological pass of this step writes the carry (allocating it when first used): a moving
/// topological step without the falcon's escape, the reaction time's held rows or the lists.
bool mur_carry_wanted(mur_flock *f, const struct mur_step *s);
/// The carry holds the current state (nothing changed it since the pass that wrote it), with the
/// rolls when `roll`.
bool mur_carry_usable(const mur_flock *f, bool roll);
/// The state changed outside the pass (the API's setters, a count change, a preset switch).
static inline void mur_carry_drop(mur_flock *f) { f->carry_valid = false; }
/// Free the carry's rows; their bytes.
void mur_carry_free(mur_flock *f);
size_t mur_carry_bytes(const mur_flock *f);

/// The grid build from the carry (grid.c, inside its parallel region): each carried slot's cell in
/// [p0, p1) into cellof (by carried slot); then, on one thread, order[] and prev[] by counting sort
/// (cells counted already); then per thread the cells [c0, c1) put in boid index order (the order the
/// build from the state by index gives: the same slots, the same bits); then the slots [s0, s1) filled.
void mur_carry_cells(mur_flock *f, int32_t p0, int32_t p1);
void mur_carry_scatter(mur_flock *f);
void mur_carry_sort_cells(mur_flock *f, int64_t c0, int64_t c1);
void mur_carry_fill(mur_flock *f, int32_t s0, int32_t s1, bool perched, bool roll);
/// The first search radii kept by carried slot (chint) back into topo_hint by boid index.
void mur_carry_hints_back(mur_flock *f);
/// Tests: compare the carry with the state by index; the slots that differ (also counted in
/// f->carry_mismatch).
int64_t mur_carry_verify(mur_flock *f);

/// The pass keeps boid i, at sorted slot k, after its update (or unmoved: perched): its new state,
/// read back from its rows (hot), into the carry at k.
static inline void mur_carry_keep(mur_flock *f, int32_t i, int32_t k)
{
    const float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
    f->cx[k] = p[0];
    f->cy[k] = p[1];
    f->cz[k] = p[2];
    f->cvx[k] = v[0];
    f->cvy[k] = v[1];
    f->cvz[k] = v[2];
    if (f->carry_roll)
        f->croll[k] = f->roll[i];
    f->corder[k] = i;
}

#endif
