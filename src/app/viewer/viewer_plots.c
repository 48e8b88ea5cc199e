#include "viewer_plots.h"

#include <stdio.h>
#include <string.h>

static const char *NAMES[VIEWER_PLOT_SERIES] = {"diameter", "polarisation", "neighbours", "groups", "perching",
                                                "thin tilt", "turnover", "at speed limit", "turns/min"};
static const uint8_t COLOURS[VIEWER_PLOT_SERIES][4] = {
    {255, 190, 90, 255},  {120, 220, 255, 255}, {150, 235, 140, 255}, {235, 140, 230, 255}, {120, 230, 170, 255},
    {255, 150, 120, 255}, {200, 200, 120, 255}, {255, 110, 110, 255}, {170, 170, 255, 255}};
/* the fixed scales: polarisation, turnover and the share at a limit 0 .. 1, tilt 0 .. 90 degrees */
static float fixed_scale(int k) { return k == 1 || k == 6 || k == 7 ? 1.0f : k == 5 ? 90.0f : 0.0f; }
static const uint8_t PANEL[4] = {8, 12, 20, 170};
static const uint8_t AXIS[4] = {90, 100, 120, 200};
static const uint8_t LABEL[4] = {200, 210, 225, 255};

void viewer_plots_init(viewer_plots *p)
{
    memset(p, 0, sizeof *p);
    p->last = -1e300;
}

bool viewer_plots_add(viewer_plots *p, double now, const mur_stats *s)
{
    if (!s->metrics_valid || now - p->last < VIEWER_PLOT_PERIOD)
        return false;
    p->last = now;
    int i = (p->head + p->count) % VIEWER_PLOT_CAP;
    if (p->count == VIEWER_PLOT_CAP)
        p->head = (p->head + 1) % VIEWER_PLOT_CAP;
    else
        p->count++;
    p->t[i] = now;
    p->v[0][i] = (float)s->diameter;
    p->v[1][i] = (float)s->polarisation;
    p->v[2][i] = (float)s->mean_neighbours;
    p->v[3][i] = (float)s->groups;
    p->v[4][i] = (float)s->perching;
    p->v[5][i] = (float)s->thin_tilt;
    p->v[6][i] = s->neighbour_turnover >= 0.0 ? (float)s->neighbour_turnover : 0.0f; /* -1: not yet known */
    p->v[7][i] = (float)s->at_speed_limit;
    p->v[8][i] = (float)s->heading_changes_per_min;
    p->splits_per_min = s->splits_per_min;
    p->merges_per_min = s->merges_per_min;
    p->turnover_known = s->neighbour_turnover >= 0.0;
    return true;
}

float viewer_plots_draw(const viewer_plots *p, mur_hud *h, float x, float y, float w, float gh, double now)
{
    gh *= 0.55f; /* nine graphs in about the height five took */
    const float lh = mur_hud_line_height(h), gap = lh * 0.5f;
    const float total = VIEWER_PLOT_SERIES * (gh + lh + gap);
    mur_hud_rect(h, x - 6, y - 6, w + 12, total + 6, PANEL);
    for (int k = 0; k < VIEWER_PLOT_SERIES; k++) {
        float top = y + (float)k * (gh + lh + gap);
        /* the scale: 0 .. the largest value in the window (polarisation: 0 .. 1) */
        float hi = fixed_scale(k), cur = 0.0f;
        for (int n = 0; n < p->count; n++) {
            int i = (p->head + n) % VIEWER_PLOT_CAP;
            if (now - p->t[i] > VIEWER_PLOT_WINDOW)
                continue;
            hi = p->v[k][i] > hi ? p->v[k][i] : hi;
            cur = p->v[k][i];
        }
        if (hi <= 0.0f)
            hi = 1.0f;
        char label[96];
        if (k == 1 || k == 7 || (k == 6 && p->turnover_known))
            snprintf(label, sizeof label, "%s %.2f", NAMES[k], (double)cur);
        else if (k == 6)
            snprintf(label, sizeof label, "%s (after 10 s)", NAMES[k]);
        else if (k == 5)
            snprintf(label, sizeof label, "%s %.1f deg", NAMES[k], (double)cur);
        else if (k == 8)
            snprintf(label, sizeof label, "%s %.1f  splits %.1f  merges %.1f", NAMES[k], (double)cur,
                     p->splits_per_min, p->merges_per_min);
        else
            snprintf(label, sizeof label, "%s %.1f   (max %.4g)", NAMES[k], (double)cur, (double)hi);
        mur_hud_text(h, x, top, label, LABEL);
        float gy = top + lh, base = gy + gh;
        mur_hud_rect(h, x, base, w, 1.0f, AXIS);
        /* a step line: level from the previous sample to this one, then a riser to the new value */
        float px = -1.0f, py = 0.0f;
        for (int n = 0; n < p->count; n++) {
            int i = (p->head + n) % VIEWER_PLOT_CAP;
            double age = now - p->t[i];
            if (age > VIEWER_PLOT_WINDOW)
                continue;
            float sx = x + w * (float)(1.0 - age / VIEWER_PLOT_WINDOW);
            float sy = base - gh * (p->v[k][i] / hi);
            if (px >= 0.0f) {
                float y0 = py < sy ? py : sy, y1 = py < sy ? sy : py;
                mur_hud_rect(h, px, py - 0.75f, sx - px, 1.5f, COLOURS[k]);
                mur_hud_rect(h, sx - 0.75f, y0 - 0.75f, 1.5f, y1 - y0 + 1.5f, COLOURS[k]);
            }
            px = sx;
            py = sy;
        }
    }
    return total;
}
