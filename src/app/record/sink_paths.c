/* Frame sinks, before anything starts: what a path asks for, whether the encoder options fit it,
 * ffmpeg in PATH, and folders that take files (frame_sink.h, sink_impl.h). */
#include "sink_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pattern.h"

bool mur_find_in_path(const char *prog, char *out, size_t out_len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return false;
    const char *p = path;
    while (*p) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        int len = n ? snprintf(out, out_len, "%.*s/%s", (int)n, p, prog)
                    : snprintf(out, out_len, "./%s", prog);
        struct stat st;
        if (len > 0 && (size_t)len < out_len && stat(out, &st) == 0 && S_ISREG(st.st_mode)
            && access(out, X_OK) == 0)
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

const char *mur_sink_extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

mur_sink_kind mur_sink_kind_of(const char *path, char *err, size_t err_len)
{
    const char *ext = mur_sink_extension(path);
    bool bad = false;
    int conv = mur_pattern_conversions(path, &bad);
    if (!strcasecmp(ext, "png")) {
        if (!bad && conv == 1)
            return MUR_SINK_PNG;
        snprintf(err, err_len,
                 "--record %s: a PNG sequence needs a pattern with one frame number, like "
                 "frames/f%%05d.png",
                 path);
        return MUR_SINK_NONE;
    }
    const char *video[] = {"mp4", "mkv", "webm", "mov", "gif"};
    for (size_t i = 0; i < sizeof video / sizeof video[0]; i++)
        if (!strcasecmp(ext, video[i])) {
            if (conv == 0 && !bad)
                return MUR_SINK_VIDEO;
            snprintf(err, err_len, "--record %s: a video path must not contain %%", path);
            return MUR_SINK_NONE;
        }
    snprintf(err, err_len,
             "--record %s: expected a video (.mp4, .mkv, .webm, .mov), a .gif or a PNG pattern like "
             "frames/f%%05d.png",
             path);
    return MUR_SINK_NONE;
}

bool mur_sink_check_options(const char *path, int crf, const char *preset, char *err, size_t err_len)
{
    const char *ext = mur_sink_extension(path);
    bool webm = !strcasecmp(ext, "webm"), gif = !strcasecmp(ext, "gif"), png = !strcasecmp(ext, "png");
    if ((gif || png) && (crf >= 0 || preset)) {
        snprintf(err, err_len, "--%s applies to videos (.mp4 .mkv .mov .webm), not to %s output",
                 crf >= 0 ? "crf" : "preset", gif ? "GIF" : "PNG");
        return false;
    }
    if (webm && preset) {
        snprintf(err, err_len, "--x264-preset %s: presets are x264's (.mp4 .mkv .mov); .webm is VP9", preset);
        return false;
    }
    if (!webm && !gif && !png && crf > 51) {
        snprintf(err, err_len, "bad value '%d' for --crf: H.264 takes 0..51 (VP9, .webm, takes 0..63)", crf);
        return false;
    }
    return true;
}

void mur_sink_dir_of(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, len, ".");
    else if (slash == path)
        snprintf(out, len, "/");
    else
        snprintf(out, len, "%.*s", (int)(slash - path), path);
}

/* The folder must exist and take a new file: try one (the only test that also holds for root and
 * read-only file systems). */
bool mur_sink_dir_writable(const char *file, char *err, size_t err_len)
{
    char dir[1024], probe[1100];
    mur_sink_dir_of(file, dir, sizeof dir);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_len, "--record %s: the folder %s does not exist", file, dir);
        return false;
    }
    snprintf(probe, sizeof probe, "%s/.murmur-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(err, err_len, "--record %s: cannot write in %s: %s", file, dir, strerror(errno));
        return false;
    }
    close(fd);
    unlink(probe);
    return true;
}
