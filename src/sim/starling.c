/* The starling steering terms (docs/rules.md, docs/murmuration-model.md). Scalar, per boid, the same
 * operations in the same order on every path and thread. */
#include <math.h>

#include "starling.h"

#include "core.h"
#include "flight.h"

/* Speed relaxes to cruise_speed with time constant speed_tau (at most all the way in one tick), along
 * the flight direction. */
static void cruise(const mur_flock_def *d, const boid_in *b, float s, float a[3])
{
    if (!(d->speed_tau > 0.0f) || !(s > 0.0f))
        return;
    /* a time constant below dt relaxes fully in one tick (never overshoots); double and a bound keep
     * extreme parameters finite */
    const double g = fmin((double)d->dt / d->speed_tau, 1.0);
    const float k = (float)fmax(-1e30, fmin(1e30, g * ((double)d->cruise_speed - s) / ((double)d->dt * s)));
    a[0] += k * b->vx;
    a[1] += k * b->vy;
    a[2] += k * b->vz;
}

/* Roost: beyond roost_radius (horizontal distance to the roost centre) the boid turns inward along
 * its horizontal side vector, hardest when flying straight out; vertically a critically damped pull
 * to the roost altitude (clamped to 10 wu of height difference). */
static void roost(const mur_flock_def *d, const boid_in *b, float a[3])
{
    const float dx = b->px - d->roost_pos[0], dz = b->pz - d->roost_pos[2];
    const float r = sqrtf(dx * dx + dz * dz);
    const float hv = sqrtf(b->vx * b->vx + b->vz * b->vz);
    if (r > d->roost_radius && hv > 0.0f) {
        const float nx = dx / r, nz = dz / r;        /* outward normal */
        const float fx = b->vx / hv, fz = b->vz / hv; /* horizontal heading */
        const float sx = -fz, sz = fx;               /* its right-hand side */
        const float out = fx * nx + fz * nz, side = sx * nx + sz * nz;
        const float m = d->roost_weight * (r - d->roost_radius) * 0.5f * (1.0f + out);
        const float sgn = side > 0.0f ? -1.0f : 1.0f; /* toward the inside; straight out: turn left */
        a[0] += sgn * m * sx;
        a[2] += sgn * m * sz;
    }
    float h = d->roost_pos[1] - b->py;
    h = h > 10.0f ? 10.0f : (h < -10.0f ? -10.0f : h);
    a[1] += d->roost_vertical * h - 2.0f * sqrtf(d->roost_vertical) * b->vy;
}

/* Banked turn: the lateral (horizontal, across the heading) part of the steering, capped at
 * speed * max_turn, sets a target roll atan(a_lat / g); the roll follows it at bank_rate and the
 * lateral acceleration actually applied is g tan(roll): the turn lags the wish (reaction time). */
static void bank(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float s, float a[3], float *roll,
                 float nroll)
{
    const float hv = sqrtf(b->vx * b->vx + b->vz * b->vz);
    if (!(hv > 1e-3f * s))
        return; /* flying vertically: no heading to bank around */
    const float sx = -b->vz / hv, sz = b->vx / hv; /* right-hand side, horizontal */
    const float lat = a[0] * sx + a[2] * sz;
    mur_roll_follow(d, k, s, lat, roll, nroll);
    const float got = MUR_GRAVITY * tanf(*roll);
    a[0] += (got - lat) * sx;
    a[2] += (got - lat) * sz;
}

void mur_starling_pitch(const mur_flock_def *d, const boid_in *b, float roll, float a[3])
{
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    const float hv = sqrtf(b->vx * b->vx + b->vz * b->vz);
    if (!(d->lift && d->bank) || !(hv > 1e-3f * s)) {
        a[1] *= d->pitch; /* the vertical (flying vertically: no side axis to roll about) */
        return;
    }
    const float sx = -b->vz / hv, sz = b->vx / hv; /* right-hand side, horizontal */
    const float e = b->vy / s, h = hv / s;         /* sine and cosine of the climb angle */
    const float c = cosf(roll), sn = sinf(roll);
    /* the body's up axis: the up axis across the flight direction rolled by roll about it */
    const float ux = c * (-sz * e) + sn * sx, uy = c * h, uz = c * (sx * e) + sn * sz;
    const float m = (1.0f - d->pitch) * (a[0] * ux + a[1] * uy + a[2] * uz);
    a[0] -= m * ux;
    a[1] -= m * uy;
    a[2] -= m * uz;
}

void mur_starling_separation_up(const mur_flock_def *d, const boid_in *b, float roll, const float sep[3],
                                float a[3])
{
    mur_starling_up_back(d, b, roll, d->separation_up * (1.0f - d->pitch), sep, a);
}

