/* The topological pass after the searches, 4 boids per SSE vector or 8 per AVX2 vector (x86 builds:
 * topo_batch_avx2.c compiles this file again with 8 lanes; elsewhere the flush
 * calls mur_rules_update): the sums over each boid's list (topo.c sums()) and its update (rules.c
 * mur_rules_update with the starling terms of starling.c and the hard-sphere contacts). Per boid the
 * same IEEE operations in the same order (no FMA: -ffp-contract=off; sqrtps and divps round as sqrtss
 * and divss do; double where the scalar code computes in double), each branch a select of the value
 * the branch keeps, so the same bits on every path and thread count. atanf and tanf of the bank and
 * powf(c, 2) of the centrality run on the lanes with libm's bits (topo_batch_libm.h, checked for every
 * float by tools/libm_vec_check.sh; where a sample differs, another libm, every lane calls libm); the
 * perch timer, the walls and the stores run per boid. The
 * update of a vector of boids from its sums and contacts is topo_batch_update.h, included below. */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#ifdef TOPO_BATCH_AVX2
#include <immintrin.h>
#endif

#include "topo_batch.h"

#include "falcon.h"
#include "flight.h"
#include "flock_impl.h"
#include "react.h"
#include "space.h"
#include "starling.h"
#include "step.h"

#ifdef MUR_X86_PATHS
/* The vector part is compiled twice: here 4 lanes on SSE (W = 4), and in topo_batch_avx2.c, which
 * includes this file with TOPO_BATCH_AVX2 defined, 8 lanes on AVX2 (W = 8, no FMA: the same IEEE
 * operations per lane, so the same bits). The type names v4, i4, d4 and l4 stand for W lanes. */
#ifdef TOPO_BATCH_AVX2
#pragma GCC push_options
#pragma GCC target("avx2")
#define W 8
#define BATCH_RUN mur_topo_batch_run_avx2
#else
#define W 4
#define BATCH_RUN batch_run_sse
#endif
typedef float v4 __attribute__((vector_size(4 * W)));
typedef int32_t i4 __attribute__((vector_size(4 * W)));
typedef double d4 __attribute__((vector_size(8 * W)));
typedef int64_t l4 __attribute__((vector_size(8 * W)));
#define SEL(m, a, b) ((v4)(((i4)(a) & (m)) | ((i4)(b) & ~(m))))
#define NB MUR_TOPO_BATCH

static inline v4 load4(const float *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline i4 loadi(const int32_t *p)
{
    i4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline v4 vsqrt(v4 x)
{
#if W == 8
    return __builtin_ia32_sqrtps256(x);
#else
    return __builtin_ia32_sqrtps(x);
#endif
}

/* The sums of 4 boids (acc's fields but nn, which the update does not read). */
/* The rows of the sorted slots slot[0..3] of the lanes that are on (slot 0 elsewhere): position and
 * velocity. */
typedef struct rows_v {
    v4 x, y, z, vx, vy, vz, roll; /* roll: 8 lanes only, where the roll is copied (srow's) */
} rows_v;

#if W == 8
/* p[j[l]] in lane l: eight scalar loads and inserts rather than one vgatherdps (the same floats; the
 * gather was the batch's most sampled source line on the Zen 4, and the loads saved about 3.5% of the
 * settled 100k tick's CPU there: docs/performance/rounds.md, branch speed23) */
static inline v4 gatherf(const float *p, i4 j)
{
    return (v4)_mm256_setr_ps(p[j[0]], p[j[1]], p[j[2]], p[j[3]], p[j[4]], p[j[5]], p[j[6]], p[j[7]]);
}
#endif

static inline rows_v gather_rows(const mur_flock *f, i4 on, const int32_t *slot)
{
    rows_v r;
#if W == 8 /* the positions a row at a time, the velocities and roll from each lane's interleaved row (srow:
              * vx, vy, vz, roll) in one 16-byte load, lanes l and l + 4 in one vector, then transposed (the
              * lanes that are off read slot 0); the same floats as the sorted rows */
    const i4 j = loadi(slot) & on;
    r.x = gatherf(f->sx, j);
    r.y = gatherf(f->sy, j);
    r.z = gatherf(f->sz, j);
    if (!f->srow_written) { /* its allocation failed (grid.c srow_reserve): a row at a time */
        r.vx = gatherf(f->svx, j);
        r.vy = gatherf(f->svy, j);
        r.vz = gatherf(f->svz, j);
        r.roll = (v4){0}; /* not read: the bank's roll loads sroll then */
        return r;
    }
    const float *s4 = f->srow;
    __m256 t[4];
    for (int l = 0; l < 4; l++)
        t[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(s4 + 4 * (size_t)j[l])),
                                    _mm_load_ps(s4 + 4 * (size_t)j[l + 4]), 1);
    /* {vx0 vx1 vy0 vy1 | vx4 vx5 vy4 vy5}, {vz0 vz1 r0 r1 | vz4 vz5 r4 r5}, and lanes 2, 3, 6, 7 alike */
    const __m256 a = _mm256_unpacklo_ps(t[0], t[1]), b = _mm256_unpackhi_ps(t[0], t[1]);
    const __m256 c = _mm256_unpacklo_ps(t[2], t[3]), e = _mm256_unpackhi_ps(t[2], t[3]);
    r.vx = (v4)_mm256_shuffle_ps(a, c, 0x44);
    r.vy = (v4)_mm256_shuffle_ps(a, c, 0xee);
    r.vz = (v4)_mm256_shuffle_ps(b, e, 0x44);
    r.roll = (v4)_mm256_shuffle_ps(b, e, 0xee);
    return r;
#endif
    for (int l = 0; l < W; l++) {
        const int32_t j = on[l] ? slot[l] : 0;
        r.x[l] = f->sx[j];
        r.y[l] = f->sy[j];
        r.z[l] = f->sz[j];
        r.vx[l] = f->svx[j];
        r.vy[l] = f->svy[j];
        r.vz[l] = f->svz[j];
    }
    r.roll = (v4){0};
    return r;
}

