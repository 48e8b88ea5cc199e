/* The topological pass after the searches, 4 boids per SSE vector or 8 per AVX2 vector (x86 builds:
 * topo_batch_avx2.c compiles this file again with 8 lanes; elsewhere the flush
 * calls mur_rules_update): the sums over each boid's list (topo.c sums()) and its update (rules.c
 * mur_rules_update with the starling terms of starling.c and the hard-sphere contacts). Per boid the
 * same IEEE operations in the same order (no FMA: -ffp-contract=off; sqrtps and divps round as sqrtss
 * and divss do; double where the scalar code computes in double), each branch a select of the value
 * the branch keeps, so the same bits on every path and thread count. atanf and tanf (whose vector
 * versions round differently) run per boid, as do the perch timer, the walls and the stores. */
#include <math.h>
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
    v4 x, y, z, vx, vy, vz;
} rows_v;

#if W == 8
static inline v4 gatherf(const float *p, i4 j)
{
    return (v4)_mm256_i32gather_ps(p, (__m256i)j, 4);
}
#endif

static inline rows_v gather_rows(const mur_flock *f, i4 on, const int32_t *slot)
{
    rows_v r;
#if W == 8 /* one gather per row (the lanes that are off read slot 0) */
    const i4 j = loadi(slot) & on;
    r.x = gatherf(f->sx, j);
    r.y = gatherf(f->sy, j);
    r.z = gatherf(f->sz, j);
    r.vx = gatherf(f->svx, j);
    r.vy = gatherf(f->svy, j);
    r.vz = gatherf(f->svz, j);
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
    return r;
}

/* The first m rows of the boid_in of lanes q0..q0+W-1 (px, py, pz, vx, vy, vz), the lanes past the
 * batch's end those of boid pad of the batch. */
static inline void load_b(const mur_topo_batch *B, int q0, int pad, int m, v4 *r)
{
#if W == 8 /* one gather per row from the batch (8 loads and 7 inserts each otherwise) */
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
                 V->sz[l], B->n[q] > 0 ? B->d2[0][q] : INFINITY, V->ux[l], V->uy[l], V->uz[l], V->rl[l]};
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
#if W == 8
            const v4 jr = gatherf(f->sroll, loadi(&B->slot[q][q0]) & on);
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

/* What the batched update leaves to mur_rules_update: predators, plane mode. A new term in
 * mur_rules_update or mur_starling_steer must either be added here too or make this false. */
static bool update_ok(const mur_step *st)
{
    return st->np == 0 && !st->world.plane && !(st->def->up_order > 0.0f); /* up_order: rules_boid.c only */
}

/* *a = fmax(l, fmin(h, *a)) as two bitwise selects per lane, a < h ? a : h then a > l ? a : l,
 * in two halves of W / 2 doubles (one register each): gcc compares and selects the lanes of a
 * double vector twice a register's width one by one (cmov), some 170 instructions per AVX2 batch. */
static inline void dclamp(d4 *a, double l, double h)
{
    typedef double dh __attribute__((vector_size(4 * W)));
    typedef int64_t lh __attribute__((vector_size(4 * W)));
    dh x[2];
    memcpy(x, a, sizeof x);
    const dh hv = (dh){0} + h, lv = (dh){0} + l;
    for (int k = 0; k < 2; k++) {
        const lh m = x[k] < hv;
        x[k] = (dh)(((lh)x[k] & m) | ((lh)hv & ~m));
        const lh n = x[k] > lv;
        x[k] = (dh)(((lh)x[k] & n) | ((lh)lv & ~n));
    }
    memcpy(a, x, sizeof x);
}

/* 1 / |(x, y, z)|, or 0 for the zero vector (space.h mur_unit_scale). */
static inline v4 unit_scale(v4 x, v4 y, v4 z)
{
    const v4 zero = {0};
    const v4 l = vsqrt(x * x + y * y + z * z);
    return SEL(l > zero, 1.0f / l, zero);
}

