/* Level of detail per bird (lod.h). */
#include "lod.h"

#include <math.h>
#include <string.h>

mur_lod_policy mur_lod_policy_for(bool software, const char *bird)
{
    mur_lod_policy p = {software, -1, 6001, 50000, 0};
    if (bird && !strcmp(bird, "full"))
        p.forced = MUR_LOD_FULL;
    else if (bird && !strcmp(bird, "lean"))
        p.forced = MUR_LOD_LEAN;
    else if (bird && !strcmp(bird, "points"))
        p.forced = MUR_LOD_POINTS;
    return p;
}

mur_lod_view mur_lod_view_for(const mur_lod_policy *p, int32_t count, const float vp[16], float size,
                              float px_per_wu)
{
    mur_lod_view v;
    memset(&v, 0, sizeof v);
    for (int c = 0; c < 4; c++)
        v.wrow[c] = vp[4 * c + 3];
    v.k = size * px_per_wu;
    v.forced = p->forced;
    v.full_max = v.mesh_max = INT32_MAX;
    if (v.forced < 0 && p->software && count >= p->lean_from) {
        v.point_px = count >= p->points_from ? MUR_LOD_POINT_PX : 0.0f;
        v.full_px = MUR_LOD_FULL_PX;
        v.full_max = MUR_LOD_FULL_MAX;
        v.mesh_max = MUR_LOD_MESH_MAX;
    }
    if (v.forced < 0 && p->software && p->mesh_budget > 0 && count > p->mesh_budget) {
        /* a frame budget: the nearest mesh_budget birds are meshes, the farther ones points */
        v.point_px = MUR_LOD_POINT_PX;
        v.full_px = MUR_LOD_FULL_PX;
        v.full_max = p->mesh_budget < MUR_LOD_FULL_MAX ? p->mesh_budget : MUR_LOD_FULL_MAX;
        v.mesh_max = p->mesh_budget < v.mesh_max ? p->mesh_budget : v.mesh_max;
    }
    if (v.forced < 0 && !(v.k > 0.0f) && v.full_px > 0.0f)
        v.forced = MUR_LOD_LEAN; /* no camera yet (the first frame): the lean bird for all */
    return v;
}

/* Raise the threshold from until at most max birds are at or above it: a histogram of the sizes
 * above from in 256 bins, logarithmic up to the largest. */
static float threshold(const float *px, int32_t n, float from, int32_t max)
{
    enum { BINS = 256 };
    int32_t above = 0;
    float top = from;
    for (int32_t i = 0; i < n; i++)
        if (px[i] >= from) {
            above++;
            top = px[i] > top ? px[i] : top;
        }
    if (above <= max)
        return from;
    const float lo = logf(from), span = logf(top) - lo + 1e-6f;
    int32_t hist[BINS] = {0};
    for (int32_t i = 0; i < n; i++)
        if (px[i] >= from) {
            int b = (int)((logf(px[i]) - lo) / span * BINS);
            hist[b < BINS ? b : BINS - 1]++;
        }
    /* from the top bin down, keep whole bins while they fit */
    int32_t kept = 0;
    int b = BINS;
    while (b > 0 && kept + hist[b - 1] <= max)
        kept += hist[--b];
    return expf(lo + span * (float)b / (float)BINS);
}

void mur_lod_order(const mur_lod_view *v, const float *pos, int32_t n, float *px, int32_t *order,
                   int32_t counts[MUR_LOD_KINDS])
{
    memset(counts, 0, sizeof(int32_t) * MUR_LOD_KINDS);
    if (v->forced >= 0 || !(v->full_px > 0.0f)) {
        const int kind = v->forced >= 0 ? v->forced : MUR_LOD_FULL;
        for (int32_t i = 0; i < n; i++)
            order[i] = i;
        counts[kind] = n;
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        const float *p = pos + 3 * (size_t)i;
        const float w = v->wrow[0] * p[0] + v->wrow[1] * p[1] + v->wrow[2] * p[2] + v->wrow[3];
        /* behind the camera: not drawn anyway, counted as the cheapest kind */
        px[i] = w > 1e-3f ? v->k / w : 0.0f;
    }
    const float full = threshold(px, n, v->full_px, v->full_max);
    const float point = v->point_px > 0.0f ? threshold(px, n, v->point_px, v->mesh_max) : 0.0f;
    for (int32_t i = 0; i < n; i++) {
        const int kind = px[i] >= full ? MUR_LOD_FULL : px[i] >= point ? MUR_LOD_LEAN : MUR_LOD_POINTS;
        counts[kind]++;
        px[i] = (float)kind; /* reused: the kind of bird i */
    }
    int32_t at[MUR_LOD_KINDS] = {0, counts[0], counts[0] + counts[1]};
    for (int32_t i = 0; i < n; i++)
        order[at[(int)px[i]]++] = i;
}
