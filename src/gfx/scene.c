/* Scene from the flock's parameters and the drawing policy (see scene.h). */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mur_scene_from_def(const mur_flock_def *given, float boid_size, float time, mur_scene *s)
{
    const mur_flock_def res = mur_def_resolved(given); /* the world the flock flies in (world=scale) */
    const mur_flock_def *def = &res;
    memset(s, 0, sizeof *s);
    memcpy(s->world_min, def->world_min, sizeof s->world_min);
    memcpy(s->world_max, def->world_max, sizeof s->world_max);
    s->ground = def->ground;
    s->show_box = def->bounds != MUR_BOUNDS_NONE;
    s->goal_on = def->goal;
    memcpy(s->goal_pos, def->goal_pos, sizeof s->goal_pos);
    s->min_speed = def->min_speed;
    s->max_speed = def->max_speed;
    s->boid_size = boid_size;
    s->bank_g = def->max_speed > 0.0f ? def->max_speed : 1.0f;
    s->time = time;
    s->look = def->look;
    s->horizon = def->horizon;
    s->tint_alarm = mur_tint_alarm_wanted(); /* recordings too; the viewer's Shift+Z toggles it after */
}

bool mur_tint_alarm_wanted(void)
{
    const char *tint = getenv("MURMUR_TINT_ALARM");
    return tint && !strcmp(tint, "1");
}

float mur_boid_size(const mur_flock_def *given)
{
    const mur_flock_def res = mur_def_resolved(given);
    const mur_flock_def *d = &res;
    float ext = 0.0f, e[3];
    for (int i = 0; i < 3; i++) {
        e[i] = d->world_max[i] - d->world_min[i];
        ext = fmaxf(ext, e[i]);
    }
    /* a sparse flock (a few boids in a large box, or on a plane) is drawn at a fraction of the mean
     * spacing between boids, so its birds stay visible from the home camera */
    const float n = (float)(d->boids > 1 ? d->boids : 1);
    const float spacing = d->plane ? sqrtf(e[0] * e[2] / n) : cbrtf(e[0] * e[1] * e[2] / n);
    /* a flock with a hard sphere (starling: 0.2 wu, a bird's body) is drawn at twice its body
     * length: half the separation radius (4 wu there) would make birds overlap their neighbours */
    const float body = d->hard_radius > 0.0f ? 4.0f * d->hard_radius : 0.5f * d->separation_radius;
    float s = fmaxf(fmaxf(body, 0.006f * ext), 0.15f * spacing);
    return fminf(s, 0.05f * ext);
}

bool mur_gl_is_software(const char *gl_renderer)
{
    return gl_renderer
           && (strstr(gl_renderer, "llvmpipe") || strstr(gl_renderer, "softpipe") || strstr(gl_renderer, "swrast"));
}

int mur_msaa_samples(const char *gl_renderer)
{
    const char *e = getenv("MURMUR_MSAA");
    if (e && *e)
        return atoi(e);
    return mur_gl_is_software(gl_renderer) ? 0 : 4;
}

int mur_msaa_samples_offline(void)
{
    const char *e = getenv("MURMUR_MSAA");
    if (e && *e)
        return atoi(e);
    return 4;
}

bool mur_shadows_wanted(const char *gl_renderer, int boids, bool offline)
{
    const char *e = getenv("MURMUR_SHADOWS");
    if (e && *e)
        return strcmp(e, "0") != 0;
    return offline || !mur_gl_is_software(gl_renderer) || boids <= 4000;
}
