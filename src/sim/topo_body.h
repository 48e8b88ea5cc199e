/* The topological search of one vector width (see topo.c), included by topo.c once per width with
 *   TOPO_GROW, TOPO_GATHER, TOPO_BLOCK_IN_PLACE, TOPO_BEYOND   the names of this width's functions
 *           that are not inlined (grow_avx2, ...: the names a profiler shows)
 *   TNAME   the path (base, avx2): the inlined helpers get the suffix _TNAME
 *   TW      floats per vector (4, 8)
 *   TATTR   the target attribute of the path (empty for base)
 * Candidates are tested TW at a time without branches (distance, view radius, weight, self, view
 * cone, the current threshold; in the gathered block a vector with none within the threshold or the
 * contact cut skips the rest). In the block pass those that pass are appended to a buffer without
 * branches and ranked into the list; beyond the block they are inserted one by one. Which boids
 * pass does not depend on TW, so every path finds the same list. No include guard: each inclusion is
 * one path. */
#define T_CAT2(a, b) a##_##b
#define T_CAT(a, b) T_CAT2(a, b)
#define T(x) T_CAT(x, TNAME)
#define VSEL_F(m, a, b) ((T(tvf))(((m) & (T(tvi))(a)) | (~(m) & (T(tvi))(b))))

typedef float T(tvf) __attribute__((vector_size(4 * TW)));
typedef int32_t T(tvi) __attribute__((vector_size(4 * TW)));

/* The lanes of m that are set, as bits. */
static inline __attribute__((always_inline)) TATTR uint32_t T(bits)(T(tvi) m)
{
#if TW == 8 && defined(MUR_X86_PATHS)
    return (uint32_t)_mm256_movemask_ps((__m256)m);
#elif TW == 4 && defined(__SSE2__)
    return (uint32_t)_mm_movemask_ps((__m128)m);
#else
    uint32_t b = 0;
    for (int l = 0; l < TW; l++)
        b |= (uint32_t)(m[l] & 1) << l;
    return b;
#endif
}

/* The view cone's lanes: dot |dot| >= k |k| d2, as the metric kernel tests them (kernel_body.h
 * K(in_cone)); a NaN candidate fails it. */
static inline __attribute__((always_inline)) TATTR T(tvi) T(in_cone)(T(tvf) dx, T(tvf) dy, T(tvf) dz, T(tvf) d2,
    float vx, float vy, float vz, float k2s)
{
    const T(tvf) dot = dx * vx + dy * vy + dz * vz;
    const T(tvf) adot = (T(tvf))((T(tvi))dot & ((T(tvi)){0} + 0x7fffffff));
    return dot * adot >= d2 * k2s;
}

/* Append the lanes of b (d2 and slot) to a buffer of *n entries, without branches. */
static inline __attribute__((always_inline)) TATTR void T(append)(float *bd, int32_t *bs, int *n, T(tvf) d2,
    T(tvi) sl, uint32_t b)
{
#if TW == 8 && defined(MUR_X86_PATHS)
    const uint32_t e = compress8[b];
    const __m256i perm = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32((int32_t)e), _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21)),
        _mm256_set1_epi32(7));
    _mm256_storeu_ps(bd + *n, _mm256_permutevar8x32_ps((__m256)d2, perm));
    _mm256_storeu_si256((__m256i *)(void *)(bs + *n), _mm256_permutevar8x32_epi32((__m256i)sl, perm));
    *n += (int)(e >> 24);
#else
    int m = *n;
    for (int q = 0; q < TW; q++) {
        bd[m] = d2[q];
        bs[m] = sl[q];
        m += (int)((b >> q) & 1u);
    }
    *n = m;
#endif
}

/* The candidates of sorted slots [lo, hi) with d2 > dlo: those closer than the threshold go into the
 * list (with buf: appended to the buffer, without branches), and (with hard) every valid one closer
 * than the contact radius into the contacts. */
