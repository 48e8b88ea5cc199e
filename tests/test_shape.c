/* The snapshot shape measurements (src/sim/shape.c) on states whose answers are known by hand. */
#include "util.h"

#include "shape.h"

static const double PI = 3.14159265358979323846;

/* a small deterministic generator (splitmix64), uniform in [0, 1) */
static double urand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* uniform in the ball of radius r */
static void ball(uint64_t *s, double r, float *p)
{
    double x, y, z;
    do {
        x = 2 * urand(s) - 1;
        y = 2 * urand(s) - 1;
        z = 2 * urand(s) - 1;
    } while (x * x + y * y + z * z > 1.0);
    p[0] = (float)(r * x);
    p[1] = (float)(r * y);
    p[2] = (float)(r * z);
}

/* rotation: first about y by a, then about x by b (a tilt of the y axis by b) */
static void rotate(const double in[3], double a, double b, double out[3])
{
    double x = cos(a) * in[0] + sin(a) * in[2], y = in[1], z = -sin(a) * in[0] + cos(a) * in[2];
    out[0] = x;
    out[1] = cos(b) * y - sin(b) * z;
    out[2] = sin(b) * y + cos(b) * z;
}

/* a lattice nx*ny*nz with spacings sx,sy,sz starting at the origin; returns the count */
static int32_t lattice(float *p, int nx, int ny, int nz, double sx, double sy, double sz)
{
    int32_t n = 0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            for (int k = 0; k < nz; k++) {
                p[3 * n] = (float)(i * sx);
                p[3 * n + 1] = (float)(j * sy);
                p[3 * n + 2] = (float)(k * sz);
                n++;
            }
    return n;
}

static void fill_vel(float *v, int32_t n, float x, float y, float z)
{
    for (int32_t i = 0; i < n; i++) {
        v[3 * i] = x;
        v[3 * i + 1] = y;
        v[3 * i + 2] = z;
    }
}

