/* Fuzz harness: the CSV state reader (mur_flock_load_csv).
 * Any input: no crash, no leak, no undefined behaviour; a rejected file gives one error line naming
 * the file; an accepted file gives a flock with finite values that saves and loads back to the same
 * state (same hash) and steps without trouble. */
#include "fuzz_common.h"

static char rt_path[128];

static void rt_cleanup(void) { unlink(rt_path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write_input(data, size);
    mur_flock_def def = mur_flock_default_def();
    mur_error err = {{0}};
    mur_flock *f = mur_flock_load_csv(&def, path, &err);
    if (!f) {
        fz_check_error(&err);
        FZ_CHECK(strstr(err.msg, path) != NULL, "error does not name the file: %s", err.msg);
        return 0;
    }
    mur_flock_set_threads(f, 1);
    fz_check_finite(f);
    mur_view v = mur_flock_view(f);
    FZ_CHECK(v.tick == 0, "loaded flock at tick %llu", (unsigned long long)v.tick);

    /* round trip through a real file (the writer renames a temp file into place) */
    if (!rt_path[0]) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(rt_path, sizeof rt_path, "%s/murmur-fuzz-rt-%ld.csv", dir, (long)getpid());
        atexit(rt_cleanup);
    }
    FZ_CHECK(mur_flock_save_csv(f, rt_path, &err), "save failed: %s", err.msg);
    mur_flock *g = mur_flock_load_csv(&def, rt_path, &err);
    FZ_CHECK(g != NULL, "saved state does not load back: %s", err.msg);
    FZ_CHECK(mur_flock_hash(f) == mur_flock_hash(g), "round trip changed the state");
    mur_flock_destroy(g);

    /* and it runs: every rule on, including predators from the file */
    mur_flock_def d = mur_flock_get_def(f);
    d.perch = d.goal = d.wind = true;
    if (mur_flock_apply_def(f, &d, &err)) {
        mur_flock_set_metrics(f, true);
        mur_flock_steps(f, 2);
        (void)mur_flock_measure(f);
        fz_check_finite(f);
    } else {
        fz_check_error(&err);
    }
    mur_flock_destroy(f);
    return 0;
}
