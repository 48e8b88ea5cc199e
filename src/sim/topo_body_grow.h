/* The rest of the topological search of one vector width: the rings beyond the block, the search of
 * one boid (TOPO_GROW), and the neighbour lists' kernels (TOPO_LIST_SCAN, TOPO_SERVE: topo_lists.c).
 * Included by topo_body.h only, after its block-pass helpers, within the same path's macros (T, TW,
 * TATTR, ...). No include guard: each inclusion is one path. */
/* Column (x, z) of a ring, cells [y0, y1]: one slice of the sorted arrays, unless farther than the
 * limit. gx, gy, gz: the gaps to column x, to cells [y0, y1] and to slab z (cell_gap). */
static inline __attribute__((always_inline)) TATTR void T(ring_column)(const mur_flock *f, search *S, int32_t x,
    int32_t z, int32_t y0, int32_t y1, float gx, float gy, float gz, const bool cone, const bool hard)
{
    const mur_grid *g = &f->grid;
    const float gxz = gx * gx + gz * gz;
    if (y0 > y1 || gxz > scan_limit(S, hard))
        return;
    if (gxz + gy * gy <= scan_limit(S, hard))
        T(slice)(f, S, g->start[mur_cell_id(g, x, y0, z)], g->start[mur_cell_id(g, x, y1, z) + 1], -1.0f, cone,
                 hard, false);
}

/* Columns of a ring whose x gaps are computed once per ring (more: each where it is needed). */
#define RING_GAPS 64

/* Ring R (R >= 2) around cell c, clipped to the grid; columns and cells that cannot hold a boid
 * closer than the list's threshold (or the contacts' limit) are skipped. Only the ring's cells inside
 * the grid are walked (a flat or thin grid has few: walking the whole (2R + 1)^2 square of columns
 * made a boid far from its neighbours cost R^3). The gaps to the ring's columns (x), to its y range
 * and to its two y faces are computed once per ring, not per column and slab (they were 9% of the
 * instructions of a forming tick: issue 23, branch form9). False when the ring is wholly outside the
 * grid. */
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
    if (z0 > z1 || x0 > x1)
        return true;
    const float gyc = cell_gap(g, 1, y0, y1, S->py);
    const float gyf[2] = {cell_gap(g, 1, c[1] - R, c[1] - R, S->py), cell_gap(g, 1, c[1] + R, c[1] + R, S->py)};
    float gxs[RING_GAPS];
    const bool table = x1 - x0 < RING_GAPS;
    if (table)
        for (int32_t x = x0; x <= x1; x++)
            gxs[x - x0] = cell_gap(g, 0, x, x, S->px);
#define RING_GX(x) (table ? gxs[(x) - x0] : cell_gap(g, 0, (x), (x), S->px))
    for (int32_t z = z0; z <= z1; z++) {
        if (z == c[2] - R || z == c[2] + R) {
            /* a face of the ring: whole columns */
            const float gz = cell_gap(g, 2, z, z, S->pz);
            for (int32_t x = x0; x <= x1; x++)
                T(ring_column)(f, S, x, z, y0, y1, RING_GX(x), gyc, gz, cone, hard);
            continue;
        }
        if (!xlo && !xhi && !ylo && !yhi) {
            /* no cell of the ring between the two z faces: on to the upper one */
            z = c[2] + R - 1 < z1 ? c[2] + R - 1 : z1;
            continue;
        }
        const float gz = cell_gap(g, 2, z, z, S->pz);
        if (xlo)
            T(ring_column)(f, S, c[0] - R, z, y0, y1, RING_GX(c[0] - R), gyc, gz, cone, hard);
        if (ylo || yhi) {
            const int32_t xa = x0 > c[0] - R ? x0 : c[0] - R + 1, xb = x1 < c[0] + R ? x1 : c[0] + R - 1;
            for (int32_t x = xa; x <= xb; x++) {
                const float gx = RING_GX(x);
                const float gxz = gx * gx + gz * gz;
                if (gxz > scan_limit(S, hard))
                    continue;
                for (int side = 0; side < 2; side++) {
                    if (!(side ? yhi : ylo))
                        continue;
                    const float gy = gyf[side];
                    if (gxz + gy * gy <= scan_limit(S, hard)) {
                        const int64_t id = mur_cell_id(g, x, c[1] + (side ? R : -R), z);
                        T(slice)(f, S, g->start[id], g->start[id + 1], -1.0f, cone, hard, false);
                    }
                }
            }
        }
        if (xhi)
            T(ring_column)(f, S, c[0] + R, z, y0, y1, RING_GX(c[0] + R), gyc, gz, cone, hard);
    }
#undef RING_GX
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
                                                     (S->nh == MAX_CONTACTS && contact_d2(S, MAX_CONTACTS - 1) <= t1));
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

/* The neighbour list's scan (topo_lists.c mur_tl_build): the boids of the block's columns other than slot k
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

/* The members of a neighbour list (topo_lists.c mur_tl_serve): idx[0, cnt) are boid indices (those >= f->n
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
                contact_add(S, d2[q], jv[q], sl[q]);
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