static void eig3(void **state)
{
    (void)state;
    /* diag(1, 4, 9) rotated: the eigenvalues come back ascending, the vectors are the rotated axes */
    const double d[3] = {4, 1, 9}, a = 0.7, b = -0.4;
    double q[3][3], m[3][3] = {{0}};
    for (int k = 0; k < 3; k++) {
        double e[3] = {k == 0, k == 1, k == 2};
        rotate(e, a, b, q[k]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                m[i][j] += d[k] * q[k][i] * q[k][j];
    double val[3], vec[3][3];
    mur_shape_eig3(m, val, vec);
    assert_true(fabs(val[0] - 1) < 1e-12 && fabs(val[1] - 4) < 1e-12 && fabs(val[2] - 9) < 1e-12);
    /* val[0] = 1 belongs to the rotated y axis q[1] */
    double dot = vec[0][0] * q[1][0] + vec[0][1] * q[1][1] + vec[0][2] * q[1][2];
    assert_true(fabs(fabs(dot) - 1) < 1e-12);
}

/* a lattice box 6 (x) by 1 (y) by 3 (z), spun about y by 40 deg and tilted by 25 deg: extents 1:3:6 and the
 * thin axis (y) 25 deg from vertical (ranges exactly, extents by the lattice formula); all boids fly along the long axis: the velocity is 90 deg from thin */
static void extents_box(void **state)
{
    (void)state;
    const int32_t n = 25 * 5 * 13;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    lattice(p, 25, 5, 13, 0.25, 0.25, 0.25);
    const double a = 40 * PI / 180, b = 25 * PI / 180;
    for (int32_t i = 0; i < n; i++) {
        double in[3] = {p[3 * i] + 10.0, p[3 * i + 1] - 3.0, p[3 * i + 2]}, out[3];
        rotate(in, a, b, out);
        for (int c = 0; c < 3; c++)
            p[3 * i + c] = (float)out[c];
    }
    double x[3] = {1, 0, 0}, vx[3];
    rotate(x, a, b, vx);
    fill_vel(v, n, (float)(5 * vx[0]), (float)(5 * vx[1]), (float)(5 * vx[2]));
    mur_shape_axes ax;
    mur_shape_extents(p, v, n, &ax);
    assert_true(fabs(ax.range[0] - 1.0) < 1e-4);
    assert_true(fabs(ax.range[1] - 3.0) < 1e-4);
    assert_true(fabs(ax.range[2] - 6.0) < 1e-4);
    /* m points of spacing h: variance h^2 (m^2 - 1) / 12, extent h sqrt(m^2 - 1) */
    assert_true(fabs(ax.extent[0] - 0.25 * sqrt(24.0)) < 1e-4);
    assert_true(fabs(ax.extent[1] - 0.25 * sqrt(168.0)) < 1e-4);
    assert_true(fabs(ax.extent[2] - 0.25 * sqrt(624.0)) < 1e-4);
    assert_true(fabs(ax.thin_angle_deg - 25.0) < 1e-3);
    assert_true(fabs(ax.vel_thin_angle_deg - 90.0) < 1e-3);
    /* the long axis is the rotated x axis */
    assert_true(fabs(fabs(ax.axis[2][0] * vx[0] + ax.axis[2][1] * vx[1] + ax.axis[2][2] * vx[2]) - 1) < 1e-6);
    /* velocity along the thin axis instead: 0 deg */
    double y[3] = {0, 1, 0}, vy[3];
    rotate(y, a, b, vy);
    fill_vel(v, n, (float)vy[0], (float)vy[1], (float)vy[2]);
    mur_shape_extents(p, v, n, &ax);
    assert_true(ax.vel_thin_angle_deg < 1e-3);
    /* the diameter is the box diagonal sqrt(1 + 9 + 36) */
    assert_true(fabs(mur_shape_diameter(p, n) - sqrt(46.0)) < 1e-4);
    free(p);
    free(v);
}

static void polarisation(void **state)
{
    (void)state;
    float v[3 * 6];
    fill_vel(v, 6, 1, 2, 3);
    assert_true(fabs(mur_shape_polarisation(v, 6) - 1.0) < 1e-12);
    for (int i = 0; i < 3; i++) /* three opposed */
        for (int c = 0; c < 3; c++)
            v[3 * i + c] = -v[3 * i + c];
    assert_true(mur_shape_polarisation(v, 6) < 1e-12);
    /* different speeds do not matter, a resting boid is skipped: 2 of 3 moving boids aligned, 1 opposed */
    float w[12] = {0, 0, 5, 0, 0, 1, 0, 0, -7, 0, 0, 0};
    assert_true(fabs(mur_shape_polarisation(w, 4) - 1.0 / 3.0) < 1e-12);
}

static void speed_stats(void **state)
{
    (void)state;
    float v[3 * 8];
    for (int i = 0; i < 8; i++) { /* half at speed 1, half at 3 along different directions */
        double s = i < 4 ? 1.0 : 3.0, t = i * 0.7;
        v[3 * i] = (float)(s * cos(t));
        v[3 * i + 1] = 0.0f;
        v[3 * i + 2] = (float)(s * sin(t));
    }
    mur_shape_speed sp;
    mur_shape_speeds(v, 8, 1.0, 3.0, &sp);
    assert_true(fabs(sp.mean - 2.0) < 1e-6);
    assert_true(fabs(sp.cv - 0.5) < 1e-6); /* std 1 / mean 2 */
    assert_true(fabs(sp.at_limit_frac - 1.0) < 1e-12);
    mur_shape_speeds(v, 8, 0.5, 10.0, &sp);
    assert_true(sp.at_limit_frac == 0.0);
    /* within 0.1 % of max = 3.002: 3 counts; of max = 3.01: it does not */
    mur_shape_speeds(v, 8, 0.0, 3.002, &sp);
    assert_true(fabs(sp.at_limit_frac - 0.5) < 1e-12);
    mur_shape_speeds(v, 8, 0.0, 3.01, &sp);
    assert_true(sp.at_limit_frac == 0.0);
}

static void groups(void **state)
{
    (void)state;
    const int32_t lab[7] = {3, 3, 1, 1, 1, 2, 3};
    int32_t mem[7];
    /* labels 1 and 3 both have three members: the smaller label wins */
    assert_int_equal(mur_shape_biggest_group(lab, 7, mem), 3);
    assert_int_equal(mem[0], 2);
    assert_int_equal(mem[2], 4);
    assert_int_equal(mur_shape_biggest_group(NULL, 7, mem), 7);
    /* a chain 0-1-2 of links 0.9 and a pair 3-4 far away, one lone boid */
    const float p[18] = {0, 0, 0, 0.9f, 0, 0, 1.8f, 0, 0, 10, 0, 0, 10, 0.5f, 0, -20, 0, 0};
    int32_t l[6];
    assert_int_equal(mur_label_groups(p, 6, 1.0f, l, NULL), 3);
    assert_true(l[0] == 0 && l[1] == 0 && l[2] == 0 && l[3] == 3 && l[4] == 3 && l[5] == 5);
    assert_int_equal(mur_shape_biggest_group(l, 6, mem), 3);
    float g[9];
    mur_shape_gather(p, mem, 3, g);
    assert_true(g[3] == 0.9f && g[6] == 1.8f);
}

/* Brute force over pairs (the distance test of the metrics, in float): the reference labels. */
static int32_t brute_labels(const float *p, int32_t n, float link, int32_t *l)
{
    for (int32_t i = 0; i < n; i++)
        l[i] = i;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            const float dx = p[3 * j] - p[3 * i], dy = p[3 * j + 1] - p[3 * i + 1], dz = p[3 * j + 2] - p[3 * i + 2];
            if (dx * dx + dy * dy + dz * dz < link * link) {
                int32_t a = i, b = j;
                while (l[a] != a)
                    a = l[a];
                while (l[b] != b)
                    b = l[b];
                if (a < b)
                    l[b] = a;
                else if (b < a)
                    l[a] = b;
            }
        }
    int32_t groups = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t a = i;
        while (l[a] != a)
            a = l[a];
        l[i] = a;
        groups += a == i;
    }
    return groups;
}

