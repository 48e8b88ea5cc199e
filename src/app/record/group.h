/* The biggest group of a flock's view, for a camera that follows the birds rather than their
 * centre of mass (which is empty air when the flock splits). */
#ifndef MUR_APP_GROUP_H
#define MUR_APP_GROUP_H

#include "murmur/murmur.h"

typedef struct mur_group {
    double centre[3];   ///< mean position of the group's boids, wu
    double radius;      ///< root mean square distance of its boids from the centre, wu
    int32_t boids;      ///< boids in the group (0: none found)
    float box[4][3];    ///< the group's box along its principal axes: box[0] its centre, box[1..3]
                        ///<   its half axes (the camera frames these 8 corners), wu
} mur_group;

/// The biggest group of v (most boids; ties: the smallest label): the library's groups
/// (mur_label_groups, the union-find of the `groups` metric) with boids linked closer than twice
/// def's view radius (with topological neighbours, whose view radius is only a search limit: 2.5
/// separation radii, the 10 wu of the starling analysis). O(boids).
mur_group mur_biggest_group(const mur_view *v, const mur_flock_def *def);
/// Grow g's box (along its axes) and radius so that they hold the point p too: the camera frames
/// the group and p together (the falcon: --camera falcon). The centre becomes the box's centre.
void mur_group_include(mur_group *g, const float p[3]);

#endif