static inline __attribute__((always_inline)) TATTR void T(slice)(const mur_flock *f, search *S, int32_t lo,
    int32_t hi, float dlo, const bool cone, const bool hard, const bool buf)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz, *restrict W = f->sw;
    const int32_t *restrict order = f->order;
    const vf zero = {0};
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    const float px = S->px, py = S->py, pz = S->pz;
    float hcut = hard ? contact_cut(S) : 0.0f;
    S->tested += hi - lo;
    for (int32_t j0 = lo; j0 < hi; j0 += TW) {
        /* the sorted arrays have MUR_PAD floats of slack: lanes past hi read valid memory, unused */
        vf x, y, z, w;
        memcpy(&x, X + j0, sizeof x);
        memcpy(&y, Y + j0, sizeof y);
        memcpy(&z, Z + j0, sizeof z);
        memcpy(&w, W + j0, sizeof w);
        const vf dx = x - px, dy = y - py, dz = z - pz;
        const vf d2 = dx * dx + dy * dy + dz * dz;
        const vi j = iota + j0;
        const vi v = (j < hi) & (j != S->self) & (w > zero) & (d2 < S->r2) & (d2 > dlo);
        vi m = v & (d2 <= S->thr);
        if (cone)
            m &= T(in_cone)(dx, dy, dz, d2, S->vx, S->vy, S->vz, S->k2s);
        uint32_t b = T(bits)(m);
        if (buf) {
            if (S->nb > BUF_SIZE - TW)
                buffer_flush(S, order);
            T(append)(S->bd2, S->bslot, &S->nb, d2, j, b);
        } else {
            while (b) {
                const int q = __builtin_ctz(b);
                b &= b - 1;
                list_add(S, d2[q], order[j0 + q], j0 + q);
            }
        }
        if (hard) {
            uint32_t h = T(bits)(v & (d2 < hcut));
            if (h) {
                do {
                    const int q = __builtin_ctz(h);
                    h &= h - 1;
                    insert(S->hard, &S->nh, MAX_CONTACTS, d2[q], order[j0 + q], j0 + q);
                } while (h);
                hcut = contact_cut(S);
            }
        }
    }
}

/* Copy sorted slots [lo, lo + len) to G at o (see gather). Whole vectors, 16 values at least
 * (without a branch for the usual short column): values past the slice are overwritten by the next
 * one. */
static inline __attribute__((always_inline)) TATTR int32_t T(gather_slice)(const mur_flock *f, gathered *G,
    int32_t o, int32_t lo, int32_t len)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const vf zero = {0}, nan = zero + NAN;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    const float *restrict X = f->sx + lo, *restrict Y = f->sy + lo, *restrict Z = f->sz + lo;
    const float *restrict W = f->sw + lo;
    float *restrict gx = G->x + o, *restrict gy = G->y + o, *restrict gz = G->z + o;
    int32_t *restrict gs = G->s + o;
    const int32_t n = len > 16 ? len : 16;
    for (int32_t u = 0; u < n; u += TW) {
        vf x, y, z, w;
        memcpy(&x, X + u, sizeof x);
        memcpy(&y, Y + u, sizeof y);
        memcpy(&z, Z + u, sizeof z);
        memcpy(&w, W + u, sizeof w);
        x = VSEL_F(w > zero, x, nan);
        memcpy(gx + u, &x, sizeof x);
        memcpy(gy + u, &y, sizeof y);
        memcpy(gz + u, &z, sizeof z);
        const vi sl = iota + (lo + u);
        memcpy(gs + u, &sl, sizeof sl);
    }
    return o + len;
}

/* The block's candidates, copied once per cell into G (contiguous, so a boid's scan has no slice
 * ends): positions (x NaN for a boid that is no neighbour, weight <= 0: its d2 is NaN and fails every
 * test) and sorted slots; one vector of NaN after the end. A crowded cell's own boids first. */
static __attribute__((noinline)) TATTR void TOPO_GATHER(const mur_flock *f, const block *B, gathered *G, int cap)
{
    typedef T(tvf) vf;
    const vf nan = (vf){0} + NAN;
    int32_t o = 0;
    G->own_n = B->own_hi - B->own_lo > cap ? B->own_hi - B->own_lo : 0;
    if (G->own_n > 0) {
        o = T(gather_slice)(f, G, o, B->own_lo, B->own_hi - B->own_lo);
        o = T(gather_slice)(f, G, o, B->lo[0], B->own_lo - B->lo[0]);
        o = T(gather_slice)(f, G, o, B->own_hi, B->hi[0] - B->own_hi);
    } else {
        o = T(gather_slice)(f, G, o, B->lo[0], B->hi[0] - B->lo[0]);
    }
    for (int q = 1; q < B->ns; q++)
        o = T(gather_slice)(f, G, o, B->lo[q], B->hi[q] - B->lo[q]);
    memcpy(G->x + o, &nan, sizeof nan);
    G->n = o;
    G->cell = B->cell;
}

/* Unaligned vectors of the gather buffer (loads without a round trip through the stack). */
typedef float T(tvfu) __attribute__((vector_size(4 * TW), aligned(4)));
typedef int32_t T(tviu) __attribute__((vector_size(4 * TW), aligned(4)));

