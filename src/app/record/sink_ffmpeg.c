/* Frame sinks: a video through an ffmpeg process (sink_impl.h). Raw RGBA frames go down a pipe
 * into ffmpeg's stdin, top row first; ffmpeg writes the run's temporary file (or a device or FIFO
 * as it is) and its stderr goes to an unlinked file whose last line explains a failure. */
#include "sink_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The video codec's arguments: VP9 for WebM, x264 for the rest. Returns the new argc. */
static int codec_args(const char *argv[48], int n, bool webm, const char *preset, const char *crf)
{
    if (webm) {
        argv[n++] = "-c:v";
        argv[n++] = "libvpx-vp9";
        argv[n++] = "-crf";
        argv[n++] = crf;
        argv[n++] = "-b:v";
        argv[n++] = "0";
        argv[n++] = "-deadline";
        argv[n++] = "realtime";
        argv[n++] = "-cpu-used";
        argv[n++] = "8";
        argv[n++] = "-row-mt";
        argv[n++] = "1";
    } else {
        argv[n++] = "-c:v";
        argv[n++] = "libx264";
        argv[n++] = "-preset";
        argv[n++] = preset;
        argv[n++] = "-crf";
        argv[n++] = crf;
    }
    return n;
}

/* ffmpeg's command line for r: raw RGBA frames on stdin, encoded by the output's extension.
 * size and rate are buffers for the texts argv points to. Returns argc. */
static int ffmpeg_args(const mur_sink *r, double fps, const mur_encode *enc, const char *argv[48], char size[32],
                       char rate[32], char crf[16])
{
    const char *ext = mur_sink_extension(r->path);
    snprintf(size, 32, "%dx%d", r->w, r->h);
    snprintf(rate, 32, "%.6g", fps);
    const char *preset = enc && enc->preset ? enc->preset : getenv("MURMUR_X264_PRESET");
    if (!preset || !*preset)
        preset = "ultrafast"; /* the encoder shares the CPU with software GL: see docs/recording.md */
    bool webm = !strcasecmp(ext, "webm"), gif = !strcasecmp(ext, "gif");
    snprintf(crf, 16, "%d", enc && enc->crf >= 0 ? enc->crf : webm ? 31 : 18);
    const char *fmt = gif ? "gif" : webm ? "webm"
                      : !strcasecmp(ext, "mkv") ? "matroska"
                      : !strcasecmp(ext, "mov") ? "mov" : "mp4";
    int n = 0;
    argv[n++] = "ffmpeg";
    argv[n++] = "-hide_banner";
    argv[n++] = "-nostdin";
    argv[n++] = "-loglevel";
    argv[n++] = "error";
    argv[n++] = "-y";
    argv[n++] = "-f";
    argv[n++] = "rawvideo";
    argv[n++] = "-pixel_format";
    argv[n++] = "rgba";
    argv[n++] = "-video_size";
    argv[n++] = size;
    argv[n++] = "-framerate";
    argv[n++] = rate;
    argv[n++] = "-i";
    argv[n++] = "pipe:0";
    /* yuv420p needs even sizes: pad by one pixel where needed (the writer already flips rows,
     * and an even frame goes through no filter at all: every filter copies the frame) */
    if (gif) {
        /* one palette for the whole clip (ffmpeg buffers the frames until the end), ordered
         * dithering: small files without the crawling noise of error diffusion */
        argv[n++] = "-vf";
        argv[n++] = "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3";
        argv[n++] = "-loop";
        argv[n++] = "0";
        argv[n++] = "-f";
        argv[n++] = fmt;
        argv[n++] = r->out;
        argv[n] = NULL;
        return n;
    }
    if ((r->w | r->h) & 1) {
        argv[n++] = "-vf";
        argv[n++] = "pad=ceil(iw/2)*2:ceil(ih/2)*2";
    }
    n = codec_args(argv, n, webm, preset, crf);
    argv[n++] = "-pix_fmt";
    argv[n++] = "yuv420p";
    if (!strcmp(fmt, "mp4") || !strcmp(fmt, "mov")) {
        argv[n++] = "-movflags";
        argv[n++] = "+faststart";
    }
    argv[n++] = "-f";
    argv[n++] = fmt;
    argv[n++] = r->out;
    argv[n] = NULL;
    return n;
}

