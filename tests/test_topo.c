/* Topological neighbours (src/sim/topo.c): the grid's k nearest and the contacts equal a brute force
 * k-NN, the public neighbour queries equal the grid's (the pass's state: bit-identical, pinned, crowds
 * and the lists: test_topo_state.c; the starling rules themselves: test_starling.c). */
#include "util.h"

#include "flock_impl.h"
#include "grid.h"
#include "kernel.h"
#include "step.h"
#include "topo.h"

/* Candidate j at d2 into out (n held, at most cap), ordered by (d2, index): the tie rule of the search.
 * Returns the new count. */
static int insert_nb(mur_topo_nb *out, int n, int cap, float d2, int32_t j)
{
    const bool full = n == cap;
    if (full && (d2 > out[cap - 1].d2 || (d2 == out[cap - 1].d2 && j > out[cap - 1].idx)))
        return n;
    int m = full ? cap - 1 : n++;
    while (m > 0 && (out[m - 1].d2 > d2 || (out[m - 1].d2 == d2 && out[m - 1].idx > j))) {
        out[m] = out[m - 1];
        m--;
    }
    out[m] = (mur_topo_nb){d2, j, -1};
    return n;
}

/* The k nearest visible boids within view_radius by brute force, ordered by (d2, index). */
static int brute_knn(const mur_flock *f, const mur_step *s, int32_t i, int cap, mur_topo_nb *out)
{
    int n = 0;
    const float *p = f->pos + 3 * i, *v = f->vel + 3 * i;
    const double vl = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    for (int32_t j = 0; j < f->n; j++) {
        if (j == i || (f->perch[j] != 0 && !f->def.perch_neighbours))
            continue;
        const float dx = f->pos[3 * j] - p[0], dy = f->pos[3 * j + 1] - p[1], dz = f->pos[3 * j + 2] - p[2];
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < s->rule.r2))
            continue;
        const double dot = (double)dx * v[0] + (double)dy * v[1] + (double)dz * v[2];
        if (dot < (double)s->rule.cos_half * vl * sqrt((double)d2))
            continue;
        n = insert_nb(out, n, cap, d2, j);
    }
    return n;
}

/* A one-thread step context for f with the grid built for the topological search. */
static void grid_step(mur_flock *f, mur_step *s)
{
    memset(s, 0, sizeof *s);
    s->def = &f->def;
    s->threads = 1;
    mur_world_init(&s->world, &f->def);
    mur_rules_prepare(&f->def, &s->rule);
    s->cell_boids = MUR_TOPO_CELL_BOIDS;
    mur_grid_build(f, s);
}

/* The same boids at the same squared distances, in the same order. */
static bool same_list(const mur_topo_nb *a, int na, const mur_topo_nb *b, int nb)
{
    bool same = na == nb;
    for (int q = 0; same && q < na; q++)
        same = a[q].idx == b[q].idx && a[q].d2 == b[q].d2;
    return same;
}

/* The grid's lists against brute force for every boid of f, on every search path this CPU runs. */
static void knn_check(mur_flock *f, bool mostly_full)
{
    mur_step s;
    grid_step(f, &s);
    const int cap = mur_topo_list_size(&f->def);
    /* every search path this CPU runs */
    for (int path = MUR_SIMD_BASE; path < MUR_SIMD_COUNT; path++) {
        if (!mur_kernel_supports((mur_simd)path))
            continue;
        s.simd = s.search_simd = (mur_simd)path;
        int64_t total = 0, mismatched = 0;
        for (int32_t k = 0; k < f->n; k++) {
            mur_topo_nb a[MUR_TOPO_MAX], b[MUR_TOPO_MAX];
            const int na = mur_topo_find(f, &s, k, a);
            const int nb = brute_knn(f, &s, f->order[k], cap, b);
            mismatched += !same_list(a, na, b, nb);
            total += na;
        }
        assert_int_equal(mismatched, 0);
        /* the case is not trivial: most boids have a full list */
        if (mostly_full)
            assert_true(total > (int64_t)f->n * cap * 9 / 10);
    }
}

/* The hard-sphere contacts by brute force: the MUR_TOPO_CONTACTS nearest others in any direction
 * closer than min(hard_radius + 2 max_speed dt, view_radius), ordered by (d2, index). */