/* mur_label_groups (the metrics' grid union-find) gives the brute-force labels: sparse and dense
 * clouds, clusters with coincident points and far stragglers, several link distances; bad
 * arguments are refused with a message. */
static void groups_vs_brute(void **state)
{
    (void)state;
    enum { N = 1500 };
    static float p[3 * N];
    static int32_t got[N], want[N];
    uint64_t seed = 7;
    for (int round = 0; round < 6; round++) {
        const double box = round < 3 ? 40.0 : 8.0;
        for (int32_t i = 0; i < N; i++) {
            if (round % 3 == 2 && i % 5 == 0 && i > 0) { /* a coincident partner */
                memcpy(p + 3 * i, p + 3 * (i - 1), 3 * sizeof(float));
                continue;
            }
            for (int a = 0; a < 3; a++)
                p[3 * i + a] = (float)(box * (urand(&seed) - 0.5) * (a == 1 ? 0.2 : 1.0));
        }
        p[0] = 5000.0f; /* a far straggler stretches the box */
        const float links[3] = {0.5f, 1.5f, 4.0f};
        for (int k = 0; k < 3; k++) {
            const int32_t g = mur_label_groups(p, N, links[k], got, NULL);
            assert_int_equal(g, brute_labels(p, N, links[k], want));
            for (int32_t i = 0; i < N; i++)
                assert_int_equal(got[i], want[i]);
        }
    }
    mur_error err = {{0}};
    assert_int_equal(mur_label_groups(p, N, 0.0f, got, &err), -1);
    assert_non_null(strstr(err.msg, "link distance 0"));
    p[7] = NAN;
    assert_int_equal(mur_label_groups(p, N, 1.0f, got, &err), -1);
    assert_non_null(strstr(err.msg, "point 2"));
    assert_int_equal(mur_label_groups(p, 0, 1.0f, got, NULL), 0);
}

