/* The bird mesh: shared vertices and triangle indices in the local frame x = wing, y = up,
 * z = forward. Each triangle's last vertex (the provoking vertex of GL's default convention) is
 * its own and carries the face normal, so the vertex shader lights each face once and the
 * fragment shader only writes a flat colour (software GL pays for every fragment instruction). */
#ifndef MUR_GFX_MESH_H
#define MUR_GFX_MESH_H

#include <stdint.h>

/// One vertex: position (body length 1, nose at +z), the normal of the face it provokes (zero if
/// none) and part (0 body, 1 wing, 2 tail).
typedef struct mur_mesh_vertex {
    float pos[3];
    float face_normal[3];
    float part;
} mur_mesh_vertex;

#define MUR_BIRD_MAX_VERTS 32
#define MUR_BIRD_MAX_INDICES 96

/// Fill verts and indices (room for the maxima above); returns the index count (3 per triangle)
/// and sets *nverts.
int mur_mesh_bird(mur_mesh_vertex *verts, int *nverts, uint16_t *indices);
/// The falcon (wingspan 2.0 where the bird's is 1.56, pointed wings swept back, a long square tail):
/// its vertices into verts (room for MUR_BIRD_MAX_VERTS - base) numbered from base on in indices.
/// Returns the index count and sets *nverts.
int mur_mesh_falcon(mur_mesh_vertex *verts, int *nverts, uint16_t *indices, int base);
/// The lean bird for large flocks: the full bird's two wings only, using the same vertices.
/// Fills indices (room for 6) and returns the index count.
int mur_mesh_bird_lean(uint16_t *indices);

#endif
