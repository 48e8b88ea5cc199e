/* The hunting falcon (docs/falcon.md): planned on one thread from the state at the start of the
 * tick and committed after the boids moved. The prey's escape, computed with each bird's update, is in
 * escape.c. */
#include <math.h>
#include <string.h>

#include "falcon.h"
#include "falcon_scan.h"

#include "core.h"
#include "flock_impl.h"
#include "step.h"

/* Time constant of the falcon's speed control and of its straight steering, s. */
#define FALCON_TAU 0.5f
/* The approach steers at the centroid of the falcon's nearest prey (StarDisplay), this many birds: in
 * a flock of several groups the nearest one, not the empty middle between them. */
#define NEAREST_PREY MUR_SCAN_PREY

bool mur_falcon_switch(mur_flock *f, bool on, mur_error *err)
{
    if (on) {
        if (!mur_escape_reserve(f, f->cap > f->n ? f->cap : f->n)) {
            mur_set_error(err, "cannot allocate memory for the escape state of %d boids", (int)f->n);
            return false;
        }
        for (int32_t i = 0; i < f->esc_cap; i++)
            mur_escape_clear(f, i);
    } else if (f->esc) {
        for (int32_t i = 0; i < f->esc_cap; i++)
            mur_escape_clear(f, i);
    }
    const int64_t attacks = f->falcon.attacks, catches = f->falcon.catches;
    memset(&f->falcon, 0, sizeof f->falcon);
    f->falcon.phase = MUR_FALCON_OFF;
    f->falcon.target = -1;
    f->falcon.caught = -1;
    f->falcon.wave_first = -1;
    f->falcon.nearest = INFINITY;
    f->falcon.attacks = on ? 0 : attacks;
    f->falcon.catches = on ? 0 : catches;
    return true;
}

/* ---------------------------------------------------------------- small helpers */

/* Scale a to length at most m. */
static inline void cap3(float *a, float m)
{
    const float l = len3(a);
    if (l > m && l > 0.0f)
        for (int c = 0; c < 3; c++)
            a[c] *= m / l;
}

static void event(mur_flock *f, int kind, int32_t bird, const float *pos, double value, double aux, int64_t count)
{
    mur_falcon *F = &f->falcon;
    if (F->nevents >= MUR_MAX_EVENTS)
        return;
    mur_event *e = &F->events[F->nevents++];
    memset(e, 0, sizeof *e);
    e->tick = f->tick;
    e->kind = kind;
    e->bird = bird;
    if (pos)
        memcpy(e->pos, pos, sizeof e->pos);
    e->value = value;
    e->aux = aux;
    e->count = count;
}

/* ---------------------------------------------------------------- the falcon */

/* The set-up point of a new attack and the velocity toward the flock's centre. */
static void set_up(mur_flock *f, const mur_flock_def *d)
{
    mur_falcon *F = &f->falcon;
    float h[3] = {F->centre_vel[0], 0.0f, F->centre_vel[2]};
    const float hl = len3(h);
    if (hl > 1e-6f) {
        h[0] /= hl;
        h[2] /= hl;
    } else {
        h[0] = 1.0f;
        h[2] = 0.0f;
    }
    const float D = d->falcon_setup;
    float off[3] = {0, 0, 0};
    switch (d->falcon_strategy) {
    case MUR_FALCON_BEHIND: /* behind, a little above */
        off[0] = -D * h[0];
        off[1] = 0.2f * D;
        off[2] = -D * h[2];
        break;
    case MUR_FALCON_BESIDE: /* to the right, level */
        off[0] = -D * h[2];
        off[2] = D * h[0];
        break;
    default:
        off[1] = D;
        break;
    }
    for (int c = 0; c < 3; c++)
        F->pos_next[c] = F->centre[c] + off[c];
    if (F->pos_next[1] < d->ground + 1.0f)
        F->pos_next[1] = d->ground + 1.0f;
    float to[3] = {F->centre[0] - F->pos_next[0], F->centre[1] - F->pos_next[1], F->centre[2] - F->pos_next[2]};
    const float tl = len3(to);
    for (int c = 0; c < 3; c++)
        F->vel_next[c] = tl > 0.0f ? to[c] / tl * d->falcon_speed : (c == 0 ? d->falcon_speed : 0.0f);
    F->phase_next = MUR_FALCON_APPROACH;
    F->target_next = -1;
    F->attack_tick = f->tick;
    F->phase_tick = f->tick;
    F->attacks++;
    F->wave_first = -1;
    F->meet_speed = 0.0f;
    F->close_d2 = INFINITY;
    F->close_speed = 0.0f;
    F->close_bird = -1;
    F->close_tick = f->tick;
    memset(F->close_pos, 0, sizeof F->close_pos);
    for (int32_t i = 0; i < f->n; i++) {
        f->alarm_tick[i] = -1;
        f->alarm_src[i] = -1;
        f->alarm_from[i] = -1;
        f->alarm_k[i] = 0;
        f->alarm_nn[2 * (size_t)i] = f->alarm_nn[2 * (size_t)i + 1] = -1.0f;
        f->path_d2[i] = INFINITY;
        f->path_nn[2 * (size_t)i] = f->path_nn[2 * (size_t)i + 1] = -1.0f;
    }
    memcpy(f->vel0, f->vel, 3 * sizeof(float) * (size_t)f->n);
    F->part_on = false;
    event(f, MUR_EVENT_ATTACK_START, -1, F->pos_next, 0.0, 0.0, F->attacks);
}

