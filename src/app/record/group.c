/* Biggest group of a view (see group.h): the library's groups (mur_label_groups, the union-find of
 * the flock's `groups` metric) at the camera's link distance. */
#include "group.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The k-th smallest of x[0..n) (quickselect; reorders x). */
static double kth(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j];
                x[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return x[k];
}

/* The group's extent along its principal axes: from the 2nd to the 98th percentile of the members'
 * offsets on each (a few stragglers do not make the box; min and max when memory is short). */
static void group_box(const mur_view *v, const int32_t *label, int32_t best, int32_t members, mur_group *g)
{
    double cov[3][3] = {{0}}, val[3], ax[3][3], lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    double *t = malloc(sizeof *t * (size_t)members * 3);
    for (int32_t i = 0; i < v->boids; i++)
        if (label[i] == best) {
            double d[3];
            for (int k = 0; k < 3; k++)
                d[k] = (double)v->pos[(size_t)i * 3 + k] - g->centre[k];
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    cov[a][b] += d[a] * d[b];
        }
    mur_eigen_sym3(cov, val, ax); /* the library's solver: ax[a] is axis a */
    size_t m = 0;
    for (int32_t i = 0; i < v->boids; i++)
        if (label[i] == best) {
            for (int a = 0; a < 3; a++) {
                double d = 0.0;
                for (int k = 0; k < 3; k++)
                    d += ((double)v->pos[(size_t)i * 3 + k] - g->centre[k]) * ax[a][k];
                lo[a] = fmin(lo[a], d);
                hi[a] = fmax(hi[a], d);
                if (t)
                    t[(size_t)a * (size_t)members + m] = d;
            }
            m++;
        }
    if (t && m == (size_t)members && m >= 50)
        for (int a = 0; a < 3; a++) {
            double *ta = t + (size_t)a * m;
            lo[a] = kth(ta, m, m / 50);
            hi[a] = kth(ta, m, m - 1 - m / 50);
        }
    free(t);
    for (int k = 0; k < 3; k++) {
        double c = g->centre[k];
        for (int a = 0; a < 3; a++)
            c += 0.5 * (lo[a] + hi[a]) * ax[a][k];
        g->box[0][k] = (float)c;
        for (int a = 0; a < 3; a++)
            g->box[a + 1][k] = (float)(0.5 * (hi[a] - lo[a]) * ax[a][k]);
    }
}

mur_group mur_biggest_group(const mur_view *v, const mur_flock_def *def)
{
    mur_group out;
    memset(&out, 0, sizeof out);
    const int32_t n = v->boids;
    if (n <= 0)
        return out;
    const bool topo = def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && def->separation_radius > 0.0f;
    const float link = topo ? fminf(2.5f * def->separation_radius, def->view_radius) : 2.0f * def->view_radius;
    int32_t *label = malloc(sizeof *label * (size_t)n);
    int32_t *count = calloc((size_t)n, sizeof *count);
    if (!label || !count || mur_label_groups(v->pos, n, link, label, NULL) < 0) {
        free(label);
        free(count);
        return out;
    }
    /* the most members; ties: the smallest label */
    int32_t best = label[0];
    for (int32_t i = 0; i < n; i++) {
        const int32_t l = label[i];
        if (++count[l] > count[best] || (count[l] == count[best] && l < best))
            best = l;
    }
    double s[3] = {0, 0, 0}, s2 = 0.0;
    for (int32_t i = 0; i < n; i++)
        if (label[i] == best)
            for (int k = 0; k < 3; k++)
                s[k] += (double)v->pos[(size_t)i * 3 + k];
    const int32_t m = count[best];
    for (int k = 0; k < 3; k++)
        out.centre[k] = s[k] / (double)m;
    for (int32_t i = 0; i < n; i++)
        if (label[i] == best)
            for (int k = 0; k < 3; k++) {
                const double d = (double)v->pos[(size_t)i * 3 + k] - out.centre[k];
                s2 += d * d;
            }
    out.radius = sqrt(s2 / (double)m);
    out.boids = m;
    group_box(v, label, best, m, &out);
    free(label);
    free(count);
    return out;
}

void mur_group_include(mur_group *g, const float p[3])
{
    if (g->boids <= 0)
        return;
    for (int a = 1; a <= 3; a++) {
        float *h = g->box[a];
        const float len = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        if (!(len > 1e-6f))
            continue;
        float c = 0.0f;
        for (int i = 0; i < 3; i++)
            c += (p[i] - g->box[0][i]) * h[i] / len;
        if (fabsf(c) <= len)
            continue;
        /* the side toward p moves out to p, the other stays: the half axis grows by half the gap */
        const float grow = 0.5f * (fabsf(c) - len), shift = c > 0.0f ? grow : -grow;
        for (int i = 0; i < 3; i++) {
            g->box[0][i] += shift * h[i] / len;
            h[i] *= (len + grow) / len;
        }
    }
    double d2 = 0.0;
    for (int i = 0; i < 3; i++) {
        g->centre[i] = g->box[0][i];
        d2 += ((double)p[i] - g->centre[i]) * ((double)p[i] - g->centre[i]);
    }
    if (sqrt(d2) > g->radius)
        g->radius = sqrt(d2);
}
