/* `murmur sweep`: runs, parts, the table, merge, progress (sweep.h, docs/sweeps.md).
 *
 * Each run writes its rows to a part file of its own (OUTPUT.parts/run-NNNNNN.csv, complete or absent)
 * whose first line names the run's parameters; a part whose first line matches is a finished run,
 * never run again. The runs go in parallel as child processes (fork), each on `threads` threads
 * (default 1); when every part is there, the table is the parts joined in run order. `--index I` runs
 * one run alone (a Slurm array task, a GNU parallel job) and `sweep merge` joins the parts. */
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "outputs.h"
#include "progress.h"
#include "provenance.h"
#include "signals.h"

/* ------------------------------------------------------------------ one run */

/* The first line of run i's part: everything its rows depend on. */
static void run_key(const mur_sweep_spec *s, int64_t i, char *buf, size_t len)
{
    mur_flock_def d;
    int idx[MUR_SWEEP_MAX_VARY];
    int32_t boids;
    uint64_t seed;
    mur_error err;
    mur_sweep_run_def(s, i, &d, idx, &boids, &seed, &err); /* checked when the spec was read */
    int w = snprintf(buf, len, "# run %lld: preset=%s", (long long)i, s->preset);
    for (int k = 0; k < s->nsets && w > 0 && (size_t)w < len; k++)
        w += snprintf(buf + w, len - (size_t)w, " %s", s->sets[k]);
    for (int k = 0; k < s->nvary && w > 0 && (size_t)w < len; k++)
        w += snprintf(buf + w, len - (size_t)w, " %s=%s", s->vary[k].name, s->vary[k].values[idx[k]]);
    if (w > 0 && (size_t)w < len)
        w += snprintf(buf + w, len - (size_t)w, " boids=%d seed=%llu ticks=%lld every=%lld metrics=", (int)boids,
                      (unsigned long long)seed, (long long)s->ticks, (long long)s->every);
    for (int k = 0; k < s->nmetrics && w > 0 && (size_t)w < len; k++)
        w += snprintf(buf + w, len - (size_t)w, "%s%s", k ? "," : "", mur_stats_column_name(s->metrics[k]));
}

static void part_path(const mur_sweep_spec *s, int64_t i, char *buf, size_t len)
{
    snprintf(buf, len, "%s/run-%06lld.csv", s->parts, (long long)i);
}

/* Run i's part is there and belongs to this spec's run i. */
static bool part_done(const mur_sweep_spec *s, int64_t i)
{
    char path[2400], key[4096], line[4096];
    part_path(s, i, path, sizeof path);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    bool ok = fgets(line, sizeof line, fp) != NULL;
    fclose(fp);
    run_key(s, i, key, sizeof key);
    size_t l = strlen(line);
    if (ok && l && line[l - 1] == '\n')
        line[--l] = 0;
    return ok && strcmp(line, key) == 0;
}

static int time_column(void)
{
    for (int c = 0; c < mur_stats_column_count(); c++)
        if (!strcmp(mur_stats_column_name(c), "time_s"))
            return c;
    return -1;
}

