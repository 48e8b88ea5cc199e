/* The neighbour kernel of one vector width (see kernel.h), included once by each of kernel_base.c,
 * kernel_avx2.c and kernel_avx512.c, which define
 *   KERNEL_SCAN, KERNEL_SCAN_LEAN, KERNEL_SCAN2   the names of the functions this width defines (the
 *           names a profiler shows; a width that has no lean or two-boid kernel leaves it undefined)
 *   KW      floats per vector (4, 8, 16)
 *   KATTR   the target attribute of the path (empty for base)
 *   KMASK(K, M), MADD(A, X, K), MSUB(A, X, K)   the masked sums of the path
 *   KMIN(A, B)   A < B ? A : B lane by lane
 * Lanes [s KW, (s + 1) KW) of the 16 are one pass over the candidates with the sums in registers.
 * One width per translation unit: the helpers here are static and need no suffix. */
/* The nine sums of a chunk into a (dx, dy, dz, vx, vy, vz in scope): cohesion and alignment by ADD
 * with w, separation by SUB with ws. */
#define K_SUMS(ADD, SUB, w, ws)                                                                      \
    do {                                                                                             \
        ADD(a->cx, dx, w);                                                                           \
        ADD(a->cy, dy, w);                                                                           \
        ADD(a->cz, dz, w);                                                                           \
        ADD(a->ax, vx, w);                                                                           \
        ADD(a->ay, vy, w);                                                                           \
        ADD(a->az, vz, w);                                                                           \
        SUB(a->sx, dx, ws);                                                                          \
        SUB(a->sy, dy, ws);                                                                          \
        SUB(a->sz, dz, ws);                                                                          \
    } while (0)

typedef float vf __attribute__((vector_size(4 * KW)));
typedef int32_t vi __attribute__((vector_size(4 * KW)));
typedef struct lanes {
    vf cnt, cx, cy, cz, ax, ay, az, sx, sy, sz, nn;
} lanes;
/* The view cone's lanes: dot >= k sqrt(d2) (k = cos_half |v|) without the root, as signed squares:
 * dot |dot| >= k |k| d2. Negating a product is exact, so this is, bit for bit, dot >= 0 and
 * dot^2 >= k^2 d2 when k >= 0, and dot >= 0 or dot^2 <= k^2 d2 when k < 0, in one compare. */
static inline __attribute__((always_inline)) KATTR vi in_cone(vf dx, vf dy, vf dz, vf d2,
    const kparams *p)
{
    typedef vf vf;
    typedef vi vi;
    const vf dot = dx * p->bvx + dy * p->bvy + dz * p->bvz;
    const vf adot = VAND(vf, dot, (vi){0} + 0x7fffffff);
    return dot * adot >= d2 * p->k2s;
}
/* One chunk's masked sums: (fcnt) the float count, cohesion and alignment over the neighbours m,
 * separation over those within the separation radius, and (nnd) the nearest squared distance. */
