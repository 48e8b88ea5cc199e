/* Runs a fuzz harness (LLVMFuzzerTestOneInput) on every file of the directories or files given, in
 * name order, without libFuzzer: the corpus and every past crash as a plain gcc-built `meson test`.
 * Exit status 0 when every input passed; a failing input aborts (the harness checks) and the last
 * "replay:" line on stderr names it. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    int bad = ferror(fp) || !buf;
    fclose(fp);
    if (bad) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        return 1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    /* a copy of exactly n bytes, so ASan sees reads past the end of the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int failed = 0, files = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[a], strerror(errno));
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed += run_file(argv[a]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[a]);
        if (!d) {
            fprintf(stderr, "replay: %s: %s\n", argv[a], strerror(errno));
            return 1;
        }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char **q = realloc(names, (nn + 1) * sizeof *q);
            size_t l = strlen(argv[a]) + strlen(e->d_name) + 2;
            char *p = malloc(l);
            if (!q || !p) {
                fprintf(stderr, "replay: out of memory\n");
                return 1;
            }
            names = q;
            snprintf(p, l, "%s/%s", argv[a], e->d_name);
            names[nn++] = p;
        }
        closedir(d);
        if (nn)
            qsort(names, nn, sizeof *names, cmp);
        for (size_t i = 0; i < nn; i++) {
            failed += run_file(names[i]);
            files++;
            free(names[i]);
        }
        free(names);
    }
    if (files == 0) {
        fprintf(stderr, "replay: no inputs given (an empty corpus is a mistake)\n");
        return 1;
    }
    fprintf(stderr, "replay: %d inputs, %d unreadable\n", files, failed);
    return failed ? 1 : 0;
}