/* Run i and write its part. 0, or an exit status after printing one line (128 + N: stopped). */
static int run_one(const mur_sweep_spec *s, int64_t i, int threads)
{
    mur_flock_def d;
    int idx[MUR_SWEEP_MAX_VARY];
    int32_t boids;
    uint64_t seed;
    mur_error err;
    if (!mur_sweep_run_def(s, i, &d, idx, &boids, &seed, &err)) {
        fprintf(stderr, "murmur: sweep run %lld: %s\n", (long long)i, err.msg);
        return MUR_EXIT_USAGE;
    }
    mur_flock *f = mur_flock_create(&d, &err);
    if (!f) {
        fprintf(stderr, "murmur: sweep run %lld: %s\n", (long long)i, err.msg);
        return MUR_EXIT_USAGE;
    }
    mur_flock_set_threads(f, threads);
    char path[2400], key[4096], prefix[1024];
    part_path(s, i, path, sizeof path);
    run_key(s, i, key, sizeof key);
    mur_afile *a = mur_out_open(path, &err);
    if (!a) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        mur_flock_destroy(f);
        return MUR_EXIT_USAGE;
    }
    fprintf(a->fp, "%s\n", key);
    int w = snprintf(prefix, sizeof prefix, "%lld", (long long)i);
    for (int k = 0; k < s->nvary && w > 0 && (size_t)w < sizeof prefix; k++) {
        const char *v = s->vary[k].values[idx[k]];
        const char *q = strchr(v, ',') ? "\"" : ""; /* a vector is one quoted CSV field */
        w += snprintf(prefix + w, sizeof prefix - (size_t)w, ",%s%s%s", q, v, q);
    }
    if (w > 0 && (size_t)w < sizeof prefix)
        snprintf(prefix + w, sizeof prefix - (size_t)w, ",%d,%llu", (int)boids, (unsigned long long)seed);
    const int tcol = time_column();
    for (int64_t t = 0; t <= s->ticks; t++) {
        if (t % s->every == 0 || t == s->ticks) {
            mur_stats st = mur_flock_measure(f);
            char cell[64];
            mur_stats_column_text(&st, tcol, cell, sizeof cell);
            fprintf(a->fp, "%s,%lld,%s", prefix, (long long)st.tick, cell);
            for (int k = 0; k < s->nmetrics; k++) {
                mur_stats_column_text(&st, s->metrics[k], cell, sizeof cell);
                fprintf(a->fp, ",%s", cell);
            }
            fputc('\n', a->fp);
        }
        if (t < s->ticks)
            mur_flock_step(f);
        if (mur_signals_stop()) {
            mur_out_drop(a); /* a part is a whole run or nothing */
            mur_flock_destroy(f);
            return 128 + mur_signals_stop();
        }
    }
    mur_flock_destroy(f);
    if (!mur_out_done(a, false, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return MUR_EXIT_USAGE;
    }
    return 0;
}

/* ------------------------------------------------------------------ the table */

/* The table's header: how it was made, the spec, then the column names. The same whichever way the
 * runs were made (one machine, --index parts and merge). */
static void table_head(const mur_sweep_spec *s, FILE *fp)
{
    fprintf(fp, "# murmur: %s\n", MUR_VERSION_STRING);
    fprintf(fp, "# revision: %s\n", mur_prov_revision());
    fprintf(fp, "# command: murmur sweep %s\n", s->path);
    fprintf(fp, "# runs: %lld (%s, ticks %lld, sampled every %lld)\n", (long long)s->runs, s->preset,
            (long long)s->ticks, (long long)s->every);
    mur_flock_def d;
    mur_error err;
    int idx[MUR_SWEEP_MAX_VARY];
    int32_t b;
    uint64_t seed;
    mur_sweep_run_def(s, 0, &d, idx, &b, &seed, &err);
    fprintf(fp, "# dt_s: %.9g\n", (double)d.dt);
    for (const char *l = s->text; *l;) {
        const char *nl = strchr(l, '\n');
        int n = nl ? (int)(nl - l) : (int)strlen(l);
        fprintf(fp, "# spec: %.*s\n", n, l);
        l += nl ? n + 1 : n;
    }
    fputs("run", fp);
    for (int k = 0; k < s->nvary; k++)
        fprintf(fp, ",%s", s->vary[k].name);
    fputs(",boids,seed,tick,time_s", fp);
    for (int k = 0; k < s->nmetrics; k++)
        fprintf(fp, ",%s", mur_stats_column_name(s->metrics[k]));
    fputc('\n', fp);
}

/* Join every part into the table (complete or absent). 0 or MUR_EXIT_USAGE after one line. */
static int write_table(const mur_sweep_spec *s, const char *how)
{
    int64_t missing = 0, first = -1;
    for (int64_t i = 0; i < s->runs; i++)
        if (!part_done(s, i)) {
            missing++;
            if (first < 0)
                first = i;
        }
    if (missing) {
        fprintf(stderr,
                "murmur: sweep %s: %lld of %lld runs have no finished part in %s (the first: run %lld): run them with "
                "murmur sweep %s --index I\n",
                how, (long long)missing, (long long)s->runs, s->parts, (long long)first, s->path);
        return MUR_EXIT_USAGE;
    }
    mur_error err;
    mur_afile *a = mur_out_open(s->output, &err);
    if (!a) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return MUR_EXIT_USAGE;
    }
    table_head(s, a->fp);
    char path[2400], buf[65536];
    for (int64_t i = 0; i < s->runs; i++) {
        part_path(s, i, path, sizeof path);
        FILE *in = fopen(path, "r");
        if (!in) {
            fprintf(stderr, "murmur: cannot read '%s': %s\n", path, strerror(errno));
            mur_out_drop(a);
            return MUR_EXIT_USAGE;
        }
        /* past the key line, then the rows as they are */
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n')
            ;
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, a->fp);
        fclose(in);
    }
    if (!mur_out_done(a, false, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return MUR_EXIT_USAGE;
    }
    return 0;
}

