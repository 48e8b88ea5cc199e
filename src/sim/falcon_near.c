/* The birds near the falcon, measured each metrics tick (docs/falcon.md, "In the outputs"): how many flying
 * birds are within MUR_FALCON_NEAR_M of the falcon and their mean nearest-neighbour distance (to any flying
 * bird, capped at NEAR_CAP). Where the flock opens around the falcon (a vacuole, a flash expansion along its
 * path) this rises while the whole flock's mean hardly moves. Read by metrics only (no state changes). */
#include <math.h>
#include <stdlib.h>

#include "falcon.h"

#include "core.h"
#include "flock_impl.h"

/* A near bird's nearest neighbour counts as at most this far (m): then only the birds within
 * MUR_FALCON_NEAR_M + NEAR_CAP of the falcon can be its nearest, and the result is exact. */
#define NEAR_CAP 5.0f

void mur_falcon_near(const mur_flock *f, double *nn, int32_t *count)
{
    const mur_falcon *F = &f->falcon;
    *nn = 0.0;
    *count = 0;
    if (F->phase == MUR_FALCON_OFF || f->n < 2)
        return;
    const float rin = MUR_FALCON_NEAR_M, rout = MUR_FALCON_NEAR_M + NEAR_CAP;
    int32_t *cand = NULL, nc = 0, cap = 0;
    for (int32_t i = 0; i < f->n; i++) {
        if (f->perch[i] > 0)
            continue;
        const float *p = f->pos + 3 * (size_t)i;
        const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
        if (!(dot3(r, r) < rout * rout))
            continue;
        if (nc == cap) {
            cap = cap ? 2 * cap : 256;
            int32_t *g = realloc(cand, (size_t)cap * sizeof *cand);
            if (!g) {
                free(cand);
                return;
            }
            cand = g;
        }
        cand[nc++] = i;
    }
    double sum = 0.0;
    int32_t k = 0;
    for (int32_t a = 0; a < nc; a++) {
        const float *p = f->pos + 3 * (size_t)cand[a];
        const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
        if (!(dot3(r, r) < rin * rin))
            continue;
        float best = NEAR_CAP * NEAR_CAP;
        for (int32_t b = 0; b < nc; b++) {
            if (b == a)
                continue;
            const float *q = f->pos + 3 * (size_t)cand[b];
            const float u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
            const float d2 = dot3(u, u);
            best = d2 < best ? d2 : best;
        }
        sum += sqrt((double)best);
        k++;
    }
    free(cand);
    *nn = k > 0 ? sum / k : 0.0;
    *count = k;
}
