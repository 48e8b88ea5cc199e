/* Fuzz harness: the parameter-file reader (mur_def_load_file), then the cross-field check and a few
 * ticks of a small flock made from whatever was accepted.
 * Any input: no crash, no leak, no undefined behaviour; a rejected file gives one error line naming
 * the file; an accepted def that passes mur_def_check makes a flock that steps with finite values. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write_input(data, size);
    mur_flock_def def = mur_flock_default_def();
    mur_error err = {{0}};
    if (!mur_def_load_file(&def, path, &err)) {
        fz_check_error(&err);
        FZ_CHECK(strstr(err.msg, path) != NULL, "error does not name the file: %s", err.msg);
        return 0;
    }
    if (!mur_def_check(&def, &err)) {
        fz_check_error(&err);
        return 0;
    }
    fz_run_def(def);
    return 0;
}
