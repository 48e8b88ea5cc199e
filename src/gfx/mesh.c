/* A small bird: a diamond body, two swept wings with a bend, and a forked tail. 14 vertices,
 * 13 triangles. */
#include "mesh.h"

enum { NOSE, TAIL, TOP, BELLY, ROOT_L, ROOT_R, TRAIL_L, TRAIL_R, MID_L, MID_R, TIP_L, TIP_R,
       FORK_L, FORK_R, NVERTS };

int mur_mesh_bird(mur_mesh_vertex *v, int *nverts, uint16_t *idx)
{
    static const mur_mesh_vertex VERTS[NVERTS] = {
        [NOSE] = {{0.0f, 0.01f, 0.55f}, 0.0f},
        [TAIL] = {{0.0f, 0.0f, -0.35f}, 0.0f},
        [TOP] = {{0.0f, 0.08f, 0.08f}, 0.0f},
        [BELLY] = {{0.0f, -0.07f, 0.08f}, 0.0f},
        [ROOT_L] = {{-0.09f, 0.01f, 0.14f}, 0.0f},
        [ROOT_R] = {{0.09f, 0.01f, 0.14f}, 0.0f},
        [TRAIL_L] = {{-0.06f, 0.02f, -0.12f}, 1.0f},
        [TRAIL_R] = {{0.06f, 0.02f, -0.12f}, 1.0f},
        [MID_L] = {{-0.38f, 0.06f, 0.06f}, 1.0f},
        [MID_R] = {{0.38f, 0.06f, 0.06f}, 1.0f},
        [TIP_L] = {{-0.74f, 0.09f, -0.18f}, 1.0f},
        [TIP_R] = {{0.74f, 0.09f, -0.18f}, 1.0f},
        [FORK_L] = {{-0.16f, 0.01f, -0.62f}, 2.0f},
        [FORK_R] = {{0.16f, 0.01f, -0.62f}, 2.0f},
    };
    static const uint16_t TRIS[][3] = {
        /* body */
        {NOSE, TOP, ROOT_R}, {NOSE, ROOT_R, BELLY}, {NOSE, BELLY, ROOT_L}, {NOSE, ROOT_L, TOP},
        {TAIL, ROOT_R, TOP}, {TAIL, BELLY, ROOT_R}, {TAIL, ROOT_L, BELLY}, {TAIL, TOP, ROOT_L},
        /* wings: inner and outer panel */
        {ROOT_L, TRAIL_L, MID_L}, {MID_L, TRAIL_L, TIP_L},
        {ROOT_R, MID_R, TRAIL_R}, {MID_R, TIP_R, TRAIL_R},
        /* tail */
        {TAIL, FORK_L, FORK_R},
    };
    int n = 0;
    for (int i = 0; i < NVERTS; i++)
        v[i] = VERTS[i];
    for (size_t t = 0; t < sizeof TRIS / sizeof TRIS[0]; t++)
        for (int k = 0; k < 3; k++)
            idx[n++] = TRIS[t][k];
    *nverts = NVERTS;
    return n;
}
