/* The simulation worker (see simthread.h). */
#include "simthread.h"

#include "group.h"

#include "clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct mur_sim {
    mur_flock *flock;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool busy, quit;
    mur_sim_job job;
    mur_sim_result res;
};

/* The flock centre: when a camera follows the flock, the centre and radius of the biggest group
 * (the centre of mass is empty air when the flock splits); else the metrics' centre when this job
 * measured them (free: the metrics of a step describe the state it started from, one tick
 * earlier, and older ones may predate a setter). */
static void flock_centre(const mur_sim *s, const mur_sim_job *job, mur_sim_result *r, const mur_view *v)
{
    if (job->centre) {
        mur_flock_def def = mur_flock_get_def(s->flock);
        mur_group g = mur_biggest_group(v, &def);
        if (g.boids > 0) {
            memcpy(r->centre, g.centre, sizeof r->centre);
            r->radius = g.radius;
            r->has_centre = true;
        }
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

static void *worker(void *arg)
{
    mur_sim *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->busy && !s->quit)
            pthread_cond_wait(&s->cv, &s->mu);
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
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
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

void mur_sim_stop(mur_sim *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    s->quit = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}
