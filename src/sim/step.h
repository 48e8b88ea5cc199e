/* The context of one tick, built once by the step driver (flock.c) and passed to every part of the
 * tick: grid, predators, metrics, rules. */
#ifndef MUR_SIM_STEP_H
#define MUR_SIM_STEP_H

#include "rules.h"
#include "space.h"

/* Flock sizes from which a stage runs in parallel: below them a parallel region costs more than it
 * saves (measured on the uniform benchmark, docs/performance/rounds.md). */
#define MUR_PAR_MIN_RULES 2000     ///< the rules pass
#define MUR_PAR_MIN_BBOX 20000     ///< the bounding box of an unwrapped grid
#define MUR_PAR_MIN_SORT 50000     ///< the counting sort by cell
#define MUR_PAR_MIN_NEAREST 50000  ///< each predator's nearest flying boid

typedef struct mur_step {
    const mur_flock_def *def;  ///< the def in force, geometry resolved (points at res)
    mur_flock_def res;         ///< mur_def_resolved of the flock's def (world=scale: scaled geometry)
    int threads;               ///< worker threads
    bool move;                 ///< advance the state (false: measure only)
    bool metrics;              ///< compute the metrics of the state the tick starts from
    mur_simd simd;             ///< neighbour kernel path
    mur_simd search_simd;      ///< the topological search's path (topo.c; simd unless chosen by AUTO)
    mur_world world;           ///< wrap lengths, soft bounds
    int32_t np;                ///< acting predators (0 while hidden)
    const float *ppos;         ///< their positions
    mur_rule_k rule;           ///< the rules' constants
    bool starling;             ///< a starling steering term is on (speed_tau, roost, bank)
    bool escape;               ///< the falcon is on: each bird's escape runs with its update (escape.c)
    float cell_boids;          ///< > 0: grid cells sized for this many boids each (topological search)
    bool half_cells;           ///< cells of view_radius / 2 scanned 2 deep whatever the flock's setting
                               ///< (the groups metric of a topological tick: a grid of its own)
} mur_step;

/// Threads for a stage over n items that runs in parallel from min_n items.
static inline int mur_step_threads(const mur_step *s, int64_t n, int64_t min_n)
{
    return n >= min_n ? s->threads : 1;
}

#endif
