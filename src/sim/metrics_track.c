/* Metrics that need the past (docs/rules.md, "Metrics over time"): neighbour turnover, heading changes,
 * splits and merges. The state they keep lives in one block (mur_track), allocated at the first
 * measure and bounded: the 7 nearest neighbours of at most MUR_TRACK_SAMPLES sampled boids, five bytes
 * per boid for the sub-flocks (an id, a scratch count), a small overlap table. Nothing is allocated or computed while metrics
 * are off. Everything runs in a fixed order on one thread, so it is the same for any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#include "flock_impl.h"
#include "space.h"
#include "step.h"

#define K MUR_TRACK_K
#define NONE8 0xffu
#define MAXSUB 100 /* sub-flocks of at least n/100 boids: at most 100 */

struct mur_track {
    int32_t n;              ///< boids when started (a change starts again)
    int32_t cap;            ///< boids the per-boid rows hold (kept across restarts)
    int32_t window;         ///< turnover window, ticks
    float dt;               ///< the tick length the window was made for
    uint64_t last;          ///< last tick tracked
    uint64_t first;         ///< first tick tracked
    /* neighbour turnover */
    int32_t samples, stride;         ///< sampled boids: i = j * stride, j < samples
    int32_t snap[MUR_TRACK_SAMPLES][K]; ///< their neighbours at snap_tick
    uint64_t snap_tick[MUR_TRACK_SAMPLES];
    uint8_t kept[MUR_TRACK_SAMPLES]; ///< neighbours kept at the last comparison, NONE8 before one
    bool has_snap[MUR_TRACK_SAMPLES];
    int64_t kept_sum, kept_count;
    /* heading changes */
    double ref[3];
    bool has_ref;
    int64_t heading_changes;
    /* splits and merges */
    uint8_t *sub;           ///< per boid: sub-flock id at the last tick, NONE8 when in none
    int32_t *size;          ///< per slot: group size, then a root's sub-flock id or -1 (scratch)
    bool has_sub;
    int32_t prev_subs;
    int32_t overlap[MAXSUB][MAXSUB];
    int64_t splits, merges;
};

void mur_track_free(mur_flock *f)
{
    if (!f->track)
        return;
    free(f->track->sub);
    free(f->track->size);
    free(f->track);
    f->track = NULL;
}

size_t mur_track_bytes(int32_t n)
{
    return sizeof(struct mur_track) + (size_t)(n > 0 ? n : 1) * (sizeof(uint8_t) + sizeof(int32_t));
}

size_t mur_track_memory(const mur_flock *f)
{
    return f->track ? mur_track_bytes(f->track->cap) : 0;
}

int32_t mur_track_window(float dt)
{
    const double w = floor(MUR_TRACK_SECONDS / (double)dt + 0.5);
    return w < 1.0 ? 1 : w > 1e9 ? 1000000000 : (int32_t)w;
}

int32_t mur_track_subflock_min(int32_t n)
{
    const int32_t m = (n + MAXSUB - 1) / MAXSUB;
    return m < 3 ? 3 : m;
}

/* (Re)start f's tracker for n boids. Its per-boid rows are kept when they hold n boids and grown
 * otherwise, so a flock whose count goes up and down holds steady memory once it has seen its largest
 * count. NULL without memory (then f has no tracker). */
static struct mur_track *track_start(mur_flock *f, int32_t n, float dt)
{
    struct mur_track *t = f->track;
    uint8_t *sub = t ? t->sub : NULL;
    int32_t *size = t ? t->size : NULL;
    int32_t cap = t ? t->cap : 0;
    f->track = NULL;
    if (!t && !(t = malloc(sizeof *t)))
        return NULL;
    if (n > cap || !sub || !size) {
        const size_t m = n > 0 ? (size_t)n : 1;
        uint8_t *ns = realloc(sub, m);
        if (ns)
            sub = ns;
        int32_t *nz = ns ? realloc(size, m * sizeof *size) : NULL;
        if (nz)
            size = nz;
        if (!ns || !nz) {
            free(sub);
            free(size);
            free(t);
            return NULL;
        }
        cap = (int32_t)m;
    }
    memset(t, 0, sizeof *t);
    t->sub = sub;
    t->size = size;
    t->cap = cap;
    t->n = n;
    t->dt = dt;
    t->window = mur_track_window(dt);
    t->stride = n > MUR_TRACK_SAMPLES ? (n + MUR_TRACK_SAMPLES - 1) / MUR_TRACK_SAMPLES : 1;
    t->samples = n > 0 ? (n - 1) / t->stride + 1 : 0;
    f->track = t;
    memset(t->kept, NONE8, sizeof t->kept);
    return t;
}

