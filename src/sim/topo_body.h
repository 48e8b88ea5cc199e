/* The topological search of one vector width (see topo.c), included by topo.c once per width with
 *   TNAME   the path (base, avx2): every function here gets the suffix _TNAME
 *   TW      floats per vector (4, 8)
 *   TATTR   the target attribute of the path (empty for base)
 * The candidates of a slice are tested TW at a time without branches (distance, view radius,
 * weight, self, view cone, the current threshold); only those that pass are inserted one by one.
 * Which boids pass does not depend on TW, so every path finds the same list. No include guard: each
 * inclusion is one path. */
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

/* Append the lanes of b (d2 and slot) to the buffer, without branches. */
static inline __attribute__((always_inline)) TATTR void T(append)(search *S, T(tvf) d2, T(tvi) sl, uint32_t b)
{
#if TW == 8 && defined(MUR_X86_PATHS)
    const uint32_t e = compress8[b];
    const __m256i perm = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32((int32_t)e), _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21)),
        _mm256_set1_epi32(7));
    _mm256_storeu_ps(S->bd2 + S->nb, _mm256_permutevar8x32_ps((__m256)d2, perm));
    _mm256_storeu_si256((__m256i *)(void *)(S->bslot + S->nb), _mm256_permutevar8x32_epi32((__m256i)sl, perm));
    S->nb += (int)(e >> 24);
#else
    int nb = S->nb;
    for (int q = 0; q < TW; q++) {
        S->bd2[nb] = d2[q];
        S->bslot[nb] = sl[q];
        nb += (int)((b >> q) & 1u);
    }
    S->nb = nb;
#endif
}

/* One vector of candidates (slots idx, offsets dx dy dz, squared distances d2, valid lanes v): those
 * within the threshold (and the cone) into the list, or the buffer with buf; with hard, every valid one
 * closer than the contact radius into the contacts. */
static inline __attribute__((always_inline)) TATTR void T(take)(search *S, const int32_t *restrict order,
    T(tvf) dx, T(tvf) dy, T(tvf) dz, T(tvf) d2, T(tvi) v, T(tvi) idx, const bool cone, const bool hard,
    const bool buf)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const vf zero = {0};
    vi m = v & (d2 <= S->thr);
    if (cone) {
        /* dot >= c |d| without the root, as the metric kernel does */
        const vf dot = dx * S->vx + dy * S->vy + dz * S->vz;
        const vf dd = dot * dot, kd = d2 * S->k2;
        const vi ahead = dot >= zero;
        m &= S->kpos ? (ahead & (dd >= kd)) : (ahead | (dd <= kd));
    }
    uint32_t b = T(bits)(m);
    if (buf) {
        if (S->nb > BUF_SIZE - TW)
            buffer_flush(S, order);
        T(append)(S, d2, idx, b);
    } else {
        while (b) {
            const int q = __builtin_ctz(b);
            b &= b - 1;
            list_add(S, d2[q], order[idx[q]], idx[q]);
        }
    }
    if (hard) {
        uint32_t h = T(bits)(v & (d2 < S->h2));
        while (h) {
            const int q = __builtin_ctz(h);
            h &= h - 1;
            insert(S->hard, &S->nh, MAX_CONTACTS, d2[q], order[idx[q]], idx[q]);
        }
    }
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
        T(take)(S, order, dx, dy, dz, d2, v, j, cone, hard, buf);
    }
}

/* The block's candidates, copied once per cell into G (contiguous, so a boid's scan has no slice
 * ends): positions (x NaN for a boid that is no neighbour, weight <= 0: its d2 is NaN and fails every
 * test) and sorted slots; one vector of NaN after the end. */
static inline __attribute__((always_inline)) TATTR void T(gather)(const mur_flock *f, const block *B, gathered *G)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const float *restrict X = f->sx, *restrict Y = f->sy, *restrict Z = f->sz, *restrict W = f->sw;
    const vf zero = {0}, nan = zero + NAN;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    int32_t o = 0;
    for (int q = 0; q < B->ns; q++) {
        const int32_t lo = B->lo[q], hi = B->hi[q];
        /* whole vectors: up to TW - 1 values past the slice, overwritten by the next one */
        for (int32_t j = lo; j < hi; j += TW, o += TW) {
            vf x, w;
            memcpy(&x, X + j, sizeof x);
            memcpy(&w, W + j, sizeof w);
            x = VSEL_F(w > zero, x, nan);
            memcpy(G->x + o, &x, sizeof x);
            memcpy(G->y + o, Y + j, sizeof x);
            memcpy(G->z + o, Z + j, sizeof x);
            const vi sl = iota + j;
            memcpy(G->s + o, &sl, sizeof sl);
        }
        o -= (TW - (hi - lo) % TW) % TW;
    }
    memcpy(G->x + o, &nan, sizeof nan);
    G->n = o;
    G->cell = B->cell;
}

