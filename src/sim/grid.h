/* The uniform grid over the cell-sorted boids (grid.c). */
#ifndef MUR_SIM_GRID_H
#define MUR_SIM_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

struct mur_step;

/// Cells allocated per boid (the topological search's grid: grid.c geometry).
#define MUR_TOPO_CELLS_PER_BOID 2

/// The uniform grid over the sorted (cell-ordered) boids.
typedef struct mur_grid {
    int32_t dims[3];     ///< cells per axis
    float origin[3];     ///< lower corner, wu
    float inv_cell[3];   ///< 1 / cell size per axis
    float cell[3];       ///< cell size per axis, wu
    int64_t ncells;      ///< dims product
    int64_t cap_cells;   ///< allocated cells (the topological search's grid may use them all)
    int64_t cap_metric;  ///< cells a metric grid may use (fewer: its results follow the cell order)
    int32_t want_reach;  ///< cells of view_radius / want_reach (mur_flock_set_cell_reach)
    int32_t reach;       ///< cells scanned on each side of a boid's cell (cell size >= view_radius / reach)
    int32_t *start;      ///< cap_cells + 1 prefix sums: cell c holds sorted [start[c], start[c+1])
    bool wrap;           ///< torus grid (cell shifts of +-L)
    bool pairwise_wrap;  ///< wrap with fewer than 3 cells on an axis: minimum image per pair
} mur_grid;

/* Cells are numbered y fastest, then x, then z, so the cells of one column (fixed x and z, a range
 * of y) are one contiguous slice of the sorted arrays. */
static inline int64_t mur_cell_id(const mur_grid *g, int32_t x, int32_t y, int32_t z)
{
    return y + (int64_t)g->dims[1] * (x + (int64_t)g->dims[0] * z);
}

/// The cell of coordinate p on an axis (origin, 1 / cell size, cells), clamped to the grid.
static inline int32_t mur_axis_cell(float p, float origin, float inv, int32_t dim)
{
    float t = (p - origin) * inv;
    int32_t c = t > 0.0f ? (int32_t)t : 0;
    return c < dim ? c : dim - 1;
}

static inline void mur_cell_xyz(const mur_grid *g, int64_t c, int32_t *x, int32_t *y, int32_t *z)
{
    *y = (int32_t)(c % g->dims[1]);
    *x = (int32_t)((c / g->dims[1]) % g->dims[0]);
    *z = (int32_t)(c / ((int64_t)g->dims[0] * g->dims[1]));
}

/// The cells within reach of coordinate c on axis a, clipped to the grid or wrapped. With `unique`
/// a wrapped cell is listed once and unshifted (pair offsets then use the minimum image); otherwise
/// each carries its image shift, -L or +L, in shift (which may be NULL). Returns the count.
int mur_axis_cells(const mur_grid *g, int a, int32_t c, bool unique, float L, int32_t *ks, float *shift);

/// Build the grid and the cell-sorted copies of the state (counting sort by cell, stable), with the
/// topological pass's copies of the rolls (bank alignment) and of the escapes (falcon) when it runs.
void mur_grid_build(mur_flock *f, const struct mur_step *s);
/// Fill the sorted copies in boid order as one cell (brute force), the same extra copies included.
void mur_grid_build_brute(mur_flock *f, const struct mur_step *s);

#endif
