/* Shape and structure measurements of a flock snapshot: definitions in shape.h. */
#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define PAIR_LIMIT 10000 /* all pairs up to this many boids in mur_shape_corr */

static const double RAD2DEG = 360.0 / MUR_TWO_PI;

/* ---- groups ---------------------------------------------------------------------------------- */

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int32_t mur_shape_biggest_group(const int32_t *label, int32_t n, int32_t *members)
{
    if (!label || n == 0) {
        for (int32_t i = 0; i < n; i++)
            members[i] = i;
        return n;
    }
    /* sort a copy of the labels (in members), then find the longest run: the smallest label wins ties */
    memcpy(members, label, (size_t)n * sizeof *members);
    qsort(members, (size_t)n, sizeof *members, cmp_i32);
    int32_t best = members[0], best_count = 0;
    for (int32_t i = 0; i < n;) {
        int32_t j = i;
        while (j < n && members[j] == members[i])
            j++;
        if (j - i > best_count) {
            best_count = j - i;
            best = members[i];
        }
        i = j;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (label[i] == best)
            members[m++] = i;
    return m;
}

void mur_shape_gather(const float *src, const int32_t *members, int32_t m, float *dst)
{
    for (int32_t i = 0; i < m; i++)
        memcpy(dst + 3 * i, src + 3 * (size_t)members[i], 3 * sizeof *dst);
}

/* ---- principal axes -------------------------------------------------------------------------- */

void mur_shape_eig3(double a_in[3][3], double val[3], double vec[3][3])
{
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    memcpy(a, a_in, sizeof a);
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-300 || off <= 1e-15 * diag)
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0.0)
                    continue;
                /* rotation that zeroes a[p][q] (Golub & Van Loan's symmetric Schur step) */
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) { /* A <- A J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* A <- J^T A */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) { /* columns of V are the eigenvectors */
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int idx[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++) /* ascending, stable */
        for (int j = 0; j + 1 < 3 - i; j++)
            if (a[idx[j]][idx[j]] > a[idx[j + 1]][idx[j + 1]]) {
                int t = idx[j];
                idx[j] = idx[j + 1];
                idx[j + 1] = t;
            }
    for (int k = 0; k < 3; k++) {
        val[k] = a[idx[k]][idx[k]];
        for (int c = 0; c < 3; c++)
            vec[k][c] = v[c][idx[k]];
        /* a fixed sign: the largest component positive (ties: the first) */
        int big = 0;
        for (int c = 1; c < 3; c++)
            if (fabs(vec[k][c]) > fabs(vec[k][big]))
                big = c;
        if (vec[k][big] < 0)
            for (int c = 0; c < 3; c++)
                vec[k][c] = -vec[k][c];
    }
}

void mur_eigen_sym3(double a[3][3], double val[3], double vec[3][3])
{
    mur_shape_eig3(a, val, vec);
}

static void centroid(const float *pos, int32_t n, double c[3])
{
    double s[3] = {0, 0, 0};
    for (int32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            s[a] += pos[3 * i + a];
    for (int a = 0; a < 3; a++)
        c[a] = n > 0 ? s[a] / n : 0.0;
}

static double mean_vel(const float *vel, int32_t n, double m[3])
{
    centroid(vel, n, m);
    return sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
}

static double axis_angle_deg(const double axis[3], const double dir[3])
{
    double l = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    double c = fabs(axis[0] * dir[0] + axis[1] * dir[1] + axis[2] * dir[2]) / l;
    return acos(c > 1.0 ? 1.0 : c) * RAD2DEG;
}

void mur_shape_extents(const float *pos, const float *vel, int32_t n, mur_shape_axes *out)
{
    memset(out, 0, sizeof *out);
    centroid(pos, n, out->centre);
    double cov[3][3] = {{0}};
    for (int32_t i = 0; i < n; i++) {
        double d[3];
        for (int a = 0; a < 3; a++)
            d[a] = pos[3 * i + a] - out->centre[a];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                cov[a][b] += d[a] * d[b];
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            cov[a][b] /= n;
    mur_shape_eig3(cov, out->eigval, out->axis);
    for (int k = 0; k < 3; k++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int32_t i = 0; i < n; i++) {
            double x = 0.0;
            for (int a = 0; a < 3; a++)
                x += (pos[3 * i + a] - out->centre[a]) * out->axis[k][a];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        out->range[k] = hi - lo;
        out->extent[k] = 2.0 * sqrt(3.0 * (out->eigval[k] > 0.0 ? out->eigval[k] : 0.0));
    }
    const double up[3] = {0, 1, 0};
    out->thin_angle_deg = axis_angle_deg(out->axis[0], up);
    double mv[3];
    out->vel_thin_angle_deg = -1.0;
    if (vel && mean_vel(vel, n, mv) > 0.0)
        out->vel_thin_angle_deg = axis_angle_deg(out->axis[0], mv);
}

/* ---- velocities ------------------------------------------------------------------------------ */

double mur_shape_polarisation(const float *vel, int32_t n)
{
    double s[3] = {0, 0, 0};
    int32_t moving = 0;
    for (int32_t i = 0; i < n; i++) {
        double x = vel[3 * i], y = vel[3 * i + 1], z = vel[3 * i + 2];
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.0) {
            s[0] += x / l;
            s[1] += y / l;
            s[2] += z / l;
            moving++;
        }
    }
    return moving ? sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) / moving : 0.0;
}

