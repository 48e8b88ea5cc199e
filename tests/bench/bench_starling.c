/* murmur-bench's starling rows (bench.h; issue 23, docs/performance/rounds.md "Starling rows"): for each size
 * (default 20k, 100k, 1M) and thread count (default 1, 2) the uniform metric step, then starling-forming
 * (the starling preset's spawn, the first 100 ticks), starling-settled (a settled flock, state.c:
 * simulated once at --settle-base boids and cached, copies side by side above; 2 warm-up + 20 timed
 * ticks), coincident and crowded (up to --crowd-max boids), then the uniform step again; every row gives
 * its ratio to the mean of the two uniform measurements, and its resident memory per boid (VmRSS,
 * VmHWM). starling-forming or starling-settled alone: that row with the uniform step around it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

/* A JSON number, null when not finite. */
static const char *jnum(char *buf, size_t len, double x)
{
    if (isfinite(x))
        snprintf(buf, len, "%.6g", x);
    else
        snprintf(buf, len, "null");
    return buf;
}

/* One row of a starling group: the core fields plus the reference (u: the uniform rows before and
 * after; NULL for those rows themselves), the settled row's ns (crowd rows; NAN when none), the CPU
 * time and the resident memory; st for the settled row. */
static void print_starling_row(const opts *o, int sc, int32_t n, const result *r, const result *u,
                               double settled_ns, const bench_settled *st)
{
    const bool ref = u == NULL;
    const double per = 1e6 / (double)n, cpu_ns = r->cpu_ms * per;
    const double u0 = ref ? NAN : u[0].ms_per_tick * per, u1 = ref ? NAN : u[1].ms_per_tick * per;
    const double ucpu = ref ? NAN : 0.5 * (u[0].cpu_ms + u[1].cpu_ms) * per;
    const char *bname = mur_neighbours_name(ref ? MUR_NEIGHBOURS_METRIC : MUR_NEIGHBOURS_TOPOLOGICAL);
    const double ns = r->ms_per_tick * 1e6 / (double)n, mean_ns = r->mean_ms * 1e6 / (double)n;
    const double uni = 0.5 * (u0 + u1), ratio = ns / uni, mean_ratio = mean_ns / uni, vs_settled = ns / settled_ns;
    char b[8][32];
    if (o->json) {
        print_json_core(o, SC_NAME[sc], n, mur_search_name((mur_search)o->method[0]), bname, r);
        printf(",\"role\":\"%s\",\"mean_ms_per_tick\":%s,\"mean_ns_per_boid_tick\":%s,\"cpu_ns_per_boid_tick\":%s,"
               "\"rss_bytes_per_boid\":%s,\"rss_peak_bytes_per_boid\":%s",
               ref ? "reference" : "row", jnum(b[0], 32, r->mean_ms), jnum(b[1], 32, mean_ns), jnum(b[6], 32, cpu_ns),
               jnum(b[2], 32, r->rss), jnum(b[3], 32, r->rss_peak));
        if (!ref)
            printf(",\"uniform_ns_per_boid_tick\":%s,\"uniform_ns_before\":%s,\"uniform_ns_after\":%s,"
                   "\"ratio_to_uniform\":%s,\"mean_ratio_to_uniform\":%s,\"cpu_ratio_to_uniform\":%s,"
                   "\"ratio_to_settled\":%s",
                   jnum(b[0], 32, uni), jnum(b[1], 32, u0), jnum(b[2], 32, u1), jnum(b[3], 32, ratio),
                   jnum(b[4], 32, mean_ratio), jnum(b[6], 32, cpu_ns / ucpu), jnum(b[5], 32, vs_settled));
        if (o->reaction_ticks != 1 && (sc == SC_FORMING || sc == SC_SETTLED))
            printf(",\"reaction_ticks\":%d,\"reaction_hold\":\"%s\"", o->reaction_ticks,
                   o->reaction_hold ? "list" : "sums");
        if (o->flight && (sc == SC_FORMING || sc == SC_SETTLED))
            printf(",\"flight\":true");
        if (st)
            printf(",\"settled_base\":%d,\"settled_copies\":%d,\"settle_ticks\":%d,\"settled_cached\":%s",
                   (int)st->base, (int)st->copies, st->settle_ticks, st->cached ? "true" : "false");
        printf("}\n");
    } else
        printf("%-16s %8d %3d %5d %10.3f %9.1f %9.1f %9.1f %7.2f %7.2f %7.2f %7.2f %8.1f %8.1f %8.1f %8.1f %5.2f\n",
               SC_NAME[sc], (int)n, r->threads, r->ticks, r->ms_per_tick, ns, mean_ns, uni, ratio, mean_ratio,
               cpu_ns / ucpu, vs_settled, r->bytes_per_boid, r->rss, r->rss_peak, r->candidates, r->load);
    fflush(stdout);
}

