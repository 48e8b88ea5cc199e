/* The carried cell order (carry.h; off by default: measured, it did not pay): the grid build of a
 * large topological flock from the state the last pass left in its own slot order. The pass walks the boids in cell order; it keeps each boid's
 * new state at its slot (carry.h mur_carry_keep), and the next build computes the cells, sorts and
 * fills the sorted copies from there: the reads stream (a boid's slot moves little from tick to
 * tick) where the build from the state by boid index reads each boid's rows at random. The slots come
 * out in the same order as that build's (cells in order, boid index order inside a cell), so the
 * sorted copies, and every result, are the same bits. */
#include <stdlib.h>

#include "carry.h"

#include "grid.h"
#include "step.h"

void mur_carry_set(mur_flock *f, int mode) { f->carry_mode = (int8_t)(mode > 0 ? 1 : (mode < 0 ? -1 : 0)); }

static bool carry_reserve(mur_flock *f)
{
    if (f->carry_cap >= f->n)
        return true;
    const int32_t cap = f->cap;
    float **fl[9] = {&f->cx, &f->cy, &f->cz, &f->cvx, &f->cvy, &f->cvz, &f->croll, &f->chint, &f->shint};
    for (int a = 0; a < 9; a++) {
        float *q = realloc(*fl[a], sizeof(float) * ((size_t)cap + 1));
        if (!q)
            return false;
        *fl[a] = q;
    }
    int32_t **in[2] = {&f->corder, &f->cprev};
    for (int a = 0; a < 2; a++) {
        int32_t *q = realloc(*in[a], sizeof(int32_t) * ((size_t)cap + 1));
        if (!q)
            return false;
        *in[a] = q;
    }
    f->carry_cap = cap;
    return true;
}

bool mur_carry_wanted(mur_flock *f, const mur_step *s)
{
    if (!s->move || s->escape || f->def.neighbours != MUR_NEIGHBOURS_TOPOLOGICAL || f->carry_mode < 0)
        return false;
    if (f->carry_mode == 0 && f->n < MUR_CARRY_MIN)
        return false;
    if (f->react_slots || f->tl_slots) /* the held lists and the skin lists keep slots by boid index */
        return false;
    if (!carry_reserve(f)) {
        f->carry_mode = -1; /* out of memory: the build by index, as without it */
        return false;
    }
    return true;
}

bool mur_carry_usable(const mur_flock *f, bool roll)
{
    return f->carry_valid && f->carry_n == f->n && f->carry_tick == f->tick && f->carry_cap >= f->n &&
           (!roll || f->carry_roll) && f->carry_mode >= 0 && !f->react_slots && !f->tl_slots;
}

void mur_carry_free(mur_flock *f)
{
    float **fl[9] = {&f->cx, &f->cy, &f->cz, &f->cvx, &f->cvy, &f->cvz, &f->croll, &f->chint, &f->shint};
    for (int a = 0; a < 9; a++) {
        free(*fl[a]);
        *fl[a] = NULL;
    }
    free(f->corder);
    free(f->cprev);
    f->corder = f->cprev = NULL;
    f->carry_cap = 0;
    f->carry_valid = false;
}

size_t mur_carry_bytes(const mur_flock *f)
{
    return f->carry_cap > 0 ? (9 * sizeof(float) + 2 * sizeof(int32_t)) * ((size_t)f->carry_cap + 1) : 0;
}

void mur_carry_cells(mur_flock *f, int32_t p0, int32_t p1)
{
    const mur_grid *g = &f->grid;
    const int32_t dx = g->dims[0], dy = g->dims[1], dz = g->dims[2];
    const float ox = g->origin[0], oy = g->origin[1], oz = g->origin[2];
    const float ix = g->inv_cell[0], iy = g->inv_cell[1], iz = g->inv_cell[2];
    const float *restrict x = f->cx, *restrict y = f->cy, *restrict z = f->cz;
    int32_t *restrict cellof = f->cellof;
    for (int32_t p = p0; p < p1; p++) {
        const int32_t cx = mur_axis_cell(x[p], ox, ix, dx);
        const int32_t cy = mur_axis_cell(y[p], oy, iy, dy);
        const int32_t cz = mur_axis_cell(z[p], oz, iz, dz);
        cellof[p] = cy + dy * (cx + dx * cz); /* mur_cell_id */
    }
}

