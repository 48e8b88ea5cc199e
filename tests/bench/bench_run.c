/* murmur-bench's shared driver (bench.h): the timed run of one scenario at one size and thread count
 * (each repeat a fresh flock; ms_per_tick is the median of all timed ticks, each timed alone; --metrics
 * on: metrics_ms the median of the metrics' own time per tick, step_ms the median of the rest), the
 * rows' JSON and table lines, and the table of the uniform, flock and crowd scenarios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "env.h"
#include "load.h"

const char *const SC_NAME[SC_COUNT] = {"uniform", "flock", "coincident", "crowded", "starling-forming",
                                       "starling-settled"};

double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of the process (every thread), ms. */
double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v). */
double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The flock definition of a scenario at n boids. */
static mur_flock_def scenario_def(const opts *o, int sc, int32_t n, mur_search method, int nb)
{
    if (sc == SC_FORMING || sc == SC_SETTLED) { /* the preset as a user gets it (state.c) */
        mur_flock_def d = bench_starling_def(n);
        d.neighbour_search = method;
        d.reaction_ticks = o->reaction_ticks;
        if (o->flight) { /* the flight model as tuned (docs/murmuration/rounds.md, branch flight9) */
            d.flight = true;
            d.lift = false;
            d.min_speed = 0.0f;
        }
        d.reaction_hold = o->reaction_hold ? MUR_HOLD_LIST : MUR_HOLD_SUMS;
        return d;
    }
    if (sc == SC_COINCIDENT || sc == SC_CROWDED)
        return crowd_def(sc, n, method, nb);
    return uniform_def(o, sc, n, method, nb);
}

/* One measurement: `repeats` fresh flocks, each warmed up and then timed tick by tick. st: the
 * settled state (SC_SETTLED), else NULL. The resident memory is read around the first repeat. */
