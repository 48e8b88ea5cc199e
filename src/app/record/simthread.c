/* The simulation worker (see simthread.h). */
#include "simthread.h"

#include "group.h"

#include "clock.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    FRESH = 4,            /* in `ready`: the slot there is newer than the front */
    MAX_BACKLOG_TICKS = 5 /* free run: real time owed beyond this many ticks is dropped */
};

struct mur_sim {
    mur_flock *flock;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* on CLOCK_MONOTONIC (the free run's timed waits) */
    bool busy, quit;
    mur_sim_job job;
    mur_sim_result res;

    /* the free run; under mu: */
    bool free_on;         /* the main thread wants a free run */
    bool free_active;     /* the worker is in it */
    bool published, failed; /* the first state is out; the state memory could not be had */
    bool borrow_req, parked, borrow_changed;
    mur_sim_ctl ctl;
    int steps;            /* single ticks not taken yet */
    FILE *metrics;
    /* the triple buffer: back is the worker's, front the main thread's, ready the one between */
    mur_sim_state slot[3];
    int back, front;
    bool front_ok;        /* the main thread's: the front slot holds a state */
    atomic_int ready;
};

/* The flock centre: when a camera follows the flock, the centre and radius of the biggest group
 * (the centre of mass is empty air when the flock splits); else the metrics' centre when this job
 * measured them (free: the metrics of a step describe the state it started from, one tick
 * earlier, and older ones may predate a setter). */
static bool group_centre(const mur_sim *s, const mur_view *v, bool falcon, double centre[3], double *radius,
                         bool *has_box, float box[4][3], bool *has_falcon, float falcon_pos[3])
{
    mur_flock_def def = mur_flock_get_def(s->flock);
    mur_group g = mur_biggest_group(v, &def);
    /* the falcon while it attacks (approach, pursuit): retreating and waiting it is far away */
    *has_falcon = falcon && (v->falcon_phase == MUR_FALCON_APPROACH || v->falcon_phase == MUR_FALCON_PURSUIT);
    if (*has_falcon) {
        mur_group_include(&g, v->falcon_pos);
        memcpy(falcon_pos, v->falcon_pos, sizeof v->falcon_pos);
    }
    if (g.boids <= 0)
        return false;
    memcpy(centre, g.centre, sizeof g.centre);
    *radius = g.radius;
    memcpy(box, g.box, sizeof g.box);
    *has_box = true;
    return true;
}

void mur_sim_stats_timings(mur_stats *kept, const mur_stats *now)
{
    kept->tick = now->tick;
    kept->step_ms = now->step_ms;
    kept->grid_ms = now->grid_ms;
    kept->candidates_per_boid = now->candidates_per_boid;
}

static void flock_centre(const mur_sim *s, const mur_sim_job *job, mur_sim_result *r, const mur_view *v)
{
    if (job->centre) {
        if (group_centre(s, v, job->falcon, r->centre, &r->radius, &r->has_box, r->box, &r->has_falcon, r->falcon))
            r->has_centre = true;
        return;
    }
    if (job->measure && r->stats.metrics_valid && r->stats.tick == v->tick) {
        memcpy(r->centre, r->stats.centre, sizeof r->centre);
        r->radius = r->stats.diameter;
        r->has_centre = true;
    }
}

static void run_job(mur_sim *s, const mur_sim_job *job, mur_sim_result *r)
{
    memset(r, 0, sizeof *r);
    double t0 = mur_clock_s();
    while (r->ticks_done < job->ticks) {
        mur_flock_step(s->flock);
        r->ticks_done++;
        if (job->metrics) {
            mur_stats st = mur_flock_stats(s->flock);
            mur_stats_write_row(job->metrics, &st);
        }
        if (job->budget_s > 0.0 && mur_clock_s() - t0 > job->budget_s)
            break;
    }
    double t1 = mur_clock_s();
    r->step_s = t1 - t0;
    r->stats = job->measure ? mur_flock_measure(s->flock) : mur_flock_stats(s->flock);
    r->measure_s = job->measure ? mur_clock_s() - t1 : 0.0;
    mur_view v = mur_flock_view(s->flock);
    r->tick = v.tick;
    r->predators_on = v.predators_on;
    if (job->copy) {
        mur_upload_copy(&job->dst, &v);
        r->copied = true;
    }
    flock_centre(s, job, r, &v);
}

/* ------------------------------------------------------------------ the free run (worker side) */

/* What the worker keeps between the states it publishes. */
typedef struct free_run {
    mur_sim_ctl ctl;
    mur_stats stats;
    uint64_t measured;
    bool has_centre, has_box, has_falcon;
    double centre[3], radius;
    float box[4][3], falcon[3];
    double sim_time, step_ms, measure_s;
    uint64_t ticks;
} free_run;

static bool grow(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes ? bytes : 1);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* Copy the flock's state and what the worker knows about it into st (the worker's slot). */
static bool fill(mur_sim *s, mur_sim_state *st, const free_run *fr)
{
    mur_view v = mur_flock_view(s->flock);
    if (v.boids > st->cap_boids) {
        size_t n = (size_t)v.boids;
        if (!grow((void **)&st->pos, n * 3 * sizeof(float)) || !grow((void **)&st->vel, n * 3 * sizeof(float))
            || !grow((void **)&st->roll, n * sizeof(float)) || !grow((void **)&st->perch, n * sizeof(int32_t)))
            return false;
        st->cap_boids = v.boids;
    }
    if (v.predators > st->cap_preds) {
        size_t n = (size_t)v.predators;
        if (!grow((void **)&st->pred_pos, n * 3 * sizeof(float))
            || !grow((void **)&st->pred_vel, n * 3 * sizeof(float)))
            return false;
        st->cap_preds = v.predators;
    }
    const size_t n = (size_t)v.boids, np = (size_t)v.predators;
    if (n > 0) {
        memcpy(st->pos, v.pos, n * 3 * sizeof(float));
        memcpy(st->vel, v.vel, n * 3 * sizeof(float));
        memcpy(st->perch, v.perch, n * sizeof(int32_t));
        if (v.roll)
            memcpy(st->roll, v.roll, n * sizeof(float));
        else
            memset(st->roll, 0, n * sizeof(float));
    }
    if (np > 0) {
        memcpy(st->pred_pos, v.pred_pos, np * 3 * sizeof(float));
        memcpy(st->pred_vel, v.pred_vel, np * 3 * sizeof(float));
    }
    st->tick = v.tick;
    st->boids = v.boids;
    st->predators = v.predators;
    st->predators_on = v.predators_on;
    st->def = mur_flock_get_def(s->flock);
    st->stats = fr->stats;
    st->measured = fr->measured;
    st->has_centre = fr->has_centre;
    memcpy(st->centre, fr->centre, sizeof st->centre);
    st->radius = fr->radius;
    st->has_box = fr->has_box;
    memcpy(st->box, fr->box, sizeof st->box);
    st->has_falcon = fr->has_falcon;
    memcpy(st->falcon, fr->falcon, sizeof st->falcon);
    st->sim_time = fr->sim_time;
    st->step_ms = fr->step_ms;
    st->measure_s = fr->measure_s;
    st->ticks = fr->ticks;
    st->sel_bird = fr->ctl.sel_bird >= 0 && fr->ctl.sel_bird < v.boids ? fr->ctl.sel_bird : -1;
    st->sel_count = 0;
    if (st->sel_bird >= 0) {
        int32_t c = mur_flock_neighbours(s->flock, st->sel_bird, st->sel_nb, MUR_SIM_SEL_MAX);
        st->sel_count = c > 0 ? c : 0;
    }
    return true;
}