static void knn_close_pairs(void **state)
{
    (void)state;
    /* a 10^3 lattice of spacing 1 and one boid planted 0.1 from boid 0: two boids of 1001 have a
     * neighbour closer than 0.3 * the mean nearest-neighbour distance (about 0.9982) */
    const int32_t n = 1001, k = 3;
    float *p = malloc((size_t)n * 3 * sizeof *p), *d = malloc((size_t)n * k * sizeof *d);
    int32_t *nb = malloc((size_t)n * k * sizeof *nb);
    lattice(p, 10, 10, 10, 1, 1, 1);
    p[3000] = 0.1f;
    p[3001] = p[3002] = 0.0f;
    assert_int_equal(mur_shape_knn(p, n, k, nb, d), 0);
    assert_int_equal(nb[0], 1000);
    assert_true(fabs(d[0] - 0.1) < 1e-6);
    /* boid 0 at the corner: after the planted one its neighbours at distance 1 are 1, 10 and 100 (ties by
     * index) */
    assert_int_equal(nb[1], 1);
    assert_int_equal(nb[2], 10);
    assert_true(fabs(d[1] - 1.0) < 1e-6);
    /* an interior boid: 6 at distance 1, the first three by index */
    const int32_t c = 5 * 100 + 5 * 10 + 5;
    assert_int_equal(nb[c * k], c - 100);
    assert_int_equal(nb[c * k + 1], c - 10);
    assert_int_equal(nb[c * k + 2], c - 1);
    assert_true(fabs(mur_shape_close_frac(d, n, k, 0.3) - 2.0 / 1001.0) < 1e-12);
    /* without the planted boid: nobody */
    assert_int_equal(mur_shape_knn(p, 1000, k, nb, d), 0);
    assert_true(mur_shape_close_frac(d, 1000, k, 0.3) == 0.0);
    free(p);
    free(d);
    free(nb);
}

/* isotropic random clouds: M_1 has eigenvalues near 1/3 and gamma(k) averages 1/3 over clouds (a single
 * cloud's W is a random direction, so one value can be anything in [0, 1]) */
static void gamma_isotropic(void **state)
{
    (void)state;
    const int32_t n = 800, k = 10, clouds = 40;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    float *d = malloc((size_t)n * k * sizeof *d);
    int32_t *nb = malloc((size_t)n * k * sizeof *nb);
    uint8_t *border = malloc((size_t)n);
    uint64_t s = 42;
    double mean[10] = {0}, gamma[10], lam[10];
    fill_vel(v, n, 0, 0, 4);
    for (int32_t c = 0; c < clouds; c++) {
        for (int32_t i = 0; i < n; i++)
            ball(&s, 10.0, p + 3 * i);
        mur_shape_axes ax;
        mur_shape_extents(p, v, n, &ax);
        assert_int_equal(mur_shape_knn(p, n, k, nb, d), 0);
        assert_int_equal(mur_shape_border(p, n, &ax, 0.2, border), 0);
        mur_shape_gamma(p, v, n, k, nb, border, gamma, lam);
        for (int j = 0; j < k; j++) {
            assert_true(gamma[j] >= 0.0 && gamma[j] <= 1.0);
            assert_true(lam[j] > 0.27 && lam[j] <= 1.0 / 3.0); /* the smallest of three near-equal ones */
            mean[j] += gamma[j] / clouds;
        }
    }
    for (int j = 0; j < k; j++)
        assert_true(fabs(mean[j] - 1.0 / 3.0) < 0.15);
    free(p);
    free(v);
    free(d);
    free(nb);
    free(border);
}

