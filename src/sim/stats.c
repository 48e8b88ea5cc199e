/* The metrics CSV columns (murmur.h): one table row per column. A new metric is a mur_stats field,
 * its computation (metrics.c or the rules pass) and one row here. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include "murmur/murmur.h"

typedef enum col_type { COL_U64, COL_I32, COL_I64, COL_F64 } col_type;

typedef struct column {
    const char *name;
    col_type type;
    size_t off;   ///< into mur_stats
} column;

#define COL(name, type, field) {name, type, offsetof(mur_stats, field)}
static const column COLUMNS[] = {
    COL("tick", COL_U64, tick),
    COL("centre_x", COL_F64, centre[0]),
    COL("centre_y", COL_F64, centre[1]),
    COL("centre_z", COL_F64, centre[2]),
    COL("diameter", COL_F64, diameter),
    COL("polarisation", COL_F64, polarisation),
    COL("mean_neighbours", COL_F64, mean_neighbours),
    COL("nn_distance", COL_F64, nn_distance),
    COL("perching", COL_I32, perching),
    COL("groups", COL_I32, groups),
    /* appended (issue 27): simulated time */
    COL("time_s", COL_F64, time_s),
    /* appended (issue 24): metrics over time */
    COL("thin_tilt", COL_F64, thin_tilt),
    COL("neighbour_turnover", COL_F64, neighbour_turnover),
    COL("at_speed_limit", COL_F64, at_speed_limit),
    COL("heading_changes", COL_I64, heading_changes),
    COL("splits", COL_I64, splits),
    COL("merges", COL_I64, merges),
    COL("heading_changes_per_min", COL_F64, heading_changes_per_min),
    COL("splits_per_min", COL_F64, splits_per_min),
    COL("merges_per_min", COL_F64, merges_per_min),
    /* appended (issue 26): the falcon */
    COL("falcon_distance", COL_F64, falcon_distance),
    COL("alarmed", COL_F64, alarmed),
    COL("falcon_state", COL_I32, falcon_state),
    /* appended (issue 26, branch react11): the birds near the falcon */
    COL("falcon_near", COL_I32, falcon_near),
    COL("falcon_nn", COL_F64, falcon_nn),
};
#define NCOLUMNS ((int)(sizeof COLUMNS / sizeof COLUMNS[0]))

int mur_stats_column_count(void) { return NCOLUMNS; }

const char *mur_stats_column_name(int i)
{
    return i >= 0 && i < NCOLUMNS ? COLUMNS[i].name : NULL;
}

int mur_stats_column_text(const mur_stats *s, int i, char *buf, size_t len)
{
    if (!s || i < 0 || i >= NCOLUMNS)
        return -1;
    const char *field = (const char *)s + COLUMNS[i].off;
    switch (COLUMNS[i].type) {
    case COL_U64:
        return snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
    case COL_I32:
        return snprintf(buf, len, "%d", (int)*(const int32_t *)field);
    case COL_I64:
        return snprintf(buf, len, "%" PRId64, *(const int64_t *)field);
    case COL_F64:
        return snprintf(buf, len, "%.9g", *(const double *)field);
    }
    return -1;
}

bool mur_stats_write_header(FILE *fp)
{
    for (int i = 0; i < NCOLUMNS; i++)
        if (fputs(COLUMNS[i].name, fp) < 0 || fputc(i + 1 < NCOLUMNS ? ',' : '\n', fp) == EOF)
            return false;
    return true;
}

bool mur_stats_write_row(FILE *fp, const mur_stats *s)
{
    char cell[64];
    for (int i = 0; i < NCOLUMNS; i++) {
        mur_stats_column_text(s, i, cell, sizeof cell);
        if (fputs(cell, fp) < 0 || fputc(i + 1 < NCOLUMNS ? ',' : '\n', fp) == EOF)
            return false;
    }
    return true;
}