/* The starling rows: for each size and thread count, the uniform metric step, the asked rows, the
 * uniform step again; each row against the mean of the two. */
int run_starling(const opts *o)
{
    const int rows[] = {SC_FORMING, SC_SETTLED, SC_COINCIDENT, SC_CROWDED};
    const int method = o->method[0];
    int status = 0;
    if (!o->json)
        printf("%-16s %8s %3s %5s %10s %9s %9s %9s %7s %7s %7s %7s %8s %8s %8s %8s %5s\n", "scenario", "n", "thr",
               "ticks", "ms/tick", "ns/b-t", "mean ns", "uni ns", "ratio", "mean r", "cpu r", "/settl", "lib B/b",
               "rss B/b", "peak B/b", "cand/b", "load");
    for (int ni = 0; ni < o->nn; ni++) {
        const int32_t n = o->n[ni];
        bench_settled st;
        bool have_state = false;
        if (o->run[SC_SETTLED]) {
            have_state = bench_settled_state(o->cache, n, o->settle_base, o->settle_ticks, 0, &st);
            status |= !have_state;
        }
        for (int ti = 0; ti < o->nt; ti++) {
            const int thr = o->threads[ti];
            result u[2], r[4];
            bool got[4] = {false, false, false, false};
            /* --reference off (a profile of the starling rows alone): no uniform rows, no ratios */
            u[0] = u[1] = (result){.ms_per_tick = NAN, .cpu_ms = NAN};
            if (!o->no_reference && !run_one(o, SC_UNIFORM, n, method, MUR_NEIGHBOURS_METRIC, thr, NULL, &u[0]))
                return 1;
            for (int k = 0; k < 4; k++) {
                const int sc = rows[k];
                /* the crowd rows up to --crowd-max boids (default 100k) */
                if (!o->run[sc] || (sc == SC_SETTLED && !have_state) ||
                    ((sc == SC_COINCIDENT || sc == SC_CROWDED) && n > o->crowd_max))
                    continue;
                got[k] = run_one(o, sc, n, method, MUR_NEIGHBOURS_TOPOLOGICAL, thr, sc == SC_SETTLED ? &st : NULL,
                                 &r[k]);
                status |= !got[k];
            }
            if (!o->no_reference && !run_one(o, SC_UNIFORM, n, method, MUR_NEIGHBOURS_METRIC, thr, NULL, &u[1]))
                return 1;
            const double settled_ns = got[1] ? r[1].ms_per_tick * 1e6 / (double)n : NAN;
            if (!o->no_reference)
                print_starling_row(o, SC_UNIFORM, n, &u[0], NULL, NAN, NULL);
            for (int k = 0; k < 4; k++)
                if (got[k])
                    print_starling_row(o, rows[k], n, &r[k], u, k >= 2 ? settled_ns : NAN,
                                       rows[k] == SC_SETTLED ? &st : NULL);
            if (!o->no_reference)
                print_starling_row(o, SC_UNIFORM, n, &u[1], NULL, NAN, NULL);
        }
        if (have_state) {
            free(st.pos);
            free(st.vel);
        }
    }
    return status;
}