void mur_shape_speeds(const float *vel, int32_t n, double min_speed, double max_speed, mur_shape_speed *out)
{
    double s = 0.0, s2 = 0.0;
    int32_t at = 0;
    for (int32_t i = 0; i < n; i++) {
        double x = vel[3 * i], y = vel[3 * i + 1], z = vel[3 * i + 2];
        double l = sqrt(x * x + y * y + z * z);
        s += l;
        if (l <= min_speed * (1.0 + 1e-3) || l >= max_speed * (1.0 - 1e-3))
            at++;
    }
    out->mean = n ? s / n : 0.0;
    for (int32_t i = 0; i < n; i++) { /* two passes: no cancellation */
        double x = vel[3 * i], y = vel[3 * i + 1], z = vel[3 * i + 2];
        double d = sqrt(x * x + y * y + z * z) - out->mean;
        s2 += d * d;
    }
    out->cv = out->mean > 0.0 ? sqrt(s2 / n) / out->mean : 0.0;
    out->at_limit_frac = n ? (double)at / n : 0.0;
}

/* ---- neighbours ------------------------------------------------------------------------------ */

int mur_shape_knn(const float *pos, int32_t n, int32_t k, int32_t *nbr, float *dist)
{
    double *d2 = malloc((size_t)k * sizeof *d2);
    if (!d2)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t *ni = nbr + (size_t)i * k;
        int32_t have = 0;
        const double px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2];
        for (int32_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            double dx = pos[3 * j] - px, dy = pos[3 * j + 1] - py, dz = pos[3 * j + 2] - pz;
            double e = dx * dx + dy * dy + dz * dz;
            if (have == k && e >= d2[k - 1])
                continue; /* equal distance: the smaller index (seen first) stays */
            int32_t at = have < k ? have++ : k - 1;
            while (at > 0 && d2[at - 1] > e) {
                d2[at] = d2[at - 1];
                ni[at] = ni[at - 1];
                at--;
            }
            d2[at] = e;
            ni[at] = j;
        }
        for (int32_t j = 0; j < k; j++)
            dist[(size_t)i * k + j] = (float)sqrt(d2[j]);
    }
    free(d2);
    return 0;
}

double mur_shape_close_frac(const float *dist, int32_t n, int32_t k, double factor)
{
    if (n == 0)
        return 0.0;
    double s = 0.0;
    for (int32_t i = 0; i < n; i++)
        s += dist[(size_t)i * k];
    const double cut = factor * s / n;
    int32_t close = 0;
    for (int32_t i = 0; i < n; i++)
        close += dist[(size_t)i * k] < cut;
    return (double)close / n;
}

typedef struct rho_idx {
    double rho;
    int32_t i;
} rho_idx;

static int cmp_rho_desc(const void *a, const void *b)
{
    const rho_idx *x = a, *y = b;
    if (x->rho != y->rho)
        return x->rho < y->rho ? 1 : -1;
    return (x->i > y->i) - (x->i < y->i);
}

int mur_shape_border(const float *pos, int32_t n, const mur_shape_axes *ax, double frac, uint8_t *border)
{
    rho_idx *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    if (!r)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        double q = 0.0;
        for (int k = 0; k < 3; k++) {
            double x = 0.0;
            for (int a = 0; a < 3; a++)
                x += (pos[3 * i + a] - ax->centre[a]) * ax->axis[k][a];
            double var = ax->eigval[k] > 1e-30 ? ax->eigval[k] : 1e-30;
            q += x * x / var;
        }
        r[i].rho = sqrt(q);
        r[i].i = i;
        border[i] = 0;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_rho_desc);
    int32_t nb = (int32_t)ceil(frac * n - 1e-9);
    nb = nb < 0 ? 0 : nb > n ? n : nb;
    for (int32_t j = 0; j < nb; j++)
        border[r[j].i] = 1;
    free(r);
    return 0;
}