/* lattices whose near neighbours lie only beside (gamma = 1) or only ahead and behind (gamma = 0) */
static void gamma_lattice(void **state)
{
    (void)state;
    const int32_t n = 12 * 12 * 12, k = 4;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    float *d = malloc((size_t)n * k * sizeof *d);
    int32_t *nb = malloc((size_t)n * k * sizeof *nb);
    uint8_t *border = malloc((size_t)n);
    double gamma[4];
    fill_vel(v, n, 3, 0, 0); /* flying along x */
    lattice(p, 12, 12, 12, 2.0, 1.0, 1.0); /* the 4 nearest are in the y-z plane: none ahead */
    mur_shape_axes ax;
    mur_shape_extents(p, v, n, &ax);
    assert_int_equal(mur_shape_knn(p, n, k, nb, d), 0);
    assert_int_equal(mur_shape_border(p, n, &ax, 0.2, border), 0);
    mur_shape_gamma(p, v, n, k, nb, border, gamma, NULL);
    for (int j = 0; j < k; j++)
        assert_true(fabs(gamma[j] - 1.0) < 1e-9);
    lattice(p, 12, 12, 12, 1.0, 2.0, 2.0); /* the 2 nearest are ahead and behind */
    mur_shape_extents(p, v, n, &ax);
    assert_int_equal(mur_shape_knn(p, n, k, nb, d), 0);
    assert_int_equal(mur_shape_border(p, n, &ax, 0.2, border), 0);
    mur_shape_gamma(p, v, n, k, nb, border, gamma, NULL);
    assert_true(gamma[0] < 1e-9 && gamma[1] < 1e-9);
    /* no velocity: undefined */
    fill_vel(v, n, 0, 0, 0);
    mur_shape_gamma(p, v, n, k, nb, border, gamma, NULL);
    assert_true(gamma[0] == -1.0);
    free(p);
    free(v);
    free(d);
    free(nb);
    free(border);
}

static double border_ratio_of(const float *p, int32_t n, double frac)
{
    const int32_t k = 1;
    float *d = malloc((size_t)n * sizeof *d);
    int32_t *nb = malloc((size_t)n * sizeof *nb);
    uint8_t *border = malloc((size_t)n);
    mur_shape_axes ax;
    mur_shape_extents(p, NULL, n, &ax);
    assert_int_equal(mur_shape_knn(p, n, k, nb, d), 0);
    assert_int_equal(mur_shape_border(p, n, &ax, frac, border), 0);
    int32_t nbor = 0;
    for (int32_t i = 0; i < n; i++)
        nbor += border[i];
    assert_int_equal(nbor, (int32_t)ceil(frac * n - 1e-9));
    double r = mur_shape_border_ratio(d, n, k, border);
    free(d);
    free(nb);
    free(border);
    return r;
}

/* a uniform ball: the border is, if anything, sparser (no neighbours outside); a ball with a dense outer
 * shell: the border is denser */
static void border_birds(void **state)
{
    (void)state;
    const int32_t n = 3000;
    float *p = malloc((size_t)n * 3 * sizeof *p);
    uint64_t s = 7;
    for (int32_t i = 0; i < n; i++)
        ball(&s, 10.0, p + 3 * i);
    const double uniform = border_ratio_of(p, n, 0.2);
    assert_true(uniform > 0.95 && uniform < 1.3);
    /* 1500 uniform inside radius 9.5 and 1500 on the shell 9.5..10: the outer half is the shell */
    for (int32_t i = 0; i < n; i++) {
        float *q = p + 3 * i;
        if (i < 1500) {
            ball(&s, 9.5, q);
            continue;
        }
        double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2]);
        double r = 9.5 + 0.5 * urand(&s);
        for (int c = 0; c < 3; c++)
            q[c] = (float)(q[c] * r / l);
    }
    const double shell = border_ratio_of(p, n, 0.5);
    print_message("border ratio: uniform %.4f, dense shell %.4f\n", uniform, shell);
    assert_true(shell < 0.75);
    /* the border flags are the outer shell: every border boid is at least as far out as any other */
    uint8_t *b = malloc((size_t)n);
    mur_shape_axes ax;
    mur_shape_extents(p, NULL, n, &ax);
    assert_int_equal(mur_shape_border(p, n, &ax, 0.5, b), 0);
    double in_max = 0, out_min = 1e30;
    for (int32_t i = 0; i < n; i++) {
        double l = sqrt((double)p[3 * i] * p[3 * i] + (double)p[3 * i + 1] * p[3 * i + 1] +
                        (double)p[3 * i + 2] * p[3 * i + 2]);
        if (b[i])
            out_min = l < out_min ? l : out_min;
        else
            in_max = l > in_max ? l : in_max;
    }
    assert_true(out_min > 9.3 && in_max < 9.7); /* (the ball is near-spherical: rho ~ r) */
    free(b);
    free(p);
}