/* The largest float below x (x > 0 and finite). */
static inline float T(below)(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b--;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* The gathered candidates with d2 > dlo (only with above; else every one): into the buffer (buf) or
 * the list, and the contacts (hard). The boid itself is not among them: grow_ sets its x in G to NaN
 * while it searches. A vector that reaches past j2 masks its lanes unless j2 is the end of G (a
 * vector of NaN follows it). The view radius is folded into the thresholds: d2 < r2 and d2 <= thr
 * is d2 <= min(thr, the float below r2); d2 < r2 and d2 < hcut is d2 < min(hcut, r2). */
static inline __attribute__((always_inline)) TATTR void T(scan_gathered)(const mur_flock *f, search *S,
    const gathered *G, int32_t j1, int32_t j2, float dlo, float hmax, const bool cone, const bool hard,
    const bool buf, const bool above)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const int32_t *restrict order = f->order;
    const float *restrict gx = G->x, *restrict gy = G->y, *restrict gz = G->z;
    const int32_t *restrict gs = G->s;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    /* locals: the buffers' stores could otherwise alias the counts and thresholds in S */
    const float px = S->px, py = S->py, pz = S->pz, vx = S->vx, vy = S->vy, vz = S->vz;
    const float k2s = S->k2s;
    const float r2b = T(below)(S->r2);
    float hcut = 0.0f;
    if (hard) {
        hcut = contact_cut(S);
        hcut = hcut < S->r2 ? hcut : S->r2;
        hcut = hcut < hmax ? hcut : hmax;
    }
    float thr = S->thr < r2b ? S->thr : r2b;
    /* the skip test's threshold: a candidate within neither thr nor the contact cut is not wanted */
    vf tsk = (vf){0} + (hard && T(below)(hcut) > thr ? T(below)(hcut) : thr);
    const vf pxv = (vf){0} + px, pyv = (vf){0} + py, pzv = (vf){0} + pz;
    int nb = S->nb;
    S->tested += j2 - j1;
    /* whole vectors without a lane mask up to jf */
    const int32_t jf = j2 == G->n ? j2 : j1 + (j2 - j1) / TW * TW;
    for (int32_t j0 = j1; j0 < j2; j0 += TW) {
        /* p - x, not x - p (the same bits negated: d2 is the same, and so is the view cone's dot
         * with the negated velocity), so that the loads fold into the subtractions */
        const vf dx = pxv - *(const T(tvfu) *)(const void *)(gx + j0);
        const vf dy = pyv - *(const T(tvfu) *)(const void *)(gy + j0);
        const vf dz = pzv - *(const T(tvfu) *)(const void *)(gz + j0);
        const vf d2 = dx * dx + dy * dy + dz * dz;
        /* most vectors hold no candidate near enough (35-60% of them, with a first radius from the
         * last tick or the block's bound): skip the rest for them, after one compare (two with a
         * lower bound; the lane mask past j2 can only drop more) */
        {
            vi near = d2 <= tsk;
            if (above)
                near &= d2 > dlo;
            if (!T(bits)(near))
                continue;
        }
        vi v = (vi){0} - 1;
        if (above)
            v = d2 > dlo;
        if (j0 >= jf)
            v &= iota + j0 < j2; /* past j2: the next part's candidates */
        vi vis = v & (d2 <= thr);
        if (cone)
            vis &= T(in_cone)(dx, dy, dz, d2, -vx, -vy, -vz, k2s);
        const vi sl = *(const T(tviu) *)(const void *)(gs + j0);
        uint32_t b = T(bits)(vis);
        if (buf) {
            if (nb > BUF_SIZE - TW) {
                S->nb = nb;
                buffer_flush(S, order);
                nb = 0;
                thr = S->thr < r2b ? S->thr : r2b;
                tsk = (vf){0} + (hard && T(below)(hcut) > thr ? T(below)(hcut) : thr);
            }
            T(append)(S->bd2, S->bslot, &nb, d2, sl, b);
        } else if (b) {
            do {
                const int q = __builtin_ctz(b);
                b &= b - 1;
                list_add(S, d2[q], order[sl[q]], sl[q]);
            } while (b);
            thr = S->thr < r2b ? S->thr : r2b;
            tsk = (vf){0} + (hard && T(below)(hcut) > thr ? T(below)(hcut) : thr);
        }
        if (hard) {
            uint32_t h = T(bits)(v & (d2 < hcut));
            if (h) {
                do {
                    const int q = __builtin_ctz(h);
                    h &= h - 1;
                    insert(S->hard, &S->nh, MAX_CONTACTS, d2[q], order[sl[q]], sl[q]);
                } while (h);
                hcut = contact_cut(S);
                hcut = hcut < S->r2 ? hcut : S->r2;
                hcut = hcut < hmax ? hcut : hmax;
                tsk = (vf){0} + (T(below)(hcut) > thr ? T(below)(hcut) : thr);
            }
        }
    }
    if (buf)
        S->nb = nb;
}

