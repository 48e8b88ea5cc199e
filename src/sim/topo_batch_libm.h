/* tanf and atanf on W lanes with the bits of this machine's libm (glibc 2.36's float tanf and atanf,
 * the fdlibm algorithms: a polynomial in float after a reduction of the argument), for the bank of
 * the topological batch (topo_batch_update.h). Each lane runs the same IEEE float (and, for tanf's
 * quarter turn, double) operations in the same order as libm's code, every branch a select of the
 * value it keeps; a lane outside the part written here (|x| > 2 for tanf, |x| >= 2^25 for atanf, NaN
 * and Inf, and the few inputs whose libm code takes a special exit) calls libm itself. The bits are
 * checked equal to libm's for every one of the 2^32 floats by tools/libm_vec_check.sh (each width);
 * tests/test_batch_libm.c checks a sample. Where the libm differs (another C library, another
 * version) the check fails and the bits may differ from the scalar update's: run the check there.
 * libm_same (below) checks a sample once per process; where it differs, every lane calls libm. Included
 * by topo_batch.c once per width after v4, i4, d4, l4 and SEL are defined (also by the check and the
 * test), after <stdatomic.h>, <stdbool.h>, <string.h>, <math.h>. No include guard: each inclusion is
 * one width. */

/* tanf on the lanes: x's own libm call where a lane is in `use` and outside the written part, and
 * wherever it is in `lib`. */
static inline v4 vtanf(v4 x, i4 use, i4 lib)
{
    const v4 zero = {0};
    const float pio4 = 7.8539812565e-01, pio4lo = 3.7748947079e-08;
    const float T0 = 3.3333334327e-01, T1 = 1.3333334029e-01, T2 = 5.3968254477e-02, T3 = 2.1869488060e-02,
                T4 = 8.8632395491e-03, T5 = 3.5920790397e-03, T6 = 1.4562094584e-03, T7 = 5.8804126456e-04,
                T8 = 2.4646313977e-04, T9 = 7.8179444245e-05, T10 = 7.1407252108e-05, T11 = -1.8558637748e-05,
                T12 = 2.5907305826e-05;
    const i4 ax = (i4)x & 0x7fffffff;
    /* |x| <= pi/4 (as a float's bits): the kernel at (x, 0) for tan; else one quarter turn off (|x| <= 2:
     * libm's quadrant is +-1, so its x - n pi/2 in double is x -+ pi/2, the product exact) for -1/tan */
    const i4 inner = ax <= 0x3f490fda;
    const double hpi = 0x1.921FB54442D18p0;
    d4 dx = __builtin_convertvector(x, d4);
    const l4 dneg = dx < 0.0;
    dx = dx - (d4)(((l4)((d4){0} - hpi) & dneg) | ((l4)((d4){0} + hpi) & ~dneg));
    const v4 y0 = __builtin_convertvector(dx, v4);
    const v4 y1 = __builtin_convertvector(dx - __builtin_convertvector(y0, d4), v4);
    v4 X = SEL(inner, x, y0), Y = SEL(inner, zero, y1);
    const v4 iy = SEL(inner, zero + 1.0f, zero - 1.0f);
    /* the kernel */
    const i4 hx = (i4)X, ix = hx & 0x7fffffff, neg = hx < 0;
    const i4 tiny = ix < 0x39000000; /* libm returns x for tan, +-1/x (or Inf) for -1/tan */
    const i4 big = ix >= 0x3f2ca140; /* |X| >= 0.6744: tan(pi/4 - |X|) */
    const v4 Xa = SEL(neg, -X, X), Ya = SEL(neg, -Y, Y);
    const v4 zb = pio4 - Xa, wb = pio4lo - Ya, xb = zb + wb;
    const i4 near = (i4)xb & 0x7fffffff;
    X = SEL(big, xb, X);
    Y = SEL(big, zero, Y);
    const v4 z = X * X, w = z * z;
    v4 r = T1 + w * (T3 + w * (T5 + w * (T7 + w * (T9 + w * T11))));
    v4 v = z * (T2 + w * (T4 + w * (T6 + w * (T8 + w * (T10 + w * T12)))));
    const v4 s = z * X;
    r = Y + z * (s * (r + v) + Y);
    r += T0 * s;
    const v4 wr = X + r;
    const v4 sgn = SEL(neg, zero - 1.0f, zero + 1.0f);
    const v4 res_big = sgn * (iy - 2.0f * (X - (wr * wr / (wr + iy) - r)));
    /* -1 / (X + r) with the high halves split off */
    const v4 zh = (v4)((i4)wr & ~(int32_t)0xfff);
    const v4 vl = r - (zh - X);
    const v4 a = -1.0f / wr;
    const v4 t = (v4)((i4)a & ~(int32_t)0xfff);
    const v4 sl = 1.0f + t * zh;
    const v4 res_inv = t + a * (sl + t * vl);
    v4 res = SEL(big, res_big, SEL(inner, wr, res_inv));
    res = SEL(inner & tiny, x, res);
    const i4 out = (ax > 0x40000000) | (~inner & tiny) | (big & (near < 0x39000000));
    const i4 call = (out & use) | lib;
    for (int l = 0; l < W; l++)
        if (call[l])
            res[l] = tanf(x[l]);
    return res;
}

/* atanf on the lanes: x's own libm call where a lane is in `use` and |x| >= 2^25 or NaN, and wherever
 * it is in `lib`. */
