#!/usr/bin/env bash
# Whether src/sim/topo_batch_libm.h's vtanf, vatanf and vpowf2 give this machine's libm tanf, atanf and
# powf(x, 2) bit for bit, for every one of the 2^32 floats (NaNs, infinities and zeros included), at both widths the batch
# compiles (4 lanes on SSE, 8 on AVX2; no FMA, -ffp-contract=off as the build). Exhaustive: about a
# two minutes per function and width on one core.
#
#   [FUNCS="tanf atanf powf2"] tools/libm_vec_check.sh [W ...]      (default: 4 8)
#
# Prints, per width and function, how many inputs differ (the first five shown) and how many lanes
# took libm's own call (the inputs outside the written part). docs/performance.md, speed22's section.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
widths=${*:-4 8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/chk.c" <<'C'
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
typedef float v4 __attribute__((vector_size(4 * W)));
typedef int32_t i4 __attribute__((vector_size(4 * W)));
typedef double d4 __attribute__((vector_size(8 * W)));
typedef int64_t l4 __attribute__((vector_size(8 * W)));
#define SEL(m, a, b) ((v4)(((i4)(a) & (m)) | ((i4)(b) & ~(m))))
static unsigned long long calls;
#define tanf(x) (calls++, tanf(x))
#define atanf(x) (calls++, atanf(x))
#define powf(x, y) (calls++, powf(x, y))
#include "topo_batch_libm.h"
#undef tanf
#undef atanf
#undef powf
static volatile float two = 2.0f; /* not folded: gcc turns powf(x, 2) into x * x */
static int run(const char *name, int which)
{
    unsigned long long bad = 0;
    calls = 0;
    const i4 use = (i4){0} - 1, none = {0};
    for (uint64_t u0 = 0; u0 < (1ull << 32); u0 += W) {
        v4 x;
        for (int l = 0; l < W; l++) {
            const uint32_t u = (uint32_t)(u0 + (uint64_t)l);
            memcpy(&x[l], &u, 4);
        }
        const v4 r = which == 2 ? vpowf2(x, use, none) : which ? vatanf(x, use, none) : vtanf(x, use, none);
        for (int l = 0; l < W; l++) {
            const float e = which == 2 ? powf(x[l], two) : which ? atanf(x[l]) : tanf(x[l]);
            if (memcmp(&e, &r[l], 4)) {
                if (bad < 5)
                    printf("  %s(%a): libm %a, vector %a\n", name, (double)x[l], (double)e, (double)r[l]);
                bad++;
            }
        }
    }
    printf("W=%d %s: 4294967296 inputs, %llu differ, %llu took libm's call\n", W, name, bad, calls);
    return bad != 0;
}
int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    static const char *names[3] = {"tanf", "atanf", "powf2"};
    printf("W=%d libm_same (the batch's guard): %d\n", W, (int)libm_same());
    int bad = 0;
    for (int a = 1; a < argc; a++)
        for (int k = 0; k < 3; k++)
            if (!strcmp(argv[a], names[k]))
                bad |= run(names[k], k);
    return bad;
}
C
rc=0
for w in $widths; do
    arch=-msse2; [ "$w" = 8 ] && arch=-mavx2
    cc -std=c11 -O3 -ffp-contract=off -fno-math-errno $arch -DW="$w" -I"$here/src/sim" -o "$tmp/chk$w" "$tmp/chk.c" -lm
    # shellcheck disable=SC2086
    "$tmp/chk$w" ${FUNCS:-tanf atanf powf2} || rc=1
done
exit $rc