/* Put nb buffered candidates, all farther than the list's base entries, into the list by rank: the
 * one with r candidates before it in (d2, index) order goes to base + r (counted without branches).
 * The ranks are first counted by d2 alone, TW candidates at a time; they are a permutation exactly
 * when no two distances are equal (else tied ones share the lowest rank, and the sum of the ranks
 * falls short): then the 64-bit (d2, index) keys are ranked instead. Up to 16 candidates take one
 * path of fixed length. */
static inline __attribute__((always_inline)) TATTR void T(rank_into)(search *S, const int32_t *order, float *bd,
    const int32_t *bs, int nb, int base)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const vf inf = (vf){0} + INFINITY;
    int32_t rank[BUF_SIZE] __attribute__((aligned(32)));
    int np;
    bool distinct;
    if (nb <= 8) {
        /* INFINITY after the end: counted as after every candidate, never before one (a first radius
         * from the last tick leaves about 8 candidates: one vector of 8) */
        for (int u = 0; u < 8; u += TW)
            memcpy(bd + nb + u, &inf, sizeof inf);
        vf d[8 / TW];
        vi acc[8 / TW];
        for (int u = 0; u < 8 / TW; u++) {
            memcpy(&d[u], bd + u * TW, sizeof d[u]);
            acc[u] = (vi){0};
        }
        for (int j = 0; j < 8; j++)
            for (int u = 0; u < 8 / TW; u++)
                acc[u] += bd[j] < d[u];
        vi tot = acc[0];
        for (int u = 1; u < 8 / TW; u++)
            tot += acc[u];
        int32_t sum = 0;
        for (int l = 0; l < TW; l++)
            sum -= tot[l];
        memcpy(rank, acc, sizeof acc);
        np = 8;
        distinct = sum == nb * (nb - 1) / 2 + (8 - nb) * nb;
    } else if (nb <= 16) {
        /* INFINITY after the end: counted as after every candidate, never before one */
        for (int u = 0; u < 16; u += TW)
            memcpy(bd + nb + u, &inf, sizeof inf);
        vf d[16 / TW];
        vi acc[16 / TW];
        for (int u = 0; u < 16 / TW; u++) {
            memcpy(&d[u], bd + u * TW, sizeof d[u]);
            acc[u] = (vi){0};
        }
        for (int j = 0; j < 16; j++)
            for (int u = 0; u < 16 / TW; u++)
                acc[u] += bd[j] < d[u];
        vi tot = acc[0];
        for (int u = 1; u < 16 / TW; u++)
            tot += acc[u];
        int32_t sum = 0;
        for (int l = 0; l < TW; l++)
            sum -= tot[l];
        memcpy(rank, acc, sizeof acc);
        np = 16;
        distinct = sum == nb * (nb - 1) / 2 + (16 - nb) * nb;
    } else {
        np = (nb + TW - 1) / TW * TW;
        for (int i = nb; i < np; i++)
            bd[i] = INFINITY;
        for (int i0 = 0; i0 < np; i0 += TW) {
            vf di;
            memcpy(&di, bd + i0, sizeof di);
            vi acc = {0};
            for (int j = 0; j < nb; j++)
                acc += bd[j] < di;
            memcpy(rank + i0, &acc, sizeof acc);
        }
        int32_t sum = 0;
        for (int i = 0; i < nb; i++)
            sum -= rank[i];
        distinct = sum == nb * (nb - 1) / 2;
    }
    if (distinct) {
        /* the candidates that enter the list (rank[] holds minus the ranks) */
        vi iota;
        memcpy(&iota, lane_iota, sizeof iota);
        uint64_t keep = 0;
        for (int i0 = 0; i0 < np; i0 += TW) {
            vi r;
            memcpy(&r, rank + i0, sizeof r);
            keep |= (uint64_t)T(bits)((iota + i0 < nb) & (base - r < S->cap)) << i0;
        }
        while (keep) {
            const int i = __builtin_ctzll(keep);
            keep &= keep - 1;
            const int dst = base - rank[i];
            uint32_t b;
            memcpy(&b, &bd[i], sizeof b);
            S->key[dst] = (uint64_t)b << 32 | (uint32_t)order[bs[i]];
            S->slot[dst] = bs[i];
        }
    } else {
        int64_t key[BUF_SIZE];
        for (int i = 0; i < nb; i++) {
            uint32_t b;
            memcpy(&b, &bd[i], sizeof b);
            key[i] = (int64_t)((uint64_t)b << 32 | (uint32_t)order[bs[i]]);
        }
        for (int i = 0; i < nb; i++) {
            int r = base;
            for (int j = 0; j < nb; j++)
                r += key[j] < key[i];
            const int dst = r < S->cap ? r : MUR_TOPO_MAX;
            S->key[dst] = (uint64_t)key[i];
            S->slot[dst] = bs[i];
        }
    }
    S->n = base + nb < S->cap ? base + nb : S->cap;
    if (S->n == S->cap) {
        const float w = list_worst(S);
        S->thr = w < S->thr0 ? w : S->thr0;
    }
}

