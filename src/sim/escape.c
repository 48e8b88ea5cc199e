/* The prey's escape (docs/falcon.md): per bird a state machine (calm, escaping by a manoeuvre,
 * refractory) started by seeing the falcon, by parting from its path when it is fast (the startle), by
 * fleeing from its path when it looms, or by copying a topological neighbour. Each bird's escape is
 * computed by the thread that updates it, from its own rows and the snapshot of its neighbours' escapes
 * taken before the pass (sesc), so any thread count gives the same bits. The falcon itself is in
 * falcon.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "falcon.h"

#include "core.h"
#include "flock_impl.h"
#include "step.h"

/* The zig-zag's first leg, s (StarDisplay: one way for 0.25 s, the other for 0.3 s). */
#define ZIGZAG_FIRST 0.25f
/* A bird's escape row's ts: the tick its state began (24 bits, wrapping) << 8 | FLASH | PART | QUIET | FLEE |
 * the state (mur_escape_state | side << 3). FLEE: it fled from the looming falcon in this manoeuvre and keeps
 * the flight away from the falcon's path (row acc) to the manoeuvre's end. QUIET: it saw the falcon
 * closing slower than escape_alarm_speed and turns away without alarming its neighbours (not copied).
 * PART: its turn is the part (escape_part_speed): away from the falcon's path line, speeding up. FLASH: its
 * escape is a flash (escape_flash_speed) and lasts escape_flash_time instead of escape_time. */
#define TS_SHIFT 8
#define TS_MASK 0x00ffffffu
#define FLEE 16u
#define QUIET 32u
#define PART 64u
#define FLASH 128u
/* A bird's ecopy (and the snapshot sesc): its escape (kind | side << 3) | the ticks it will have escaped
 * by the next tick, at most AGE_MAX, << AGE_SHIFT; 0 when it may not be copied (escape_latency). */
#define AGE_SHIFT 4
#define AGE_MAX 15u
/* In ecopy (escape_copy_flight): the kind a bird that flees the falcon's path publishes, so that its
 * neighbours copy the flight (not a mur_escape_state: the view shows the manoeuvre). */
#define FLIGHT 6u
/* In ecopy: the kind a parting bird publishes (its copiers part, each on its own side of the path line). */
#define PARTED 7u

/* Bytes a boid of each per-boid array of the prey's state, in mur_escape_reserve's order: erow, esc,
 * ecopy, alarm_tick, alarm_pos, sesc, alarm_src, alarm_from, alarm_k, vel0, alarm_vel, alarm_nn, estr, path_d2, path_nn,
 * eflash, ewave, espd. */
enum { NROWS = 18 };
static const size_t ROW_BYTES[NROWS] = {sizeof(mur_esc_row), 1, 1, 4, 12, 1, 4, 4, 1, 12, 12, 8, 1, 4, 8, 1, 1, 1};

size_t mur_escape_bytes_per_boid(void)
{
    size_t b = 0;
    for (int r = 0; r < NROWS; r++)
        b += ROW_BYTES[r];
    return b;
}