static int brute_contacts(const mur_flock *f, const mur_step *s, int32_t i, mur_topo_nb *out)
{
    const mur_flock_def *d = &f->def;
    float hc = d->hard_radius + 2.0f * d->max_speed * d->dt;
    hc = hc < d->view_radius ? hc : d->view_radius;
    const float h2 = hc * hc;
    int n = 0;
    const float *p = f->pos + 3 * i;
    for (int32_t j = 0; j < f->n; j++) {
        if (j == i || (f->perch[j] != 0 && !f->def.perch_neighbours))
            continue;
        const float dx = f->pos[3 * j] - p[0], dy = f->pos[3 * j + 1] - p[1], dz = f->pos[3 * j + 2] - p[2];
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < h2 && d2 < s->rule.r2))
            continue;
        const int cap = MUR_TOPO_CONTACTS;
        n = insert_nb(out, n, cap, d2, j);
    }
    return n;
}

/* The grid's contacts against brute force for every boid of f (hard_radius > 0), every search path. */
static void contacts_check(mur_flock *f)
{
    mur_step s;
    grid_step(f, &s);
    for (int path = MUR_SIMD_BASE; path < MUR_SIMD_COUNT; path++) {
        if (!mur_kernel_supports((mur_simd)path))
            continue;
        s.simd = s.search_simd = (mur_simd)path;
        int64_t mismatched = 0, total = 0;
        for (int32_t k = 0; k < f->n; k++) {
            mur_topo_nb a[MUR_TOPO_CONTACTS], b[MUR_TOPO_CONTACTS];
            const int na = mur_topo_find_contacts(f, &s, k, a);
            const int nb = brute_contacts(f, &s, f->order[k], b);
            mismatched += !same_list(a, na, b, nb);
            total += na;
        }
        assert_int_equal(mismatched, 0);
        assert_true(total > 0);
    }
}

static void knn_case(float topo_k, float box)
{
    mur_flock_def d = topo_def(10000, box);
    d.topo_k = topo_k;
    mur_flock *f = make(&d);
    knn_check(f, true);
    mur_flock_destroy(f);
}

static void knn_vs_brute_dense(void **st) { (void)st; knn_case(6.5f, 12.0f); }
static void knn_vs_brute_sparse(void **st) { (void)st; knn_case(7.0f, 40.0f); }

/* Boids on an integer lattice (many equal distances: ties broken by index), some cells crowded by
 * boids at the same point, velocities in many directions (the cone; not lattice directions, so no
 * distance lies exactly on the cone where float and double could disagree), a few perching boids that
 * do not count. */
static void knn_vs_brute_lattice(void **st)
{
    (void)st;
    const int32_t side = 14, n = side * side * side + 300;
    mur_flock_def d = topo_def(n, 10.0f);
    d.perch_neighbours = false;
    for (int k = 0; k < 3; k++) {
        d.topo_k = k == 0 ? 6.5f : (k == 1 ? 12.0f : 3.0f);
        d.view_angle = k == 1 ? 360.0f : 270.0f;
        mur_flock *f = make(&d);
        int32_t i = 0;
        for (int32_t z = 0; z < side; z++)
            for (int32_t y = 0; y < side; y++)
                for (int32_t x = 0; x < side; x++, i++) {
                    put(f, i, (float)x - 7.0f, (float)y - 7.0f, (float)z - 7.0f, (float)(i * 37 % 101 - 50) / 17.0f,
                        (float)(i * 53 % 97 - 48) / 13.0f, (float)(i * 29 % 89 - 44) / 11.0f);
                }
        for (; i < n; i++) /* 300 boids on 10 lattice points */
            put(f, i, (float)(i % 10) - 5.0f, 2.0f, 1.0f, 0.3f, -0.1f, (float)(i % 5 - 2) / 7.0f);
        for (i = 0; i < n; i += 17)
            f->perch[i] = 5;
        knn_check(f, false);
        mur_flock_destroy(f);
    }
}

/* The contacts on an integer lattice: a contact radius of more than 1 holds the 6 lattice neighbours
 * at d2 = 1 (and more farther out), so the 4 kept are ties broken by index, inserted in the scan's
 * order (topo_search.h contact_add places each by counting, without branches); with 300 boids on 10
 * lattice points among them (ties at d2 = 0) and a few perching boids that do not count. Every path
 * against brute force. */
