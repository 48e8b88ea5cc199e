/* Live changes of a flock's whole def (murmur.h): mur_flock_apply_def (a def on a live flock: its
 * checks, the counts it changes, the per-boid state it needs) and the preset switch,
 * mur_flock_switch_def and mur_flock_apply_preset, which also bring every boid into the new def's
 * world. Calls flock.c's setters only. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "carry.h"
#include "core.h"
#include "falcon.h"
#include "flock_impl.h"
#include "space.h"

bool mur_flock_apply_def(mur_flock *f, const mur_flock_def *def, mur_error *err)
{
    if (!mur_def_check(def, err))
        return false;
    mur_carry_drop(f); /* the switch may move boids (bring_in) */
    /* boids and predators the def adds appear in the def's own world, not the one it replaces */
    const mur_flock_def old = f->def;
    f->def = *def;
    f->def.boids = f->n;
    f->def.predators = f->np;
    if ((def->boids != f->n && !mur_flock_set_boid_count(f, def->boids, err)) ||
        (def->predators != f->np && !mur_flock_set_predator_count(f, def->predators, err))) {
        f->def = old;
        f->def.boids = f->n;
        f->def.predators = f->np;
        return false;
    }
    f->def = *def;
    if (def->falcon != old.falcon && !mur_falcon_switch(f, def->falcon, err)) {
        f->def.falcon = old.falcon;
        return false;
    }
    if (old.perch && !def->perch)
        mur_flock_set_perch(f, false);
    if (old.bank && !def->bank)
        memset(f->roll, 0, sizeof(float) * (size_t)f->n); /* the view says 0 without banked turns */
    return true;
}

/* The region a flock lives in, for a switch (resolved def), and how far outside it a boid may be
 * without being brought in (tol). With walls: the world box, tol 0 (a flock of the box's own stays
 * inside it: the walls act within it), and a flock brought in lands bounds_margin from soft walls
 * where it fits (inner: their push starts there). Without walls but with a roost: the roost's
 * horizontal disc (roost_radius) and 10 wu around its altitude (the vertical pull's range), tol =
 * roost_radius / 4 (the roost turns boids back only beyond its radius: settled starling flocks reach
 * 1.2 roost_radius). With neither: anywhere. */
typedef enum home_kind { HOME_ANYWHERE, HOME_BOX, HOME_ROOST } home_kind;

typedef struct home {
    home_kind kind;
    float lo[3], hi[3], tol[3], inner[3]; ///< the box (HOME_BOX: every axis; HOME_ROOST: y only)
    float cx, cz, radius, htol; ///< HOME_ROOST: the disc and its tolerance
} home;

static home home_of(const mur_flock_def *r)
{
    home h;
    memset(&h, 0, sizeof h);
    if (r->bounds != MUR_BOUNDS_NONE) {
        h.kind = HOME_BOX;
        for (int a = 0; a < 3; a++) {
            h.lo[a] = r->world_min[a];
            h.hi[a] = r->world_max[a];
            h.inner[a] = r->bounds == MUR_BOUNDS_SOFT ? r->bounds_margin : 0.0f;
        }
    } else if (r->roost) {
        h.kind = HOME_ROOST;
        h.lo[1] = r->roost_pos[1] - 10.0f;
        h.hi[1] = r->roost_pos[1] + 10.0f;
        h.tol[1] = h.htol = 0.25f * r->roost_radius;
        h.cx = r->roost_pos[0];
        h.cz = r->roost_pos[2];
        h.radius = r->roost_radius;
    }
    return h;
}

/* Seeded uniform numbers in [0, 1) for boid i (stream 6, its own keys per use q): where a boid that
 * cannot stay goes. */
static double draw(const mur_flock_def *d, int32_t i, int q, uint64_t salt)
{
    const uint64_t key = ((uint64_t)i << 4) ^ (salt << 36);
    return (double)mur_hash_unit(d->seed, 6, key + (uint64_t)q);
}

/* Axis a into the box (see bring_in). */
static void bring_in_axis(mur_flock *f, const mur_flock_def *r, int a, const home *h)
{
    const int32_t n = f->n;
    const float lo = h->lo[a], hi = h->hi[a], tol = h->tol[a];
    float b0 = INFINITY, b1 = -INFINITY;
    for (int32_t i = 0; i < n; i++) {
        const float p = f->pos[3 * (size_t)i + a];
        b0 = p < b0 ? p : b0;
        b1 = p > b1 ? p : b1;
    }
    if (n == 0 || (b0 >= lo - tol && b1 <= hi + tol))
        return;
    const double room = (double)hi - lo, ext = (double)b1 - b0;
    if (ext <= room) {
        /* inside by min(inner, half the slack) from each wall, by the least shift */
        const double m = fmin((double)h->inner[a], 0.5 * (room - ext));
        const double shift = b0 < lo + m ? (lo + m) - b0 : (hi - m) - b1;
        for (int32_t i = 0; i < n; i++) {
            float *p = &f->pos[3 * (size_t)i + a];
            *p = (float)((double)*p + shift);
            *p = *p < lo ? lo : (*p > hi ? hi : *p); /* rounding */
            if (a == 1)
                f->perch[i] = 0; /* off the ground: flying */
        }
        return;
    }
    /* wider than the box: every boid outside it gets a seeded place on this axis */
    for (int32_t i = 0; i < n; i++) {
        float *p = &f->pos[3 * (size_t)i + a];
        if (*p < lo || *p > hi) {
            const float x = (float)(lo + draw(r, i, a, f->tick) * room);
            *p = x >= lo && x <= hi ? x : lo;
            f->perch[i] = 0;
        }
    }
}