bool run_one(const opts *o, int sc, int32_t n, int method, int nb, int threads, const bench_settled *st, result *r)
{
    const bool uniform = sc == SC_UNIFORM, crowd = sc == SC_COINCIDENT || sc == SC_CROWDED;
    const bool forming = sc == SC_FORMING, settled = sc == SC_SETTLED;
    mur_flock_def d = scenario_def(o, sc, n, (mur_search)method, nb);
    int warm = o->warmup >= 0 ? o->warmup : (uniform ? 1 : (crowd || forming ? 0 : (settled ? 2 : 500)));
    int ticks = o->ticks > 0 ? o->ticks : (uniform ? 20 : (crowd ? 3 : (forming ? 100 : (settled ? 20 : 500))));
    int reps = o->repeats > 0 ? o->repeats : (uniform ? 3 : 1);
    const bool peak_reset = bench_reset_peak();
    const double rss0 = bench_status_bytes("VmRSS");
    size_t nt = (size_t)ticks * (size_t)reps, k = 0;
    double *t = malloc(4 * nt * sizeof *t);
    if (!t)
        return false;
    double *tm = t + nt, *ts = t + 2 * nt, *tc = t + 3 * nt; /* metrics part, the rest, CPU time */
    double gsum = 0.0, csum = 0.0, usum = 0.0, gmin = INFINITY;
    mur_flock *f = NULL;
    for (int rep = 0; rep < reps; rep++) {
        mur_flock_destroy(f);
        mur_error err;
        f = mur_flock_create(&d, &err);
        if (!f) {
            fprintf(stderr, "murmur-bench: %s\n", err.msg);
            free(t);
            return false;
        }
        if (!mur_env_apply(f, threads > 0, &err)) {
            fprintf(stderr, "murmur-bench: %s\n", err.msg);
            exit(2);
        }
        bench_apply_simd(o, f);
        if (threads > 0)
            mur_flock_set_threads(f, threads);
        r->threads = mur_flock_threads(f);
        r->simd = (int)mur_flock_simd(f);
        r->search_simd = (int)mur_flock_search_simd(f);
        mur_flock_set_thread_fallback(f, !o->fixed);
        mur_flock_set_metrics(f, o->metrics);
        crowd_place(f, sc, n);
        if (settled)
            for (int32_t i = 0; i < n; i++)
                mur_flock_set_boid(f, i, st->pos + 3 * (size_t)i, st->vel + 3 * (size_t)i, 0);
        if ((forming || settled) && o->spawn_order)
            bench_renumber(f, o->spawn_order == 1);
        mur_flock_steps(f, warm);
        for (int i = 0; i < ticks; i++, k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            mur_flock_step(f);
            t[k] = now_ms() - t0;
            tc[k] = cpu_ms() - c0;
            mur_stats s = mur_flock_stats(f);
            gsum += s.grid_ms;
            gmin = fmin(gmin, s.grid_ms);
            tm[k] = s.metrics_ms;
            ts[k] = t[k] - s.metrics_ms;
            csum += s.candidates_per_boid;
            usum += s.threads_used;
            if (o->per_tick)
                fprintf(stderr, "%s n=%d tick %d: ms %.3f cpu_ms %.3f grid_ms %.3f candidates %.1f load %.2f\n",
                        SC_NAME[sc], (int)n, warm + i, t[k], tc[k], s.grid_ms, s.candidates_per_boid, loadavg());
        }
        if (rep == 0) {
            const double hwm = bench_status_bytes("VmHWM"), rss = bench_status_bytes("VmRSS");
            /* the kernel updates VmHWM lazily: it can lag the current VmRSS by a few pages */
            r->rss_peak = peak_reset && hwm >= 0.0 && rss0 >= 0.0 ? (fmax(hwm, rss) - rss0) / (double)n : NAN;
            r->rss = rss >= 0.0 && rss0 >= 0.0 ? (rss - rss0) / (double)n : NAN;
        }
    }
    r->cpu_ms = median(tc, nt);
    r->mean_ms = 0.0;
    for (size_t q = 0; q < nt; q++)
        r->mean_ms += t[q] / (double)nt;
    r->ms_per_tick = median(t, nt);
    r->min_ms = t[0]; /* median() sorted t */
    r->grid_min_ms = gmin;
    r->metrics_ms = median(tm, nt);
    r->step_ms = median(ts, nt);
    r->threads_used = usum / (double)nt;
    r->load = loadavg();
    r->ticks = (int)nt;
    r->grid_ms = gsum / (double)nt;
    r->candidates = csum / (double)nt;
    r->hash = mur_flock_hash(f);
    mur_stats m = mur_flock_measure(f);
    r->mean_neighbours = m.metrics_valid ? m.mean_neighbours : NAN;
    r->bytes_per_boid = (double)mur_flock_memory(f) / (double)n;
    free(t);
    mur_flock_destroy(f);
    return true;
}

void bench_apply_simd(const opts *o, mur_flock *f)
{
    mur_error err;
    if (o->simd >= 0 && !mur_flock_set_simd(f, (mur_simd)o->simd, &err)) {
        fprintf(stderr, "murmur-bench: bad value '%s' for --simd: %s\n", mur_simd_name((mur_simd)o->simd), err.msg);
        exit(2);
    }
}

