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

static void draw_help(const viewer *v, float scale, int width, int height)
{
    mur_hud *h = v->hud;
    int n;
    const viewer_binding *lines = viewer_bindings(&n);
    float lh = mur_hud_line_height(h);
    float keyw = 0.0f, whatw = 0.0f;
    for (int i = 0; i < n; i++) {
        float a = mur_hud_text_width(h, lines[i].label), b = mur_hud_text_width(h, lines[i].help);
        keyw = a > keyw ? a : keyw;
        whatw = b > whatw ? b : whatw;
    }
    float gap = 16.0f * scale;
    float w = keyw + gap + whatw, hgt = (float)(n + 2) * lh;
    float x = ((float)width - w) * 0.5f, y = ((float)height - hgt) * 0.5f;
    if (y < 4.0f)
        y = 4.0f;
    const uint8_t bg[4] = {6, 10, 18, 215};
    mur_hud_rect(h, x - 2 * gap, y - gap, w + 4 * gap, hgt + 2 * gap, bg);
    mur_hud_text(h, x, y, "murmur - keys and mouse (H closes)", ACCENT);
    for (int i = 0; i < n; i++) {
        float ly = y + (float)(i + 2) * lh;
        mur_hud_text(h, x, ly, lines[i].label, WHITE);
        mur_hud_text(h, x + keyw + gap, ly, lines[i].help, DIM);
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

void viewer_draw_hud(const viewer *v, int width, int height, viewer_hud_mode mode)
{
    const viewer_display *d = &v->display;
    const bool video = mode == VIEWER_HUD_VIDEO;
    /* over a frame that has its HUD from the video already, the window adds the marker only */
    const bool show_hud = d->show_hud && mode != VIEWER_HUD_MARKER;
    const bool show_help = d->show_help && mode != VIEWER_HUD_MARKER;
    bool marker = v->rec.session && !video;
    if (!show_hud && !show_help && !marker && v->sel.bird < 0 && v->trails.mode == 0)
        return;
    mur_hud *h = v->hud;
    /* whole multiples of the font's pixels only: a fractional scale blurs stb_easy_font's strokes
     * (0 read as 8 at 1.5x) */
    float scale = floorf((float)height / 480.0f);
    scale = scale < 1.0f ? 1.0f : (scale > 3.0f ? 3.0f : scale);
    mur_hud_begin(h, width, height, scale);
    float lh = mur_hud_line_height(h);
    float x0 = 10.0f * scale, y = 8.0f * scale;

    if (!video || show_hud) {
        viewer_trails_draw(v, h, scale, width, height);
        viewer_pick_draw(v, h, scale, width, height);
    }
    if (show_hud && !show_help) {
        y += draw_status(v, x0, y, scale);

        const mur_param *p = viewer_param(d->param_sel);
        if (p) {
            char val[128] = "", text[512];
            viewer_param_value(&v->def, p, val, sizeof val);
            snprintf(text, sizeof text, "< %s = %s %s >   (Up/Down select, Left/Right change)",
                     p->name, val, p->unit);
            y += panel_text(v, x0, y, text, ACCENT);
        }
        const char *msg = mur_msg_shown(&v->msg);
        if (msg)
            panel_text(v, x0, y + 2.0f * scale, msg, WHITE);

        if (d->show_plots) {
            /* the graphs in a column at the right edge; while the parameter panel holds the right
             * edge (window only, never in a video), at the left under the HUD's lines */
            float w = 220.0f * scale, gh = 34.0f * scale;
            if (viewer_panel_shown(v) && !video)
                viewer_plots_draw(&v->plots, h, x0, y + 2.0f * lh + 8.0f * scale, w, gh, v->sim_time);
            else
                viewer_plots_draw(&v->plots, h, (float)width - w - x0, 8.0f * scale, w, gh, v->sim_time);
        }

        const char *hint = "H help   M plots   Tab hide";
        float hw = mur_hud_text_width(h, hint);
        mur_hud_text(h, (float)width - hw - x0, (float)height - lh - 6.0f * scale, hint, DIM);
    }
    if (show_help)
        draw_help(v, scale, width, height);
    if (marker)
        draw_rec_marker(v, scale, width, height);
    mur_hud_end(h);
}
