/* Predators: each steers toward the nearest flying boid, planned from the state at the start of the
 * tick and committed after the boids moved (docs/rules.md). */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "predators.h"

#include "flock_impl.h"
#include "step.h"

/* Nearest flying boid to q (minimum image when wrap): the smallest squared distance, ties to the
 * smallest boid index, exactly as a scan in index order would pick. The cell-sorted copies are scanned
 * in blocks by all threads with a vectorised minimum; a (distance, index) minimum does not depend on
 * the order it is taken in, so the answer is the same for any thread count. -1 when none flies. */
#define NEAR_BLOCK 2048
static int32_t nearest_flying(const mur_flock *f, const mur_step *s, const float *q, float *best_out)
{
    const int32_t n = f->n;
    const int64_t nblocks = (n + NEAR_BLOCK - 1) / NEAR_BLOCK;
    const float qx = q[0], qy = q[1], qz = q[2];
    const bool wrap = s->world.wrap;
    const float Lx = s->world.L[0], Ly = s->world.L[1], Lz = s->world.L[2];
    const float hx = s->world.hL[0], hy = s->world.hL[1], hz = s->world.hL[2];
    float best = INFINITY;
    int32_t bi = -1;
    const int nt = mur_step_threads(s, n, MUR_PAR_MIN_NEAREST);
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
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
                const float dx = mur_min_image(X[j], qx, Lx, hx, wrap);
                const float dy = mur_min_image(Y[j], qy, Ly, hy, wrap);
                const float dz = mur_min_image(Z[j], qz, Lz, hz, wrap);
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
#pragma omp critical
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
 * predator_speed, turning at predator_turn. Computed from the state at the start of the tick into ptmp. */
void mur_predators_plan(mur_flock *f, const mur_step *s)
{
    const mur_flock_def *d = s->def;
    const mur_world *w = &s->world;
    for (int32_t k = 0; k < f->np; k++) {
        const float *q = f->ppos + 3 * k;
        float v[3] = {f->pvel[3 * k], f->pvel[3 * k + 1], f->pvel[3 * k + 2]};
        float best = INFINITY, t[3] = {0, 0, 0};
        int32_t bi = nearest_flying(f, s, q, &best);
        if (bi >= 0)
            for (int a = 0; a < 3; a++)
                t[a] = mur_min_image(f->pos[3 * bi + a], q[a], w->L[a], w->hL[a], w->wrap);
        if (best < INFINITY) {
            float k2 = mur_unit_scale(t[0], t[1], t[2]) * d->predator_speed;
            /* turn toward the target, never overshooting */
            float g = d->predator_turn * d->dt;
            g = g > 1.0f ? 1.0f : g;
            for (int a = 0; a < 3; a++)
                v[a] += g * (t[a] * k2 - v[a]);
        }
        if (w->soft)
            mur_soft_push(d, q, (float *const[3]){&v[0], &v[1], &v[2]}, d->dt * d->bounds_turn);
        mur_clamp_speed(v, 0.0f, d->predator_speed);
        float np[3] = {q[0] + d->dt * v[0], q[1] + d->dt * v[1], q[2] + d->dt * v[2]};
        if (np[1] < d->ground) {
            np[1] = d->ground;
            v[1] = v[1] < 0.0f ? -v[1] : v[1];
        }
        mur_apply_walls(d, np, v);
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
