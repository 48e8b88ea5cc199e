/* The classic update of a batch of boids, 4 boids per SSE vector (x86 builds): what mur_rules_update
 * (rules.c) computes for the classic terms, bit for bit. The rules pass (rules.c scan_boids) calls it
 * for each batch of MUR_UPDATE_BATCH boids when mur_batch_update_ok says the tick has no other term. */
#include <string.h>

#include "rules.h"

#include "flock_impl.h"
#include "kernel.h"
#include "space.h"
#include "step.h"

#ifdef MUR_X86_PATHS
/* Whether mur_update_batch computes exactly what mur_rules_update does this tick: only the classic terms
 * (cohesion, alignment, separation, goal, wind, soft bounds, speed limits, walls). A new term in
 * mur_rules_update must either be added to mur_update_batch too or make this false. */
bool mur_batch_update_ok(const mur_step *st)
{
    const mur_flock_def *d = st->def;
    return !d->steer_unit && !(d->centrality > 0.0f) && st->np == 0 && !st->starling && !st->world.plane &&
           !d->perch && !st->escape &&
           !(d->ground_avoid > 0.0f);
}

typedef float uv4 __attribute__((vector_size(16)));
typedef int32_t ui4 __attribute__((vector_size(16)));
#define USEL(m, a, b) ((uv4)(((ui4)(a) & (m)) | ((ui4)(b) & ~(m))))
#define UBATCH MUR_UPDATE_BATCH

/* Four rows of four floats into four columns. */
static inline void transpose4(const uv4 r[4], uv4 c[4])
{
    const uv4 t0 = __builtin_shuffle(r[0], r[1], (ui4){0, 4, 1, 5});
    const uv4 t1 = __builtin_shuffle(r[2], r[3], (ui4){0, 4, 1, 5});
    const uv4 t2 = __builtin_shuffle(r[0], r[1], (ui4){2, 6, 3, 7});
    const uv4 t3 = __builtin_shuffle(r[2], r[3], (ui4){2, 6, 3, 7});
    c[0] = __builtin_shuffle(t0, t1, (ui4){0, 1, 4, 5});
    c[1] = __builtin_shuffle(t0, t1, (ui4){2, 3, 6, 7});
    c[2] = __builtin_shuffle(t2, t3, (ui4){0, 1, 4, 5});
    c[3] = __builtin_shuffle(t2, t3, (ui4){2, 3, 6, 7});
}

/* mur_rules_update of nb boids (no contacts), 4 boids per SSE vector: per boid the same IEEE
 * operations in the same order (no FMA; sqrtps and divps round as sqrtss and divss do), each branch
 * a select of the value the branch would keep, so the same bits. Walls and stores run per boid. */