static bool spawn_ffmpeg(mur_sink *r, const char *ffmpeg, double fps, const mur_encode *enc, char *err, size_t len)
{
    const char *argv[48];
    char size[32], rate[32], crf[16];
    ffmpeg_args(r, fps, enc, argv, size, rate, crf);
    char log[] = "/tmp/murmur-ffmpeg-XXXXXX";
    r->log_fd = mkstemp(log);
    if (r->log_fd >= 0)
        unlink(log);
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, len, "cannot start ffmpeg: %s", strerror(errno));
        return false;
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (r->log_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, r->log_fd, 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    /* the child gets the default SIGPIPE back (we ignore it in the parent) */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGXFSZ); /* murmur ignores it: ffmpeg over the file size limit must fail, not write on */
    posix_spawnattr_setsigdefault(&at, &def);
    /* ffmpeg in a process group of its own: a terminal's Ctrl-C (SIGINT to the whole foreground
     * group) reaches murmur only, which finishes the clip and closes the pipe; ffmpeg would
     * otherwise stop at once and leave an unplayable file */
    posix_spawnattr_setpgroup(&at, 0);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setflags(&at, flags);
    int rc = posix_spawn(&r->pid, ffmpeg, &fa, &at, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        snprintf(err, len, "cannot start %s: %s", ffmpeg, strerror(rc));
        return false;
    }
    r->pipe_fd = fds[1];
    return true;
}

/* Last non-empty line ffmpeg printed. */
static void ffmpeg_last_line(mur_sink *r, char *out, size_t len)
{
    out[0] = '\0';
    if (r->log_fd < 0)
        return;
    char buf[4096];
    off_t end = lseek(r->log_fd, 0, SEEK_END);
    off_t start = end > (off_t)sizeof buf - 1 ? end - (off_t)sizeof buf + 1 : 0;
    ssize_t n = pread(r->log_fd, buf, sizeof buf - 1, start);
    if (n <= 0)
        return;
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    char *line = strrchr(buf, '\n');
    const char *src = line ? line + 1 : buf;
    /* a system error (the disk is full) says more than ffmpeg's closing complaint */
    const char *sys_errors[] = {"No space left on device", "Disk quota exceeded",
                                "Read-only file system", "Permission denied"};
    for (size_t i = 0; i < sizeof sys_errors / sizeof sys_errors[0]; i++)
        if (strstr(buf, sys_errors[i]) && !strstr(src, sys_errors[i])) {
            src = sys_errors[i];
            break;
        }
    size_t n2 = strlen(src);
    if (n2 >= len)
        n2 = len - 1;
    memcpy(out, src, n2);
    out[n2] = '\0';
}

/* Wait for ffmpeg; true when it exited 0. */
bool mur_sink_ffmpeg_reap(mur_sink *r, char *why, size_t len)
{
    if (r->pipe_fd >= 0) {
        close(r->pipe_fd);
        r->pipe_fd = -1;
    }
    if (r->pid <= 0)
        return true;
    int st = 0;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
        ;
    r->pid = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return true;
    char last[300];
    ffmpeg_last_line(r, last, sizeof last);
    if (WIFSIGNALED(st))
        snprintf(why, len, "ffmpeg was killed by signal %d%s%s", WTERMSIG(st), last[0] ? ": " : "",
                 last);
    else
        snprintf(why, len, "ffmpeg failed (exit status %d)%s%s", WEXITSTATUS(st),
                 last[0] ? ": " : "", last);
    return false;
}

