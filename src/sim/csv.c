/* CSV state files: kind,x,y,z,vx,vy,vz,perch,roll (docs/rules.md; roll, the bank angle, was added at the
 * end: files without it load with roll 0). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "flock_impl.h"
#include "text_in.h"

#define HEADER "kind,x,y,z,vx,vy,vz,perch"
/// The column written after HEADER (and read when a file has it there).
#define ROLL_COLUMN "roll"
/// Largest bank angle a state file may give, radians.
#define MAX_ROLL 6.3
#define MAX_LINE 1024
/* Largest magnitude of a position or velocity component. Finite floats near FLT_MAX overflow in the
 * first tick (squared distances and speeds); 1e9 wu is a thousand times the largest world box. */
#define MAX_ABS 1e9

bool mur_flock_save_csv(const mur_flock *f, const char *path, mur_error *err)
{
    mur_afile a;
    if (!mur_afile_open(&a, path, err))
        return false;
    mur_flock_write_csv(f, a.fp); /* a failed write shows in the commit's check */
    return mur_afile_commit(&a, err);
}

bool mur_flock_write_csv(const mur_flock *f, FILE *fp)
{
    /* roll (the bank angle) always; with the falcon on, each bird's escape state (mur_escape_state) after it */
    const bool esc = f->def.falcon && f->esc_cap >= f->n;
    fputs(esc ? HEADER "," ROLL_COLUMN ",escape\n" : HEADER "," ROLL_COLUMN "\n", fp);
    for (int32_t i = 0; i < f->n; i++) {
        const float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
        fprintf(fp, "boid,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%.9g", (double)p[0], (double)p[1], (double)p[2],
                (double)v[0], (double)v[1], (double)v[2], (int)f->perch[i], (double)f->roll[i]);
        if (esc)
            fprintf(fp, ",%d", (int)(f->esc[i] & 7));
        fputc('\n', fp);
    }
    for (int32_t k = 0; k < f->np; k++) {
        const float *p = f->ppos + 3 * (size_t)k, *v = f->pvel + 3 * (size_t)k;
        fprintf(fp, "predator,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,0,0%s\n", (double)p[0], (double)p[1], (double)p[2],
                (double)v[0], (double)v[1], (double)v[2], esc ? ",0" : "");
    }
    return !ferror(fp);
}

typedef struct agent {
    float v[6];
    int32_t perch;
    float roll;
} agent;

typedef struct list {
    agent *a;
    size_t n, cap;
} list;

static bool push(list *l, const agent *x)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 1024;
        agent *q = realloc(l->a, c * sizeof *q);
        if (!q)
            return false;
        l->a = q;
        l->cap = c;
    }
    l->a[l->n++] = *x;
    return true;
}

static bool parse_float_field(const char *s, float *out)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || !isfinite(v) || !(fabs(v) <= MAX_ABS))
        return false;
    *out = (float)v;
    return true;
}

/* One row of ncols fields (the header's: 8, or more when columns were added at the end, which are
 * read past but for roll, the 9th when the header names it). */
static bool parse_line(char *line, int ncols, bool has_roll, agent *a, bool *is_pred, const char **why)
{
    char *fields[9];
    int nf = 0;
    char *s = line;
    fields[nf++] = s;
    for (; *s; s++) {
        if (*s == ',') {
            *s = 0;
            if (nf < 9)
                fields[nf] = s + 1;
            nf++;
        }
    }
    if (nf != ncols) {
        static char msg[96];
        snprintf(msg, sizeof msg, "expected %d fields as in the header (kind,x,y,z,vx,vy,vz,perch%s), got %d", ncols,
                 ncols > 8 ? ",..." : "", nf);
        *why = msg;
        return false;
    }
    if (strcmp(fields[0], "boid") == 0)
        *is_pred = false;
    else if (strcmp(fields[0], "predator") == 0)
        *is_pred = true;
    else {
        *why = "unknown kind (expected boid or predator)";
        return false;
    }
    for (int k = 0; k < 6; k++) {
        if (!parse_float_field(fields[1 + k], &a->v[k])) {
            static const char *names[] = {"x", "y", "z", "vx", "vy", "vz"};
            static char msg[64];
            snprintf(msg, sizeof msg, "%s is not a finite number in [-1e9, 1e9]", names[k]);
            *why = msg;
            return false;
        }
    }
    char *end;
    errno = 0;
    long p = strtol(fields[7], &end, 10);
    if (!*fields[7] || *end || errno || p < 0 || p > 1000000) {
        *why = "perch is not a whole number in [0, 1000000]";
        return false;
    }
    if (*is_pred && p != 0) {
        *why = "a predator's perch must be 0";
        return false;
    }
    a->perch = (int32_t)p;
    a->roll = 0.0f;
    if (has_roll && (!parse_float_field(fields[8], &a->roll) || !(fabsf(a->roll) <= MAX_ROLL))) {
        *why = "roll is not a finite angle in [-6.3, 6.3] (radians)";
        return false;
    }
    return true;
}