double mur_shape_border_ratio(const float *dist, int32_t n, int32_t k, const uint8_t *border)
{
    double sb = 0.0, si = 0.0;
    int32_t nb = 0, ni = 0;
    for (int32_t i = 0; i < n; i++) {
        if (border[i]) {
            sb += dist[(size_t)i * k];
            nb++;
        } else {
            si += dist[(size_t)i * k];
            ni++;
        }
    }
    if (nb == 0 || ni == 0 || si <= 0.0)
        return -1.0;
    return (sb / nb) / (si / ni);
}

void mur_shape_gamma(const float *pos, const float *vel, int32_t n, int32_t k, const int32_t *nbr,
                     const uint8_t *border, double *gamma, double *lam_min)
{
    double mv[3];
    const double speed = mean_vel(vel, n, mv);
    for (int32_t j = 0; j < k; j++) {
        double m[3][3] = {{0}};
        int32_t focal = 0;
        for (int32_t i = 0; i < n; i++) {
            if (border && border[i])
                continue;
            const int32_t o = nbr[(size_t)i * k + j];
            double u[3];
            for (int a = 0; a < 3; a++)
                u[a] = (double)pos[3 * o + a] - pos[3 * i + a];
            double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            if (l <= 0.0)
                continue; /* coincident boids have no direction */
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    m[a][b] += u[a] * u[b] / (l * l);
            focal++;
        }
        gamma[j] = -1.0;
        if (lam_min)
            lam_min[j] = -1.0;
        if (focal == 0 || speed <= 0.0)
            continue;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                m[a][b] /= focal;
        double val[3], vec[3][3];
        mur_shape_eig3(m, val, vec);
        double d = (vec[0][0] * mv[0] + vec[0][1] * mv[1] + vec[0][2] * mv[2]) / speed;
        gamma[j] = d * d;
        if (lam_min)
            lam_min[j] = val[0];
    }
}

/* ---- correlations ---------------------------------------------------------------------------- */

double mur_shape_diameter(const float *pos, int32_t n)
{
    if (n < 2)
        return 0.0;
    double c[3];
    centroid(pos, n, c);
    rho_idx *r = malloc((size_t)n * sizeof *r);
    if (!r) { /* plain O(N^2) without scratch */
        double best = 0.0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = i + 1; j < n; j++) {
                double dx = (double)pos[3 * j] - pos[3 * i], dy = (double)pos[3 * j + 1] - pos[3 * i + 1],
                       dz = (double)pos[3 * j + 2] - pos[3 * i + 2];
                double d = sqrt(dx * dx + dy * dy + dz * dz);
                best = d > best ? d : best;
            }
        return best;
    }
    for (int32_t i = 0; i < n; i++) {
        double dx = pos[3 * i] - c[0], dy = pos[3 * i + 1] - c[1], dz = pos[3 * i + 2] - c[2];
        r[i].rho = sqrt(dx * dx + dy * dy + dz * dz);
        r[i].i = i;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_rho_desc);
    /* |p_a - p_b| <= rho_a + rho_b: scan from the outside in and stop once no pair can beat the best */
    double best = 0.0;
    for (int32_t a = 0; a < n && 2.0 * r[a].rho > best * (1.0 - 1e-12); a++)
        for (int32_t b = a + 1; b < n && r[a].rho + r[b].rho > best * (1.0 - 1e-12); b++) {
            const float *p = pos + 3 * r[a].i, *q = pos + 3 * r[b].i;
            double dx = (double)q[0] - p[0], dy = (double)q[1] - p[1], dz = (double)q[2] - p[2];
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            best = d > best ? d : best;
        }
    free(r);
    return best;
}

