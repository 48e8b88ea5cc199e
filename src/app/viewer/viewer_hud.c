/* The HUD: numbers and toggle states at the top left, the selected parameter, the last action,
 * and the help overlay (H). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "hud.h"
#include "clock.h"
#include "bindings.h"
#include "commands.h"
#include "viewer.h"

static const uint8_t WHITE[4] = {235, 240, 248, 255};
static const uint8_t DIM[4] = {160, 175, 195, 255};
static const uint8_t ON[4] = {120, 230, 140, 255};
static const uint8_t OFF[4] = {130, 140, 155, 255};
static const uint8_t ACCENT[4] = {255, 214, 90, 255};
static const uint8_t PANEL[4] = {8, 12, 20, 170};

static float panel_text(const viewer *v, float x, float y, const char *text, const uint8_t c[4])
{
    mur_hud *h = v->hud;
    float pad = 6.0f * (mur_hud_line_height(h) / 12.0f);
    int lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    float w = mur_hud_text_width(h, text); /* the widest line */
    float hgt = (float)lines * mur_hud_line_height(h);
    mur_hud_rect(h, x - pad, y - pad, w + 2 * pad, hgt + 2 * pad - 2.0f, PANEL);
    mur_hud_text(h, x, y, text, c);
    return hgt + 2 * pad;
}

static void toggle(mur_hud *h, float *x, float y, const char *name, bool on)
{
    *x += mur_hud_text(h, *x, y, name, on ? ON : OFF) + mur_hud_text_width(h, "  ");
}

/* Greedy word wrap of text into lines no wider than w pixels at the HUD's scale: the line starts
 * into starts[], their lengths into lens[]; returns the count (at most max). */
static int wrap(const mur_hud *h, const char *text, float w, int max, const char **starts, int *lens)
{
    int n = 0;
    const char *p = text;
    char buf[256];
    while (*p && n < max) {
        const char *best = NULL;
        for (const char *q = p;; q++) {
            if (*q != ' ' && *q != '\0')
                continue;
            size_t len = (size_t)(q - p) < sizeof buf - 1 ? (size_t)(q - p) : sizeof buf - 1;
            memcpy(buf, p, len);
            buf[len] = '\0';
            if (best && mur_hud_text_width(h, buf) > w)
                break;
            best = q;
            if (*q == '\0')
                break;
        }
        starts[n] = p;
        lens[n] = (int)(best - p);
        n++;
        p = best;
        while (*p == ' ')
            p++;
    }
    return n;
}

/* The help (H): every binding, key and action, wrapped to the window and in two columns where one
 * does not fit its height; the largest whole scale at which it fits. Drawn over everything, the
 * parameter panel included. */
