/*
 * cmdutil.c — the FILE argument, TRF loading and JSON strings of the
 * report subcommands.  See cmdutil.h.
 */
#include "cmdutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "fileio.h"
#include "trf.h"

int cmdutil_file_arg(const char *cmd, const char *a, const char **path)
{
    if (a[0] == '-' && a[1]) {
        fprintf(stderr, "arbiter %s: unknown option '%s' (see 'arbiter help %s')\n", cmd, a, cmd);
        return 2;
    }
    if (*path) {
        fprintf(stderr, "arbiter %s: one file only\n", cmd);
        return 2;
    }
    *path = a;
    return 0;
}

int cmdutil_trf_load(const char *cmd, const char *path, int flags, Tournament **t)
{
    size_t len;
    char ferr[512];
    char *text = file_read_all(path, &len, ferr, sizeof ferr);
    if (!text) {
        fprintf(stderr, "arbiter %s: %s\n", cmd, ferr);
        return 1;
    }
    TrfError e;
    int rc = trf_read(text, len, flags, t, &e);
    free(text);
    if (rc > 0) {
        if (e.line)
            fprintf(stderr, "arbiter %s: %s:%d:%d: %s\n", cmd, path, e.line, e.column, e.message);
        else
            fprintf(stderr, "arbiter %s: %s: %s\n", cmd, path, e.message);
        return 3;
    }
    if (rc < 0) {
        fprintf(stderr, "arbiter %s: out of memory\n", cmd);
        return 1;
    }
    return 0;
}

void cmdutil_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}