void mur_escape_clear(mur_flock *f, int32_t i)
{
    memset(&f->erow[i], 0, sizeof f->erow[i]);
    f->esc[i] = MUR_ESCAPE_CALM;
    f->ecopy[i] = 0;
    f->alarm_tick[i] = -1;
    f->alarm_src[i] = -1;
    f->alarm_from[i] = -1;
    f->alarm_k[i] = 0;
    memset(f->alarm_pos + 3 * (size_t)i, 0, 3 * sizeof(float));
    memset(f->vel0 + 3 * (size_t)i, 0, 3 * sizeof(float));
    memset(f->alarm_vel + 3 * (size_t)i, 0, 3 * sizeof(float));
    f->alarm_nn[2 * (size_t)i] = f->alarm_nn[2 * (size_t)i + 1] = -1.0f;
    f->estr[i] = 0;
    f->eflash[i] = 0;
    f->ewave[i] = 0;
    f->espd[i] = 0;
    f->path_d2[i] = INFINITY;
    f->path_nn[2 * (size_t)i] = f->path_nn[2 * (size_t)i + 1] = -1.0f;
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
    void *p[NROWS] = {f->erow, f->esc, f->ecopy, f->alarm_tick, f->alarm_pos, f->sesc, f->alarm_src, f->alarm_from,
                      f->alarm_k, f->vel0, f->alarm_vel, f->alarm_nn, f->estr, f->path_d2, f->path_nn, f->eflash, f->ewave,
                      f->espd};
    bool ok = true;
    for (int r = 0; r < NROWS; r++)
        ok = ok && grow(&p[r], c * ROW_BYTES[r]);
    f->erow = p[0];
    f->esc = p[1];
    f->ecopy = p[2];
    f->alarm_tick = p[3];
    f->alarm_pos = p[4];
    f->sesc = p[5];
    f->alarm_src = p[6];
    f->alarm_from = p[7];
    f->alarm_k = p[8];
    f->vel0 = p[9];
    f->alarm_vel = p[10];
    f->alarm_nn = p[11];
    f->estr = p[12];
    f->path_d2 = p[13];
    f->path_nn = p[14];
    f->eflash = p[15];
    f->ewave = p[16];
    f->espd = p[17];
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
    free(f->alarm_from);
    free(f->alarm_k);
    free(f->vel0);
    free(f->alarm_vel);
    free(f->alarm_nn);
    free(f->estr);
    free(f->path_d2);
    free(f->path_nn);
    free(f->eflash);
    free(f->ewave);
    free(f->espd);
    f->eflash = f->ewave = f->espd = NULL;
    f->path_d2 = f->path_nn = NULL;
    f->estr = NULL;
    f->alarm_nn = NULL;
    f->vel0 = NULL;
    f->alarm_vel = NULL;
    f->alarm_src = NULL;
    f->alarm_from = NULL;
    f->alarm_k = NULL;
    f->erow = NULL;
    f->esc = f->ecopy = f->sesc = NULL;
    f->alarm_tick = NULL;
    f->alarm_pos = NULL;
    f->esc_cap = 0;
}

/* ---------------------------------------------------------------- the prey */

