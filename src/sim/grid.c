/* Uniform grid: geometry, counting sort of the boids by cell, cell-ordered copies of the hot data. */
#include <math.h>
#include <string.h>

#include "internal.h"

/* Cells are made this much larger than the view radius so that rounding in the position -> cell
 * mapping can never put two boids closer than view_radius more than one cell apart. */
#define CELL_SLACK 1.0001f
#define MAX_DIM 65536

static void bbox(const mur_flock *f, float lo[3], float hi[3])
{
    float x0 = INFINITY, y0 = INFINITY, z0 = INFINITY;
    float x1 = -INFINITY, y1 = -INFINITY, z1 = -INFINITY;
    const float *p = f->pos;
    const int32_t n = f->n;
    int nt = mur_effective_threads(f);
    (void)nt;
    /* min/max are exact, so the result does not depend on how threads split the work */
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min : x0, y0, z0) reduction(max : x1, y1, z1) if (n > 20000)
#endif
    for (int32_t i = 0; i < n; i++) {
        float x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
        x0 = x < x0 ? x : x0;
        y0 = y < y0 ? y : y0;
        z0 = z < z0 ? z : z0;
        x1 = x > x1 ? x : x1;
        y1 = y > y1 ? y : y1;
        z1 = z > z1 ? z : z1;
    }
    lo[0] = x0; lo[1] = y0; lo[2] = z0;
    hi[0] = x1; hi[1] = y1; hi[2] = z1;
}

static void geometry(mur_flock *f)
{
    mur_grid *g = &f->grid;
    const mur_flock_def *d = &f->def;
    float lo[3], hi[3];
    g->wrap = d->bounds == MUR_BOUNDS_WRAP;
    if (g->wrap) {
        memcpy(lo, d->world_min, sizeof lo);
        memcpy(hi, d->world_max, sizeof hi);
    } else {
        bbox(f, lo, hi);
    }
    const double r = (double)d->view_radius * CELL_SLACK;
    double dims[3], ext[3];
    for (int a = 0; a < 3; a++) {
        ext[a] = (double)hi[a] - (double)lo[a];
        double k = floor(ext[a] / r);
        dims[a] = k < 1 ? 1 : (k > MAX_DIM ? MAX_DIM : k);
    }
    /* too many cells for the buffers (a sparse flock or a tiny radius): make cells larger */
    while (dims[0] * dims[1] * dims[2] > (double)g->cap_cells) {
        double s = cbrt(dims[0] * dims[1] * dims[2] / (double)g->cap_cells) * 1.01;
        for (int a = 0; a < 3; a++)
            dims[a] = floor(dims[a] / s) < 1 ? 1 : floor(dims[a] / s);
    }
    g->pairwise_wrap = false;
    for (int a = 0; a < 3; a++) {
        g->dims[a] = (int32_t)dims[a];
        g->origin[a] = lo[a];
        double c = ext[a] / dims[a];
        if (!(c >= r))
            c = r; /* degenerate extent (all boids in one plane) */
        g->cell[a] = (float)c;
        g->inv_cell[a] = (float)(1.0 / c);
        if (g->wrap && g->dims[a] < 3)
            g->pairwise_wrap = true;
    }
    g->ncells = (int64_t)g->dims[0] * g->dims[1] * g->dims[2];
}

static inline int32_t axis_cell(float p, float origin, float inv, int32_t dim)
{
    float t = (p - origin) * inv;
    int32_t c = t > 0.0f ? (int32_t)t : 0;
    return c < dim ? c : dim - 1;
}

/* Copy boid i into sorted slot s. */
static inline void put(mur_flock *f, int32_t s, int32_t i)
{
    const float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
    f->sx[s] = p[0];
    f->sy[s] = p[1];
    f->sz[s] = p[2];
    f->svx[s] = v[0];
    f->svy[s] = v[1];
    f->svz[s] = v[2];
    f->sw[s] = (f->perch[i] == 0 || f->def.perch_neighbours) ? 1.0f : 0.0f;
    f->order[s] = i;
}

void mur_grid_build(mur_flock *f)
{
    mur_grid *g = &f->grid;
    geometry(f);
    const int32_t n = f->n;
    const int32_t dx = g->dims[0], dy = g->dims[1], dz = g->dims[2];
    const float ox = g->origin[0], oy = g->origin[1], oz = g->origin[2];
    const float ix = g->inv_cell[0], iy = g->inv_cell[1], iz = g->inv_cell[2];
    int32_t *cellof = f->cellof;
    const float *p = f->pos;
    int nt = mur_effective_threads(f);
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) if (n > 20000)
#endif
    for (int32_t i = 0; i < n; i++) {
        int32_t cx = axis_cell(p[3 * i], ox, ix, dx);
        int32_t cy = axis_cell(p[3 * i + 1], oy, iy, dy);
        int32_t cz = axis_cell(p[3 * i + 2], oz, iz, dz);
        cellof[i] = cx + dx * (cy + dy * cz);
    }
    /* counting sort, stable: boids keep their index order inside a cell */
    int32_t *start = g->start;
    memset(start, 0, sizeof(int32_t) * (size_t)(g->ncells + 1));
    for (int32_t i = 0; i < n; i++)
        start[cellof[i] + 1]++;
    for (int64_t c = 0; c < g->ncells; c++)
        start[c + 1] += start[c];
    for (int32_t i = 0; i < n; i++)
        put(f, start[cellof[i]]++, i);
    /* start[c] now holds the end of cell c: shift back by one cell */
    memmove(start + 1, start, sizeof(int32_t) * (size_t)g->ncells);
    start[0] = 0;
}

void mur_grid_build_brute(mur_flock *f)
{
    mur_grid *g = &f->grid;
    g->wrap = f->def.bounds == MUR_BOUNDS_WRAP;
    g->pairwise_wrap = g->wrap;
    for (int a = 0; a < 3; a++) {
        g->dims[a] = 1;
        g->origin[a] = 0.0f;
        g->cell[a] = INFINITY;
        g->inv_cell[a] = 0.0f;
    }
    g->ncells = 1;
    g->start[0] = 0;
    g->start[1] = f->n;
    for (int32_t i = 0; i < f->n; i++)
        put(f, i, i);
}
