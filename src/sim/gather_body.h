/* The column copy of the row gather (see do_row in rules.c) for one vector width, included by rules.c
 * once per width with
 *   GATHER_COLUMN   the function's name (gather_column_base, _avx2, _avx512: the name a profiler shows)
 *   GW      floats per vector (4, 8, 16)
 *   GATTR   the target attribute of the path (empty for base)
 * Appends column xoff (shifted by shx) of the row's pieces to the buffer at o and returns the new end.
 * Copies go GW floats at a time and may write up to GW - 1 floats past the end (the buffer is padded;
 * the next piece overwrites them); the values are the same for every GW. *center gets the buffer
 * position of the first boid of cell (x, cy). With lean (the lean kernel's buffer, kernel.h) the
 * weights are not copied and a candidate of weight 0 gets x = MUR_FAR instead. No include guard: each
 * inclusion is one path. */
typedef float GATHER_VG __attribute__((vector_size(4 * GW)));
typedef int32_t GATHER_VGI __attribute__((vector_size(4 * GW)));
static GATTR int32_t GATHER_COLUMN(const mur_flock *f, mur_gather *gb, const piece *pc, int np, int cp,
                                         int32_t cy, int64_t xoff, float shx, int32_t o, int32_t *center,
                                         bool prefetch, int32_t dy, bool lean)
{
    typedef GATHER_VG vg;
    typedef GATHER_VGI vgi;
    const int32_t *restrict start = f->grid.start;
    /* local copies of the pointers: stores through float * could otherwise alias them */
    const float *restrict ax = f->sx, *restrict ay = f->sy, *restrict az = f->sz;
    const float *restrict avx = f->svx, *restrict avy = f->svy, *restrict avz = f->svz;
    const float *restrict aw = f->sw;
    const float *const src[7] = {ax, ay, az, avx, avy, avz, aw};
    /* the buffer's 7 arrays are one allocation, MUR_GATHER_STRIDE floats apart (flock.c): one
     * destination pointer per piece with constant offsets, so the copy of a small piece (a few boids
     * at reach 2) does not first set up 14 pointers (gcc spilled them: most of the copy's
     * instructions there) */
    const ptrdiff_t S = MUR_GATHER_STRIDE;
    const vg zero = {0};
    const vg sx = zero + shx;
    const vg far = zero + MUR_FAR;
    for (int p = 0; p < np; p++) {
        const int32_t lo = start[pc[p].zoff + xoff + pc[p].y0];
        const int32_t hi = start[pc[p].zoff + xoff + pc[p].y1 + 1];
        if (p == cp)
            *center = o + (start[pc[p].zoff + xoff + cy] - lo);
        const vg sy = zero + pc[p].sy, sz = zero + pc[p].sz;
        if (prefetch) {
            /* the same piece of the next column, needed after this cell's boids are scanned: too
             * many streams (7 arrays x 3 z levels) for the hardware prefetchers */
            const int32_t nlo = start[pc[p].zoff + xoff + dy + pc[p].y0];
            const int32_t nhi = start[pc[p].zoff + xoff + dy + pc[p].y1 + 1];
            if (nhi - nlo <= 16) {
                /* a small piece (reach 2: a few boids) spans at most 3 lines of each array: their
                 * prefetches without the loop, whose 7 pointers gcc spilled and reloaded per piece */
                for (int k = 0; k < 7; k++) {
                    __builtin_prefetch(src[k] + nlo);
                    __builtin_prefetch(src[k] + nlo + 16);
                    __builtin_prefetch(src[k] + nhi + 15);
                }
            } else {
                for (int32_t q = nlo; q < nhi + 15; q += 16) {
                    __builtin_prefetch(ax + q);
                    __builtin_prefetch(ay + q);
                    __builtin_prefetch(az + q);
                    __builtin_prefetch(avx + q);
                    __builtin_prefetch(avy + q);
                    __builtin_prefetch(avz + q);
                    __builtin_prefetch(aw + q);
                }
            }
        }
        /* slot j of the sorted arrays goes to slot j + off of each buffer array */
        float *restrict d = gb->x;
        const ptrdiff_t off = (ptrdiff_t)o - lo;
        if (lean) {
            /* the velocities go through an OR with an opaque zero (the same bits): a plain copy
             * was split by gcc's generic tuning into two 16-byte loads per vector on AVX2 (3
             * instructions per array and vector), an OR takes the whole vector as its operand */
            vgi z0 = {0};
#ifdef MUR_X86_PATHS
            __asm__("" : "+x"(z0));
#endif
            for (int32_t j = lo; j < hi; j += GW) {
                vg a, w;
                memcpy(&w, aw + j, sizeof w);
                const vgi keep = w > zero;
                memcpy(&a, ax + j, sizeof a); a += sx;
                a = (vg)(((vgi)a & keep) | (~keep & (vgi)far));
                memcpy(d + (off + j), &a, sizeof a);
                memcpy(&a, ay + j, sizeof a); a += sy; memcpy(d + (off + j) + S, &a, sizeof a);
                memcpy(&a, az + j, sizeof a); a += sz; memcpy(d + (off + j) + 2 * S, &a, sizeof a);
                vgi v;
                memcpy(&v, avx + j, sizeof v); v |= z0; memcpy(d + (off + j) + 3 * S, &v, sizeof v);
                memcpy(&v, avy + j, sizeof v); v |= z0; memcpy(d + (off + j) + 4 * S, &v, sizeof v);
                memcpy(&v, avz + j, sizeof v); v |= z0; memcpy(d + (off + j) + 5 * S, &v, sizeof v);
            }
            o += hi - lo;
            continue;
        }
        for (int32_t j = lo; j < hi; j += GW) {
            vg a;
            memcpy(&a, ax + j, sizeof a); a += sx; memcpy(d + (off + j), &a, sizeof a);
            memcpy(&a, ay + j, sizeof a); a += sy; memcpy(d + (off + j) + S, &a, sizeof a);
            memcpy(&a, az + j, sizeof a); a += sz; memcpy(d + (off + j) + 2 * S, &a, sizeof a);
            memcpy(d + (off + j) + 3 * S, avx + j, sizeof a);
            memcpy(d + (off + j) + 4 * S, avy + j, sizeof a);
            memcpy(d + (off + j) + 5 * S, avz + j, sizeof a);
            memcpy(d + (off + j) + 6 * S, aw + j, sizeof a);
        }
        o += hi - lo;
    }
    return o;
}

/* the path's parameters end with it: the next inclusion defines its own */
#undef GATHER_COLUMN
#undef GATHER_VG
#undef GATHER_VGI
#undef GW
#undef GATTR
