/* The flock's setters and small accessors: the clock, single boids and predators, the live
 * switches (perch, goal, wind, scatter, bounds, search), threads, the kernel path, the cell reach,
 * and mur_flock_set (one parameter by name). The lifetime, buffers and step are flock.c's. */
#include <math.h>
#include <string.h>

#include "flock_impl.h"
#include "react.h"
#include "kernel.h"

mur_flock_def mur_flock_get_def(const mur_flock *f) { return f->def; }

bool mur_flock_set_clock(mur_flock *f, uint64_t tick, double time_s, mur_error *err)
{
    if (!isfinite(time_s) || time_s < 0.0 || time_s > 1e15) {
        mur_set_error(err, "time %g s is not a finite number in [0, 1e15]", time_s);
        return false;
    }
    f->tick = tick;
    f->time = time_s;
    mur_react_forget(f, -1);
    f->stats.tick = tick;
    f->stats.time_s = time_s;
    return true;
}

static bool finite3(const float *v)
{
    return v && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

bool mur_flock_set_boid(mur_flock *f, int32_t i, const float pos[3], const float vel[3], int32_t perch)
{
    if (i < 0 || i >= f->n || !finite3(pos) || !finite3(vel) || perch < 0)
        return false;
    memcpy(f->pos + 3 * (size_t)i, pos, 3 * sizeof(float));
    memcpy(f->vel + 3 * (size_t)i, vel, 3 * sizeof(float));
    f->perch[i] = perch;
    f->roll[i] = 0.0f;
    mur_react_forget(f, i);
    return true;
}

bool mur_flock_set_predator(mur_flock *f, int32_t k, const float pos[3], const float vel[3])
{
    if (k < 0 || k >= f->np || !finite3(pos) || !finite3(vel))
        return false;
    memcpy(f->ppos + 3 * (size_t)k, pos, 3 * sizeof(float));
    memcpy(f->pvel + 3 * (size_t)k, vel, 3 * sizeof(float));
    return true;
}

void mur_flock_set_perch(mur_flock *f, bool on)
{
    f->def.perch = on;
    if (!on)
        memset(f->perch, 0, sizeof(int32_t) * (size_t)f->n);
}

void mur_flock_set_predators_on(mur_flock *f, bool on) { f->pred_on = on; }

void mur_flock_set_goal(mur_flock *f, bool on, const float *pos)
{
    f->def.goal = on;
    if (pos) {
        for (int a = 0; a < 3; a++)
            if (isfinite(pos[a]))
                f->def.goal_pos[a] = pos[a];
    }
}

void mur_flock_set_wind(mur_flock *f, bool on, const float *vel)
{
    f->def.wind = on;
    if (vel) {
        for (int a = 0; a < 3; a++)
            if (isfinite(vel[a]))
                f->def.wind_vel[a] = vel[a];
    }
}

void mur_flock_set_scatter(mur_flock *f, bool on) { f->def.scatter = on; }

void mur_flock_set_bounds(mur_flock *f, mur_bounds mode)
{
    if (mode >= 0 && mode < MUR_BOUNDS_COUNT)
        f->def.bounds = mode;
}

void mur_flock_set_search(mur_flock *f, mur_search method)
{
    if (method >= 0 && method < MUR_SEARCH_COUNT)
        f->def.neighbour_search = method;
}

void mur_flock_set_threads(mur_flock *f, int threads)
{
    int t = threads > 0 ? threads : mur_all_cores();
    if (t > MUR_MAX_THREADS)
        t = MUR_MAX_THREADS;
    if (mur_flock_reserve_gather(f, t) && t != f->threads) {
        f->threads = t;
        mur_cores_reset(&f->cores);
    }
}

void mur_flock_set_thread_fallback(mur_flock *f, bool on)
{
    f->cores.fixed = !on;
    mur_cores_reset(&f->cores);
}

int mur_flock_threads(const mur_flock *f) { return f->threads; }

bool mur_flock_set_simd(mur_flock *f, mur_simd path, mur_error *err)
{
    if (path == MUR_SIMD_AUTO) {
        f->simd = mur_kernel_best();
        f->search_simd = mur_kernel_best_search();
        return true;
    }
    if (path < 0 || path >= MUR_SIMD_COUNT || !mur_kernel_supports(path)) {
        mur_set_error(err, "kernel path '%s' is not available on this CPU or build (available: %s%s%s)",
                      mur_simd_name(path), "base", mur_kernel_supports(MUR_SIMD_AVX2) ? ", avx2" : "",
                      mur_kernel_supports(MUR_SIMD_AVX512) ? ", avx512" : "");
        return false;
    }
    f->simd = path;
    f->search_simd = path;
    return true;
}

mur_simd mur_flock_simd(const mur_flock *f) { return f->simd; }

mur_simd mur_flock_search_simd(const mur_flock *f) { return f->search_simd; }

const char *mur_simd_name(mur_simd path)
{
    static const char *names[] = {"auto", "base", "avx2", "avx512"};
    return (path >= 0 && path < MUR_SIMD_COUNT) ? names[path] : "?";
}

bool mur_flock_set_cell_reach(mur_flock *f, int reach, mur_error *err)
{
    if (reach != 1 && reach != 2) {
        mur_set_error(err, "bad cell reach %d: expected 1 or 2", reach);
        return false;
    }
    f->grid.want_reach = reach;
    return true;
}

bool mur_flock_set(mur_flock *f, const char *name, const char *value, mur_error *err)
{
    const mur_param *p = mur_param_find(name);
    if (p && !p->live) {
        mur_set_error(err, "parameter '%s' cannot change on a live flock (create a new one)", name);
        return false;
    }
    mur_flock_def nd = f->def;
    if (!mur_def_set(&nd, name, value, err)) /* also names an unknown parameter */
        return false;
    return mur_flock_apply_def(f, &nd, err);
}
