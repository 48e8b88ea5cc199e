/* The viewer's side of the parameter panel (panel.h): when it shows, what it is given, and how
 * its requests are applied while the simulation worker is idle. Without Dear ImGui at build time
 * (no libimgui-dev) the panel is absent and E says so. */
#include "gl.h"

#include <stdio.h>
#include <string.h>

#include "panel.h"
#include "viewer.h"

bool viewer_panel_setup(viewer *v)
{
    /* hidden at start, so nothing covers the flock (E shows it; a hint that fades names the key) */
    v->panel.show = false;
#ifdef MUR_HAVE_PANEL
    v->panel.ui = mur_panel_create(v->win);
    return v->panel.ui != NULL;
#else
    v->panel.show = false;
    return true;
#endif
}

void viewer_panel_destroy(viewer *v)
{
#ifdef MUR_HAVE_PANEL
    mur_panel_destroy(v->panel.ui);
#endif
    v->panel.ui = NULL;
}

bool viewer_panel_available(void)
{
#ifdef MUR_HAVE_PANEL
    return true;
#else
    return false;
#endif
}

bool viewer_panel_toggle(viewer *v)
{
    v->panel.show = !v->panel.show;
    return v->panel.show;
}

bool viewer_panel_shown(const viewer *v)
{
    return v->panel.ui && v->panel.show && v->display.show_hud;
}

float viewer_panel_left(const viewer *v)
{
#ifdef MUR_HAVE_PANEL
    if (viewer_panel_shown(v) && v->win_w > 0) {
        float x = mur_panel_left(v->panel.ui) * (float)v->fb_w / (float)v->win_w;
        if (x > 0.0f && x < (float)v->fb_w)
            return x;
    }
#endif
    return (float)v->fb_w;
}

bool viewer_panel_wants_mouse(const viewer *v)
{
#ifdef MUR_HAVE_PANEL
    return v->panel.ui && v->panel.show && v->display.show_hud && mur_panel_wants_mouse(v->panel.ui, v->mouse.x, v->mouse.y);
#else
    (void)v;
    return false;
#endif
}

bool viewer_panel_wants_keyboard(const viewer *v)
{
#ifdef MUR_HAVE_PANEL
    return v->panel.ui && v->panel.show && v->display.show_hud && mur_panel_wants_keyboard(v->panel.ui);
#else
    (void)v;
    return false;
#endif
}

/* Over the window's framebuffer, after the HUD; never into a recording target. */
void viewer_panel_draw(viewer *v)
{
#ifdef MUR_HAVE_PANEL
    if (!v->panel.ui || !v->panel.show || !v->display.show_hud)
        return;
    mur_panel_io *io = &v->panel.io;
    io->def = v->def;
    io->def.boids = v->nboids;
    io->def.predators = v->npredators;
    io->paused = v->run.paused;
    io->speed = v->run.speed;
    io->tick = v->tick;
    io->fps = v->fps;
    io->preset = -1;
    for (int i = 0; i < mur_preset_count(); i++)
        if (strcmp(mur_preset_name(i), v->cmds.preset) == 0)
            io->preset = i;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, v->fb_w, v->fb_h);
    mur_panel_draw(v->panel.ui, io);
    v->panel.pending = io->def_changed || io->pause_changed || io->step || io->speed_changed || io->new_preset >= 0;
#else
    (void)v;
#endif
}

/* The worker is idle: apply the parameters the panel changed in the last frame; the rest it asked
 * for (a preset, pause, a step, the speed) goes back to the loop, which carries it out. */
const mur_panel_io *viewer_panel_apply(viewer *v, bool *flock_changed)
{
    *flock_changed = false;
    if (!v->panel.pending)
        return NULL;
    v->panel.pending = false;
    mur_panel_io *io = &v->panel.io;
    if (io->def_changed) {
        mur_error err;
        if (mur_flock_apply_def(v->flock, &io->new_def, &err)) {
            *flock_changed = true;
        } else {
            snprintf(io->error, sizeof io->error, "%s", err.msg);
            mur_msg(&v->msg, "%s", err.msg);
        }
    }
    return io;
}
