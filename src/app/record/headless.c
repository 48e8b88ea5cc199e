/* murmur --headless: frames without a display (EGL, or a hidden window), recorded through a frame
 * sink (--record) or only rendered (a benchmark, or --screenshot of the last frame). Each frame
 * advances the ticks the pace asks for (pace.h: 1 by default); dt is the flock's own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "camera_mode.h"
#include "clock.h"
#include "context.h"
#include "headless.h"
#include "gl.h"
#include "hud.h"
#include "outputs.h"
#include "pace.h"
#include "recording.h"
#include "renderer.h"
#include "screenshot.h"
#include "signals.h"
#include "simthread.h"

typedef struct headless {
    const mur_cli *cli;
    int w, h;
    mur_renderer *r;
    mur_hud *hud;          /* --hud on only */
    mur_sim *sim;
    mur_recording rs;      /* --record */
    mur_target *plain;     /* without --record: rendering only */
    mur_target *target;    /* what frames are drawn into */
    mur_camera cam;
    mur_cam_mode mode;
    mur_flock_def def;
    float size, dt;        /* dt: seconds of video per frame */
    mur_pace pace;
    mur_afile *metrics;    /* --metrics */
    mur_sim_job job;
    FILE *frame_log;       /* MURMUR_FRAME_LOG (tests): the camera and the falcon of each frame */
} headless;

