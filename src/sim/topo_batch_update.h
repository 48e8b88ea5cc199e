/* The per-boid update of the topological batch: lanes q0..q0+W-1 from their sums and contacts to the
 * new position and velocity (rules.c mur_rules_update with the starling terms of starling.c), with
 * the same IEEE operations per lane in the same order as the scalar code. Included by topo_batch.c
 * only, after its vector helpers (v4, i4, d4, l4, SEL, load4, vsqrt, sums_v, contact_v), once per
 * vector width (W = 4 on SSE, 8 on AVX2 via topo_batch_avx2.c). No include guard: each inclusion is
 * one width. */
/* What the batched update leaves to mur_rules_update: predators, plane mode. A new term in
 * mur_rules_update or mur_starling_steer must either be added here too or make this false. */
static bool update_ok(const mur_step *st)
{
    /* up_order, separation_exposed, separation_stiff, cohesion_caps, separation_caps and centrality_from, rim_pull, separation_outward, lone_pull: rules_boid.c only */
    const mur_flock_def *d = st->def;
    return st->np == 0 && !st->world.plane && !(d->up_order > 0.0f) && !(d->separation_exposed > 0.0f) && !(d->separation_stiff > 0.0f) &&
           !(d->cohesion_caps > 0.0f) && !(d->separation_caps > 0.0f) && !(d->centrality_from > 0.0f) &&
           !(d->rim_pull > 0.0f) && !(d->separation_outward > 0.0f) && !(d->lone_pull > 0.0f);
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
        if (d->centrality == 2.0f) { /* the preset's: powf(x, 2) with libm's bits (topo_batch_libm.h) */
            const v4 x = SEL(c < one, c, one); /* fminf(1, c): 1 where c is 1 or more, or NaN */
            kc = vpowf2(x, (i4){0} - 1, (i4){0} - !libm_same());
        } else
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
    if (d->surge_separation >= 0.0f) { /* starling.c mur_starling_surge_separation */
        const v4 s = vsqrt(bvx * bvx + bvy * bvy + bvz * bvz);
        const i4 mv = s > zero;
        const v4 fx = bvx / s, fy = bvy / s, fz = bvz / s;
        const v4 e0 = ksep * S->sx, e1 = ksep * S->sy, e2 = ksep * S->sz;
        v4 g = zero + d->surge_separation;
        if (d->surge_separation_radius > 0.0f) /* full at close range: starling.c mur_starling_surge_sep_gain */
            for (int l = 0; l < W; l++) {
                const int q = q0 + l;
                g[l] = mur_starling_surge_sep_gain(d, q < B->nb && B->n[q] > 0 ? B->d2[0][q] : INFINITY);
            }
        const v4 m = (g - d->surge) * (e0 * fx + e1 * fy + e2 * fz);
        a0 = SEL(mv, a0 + m * fx, a0);
        a1 = SEL(mv, a1 + m * fy, a1);
        a2 = SEL(mv, a2 + m * fz, a2);
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
            /* atanf and tanf on the lanes with libm's bits (topo_batch_libm.h); the lanes past the batch's
             * end are lane 0's copies and not stored */
            const i4 use = on & (((i4){0} + (B->nb - q0)) > lanes_i());
            const i4 lib = libm_same() ? (i4){0} : use; /* another libm: its own call on every lane */
            const v4 t = vatanf(wg, use, lib);
            /* fmaxf(-1.5f, fminf(1.5f, t)): the same for any t, NaN included */
            const v4 t1 = SEL(t < 1.5f, t, zero + 1.5f);
            const v4 target = SEL(t1 > -1.5f, t1, zero - 1.5f);
            const v4 r0 = load4(roll0);
            const v4 nr = SEL(has, nroll, r0);
            const v4 roll = align ? r0 + g * (target - r0) + ga * (nr - r0) : r0 + g * (target - r0);
            for (int l = 0; l < W && q0 + l < B->nb; l++)
                if (on[l])
                    f->roll[B->i[q0 + l]] = roll[l];
            const v4 got = SEL(on, MUR_GRAVITY * vtanf(roll, use, lib), zero);
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