void mur_update_batch(mur_flock *f, const mur_step *st, int nb, const int32_t *ii, const boid_in *bb,
                         const acc *ss)
{
    const mur_flock_def *d = st->def;
    const float coh = st->rule.cohesion, al = d->alignment, sep = d->separation, dt = d->dt;
    const float lo = d->min_speed, hi = d->max_speed, lo2 = lo * lo, hi2 = hi * hi;
    const bool goal = d->goal, wind = d->wind, soft = st->world.soft;
    float smin[3], smax[3];
    for (int a = 0; a < 3; a++) {
        smin[a] = d->world_min[a] + d->bounds_margin;
        smax[a] = d->world_max[a] - d->bounds_margin;
    }
    const int nv = (nb + 3) & ~3;
    /* the walls: whether a boid may need mur_apply_walls (out of the box), tested 4 at a time; the
     * rest is a no-op there, so a boid that passes the test is stored as it is */
    const bool wrap = d->bounds == MUR_BOUNDS_WRAP, bounce = d->bounds == MUR_BOUNDS_BOUNCE;
    float O[6][UBATCH];
    bool walls[UBATCH / 4];
    const uv4 zero = {0}, one = zero + 1.0f;
    for (int q = 0; q < nv; q += 4) {
        /* the four boids' sums and states as rows (acc: cnt cx cy cz | ax ay az sx | sy sz nn ux;
         * boid_in: px py pz vx | vx vy vz vlen), each group transposed into one vector per field */
        uv4 x[16], r[5][4], t[5][4];
        for (int k = 0; k < 4; k++) {
            const acc *s = &ss[q + k < nb ? q + k : 0];
            const boid_in *b = &bb[q + k < nb ? q + k : 0];
            memcpy(&r[0][k], &s->cnt, sizeof r[0][k]);
            memcpy(&r[1][k], &s->ax, sizeof r[1][k]);
            memcpy(&r[2][k], &s->sy, sizeof r[2][k]);
            memcpy(&r[3][k], &b->px, sizeof r[3][k]);
            memcpy(&r[4][k], &b->vx, sizeof r[4][k]);
        }
        for (int g = 0; g < 5; g++)
            transpose4(r[g], t[g]);
        memcpy(&x[0], t[0], sizeof t[0]);     /* cnt cx cy cz */
        memcpy(&x[4], t[1], sizeof t[1]);     /* ax ay az sx */
        memcpy(&x[8], t[2], 2 * sizeof(uv4)); /* sy sz */
        memcpy(&x[10], t[3], 3 * sizeof(uv4)); /* px py pz */
        memcpy(&x[13], t[4], 3 * sizeof(uv4)); /* vx vy vz */
        const uv4 px = x[10], py = x[11], pz = x[12], bvx = x[13], bvy = x[14], bvz = x[15];
        const ui4 has = x[0] > zero;
        const uv4 inv = one / x[0]; /* inf without neighbours: its NaNs are not selected */
        const uv4 cx = x[1] * inv, cy = x[2] * inv, cz = x[3] * inv;
        const uv4 ax = x[4] * inv - bvx, ay = x[5] * inv - bvy, az = x[6] * inv - bvz;
        uv4 axx = USEL(has, coh * cx + al * ax, zero);
        uv4 ayy = USEL(has, coh * cy + al * ay, zero);
        uv4 azz = USEL(has, coh * cz + al * az, zero);
        axx += sep * x[7];
        ayy += sep * x[8];
        azz += sep * x[9];
        if (goal) {
            axx += d->goal_weight * (d->goal_pos[0] - px);
            ayy += d->goal_weight * (d->goal_pos[1] - py);
            azz += d->goal_weight * (d->goal_pos[2] - pz);
        }
        if (wind) {
            axx += d->wind_vel[0];
            ayy += d->wind_vel[1];
            azz += d->wind_vel[2];
        }
        if (soft) {
            const float t = d->bounds_turn;
            axx = USEL(px < smin[0], axx + t, USEL(px > smax[0], axx - t, axx));
            ayy = USEL(py < smin[1], ayy + t, USEL(py > smax[1], ayy - t, ayy));
            azz = USEL(pz < smin[2], azz + t, USEL(pz > smax[2], azz - t, azz));
        }
        uv4 vx = bvx + dt * axx, vy = bvy + dt * ayy, vz = bvz + dt * azz;
        /* mur_clamp_speed */
        const uv4 s2 = vx * vx + vy * vy + vz * vz;
        const ui4 big = s2 > hi2, clamp = big | ((s2 < lo2) & (s2 > zero));
        const uv4 k = USEL(big, zero + hi, zero + lo) / __builtin_ia32_sqrtps(s2);
        vx = USEL(clamp, vx * k, vx);
        vy = USEL(clamp, vy * k, vy);
        vz = USEL(clamp, vz * k, vz);
        const uv4 o[6] = {px + dt * vx, py + dt * vy, pz + dt * vz, vx, vy, vz};
        for (int k6 = 0; k6 < 6; k6++)
            memcpy(&O[k6][q], &o[k6], sizeof o[k6]);
        /* mur_apply_walls's own tests: wrap moves p < lo or p >= hi, bounce p < lo or p > hi */
        ui4 out = {0};
        for (int a = 0; a < 3; a++) {
            const uv4 lo3 = zero + d->world_min[a], hi3 = zero + d->world_max[a];
            out |= (o[a] < lo3) | (bounce ? o[a] > hi3 : o[a] >= hi3);
        }
        walls[q / 4] = (wrap || bounce) && (out[0] | out[1] | out[2] | out[3]);
    }
    float *restrict pos = f->pos, *restrict vel = f->vel;
    for (int q = 0; q < nb; q++) {
        float *restrict pp = pos + 3 * (size_t)ii[q], *restrict vv = vel + 3 * (size_t)ii[q];
        if (walls[q / 4]) {
            float p[3] = {O[0][q], O[1][q], O[2][q]}, v[3] = {O[3][q], O[4][q], O[5][q]};
            mur_apply_walls(d, p, v);
            memcpy(pp, p, sizeof p);
            memcpy(vv, v, sizeof v);
            continue;
        }
        pp[0] = O[0][q]; pp[1] = O[1][q]; pp[2] = O[2][q];
        vv[0] = O[3][q]; vv[1] = O[4][q]; vv[2] = O[5][q];
    }
}
#else
typedef int mur_rules_batch_empty; /* ISO C wants a declaration in every file */
#endif
