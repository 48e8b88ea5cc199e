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
                    contact_add(S, d2[q], order[j0 + q], j0 + q);
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
    memcpy(G->x + o + TW, &nan, sizeof nan); /* (the 16-lane scan reads 16 past the end) */
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

/* One vector of the gathered candidates at j0 (scan_gathered's body): its distances d2 and differences
 * dx, dy, dz (p - x) already computed. The running thresholds (thr, tsk, hcut) and the buffer's count
 * nb are the caller's locals. */
static inline __attribute__((always_inline)) TATTR void T(scan_one)(const mur_flock *f, search *S, const gathered *G,
    int32_t j0, int32_t j2, int32_t jf, T(tvf) dx, T(tvf) dy, T(tvf) dz, T(tvf) d2, float dlo, float hmax, float r2b,
    float *thr, T(tvf) *tsk, float *hcut, int *nb, const bool cone, const bool hard, const bool buf, const bool above)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const int32_t *restrict order = f->order;
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    vi v = (vi){0} - 1;
    if (above)
        v = d2 > dlo;
    if (j0 >= jf)
        v &= iota + j0 < j2; /* past j2: the next part's candidates */
    vi vis = v & (d2 <= *thr);
    if (cone)
        vis &= T(in_cone)(dx, dy, dz, d2, -S->vx, -S->vy, -S->vz, S->k2s);
    const vi sl = *(const T(tviu) *)(const void *)(G->s + j0);
    uint32_t b = T(bits)(vis);
    if (buf) {
        if (*nb > BUF_SIZE - TW) {
            S->nb = *nb;
            buffer_flush(S, order);
            *nb = 0;
            *thr = S->thr < r2b ? S->thr : r2b;
            *tsk = (vf){0} + (hard && T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr);
        }
        T(append)(S->bd2, S->bslot, nb, d2, sl, b);
    } else if (b) {
        do {
            const int q = __builtin_ctz(b);
            b &= b - 1;
            list_add(S, d2[q], order[sl[q]], sl[q]);
        } while (b);
        *thr = S->thr < r2b ? S->thr : r2b;
        *tsk = (vf){0} + (hard && T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr);
    }
    if (hard) {
        uint32_t h = T(bits)(v & (d2 < *hcut));
        if (h) {
            do {
                const int q = __builtin_ctz(h);
                h &= h - 1;
                contact_add(S, d2[q], order[sl[q]], sl[q]);
            } while (h);
            float c = contact_cut(S);
            c = c < S->r2 ? c : S->r2;
            *hcut = c < hmax ? c : hmax;
            *tsk = (vf){0} + (T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr);
        }
    }
}

#if defined(TSCAN16)
/* The 16-lane block scan (the AVX-512 path, TSCAN16): one 512-bit vector of 16 candidates at a time,
 * its lanes' tests as __mmask16 bits (no movemask), one exit per 16 candidates for the skip test.
 * Each candidate's d2 is the same float operations in the same order as the 8-lane scan's (p - x; (dx
 * dx + dy dy) + dz dz; no contraction), and the candidates that pass reach the buffer, the list and
 * the contacts in ascending order, so the lists and contacts are those of every other path. Within
 * one vector a lane's tests use the thresholds at the vector's start (the 8-lane scan updates them
 * between its two halves): that lets more candidates into the buffer, never fewer, and list_add and
 * contact_add drop any that the running list or contacts no longer take. */
static inline __attribute__((always_inline)) TATTR __mmask16 T(in_cone16)(__m512 dx, __m512 dy, __m512 dz, __m512 d2,
    float vx, float vy, float vz, float k2s)
{
    const __m512 dot = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, _mm512_set1_ps(vx)),
                                                   _mm512_mul_ps(dy, _mm512_set1_ps(vy))),
                                     _mm512_mul_ps(dz, _mm512_set1_ps(vz)));
    const __m512 adot = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(dot), _mm512_set1_epi32(0x7fffffff)));
    return _mm512_cmp_ps_mask(_mm512_mul_ps(dot, adot), _mm512_mul_ps(d2, _mm512_set1_ps(k2s)), _CMP_GE_OQ);
}