/* The part of the flock the attack alarmed (the birds alarmed in it, flying), every PART_EVERY s for
 * PART_SPAN s from the attack's end (the falcon leaving): its polarisation now and at the attack's start
 * (vel0), an event each (re-forming is judged on the birds attacked, not on the whole flock of several
 * groups that may never have been polarised). */
#define PART_EVERY 0.5
#define PART_SPAN 30.0
static void sample_part(mur_flock *f, const mur_flock_def *d)
{
    mur_falcon *F = &f->falcon;
    const double t = (double)(f->tick - F->end_tick) * d->dt;
    if (t > PART_SPAN + 0.5 * d->dt) {
        F->part_on = false;
        return;
    }
    const uint64_t every = (uint64_t)fmax(1.0, floor(PART_EVERY / d->dt + 0.5));
    if ((f->tick - F->end_tick) % every)
        return;
    double u[3] = {0, 0, 0}, u0[3] = {0, 0, 0};
    int32_t m = 0;
    for (int32_t i = 0; i < f->n; i++) {
        if (f->alarm_tick[i] < 0 || f->perch[i] > 0)
            continue;
        const float *v = f->vel + 3 * (size_t)i, *v0 = f->vel0 + 3 * (size_t)i;
        const float l = len3(v), l0 = len3(v0);
        for (int c = 0; c < 3; c++) {
            u[c] += l > 0.0f ? v[c] / l : 0.0f;
            u0[c] += l0 > 0.0f ? v0[c] / l0 : 0.0f;
        }
        m++;
    }
    if (m == 0)
        return;
    const double p = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) / m;
    const double p0 = sqrt(u0[0] * u0[0] + u0[1] * u0[1] + u0[2] * u0[2]) / m;
    event(f, MUR_EVENT_PART, -1, NULL, p, p0, m);
}

/* Steering toward velocity want in time FALCON_TAU. */
static void steer_to(const float *v, const float *want, float a[3])
{
    for (int c = 0; c < 3; c++)
        a[c] = (want[c] - v[c]) / FALCON_TAU;
}

/* Proportional navigation toward a target at r (relative position) moving at vt: a = N w x v with the
 * line-of-sight rate w = r x (vt - v) / |r|^2, plus the speed control toward top along the heading. */
