/* Biggest group of a view (see group.h). */
#include "group.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CELLS = 64 };

typedef struct grid {
    int n[3];
    float lo[3], cell;
} grid;

static int cell_of(const grid *g, const float *p)
{
    int idx[3];
    for (int k = 0; k < 3; k++) {
        int i = (int)floorf((p[k] - g->lo[k]) / g->cell);
        idx[k] = i < 0 ? 0 : i >= g->n[k] ? g->n[k] - 1 : i;
    }
    return (idx[2] * g->n[1] + idx[1]) * g->n[0] + idx[0];
}

/* Label the occupied cells connected to start with label; returns the boids in them. */
static int64_t flood(const grid *g, const int32_t *count, int32_t *label, int32_t *stack, int start, int32_t lab)
{
    int64_t total = 0;
    int top = 0;
    stack[top++] = start;
    label[start] = lab;
    while (top > 0) {
        int c = stack[--top];
        total += count[c];
        int x = c % g->n[0], y = (c / g->n[0]) % g->n[1], z = c / (g->n[0] * g->n[1]);
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int a = x + dx, b = y + dy, e = z + dz;
                    if (a < 0 || b < 0 || e < 0 || a >= g->n[0] || b >= g->n[1] || e >= g->n[2])
                        continue;
                    int o = (e * g->n[1] + b) * g->n[0] + a;
                    if (count[o] > 0 && label[o] == 0) {
                        label[o] = lab;
                        stack[top++] = o;
                    }
                }
    }
    return total;
}

mur_group mur_biggest_group(const mur_view *v, const mur_flock_def *def)
{
    mur_group out;
    memset(&out, 0, sizeof out);
    if (v->boids <= 0)
        return out;
    grid g;
    /* the boids' bounding box: without walls (roost, bounds=none) they fly outside the world box */
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = v->pos[k];
    for (int32_t i = 1; i < v->boids; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], v->pos[(size_t)i * 3 + k]);
            hi[k] = fmaxf(hi[k], v->pos[(size_t)i * 3 + k]);
        }
    float ext = 0.0f;
    for (int k = 0; k < 3; k++)
        ext = fmaxf(ext, hi[k] - lo[k]);
    const bool topo = def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && def->separation_radius > 0.0f;
    const float link = topo ? fminf(2.5f * def->separation_radius, def->view_radius) : 2.0f * def->view_radius;
    g.cell = fmaxf(link, ext / (float)MAX_CELLS);
    if (!(g.cell > 0.0f))
        g.cell = 1.0f;
    size_t cells = 1;
    for (int k = 0; k < 3; k++) {
        g.lo[k] = lo[k];
        int n = (int)ceilf((hi[k] - lo[k]) / g.cell) + 1;
        g.n[k] = n < 1 ? 1 : n > MAX_CELLS ? MAX_CELLS : n;
        cells *= (size_t)g.n[k];
    }
    int32_t *count = calloc(cells, sizeof *count);
    int32_t *label = calloc(cells, sizeof *label);
    int32_t *stack = malloc(cells * sizeof *stack);
    if (!count || !label || !stack) {
        free(count);
        free(label);
        free(stack);
        return out;
    }
    for (int32_t i = 0; i < v->boids; i++)
        count[cell_of(&g, v->pos + (size_t)i * 3)]++;
    int32_t best = 0, lab = 0;
    int64_t best_n = 0;
    for (size_t c = 0; c < cells; c++)
        if (count[c] > 0 && label[c] == 0) {
            int64_t n = flood(&g, count, label, stack, (int)c, ++lab);
            if (n > best_n) {
                best_n = n;
                best = lab;
            }
        }
    double s[3] = {0, 0, 0}, s2 = 0.0;
    int32_t n = 0;
    for (int32_t i = 0; i < v->boids; i++) {
        const float *p = v->pos + (size_t)i * 3;
        if (label[cell_of(&g, p)] != best)
            continue;
        for (int k = 0; k < 3; k++)
            s[k] += (double)p[k];
        n++;
    }
    for (int k = 0; k < 3; k++)
        out.centre[k] = s[k] / (double)n;
    for (int32_t i = 0; i < v->boids; i++) {
        const float *p = v->pos + (size_t)i * 3;
        if (label[cell_of(&g, p)] != best)
            continue;
        for (int k = 0; k < 3; k++)
            s2 += ((double)p[k] - out.centre[k]) * ((double)p[k] - out.centre[k]);
    }
    out.radius = sqrt(s2 / (double)n);
    out.boids = n;
    free(count);
    free(label);
    free(stack);
    return out;
}