static inline __attribute__((always_inline)) KATTR void add(lanes *a, vf dx, vf dy, vf dz,
    vf vx, vf vy, vf vz, vf d2, vi m, const kparams *p, const bool fcnt, const bool nnd)
{
    typedef vf vf;
    typedef vi vi;
    const vf zero = {0};
    const vi ms = m & (d2 < zero + p->sr2);
    {
        KMASK(km, m);
        KMASK(kms, ms);
        if (fcnt)
            MADD(a->cnt, zero + 1.0f, km);
        K_SUMS(MADD, MSUB, km, kms);
    }
    if (nnd) {
        const vf dn = VSEL(vf, m, d2, zero + INFINITY);
        a->nn = KMIN(dn, a->nn);
    }
}
static inline __attribute__((always_inline)) KATTR void chunk(lanes *a, const float *const *src,
    int32_t o, int32_t idx0, float shx, float shy, float shz, int32_t self, int32_t hi, const kparams *p,
    const bool cone, const bool pairwise, const bool tail, const bool nnd)
{
    typedef vf vf;
    typedef vi vi;
    const vf zero = {0};
    vi iota;
    memcpy(&iota, lane_iota, sizeof iota);
    vf x, y, z, w, vx, vy, vz;
    memcpy(&x, src[0] + o, sizeof x);
    memcpy(&y, src[1] + o, sizeof y);
    memcpy(&z, src[2] + o, sizeof z);
    memcpy(&w, src[6] + o, sizeof w);
    vf dx, dy, dz;
    if (pairwise) {
        const vf tx = x - p->px, ty = y - p->py, tz = z - p->pz;
        const vf hx = zero + p->hL[0], hy = zero + p->hL[1], hz = zero + p->hL[2];
        dx = VSEL(vf, tx > hx, (x - p->L[0]) - p->px, VSEL(vf, tx < -hx, (x + p->L[0]) - p->px, tx));
        dy = VSEL(vf, ty > hy, (y - p->L[1]) - p->py, VSEL(vf, ty < -hy, (y + p->L[1]) - p->py, ty));
        dz = VSEL(vf, tz > hz, (z - p->L[2]) - p->pz, VSEL(vf, tz < -hz, (z + p->L[2]) - p->pz, tz));
    } else {
        dx = (x + shx) - p->px;
        dy = (y + shy) - p->py;
        dz = (z + shz) - p->pz;
    }
    const vf d2 = dx * dx + dy * dy + dz * dz;
    const vi idx = iota + idx0;
    vi m = (d2 < zero + p->r2) & (idx != self) & (w > zero);
    if (tail) /* lanes past the run's end: whatever is there, weight 0 */
        m &= idx < hi;
    if (cone)
        m &= in_cone(dx, dy, dz, d2, p);
    memcpy(&vx, src[3] + o, sizeof vx);
    memcpy(&vy, src[4] + o, sizeof vy);
    memcpy(&vz, src[5] + o, sizeof vz);
    add(a, dx, dy, dz, vx, vy, vz, d2, m, p, true, nnd);
}
static inline __attribute__((always_inline)) KATTR void runs(const scan_job *J,
    lanes *all, const bool cone, const bool pairwise, const bool nnd)
{
    const float *src[7] = {J->x, J->y, J->z, J->vx, J->vy, J->vz, J->w};
    for (int s = 0; s < MUR_LANES / KW; s++) {
        const int32_t so = s * KW;
        lanes a;
        const vf zero = {0};
        a.cnt = a.cx = a.cy = a.cz = a.ax = a.ay = a.az = a.sx = a.sy = a.sz = zero;
        a.nn = zero + INFINITY;
        for (int r = 0; r < J->nr; r++) {
            const run *R = &J->runs[r];
            const bool shifted = R->sx != 0.0f || R->sy != 0.0f || R->sz != 0.0f;
            const int32_t self = shifted ? -1 : J->self;
            int32_t j = R->lo;
            for (; j + MUR_LANES <= R->hi; j += MUR_LANES)
                chunk(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise,
                             false, nnd);
            if (j < R->hi)
                chunk(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise,
                             true, nnd);
        }
        all[s] = a;
    }
}
/* two boids of one cell against the same candidates: each boid's lanes get exactly the operations
 * of runs_, the candidate loads are shared */
