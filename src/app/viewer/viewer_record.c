/* Recording from the viewer's window: --record at startup, or V to start and stop an auto-named
 * recording. The frame drawn goes into the recording target and is shown scaled in the window.
 * viewer_rec is this file's; the loop resets its pace when a recording starts and ends the run when
 * a --record recording fails (the return values say so). */
#include "gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pace.h"
#include "recording.h"
#include "renderer.h"
#include "viewer.h"

/* Start or stop a recording from the window (V, or --record at startup). */
static void auto_name(char *out, size_t len, bool video)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    size_t n = strftime(out, len, "murmur-%Y%m%d-%H%M%S", &tm);
    snprintf(out + n, len - n, video ? ".mp4" : "/f%%05d.png");
}

int viewer_stop_recording(viewer *v, int sig)
{
    if (!v->rec.session)
        return 0;
    char pace[160];
    mur_pace_describe(&v->pace, v->cli->fps, mur_flock_get_def(v->flock).dt, pace, sizeof pace);
    int st = mur_recording_end(v->rec.session, true, sig, pace);
    free(v->rec.session);
    v->rec.session = NULL;
    if (v->rec.from_key) {
        v->rec.from_key = false;
        mur_msg(&v->msg, st == 0 ? "recording saved" : "recording failed (see the terminal)");
    }
    return st;
}

/* The video keeps the flock's own dt; each frame advances the ticks of the pace (--ticks-per-frame
 * or --speed, 1 tick by default). */
bool viewer_start_recording(viewer *v, const char *path, bool from_key)
{
    char err[1024];
    mur_recording *rs = calloc(1, sizeof *rs);
    if (!rs)
        return false;
    mur_encode enc = {v->cli->crf, v->cli->x264_preset};
    if (!mur_recording_begin(rs, path, v->fb_w, v->fb_h, v->cli->fps, &enc, from_key ? -1 : v->cli->frames, !from_key, err,
                             sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        mur_msg(&v->msg, "cannot record: %.150s", err);
        free(rs);
        return false;
    }
    v->rec.session = rs;
    v->rec.from_key = from_key;
    v->rec.start_time = v->time;
    if (from_key) {
        printf("murmur: recording %s (V stops)\n", path);
        fflush(stdout);
        mur_msg(&v->msg, "recording %s (V stops)", path);
    }
    return true;
}

bool viewer_toggle_recording(viewer *v)
{
    if (v->rec.session) {
        viewer_stop_recording(v, 0);
        return false;
    }
    char path[128], ff[4096];
    bool video = mur_find_in_path("ffmpeg", ff, sizeof ff);
    auto_name(path, sizeof path, video);
    if (!video) {
        /* no ffmpeg: a PNG sequence in its own folder */
        char dir[128];
        snprintf(dir, sizeof dir, "%s", path);
        *strrchr(dir, '/') = '\0';
        if (mkdir(dir, 0755) != 0) {
            mur_msg(&v->msg, "cannot create %s", dir);
            return false;
        }
    }
    return viewer_start_recording(v, path, true);
}

/* Draw the frame into the recording target (the HUD only with --hud on), hand it to the recorder
 * and show it in the window. */
bool viewer_draw_recorded(viewer *v, const mur_scene *scene)
{
    mur_target *t = v->rec.session->target;
    int tw = mur_target_width(t), th = mur_target_height(t);
    mur_camera cam = v->camera.cam;
    mur_camera_set_aspect(&cam, tw, th);
    mur_target_bind(t);
    mur_renderer_draw(v->renderer, &cam, scene, tw, th);
    bool hud_in_video = v->cli->hud_given && v->cli->hud;
    if (hud_in_video)
        viewer_draw_hud(v, tw, th, VIEWER_HUD_VIDEO);
    bool ok = mur_recording_frame(v->rec.session);
    mur_target_present(t, v->fb_w, v->fb_h);
    /* with the HUD in the presented frame already, the window adds only the recording marker */
    viewer_draw_hud(v, v->fb_w, v->fb_h, hud_in_video ? VIEWER_HUD_MARKER : VIEWER_HUD_WINDOW);
    viewer_panel_draw(v);
    if (!ok) {
        /* the sink failed (ffmpeg died, disk full): say so and stop */
        v->rec.status = viewer_stop_recording(v, 0);
        return !v->cli->record;
    }
    return true;
}

void viewer_record_free(viewer *v)
{
    free(v->rec.session);
    v->rec.session = NULL;
}