/* One vector of 16 gathered candidates at j0 (scan_gathered's body, as scan_one); v16 the lanes before
 * j2 (all 16 unless the vector reaches past j2 and j2 is not the end of G). */
static inline __attribute__((always_inline)) TATTR void T(scan_one16)(const mur_flock *f, search *S,
    const gathered *G, int32_t j0, __mmask16 v16, __m512 dx, __m512 dy, __m512 dz, __m512 d2, float dlo, float hmax,
    float r2b, float *thr, float *tsk, float *hcut, int *nb, const bool cone, const bool hard, const bool buf,
    const bool above)
{
    const int32_t *restrict order = f->order;
    __mmask16 v = v16;
    if (above)
        v = _mm512_mask_cmp_ps_mask(v, d2, _mm512_set1_ps(dlo), _CMP_GT_OQ);
    __mmask16 vis = _mm512_mask_cmp_ps_mask(v, d2, _mm512_set1_ps(*thr), _CMP_LE_OQ);
    if (cone)
        vis &= T(in_cone16)(dx, dy, dz, d2, -S->vx, -S->vy, -S->vz, S->k2s);
    const __m512i sl = _mm512_loadu_si512((const void *)(G->s + j0));
    if (buf) {
        if (*nb > BUF_SIZE - 16) {
            S->nb = *nb;
            buffer_flush(S, order);
            *nb = 0;
            *thr = S->thr < r2b ? S->thr : r2b;
            *tsk = hard && T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr;
        }
        /* the register form of the compress (its store form is slow on Zen 4); bd2 and bslot hold 16
         * values past BUF_SIZE - 16 */
        _mm512_storeu_ps(S->bd2 + *nb, _mm512_maskz_compress_ps(vis, d2));
        _mm512_storeu_si512((void *)(S->bslot + *nb), _mm512_maskz_compress_epi32(vis, sl));
        *nb += __builtin_popcount((unsigned)vis);
    } else if (vis) {
        float dd[16];
        int32_t ss[16];
        _mm512_storeu_ps(dd, d2);
        _mm512_storeu_si512((void *)ss, sl);
        uint32_t b = vis;
        do {
            const int q = __builtin_ctz(b);
            b &= b - 1;
            list_add(S, dd[q], order[ss[q]], ss[q]);
        } while (b);
        *thr = S->thr < r2b ? S->thr : r2b;
        *tsk = hard && T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr;
    }
    if (hard) {
        uint32_t h = _mm512_mask_cmp_ps_mask(v, d2, _mm512_set1_ps(*hcut), _CMP_LT_OQ);
        if (h) {
            float dd[16];
            int32_t ss[16];
            _mm512_storeu_ps(dd, d2);
            _mm512_storeu_si512((void *)ss, sl);
            do {
                const int q = __builtin_ctz(h);
                h &= h - 1;
                contact_add(S, dd[q], order[ss[q]], ss[q]);
            } while (h);
            float c = contact_cut(S);
            c = c < S->r2 ? c : S->r2;
            *hcut = c < hmax ? c : hmax;
            *tsk = T(below)(*hcut) > *thr ? T(below)(*hcut) : *thr;
        }
    }
}

/* vectors of 16 per part of the mask scan (scan_gathered, TSCAN16) */
#define SCAN16_PART 32

/* scan_gathered (below) 16 candidates at a time. The lanes past j2 are masked (by v16) where j2 is not
 * the end of G; past the end G holds 16 x of NaN, whose d2 fails every test. */
