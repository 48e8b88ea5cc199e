/* The bird mesh: flat-shaded triangles in the local frame x = wing, y = up, z = forward. */
#ifndef MUR_GFX_MESH_H
#define MUR_GFX_MESH_H

/// One vertex: position (body length 1, nose at +z), flat normal, part (0 body, 1 wing, 2 tail).
typedef struct mur_mesh_vertex {
    float pos[3];
    float normal[3];
    float part;
} mur_mesh_vertex;

/// Fill out (room for at least MUR_BIRD_MAX_VERTS) and return the vertex count (3 per triangle).
int mur_mesh_bird(mur_mesh_vertex *out);

#define MUR_BIRD_MAX_VERTS 64

#endif
