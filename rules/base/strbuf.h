/*
 * strbuf.h — one growable text buffer for everything in rules/ that writes
 * text of unknown length (PGN, TRF, scoresheet notes).
 *
 * Invariants: `data` is NULL until the first byte is appended, then always
 * NUL-terminated at `len`; `len` < `cap`.  An allocation failure is sticky:
 * `failed` is set, every later append is a no-op, and strbuf_take() reports
 * it once at the end, so the writers need not check after every call.
 * A zeroed StrBuf (STRBUF_INIT or `= {0}`) is a valid empty buffer.
 *
 * Workload: PGN and TRF files of a few kilobytes; the capacity doubles, so
 * appends are amortised O(1).
 */
#ifndef ARBITER_RULES_STRBUF_H
#define ARBITER_RULES_STRBUF_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
    char *data;  /* the text, NUL-terminated; NULL while nothing was appended */
    size_t len;  /* bytes of text, without the NUL */
    size_t cap;  /* bytes allocated */
    bool failed; /* an allocation failed; the text is incomplete */
} StrBuf;

#define STRBUF_INIT                                                                                \
    {                                                                                              \
        0                                                                                          \
    }

/* Makes sb an empty buffer (no allocation). */
void strbuf_init(StrBuf *sb);

/* Appends n bytes of p (which may contain NULs). */
void strbuf_append(StrBuf *sb, const void *p, size_t n);

/* Appends the NUL-terminated string s. */
void strbuf_puts(StrBuf *sb, const char *s);

/* Appends one byte. */
void strbuf_putc(StrBuf *sb, char c);

/* Appends printf-style formatted text. */
void strbuf_appendf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* As strbuf_appendf() with a va_list (consumed). */
void strbuf_vappendf(StrBuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Cuts the text to its first len bytes (len <= sb->len); keeps the memory. */
void strbuf_truncate(StrBuf *sb, size_t len);

/* Empties the text, keeping the memory and clearing a failure. */
void strbuf_reset(StrBuf *sb);

/*
 * Hands over the text: a malloc'd NUL-terminated string (""
 * when nothing was appended) that the caller frees, or NULL when an
 * allocation failed at any point.  sb is empty afterwards either way.
 */
char *strbuf_take(StrBuf *sb);

/* Releases the memory; sb is empty afterwards.  A zeroed sb is fine. */
void strbuf_free(StrBuf *sb);

#endif
