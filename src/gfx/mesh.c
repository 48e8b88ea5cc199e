/* A small bird: a double-pyramid body, two swept wings and a forked tail, flat shaded. */
#include "mesh.h"

#include <math.h>

static void tri(mur_mesh_vertex *out, int *n, const float a[3], const float b[3], const float c[3],
                float part)
{
    float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    float v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float nrm[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    if (len > 0.0f)
        for (int i = 0; i < 3; i++)
            nrm[i] /= len;
    const float *p[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        mur_mesh_vertex *m = &out[(*n)++];
        for (int i = 0; i < 3; i++) {
            m->pos[i] = p[k][i];
            m->normal[i] = nrm[i];
        }
        m->part = part;
    }
}

int mur_mesh_bird(mur_mesh_vertex *out)
{
    int n = 0;
    /* body: nose, tail and a diamond cross-section a little ahead of the middle */
    const float nose[3] = {0.0f, 0.01f, 0.55f};
    const float tail[3] = {0.0f, 0.0f, -0.40f};
    const float top[3] = {0.0f, 0.08f, 0.10f};
    const float bot[3] = {0.0f, -0.07f, 0.10f};
    const float lft[3] = {-0.09f, 0.0f, 0.10f};
    const float rgt[3] = {0.09f, 0.0f, 0.10f};
    tri(out, &n, nose, top, rgt, 0.0f);
    tri(out, &n, nose, rgt, bot, 0.0f);
    tri(out, &n, nose, bot, lft, 0.0f);
    tri(out, &n, nose, lft, top, 0.0f);
    tri(out, &n, tail, rgt, top, 0.0f);
    tri(out, &n, tail, bot, rgt, 0.0f);
    tri(out, &n, tail, lft, bot, 0.0f);
    tri(out, &n, tail, top, lft, 0.0f);
    /* wings: swept back, a little dihedral, two triangles each (inner and outer panel) */
    for (int s = -1; s <= 1; s += 2) {
        float f = (float)s;
        const float root_lead[3] = {0.05f * f, 0.02f, 0.22f};
        const float root_trail[3] = {0.05f * f, 0.02f, -0.10f};
        const float mid_lead[3] = {0.38f * f, 0.06f, 0.10f};
        const float mid_trail[3] = {0.36f * f, 0.06f, -0.12f};
        const float tip[3] = {0.72f * f, 0.09f, -0.16f};
        tri(out, &n, root_lead, root_trail, mid_lead, 1.0f);
        tri(out, &n, mid_lead, root_trail, mid_trail, 1.0f);
        tri(out, &n, mid_lead, mid_trail, tip, 1.0f);
        /* forked tail */
        const float t0[3] = {0.0f, 0.01f, -0.30f};
        const float t1[3] = {0.16f * f, 0.01f, -0.62f};
        const float t2[3] = {0.03f * f, 0.01f, -0.50f};
        tri(out, &n, t0, t1, t2, 2.0f);
    }
    return n;
}