static void contacts_vs_brute_lattice(void **st)
{
    (void)st;
    const int32_t side = 12, n = side * side * side + 300;
    mur_flock_def d = topo_def(n, 10.0f);
    d.perch_neighbours = false;
    d.hard_radius = 1.2f;
    for (int k = 0; k < 2; k++) {
        d.view_angle = k == 0 ? 270.0f : 360.0f;
        mur_flock *f = make(&d);
        int32_t i = 0;
        for (int32_t z = 0; z < side; z++)
            for (int32_t y = 0; y < side; y++)
                for (int32_t x = 0; x < side; x++, i++)
                    put(f, i, (float)x - 6.0f, (float)y - 6.0f, (float)z - 6.0f, (float)(i * 37 % 101 - 50) / 17.0f,
                        (float)(i * 53 % 97 - 48) / 13.0f, (float)(i * 29 % 89 - 44) / 11.0f);
        for (; i < n; i++)
            put(f, i, (float)(i % 10) - 5.0f, 2.0f, 1.0f, 0.3f, -0.1f, (float)(i % 5 - 2) / 7.0f);
        for (i = 0; i < n; i += 17)
            f->perch[i] = 5;
        contacts_check(f);
        knn_check(f, false);
        mur_flock_destroy(f);
    }
}

/* Shells: around each of a few centres, the 30 lattice points at squared distance 9 ((1, 2, 2) and
 * (0, 0, 3) with their signs and orders) and the 24 at 5, all tied, so a centre's block passes more
 * than 16 candidates into an empty list and the list's last entries are ties broken by index (topo.c
 * ranks 16 of them, then adds the rest one by one); a sparse background around them. */
static void knn_vs_brute_shell(void **st)
{
    (void)st;
    static const int8_t base[][3] = {{1, 2, 2}, {0, 0, 3}, {0, 1, 2}};
    int8_t pts[160][3];
    int np = 0;
    for (int b = 0; b < 3; b++)
        for (int perm = 0; perm < 6; perm++)
            for (int sg = 0; sg < 8; sg++) {
                static const int8_t order3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
                int8_t p[3];
                for (int a = 0; a < 3; a++)
                    p[a] = (int8_t)(base[b][order3[perm][a]] * ((sg >> a) & 1 ? -1 : 1));
                bool dup = false;
                for (int q = 0; q < np && !dup; q++)
                    dup = pts[q][0] == p[0] && pts[q][1] == p[1] && pts[q][2] == p[2];
                if (!dup) {
                    memcpy(pts[np], p, sizeof p);
                    np++;
                }
            }
    assert_int_equal(np, 30 + 24);
    const int centres = 6;
    const int32_t n = centres * (np + 1) + 400;
    for (int k = 0; k < 2; k++) {
        mur_flock_def d = topo_def(n, 20.0f);
        d.topo_k = k == 0 ? 6.5f : 12.0f;
        d.view_angle = k == 0 ? 270.0f : 360.0f;
        mur_flock *f = make(&d);
        int32_t i = 0;
        for (int c = 0; c < centres; c++) {
            const float cx = (float)(c % 3) * 9.0f - 9.0f, cz = (float)(c / 3) * 9.0f - 4.5f;
            put(f, i++, cx, 0.0f, cz, 1.0f, 0.1f, 0.2f);
            for (int q = 0; q < np; q++, i++)
                put(f, i, cx + pts[q][0], pts[q][1], cz + pts[q][2], (float)(i * 37 % 101 - 50) / 17.0f,
                    (float)(i * 53 % 97 - 48) / 13.0f, (float)(i * 29 % 89 - 44) / 11.0f);
        }
        for (; i < n; i++)
            put(f, i, (float)(i * 7919 % 3800) / 100.0f - 19.0f, (float)(i * 104729 % 3800) / 100.0f - 19.0f,
                (float)(i * 1299709 % 3800) / 100.0f - 19.0f, 0.5f, -0.3f, (float)(i % 5 - 2) / 7.0f);
        for (i = 3; i < n; i += 23)
            f->perch[i] = 5;
        knn_check(f, false);
        mur_flock_destroy(f);
    }
}

/* Coincident boids (ties broken by index): all at one point; then clusters at a few points (one of
 * them 1500 boids: more than a block gathers, so scanned in place; two of them a hair apart, in one
 * cell or across a face) among scattered boids, some perching. The lists and the hard-sphere contacts
 * equal brute force on every path. */