static void pursue(const mur_flock_def *d, const float *v, const float *r, const float *vt, float top, float a[3])
{
    const float r2 = dot3(r, r);
    const float sp = len3(v);
    if (!(d->falcon_gain > 0.0f) || !(r2 > 0.0f) || !(sp > 0.0f)) {
        const float rl = sqrtf(r2);
        float want[3] = {0, 0, 0};
        for (int c = 0; c < 3; c++)
            want[c] = rl > 0.0f ? r[c] / rl * top : v[c];
        steer_to(v, want, a);
        return;
    }
    const float vr[3] = {vt[0] - v[0], vt[1] - v[1], vt[2] - v[2]};
    const float w[3] = {(r[1] * vr[2] - r[2] * vr[1]) / r2, (r[2] * vr[0] - r[0] * vr[2]) / r2,
                        (r[0] * vr[1] - r[1] * vr[0]) / r2};
    const float N = d->falcon_gain;
    a[0] = N * (w[1] * v[2] - w[2] * v[1]);
    a[1] = N * (w[2] * v[0] - w[0] * v[2]);
    a[2] = N * (w[0] * v[1] - w[1] * v[0]);
    /* PN turns the velocity; closing the range also needs the nose toward the bird: a turn toward it
     * when the bird is behind the beam (PN alone would fly away from it) */
    const float ahead = dot3(r, v) / (sqrtf(r2) * sp);
    if (ahead < 0.0f)
        for (int c = 0; c < 3; c++)
            a[c] += (r[c] / sqrtf(r2) * top - v[c]) / FALCON_TAU;
    const float k = (top - sp) / (FALCON_TAU * sp);
    for (int c = 0; c < 3; c++)
        a[c] += k * v[c];
}

/* The attack's top speed at velocity v (speed sp): falcon_attack_speed, more in a dive (a stoop trades
 * height for speed): times 1 + falcon_stoop * sin of the angle below the horizon. */
static float stoop_speed(const mur_flock_def *d, const float *v, float sp)
{
    const float down = sp > 0.0f && v[1] < 0.0f ? -v[1] / sp : 0.0f;
    return d->falcon_attack_speed * (1.0f + d->falcon_stoop * down);
}