/* ------------------------------------------------------------------ the runs across the cores */

static bool make_parts_folder(const mur_sweep_spec *s)
{
    if (mkdir(s->parts, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(stderr, "murmur: cannot create the parts folder '%s': %s\n", s->parts, strerror(errno));
    return false;
}

static void show(mur_progress *p, const mur_sweep_spec *s, double done_w, double total_w, int64_t done,
                 int64_t skipped, int running)
{
    char bar[41], eta[48];
    const double frac = total_w > 0 ? done_w / total_w : 1.0;
    const int full = (int)(frac * 40.0);
    for (int k = 0; k < 40; k++)
        bar[k] = k < full ? '#' : '.';
    bar[40] = 0;
    const double el = mur_clock_s() - p->t0;
    mur_progress_eta(done_w > 0 ? el / done_w * (total_w - done_w) : -1.0, eta, sizeof eta);
    mur_progress_show(p, "sweep [%s] %lld/%lld runs  %d running  %s", bar, (long long)(done + skipped),
                      (long long)s->runs, running, eta);
}

/* The work of run i (boids x ticks), for the ETA. */
static double weight(const mur_sweep_spec *s, int64_t i)
{
    mur_flock_def d;
    int idx[MUR_SWEEP_MAX_VARY];
    int32_t b;
    uint64_t seed;
    mur_error err;
    mur_sweep_run_def(s, i, &d, idx, &b, &seed, &err);
    return (double)b * (double)s->ticks + 1.0;
}

static int run_all(const mur_sweep_spec *s, int jobs, int threads, bool quiet)
{
    if (!make_parts_folder(s))
        return MUR_EXIT_USAGE;
    int64_t *todo = malloc(sizeof *todo * (size_t)s->runs);
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    int64_t *which = calloc((size_t)jobs, sizeof *which);
    if (!todo || !pids || !which) {
        free(todo);
        free(pids);
        free(which);
        fprintf(stderr, "murmur: out of memory\n");
        return MUR_EXIT_USAGE;
    }
    int64_t ntodo = 0;
    double total_w = 0.0, done_w = 0.0;
    for (int64_t i = 0; i < s->runs; i++) {
        total_w += weight(s, i);
        if (!part_done(s, i))
            todo[ntodo++] = i;
    }
    const int64_t skipped = s->runs - ntodo;
    for (int64_t i = 0; i < s->runs; i++)
        done_w += weight(s, i);
    for (int64_t k = 0; k < ntodo; k++)
        done_w -= weight(s, todo[k]);
    const double skipped_w = done_w;
    if (skipped && !quiet)
        fprintf(stderr, "murmur: sweep %s: %lld of %lld runs finished before, %lld to run\n", s->path,
                (long long)skipped, (long long)s->runs, (long long)ntodo);
    mur_progress prog;
    mur_progress_init(&prog, !quiet);
    prog.t0 = mur_clock_s();
    int64_t next = 0, done = 0;
    int running = 0, status = 0;
    fflush(NULL);
    while ((next < ntodo && !status && !mur_signals_stop()) || running > 0) {
        /* start runs while a slot is free */
        for (int j = 0; j < jobs && next < ntodo && !status && !mur_signals_stop(); j++) {
            if (pids[j])
                continue;
            pid_t pid = fork();
            if (pid < 0) {
                fprintf(stderr, "murmur: cannot start a run: %s\n", strerror(errno));
                status = MUR_EXIT_USAGE;
                break;
            }
            if (pid == 0) {
                int rc = run_one(s, todo[next], threads);
                fflush(NULL);
                _exit(rc);
            }
            pids[j] = pid;
            which[j] = todo[next++];
            running++;
        }
        int ws = 0;
        pid_t pid = waitpid(-1, &ws, WNOHANG);
        if (pid == 0 || (pid < 0 && errno == EINTR)) {
            if (mur_signals_stop()) /* a signal to murmur alone (not to its group): to every run */
                for (int j = 0; j < jobs; j++)
                    if (pids[j])
                        kill(pids[j], mur_signals_stop());
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
        } else if (pid > 0) {
            for (int j = 0; j < jobs; j++)
                if (pids[j] == pid) {
                    pids[j] = 0;
                    running--;
                    const int rc = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
                    if (rc == 0) {
                        done++;
                        done_w += weight(s, which[j]);
                    } else if (rc < 128 && !status) {
                        status = rc; /* the run printed why */
                    } else if (!mur_signals_stop() && !status) {
                        fprintf(stderr, "murmur: sweep run %lld died (exit status %d); its part was not written\n",
                                (long long)which[j], rc);
                        status = MUR_EXIT_USAGE;
                    }
                }
        } else {
            break; /* no child left */
        }
        if (mur_progress_due(&prog))
            show(&prog, s, done_w - skipped_w, total_w - skipped_w, done, skipped, running);
    }
    if (prog.shown)
        show(&prog, s, done_w - skipped_w, total_w - skipped_w, done, skipped, running);
    mur_progress_end(&prog, true);
    free(todo);
    free(pids);
    free(which);
    const int sig = mur_signals_stop();
    if (sig) {
        fprintf(stderr,
                "murmur: sweep stopped by %s: %lld of %lld runs finished (kept in %s); the same command finishes "
                "the rest\n",
                mur_signal_name(sig), (long long)(done + skipped), (long long)s->runs, s->parts);
        return 128 + sig;
    }
    if (status)
        return status;
    return write_table(s, "run");
}

/* ------------------------------------------------------------------ the command line */

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr, "murmur: sweep: %s%s%s (usage: murmur sweep SPEC [--jobs J] [--index I] [--quiet] | murmur sweep "
                    "merge SPEC | murmur sweep count SPEC; docs/sweeps.md)\n",
            msg, arg ? " " : "", arg ? arg : "");
    return MUR_EXIT_USAGE;
}