/* The first m rows of the boid_in of lanes q0..q0+W-1 (px, py, pz, vx, vy, vz), the lanes past the
 * batch's end those of boid pad of the batch. */
static inline void load_b(const mur_topo_batch *B, int q0, int pad, int m, v4 *r)
{
#if W == 8 /* a row at a time from the batch */
    const i4 lane = (i4){0, 1, 2, 3, 4, 5, 6, 7} + q0, in = lane < B->nb;
    const i4 q = ((lane & in) | (((i4){0} + pad) & ~in)) * (int32_t)(sizeof(boid_in) / sizeof(float));
    for (int k = 0; k < m; k++)
        r[k] = gatherf(&B->b[0].px + k, q);
#else
    float t[6][W];
    for (int l = 0; l < W; l++) {
        const boid_in *b = &B->b[q0 + l < B->nb ? q0 + l : pad];
        const float row[6] = {b->px, b->py, b->pz, b->vx, b->vy, b->vz};
        for (int k = 0; k < m; k++)
            t[k][l] = row[k];
    }
    for (int k = 0; k < m; k++)
        memcpy(&r[k], t[k], sizeof r[k]);
#endif
}

typedef struct sums_v {
    v4 cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, ux, uy, uz, rl;
} sums_v;

/* Lane l of V as the acc of batch boid q (nn: its list's first squared distance). */
static inline acc lane_acc(const sums_v *V, int l, const mur_topo_batch *B, int q)
{
    return (acc){V->cnt[l], V->cx[l], V->cy[l], V->cz[l], V->ax[l], V->ay[l], V->az[l], V->sx[l], V->sy[l],
                 V->sz[l], B->n[q] > 0 ? B->d2[0][q] : INFINITY, V->ux[l], V->uy[l], V->uz[l], V->rl[l],
                 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
}

/* Lane l of V from a (its nn aside). */
static inline void set_lane(sums_v *V, int l, const acc *a)
{
    V->cnt[l] = a->cnt; V->cx[l] = a->cx; V->cy[l] = a->cy; V->cz[l] = a->cz;
    V->ax[l] = a->ax; V->ay[l] = a->ay; V->az[l] = a->az;
    V->sx[l] = a->sx; V->sy[l] = a->sy; V->sz[l] = a->sz;
    V->ux[l] = a->ux; V->uy[l] = a->uy; V->uz[l] = a->uz; V->rl[l] = a->rl;
}

/* topo.c sums(), lanes q0..q0+3 of the batch: into V, and into out[q] unless out is NULL. */
static void sums4(mur_flock *f, const mur_flock_def *d, const mur_rule_k *rk, const mur_topo_batch *B, int q0, sums_v *V,
                  acc *out)
{
    const int kk = (int)floorf(d->topo_k);
    const float frac = d->topo_k - (float)kk;
    const float sr = d->separation_radius;
    const int ns = d->separation_nearest > 0 ? d->separation_nearest : MUR_TOPO_MAX;
    const bool ramp = d->cohesion_far > 0.0f;
    const float cn = d->cohesion_near, cw = 1.0f / (d->cohesion_far - d->cohesion_near);
    const v4 zero = {0}, one = zero + 1.0f;
    const bool sview = rk->sep_cone, smooth = d->separation_smooth;
    v4 r[6];
    load_b(B, q0, 0, sview ? 6 : 3, r);
    const v4 px = r[0], py = r[1], pz = r[2];
    v4 bvx = zero, bvy = zero, bvz = zero, sc = zero;
    if (sview) {
        bvx = r[3];
        bvy = r[4];
        bvz = r[5];
        sc = rk->sep_cos * vsqrt(bvx * bvx + bvy * bvy + bvz * bvz);
    }
    i4 sn = {0}; /* neighbours in the separation cone taken so far */
    i4 n;
    int maxn = 0;
    for (int l = 0; l < W; l++) {
        const int q = q0 + l < B->nb ? q0 + l : 0;
        n[l] = q0 + l < B->nb ? B->n[q] : 0;
        maxn = n[l] > maxn ? n[l] : maxn;
    }
    v4 cnt = zero, cx = zero, cy = zero, cz = zero, ax = zero, ay = zero, az = zero;
    v4 ux = zero, uy = zero, uz = zero, sx = zero, sy = zero, sz = zero, sw = zero, rl = zero;
    const bool align = d->bank_align > 0.0f;
    for (int q = 0; q < maxn; q++) {
        const i4 on = (i4){0} + q < n;
        const rows_v J = gather_rows(f, on, &B->slot[q][q0]);
        const v4 jx = J.x, jy = J.y, jz = J.z, jvx = J.vx, jvy = J.vy, jvz = J.vz;
        const v4 d2 = SEL(on, load4(&B->d2[q][q0]), one);
        const float w = q < kk ? 1.0f : frac;
        const v4 dx = jx - px, dy = jy - py, dz = jz - pz;
        const v4 dist = vsqrt(d2);
        const i4 pos = on & (dist > zero);
        cnt = SEL(on, cnt + w, cnt);
        if (!ramp) {
            cx = SEL(on, cx + w * dx, cx);
            cy = SEL(on, cy + w * dy, cy);
            cz = SEL(on, cz + w * dz, cz);
        } else {
            const v4 t0 = (dist - cn) * cw;
            const v4 t1 = SEL(t0 > zero, t0, zero); /* fmaxf(0, t0); t0 is never NaN where kept */
            const v4 t = SEL(t1 < one, t1, one);
            const v4 r = w * (t * t * (3.0f - 2.0f * t)) / dist;
            cx = SEL(pos, cx + r * dx, cx);
            cy = SEL(pos, cy + r * dy, cy);
            cz = SEL(pos, cz + r * dz, cz);
        }
        if (align) {
#if W == 8 /* srow holds the roll where the build copies it (grid.c copy_roll: topological and bank on) */
            const v4 jr = d->bank && f->srow_written ? J.roll : gatherf(f->sroll, loadi(&B->slot[q][q0]) & on);
#else
            v4 jr = zero;
            for (int l = 0; l < W; l++)
                jr[l] = on[l] ? f->sroll[B->slot[q][q0 + l]] : 0.0f;
#endif
            rl = SEL(on, rl + w * jr, rl);
        }
        ax = SEL(on, ax + w * jvx, ax);
        ay = SEL(on, ay + w * jvy, ay);
        az = SEL(on, az + w * jvz, az);
        const v4 u = w / dist;
        ux = SEL(pos, ux + u * dx, ux);
        uy = SEL(pos, uy + u * dy, uy);
        uz = SEL(pos, uz + u * dz, uz);
        i4 take = on;
        if (sview) { /* topo_scalar.h sums(): the separation cone, separation_nearest counted in it */
            take = on & (sn < (i4){0} + ns) & (dx * bvx + dy * bvy + dz * bvz >= sc * dist);
            sn -= take;
        } else if (q >= ns)
            continue;
        const i4 near = take & pos & (dist < sr);
        v4 kw = 1.0f - dist / sr;
        if (smooth) {
            const v4 t = dist / sr;
            kw = 1.0f - t * t * t * (t * (6.0f * t - 15.0f) + 10.0f);
        }
        const v4 m = w * kw / dist;
        sx = SEL(near, sx - m * dx, sx);
        sy = SEL(near, sy - m * dy, sy);
        sz = SEL(near, sz - m * dz, sz);
        sw = SEL(take, sw + w, sw);
    }
    const i4 div = sw > zero;
    sx = SEL(div, sx / sw, sx);
    sy = SEL(div, sy / sw, sy);
    sz = SEL(div, sz / sw, sz);
    *V = (sums_v){cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, ux, uy, uz, rl};
    for (int l = 0; B->react && l < W && q0 + l < B->nb; l++) {
        /* the reaction time (react.h): a held boid's lanes from its last reading, a fresh one's kept */
        const int q = q0 + l;
        if (!B->held[q]) {
            const acc a = lane_acc(V, l, B, q);
            mur_react_keep(f, B->i[q], &a, B->n[q]);
            continue;
        }
        acc a;
        mur_react_held(f, B->i[q], &a);
        set_lane(V, l, &a);
    }
    for (int l = 0; out && l < W && q0 + l < B->nb; l++)
        out[q0 + l] = lane_acc(V, l, B, q0 + l);
    for (int l = 0; out && d->rim_pull > 0.0f && l < W && q0 + l < B->nb; l++) {
        /* the short-range rim pull's closest three (topo_scalar.h sums(); rim_pull needs reaction_ticks=1,
         * and its update is never batched) */
        const int q = q0 + l, m = B->n[q] < MUR_RIM_NEAREST ? B->n[q] : MUR_RIM_NEAREST;
        for (int e = 0; e < m; e++) {
            const int32_t j = B->slot[e][q];
            const float dist = sqrtf(B->d2[e][q]);
            mur_rim_add(&out[q], d->rim_spacing, f->sx[j] - px[l], f->sy[j] - py[l], f->sz[j] - pz[l], dist);
        }
    }
    for (int l = 0; out && d->lone_pull > 0.0f && l < W && q0 + l < B->nb; l++) {
        /* lone_pull's closest neighbour (topo_scalar.h sums(); lone_pull needs reaction_ticks=1, and its update is
         * never batched) */
        const int q = q0 + l;
        if (B->n[q] < 1)
            continue;
        const int32_t j = B->slot[0][q];
        out[q].kx = f->sx[j] - px[l];
        out[q].ky = f->sy[j] - py[l];
        out[q].kz = f->sz[j] - pz[l];
    }
}

/* The contacts of 4 boids: whether they apply (has) and the corrections. */
typedef struct contact_v {
    i4 has;
    v4 dp[3], dv[3];
} contact_v;

/* topo.c contacts(), lanes q0..q0+3 of the batch: into V, and into B->c, B->has_c when asked. */
static void contacts4(const mur_flock *f, const mur_flock_def *d, mur_topo_batch *B, int q0, contact_v *V,
                      bool keep)
{
    const float hr = d->hard_radius, dt = d->dt;
    const v4 zero = {0}, one = zero + 1.0f;
    v4 r[6];
    load_b(B, q0, q0, 6, r);
    const v4 px = r[0], py = r[1], pz = r[2], bvx = r[3], bvy = r[4], bvz = r[5];
    i4 n, self;
    int maxn = 0;
    for (int l = 0; l < W; l++) {
        const int q = q0 + l < B->nb ? q0 + l : q0;
        self[l] = B->i[q];
        n[l] = q0 + l < B->nb ? B->nh[q] : 0;
        maxn = n[l] > maxn ? n[l] : maxn;
    }
    v4 dp0 = zero, dp1 = zero, dp2 = zero, dv0 = zero, dv1 = zero, dv2 = zero;
    for (int q = 0; q < maxn; q++) {
        const i4 on = (i4){0} + q < n;
        const rows_v J = gather_rows(f, on, &B->hslot[q][q0]);
        const v4 jx = J.x, jy = J.y, jz = J.z, jvx = J.vx, jvy = J.vy, jvz = J.vz;
        const i4 idx = loadi(&B->hidx[q][q0]);
        const v4 d2 = SEL(on, load4(&B->hd2[q][q0]), one);
        const v4 dist = vsqrt(d2);
        const i4 pos = dist > zero;
        /* coincident: split along x by index */
        v4 ux = SEL(pos, (jx - px) / dist, SEL(idx > self, one, zero - 1.0f));
        v4 uy = SEL(pos, (jy - py) / dist, zero);
        v4 uz = SEL(pos, (jz - pz) / dist, zero);
        const i4 in = on & (dist < hr);
        const v4 push = 0.5f * (hr - dist);
        dp0 = SEL(in, dp0 - push * ux, dp0);
        dp1 = SEL(in, dp1 - push * uy, dp1);
        dp2 = SEL(in, dp2 - push * uz, dp2);
        const v4 close = (bvx - jvx) * ux + (bvy - jvy) * uy + (bvz - jvz) * uz;
        const i4 hit = on & (close > zero) & (dist - close * dt < hr);
        dv0 = SEL(hit, dv0 - 0.5f * close * ux, dv0);
        dv1 = SEL(hit, dv1 - 0.5f * close * uy, dv1);
        dv2 = SEL(hit, dv2 - 0.5f * close * uz, dv2);
    }
    *V = (contact_v){n > 0, {dp0, dp1, dp2}, {dv0, dv1, dv2}};
    for (int l = 0; keep && l < W && q0 + l < B->nb; l++) {
        B->c[q0 + l] = (mur_contact){{dp0[l], dp1[l], dp2[l]}, {dv0[l], dv1[l], dv2[l]}};
        B->has_c[q0 + l] = B->nh[q0 + l] > 0;
    }
}

/* 0, 1, ..., W - 1 */
static inline i4 lanes_i(void)
{
    i4 k;
    for (int l = 0; l < W; l++)
        k[l] = l;
    return k;
}

#include "topo_batch_libm.h"
#include "topo_batch_update.h"

#ifndef TOPO_BATCH_AVX2
static
#endif
bool BATCH_RUN(mur_flock *f, const mur_step *st, mur_topo_batch *B, acc *out)
{
    const mur_flock_def *d = st->def;
    const bool ok = update_ok(st);
    for (int q0 = 0; q0 < B->nb; q0 += W) {
        contact_v C;
        sums_v S;
        contacts4(f, d, B, q0, &C, !ok);
        sums4(f, d, &st->rule, B, q0, &S, ok ? NULL : out);
        if (!ok)
            continue;
        float O[6][W];
        update4(f, st, B, &S, &C, q0, O);
        for (int l = 0; l < W && q0 + l < B->nb; l++) {
            const int32_t i = B->i[q0 + l];
            float p[3] = {O[0][l], O[1][l], O[2][l]}, v[3] = {O[3][l], O[4][l], O[5][l]};
            if (d->perch && p[1] <= d->ground) {
                p[1] = d->ground;
                v[0] = v[1] = v[2] = 0.0f;
                const int32_t span = d->perch_max - d->perch_min + 1;
                const int32_t r = (int32_t)(mur_hash_unit(d->seed, f->tick, (uint64_t)i) * (float)span);
                f->perch[i] = d->perch_min + (r < span ? r : span - 1);
            }
            mur_apply_walls(d, p, v);
            memcpy(f->pos + 3 * (size_t)i, p, sizeof p);
            memcpy(f->vel + 3 * (size_t)i, v, sizeof v);
        }
    }
    return ok;
}
#ifdef TOPO_BATCH_AVX2
#pragma GCC pop_options
#else
bool mur_topo_batch_run(mur_flock *f, const mur_step *st, mur_topo_batch *B, acc *out)
{
    /* the 8-lane twin where the kernel runs AVX2 (or AVX-512, whose CPUs have AVX2): the same bits */
    if (st->simd == MUR_SIMD_AVX2 || st->simd == MUR_SIMD_AVX512)
        return mur_topo_batch_run_avx2(f, st, B, out);
    return batch_run_sse(f, st, B, out);
}
#endif
#endif

#ifndef TOPO_BATCH_AVX2
void mur_topo_batch_flush(mur_flock *f, const mur_step *s, mur_topo_batch *B, acc *out)
{
    if (s->escape)
        mur_escape_batch(f, s, B->nb, B->i, B->b, B->slot[0], MUR_TOPO_BATCH, B->n);
#ifdef MUR_X86_PATHS
    if (mur_topo_batch_run(f, s, B, out)) {
        B->nb = 0;
        return;
    }
#endif
    for (int q = 0; q < B->nb; q++)
        mur_rules_update(f, s, B->i[q], &B->b[q], &out[q], B->has_c[q] ? &B->c[q] : NULL);
    B->nb = 0;
}
#endif