/* The fields every JSON row has, without the closing brace. */
void print_json_core(const opts *o, const char *sname, int32_t n, const char *mname, const char *bname,
                     const result *r)
{
    double ns = r->ms_per_tick * 1e6 / (double)n;
    printf("{\"scenario\":\"%s\",\"n\":%d,\"method\":\"%s\",\"neighbours\":\"%s\",\"threads\":%d,\"metrics\":%s,"
           "\"ticks\":%d,\"ms_per_tick\":%.6g,\"ns_per_boid_tick\":%.6g,\"mean_neighbours\":%.6g,"
           "\"candidates_per_boid\":%.6g,\"bytes_per_boid\":%.6g,\"grid_ms\":%.6g,"
           "\"metrics_ms\":%.6g,\"step_ms\":%.6g,\"threads_used\":%.4g,\"background_load\":%d,"
           "\"loadavg\":%.3g,\"hash\":\"%016llx\",\"min_ms_per_tick\":%.6g,\"grid_ms_min\":%.6g,\"simd\":\"%s\","
           "\"search_simd\":\"%s\"",
           sname, (int)n, mname, bname, r->threads, o->metrics ? "true" : "false", r->ticks, r->ms_per_tick, ns,
           r->mean_neighbours, r->candidates, r->bytes_per_boid, r->grid_ms, r->metrics_ms, r->step_ms,
           r->threads_used, o->load, r->load, (unsigned long long)r->hash, r->min_ms, r->grid_min_ms,
           mur_simd_name((mur_simd)r->simd), mur_simd_name((mur_simd)r->search_simd));
}

/* One result row, as JSON or as a table line. */
static void print_row(const opts *o, int sc, int32_t n, int mi, int bi, const result *r)
{
    const char *sname = SC_NAME[sc];
    const char *mname = mur_search_name((mur_search)o->method[mi]);
    const char *bname = mur_neighbours_name((mur_neighbours)o->nb[bi]);
    double ns = r->ms_per_tick * 1e6 / (double)n;
    if (o->json) {
        print_json_core(o, sname, n, mname, bname, r);
        /* the process's CPU time per tick (median, every thread): steadier than the wall time on a
         * busy machine */
        printf(",\"cpu_ms_per_tick\":%.6g}\n", r->cpu_ms);
    } else
        printf("%-8s %9d %-6s %-11s %3d %-4s %6d %11.4f %13.2f %10.2f %10.1f %9.1f %9.3f %10.3f %9.3f %5.2f %5.2f\n",
               sname, (int)n, mname, bname, r->threads, o->metrics ? "on" : "off", r->ticks, r->ms_per_tick, ns,
               r->mean_neighbours, r->candidates, r->bytes_per_boid, r->grid_ms, r->metrics_ms, r->step_ms,
               r->threads_used, r->load);
}

/* The table of the uniform, flock and crowd scenarios asked for in o->run (default_n: no --n given). */
int run_table(const opts *o, bool default_n)
{
    if (!o->json)
        printf("%-8s %9s %-6s %-11s %3s %-4s %6s %11s %13s %10s %10s %9s %9s %10s %9s %5s %5s\n", "scenario", "n",
               "method", "neighbours", "thr", "met", "ticks", "ms/tick", "ns/boid-tick", "neighbours", "cand/boid",
               "B/boid", "grid ms", "metrics ms", "step ms", "used", "load");
    int status = 0;
    for (int sc = 0; sc < SC_COUNT; sc++) {
        if (!o->run[sc])
            continue;
        /* the crowd scenarios' own sizes unless --n is given: 20k coincident, 100k in the box */
        const int32_t crowd_n = sc == SC_COINCIDENT ? 20000 : 100000;
        const bool own_n = default_n && (sc == SC_COINCIDENT || sc == SC_CROWDED);
        for (int mi = 0; mi < o->nm; mi++)
          for (int bi = 0; bi < o->nnb; bi++)
            for (int ni = 0; ni < (own_n ? 1 : o->nn); ni++)
                for (int ti = 0; ti < o->nt; ti++) {
                    int32_t n = own_n ? crowd_n : o->n[ni];
                    if (o->method[mi] == MUR_SEARCH_BRUTE && n > o->brute_max)
                        continue;
                    result r;
                    int thr = o->threads[ti];
                    if (!run_one(o, sc, n, o->method[mi], o->nb[bi], thr, NULL, &r)) {
                        status = 1;
                        continue;
                    }
                    print_row(o, sc, n, mi, bi, &r);
                    fflush(stdout);
                }
    }
    return status;
}