void mur_shape_fluctuations(const float *pos, const float *vel, int32_t n, int remove_rigid, double *u)
{
    double mv[3], c[3];
    mean_vel(vel, n, mv);
    centroid(pos, n, c);
    for (int32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            u[3 * i + a] = vel[3 * i + a] - mv[a];
    if (!remove_rigid)
        return;
    /* rotation: inertia I = sum(|r|^2 E - r r^T), I w = sum r x u (least squares of u - w x r) */
    double in[3][3] = {{0}}, l[3] = {0, 0, 0}, rr = 0.0, ru = 0.0;
    for (int32_t i = 0; i < n; i++) {
        double r[3] = {pos[3 * i] - c[0], pos[3 * i + 1] - c[1], pos[3 * i + 2] - c[2]};
        const double *ui = u + 3 * i;
        double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                in[a][b] += (a == b ? r2 : 0.0) - r[a] * r[b];
        l[0] += r[1] * ui[2] - r[2] * ui[1];
        l[1] += r[2] * ui[0] - r[0] * ui[2];
        l[2] += r[0] * ui[1] - r[1] * ui[0];
        rr += r2;
        ru += r[0] * ui[0] + r[1] * ui[1] + r[2] * ui[2];
    }
    /* solve through the eigen-decomposition (a flat or collinear group has a singular direction) */
    double val[3], vec[3][3], w[3] = {0, 0, 0};
    mur_shape_eig3(in, val, vec);
    for (int k = 0; k < 3; k++) {
        if (val[k] <= 1e-12 * (val[2] > 0 ? val[2] : 1.0))
            continue;
        double p = (vec[k][0] * l[0] + vec[k][1] * l[1] + vec[k][2] * l[2]) / val[k];
        for (int a = 0; a < 3; a++)
            w[a] += p * vec[k][a];
    }
    const double s = rr > 0.0 ? ru / rr : 0.0; /* dilatation rate; r.(w x r) = 0: the fits are independent */
    for (int32_t i = 0; i < n; i++) {
        double r[3] = {pos[3 * i] - c[0], pos[3 * i + 1] - c[1], pos[3 * i + 2] - c[2]};
        double *ui = u + 3 * i;
        ui[0] -= w[1] * r[2] - w[2] * r[1] + s * r[0];
        ui[1] -= w[2] * r[0] - w[0] * r[2] + s * r[1];
        ui[2] -= w[0] * r[1] - w[1] * r[0] + s * r[2];
    }
}

double mur_shape_corr(const float *pos, const float *vel, int32_t n, int remove_rigid, int32_t nbins,
                      double size, double *c, double *r)
{
    if (size <= 0.0)
        size = mur_shape_diameter(pos, n);
    double *u = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof *u);
    double *cnt = calloc((size_t)nbins, sizeof *cnt);
    if (!u || !cnt) {
        free(u);
        free(cnt);
        return -2.0;
    }
    mur_shape_fluctuations(pos, vel, n, remove_rigid, u);
    double c0 = 0.0;
    for (int32_t i = 0; i < 3 * n; i++)
        c0 += u[i] * u[i];
    c0 = n ? c0 / n : 0.0;
    for (int32_t b = 0; b < nbins; b++) {
        c[b] = 0.0;
        r[b] = (b + 0.5) * size / nbins;
    }
    /* beyond PAIR_LIMIT boids: only the pairs with (i + j) % stride == 0, about 1/stride of them */
    const int32_t stride = n > PAIR_LIMIT ? (n + PAIR_LIMIT - 1) / PAIR_LIMIT : 1;
    const double scale = size > 0.0 ? nbins / size : 0.0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            if (stride > 1 && (i + j) % stride)
                continue;
            double dx = (double)pos[3 * j] - pos[3 * i], dy = (double)pos[3 * j + 1] - pos[3 * i + 1],
                   dz = (double)pos[3 * j + 2] - pos[3 * i + 2];
            int32_t b = (int32_t)(sqrt(dx * dx + dy * dy + dz * dz) * scale);
            b = b >= nbins ? nbins - 1 : b; /* the diameter pair itself */
            c[b] += u[3 * i] * u[3 * j] + u[3 * i + 1] * u[3 * j + 1] + u[3 * i + 2] * u[3 * j + 2];
            cnt[b] += 1.0;
        }
    for (int32_t b = 0; b < nbins; b++)
        c[b] = cnt[b] > 0.0 && c0 > 0.0 ? c[b] / cnt[b] / c0 : 0.0;
    double len = -1.0;
    int32_t prev = -1; /* the previous non-empty bin */
    for (int32_t b = 0; b < nbins && c0 > 0.0; b++) {
        if (cnt[b] == 0.0)
            continue;
        if (c[b] <= 0.0) {
            if (prev < 0)
                len = r[b]; /* negative from the first bin on */
            else
                len = r[prev] + (r[b] - r[prev]) * c[prev] / (c[prev] - c[b]);
            break;
        }
        prev = b;
    }
    free(u);
    free(cnt);
    return len;
}

