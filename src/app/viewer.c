/* The interactive viewer: a GLFW window, a fixed simulation tick decoupled from the frame rate,
 * the renderer, the HUD, screenshots and scripted runs (--frames, --screenshot, --keys). */
#include "gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "hud.h"
#include "renderer.h"
#include "shader.h"
#include "viewer.h"

enum {
    MAX_TICKS_PER_FRAME = 5, /* catch-up cap: beyond this the simulation slows down instead */
};
static const double MAX_STEP_BUDGET_S = 0.050; /* stop catching up once steps took this long */
static const double SCRIPTED_FRAME_S = 1.0 / 30.0;

static char glfw_error[512];

static void on_glfw_error(int code, const char *desc)
{
    snprintf(glfw_error, sizeof glfw_error, "%s (GLFW error 0x%x)", desc, code);
}

static viewer *from(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    bool repeatable = key == GLFW_KEY_LEFT || key == GLFW_KEY_RIGHT || key == GLFW_KEY_UP
                      || key == GLFW_KEY_DOWN || key == GLFW_KEY_PERIOD;
    if (action == GLFW_PRESS || (action == GLFW_REPEAT && repeatable))
        viewer_key(from(w), key, mods);
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    viewer_mouse_button(from(w), button, action == GLFW_PRESS, mods);
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    viewer_cursor(from(w), x, y);
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    viewer_scroll(from(w), dy);
}

static void on_fb_size(GLFWwindow *w, int width, int height)
{
    viewer *v = from(w);
    v->fb_w = width;
    v->fb_h = height;
    mur_camera_set_aspect(&v->cam, width, height);
}

static void on_win_size(GLFWwindow *w, int width, int height)
{
    viewer *v = from(w);
    v->win_w = width;
    v->win_h = height;
}

/* ------------------------------------------------------------------ screenshots */

static bool save_screenshot(viewer *v, const char *path)
{
    size_t bytes = (size_t)v->fb_w * (size_t)v->fb_h * 4;
    uint8_t *px = malloc(bytes ? bytes : 1);
    if (!px) {
        fprintf(stderr, "murmur: %s: out of memory for a %dx%d screenshot\n", path, v->fb_w,
                v->fb_h);
        return false;
    }
    glReadBuffer(GL_BACK);
    mur_capture_read(v->fb_w, v->fb_h, px);
    char err[512];
    bool ok = mur_png_write(path, v->fb_w, v->fb_h, px, true, 3, err, sizeof err);
    free(px);
    if (!ok)
        fprintf(stderr, "murmur: %s\n", err);
    return ok;
}

static void timestamped_screenshot(viewer *v)
{
    char path[64];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    size_t n = strftime(path, sizeof path, "murmur-%Y%m%d-%H%M%S", &tm);
    /* two shots in the same second get distinct names */
    snprintf(path + n, sizeof path - n, "-%03lld.png", (long long)(v->frame % 1000));
    if (save_screenshot(v, path)) {
        printf("murmur: screenshot %s (%dx%d)\n", path, v->fb_w, v->fb_h);
        fflush(stdout);
        viewer_message(v, "saved %s", path);
    }
}

/* ------------------------------------------------------------------ the loop */

static void simulate(viewer *v, double real_dt, float dt)
{
    int ticks = 0;
    if (v->scripted) {
        ticks = v->paused ? 0 : 1;
    } else if (!v->paused) {
        v->acc += real_dt * v->speed;
        ticks = (int)floor(v->acc / (double)dt);
        v->acc -= (double)ticks * (double)dt;
    }
    ticks += v->step_once;
    v->step_once = 0;
    double t0 = glfwGetTime(), spent = 0.0;
    int done = 0;
    while (done < ticks) {
        mur_flock_step(v->flock);
        done++;
        spent = glfwGetTime() - t0;
        if (!v->scripted && (done >= MAX_TICKS_PER_FRAME || spent > MAX_STEP_BUDGET_S))
            break;
    }
    if (done < ticks) {
        /* cannot keep up: drop the backlog instead of spiralling */
        v->dropped += (double)(ticks - done) * (double)dt;
        v->acc = 0.0;
    }
    v->ticks_last = done;
    if (done > 0) {
        v->stats = mur_flock_stats(v->flock);
        double ms = spent * 1000.0 / done;
        v->sim_ms = v->sim_ms > 0.0 ? 0.9 * v->sim_ms + 0.1 * ms : ms;
    }
}

static void fill_scene(viewer *v, mur_scene *s)
{
    mur_flock_def def = mur_flock_get_def(v->flock);
    memcpy(s->world_min, def.world_min, sizeof s->world_min);
    memcpy(s->world_max, def.world_max, sizeof s->world_max);
    s->ground = def.ground;
    s->show_box = v->show_box && def.bounds != MUR_BOUNDS_NONE;
    s->goal_on = def.goal;
    memcpy(s->goal_pos, def.goal_pos, sizeof s->goal_pos);
    s->min_speed = def.min_speed;
    s->max_speed = def.max_speed;
    s->boid_size = v->boid_size;
    s->bank_g = def.max_speed > 0.0f ? def.max_speed : 1.0f;
    s->color_by_speed = v->color_by_speed;
    s->time = (float)v->time;
}

