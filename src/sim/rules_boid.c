/* The steering of one boid (docs/rules.md): the per-tick constants and mur_rules_update, every rule
 * of one tick for one boid in a fixed order (a new rule goes here). The pass over the cells that
 * gathers each neighbourhood and calls it is rules.c; the starling terms are starling.c and flight.c. */
#include <math.h>
#include <string.h>

#include "rules.h"

#include "falcon.h"
#include "flight.h"
#include "flock_impl.h"
#include "kernel.h"
#include "space.h"
#include "starling.h"
#include "step.h"

void mur_rules_prepare(const mur_flock_def *d, mur_rule_k *k)
{
    k->r2 = d->view_radius * d->view_radius;
    k->sr2 = d->separation_radius * d->separation_radius;
    k->cone = d->view_angle < 360.0f;
    k->cos_half = (float)cos((double)d->view_angle * 0.5 * (MUR_TWO_PI / 2) / 180.0);
    k->cohesion = d->scatter ? -d->cohesion : d->cohesion;
    k->pr2 = d->predator_radius * d->predator_radius;
    k->max_lat = (float)((double)d->max_turn * (MUR_TWO_PI / 360.0));
    k->gk = d->ground_avoid > 0.0f ? d->ground_accel / d->ground_avoid : 0.0f;
    k->g2w = 2.0f * sqrtf(k->gk);
    k->sep_cone = d->separation_view < 360.0f;
    k->sep_cos = (float)cos((double)d->separation_view * 0.5 * (MUR_TWO_PI / 2) / 180.0);
}

/* scales a copy's separation sums by g (separation_exposed, separation_stiff) */
static void scale_sep(acc *a, float g)
{
    a->sx *= g;
    a->sy *= g;
    a->sz *= g;
}

