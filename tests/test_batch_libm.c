/* The batch's tanf, atanf and powf(x, 2) on the lanes (src/sim/topo_batch_libm.h, branch speed22) give
 * this machine's libm bits: on a strided sample of all 2^32 floats (every 4093rd bit pattern) and on the
 * edges of the written parts (the reduction's and the kernels' thresholds, the halfway squares, zeros,
 * NaN, Inf), 4 lanes (the SSE width; tools/libm_vec_check.sh checks every float at 4 and 8 lanes), and
 * the batch's guard (libm_same) says so too. */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#define W 4
typedef float v4 __attribute__((vector_size(4 * W)));
typedef int32_t i4 __attribute__((vector_size(4 * W)));
typedef double d4 __attribute__((vector_size(8 * W)));
typedef int64_t l4 __attribute__((vector_size(8 * W)));
#define SEL(m, a, b) ((v4)(((i4)(a) & (m)) | ((i4)(b) & ~(m))))
#include "topo_batch_libm.h"

static volatile float two = 2.0f; /* not folded into x * x */

static float libm(int k, float x)
{
    return k == 0 ? tanf(x) : k == 1 ? atanf(x) : powf(x, two);
}

/* the bits of each function on the 4 lanes of u[0..3] against libm's; the count that differ */
static int differ(const uint32_t u[W])
{
    v4 x;
    memcpy(&x, u, sizeof x);
    const i4 use = (i4){0} - 1, none = {0};
    const v4 r[3] = {vtanf(x, use, none), vatanf(x, use, none), vpowf2(x, use, none)};
    int bad = 0;
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < W; l++) {
            const float e = libm(k, x[l]);
            bad += memcmp(&e, &r[k][l], sizeof e) != 0;
        }
    return bad;
}

static void sample(void **st)
{
    (void)st;
    int bad = 0;
    uint32_t u[W];
    for (uint64_t b = 0; b < (1ull << 32); b += 4093ull * W) {
        for (int l = 0; l < W; l++)
            u[l] = (uint32_t)(b + 4093ull * (uint64_t)l);
        bad += differ(u);
    }
    assert_int_equal(bad, 0);
}

static void edges(void **st)
{
    (void)st;
    /* tanf: |x| <= pi/4 as bits, the kernel's 0.6744 and 2^-13, the quarter turn's end at 2; atanf: its
     * intervals 0.4375, 11/16, 19/16, 2.4375, 2^25 and 2^-29; the float limits, zeros, NaN, Inf */
    static const uint32_t at[] = {0x3f490fda, 0x3f2ca140, 0x39000000, 0x40000000, 0x3fc90fdb, 0x3ee00000,
                                  0x3f300000, 0x3f980000, 0x401c0000, 0x4c000000, 0x31000000, 0x00800000,
                                  0x7f7fffff, 0x7f800000, 0x7fc00000, 0x00000000, 0x3f800000, 0x00000001};
    int bad = 0;
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
        for (int32_t d = -64; d <= 64; d += W)
            for (uint32_t sign = 0; sign <= 1; sign++) {
                uint32_t u[W];
                for (int l = 0; l < W; l++)
                    u[l] = ((at[a] + (uint32_t)(d + l)) & 0x7fffffffu) | sign << 31;
                bad += differ(u);
            }
    /* squares that lie halfway between two floats: x = 1 + k 2^-12 (x^2's 25th bit set, the rest 0 below) */
    for (uint32_t k = 1; k < 4096; k += 2 * W) {
        uint32_t u[W];
        for (int l = 0; l < W; l++) {
            const float x = 1.0f + (float)(k + 2 * (uint32_t)l) * 0x1p-12f;
            memcpy(&u[l], &x, sizeof x);
        }
        bad += differ(u);
    }
    assert_int_equal(bad, 0);
}

/* the batch's guard finds this machine's libm the same (else the batch would call libm on every
 * lane, and this file's other tests fail) */
static void guard(void **st)
{
    (void)st;
    assert_true(libm_same());
    assert_true(libm_same()); /* the second call reads the stored answer */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample),
        cmocka_unit_test(edges),
        cmocka_unit_test(guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