static float default_boid_size(const mur_flock_def *d)
{
    float ext = 0.0f;
    for (int i = 0; i < 3; i++)
        ext = fmaxf(ext, d->world_max[i] - d->world_min[i]);
    /* half a separation radius long (birds keep about that much air between them), but visible in a big world */
    float s = fmaxf(0.5f * d->separation_radius, 0.006f * ext);
    return fminf(s, 0.05f * ext);
}

static void print_state(viewer *v)
{
    mur_flock_def d = mur_flock_get_def(v->flock);
    mur_view view = mur_flock_view(v->flock);
    printf("viewer: state tick=%llu boids=%d predators=%d predators_on=%s perch=%s goal=%s "
           "goal_pos=%g,%g,%g wind=%s scatter=%s bounds=%s view_angle=%g speed=%g paused=%s "
           "follow=%s color=%s hud=%s\n",
           (unsigned long long)view.tick, (int)view.boids, (int)view.predators,
           view.predators_on ? "on" : "off", d.perch ? "on" : "off", d.goal ? "on" : "off",
           (double)d.goal_pos[0], (double)d.goal_pos[1], (double)d.goal_pos[2],
           d.wind ? "on" : "off", d.scatter ? "on" : "off", mur_bounds_name(d.bounds),
           (double)d.view_angle, v->speed, v->paused ? "yes" : "no", v->cam.follow ? "on" : "off",
           v->color_by_speed ? "speed" : "state", v->show_hud ? "on" : "off");
}

static int run(viewer *v, const viewer_key_event *keys, int nkeys)
{
    const mur_cli *cli = v->cli;
    int next_key = 0;
    int status = 0;
    double t_prev = glfwGetTime();
    /* the first frames compile shaders and warm caches: leave them out of the means */
    int64_t warmup = cli->frames > 40 ? 10 : 0;
    while (!glfwWindowShouldClose(v->win) && !v->quit) {
        v->frame++;
        double t_start = glfwGetTime();
        while (next_key < nkeys && keys[next_key].frame <= v->frame) {
            viewer_key(v, keys[next_key].key, keys[next_key].mods);
            next_key++;
        }
        glfwPollEvents();
        double now = glfwGetTime();
        double real_dt = v->scripted ? SCRIPTED_FRAME_S : fmin(now - t_prev, 0.25);
        t_prev = now;
        v->time += real_dt;

        mur_flock_def def = mur_flock_get_def(v->flock);
        double sim_t0 = glfwGetTime();
        simulate(v, real_dt, def.dt);
        double sim_s = glfwGetTime() - sim_t0;
        if (v->stats.metrics_valid) {
            float c[3] = {(float)v->stats.centre[0], (float)v->stats.centre[1],
                          (float)v->stats.centre[2]};
            mur_camera_follow(&v->cam, c);
        }
        mur_camera_update(&v->cam, (float)real_dt);

        mur_view view = mur_flock_view(v->flock);
        mur_renderer_upload(v->renderer, &view, def.dt, false);
        mur_scene scene;
        fill_scene(v, &scene);
        mur_renderer_draw(v->renderer, &v->cam, &scene, v->fb_w, v->fb_h);
        viewer_draw_hud(v);

        bool last = cli->frames >= 0 && v->frame >= cli->frames;
        if (v->want_screenshot) {
            v->want_screenshot = false;
            timestamped_screenshot(v);
        }
        if (last && cli->screenshot) {
            if (save_screenshot(v, cli->screenshot)) {
                printf("murmur: screenshot %s (%dx%d)\n", cli->screenshot, v->fb_w, v->fb_h);
            } else {
                status = MUR_EXIT_USAGE;
            }
        }
        glfwSwapBuffers(v->win);

        double frame_s = glfwGetTime() - t_start;
        double ms = frame_s * 1000.0;
        v->frame_ms = v->frame_ms > 0.0 ? 0.9 * v->frame_ms + 0.1 * ms : ms;
        double wall = v->scripted ? frame_s : fmax(real_dt, 1e-6);
        v->fps = v->fps > 0.0 ? 0.9 * v->fps + 0.1 / wall : 1.0 / wall;
        if (v->frame > warmup) {
            v->sum_frame_ms += ms;
            v->sum_sim_ms += sim_s * 1000.0;
            v->timed_frames++;
        }
        if (last)
            break;
    }
    return status;
}

/* ------------------------------------------------------------------ setup */

static int fail(const char *what)
{
    fprintf(stderr, "murmur: %s: %s\n", what, glfw_error[0] ? glfw_error : "unknown error");
    return MUR_EXIT_USAGE;
}