float mur_starling_up_near(const mur_flock_def *d, float nn2)
{
    if (!(d->separation_up_radius > 0.0f))
        return 1.0f;
    return fmaxf(0.0f, 1.0f - sqrtf(nn2) / d->separation_up_radius);
}

void mur_starling_cohesion_up(const mur_flock_def *d, const boid_in *b, float roll, const float coh[3], float a[3])
{
    mur_starling_up_back(d, b, roll, d->cohesion_up * (1.0f - d->pitch), coh, a);
}

float mur_starling_caps(const mur_flock_def *d, float uy)
{
    return mur_starling_gate_from(fminf(1.0f, fabsf(uy)), d->cohesion_caps_from); /* NaN (no neighbours) gives 0 */
}

float mur_starling_skin(const mur_flock_def *d, float uy)
{
    const float w = d->skin * powf(fminf(1.0f, fabsf(uy)), d->skin_edge);
    return uy < 0.0f ? -w : w;
}

void mur_starling_skin_rim(const mur_flock_def *d, float ux, float uz, float out[2])
{
    const float h = sqrtf(ux * ux + uz * uz);
    if (!(h > 0.0f)) {
        out[0] = out[1] = 0.0f;
        return;
    }
    const float w = d->skin_rim * powf(fminf(1.0f, h), d->skin_edge) / h;
    out[0] = w * ux;
    out[1] = w * uz;
}

float mur_starling_gate_from(float c, float from)
{
    const float t = (c - from) / (1.0f - from);
    return t > 0.0f ? fminf(1.0f, t) : 0.0f; /* NaN gives 0 */
}

float mur_starling_exposed(const mur_flock_def *d, float ux, float uy, float uz, float sx, float sy, float sz,
                           float nn2)
{
    const float c = fminf(1.0f, sqrtf(ux * ux + uy * uy + uz * uz));
    const float from = d->separation_exposed_from;
    const float t = fminf(1.0f, (c - from) / (1.0f - from));
    const float len = sqrtf(sx * sx + sy * sy + sz * sz);
    if (!(t > 0.0f) || !(len > 0.0f))
        return 1.0f; /* the interior, or no push: unchanged */
    const float r = d->separation_radius * (1.0f - d->separation_exposed * t);
    const float x = sqrtf(nn2) / r;
    if (!(x < 1.0f))
        return 0.0f; /* beyond the shrunk radius (or a radius of 0) */
    float kw = 1.0f - x; /* the kernel of separation (topo_scalar.h), at the shrunk radius */
    if (d->separation_smooth)
        kw = 1.0f - x * x * x * (x * (6.0f * x - 15.0f) + 10.0f);
    return kw / len;
}

float mur_starling_stiff(const mur_flock_def *d, float sx, float sy, float sz, float nn2)
{
    const float rc = d->separation_stiff_radius, dist = sqrtf(nn2);
    const float len = sqrtf(sx * sx + sy * sy + sz * sz);
    if (!(dist < rc) || !(len > 0.0f))
        return 1.0f; /* outside the core, or no push (no direction to push along): unchanged */
    const float x = fmaxf(dist, 0.1f * rc); /* the push is at most 9 separation_stiff */
    return 1.0f + d->separation_stiff * (rc / x - 1.0f) / len;
}

void mur_starling_outward(const mur_flock_def *d, float ux, float uy, float uz, float s[3])
{
    const float m = sqrtf(ux * ux + uy * uy + uz * uz);
    const float t = mur_starling_gate_from(fminf(1.0f, m), d->separation_outward_from);
    if (!(t > 0.0f) || !(m > 0.0f))
        return; /* the interior, or no neighbour direction: unchanged */
    const float nx = -ux / m, ny = -uy / m, nz = -uz / m; /* the outward normal */
    const float p = s[0] * nx + s[1] * ny + s[2] * nz;
    if (!(p > 0.0f))
        return; /* the push points inward or along the surface: unchanged */
    const float k = fminf(1.0f, d->separation_outward * t) * p; /* never more than the whole outward part */
    s[0] -= k * nx;
    s[1] -= k * ny;
    s[2] -= k * nz;
}

void mur_starling_lone(const mur_flock_def *d, float kx, float ky, float kz, float nn2, float out[3])
{
    out[0] = out[1] = out[2] = 0.0f;
    const float dist = sqrtf(nn2), r = d->separation_radius;
    if (!(dist > r) || !(dist < INFINITY) || !(r > 0.0f))
        return; /* separation reaches it (or no neighbour): no pull */
    const float g = d->lone_pull * fminf(1.0f, (dist - r) / r) / dist;
    out[0] = g * kx;
    out[1] = g * ky;
    out[2] = g * kz;
}

