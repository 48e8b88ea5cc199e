/* Headless GL contexts (see context.h). */
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl.h"
#include "glad_egl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

struct mur_context {
    const char *kind;
    EGLDisplay dpy;
    EGLContext ctx;
    GLFWwindow *win;
};

static bool gl_ok(GLADloadfunc load)
{
    int v = gladLoadGL(load);
    return v && GLAD_VERSION_MAJOR(v) * 10 + GLAD_VERSION_MINOR(v) >= 33;
}

/* Initialise dpy and make a GL 3.3 core context current on it, without any surface. */
static bool egl_on(mur_context *c, EGLDisplay dpy)
{
    if (dpy == EGL_NO_DISPLAY)
        return false;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor))
        return false;
    /* reload with the display: its extensions and the 1.5 entry points become known */
    gladLoaderLoadEGL(dpy);
    if (!eglBindAPI(EGL_OPENGL_API)) {
        eglTerminate(dpy);
        return false;
    }
    const EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig cfg = NULL;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        cfg = NULL; /* a config-less context (EGL_KHR_no_config_context) */
    const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT) {
        eglTerminate(dpy);
        return false;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)
        || !gl_ok((GLADloadfunc)eglGetProcAddress)) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return false;
    }
    c->dpy = dpy;
    c->ctx = ctx;
    return true;
}

static bool try_egl(mur_context *c)
{
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        return false; /* no libEGL */
    if (!eglGetPlatformDisplayEXT) {
        gladLoaderUnloadEGL();
        return false;
    }
    if (getenv("MURMUR_NO_SURFACELESS") == NULL
        && egl_on(c, eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                              NULL))) {
        c->kind = "EGL surfaceless";
        return true;
    }
    if (eglQueryDevicesEXT) {
        EGLDeviceEXT dev[8];
        EGLint n = 0;
        if (eglQueryDevicesEXT(8, dev, &n))
            for (EGLint i = 0; i < n; i++)
                if (egl_on(c, eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, dev[i], NULL))) {
                    c->kind = "EGL device";
                    return true;
                }
    }
    gladLoaderUnloadEGL();
    return false;
}

static bool try_glfw(mur_context *c)
{
    if (!glfwInit())
        return false;
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    c->win = glfwCreateWindow(64, 64, "murmur", NULL, NULL);
    if (!c->win) {
        glfwTerminate();
        return false;
    }
    glfwMakeContextCurrent(c->win);
    if (!gl_ok((GLADloadfunc)glfwGetProcAddress)) {
        glfwDestroyWindow(c->win);
        glfwTerminate();
        c->win = NULL;
        return false;
    }
    c->kind = "hidden GLFW window";
    return true;
}

static void quiet_glfw(int code, const char *desc)
{
    (void)code;
    (void)desc;
}

mur_context *mur_context_headless(char *err, size_t err_len)
{
    bool no_egl = getenv("MURMUR_NO_EGL") != NULL; /* tests of the fallback */
    mur_context *c = calloc(1, sizeof *c);
    if (c) {
        c->dpy = EGL_NO_DISPLAY;
        c->ctx = EGL_NO_CONTEXT;
        if (!no_egl && try_egl(c))
            return c;
        glfwSetErrorCallback(quiet_glfw);
        if (try_glfw(c))
            return c;
    } else {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    snprintf(err, err_len,
             "--headless: no OpenGL 3.3 context: EGL (surfaceless or device platform) gave none%s, "
             "and no hidden window could be opened (no display); install Mesa's EGL (libegl1, "
             "libgl1-mesa-dri) or a GPU driver with EGL",
             no_egl ? " (MURMUR_NO_EGL is set)" : "");
    free(c);
    return NULL;
}

const char *mur_context_kind(const mur_context *c)
{
    return c->kind;
}

void mur_context_destroy(mur_context *c)
{
    if (!c)
        return;
    if (c->win) {
        glfwDestroyWindow(c->win);
        glfwTerminate();
    } else if (c->ctx != EGL_NO_CONTEXT) {
        eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(c->dpy, c->ctx);
        eglTerminate(c->dpy);
        gladLoaderUnloadEGL();
    }
    free(c);
}