static inline __attribute__((always_inline)) TATTR void T(scan_gathered)(const mur_flock *f, search *S,
    const gathered *G, int32_t j1, int32_t j2, float dlo, float hmax, const bool cone, const bool hard,
    const bool buf, const bool above)
{
    const float *restrict gx = G->x, *restrict gy = G->y, *restrict gz = G->z;
    const float r2b = T(below)(S->r2);
    float hcut = 0.0f;
    if (hard) {
        hcut = contact_cut(S);
        hcut = hcut < S->r2 ? hcut : S->r2;
        hcut = hcut < hmax ? hcut : hmax;
    }
    float thr = S->thr < r2b ? S->thr : r2b;
    float tsk = hard && T(below)(hcut) > thr ? T(below)(hcut) : thr;
    __m512 tskv = _mm512_set1_ps(tsk);
    const __m512 pxv = _mm512_set1_ps(S->px), pyv = _mm512_set1_ps(S->py), pzv = _mm512_set1_ps(S->pz);
    const __m512 dlov = _mm512_set1_ps(dlo);
    int nb = S->nb;
    S->tested += j2 - j1;
    /* whole vectors without a lane mask up to jf */
    const int32_t jf = j2 == G->n ? j2 : j1 + (j2 - j1) / 16 * 16;
    /* In parts of up to SCAN16_PART vectors: first every vector's d2 (kept in d2s) and its skip test
     * against the threshold at the part's start, one bit a vector in a mask, without a branch; then
     * the marked vectors in ascending order, each tested again against the running threshold (it only
     * falls, so the vectors that pass are those the test per vector passed, and the same candidates
     * reach the buffer, list and contacts in the same order). The exits of the per-vector test were
     * the scan's mispredicted branch; the walk's re-test nearly always passes. */
    float d2s[SCAN16_PART * 16] __attribute__((aligned(64)));
    for (int32_t p0 = j1; p0 < j2; p0 += SCAN16_PART * 16) {
        const int32_t p1 = j2 - p0 > SCAN16_PART * 16 ? p0 + SCAN16_PART * 16 : j2;
        uint32_t marks = 0;
        for (int32_t j0 = p0, u = 0; j0 < p1; j0 += 16, u++) {
            const __m512 dx = _mm512_sub_ps(pxv, _mm512_loadu_ps(gx + j0));
            const __m512 dy = _mm512_sub_ps(pyv, _mm512_loadu_ps(gy + j0));
            const __m512 dz = _mm512_sub_ps(pzv, _mm512_loadu_ps(gz + j0));
            const __m512 d2 = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)),
                                            _mm512_mul_ps(dz, dz));
            _mm512_store_ps(d2s + 16 * u, d2);
            __mmask16 near = _mm512_cmp_ps_mask(d2, tskv, _CMP_LE_OQ);
            if (above)
                near = _mm512_mask_cmp_ps_mask(near, d2, dlov, _CMP_GT_OQ);
            marks |= (uint32_t)(near != 0) << u;
        }
        while (marks) {
            const int u = __builtin_ctz(marks);
            marks &= marks - 1;
            const int32_t j0 = p0 + 16 * u;
            const __m512 d2 = _mm512_load_ps(d2s + 16 * u);
            __mmask16 near = _mm512_cmp_ps_mask(d2, tskv, _CMP_LE_OQ);
            if (above)
                near = _mm512_mask_cmp_ps_mask(near, d2, dlov, _CMP_GT_OQ);
            if (!near)
                continue;
            /* the differences again (the same operations: the same bits), for the view cone */
            const __m512 dx = _mm512_sub_ps(pxv, _mm512_loadu_ps(gx + j0));
            const __m512 dy = _mm512_sub_ps(pyv, _mm512_loadu_ps(gy + j0));
            const __m512 dz = _mm512_sub_ps(pzv, _mm512_loadu_ps(gz + j0));
            const __mmask16 v16 = j0 >= jf ? (__mmask16)((1u << (j2 - j0)) - 1u) : (__mmask16)0xffff;
            T(scan_one16)(f, S, G, j0, v16, dx, dy, dz, d2, dlo, hmax, r2b, &thr, &tsk, &hcut, &nb, cone, hard,
                          buf, above);
            tskv = _mm512_set1_ps(tsk);
        }
    }
    if (buf)
        S->nb = nb;
}
#else
/* vectors per part of the mask scan (scan_gathered, 8 or 4 lanes) */
#ifndef SCANW_PART
#define SCANW_PART 64
#endif

