/* Recording sessions and the headless recorder (see record.h). */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "context.h"
#include "gl.h"
#include "hud.h"
#include "renderer.h"
#include "simthread.h"

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
    stop_sig = sig;
}

void mur_install_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a dead ffmpeg shows up as EPIPE on write, not as our death */
}

int mur_stop_signal(void)
{
    return (int)stop_sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mur_record_samples(void)
{
    const char *e = getenv("MURMUR_MSAA");
    if (e && *e)
        return atoi(e);
    const char *r = (const char *)glGetString(GL_RENDERER);
    /* software GL pays about 2x for 4x MSAA; GPUs do it almost for free */
    return r && strstr(r, "llvmpipe") ? 0 : 4;
}

bool mur_rec_begin(mur_rec_session *s, const char *path, int w, int h, double fps, int64_t total,
                   char *err, size_t err_len)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->total = total;
    s->progress = isatty(2);
    s->rec = mur_recorder_open(path, w, h, fps, err, err_len);
    if (!s->rec)
        return false;
    s->target = mur_target_create(w, h, mur_record_samples(), err, err_len);
    if (!s->target) {
        char e2[8];
        mur_recorder_close(s->rec, false, NULL, e2, sizeof e2);
        s->rec = NULL;
        return false;
    }
    s->t0 = now_s();
    return true;
}

static bool push_due(mur_rec_session *s, bool drain)
{
    for (;;) {
        const uint8_t *px = mur_target_read_take(s->target, drain);
        if (!px)
            return true;
        bool ok = mur_recorder_push(s->rec, px);
        mur_target_read_done(s->target);
        if (!ok) {
            s->failed = true;
            return false;
        }
        s->pushed++;
        if (!drain)
            return true;
    }
}