/* Ticks a neighbour must have escaped before it is copied (at least 1). */
static uint32_t latency_ticks(const mur_flock_def *d)
{
    const double t = floor((double)d->escape_latency / d->dt + 0.5);
    return t < 1.0 ? 1u : (t > 1e9 ? 1000000000u : (uint32_t)t);
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

/* What bird b perceives of the falcon at r (r2 = |r|^2) among its n topological neighbours: its exposure
 * (the length of the mean unit direction to them, near 0 inside the flock, toward 1 at the border),
 * whether the falcon is in its field of view (escape_fov, facing away from the neighbours' mean
 * direction), and whether the falcon is closer than its farthest neighbour (nothing then hides it). In
 * metric mode (n = 0) the bird counts as exposed and its field faces along its heading. */
static void perceive(const mur_flock *f, const mur_flock_def *d, const boid_in *b, const int32_t *slot, int stride,
                     int n, const float *r, float r2, bool *exposed_seen, bool *among)
{
    float u[3] = {0, 0, 0}, far2 = 0.0f;
    for (int m = 0; m < n; m++) {
        const int32_t j = slot[m * stride];
        float q[3] = {f->sx[j] - b->px, f->sy[j] - b->py, f->sz[j] - b->pz};
        const float l2 = dot3(q, q), l = sqrtf(l2);
        far2 = l2 > far2 ? l2 : far2;
        if (l > 0.0f)
            for (int c = 0; c < 3; c++)
                u[c] += q[c] / l;
    }
    const float ul = len3(u);
    const float expo = n > 0 ? ul / (float)n : 1.0f;
    const float v[3] = {b->vx, b->vy, b->vz};
    const float vl = len3(v);
    float out[3];
    for (int c = 0; c < 3; c++)
        out[c] = n > 0 && ul > 0.0f ? -u[c] / ul : (vl > 0.0f ? v[c] / vl : (c == 0 ? 1.0f : 0.0f));
    const bool seen = d->escape_fov >= 360.0f || dot3(r, out) >= f->falcon.fov_cos * sqrtf(r2);
    *exposed_seen = expo >= d->escape_exposure && seen;
    *among = n > 0 && r2 < far2;
}

/* The distance of bird b's nearest topological neighbour (slot[0]: the list is sorted by distance); -1
 * without a list (metric mode). */
static float nearest_gap(const mur_flock *f, const boid_in *b, const int32_t *slot, int n)
{
    if (n <= 0)
        return -1.0f;
    const int32_t j = slot[0];
    const float q[3] = {f->sx[j] - b->px, f->sy[j] - b->py, f->sz[j] - b->pz};
    return len3(q);
}

/* The direction away from the falcon's path line for a bird the falcon is at r from (r2 = |r|^2): the part
 * of the bird's offset from the falcon across the falcon's velocity, into aw (not unit); its length, or
 * straight away from the falcon (aw = -r) when the bird is on the line or the falcon does not move. */
static float away_from_path(const mur_falcon *F, const float *r, float r2, float *aw)
{
    const float fv2 = dot3(F->vel, F->vel);
    const float along = fv2 > 0.0f ? dot3(r, F->vel) / fv2 : 0.0f;
    for (int c = 0; c < 3; c++)
        aw[c] = -(r[c] - along * F->vel[c]);
    float al = len3(aw);
    if (!(al > 1e-3f * sqrtf(r2))) {
        for (int c = 0; c < 3; c++)
            aw[c] = -r[c];
        al = sqrtf(r2);
    }
    return al;
}

/* The side bit of a part for a bird with horizontal left `side`: 0 (a turn to its left) when the way away
 * from the falcon's path line is on its left, 8 (to its right) otherwise. */
static uint32_t part_side(const mur_falcon *F, const float *r, float r2, const float *side)
{
    float aw[3];
    away_from_path(F, r, r2, aw);
    return dot3(aw, side) > 0.0f ? 0u : 8u;
}

/* escape_spread: an escaping bird's acceleration away from the centroid of its n topological neighbours, added
 * to acc, at escape_spread times min(1, (R / d)^p), d its distance to the falcon (r2 = d^2) and p
 * escape_spread_falloff: the alarmed group opens, the harder the nearer the falcon. Nothing in metric mode (n = 0)
 * or on the centroid itself. R is escape_spread_radius where it is above 0 (the fall-off starts at a distance of
 * its own, inside escape_radius), else escape_radius (0: the same bits as before that parameter). p = 1 is R / d
 * as before the fall-off existed (the same bits); 2 is R^2 / r2 without a root; other values (R^2 / r2)^(p / 2).
 * The neighbour pass's centroid (kernel.h's acc cx, cy, cz) is not used here: on the x86 paths the escape runs at
 * the batch's flush before its sums are taken (topo_batch.c), the metric path passes no neighbours, and where the
 * sums exist they weigh the (k+1)-th neighbour by frac(topo_k) (6.5 in the starling preset) and, with the cohesion
 * ramp (cohesion_far, 3 in the preset), sum s(|d|) d / |d| rather than d: not the plain centroid of the n birds.
 * share: escape_spread_speed's share of the gain (the bird's espd / 255), 1 with that parameter off (the same bits). */
static void spread_away(const mur_flock *f, const mur_flock_def *d, const boid_in *b, const int32_t *slot,
                        int stride, int n, float r2, float share, float *acc)
{
    if (!(share > 0.0f))
        return;
    float u[3] = {0.0f, 0.0f, 0.0f};
    for (int m = 0; m < n; m++) {
        const int32_t j = slot[m * stride];
        u[0] += f->sx[j] - b->px;
        u[1] += f->sy[j] - b->py;
        u[2] += f->sz[j] - b->pz;
    }
    const float ul = len3(u), R = d->escape_spread_radius > 0.0f ? d->escape_spread_radius : d->escape_radius;
    if (!(ul > 1e-6f))
        return;
    const float p = d->escape_spread_falloff;
    float k = 1.0f;
    if (r2 > R * R)
        k = p == 1.0f ? R / sqrtf(r2) : p == 2.0f ? R * R / r2 : powf(R * R / r2, 0.5f * p);
    float g = d->escape_spread * k;
    if (share < 1.0f)
        g *= share;
    for (int c = 0; c < 3; c++)
        acc[c] -= g * u[c] / ul;
}

/* escape_spread_speed v0: the spread's share (0..255) for a bird that starts a front itself, from the falcon's closing
 * speed on it c = -r.rv / |r| (0 where r2 is 0): 255 clamp((c - v0) / v0, 0, 1); 255 with v0 0 (off). */
static uint8_t spread_share(float v0, const float *r, const float *rv, float r2)
{
    if (!(v0 > 0.0f))
        return 255;
    const float c = r2 > 0.0f ? -dot3(r, rv) / sqrtf(r2) : 0.0f;
    const float q = fminf(1.0f, fmaxf(0.0f, (c - v0) / v0));
    return (uint8_t)(255.0f * q + 0.5f);
}

#include "escape_quick.h"

/* A per-bird hop count (eflash, ewave): 0 when the escape is not of that kind, else 1 + the copies from its front's
 * first bird (1 for that bird itself, from < 0; one more than the neighbour copied, at most 255). */
static inline uint8_t hops_from_first(bool on, int32_t from, const uint8_t *row)
{
    return (uint8_t)(!on ? 0 : from < 0 ? 1 : row[from] < 255 ? row[from] + 1 : 255);
}

static inline void escape_step(mur_flock *f, const mur_step *s, int32_t i, const boid_in *b, const int32_t *slot,
                               int stride, int n)
{
    const mur_flock_def *d = s->def;
    const mur_falcon *F = &f->falcon;
    mur_esc_row *row = &f->erow[i];
    uint32_t e = row->ts & 15u, fled = row->ts & FLEE, quiet = row->ts & QUIET, part = row->ts & PART;
    uint32_t flash = row->ts & FLASH;
    int kind = (int)(e & 7u);
    const uint32_t now = F->esc_now;
    const bool attacking = F->esc_attacking;
    const float r[3] = {F->pos[0] - b->px, F->pos[1] - b->py, F->pos[2] - b->pz};
    const float r2 = dot3(r, r);
    const bool near = attacking && r2 < F->esc_r2;
    /* the falcon's velocity relative to the bird: only read when the falcon is near */
    float rv[3] = {0.0f, 0.0f, 0.0f};
    if (near) {
        rv[0] = F->vel[0] - b->vx;
        rv[1] = F->vel[1] - b->vy;
        rv[2] = F->vel[2] - b->vz;
    }
    const bool loom = near && looming(d, r, r2, rv);
    /* the falcon's path through the flock (the path event): how near it came to each bird in the attack,
     * and each bird's nearest neighbour at the attack's first tick and PATH_AFTER ticks after its end */
    if (attacking && r2 < f->path_d2[i])
        f->path_d2[i] = r2;
    if (F->phase == MUR_FALCON_APPROACH && f->tick == F->attack_tick + 1)
        f->path_nn[2 * (size_t)i] = nearest_gap(f, b, slot, n);
    else if (F->phase == MUR_FALCON_RETREAT && f->tick == F->end_tick + mur_path_after(d))
        f->path_nn[2 * (size_t)i + 1] = nearest_gap(f, b, slot, n);
    if (kind == MUR_ESCAPE_CALM && !near) {
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
    /* a manoeuvre lasts escape_time (a flash escape_flash_time); a bird flees the falcon's path while the falcon
     * looms (below, whatever its state) and, having fled, keeps that flight to the end of its manoeuvre */
    if (kind >= MUR_ESCAPE_ZIGZAG && kind <= MUR_ESCAPE_SPEEDUP &&
        (float)age * dt >= (flash ? d->escape_flash_time : d->escape_time)) {
        /* the end of the manoeuvre: how far its nearest neighbour is now, against at its alarm (the first
         * manoeuvre of the attack only; the burst event) */
        float *nn = f->alarm_nn + 2 * (size_t)i;
        if (f->alarm_tick[i] >= 0 && nn[0] >= 0.0f && nn[1] < 0.0f)
            nn[1] = nearest_gap(f, b, slot, n);
        kind = MUR_ESCAPE_REFRACTORY;
        e = (uint32_t)kind;
        fled = quiet = part = flash = 0;
        since = now;
        age = 0;
    } else if (kind == MUR_ESCAPE_REFRACTORY && (float)age * dt >= d->escape_refractory) {
        kind = MUR_ESCAPE_CALM;
        e = 0;
    }
    /* a bird sees the falcon within escape_radius when it is exposed and the falcon in its field of view,
     * or when the falcon is closer than its farthest neighbour; it flees when the falcon it sees looms,
     * and detects it when calm (so only those birds look) */
    /* the vacuole (escape_vacuole): a bird this near the attacking falcon flees away from its path (as
     * from a looming falcon, at all of escape_flee_accel), whatever the falcon's speed and whatever the
     * bird sees or does, unless it has fled in this manoeuvre already (it keeps that flight to its end) */
    const bool vac = near && r2 < F->esc_vac2 && !fled;
    bool sees = false, among = false;
    if (near && (loom || kind == MUR_ESCAPE_CALM))
        perceive(f, d, b, slot, stride, n, r, r2, &sees, &among);
    /* the startle (escape_part_speed): a calm bird that sees the falcon flying at that speed or faster
     * against itself parts (a turn away from the path line, speeding up) rather than flee or pick a
     * manoeuvre; a parting bird keeps parting to the end of its manoeuvre */
    const float ps = d->escape_part_speed;
    const bool startle = !vac && kind == MUR_ESCAPE_CALM && ps > 0.0f && (sees || among) && dot3(rv, rv) >= ps * ps;
    const bool flee = vac || (loom && (sees || among) && !startle && !part);
    const float v[3] = {b->vx, b->vy, b->vz};
    /* the bird's horizontal left (its turns and zig-zags, and which side the falcon is on): only for a
     * calm bird (it may start) and a turn or zig-zag */
    float side[3] = {0.0f, 0.0f, 0.0f};
    if (kind == MUR_ESCAPE_CALM || kind == MUR_ESCAPE_ZIGZAG || kind == MUR_ESCAPE_TURN || part)
        horizontal_left(v, side);
    /* with escape_copy_fade, an alarm's strength (0..255): the looming rate's share of escape_flee_loom for a
     * bird that sees the falcon (a slow or far falcon alarms weakly), its neighbour's less the fade for a
     * copier; a neighbour whose strength is spent is not copied, and the manoeuvre's acceleration is its
     * strength's share of escape_accel */
    const int fade = F->esc_fade;
    int strength = 255;
    bool flight = false; /* a copy of a neighbour's flight from the falcon's path */
    if (kind == MUR_ESCAPE_CALM) {
        bool start = false;
        int32_t src = i; /* the bird whose alarm starts this one's front: itself when it sees the falcon */
        int32_t from = -1, kn = 0; /* the neighbour copied, and how many could be */
        if (startle) {
            part = PART;
            kind = MUR_ESCAPE_TURN;
            e = (uint32_t)kind | part_side(F, r, r2, side);
            start = true;
        } else if (flee) {
            /* the falcon looms: no need to be exposed or to look its way; the manoeuvre as if seen */
            kind = pick_kind(d, f->tick, i);
            e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
            start = true;
        } else if (sees) {
            /* a falcon closing slower than escape_alarm_speed (a slow attack, or one passing by) is only
             * turned away from, and the turn is not copied; faster, a manoeuvre from the mix that is.
             * Closing speed -r.rv / |r| < V, i.e. -r.rv < V |r| (r2 > 0: near) */
            quiet = d->escape_alarm_speed > 0.0f && -dot3(r, rv) < d->escape_alarm_speed * sqrtf(r2) ? QUIET : 0u;
            kind = quiet ? MUR_ESCAPE_TURN : pick_kind(d, f->tick, i);
            /* turn and zig-zag first away from the falcon: left when it is on the right */
            e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
            start = true;
        }
        /* the flash (escape_flash_speed): an escape the bird starts itself with the falcon this fast against it
         * (rv is 0 unless the falcon is near, and a bird starts by itself only then) lasts escape_flash_time, and
         * so do its copies */
        bool fl = start && F->esc_flash2 > 0.0f && dot3(rv, rv) >= F->esc_flash2;
        /* a front at medium speed (escape_wave_hops): its first bird saw the falcon flying (its own speed, as the field
         * classes attacks) at escape_alarm_speed or faster, and coming at it slower than escape_part_speed (not the
         * startle); its copies of flights become the wave's manoeuvres from escape_wave_hops copies on */
        bool mid = false;
        if (start && d->escape_wave_hops > 0) {
            const float ps = d->escape_part_speed;
            mid = dot3(F->vel, F->vel) >= d->escape_alarm_speed * d->escape_alarm_speed &&
                  (ps <= 0.0f || dot3(rv, rv) < ps * ps);
        }
        if (start && fade > 0 && d->escape_flee_loom > 0.0f && !vac) {
            const float lam = fmaxf(0.0f, -dot3(r, rv) / r2); /* r2 > 0: near */
            strength = (int)(255.0f * fminf(1.0f, lam / d->escape_flee_loom) + 0.5f);
        }
        if (!start) {
            /* copying: the first (nearest) of the k neighbours whose escape may be copied, with a rate
             * k / escape_reaction per second (a counter-based draw per bird and tick); with
             * escape_copy_dist, the rate falls with the square of the nearest one's distance */
            int first = -1, k = 0;
            /* the rate in units of 1 / escape_reaction: 1 per neighbour; or with escape_copy_dist D,
             * (D / d)^2 with d the nearest one's distance, however many escape (at most 100: a neighbour
             * closer than D / 10 counts as at D / 10). Summed over the k neighbours (more of them escape in
             * a small, loose flock) the tuning seeds' 8,000-bird fronts were 19% slower than the 500-bird
             * ones, by the nearest alone 16% (docs/falcon.md) */
            float w = 0.0f;
            const float D2 = d->escape_copy_dist * d->escape_copy_dist;
            /* with escape_copy_speed V, a neighbour d away is seen to escape once it has escaped d / V (in
             * whole ticks, at least escape_latency, at most AGE_MAX ticks: its age in the snapshot's high
             * bits): its sideways speed over its distance, the angle it sweeps across the bird's view in a
             * second, must pass a threshold, which takes longer the farther it is. A hop's time then grows
             * in proportion to its length, so the alarm's speed does not follow the flock's spacing */
            const float V = d->escape_copy_speed;
            const float per_tick = V * dt;
            for (int m = 0; m < n; m++) {
                const uint8_t c = f->sesc[slot[m * stride]];
                if (!c || (fade > 0 && f->estr[f->order[slot[m * stride]]] <= fade))
                    continue;
                float q2 = -1.0f;
                if (V > 0.0f) {
                    const int32_t j = slot[m * stride];
                    const float q[3] = {f->sx[j] - b->px, f->sy[j] - b->py, f->sz[j] - b->pz};
                    q2 = dot3(q, q);
                    const float need = ceilf(sqrtf(q2) / per_tick - 1e-3f); /* d a whole number of ticks' run: that many */
                    if ((float)(c >> AGE_SHIFT) < fminf(need, (float)AGE_MAX))
                        continue;
                }
                first = first < 0 ? m : first;
                k++;
                if (D2 > 0.0f) {
                    if (first == m) { /* the nearest escaping neighbour's image sets the rate */
                        if (q2 < 0.0f) {
                            const int32_t j = slot[m * stride];
                            const float q[3] = {f->sx[j] - b->px, f->sy[j] - b->py, f->sz[j] - b->pz};
                            q2 = dot3(q, q);
                        }
                        w = D2 / fmaxf(q2, 0.01f * D2);
                    }
                } else {
                    w += 1.0f;
                }
            }
            bool copy = k > 0;
            if (copy && d->escape_reaction > 0.0f) {
                const float p = 1.0f - expf(-dt * w / d->escape_reaction);
                copy = mur_hash_unit(d->seed ^ 0xc0b1e5ULL, f->tick, (uint64_t)i) < p;
            }
            if (copy) {
                const uint8_t c = f->sesc[slot[first * stride]] & 15u;
                /* the neighbour's front (it escapes since escape_latency: its alarm_src, eflash and ewave are not
                 * written in this tick) */
                from = f->order[slot[first * stride]];
                kind = c & 7;
                if ((kind == FLIGHT || kind == PARTED) && d->escape_wave_hops > 0 && f->ewave[from] >= d->escape_wave_hops) {
                    /* beyond the burst of a medium attack (escape_wave_hops): the wave's manoeuvre, not the flight or
                     * the part, first away from the falcon on this bird's own side */
                    kind = pick_kind(d, f->tick, i);
                    e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
                } else {
                    /* the neighbour's manoeuvre; its side (away from the falcon) this bird's own unless
                     * escape_copy_side */
                    e = d->escape_copy_side ? c : (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
                }
                if (kind == PARTED) {
                    /* the neighbour parts: this bird parts too, away from the path line on its own side */
                    part = PART;
                    kind = MUR_ESCAPE_TURN;
                    e = (uint32_t)kind | part_side(F, r, r2, side);
                } else if (kind == FLIGHT) {
                    /* the neighbour flees the falcon's path: this bird flees it too (below), with a
                     * manoeuvre of its own for the view */
                    flight = true;
                    kind = pick_kind(d, f->tick, i);
                    e = (uint32_t)kind | (dot3(r, side) > 0.0f ? 8u : 0u);
                }
                start = true;
                /* a copy of a flash is a flash, up to escape_flash_hops copies from the bird that saw the falcon */
                fl = f->eflash[from] != 0 && (d->escape_flash_hops == 0 || f->eflash[from] < d->escape_flash_hops);
                mid = f->ewave[from] != 0;
                src = f->alarm_src[from];
                kn = k;
                strength = fade > 0 ? f->estr[from] - fade : 255;
            }
        }
        if (start) {
            since = now;
            age = 0;
            f->estr[i] = (uint8_t)strength;
            /* eflash: 0 no flash, else 1 + the copies from the bird that saw the falcon (at most 255) */
            f->eflash[i] = hops_from_first(fl, from, f->eflash);
            /* ewave: 0 not a medium front, else 1 + the copies from its first bird (at most 255) */
            f->ewave[i] = hops_from_first(mid, from, f->ewave);
            /* espd (escape_spread_speed v0): the spread's share, 255 clamp((c - v0) / v0, 0, 1) with c the falcon's
             * closing speed on the bird that starts the front (-r.rv / |r|); a copier carries its front's */
            f->espd[i] = from >= 0 ? f->espd[from] : spread_share(d->escape_spread_speed, r, rv, r2);
            flash = fl ? FLASH : 0u;
            if (f->alarm_tick[i] < 0 && F->phase != MUR_FALCON_OFF) {
                f->alarm_tick[i] = (int32_t)(f->tick - F->attack_tick);
                f->alarm_src[i] = src;
                f->alarm_from[i] = from;
                f->alarm_k[i] = (uint8_t)((kn > 127 ? 127 : kn) | (flight || (part && from >= 0) ? 128 : 0));
                /* where it was and how it flew (its group's frame: its copiers' alarms are read in it) */
                f->alarm_pos[3 * (size_t)i] = b->px;
                f->alarm_pos[3 * (size_t)i + 1] = b->py;
                f->alarm_pos[3 * (size_t)i + 2] = b->pz;
                f->alarm_vel[3 * (size_t)i] = b->vx;
                f->alarm_vel[3 * (size_t)i + 1] = b->vy;
                f->alarm_vel[3 * (size_t)i + 2] = b->vz;
                f->alarm_nn[2 * (size_t)i] = nearest_gap(f, b, slot, n);
                f->alarm_nn[2 * (size_t)i + 1] = -1.0f;
            }
        }
    }
    const bool escaping = kind >= MUR_ESCAPE_ZIGZAG && kind <= MUR_ESCAPE_SPEEDUP;
    float *acc = row->acc;
    /* escape_spread_speed: the share of the spread this bird's front carries (all with it off) */
    const float spd = d->escape_spread_speed > 0.0f ? (float)f->espd[i] / 255.0f : 1.0f;
    if (!flee && fled && escaping) { /* fled in this manoeuvre: on away from the path (acc as it was) */
        row->ts = since << TS_SHIFT | flash | FLEE | e;
        return;
    }
    /* a quiet turn that comes to flee the looming falcon is a flight, copied as any (escape_copy_flight) */
    quiet = flee ? 0u : quiet;
    part = flee || !escaping ? 0u : part;
    row->ts = since << TS_SHIFT | (escaping ? flash : 0u) | ((flee || flight) && escaping ? FLEE : 0u) |
              (escaping ? quiet : 0u) | part | e;
    acc[0] = acc[1] = acc[2] = 0.0f;
    if (flee || flight) {
        /* away from the falcon's path (the part of its offset across the falcon's velocity): birds on
         * either side of the path part, whatever manoeuvre they copy; straight away from the falcon
         * when the bird is on the path itself */
        float aw[3];
        const float al = away_from_path(F, r, r2, aw);
        /* the faster the falcon looms (its closing speed over its distance, lambda, 1/s), the harder the
         * bird breaks away: all of escape_flee_accel from lambda = escape_flee_loom on (a falcon fast or
         * close by), lambda / escape_flee_loom of it below (r2 > 0 here: looming needs it) */
        /* a copied flight: its strength's share (escape_copy_fade; all without) */
        const float lam = r2 > 0.0f ? -dot3(r, rv) / r2 : 0.0f;
        const float k = d->escape_flee_accel *
                        (vac ? 1.0f : flee ? (d->escape_flee_loom > 0.0f ? fminf(1.0f, lam / d->escape_flee_loom) : 1.0f)
                              : (fade > 0 ? (float)f->estr[i] / 255.0f : 1.0f));
        if (al > 0.0f)
            for (int c = 0; c < 3; c++)
                acc[c] = k * aw[c] / al;
        /* the flight keeps this acceleration to the end of its manoeuvre, the spread's part with it */
        if (d->escape_spread > 0.0f && escaping)
            spread_away(f, d, b, slot, stride, n, r2, spd, acc);
        return;
    }
    const float st = fade > 0 ? (float)f->estr[i] / 255.0f : 1.0f; /* the alarm's strength (escape_copy_fade) */
    manoeuvre(d, kind, e, part != 0, (float)age * dt, st, side, v, acc);
    if (d->escape_spread > 0.0f && escaping)
        spread_away(f, d, b, slot, stride, n, r2, spd, acc);
}

/* The escape and the publishing of a bird no quick path took: out of line, so that the loop of
 * mur_escape_batch keeps the quick paths without this one's register saves. */
static __attribute__((noinline)) void escape_full(mur_flock *f, const mur_step *s, int32_t i, const boid_in *b,
                                                  const int32_t *slot, int stride, int n)
{
    escape_step(f, s, i, b, slot, stride, n);
    publish(f, s->def, i);
}

void mur_escape_boid(mur_flock *f, const mur_step *s, int32_t i, const boid_in *b, const int32_t *slot,
                     int stride, int n)
{
    quick_c c;
    quick_init(f, s->def, &c);
    if (f->falcon.esc_full || !quick(f, s->def, &c, i, b, slot, stride, n))
        escape_full(f, s, i, b, slot, stride, n);
}

void mur_escape_batch(mur_flock *f, const mur_step *s, int nb, const int32_t *idx, const boid_in *b,
                      const int32_t *slot0, int stride, const int32_t *n)
{
    quick_c c;
    quick_init(f, s->def, &c);
    if (f->falcon.esc_full) {
        for (int q = 0; q < nb; q++)
            escape_full(f, s, idx[q], &b[q], slot0 + q, stride, n[q]);
        return;
    }
    for (int q = 0; q < nb; q++)
        if (!quick(f, s->def, &c, idx[q], &b[q], slot0 + q, stride, n[q]))
            escape_full(f, s, idx[q], &b[q], slot0 + q, stride, n[q]);
}

void mur_escape_publish_one(mur_flock *f, const mur_step *s, int32_t i)
{
    publish(f, s->def, i);
}

void mur_escape_prepare(mur_flock *f, const mur_step *s)
{
    mur_falcon *F = &f->falcon;
    const mur_flock_def *d = s->def;
    F->copy_latency = latency_ticks(d);
    F->esc_now = (uint32_t)f->tick & TS_MASK;
    F->esc_attacking = F->phase == MUR_FALCON_APPROACH || F->phase == MUR_FALCON_PURSUIT;
    F->esc_path_tick = (F->phase == MUR_FALCON_APPROACH && f->tick == F->attack_tick + 1) ||
                       (F->phase == MUR_FALCON_RETREAT && f->tick == F->end_tick + mur_path_after(d));
    F->esc_r2 = d->escape_radius * d->escape_radius;
    F->esc_vac2 = d->escape_vacuole * d->escape_vacuole;
    F->esc_fade = d->escape_copy_fade > 0.0f ? (int)(d->escape_copy_fade * 255.0f + 0.5f) : 0;
    F->esc_flash2 = d->escape_flash_speed * d->escape_flash_speed;
}
