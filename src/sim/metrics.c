/* Flock metrics: centre, diameter, polarisation, perching count and groups. Sums run over fixed blocks
 * of boids in double precision and are combined in block order, so they do not depend on threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#include "flock_impl.h"
#include "step.h"

#define BLOCK MUR_METRIC_BLOCK

typedef struct block_sum {
    double x, y, z, ux, uy, uz, dist;
    int64_t flying, perching;
} block_sum;

/* Concurrent union-find over sorted slots (Anderson & Woll style: link the larger root under the
 * smaller with a compare-and-swap). The partition, and so the group count, is the same whatever the
 * order of the unions. */
static int32_t uf_find(int32_t *parent, int32_t a)
{
    for (;;) {
        int32_t p = __atomic_load_n(&parent[a], __ATOMIC_RELAXED);
        if (p == a)
            return a;
        int32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
        if (gp != p) /* path halving */
            __atomic_compare_exchange_n(&parent[a], &p, gp, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        a = gp;
    }
}

static void uf_union(int32_t *parent, int32_t a, int32_t b)
{
    for (;;) {
        a = uf_find(parent, a);
        b = uf_find(parent, b);
        if (a == b)
            return;
        if (a < b) {
            int32_t t = a;
            a = b;
            b = t;
        }
        int32_t expect = a;
        if (__atomic_compare_exchange_n(&parent[a], &expect, b, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return;
    }
}

/* Union boid k with every boid of [j0, j1) closer than sqrt(r2): the distance test runs as a
 * vectorisable loop into a hit list, the unions (few) afterwards. */
#define LINK_BLOCK 256
static void link_boid(const mur_flock *f, int32_t *parent, int32_t k, int32_t j0, int32_t j1, float r2,
                      const mur_world *w)
{
    const bool wrap = w->wrap;
    const float *L = w->L, *hL = w->hL;
    const float px = f->sx[k], py = f->sy[k], pz = f->sz[k];
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz;
    const float Lx = L[0], Ly = L[1], Lz = L[2], hx = hL[0], hy = hL[1], hz = hL[2];
    int32_t hit[LINK_BLOCK];
    for (int32_t b = j0; b < j1; b += LINK_BLOCK) {
        const int32_t m = j1 - b < LINK_BLOCK ? j1 - b : LINK_BLOCK;
        const float *restrict x = X + b, *restrict y = Y + b, *restrict z = Z + b;
        if (wrap) {
#pragma omp simd
            for (int32_t j = 0; j < m; j++) {
                const float ex = mur_min_image(x[j], px, Lx, hx, true);
                const float ey = mur_min_image(y[j], py, Ly, hy, true);
                const float ez = mur_min_image(z[j], pz, Lz, hz, true);
                hit[j] = ex * ex + ey * ey + ez * ez < r2 ? 1 : 0;
            }
        } else {
#pragma omp simd
            for (int32_t j = 0; j < m; j++) {
                float dx = x[j] - px, dy = y[j] - py, dz = z[j] - pz;
                hit[j] = dx * dx + dy * dy + dz * dz < r2 ? 1 : 0;
            }
        }
        for (int32_t j = 0; j < m; j++)
            if (hit[j])
                uf_union(parent, k, b + j);
    }
}

/* Groups: connected components of the graph linking boids closer than view_radius (no view cone,
 * perching boids included), over the grid already built for this tick. */
static int32_t count_groups(mur_flock *f, const mur_step *s)
{
    const mur_grid *g = &f->grid;
    const int32_t n = f->n;
    int32_t *parent = f->cellof; /* free after the sort */
    for (int32_t i = 0; i < n; i++)
        parent[i] = i;
    const float r2 = f->def.view_radius * f->def.view_radius;
    const int64_t ncells = g->ncells;
    const int nt = s->threads;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 8)
#endif
    for (int64_t c = 0; c < ncells; c++) {
        const int32_t lo = g->start[c], hi = g->start[c + 1];
        if (lo == hi)
            continue;
        int32_t cc[3];
        mur_cell_xyz(g, c, &cc[0], &cc[1], &cc[2]);
        /* the unique neighbour cells (wrapped or clipped); the pair distance uses the minimum image */
        int32_t ks[3][5] = {{0}};
        int nk[3];
        for (int a = 0; a < 3; a++)
            nk[a] = mur_axis_cells(g, a, cc[a], true, 0.0f, ks[a], NULL);
        for (int iz = 0; iz < nk[2]; iz++)
            for (int iy = 0; iy < nk[1]; iy++)
                for (int ix = 0; ix < nk[0]; ix++) {
                    int64_t nc = mur_cell_id(g, ks[0][ix], ks[1][iy], ks[2][iz]);
                    if (nc < c)
                        continue; /* each cell pair once */
                    const int32_t lo2 = g->start[nc], hi2 = g->start[nc + 1];
                    for (int32_t k = lo; k < hi; k++)
                        link_boid(f, parent, k, nc == c ? k + 1 : lo2, hi2, r2, &s->world);
                }
    }
    int32_t groups = 0;
    for (int32_t i = 0; i < n; i++)
        groups += parent[i] == i;
    return groups;
}

/* Position sums, unit velocity sums and counts of the boids of block b. */
static block_sum sum_block(const mur_flock *f, int64_t b)
{
    const float *p = f->pos, *v = f->vel;
    const int32_t n = f->n;
    block_sum a = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    int32_t hi = (int32_t)((b + 1) * BLOCK < n ? (b + 1) * BLOCK : n);
    for (int32_t i = (int32_t)(b * BLOCK); i < hi; i++) {
        a.x += p[3 * i];
        a.y += p[3 * i + 1];
        a.z += p[3 * i + 2];
        if (f->perch[i] > 0) {
            a.perching++;
            continue;
        }
        double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
        double l = sqrt(vx * vx + vy * vy + vz * vz);
        if (l > 0.0) {
            a.ux += vx / l;
            a.uy += vy / l;
            a.uz += vz / l;
        }
        a.flying++;
    }
    return a;
}

void mur_metrics_state(mur_flock *f, const mur_step *st, mur_stats *s)
{
    const int32_t n = f->n;
    s->perching = 0;
    s->groups = 0;
    memset(s->centre, 0, sizeof s->centre);
    s->diameter = s->polarisation = 0.0;
    if (n == 0)
        return;
    const int64_t nb = (n + BLOCK - 1) / BLOCK;
    _Static_assert(sizeof(block_sum) <= MUR_METRIC_BLOCK_BYTES, "block sum size");
    block_sum *bs = f->msum; /* sized by ensure_metric_buffers */
    const float *p = f->pos;
    const int nt = st->threads;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
    for (int64_t b = 0; b < nb; b++)
        bs[b] = sum_block(f, b);
    block_sum t = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int64_t b = 0; b < nb; b++) {
        t.x += bs[b].x; t.y += bs[b].y; t.z += bs[b].z;
        t.ux += bs[b].ux; t.uy += bs[b].uy; t.uz += bs[b].uz;
        t.flying += bs[b].flying;
        t.perching += bs[b].perching;
    }
    const double cx = t.x / n, cy = t.y / n, cz = t.z / n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
    for (int64_t b = 0; b < nb; b++) {
        double d = 0.0;
        int32_t hi = (int32_t)((b + 1) * BLOCK < n ? (b + 1) * BLOCK : n);
        for (int32_t i = (int32_t)(b * BLOCK); i < hi; i++) {
            double dx = p[3 * i] - cx, dy = p[3 * i + 1] - cy, dz = p[3 * i + 2] - cz;
            d += sqrt(dx * dx + dy * dy + dz * dz);
        }
        bs[b].dist = d;
    }
    double dsum = 0.0;
    for (int64_t b = 0; b < nb; b++)
        dsum += bs[b].dist;
    s->centre[0] = cx;
    s->centre[1] = cy;
    s->centre[2] = cz;
    s->diameter = dsum / n;
    s->polarisation = t.flying > 0 ? sqrt(t.ux * t.ux + t.uy * t.uy + t.uz * t.uz) / (double)t.flying : 0.0;
    s->perching = (int32_t)t.perching;
    s->groups = count_groups(f, st);
}