void mur_carry_scatter(mur_flock *f)
{
    const int32_t n = f->n;
    const int32_t *restrict cellof = f->cellof, *restrict corder = f->corder;
    int32_t *restrict start = f->grid.start, *restrict order = f->order, *restrict prev = f->cprev;
    f->tl_slots_written = f->react_slots_written = false; /* (neither is on with the carry) */
    for (int32_t p = 0; p < n; p++) {
        const int32_t k = start[cellof[p] + 1]++;
        order[k] = corder[p];
        prev[k] = p;
    }
}

/* Sort the slots [lo, hi) by boid index, carrying prev along: insertion sort (a cell's boids mostly
 * come from one carried cell, already in index order), gapped for a crowded cell (Shell's gaps
 * 3h + 1) so that a cell of thousands stays far from quadratic. */
static void sort_slots(int32_t *restrict order, int32_t *restrict prev, int32_t lo, int32_t hi)
{
    const int32_t m = hi - lo;
    int32_t h = 1;
    if (m > 48)
        while (h < m / 3)
            h = 3 * h + 1;
    for (; h >= 1; h /= 3)
        for (int32_t a = lo + h; a < hi; a++) {
            const int32_t o = order[a], q = prev[a];
            int32_t b = a;
            while (b - h >= lo && order[b - h] > o) {
                order[b] = order[b - h];
                prev[b] = prev[b - h];
                b -= h;
            }
            order[b] = o;
            prev[b] = q;
        }
}

void mur_carry_sort_cells(mur_flock *f, int64_t c0, int64_t c1)
{
    const int32_t *restrict start = f->grid.start;
    int32_t *restrict order = f->order, *restrict prev = f->cprev;
    for (int64_t c = c0; c < c1; c++) {
        const int32_t lo = start[c], hi = start[c + 1];
        bool sorted = true;
        for (int32_t a = lo + 1; a < hi && sorted; a++)
            sorted = order[a - 1] < order[a];
        if (!sorted)
            sort_slots(order, prev, lo, hi);
    }
}

#define PERCH_AHEAD 24

void mur_carry_fill(mur_flock *f, int32_t s0, int32_t s1, bool perched, bool roll)
{
    const int32_t *restrict prev = f->cprev, *restrict order = f->order, *restrict perch = f->perch;
    const float *restrict x = f->cx, *restrict y = f->cy, *restrict z = f->cz;
    const float *restrict vx = f->cvx, *restrict vy = f->cvy, *restrict vz = f->cvz, *restrict r = f->croll;
    float *restrict sx = f->sx, *restrict sy = f->sy, *restrict sz = f->sz;
    float *restrict svx = f->svx, *restrict svy = f->svy, *restrict svz = f->svz, *restrict sw = f->sw;
    float *restrict sr = f->sroll, *restrict sh = f->shint;
    const float *restrict h = f->chint;
    const float wp = f->def.perch_neighbours ? MUR_W_PERCHED : 0.0f;
    for (int32_t s = s0; s < s1; s++) {
        const int32_t p = prev[s];
        sx[s] = x[p];
        sy[s] = y[p];
        sz[s] = z[p];
        svx[s] = vx[p];
        svy[s] = vy[p];
        svz[s] = vz[p];
        if (roll)
            sr[s] = r[p];
        sh[s] = h[p];
        if (perched) { /* the perch timers stay by boid index: read at random, only while some boid perches */
            if (s + PERCH_AHEAD < s1)
                __builtin_prefetch(perch + order[s + PERCH_AHEAD]);
            sw[s] = perch[order[s]] == 0 ? MUR_W_FLYING : wp;
        } else {
            sw[s] = MUR_W_FLYING;
        }
    }
}

void mur_carry_hints_back(mur_flock *f)
{
    const int32_t m = f->carry_n < f->carry_cap ? f->carry_n : f->carry_cap;
    for (int32_t p = 0; p < m; p++) {
        const int32_t i = f->corder[p];
        if (i >= 0 && i < f->n) /* (a count cut since: its boids are gone) */
            f->topo_hint[i] = f->chint[p];
    }
}

int64_t mur_carry_verify(mur_flock *f)
{
    int64_t bad = 0;
    for (int32_t p = 0; p < f->carry_n; p++) {
        const int32_t i = f->corder[p];
        if (i < 0 || i >= f->n) {
            bad++;
            continue;
        }
        const float *q = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
        const float c[6] = {f->cx[p], f->cy[p], f->cz[p], f->cvx[p], f->cvy[p], f->cvz[p]};
        bool same = !memcmp(c, q, 3 * sizeof(float)) && !memcmp(c + 3, v, 3 * sizeof(float));
        if (f->carry_roll)
            same = same && !memcmp(&f->croll[p], &f->roll[i], sizeof(float));
        bad += !same;
    }
    f->carry_mismatch += bad;
    return bad;
}
