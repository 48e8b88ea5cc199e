/* murmur-bench's uniform and flock scenarios (bench.h): the flock at n boids.
 *
 * uniform: wrap world, view_radius 1, separation_radius 0.3, all-round view, speed 1, random start,
 *          --density/(4/3 pi) boids per unit volume (30 by default: cube side cbrt(N / 7.162));
 *          topological rows (and --bounds none) unwrapped; 1 warm-up tick, 20 timed (x 3 repeats).
 * flock:   the default parameters and soft bounds at the same neighbour density (the default box
 *          scaled), ticks 500..1000 timed. */
#include <math.h>

#include "bench.h"

#define PI 3.14159265358979323846

/* The uniform (sc == SC_UNIFORM) or flock scenario's flock definition at n boids. */
mur_flock_def uniform_def(const opts *o, int sc, int32_t n, mur_search method, int nb)
{
    const bool uniform = sc == SC_UNIFORM;
    mur_flock_def d = mur_flock_default_def();
    d.boids = n;
    d.neighbour_search = method;
    d.neighbours = (mur_neighbours)nb;
    d.topo_k = (float)o->topo_k;
    const double density = o->density / (4.0 / 3.0 * PI); /* per unit volume at view_radius 1 */
    if (uniform) {
        double L = cbrt((double)n / density);
        d.bounds = o->unwrapped || nb == MUR_NEIGHBOURS_TOPOLOGICAL ? MUR_BOUNDS_NONE : MUR_BOUNDS_WRAP;
        d.view_radius = 1.0f;
        d.separation_radius = 0.3f;
        d.view_angle = 360.0f;
        d.min_speed = d.max_speed = 1.0f;
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = 0.0f;
            d.world_max[a] = (float)L;
        }
    } else {
        d.bounds = MUR_BOUNDS_SOFT;
        double r = d.view_radius, vol = 1.0;
        for (int a = 0; a < 3; a++)
            vol *= (double)d.world_max[a] - (double)d.world_min[a];
        double s = cbrt((double)n / (density / (r * r * r)) / vol);
        for (int a = 0; a < 3; a++) {
            d.world_min[a] = (float)(d.world_min[a] * s);
            d.world_max[a] = (float)(d.world_max[a] * s);
        }
        d.goal_pos[1] = (float)(d.goal_pos[1] * s);
    }
    return d;
}
