/* mur_def_check: each value in its own range (params.c), then the rules between values. */
#include <stddef.h>

#include "params_check.h"

#include "core.h"

/* The parameters that only the topological neighbours read (their list, its order, its closest
 * neighbour, its hold): each must be at its off value unless neighbours=topological. The off value is
 * an end of the parameter's range (the rows are checked first), so any other value is on. */
static bool topo_only_ok(const mur_flock_def *def, mur_error *err)
{
    const struct {
        const char *name;
        double v, off;
    } rows[] = {
        {"separation_view", def->separation_view, 360.0}, /* off at its largest value */
        {"hard_radius", def->hard_radius, 0.0},
        {"cohesion_far", def->cohesion_far, 0.0},
        {"separation_nearest", def->separation_nearest, 0.0},
        {"centrality", def->centrality, 0.0},
        {"rim_pull", def->rim_pull, 0.0},
        {"lone_pull", def->lone_pull, 0.0},
        {"separation_edge", def->separation_edge, 0.0},
        {"separation_exposed", def->separation_exposed, 0.0},
        {"separation_stiff", def->separation_stiff, 0.0},
        {"separation_outward", def->separation_outward, 0.0},
        {"cohesion_caps", def->cohesion_caps, 0.0},
        {"separation_caps", def->separation_caps, 0.0},
        {"skin", def->skin, 0.0},
        {"skin_rim", def->skin_rim, 0.0},
        {"up_order", def->up_order, 0.0},
        {"bank_align", def->bank_align, 0.0},
        {"separation_up_radius", def->separation_up_radius, 0.0},
        {"surge_separation_radius", def->surge_separation_radius, 0.0},
        {"reaction_ticks", def->reaction_ticks, 1.0},
    };
    if (def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL)
        return true;
    if (def->separation_smooth) {
        mur_set_error(err, "separation_smooth on needs neighbours=topological (or separation_smooth=off)");
        return false;
    }
    for (size_t q = 0; q < sizeof rows / sizeof rows[0]; q++)
        if (rows[q].v != rows[q].off) {
            mur_set_error(err, "%s %g needs neighbours=topological (or %s=%g)", rows[q].name, rows[q].v,
                          rows[q].name, rows[q].off);
            return false;
        }
    return true;
}

bool mur_def_check(const mur_flock_def *def, mur_error *err)
{
    if (!def) {
        mur_set_error(err, "no flock definition given");
        return false;
    }
    if (!mur_def_check_rows(def, err))
        return false;
    if (def->min_speed > def->max_speed) {
        mur_set_error(err, "min_speed %g is above max_speed %g: need min_speed <= max_speed",
                      (double)def->min_speed, (double)def->max_speed);
        return false;
    }
    static const char axis[3] = {'x', 'y', 'z'};
    for (int a = 0; a < 3; a++) {
        if (!(def->world_min[a] < def->world_max[a])) {
            mur_set_error(err, "world_min.%c %g is not below world_max.%c %g: need world_min < world_max on every axis",
                          axis[a], (double)def->world_min[a], axis[a], (double)def->world_max[a]);
            return false;
        }
    }
    if (!topo_only_ok(def, err))
        return false;
    if (def->separation_exposed > 0.0f && (def->separation_nearest != 1 || def->separation_view < 360.0f)) {
        mur_set_error(err,
                      "separation_exposed %g needs separation_nearest=1 and separation_view=360 (separation_nearest %d, "
                      "separation_view %g), or separation_exposed=0",
                      (double)def->separation_exposed, (int)def->separation_nearest, (double)def->separation_view);
        return false;
    }
    if (def->separation_stiff > 0.0f && (def->separation_nearest != 1 || def->separation_view < 360.0f)) {
        mur_set_error(err,
                      "separation_stiff %g needs separation_nearest=1 and separation_view=360 (separation_nearest %d, "
                      "separation_view %g), or separation_stiff=0",
                      (double)def->separation_stiff, (int)def->separation_nearest, (double)def->separation_view);
        return false;
    }
    if (def->separation_stiff > 0.0f &&
        !(def->separation_stiff_radius > 0.0f && def->separation_stiff_radius <= def->separation_radius)) {
        mur_set_error(err, "separation_stiff_radius %g: need 0 < separation_stiff_radius <= separation_radius (%g) "
                      "with separation_stiff > 0", (double)def->separation_stiff_radius, (double)def->separation_radius);
        return false;
    }
    if (def->centrality_from > 0.0f && !(def->centrality > 0.0f)) {
        mur_set_error(err, "centrality_from %g needs centrality > 0 (it gates centrality's cohesion weight), or "
                      "centrality_from=0", (double)def->centrality_from);
        return false;
    }
    if (def->rim_pull > 0.0f && def->reaction_ticks != 1) {
        mur_set_error(err, "rim_pull %g needs reaction_ticks=1 (reaction_ticks %d), or rim_pull=0", (double)def->rim_pull,
                      (int)def->reaction_ticks);
        return false;
    }
    if (def->lone_pull > 0.0f && def->reaction_ticks != 1) {
        mur_set_error(err, "lone_pull %g needs reaction_ticks=1 (reaction_ticks %d), or lone_pull=0",
                      (double)def->lone_pull, (int)def->reaction_ticks);
        return false;
    }
    if (def->surge_separation < 0.0f && def->surge_separation != -1.0f) {
        mur_set_error(err, "surge_separation %g: need -1 (off: separation takes surge) or 0..1",
                      (double)def->surge_separation);
        return false;
    }
    if (def->surge_separation_radius > 0.0f && !(def->surge_separation >= 0.0f)) {
        mur_set_error(err, "surge_separation_radius %g needs surge_separation 0..1 (surge_separation %g), or "
                      "surge_separation_radius=0", (double)def->surge_separation_radius, (double)def->surge_separation);
        return false;
    }
    if (def->cohesion_far > 0.0f && !(def->cohesion_near < def->cohesion_far)) {
        mur_set_error(err, "cohesion_near %g must be below cohesion_far %g", (double)def->cohesion_near,
                      (double)def->cohesion_far);
        return false;
    }
    if (def->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && def->bounds == MUR_BOUNDS_WRAP) {
        mur_set_error(err, "neighbours=topological does not work with bounds=wrap: use soft, bounce or none");
        return false;
    }
    if (def->falcon && def->bounds == MUR_BOUNDS_WRAP) {
        mur_set_error(err, "falcon=on does not work with bounds=wrap: use soft, bounce or none");
        return false;
    }
    if (def->flight && !(def->bank && def->cruise_speed > 0.0f)) {
        mur_set_error(err, "flight=on needs bank=on and cruise_speed > 0 (bank %s, cruise_speed %g)",
                      def->bank ? "on" : "off", (double)def->cruise_speed);
        return false;
    }
    if (def->perch_min > def->perch_max) {
        mur_set_error(err, "perch_min %d is above perch_max %d: need perch_min <= perch_max", (int)def->perch_min,
                      (int)def->perch_max);
        return false;
    }
    return true;
}