static void plan(mur_flock *f, const mur_step *s)
{
    const mur_flock_def *d = s->def;
    mur_falcon *F = &f->falcon;
    F->nevents = 0;
    F->caught = -1;
    /* the flock's centre and mean velocity (flying boids, index order), and while the falcon attacks
     * the nearest bird and prey; the birds' mean speed only on the tick the wave event reads it (the
     * end of the retreat, below); on the step's threads (falcon_scan.c) */
    const bool attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
    const double t_phase = (double)(f->tick - F->phase_tick) * d->dt;
    const bool want_speed = F->phase == MUR_FALCON_RETREAT && t_phase >= d->falcon_retreat;
    mur_scan S;
    mur_falcon_scan(f, s->threads, attacking, want_speed, &S);
    const int32_t flying = S.flying, near_i = S.near_i, nprey = S.nprey;
    const float near_d2 = S.near_d2;
    const float sp = len3(F->vel);
    const float cos_lock = (float)cos((double)d->falcon_lock_angle * (MUR_TWO_PI / 360.0));
    const float lr2 = d->falcon_lock_radius * d->falcon_lock_radius;
    /* the centroid of the nearest prey and their mean velocity */
    float prey_c[3] = {F->centre[0], F->centre[1], F->centre[2]}, prey_v[3] = {0, 0, 0};
    if (nprey > 0) {
        double pc[3] = {0, 0, 0}, pv[3] = {0, 0, 0};
        for (int k = 0; k < nprey; k++)
            for (int c = 0; c < 3; c++) {
                pc[c] += f->pos[3 * (size_t)S.prey[k] + c];
                pv[c] += f->vel[3 * (size_t)S.prey[k] + c];
            }
        for (int c = 0; c < 3; c++) {
            prey_c[c] = (float)(pc[c] / nprey);
            prey_v[c] = (float)(pv[c] / nprey);
        }
    }
    if (flying > 0)
        for (int c = 0; c < 3; c++) {
            F->centre[c] = (float)(S.sum[c] / flying);
            F->centre_vel[c] = (float)(S.vs[c] / flying);
            F->mean_speed = want_speed ? (float)(S.speed / flying) : F->mean_speed;
        }
    if (attacking)
        F->nearest = near_i >= 0 ? sqrtf(near_d2) : INFINITY;
    /* the speed the birds met (a reading, no state bit): the falcon's own speed on the attack's first tick
     * with a flying bird within escape_radius (the prey's sight) */
    if (attacking && F->meet_speed == 0.0f && near_i >= 0 && near_d2 < d->escape_radius * d->escape_radius)
        F->meet_speed = sp;
    /* the closest approach (a reading, no state bit): the first tick of the attack with the least distance
     * to a flying bird, and the falcon's speed and position then */
    if (attacking && near_i >= 0 && near_d2 < F->close_d2) {
        F->close_d2 = near_d2;
        F->close_speed = sp;
        F->close_bird = near_i;
        F->close_tick = f->tick;
        memcpy(F->close_pos, F->pos, sizeof F->close_pos);
    }
    F->fov_cos = (float)cos((double)d->escape_fov * 0.5 * (MUR_TWO_PI / 360.0));
    const float amax = d->falcon_force / d->falcon_mass;
    const float dt = d->dt;
    F->phase_next = F->phase;
    F->target_next = F->target;
    memcpy(F->pos_next, F->pos, sizeof F->pos);
    memcpy(F->vel_next, F->vel, sizeof F->vel);
    if (F->phase == MUR_FALCON_OFF) {
        if (flying > 0)
            set_up(f, d);
        return;
    }
    const double t_attack = (double)(f->tick - F->attack_tick) * dt;
    float a[3] = {0, 0, 0};
    float top = d->falcon_speed;
    int next = F->phase;
    /* the falcon presses the attack home (falcon_press): it does not give up after the dogfight before it has come
     * that near a flying bird in the attack (the closest approach above, now state) */
    const bool pressed = d->falcon_press <= 0.0f || F->close_d2 < d->falcon_press * d->falcon_press;
    if (attacking && near_i >= 0 && F->nearest < d->falcon_catch) {
        F->caught = near_i;
        F->catches++;
        event(f, MUR_EVENT_CATCH, near_i, f->pos + 3 * (size_t)near_i, F->nearest, 0.0, F->catches);
        next = MUR_FALCON_RETREAT;
    } else if (attacking && (t_attack >= d->falcon_attack ||
                             (F->phase == MUR_FALCON_PURSUIT && t_phase >= d->falcon_dogfight && pressed) || flying == 0 ||
                             (F->target >= 0 && (F->target >= f->n || f->perch[F->target] > 0)))) {
        next = MUR_FALCON_RETREAT;
    }
    if (next == MUR_FALCON_RETREAT && attacking) {
        int32_t alarmed = 0;
        for (int32_t i = 0; i < f->n; i++)
            alarmed += f->alarm_tick[i] >= 0;
        event(f, MUR_EVENT_ATTACK_END, -1, F->pos, t_attack, F->meet_speed, alarmed);
        const bool closed = F->close_bird >= 0;
        event(f, MUR_EVENT_CLOSEST, F->close_bird, F->close_pos, closed ? sqrt((double)F->close_d2) : 0.0,
              closed ? F->close_speed : 0.0, closed ? (int64_t)(F->close_tick - F->attack_tick) : -1);
        F->end_tick = f->tick;
        F->part_on = true;
    }
    if (F->part_on)
        sample_part(f, d);
    if (next == MUR_FALCON_APPROACH) {
        /* lock-on: a bird in the cone (nearest, or farthest from the centre), or with centroid the
         * flock itself once a bird is within the lock radius */
        /* no bird can be in the cone while the nearest is farther than the lock radius */
        const int32_t pick = sp > 0.0f && d->falcon_target != MUR_FALCON_CENTROID && near_d2 < lr2
                                 ? mur_falcon_cone(f, d, s->threads, cos_lock, lr2)
                                 : -1;
        const bool centroid_lock = d->falcon_target == MUR_FALCON_CENTROID && near_i >= 0 && near_d2 < lr2;
        if (pick >= 0 || centroid_lock) {
            next = MUR_FALCON_PURSUIT;
            F->target_next = pick;
            const float *tp = pick >= 0 ? f->pos + 3 * (size_t)pick : F->centre;
            const float r[3] = {tp[0] - F->pos[0], tp[1] - F->pos[1], tp[2] - F->pos[2]};
            event(f, MUR_EVENT_LOCK_ON, pick, tp, len3(r), 0.0, 0);
        }
    }
    if (next == MUR_FALCON_RETREAT && F->phase == MUR_FALCON_RETREAT && t_phase >= d->falcon_retreat) {
        next = MUR_FALCON_WAIT;
    } else if (next == MUR_FALCON_WAIT && t_phase >= d->falcon_wait) {
        set_up(f, d);
        return;
    }
    switch (next) {
    case MUR_FALCON_APPROACH: { /* at the centroid of the nearest prey, speeding up */
        top = stoop_speed(d, F->vel, sp);
        const float r[3] = {prey_c[0] - F->pos[0], prey_c[1] - F->pos[1], prey_c[2] - F->pos[2]};
        pursue(d, F->vel, r, nprey > 0 ? prey_v : F->centre_vel, top, a);
        break;
    }
    case MUR_FALCON_PURSUIT: {
        top = stoop_speed(d, F->vel, sp);
        const int32_t t = F->target_next;
        const float *tp = t >= 0 ? f->pos + 3 * (size_t)t : F->centre;
        const float *tv = t >= 0 ? f->vel + 3 * (size_t)t : F->centre_vel;
        const float r[3] = {tp[0] - F->pos[0], tp[1] - F->pos[1], tp[2] - F->pos[2]};
        pursue(d, F->vel, r, tv, top, a);
        break;
    }
    case MUR_FALCON_RETREAT: { /* away from the flock's centre and up */
        float away[3] = {F->pos[0] - F->centre[0], 0.0f, F->pos[2] - F->centre[2]};
        const float al = len3(away);
        float want[3] = {al > 0.0f ? away[0] / al : 1.0f, 0.5f, al > 0.0f ? away[2] / al : 0.0f};
        const float wl = len3(want);
        for (int c = 0; c < 3; c++)
            want[c] *= d->falcon_speed / wl;
        steer_to(F->vel, want, a);
        break;
    }
    default: { /* waiting: circle the flock at twice the set-up distance, level with it plus the set-up */
        float rad[3] = {F->pos[0] - F->centre[0], 0.0f, F->pos[2] - F->centre[2]};
        float rl = len3(rad);
        if (!(rl > 0.0f)) {
            rad[0] = 1.0f;
            rl = 1.0f;
        }
        const float ux = rad[0] / rl, uz = rad[2] / rl;
        const float R = 2.0f * d->falcon_setup;
        const float radial = fmaxf(-1.0f, fminf(1.0f, (R - rl) / R));
        float want[3] = {-uz + radial * ux, 0.0f, ux + radial * uz};
        const float wl = len3(want);
        for (int c = 0; c < 3; c++)
            want[c] *= d->falcon_speed / wl;
        want[1] = fmaxf(-5.0f, fminf(5.0f, F->centre[1] + d->falcon_setup - F->pos[1]));
        steer_to(F->vel, want, a);
        break;
    }
    }
    cap3(a, amax);
    float v[3], p[3];
    for (int c = 0; c < 3; c++)
        v[c] = F->vel[c] + dt * a[c];
    cap3(v, fmaxf(top, d->falcon_speed));
    for (int c = 0; c < 3; c++)
        p[c] = F->pos[c] + dt * v[c];
    if (p[1] < d->ground) {
        p[1] = d->ground;
        v[1] = v[1] < 0.0f ? -v[1] : v[1];
    }
    for (int c = 0; c < 3; c++) /* a non-finite value never enters the state */
        if (!isfinite(p[c]) || !isfinite(v[c])) {
            memcpy(p, F->pos, sizeof p);
            v[0] = d->falcon_speed;
            v[1] = v[2] = 0.0f;
            break;
        }
    memcpy(F->pos_next, p, sizeof p);
    memcpy(F->vel_next, v, sizeof v);
    if (next != F->phase)
        F->phase_tick = f->tick + 1;
    if (next != MUR_FALCON_PURSUIT)
        F->target_next = -1;
    F->phase_next = next;
}


