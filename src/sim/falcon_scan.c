/* The falcon's passes over the flock (falcon.c mur_falcon_plan): the flock's centre and mean velocity,
 * the nearest birds, the lock-on cone. They run on the step's threads over fixed chunks of the boid
 * index range (their size depends on the flock's size only) and the chunks' results are combined in
 * chunk order, so the result is the same on any thread count. */
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "falcon_scan.h"

#include "falcon.h"
#include "flock_impl.h"

/* Birds in a chunk: at least this many, and at most SCAN_CHUNKS chunks. */
#define SCAN_CHUNK_MIN 4096
#define SCAN_CHUNKS 64
/* Birds from which a pass runs on more than one thread (a parallel region costs a few microseconds). */
#define SCAN_PAR_MIN 8192

/* Run fn on each chunk of the n birds (chunk c: birds [lo, hi)) on up to threads threads; the chunks
 * (at most SCAN_CHUNKS) depend on n only. Returns their number. */
static int each_chunk(int32_t n, int threads, void (*fn)(int c, int32_t lo, int32_t hi, void *ctx), void *ctx)
{
    const int32_t c0 = (n + SCAN_CHUNKS - 1) / SCAN_CHUNKS;
    const int32_t cs = c0 > SCAN_CHUNK_MIN ? c0 : SCAN_CHUNK_MIN;
    const int nc = n > 0 ? (int)((n + cs - 1) / cs) : 0;
    const int nt = n >= SCAN_PAR_MIN && threads > 1 ? (threads < nc ? threads : nc) : 1;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
#endif
    for (int c = 0; c < nc; c++) {
        const int32_t lo = (int32_t)c * cs, hi = lo + cs < n ? lo + cs : n;
        fn(c, lo, hi, ctx);
    }
    return nc;
}

/* Bird i (squared distance d2) into the sorted list of at most MUR_SCAN_PREY nearest, index order on
 * ties (a bird not nearer than the last of a full list is not taken). */
static inline void take_prey(mur_scan *P, int32_t i, float d2)
{
    if (P->nprey < MUR_SCAN_PREY || d2 < P->prey_d2[P->nprey - 1]) {
        int k = P->nprey < MUR_SCAN_PREY ? P->nprey++ : MUR_SCAN_PREY - 1;
        for (; k > 0 && P->prey_d2[k - 1] > d2; k--) {
            P->prey_d2[k] = P->prey_d2[k - 1];
            P->prey[k] = P->prey[k - 1];
        }
        P->prey_d2[k] = d2;
        P->prey[k] = i;
    }
}

static void scan_chunk(const mur_flock *f, const float *fp, bool nearest, bool speed, int32_t lo, int32_t hi,
                       mur_scan *P)
{
    /* the sums in locals (P's fields could alias the positions for the compiler) */
    double sx = 0, sy = 0, sz = 0, vx = 0, vy = 0, vz = 0, sp = 0;
    int32_t flying = 0, near_i = -1;
    float near_d2 = INFINITY, last = INFINITY; /* the list's last distance once it is full */
    bool full = false;
    memset(P, 0, sizeof *P);
    const float *restrict pos = f->pos, *restrict vel = f->vel;
    const int32_t *restrict perch = f->perch;
    for (int32_t i = lo; i < hi; i++) {
        if (perch[i] > 0)
            continue;
        const float *p = pos + 3 * (size_t)i, *v = vel + 3 * (size_t)i;
        sx += p[0];
        sy += p[1];
        sz += p[2];
        vx += v[0];
        vy += v[1];
        vz += v[2];
        if (speed)
            sp += sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        flying++;
        if (!nearest)
            continue;
        const float r[3] = {p[0] - fp[0], p[1] - fp[1], p[2] - fp[2]};
        const float d2 = dot3(r, r);
        if (d2 < near_d2) {
            near_d2 = d2;
            near_i = i;
        }
        if (!full || d2 < last) {
            take_prey(P, i, d2);
            full = P->nprey == MUR_SCAN_PREY;
            last = P->prey_d2[P->nprey - 1];
        }
    }
    P->sum[0] = sx;
    P->sum[1] = sy;
    P->sum[2] = sz;
    P->vs[0] = vx;
    P->vs[1] = vy;
    P->vs[2] = vz;
    P->speed = sp;
    P->flying = flying;
    P->near_i = near_i;
    P->near_d2 = near_d2;
}