/* The gathered candidates with d2 > dlo: into the buffer (buf) or the list, and the contacts (hard). */
static inline __attribute__((always_inline)) TATTR void T(scan_gathered)(const mur_flock *f, search *S,
    const gathered *G, float dlo, const bool cone, const bool hard, const bool buf)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const int32_t *restrict order = f->order;
    const float px = S->px, py = S->py, pz = S->pz;
    S->tested += G->n;
    for (int32_t j0 = 0; j0 < G->n; j0 += TW) {
        vf x, y, z;
        vi sl;
        memcpy(&x, G->x + j0, sizeof x);
        memcpy(&y, G->y + j0, sizeof y);
        memcpy(&z, G->z + j0, sizeof z);
        memcpy(&sl, G->s + j0, sizeof sl);
        const vf dx = x - px, dy = y - py, dz = z - pz;
        const vf d2 = dx * dx + dy * dy + dz * dz;
        const vi v = (sl != S->self) & (d2 < S->r2) & (d2 > dlo);
        T(take)(S, order, dx, dy, dz, d2, v, sl, cone, hard, buf);
    }
}

/* The buffered candidates into the list: into an empty list by rank (each one's place is the number of
 * candidates before it in (d2, index) order, counted without branches), else one by one. The ranks
 * are first counted by d2 alone, TW candidates at a time; they are a permutation exactly when no
 * two distances are equal (else tied ones share the lowest rank, and the sum of the ranks falls
 * short): then the 64-bit (d2, index) keys are ranked instead. */
static inline __attribute__((always_inline)) TATTR void T(finish)(search *S, const int32_t *order)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    if (S->n > 0) {
        buffer_flush(S, order);
        return;
    }
    const int nb = S->nb;
    const int np = (nb + TW - 1) / TW * TW;
    for (int i = nb; i < np; i++)
        S->bd2[i] = INFINITY;
    int32_t rank[BUF_SIZE] __attribute__((aligned(32)));
    for (int i0 = 0; i0 < np; i0 += TW) {
        vf di;
        memcpy(&di, S->bd2 + i0, sizeof di);
        vi acc = {0};
        for (int j = 0; j < nb; j++)
            acc += S->bd2[j] < di;
        memcpy(rank + i0, &acc, sizeof acc);
    }
    int64_t sum = 0;
    for (int i = 0; i < nb; i++)
        sum -= rank[i];
    if (sum == (int64_t)nb * (nb - 1) / 2) {
        for (int i = 0; i < nb; i++) {
            const int r = -rank[i];
            const int dst = r < S->cap ? r : MUR_TOPO_MAX;
            uint32_t b;
            memcpy(&b, &S->bd2[i], sizeof b);
            S->key[dst] = (uint64_t)b << 32 | (uint32_t)order[S->bslot[i]];
            S->slot[dst] = S->bslot[i];
        }
    } else {
        int64_t key[BUF_SIZE];
        for (int i = 0; i < nb; i++) {
            uint32_t b;
            memcpy(&b, &S->bd2[i], sizeof b);
            key[i] = (int64_t)((uint64_t)b << 32 | (uint32_t)order[S->bslot[i]]);
        }
        for (int i = 0; i < nb; i++) {
            int r = 0;
            for (int j = 0; j < nb; j++)
                r += key[j] < key[i];
            const int dst = r < S->cap ? r : MUR_TOPO_MAX;
            S->key[dst] = (uint64_t)key[i];
            S->slot[dst] = S->bslot[i];
        }
    }
    S->n = nb < S->cap ? nb : S->cap;
    S->nb = 0;
    if (S->n == S->cap) {
        const float w = list_worst(S);
        S->thr = w < S->thr0 ? w : S->thr0;
    }
}

/* Ring R (R >= 2) around cell c, clipped to the grid; columns and cells that cannot hold a boid
 * closer than the list's threshold (or the contact radius) are skipped. False when the ring is wholly
 * outside the grid. */