void mur_falcon_plan(mur_flock *f, const mur_step *s)
{
    plan(f, s);
    /* what each bird's escape in the pass reads of the falcon, once for the tick (escape.c): the phase is
     * the tick's (the plan's next one is committed after the pass), the ticks as the plan left them */
    mur_escape_prepare(f, s);
}

/* ---------------------------------------------------------------- commit */

/* Remove boid i: the last boid takes its place. */
static void remove_boid(mur_flock *f, int32_t i)
{
    const int32_t last = f->n - 1;
    if (i != last) {
        memcpy(f->pos + 3 * (size_t)i, f->pos + 3 * (size_t)last, 3 * sizeof(float));
        memcpy(f->vel + 3 * (size_t)i, f->vel + 3 * (size_t)last, 3 * sizeof(float));
        f->perch[i] = f->perch[last];
        f->roll[i] = f->roll[last];
        f->erow[i] = f->erow[last];
        f->esc[i] = f->esc[last];
        f->ecopy[i] = f->ecopy[last];
        f->alarm_tick[i] = f->alarm_tick[last];
        f->alarm_src[i] = f->alarm_src[last];
        f->alarm_from[i] = f->alarm_from[last];
        f->alarm_k[i] = f->alarm_k[last];
        f->estr[i] = f->estr[last];
        f->eflash[i] = f->eflash[last];
        f->ewave[i] = f->ewave[last];
        f->espd[i] = f->espd[last];
        f->path_d2[i] = f->path_d2[last];
        memcpy(f->path_nn + 2 * (size_t)i, f->path_nn + 2 * (size_t)last, 2 * sizeof(float));
        memcpy(f->vel0 + 3 * (size_t)i, f->vel0 + 3 * (size_t)last, 3 * sizeof(float));
        memcpy(f->alarm_pos + 3 * (size_t)i, f->alarm_pos + 3 * (size_t)last, 3 * sizeof(float));
        memcpy(f->alarm_vel + 3 * (size_t)i, f->alarm_vel + 3 * (size_t)last, 3 * sizeof(float));
        memcpy(f->alarm_nn + 2 * (size_t)i, f->alarm_nn + 2 * (size_t)last, 2 * sizeof(float));
    }
    for (int32_t j = 0; j < last; j++) {
        f->alarm_src[j] = f->alarm_src[j] == i ? -1 : (f->alarm_src[j] == last ? i : f->alarm_src[j]);
        f->alarm_from[j] = f->alarm_from[j] == i ? -1 : (f->alarm_from[j] == last ? i : f->alarm_from[j]);
    }
    f->n = last;
    f->def.boids = last;
}