static inline v4 vatanf(v4 x, i4 use, i4 lib)
{
    const v4 zero = {0};
    const float H0 = 4.6364760399e-01, H1 = 7.8539812565e-01, H2 = 9.8279368877e-01, H3 = 1.5707962513e+00;
    const float L0 = 5.0121582440e-09, L1 = 3.7748947079e-08, L2 = 3.4473217170e-08, L3 = 7.5497894159e-08;
    const float A0 = 3.3333334327e-01, A1 = -2.0000000298e-01, A2 = 1.4285714924e-01, A3 = -1.1111110449e-01,
                A4 = 9.0908870101e-02, A5 = -7.6918758452e-02, A6 = 6.6610731184e-02, A7 = -5.8335702866e-02,
                A8 = 4.9768779427e-02, A9 = -3.6531571299e-02, A10 = 1.6285819933e-02;
    const i4 hx = (i4)x, ix = hx & 0x7fffffff, neg = hx < 0;
    const v4 ax = (v4)ix;
    /* the argument's interval: |x| < 0.4375 (none), < 11/16 (0), < 19/16 (1), < 2.4375 (2), else (3) */
    const i4 id_none = ix < 0x3ee00000, lt0 = ix < 0x3f300000, lt1 = ix < 0x3f980000, lt2 = ix < 0x401c0000;
    const v4 num = SEL(lt0, 2.0f * ax - 1.0f, SEL(lt1, ax - 1.0f, SEL(lt2, ax - 1.5f, zero - 1.0f)));
    const v4 den = SEL(lt0, 2.0f + ax, SEL(lt1, ax + 1.0f, SEL(lt2, 1.0f + 1.5f * ax, ax)));
    const v4 xr = SEL(id_none, x, num / den);
    const v4 z = xr * xr, w = z * z;
    const v4 s1 = z * (A0 + w * (A2 + w * (A4 + w * (A6 + w * (A8 + w * A10)))));
    const v4 s2 = w * (A1 + w * (A3 + w * (A5 + w * (A7 + w * A9))));
    const v4 hi = SEL(lt0, zero + H0, SEL(lt1, zero + H1, SEL(lt2, zero + H2, zero + H3)));
    const v4 lo = SEL(lt0, zero + L0, SEL(lt1, zero + L1, SEL(lt2, zero + L2, zero + L3)));
    const v4 zz = hi - ((xr * (s1 + s2) - lo) - xr);
    v4 res = SEL(id_none, xr - xr * (s1 + s2), SEL(neg, -zz, zz));
    res = SEL(ix < 0x31000000, x, res); /* |x| < 2^-29: x */
    const i4 call = ((ix >= 0x4c000000) & use) | lib;
    for (int l = 0; l < W; l++)
        if (call[l])
            res[l] = atanf(x[l]);
    return res;
}

/* powf(x, 2) on the lanes. x * x in double is exact (a float's square has at most 48 significant
 * bits); rounded once to float it is the nearest float to x^2, which is libm's powf(x, 2) wherever
 * libm's own error before its rounding cannot move it across the halfway point between two floats.
 * So a lane whose exact square lies within 2^-30 of its size of such a halfway point (the 29 bits
 * that the rounding drops within 2^22 of 2^28: about 1 lane in 64), or whose square is not a normal
 * float (below 2^-126, above the largest float, NaN), calls libm's powf where it is in `use`; a lane
 * in `lib` calls it whatever its value. The window is this libm's, not a bound from its
 * documentation (glibc states powf within 0.82 ulp, which allows a larger error before rounding):
 * what proves the bits is tools/libm_vec_check.sh over every float, and libm_same's sample guards
 * another libm. */
static inline v4 vpowf2(v4 x, i4 use, i4 lib)
{
    const d4 dx = __builtin_convertvector(x, d4);
    const d4 p = dx * dx;
    v4 res = __builtin_convertvector(p, v4);
    const l4 low = ((l4)p & (((int64_t)1 << 29) - 1)) - ((int64_t)1 << 28);
    const l4 near = (low < ((int64_t)1 << 22)) & (low > -((int64_t)1 << 22));
    const l4 odd = near | ~(p >= 0x1p-126) | ~(p <= 0x1.fffffep127);
    const i4 call = (__builtin_convertvector(odd, i4) & use) | lib;
    float e = 2.0f;
    __asm__("" : "+x"(e)); /* opaque: gcc would fold powf(x, 2) into x * x, which is not libm's */
    for (int l = 0; l < W; l++)
        if (call[l])
            res[l] = powf(x[l], e);
    return res;
}

/* Whether this process's libm gives the bits of the three functions above on a sample: 4096 vectors
 * of bit patterns spread over all 2^32 (an odd stride). Not a
 * proof (tools/libm_vec_check.sh is, for this machine): a guard for another C library or version, where
 * the batch then calls libm on every lane as the scalar update does. Checked once per width and
 * process; threads that race to it compute the same answer. */
static bool libm_same(void)
{
    static _Atomic int state; /* 0 not checked, 1 the same, 2 differs */
    int s = atomic_load_explicit(&state, memory_order_relaxed);
    if (s == 0) {
        s = 1;
        float e = 2.0f;
        __asm__("" : "+x"(e)); /* opaque: not folded into x * x */
        const i4 all = (i4){0} - 1, none = {0};
        for (uint32_t b = 0; b < 4096u * W && s == 1; b += W) {
            v4 x;
            for (int l = 0; l < W; l++) {
                const uint32_t u = (b + (uint32_t)l) * 1048573u;
                memcpy(&x[l], &u, sizeof u);
            }
            const v4 r[3] = {vtanf(x, all, none), vatanf(x, all, none), vpowf2(x, all, none)};
            for (int l = 0; l < W; l++) {
                const float g[3] = {tanf(x[l]), atanf(x[l]), powf(x[l], e)};
                for (int k = 0; k < 3; k++)
                    if (memcmp(&g[k], &r[k][l], sizeof g[k]))
                        s = 2;
            }
        }
        atomic_store_explicit(&state, s, memory_order_relaxed);
    }
    return s == 1;
}
