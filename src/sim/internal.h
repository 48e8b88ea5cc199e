/* Internal state of a flock. Not installed. */
#ifndef MUR_SIM_INTERNAL_H
#define MUR_SIM_INTERNAL_H

#include <stdarg.h>

#include "murmur/murmur.h"

/// Capacity (candidates) of each thread's gather buffer; a neighbourhood larger than this is
/// scanned in place, run by run.
#define MUR_GATHER_CAP 4096
/// Most columns one gathered segment of a row holds (longer rows are split into segments).
#define MUR_GATHER_COLS 512
/// Floats of slack after the gather buffer and the sorted arrays: vector loads and the fixed-size
/// copies of the gather may run this far past the last valid candidate (masked out, never used).
#define MUR_PAD 32
/// Lanes of the neighbour kernel's sums (fixed, whatever the CPU's vector width: see rules.c).
#define MUR_LANES 16
/// Sorted-slot weight (sw): a flying boid, a perching boid that counts as a neighbour, one that does not.
#define MUR_W_FLYING 2.0f
#define MUR_W_PERCHED 1.0f
/// Most worker threads a flock will use.
#define MUR_MAX_THREADS 64
/// Boids per block of the metric sums.
#define MUR_METRIC_BLOCK 4096
/// Bytes of one metric block sum.
#define MUR_METRIC_BLOCK_BYTES 80

/// A thread's gather buffer: the columns of cells around one row of cells, contiguous, so the
/// neighbourhood of every cell of the row is one slice of it.
typedef struct mur_gather {
    float *x, *y, *z, *vx, *vy, *vz, *w;
    int32_t *col;    ///< MUR_GATHER_COLS + 1 column starts in the buffer
    int32_t *self;   ///< MUR_GATHER_COLS offsets of the row's own cell inside its column
} mur_gather;

/// The uniform grid over the sorted (cell-ordered) boids.
typedef struct mur_grid {
    int32_t dims[3];     ///< cells per axis
    float origin[3];     ///< lower corner, wu
    float inv_cell[3];   ///< 1 / cell size per axis
    float cell[3];       ///< cell size per axis, wu
    int64_t ncells;      ///< dims product
    int64_t cap_cells;   ///< allocated cells
    int32_t want_reach;  ///< 1 forces cells of view_radius (MURMUR_CELL_REACH=1, for measurements)
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

struct mur_flock {
    mur_flock_def def;
    uint64_t tick;
    int32_t n, cap;            ///< boids, allocated boids
    float *pos, *vel;          ///< public state, 3 floats per boid
    int32_t *perch;            ///< remaining perch ticks
    int32_t np, pcap;          ///< predators, allocated predators
    float *ppos, *pvel;        ///< predators, 3 floats each
    float *ptmp;               ///< predators' next state (6 floats each)
    bool pred_on;              ///< runtime predator toggle
    /* scratch, cell-sorted, structure of arrays */
    float *sx, *sy, *sz, *svx, *svy, *svz, *sw;
    int32_t *order;            ///< sorted slot -> boid index
    int32_t *cellof;           ///< boid -> cell during the sort; union-find parents for groups
    mur_grid grid;
    double *item_nn;           ///< per work item: sum of nearest-neighbour distances (metrics)
    int64_t *item_cnt;         ///< per work item: neighbours counted, boids with a neighbour
    void *msum;                ///< metrics block sums (MUR_METRIC_BLOCK boids a block)
    int threads;               ///< 0 = from the environment
    mur_gather gather[MUR_MAX_THREADS];
    bool metrics_every;
    int simd;                  ///< neighbour kernel path: 0 base, 1 AVX2, 2 AVX-512 (rules.c), chosen at create
    mur_stats stats;
};

/* flock.c */
void mur_set_error(mur_error *err, const char *fmt, ...);
uint64_t mur_mix64(uint64_t x);
/// Uniform float in [0, 1) from a counter-based hash of (seed, a, b).
float mur_hash_unit(uint64_t seed, uint64_t a, uint64_t b);
int mur_effective_threads(const mur_flock *f);
double mur_now_ms(void);

/* grid.c */
/// Build the grid and the cell-sorted copies of the state. Returns false only if a buffer is too small
/// (never after create/resize), in which case the brute path is used.
void mur_grid_build(mur_flock *f);
/// Fill the sorted copies in boid order as one cell (brute force).
void mur_grid_build_brute(mur_flock *f);

/* rules.c */
/// Most work items of the rules pass for cap boids (sizes the per-item metric sums).
int64_t mur_rules_max_items(int32_t cap);
/// Choose the neighbour kernel path for this CPU (MURMUR_SIMD=base|avx2|avx512 forces one).
int mur_rules_pick_simd(void);
/// One pass over every cell: with move, the tick's rules; with metrics, neighbour counts and
/// nearest-neighbour sums (of the state before the move) into *neigh and *nn_sum.
void mur_rules_pass(mur_flock *f, bool move, bool metrics, int64_t *neigh, double *nn_sum, int64_t *with_nn,
                    int64_t *cand);
void mur_predators_plan(mur_flock *f);
void mur_predators_commit(mur_flock *f);

/* metrics.c */
/// Centre, diameter, polarisation, perching and groups of the current state (grid already built).
void mur_metrics_state(mur_flock *f, mur_stats *s);

#endif
