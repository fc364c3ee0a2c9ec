/*
 * strbuf.c — the growable text buffer of rules/ (see strbuf.h).
 *
 * Growth doubles from 256 bytes; a failed realloc keeps the old block so
 * strbuf_free() still releases it.
 */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STRBUF_FIRST_CAP = 256 };

void strbuf_init(StrBuf *sb)
{
    *sb = (StrBuf)STRBUF_INIT;
}

/* Makes room for `more` bytes of text plus the NUL; false on failure. */
static bool grow(StrBuf *sb, size_t more)
{
    if (sb->failed)
        return false;
    if (more >= (size_t)-1 - sb->len - 1) {
        sb->failed = true;
        return false;
    }
    size_t need = sb->len + more + 1;
    if (need <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : STRBUF_FIRST_CAP;
    while (cap < need)
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void strbuf_append(StrBuf *sb, const void *p, size_t n)
{
    if (!grow(sb, n))
        return;
    if (n)
        memcpy(sb->data + sb->len, p, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_puts(StrBuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s));
}

void strbuf_putc(StrBuf *sb, char c)
{
    strbuf_append(sb, &c, 1);
}

void strbuf_vappendf(StrBuf *sb, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        sb->failed = true;
    } else if (grow(sb, (size_t)n)) {
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, again);
        sb->len += (size_t)n;
    }
    va_end(again);
}

void strbuf_appendf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vappendf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_truncate(StrBuf *sb, size_t len)
{
    if (len < sb->len) {
        sb->len = len;
        sb->data[len] = '\0';
    }
}

void strbuf_reset(StrBuf *sb)
{
    sb->len = 0;
    sb->failed = false;
    if (sb->data)
        sb->data[0] = '\0';
}

char *strbuf_take(StrBuf *sb)
{
    char *s = NULL;
    if (!sb->failed)
        s = sb->data ? sb->data : calloc(1, 1);
    if (!s)
        free(sb->data);
    *sb = (StrBuf)STRBUF_INIT;
    return s;
}

void strbuf_free(StrBuf *sb)
{
    free(sb->data);
    *sb = (StrBuf)STRBUF_INIT;
}