/* a rod of 60 x 2 x 2 boids, spacing 1; the two halves along the rod move with opposite fluctuations.
 * At offset d (integer) there are 60 - 2d same-half pairs and d cross pairs per line pair: C(r) crosses
 * zero at d = 20 = L/3 */
static void corr_halves(void **state)
{
    (void)state;
    const int32_t n = 60 * 2 * 2, bins = 40;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    lattice(p, 60, 2, 2, 1, 1, 1);
    for (int32_t i = 0; i < n; i++) {
        v[3 * i] = 0.0f;
        v[3 * i + 1] = p[3 * i] < 30 ? 1.0f : -1.0f;
        v[3 * i + 2] = 10.0f;
    }
    const double L = mur_shape_diameter(p, n);
    assert_true(fabs(L - sqrt(59.0 * 59.0 + 2.0)) < 1e-4);
    double c[40], r[40];
    double len = mur_shape_corr(p, v, n, 0, bins, L, c, r);
    assert_true(fabs(len - 20.0) < 1.0);
    assert_true(c[0] > 0.9 && c[bins - 1] < -0.9);
    /* size <= 0: computed */
    assert_true(fabs(mur_shape_corr(p, v, n, 0, bins, 0.0, c, r) - len) < 1e-12);
    /* all equal: no fluctuation, no crossing */
    fill_vel(v, n, 1, 2, 3);
    assert_true(mur_shape_corr(p, v, n, 1, bins, L, c, r) == -1.0);
    free(p);
    free(v);
}

/* a rigid rotation plus a dilatation plus a translation: nothing is left once they are removed */
static void rigid_removed(void **state)
{
    (void)state;
    const int32_t n = 500;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    double *u = malloc((size_t)n * 3 * sizeof *u);
    uint64_t s = 3;
    const double w[3] = {0.1, -0.3, 0.2}, sd = 0.05, t[3] = {4, 1, -2};
    for (int32_t i = 0; i < n; i++) {
        ball(&s, 20.0, p + 3 * i);
        p[3 * i] = p[3 * i] * 2.0f + 5.0f; /* not a sphere, not centred */
        const double r[3] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
        v[3 * i] = (float)(t[0] + w[1] * r[2] - w[2] * r[1] + sd * r[0]);
        v[3 * i + 1] = (float)(t[1] + w[2] * r[0] - w[0] * r[2] + sd * r[1]);
        v[3 * i + 2] = (float)(t[2] + w[0] * r[1] - w[1] * r[0] + sd * r[2]);
    }
    mur_shape_fluctuations(p, v, n, 1, u);
    double big = 0;
    for (int32_t i = 0; i < 3 * n; i++)
        big = fabs(u[i]) > big ? fabs(u[i]) : big;
    assert_true(big < 1e-4);
    /* only the mean removed: the rotation is still there */
    mur_shape_fluctuations(p, v, n, 0, u);
    big = 0;
    for (int32_t i = 0; i < 3 * n; i++)
        big = fabs(u[i]) > big ? fabs(u[i]) : big;
    assert_true(big > 1.0);
    free(p);
    free(v);
    free(u);
}

