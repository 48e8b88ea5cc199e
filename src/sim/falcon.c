/* The hunting falcon and the prey's escape (docs/falcon.md). The falcon is planned on one thread from
 * the state at the start of the tick and committed after the boids moved; each bird's escape is
 * computed by the thread that updates it, from its own rows and the snapshot of its neighbours'
 * escapes taken before the pass (sesc), so any thread count gives the same bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "falcon.h"

#include "core.h"
#include "flock_impl.h"
#include "step.h"

/* The zig-zag's first leg, s (StarDisplay: one way for 0.25 s, the other for 0.3 s). */
#define ZIGZAG_FIRST 0.25f
/* Time constant of the falcon's speed control and of its straight steering, s. */
#define FALCON_TAU 0.5f
/* The approach steers at the centroid of the falcon's nearest prey (StarDisplay), this many birds: in
 * a flock of several groups the nearest one, not the empty middle between them. */
#define NEAREST_PREY 16
/* A bird's escape row's ts: the tick its state began (27 bits, wrapping) << 5 | FLEE | the state
 * (mur_escape_state | side << 3). FLEE: it fled from the looming falcon in this manoeuvre and keeps
 * the flight away from the falcon's path (row acc) to the manoeuvre's end. */
#define TS_SHIFT 5
#define TS_MASK 0x07ffffffu
#define FLEE 16u

size_t mur_escape_bytes_per_boid(void)
{
    return sizeof(mur_esc_row) + 3 * sizeof(uint8_t) + 2 * sizeof(int32_t) + 3 * sizeof(float);
}

void mur_escape_clear(mur_flock *f, int32_t i)
{
    memset(&f->erow[i], 0, sizeof f->erow[i]);
    f->esc[i] = MUR_ESCAPE_CALM;
    f->ecopy[i] = 0;
    f->alarm_tick[i] = -1;
    f->alarm_src[i] = -1;
    memset(f->alarm_pos + 3 * (size_t)i, 0, 3 * sizeof(float));
}

static bool grow(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes ? bytes : 1);
    if (!q)
        return false;
    *p = q;
    return true;
}

bool mur_escape_reserve(mur_flock *f, int32_t cap)
{
    if (cap <= f->esc_cap)
        return true;
    const size_t c = (size_t)cap;
    void *p[7] = {f->erow, f->esc, f->ecopy, f->alarm_tick, f->alarm_pos, f->sesc, f->alarm_src};
    const size_t b[7] = {sizeof(mur_esc_row), 1, 1, 4, 12, 1, 4};
    bool ok = true;
    for (int r = 0; r < 7; r++)
        ok = ok && grow(&p[r], c * b[r]);
    f->erow = p[0];
    f->esc = p[1];
    f->ecopy = p[2];
    f->alarm_tick = p[3];
    f->alarm_pos = p[4];
    f->sesc = p[5];
    f->alarm_src = p[6];
    if (!ok)
        return false;
    const int32_t from = f->esc_cap;
    f->esc_cap = cap;
    for (int32_t i = from; i < cap; i++)
        mur_escape_clear(f, i);
    return true;
}

void mur_escape_free(mur_flock *f)
{
    free(f->erow);
    free(f->esc);
    free(f->ecopy);
    free(f->alarm_tick);
    free(f->alarm_pos);
    free(f->sesc);
    free(f->alarm_src);
    f->alarm_src = NULL;
    f->erow = NULL;
    f->esc = f->ecopy = f->sesc = NULL;
    f->alarm_tick = NULL;
    f->alarm_pos = NULL;
    f->esc_cap = 0;
}

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

/* ---------------------------------------------------------------- small vector helpers */

static inline float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline float len3(const float *a)
{
    return sqrtf(dot3(a, a));
}

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
    for (int32_t i = 0; i < f->n; i++) {
        f->alarm_tick[i] = -1;
        f->alarm_src[i] = -1;
    }
    event(f, MUR_EVENT_ATTACK_START, -1, F->pos_next, 0.0, 0.0, F->attacks);
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

