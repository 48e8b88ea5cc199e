/* The non-x86 path's sums and hard-sphere contacts of one boid's search (topo.c includes it after
 * its search state; x86 builds sum in the batch, topo_batch.c). Not a public header. */
#ifndef MUR_SIM_TOPO_SCALAR_H
#define MUR_SIM_TOPO_SCALAR_H

/* The sums the rules read (kernel.h's acc), over the list in its order: weights 1, the last one
 * frac(topo_k) when the list holds floor(topo_k) + 1. Separation (docs/rules.md): the mean over the
 * separation_nearest first neighbours (of those in the separation cone, separation_view) of -unit(d)
 * times 1 - |d| / separation_radius (or 1 - smootherstep of it, separation_smooth) where |d| is below
 * separation_radius. */
static void sums(const mur_flock *f, const mur_step *s, const search *S, acc *a)
{
    const mur_flock_def *d = s->def;
    const int kk = (int)floorf(d->topo_k);
    const float frac = d->topo_k - (float)kk;
    memset(a, 0, sizeof *a);
    const float sr = d->separation_radius;
    const int ns = d->separation_nearest > 0 ? d->separation_nearest : S->n;
    const bool ramp = d->cohesion_far > 0.0f, rim = d->rim_pull > 0.0f;
    const float cn = d->cohesion_near, cw = 1.0f / (d->cohesion_far - d->cohesion_near);
    float sw = 0.0f;
    const bool sview = s->rule.sep_cone, smooth = d->separation_smooth;
    const float sc = s->rule.sep_cos * sqrtf(S->vx * S->vx + S->vy * S->vy + S->vz * S->vz);
    int sn = 0; /* neighbours in the separation cone taken so far */
    for (int q = 0; q < S->n; q++) {
        const int32_t j = S->slot[q];
        const float w = q < kk ? 1.0f : frac;
        const float dx = f->sx[j] - S->px, dy = f->sy[j] - S->py, dz = f->sz[j] - S->pz;
        const float dist = sqrtf(key_d2(S->key[q]));
        a->cnt += w;
        if (!ramp) {
            a->cx += w * dx;
            a->cy += w * dy;
            a->cz += w * dz;
        } else if (dist > 0.0f) { /* the ramp: w s(dist) unit(d), s smoothstep from cohesion_near to _far */
            const float t = fminf(1.0f, fmaxf(0.0f, (dist - cn) * cw));
            const float r = w * (t * t * (3.0f - 2.0f * t)) / dist;
            a->cx += r * dx;
            a->cy += r * dy;
            a->cz += r * dz;
        }
        if (d->bank_align > 0.0f)
            a->rl += w * f->sroll[j];
        a->ax += w * f->svx[j];
        a->ay += w * f->svy[j];
        a->az += w * f->svz[j];
        if (dist > 0.0f) {
            const float u = w / dist;
            a->ux += u * dx;
            a->uy += u * dy;
            a->uz += u * dz;
        }
        if (rim && q < MUR_RIM_NEAREST) /* the short-range rim pull's closest three */
            mur_rim_add(a, d->rim_spacing, dx, dy, dz, dist);
        if (q == 0 && d->lone_pull > 0.0f) { /* lone_pull's closest neighbour */
            a->kx = dx;
            a->ky = dy;
            a->kz = dz;
        }
        if (sview) { /* the separation cone: dot(d, v) >= cos(separation_view / 2) |d| |v| */
            if (sn >= ns || !(dx * S->vx + dy * S->vy + dz * S->vz >= sc * dist))
                continue;
            sn++;
        } else if (q >= ns)
            continue;
        if (dist < sr && dist > 0.0f) {
            float kw = 1.0f - dist / sr;
            if (smooth) { /* 1 - smootherstep(t) */
                const float t = dist / sr;
                kw = 1.0f - t * t * t * (t * (6.0f * t - 15.0f) + 10.0f);
            }
            const float m = w * kw / dist;
            a->sx -= m * dx;
            a->sy -= m * dy;
            a->sz -= m * dz;
        }
        sw += w;
    }
    if (sw > 0.0f) {
        a->sx /= sw;
        a->sy /= sw;
        a->sz /= sw;
    }
    a->nn = S->n > 0 ? key_d2(S->key[0]) : INFINITY;
}

/* Hard sphere: a contact that would come closer than hard_radius within this tick (at the closing
 * speed of the start of the tick) loses half the closing speed, and one already closer moves half the
 * overlap away; the other boid does the mirror image (an inelastic contact), so a follower cannot
 * overrun a boid in front that does not see it. */
static void contacts(const mur_flock *f, const mur_step *s, const search *S, int32_t i, mur_contact *c)
{
    const float hr = s->def->hard_radius;
    memset(c, 0, sizeof *c);
    for (int q = 0; q < S->nh; q++) {
        const int32_t j = S->hslot[q];
        float ux = f->sx[j] - S->px, uy = f->sy[j] - S->py, uz = f->sz[j] - S->pz;
        const float dist = sqrtf(contact_d2(S, q));
        if (dist > 0.0f) {
            ux /= dist;
            uy /= dist;
            uz /= dist;
        } else {
            ux = contact_idx(S, q) > i ? 1.0f : -1.0f; /* coincident: split along x by index */
            uy = uz = 0.0f;
        }
        if (dist < hr) {
            const float push = 0.5f * (hr - dist);
            c->dp[0] -= push * ux;
            c->dp[1] -= push * uy;
            c->dp[2] -= push * uz;
        }
        const float close = (S->vx - f->svx[j]) * ux + (S->vy - f->svy[j]) * uy + (S->vz - f->svz[j]) * uz;
        if (close > 0.0f && dist - close * s->def->dt < hr) {
            c->dv[0] -= 0.5f * close * ux;
            c->dv[1] -= 0.5f * close * uy;
            c->dv[2] -= 0.5f * close * uz;
        }
    }
}

#endif