static inline __attribute__((always_inline)) TATTR bool T(ring)(const mur_flock *f, search *S, const int32_t c[3],
    int32_t R, const bool cone, const bool hard)
{
    const mur_grid *g = &f->grid;
    const int32_t *D = g->dims;
    if (c[0] - R < 0 && c[0] + R >= D[0] && c[1] - R < 0 && c[1] + R >= D[1] && c[2] - R < 0 && c[2] + R >= D[2])
        return false;
    const int32_t z0 = c[2] - R < 0 ? 0 : c[2] - R, z1 = c[2] + R >= D[2] ? D[2] - 1 : c[2] + R;
    const int32_t x0 = c[0] - R < 0 ? 0 : c[0] - R, x1 = c[0] + R >= D[0] ? D[0] - 1 : c[0] + R;
    const int32_t y0 = c[1] - R < 0 ? 0 : c[1] - R, y1 = c[1] + R >= D[1] ? D[1] - 1 : c[1] + R;
    for (int32_t z = z0; z <= z1; z++) {
        const bool zface = z == c[2] - R || z == c[2] + R;
        const float gz = cell_gap(g, 2, z, z, S->pz);
        for (int32_t x = x0; x <= x1; x++) {
            const float gx = cell_gap(g, 0, x, x, S->px);
            const float gxz = gx * gx + gz * gz;
            if (gxz > scan_limit(S, hard))
                continue;
            if (zface || x == c[0] - R || x == c[0] + R) {
                /* the whole column is on the ring: one slice of the sorted arrays */
                const float gy = cell_gap(g, 1, y0, y1, S->py);
                if (gxz + gy * gy <= scan_limit(S, hard))
                    T(slice)(f, S, g->start[mur_cell_id(g, x, y0, z)], g->start[mur_cell_id(g, x, y1, z) + 1],
                             -1.0f, cone, hard, false);
                continue;
            }
            for (int side = -1; side <= 1; side += 2) {
                const int32_t y = c[1] + side * R;
                if (y < 0 || y >= D[1])
                    continue;
                const float gy = cell_gap(g, 1, y, y, S->py);
                if (gxz + gy * gy <= scan_limit(S, hard)) {
                    const int64_t id = mur_cell_id(g, x, y, z);
                    T(slice)(f, S, g->start[id], g->start[id + 1], -1.0f, cone, hard, false);
                }
            }
        }
    }
    return true;
}

/* The search of one boid (see the top of topo.c): the block of rings 0 and 1 with the threshold of
 * ring 1's bound, and only when that does not make the list certain, the rest of the block and the
 * rings beyond. */
static inline __attribute__((always_inline)) TATTR void T(grow_)(const mur_flock *f, search *S, const block *B,
    gathered *G, const bool cone, const bool hard)
{
    const float b1 = ring_bound(f, S, B->c, 1);
    S->thr0 = S->thr = b1 >= S->vr ? INFINITY : b1 * b1;
    const bool crowded = B->own_hi - B->own_lo >= S->cap;
    if (!crowded && B->total <= GATHER_MAX) {
        if (G->cell != B->cell)
            T(gather)(f, B, G);
        T(scan_gathered)(f, S, G, -1.0f, cone, hard, true);
    } else {
        int s0 = 0;
        if (crowded) {
            /* a crowded cell may hold the whole list */
            const float b0 = ring_bound(f, S, B->c, 0);
            T(slice)(f, S, B->own_lo, B->own_hi, -1.0f, cone, hard, true);
            T(finish)(S, f->order);
            if (b0 > 0.0f && b0 >= S->hr && list_certain(S, b0))
                return;
            T(slice)(f, S, B->lo[0], B->own_lo, -1.0f, cone, hard, true);
            T(slice)(f, S, B->own_hi, B->hi[0], -1.0f, cone, hard, true);
            s0 = 1;
        }
        for (int q = s0; q < B->ns; q++)
            T(slice)(f, S, B->lo[q], B->hi[q], -1.0f, cone, hard, true);
    }
    T(finish)(S, f->order);
    if (b1 >= S->vr || (S->n == S->cap && b1 >= S->hr))
        return;
    /* not certain: the block's candidates beyond b1, then the next rings */
    S->thr0 = S->r2;
    S->thr = S->n == S->cap ? list_worst(S) : S->r2;
    const float b12 = b1 * b1;
    if (G->cell == B->cell) {
        T(scan_gathered)(f, S, G, b12, cone, false, false);
    } else {
        for (int q = 0; q < B->ns; q++)
            T(slice)(f, S, B->lo[q], B->hi[q], b12, cone, false, false);
    }
    for (int32_t R = 2;; R++) {
        if (!T(ring)(f, S, B->c, R, cone, hard))
            break;
        const float bound = ring_bound(f, S, B->c, R);
        if (bound >= S->vr)
            break;
        if (bound >= S->hr && list_certain(S, bound))
            break;
    }
}

static TATTR void T(grow)(const mur_flock *f, search *S, const block *B, gathered *G)
{
    const int sel = (S->cone ? 2 : 0) | (S->hard ? 1 : 0);
    switch (sel) {
    case 0: T(grow_)(f, S, B, G, false, false); break;
    case 1: T(grow_)(f, S, B, G, false, true); break;
    case 2: T(grow_)(f, S, B, G, true, false); break;
    default: T(grow_)(f, S, B, G, true, true); break;
    }
}

#undef VSEL_F
#undef T
#undef T_CAT
#undef T_CAT2