/* The buffered candidates into the list: into an empty list by rank, else one by one. More than 16
 * into an empty list: the last 16 by rank (a path of fixed length; ranking all costs nb^2), then the
 * others one by one, most of them farther than the list's last entry by then. */
static inline __attribute__((always_inline)) TATTR void T(finish)(search *S, const int32_t *order)
{
    if (S->n > 0) {
        buffer_flush(S, order);
    } else if (S->nb > 16) {
        const int r = S->nb - 16;
        T(rank_into)(S, order, S->bd2 + r, S->bslot + r, 16, 0);
        for (int i = 0; i < r; i++)
            list_add(S, S->bd2[i], order[S->bslot[i]], S->bslot[i]);
    } else {
        T(rank_into)(S, order, S->bd2, S->bslot, S->nb, 0);
    }
    S->nb = 0;
}

/* Column (x, z) of a ring, cells [y0, y1]: one slice of the sorted arrays, unless farther than the
 * limit. */
static inline __attribute__((always_inline)) TATTR void T(ring_column)(const mur_flock *f, search *S, int32_t x,
    int32_t z, int32_t y0, int32_t y1, float gz, const bool cone, const bool hard)
{
    const mur_grid *g = &f->grid;
    const float gx = cell_gap(g, 0, x, x, S->px);
    const float gxz = gx * gx + gz * gz;
    if (y0 > y1 || gxz > scan_limit(S, hard))
        return;
    const float gy = cell_gap(g, 1, y0, y1, S->py);
    if (gxz + gy * gy <= scan_limit(S, hard))
        T(slice)(f, S, g->start[mur_cell_id(g, x, y0, z)], g->start[mur_cell_id(g, x, y1, z) + 1], -1.0f, cone,
                 hard, false);
}

/* Ring R (R >= 2) around cell c, clipped to the grid; columns and cells that cannot hold a boid
 * closer than the list's threshold (or the contacts' limit) are skipped. Only the ring's cells inside
 * the grid are walked (a flat or thin grid has few: walking the whole (2R + 1)^2 square of columns
 * made a boid far from its neighbours cost R^3). False when the ring is wholly outside the grid. */
static inline __attribute__((always_inline)) TATTR bool T(ring)(const mur_flock *f, search *S, const int32_t c[3],
    int32_t R, const bool cone, const bool hard)
{
    const mur_grid *g = &f->grid;
    const int32_t *D = g->dims;
    if (c[0] - R < 0 && c[0] + R >= D[0] && c[1] - R < 0 && c[1] + R >= D[1] && c[2] - R < 0 && c[2] + R >= D[2])
        return false;
    /* only the cells that can be within the limit's radius (the limit only falls during the ring) */
    const float rad = sqrtf(scan_limit(S, hard));
    const int32_t z0 = axis_range(g, 2, S->pz - rad, c[2] - R, -1), z1 = axis_range(g, 2, S->pz + rad, c[2] + R, 1);
    const int32_t x0 = axis_range(g, 0, S->px - rad, c[0] - R, -1), x1 = axis_range(g, 0, S->px + rad, c[0] + R, 1);
    const int32_t y0 = axis_range(g, 1, S->py - rad, c[1] - R, -1), y1 = axis_range(g, 1, S->py + rad, c[1] + R, 1);
    /* which faces of the ring have cells in range */
    const bool xlo = c[0] - R >= x0 && c[0] - R <= x1, xhi = c[0] + R >= x0 && c[0] + R <= x1;
    const bool ylo = c[1] - R >= y0 && c[1] - R <= y1, yhi = c[1] + R >= y0 && c[1] + R <= y1;
    for (int32_t z = z0; z <= z1; z++) {
        if (z == c[2] - R || z == c[2] + R) {
            /* a face of the ring: whole columns */
            const float gz = cell_gap(g, 2, z, z, S->pz);
            for (int32_t x = x0; x <= x1; x++)
                T(ring_column)(f, S, x, z, y0, y1, gz, cone, hard);
            continue;
        }
        if (!xlo && !xhi && !ylo && !yhi) {
            /* no cell of the ring between the two z faces: on to the upper one */
            z = c[2] + R - 1 < z1 ? c[2] + R - 1 : z1;
            continue;
        }
        const float gz = cell_gap(g, 2, z, z, S->pz);
        if (xlo)
            T(ring_column)(f, S, c[0] - R, z, y0, y1, gz, cone, hard);
        if (ylo || yhi) {
            const int32_t xa = x0 > c[0] - R ? x0 : c[0] - R + 1, xb = x1 < c[0] + R ? x1 : c[0] + R - 1;
            for (int32_t x = xa; x <= xb; x++) {
                const float gx = cell_gap(g, 0, x, x, S->px);
                const float gxz = gx * gx + gz * gz;
                if (gxz > scan_limit(S, hard))
                    continue;
                for (int side = -1; side <= 1; side += 2) {
                    const int32_t y = c[1] + side * R;
                    if (y < y0 || y > y1)
                        continue;
                    const float gy = cell_gap(g, 1, y, y, S->py);
                    if (gxz + gy * gy <= scan_limit(S, hard)) {
                        const int64_t id = mur_cell_id(g, x, y, z);
                        T(slice)(f, S, g->start[id], g->start[id + 1], -1.0f, cone, hard, false);
                    }
                }
            }
        }
        if (xhi)
            T(ring_column)(f, S, c[0] + R, z, y0, y1, gz, cone, hard);
    }
    return true;
}

