/* Parameter sweeps: `murmur sweep SPEC` runs every combination of a spec's values (parameters x
 * boid counts x seeds) as independent runs across the cores and writes one tidy CSV table, one row
 * per run and sampled tick (docs/sweeps.md). */
#ifndef MUR_APP_SWEEP_H
#define MUR_APP_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "murmur/murmur.h"

/// Most values of one list or range, and most runs of a sweep.
#define MUR_SWEEP_MAX_VALUES 10000
#define MUR_SWEEP_MAX_RUNS 1000000
/// Most varied parameters, fixed settings and metrics.
#define MUR_SWEEP_MAX_VARY 16
#define MUR_SWEEP_MAX_SETS 64

/// One varied parameter: its name and its values as the parameter table writes them back.
typedef struct mur_sweep_vary {
    char name[64];
    char (*values)[64];
    int count;
} mur_sweep_vary;

typedef struct mur_sweep_spec {
    char path[1024];            ///< the spec file
    char folder[1024];          ///< its folder: output paths are relative to it
    char preset[32];            ///< preset = NAME (default the program's, starling)
    char sets[MUR_SWEEP_MAX_SETS][256]; ///< set NAME = VALUE, as "name=value"
    int nsets;
    mur_sweep_vary vary[MUR_SWEEP_MAX_VARY]; ///< vary NAME = values, in spec order (outermost first)
    int nvary;
    int32_t *boids;             ///< boids = list or range (default: the preset's count)
    int nboids;
    uint64_t *seeds;            ///< seeds = list or range (default 1)
    int nseeds;
    int64_t ticks;              ///< ticks = N per run (required)
    int64_t every;              ///< every = N: sample ticks 0, N, 2N, ... and the last (default ticks)
    int metrics[32];            ///< metrics = names: mur_stats column indices (default all but tick, time_s)
    int nmetrics;
    int threads;                ///< threads = T per run (default 1: the runs go in parallel)
    int jobs;                   ///< jobs = J runs at once (default 0: one per core)
    char output[2100];          ///< output = FILE.csv (default: the spec's name with .csv), spec-relative
    char parts[2200];           ///< the folder of the runs' part files: OUTPUT.parts
    char *text;                 ///< the spec's lines (for the table's '#' lines)
    int64_t runs;               ///< the number of runs
} mur_sweep_spec;

/// Read and check a spec: every value, every combination's parameters (mur_def_check). False after
/// printing one line naming the file, line and bad value.
bool mur_sweep_spec_read(const char *path, mur_sweep_spec *s);
void mur_sweep_spec_free(mur_sweep_spec *s);
/// Run index i's def (0 <= i < runs), and its varied values: vary[k].values[idx[k]], boids, seed.
bool mur_sweep_run_def(const mur_sweep_spec *s, int64_t i, mur_flock_def *def, int *idx, int32_t *boids,
                       uint64_t *seed, mur_error *err);

/// `murmur sweep ...` (argv[0] is "sweep"). Returns the exit status.
int mur_sweep_main(int argc, char **argv);

#endif
