/* Recording sessions (see recording.h). */
#include "recording.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "gl.h"
#include "scene.h"

bool mur_recording_begin(mur_recording *s, const char *path, int w, int h, double fps, const mur_encode *enc,
                         int64_t total, bool together, char *err, size_t err_len)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->total = total;
    if (!mur_sink_check_options(path, enc ? enc->crf : -1, enc ? enc->preset : NULL, err, err_len))
        return false;
    s->sink = mur_sink_open(path, w, h, fps, enc, together, err, err_len);
    if (!s->sink)
        return false;
    s->target = mur_target_create(w, h, mur_msaa_samples_offline(), err, err_len);
    if (!s->target) {
        char e2[8];
        mur_sink_close(s->sink, false, NULL, e2, sizeof e2);
        s->sink = NULL;
        return false;
    }
    s->t0 = mur_clock_s();
    mur_progress_init(&s->prog, true);
    return true;
}

static bool push_due(mur_recording *s, bool drain)
{
    for (;;) {
        const uint8_t *px = mur_target_read_take(s->target, drain);
        if (!px)
            return true;
        bool ok = mur_sink_push(s->sink, px);
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

static void progress(mur_recording *s, bool final)
{
    if (final) {
        mur_progress_end(&s->prog, false);
        return;
    }
    if (!mur_progress_due(&s->prog))
        return;
    double el = mur_clock_s() - s->t0, fps = el > 0.0 ? (double)s->rendered / el : 0.0;
    if (s->total > 0) {
        char eta[48];
        mur_progress_eta(fps > 0.0 ? (double)(s->total - s->rendered) / fps : -1.0, eta, sizeof eta);
        mur_progress_show(&s->prog, "recording %s: frame %lld/%lld  %.1f fps  %s", s->path, (long long)s->rendered,
                          (long long)s->total, fps, eta);
    } else {
        mur_progress_show(&s->prog, "recording %s: frame %lld  %.1f fps", s->path, (long long)s->rendered, fps);
    }
}

bool mur_recording_frame(mur_recording *s)
{
    mur_target_resolve(s->target);
    mur_target_read_start(s->target);
    s->rendered++;
    bool ok = push_due(s, false) && !mur_sink_failed(s->sink);
    if (!ok)
        s->failed = true;
    progress(s, false);
    return ok;
}

static void human_size(uint64_t b, char *out, size_t len)
{
    if (b >= 1024ull * 1024ull)
        snprintf(out, len, "%.1f MiB", (double)b / (1024.0 * 1024.0));
    else
        snprintf(out, len, "%.1f KiB", (double)b / 1024.0);
}

int mur_recording_end(mur_recording *s, bool keep, int sig, const char *pace)
{
    if (!s->sink)
        return 0;
    if (keep && !s->failed)
        push_due(s, true);
    progress(s, true);
    mur_sink_summary sum;
    char err[1024];
    bool ok = mur_sink_close(s->sink, keep && !s->failed, &sum, err, sizeof err);
    s->sink = NULL;
    mur_target_destroy(s->target);
    s->target = NULL;
    double el = mur_clock_s() - s->t0;
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
    if (pace)
        printf("murmur: video pace: %s\n", pace);
    fflush(stdout);
    return 0;
}