static void knn_vs_brute_coincident(void **st)
{
    (void)st;
    /* all at one point, velocities in many directions (the cone passes at distance 0) */
    for (int k = 0; k < 2; k++) {
        mur_flock_def d = topo_def(k == 0 ? 700 : 300, 10.0f); /* scanned in place, gathered */
        d.hard_radius = 0.2f;
        d.topo_k = k == 0 ? 6.5f : 2.0f; /* 2: fewer neighbours than contacts */
        d.perch_neighbours = false;
        mur_flock *f = make(&d);
        for (int32_t i = 0; i < f->n; i++)
            put(f, i, 1.0f, -2.0f, 3.0f, (float)(i * 37 % 101 - 50) / 17.0f, (float)(i * 53 % 97 - 48) / 13.0f,
                (float)(i * 29 % 89 - 44) / 11.0f);
        f->perch[5] = 3; /* a perching boid that does not count */
        knn_check(f, true);
        contacts_check(f);
        mur_flock_destroy(f);
    }
    /* clusters */
    const int32_t n = 4000;
    mur_flock_def d = topo_def(n, 10.0f);
    d.hard_radius = 0.2f;
    d.perch_neighbours = false;
    mur_flock *f = make(&d);
    const float pts[6][3] = {{0, 0, 0}, {3, 1, -2}, {3.0001f, 1, -2}, {-4, 2, 5}, {-4, 2, 5.00001f}, {6, -6, 6}};
    for (int32_t i = 0; i < n; i++) {
        const float vx = (float)(i * 37 % 101 - 50) / 17.0f, vy = (float)(i * 53 % 97 - 48) / 13.0f,
                    vz = (float)(i * 29 % 89 - 44) / 11.0f;
        if (i % 8 == 7) { /* scattered */
            const int64_t m = i;
            put(f, i, (float)(m * 7919 % 1000) / 50.0f - 10.0f, (float)(m * 104729 % 1000) / 50.0f - 10.0f,
                (float)(m * 1299709 % 1000) / 50.0f - 10.0f, vx, vy, vz);
            continue;
        }
        const int c = i < 1500 ? 0 : 1 + (int)(i % 5); /* boids 0..1499 at one point, interleaved rest */
        put(f, i, pts[c][0], pts[c][1], pts[c][2], vx, vy, vz);
    }
    for (int32_t i = 0; i < n; i += 29)
        f->perch[i] = 4;
    knn_check(f, true);
    contacts_check(f);
    mur_flock_destroy(f);
}

/* A thin dense sheet in a box stretched by stragglers (two boids far out at each end of each axis,
 * beyond the outlier trim, each within view of the other across the boundary cells), a coincident cluster and some perching
 * boids: the lists and contacts equal brute force whatever spacing sizes the cells (grid.c: none
 * measured, cells down to the cell cap, about the spacing, past the view radius), and the grid spans
 * less than the boids (the trim clamps the stragglers into the boundary cells). */
static void knn_vs_brute_spacing(void **st)
{
    (void)st;
    const int32_t n = 6000;
    mur_flock_def d = topo_def(n, 10.0f);
    d.hard_radius = 0.3f;
    d.perch_neighbours = false;
    mur_flock *f = make(&d);
    for (int32_t i = 0; i < n; i++) {
        const float vx = (float)(i * 37 % 101 - 50) / 17.0f, vy = (float)(i * 53 % 97 - 48) / 13.0f,
                    vz = (float)(i * 29 % 89 - 44) / 11.0f;
        const int64_t m = i;
        if (i < 12) {
            float p[3] = {0.0f, 0.0f, 0.0f};
            p[i % 3] = (i / 3) % 2 ? 300.0f : -300.0f;
            p[(i + 1) % 3] = 3.0f * (float)(i / 6); /* the pair: apart across the boundary layer */
            put(f, i, p[0], p[1], p[2], vx, vy, vz);
        } else if (i < 212) {
            put(f, i, 2.0f, 0.1f, -3.0f, vx, vy, vz);
        } else {
            put(f, i, (float)(m * 7919 % 4000) / 100.0f - 20.0f, (float)(m * 104729 % 600) / 1000.0f - 0.3f,
                (float)(m * 1299709 % 4000) / 100.0f - 20.0f, vx, vy, vz);
        }
    }
    for (int32_t i = 0; i < n; i += 31)
        f->perch[i] = 4;
    const float spacing[] = {0.0f, 0.02f, 0.4f, 1.5f, 40.0f};
    for (size_t q = 0; q < sizeof spacing / sizeof spacing[0]; q++) {
        f->topo_spacing = spacing[q];
        knn_check(f, true);
        contacts_check(f);
        for (int a = 0; a < 3; a++) {
            assert_true(f->grid.origin[a] > -290.0f);
            assert_true(f->grid.origin[a] + (float)f->grid.dims[a] * f->grid.cell[a] < 290.0f);
        }
    }
    mur_flock_destroy(f);
}