/* starling.c mur_starling_up_near per lane: the closest neighbour's squared distance is the list's first. */
static inline v4 up_near(const mur_flock_def *d, const mur_topo_batch *B, int q0)
{
    v4 k;
    for (int l = 0; l < W; l++) {
        const int q = q0 + l;
        k[l] = mur_starling_up_near(d, q < B->nb && B->n[q] > 0 ? B->d2[0][q] : INFINITY);
    }
    return k;
}

/* The update of lanes q0..q0+3 up to the new position and velocity (O[0..5][lane]); roll written. */
static void update4(mur_flock *f, const mur_step *st, const mur_topo_batch *B, const sums_v *S,
                    const contact_v *C, int q0, float O[6][W])
{
    const mur_flock_def *d = st->def;
    const mur_rule_k *k = &st->rule;
    const v4 zero = {0}, one = zero + 1.0f;
    v4 r[6];
    load_b(B, q0, q0, 6, r);
    const v4 px = r[0], py = r[1], pz = r[2], bvx = r[3], bvy = r[4], bvz = r[5];
    float roll0[W];
    for (int l = 0; l < W; l++) {
        roll0[l] = f->roll[B->i[q0 + l < B->nb ? q0 + l : q0]];
    }
    /* cohesion and alignment */
    const i4 has = S->cnt > zero;
    const v4 inv = one / S->cnt;
    v4 cx = S->cx * inv, cy = S->cy * inv, cz = S->cz * inv;
    v4 ax = S->ax * inv - bvx, ay = S->ay * inv - bvy, az = S->az * inv - bvz;
    if (d->steer_unit) {
        /* the cohesion ramp's mean is already at most 1 long: not scaled */
        const v4 kc = d->cohesion_far > 0.0f ? one : unit_scale(cx, cy, cz), ka = unit_scale(ax, ay, az);
        cx *= kc; cy *= kc; cz *= kc;
        ax *= ka; ay *= ka; az *= ka;
    }
    if (d->centrality > 0.0f) { /* rules.c: C^centrality, powf per lane (its vector versions round apart) */
        const v4 ux = S->ux * inv, uy = S->uy * inv, uz = S->uz * inv;
        const v4 c = vsqrt(ux * ux + uy * uy + uz * uz);
        v4 kc = zero;
        for (int l = 0; l < W; l++)
            kc[l] = powf(fminf(1.0f, c[l]), d->centrality);
        cx *= kc; cy *= kc; cz *= kc;
    }
    const float coh = k->cohesion, al = d->alignment;
    v4 a0 = SEL(has, coh * cx + al * ax, zero);
    v4 a1 = SEL(has, coh * cy + al * ay, zero);
    v4 a2 = SEL(has, coh * cz + al * az, zero);
    v4 ksep = zero + d->separation;
    if (d->separation_edge > 0.0f) { /* rules.c: the selfish herd's separation */
        const v4 ux = S->ux * inv, uy = S->uy * inv, uz = S->uz * inv;
        const v4 c2 = ux * ux + uy * uy + uz * uz;
        const v4 c2m = SEL(c2 < one, c2, one);
        const v4 f = one - d->separation_edge * c2m;
        ksep = SEL(has, d->separation * SEL(f > zero, f, zero), ksep);
    }
    a0 += ksep * S->sx;
    a1 += ksep * S->sy;
    a2 += ksep * S->sz;
    v4 w0 = zero, w1 = zero, w2 = zero; /* the random steering, for wander_up */
    if (d->wander > 0.0f) { /* rules.c: starling.c mur_starling_wander per lane */
        for (int l = 0; l < W; l++) {
            float wv[3];
            mur_starling_wander(d, f->tick, B->i[q0 + l < B->nb ? q0 + l : q0], wv);
            w0[l] = wv[0];
            w1[l] = wv[1];
            w2[l] = wv[2];
        }
        a0 += w0;
        a1 += w1;
        a2 += w2;
    }
    if (d->lift && d->bank) { /* starling.c mur_starling_pitch: along the rolled body's up axis */
        const v4 s = vsqrt(bvx * bvx + bvy * bvy + bvz * bvz);
        const v4 hv = vsqrt(bvx * bvx + bvz * bvz);
        const i4 body = hv > 1e-3f * s;
        const v4 sx = -bvz / hv, sz = bvx / hv;
        const v4 e = bvy / s, h = hv / s;
        v4 c = zero, sn = zero;
        for (int l = 0; l < W; l++) {
            c[l] = cosf(roll0[l]);
            sn[l] = sinf(roll0[l]);
        }
        const v4 ux = c * (-sz * e) + sn * sx, uy = c * h, uz = c * (sx * e) + sn * sz;
        const v4 m = (1.0f - d->pitch) * (a0 * ux + a1 * uy + a2 * uz);
        a0 = SEL(body, a0 - m * ux, a0);
        a2 = SEL(body, a2 - m * uz, a2);
        a1 = SEL(body, a1 - m * uy, a1 * d->pitch);
        if (d->separation_up > 0.0f) { /* starling.c mur_starling_separation_up */
            const float kup = d->separation_up * (1.0f - d->pitch);
            const v4 kn = ksep * up_near(d, B, q0);
            const v4 e0 = kn * S->sx, e1 = kn * S->sy, e2 = kn * S->sz;
            const v4 mu = kup * (e0 * ux + e1 * uy + e2 * uz);
            a0 = SEL(body, a0 + mu * ux, a0);
            a2 = SEL(body, a2 + mu * uz, a2);
            a1 = SEL(body, a1 + mu * uy, a1 + kup * e1);
        }
        if (d->cohesion_up > 0.0f) { /* starling.c mur_starling_cohesion_up */
            const float kup = d->cohesion_up * (1.0f - d->pitch);
            const v4 e0 = SEL(has, coh * cx, zero), e1 = SEL(has, coh * cy, zero), e2 = SEL(has, coh * cz, zero);
            const v4 mu = kup * (e0 * ux + e1 * uy + e2 * uz);
            a0 = SEL(body, a0 + mu * ux, a0);
            a2 = SEL(body, a2 + mu * uz, a2);
            a1 = SEL(body, a1 + mu * uy, a1 + kup * e1);
        }
        if (d->wander_up > 0.0f && d->wander > 0.0f) { /* rules.c: starling.c mur_starling_up_back */
            const float kup = d->wander_up * (1.0f - d->pitch);
            const v4 mu = kup * (w0 * ux + w1 * uy + w2 * uz);
            a0 = SEL(body, a0 + mu * ux, a0);
            a2 = SEL(body, a2 + mu * uz, a2);
            a1 = SEL(body, a1 + mu * uy, a1 + kup * w1);
        }
    } else {
        a1 *= d->pitch; /* weak pitch (exact when 1) */
        if (d->separation_up > 0.0f)
            a1 += d->separation_up * (1.0f - d->pitch) * (ksep * up_near(d, B, q0) * S->sy);
        if (d->cohesion_up > 0.0f)
            a1 += d->cohesion_up * (1.0f - d->pitch) * SEL(has, coh * cy, zero);
        if (d->wander_up > 0.0f && d->wander > 0.0f)
            a1 += d->wander_up * (1.0f - d->pitch) * w1;
    }
    if (d->skin > 0.0f) { /* rules.c: starling.c mur_starling_skin per lane, where there are neighbours */
        const v4 uy = S->uy * inv;
        for (int l = 0; l < W; l++)
            if (has[l])
                a1[l] += mur_starling_skin(d, uy[l]);
    }
    if (d->surge < 1.0f) { /* starling.c mur_starling_surge: along the flight direction */
        const v4 s = vsqrt(bvx * bvx + bvy * bvy + bvz * bvz);
        const i4 mv = s > zero;
        const v4 fx = bvx / s, fy = bvy / s, fz = bvz / s;
        const v4 m = (1.0f - d->surge) * (a0 * fx + a1 * fy + a2 * fz);
        a0 = SEL(mv, a0 - m * fx, a0);
        a1 = SEL(mv, a1 - m * fy, a1);
        a2 = SEL(mv, a2 - m * fz, a2);
    }
    if (d->skin_rim > 0.0f) { /* rules.c: starling.c mur_starling_skin_rim per lane, after the surge */
        const v4 ux = S->ux * inv, uz = S->uz * inv;
        for (int l = 0; l < W; l++)
            if (has[l]) {
                float r[2];
                mur_starling_skin_rim(d, ux[l], uz[l], r);
                a0[l] += r[0];
                a2[l] += r[1];
            }
    }
    if (d->goal) {
        a0 += d->goal_weight * (d->goal_pos[0] - px);
        a1 += d->goal_weight * (d->goal_pos[1] - py);
        a2 += d->goal_weight * (d->goal_pos[2] - pz);
    }
    if (d->wind) {
        a0 += d->wind_vel[0];
        a1 += d->wind_vel[1];
        a2 += d->wind_vel[2];
    }
    if (d->ground_avoid > 0.0f) { /* starling.c mur_ground_pull */
        const float A = d->ground_accel, H = d->ground_avoid;
        const v4 h = py - d->ground;
        const v4 u = k->gk * (H - h) - k->g2w * bvy;
        const v4 pull = SEL(u > A, zero + A, SEL(u > zero, u, zero));
        a1 = SEL(h < H, a1 + pull, a1);
    }
    if (st->world.soft) {
        const float t = d->bounds_turn;
        const v4 P[3] = {px, py, pz};
        v4 *A[3] = {&a0, &a1, &a2};
        for (int a = 0; a < 3; a++) {
            const float lo = d->world_min[a] + d->bounds_margin, hi = d->world_max[a] - d->bounds_margin;
            *A[a] = SEL(P[a] < lo, *A[a] + t, SEL(P[a] > hi, *A[a] - t, *A[a]));
        }
    }
    if (st->escape) { /* rules.c: the escape manoeuvre (escape.c) */
        v4 e0, e1, e2;
        for (int l = 0; l < W; l++) {
            const float *e = f->erow[B->i[q0 + l < B->nb ? q0 + l : q0]].acc;
            e0[l] = e[0];
            e1[l] = e[1];
            e2[l] = e[2];
        }
        a0 += e0;
        a1 += e1;
        a2 += e2;
    }
    if (st->starling) {
        /* starling.c mur_starling_steer */
        const v4 sp = vsqrt(bvx * bvx + bvy * bvy + bvz * bvz);
        const i4 moving = sp > zero;
        if (d->speed_tau > 0.0f && !mur_flight_on(d)) { /* cruise (the flight has its own thrust) */
            const double g = fmin((double)d->dt / d->speed_tau, 1.0);
            const d4 sd = __builtin_convertvector(sp, d4);
            const d4 kd = g * ((double)d->cruise_speed - sd) / ((double)d->dt * sd);
            /* fmax(-1e30, fmin(1e30, kd)): kd is never NaN where it is kept */
            d4 kk = kd;
            dclamp(&kk, -1e30, 1e30);
            const v4 kf = __builtin_convertvector(kk, v4);
            a0 = SEL(moving, a0 + kf * bvx, a0);
            a1 = SEL(moving, a1 + kf * bvy, a1);
            a2 = SEL(moving, a2 + kf * bvz, a2);
        }
        const v4 hv = vsqrt(bvx * bvx + bvz * bvz);
        if (d->roost) {
            const v4 dx = px - d->roost_pos[0], dz = pz - d->roost_pos[2];
            const v4 r = vsqrt(dx * dx + dz * dz);
            const i4 out = (r > d->roost_radius) & (hv > zero);
            const v4 nx = dx / r, nz = dz / r;
            const v4 fx = bvx / hv, fz = bvz / hv;
            const v4 sx = -fz, sz = fx;
            const v4 o = fx * nx + fz * nz, side = sx * nx + sz * nz;
            const v4 m = d->roost_weight * (r - d->roost_radius) * 0.5f * (1.0f + o);
            const v4 sgn = SEL(side > zero, zero - 1.0f, one);
            a0 = SEL(out, a0 + sgn * m * sx, a0);
            a2 = SEL(out, a2 + sgn * m * sz, a2);
            v4 h = d->roost_pos[1] - py;
            h = SEL(h > 10.0f, zero + 10.0f, SEL(h < -10.0f, zero - 10.0f, h));
            a1 += d->roost_vertical * h - 2.0f * sqrtf(d->roost_vertical) * bvy;
        }
        if (mur_flight_on(d)) { /* flight.c mur_flight per lane: the same function, the same bits */
            const v4 nroll = S->rl * inv;
            for (int l = 0; l < W && q0 + l < B->nb; l++) {
                float a[3] = {a0[l], a1[l], a2[l]};
                const float nr = d->bank_align > 0.0f && has[l] ? nroll[l] : roll0[l];
                float roll = roll0[l];
                mur_flight(d, k, &B->b[q0 + l], a, &roll, nr);
                f->roll[B->i[q0 + l]] = roll;
                a0[l] = a[0];
                a1[l] = a[1];
                a2[l] = a[2];
            }
        } else if (d->bank) {
            const i4 on = moving & (hv > 1e-3f * sp);
            const v4 sx = -bvz / hv, sz = bvx / hv;
            const v4 lat = a0 * sx + a2 * sz;
            const v4 lim = sp * k->max_lat;
            const v4 want = SEL(lat > lim, lim, SEL(lat < -lim, -lim, lat));
            const v4 wg = want / MUR_GRAVITY;
            float g = d->dt * d->bank_rate;
            g = g < 1.0f ? g : 1.0f;
            float ga = d->dt * d->bank_align;
            ga = ga < 1.0f ? ga : 1.0f;
            const bool align = d->bank_align > 0.0f;
            const v4 nroll = S->rl * inv;
            v4 got = zero;
            for (int l = 0; l < W && q0 + l < B->nb; l++) {
                if (!on[l])
                    continue;
                /* fmaxf(-1.5f, fminf(1.5f, t)): the same for any t, NaN included */
                const float t = atanf(wg[l]);
                const float t1 = t < 1.5f ? t : 1.5f;
                const float target = t1 > -1.5f ? t1 : -1.5f;
                const float nr = has[l] ? nroll[l] : roll0[l];
                const float roll = align ? roll0[l] + g * (target - roll0[l]) + ga * (nr - roll0[l])
                                         : roll0[l] + g * (target - roll0[l]);
                f->roll[B->i[q0 + l]] = roll;
                got[l] = MUR_GRAVITY * tanf(roll);
            }
            a0 = SEL(on, a0 + (got - lat) * sx, a0);
            a2 = SEL(on, a2 + (got - lat) * sz, a2);
        }
    }
    const float dt = d->dt;
    v4 vx = bvx + dt * a0, vy = bvy + dt * a1, vz = bvz + dt * a2;
    if (mur_flight_on(d)) { /* flight.c mur_flight_clamp per lane: the same function, the same bits */
        for (int l = 0; l < W && q0 + l < B->nb; l++) {
            float v[3] = {vx[l], vy[l], vz[l]};
            mur_flight_clamp(v, d->min_speed, d->max_speed);
            vx[l] = v[0];
            vy[l] = v[1];
            vz[l] = v[2];
        }
    } else { /* mur_clamp_speed */
        const float lo = d->min_speed, hi = d->max_speed;
        const v4 s2 = vx * vx + vy * vy + vz * vz;
        const i4 big = s2 > hi * hi, clamp = big | ((s2 < lo * lo) & (s2 > zero));
        const v4 ks = SEL(big, zero + hi, zero + lo) / vsqrt(s2);
        vx = SEL(clamp, vx * ks, vx);
        vy = SEL(clamp, vy * ks, vy);
        vz = SEL(clamp, vz * ks, vz);
    }
    const i4 hc = C->has;
    const v4 *dv = C->dv, *dp = C->dp;
    /* contacts: the velocity change before the move, the push after it */
    vx = SEL(hc, vx + dv[0], vx);
    vy = SEL(hc, vy + dv[1], vy);
    vz = SEL(hc, vz + dv[2], vz);
    v4 qx = px + dt * vx, qy = py + dt * vy, qz = pz + dt * vz;
    qx = SEL(hc, qx + dp[0], qx);
    qy = SEL(hc, qy + dp[1], qy);
    qz = SEL(hc, qz + dp[2], qz);
    const v4 o[6] = {qx, qy, qz, vx, vy, vz};
    for (int m = 0; m < 6; m++)
        memcpy(O[m], &o[m], sizeof o[m]);
}

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
