/* Shape and structure measurements of a flock snapshot, for comparing murmur with starling field data
 * (Ballerini et al. 2008, Cavagna et al. 2010). Pure functions over plain arrays: pos and vel hold
 * 3 floats per boid (x, y, z; y is up). Nothing here touches mur_flock; everything is deterministic
 * (fixed loop order, double sums, index tie-breaks) and meant for snapshot time, not for the tick.
 *
 * Definitions (docs/murmuration.md repeats them for users):
 *  - group: a set of boids given by a label per boid; the biggest group is the label with the most
 *    members (ties: the smallest label). mur_label_groups (murmur.h) makes labels as murmur's groups
 *    metric does: connected components of "closer than link".
 *  - extents: eigen-decomposition of the position covariance C = mean (p - c)(p - c)^T, eigenvalues
 *    lambda_thin <= lambda_mid <= lambda_long. The extent along an axis is 2 * sqrt(3 * lambda): the
 *    side of the filled box with that variance (exact for a uniform box; a lattice of m points of
 *    spacing h gives h * sqrt(m^2 - 1)). It is ordered like the eigenvalues and robust to stragglers;
 *    the ratios compare with Ballerini's thickness:width:length 1:2.8:5.6 (sizes along the principal
 *    axes). range[] also gives max - min of the projections (outlier-sensitive, not ordered).
 *    thin_angle: angle between the thin axis and vertical (0..90 deg);
 *    vel_thin_angle: angle between the mean velocity and the thin axis (0..90 deg; 90 = the flock
 *    moves in its own plane).
 *  - polarisation: |mean of v_i/|v_i||, boids with zero speed skipped.
 *  - speed: mean, coefficient of variation (population std / mean), fraction at a limit: speed
 *    <= min*(1 + 0.001) or >= max*(1 - 0.001).
 *  - close pairs: fraction of boids whose nearest neighbour is closer than 0.3 * the group's mean
 *    nearest-neighbour distance.
 *  - border: each boid's ellipsoidal radius rho_i = sqrt(sum_a (x_a / sqrt(lambda_a))^2), x in the
 *    principal frame (the flock "sphered"); the border is the outer shell: the ceil(frac * n) boids
 *    with the largest rho (ties by index). border_ratio = mean NN distance of border boids / mean NN
 *    distance of the others (< 1: border denser, as in starlings).
 *  - gamma(k) (Ballerini et al. 2008, PNAS): for every interior focal boid i, u_i = unit vector to
 *    its k-th nearest neighbour (neighbours from the whole group). M_k = mean u_i u_i^T; W_k = the
 *    eigenvector of M_k with the smallest eigenvalue (the direction where the k-th neighbour is
 *    least likely); gamma_k = (W_k . V)^2, V = unit mean velocity of the group. An isotropic
 *    neighbourhood gives a random W, hence 1/3 on average; starlings give ~0.8-0.9 at k = 1 (no
 *    neighbour in front or behind), falling to 1/3 by k = 6-7. Border handling: border boids
 *    (above) are not focal boids (Ballerini et al. used the Hanisch correction: a deviation).
 *  - velocity correlation (Cavagna et al. 2010): u_i = v_i - mean v, then (remove_rigid) minus the
 *    best-fit rigid rotation w x r_i and dilatation s r_i (r_i = p_i - c; the three fields are
 *    orthogonal, so they are removed one after the other). C(r) = sum_{i<j in bin} u_i.u_j /
 *    (pairs in bin) / c0, c0 = mean u_i.u_i, over nbins equal bins of [0, L]. corr_len = the first
 *    zero crossing of C(r), linearly interpolated between bin centres (-1 if C never crosses).
 *    L = flock size = the group's diameter (largest pair distance). All pairs for n <= 10000;
 *    above, each boid pairs with a fixed deterministic stride subset (documented in shape.c). */
#ifndef MUR_SHAPE_H
#define MUR_SHAPE_H

#include <stdint.h>

#define MUR_SHAPE_KMAX 10

typedef struct mur_shape_axes {
    double centre[3];
    double eigval[3];  /* covariance eigenvalues, ascending: thin, mid, long */
    double axis[3][3]; /* unit axes: axis[0] thin, axis[1] mid, axis[2] long */
    double extent[3];  /* 2 sqrt(3 lambda) along thin, mid, long */
    double range[3];   /* max - min of the projections on thin, mid, long */
    double thin_angle_deg;
    double vel_thin_angle_deg; /* -1 if the mean velocity is zero */
} mur_shape_axes;

typedef struct mur_shape_speed {
    double mean, cv, at_limit_frac;
} mur_shape_speed;

/* One CSV row of docs/murmuration/run.py (columns in this order; see MUR_SHAPE_COLUMNS). */
typedef struct mur_shape_row {
    double thin, mid, lng, thin_angle_deg, vel_thin_angle_deg;
    double group_polarisation, speed_mean, speed_cv, at_limit_frac, close_frac;
    double gamma[MUR_SHAPE_KMAX];
    double border_ratio, corr_len, flock_size;
    int32_t group_size;
} mur_shape_row;

