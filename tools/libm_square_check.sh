#!/usr/bin/env bash
# Whether this machine's libm powf(x, 2) equals x * x for every float x in [0, 1] (the centrality term
# of the starling update, centrality = 2 in the preset: fminf(1, c) ^ centrality). If it did, the term
# could be a multiply, in every path, with the same bits. Exhaustive (2^30 inputs, about 10-30 s):
#
#   tools/libm_square_check.sh [FROM]
#
# FROM (a C float literal, default 0x1p-126f): count only the inputs x >= FROM. Prints the first five
# inputs that differ and the count (docs/performance/rounds.md, "The steering and update on AVX2").
set -euo pipefail
from=${1:-0x1p-126f}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sq.c" <<C
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    volatile float e = 2.0f; /* not folded by the compiler */
    uint64_t bad = 0, n = 0;
    for (uint32_t u = 0; u <= 0x3f800000u; u++) {
        float x;
        memcpy(&x, &u, sizeof x);
        if (!(x >= $from))
            continue;
        const float a = powf(x, e), b = x * x;
        n++;
        if (memcmp(&a, &b, sizeof a)) {
            if (bad < 5)
                printf("x = %a: powf %a, x * x %a\n", x, a, b);
            bad++;
        }
    }
    printf("%llu inputs in [%a, 1], %llu differ\n", (unsigned long long)n, (double)($from), (unsigned long long)bad);
    return 0;
}
C
cc -O2 -ffp-contract=off -fno-builtin -o "$tmp/sq" "$tmp/sq.c" -lm
"$tmp/sq"
