/* The flight model (docs/rules.md "Flight", after StarDisplay, Hildenbrandt, Carere & Hemelrijk 2010):
 * gravity, lift along the body's up axis that balances the weight at cruise speed and grows with the
 * square of the speed, turning by rolling, a weak pitch through the lift coefficient. Scalar, per
 * boid, the same operations in the same order on every path and thread. */
#include <math.h>

#include "flight.h"

#include "starling.h"

void mur_roll_follow(const mur_flock_def *d, const mur_rule_k *k, float s, float lat, float *roll, float nroll)
{
    const float lim = s * k->max_lat;
    const float want = lat > lim ? lim : (lat < -lim ? -lim : lat);
    /* at most 1.5 rad (86 deg): tan stays finite and keeps its sign */
    const float target = fmaxf(-1.5f, fminf(1.5f, atanf(want / MUR_GRAVITY)));
    float g = d->dt * d->bank_rate;
    g = g < 1.0f ? g : 1.0f;
    if (d->bank_align > 0.0f) { /* bank alignment: also toward the neighbours' mean roll */
        float ga = d->dt * d->bank_align;
        ga = ga < 1.0f ? ga : 1.0f;
        *roll = *roll + g * (target - *roll) + ga * (nroll - *roll);
    } else {
        *roll += g * (target - *roll);
    }
}

void mur_flight(const mur_flock_def *d, const mur_rule_k *k, const boid_in *b, float a[3], float *roll,
                float nroll)
{
    const float s = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    if (!(s > 0.0f)) { /* not moving: no wings to lift it, gravity only */
        a[1] -= MUR_GRAVITY;
        return;
    }
    const float hv = sqrtf(b->vx * b->vx + b->vz * b->vz);
    float sx = 1.0f, sz = 0.0f; /* right-hand side, horizontal; flying straight up or down: the x axis */
    if (hv > 1e-3f * s) {
        sx = -b->vz / hv;
        sz = b->vx / hv;
    }
    const float fx = b->vx / s, fy = b->vy / s, fz = b->vz / s; /* flight direction */
    const float e = fy, h = hv / s;                             /* sine and cosine of the climb angle */
    const float nx = -sz * e, ny = h, nz = sx * e;              /* up axis across the flight direction */
    /* the steering in the level frame: lateral (the roll), vertical (the lift), forward (the thrust) */
    const float lat = a[0] * sx + a[2] * sz;
    const float up = a[1];
    float fwd = a[0] * sz - a[2] * sx;
    if (d->speed_tau > 0.0f) { /* thrust and drag: starling.c's relaxation to cruise_speed */
        const double g = fmin((double)d->dt / d->speed_tau, 1.0);
        fwd += (float)fmax(-1e30, fmin(1e30, g * ((double)d->cruise_speed - s) / (double)d->dt));
    }
    mur_roll_follow(d, k, s, lat, roll, nroll);
    const float c = cosf(*roll), sn = sinf(*roll);
    /* the lift coefficient, 1 in level flight at cruise speed: 1 / cos(roll) holds the height in a
     * turn, the vertical wish (already weakened by pitch) adds to it, and flight_hold of the change
     * the speed makes to the lift is made up (1 / q^2, at most 1e6); NaN gives flight_lift_max */
    const float q = s / d->cruise_speed;
    const float iq2 = fminf(1e6f, (d->cruise_speed * d->cruise_speed) / (s * s));
    const float want = (1.0f + up / MUR_GRAVITY) / fmaxf(c, 0.05f) * (1.0f + d->flight_hold * (iq2 - 1.0f));
    const float cl = fmaxf(0.0f, fminf(d->flight_lift_max, want));
    const float lm = fminf(d->flight_lift_max * MUR_GRAVITY, MUR_GRAVITY * (q * q) * cl);
    const float ux = c * nx + sn * sx, uy = c * ny, uz = c * nz + sn * sz; /* the body's up axis */
    a[0] = fwd * fx + lm * ux;
    a[1] = fwd * fy + lm * uy - MUR_GRAVITY;
    a[2] = fwd * fz + lm * uz;
}

void mur_flight_clamp(float v[3], float lo, float hi)
{
    const float s2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (s2 > hi * hi) { /* too fast: as mur_clamp_speed, along the path */
        const float k = hi / sqrtf(s2);
        v[0] *= k;
        v[1] *= k;
        v[2] *= k;
    } else if (s2 < lo * lo && s2 > 0.0f) {
        /* stalled: the vertical speed stays (|v_y| < lo), the speed missing to lo goes on the level
         * heading, the flight's frame (the -z axis within 0.06 deg of vertical): the bird pitches over */
        const float hv = sqrtf(v[0] * v[0] + v[2] * v[2]);
        float hx = 0.0f, hz = -1.0f;
        if (hv > 1e-3f * sqrtf(s2)) {
            hx = v[0] / hv;
            hz = v[2] / hv;
        }
        const float h = sqrtf(lo * lo - v[1] * v[1]);
        v[0] = h * hx;
        v[2] = h * hz;
    }
}