/* The block scanned in place (a crowded cell, or too many boids to gather); true when the cell
 * itself made the list certain. Out of line (as is the part beyond the block), so that the common
 * path stays small. */
static __attribute__((noinline)) TATTR bool TOPO_BLOCK_IN_PLACE(const mur_flock *f, search *S, const block *B)
{
    const bool cone = S->cone, hard = S->hard != NULL;
    int s0 = 0;
    if (B->own_hi - B->own_lo >= S->cap) {
        /* a crowded cell may hold the whole list (in chunks: see zero_full) */
        const float b0 = ring_bound(f, S, B->c, 0);
        for (int32_t j = B->own_lo, e; j < B->own_hi; j = e) {
            e = own_chunk_end(j, B->own_lo, B->own_hi);
            T(slice)(f, S, j, e, -1.0f, cone, hard, true);
            T(finish)(S, f->order);
            if (zero_full(S))
                break;
        }
        if (b0 > 0.0f && contacts_certain(S, b0) && list_certain(S, b0))
            return true;
        T(slice)(f, S, B->lo[0], B->own_lo, -1.0f, cone, hard, true);
        T(slice)(f, S, B->own_hi, B->hi[0], -1.0f, cone, hard, true);
        s0 = 1;
    }
    for (int q = s0; q < B->ns; q++)
        T(slice)(f, S, B->lo[q], B->hi[q], -1.0f, cone, hard, true);
    return false;
}

/* Not certain after the block: the block's candidates beyond b1, then the next rings. */
static __attribute__((noinline)) TATTR void TOPO_BEYOND(const mur_flock *f, search *S, const block *B,
    const gathered *G, float b1)
{
    const bool cone = S->cone, hard = S->hard != NULL;
    S->thr0 = S->r2;
    S->thr = S->n == S->cap ? list_worst(S) : S->r2;
    if (S->n < S->cap) {
        /* the block's candidates beyond b1 */
        float dlo = b1 * b1;
        if (G->cell == B->cell) {
            /* first those out to 1.25 b1 (few boids lack k neighbours there): buffered, and ranked
             * after the list's entries, which are all nearer (unless a crowded buffer was emptied
             * into the list) */
            const float t2 = 1.5625f * dlo;
            const int n0 = S->n;
            S->thr = t2 < S->r2 ? t2 : S->r2;
            T(scan_gathered)(f, S, G, 0, G->n, dlo, INFINITY, cone, false, true, true);
            if (S->n == n0)
                T(rank_into)(S, f->order, S->bd2, S->bslot, S->nb, n0);
            else
                buffer_flush(S, f->order);
            S->nb = 0;
            S->thr = S->n == S->cap ? list_worst(S) : S->r2;
            dlo = t2;
        }
        if (S->n < S->cap) {
            if (G->cell == B->cell) {
                T(scan_gathered)(f, S, G, 0, G->n, dlo, INFINITY, cone, false, false, true);
            } else {
                for (int q = 0; q < B->ns; q++)
                    T(slice)(f, S, B->lo[q], B->hi[q], dlo, cone, false, false);
            }
        }
    }
    for (int32_t R = 2;; R++) {
        if (!T(ring)(f, S, B->c, R, cone, hard))
            break;
        const float bound = ring_bound(f, S, B->c, R);
        if (bound >= S->vr)
            break;
        if (contacts_certain(S, bound) && list_certain(S, bound))
            break;
    }
}

