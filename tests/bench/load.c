/* murmur-bench's background load (--background-load) and load average (load.h). */
#include "load.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t load_pid[16];
static volatile sig_atomic_t load_count;

/* Stop every busy loop (async-signal-safe: kill and waitpid only). */
static void load_stop(void)
{
    int n = load_count;
    load_count = 0;
    for (int k = 0; k < n; k++)
        if (load_pid[k] > 0)
            kill(load_pid[k], SIGKILL);
    for (int k = 0; k < n; k++)
        if (load_pid[k] > 0)
            while (waitpid(load_pid[k], NULL, 0) < 0 && errno == EINTR) {
            }
}

static void load_on_signal(int sig)
{
    load_stop();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Start n busy loops; false (all stopped again) when a fork fails. */
bool load_start(int n)
{
    const pid_t parent = getpid();
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
        signal(sigs[k], load_on_signal);
    atexit(load_stop);
    for (int k = 0; k < n; k++) {
        fflush(NULL);
        pid_t p = fork();
        if (p < 0) {
            fprintf(stderr, "murmur-bench: cannot start background load: %s\n", strerror(errno));
            load_stop();
            return false;
        }
        if (p == 0) {
            /* the child: die with the bench, spin until killed */
            for (size_t q = 0; q < sizeof sigs / sizeof sigs[0]; q++)
                signal(sigs[q], SIG_DFL);
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            volatile uint64_t x = 0;
            for (;;)
                x = x + 1;
        }
        load_pid[k] = p;
        load_count = k + 1;
    }
    return true;
}

/* The 1-minute load average (NAN when /proc is missing). */
double loadavg(void)
{
    double v = NAN;
    FILE *fp = fopen("/proc/loadavg", "r");
    if (fp) {
        if (fscanf(fp, "%lf", &v) != 1)
            v = NAN;
        fclose(fp);
    }
    return v;
}
