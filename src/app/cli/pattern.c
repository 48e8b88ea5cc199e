/* Numbered file patterns (see pattern.h). */
#include "pattern.h"

#include <string.h>

/* One integer conversion (%d, %05d, %4i, %u; a width up to 32) and any number of %% in a PNG
 * pattern; any other conversion sets *bad. The pattern is never handed to printf: mur_pattern_name
 * expands it. */
int mur_pattern_conversions(const char *p, bool *bad)
{
    int n = 0;
    *bad = false;
    for (; *p; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        p++;
        if (*p == '0')
            p++;
        int width = 0;
        while (*p >= '0' && *p <= '9' && width <= 32)
            width = width * 10 + (*p++ - '0');
        if (width > 32 || (*p != 'd' && *p != 'i' && *p != 'u')) {
            *bad = true;
            return n;
        }
        n++;
    }
    return n;
}

bool mur_pattern_name(const char *pattern, int64_t k, char *out, size_t len)
{
    bool bad;
    if (!len || mur_pattern_conversions(pattern, &bad) != 1 || bad)
        return false;
    size_t o = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[48];
        size_t pl = 1;
        piece[0] = *p;
        if (*p == '%' && p[1] == '%') {
            p++;
        } else if (*p == '%') {
            p++;
            bool zero = *p == '0';
            if (zero)
                p++;
            int width = 0;
            while (*p >= '0' && *p <= '9')
                width = width * 10 + (*p++ - '0');
            /* *p is d, i or u (checked above): the digits of k, padded to width */
            char digits[24];
            int nd = 0;
            uint64_t u = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
            do {
                digits[nd++] = (char)('0' + u % 10);
                u /= 10;
            } while (u);
            int sign = k < 0;
            pl = 0;
            if (!zero)
                for (int f = nd + sign; f < width; f++)
                    piece[pl++] = ' ';
            if (sign)
                piece[pl++] = '-';
            if (zero)
                for (int f = nd + sign; f < width; f++)
                    piece[pl++] = '0';
            while (nd)
                piece[pl++] = digits[--nd];
        }
        if (o + pl >= len)
            return false;
        memcpy(out + o, piece, pl);
        o += pl;
    }
    out[o] = 0;
    return true;
}