/* ---- everything ------------------------------------------------------------------------------ */

mur_shape_opts mur_shape_default_opts(void)
{
    mur_shape_opts o = {0.0f, 0.0, INFINITY, 0.3, 0.2, 40, 1};
    return o;
}

int mur_shape_measure(const float *pos, const float *vel, int32_t n, const int32_t *label,
                      const mur_shape_opts *opts, mur_shape_row *out)
{
    memset(out, 0, sizeof *out);
    const int32_t k = MUR_SHAPE_KMAX;
    int32_t *lab = NULL, *mem = malloc((size_t)(n > 0 ? n : 1) * sizeof *mem);
    if (!mem)
        return -1;
    if (!label && opts->link > 0.0f) {
        lab = malloc((size_t)(n > 0 ? n : 1) * sizeof *lab);
        if (!lab || mur_label_groups(pos, n, opts->link, lab, NULL) < 0) {
            free(lab);
            free(mem);
            return -1;
        }
        label = lab;
    }
    const int32_t m = mur_shape_biggest_group(label, n, mem);
    free(lab);
    out->group_size = m;
    if (m < k + 2) {
        free(mem);
        return -2;
    }
    float *gp = malloc((size_t)m * 3 * sizeof *gp), *gv = malloc((size_t)m * 3 * sizeof *gv);
    float *dist = malloc((size_t)m * k * sizeof *dist);
    int32_t *nbr = malloc((size_t)m * k * sizeof *nbr);
    uint8_t *border = malloc((size_t)m);
    double *cb = malloc((size_t)opts->corr_bins * 2 * sizeof *cb);
    int rc = -1;
    if (!gp || !gv || !dist || !nbr || !border || !cb)
        goto done;
    mur_shape_gather(pos, mem, m, gp);
    mur_shape_gather(vel, mem, m, gv);
    mur_shape_axes ax;
    mur_shape_extents(gp, gv, m, &ax);
    out->thin = ax.extent[0];
    out->mid = ax.extent[1];
    out->lng = ax.extent[2];
    out->thin_angle_deg = ax.thin_angle_deg;
    out->vel_thin_angle_deg = ax.vel_thin_angle_deg;
    out->group_polarisation = mur_shape_polarisation(gv, m);
    mur_shape_speed sp;
    mur_shape_speeds(gv, m, opts->min_speed, opts->max_speed, &sp);
    out->speed_mean = sp.mean;
    out->speed_cv = sp.cv;
    out->at_limit_frac = sp.at_limit_frac;
    if (mur_shape_knn(gp, m, k, nbr, dist) || mur_shape_border(gp, m, &ax, opts->border_frac, border))
        goto done;
    out->close_frac = mur_shape_close_frac(dist, m, k, opts->close_factor);
    out->border_ratio = mur_shape_border_ratio(dist, m, k, border);
    mur_shape_gamma(gp, gv, m, k, nbr, border, out->gamma, NULL);
    out->flock_size = mur_shape_diameter(gp, m);
    out->corr_len = mur_shape_corr(gp, gv, m, opts->remove_rigid, opts->corr_bins, out->flock_size, cb,
                                   cb + opts->corr_bins);
    rc = out->corr_len == -2.0 ? -1 : 0;
done:
    free(gp);
    free(gv);
    free(dist);
    free(nbr);
    free(border);
    free(cb);
    free(mem);
    return rc;
}

int mur_shape_format_row(const mur_shape_row *w, char *buf, int len)
{
    int o = snprintf(buf, (size_t)len, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", w->thin, w->mid,
                     w->lng, w->thin_angle_deg, w->vel_thin_angle_deg, w->group_polarisation, w->speed_mean,
                     w->speed_cv, w->at_limit_frac, w->close_frac);
    for (int j = 0; j < MUR_SHAPE_KMAX; j++)
        o += snprintf(buf + (o < len ? o : len), (size_t)(o < len ? len - o : 0), ",%.9g", w->gamma[j]);
    o += snprintf(buf + (o < len ? o : len), (size_t)(o < len ? len - o : 0), ",%.9g,%.9g,%.9g,%d",
                  w->border_ratio, w->corr_len, w->flock_size, (int)w->group_size);
    return o;
}
