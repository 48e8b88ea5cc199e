/* SIGINT/SIGTERM as a stop request, SIGPIPE ignored (see signals.h). */
#include "signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
    stop_sig = sig;
}

void mur_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int mur_signals_stop(void)
{
    return (int)stop_sig;
}