/* The k nearest boids to boid i (ties by index; the minimum image on a wrapped world), ascending
 * distance, into nb; returns k. Brute force: only the sampled boids of one phase ask per tick. */
static int32_t nearest(const mur_flock *f, const mur_world *w, int32_t i, int32_t k, int32_t *nb)
{
    const float *p = f->pos;
    float d2[K];
    int32_t m = 0;
    for (int32_t j = 0; j < f->n; j++) {
        if (j == i)
            continue;
        const float ex = mur_min_image(p[3 * j], p[3 * i], w->L[0], w->hL[0], w->wrap);
        const float ey = mur_min_image(p[3 * j + 1], p[3 * i + 1], w->L[1], w->hL[1], w->wrap);
        const float ez = mur_min_image(p[3 * j + 2], p[3 * i + 2], w->L[2], w->hL[2], w->wrap);
        const float d = ex * ex + ey * ey + ez * ez;
        if (m == k && !(d < d2[k - 1]))
            continue; /* not closer than the k-th (equal: the lower index, already in, wins) */
        int32_t q = m < k ? m++ : k - 1;
        while (q > 0 && d < d2[q - 1]) {
            d2[q] = d2[q - 1];
            nb[q] = nb[q - 1];
            q--;
        }
        d2[q] = d;
        nb[q] = j;
    }
    return m;
}

/* Neighbour turnover: the sampled boids of this tick's phase (j = tick mod window) compare their
 * nearest neighbours with those of exactly one window ago, then keep the new ones. */
static void turnover(struct mur_track *t, const mur_flock *f, const mur_step *s, uint64_t tick)
{
    const int32_t k = f->n - 1 < K ? f->n - 1 : K;
    if (k < 1)
        return;
    const uint64_t W = (uint64_t)t->window;
    for (int32_t j = (int32_t)(tick % W); j < t->samples; j += t->window) {
        int32_t nb[K];
        nearest(f, &s->world, j * t->stride, k, nb);
        if (t->has_snap[j] && t->snap_tick[j] + W == tick) {
            int32_t kept = 0;
            for (int32_t a = 0; a < k; a++)
                for (int32_t b = 0; b < k; b++)
                    kept += nb[a] == t->snap[j][b];
            if (t->kept[j] != NONE8) {
                t->kept_sum -= t->kept[j];
                t->kept_count--;
            }
            t->kept[j] = (uint8_t)kept;
            t->kept_sum += kept;
            t->kept_count++;
        }
        memcpy(t->snap[j], nb, sizeof(int32_t) * (size_t)k);
        t->snap_tick[j] = tick;
        t->has_snap[j] = true;
    }
}

/* Heading changes: the mean heading h (unit) against the reference; beyond MUR_TRACK_TURN_DEG it
 * counts one and becomes the reference. A flock without a mean heading (|mean| below 0.1) is skipped. */
static void heading(struct mur_track *t, const double mean_unit[3])
{
    const double l = sqrt(mean_unit[0] * mean_unit[0] + mean_unit[1] * mean_unit[1] + mean_unit[2] * mean_unit[2]);
    if (!(l >= 0.1))
        return;
    const double h[3] = {mean_unit[0] / l, mean_unit[1] / l, mean_unit[2] / l};
    if (t->has_ref) {
        const double c = h[0] * t->ref[0] + h[1] * t->ref[1] + h[2] * t->ref[2];
        if (c >= cos(MUR_TRACK_TURN_DEG * 3.14159265358979323846 / 180.0))
            return;
        t->heading_changes++;
    }
    memcpy(t->ref, h, sizeof h);
    t->has_ref = true;
}

/* Splits and merges between the groups of the last tracked tick and these (the union-find over
 * sorted slots that count_groups left, parent[k]: each set's root is its smallest slot). */