/* The gathered candidates with d2 > dlo (only with above; else every one): into the buffer (buf) or
 * the list, and the contacts (hard). The boid itself is not among them: grow_ sets its x in G to NaN
 * while it searches. A vector that reaches past j2 masks its lanes unless j2 is the end of G (a
 * vector of NaN follows it). The view radius is folded into the thresholds: d2 < r2 and d2 <= thr
 * is d2 <= min(thr, the float below r2); d2 < r2 and d2 < hcut is d2 < min(hcut, r2). The skip test
 * is made for a part of the vectors at a time, into a mask (below). */
static inline __attribute__((always_inline)) TATTR void T(scan_gathered)(const mur_flock *f, search *S,
    const gathered *G, int32_t j1, int32_t j2, float dlo, float hmax, const bool cone, const bool hard,
    const bool buf, const bool above)
{
    typedef T(tvf) vf;
    typedef T(tvi) vi;
    const float *restrict gx = G->x, *restrict gy = G->y, *restrict gz = G->z;
    const float px = S->px, py = S->py, pz = S->pz;
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
    /* In parts of up to SCANW_PART vectors: first every vector's d2 (kept in d2s) and its skip test
     * against the threshold at the part's start, one bit a vector in a mask, without a branch (most
     * vectors hold no candidate near enough: 35-60% of them, with a first radius from the last tick or
     * the block's bound; the lane mask past j2 can only drop more); then the marked vectors in
     * ascending order, each tested again against the running threshold (it only falls, so the vectors
     * that pass are those a test per vector passes, and the same candidates reach the buffer, list
     * and contacts in the same order). p - x, not x - p (the same bits negated: d2 is the same, and
     * so is the view cone's dot with the negated velocity), so that the loads fold into the
     * subtractions. */
    float d2s[SCANW_PART * TW] __attribute__((aligned(32)));
    for (int32_t p0 = j1; p0 < j2; p0 += SCANW_PART * TW) {
        const int32_t p1 = j2 - p0 > SCANW_PART * TW ? p0 + SCANW_PART * TW : j2;
        uint64_t marks = 0;
        for (int32_t j0 = p0, u = 0; j0 < p1; j0 += TW, u++) {
            const vf dx = pxv - *(const T(tvfu) *)(const void *)(gx + j0);
            const vf dy = pyv - *(const T(tvfu) *)(const void *)(gy + j0);
            const vf dz = pzv - *(const T(tvfu) *)(const void *)(gz + j0);
            const vf d2 = dx * dx + dy * dy + dz * dz;
            memcpy(d2s + TW * u, &d2, sizeof d2);
            vi near = d2 <= tsk;
            if (above)
                near &= d2 > dlo;
            marks |= (uint64_t)(T(bits)(near) != 0) << u;
        }
        while (marks) {
            const int u = __builtin_ctzll(marks);
            marks &= marks - 1;
            const int32_t j0 = p0 + TW * u;
            vf d2;
            memcpy(&d2, d2s + TW * u, sizeof d2);
            vi near = d2 <= tsk;
            if (above)
                near &= d2 > dlo;
            if (!T(bits)(near))
                continue;
            /* the differences again (the same operations: the same bits), for the view cone */
            const vf dx = pxv - *(const T(tvfu) *)(const void *)(gx + j0);
            const vf dy = pyv - *(const T(tvfu) *)(const void *)(gy + j0);
            const vf dz = pzv - *(const T(tvfu) *)(const void *)(gz + j0);
            T(scan_one)(f, S, G, j0, j2, jf, dx, dy, dz, d2, dlo, hmax, r2b, &thr, &tsk, &hcut, &nb, cone, hard, buf,
                        above);
        }
    }
    if (buf)
        S->nb = nb;
}

#endif

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

/* the rings, the search of one boid and the lists' kernels */
#include "topo_body_grow.h"

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