/* How far bird i's alarm is from bird o's, t seconds after o's: in o's frame (o's position moved on
 * at o's velocity then, vel; NULL: the positions as they are), so neither the flock's flight nor o's
 * group's flight across the flock is read as the alarm's travel. */
static double alarm_gap(const float *pos, const float *vel, int32_t i, int32_t o, double t)
{
    const float *p = pos + 3 * (size_t)i, *p0 = pos + 3 * (size_t)o;
    double g2 = 0.0;
    for (int c = 0; c < 3; c++) {
        const double g = (double)p[c] - p0[c] - (vel ? vel[3 * (size_t)o + c] * t : 0.0);
        g2 += g * g;
    }
    return sqrt(g2);
}

/* Over the birds i alarmed (tick[i] >= 0) after another bird ref[i] (alarmed, no later than i), in
 * order of i: the sums of the distances of i's alarm from ref[i]'s in ref[i]'s frame (alarm_gap) into
 * *sd, of the times between the two alarms into *st, and of k[i] into *sk (k NULL: not summed).
 * Returns how many birds were summed. Read by the wave fit (ref: each front's first bird) and the hop
 * event (ref: the neighbour copied). */
static int32_t alarm_pairs(const int32_t *tick, const int32_t *ref, const float *pos, const float *vel,
                           const uint8_t *k, int32_t n, float dt, double *sd, double *st, double *sk)
{
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t o = ref[i];
        if (tick[i] < 0 || o < 0 || o == i || o >= n || tick[o] < 0 || tick[o] > tick[i])
            continue;
        const double t = (double)(tick[i] - tick[o]) * dt;
        *sd += alarm_gap(pos, vel, i, o, t);
        *st += t;
        if (k)
            *sk += k[i] & 127; /* the high bit: a copied flight */
        m++;
    }
    return m;
}

