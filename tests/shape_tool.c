/* shape_tool STATE.csv LINK MIN_SPEED MAX_SPEED: prints MUR_SHAPE_COLUMNS and the shape row of the boids
 * (predators skipped) of a state exported by `murmur --export`. A test helper: the murmuration suite
 * compares its row with the pure-Python reference of docs/murmuration/run.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: shape_tool STATE.csv LINK MIN_SPEED MAX_SPEED\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "shape_tool: cannot open %s\n", argv[1]);
        return 2;
    }
    char line[512];
    int32_t n = 0, cap = 1024;
    float *pos = malloc((size_t)cap * 3 * sizeof *pos), *vel = malloc((size_t)cap * 3 * sizeof *vel);
    /* past the '#' lines that say how the state was made */
    int got = 0;
    while ((got = fgets(line, sizeof line, f) != NULL) && line[0] == '#')
        ;
    if (!got || strncmp(line, "kind,", 5) != 0) {
        fprintf(stderr, "shape_tool: %s: no header\n", argv[1]);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        float x, y, z, vx, vy, vz;
        if (strncmp(line, "boid,", 5) != 0)
            continue;
        if (sscanf(line + 5, "%f,%f,%f,%f,%f,%f", &x, &y, &z, &vx, &vy, &vz) != 6) {
            fprintf(stderr, "shape_tool: bad line: %s", line);
            return 2;
        }
        if (n == cap) {
            cap *= 2;
            pos = realloc(pos, (size_t)cap * 3 * sizeof *pos);
            vel = realloc(vel, (size_t)cap * 3 * sizeof *vel);
            if (!pos || !vel)
                return 1;
        }
        pos[3 * n] = x;
        pos[3 * n + 1] = y;
        pos[3 * n + 2] = z;
        vel[3 * n] = vx;
        vel[3 * n + 1] = vy;
        vel[3 * n + 2] = vz;
        n++;
    }
    fclose(f);
    mur_shape_opts o = mur_shape_default_opts();
    o.link = strtof(argv[2], NULL);
    o.min_speed = strtod(argv[3], NULL);
    o.max_speed = strtod(argv[4], NULL);
    mur_shape_row row;
    int rc = mur_shape_measure(pos, vel, n, NULL, &o, &row);
    if (rc) {
        fprintf(stderr, "shape_tool: measure failed (%d, group of %d)\n", rc, (int)row.group_size);
        return 1;
    }
    char buf[2048];
    mur_shape_format_row(&row, buf, sizeof buf);
    printf("%s\n%s\n", MUR_SHAPE_COLUMNS, buf);
    free(pos);
    free(vel);
    return 0;
}
