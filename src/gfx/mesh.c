/* A small bird in four triangles: two swept wings, a vertical keel for the body (nose to tail)
 * and a forked tail. Software GL pays per triangle, so large flocks use the lean bird below. */
#include "mesh.h"

#include <math.h>
#include <stddef.h>

enum { NOSE, BELLY, TAIL, SHOULDER, TIP_L, TIP_R, FORK_L, FORK_R, NVERTS };

int mur_mesh_bird(mur_mesh_vertex *v, int *nverts, uint16_t *idx)
{
    static const float POS[NVERTS][3] = {
        [NOSE] = {0.0f, 0.02f, 0.55f},     [BELLY] = {0.0f, -0.12f, 0.02f},
        [TAIL] = {0.0f, 0.01f, -0.30f},    [SHOULDER] = {0.0f, 0.03f, 0.22f},
        [TIP_L] = {-0.78f, 0.10f, -0.22f}, [TIP_R] = {0.78f, 0.10f, -0.22f},
        [FORK_L] = {-0.17f, 0.01f, -0.62f}, [FORK_R] = {0.17f, 0.01f, -0.62f},
    };
    static const float PART[NVERTS] = {[TIP_L] = 1.0f, [TIP_R] = 1.0f, [FORK_L] = 2.0f,
                                       [FORK_R] = 2.0f};
    /* the last vertex of each triangle is used by no other triangle in that role */
    static const uint16_t TRIS[][3] = {
        {SHOULDER, TAIL, TIP_L}, {TAIL, SHOULDER, TIP_R}, /* wings */
        {TAIL, NOSE, BELLY},                              /* body keel */
        {TAIL, FORK_L, FORK_R},                           /* tail */
    };
    for (int i = 0; i < NVERTS; i++) {
        v[i] = (mur_mesh_vertex){{POS[i][0], POS[i][1], POS[i][2]}, {0.0f, 0.0f, 0.0f}, PART[i]};
    }
    int n = 0;
    for (size_t t = 0; t < sizeof TRIS / sizeof TRIS[0]; t++) {
        const float *a = POS[TRIS[t][0]], *b = POS[TRIS[t][1]], *c = POS[TRIS[t][2]];
        float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                        u[0] * w[1] - u[1] * w[0]};
        float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        for (int k = 0; k < 3; k++)
            v[TRIS[t][2]].face_normal[k] = len > 0.0f ? nrm[k] / len : 0.0f;
        for (int k = 0; k < 3; k++)
            idx[n++] = TRIS[t][k];
    }
    *nverts = NVERTS;
    return n;
}

int mur_mesh_bird_lean(uint16_t *idx)
{
    /* software GL pays per triangle (setup and binning, not shading): the full bird's two wings,
     * without the keel and the tail, so half the triangles and the same look from a distance */
    static const uint16_t TRIS[][3] = {{SHOULDER, TAIL, TIP_L}, {TAIL, SHOULDER, TIP_R}};
    int n = 0;
    for (size_t t = 0; t < sizeof TRIS / sizeof TRIS[0]; t++)
        for (int k = 0; k < 3; k++)
            idx[n++] = TRIS[t][k];
    return n;
}