static void draw_help(const viewer *v, float scale, int width, int height)
{
    mur_hud *h = v->hud;
    int n;
    const viewer_binding *lines = viewer_bindings(&n);
    enum { MAXL = 8 };
    for (float sc = scale; sc >= 1.0f; sc -= 1.0f) {
        for (int cols = 1; cols <= 2; cols++) {
            mur_hud_begin(h, width, height, sc);
            float lh = mur_hud_line_height(h), gap = 12.0f * sc, margin = 8.0f * sc;
            float keyw = 0.0f, whatw = 0.0f;
            for (int i = 0; i < n; i++) {
                float a = mur_hud_text_width(h, lines[i].label), b = mur_hud_text_width(h, lines[i].help);
                keyw = a > keyw ? a : keyw;
                whatw = b > whatw ? b : whatw;
            }
            float colw = ((float)width - 2.0f * margin - 2.0f * gap - (float)(cols - 1) * 2.0f * gap) / (float)cols;
            float textw = colw - keyw - gap;
            if (textw < 60.0f * sc)
                continue;
            if (whatw < textw)
                textw = whatw;
            /* lines per entry, then the split point between the columns */
            int rows[64], total = 0;
            const char *st[MAXL];
            int ln[MAXL];
            for (int i = 0; i < n && i < 64; i++) {
                rows[i] = wrap(h, lines[i].help, textw, MAXL, st, ln);
                total += rows[i];
            }
            int per = cols == 1 ? total : (total + 1) / 2, split = n, acc = 0;
            for (int i = 0; i < n && cols == 2; i++) {
                if (acc >= per) {
                    split = i;
                    break;
                }
                acc += rows[i];
            }
            int tall = cols == 1 ? total : (acc > total - acc ? acc : total - acc);
            float hgt = (float)(tall + 2) * lh;
            if (hgt + 2.0f * margin > (float)height && !(sc <= 1.0f && cols == 2))
                continue;
            float w = (float)cols * (keyw + gap + textw) + (float)(cols - 1) * 2.0f * gap;
            float x = ((float)width - w) * 0.5f, y = ((float)height - hgt) * 0.5f;
            if (y < margin)
                y = margin;
            const uint8_t bg[4] = {6, 10, 18, 225};
            mur_hud_rect(h, x - gap, y - gap, w + 2 * gap, hgt + 2 * gap, bg);
            mur_hud_text(h, x, y, "murmur - keys and mouse (H closes)", ACCENT);
            int row = 2;
            float cx = x;
            for (int i = 0; i < n; i++) {
                if (i == split) {
                    cx += keyw + gap + textw + 2.0f * gap;
                    row = 2;
                }
                mur_hud_text(h, cx, y + (float)row * lh, lines[i].label, WHITE);
                int k = wrap(h, lines[i].help, textw, MAXL, st, ln);
                for (int j = 0; j < k; j++) {
                    char buf[256];
                    snprintf(buf, sizeof buf, "%.*s", ln[j], st[j]);
                    mur_hud_text(h, cx + keyw + gap, y + (float)(row + j) * lh, buf, DIM);
                }
                row += k;
            }
            return;
        }
    }
}

/* While recording, in the window only (never in the video): a red mark, the video time and the
 * frames recorded, at the top right; shown even with the HUD hidden. */
static void draw_rec_marker(const viewer *v, float scale, int width, int height)
{
    mur_hud *h = v->hud;
    const uint8_t red[4] = {235, 40, 40, 255};
    char text[96];
    int64_t frames = v->rec.session->rendered;
    double secs = (double)frames / v->cli->fps;
    snprintf(text, sizeof text, "REC %d:%04.1f  frame %lld", (int)(secs / 60.0), secs - 60.0 * (int)(secs / 60.0),
             (long long)frames);
    float lh = mur_hud_line_height(h), pad = 6.0f * scale;
    float w = mur_hud_text_width(h, text) + lh + pad;
    float x = (float)width - w - 10.0f * scale, y = (float)height - 2.0f * lh - 14.0f * scale;
    mur_hud_rect(h, x - pad, y - pad, w + 2 * pad, lh + 2 * pad - 2.0f, PANEL);
    mur_hud_rect(h, x, y, lh * 0.8f, lh * 0.8f, red);
    mur_hud_text(h, x + lh + pad * 0.5f, y, text, WHITE);
}