static inline __attribute__((always_inline)) KATTR void runs2(const scan_job *J, const kparams *p2,
    int32_t self2, lanes *all, lanes *all2, const bool cone, const bool pairwise, const bool nnd)
{
    const float *src[7] = {J->x, J->y, J->z, J->vx, J->vy, J->vz, J->w};
    for (int s = 0; s < MUR_LANES / KW; s++) {
        const int32_t so = s * KW;
        lanes a, b;
        const vf zero = {0};
        a.cnt = a.cx = a.cy = a.cz = a.ax = a.ay = a.az = a.sx = a.sy = a.sz = zero;
        a.nn = zero + INFINITY;
        b = a;
        for (int r = 0; r < J->nr; r++) {
            const run *R = &J->runs[r];
            const bool shifted = R->sx != 0.0f || R->sy != 0.0f || R->sz != 0.0f;
            const int32_t self = shifted ? -1 : J->self, sb = shifted ? -1 : self2;
            int32_t j = R->lo;
            for (; j + MUR_LANES <= R->hi; j += MUR_LANES) {
                chunk(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise,
                             false, nnd);
                chunk(&b, src, j + so, j + so, R->sx, R->sy, R->sz, sb, R->hi, p2, cone, pairwise,
                             false, nnd);
            }
            if (j < R->hi) {
                chunk(&a, src, j + so, j + so, R->sx, R->sy, R->sz, self, R->hi, &J->p, cone, pairwise,
                             true, nnd);
                chunk(&b, src, j + so, j + so, R->sx, R->sy, R->sz, sb, R->hi, p2, cone, pairwise,
                             true, nnd);
            }
        }
        all[s] = a;
        all2[s] = b;
    }
}
/* The lean kernel's candidate distances for the nearest neighbour. Without a view cone, in a chunk
 * inside the run, a lane that is not a neighbour has d2 >= r2 (or +inf) and every neighbour is
 * closer, so the minimum over all lanes is the nearest neighbour's whenever there is one (the only
 * case the metrics read: rules.c sums it where cnt > 0); else lanes off the mask count as +inf. */
static inline __attribute__((always_inline)) KATTR vf nn_lane(vf d2, vi m, const bool cone,
    const bool tail)
{
    if (!cone && !tail)
        return d2;
    return VSEL(vf, m, d2, (vf){0} + INFINITY);
}
/* The lean kernel of the row gather (rules.c do_row): one run, unshifted, whose candidates that must
 * not count (weight 0, and the boid itself) have x = MUR_FAR in the buffer, so their d2 is +inf and
 * fails every comparison. The mask is then d2 < r2 (and the end of the run in the last chunk), with no
 * weight load, no shift adds and no self compare. The count is an integer per lane (exact, as the
 * float sums of 1 are below 2^24), converted before the reduction. Each lane gets the same sums as
 * in chunk: dx = x - px instead of (x + 0) - px differs at most in the sign of a zero, which no
 * masked sum (all start at +0) and no comparison sees. */
static inline __attribute__((always_inline)) KATTR void chunk_lean(lanes *a, vi *cnt,
    const float *const *src, int32_t o, int32_t hi, const kparams *p, const bool cone, const bool tail,
    const bool nnd)
{
    typedef vf vf;
    typedef vi vi;
    const vf zero = {0};
    vf x, y, z, vx, vy, vz;
    memcpy(&x, src[0] + o, sizeof x);
    memcpy(&y, src[1] + o, sizeof y);
    memcpy(&z, src[2] + o, sizeof z);
    const vf dx = x - p->px, dy = y - p->py, dz = z - p->pz;
    const vf d2 = dx * dx + dy * dy + dz * dz;
    vi m = d2 < zero + p->r2;
    if (tail) { /* lanes past the run's end: whatever is there, weight 0 */
        vi iota;
        memcpy(&iota, lane_iota, sizeof iota);
        m &= (iota + o) < hi;
    }
    if (cone)
        m &= in_cone(dx, dy, dz, d2, p);
    memcpy(&vx, src[3] + o, sizeof vx);
    memcpy(&vy, src[4] + o, sizeof vy);
    memcpy(&vz, src[5] + o, sizeof vz);
    *cnt -= m;
#ifdef WADD
    {
        /* weighted sums (kernel.c: the same bits as add's masked ones). d2 and m die before the
         * sums, so the 11 sums, dx, dy, dz and the two weights fit the 16 registers: with d2 live
         * to the end gcc kept two sums on the stack, a store and reload on their chains (metrics
         * on: 28% more kernel time for 8% more instructions) */
        if (nnd)
            a->nn = KMIN(nn_lane(d2, m, cone, tail), a->nn);
        const vf wm = VAND(vf, zero + 1.0f, m);
        const vf ws = VAND(vf, wm, d2 < zero + p->sr2);
        K_SUMS(WADD, WSUB, wm, ws);
    }
#else
    add(a, dx, dy, dz, vx, vy, vz, d2, m, p, false, nnd);
#endif
}
static inline __attribute__((always_inline)) KATTR void runs_lean(const scan_job *J, lanes *all,
    const bool cone, const bool nnd)
{
    const float *src[6] = {J->x, J->y, J->z, J->vx, J->vy, J->vz};
    const run *R = &J->runs[0];
    for (int s = 0; s < MUR_LANES / KW; s++) {
        const int32_t so = s * KW;
        lanes a;
        const vf zero = {0};
        vi cnt = {0};
        a.cnt = a.cx = a.cy = a.cz = a.ax = a.ay = a.az = a.sx = a.sy = a.sz = zero;
        a.nn = zero + INFINITY;
        /* the last chunk reads up to 15 slots past the run's end, whose x is MUR_FAR (kernel.h):
         * no lane test of the end, the same sums */
        for (int32_t j = R->lo; j < R->hi; j += MUR_LANES)
            chunk_lean(&a, &cnt, src, j + so, R->hi, &J->p, cone, false, nnd);
        a.cnt = __builtin_convertvector(cnt, vf);
        all[s] = a;
    }
}
#ifdef KREDUCE8
/* The tree below for 8-lane vectors (AVX2), four sums per vector after its first step: lane 0 of
 * sum k ends as ((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7)), a = lanes l + lanes l + 8, the
 * same additions of the same pairs (a + b is b + a in IEEE arithmetic), so the same bits, in 11
 * instructions per four sums instead of 24. */
