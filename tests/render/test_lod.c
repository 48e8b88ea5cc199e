/* The level-of-detail plan (src/gfx/lod.c): which birds are full, lean or points, in what order,
 * under the budgets, on software GL and on a GPU. No GL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lod.h"

/* A camera looking down -z from the origin: clip w = -z (the projection's last row 0, 0, -1, 0). */
static const float VP[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0};

/* n birds on the -z axis at distances d[i]; k = 100 px at distance 1, so a bird at distance z is
 * 100 / z pixels long. */
static void order(const mur_lod_policy *p, const float *d, int32_t n, int32_t *out, int32_t counts[3])
{
    float *pos = calloc((size_t)n * 3, sizeof(float)), *px = calloc((size_t)n, sizeof(float));
    assert_non_null(pos);
    assert_non_null(px);
    for (int32_t i = 0; i < n; i++)
        pos[3 * i + 2] = -d[i];
    mur_lod_view v = mur_lod_view_for(p, n, VP, 1.0f, 100.0f);
    mur_lod_order(&v, pos, n, px, out, counts);
    free(pos);
    free(px);
}

/* Software GL, a large flock: full from 12 px, lean from 2, points below; each kind in index order. */
static void kinds_by_size(void **st)
{
    (void)st;
    mur_lod_policy p = mur_lod_policy_for(true, NULL);
    enum { N = 60000 };
    static float d[N];
    static int32_t out[N];
    for (int32_t i = 0; i < N; i++)
        d[i] = 1000.0f; /* 0.1 px: points */
    d[10] = 5.0f;      /* 20 px: full */
    d[20] = 20.0f;     /* 5 px: lean */
    d[30] = 4.0f;      /* 25 px: full */
    d[40] = 8.4f;      /* 11.9 px: lean */
    int32_t c[3];
    order(&p, d, N, out, c);
    assert_int_equal(c[MUR_LOD_FULL], 2);
    assert_int_equal(c[MUR_LOD_LEAN], 2);
    assert_int_equal(c[MUR_LOD_POINTS], N - 4);
    assert_int_equal(out[0], 10);
    assert_int_equal(out[1], 30);
    assert_int_equal(out[2], 20);
    assert_int_equal(out[3], 40);
    assert_int_equal(out[4], 0);
    assert_int_equal(out[N - 1], N - 1);
}

/* More than MUR_LOD_FULL_MAX birds above 12 px: only the nearest are full, the rest lean; and
 * beyond MUR_LOD_MESH_MAX meshes the farthest meshes become points. */
static void budgets(void **st)
{
    (void)st;
    mur_lod_policy p = mur_lod_policy_for(true, NULL);
    enum { N = 70000 };
    static float d[N];
    static int32_t out[N];
    for (int32_t i = 0; i < N; i++)
        d[i] = 1.0f + 7.0f * (float)i / (float)N; /* 100 to 12.5 px: all would be full */
    int32_t c[3];
    order(&p, d, N, out, c);
    assert_true(c[MUR_LOD_FULL] <= MUR_LOD_FULL_MAX);
    assert_true(c[MUR_LOD_FULL] > MUR_LOD_FULL_MAX * 9 / 10); /* the histogram's bins are fine enough */
    assert_true(c[MUR_LOD_FULL] + c[MUR_LOD_LEAN] <= MUR_LOD_MESH_MAX);
    assert_true(c[MUR_LOD_FULL] + c[MUR_LOD_LEAN] > MUR_LOD_MESH_MAX * 9 / 10);
    assert_int_equal(c[0] + c[1] + c[2], N);
    /* the full birds are the nearest (smallest indices here) */
    for (int32_t q = 0; q < c[MUR_LOD_FULL]; q++)
        assert_true(out[q] < c[MUR_LOD_FULL]);
}

/* Below the counts that allow them there are no points (and no lean birds); a GPU and MURMUR_BIRD
 * draw one kind for all, in index order. */
/* A mesh budget (the interactive window's frame budget): in a flock of any size above it, the
 * nearest `budget` birds stay meshes and the farther ones become points; none on a GPU, none when a
 * mesh is forced, none when the flock fits the budget. */
static void mesh_budget(void **st)
{
    (void)st;
    enum { N = 3000 };
    static float d[N];
    static int32_t out[N];
    int32_t c[3];
    for (int32_t i = 0; i < N; i++)
        d[i] = 2.0f + (float)i * 0.01f; /* 50 px down to 3.2 px: meshes by size */
    mur_lod_policy p = mur_lod_policy_for(true, NULL);
    order(&p, d, N, out, c); /* under lean_from: every bird full */
    assert_int_equal(c[MUR_LOD_FULL], N);
    p.mesh_budget = 1000;
    order(&p, d, N, out, c);
    assert_true(c[MUR_LOD_FULL] + c[MUR_LOD_LEAN] <= 1000);
    assert_true(c[MUR_LOD_FULL] + c[MUR_LOD_LEAN] >= 900); /* whole histogram bins */
    assert_int_equal(c[0] + c[1] + c[2], N);
    /* the meshes are the nearest birds: every point is farther than every mesh */
    int32_t meshes = c[MUR_LOD_FULL] + c[MUR_LOD_LEAN];
    for (int32_t q = meshes; q < N; q++)
        assert_true(out[q] >= meshes);
    p.mesh_budget = N; /* the flock fits */
    order(&p, d, N, out, c);
    assert_int_equal(c[MUR_LOD_FULL], N);
    mur_lod_policy gpu = mur_lod_policy_for(false, NULL), forced = mur_lod_policy_for(true, "lean");
    gpu.mesh_budget = forced.mesh_budget = 100;
    order(&gpu, d, N, out, c);
    assert_int_equal(c[MUR_LOD_FULL], N);
    order(&forced, d, N, out, c);
    assert_int_equal(c[MUR_LOD_LEAN], N);
}

static void policies(void **st)
{
    (void)st;
    enum { N = 10000 };
    static float d[N];
    static int32_t out[N];
    for (int32_t i = 0; i < N; i++)
        d[i] = i % 2 ? 1000.0f : 2.0f; /* 0.1 px and 50 px */
    int32_t c[3];
    mur_lod_policy sw = mur_lod_policy_for(true, NULL);
    order(&sw, d, N, out, c); /* 10k: lean from 6001, no points below 50000 */
    assert_int_equal(c[MUR_LOD_FULL], N / 2);
    assert_int_equal(c[MUR_LOD_LEAN], N / 2);
    assert_int_equal(c[MUR_LOD_POINTS], 0);
    order(&sw, d, 6000, out, c); /* small flocks: every bird full */
    assert_int_equal(c[MUR_LOD_FULL], 6000);
    mur_lod_policy gpu = mur_lod_policy_for(false, NULL);
    order(&gpu, d, N, out, c);
    assert_int_equal(c[MUR_LOD_FULL], N);
    assert_int_equal(out[N - 1], N - 1);
    mur_lod_policy pts = mur_lod_policy_for(false, "points");
    order(&pts, d, N, out, c);
    assert_int_equal(c[MUR_LOD_POINTS], N);
    mur_lod_policy lean = mur_lod_policy_for(true, "lean");
    order(&lean, d, N, out, c);
    assert_int_equal(c[MUR_LOD_LEAN], N);
    /* no camera yet (k = 0): lean birds on software GL */
    mur_lod_view v = mur_lod_view_for(&sw, N, VP, 1.0f, 0.0f);
    assert_int_equal(v.forced, MUR_LOD_LEAN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_by_size),
        cmocka_unit_test(budgets),
        cmocka_unit_test(mesh_budget),
        cmocka_unit_test(policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