/* The HUD's status lines and the row of toggles, from y down; returns the height used. */
static float draw_status(const viewer *v, float x0, float y, float scale)
{
    mur_hud *h = v->hud;
    float lh = mur_hud_line_height(h);
    const float y0 = y;
    /* the snapshot from the last sync: the worker may be stepping the flock right now */
    const mur_flock_def def = v->def;
    const struct {
        int32_t boids, predators;
        bool predators_on;
        uint64_t tick;
    } view = {v->nboids, v->npredators, v->predators_on, v->tick};
    const mur_stats *s = &v->stats;
    char text[1024], meshes[32] = "";
    if (v->mesh_budget > 0) /* the frame budget made the farther birds points (viewer.c) */
        snprintf(meshes, sizeof meshes, " (%d meshes)", (int)v->mesh_budget);
    int len = snprintf(text, sizeof text,
                       "%.0f fps  %.1f ms/frame  sim %.2f ms/tick  upload %.1f ms  draw %.1f ms%s  x%g%s%s\n"
                       "preset %s  boids %d  world %s  predators %d%s  tick %llu\n",
                       v->fps, v->frame_ms, v->sim_ms, v->upload_ms, v->draw_ms, meshes, v->run.speed,
                       v->run.paused ? "  PAUSED" : "", v->rec.session ? "  REC" : "", v->cmds.preset, (int)view.boids,
                       def.world == MUR_WORLD_SCALE ? "scale" : "fixed", (int)view.predators,
                       view.predators_on ? "" : " (hidden)", (unsigned long long)view.tick);
    if (s->metrics_valid && len > 0 && (size_t)len < sizeof text)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "mean neighbours %.1f  diameter %.1f  polarisation %.2f  perching %d",
                        s->mean_neighbours, s->diameter, s->polarisation, (int)s->perching);
    /* the biggest group's shape (D draws its axes): thickness : width : length */
    if (s->metrics_valid && s->group_size > 1 && s->group_extent[0] > 0.0 && len > 0 && (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len,
                 "\nbiggest group %d  extents 1 : %.1f : %.1f  thin axis %.0f deg from vertical  polarisation %.2f",
                 (int)s->group_size, s->group_extent[1] / s->group_extent[0], s->group_extent[2] / s->group_extent[0],
                 s->group_thin_angle, s->group_polarisation);
    y += panel_text(v, x0, y, text, WHITE);

    /* toggle states, lit when on */
    float pad = 6.0f * scale;
    const char *all = "perch  predators  goal  wind  scatter  cone 300  bounds bounce  follow  "
                      "speed-colour";
    mur_hud_rect(h, x0 - pad, y, mur_hud_text_width(h, all) + 2 * pad, lh + 2 * pad - 2.0f,
                 PANEL);
    float x = x0, ty = y + pad;
    toggle(h, &x, ty, "perch", def.perch);
    toggle(h, &x, ty, "predators", view.predators_on && view.predators > 0);
    toggle(h, &x, ty, "goal", def.goal);
    toggle(h, &x, ty, "wind", def.wind);
    toggle(h, &x, ty, "scatter", def.scatter);
    char cone[32], bounds[32];
    snprintf(cone, sizeof cone, "cone %g", (double)def.view_angle);
    toggle(h, &x, ty, cone, def.view_angle < 360.0f);
    snprintf(bounds, sizeof bounds, "bounds %s", mur_bounds_name(def.bounds));
    x += mur_hud_text(h, x, ty, bounds, ACCENT) + mur_hud_text_width(h, "  ");
    toggle(h, &x, ty, "follow", v->camera.cam.follow);
    toggle(h, &x, ty, "speed-colour", v->display.color_by_speed);
    y += lh + 2 * pad + 4.0f * scale;
    return y - y0;
}

/* The whole scale of the HUD's font for a window: one step per 480 rows (and 640 columns), 1 to 4;
 * whole multiples only: a fractional scale blurs stb_easy_font's strokes (0 read as 8 at 1.5x). */
static float hud_scale(int width, int height)
{
    float a = floorf((float)height / 480.0f), b = floorf((float)width / 640.0f);
    float scale = a < b ? a : b;
    return scale < 1.0f ? 1.0f : (scale > 4.0f ? 4.0f : scale);
}

/* The minimal HUD: one line (preset, birds, speed, pause), the camera's mode when it does not follow
 * the flock, and the message line; returns the height used. */
static float draw_minimal(const viewer *v, float x0, float y)
{
    char text[256];
    const char *follow = "";
    if (!v->camera.cam.follow && v->camera.watch == 0 && !v->rec.session)
        follow = "\nfree camera: F follows the flock again";
    snprintf(text, sizeof text, "%s  %d birds  x%g%s%s", v->cmds.preset, (int)v->nboids, v->run.speed,
             v->run.paused ? "  PAUSED" : "", follow);
    return panel_text(v, x0, y, text, DIM);
}