/* Check one line read by getline (got bytes, '\n' included) and strip its line end. */
static bool check_line(char *line, size_t l, const char *path, long lineno, mur_error *err)
{
    /* (the length is capped by the reader, text_in.c, at MAX_LINE) a line comes without '\n' only at
     * the end of the file: a file cut short (or still being written) mid-line, whose last number
     * could otherwise read as a valid one */
    if (line[l - 1] != '\n') {
        mur_set_error(err, "%s:%ld: the last line has no line end: the file is cut short or still being written",
                      path, lineno);
        return false;
    }
    while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r'))
        line[--l] = 0;
    for (size_t i = 0; i < l; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 32 || c > 126) {
            mur_set_error(err, "%s:%ld: unexpected byte 0x%02x (not a text CSV state file)", path, lineno, c);
            return false;
        }
    }
    return true;
}

/* Read every agent of an open state file into boids and preds. */
static bool read_agents(mur_text *t, list *boids, list *preds, mur_error *err)
{
    bool has_roll = false;
    const char *path = t->name;
    char *line = NULL;
    size_t got = 0;
    bool ok = true, header = false;
    int r = 0, ncols = 8;
    while (ok && (r = mur_text_line(t, &line, &got, err)) > 0) {
        const long lineno = t->lineno;
        if (!check_line(line, got, path, lineno, err)) {
            ok = false;
            break;
        }
        if (line[0] == '#') /* how the file was made (RULES.md): read past */
            continue;
        if (!header) {
            /* the header; columns may have been added at the end */
            size_t hl = strlen(HEADER);
            if (strncmp(line, HEADER, hl) != 0 || (line[hl] && line[hl] != ',')) {
                mur_set_error(err, "%s:%ld: expected the header '" HEADER "'", path, lineno);
                ok = false;
                break;
            }
            for (const char *c = line + hl; *c; c++)
                ncols += *c == ',';
            const size_t rl = strlen(ROLL_COLUMN);
            has_roll = line[hl] == ',' && strncmp(line + hl + 1, ROLL_COLUMN, rl) == 0 &&
                       (line[hl + 1 + rl] == ',' || !line[hl + 1 + rl]);
            header = true;
            continue;
        }
        if (!line[0])
            continue;
        agent a;
        bool pred;
        const char *why = "";
        if (!parse_line(line, ncols, has_roll, &a, &pred, &why)) {
            mur_set_error(err, "%s:%ld: %s", path, lineno, why);
            ok = false;
        } else if ((pred ? preds->n >= MUR_MAX_PREDATORS : boids->n >= MUR_MAX_BOIDS)) {
            mur_set_error(err, "%s:%ld: too many %s (at most %d)", path, lineno, pred ? "predators" : "boids",
                          pred ? MUR_MAX_PREDATORS : MUR_MAX_BOIDS);
            ok = false;
        } else if (!push(pred ? preds : boids, &a)) {
            mur_set_error(err, "%s:%ld: out of memory", path, lineno);
            ok = false;
        }
    }
    if (ok && r < 0)
        ok = false; /* mur_text_line set err */
    if (ok && !header) {
        mur_set_error(err, "%s: empty file (expected the header '" HEADER "')", path);
        ok = false;
    }
    return ok;
}

mur_flock *mur_flock_load_csv(const mur_flock_def *def, const char *path, mur_error *err)
{
    mur_text t;
    if (!mur_text_open(&t, path, "state file", MAX_LINE, err))
        return NULL;
    list boids = {0}, preds = {0};
    bool ok = read_agents(&t, &boids, &preds, err);
    mur_text_close(&t);
    mur_flock *f = NULL;
    if (ok) {
        mur_flock_def d = *def;
        d.boids = (int32_t)boids.n;
        d.predators = (int32_t)preds.n;
        f = mur_flock_create(&d, err);
        if (f) {
            for (int32_t i = 0; i < f->n; i++) {
                memcpy(f->pos + 3 * (size_t)i, boids.a[i].v, 3 * sizeof(float));
                memcpy(f->vel + 3 * (size_t)i, boids.a[i].v + 3, 3 * sizeof(float));
                f->perch[i] = boids.a[i].perch;
                f->roll[i] = boids.a[i].roll;
            }
            for (int32_t k = 0; k < f->np; k++) {
                memcpy(f->ppos + 3 * (size_t)k, preds.a[k].v, 3 * sizeof(float));
                memcpy(f->pvel + 3 * (size_t)k, preds.a[k].v + 3, 3 * sizeof(float));
            }
        }
    }
    free(boids.a);
    free(preds.a);
    return f;
}