/* Write the frame top row first from GL's bottom-up rows, without a copy. */
static bool write_frame(mur_sink *r, const uint8_t *rgba)
{
    size_t row = (size_t)r->w * 4;
    enum { IOV = 256 };
    struct iovec iov[IOV];
    int y = r->h - 1;
    while (y >= 0) {
        int n = 0;
        for (; n < IOV && y >= 0; n++, y--) {
            iov[n].iov_base = (void *)(rgba + (size_t)y * row);
            iov[n].iov_len = row;
        }
        struct iovec *v = iov;
        while (n > 0) {
            ssize_t k = writev(r->pipe_fd, v, n);
            if (k < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            while (n > 0 && (size_t)k >= v->iov_len) {
                k -= (ssize_t)v->iov_len;
                v++;
                n--;
            }
            if (n > 0) {
                v->iov_base = (uint8_t *)v->iov_base + k;
                v->iov_len -= (size_t)k;
            }
        }
    }
    return true;
}

/* The video output: an existing device or FIFO as it is, else a hidden partial file beside path
 * (renamed over it when the clip is whole), and ffmpeg writing it. On failure nothing is left. */
bool mur_sink_ffmpeg_open(mur_sink *r, const char *path, const char *ffmpeg, double fps, const mur_encode *enc,
                          char *err, size_t err_len)
{
    struct stat st;
    /* an existing device or FIFO (/dev/full, a named pipe) is written as it is */
    r->direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (r->direct) {
        snprintf(r->out, sizeof r->out, "%s", path);
    } else {
        char dir[1024];
        mur_sink_dir_of(path, dir, sizeof dir);
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, err_len, "--record %s: the folder %s does not exist", path, dir);
            return false;
        }
        /* ffmpeg writes the run's temporary file (outputs.h), renamed when the clip is whole */
        mur_error e;
        r->video = mur_out_open(path, &e);
        if (!r->video) {
            snprintf(err, err_len, "--record %s", e.msg);
            return false;
        }
        fclose(r->video->fp);
        r->video->fp = NULL;
        if (!r->video->tmp || strlen(r->video->tmp) >= sizeof r->out) {
            snprintf(err, err_len, "--record %s: path too long", path);
            mur_out_drop(r->video);
            r->video = NULL;
            return false;
        }
        snprintf(r->out, sizeof r->out, "%s", r->video->tmp);
    }
    if (!spawn_ffmpeg(r, ffmpeg, fps, enc, err, err_len)) {
        mur_out_drop(r->video);
        r->video = NULL;
        return false;
    }
    return true;
}

bool mur_sink_ffmpeg_frame(mur_sink *r, const uint8_t *rgba, int64_t i, char *msg, size_t len)
{
    if (write_frame(r, rgba))
        return true;
    int e = errno;
    char why[600];
    if (!mur_sink_ffmpeg_reap(r, why, sizeof why))
        snprintf(msg, len, "%.900s: %.700s (at frame %lld)", r->path, why, (long long)i + 1);
    else
        snprintf(msg, len, "%.900s: writing to ffmpeg failed: %s", r->path, strerror(e));
    return false;
}

bool mur_sink_ffmpeg_finish(mur_sink *r, bool ok, bool keep, char *msg, size_t len)
{
    char why[600];
    bool exited_ok = mur_sink_ffmpeg_reap(r, why, sizeof why);
    if (ok && keep && !exited_ok) {
        ok = false;
        snprintf(msg, len, "%.900s: %.700s", r->path, why);
    }
    if (ok && keep && r->written == 0) {
        ok = false;
        snprintf(msg, len, "%.900s: no frames were recorded", r->path);
    }
    struct stat vst; /* the video's size, taken before any rename */
    r->out_bytes = ok && keep && stat(r->out, &vst) == 0 ? (uint64_t)vst.st_size : 0;
    if (ok && keep && r->video) {
        mur_error e;
        if (!mur_out_done(r->video, r->together, &e)) {
            ok = false;
            snprintf(msg, len, "%.900s: %s", r->path, e.msg);
        }
        r->video = NULL;
    }
    if (r->video) {
        mur_out_drop(r->video);
        r->video = NULL;
    }
    return ok;
}