int mur_sweep_main(int argc, char **argv)
{
    const char *verb = argc > 1 && (!strcmp(argv[1], "merge") || !strcmp(argv[1], "count")) ? argv[1] : NULL;
    int a = verb ? 2 : 1;
    if (a >= argc)
        return usage("no spec file given", NULL);
    const char *spec_path = argv[a++];
    long long index = -1, jobs = -1;
    bool quiet = false;
    for (; a < argc; a++) {
        const char *arg = argv[a];
        const bool is_index = !strcmp(arg, "--index"), is_jobs = !strcmp(arg, "--jobs");
        if (!strcmp(arg, "--quiet")) {
            quiet = true;
        } else if ((is_index || is_jobs) && !verb) {
            if (a + 1 >= argc)
                return usage("missing value after", arg);
            char *end;
            errno = 0;
            long long v = strtoll(argv[++a], &end, 10);
            if (!argv[a][0] || *end || errno || v < (is_jobs ? 1 : 0) || v > (is_jobs ? 1024 : MUR_SWEEP_MAX_RUNS)) {
                fprintf(stderr, "murmur: sweep: bad value '%s' for %s: expected a whole number in [%d, %d]\n", argv[a],
                        arg, is_jobs ? 1 : 0, is_jobs ? 1024 : MUR_SWEEP_MAX_RUNS - 1);
                return MUR_EXIT_USAGE;
            }
            *(is_index ? &index : &jobs) = v;
        } else {
            return usage("unknown argument", arg);
        }
    }
    mur_sweep_spec s;
    if (!mur_sweep_spec_read(spec_path, &s))
        return MUR_EXIT_USAGE;
    int rc;
    if (verb && !strcmp(verb, "count")) {
        printf("%lld\n", (long long)s.runs);
        rc = 0;
    } else if (verb) {
        rc = write_table(&s, "merge");
    } else if (index >= 0) {
        if (index >= s.runs) {
            fprintf(stderr, "murmur: sweep: bad value '%lld' for --index: the spec has %lld runs (0 .. %lld)\n", index,
                    (long long)s.runs, (long long)s.runs - 1);
            rc = MUR_EXIT_USAGE;
        } else if (!make_parts_folder(&s)) {
            rc = MUR_EXIT_USAGE;
        } else {
            rc = part_done(&s, index) ? 0 : run_one(&s, index, s.threads);
            if (rc > 128)
                fprintf(stderr, "murmur: sweep run %lld stopped by %s: no part written\n", index,
                        mur_signal_name(rc - 128));
        }
    } else {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int j = jobs > 0 ? (int)jobs : s.jobs > 0 ? s.jobs : (int)(cores > 0 ? cores : 1);
        if (j > s.runs)
            j = (int)s.runs;
        rc = run_all(&s, j, s.threads, quiet);
    }
    mur_sweep_spec_free(&s);
    return rc;
}