/* Fill the worker's slot and hand it over: it becomes `ready`, and the slot that was there the
 * worker's next one. A state that cannot be copied (no memory) is not published. */
static bool publish(mur_sim *s, const free_run *fr)
{
    if (!fill(s, &s->slot[s->back], fr))
        return false;
    int old = atomic_exchange(&s->ready, s->back | FRESH);
    s->back = old & ~FRESH;
    return true;
}

/* After a tick: the metrics when the HUD wants them and they are due (a few times a second, never
 * more than a tenth of the time), the biggest group's centre likewise when a camera follows it. */
static void after_tick(mur_sim *s, free_run *fr, double *next_measure, double *next_centre)
{
    double now = mur_clock_s();
    mur_stats st;
    bool measured = fr->ctl.measure && now >= *next_measure;
    if (measured) {
        st = mur_flock_measure(s->flock);
        fr->measure_s = mur_clock_s() - now;
        *next_measure = now + fmax(0.25, 10.0 * fr->measure_s);
        fr->measured++;
        fr->stats = st;
    } else {
        /* the last metrics stay; only the tick and timings are new */
        st = mur_flock_stats(s->flock);
        mur_sim_stats_timings(&fr->stats, &st);
        if (!fr->stats.metrics_valid)
            fr->stats = st;
    }
    if (fr->ctl.centre && mur_clock_s() >= *next_centre) {
        double t0 = mur_clock_s();
        mur_view v = mur_flock_view(s->flock);
        if (group_centre(s, &v, fr->ctl.falcon, fr->centre, &fr->radius, &fr->has_box, fr->box, &fr->has_falcon,
                         fr->falcon))
            fr->has_centre = true;
        double t1 = mur_clock_s();
        *next_centre = t1 + fmax(0.1, 10.0 * (t1 - t0));
    } else if (!fr->ctl.centre && measured && st.metrics_valid) {
        memcpy(fr->centre, st.centre, sizeof fr->centre);
        fr->radius = st.diameter;
        fr->has_centre = true;
        fr->has_box = false;
        fr->has_falcon = false;
    }
}

