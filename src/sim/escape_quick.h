/* The prey's escape, private to escape.c: the manoeuvres' accelerations, the publishing of a bird's state
 * for its neighbours, and the quick paths (the common cases of escape_step without its branches; test
 * falcon_escape_quick_exact holds them to escape_step's bits). Included by escape.c only, after its
 * row layout (TS_SHIFT, FLEE, QUIET, PART, FLASH, AGE_SHIFT, FLIGHT, PARTED, ZIGZAG_FIRST). */
#ifndef MUR_ESCAPE_QUICK_H
#define MUR_ESCAPE_QUICK_H

/* The bird's horizontal left (its turns and zig-zags), from its velocity v. */
static inline void horizontal_left(const float *v, float *side)
{
    const float hv = sqrtf(v[0] * v[0] + v[2] * v[2]);
    side[0] = hv > 0.0f ? -v[2] / hv : 0.0f;
    side[1] = 0.0f;
    side[2] = hv > 0.0f ? v[0] / hv : 0.0f;
}

/* A manoeuvre's acceleration into acc (0 before): kind and e (its side in bit 3) as the row keeps them,
 * t its age in seconds, st the alarm's strength (escape_copy_fade; 1 without), side the bird's horizontal
 * left (zig-zag and turn), v its velocity (speed-up). A turn that is the part (the row's PART) turns away
 * from the path line (its side, chosen at its start) with escape_part_accel and speeds up with
 * escape_part_speedup; the other manoeuvres act with escape_accel. */