/* A hint of the keys at the bottom centre for the first seconds, fading out (window only). */
static void draw_start_hint(const viewer *v, float scale, int width, int height)
{
    const double shown = 8.0, fade = 2.0;
    if (v->time >= shown || v->display.show_help)
        return;
    mur_hud *h = v->hud;
    float a = v->time < shown - fade ? 1.0f : (float)((shown - v->time) / fade);
    const char *hint = "E  parameters     H  help     U  numbers     F  follow the flock";
    float lh = mur_hud_line_height(h), pad = 6.0f * scale;
    float w = mur_hud_text_width(h, hint);
    float x = ((float)width - w) * 0.5f, y = (float)height - lh - 3.0f * pad;
    const uint8_t bg[4] = {6, 10, 18, (uint8_t)(170.0f * a)}, fg[4] = {235, 240, 248, (uint8_t)(255.0f * a)};
    mur_hud_rect(h, x - pad, y - pad, w + 2 * pad, lh + 2 * pad - 2.0f, bg);
    mur_hud_text(h, x, y, hint, fg);
}

void viewer_draw_hud(const viewer *v, int width, int height, viewer_hud_mode mode)
{
    const viewer_display *d = &v->display;
    const bool video = mode == VIEWER_HUD_VIDEO;
    /* over a frame that has its HUD from the video already, the window adds the marker only */
    const bool show_hud = d->show_hud && mode != VIEWER_HUD_MARKER;
    /* in the window the help is drawn after the panel (viewer_draw_help), over it */
    const bool show_help = d->show_help && video;
    bool marker = v->rec.session && !video;
    bool hint = mode == VIEWER_HUD_WINDOW && d->show_hud && !v->rec.session && v->time < 8.0;
    if (!show_hud && !show_help && !marker && !hint && v->sel.bird < 0 && v->trails.mode == 0)
        return;
    mur_hud *h = v->hud;
    float scale = hud_scale(width, height);
    mur_hud_begin(h, width, height, scale);
    float lh = mur_hud_line_height(h);
    float x0 = 10.0f * scale, y = 8.0f * scale;

    if (!video || show_hud) {
        viewer_trails_draw(v, h, scale, width, height);
        viewer_pick_draw(v, h, scale, width, height);
    }
    if (show_hud && !d->show_help) {
        if (d->hud_full) {
            y += draw_status(v, x0, y, scale);
            const mur_param *p = viewer_param(d->param_sel);
            if (p) {
                char val[128] = "", text[512];
                viewer_param_value(&v->def, p, val, sizeof val);
                snprintf(text, sizeof text, "< %s = %s %s >   (Up/Down select, Left/Right change)",
                         p->name, val, p->unit);
                y += panel_text(v, x0, y, text, ACCENT);
            }
        } else {
            y += draw_minimal(v, x0, y) + 2.0f * scale;
        }
        const char *msg = mur_msg_shown(&v->msg);
        if (msg)
            y += panel_text(v, x0, y + 2.0f * scale, msg, WHITE) + 2.0f * scale;

        if (d->show_plots) {
            /* the graphs in a column at the right edge; while the parameter panel holds the right
             * edge (window only, never in a video), at the left under the HUD's lines */
            float w = 220.0f * scale, gh = 34.0f * scale;
            if (viewer_panel_shown(v) && !video)
                viewer_plots_draw(&v->plots, h, x0, y + 2.0f * lh + 8.0f * scale, w, gh, v->sim_time);
            else
                viewer_plots_draw(&v->plots, h, (float)width - w - x0, 8.0f * scale, w, gh, v->sim_time);
        }

        if (d->hud_full && !hint) {
            const char *keys = "H help   M plots   U minimal   Tab hide";
            float hw = mur_hud_text_width(h, keys);
            mur_hud_text(h, (float)width - hw - x0, (float)height - lh - 6.0f * scale, keys, DIM);
        }
    }
    if (hint)
        draw_start_hint(v, scale, width, height);
    if (show_help) {
        mur_hud_end(h); /* the help lays itself out, at its own scale */
        draw_help(v, scale, width, height);
    }
    if (marker)
        draw_rec_marker(v, scale, width, height);
    mur_hud_end(h);
}

void viewer_draw_help(const viewer *v, int width, int height)
{
    if (!v->display.show_help)
        return;
    draw_help(v, hud_scale(width, height), width, height);
    mur_hud_end(v->hud);
}
