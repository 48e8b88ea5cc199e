/* The held social steering of the reaction time (react.h). */
#include <stdlib.h>

#include "react.h"

#include "core.h"

_Static_assert(sizeof(acc) == (MUR_REACT_FLOATS - 1) * sizeof(float), "acc is 15 floats");

bool mur_react_reserve(mur_flock *f, const mur_flock_def *d)
{
    const int32_t R = d->reaction_ticks;
    if (f->react && f->react_cap >= f->n) {
        if (R != f->react_phase_r || d->seed != f->react_phase_seed)
            for (int32_t i = 0; i < f->react_cap; i++)
                f->react_phase[i] = (uint8_t)mur_react_phase(d->seed, i, R);
        f->react_phase_r = R;
        f->react_phase_seed = d->seed;
        return true;
    }
    const int32_t cap = f->n > f->cap ? f->n : f->cap;
    float *r = realloc(f->react, (size_t)MUR_REACT_FLOATS * sizeof(float) * (size_t)cap);
    if (!r)
        return false;
    f->react = r;
    uint32_t *at = realloc(f->react_at, sizeof(uint32_t) * (size_t)cap);
    if (!at)
        return false;
    f->react_at = at;
    uint8_t *ph = realloc(f->react_phase, (size_t)cap);
    if (!ph)
        return false;
    f->react_phase = ph;
    const bool same = R == f->react_phase_r && d->seed == f->react_phase_seed;
    const int32_t old = f->react_cap;
    memset(at + old, 0, sizeof(uint32_t) * (size_t)(cap - old));
    for (int32_t i = same ? old : 0; i < cap; i++) /* the phases: once per boid, not per boid and tick */
        ph[i] = (uint8_t)mur_react_phase(d->seed, i, R);
    f->react_cap = cap;
    f->react_phase_r = R;
    f->react_phase_seed = d->seed;
    return true;
}

void mur_react_forget(mur_flock *f, int32_t i)
{
    if (!f->react_at)
        return;
    if (i >= 0) {
        if (i < f->react_cap)
            f->react_at[i] = 0;
        return;
    }
    memset(f->react_at, 0, sizeof(uint32_t) * (size_t)f->react_cap);
}

void mur_react_free(mur_flock *f)
{
    free(f->react);
    free(f->react_at);
    free(f->react_phase);
    f->react = NULL;
    f->react_at = NULL;
    f->react_phase = NULL;
    f->react_cap = 0;
}

uint32_t mur_react_phase(uint64_t seed, int32_t i, int32_t R)
{
    /* its own stream: a tick number no run reaches */
    const uint32_t p = (uint32_t)(mur_hash_unit(seed, 0x72656163ULL << 32, (uint64_t)i) * (float)R);
    return p < (uint32_t)R ? p : (uint32_t)R - 1u;
}
