/* A small bird in four triangles: two swept wings, a vertical keel for the body (nose to tail)
 * and a forked tail. Software GL pays per triangle, so large flocks use the lean bird below. */
#include "mesh.h"

#include <math.h>
#include <stddef.h>

enum { NOSE, BELLY, TAIL, SHOULDER, TIP_L, TIP_R, FORK_L, FORK_R, NVERTS };

/* Vertices pos (with part) and triangles tris into v and idx, vertex numbers from base on: each
 * triangle's last vertex carries the face normal (mesh.h). Returns the index count. */
static int build(const float (*pos)[3], const float *part, int nv, const uint16_t (*tris)[3], int nt,
                 int base, mur_mesh_vertex *v, uint16_t *idx)
{
    for (int i = 0; i < nv; i++)
        v[i] = (mur_mesh_vertex){{pos[i][0], pos[i][1], pos[i][2]}, {0.0f, 0.0f, 0.0f}, part[i]};
    int n = 0;
    for (int t = 0; t < nt; t++) {
        const float *a = pos[tris[t][0]], *b = pos[tris[t][1]], *c = pos[tris[t][2]];
        float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                        u[0] * w[1] - u[1] * w[0]};
        float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        for (int k = 0; k < 3; k++)
            v[tris[t][2]].face_normal[k] = len > 0.0f ? nrm[k] / len : 0.0f;
        for (int k = 0; k < 3; k++)
            idx[n++] = (uint16_t)(base + tris[t][k]);
    }
    return n;
}

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
    *nverts = NVERTS;
    return build(POS, PART, NVERTS, TRIS, (int)(sizeof TRIS / sizeof TRIS[0]), 0, v, idx);
}

enum { F_NOSE, F_BELLY, F_SHOULDER, F_ROOT, F_WRIST_L, F_WRIST_R, F_TIP_L, F_TIP_R, F_TAIL_L,
       F_TAIL_R, F_NVERTS };

int mur_mesh_falcon(mur_mesh_vertex *v, int *nverts, uint16_t *idx, int base)
{
    /* span 2.0 (the starling's 1.56) and long pointed wings swept back from the wrist; a long
     * narrow tail, square at its end, not forked */
    static const float POS[F_NVERTS][3] = {
        [F_NOSE] = {0.0f, 0.02f, 0.60f},      [F_BELLY] = {0.0f, -0.11f, 0.05f},
        [F_SHOULDER] = {0.0f, 0.03f, 0.28f},  [F_ROOT] = {0.0f, 0.02f, -0.14f},
        [F_WRIST_L] = {-0.40f, 0.07f, 0.12f}, [F_WRIST_R] = {0.40f, 0.07f, 0.12f},
        [F_TIP_L] = {-1.0f, 0.10f, -0.40f},   [F_TIP_R] = {1.0f, 0.10f, -0.40f},
        [F_TAIL_L] = {-0.09f, 0.01f, -0.66f}, [F_TAIL_R] = {0.09f, 0.01f, -0.66f},
    };
    static const float PART[F_NVERTS] = {[F_WRIST_L] = 1.0f, [F_WRIST_R] = 1.0f,
                                         [F_TIP_L] = 1.0f,   [F_TIP_R] = 1.0f,
                                         [F_TAIL_L] = 2.0f,  [F_TAIL_R] = 2.0f};
    static const uint16_t TRIS[][3] = {
        {F_SHOULDER, F_ROOT, F_WRIST_L}, {F_ROOT, F_SHOULDER, F_WRIST_R}, /* arms */
        {F_WRIST_L, F_ROOT, F_TIP_L},    {F_ROOT, F_WRIST_R, F_TIP_R},    /* hands, swept back */
        {F_ROOT, F_NOSE, F_BELLY},                                         /* body keel */
        {F_ROOT, F_TAIL_L, F_TAIL_R},                                      /* tail */
    };
    *nverts = F_NVERTS;
    return build(POS, PART, F_NVERTS, TRIS, (int)(sizeof TRIS / sizeof TRIS[0]), base, v, idx);
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
