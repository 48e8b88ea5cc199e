/* murmur-bench's shared driver (bench_run.c): the options, a row's result, the timed run of one scenario
 * at one size and thread count, and the row printers; each scenario's flock and rows in its own file:
 * bench_uniform.c (uniform, flock), bench_crowd.c (coincident, crowded), bench_starling.c (the starling
 * groups), bench_falcon.c (the falcon pairs); bench.c: the command line. */
#ifndef MUR_BENCH_H
#define MUR_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "murmur/murmur.h"
#include "state.h"

#define MAX_LIST 32

enum { SC_UNIFORM, SC_FLOCK, SC_COINCIDENT, SC_CROWDED, SC_FORMING, SC_SETTLED, SC_COUNT };
extern const char *const SC_NAME[SC_COUNT];

typedef struct opts {
    bool run[SC_COUNT];
    bool json, metrics;
    int32_t n[MAX_LIST];
    int nn;
    int method[MAX_LIST];
    int nm;
    int threads[MAX_LIST];
    int nt;
    int ticks, warmup, repeats; /* < 0: scenario default */
    int32_t brute_max;
    int nb[MAX_LIST];  /* neighbour modes */
    int nnb;
    bool unwrapped;    /* --bounds none */
    int load;          /* background busy loops */
    bool fixed;        /* --fallback off: always the threads asked for */
    double density;    /* --density: expected neighbours per boid of the uniform scenario */
    double topo_k;     /* --topo-k: topo_k of the topological rows */
    bool starling;     /* starling rows (forming, settled) asked for: groups with a uniform reference */
    const char *cache; /* --cache: folder of the settled states (NULL: the user's cache folder) */
    int32_t settle_base; /* --settle-base: boids settled by simulation; larger states are copies */
    int settle_ticks;  /* --settle-ticks */
    int32_t crowd_max; /* --crowd-max: the starling scenario's crowd rows up to this many boids */
    int reaction_ticks; /* --reaction-ticks: reaction_ticks of the starling-forming and -settled rows */
    bool flight;        /* --flight on: the flight model (flight=on, lift=off, min_speed=0) in those rows */
    int reaction_hold;  /* --reaction-hold: their reaction_hold (0 sums, 1 list) */
    bool no_reference; /* --reference off: starling rows without the uniform step around them (profiles) */
    int spawn_order;   /* --spawn-order: 0 index, 1 cell (the starling rows' boids renumbered along a
                        * Morton curve), 2 shuffle (renumbered at random) */
    bool per_tick;     /* --per-tick: each timed tick's times on stderr */
    int simd;          /* --simd: the kernel path (mur_simd; -1: not given, MURMUR_SIMD or the library's choice) */
} opts;

/* The flock's boids renumbered (bench_order.c; a different flock, the same boids): along a Morton
 * curve of their positions (`cell` true) or at random (false, a fixed seed): what the order of the
 * boids' rows costs the starling tick. */
void bench_renumber(mur_flock *f, bool cell);

typedef struct result {
    double ms_per_tick, mean_neighbours, candidates, bytes_per_boid, grid_ms, metrics_ms, step_ms;
    double threads_used;  /* mean threads the steps ran on (the library drops to 1 on a busy machine) */
    double load;          /* 1-minute load average after the measurement */
    int ticks, threads;
    uint64_t hash;
    double mean_ms;       /* mean of the timed ticks */
    double min_ms, grid_min_ms; /* the fastest timed tick and grid build: the least disturbed on a busy machine */
    double cpu_ms;        /* median CPU time of the process per tick (all threads) */
    double rss_peak, rss; /* resident memory per boid: peak growth over the row, growth at its end */
    int simd;             /* the kernel path the flock ran (mur_flock_simd) */
    int search_simd;      /* the topological search's path (mur_flock_search_simd) */
} result;

/* bench_run.c: the shared driver */
/* The flock onto the path of --simd when given (after mur_env_apply: the option wins over MURMUR_SIMD);
 * a path this CPU or build lacks: the library's one-line error and exit 2. */
void bench_apply_simd(const opts *o, mur_flock *f);
double now_ms(void);
/* CPU time of the process (every thread), ms. */
double cpu_ms(void);
/* The median of v[0..n) (sorts v). */
double median(double *v, size_t n);
/* One measurement: `repeats` fresh flocks, each warmed up and then timed tick by tick. st: the
 * settled state (SC_SETTLED), else NULL. The resident memory is read around the first repeat. */
bool run_one(const opts *o, int sc, int32_t n, int method, int nb, int threads, const bench_settled *st,
             result *r);
/* The fields every JSON row has, without the closing brace. */
void print_json_core(const opts *o, const char *sname, int32_t n, const char *mname, const char *bname,
                     const result *r);
/* The table of the uniform, flock and crowd scenarios asked for in o->run (default_n: no --n given). */
int run_table(const opts *o, bool default_n);

/* bench_uniform.c: the uniform and flock scenarios' flock at n boids */
mur_flock_def uniform_def(const opts *o, int sc, int32_t n, mur_search method, int nb);
/* bench_crowd.c: the coincident and crowded scenarios' flock, and the coincident start (before the
 * warm-up) */
mur_flock_def crowd_def(int sc, int32_t n, mur_search method, int nb);
void crowd_place(mur_flock *f, int sc, int32_t n);
/* bench_starling.c: the starling groups (forming, settled, crowd rows around the uniform step) */
int run_starling(const opts *o);
/* bench_falcon.c: the falcon row (issue 26) */
int run_falcon(const opts *o);

#endif
