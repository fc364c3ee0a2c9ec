/*
 * test_throttle.c — the sign-in failure table: every key has its own record
 * (no two keys share one, however many there are), the table never holds
 * more than its capacity, a full table gives up the record seen least
 * recently, and deleted keys leave every other key reachable.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "throttle.h"

START_TEST(keys_are_exact)
{
    Throttle *t = throttle_new(4096);
    ck_assert_ptr_nonnull(t);
    char key[64];
    for (int i = 0; i < 4000; i++) {
        snprintf(key, sizeof key, "k|user:name%d", i);
        ThrottleRec r = {.fails = i + 1, .last_ms = i};
        ck_assert_int_eq(throttle_put(t, key, &r), 0);
    }
    ck_assert_uint_eq(throttle_count(t), 4000);
    for (int i = 0; i < 4000; i++) {
        ThrottleRec r;
        snprintf(key, sizeof key, "k|user:name%d", i);
        ck_assert_int_eq(throttle_get(t, key, &r), 1);
        ck_assert_int_eq(r.fails, i + 1);
    }
    ThrottleRec r;
    ck_assert_int_eq(throttle_get(t, "k|user:unknown", &r), 0);
    ck_assert_int_eq(r.fails, 0);
    throttle_free(t);
}
END_TEST

START_TEST(full_table_evicts_the_oldest)
{
    Throttle *t = throttle_new(64);
    char key[64];
    for (int i = 0; i < 64; i++) {
        snprintf(key, sizeof key, "a|%d", i);
        ThrottleRec r = {.fails = 1, .last_ms = 1000 + i};
        throttle_put(t, key, &r);
    }
    /* Key 0 is refreshed: key 1 is now the oldest. */
    ThrottleRec fresh = {.fails = 2, .last_ms = 5000};
    throttle_put(t, "a|0", &fresh);
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "b|%d", i);
        ThrottleRec r = {.fails = 1, .last_ms = 6000 + i};
        throttle_put(t, key, &r);
        ck_assert_uint_le(throttle_count(t), 64);
        if (i == 0) {
            ThrottleRec x;
            ck_assert_int_eq(throttle_get(t, "a|1", &x), 0);
            ck_assert_int_eq(throttle_get(t, "a|0", &x), 1);
            ck_assert_int_eq(x.fails, 2);
        }
    }
    /* The newest 64 remain, each findable. */
    for (int i = 1000 - 64; i < 1000; i++) {
        ThrottleRec x;
        snprintf(key, sizeof key, "b|%d", i);
        ck_assert_int_eq(throttle_get(t, key, &x), 1);
    }
    ck_assert_int_eq(throttle_put(t, "x", &fresh), 0);
    char longkey[THROTTLE_KEY_MAX + 2];
    memset(longkey, 'x', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = 0;
    ck_assert_int_lt(throttle_put(t, longkey, &fresh), 0);
    throttle_free(t);
}
END_TEST

START_TEST(deletes_keep_the_rest_reachable)
{
    Throttle *t = throttle_new(512);
    char key[64];
    for (int i = 0; i < 500; i++) {
        snprintf(key, sizeof key, "a|%d", i);
        ThrottleRec r = {.fails = i, .last_ms = i};
        throttle_put(t, key, &r);
    }
    for (int i = 0; i < 500; i += 3) {
        snprintf(key, sizeof key, "a|%d", i);
        throttle_del(t, key);
    }
    for (int i = 0; i < 500; i++) {
        ThrottleRec x;
        snprintf(key, sizeof key, "a|%d", i);
        ck_assert_int_eq(throttle_get(t, key, &x), i % 3 != 0);
        if (i % 3)
            ck_assert_int_eq(x.fails, i);
    }
    throttle_free(NULL);
    throttle_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("throttle");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, keys_are_exact);
    tcase_add_test(tc, full_table_evicts_the_oldest);
    tcase_add_test(tc, deletes_keep_the_rest_reachable);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
