/* The program's signal policy (see signals.h). */
#include "signals.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "outputs.h"

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
    if (stop_sig) {
        /* a second request: stop at once, leaving no temporary file (the outputs are not written) */
        mur_out_unlink_temps();
        _exit(128 + sig);
    }
    stop_sig = sig;
}

void mur_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a wait for a pipe's data (text_in.c) ends at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* over the file size limit, a write fails with EFBIG (a clean error, temporary files removed)
     * instead of the process dying with a partial file */
    signal(SIGXFSZ, SIG_IGN);
}

int mur_signals_stop(void)
{
    return (int)stop_sig;
}

const char *mur_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}
