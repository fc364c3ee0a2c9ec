/*
 * testutil.c — shared helpers of the Check test programs (see testutil.h).
 */
#include "testutil.h"

#include <stdlib.h>

FILE *testutil_open(const char *topic, const char *name, const char *mode)
{
    const char *dir = getenv("ARBITER_TEST_DATA");
    ck_assert_msg(dir != NULL, "ARBITER_TEST_DATA is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, topic, name);
    FILE *f = fopen(path, mode);
    ck_assert_msg(f != NULL, "cannot open %s", path);
    return f;
}

char *testutil_load(const char *topic, const char *name, size_t *len)
{
    FILE *f = testutil_open(topic, name, "rb");
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

void testutil_tmpdir_make(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/arbiter-%s-XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

void testutil_tmpdir_remove(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

int testutil_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
