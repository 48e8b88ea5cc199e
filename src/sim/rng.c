/* Counter-based random numbers: a value depends only on (seed, stream, index), never on the order in
 * which threads ask for it, so seeded runs are identical for any thread count. */
#include "internal.h"

uint64_t mur_mix64(uint64_t x)
{
    /* splitmix64 finaliser */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

float mur_hash_unit(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t h = mur_mix64(seed ^ mur_mix64(a ^ mur_mix64(b + 0x632be59bd9b4e019ULL)));
    /* top 24 bits -> exactly representable float in [0, 1) */
    return (float)(h >> 40) * (1.0f / 16777216.0f);
}