double mur_wave_fit(const int32_t *tick, const int32_t *src, const float *pos, const float *vel, int32_t n, float dt,
                    int32_t *used)
{
    /* each copied bird against its own front's first bird (a bird alarmed by another front than the
     * earliest one is not read as a far, fast one): the distance its alarm travelled from that bird and
     * the time it took; the speed is the sum of the distances over the sum of the times. The front's
     * first bird is its origin (distance 0, time 0), so no intercept is fitted: a line with a free
     * intercept through fronts of one or two hops (small flocks, where the falcon alarms many birds
     * itself), whose time does not grow with distance within a hop, reads the spread of the hops'
     * lengths as speed and runs off to tens of m/s (docs/falcon.md). The distance is taken in the
     * front's first bird's frame (vel): in a flock of several groups flying different ways, the whole
     * flock's frame reads a group's own flight as the alarm's (branch wave6) */
    double sd = 0, st = 0;
    const int32_t m = alarm_pairs(tick, src, pos, vel, NULL, n, dt, &sd, &st, NULL);
    if (used)
        *used = m;
    if (m < 3)
        return 0.0;
    return st > 0.0 && sd > 0.0 ? sd / st : 0.0;
}

/* The nearest-neighbour ratio after/before (nn: two floats a bird) summed over two groups of birds:
 * group[i] 0 or 1, -1 for a bird left out (and any bird without both distances); out[w] = sum after /
 * sum before over group w (0 where it is empty). Returns the birds of group 0. Shared by the path and
 * the burst events, which differ only in how they sort the birds. */
static int32_t group_nn_ratio(const float *nn, int32_t n, int (*group)(int32_t i, const void *ctx),
                              const void *ctx, double out[2])
{
    double b0[2] = {0, 0}, b1[2] = {0, 0};
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        const float *g = nn + 2 * (size_t)i;
        const int who = group(i, ctx);
        if (who < 0 || !(g[0] > 0.0f) || !(g[1] >= 0.0f))
            continue;
        b0[who] += g[0];
        b1[who] += g[1];
        m += who == 0;
    }
    for (int w = 0; w < 2; w++)
        out[w] = b0[w] > 0.0 ? b1[w] / b0[w] : 0.0;
    return m;
}

static int path_group(int32_t i, const void *ctx)
{
    const float *d2 = ctx;
    return d2[i] < MUR_PATH_RADIUS * MUR_PATH_RADIUS ? 0 : 1;
}

int32_t mur_path_burst(const float *d2, const float *nn, int32_t n, double out[2])
{
    return group_nn_ratio(nn, n, path_group, d2, out);
}

typedef struct burst_ctx {
    const int32_t *tick, *src;
} burst_ctx;

static int burst_group(int32_t i, const void *ctx)
{
    const burst_ctx *c = ctx;
    return c->tick[i] < 0 ? -1 : c->src[i] == i ? 0 : 1;
}

int32_t mur_burst(const int32_t *tick, const int32_t *src, const float *nn, int32_t n, double out[2])
{
    const burst_ctx c = {tick, src};
    return group_nn_ratio(nn, n, burst_group, &c, out);
}