typedef struct scan_ctx {
    const mur_flock *f;
    float fp[3];
    bool nearest, speed;
    mur_scan *part;
} scan_ctx;

static void scan_fn(int c, int32_t lo, int32_t hi, void *ctx)
{
    const scan_ctx *x = ctx;
    scan_chunk(x->f, x->fp, x->nearest, x->speed, lo, hi, &x->part[c]);
}

void mur_falcon_scan(const mur_flock *f, int threads, bool nearest, bool speed, mur_scan *out)
{
    mur_scan part[SCAN_CHUNKS];
    scan_ctx x = {f, {f->falcon.pos[0], f->falcon.pos[1], f->falcon.pos[2]}, nearest, speed, part};
    const int nc = each_chunk(f->n, threads, scan_fn, &x);
    /* combined in chunk order: the sums chunk by chunk, the nearest bird the first of the nearest, the
     * nearest prey each chunk's in index order */
    memset(out, 0, sizeof *out);
    out->near_i = -1;
    out->near_d2 = INFINITY;
    for (int c = 0; c < nc; c++) {
        const mur_scan *P = &part[c];
        for (int k = 0; k < 3; k++) {
            out->sum[k] += P->sum[k];
            out->vs[k] += P->vs[k];
        }
        out->speed += P->speed;
        out->flying += P->flying;
        if (P->near_d2 < out->near_d2) {
            out->near_d2 = P->near_d2;
            out->near_i = P->near_i;
        }
        for (int k = 0; k < P->nprey; k++)
            take_prey(out, P->prey[k], P->prey_d2[k]);
    }
}

/* The best bird of [lo, hi) in the lock-on cone: within lr2 (squared) of the falcon and within the
 * cone's half-angle (cosine cos_lock) of its heading; best by the score (nearest, or farthest from the
 * flock's centre), the first in index order on ties. */
static int32_t cone_chunk(const mur_flock *f, const mur_flock_def *d, float cos_lock, float lr2, int32_t lo,
                          int32_t hi, float *best)
{
    const mur_falcon *F = &f->falcon;
    const float sp = len3(F->vel);
    int32_t pick = -1;
    for (int32_t i = lo; i < hi; i++) {
        if (f->perch[i] > 0)
            continue;
        const float *p = f->pos + 3 * (size_t)i;
        const float r[3] = {p[0] - F->pos[0], p[1] - F->pos[1], p[2] - F->pos[2]};
        const float d2 = dot3(r, r);
        if (!(d2 < lr2) || dot3(r, F->vel) < cos_lock * sqrtf(d2) * sp)
            continue;
        const float c[3] = {p[0] - F->centre[0], p[1] - F->centre[1], p[2] - F->centre[2]};
        const float score = d->falcon_target == MUR_FALCON_NEAREST ? -d2 : dot3(c, c);
        if (pick < 0 || score > *best) {
            pick = i;
            *best = score;
        }
    }
    return pick;
}

typedef struct cone_ctx {
    const mur_flock *f;
    const mur_flock_def *d;
    float cos_lock, lr2;
    int32_t *pick;
    float *best;
} cone_ctx;

static void cone_fn(int c, int32_t lo, int32_t hi, void *ctx)
{
    const cone_ctx *x = ctx;
    x->best[c] = 0.0f;
    x->pick[c] = cone_chunk(x->f, x->d, x->cos_lock, x->lr2, lo, hi, &x->best[c]);
}

int32_t mur_falcon_cone(const mur_flock *f, const mur_flock_def *d, int threads, float cos_lock, float lr2)
{
    int32_t pick[SCAN_CHUNKS];
    float best[SCAN_CHUNKS];
    cone_ctx x = {f, d, cos_lock, lr2, pick, best};
    const int nc = each_chunk(f->n, threads, cone_fn, &x);
    int32_t out = -1;
    float b = 0.0f;
    for (int c = 0; c < nc; c++)
        if (pick[c] >= 0 && (out < 0 || best[c] > b)) {
            out = pick[c];
            b = best[c];
        }
    return out;
}