static inline __attribute__((always_inline)) KATTR __m256 red4(__m256 k, __m256 n, __m256 m, __m256 o)
{
    /* step 4: lanes l + l + 4 of k and m in one vector, of n and o in another */
    const __m256 km = _mm256_add_ps(_mm256_permute2f128_ps(k, m, 0x20), _mm256_permute2f128_ps(k, m, 0x31));
    const __m256 no = _mm256_add_ps(_mm256_permute2f128_ps(n, o, 0x20), _mm256_permute2f128_ps(n, o, 0x31));
    /* step 2: lanes 0, 1 + lanes 2, 3 -> (k0 k1 n0 n1 | m0 m1 o0 o1) */
    const __m256 c = _mm256_add_ps(_mm256_shuffle_ps(km, no, _MM_SHUFFLE(1, 0, 1, 0)),
                                   _mm256_shuffle_ps(km, no, _MM_SHUFFLE(3, 2, 3, 2)));
    /* step 1, then lanes 0, 2, 4, 6 (k, n, m, o) to the low half */
    const __m256 d = _mm256_add_ps(c, _mm256_permute_ps(c, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm256_permutevar8x32_ps(d, _mm256_setr_epi32(0, 4, 2, 6, 1, 3, 5, 7));
}
static inline __attribute__((always_inline)) KATTR void reduce(lanes *all, acc *out)
{
    LANES_ADD(all[0], all[1]); /* step 8: the two sub-vectors */
    const lanes *a = &all[0];
    /* red4 gives (k, m, n, o) in its low 4 lanes: the fields of acc in order */
    float r[8];
    _mm256_storeu_ps(r, red4((__m256)a->cnt, (__m256)a->cy, (__m256)a->cx, (__m256)a->cz));
    out->cnt = r[0]; out->cx = r[1]; out->cy = r[2]; out->cz = r[3];
    _mm256_storeu_ps(r, red4((__m256)a->ax, (__m256)a->az, (__m256)a->ay, (__m256)a->sx));
    out->ax = r[0]; out->ay = r[1]; out->az = r[2]; out->sx = r[3];
    _mm256_storeu_ps(r, red4((__m256)a->sy, (__m256)a->sy, (__m256)a->sz, (__m256)a->sz));
    out->sy = r[0]; out->sz = r[1];
    /* the nearest distance: lane l = lane l + w < lane l ? lane l + w : lane l, minps's rule */
    const __m128 n4 = _mm_min_ps(_mm256_extractf128_ps((__m256)a->nn, 1), _mm256_castps256_ps128((__m256)a->nn));
    const __m128 n2 = _mm_min_ps(_mm_movehl_ps(n4, n4), n4);
    out->nn = _mm_cvtss_f32(_mm_min_ps(_mm_shuffle_ps(n2, n2, _MM_SHUFFLE(1, 1, 1, 1)), n2));
}
#else
static inline __attribute__((always_inline)) KATTR void reduce(lanes *all, acc *out)
{
    /* the fixed tree: lane l += lane l + w for w = 8, 4, 2, 1 (across sub-vectors, then inside one) */
    for (int w = MUR_LANES / 2; w >= 1; w /= 2) {
        if (w >= KW) {
            for (int s = 0; s < w / KW; s++)
                LANES_ADD(all[s], all[s + w / KW]);
        } else {
            vi mask;
            memcpy(&mask, lane_rot_w[KW == 4 ? 0 : (KW == 8 ? 1 : 2)][w], sizeof mask);
            lanes sh;
            LANES_SHUF(sh, all[0], mask);
            LANES_ADD(all[0], sh);
        }
    }
    out->cnt = all[0].cnt[0];
    out->cx = all[0].cx[0];
    out->cy = all[0].cy[0];
    out->cz = all[0].cz[0];
    out->ax = all[0].ax[0];
    out->ay = all[0].ay[0];
    out->az = all[0].az[0];
    out->sx = all[0].sx[0];
    out->sy = all[0].sy[0];
    out->sz = all[0].sz[0];
    out->nn = all[0].nn[0];
}
#endif
KATTR void KERNEL_SCAN(const scan_job *J, acc *out)
{
    lanes all[MUR_LANES / KW];
    /* one specialised copy per combination of the per-tick switches */
    const int sel = (J->cone ? 4 : 0) | (J->pairwise ? 2 : 0) | (J->nn ? 1 : 0);
    switch (sel) {
    case 0: runs(J, all, false, false, false); break;
    case 1: runs(J, all, false, false, true); break;
    case 2: runs(J, all, false, true, false); break;
    case 3: runs(J, all, false, true, true); break;
    case 4: runs(J, all, true, false, false); break;
    case 5: runs(J, all, true, false, true); break;
    case 6: runs(J, all, true, true, false); break;
    default: runs(J, all, true, true, true); break;
    }
    reduce(all, out);
}
#ifdef KERNEL_SCAN_LEAN
KATTR void KERNEL_SCAN_LEAN(const scan_job *J, acc *out)
{
    lanes all[MUR_LANES / KW];
    const int sel = (J->cone ? 2 : 0) | (J->nn ? 1 : 0);
    switch (sel) {
    case 0: runs_lean(J, all, false, false); break;
    case 1: runs_lean(J, all, false, true); break;
    case 2: runs_lean(J, all, true, false); break;
    default: runs_lean(J, all, true, true); break;
    }
    reduce(all, out);
}
#endif
#ifdef KERNEL_SCAN2
KATTR void KERNEL_SCAN2(const scan_job *J, const kparams *p2, int32_t self2, acc *out)
{
    lanes all[MUR_LANES / KW], all2[MUR_LANES / KW];
    const int sel = (J->cone ? 4 : 0) | (J->pairwise ? 2 : 0) | (J->nn ? 1 : 0);
    switch (sel) {
    case 0: runs2(J, p2, self2, all, all2, false, false, false); break;
    case 1: runs2(J, p2, self2, all, all2, false, false, true); break;
    case 2: runs2(J, p2, self2, all, all2, false, true, false); break;
    case 3: runs2(J, p2, self2, all, all2, false, true, true); break;
    case 4: runs2(J, p2, self2, all, all2, true, false, false); break;
    case 5: runs2(J, p2, self2, all, all2, true, false, true); break;
    case 6: runs2(J, p2, self2, all, all2, true, true, false); break;
    default: runs2(J, p2, self2, all, all2, true, true, true); break;
    }
    reduce(all, out);
    reduce(all2, out + 1);
}

#endif
