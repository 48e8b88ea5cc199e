/* Keyframed camera paths (see camera_path.h). */
#include "camera_path.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_KEYS = 10000 };

static bool parse_line(const char *line, mur_cam_key *k, float prev_fov, int *nvals)
{
    double v[8];
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p || *p == '#' || *p == '\n' || *p == '\r')
            break;
        if (n == 8)
            return false;
        char *end;
        v[n] = strtod(p, &end);
        if (end == p || !isfinite(v[n]) || fabs(v[n]) > 1e6)
            return false;
        n++;
        p = end;
    }
    *nvals = n;
    if (n == 0)
        return true;
    if (n != 7 && n != 8)
        return false;
    k->t = v[0];
    for (int i = 0; i < 3; i++) {
        k->eye[i] = (float)v[1 + i];
        k->at[i] = (float)v[4 + i];
    }
    k->fov_deg = n == 8 ? (float)v[7] : prev_fov;
    return true;
}

bool mur_cam_path_load(mur_cam_path *p, const char *path, char *err, size_t len)
{
    memset(p, 0, sizeof *p);
    /* a small keyframe file: a regular file only (a FIFO or a device would block or never end) */
    struct stat st;
    if (stat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > (1 << 20))) {
        snprintf(err, len, "--camera-path %s: %s", path,
                 S_ISREG(st.st_mode) ? "larger than 1 MiB: not a keyframe file" : "not a regular file");
        return false;
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, len, "--camera-path %s: %s", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0;
    bool ok = true;
    /* at most 1 MiB (checked above): getline's memory is bounded */
    while (ok && (got = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        bool text = got <= 1024;
        for (ssize_t c = 0; text && c < got; c++)
            text = (unsigned char)line[c] >= 32 || line[c] == '\t' || line[c] == '\n' || line[c] == '\r';
        if (!text) {
            snprintf(err, len, "--camera-path %s:%d: not a text line of at most 1024 bytes: not a keyframe file", path,
                     lineno);
            ok = false;
            break;
        }
        const char *w = line;
        while (*w == ' ' || *w == '\t')
            w++;
        if (!strncmp(w, "relative", 8) && (w[8] == '\0' || w[8] == '\n' || w[8] == '\r' || w[8] == ' ' ||
                                            w[8] == '\t' || w[8] == '#')) {
            p->relative = true;
            continue;
        }
        mur_cam_key k;
        int nv = 0;
        float prev_fov = p->n > 0 ? p->keys[p->n - 1].fov_deg : 45.0f;
        if (!parse_line(line, &k, prev_fov, &nv)) {
            snprintf(err, len, "--camera-path %s:%d: expected 'time x y z lx ly lz [fov]' (numbers within 1e6) or 'relative'",
                     path, lineno);
            ok = false;
        } else if (nv == 0) {
            continue;
        } else if (k.t < 0.0 || (p->n > 0 && !(k.t > p->keys[p->n - 1].t))) {
            snprintf(err, len, "--camera-path %s:%d: time %g must be >= 0 and later than the previous keyframe's",
                     path, lineno, k.t);
            ok = false;
        } else if (!(k.fov_deg >= 1.0f && k.fov_deg <= 170.0f)) {
            snprintf(err, len, "--camera-path %s:%d: fov %g is outside [1, 170] degrees", path, lineno,
                     (double)k.fov_deg);
            ok = false;
        } else if (p->n == MAX_KEYS) {
            snprintf(err, len, "--camera-path %s: more than %d keyframes", path, MAX_KEYS);
            ok = false;
        } else {
            mur_cam_key *nk = realloc(p->keys, (size_t)(p->n + 1) * sizeof *nk);
            if (!nk) {
                snprintf(err, len, "--camera-path %s: out of memory", path);
                ok = false;
            } else {
                p->keys = nk;
                p->keys[p->n++] = k;
            }
        }
    }
    free(line);
    fclose(fp);
    if (ok && p->n == 0) {
        snprintf(err, len, "--camera-path %s: no keyframes (lines 'time x y z lx ly lz [fov]')", path);
        ok = false;
    }
    if (!ok)
        mur_cam_path_free(p);
    return ok;
}

/* Catmull-Rom through b (u = 0) and c (u = 1), with a and d the neighbours. */
static float spline(float a, float b, float c, float d, float u)
{
    float u2 = u * u, u3 = u2 * u;
    return 0.5f * (2.0f * b + (-a + c) * u + (2.0f * a - 5.0f * b + 4.0f * c - d) * u2 + (-a + 3.0f * b - 3.0f * c + d) * u3);
}

void mur_cam_path_at(const mur_cam_path *p, double t, float eye[3], float at[3], float *fov_deg)
{
    const mur_cam_key *k = p->keys;
    int n = p->n;
    int i = 0;
    if (t <= k[0].t || n == 1) {
        i = 0;
    } else if (t >= k[n - 1].t) {
        i = n - 1;
    } else {
        while (i + 1 < n && k[i + 1].t <= t)
            i++;
    }
    if (t <= k[0].t || t >= k[n - 1].t || n == 1) {
        memcpy(eye, k[i].eye, sizeof k[i].eye);
        memcpy(at, k[i].at, sizeof k[i].at);
        *fov_deg = k[i].fov_deg;
        return;
    }
    const mur_cam_key *a = &k[i > 0 ? i - 1 : i], *b = &k[i], *c = &k[i + 1], *d = &k[i + 2 < n ? i + 2 : i + 1];
    float u = (float)((t - b->t) / (c->t - b->t));
    for (int j = 0; j < 3; j++) {
        eye[j] = spline(a->eye[j], b->eye[j], c->eye[j], d->eye[j], u);
        at[j] = spline(a->at[j], b->at[j], c->at[j], d->at[j], u);
    }
    float s = u * u * (3.0f - 2.0f * u);
    *fov_deg = b->fov_deg + (c->fov_deg - b->fov_deg) * s;
}

void mur_cam_path_free(mur_cam_path *p)
{
    free(p->keys);
    p->keys = NULL;
    p->n = 0;
}
