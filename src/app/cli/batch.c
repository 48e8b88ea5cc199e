/* Batch mode: N ticks, no window, no GL; final state and per-tick metrics as CSV. */
#include "batch.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "clock.h"
#include "cost.h"
#include "progress.h"
#include "outputs.h"
#include "provenance.h"
#include "signals.h"

/* tick i/N, boid-ticks per second, ETA, the last step's time */
static void show_progress(mur_progress *p, int64_t done, int64_t steps, double boids, double step_ms)
{
    double el = mur_clock_s() - p->t0;
    char rate[32], eta[48];
    mur_progress_rate(el > 0.0 ? boids * (double)done / el : 0.0, rate, sizeof rate);
    mur_progress_eta(done > 0 ? el / (double)done * (double)(steps - done) : -1.0, eta, sizeof eta);
    mur_progress_show(p, "tick %lld/%lld  %s boid-ticks/s  %s  step %.1f ms", (long long)done, (long long)steps, rate,
                      eta, step_ms);
}

/* Find an unwritable output before spending time on the run (a FIFO is not probed: opening and
 * closing it would hand its reader an empty file; nor a device or a descriptor path: opening
 * /dev/stdout or a terminal for a probe is harmless but pointless). */
static bool probe(const char *path)
{
    struct stat st;
    mur_error err;
    mur_afile a;
    if (!path || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return true;
    if (!mur_afile_open(&a, path, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return false;
    }
    mur_afile_abort(&a);
    return true;
}

bool mur_batch_outputs_ok(const mur_cli *cli)
{
    return probe(cli->export_path) && probe(cli->metrics_path) && probe(cli->save_params) && probe(cli->events_path);
}

/* The --at changes due at the flock's current tick; false (with the message printed) when one is
 * refused. *next_at is the first change not yet applied. */
static bool apply_due_changes(const mur_cli *cli, mur_flock *f, int *next_at)
{
    uint64_t now = mur_flock_view(f).tick;
    for (; *next_at < cli->nat && (uint64_t)cli->at[*next_at].tick <= now; (*next_at)++) {
        const mur_at *a = &cli->at[*next_at];
        mur_error err;
        if (!mur_flock_set(f, a->name, a->value, &err)) {
            fprintf(stderr, "murmur: --at %lld:%s=%s: %s\n", (long long)a->tick, a->name, a->value, err.msg);
            return false;
        }
    }
    return true;
}

/* The events of the last tick into --events (docs/falcon.md); with the metrics also a change of the
 * group count: split (more groups) or merge (fewer). */
static void write_events(FILE *fp, const mur_flock *f, int32_t *groups)
{
    const mur_flock_def d = mur_flock_get_def(f);
    mur_event ev[MUR_MAX_EVENTS];
    const int n = mur_flock_events(f, ev, MUR_MAX_EVENTS);
    for (int k = 0; k < n && k < MUR_MAX_EVENTS; k++) {
        const mur_event *e = &ev[k];
        fprintf(fp, "%llu,%.9g,%s,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%lld\n", (unsigned long long)e->tick,
                (double)e->tick * d.dt, mur_event_name(e->kind), (int)e->bird, (double)e->pos[0], (double)e->pos[1],
                (double)e->pos[2], e->value, e->aux, (long long)e->count);
    }
    const mur_stats s = mur_flock_stats(f);
    if (s.metrics_valid) {
        if (*groups > 0 && s.groups != *groups)
            fprintf(fp, "%llu,%.9g,%s,-1,%.9g,%.9g,%.9g,%d,%d,%d\n", (unsigned long long)s.tick, (double)s.tick * d.dt,
                    s.groups > *groups ? "split" : "merge", s.centre[0], s.centre[1], s.centre[2], (int)*groups,
                    (int)s.groups, (int)s.groups);
        *groups = s.groups;
    }
}

int mur_batch_main(const mur_cli *cli, mur_flock *f)
{
    mur_afile *metrics = NULL;
    /* main.c checked the outputs (mur_batch_outputs_ok) before creating the flock */
    if (!mur_outputs_open(cli, f, &metrics))
        return MUR_EXIT_USAGE;
    mur_afile *events = NULL;
    int32_t groups = 0;
    if (cli->events_path) {
        mur_error ee;
        events = mur_out_open(cli->events_path, &ee);
        if (!events) {
            fprintf(stderr, "murmur: %s\n", ee.msg);
            mur_out_abort_all();
            return MUR_EXIT_USAGE;
        }
        fputs("tick,time,event,bird,x,y,z,value,aux,count\n", events->fp);
    }
    /* with --init the count is the file's: what the run will cost is known only now (else main.c
     * said it before creating the flock) */
    const mur_flock_def def = mur_flock_get_def(f);
    if (cli->init_path || cli->resume_path)
        mur_cost_announce(cli, &def, mur_flock_threads(f));
    mur_progress prog;
    mur_progress_init(&prog, !cli->quiet);
    /* a slow first tick is not silent either */
    if (cli->steps > 0 && mur_expected_tick_s(&def, mur_flock_threads(f)) >= MUR_PROGRESS_PERIOD)
        mur_progress_show(&prog, "tick 0/%lld  computing the first tick", (long long)cli->steps);
    const double boids = (double)mur_flock_view(f).boids;
    double t0 = mur_clock_s();
    int64_t done = 0, shown_at = -1;
    int next_at = 0;
    /* SIGINT, SIGTERM or SIGHUP end the run after the tick in progress: the outputs then hold the
     * state of the last finished tick */
    for (; done < cli->steps && !mur_signals_stop(); done++) {
        if (!apply_due_changes(cli, f, &next_at)) {
            mur_out_abort_all();
            return MUR_EXIT_USAGE;
        }
        mur_flock_step(f);
        if (metrics) {
            mur_stats s = mur_flock_stats(f);
            mur_stats_write_row(metrics->fp, &s);
            if (ferror(metrics->fp))
                break; /* disk full or reader gone: the commit below reports it */
        }
        if (events) {
            write_events(events->fp, f, &groups);
            if (ferror(events->fp))
                break;
        }
        if (mur_progress_due(&prog)) {
            show_progress(&prog, done + 1, cli->steps, boids, mur_flock_stats(f).step_ms);
            shown_at = done + 1;
        }
    }
    double secs = mur_clock_s() - t0;
    if (prog.shown && shown_at != done) /* the line ends at the tick the run ended */
        show_progress(&prog, done, cli->steps, boids, mur_flock_stats(f).step_ms);
    mur_progress_end(&prog, true);
    int sig = mur_signals_stop();
    /* the final state's metrics: the last row of --metrics, and the mean neighbours of the summary */
    const mur_stats last = mur_flock_measure(f);
    if (events) {
        mur_error ee = {{0}};
        if (!mur_out_done(events, true, &ee)) {
            if (ee.msg[0])
                fprintf(stderr, "murmur: %s\n", ee.msg);
            mur_out_abort_all();
            return MUR_EXIT_USAGE;
        }
    }
    int status = mur_outputs_close(cli, f, &metrics, sig ? 128 + sig : 0, &last);
    if (sig) {
        if (status == 128 + sig)
            fprintf(stderr, "murmur: stopped by %s after %lld of %lld ticks; the outputs hold the state of tick %lld\n",
                    mur_signal_name(sig), (long long)done, (long long)cli->steps,
                    (long long)mur_flock_view(f).tick);
        return status;
    }
    if (status != 0)
        return status;
    mur_view v = mur_flock_view(f);
    double bt = (double)v.boids * (double)cli->steps;
    fprintf(stderr,
            "murmur: %lld ticks of %d boids in %.6f s (%.3f us per boid-tick, %d threads), state hash %016llx, "
            "mean neighbours %.2f\n",
            (long long)cli->steps, (int)v.boids, secs, bt > 0 ? secs * 1e6 / bt : 0.0, mur_flock_threads(f),
            (unsigned long long)mur_flock_hash(f), last.metrics_valid ? last.mean_neighbours : 0.0);
    return 0;
}

static void type_name(const mur_param *p, char *buf, size_t len)
{
    static const char *names[] = {"int", "float", "switch", "vec3", "enum", "seed"};
    snprintf(buf, len, "%s", names[p->type]);
}

static void range_of(const mur_param *p, char *buf, size_t len)
{
    switch (p->type) {
    case MUR_PT_INT:
        snprintf(buf, len, "%.0f .. %.0f", p->min, p->max);
        break;
    case MUR_PT_SEED:
        snprintf(buf, len, "0 .. 2^64-1");
        break;
    case MUR_PT_FLOAT:
        snprintf(buf, len, "%c%g, %g]", p->min_open ? '(' : '[', p->min, p->max);
        break;
    case MUR_PT_VEC3:
        snprintf(buf, len, "each [%g, %g]", p->min, p->max);
        break;
    default:
        snprintf(buf, len, "%s", p->choices);
    }
}

void mur_print_presets(void)
{
    for (int i = 0; i < mur_preset_count(); i++) {
        printf("%s: %s\n", mur_preset_name(i), mur_preset_summary(i));
        const char *s = mur_preset_settings(i);
        if (!*s)
            printf("    (the defaults listed by --list-params)\n");
        while (*s) {
            const char *nl = strchr(s, '\n');
            int l = nl ? (int)(nl - s) : (int)strlen(s);
            printf("    %.*s\n", l, s);
            s += nl ? l + 1 : l;
        }
    }
}

/* docs/parameters.md: what a larger count means, and why the default is what it is */
static const char *const WORLD_NOTE =
    "\n## What a larger boid count means: `world`\n"
    "\n"
    "- `world=fixed` (the default): `world_min`, `world_max`, `bounds_margin`, `goal_pos`, `ground`, `roost_pos` and\n"
    "  `roost_radius` are used as given. More boids in the same box make a denser flock: each boid has more neighbours and a tick costs more\n"
    "  per boid (docs/performance/rounds.md, \"Batch runs at scale\").\n"
    "- `world=scale`: those seven are given for 2000 boids (the default count) and multiplied by\n"
    "  cbrt(boids / 2000), so the boids per unit volume, and with them the neighbours of a boid, stay those of\n"
    "  the default flock at any count. At 2000 boids the two worlds are one (the same state, bit for bit). The\n"
    "  viewer draws the scaled box, its camera, the goal and the boid-count keys follow it.\n"
    "\n"
    "**Why `fixed` is the default.** A box, margin or goal written in a parameter file, a `--set` or a program\n"
    "names a place in the world; with `scale` as the default, every such run at another count would move it\n"
    "without being asked. Results already made with an explicit box (the pinned test states, the experiments,\n"
    "the benchmark scenarios) keep their meaning, and \"more birds in the same sky\" stays the plain reading of\n"
    "`--boids`. The cost of a denser world is not silent: before a batch run on a terminal the cost line\n"
    "gives the expected neighbours per boid and time per tick, and names `--set world=scale` when the world\n"
    "gives more than four times the metric neighbours of the preset's own flock; the\n"
    "batch summary and the viewer's HUD show the mean neighbours. Choose `scale` to get a larger flock of the\n"
    "same character.\n";

/* Rules a tuning round built to test one idea, measured and did not adopt: off in every preset (cli_test checks
 * it). --list-params lists them last, under a heading of their own, so the table a user reads first holds the
 * rules the presets use and the features they can switch on. */
static const char *const EXPERIMENTAL[] = {
    "centrality_from", "rim_pull", "rim_spacing", "rim_from", "lone_pull", "surge_separation", "surge_separation_radius",
    "separation_up", "separation_up_radius", "separation_edge", "separation_exposed", "separation_exposed_from",
    "cohesion_up", "cohesion_caps", "cohesion_caps_from", "separation_caps", "separation_view", "separation_stiff",
    "separation_stiff_radius", "separation_outward", "separation_outward_from", "skin", "skin_edge",
    "skin_rim", "up_order", "wander_up", "falcon_press", "escape_spread", "escape_spread_falloff",
    "escape_spread_radius", "escape_spread_speed",
};

static bool experimental(const char *name)
{
    for (size_t i = 0; i < sizeof EXPERIMENTAL / sizeof EXPERIMENTAL[0]; i++)
        if (!strcmp(name, EXPERIMENTAL[i]))
            return true;
    return false;
}

static void print_row(const mur_param *p, const mur_flock_def *d, const mur_flock_def *lib, bool markdown)
{
    char def[64], cls[64], type[16], range[64];
    mur_def_get(d, p->name, def, sizeof def);
    mur_def_get(lib, p->name, cls, sizeof cls);
    type_name(p, type, sizeof type);
    range_of(p, range, sizeof range);
    if (markdown)
        printf("| `%s` | %s | `%s` | `%s` | %s | %s | %s | %s |\n", p->name, type, def, cls, range,
               p->unit[0] ? p->unit : "-", p->live ? "yes" : "no", p->meaning);
    else
        printf("%-18s %-7s %-16s %-16s %-22s %-7s %s\n", p->name, type, def, cls, range, p->unit[0] ? p->unit : "-",
               p->meaning);
}

void mur_print_params(bool markdown, const char *preset)
{
    const mur_flock_def lib = mur_flock_default_def();
    mur_flock_def d = lib;
    mur_def_preset(&d, preset, NULL); /* checked by the parser before we get here */
    if (markdown) {
        puts("# Parameters");
        puts("");
        puts("Generated by `murmur --list-params=markdown` from the library's parameter table; a test fails when");
        puts("this file is stale. Set any of them with `--set name=value` or in a parameter file (`name = value`");
        puts("lines, `#` comments). Vectors are written `x,y,z`. Units: wu = world units, s = seconds.");
        puts("Every parameter marked live can also change on a running flock (viewer, `mur_flock_set`).");
        puts("");
        printf("`%s` is the value murmur starts from (its default preset, `%s`); `classic` is the library's\n",
               preset, preset);
        puts("default (`mur_flock_default_def`, the `classic` preset). `murmur --list-presets` lists what each");
        puts("preset sets; `--preset NAME --list-params` lists from another preset.");
        puts("");
        printf("| name | type | %s | classic | range | unit | live | meaning |\n", preset);
        puts("|---|---|---|---|---|---|---|---|");
    } else {
        printf("%-18s %-7s %-16s %-16s %-22s %-7s %s\n", "name", "type", preset, "classic", "range", "unit", "meaning");
    }
    for (int i = 0; i < mur_param_count(); i++)
        if (!experimental(mur_param_at(i)->name))
            print_row(mur_param_at(i), &d, &lib, markdown);
    if (markdown) {
        puts("");
        puts("## Experimental: tried, not adopted");
        puts("");
        puts("Each of these rules was built by a tuning round to test one idea about the flock's shape (issue 24,");
        puts("docs/murmuration.md) or its escape (issue 26, docs/falcon.md), measured there, and left out of every");
        puts("preset: at the values below they change nothing (a value other than 0 or -1 only shapes a rule that");
        puts("is off). They work and are tested; the round that built each says what it did and why it was not");
        puts("adopted.");
        puts("");
        printf("| name | type | %s | classic | range | unit | live | meaning |\n", preset);
        puts("|---|---|---|---|---|---|---|---|");
    } else {
        puts("");
        puts("experimental: tried in tuning rounds, not adopted; off in every preset (docs/murmuration.md, docs/falcon.md)");
    }
    for (int i = 0; i < mur_param_count(); i++)
        if (experimental(mur_param_at(i)->name))
            print_row(mur_param_at(i), &d, &lib, markdown);
    if (markdown)
        fputs(WORLD_NOTE, stdout);
}

bool mur_outputs_open(const mur_cli *cli, mur_flock *f, mur_afile **metrics)
{
    *metrics = NULL;
    if (cli->metrics_path) {
        mur_error me;
        *metrics = mur_out_open(cli->metrics_path, &me);
        if (!*metrics) {
            fprintf(stderr, "murmur: %s\n", me.msg);
            return false;
        }
        const mur_flock_def def = mur_flock_get_def(f);
        mur_prov_write((*metrics)->fp, cli->preset, &def, f, false);
        mur_stats_write_header((*metrics)->fp);
    }
    mur_flock_set_metrics(f, cli->metrics_path != NULL);
    return true;
}

int mur_outputs_close(const mur_cli *cli, mur_flock *f, mur_afile **metrics, int status, const mur_stats *last)
{
    mur_error e = {{0}};
    const bool keep = status == 0 || status > 128; /* a run ended by a signal keeps what it made */
    bool ok = keep;
    if (ok && *metrics) {
        /* the last row: the state the run ends on */
        const mur_stats s = last ? *last : mur_flock_measure(f);
        mur_stats_write_row((*metrics)->fp, &s);
        ok = mur_out_done(*metrics, true, &e);
        *metrics = NULL;
    }
    if (ok && cli->export_path) {
        mur_afile *a = mur_out_open(cli->export_path, &e);
        ok = a != NULL;
        if (a) {
            /* the parameters in force at the end (after --at changes): what --resume restores */
            const mur_flock_def def = mur_flock_get_def(f);
            mur_prov_write(a->fp, cli->preset, &def, f, true);
            mur_flock_write_csv(f, a->fp); /* a failed write shows in mur_out_done's check */
            ok = mur_out_done(a, true, &e);
        }
    }
    if (ok && cli->save_params) {
        mur_afile *a = mur_out_open(cli->save_params, &e);
        ok = a != NULL;
        if (a) {
            mur_prov_write_params(a->fp, cli);
            ok = mur_out_done(a, true, &e);
        }
    }
    /* every output of the run into place together, or none */
    ok = ok && mur_out_commit_all(&e);
    if (!ok) {
        mur_out_abort_all();
        *metrics = NULL;
        if (e.msg[0])
            fprintf(stderr, "murmur: %s\n", e.msg);
        if (keep)
            status = MUR_EXIT_USAGE;
    }
    return status;
}
