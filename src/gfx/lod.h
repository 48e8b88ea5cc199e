/* Level of detail per bird, by its projected size (docs/rendering.md). Software GL pays per
 * primitive, so there a bird under MUR_LOD_POINT_PX pixels is one point (flocks of points_from
 * birds and more), one under MUR_LOD_FULL_PX the lean two-triangle bird (from lean_from birds), and
 * a larger one the full bird, at most MUR_LOD_FULL_MAX of them and MUR_LOD_MESH_MAX meshes in all
 * (the nearest: farther birds drop to the next kind). The birds are handed to
 * GL in that order (full, lean, points), so each kind is one draw of a contiguous range. A GPU draws
 * the full bird everywhere. No GL here: plain arithmetic, tested on its own (tests/render/test_lod.c). */
#ifndef MUR_GFX_LOD_H
#define MUR_GFX_LOD_H

#include <stdbool.h>
#include <stdint.h>

#define MUR_LOD_POINT_PX 2.0f   ///< birds shorter than this on screen (pixels) are points
#define MUR_LOD_FULL_PX 12.0f   ///< birds from this length on screen are the full bird (software GL)
#define MUR_LOD_FULL_MAX 8000   ///< most full birds per frame on software GL (the nearest ones)
#define MUR_LOD_MESH_MAX 50000  ///< most birds drawn as meshes (full or lean) when there are points

typedef enum mur_lod_mesh { MUR_LOD_FULL, MUR_LOD_LEAN, MUR_LOD_POINTS, MUR_LOD_KINDS } mur_lod_mesh;

/// How a renderer chooses: software GL or not, MURMUR_BIRD forcing one mesh (-1: not forced), and
/// the counts from which the lean bird and points may be used at all (software GL).
typedef struct mur_lod_policy {
    bool software;
    int forced;        ///< -1, or a mur_lod_mesh for every bird
    int lean_from;     ///< boid count from which small birds are lean
    int points_from;   ///< boid count from which tiny birds are points
    int32_t mesh_budget; ///< > 0: at most this many meshes (the nearest), the farther birds points,
                       ///<   whatever the count (the interactive window's frame budget); 0: none
} mur_lod_policy;

/// One frame's classification: the camera it uses and the thresholds for this flock.
typedef struct mur_lod_view {
    float wrow[4];     ///< clip-space w of a point p: wrow . (p, 1) (the view-projection's last row)
    float k;           ///< boid length x pixels per world unit at distance 1: on screen px = k / w
    int forced;        ///< -1, or one mesh for every bird
    float point_px;    ///< below: points (0: no points)
    float full_px;     ///< from here: full birds (0: every bird full)
    int32_t full_max;  ///< most full birds
    int32_t mesh_max;  ///< most full and lean birds together (with points)
} mur_lod_view;

/// The policy for this GL: bird = MURMUR_BIRD's value (full, lean, points) or NULL; no mesh budget.
mur_lod_policy mur_lod_policy_for(bool software, const char *bird);

/// The classification of count birds seen through the column-major view-projection vp, with
/// px_per_wu pixels per world unit at distance 1 and body length size (k = 0: no camera yet).
mur_lod_view mur_lod_view_for(const mur_lod_policy *p, int32_t count, const float vp[16], float size,
                              float px_per_wu);

/// Order n birds for drawing: order[] gets the bird indices, full birds first, then lean, then
/// points, each kind in index order; counts[kind] the number of each. px is scratch for n floats.
void mur_lod_order(const mur_lod_view *v, const float *pos, int32_t n, float *px, int32_t *order,
                   int32_t counts[MUR_LOD_KINDS]);

#endif