/* Everything that can be refused before a context is made: exit status, or 0 to go on. */
static int check_args(const mur_cli *cli, mur_flock *flock)
{
    char err[1024];
    if (cli->frames <= 0) {
        fprintf(stderr, "murmur: --headless needs --frames N (N >= 1)\n");
        return MUR_EXIT_USAGE;
    }
    if (cli->record && mur_sink_kind_of(cli->record, err, sizeof err) == MUR_SINK_NONE) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    /* ffmpeg and the output folder are checked before anything is rendered */
    char ffmpeg[4096];
    if (cli->record && mur_sink_kind_of(cli->record, err, sizeof err) == MUR_SINK_VIDEO
        && !mur_find_in_path("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        fprintf(stderr,
                "murmur: --record %s: ffmpeg is not installed (not found in PATH); install it, or "
                "record PNG frames with a pattern like frames/f%%05d.png\n",
                cli->record);
        return MUR_EXIT_USAGE;
    }
    if (cli->record && !mur_sink_check_options(cli->record, cli->crf, cli->x264_preset, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    (void)flock;
    return 0;
}

/* Renderer, HUD, target or recording, worker. False after printing why. */
static bool setup(headless *hl, mur_flock *flock)
{
    const mur_cli *cli = hl->cli;
    char err[1024];
    hl->r = mur_renderer_create();
    bool want_hud = cli->hud_given && cli->hud;
    hl->hud = hl->r && want_hud ? mur_hud_create() : NULL;
    if (!hl->r || (want_hud && !hl->hud)) {
        fprintf(stderr, "murmur: cannot set up the renderer (see the messages above)\n");
        return false;
    }
    int samples = mur_msaa_samples((const char *)glGetString(GL_RENDERER));
    mur_encode enc = {cli->crf, cli->x264_preset};
    if (cli->record ? !mur_recording_begin(&hl->rs, cli->record, hl->w, hl->h, cli->fps, &enc, cli->frames, true, err,
                                           sizeof err)
                    : !(hl->plain = mur_target_create(hl->w, hl->h, samples, err, sizeof err))) {
        fprintf(stderr, "murmur: %s\n", err);
        return false;
    }
    hl->target = hl->plain ? hl->plain : hl->rs.target;
    hl->sim = mur_sim_start(flock);
    if (!hl->sim) {
        fprintf(stderr, "murmur: cannot start the simulation thread\n");
        mur_recording_end(&hl->rs, false, 0, NULL);
        return false;
    }
    hl->def = mur_flock_get_def(flock);
    hl->size = mur_boid_size(&hl->def);
    hl->dt = (float)(1.0 / cli->fps);
    hl->pace = mur_pace_of(cli, cli->record != NULL);
    return true;
}

/* MURMUR_FRAME_LOG: one line a frame (after a header): the frame, the tick drawn, whether a falcon
 * is drawn and where (wu), and the view-projection matrix it was drawn with (column-major), so a test
 * can project the state onto the frame. */
static void log_frame(headless *hl, int64_t i, uint64_t tick)
{
    float p[3];
    const bool falcon = mur_renderer_falcon(hl->r, p);
    mat4 vp;
    mur_camera_view_proj(&hl->cam, vp);
    fprintf(hl->frame_log, "%lld,%llu,%d,%.9g,%.9g,%.9g", (long long)i, (unsigned long long)tick, (int)falcon,
            (double)p[0], (double)p[1], (double)p[2]);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            fprintf(hl->frame_log, ",%.9g", (double)vp[c][r]);
    fputc('\n', hl->frame_log);
}

static void draw_hud(headless *hl, uint64_t tick, int64_t i)
{
    char text[160];
    snprintf(text, sizeof text, "murmur  tick %llu  boids %d  frame %lld/%lld", (unsigned long long)tick,
             (int)hl->job.dst.boids, (long long)i + 1, (long long)hl->cli->frames);
    const uint8_t white[4] = {235, 240, 250, 255};
    float scale = fmaxf(1.0f, fminf(3.0f, floorf((float)hl->h / 480.0f))); /* whole pixels: crisp */
    mur_hud_begin(hl->hud, hl->w, hl->h, scale);
    mur_hud_text(hl->hud, 10.0f * scale, 8.0f * scale, text, white);
    mur_hud_end(hl->hud);
    mur_target_bind(hl->target);
}

/* The frames: the first state (tick 0) is frame 0, each later frame one tick further; the next
 * tick runs on the worker while this frame is drawn. Returns the stop signal, or 0. */
static int run_frames(headless *hl, mur_flock *flock, double *t_start)
{
    const mur_cli *cli = hl->cli;
    mur_view v0 = mur_flock_view(flock);
    hl->job.copy = true;
    const bool follow = hl->mode.follow || hl->cam.follow; /* --camera follow, or a roost world's default */
    hl->job.centre = follow || mur_cam_mode_wants_centre(&hl->mode); /* or a path relative to the flock */
    hl->job.falcon = hl->mode.falcon;
    hl->job.metrics = hl->metrics ? hl->metrics->fp : NULL;
    mur_renderer_map(hl->r, v0.boids, v0.predators, &hl->job.dst);
    hl->job.ticks = 0;
    mur_sim_kick(hl->sim, &hl->job);
    double centre[3] = {0, 0, 0}, radius = 0.0;
    float box[4][3], falcon[3];
    bool snapped = false, has_box = false, has_falcon = false;
    int sig = 0;
    for (int64_t i = 0; i < cli->frames; i++) {
        mur_sim_result res;
        mur_sim_wait(hl->sim, &res);
        mur_renderer_commit(hl->r, res.tick, hl->dt, res.predators_on);
        if (res.has_centre)
            memcpy(centre, res.centre, sizeof centre);
        sig = mur_signals_stop();
        if (sig)
            break;
        if (res.has_centre)
            radius = res.radius;
        if (res.has_box) {
            memcpy(box, res.box, sizeof box);
            has_box = true;
        }
        if (res.has_centre) {
            has_falcon = res.has_falcon;
            memcpy(falcon, res.falcon, sizeof falcon);
        }
        float sim_dt = hl->def.dt;
        if (i + 1 < cli->frames) {
            mur_renderer_map(hl->r, hl->job.dst.boids, hl->job.dst.predators, &hl->job.dst);
            hl->job.ticks = mur_pace_ticks(&hl->pace, cli->fps, sim_dt);
            mur_sim_kick(hl->sim, &hl->job);
        }
        if (follow && !snapped) {
            hl->cam.follow = true;
            float c[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
            /* the first frame framed at once: a few whole corrections of the box's fit */
            for (int k = 0; k < 12; k++) {
                mur_camera_frame(&hl->cam, c, (float)radius);
                mur_camera_snap(&hl->cam);
                if (has_box)
                    mur_camera_fit(&hl->cam, (const float(*)[3])box, 0.0f);
            }
            mur_camera_frame(&hl->cam, c, (float)radius);
            mur_camera_snap(&hl->cam);
            snapped = true;
        }
        mur_cam_mode_apply(&hl->mode, &hl->cam, centre, radius, has_box ? (const float(*)[3])box : NULL,
                           has_falcon ? falcon : NULL,
                           (double)i / cli->fps, i == 0 ? 0.0f : hl->dt);
        mur_scene scene;
        mur_scene_from_def(&hl->def, hl->size, (float)i * hl->dt, &scene);
        scene.shadows = mur_shadows_wanted((const char *)glGetString(GL_RENDERER), hl->job.dst.boids, !hl->plain);
        if (i == 1)
            *t_start = mur_clock_s(); /* frame 0 compiles shaders and fills caches */
        mur_target_bind(hl->target);
        mur_renderer_draw(hl->r, &hl->cam, &scene, hl->w, hl->h);
        if (hl->frame_log)
            log_frame(hl, i, res.tick);
        if (hl->hud)
            draw_hud(hl, res.tick, i);
        if (hl->plain)
            glFlush();
        else if (!mur_recording_frame(&hl->rs))
            break;
    }
    mur_sim_result last;
    mur_sim_wait(hl->sim, &last);
    return sig ? sig : mur_signals_stop();
}

/* Rendering only: the timing line and --screenshot of the last frame. Exit status. */
static int finish_plain(headless *hl, double t_start, int sig)
{
    const mur_cli *cli = hl->cli;
    mur_target_resolve(hl->plain);
    glFinish();
    double el = mur_clock_s() - t_start;
    int64_t timed = cli->frames - 1;
    printf("headless: %lld frames %dx%d msaa=%d boids=%d: %.3f ms/frame (%.1f fps)\n", (long long)cli->frames,
           hl->w, hl->h, mur_target_samples(hl->plain), (int)hl->job.dst.boids,
           timed > 0 ? 1000.0 * el / (double)timed : 0.0, el > 0.0 ? (double)timed / el : 0.0);
    int status = sig ? 128 + sig : 0;
    if (cli->screenshot && !sig) {
        bool ok;
        if (cli->shot_w > 0) {
            mur_scene scene;
            mur_scene_from_def(&hl->def, hl->size, (float)(cli->frames - 1) * hl->dt, &scene);
            scene.shadows = mur_shadows_wanted((const char *)glGetString(GL_RENDERER), hl->job.dst.boids, true);
            ok = mur_screenshot_scene(cli->screenshot, hl->r, &hl->cam, &scene, cli->shot_w, cli->shot_h, true);
        } else {
            mur_target_bind_read(hl->plain);
            ok = mur_screenshot(cli->screenshot, hl->w, hl->h, true);
        }
        if (!ok)
            status = MUR_EXIT_USAGE;
    }
    fflush(stdout);
    return status;
}

int mur_headless_main(const mur_cli *cli, mur_flock *flock)
{
    int status = check_args(cli, flock);
    if (status != 0)
        return status;
    char err[1024];
    mur_context *ctx = mur_context_headless(err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    headless hl;
    memset(&hl, 0, sizeof hl);
    hl.cli = cli;
    hl.w = cli->width > 0 ? cli->width : 1280;
    hl.h = cli->height > 0 ? cli->height : 720;
    status = MUR_EXIT_USAGE;
    mur_flock_def given = mur_flock_get_def(flock);
    const mur_flock_def def = mur_def_resolved(&given); /* world=scale: the box of this count */
    if (!mur_cam_setup(&hl.cam, &hl.mode, cli, &def, hl.w, hl.h, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
    } else if (mur_outputs_open(cli, flock, &hl.metrics)) {
        if (!mur_warmup(cli, flock)) {
            /* stopped before the first frame: the metrics and the state so far, no frames */
            int sig = mur_signals_stop();
            status = mur_outputs_close(cli, flock, &hl.metrics, 128 + sig, NULL);
            if (status == 128 + sig)
                fprintf(stderr, "murmur: stopped by %s during the warm-up, at tick %llu: no frames recorded\n",
                        mur_signal_name(sig), (unsigned long long)mur_flock_view(flock).tick);
        } else if (setup(&hl, flock)) {
            double t_start = 0.0;
            const char *log = getenv("MURMUR_FRAME_LOG"); /* tests: no file, no log */
            hl.frame_log = log && *log ? fopen(log, "w") : NULL;
            if (hl.frame_log)
                fputs("frame,tick,falcon,x,y,z,vp0,vp1,vp2,vp3,vp4,vp5,vp6,vp7,vp8,vp9,vp10,vp11,vp12,vp13,vp14,vp15\n",
                      hl.frame_log);
            int sig = run_frames(&hl, flock, &t_start);
            if (hl.frame_log)
                fclose(hl.frame_log);
            char pace[160];
            mur_pace_describe(&hl.pace, cli->fps, hl.def.dt, pace, sizeof pace);
            status = hl.plain ? finish_plain(&hl, t_start, sig) : mur_recording_end(&hl.rs, true, sig, pace);
            mur_sim_stop(hl.sim);
            hl.sim = NULL;
            status = mur_outputs_close(cli, flock, &hl.metrics, status, NULL);
        } else {
            mur_out_abort_all();
        }
    }
    mur_cam_mode_free(&hl.mode);
    mur_target_destroy(hl.plain);
    mur_sim_stop(hl.sim);
    mur_hud_destroy(hl.hud);
    mur_renderer_destroy(hl.r);
    mur_context_destroy(ctx);
    return status;
}