void mur_rules_update(mur_flock *f, const mur_step *st, int32_t i, const boid_in *b, const acc *s,
                      const mur_contact *c)
{
    const mur_flock_def *d = st->def;
    const mur_rule_k *k = &st->rule;
    const mur_world *w = &st->world;
    /* separation_exposed (the closest neighbour's push at its shrunk radius), separation_stiff (the hard
     * core) and separation_outward (the exposed bird's outward relief; starling.c): each changes the
     * separation sums of one copy, in that order */
    acc se;
    if (s->cnt > 0.0f &&
        (d->separation_exposed > 0.0f || d->separation_stiff > 0.0f || d->separation_outward > 0.0f)) {
        se = *s;
        if (d->separation_exposed > 0.0f) {
            const float inv = 1.0f / se.cnt;
            const float g =
                mur_starling_exposed(d, se.ux * inv, se.uy * inv, se.uz * inv, se.sx, se.sy, se.sz, se.nn);
            scale_sep(&se, g);
        }
        if (d->separation_stiff > 0.0f) {
            const float g = mur_starling_stiff(d, se.sx, se.sy, se.sz, se.nn);
            scale_sep(&se, g);
        }
        if (d->separation_outward > 0.0f) {
            const float inv = 1.0f / se.cnt;
            float sv[3] = {se.sx, se.sy, se.sz};
            mur_starling_outward(d, se.ux * inv, se.uy * inv, se.uz * inv, sv);
            se.sx = sv[0];
            se.sy = sv[1];
            se.sz = sv[2];
        }
        s = &se;
    }
    /* the exposure C = min(1, |mean unit direction to the neighbours|), read by centrality and the rim pull:
     * computed once, only where one of them is on */
    float cexp = 0.0f;
    if (s->cnt > 0.0f && (d->centrality > 0.0f || d->rim_pull > 0.0f)) {
        const float inv = 1.0f / s->cnt;
        const float ux = s->ux * inv, uy = s->uy * inv, uz = s->uz * inv;
        cexp = fminf(1.0f, sqrtf(ux * ux + uy * uy + uz * uz));
    }
    float axx = 0, ayy = 0, azz = 0;
    float coh[3] = {0.0f, 0.0f, 0.0f}; /* the cohesion term, for cohesion_up and cohesion_caps */
    if (s->cnt > 0.0f) {
        float inv = 1.0f / s->cnt;
        float cx = s->cx * inv, cy = s->cy * inv, cz = s->cz * inv;
        float ax = s->ax * inv - b->vx, ay = s->ay * inv - b->vy, az = s->az * inv - b->vz;
        if (d->steer_unit) {
            /* the cohesion ramp's mean is already at most 1 long: not scaled */
            float kc = d->cohesion_far > 0.0f ? 1.0f : mur_unit_scale(cx, cy, cz), ka = mur_unit_scale(ax, ay, az);
            cx *= kc; cy *= kc; cz *= kc;
            ax *= ka; ay *= ka; az *= ka;
        }
        if (d->centrality > 0.0f) { /* StarDisplay's circularity: cohesion acts at the flock's edge */
            float c = cexp;
            if (d->centrality_from > 0.0f) /* exposure-gated cohesion: nothing at C <= centrality_from */
                c = mur_starling_gate_from(c, d->centrality_from);
            const float kc = powf(c, d->centrality);
            cx *= kc; cy *= kc; cz *= kc;
        }
        coh[0] = k->cohesion * cx;
        coh[1] = k->cohesion * cy;
        coh[2] = k->cohesion * cz;
        axx = k->cohesion * cx + d->alignment * ax;
        ayy = k->cohesion * cy + d->alignment * ay;
        azz = k->cohesion * cz + d->alignment * az;
    }
    float ks = d->separation;
    if (d->separation_edge > 0.0f && s->cnt > 0.0f) { /* selfish herd: an edge bird tolerates closer birds */
        const float inv = 1.0f / s->cnt;
        const float ux = s->ux * inv, uy = s->uy * inv, uz = s->uz * inv;
        const float c2 = fminf(1.0f, ux * ux + uy * uy + uz * uz);
        ks = d->separation * fmaxf(0.0f, 1.0f - d->separation_edge * c2);
    }
    axx += ks * s->sx;
    ayy += ks * s->sy;
    azz += ks * s->sz;
    if (d->rim_pull > 0.0f && s->cnt > 0.0f) { /* the short-range rim pull: exposed birds close up */
        const float kr = d->rim_pull * mur_starling_gate_from(cexp, d->rim_from) * (1.0f / (float)MUR_RIM_NEAREST);
        axx += kr * s->rx;
        ayy += kr * s->ry;
        azz += kr * s->rz;
    }
    if (d->lone_pull > 0.0f && s->cnt > 0.0f) { /* the lone bird's pull (starling.c): beyond separation's reach */
        float lp[3];
        mur_starling_lone(d, s->kx, s->ky, s->kz, s->nn, lp);
        axx += lp[0];
        ayy += lp[1];
        azz += lp[2];
    }
    /* the vertical pulls' order gate (starling.c), with up_order: 1 otherwise */
    float gate = 1.0f; /* exact: 1 * x == x, so the pulls below are scaled unconditionally */
    if (d->up_order > 0.0f && s->cnt > 0.0f) {
        const float inv = 1.0f / s->cnt;
        gate = mur_starling_up_gate(d, s->ax * inv, s->ay * inv, s->az * inv, b->vx, b->vy, b->vz);
    }
    float ct = 0.0f; /* the caps' share (starling.c mur_starling_caps), gated as the vertical pulls */
    if ((d->cohesion_caps > 0.0f || d->separation_caps > 0.0f) && s->cnt > 0.0f)
        ct = gate * mur_starling_caps(d, s->uy * (1.0f / s->cnt));
    float wv[3] = {0.0f, 0.0f, 0.0f}; /* the random steering, for wander_up */
    if (d->wander > 0.0f) { /* random steering (starling.c) */
        mur_starling_wander(d, f->tick, i, wv);
        axx += wv[0];
        ayy += wv[1];
        azz += wv[2];
    }
    if (d->lift && d->bank) { /* weak pitch along the rolled body's up axis (starling.c) */
        float a[3] = {axx, ayy, azz};
        mur_starling_pitch(d, b, f->roll[i], a);
        if (d->separation_up > 0.0f) {
            const float kn = gate * (ks * mur_starling_up_near(d, s->nn)); /* close range only (separation_up_radius) */
            const float sep[3] = {kn * s->sx, kn * s->sy, kn * s->sz};
            mur_starling_separation_up(d, b, f->roll[i], sep, a);
        }
        if (d->cohesion_up > 0.0f) {
            const float cg[3] = {gate * coh[0], gate * coh[1], gate * coh[2]};
            mur_starling_cohesion_up(d, b, f->roll[i], cg, a);
        }
        if (d->cohesion_caps > 0.0f) { /* the caps pull (starling.c) */
            const float cg[3] = {ct * coh[0], ct * coh[1], ct * coh[2]};
            mur_starling_up_back(d, b, f->roll[i], d->cohesion_caps * (1.0f - d->pitch), cg, a);
        }
        if (d->separation_caps > 0.0f) { /* and the caps' own spacing */
            const float sg[3] = {ct * (ks * s->sx), ct * (ks * s->sy), ct * (ks * s->sz)};
            mur_starling_up_back(d, b, f->roll[i], d->separation_caps * (1.0f - d->pitch), sg, a);
        }
        if (d->wander_up > 0.0f && d->wander > 0.0f)
            mur_starling_up_back(d, b, f->roll[i], d->wander_up * (1.0f - d->pitch), wv, a);
        axx = a[0];
        ayy = a[1];
        azz = a[2];
    } else {
        ayy *= d->pitch; /* weak pitch: birds climb and dive less readily than they turn (exact when 1) */
        if (d->separation_up > 0.0f) {
            const float up = d->separation_up * (1.0f - d->pitch) * (ks * mur_starling_up_near(d, s->nn) * s->sy);
            ayy += gate * up;
        }
        if (d->cohesion_up > 0.0f)
            ayy += d->cohesion_up * (1.0f - d->pitch) * (gate * coh[1]);
        if (d->cohesion_caps > 0.0f)
            ayy += d->cohesion_caps * (1.0f - d->pitch) * (ct * coh[1]);
        if (d->separation_caps > 0.0f)
            ayy += d->separation_caps * (1.0f - d->pitch) * (ct * (ks * s->sy));
        if (d->wander_up > 0.0f && d->wander > 0.0f)
            ayy += d->wander_up * (1.0f - d->pitch) * wv[1];
    }
    if (d->skin > 0.0f && s->cnt > 0.0f) { /* the skin (starling.c): world vertical, after the weak pitch */
        const float sk = mur_starling_skin(d, s->uy * (1.0f / s->cnt));
        ayy += gate * sk;
    }
    if (d->surge < 1.0f || d->surge_separation >= 0.0f) { /* along the flight direction (starling.c) */
        float a[3] = {axx, ayy, azz};
        if (d->surge < 1.0f)
            mur_starling_surge(d, b, a);
        if (d->surge_separation >= 0.0f) { /* separation's own surge */
            const float sep[3] = {ks * s->sx, ks * s->sy, ks * s->sz};
            mur_starling_surge_separation(d, b, sep, s->nn, a); /* full at close range (surge_separation_radius) */
        }
        axx = a[0];
        ayy = a[1];
        azz = a[2];
    }
    if (d->skin_rim > 0.0f && s->cnt > 0.0f) { /* the skin's rim part (starling.c), after the surge */
        const float inv = 1.0f / s->cnt;
        float r[2];
        mur_starling_skin_rim(d, s->ux * inv, s->uz * inv, r);
        r[0] *= gate;
        r[1] *= gate;
        axx += r[0];
        azz += r[1];
    }
    if (d->goal) {
        axx += d->goal_weight * (d->goal_pos[0] - b->px);
        ayy += d->goal_weight * (d->goal_pos[1] - b->py);
        azz += d->goal_weight * (d->goal_pos[2] - b->pz);
    }
    if (d->wind) {
        axx += d->wind_vel[0];
        ayy += d->wind_vel[1];
        azz += d->wind_vel[2];
    }
    /* ground avoidance: a saturating pull-up near the ground (docs/rules.md); mur_ground_pull tests the
     * layer and gives +0 outside it */
    if (d->ground_avoid > 0.0f)
        ayy += mur_ground_pull(d, k, b->py, b->vy);
    for (int32_t q = 0; q < st->np; q++) {
        const float *pp = st->ppos + 3 * q;
        float dx = mur_min_image(b->px, pp[0], w->L[0], w->hL[0], w->wrap);
        float dy = mur_min_image(b->py, pp[1], w->L[1], w->hL[1], w->wrap);
        float dz = mur_min_image(b->pz, pp[2], w->L[2], w->hL[2], w->wrap);
        if (dx * dx + dy * dy + dz * dz < k->pr2) {
            axx += d->flee * dx;
            ayy += d->flee * dy;
            azz += d->flee * dz;
        }
    }
    if (w->soft)
        mur_soft_push(d, (const float[3]){b->px, b->py, b->pz}, (float *const[3]){&axx, &ayy, &azz}, d->bounds_turn);
    if (st->escape) { /* the escape manoeuvre (escape.c), before the starling terms: it banks and speeds */
        const float *e = f->erow[i].acc;
        axx += e[0];
        ayy += e[1];
        azz += e[2];
    }
    if (st->starling) {
        float a[3] = {axx, ayy, azz};
        /* the neighbours' mean roll (bank alignment; the own roll without neighbours) */
        const float nroll = d->bank_align > 0.0f && s->cnt > 0.0f ? s->rl * (1.0f / s->cnt) : f->roll[i];
        mur_starling_steer(d, &st->rule, b, a, f->roll + i, nroll);
        axx = a[0];
        ayy = a[1];
        azz = a[2];
    }
    float v[3] = {b->vx + d->dt * axx, b->vy + d->dt * ayy, b->vz + d->dt * azz};
    mur_plane_velocity(w, v);
    if (mur_flight_on(d)) /* the flight (flight.c): a stalled bird pitches over */
        mur_flight_clamp(v, d->min_speed, d->max_speed);
    else
        mur_clamp_speed(v, d->min_speed, d->max_speed);
    if (c) { /* hard sphere: the contact's velocity change before the move, its push after it */
        for (int a = 0; a < 3; a++)
            v[a] += c->dv[a];
        mur_plane_velocity(w, v); /* a contact between plane boids stays on the plane */
    }
    float p[3] = {b->px + d->dt * v[0], b->py + d->dt * v[1], b->pz + d->dt * v[2]};
    if (c)
        for (int a = 0; a < 3; a++)
            p[a] += c->dp[a];
    mur_plane_position(w, p);
    if (d->perch && p[1] <= d->ground) {
        p[1] = d->ground;
        v[0] = v[1] = v[2] = 0.0f;
        int32_t span = d->perch_max - d->perch_min + 1;
        int32_t r = (int32_t)(mur_hash_unit(d->seed, f->tick, (uint64_t)i) * (float)span);
        f->perch[i] = d->perch_min + (r < span ? r : span - 1);
    }
    mur_apply_walls(d, p, v);
    memcpy(f->pos + 3 * (size_t)i, p, sizeof p);
    memcpy(f->vel + 3 * (size_t)i, v, sizeof v);
}