/* The search of one boid (see the top of topo.c): the block of rings 0 and 1 with the threshold of
 * ring 1's bound, and only when that does not make the list certain, the rest of the block and the
 * rings beyond. */
static inline __attribute__((always_inline)) TATTR void T(grow_)(const mur_flock *f, search *S, const block *B,
    gathered *G, const bool cone, const bool hard)
{
    const float b1 = block_bound(S, B);
    /* the block's threshold: ring 1's bound squared (none when it reaches past the view radius) */
    const float tb = b1 >= S->vr ? INFINITY : b1 * b1;
    S->thr0 = S->thr = tb;
    if (B->total <= G->cap) {
        if (G->cell != B->cell)
            TOPO_GATHER(f, B, G, CROWDED);
        if (G->own_n > 0) {
            /* a crowded cell: its own boids first, which may make the list certain, or at least give
             * the rest of the block a closer threshold */
            for (int32_t j = 0, e; j < G->own_n; j = e) {
                e = own_chunk_end(j, 0, G->own_n);
                T(scan_gathered)(f, S, G, j, e, -1.0f, INFINITY, cone, hard, true, false);
                T(finish)(S, f->order);
                if (zero_full(S))
                    break;
            }
            const float b0 = ring_bound(f, S, B->c, 0);
            if (b0 > 0.0f && contacts_certain(S, b0) && list_certain(S, b0))
                return;
            T(scan_gathered)(f, S, G, G->own_n, G->n, -1.0f, INFINITY, cone, hard, true, false);
        } else {
            /* first with the threshold of the last tick's radius (t1, when it is within the block's
             * bound), keeping only the contacts within it; then, unless that made the list and the
             * contacts certain, the block's candidates farther than t1 (those within b1 for the list,
             * and every contact: the passes beyond the block look for none in it) */
            const float tl = b1 >= S->vr ? S->r2 : tb;
            const float t1 = S->hint2 < tl ? S->hint2 : tl;
            S->thr0 = S->thr = t1;
            if (t1 < tl) {
                T(scan_gathered)(f, S, G, 0, G->n, -1.0f, t1, cone, hard, true, false);
                T(finish)(S, f->order);
                S->thr0 = tb;
                const bool sure = S->n == S->cap && (S->hard == NULL || S->h2 <= t1 ||
                                                     (S->nh == MAX_CONTACTS && S->hard[MAX_CONTACTS - 1].d2 <= t1));
                if (!sure) {
                    const int n0 = S->n;
                    S->thr = n0 == S->cap ? list_worst(S) : S->thr0;
                    S->thr = S->thr < S->thr0 ? S->thr : S->thr0;
                    T(scan_gathered)(f, S, G, 0, G->n, t1, INFINITY, cone, hard, true, true);
                    if (S->n == n0)
                        T(rank_into)(S, f->order, S->bd2, S->bslot, S->nb, n0);
                    else
                        buffer_flush(S, f->order);
                    S->nb = 0;
                }
            } else {
                /* (a second copy of the scan: its skip branch is predicted apart from the first's, and
                 * its contact cut is a constant) */
                T(scan_gathered)(f, S, G, 0, G->n, -1.0f, INFINITY, cone, hard, true, false);
                S->thr0 = tb;
            }
        }
    } else {
        if (TOPO_BLOCK_IN_PLACE(f, S, B))
            return;
    }
    T(finish)(S, f->order);
    if (b1 >= S->vr || (S->n == S->cap && contacts_certain(S, b1)))
        return;
    TOPO_BEYOND(f, S, B, G, b1);
}

static TATTR void TOPO_GROW(const mur_flock *f, search *S, const block *B, gathered *G)
{
    /* the boid's own entry in the gathered block (its cell's column first, or the crowded cell
     * itself), gathered now if the block is: set to NaN while the boid searches, so that the scans of
     * G need not test for it */
    int32_t me = -1;
    float keep = 0.0f;
    if (B->total <= G->cap) {
        if (G->cell != B->cell)
            TOPO_GATHER(f, B, G, CROWDED);
        me = S->self - (G->own_n > 0 ? B->own_lo : B->lo[0]);
        keep = G->x[me];
        G->x[me] = NAN;
    }
    const int sel = (S->cone ? 2 : 0) | (S->hard ? 1 : 0);
    switch (sel) {
    case 0: T(grow_)(f, S, B, G, false, false); break;
    case 1: T(grow_)(f, S, B, G, false, true); break;
    case 2: T(grow_)(f, S, B, G, true, false); break;
    default: T(grow_)(f, S, B, G, true, true); break;
    }
    if (me >= 0)
        G->x[me] = keep;
}

