/* Fuzz harness: the --set name=value parser (mur_def_set_pair), one pair per input line, then the
 * cross-field check, the text form of every parameter, and a few ticks of a small flock.
 * Properties: no crash/leak/UB; a failure leaves the def unchanged and gives one error line; for every
 * parameter, mur_def_get's text reads back through mur_def_set_pair to the same text. */
#include "fuzz_common.h"

static void roundtrip_all(const mur_flock_def *def)
{
    for (int i = 0; i < mur_param_count(); i++) {
        const mur_param *p = mur_param_at(i);
        char text[200], pair[256], again[200];
        FZ_CHECK(mur_def_get(def, p->name, text, sizeof text), "get %s", p->name);
        snprintf(pair, sizeof pair, "%s=%s", p->name, text);
        mur_flock_def copy = *def;
        mur_error err = {{0}};
        FZ_CHECK(mur_def_set_pair(&copy, pair, &err), "'%s' does not read back: %s", pair, err.msg);
        FZ_CHECK(mur_def_get(&copy, p->name, again, sizeof again), "get %s", p->name);
        FZ_CHECK(strcmp(text, again) == 0, "%s: '%s' reads back as '%s'", p->name, text, again);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *buf = malloc(size + 1);
    FZ_CHECK(buf != NULL, "out of memory");
    memcpy(buf, data, size);
    buf[size] = 0;
    mur_flock_def def = mur_flock_default_def();
    char *line = buf;
    int n = 0;
    while (line && n < 16) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        mur_flock_def before = def;
        mur_error err = {{0}};
        if (!mur_def_set_pair(&def, line, &err)) {
            fz_check_error(&err);
            FZ_CHECK(memcmp(&before, &def, sizeof def) == 0, "a failed set changed the def");
        }
        line = nl ? nl + 1 : NULL;
        n++;
    }
    free(buf);
    roundtrip_all(&def);
    mur_error err = {{0}};
    if (mur_def_check(&def, &err))
        fz_run_def(def);
    else
        fz_check_error(&err);
    return 0;
}
