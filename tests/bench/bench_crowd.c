/* murmur-bench's crowd scenarios (bench.h): coincident, every boid at one point (0, 40, 0) at rest
 * (default 20k boids); crowded, a 4 wu box (-2, 38, -2)..(2, 42, 2) with bounds bounce (default 100k).
 * The starling preset (topological rows), or the classic one with --neighbours metric. No warm-up, 3
 * ticks timed: the crowd is the start (issue 21: any density is bounded). */
#include "bench.h"

/* The coincident or crowded scenario's flock definition at n boids. */
mur_flock_def crowd_def(int sc, int32_t n, mur_search method, int nb)
{
    mur_flock_def d = mur_flock_default_def();
    if (nb == MUR_NEIGHBOURS_TOPOLOGICAL)
        mur_def_preset(&d, "starling", NULL);
    d.boids = n;
    d.neighbour_search = method;
    if (sc == SC_CROWDED) {
        d.bounds = MUR_BOUNDS_BOUNCE;
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = a == 1 ? 38.0f : -2.0f;
            d.world_max[a] = a == 1 ? 42.0f : 2.0f;
        }
    }
    return d;
}

/* The coincident start: every boid at (0, 40, 0), at rest (nothing for the other scenarios). */
void crowd_place(mur_flock *f, int sc, int32_t n)
{
    if (sc != SC_COINCIDENT)
        return;
    const float p[3] = {0.0f, 40.0f, 0.0f}, v[3] = {0.0f, 0.0f, 0.0f};
    for (int32_t i = 0; i < n; i++)
        mur_flock_set_boid(f, i, p, v, 0);
}
