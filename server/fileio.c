/*
 * fileio.c — reading a file whole into a text buffer (strbuf.h), in
 * 64 KB pieces.  See fileio.h.
 */
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

char *file_read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    StrBuf sb = STRBUF_INIT;
    char piece[1 << 16];
    size_t got;
    while ((got = fread(piece, 1, sizeof piece, f)) > 0) {
        if (sb.len + got > FILE_READ_MAX) {
            snprintf(err, errlen, "%s: larger than %zu MB", path, FILE_READ_MAX >> 20);
            goto fail;
        }
        strbuf_append(&sb, piece, got);
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        goto fail;
    }
    fclose(f);
    size_t n = sb.len;
    char *text = strbuf_take(&sb);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    *len = n;
    return text;
fail:
    fclose(f);
    strbuf_free(&sb);
    return NULL;
}
