/* Recording sinks (see recorder.h). */
#include "frame_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "outputs.h"
#include "pattern.h"

extern char **environ;

enum { QUEUE = 4, PNG_LEVEL = 1 };

struct mur_sink {
    mur_sink_kind kind;
    int w, h;
    size_t frame_bytes;
    char path[1024];      /* what the user asked for (video path or PNG pattern) */
    char out[1024];       /* video: the file ffmpeg writes (a temporary name unless direct) */
    bool direct;          /* video written straight to path (a device or FIFO, no rename) */
    bool together;        /* committed with the run's other outputs (outputs.h), else on its own */
    mur_afile *video;     /* the video's temporary file (not direct) */

    /* ffmpeg */
    pid_t pid;
    int pipe_fd;          /* ffmpeg's stdin, -1 once closed */
    int log_fd;           /* ffmpeg's stderr (an unlinked temporary file) */

    /* queue */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *slot[QUEUE];
    int head, count;      /* next slot to fill; slots filled and not yet written */
    bool closing, failed;
    char fail_msg[2048];
    int64_t written;      /* frames the sink has taken */
    uint64_t png_bytes;
};

/* ------------------------------------------------------------------ paths */

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

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

mur_sink_kind mur_sink_kind_of(const char *path, char *err, size_t err_len)
{
    const char *ext = extension(path);
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
    const char *ext = extension(path);
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

static void dir_of(const char *path, char *out, size_t len)
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
static bool dir_writable(const char *file, char *err, size_t err_len)
{
    char dir[1024], probe[1100];
    dir_of(file, dir, sizeof dir);
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

static void png_name(const mur_sink *r, int64_t i, char *out, size_t len)
{
    if (!mur_pattern_name(r->path, i, out, len) && len)
        out[0] = 0; /* checked when the sink opened: one integer conversion, a name that fits */
}

/* ------------------------------------------------------------------ ffmpeg */

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
    const char *ext = extension(r->path);
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
static bool reap_ffmpeg(mur_sink *r, char *why, size_t len)
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

/* One frame of a PNG sequence, through a temporary file (outputs.h): committed at once, or with the
 * run's other outputs. */
static bool write_png(mur_sink *r, const char *name, const uint8_t *rgba, char *msg, size_t len)
{
    mur_error e;
    mur_afile *a = mur_out_open(name, &e);
    if (!a) {
        snprintf(msg, len, "--record %.400s: %s", r->path, e.msg);
        return false;
    }
    char why[300];
    if (!mur_png_encode(a->fp, r->w, r->h, rgba, true, PNG_LEVEL, why, sizeof why)) {
        mur_out_drop(a);
        snprintf(msg, len, "--record %.400s: frame %.400s: cannot write PNG: %s", r->path, name, why);
        return false;
    }
    long bytes = ftell(a->fp);
    if (!mur_out_done(a, r->together, &e)) {
        snprintf(msg, len, "--record %.400s: %s", r->path, e.msg);
        return false;
    }
    r->png_bytes += bytes > 0 ? (uint64_t)bytes : 0;
    return true;
}

/* ------------------------------------------------------------------ writer thread */

static void fail_locked(mur_sink *r, const char *msg)
{
    if (!r->failed)
        snprintf(r->fail_msg, sizeof r->fail_msg, "%s", msg);
    r->failed = true;
    pthread_cond_broadcast(&r->cv);
}

static void *writer(void *arg)
{
    mur_sink *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (r->count == 0 && !r->closing && !r->failed)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->failed || r->count == 0)
            break;
        int idx = ((r->head - r->count) % QUEUE + QUEUE) % QUEUE;
        int64_t i = r->written;
        pthread_mutex_unlock(&r->mu);

        char msg[2048] = "";
        bool ok;
        if (r->kind == MUR_SINK_VIDEO) {
            ok = write_frame(r, r->slot[idx]);
            if (!ok) {
                int e = errno;
                char why[600];
                if (!reap_ffmpeg(r, why, sizeof why))
                    snprintf(msg, sizeof msg, "%.900s: %.700s (at frame %lld)", r->path, why,
                             (long long)i + 1);
                else
                    snprintf(msg, sizeof msg, "%.900s: writing to ffmpeg failed: %s", r->path,
                             strerror(e));
            }
        } else {
            char name[1100];
            png_name(r, i, name, sizeof name);
            ok = write_png(r, name, r->slot[idx], msg, sizeof msg);
        }

        pthread_mutex_lock(&r->mu);
        if (!ok) {
            fail_locked(r, msg);
            break;
        }
        r->written++;
        r->count--;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ------------------------------------------------------------------ public */

static void free_recorder(mur_sink *r)
{
    for (int i = 0; i < QUEUE; i++)
        free(r->slot[i]);
    if (r->log_fd >= 0)
        close(r->log_fd);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}

/* A PNG pattern's folder takes files (checked on the name of the first frame). */
static bool png_dir_writable(const mur_sink *r, char *err, size_t err_len)
{
    char first[1100];
    png_name(r, 0, first, sizeof first);
    return dir_writable(first, err, err_len);
}

/* The video output: an existing device or FIFO as it is, else a hidden partial file beside path
 * (renamed over it when the clip is whole), and ffmpeg writing it. On failure nothing is left. */
static bool open_video_output(mur_sink *r, const char *path, const char *ffmpeg, double fps, const mur_encode *enc,
                              char *err, size_t err_len)
{
    struct stat st;
    /* an existing device or FIFO (/dev/full, a named pipe) is written as it is */
    r->direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (r->direct) {
        snprintf(r->out, sizeof r->out, "%s", path);
    } else {
        char dir[1024];
        dir_of(path, dir, sizeof dir);
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

mur_sink *mur_sink_open(const char *path, int width, int height, double fps, const mur_encode *enc, bool together,
                        char *err, size_t err_len)
{
    mur_sink_kind kind = mur_sink_kind_of(path, err, err_len);
    if (kind == MUR_SINK_NONE)
        return NULL;
    if (strlen(path) >= 1000) {
        snprintf(err, err_len, "--record: path too long");
        return NULL;
    }
    char ffmpeg[PATH_MAX];
    if (kind == MUR_SINK_VIDEO && !mur_find_in_path("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        snprintf(err, err_len,
                 "--record %s: ffmpeg is not installed (not found in PATH); install it, or record "
                 "PNG frames with a pattern like frames/f%%05d.png",
                 path);
        return NULL;
    }
    mur_sink *r = calloc(1, sizeof *r);
    if (r == NULL) {
        snprintf(err, err_len, "out of memory for the %s sink", kind == MUR_SINK_VIDEO ? "video" : "PNG");
        return NULL;
    }
    r->kind = kind;
    r->together = together;
    r->w = width;
    r->h = height;
    r->frame_bytes = (size_t)width * (size_t)height * 4;
    r->pipe_fd = -1;
    r->log_fd = -1;
    snprintf(r->path, sizeof r->path, "%s", path);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    for (int i = 0; i < QUEUE; i++) {
        r->slot[i] = malloc(r->frame_bytes);
        if (!r->slot[i]) {
            snprintf(err, err_len, "out of memory for %dx%d frames", width, height);
            free_recorder(r);
            return NULL;
        }
    }

    bool ready = kind == MUR_SINK_PNG ? png_dir_writable(r, err, err_len)
                                      : open_video_output(r, path, ffmpeg, fps, enc, err, err_len);
    if (!ready) {
        free_recorder(r);
        return NULL;
    }
    if (pthread_create(&r->thread, NULL, writer, r) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        if (kind == MUR_SINK_VIDEO) {
            char why[8];
            reap_ffmpeg(r, why, sizeof why);
            mur_out_drop(r->video);
        }
        free_recorder(r);
        return NULL;
    }
    r->thread_started = true;
    return r;
}

bool mur_sink_push(mur_sink *r, const uint8_t *rgba)
{
    pthread_mutex_lock(&r->mu);
    while (r->count == QUEUE && !r->failed)
        pthread_cond_wait(&r->cv, &r->mu);
    if (r->failed) {
        pthread_mutex_unlock(&r->mu);
        return false;
    }
    int idx = r->head;
    pthread_mutex_unlock(&r->mu);
    /* the slot is ours: the writer only reads slots counted in `count` */
    memcpy(r->slot[idx], rgba, r->frame_bytes);
    pthread_mutex_lock(&r->mu);
    r->head = (r->head + 1) % QUEUE;
    r->count++;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return true;
}

bool mur_sink_failed(mur_sink *r)
{
    pthread_mutex_lock(&r->mu);
    bool f = r->failed;
    pthread_mutex_unlock(&r->mu);
    return f;
}

static void remove_pngs(mur_sink *r, int64_t n)
{
    char name[1100];
    for (int64_t i = 0; i < n; i++) {
        png_name(r, i, name, sizeof name);
        unlink(name);
    }
}

bool mur_sink_close(mur_sink *r, bool keep, mur_sink_summary *sum, char *err,
                        size_t err_len)
{
    pthread_mutex_lock(&r->mu);
    if (!keep) {
        r->count = 0; /* drop what is queued */
    }
    r->closing = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->thread_started)
        pthread_join(r->thread, NULL);

    bool ok = !r->failed;
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", r->fail_msg);
    if (r->kind == MUR_SINK_VIDEO) {
        char why[600];
        bool exited_ok = reap_ffmpeg(r, why, sizeof why);
        if (ok && keep && !exited_ok) {
            ok = false;
            snprintf(msg, sizeof msg, "%.900s: %.700s", r->path, why);
        }
        if (ok && keep && r->written == 0) {
            ok = false;
            snprintf(msg, sizeof msg, "%.900s: no frames were recorded", r->path);
        }
        struct stat vst;
        uint64_t vbytes = ok && keep && stat(r->out, &vst) == 0 ? (uint64_t)vst.st_size : 0;
        if (ok && keep && r->video) {
            mur_error e;
            if (!mur_out_done(r->video, r->together, &e)) {
                ok = false;
                snprintf(msg, sizeof msg, "%.900s: %s", r->path, e.msg);
            }
            r->video = NULL;
        }
        if (r->video) {
            mur_out_drop(r->video);
            r->video = NULL;
        }
        r->png_bytes = vbytes;
    } else if ((!ok || !keep) && !r->together) {
        /* frames committed one by one (a key's recording in the viewer): those of this run go; a
         * recording of the run's own (--record) is removed with its other outputs, unrenamed */
        remove_pngs(r, r->written + 1);
    }
    if (sum) {
        memset(sum, 0, sizeof *sum);
        sum->frames = ok && keep ? r->written : 0;
        if (r->kind == MUR_SINK_VIDEO) {
            snprintf(sum->path, sizeof sum->path, "%s", r->path);
            sum->bytes = r->png_bytes; /* the video's size, taken before any rename */
        } else {
            png_name(r, 0, sum->path, sizeof sum->path);
            sum->bytes = r->png_bytes;
        }
    }
    if (!ok)
        snprintf(err, err_len, "%s", msg);
    free_recorder(r);
    return ok;
}