static inline void manoeuvre(const mur_flock_def *d, int kind, uint32_t e, bool part, float t, float st,
                             const float *side, const float *v, float *acc)
{
    const float sgn = (e & 8) ? -1.0f : 1.0f, A = d->escape_accel * st;
    switch (kind) {
    case MUR_ESCAPE_ZIGZAG: {
        const float k = t < ZIGZAG_FIRST ? sgn * A : -sgn * A;
        acc[0] = k * side[0];
        acc[2] = k * side[2];
        break;
    }
    case MUR_ESCAPE_TURN:
        if (part) {
            const float vl = len3(v);
            const float ks = sgn * d->escape_part_accel * st;
            const float kv = vl > 0.0f ? d->escape_part_speedup * st / vl : 0.0f;
            for (int c = 0; c < 3; c++)
                acc[c] = ks * side[c] + kv * v[c];
            break;
        }
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

/* Bird i's state into the view (esc) and what a neighbour may copy next tick (ecopy: an escape that
 * will then have lasted the latency, F->copy_latency ticks). Written by the thread that updates the
 * bird, after its escape this tick; the neighbours read the snapshot (sesc) taken before the pass. */
static inline void publish(mur_flock *f, const mur_flock_def *d, int32_t i)
{
    const uint32_t ts = f->erow[i].ts;
    const uint8_t e = (uint8_t)(ts & 15u);
    const int k = e & 7;
    f->esc[i] = e;
    if (!(k >= MUR_ESCAPE_ZIGZAG && k <= MUR_ESCAPE_SPEEDUP) || (ts & QUIET)) {
        /* calm, refractory, or a quiet turn (escape_alarm_speed): not copied */
        f->ecopy[i] = 0;
        return;
    }
    const uint32_t next = (uint32_t)(f->tick + 1) & TS_MASK;
    const uint32_t age = (next - (ts >> TS_SHIFT)) & TS_MASK;
    /* a bird fleeing the falcon's path publishes its flight to copy (escape_copy_flight) */
    /* a parting bird publishes the part (its copiers part on their own side) */
    const uint8_t pub = d->escape_copy_flight && (ts & FLEE) ? (uint8_t)(FLIGHT | (e & 8u))
                                                             : ((ts & PART) ? (uint8_t)PARTED : e);
    f->ecopy[i] = age >= f->falcon.copy_latency ? (uint8_t)(pub | (age < AGE_MAX ? age : AGE_MAX) << AGE_SHIFT) : 0;
}

/* What the quick paths read of the falcon and the parameters, copied into locals once a batch (a
 * store to a bird's row could alias the falcon's fields, so the compiler would reload them per bird). */
typedef struct quick_c {
    bool path_tick, attacking;
    uint32_t now;
    int fade;
    float fp[3], fv[3], r2max, vac2, dt, refractory, escape_time, flash_time, flee_time;
} quick_c;

static inline void quick_init(const mur_flock *f, const mur_flock_def *d, quick_c *c)
{
    const mur_falcon *F = &f->falcon;
    c->path_tick = F->esc_path_tick;
    c->attacking = F->esc_attacking;
    c->now = F->esc_now;
    c->fade = F->esc_fade;
    for (int k = 0; k < 3; k++) {
        c->fp[k] = F->pos[k];
        c->fv[k] = F->vel[k];
    }
    c->r2max = F->esc_r2;
    c->vac2 = F->esc_vac2;
    c->dt = d->dt;
    c->refractory = d->escape_refractory;
    c->escape_time = d->escape_time;
    c->flash_time = d->escape_flash_time;
    c->flee_time = d->escape_flee_time;
}

/* The common cases, most birds on most ticks, on a tick that takes no path_nn, what escape_step would
 * do for them without its branches: a calm bird with the falcon not within escape_radius (or not
 * attacking) and no neighbour's escape to copy; a bird in a manoeuvre or refractory whose state does
 * not end this tick, over which the falcon does not loom and which is not in the vacuole unless it fled
 * already (escape_step perceives only for a calm bird or a looming falcon, and flees only then or in the
 * vacuole, so it neither flees nor detects). Each keeps how near the attacking falcon came
 * (path_d2). A calm or refractory bird has no escape acceleration, keeps its row's ts (a refractory row
 * has no FLEE or QUIET: escape_step clears them when the manoeuvre ends and sets them only for an
 * escaping bird) and is not copyable. A bird in a manoeuvre keeps its ts (less QUIET once it fled) and,
 * having fled, its acceleration (the flight away from the falcon's path), else takes its manoeuvre's;
 * it publishes itself. False when escape_step must run (what it did here, escape_step does the same
 * again). */
static inline bool quick(mur_flock *f, const mur_flock_def *d, const quick_c *c, int32_t i, const boid_in *b,
                         const int32_t *slot, int stride, int n)
{
    mur_esc_row *row = &f->erow[i];
    const uint32_t ts = row->ts, kind = ts & 7u;
    if (c->path_tick)
        return false;
    const uint32_t age = (c->now - (ts >> TS_SHIFT)) & TS_MASK;
    const bool man = kind >= MUR_ESCAPE_ZIGZAG && kind <= MUR_ESCAPE_SPEEDUP;
    /* escape_spread: a bird in a manoeuvre (not a flight, which keeps its acceleration) spreads from its
     * neighbours each tick: escape_step's */
    if (man && !(ts & FLEE) && d->escape_spread > 0.0f)
        return false;
    if (man) {
        if ((float)age * c->dt >= ((ts & FLASH) ? c->flash_time : c->escape_time))
            return false;
    } else if (kind == MUR_ESCAPE_REFRACTORY) {
        if ((float)age * c->dt >= c->refractory)
            return false;
    } else if (kind != MUR_ESCAPE_CALM) {
        return false;
    }
    if (c->attacking) {
        const float r[3] = {c->fp[0] - b->px, c->fp[1] - b->py, c->fp[2] - b->pz};
        const float r2 = dot3(r, r);
        if (r2 < f->path_d2[i])
            f->path_d2[i] = r2;
        if (r2 < c->r2max) {
            /* detection, or the vacuole (a bird that fled in this manoeuvre keeps its flight) */
            if (kind == MUR_ESCAPE_CALM || (r2 < c->vac2 && !(ts & FLEE)))
                return false;
            /* looming() */
            const float rv[3] = {c->fv[0] - b->vx, c->fv[1] - b->vy, c->fv[2] - b->vz};
            if (c->flee_time > 0.0f && r2 < -dot3(r, rv) * c->flee_time)
                return false;
        }
    }
    if (kind == MUR_ESCAPE_CALM)
        for (int m = 0; m < n; m++)
            if (f->sesc[slot[m * stride]])
                return false;
    if (man) {
        if (ts & FLEE) {
            row->ts = ts >> TS_SHIFT << TS_SHIFT | (ts & FLASH) | FLEE | (ts & 15u);
        } else {
            float *acc = row->acc;
            acc[0] = acc[1] = acc[2] = 0.0f;
            const float v[3] = {b->vx, b->vy, b->vz};
            float side[3] = {0.0f, 0.0f, 0.0f};
            if (kind == MUR_ESCAPE_ZIGZAG || kind == MUR_ESCAPE_TURN)
                horizontal_left(v, side);
            const float st = c->fade > 0 ? (float)f->estr[i] / 255.0f : 1.0f;
            manoeuvre(d, (int)kind, ts & 15u, (ts & PART) != 0, (float)age * c->dt, st, side, v, acc);
        }
        publish(f, d, i);
        return true;
    }
    row->acc[0] = row->acc[1] = row->acc[2] = 0.0f;
    f->esc[i] = (uint8_t)(ts & 15u);
    f->ecopy[i] = 0;
    return true;
}

#endif
