/* Biggest group of a view (see group.h): the library's groups (mur_label_groups, the union-find of
 * the flock's `groups` metric) at the camera's link distance. */
#include "group.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    free(label);
    free(count);
    return out;
}