#define MUR_SHAPE_COLUMNS                                                                          \
    "thin,mid,long,thin_angle_deg,vel_thin_angle_deg,group_polarisation,speed_mean,speed_cv,"     \
    "at_limit_frac,close_frac,gamma1,gamma2,gamma3,gamma4,gamma5,gamma6,gamma7,gamma8,gamma9,"    \
    "gamma10,border_ratio,corr_len,flock_size,group_size"


/* Indices (ascending) of the biggest group into members (room for n); returns its size. label NULL:
 * every boid. */
int32_t mur_shape_biggest_group(const int32_t *label, int32_t n, int32_t *members);

/* Copies the boids listed in members into contiguous arrays (3 floats each). */
void mur_shape_gather(const float *src, const int32_t *members, int32_t m, float *dst);

/* Principal axes and extents; vel may be NULL (vel_thin_angle_deg = -1). n >= 1. */
void mur_shape_extents(const float *pos, const float *vel, int32_t n, mur_shape_axes *out);

/* Eigen-decomposition of a symmetric 3x3 matrix (cyclic Jacobi): eigenvalues ascending, vec[k] is the
 * unit eigenvector of val[k]. */
void mur_shape_eig3(double a[3][3], double val[3], double vec[3][3]); /* a is not modified */

double mur_shape_polarisation(const float *vel, int32_t n);

void mur_shape_speeds(const float *vel, int32_t n, double min_speed, double max_speed, mur_shape_speed *out);

/* The k nearest neighbours of every boid (brute force, ascending distance, ties by index): nbr[i*k + j]
 * and dist[i*k + j] for j < k. Needs n > k. Returns 0, or -1 if out of memory. */
int mur_shape_knn(const float *pos, int32_t n, int32_t k, int32_t *nbr, float *dist);

/* Fraction of boids whose nearest neighbour (column 0 of a k-wide table) is closer than factor * mean. */
double mur_shape_close_frac(const float *dist, int32_t n, int32_t k, double factor);

/* Marks the outer shell (see above): border[i] = 1 for the ceil(frac*n) boids of largest rho. Returns
 * 0, or -1 if out of memory. */
int mur_shape_border(const float *pos, int32_t n, const mur_shape_axes *ax, double frac, uint8_t *border);

/* Mean NN distance of border boids over that of interior boids (-1 if either set is empty). */
double mur_shape_border_ratio(const float *dist, int32_t n, int32_t k, const uint8_t *border);

/* gamma[j] for neighbour rank j+1, j < k, over focal boids with border[i] == 0 (border NULL: all);
 * lam_min[j] (may be NULL) = smallest eigenvalue of M_{j+1}. Values are -1 when undefined (no focal
 * boid or zero mean velocity). */
void mur_shape_gamma(const float *pos, const float *vel, int32_t n, int32_t k, const int32_t *nbr,
                     const uint8_t *border, double *gamma, double *lam_min);

/* Largest pair distance (exact; pruned by distances to the centroid). */
double mur_shape_diameter(const float *pos, int32_t n);

/* Velocity fluctuations u (3 doubles per boid): v - mean v, and with remove_rigid the best-fit rigid
 * rotation and dilatation about the centroid removed too. */
void mur_shape_fluctuations(const float *pos, const float *vel, int32_t n, int remove_rigid, double *u);

/* C(r) over nbins bins of [0, size) (size = mur_shape_diameter, or <= 0 to compute it): c[b] (0 when a
 * bin is empty), r[b] = bin centre. Returns the correlation length (first zero crossing) or -1; -2 if
 * out of memory. */
double mur_shape_corr(const float *pos, const float *vel, int32_t n, int remove_rigid, int32_t nbins,
                      double size, double *c, double *r);

typedef struct mur_shape_opts {
    float link;             /* group link distance (<= 0: labels given or all one group) */
    double min_speed, max_speed;
    double close_factor;    /* 0.3 */
    double border_frac;     /* 0.2 */
    int32_t corr_bins;      /* 40 */
    int remove_rigid;       /* 1 */
} mur_shape_opts;

mur_shape_opts mur_shape_default_opts(void);

/* Everything above for the biggest group (labels from label, or from opts->link when label is NULL and
 * link > 0). Returns 0, -1 if out of memory, -2 if the group has fewer than MUR_SHAPE_KMAX + 2 boids. */
int mur_shape_measure(const float *pos, const float *vel, int32_t n, const int32_t *label,
                      const mur_shape_opts *opts, mur_shape_row *out);

/* Writes the row as CSV (no newline) with %.9g, in the order of MUR_SHAPE_COLUMNS, into buf; returns
 * the length snprintf gave. */
int mur_shape_format_row(const mur_shape_row *row, char *buf, int len);

#endif