float mur_starling_up_gate(const mur_flock_def *d, float mx, float my, float mz, float vx, float vy, float vz)
{
    const float m = sqrtf(mx * mx + my * my + mz * mz), v = sqrtf(vx * vx + vy * vy + vz * vz);
    if (!(v > 0.0f))
        return 1.0f;
    return powf(fminf(1.0f, m / v), d->up_order);
}

void mur_starling_wander(const mur_flock_def *d, uint64_t tick, int32_t i, float w[3])
{
    /* a uniform unit vector: z uniform in [-1, 1), the azimuth uniform (Archimedes); its own stream */
    const uint64_t seed = d->seed ^ 0x3a4de5ULL;
    const float z = 2.0f * mur_hash_unit(seed, tick, 2 * (uint64_t)i) - 1.0f;
    const float phi = (float)MUR_TWO_PI * mur_hash_unit(seed, tick, 2 * (uint64_t)i + 1);
    const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    w[0] = d->wander * (r * cosf(phi));
    w[1] = d->wander * z;
    w[2] = d->wander * (r * sinf(phi));
}

void mur_starling_up_back(const mur_flock_def *d, const boid_in *b, float roll, float kup, const float sep[3],
                          float a[3])
{
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    const float hv = sqrtf(b->vx * b->vx + b->vz * b->vz);
    if (!(d->lift && d->bank) || !(hv > 1e-3f * s)) {
        a[1] += kup * sep[1]; /* the vertical, as mur_starling_pitch */
        return;
    }
    /* the up axis of mur_starling_pitch */
    const float sx = -b->vz / hv, sz = b->vx / hv;
    const float e = b->vy / s, h = hv / s;
    const float c = cosf(roll), sn = sinf(roll);
    const float ux = c * (-sz * e) + sn * sx, uy = c * h, uz = c * (sx * e) + sn * sz;
    const float m = kup * (sep[0] * ux + sep[1] * uy + sep[2] * uz);
    a[0] += m * ux;
    a[1] += m * uy;
    a[2] += m * uz;
}

void mur_starling_surge(const mur_flock_def *d, const boid_in *b, float a[3])
{
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    if (!(s > 0.0f))
        return; /* not moving: no flight direction */
    const float fx = b->vx / s, fy = b->vy / s, fz = b->vz / s;
    const float m = (1.0f - d->surge) * (a[0] * fx + a[1] * fy + a[2] * fz);
    a[0] -= m * fx;
    a[1] -= m * fy;
    a[2] -= m * fz;
}

float mur_starling_surge_sep_gain(const mur_flock_def *d, float nn2)
{
    if (d->surge_separation_radius > 0.0f && sqrtf(nn2) < d->surge_separation_radius)
        return 1.0f; /* close range: separation at full strength along the flight */
    return d->surge_separation;
}

void mur_starling_surge_separation(const mur_flock_def *d, const boid_in *b, const float sep[3], float nn2,
                                   float a[3])
{
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    if (!(s > 0.0f))
        return; /* not moving: no flight direction */
    const float fx = b->vx / s, fy = b->vy / s, fz = b->vz / s;
    const float m = (mur_starling_surge_sep_gain(d, nn2) - d->surge) * (sep[0] * fx + sep[1] * fy + sep[2] * fz);
    a[0] += m * fx;
    a[1] += m * fy;
    a[2] += m * fz;
}

void mur_starling_steer(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll,
                        float nroll)
{
    if (mur_flight_on(d)) { /* the flight model (flight.c): thrust, gravity, lift, roll */
        if (d->roost)
            roost(d, b, a);
        mur_flight(d, k, b, a, roll, nroll);
        return;
    }
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    cruise(d, b, s, a);
    if (d->roost)
        roost(d, b, a);
    if (d->bank && s > 0.0f)
        bank(d, k, b, s, a, roll, nroll);
}

float mur_ground_pull(const mur_flock_def *d, const mur_rule_k *k, float y, float vy)
{
    const float h = y - d->ground;
    if (!(h < d->ground_avoid))
        return 0.0f;
    /* a spring that reaches ground_accel at the ground, critically damped, never pushing down: a
     * diving boid pulls up hard as soon as it enters the layer; topo_batch.c computes the same */
    const float u = k->gk * (d->ground_avoid - h) - k->g2w * vy;
    return u > d->ground_accel ? d->ground_accel : (u > 0.0f ? u : 0.0f);
}
