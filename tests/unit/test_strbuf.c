/*
 * test_strbuf.c — the growable text buffer of rules/base: appends of bytes,
 * strings, single characters and formatted text across many growths; the
 * hand-over of the text (also when nothing was appended); truncation and
 * reset; and a failure that stays set until the end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "testutil.h"

START_TEST(appends_and_takes)
{
    StrBuf sb = STRBUF_INIT;
    ck_assert_ptr_null(sb.data);
    strbuf_puts(&sb, "1.");
    strbuf_putc(&sb, ' ');
    strbuf_append(&sb, "e4 e5", 2);
    strbuf_appendf(&sb, " %d-%s", 1, "0");
    ck_assert_str_eq(sb.data, "1. e4 1-0");
    ck_assert_uint_eq(sb.len, 9);
    char *s = strbuf_take(&sb);
    ck_assert_str_eq(s, "1. e4 1-0");
    ck_assert_ptr_null(sb.data);
    ck_assert_uint_eq(sb.len, 0);
    free(s);
}
END_TEST

START_TEST(grows_past_many_doublings)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < 10000; i++)
        strbuf_appendf(&sb, "%04d", i);
    ck_assert(!sb.failed);
    ck_assert_uint_eq(sb.len, 40000);
    ck_assert_uint_eq(strlen(sb.data), 40000);
    ck_assert(memcmp(sb.data + 4 * 9999, "9999", 4) == 0);
    strbuf_free(&sb);
    ck_assert_ptr_null(sb.data);
    strbuf_free(&sb); /* freeing an empty buffer is a no-op */
}
END_TEST

START_TEST(empty_take_is_an_empty_string)
{
    StrBuf sb = STRBUF_INIT;
    char *s = strbuf_take(&sb);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, "");
    free(s);
    strbuf_puts(&sb, "");
    ck_assert_ptr_nonnull(sb.data); /* an empty append still yields a string */
    ck_assert_str_eq(sb.data, "");
    strbuf_free(&sb);
}
END_TEST

START_TEST(truncate_and_reset)
{
    StrBuf sb = STRBUF_INIT;
    strbuf_puts(&sb, "abc   ");
    strbuf_truncate(&sb, 3);
    ck_assert_str_eq(sb.data, "abc");
    strbuf_truncate(&sb, 10); /* longer than the text: nothing changes */
    ck_assert_uint_eq(sb.len, 3);
    strbuf_reset(&sb);
    ck_assert_uint_eq(sb.len, 0);
    ck_assert_str_eq(sb.data, "");
    strbuf_putc(&sb, 'x');
    ck_assert_str_eq(sb.data, "x");
    strbuf_free(&sb);
}
END_TEST

START_TEST(failure_is_sticky)
{
    StrBuf sb = STRBUF_INIT;
    strbuf_puts(&sb, "kept");
    sb.failed = true; /* as after a failed realloc */
    strbuf_puts(&sb, " lost");
    strbuf_appendf(&sb, "%s", " lost");
    ck_assert_str_eq(sb.data, "kept");
    ck_assert_ptr_null(strbuf_take(&sb));
    ck_assert_ptr_null(sb.data);
    ck_assert(!sb.failed);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strbuf");
    TCase *tc = tcase_create("strbuf");
    tcase_add_test(tc, appends_and_takes);
    tcase_add_test(tc, grows_past_many_doublings);
    tcase_add_test(tc, empty_take_is_an_empty_string);
    tcase_add_test(tc, truncate_and_reset);
    tcase_add_test(tc, failure_is_sticky);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
