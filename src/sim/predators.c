/* Predators: each steers toward the nearest flying boid, planned from the state at the start of the
 * tick and committed after the boids moved (docs/rules.md). */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernel.h"

/* Nearest flying boid to q (minimum image when wrap): the smallest squared distance, ties to the
 * smallest boid index, exactly as a scan in index order would pick. The cell-sorted copies are scanned
 * in blocks by all threads with a vectorised minimum; a (distance, index) minimum does not depend on
 * the order it is taken in, so the answer is the same for any thread count. -1 when none flies. */
#define NEAR_BLOCK 2048
static int32_t nearest_flying(const mur_flock *f, const float *q, bool wrap, const float L[3], const float hL[3],
                              float *best_out)
{
    const int32_t n = f->n;
    const int64_t nblocks = (n + NEAR_BLOCK - 1) / NEAR_BLOCK;
    const float qx = q[0], qy = q[1], qz = q[2];
    const float Lx = L[0], Ly = L[1], Lz = L[2], hx = hL[0], hy = hL[1], hz = hL[2];
    float best = INFINITY;
    int32_t bi = -1;
    int nt = mur_effective_threads(f);
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (n > 50000)
#endif
    {
        float tb = INFINITY;
        int32_t ti = -1;
        float d2[NEAR_BLOCK];
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (int64_t blk = 0; blk < nblocks; blk++) {
            const int32_t lo = (int32_t)(blk * NEAR_BLOCK);
            const int32_t m = n - lo < NEAR_BLOCK ? n - lo : NEAR_BLOCK;
            const float *restrict X = f->sx + lo, *restrict Y = f->sy + lo, *restrict Z = f->sz + lo;
            const float *restrict W = f->sw + lo;
            float bm = INFINITY;
            for (int32_t j = 0; j < m; j++) {
                float x = X[j], y = Y[j], z = Z[j];
                float dx = x - qx, dy = y - qy, dz = z - qz;
                if (wrap) {
                    /* every candidate value computed, then selected: lets the loop vectorise */
                    float ax = (x - Lx) - qx, ay = (y - Ly) - qy, az = (z - Lz) - qz;
                    float bx = (x + Lx) - qx, by = (y + Ly) - qy, bz = (z + Lz) - qz;
                    float ex = dx > hx ? ax : dx, ey = dy > hy ? ay : dy, ez = dz > hz ? az : dz;
                    dx = dx < -hx ? bx : ex;
                    dy = dy < -hy ? by : ey;
                    dz = dz < -hz ? bz : ez;
                }
                float dd = dx * dx + dy * dy + dz * dz;
                dd = W[j] > MUR_W_PERCHED ? dd : INFINITY;
                d2[j] = dd;
                bm = dd < bm ? dd : bm;
            }
            if (bm < INFINITY && bm <= tb) {
                for (int32_t j = 0; j < m; j++) {
                    if (d2[j] == bm) {
                        int32_t i = f->order[lo + j];
                        if (bm < tb || i < ti) {
                            tb = bm;
                            ti = i;
                        }
                    }
                }
            }
        }
#ifdef _OPENMP
#pragma omp critical(mur_nearest)
#endif
        {
            if (ti >= 0 && (tb < best || (tb == best && ti < bi))) {
                best = tb;
                bi = ti;
            }
        }
    }
    *best_out = best;
    return bi;
}

/* Predators steer toward the nearest flying boid (minimum image in a wrapped world) at up to
 * predator_speed. Computed from the state at the start of the tick into ptmp. */
void mur_predators_plan(mur_flock *f)
{
    const mur_flock_def *d = &f->def;
    const bool wrap = d->bounds == MUR_BOUNDS_WRAP;
    float L[3], hL[3];
    for (int a = 0; a < 3; a++) {
        L[a] = d->world_max[a] - d->world_min[a];
        hL[a] = 0.5f * L[a];
    }
    for (int32_t k = 0; k < f->np; k++) {
        const float *q = f->ppos + 3 * k;
        float v[3] = {f->pvel[3 * k], f->pvel[3 * k + 1], f->pvel[3 * k + 2]};
        float best = INFINITY, tx = 0, ty = 0, tz = 0;
        int32_t bi = nearest_flying(f, q, wrap, L, hL, &best);
        if (bi >= 0) {
            tx = image(f->pos[3 * bi], q[0], L[0], hL[0], wrap);
            ty = image(f->pos[3 * bi + 1], q[1], L[1], hL[1], wrap);
            tz = image(f->pos[3 * bi + 2], q[2], L[2], hL[2], wrap);
        }
        if (best < INFINITY) {
            float k2 = unit_scale(tx, ty, tz) * d->predator_speed;
            /* turn toward the target at a rate of 3/s, never overshooting */
            float g = 3.0f * d->dt;
            g = g > 1.0f ? 1.0f : g;
            v[0] += g * (tx * k2 - v[0]);
            v[1] += g * (ty * k2 - v[1]);
            v[2] += g * (tz * k2 - v[2]);
        }
        if (d->bounds == MUR_BOUNDS_SOFT) {
            for (int a = 0; a < 3; a++) {
                if (q[a] < d->world_min[a] + d->bounds_margin)
                    v[a] += d->dt * d->bounds_turn;
                else if (q[a] > d->world_max[a] - d->bounds_margin)
                    v[a] -= d->dt * d->bounds_turn;
            }
        }
        clamp_speed(&v[0], &v[1], &v[2], 0.0f, d->predator_speed);
        float np[3] = {q[0] + d->dt * v[0], q[1] + d->dt * v[1], q[2] + d->dt * v[2]};
        if (np[1] < d->ground) {
            np[1] = d->ground;
            v[1] = v[1] < 0.0f ? -v[1] : v[1];
        }
        apply_walls(d, np, v);
        memcpy(f->ptmp + 6 * k, np, sizeof np);
        memcpy(f->ptmp + 6 * k + 3, v, sizeof v);
    }
}

void mur_predators_commit(mur_flock *f)
{
    for (int32_t k = 0; k < f->np; k++) {
        memcpy(f->ppos + 3 * k, f->ptmp + 6 * k, 3 * sizeof(float));
        memcpy(f->pvel + 3 * k, f->ptmp + 6 * k + 3, 3 * sizeof(float));
    }
}