static void wait_until(mur_sim *s, double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double whole = floor(seconds);
    ts.tv_sec += (time_t)whole;
    ts.tv_nsec += (long)((seconds - whole) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

/* The free run: one tick per pass, so a loan or a stop waits for one tick at most. Called without
 * the lock; returns when the main thread ends the run. */
static void free_loop(mur_sim *s)
{
    free_run fr;
    memset(&fr, 0, sizeof fr);
    pthread_mutex_lock(&s->mu);
    fr.ctl = s->ctl;
    pthread_mutex_unlock(&s->mu);
    fr.stats = mur_flock_stats(s->flock);
    double last = mur_clock_s(), acc = 0.0, next_measure = last + 0.25, next_centre = last;
    after_tick(s, &fr, &next_measure, &next_centre); /* the centre of the first state */
    bool ok = publish(s, &fr);
    pthread_mutex_lock(&s->mu);
    s->published = true;
    s->failed = !ok;
    pthread_cond_broadcast(&s->cv);
    for (;;) {
        if (!s->free_on || s->quit)
            break;
        if (s->borrow_req) {
            /* a loan: park between ticks until the main thread gives the flock back */
            s->parked = true;
            pthread_cond_broadcast(&s->cv);
            while (s->borrow_req && s->free_on && !s->quit)
                pthread_cond_wait(&s->cv, &s->mu);
            s->parked = false;
            bool changed = s->borrow_changed;
            s->borrow_changed = false;
            if (changed) {
                pthread_mutex_unlock(&s->mu);
                publish(s, &fr);
                pthread_mutex_lock(&s->mu);
            }
            continue;
        }
        fr.ctl = s->ctl;
        int steps = s->steps;
        s->steps = 0;
        pthread_mutex_unlock(&s->mu);

        const double dt = (double)mur_flock_get_def(s->flock).dt;
        double now = mur_clock_s();
        acc = fr.ctl.paused ? 0.0 : acc + (now - last) * fr.ctl.speed;
        last = now;
        if (acc > MAX_BACKLOG_TICKS * dt)
            acc = MAX_BACKLOG_TICKS * dt; /* cannot keep up: run flat out, drop the rest */
        int n = steps;
        if (!fr.ctl.paused && acc >= dt) {
            acc -= dt;
            n++;
        }
        if (n == 0) {
            /* nothing due: sleep until the next tick is, or the main thread asks for something */
            double wait = fr.ctl.paused || !(fr.ctl.speed > 0.0) ? 0.25 : (dt - acc) / fr.ctl.speed;
            pthread_mutex_lock(&s->mu);
            if (!s->borrow_req && s->free_on && !s->quit && s->steps == 0)
                wait_until(s, fmin(fmax(wait, 0.0), 0.25));
            continue;
        }
        double t0 = mur_clock_s();
        for (int k = 0; k < n; k++) {
            mur_flock_step(s->flock);
            if (s->metrics) {
                mur_stats st = mur_flock_stats(s->flock);
                mur_stats_write_row(s->metrics, &st);
            }
        }
        double ms = (mur_clock_s() - t0) * 1000.0 / n;
        fr.step_ms = fr.step_ms > 0.0 ? 0.9 * fr.step_ms + 0.1 * ms : ms;
        fr.ticks += (uint64_t)n;
        fr.sim_time += n * dt;
        after_tick(s, &fr, &next_measure, &next_centre);
        publish(s, &fr);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
}

static void *worker(void *arg)
{
    mur_sim *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->busy && !s->quit && !s->free_on)
            pthread_cond_wait(&s->cv, &s->mu);
        if (s->free_on && !s->busy && !s->quit) {
            s->free_active = true;
            pthread_mutex_unlock(&s->mu);
            free_loop(s);
            pthread_mutex_lock(&s->mu);
            s->free_active = false;
            s->parked = false;
            pthread_cond_broadcast(&s->cv);
            continue;
        }
        if (s->quit && !s->busy)
            break;
        mur_sim_job job = s->job;
        pthread_mutex_unlock(&s->mu);
        mur_sim_result r;
        run_job(s, &job, &r);
        pthread_mutex_lock(&s->mu);
        s->res = r;
        s->busy = false;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

mur_sim *mur_sim_start(mur_flock *f)
{
    mur_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->flock = f;
    atomic_init(&s->ready, 1);
    s->back = 0;
    s->front = 2;
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&s->thread, NULL, worker, s) != 0) {
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        free(s);
        return NULL;
    }
    return s;
}

void mur_sim_kick(mur_sim *s, const mur_sim_job *job)
{
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    s->job = *job;
    s->busy = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void mur_sim_wait(mur_sim *s, mur_sim_result *out)
{
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    *out = s->res;
    memset(&s->res, 0, sizeof s->res);
    s->res.stats = out->stats;
    pthread_mutex_unlock(&s->mu);
}

/* ------------------------------------------------------------------ the free run (main side) */

bool mur_sim_free_start(mur_sim *s, const mur_sim_ctl *ctl, FILE *metrics)
{
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    s->ctl = *ctl;
    s->steps = ctl->steps;
    s->metrics = metrics;
    s->published = s->failed = false;
    s->borrow_req = s->borrow_changed = false;
    /* a new run: the slots' roles from the start (the worker is idle, nothing is in flight) */
    s->back = 0;
    s->front = 2;
    s->front_ok = false;
    atomic_store(&s->ready, 1);
    s->free_on = true;
    pthread_cond_broadcast(&s->cv);
    while (!s->published)
        pthread_cond_wait(&s->cv, &s->mu);
    bool ok = !s->failed;
    pthread_mutex_unlock(&s->mu);
    if (!ok)
        mur_sim_free_stop(s);
    return ok;
}

void mur_sim_free_stop(mur_sim *s)
{
    pthread_mutex_lock(&s->mu);
    s->free_on = false;
    s->borrow_req = false;
    pthread_cond_broadcast(&s->cv);
    while (s->free_active)
        pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
}

void mur_sim_control(mur_sim *s, const mur_sim_ctl *ctl)
{
    pthread_mutex_lock(&s->mu);
    /* wake a sleeping worker when its pace changed (a resume must not wait out its sleep) */
    bool wake = ctl->steps > 0 || ctl->paused != s->ctl.paused || ctl->speed != s->ctl.speed;
    s->ctl = *ctl;
    s->steps += ctl->steps;
    if (wake)
        pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

const mur_sim_state *mur_sim_latest(mur_sim *s, bool *fresh)
{
    *fresh = false;
    if (atomic_load(&s->ready) & FRESH) {
        int old = atomic_exchange(&s->ready, s->front);
        s->front = old & ~FRESH;
        *fresh = true;
    }
    s->front_ok = s->front_ok || *fresh;
    return s->front_ok ? &s->slot[s->front] : NULL;
}

bool mur_sim_borrow(mur_sim *s)
{
    pthread_mutex_lock(&s->mu);
    bool ok = s->free_active && s->parked;
    if (!ok && !s->borrow_req) {
        s->borrow_req = true;
        pthread_cond_broadcast(&s->cv); /* wake a worker waiting for its next tick */
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

bool mur_sim_borrow_wait(mur_sim *s)
{
    pthread_mutex_lock(&s->mu);
    s->borrow_req = true;
    pthread_cond_broadcast(&s->cv);
    while (s->free_active && !s->parked)
        pthread_cond_wait(&s->cv, &s->mu);
    bool ok = s->free_active && s->parked;
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void mur_sim_give_back(mur_sim *s, bool changed)
{
    pthread_mutex_lock(&s->mu);
    s->borrow_req = false;
    s->borrow_changed = s->borrow_changed || changed;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

mur_view mur_sim_state_view(const mur_sim_state *st)
{
    /* the fields not named (none today) are zero */
    return (mur_view){.tick = st->tick, .boids = st->boids, .pos = st->pos, .vel = st->vel, .perch = st->perch,
                      .roll = st->roll, .predators = st->predators, .predators_on = st->predators_on,
                      .pred_pos = st->pred_pos, .pred_vel = st->pred_vel};
}

void mur_sim_stop(mur_sim *s)
{
    if (!s)
        return;
    mur_sim_free_stop(s);
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    s->quit = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    for (int i = 0; i < 3; i++) {
        mur_sim_state *st = &s->slot[i];
        free(st->pos);
        free(st->vel);
        free(st->roll);
        free(st->perch);
        free(st->pred_pos);
        free(st->pred_vel);
    }
    free(s);
}
