/* Shader programs and GL debug output (see shader.h). */
#include "shader.h"

#include <stdio.h>
#include <stdlib.h>

#include "shaders.h"

static void print_log(const char *what, const char *name, GLuint obj, bool program)
{
    GLint len = 0;
    if (program)
        glGetProgramiv(obj, GL_INFO_LOG_LENGTH, &len);
    else
        glGetShaderiv(obj, GL_INFO_LOG_LENGTH, &len);
    char *log = malloc((size_t)(len > 1 ? len : 1));
    if (log) {
        log[0] = '\0';
        if (len > 1) {
            if (program)
                glGetProgramInfoLog(obj, len, NULL, log);
            else
                glGetShaderInfoLog(obj, len, NULL, log);
        }
    }
    fprintf(stderr, "murmur: shader %s: %s failed:\n%s\n", name, what,
            log && log[0] ? log : "(no info log)");
    free(log);
}

static GLuint compile(GLenum type, const char *name)
{
    const char *src = mur_shader_source(name);
    if (!src) {
        fprintf(stderr, "murmur: shader %s: not embedded in this build\n", name);
        return 0;
    }
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        print_log("compile", name, s, false);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

GLuint mur_gl_program(const char *vs, const char *fs)
{
    GLuint v = compile(GL_VERTEX_SHADER, vs);
    GLuint f = v ? compile(GL_FRAGMENT_SHADER, fs) : 0;
    if (!v || !f) {
        if (v)
            glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char both[256];
        snprintf(both, sizeof both, "%s + %s", vs, fs);
        print_log("link", both, p, true);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

static const char *source_name(GLenum s)
{
    switch (s) {
    case GL_DEBUG_SOURCE_API: return "api";
    case GL_DEBUG_SOURCE_SHADER_COMPILER: return "shader compiler";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM: return "window system";
    case GL_DEBUG_SOURCE_THIRD_PARTY: return "third party";
    case GL_DEBUG_SOURCE_APPLICATION: return "application";
    default: return "other";
    }
}

static void GLAD_API_PTR on_debug(GLenum source, GLenum type, GLuint id, GLenum severity,
                              GLsizei length, const GLchar *message, const void *user)
{
    (void)length;
    (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
        return;
    const char *kind = type == GL_DEBUG_TYPE_ERROR ? "error"
                       : type == GL_DEBUG_TYPE_PERFORMANCE ? "performance" : "warning";
    fprintf(stderr, "murmur: GL %s (%s, id %u): %s\n", kind, source_name(source), id, message);
}

bool mur_gl_debug_enable(void)
{
    if (!GLAD_GL_KHR_debug)
        return false;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(on_debug, NULL);
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, NULL,
                          GL_FALSE);
    return true;
}
