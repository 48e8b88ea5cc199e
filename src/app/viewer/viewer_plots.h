/* Live metric plots for the HUD: the last minute of diameter, polarisation, mean neighbours, groups,
 * perching and issue 24's thin-axis tilt, neighbour turnover, share at a speed limit and events a
 * minute (heading changes; the label adds splits and merges), sampled a few times a second, drawn as
 * small auto-scaled graphs. */
#ifndef MUR_VIEWER_PLOTS_H
#define MUR_VIEWER_PLOTS_H

#include <stdbool.h>

#include "hud.h"
#include "murmur/murmur.h"

#define VIEWER_PLOT_SERIES 9
#define VIEWER_PLOT_CAP 256        /* samples kept: 60 s at 4 samples a second, with room */
#define VIEWER_PLOT_WINDOW 60.0    /* seconds shown */
#define VIEWER_PLOT_PERIOD 0.25    /* seconds between samples */

typedef struct viewer_plots {
    double t[VIEWER_PLOT_CAP];                        /* sample times, s */
    float v[VIEWER_PLOT_SERIES][VIEWER_PLOT_CAP];     /* values */
    int head, count;                                  /* ring buffer */
    double last;                                      /* time of the last sample */
    double splits_per_min, merges_per_min;            /* the latest sample's, for the label */
    bool turnover_known;                              /* the latest sample has a turnover */
} viewer_plots;

void viewer_plots_init(viewer_plots *p);
/// Record the metrics of s at time now (seconds) if a sample period has passed. True if recorded.
bool viewer_plots_add(viewer_plots *p, double now, const mur_stats *s);
/// Draw the graphs in a column at (x, y), width w, each graph gh pixels high. Returns the height used.
float viewer_plots_draw(const viewer_plots *p, mur_hud *h, float x, float y, float w, float gh, double now);

#endif