/* The wave of the attack (mur_wave_fit) into an event. */
static void wave(mur_flock *f, const mur_step *s)
{
    int32_t first = -1, count = 0, self = 0;
    for (int32_t i = 0; i < f->n; i++) {
        const int32_t t = f->alarm_tick[i];
        if (t < 0)
            continue;
        count++;
        self += f->alarm_src[i] == i;
        if (first < 0 || t < f->alarm_tick[first])
            first = i;
    }
    int32_t copied = 0;
    const double speed = mur_wave_fit(f->alarm_tick, f->alarm_src, f->alarm_pos, f->alarm_vel, f->n, s->def->dt,
                                      &copied);
    const mur_falcon *F = &f->falcon;
    event(f, MUR_EVENT_WAVE, first, first >= 0 ? f->alarm_pos + 3 * (size_t)first : NULL, speed, F->mean_speed,
          count);
    /* how many of them the alarm reached by copying (the wave's birds), and how many saw the falcon or
     * fled from it themselves (the direct reaction) */
    event(f, MUR_EVENT_COPIED, first, NULL, count > 0 ? (double)copied / count : 0.0, (double)self, copied);
    /* the copies themselves, hop by hop: each copier against the neighbour it copied (in that
     * neighbour's frame, as the fronts); what a wave's speed is made of (docs/falcon.md) */
    double hd = 0.0, ht = 0.0, hk = 0.0;
    const int32_t hops = alarm_pairs(f->alarm_tick, f->alarm_from, f->alarm_pos, f->alarm_vel, f->alarm_k, f->n,
                                     s->def->dt, &hd, &ht, &hk);
    const float kmean[3] = {hops > 0 ? (float)(hk / hops) : 0.0f, 0.0f, 0.0f};
    event(f, MUR_EVENT_HOP, -1, kmean, hops > 0 ? hd / hops : 0.0, hops > 0 ? ht / hops : 0.0, hops);
    /* the burst: how far the birds opened up, locally (each bird's nearest neighbour at the end of its first
     * manoeuvre against at its alarm), for the birds the falcon alarmed itself (the flash expansion where it
     * passes) and for those that copied; the whole flock's NN distance hardly moves when a part bursts */
    double burst[2];
    const int32_t nb = mur_burst(f->alarm_tick, f->alarm_src, f->alarm_nn, f->n, burst);
    float flights[3] = {0.0f, 0.0f, 0.0f}; /* the birds that copied a flight from the falcon's path */
    for (int32_t i = 0; i < f->n; i++)
        flights[0] += f->alarm_tick[i] >= 0 && f->alarm_src[i] != i && (f->alarm_k[i] & 128);
    event(f, MUR_EVENT_BURST, -1, flights, burst[0], burst[1], nb);
    /* the flock along the falcon's path against the rest of it: their nearest neighbours after the attack
     * over at its start */
    double path[2];
    const int32_t np = mur_path_burst(f->path_d2, f->path_nn, f->n, path);
    event(f, MUR_EVENT_PATH, -1, NULL, path[0], path[1], np);
}

void mur_falcon_commit(mur_flock *f, const mur_step *s)
{
    mur_falcon *F = &f->falcon;
    const int old = F->phase;
    if (old == MUR_FALCON_RETREAT && F->phase_next == MUR_FALCON_WAIT)
        wave(f, s);
    F->phase = F->phase_next;
    memcpy(F->pos, F->pos_next, sizeof F->pos);
    memcpy(F->vel, F->vel_next, sizeof F->vel);
    F->target = F->target_next;
    if (F->caught >= 0 && s->def->falcon_remove && F->caught < f->n) {
        const int32_t last = f->n - 1;
        remove_boid(f, F->caught);
        if (F->target == last)
            F->target = F->caught;
        else if (F->target == F->caught)
            F->target = -1;
    }
    /* the birds' states into the view, and what a neighbour may copy next tick, were written by each
     * bird's escape in the pass (escape.c; the perched birds' by the pass too) */
}

void mur_falcon_measure(const mur_flock *f, mur_stats *st)
{
    const mur_falcon *F = &f->falcon;
    float best = INFINITY;
    int32_t alarmed = 0;
    for (int32_t i = 0; i < f->n; i++) {
        const int k = f->esc[i] & 7;
        alarmed += k >= MUR_ESCAPE_ZIGZAG && k <= MUR_ESCAPE_SPEEDUP;
        if (f->perch[i] > 0)
            continue;
        const float *p = f->pos + 3 * (size_t)i;
        const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
        const float d2 = dot3(r, r);
        best = d2 < best ? d2 : best;
    }
    st->falcon_distance = F->phase != MUR_FALCON_OFF && best < INFINITY ? sqrt((double)best) : 0.0;
    st->alarmed = f->n > 0 ? (double)alarmed / f->n : 0.0;
    st->falcon_state = F->phase;
    mur_falcon_near(f, &st->falcon_nn, &st->falcon_near);
}

/* ---------------------------------------------------------------- public */

int mur_flock_events(const mur_flock *f, mur_event *out, int max)
{
    const int n = f->falcon.nevents;
    for (int k = 0; out && k < n && k < max; k++)
        out[k] = f->falcon.events[k];
    return n;
}

const char *mur_event_name(int kind)
{
    static const char *const NAMES[MUR_EVENT_KIND_COUNT] = {"attack_start", "lock_on", "catch", "attack_end",
                                                             "wave", "copied", "hop", "part", "burst", "path",
                                                             "closest"};
    return kind >= 0 && kind < MUR_EVENT_KIND_COUNT ? NAMES[kind] : NULL;
}