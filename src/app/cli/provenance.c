/* How an output was made (provenance.h). */
#include "provenance.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "revision.h"

static char command[4096] = "murmur";

const char *mur_prov_revision(void)
{
    return MUR_REVISION[0] ? MUR_REVISION : "unknown";
}

/* Characters a POSIX shell reads as themselves. */
static bool plain(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-%@", *s))
            return false;
    return true;
}

void mur_prov_set_command(int argc, char **argv)
{
    size_t at = strlen(command);
    for (int i = 1; i < argc && at + 8 < sizeof command; i++) {
        const char *a = argv[i];
        bool q = !plain(a);
        command[at++] = ' ';
        if (q)
            command[at++] = '\'';
        for (; *a && at + 6 < sizeof command; a++) {
            unsigned char c = (unsigned char)*a;
            if (c == '\'') { /* 'it'\''s' */
                memcpy(command + at, "'\\''", 4);
                at += 4;
            } else {
                command[at++] = c < 32 || c == 127 ? '?' : (char)c; /* one line, whatever the argument */
            }
        }
        if (q)
            command[at++] = '\'';
        command[at] = 0;
    }
    if (at + 8 >= sizeof command)
        snprintf(command + sizeof command - 8, 8, " ...");
}

const char *mur_prov_command(void)
{
    return command;
}

/* Every parameter whose text differs from the preset's: "name = value" after prefix. */
static void write_diffs(FILE *fp, const char *prefix, const char *preset, const mur_flock_def *def, bool skip_counts)
{
    mur_flock_def base = mur_flock_default_def();
    mur_def_preset(&base, preset, NULL);
    for (int i = 0; i < mur_param_count(); i++) {
        const mur_param *p = mur_param_at(i);
        if (skip_counts && (!strcmp(p->name, "boids") || !strcmp(p->name, "seed")))
            continue;
        char a[256], b[256];
        mur_def_get(def, p->name, a, sizeof a);
        mur_def_get(&base, p->name, b, sizeof b);
        if (strcmp(a, b) != 0)
            fprintf(fp, "%s%s = %s\n", prefix, p->name, a);
    }
}

bool mur_prov_write(FILE *fp, const char *preset, const mur_flock_def *def, const mur_flock *f, bool state)
{
    fprintf(fp, "# murmur: %s\n", MUR_VERSION_STRING);
    fprintf(fp, "# revision: %s\n", mur_prov_revision());
    fprintf(fp, "# preset: %s\n", preset);
    fprintf(fp, "# seed: %llu\n", (unsigned long long)def->seed);
    fprintf(fp, "# boids: %d\n", (int)def->boids);
    fprintf(fp, "# dt_s: %.9g\n", (double)def->dt);
    write_diffs(fp, "# set: ", preset, def, false);
    fprintf(fp, "# command: %s\n", command);
    if (state && f) {
        const mur_view v = mur_flock_view(f);
        fprintf(fp, "# tick: %llu\n", (unsigned long long)v.tick);
        fprintf(fp, "# time_s: %.17g\n", v.time_s);
    }
    return !ferror(fp);
}

bool mur_prov_write_params(FILE *fp, const mur_cli *cli)
{
    fprintf(fp, "# murmur parameter file (murmur --params FILE repeats the run)\n");
    fprintf(fp, "# murmur: %s, revision: %s\n", MUR_VERSION_STRING, mur_prov_revision());
    fprintf(fp, "# command: %s\n", command);
    if (cli->init_path)
        fprintf(fp, "# the run started from the state file %s (--init): give it again\n", cli->init_path);
    if (cli->resume_path)
        fprintf(fp, "# the run resumed the state file %s (--resume): give it again\n", cli->resume_path);
    for (int k = 0; k < cli->nat; k++)
        fprintf(fp, "# scheduled change (give it again on the command line): --at %lld:%s=%s\n",
                (long long)cli->at[k].tick, cli->at[k].name, cli->at[k].value);
    fprintf(fp, "preset = %s\n", cli->preset);
    fprintf(fp, "boids = %d\n", (int)cli->def.boids);
    fprintf(fp, "seed = %llu\n", (unsigned long long)cli->def.seed);
    write_diffs(fp, "", cli->preset, &cli->def, true);
    return !ferror(fp);
}

/* ------------------------------------------------------------------ --resume */

void mur_resume_free(mur_resume *r)
{
    free(r->sets);
    r->sets = NULL;
    r->nsets = 0;
}

static bool fail(mur_resume *r, FILE *fp, const char *path, const char *what)
{
    fprintf(stderr, "murmur: --resume %s: %s\n", path, what);
    if (fp)
        fclose(fp);
    mur_resume_free(r);
    return false;
}

bool mur_resume_read(const char *path, mur_resume *r)
{
    memset(r, 0, sizeof *r);
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(r, NULL, path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(r, NULL, path, "not a regular file (the state is read twice: its comment lines, then its boids)");
    FILE *fp = fopen(path, "r");
    if (!fp)
        return fail(r, NULL, path, strerror(errno));
    char line[1100];
    bool tick = false, time = false;
    int cap = 0;
    while (fgets(line, sizeof line, fp) && line[0] == '#') {
        size_t l = strlen(line);
        if (l + 1 >= sizeof line)
            return fail(r, fp, path, "a comment line longer than 1024 bytes");
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
            line[--l] = 0;
        char *end;
        if (!strncmp(line, "# preset: ", 10)) {
            if (strlen(line + 10) >= sizeof r->preset)
                return fail(r, fp, path, "the '# preset:' line names no preset");
            snprintf(r->preset, sizeof r->preset, "%s", line + 10);
        } else if (!strncmp(line, "# set: ", 7)) {
            if (r->nsets == cap) {
                cap = cap ? 2 * cap : 64;
                char(*s)[256] = realloc(r->sets, (size_t)cap * sizeof *s);
                if (!s)
                    return fail(r, fp, path, "out of memory");
                r->sets = s;
            }
            /* "name = value" -> "name=value" */
            char *eq = strstr(line + 7, " = ");
            if (!eq || strlen(line + 7) >= 250)
                return fail(r, fp, path, "a '# set:' line is not 'name = value'");
            snprintf(r->sets[r->nsets++], 256, "%.*s=%s", (int)(eq - (line + 7)), line + 7, eq + 3);
        } else if (!strncmp(line, "# tick: ", 8)) {
            errno = 0;
            unsigned long long t = strtoull(line + 8, &end, 10);
            if (end == line + 8 || *end || errno || line[8] == '-')
                return fail(r, fp, path, "the '# tick:' line is not a whole number");
            r->tick = t;
            tick = true;
        } else if (!strncmp(line, "# time_s: ", 10)) {
            double t = strtod(line + 10, &end);
            if (end == line + 10 || *end || !isfinite(t) || t < 0.0 || t > 1e15)
                return fail(r, fp, path, "the '# time_s:' line is not a finite number in [0, 1e15]");
            r->time_s = t;
            time = true;
        }
    }
    fclose(fp);
    if (!tick || !time || !r->preset[0])
        return fail(r, NULL, path,
                    "no '# preset:', '# tick:' and '# time_s:' lines: not a state written by murmur --export "
                    "(--init FILE starts from any state at tick 0)");
    return true;
}