static void splits_merges(struct mur_track *t, const mur_flock *f, int32_t (*find)(int32_t *, int32_t),
                          int32_t *parent)
{
    const int32_t n = f->n, m = mur_track_subflock_min(n);
    memset(t->size, 0, sizeof(int32_t) * (size_t)n);
    /* point every slot straight at its root (the same sets; a root is its set's smallest slot, so
     * each find here meets an already pointed slot at once) */
    for (int32_t k = 0; k < n; k++) {
        parent[k] = find(parent, k);
        t->size[parent[k]]++;
    }
    int32_t subs = 0;
    for (int32_t k = 0; k < n; k++) /* roots in slot order get the ids */
        t->size[k] = parent[k] == k && t->size[k] >= m && subs < MAXSUB ? subs++ : (int32_t)NONE8;
    if (t->has_sub)
        for (int32_t a = 0; a < t->prev_subs; a++)
            memset(t->overlap[a], 0, sizeof(int32_t) * (size_t)subs);
    for (int32_t k = 0; k < n; k++) {
        const int32_t i = f->order[k];
        const uint8_t cur = (uint8_t)t->size[parent[k]];
        if (t->has_sub && cur != NONE8 && t->sub[i] != NONE8)
            t->overlap[t->sub[i]][cur]++;
        t->sub[i] = cur;
    }
    if (t->has_sub) {
        for (int32_t a = 0; a < t->prev_subs; a++) {
            int32_t links = 0;
            for (int32_t b = 0; b < subs; b++)
                links += t->overlap[a][b] >= m;
            t->splits += links > 1 ? links - 1 : 0;
        }
        for (int32_t b = 0; b < subs; b++) {
            int32_t links = 0;
            for (int32_t a = 0; a < t->prev_subs; a++)
                links += t->overlap[a][b] >= m;
            t->merges += links > 1 ? links - 1 : 0;
        }
    }
    t->prev_subs = subs;
    t->has_sub = true;
}

bool mur_track_reserve(mur_flock *f)
{
    if (f->track && f->track->n == f->n && f->track->dt == f->def.dt)
        return true;
    if (track_start(f, f->n, f->def.dt))
        f->track->first = f->track->last = UINT64_MAX; /* nothing tracked yet */
    return f->track != NULL;
}

void mur_track_measure(mur_flock *f, const mur_step *s, const double mean_unit[3],
                       int32_t (*find)(int32_t *, int32_t), int32_t *parent, mur_stats *st)
{
    const uint64_t tick = f->tick;
    struct mur_track *t = f->track;
    if (t && (t->n != f->n || t->dt != s->def->dt || (t->last != UINT64_MAX && tick < t->last)))
        t = NULL; /* another flock size, tick length, or a jump back: start again (the rows are kept) */
    if (!t || t->last == UINT64_MAX) {
        if (!t)
            t = track_start(f, f->n, s->def->dt);
        if (!t)
            return; /* no memory: the columns stay at their "not measured" values */
        t->first = t->last = tick;
        turnover(t, f, s, tick);
        heading(t, mean_unit);
        splits_merges(t, f, find, parent);
    } else if (tick != t->last) { /* a second measure of the same tick changes nothing */
        t->last = tick;
        turnover(t, f, s, tick);
        heading(t, mean_unit);
        splits_merges(t, f, find, parent);
    }
    st->neighbour_turnover = t->kept_count > 0 ? (double)t->kept_sum / ((double)t->kept_count * K) : -1.0;
    if (f->n > 1 && f->n - 1 < K && t->kept_count > 0)
        st->neighbour_turnover = (double)t->kept_sum / ((double)t->kept_count * (f->n - 1));
    const double minutes = (double)(t->last - t->first) * (double)t->dt / 60.0;
    st->heading_changes = t->heading_changes;
    st->splits = t->splits;
    st->merges = t->merges;
    st->heading_changes_per_min = minutes > 0.0 ? (double)t->heading_changes / minutes : 0.0;
    st->splits_per_min = minutes > 0.0 ? (double)t->splits / minutes : 0.0;
    st->merges_per_min = minutes > 0.0 ? (double)t->merges / minutes : 0.0;
}