/* A thin rod of boids along x with a gap of 6 wu in its middle and a few boids in the gap: the cells
 * are small (the rod's), so a boid in the gap finds most of its neighbours across ring faces more than
 * 64 columns of x wide (topo_body_grow.h RING_GAPS: their column gaps then computed per column); the
 * rod's boids search rings within the table. Both against brute force, lists and contacts. */
static void knn_vs_brute_rod(void **st)
{
    (void)st;
    const int32_t n = 6000, off = 5;
    mur_flock_def d = topo_def(n, 40.0f);
    d.hard_radius = 0.3f;
    mur_flock *f = make(&d);
    for (int32_t i = 0; i < n; i++) {
        const float vx = (float)(i * 37 % 101 - 50) / 17.0f, vy = (float)(i * 53 % 97 - 48) / 13.0f,
                    vz = (float)(i * 29 % 89 - 44) / 11.0f;
        const float u = 3.0f + 27.0f * (float)(i - off) / (float)(n - off);
        if (i < off)
            put(f, i, 0.0f, 0.01f * (float)i, 0.0f, vx, vy, vz);
        else
            put(f, i, i % 2 ? u : -u, (float)(i * 7919 % 41 - 20) / 1000.0f, (float)(i * 104729 % 43 - 21) / 1000.0f,
                vx, vy, vz);
    }
    const float spacing[] = {0.0f, 0.02f};
    for (size_t q = 0; q < sizeof spacing / sizeof spacing[0]; q++) {
        f->topo_spacing = spacing[q];
        knn_check(f, true);
        contacts_check(f);
        /* the gap is more than 64 columns of x wide */
        assert_true(2.0f * d.view_radius * f->grid.inv_cell[0] > 64.0f);
    }
    mur_flock_destroy(f);
}

/* mur_flock_neighbours (the public brute force the viewer's picking uses) lists, for a sample of
 * boids, exactly the grid search's topological neighbours, in the same order. */
static void public_neighbours_equal_grid(void **st)
{
    (void)st;
    mur_flock_def d = topo_def(10000, 12.0f);
    mur_flock *f = make(&d);
    mur_step s;
    grid_step(f, &s);
    int64_t checked = 0;
    for (int32_t k = 0; k < f->n; k += 7) {
        mur_topo_nb a[MUR_TOPO_MAX];
        int32_t b[MUR_TOPO_MAX + 4];
        const int na = mur_topo_find(f, &s, k, a);
        const int32_t nb = mur_flock_neighbours(f, f->order[k], b, MUR_TOPO_MAX + 4);
        assert_int_equal(nb, na);
        for (int q = 0; q < na; q++)
            assert_int_equal(b[q], a[q].idx);
        checked += na;
    }
    assert_true(checked > (int64_t)(f->n / 7) * 6); /* most lists full (7 entries for topo_k 6.5) */
    mur_flock_destroy(f);
}

/* A hand-made neighbourhood: boid 0 at the origin flying +x, view radius 3, view angle 270 (a rear
 * blind cone of 2 x 45 degrees), perching boids not counted. */