static void progress(mur_rec_session *s, bool final)
{
    double t = now_s();
    if (!s->progress || (!final && t - s->last_progress < 0.2))
        return;
    s->last_progress = t;
    double el = t - s->t0, fps = el > 0.0 ? (double)s->rendered / el : 0.0;
    if (s->total > 0) {
        double eta = fps > 0.0 ? (double)(s->total - s->rendered) / fps : 0.0;
        fprintf(stderr, "\r\033[Krecording %s: frame %lld/%lld  %.1f fps  ETA %.0f s", s->path,
                (long long)s->rendered, (long long)s->total, fps, eta);
    } else {
        fprintf(stderr, "\r\033[Krecording %s: frame %lld  %.1f fps", s->path,
                (long long)s->rendered, fps);
    }
    if (final)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

bool mur_rec_frame(mur_rec_session *s)
{
    mur_target_resolve(s->target);
    mur_target_read_start(s->target);
    s->rendered++;
    bool ok = push_due(s, false) && !mur_recorder_failed(s->rec);
    if (!ok)
        s->failed = true;
    progress(s, false);
    return ok;
}

static void human_size(uint64_t b, char *out, size_t len)
{
    if (b >= 1024ull * 1024ull)
        snprintf(out, len, "%.1f MB", (double)b / (1024.0 * 1024.0));
    else
        snprintf(out, len, "%.1f kB", (double)b / 1024.0);
}

int mur_rec_end(mur_rec_session *s, bool keep, int sig)
{
    if (!s->rec)
        return 0;
    if (keep && !s->failed)
        push_due(s, true);
    progress(s, true);
    mur_record_summary sum;
    char err[1024];
    bool ok = mur_recorder_close(s->rec, keep && !s->failed, &sum, err, sizeof err);
    s->rec = NULL;
    mur_target_destroy(s->target);
    s->target = NULL;
    double el = now_s() - s->t0;
    if (!ok || s->failed) {
        fprintf(stderr, "murmur: %s\n", ok ? "recording failed" : err);
        return MUR_EXIT_USAGE;
    }
    if (!keep)
        return sig ? 128 + sig : MUR_EXIT_USAGE;
    char size[32];
    human_size(sum.bytes, size, sizeof size);
    if (sig) {
        fprintf(stderr,
                "murmur: interrupted by %s: kept %lld of %lld frames in %s (%s, finished and "
                "playable)\n",
                sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal",
                (long long)sum.frames, (long long)s->total, sum.path, size);
        return 128 + sig;
    }
    printf("murmur: recorded %lld frames in %.1f s (%.1f fps) to %s (%s)\n",
           (long long)sum.frames, el, el > 0.0 ? (double)sum.frames / el : 0.0, sum.path, size);
    fflush(stdout);
    return 0;
}

/* ------------------------------------------------------------------ camera modes */

mur_cam_mode mur_cam_mode_parse(const char *spec)
{
    mur_cam_mode m = {0.0, false};
    if (!spec)
        return m;
    if (!strncmp(spec, "orbit:", 6))
        m.orbit_s = strtod(spec + 6, NULL);
    else if (!strcmp(spec, "follow"))
        m.follow = true;
    return m;
}

void mur_cam_mode_apply(const mur_cam_mode *m, mur_camera *cam, const double centre[3], float dt)
{
    if (m->orbit_s > 0.0) {
        /* the goal and the drawn yaw turn together: a constant angular speed, no damping lag */
        float d = (float)(6.283185307179586 / m->orbit_s) * dt;
        cam->goal.yaw += d;
        cam->cur.yaw += d;
    }
    if (m->follow || cam->follow) {
        cam->follow = true;
        float c[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
        mur_camera_follow(cam, c);
    }
    mur_camera_update(cam, dt);
}

/* ------------------------------------------------------------------ headless */

static void scene_of(const mur_flock_def *def, float size, float time, mur_scene *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->world_min, def->world_min, sizeof s->world_min);
    memcpy(s->world_max, def->world_max, sizeof s->world_max);
    s->ground = def->ground;
    s->show_box = def->bounds != MUR_BOUNDS_NONE;
    s->goal_on = def->goal;
    memcpy(s->goal_pos, def->goal_pos, sizeof s->goal_pos);
    s->min_speed = def->min_speed;
    s->max_speed = def->max_speed;
    s->boid_size = size;
    s->bank_g = def->max_speed > 0.0f ? def->max_speed : 1.0f;
    s->time = time;
}

/* One tick of 1/fps per frame: the video plays at the simulation's own speed. */
bool mur_record_set_dt(mur_flock *f, double fps, char *err, size_t len)
{
    mur_flock_def def = mur_flock_get_def(f);
    def.dt = (float)(1.0 / fps);
    mur_error e;
    if (!mur_flock_apply_def(f, &def, &e)) {
        snprintf(err, len, "--fps %g: %s", fps, e.msg);
        return false;
    }
    return true;
}

int mur_record_headless(const mur_cli *cli, mur_flock *flock)
{
    char err[1024];
    if (cli->frames <= 0) {
        fprintf(stderr, "murmur: --headless needs --frames N (N >= 1)\n");
        return MUR_EXIT_USAGE;
    }
    int w = cli->width > 0 ? cli->width : 1280, h = cli->height > 0 ? cli->height : 720;
    if (cli->record && mur_record_kind_of(cli->record, err, sizeof err) == MUR_RECORD_NONE) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    /* ffmpeg and the output folder are checked before anything is rendered */
    char ffmpeg[4096];
    if (cli->record && mur_record_kind_of(cli->record, err, sizeof err) == MUR_RECORD_VIDEO
        && !mur_find_in_path("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        fprintf(stderr,
                "murmur: --record %s: ffmpeg is not installed (not found in PATH); install it, or "
                "record PNG frames with a pattern like frames/f%%05d.png\n",
                cli->record);
        return MUR_EXIT_USAGE;
    }
    if (!mur_record_set_dt(flock, cli->fps, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    mur_context *ctx = mur_context_headless(err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    int status = MUR_EXIT_USAGE;
    mur_renderer *r = mur_renderer_create();
    bool want_hud = cli->hud_given && cli->hud;
    mur_hud *hud = r && want_hud ? mur_hud_create() : NULL;
    mur_sim *sim = NULL;
    mur_rec_session rs;
    memset(&rs, 0, sizeof rs);
    if (!r || (want_hud && !hud)) {
        fprintf(stderr, "murmur: cannot set up the renderer (see the messages above)\n");
        goto done;
    }
    mur_install_stop_signals();
    /* without --record: rendering only (a benchmark, or --screenshot of the last frame) */
    mur_target *plain = NULL;
    if (cli->record ? !mur_rec_begin(&rs, cli->record, w, h, cli->fps, cli->frames, err, sizeof err)
                    : !(plain = mur_target_create(w, h, mur_record_samples(), err, sizeof err))) {
        fprintf(stderr, "murmur: %s\n", err);
        goto done;
    }
    mur_target *target = plain ? plain : rs.target;
    double t_start = 0.0;
    sim = mur_sim_start(flock);
    if (!sim) {
        fprintf(stderr, "murmur: cannot start the simulation thread\n");
        mur_rec_end(&rs, false, 0);
        goto done;
    }

    mur_flock_def def = mur_flock_get_def(flock);
    mur_camera cam;
    mur_camera_init(&cam, def.world_min, def.world_max, (float)w / (float)h);
    mur_camera_snap(&cam);
    mur_cam_mode mode = mur_cam_mode_parse(cli->camera);
    float size = mur_boid_size(&def);
    float dt = (float)(1.0 / cli->fps);
    mur_flock_set_metrics(flock, false);

    /* the first state (tick 0) is frame 0; each later frame is one tick further */
    mur_view v0 = mur_flock_view(flock);
    mur_sim_job job;
    memset(&job, 0, sizeof job);
    job.copy = true;
    mur_renderer_map(r, v0.boids, v0.predators, &job.dst);
    job.ticks = 0;
    mur_sim_kick(sim, &job);
    double centre[3] = {0, 0, 0};
    bool snapped = false;
    int sig = 0;
    for (int64_t i = 0; i < cli->frames; i++) {
        mur_sim_result res;
        mur_sim_wait(sim, &res);
        mur_renderer_commit(r, res.tick, dt, res.predators_on);
        memcpy(centre, res.centre, sizeof centre);
        sig = mur_stop_signal();
        if (sig)
            break;
        if (i + 1 < cli->frames) {
            mur_renderer_map(r, job.dst.boids, job.dst.predators, &job.dst);
            job.ticks = 1;
            mur_sim_kick(sim, &job); /* the next tick runs while this frame is drawn */
        }
        if (mode.follow && !snapped) {
            cam.follow = true;
            float c[3] = {(float)centre[0], (float)centre[1], (float)centre[2]};
            mur_camera_follow(&cam, c);
            mur_camera_snap(&cam);
            snapped = true;
        }
        mur_cam_mode_apply(&mode, &cam, centre, i == 0 ? 0.0f : dt);
        mur_scene scene;
        scene_of(&def, size, (float)i * dt, &scene);
        if (i == 1)
            t_start = now_s(); /* frame 0 compiles shaders and fills caches */
        mur_target_bind(target);
        mur_renderer_draw(r, &cam, &scene, w, h);
        if (hud) {
            char text[160];
            snprintf(text, sizeof text, "murmur  tick %llu  boids %d  frame %lld/%lld",
                     (unsigned long long)res.tick, (int)job.dst.boids, (long long)i + 1,
                     (long long)cli->frames);
            const uint8_t white[4] = {235, 240, 250, 255};
            float scale = fmaxf(1.0f, fminf(3.0f, (float)h / 480.0f));
            mur_hud_begin(hud, w, h, scale);
            mur_hud_text(hud, 10.0f * scale, 8.0f * scale, text, white);
            mur_hud_end(hud);
            mur_target_bind(target);
        }
        if (plain)
            glFlush();
        else if (!mur_rec_frame(&rs))
            break;
    }
    mur_sim_result last;
    mur_sim_wait(sim, &last);
    if (!sig)
        sig = mur_stop_signal();
    if (plain) {
        mur_target_resolve(plain);
        glFinish();
        double el = now_s() - t_start;
        int64_t timed = cli->frames - 1;
        printf("headless: %lld frames %dx%d msaa=%d boids=%d: %.3f ms/frame (%.1f fps)\n",
               (long long)cli->frames, w, h, mur_target_samples(plain), (int)job.dst.boids,
               timed > 0 ? 1000.0 * el / (double)timed : 0.0, el > 0.0 ? (double)timed / el : 0.0);
        status = sig ? 128 + sig : 0;
        if (cli->screenshot && !sig) {
            uint8_t *px = malloc((size_t)w * (size_t)h * 4);
            glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
            mur_target_read_start(plain);
            const uint8_t *src = mur_target_read_take(plain, true);
            bool ok = px && src;
            if (ok) {
                memcpy(px, src, (size_t)w * (size_t)h * 4);
                ok = mur_png_write(cli->screenshot, w, h, px, true, 3, err, sizeof err);
            } else {
                snprintf(err, sizeof err, "%s: cannot read the frame back", cli->screenshot);
            }
            mur_target_read_done(plain);
            free(px);
            if (ok) {
                printf("murmur: screenshot %s (%dx%d)\n", cli->screenshot, w, h);
            } else {
                fprintf(stderr, "murmur: %s\n", err);
                status = MUR_EXIT_USAGE;
            }
        }
        fflush(stdout);
    } else {
        status = mur_rec_end(&rs, true, sig);
    }
    mur_target_destroy(plain);
done:
    mur_sim_stop(sim);
    mur_hud_destroy(hud);
    mur_renderer_destroy(r);
    mur_context_destroy(ctx);
    return status;
}