/* The neighbour list's scan (topo.c build_list): the boids of the block's columns other than slot k
 * within R2 of (px, py, pz), their squared distances and boid indices into bd and bi; -1 when more
 * than cap. Every boid counts, whatever its weight (it may fly later in the epoch). */
static __attribute__((noinline)) TATTR int TOPO_LIST_SCAN(const mur_flock *f, const block *B, int32_t k, float px,
    float py, float pz, float R2, float *bd, int32_t *bi, int cap)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz;
    const int32_t *restrict order = f->order;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    int nb = 0;
    for (int q = 0; q < B->ns; q++) {
        const int32_t lo = B->lo[q], hi = B->hi[q];
        for (int32_t j0 = lo; j0 < hi; j0 += TW) {
            vf x, y, z;
            memcpy(&x, X + j0, sizeof x);
            memcpy(&y, Y + j0, sizeof y);
            memcpy(&z, Z + j0, sizeof z);
            const vf dx = x - px, dy = y - py, dz = z - pz;
            const vf d2 = dx * dx + dy * dy + dz * dz;
            const vi j = iota + j0;
            uint32_t b = T(bits)((d2 <= R2) & (j < hi) & (j != k));
            while (b) {
                const int l = __builtin_ctz(b);
                b &= b - 1;
                if (nb == cap)
                    return -1;
                bd[nb] = d2[l];
                bi[nb] = order[j0 + l];
                nb++;
            }
        }
    }
    return nb;
}

/* The members of a neighbour list (topo.c serve_list): idx[0, cnt) are boid indices (those >= f->n
 * are gone), tested TW at a time as the search tests its candidates (the same operations, so the same
 * bits): those that pass into the buffer and ranked into the empty list, the contacts inserted. */
static __attribute__((noinline)) TATTR void TOPO_SERVE(const mur_flock *f, search *S, const int32_t *idx, int cnt,
    int32_t self_idx)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz, *restrict W = f->sw;
    const int32_t *restrict slotof = f->slotof;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    const vf zero = {0};
    const float px = S->px, py = S->py, pz = S->pz;
    for (int m0 = 0; m0 < cnt; m0 += TW) {
        /* lanes past cnt (the list's slack, never written) or naming a boid gone: the boid itself,
         * which fails the test below */
        vi jv;
        memcpy(&jv, idx + m0, sizeof jv);
        const vi ok = (iota + m0 < cnt) & (jv < f->n) & (jv >= 0);
        jv = (ok & jv) | (~ok & ((vi){0} + self_idx));
        vi sl;
        vf x, y, z, w;
#if TW == 8 && defined(MUR_X86_PATHS)
        sl = (vi)_mm256_i32gather_epi32(slotof, (__m256i)jv, 4);
        x = _mm256_i32gather_ps(X, (__m256i)sl, 4);
        y = _mm256_i32gather_ps(Y, (__m256i)sl, 4);
        z = _mm256_i32gather_ps(Z, (__m256i)sl, 4);
        w = _mm256_i32gather_ps(W, (__m256i)sl, 4);
#else
        for (int l = 0; l < TW; l++) {
            sl[l] = slotof[jv[l]];
            x[l] = X[sl[l]];
            y[l] = Y[sl[l]];
            z[l] = Z[sl[l]];
            w[l] = W[sl[l]];
        }
#endif
        const vf dx = x - px, dy = y - py, dz = z - pz;
        const vf d2 = dx * dx + dy * dy + dz * dz;
        const vi v = (sl != S->self) & (w > zero) & (d2 < S->r2);
        if (S->hard) {
            uint32_t h = T(bits)(v & (d2 < S->h2));
            while (h) {
                const int q = __builtin_ctz(h);
                h &= h - 1;
                insert(S->hard, &S->nh, MAX_CONTACTS, d2[q], jv[q], sl[q]);
            }
        }
        vi mk = v;
        if (S->cone)
            mk &= T(in_cone)(dx, dy, dz, d2, S->vx, S->vy, S->vz, S->k2s);
        T(append)(S->bd2, S->bslot, &S->nb, d2, sl, T(bits)(mk));
    }
    S->tested += cnt;
    T(finish)(S, f->order);
}

#undef VSEL_F
#undef T
#undef T_CAT
#undef T_CAT2

/* the path's parameters end with it: the next inclusion defines its own */
#undef TOPO_GROW
#undef TOPO_GATHER
#undef TOPO_BLOCK_IN_PLACE
#undef TOPO_BEYOND
#undef TOPO_LIST_SCAN
#undef TOPO_SERVE
#undef TNAME
#undef TW
#undef TATTR