/* The horizontal disc of a roost (see bring_in). */
static void bring_in_disc(mur_flock *f, const mur_flock_def *r, const home *h)
{
    const int32_t n = f->n;
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY, far = 0.0;
    for (int32_t i = 0; i < n; i++) {
        const double x = f->pos[3 * (size_t)i], z = f->pos[3 * (size_t)i + 2];
        x0 = fmin(x0, x), x1 = fmax(x1, x), z0 = fmin(z0, z), z1 = fmax(z1, z);
        far = fmax(far, hypot(x - h->cx, z - h->cz));
    }
    if (n == 0 || far <= (double)h->radius + h->htol)
        return;
    /* the flock's horizontal extent as a circle around its box's centre; wider than the disc: every
     * boid outside the disc gets a seeded place in it */
    const double mx = 0.5 * (x0 + x1), mz = 0.5 * (z0 + z1);
    double rho = 0.0;
    for (int32_t i = 0; i < n; i++)
        rho = fmax(rho, hypot(f->pos[3 * (size_t)i] - mx, f->pos[3 * (size_t)i + 2] - mz));
    const double R = h->radius, d = hypot(mx - h->cx, mz - h->cz);
    if (rho <= R && d > 0.0) {
        /* toward the roost by the least shift that puts the circle inside the disc */
        const double k = (d - (R - rho)) / d;
        const float sx = (float)((h->cx - mx) * k), sz = (float)((h->cz - mz) * k);
        for (int32_t i = 0; i < n; i++) {
            f->pos[3 * (size_t)i] += sx;
            f->pos[3 * (size_t)i + 2] += sz;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        float *p = f->pos + 3 * (size_t)i;
        if (hypot((double)p[0] - h->cx, (double)p[2] - h->cz) > R) {
            const double u = R * sqrt(draw(r, i, 0, f->tick)), phi = MUR_TWO_PI * draw(r, i, 2, f->tick);
            p[0] = (float)(h->cx + u * cos(phi));
            p[2] = (float)(h->cz + u * sin(phi));
            f->perch[i] = 0;
        }
    }
}

/* Bring every boid and predator into the region of the def in force (home_of). Per axis of a box, when
 * some boid is farther outside than tol, the whole flock moves along that axis by the least shift that
 * puts it inside (a margin from the walls where it fits): the flock flies on, its shape kept. A flock
 * wider than the box stays, and the boids still outside get a seeded coordinate inside on that axis (and
 * fly: perch 0). A roost's disc likewise: the flock moves toward the roost when it fits the disc, else
 * the boids outside get a seeded place in it. Plane mode puts flying boids on the plane. Predators
 * outside are placed anew. One pass in boid order: the same on any thread count. */
static void bring_in(mur_flock *f)
{
    const mur_flock_def r = mur_def_resolved(&f->def);
    mur_world w;
    mur_world_init(&w, &r);
    const home h = home_of(&r);
    if (h.kind != HOME_ANYWHERE) {
        for (int a = 0; a < 3; a++) {
            if ((w.plane && a == 1) || (h.kind == HOME_ROOST && a != 1))
                continue;
            bring_in_axis(f, &r, a, &h);
        }
        if (h.kind == HOME_ROOST)
            bring_in_disc(f, &r, &h);
        for (int32_t k = 0; k < f->np; k++) {
            const float *q = f->ppos + 3 * (size_t)k;
            bool out = false;
            for (int a = 0; a < 3; a++)
                out |= (h.kind == HOME_BOX || a == 1) && (q[a] < h.lo[a] - h.tol[a] || q[a] > h.hi[a] + h.tol[a]);
            out |= h.kind == HOME_ROOST && hypot((double)q[0] - h.cx, (double)q[2] - h.cz) > (double)h.radius + h.htol;
            if (out)
                mur_spawn_predator(f, &r, k, f->tick);
        }
    }
    if (w.plane) {
        for (int32_t i = 0; i < f->n; i++) {
            if (f->perch[i] > 0)
                continue;
            f->pos[3 * (size_t)i + 1] = w.plane_y;
            f->vel[3 * (size_t)i + 1] = 0.0f;
        }
    }
}

bool mur_flock_switch_def(mur_flock *f, const mur_flock_def *def, mur_error *err)
{
    if (!mur_flock_apply_def(f, def, err))
        return false;
    bring_in(f);
    return true;
}

bool mur_flock_apply_preset(mur_flock *f, const char *name, int32_t boids, mur_error *err)
{
    mur_flock_def d;
    if (!mur_def_preset(&d, name, err))
        return false;
    d.seed = f->def.seed; /* not live: the flock keeps its own */
    if (boids > 0)
        d.boids = boids;
    return mur_flock_switch_def(f, &d, err);
}