int mur_viewer_main(const mur_cli *cli, mur_flock *flock)
{
    if (cli->record || cli->headless) {
        fprintf(stderr, "murmur: recording (--record, --headless) is not built into this version; "
                        "use --frames N --screenshot PATH for single frames\n");
        return MUR_EXIT_USAGE;
    }
    viewer_key_event *keys = NULL;
    int nkeys = 0;
    char err[512];
    if (!viewer_keys_parse(cli->keys, &keys, &nkeys, err, sizeof err)) {
        fprintf(stderr, "murmur: %s\n", err);
        return MUR_EXIT_USAGE;
    }
    int width = cli->width > 0 ? cli->width : 1280, height = cli->height > 0 ? cli->height : 720;

    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        free(keys);
        return fail("cannot open a window (no display? the viewer needs X11; batch runs use "
                    "--steps)");
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    /* MURMUR_MSAA=0..16 overrides the 4x multisampling (software GL pays about 2x for 4x MSAA) */
    const char *msaa = getenv("MURMUR_MSAA");
    glfwWindowHint(GLFW_SAMPLES, msaa && *msaa ? atoi(msaa) : 4);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
#ifndef NDEBUG
    glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
    GLFWwindow *win = glfwCreateWindow(width, height, "murmur", NULL, NULL);
    if (!win) {
        free(keys);
        glfwTerminate();
        return fail("cannot create an OpenGL 3.3 core window");
    }
    glfwMakeContextCurrent(win);
    int gl_version = gladLoadGL((GLADloadfunc)glfwGetProcAddress);
    if (!gl_version || GLAD_VERSION_MAJOR(gl_version) * 10 + GLAD_VERSION_MINOR(gl_version) < 33) {
        snprintf(glfw_error, sizeof glfw_error, "OpenGL 3.3 core is needed, got %d.%d",
                 GLAD_VERSION_MAJOR(gl_version), GLAD_VERSION_MINOR(gl_version));
        glfwDestroyWindow(win);
        glfwTerminate();
        free(keys);
        return fail("no suitable OpenGL context");
    }
#ifndef NDEBUG
    mur_gl_debug_enable();
#endif
    glfwSwapInterval(cli->vsync ? 1 : 0);

    viewer *v = calloc(1, sizeof *v);
    int status = MUR_EXIT_USAGE;
    if (!v) {
        fprintf(stderr, "murmur: out of memory\n");
        goto done;
    }
    v->cli = cli;
    v->flock = flock;
    v->win = win;
    v->scripted = cli->frames >= 0;
    v->speed = 1.0;
    v->show_hud = cli->hud_given ? cli->hud : true;
    v->show_box = true;
    v->saved_view_angle = 270.0f;
    glfwSetWindowUserPointer(win, v);
    glfwGetFramebufferSize(win, &v->fb_w, &v->fb_h);
    glfwGetWindowSize(win, &v->win_w, &v->win_h);
    glfwGetCursorPos(win, &v->mouse_x, &v->mouse_y);

    mur_flock_def def = mur_flock_get_def(flock);
    mur_camera_init(&v->cam, def.world_min, def.world_max,
                    (float)v->fb_w / (float)(v->fb_h > 0 ? v->fb_h : 1));
    mur_camera_snap(&v->cam);
    v->boid_size = default_boid_size(&def);
    mur_flock_set_metrics(flock, true);
    v->stats = mur_flock_measure(flock);

    v->renderer = mur_renderer_create();
    v->hud = v->renderer ? mur_hud_create() : NULL;
    if (!v->renderer || !v->hud) {
        fprintf(stderr, "murmur: cannot set up the renderer (see the messages above)\n");
        goto done;
    }
    glfwSetKeyCallback(win, on_key);
    glfwSetMouseButtonCallback(win, on_button);
    glfwSetCursorPosCallback(win, on_cursor);
    glfwSetScrollCallback(win, on_scroll);
    glfwSetFramebufferSizeCallback(win, on_fb_size);
    glfwSetWindowSizeCallback(win, on_win_size);

    status = run(v, keys, nkeys);

    if (v->scripted) {
        double n = v->timed_frames > 0 ? (double)v->timed_frames : 1.0;
        double fm = v->sum_frame_ms / n, sm = v->sum_sim_ms / n;
        GLint samples = 0;
        glGetIntegerv(GL_SAMPLES, &samples);
        printf("viewer: %lld frames %dx%d msaa=%d boids=%d: %.3f ms/frame (sim %.3f ms, render "
               "%.3f ms)\n",
               (long long)v->frame, v->fb_w, v->fb_h, samples, (int)mur_flock_view(flock).boids,
               fm, sm, fm - sm);
        print_state(v);
    }
    if (cli->export_path) {
        mur_error e = {{0}};
        if (!mur_flock_save_csv(flock, cli->export_path, &e)) {
            fprintf(stderr, "murmur: %s\n", e.msg);
            status = MUR_EXIT_USAGE;
        }
    }
done:
    if (v) {
        mur_hud_destroy(v->hud);
        mur_renderer_destroy(v->renderer);
    }
    free(v);
    free(keys);
    glfwDestroyWindow(win);
    glfwTerminate();
    fflush(stdout);
    return status;
}