void mur_falcon_plan(mur_flock *f, const mur_step *s)
{
    const mur_flock_def *d = s->def;
    mur_falcon *F = &f->falcon;
    F->nevents = 0;
    F->caught = -1;
    /* the flock's centre and mean velocity (flying boids, index order), the nearest bird, and the
     * lock-on candidates in the cone */
    double sum[3] = {0, 0, 0}, vs[3] = {0, 0, 0}, speed = 0.0;
    int32_t flying = 0, near_i = -1;
    float near_d2 = INFINITY;
    int32_t prey[NEAREST_PREY];
    float prey_d2[NEAREST_PREY];
    int nprey = 0;
    const bool attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
    const float sp = len3(F->vel);
    const float cos_lock = (float)cos((double)d->falcon_lock_angle * (MUR_TWO_PI / 360.0));
    const float lr2 = d->falcon_lock_radius * d->falcon_lock_radius;
    for (int32_t i = 0; i < f->n; i++) {
        if (f->perch[i] > 0)
            continue;
        const float *p = f->pos + 3 * (size_t)i, *v = f->vel + 3 * (size_t)i;
        for (int c = 0; c < 3; c++) {
            sum[c] += p[c];
            vs[c] += v[c];
        }
        speed += sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        flying++;
        const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
        const float d2 = dot3(r, r);
        if (d2 < near_d2) {
            near_d2 = d2;
            near_i = i;
        }
        if (nprey < NEAREST_PREY || d2 < prey_d2[nprey - 1]) { /* the nearest prey, sorted, index order on ties */
            int k = nprey < NEAREST_PREY ? nprey++ : NEAREST_PREY - 1;
            for (; k > 0 && prey_d2[k - 1] > d2; k--) {
                prey_d2[k] = prey_d2[k - 1];
                prey[k] = prey[k - 1];
            }
            prey_d2[k] = d2;
            prey[k] = i;
        }
    }
    /* the centroid of the nearest prey and their mean velocity */
    float prey_c[3] = {F->centre[0], F->centre[1], F->centre[2]}, prey_v[3] = {0, 0, 0};
    if (nprey > 0) {
        double pc[3] = {0, 0, 0}, pv[3] = {0, 0, 0};
        for (int k = 0; k < nprey; k++)
            for (int c = 0; c < 3; c++) {
                pc[c] += f->pos[3 * (size_t)prey[k] + c];
                pv[c] += f->vel[3 * (size_t)prey[k] + c];
            }
        for (int c = 0; c < 3; c++) {
            prey_c[c] = (float)(pc[c] / nprey);
            prey_v[c] = (float)(pv[c] / nprey);
        }
    }
    if (flying > 0)
        for (int c = 0; c < 3; c++) {
            F->centre[c] = (float)(sum[c] / flying);
            F->centre_vel[c] = (float)(vs[c] / flying);
            F->mean_speed = (float)(speed / flying);
        }
    F->nearest = near_i >= 0 ? sqrtf(near_d2) : INFINITY;
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
    const double t_phase = (double)(f->tick - F->phase_tick) * dt;
    const double t_attack = (double)(f->tick - F->attack_tick) * dt;
    float a[3] = {0, 0, 0};
    float top = d->falcon_speed;
    int next = F->phase;
    if (attacking && near_i >= 0 && F->nearest < d->falcon_catch) {
        F->caught = near_i;
        F->catches++;
        event(f, MUR_EVENT_CATCH, near_i, f->pos + 3 * (size_t)near_i, F->nearest, 0.0, F->catches);
        next = MUR_FALCON_RETREAT;
    } else if (attacking && (t_attack >= d->falcon_attack ||
                             (F->phase == MUR_FALCON_PURSUIT && t_phase >= d->falcon_dogfight) || flying == 0 ||
                             (F->target >= 0 && (F->target >= f->n || f->perch[F->target] > 0)))) {
        next = MUR_FALCON_RETREAT;
    }
    if (next == MUR_FALCON_RETREAT && attacking) {
        int32_t alarmed = 0;
        for (int32_t i = 0; i < f->n; i++)
            alarmed += f->alarm_tick[i] >= 0;
        event(f, MUR_EVENT_ATTACK_END, -1, F->pos, t_attack, 0.0, alarmed);
    }
    if (next == MUR_FALCON_APPROACH) {
        /* lock-on: a bird in the cone (nearest, or farthest from the centre), or with centroid the
         * flock itself once a bird is within the lock radius */
        int32_t pick = -1;
        float best = 0.0f;
        if (sp > 0.0f && d->falcon_target != MUR_FALCON_CENTROID) {
            for (int32_t i = 0; i < f->n; i++) {
                if (f->perch[i] > 0)
                    continue;
                const float *p = f->pos + 3 * (size_t)i;
                const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
                const float d2 = dot3(r, r);
                if (!(d2 < lr2) || dot3(r, F->vel) < cos_lock * sqrtf(d2) * sp)
                    continue;
                const float c[3] = {p[0] - F->centre[0], p[1] - F->centre[1], p[2] - F->centre[2]};
                const float score = d->falcon_target == MUR_FALCON_NEAREST ? -d2 : dot3(c, c);
                if (pick < 0 || score > best) {
                    pick = i;
                    best = score;
                }
            }
        }
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
        top = d->falcon_attack_speed;
        const float r[3] = {prey_c[0] - F->pos[0], prey_c[1] - F->pos[1], prey_c[2] - F->pos[2]};
        pursue(d, F->vel, r, nprey > 0 ? prey_v : F->centre_vel, top, a);
        break;
    }
    case MUR_FALCON_PURSUIT: {
        top = d->falcon_attack_speed;
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

/* ---------------------------------------------------------------- the prey */

/* Ticks a neighbour must have escaped before it is copied (at least 1). */
static uint32_t latency_ticks(const mur_flock_def *d)
{
    const double t = floor((double)d->escape_latency / d->dt + 0.5);
    return t < 1.0 ? 1u : (t > 1e9 ? 1000000000u : (uint32_t)t);
}

void mur_escape_snapshot(mur_flock *f, const mur_step *s)
{
    (void)s;
    const int32_t *restrict order = f->order;
    const uint8_t *restrict ecopy = f->ecopy;
    uint8_t *restrict sesc = f->sesc;
    for (int32_t k = 0; k < f->n; k++)
        sesc[k] = ecopy[order[k]];
}

/* The manoeuvre a detecting bird picks (counter-based, by the mix's weights); zig-zag when all are 0. */
static int pick_kind(const mur_flock_def *d, uint64_t tick, int32_t i)
{
    const float w[4] = {d->escape_zigzag, d->escape_dive, d->escape_turn, d->escape_speedup};
    const float total = w[0] + w[1] + w[2] + w[3];
    if (!(total > 0.0f))
        return MUR_ESCAPE_ZIGZAG;
    float u = mur_hash_unit(d->seed ^ 0xfa1c0ULL, tick, (uint64_t)i) * total;
    for (int k = 0; k < 3; k++) {
        if (u < w[k])
            return MUR_ESCAPE_ZIGZAG + k;
        u -= w[k];
    }
    return MUR_ESCAPE_SPEEDUP;
}

/* Whether the attacking falcon (at r from the bird, relative velocity rv = falcon's - bird's) would
 * reach the bird within escape_flee_time: |r| < closing speed * time, closing speed = -r.rv / |r|,
 * i.e. r.r < -r.rv * time (no square root). */
static inline bool looming(const mur_flock_def *d, const float *r, float r2, const float *rv)
{
    return d->escape_flee_time > 0.0f && r2 < -dot3(r, rv) * d->escape_flee_time;
}

void mur_escape_boid(mur_flock *f, const mur_step *s, int32_t i, const boid_in *b, const int32_t *slot,
                     int stride, int n)
{
    const mur_flock_def *d = s->def;
    const mur_falcon *F = &f->falcon;
    mur_esc_row *row = &f->erow[i];
    uint32_t e = row->ts & 15u, fled = row->ts & FLEE;
    int kind = (int)(e & 7u);
    const uint32_t now = (uint32_t)f->tick & TS_MASK;
    const bool attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
    const float r[3] = {F->pos[0] - b->px, F->pos[1] - b->py, F->pos[2] - b->pz};
    const float r2 = dot3(r, r);
    const bool near = attacking && r2 < d->escape_radius * d->escape_radius;
    const float rv[3] = {F->vel[0] - b->vx, F->vel[1] - b->vy, F->vel[2] - b->vz};
    const bool flee = attacking && looming(d, r, r2, rv);
    if (kind == MUR_ESCAPE_CALM && !near && !flee) {
        /* the common case: calm, no falcon in sight; a neighbour's escape to copy? */
        uint8_t c = 0;
        for (int m = 0; !c && m < n; m++)
            c = f->sesc[slot[m * stride]];
        if (!c) {
            row->acc[0] = row->acc[1] = row->acc[2] = 0.0f;
            return;
        }
    }
    const float dt = d->dt;
    uint32_t since = row->ts >> TS_SHIFT;
    uint32_t age = (now - since) & TS_MASK;
    /* a bird that fled keeps away from the falcon's path for escape_flee_time (at least escape_time) */
    const float length = fled ? fmaxf(d->escape_time, d->escape_flee_time) : d->escape_time;
    if (kind >= MUR_ESCAPE_ZIGZAG && kind <= MUR_ESCAPE_SPEEDUP && (float)age * dt >= length) {
        kind = MUR_ESCAPE_REFRACTORY;
        e = (uint32_t)kind;
        fled = 0;
        since = now;
        age = 0;
    } else if (kind == MUR_ESCAPE_REFRACTORY && (float)age * dt >= d->escape_refractory) {
        kind = MUR_ESCAPE_CALM;
        e = 0;
    }
    const float v[3] = {b->vx, b->vy, b->vz};
    const float hv = sqrtf(v[0] * v[0] + v[2] * v[2]);
    const float side[3] = {hv > 0.0f ? -v[2] / hv : 0.0f, 0.0f, hv > 0.0f ? v[0] / hv : 0.0f};
    if (kind == MUR_ESCAPE_CALM) {
        bool start = false;
        int32_t src = i; /* the bird whose alarm starts this one's front: itself when it sees the falcon */
        if (flee) {
            /* the falcon looms: no need to be exposed or to look its way; the manoeuvre as if seen */
            kind = pick_kind(d, f->tick, i);
            e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
            start = true;
        } else if (near) {
            /* exposure and the outward direction from the neighbours' unit directions */
            float u[3] = {0, 0, 0};
            for (int m = 0; m < n; m++) {
                const int32_t j = slot[m * stride];
                float q[3] = {f->sx[j] - b->px, f->sy[j] - b->py, f->sz[j] - b->pz};
                const float l = len3(q);
                if (l > 0.0f)
                    for (int c = 0; c < 3; c++)
                        u[c] += q[c] / l;
            }
            const float ul = len3(u);
            const float expo = n > 0 ? ul / (float)n : 1.0f;
            float out[3];
            const float vl = len3(v);
            for (int c = 0; c < 3; c++)
                out[c] = n > 0 && ul > 0.0f ? -u[c] / ul : (vl > 0.0f ? v[c] / vl : (c == 0 ? 1.0f : 0.0f));
            const float cos_half = (float)cos((double)d->escape_fov * 0.5 * (MUR_TWO_PI / 360.0));
            const float rl = sqrtf(r2);
            const bool seen = d->escape_fov >= 360.0f || dot3(r, out) >= cos_half * rl;
            if (expo >= d->escape_exposure && seen) {
                kind = pick_kind(d, f->tick, i);
                /* turn and zig-zag first away from the falcon: left when it is on the right */
                e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
                start = true;
            }
        }
        if (!start) {
            /* copying: the first (nearest) of the k neighbours whose escape may be copied, with a rate
             * k / escape_reaction per second (a counter-based draw per bird and tick) */
            int first = -1, k = 0;
            for (int m = 0; m < n; m++)
                if (f->sesc[slot[m * stride]]) {
                    first = first < 0 ? m : first;
                    k++;
                }
            bool copy = k > 0;
            if (copy && d->escape_reaction > 0.0f) {
                const float p = 1.0f - expf(-dt * (float)k / d->escape_reaction);
                copy = mur_hash_unit(d->seed ^ 0xc0b1e5ULL, f->tick, (uint64_t)i) < p;
            }
            if (copy) {
                const uint8_t c = f->sesc[slot[first * stride]];
                kind = c & 7;
                /* the neighbour's manoeuvre; its side (away from the falcon) this bird's own unless
                 * escape_copy_side */
                e = d->escape_copy_side ? c : (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
                start = true;
                /* the neighbour's front (it escapes since escape_latency: its alarm_src is not written
                 * in this tick) */
                src = f->alarm_src[f->order[slot[first * stride]]];
            }
        }
        if (start) {
            since = now;
            age = 0;
            if (f->alarm_tick[i] < 0 && F->phase != MUR_FALCON_OFF) {
                f->alarm_tick[i] = (int32_t)(f->tick - F->attack_tick);
                f->alarm_src[i] = src;
                f->alarm_pos[3 * (size_t)i] = b->px - F->centre[0];
                f->alarm_pos[3 * (size_t)i + 1] = b->py - F->centre[1];
                f->alarm_pos[3 * (size_t)i + 2] = b->pz - F->centre[2];
            }
        }
    }
    const bool escaping = kind >= MUR_ESCAPE_ZIGZAG && kind <= MUR_ESCAPE_SPEEDUP;
    float *acc = row->acc;
    if (!flee && fled && escaping) { /* fled in this manoeuvre: on away from the path (acc as it was) */
        row->ts = since << TS_SHIFT | FLEE | e;
        return;
    }
    row->ts = since << TS_SHIFT | (flee && escaping ? FLEE : 0u) | e;
    acc[0] = acc[1] = acc[2] = 0.0f;
    const float A = d->escape_accel, sgn = (e & 8) ? -1.0f : 1.0f;
    if (flee) {
        /* away from the falcon's path (the part of its offset across the falcon's velocity): birds on
         * either side of the path part, whatever manoeuvre they copy; straight away from the falcon
         * when the bird is on the path itself */
        const float fv2 = dot3(F->vel, F->vel);
        const float along = fv2 > 0.0f ? dot3(r, F->vel) / fv2 : 0.0f;
        float aw[3] = {-(r[0] - along * F->vel[0]), -(r[1] - along * F->vel[1]), -(r[2] - along * F->vel[2])};
        float al = len3(aw);
        if (!(al > 1e-3f * sqrtf(r2))) {
            for (int c = 0; c < 3; c++)
                aw[c] = -r[c];
            al = sqrtf(r2);
        }
        if (al > 0.0f)
            for (int c = 0; c < 3; c++)
                acc[c] = d->escape_flee_accel * aw[c] / al;
        return;
    }
    switch (kind) {
    case MUR_ESCAPE_ZIGZAG: {
        const float k = (float)age * dt < ZIGZAG_FIRST ? sgn * A : -sgn * A;
        acc[0] = k * side[0];
        acc[2] = k * side[2];
        break;
    }
    case MUR_ESCAPE_TURN:
        acc[0] = sgn * A * side[0];
        acc[2] = sgn * A * side[2];
        break;
    case MUR_ESCAPE_DIVE:
        acc[1] = -A;
        break;
    case MUR_ESCAPE_SPEEDUP: {
        const float vl = len3(v);
        if (vl > 0.0f)
            for (int c = 0; c < 3; c++)
                acc[c] = A * v[c] / vl;
        break;
    }
    default:
        break;
    }
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
        memcpy(f->alarm_pos + 3 * (size_t)i, f->alarm_pos + 3 * (size_t)last, 3 * sizeof(float));
    }
    for (int32_t j = 0; j < last; j++)
        f->alarm_src[j] = f->alarm_src[j] == i ? -1 : (f->alarm_src[j] == last ? i : f->alarm_src[j]);
    f->n = last;
    f->def.boids = last;
}

double mur_wave_fit(const int32_t *tick, const int32_t *src, const float *pos, int32_t n, float dt, int32_t *used)
{
    /* least squares t = t0 + dist / speed over the copied birds, each against its own front's first
     * bird: a bird alarmed by another front than the earliest one is not read as a far, fast one */
    double sd = 0, st = 0, sdd = 0, sdt = 0;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t o = src[i];
        if (tick[i] < 0 || o < 0 || o == i || o >= n || tick[o] < 0 || tick[o] > tick[i])
            continue;
        const float *p = pos + 3 * (size_t)i, *p0 = pos + 3 * (size_t)o;
        const double dx = p[0] - p0[0], dy = p[1] - p0[1], dz = p[2] - p0[2];
        const double dist = sqrt(dx * dx + dy * dy + dz * dz);
        const double t = (double)(tick[i] - tick[o]) * dt;
        sd += dist;
        st += t;
        sdd += dist * dist;
        sdt += dist * t;
        m++;
    }
    if (used)
        *used = m;
    if (m < 3)
        return 0.0;
    const double var = sdd - sd * sd / m, cov = sdt - sd * st / m;
    return var > 0.0 && cov > 0.0 ? var / cov : 0.0;
}

/* The wave of the attack (mur_wave_fit) into an event. */
static void wave(mur_flock *f, const mur_step *s)
{
    int32_t first = -1, count = 0;
    for (int32_t i = 0; i < f->n; i++) {
        const int32_t t = f->alarm_tick[i];
        if (t < 0)
            continue;
        count++;
        if (first < 0 || t < f->alarm_tick[first])
            first = i;
    }
    const double speed = mur_wave_fit(f->alarm_tick, f->alarm_src, f->alarm_pos, f->n, s->def->dt, NULL);
    const mur_falcon *F = &f->falcon;
    event(f, MUR_EVENT_WAVE, first, first >= 0 ? f->alarm_pos + 3 * (size_t)first : NULL, speed, F->mean_speed,
          count);
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
    /* the birds' states into the view, and what a neighbour may copy next tick: an escape that will
     * then have lasted the latency */
    const uint32_t L = latency_ticks(s->def);
    const uint32_t next = (uint32_t)(f->tick + 1) & TS_MASK;
    int32_t alarmed = 0;
    for (int32_t i = 0; i < f->n; i++) {
        const uint32_t ts = f->erow[i].ts;
        const uint8_t e = (uint8_t)(ts & 15u);
        const int k = e & 7;
        const bool escaping = k >= MUR_ESCAPE_ZIGZAG && k <= MUR_ESCAPE_SPEEDUP;
        f->esc[i] = e;
        f->ecopy[i] = escaping && ((next - (ts >> TS_SHIFT)) & TS_MASK) >= L ? e : 0;
        alarmed += escaping;
    }
    F->alarmed = alarmed;
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
                                                             "wave"};
    return kind >= 0 && kind < MUR_EVENT_KIND_COUNT ? NAMES[kind] : NULL;
}