static void diameter_random(void **state)
{
    (void)state;
    const int32_t n = 700;
    float *p = malloc((size_t)n * 3 * sizeof *p);
    uint64_t s = 11;
    for (int32_t i = 0; i < n; i++) {
        ball(&s, 5.0, p + 3 * i);
        p[3 * i + 1] *= 0.3f;
    }
    double best = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            double dx = (double)p[3 * j] - p[3 * i], dy = (double)p[3 * j + 1] - p[3 * i + 1],
                   dz = (double)p[3 * j + 2] - p[3 * i + 2];
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            best = d > best ? d : best;
        }
    assert_true(mur_shape_diameter(p, n) == best);
    free(p);
}

/* everything at once: a big cluster and a small one; the row describes the big one */
static void measure(void **state)
{
    (void)state;
    const int32_t big = 12 * 6 * 3, n = big + 20;
    float *p = malloc((size_t)n * 3 * sizeof *p), *v = malloc((size_t)n * 3 * sizeof *v);
    lattice(p, 12, 3, 6, 1, 1, 1); /* 11 x 2 x 5 */
    for (int32_t i = big; i < n; i++) {
        p[3 * i] = 100.0f + (float)(i - big);
        p[3 * i + 1] = p[3 * i + 2] = 0.0f;
    }
    fill_vel(v, n, 0, 0, 7);
    mur_shape_opts o = mur_shape_default_opts();
    o.link = 1.5f;
    o.min_speed = 6.0;
    o.max_speed = 7.0;
    mur_shape_row row;
    assert_int_equal(mur_shape_measure(p, v, n, NULL, &o, &row), 0);
    assert_int_equal(row.group_size, big);
    assert_true(fabs(row.thin - sqrt(8.0)) < 1e-4 && fabs(row.mid - sqrt(35.0)) < 1e-4 &&
                fabs(row.lng - sqrt(143.0)) < 1e-4);
    assert_true(fabs(row.thin_angle_deg) < 1e-3 && fabs(row.vel_thin_angle_deg - 90) < 1e-3);
    assert_true(fabs(row.group_polarisation - 1) < 1e-12 && fabs(row.speed_mean - 7) < 1e-6);
    assert_true(row.speed_cv < 1e-6 && row.at_limit_frac == 1.0 && row.close_frac == 0.0);
    assert_true(fabs(row.flock_size - sqrt(121.0 + 4 + 25)) < 1e-4);
    assert_true(row.corr_len == -1.0); /* no fluctuations */
    char buf[1024];
    int len = mur_shape_format_row(&row, buf, sizeof buf);
    assert_true(len > 0 && len < (int)sizeof buf);
    int commas = 0, cols = 1;
    for (const char *c = buf; *c; c++)
        commas += *c == ',';
    for (const char *c = MUR_SHAPE_COLUMNS; *c; c++)
        cols += *c == ',';
    assert_int_equal(commas + 1, cols);
    /* given labels win over link; a group too small for 10 neighbours is refused */
    int32_t *lab = calloc((size_t)n, sizeof *lab);
    for (int32_t i = 0; i < 11; i++)
        lab[i] = 1;
    for (int32_t i = 11; i < n; i++)
        lab[i] = i;
    assert_int_equal(mur_shape_measure(p, v, n, lab, &o, &row), -2);
    assert_int_equal(row.group_size, 11);
    free(lab);
    free(p);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eig3),
        cmocka_unit_test(extents_box),
        cmocka_unit_test(polarisation),
        cmocka_unit_test(speed_stats),
        cmocka_unit_test(groups), cmocka_unit_test(groups_vs_brute),
        cmocka_unit_test(knn_close_pairs),
        cmocka_unit_test(gamma_isotropic),
        cmocka_unit_test(gamma_lattice),
        cmocka_unit_test(border_birds),
        cmocka_unit_test(corr_halves),
        cmocka_unit_test(rigid_removed),
        cmocka_unit_test(diameter_random),
        cmocka_unit_test(measure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
