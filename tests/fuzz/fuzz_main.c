/*
 * fuzz_main.c — runs a fuzz target over files without libFuzzer, so that
 * the committed seed corpora replay as ordinary regression tests in every
 * build (gcc included).  Arguments are files or directories of inputs.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input that took the most processor time: each must stay fast. */
static double slowest_ms;
static char slowest[4096];

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    clock_t t0 = clock();
    LLVMFuzzerTestOneInput(buf, len);
    double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    if (ms > slowest_ms) {
        slowest_ms = ms;
        snprintf(slowest, sizeof slowest, "%s", path);
    }
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "no such input %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += run_file(argv[i]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad += run_file(path);
            files++;
        }
        if (d)
            closedir(d);
    }
    printf("replayed %d inputs; slowest %.1f ms CPU: %s\n", files, slowest_ms, slowest);
    return bad ? 1 : 0;
}
