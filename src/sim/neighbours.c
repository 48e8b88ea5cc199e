/* The neighbours one boid's rules use (murmur.h, mur_flock_neighbours), by brute force over the
 * flock with the rules' own tests: minimum image, view radius, view cone (the kernel's
 * root-free form) and, in topological mode, the (distance^2, index) order of topo.c. */
#include <stdlib.h>

#include "flock_impl.h"
#include "rules.h"
#include "space.h"
#include "topo.h"

typedef struct cand {
    float d2;
    int32_t idx;
} cand;

static int by_distance(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->d2 != y->d2)
        return x->d2 < y->d2 ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Is j (offset d, squared distance d2) visible to a boid with velocity v under the rule constants? */
static bool visible(const mur_rule_k *k, const float v[3], const float d[3], float d2)
{
    if (!(d2 < k->r2))
        return false;
    if (!k->cone)
        return true;
    const float c = k->cos_half * sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    const float dot = d[0] * v[0] + d[1] * v[1] + d[2] * v[2];
    const float dd = dot * dot, kd = d2 * (c * c);
    return c >= 0.0f ? (dot >= 0.0f && dd >= kd) : (dot >= 0.0f || dd <= kd);
}

int32_t mur_flock_neighbours(const mur_flock *f, int32_t i, int32_t *out, int32_t max)
{
    if (!f || i < 0 || i >= f->n)
        return -1;
    const mur_flock_def def = mur_def_resolved(&f->def);
    mur_world w;
    mur_world_init(&w, &def);
    mur_rule_k k;
    mur_rules_prepare(&def, &k);
    cand *c = malloc(sizeof *c * (size_t)(f->n > 1 ? f->n : 1));
    if (!c)
        return -1;
    const float *pi = f->pos + 3 * (size_t)i, *vi = f->vel + 3 * (size_t)i;
    int32_t n = 0;
    for (int32_t j = 0; j < f->n; j++) {
        if (j == i || (f->perch[j] != 0 && !def.perch_neighbours))
            continue;
        const float *pj = f->pos + 3 * (size_t)j;
        float d[3];
        for (int a = 0; a < 3; a++)
            d[a] = mur_min_image(pj[a], pi[a], w.L[a], w.hL[a], w.wrap);
        const float d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (visible(&k, vi, d, d2))
            c[n++] = (cand){d2, j};
    }
    qsort(c, (size_t)n, sizeof *c, by_distance);
    if (def.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL) {
        const int32_t cap = mur_topo_list_size(&def);
        n = n < cap ? n : cap;
    }
    for (int32_t q = 0; q < n && q < max; q++)
        out[q] = c[q].idx;
    free(c);
    return n;
}
