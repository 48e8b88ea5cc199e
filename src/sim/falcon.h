/* The hunting falcon (falcon.c) and the prey's escape (escape.c), docs/falcon.md: one falcon that sets up,
 * approaches, locks on, pursues by proportional navigation, retreats and waits, again and again; and
 * per bird an escape state machine (calm, escaping by a manoeuvre, refractory) started by seeing the
 * falcon or by copying a topological neighbour. The escape acts as an acceleration added to the
 * steering before the starling terms, so it goes through the banked turn, the cruise speed and the
 * vertical pull. */
#ifndef MUR_SIM_FALCON_H
#define MUR_SIM_FALCON_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "murmur/murmur.h"
#include "rules.h"

struct mur_step;

/* Small vector helpers shared by falcon.c and escape.c. */
static inline float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline float len3(const float *a)
{
    return sqrtf(dot3(a, a));
}

/// Bytes of the escape rows per boid.
size_t mur_escape_bytes_per_boid(void);
/// Grow the escape rows to cap boids (never shrinks); new rows calm. False when memory runs out.
bool mur_escape_reserve(mur_flock *f, int32_t cap);
/// Free the escape rows.
void mur_escape_free(mur_flock *f);
/// Boid i calm, never alarmed (a new or moved boid).
void mur_escape_clear(mur_flock *f, int32_t i);
/// The falcon comes on (rows allocated for every boid, every bird calm, an attack starts on the next
/// tick) or goes off. False + err when memory runs out (the flock then stays without the falcon).
bool mur_falcon_switch(mur_flock *f, bool on, mur_error *err);

/// The falcon's next state from the state at the start of the tick (after the grid build): the
/// flock's centre, the nearest bird, lock-on, catch, the phase; events into f->falcon.
void mur_falcon_plan(mur_flock *f, const struct mur_step *s);
/// Boid i's escape this tick (state b; its topological neighbours at sorted slots slot[0],
/// slot[stride], ..., n of them; n = 0: no list, metric mode): its state advanced, detection or
/// copying, and its escape acceleration into f->erow[i].acc; then its state into the view and what a
/// neighbour may copy next tick (esc, ecopy). Writes boid i's escape rows only.
void mur_escape_boid(mur_flock *f, const struct mur_step *s, int32_t i, const boid_in *b, const int32_t *slot,
                     int stride, int n);
/// mur_escape_boid for the nb boids idx[0 .. nb): boid idx[q] in state b[q], its n[q] neighbours at the
/// sorted slots slot0[q], slot0[q + stride], ... (the topological batch's layout, topo_batch.h); the
/// same bits as nb calls of mur_escape_boid, in that order.
void mur_escape_batch(mur_flock *f, const struct mur_step *s, int nb, const int32_t *idx, const boid_in *b,
                      const int32_t *slot0, int stride, const int32_t *n);
/// The speed of the alarm fronts, m/s: over the copied birds i (tick[i] >= 0, src[i] >= 0 another bird),
/// the sum of the distances from their fronts' first birds over the sum of the times since those birds'
/// alarms, t = (tick[i] - tick[src[i]]) * dt: a chain of hops of any lengths, one hop per tau, gives
/// the mean hop over tau. The distance is |pos[i] - pos[o] - vel[o] * t| (positions and velocities at
/// the alarm ticks, 3 floats a bird; o = src[i]): in the frame of the front's first bird, which flies
/// with its group (vel NULL: |pos[i] - pos[o]|). 0 with fewer than 3 such birds or no time. The birds
/// used into *used (NULL: not wanted).
double mur_wave_fit(const int32_t *tick, const int32_t *src, const float *pos, const float *vel, int32_t n, float dt,
                    int32_t *used);
/// The burst of an attack: over the birds alarmed in it (tick[i] >= 0) whose nearest neighbour's distance
/// was measured at their alarm (nn[2i] > 0) and at the end of that manoeuvre (nn[2i + 1] >= 0), the sum of
/// the second over the sum of the first; out[0] over the birds the falcon alarmed itself (src[i] == i),
/// out[1] over those that copied (0 where none). Returns how many birds out[0] counts.
int32_t mur_burst(const int32_t *tick, const int32_t *src, const float *nn, int32_t n, double out[2]);
/// The birds the attacking falcon passed within this distance (m) are its path's (the path event).
#define MUR_PATH_RADIUS 10.0f
/// Ticks after an attack's end at which the path event's nearest neighbours are taken (0.5 s, at least 1).
static inline uint64_t mur_path_after(const mur_flock_def *d)
{
    const double t = floor(0.5 / (double)d->dt + 0.5);
    return t < 1.0 ? 1u : (uint64_t)t;
}
/// The falcon's path: over the birds with both nearest-neighbour distances (nn[2i] > 0, nn[2i + 1] >= 0),
/// the sum of the second (after the attack) over the sum of the first (at its start), out[0] for the
/// birds the falcon came within MUR_PATH_RADIUS of (d2[i], squared), out[1] for the others (0 where none).
/// Returns how many birds out[0] counts.
int32_t mur_path_burst(const float *d2, const float *nn, int32_t n, double out[2]);
/// Boid i's escape state into the view (esc) and what a neighbour may copy next tick (ecopy: an escape
/// that will then have lasted escape_latency), from its escape row: for a boid whose escape did not run
/// this tick (perched). mur_escape_boid publishes its boid itself.
void mur_escape_publish_one(mur_flock *f, const struct mur_step *s, int32_t i);
/// What each bird's escape reads of the falcon and the parameters, once a tick, into f->falcon (after
/// the plan, before the pass): escape_latency in ticks, the tick, whether it attacks, whether the tick
/// takes the path's nearest neighbours, escape_radius squared, escape_copy_fade in 1/255.
void mur_escape_prepare(mur_flock *f, const struct mur_step *s);
/// The falcon's metrics of the current state into st (falcon_distance, alarmed, falcon_state, falcon_near,
/// falcon_nn).
void mur_falcon_measure(const mur_flock *f, mur_stats *st);
/// The birds near the falcon (metrics falcon_near, falcon_nn): within this distance of it, m.
#define MUR_FALCON_NEAR_M 10.0f
/// How many flying birds are within MUR_FALCON_NEAR_M of the falcon (count) and their mean
/// nearest-neighbour distance to any flying bird, each at most 5 m (nn; falcon_near.c); 0 and 0 with the
/// falcon off or no bird near.
void mur_falcon_near(const mur_flock *f, double *nn, int32_t *count);
/// Make the planned falcon state the current one; remove the caught bird
/// (falcon_remove); at the end of a retreat, the wave of the attack (its speed into an event).
void mur_falcon_commit(mur_flock *f, const struct mur_step *s);

#endif
