/* The held neighbour readings of the reaction time (react.h). */
#include <stdlib.h>

#include "react.h"

#include "core.h"
#include "topo.h"

_Static_assert(offsetof(acc, kx) == (MUR_REACT_FLOATS - 1) * sizeof(float), "acc is 18 floats before lone_pull's offset");

/* Grow *p to cap rows of size bytes (false when out of memory; *p kept). */
static bool grow(void **p, size_t size, int32_t cap)
{
    void *q = realloc(*p, size * (size_t)cap);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* The phases of boids [from, to): a byte each, once per boid, not per boid and tick. */
static void set_phases(mur_flock *f, const mur_flock_def *d, int32_t from, int32_t to)
{
    for (int32_t i = from; i < to; i++)
        f->react_phase[i] = (uint8_t)mur_react_phase(d->seed, i, d->reaction_ticks);
}

/* Release the rows of the mode not in use. */
static void drop_other(mur_flock *f, bool list)
{
    if (list) {
        free(f->react);
        f->react = NULL;
    } else {
        free(f->react_idx);
        free(f->react_n);
        free(f->react_slot);
        f->react_idx = NULL;
        f->react_n = NULL;
        f->react_slot = NULL;
        f->react_len = 0;
        f->react_slots = false;
        f->react_slots_written = false;
    }
}

bool mur_react_reserve(mur_flock *f, const mur_flock_def *d)
{
    const bool list = d->reaction_hold == MUR_HOLD_LIST;
    const int len = list ? mur_topo_list_size(d) : 0;
    const int32_t R = d->reaction_ticks;
    /* a new mode or list length: every held reading forgotten (a new R or seed only moves the phases) */
    const bool forget = f->react_at && (list != f->react_list || len != f->react_len);
    if (f->react_cap < f->n || forget) {
        const int32_t cap = f->n > f->cap ? f->n : f->cap, old = forget ? 0 : f->react_cap;
        drop_other(f, list);
        bool ok = grow((void **)&f->react_at, sizeof(uint32_t), cap) && grow((void **)&f->react_phase, 1, cap);
        if (list)
            ok = ok && grow((void **)&f->react_idx, sizeof(int32_t) * (size_t)len, cap) &&
                 grow((void **)&f->react_n, 1, cap) && grow((void **)&f->react_slot, sizeof(int32_t), cap);
        else
            ok = ok && grow((void **)&f->react, MUR_REACT_FLOATS * sizeof(float), cap);
        if (!ok) {
            f->react_cap = 0; /* every row forgotten: grown again on the next call */
            return false;
        }
        memset(f->react_at + old, 0, sizeof(uint32_t) * (size_t)(cap - old));
        if (list)
            memset(f->react_n + old, 0, (size_t)(cap - old)); /* read ahead of use (topo.c react_prefetch) */
        set_phases(f, d, old, cap);
        f->react_cap = cap;
        f->react_list = list;
        f->react_len = len;
        f->react_slots_written = false; /* rows of the old size */
    } else if (R != f->react_phase_r || d->seed != f->react_phase_seed) {
        set_phases(f, d, 0, f->react_cap);
    }
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
    drop_other(f, true);
    drop_other(f, false);
    free(f->react_at);
    free(f->react_phase);
    f->react_at = NULL;
    f->react_phase = NULL;
    f->react_cap = 0;
    f->react_list = false;
}

size_t mur_react_bytes(const mur_flock *f)
{
    if (!f->react_at)
        return 0;
    const size_t per = sizeof(uint32_t) + 1 + /* react_at, react_phase */
                       (f->react ? MUR_REACT_FLOATS * sizeof(float) : 0) +
                       (f->react_idx ? sizeof(int32_t) * (size_t)f->react_len + 1 + sizeof(int32_t) : 0);
    return per * (size_t)f->react_cap;
}

uint32_t mur_react_phase(uint64_t seed, int32_t i, int32_t R)
{
    /* its own stream: a tick number no run reaches */
    const uint32_t p = (uint32_t)(mur_hash_unit(seed, 0x72656163ULL << 32, (uint64_t)i) * (float)R);
    return p < (uint32_t)R ? p : (uint32_t)R - 1u;
}