static void public_neighbours_by_hand(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(6);
    d.view_radius = 3.0f;
    d.view_angle = 270.0f;
    d.perch_neighbours = false;
    mur_flock *f = make(&d);
    const float pos[6][3] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 2, 0}, {0, 0, 5}, {0.5f, 0, 0}};
    for (int i = 0; i < 6; i++) {
        memcpy(f->pos + 3 * i, pos[i], sizeof pos[i]);
        const float v[3] = {1, 0, 0};
        memcpy(f->vel + 3 * i, v, sizeof v);
        f->perch[i] = i == 5 ? 10 : 0; /* boid 5 perches */
    }
    int32_t out[8];
    /* metric: ahead (1) then beside (3); behind (2) is in the blind cone, 4 is out of range */
    assert_int_equal(mur_flock_neighbours(f, 0, out, 8), 2);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 3);
    /* at most max written, the count still told */
    out[1] = -7;
    assert_int_equal(mur_flock_neighbours(f, 0, out, 1), 2);
    assert_int_equal(out[1], -7);
    /* a perching boid counts with perch_neighbours (the default) */
    mur_error err;
    assert_true(mur_flock_set(f, "perch_neighbours", "on", &err));
    assert_int_equal(mur_flock_neighbours(f, 0, out, 8), 3);
    assert_int_equal(out[0], 5);
    /* topological, topo_k 1: the nearest only; 1.5: the two nearest */
    assert_true(mur_flock_set(f, "neighbours", "topological", &err));
    assert_true(mur_flock_set(f, "topo_k", "1", &err));
    assert_int_equal(mur_flock_neighbours(f, 0, out, 8), 1);
    assert_int_equal(out[0], 5);
    assert_true(mur_flock_set(f, "topo_k", "1.5", &err));
    assert_int_equal(mur_flock_neighbours(f, 0, out, 8), 2);
    assert_int_equal(out[1], 1);
    /* all-round view: the boid behind is seen */
    assert_true(mur_flock_set(f, "view_angle", "360", &err));
    assert_true(mur_flock_set(f, "topo_k", "10", &err));
    assert_int_equal(mur_flock_neighbours(f, 0, out, 8), 4);
    assert_int_equal(mur_flock_neighbours(f, 6, out, 8), -1);
    assert_int_equal(mur_flock_neighbours(f, -1, out, 8), -1);
    mur_flock_destroy(f);
}

/* The biggest group's shape in mur_stats: a 4 x 2 x 8 lattice of spacing 1 (x, y, z: thin axis
 * vertical) flying +z, and a line of 10 boids far away flying -x. Extents of m points at spacing h:
 * h sqrt(m^2 - 1). */
static void biggest_group_shape(void **st)
{
    (void)st;
    mur_flock_def d = neutral_def(64 + 10);
    d.view_radius = 1.5f;
    mur_flock *f = make(&d);
    assert_int_equal(mur_flock_measure(f).group_size, 0); /* off by default */
    mur_flock_set_group_shape(f, true);
    int32_t i = 0;
    for (int z = 0; z < 8; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++, i++) {
                const float p[3] = {(float)x, 10.0f + (float)y, (float)z}, v[3] = {0, 0, 2};
                memcpy(f->pos + 3 * i, p, sizeof p);
                memcpy(f->vel + 3 * i, v, sizeof v);
            }
    for (int k = 0; k < 10; k++, i++) {
        const float p[3] = {50.0f + (float)k, 0, 0}, v[3] = {-1, 0, 0};
        memcpy(f->pos + 3 * i, p, sizeof p);
        memcpy(f->vel + 3 * i, v, sizeof v);
    }
    for (int threads = 1; threads <= 2; threads++) {
        mur_flock_set_threads(f, threads);
        const mur_stats s = mur_flock_measure(f);
        assert_true(s.metrics_valid);
        assert_int_equal(s.groups, 2);
        assert_int_equal(s.group_size, 64);
        assert_true(fabs(s.group_extent[0] - sqrt(3.0)) < 1e-4);  /* thin: y, 2 points */
        assert_true(fabs(s.group_extent[1] - sqrt(15.0)) < 1e-4); /* mid: x, 4 points */
        assert_true(fabs(s.group_extent[2] - sqrt(63.0)) < 1e-4); /* long: z, 8 points */
        assert_true(s.group_thin_angle < 0.01);
        assert_true(fabs(fabs(s.group_axis[0][1]) - 1.0) < 1e-6);
        assert_true(fabs(fabs(s.group_axis[2][2]) - 1.0) < 1e-6);
        assert_true(fabs(s.group_centre[0] - 1.5) < 1e-5 && fabs(s.group_centre[1] - 10.5) < 1e-5 &&
                    fabs(s.group_centre[2] - 3.5) < 1e-5);
        assert_true(fabs(s.group_polarisation - 1.0) < 1e-9);
    }
    mur_flock_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(knn_vs_brute_dense), cmocka_unit_test(knn_vs_brute_sparse),
        cmocka_unit_test(knn_vs_brute_lattice), cmocka_unit_test(knn_vs_brute_coincident),
        cmocka_unit_test(knn_vs_brute_shell), cmocka_unit_test(contacts_vs_brute_lattice),
        cmocka_unit_test(knn_vs_brute_spacing), cmocka_unit_test(knn_vs_brute_rod), cmocka_unit_test(public_neighbours_equal_grid),
        cmocka_unit_test(public_neighbours_by_hand), cmocka_unit_test(biggest_group_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
