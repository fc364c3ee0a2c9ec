/*
 * test_http_fide.c — the FIDE register through a real daemon: an empty
 * register answers no players; `arbiter fide import` run beside the
 * running daemon fills it, and the same daemon then finds players by name
 * (Cyrillic too) and by FIDE ID; only arbiters may ask; bad queries are
 * 400 and an ID not in the register 404.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static Daemon D;
static Client arb;

static void setup(void)
{
    daemon_start_signed_in(&D, &arb);
}

static void teardown(void)
{
    daemon_finish(&D);
}

static void import(void)
{
    const char *bin = getenv("ARBITER_BIN"), *data = getenv("ARBITER_TEST_DATA");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' fide import '%s/fide/standard_jan25frl.txt' '%s/fide/rapid_jan25frl.txt' "
             "'%s/fide/blitz_jan25frl.txt' --db '%s' >/dev/null",
             bin, data, data, data, D.db);
    ck_assert_int_eq(system(cmd), 0);
}

/* The FIDE IDs of a search answer, space-separated. */
static const char *ids(Resp *r)
{
    static char out[256];
    out[0] = 0;
    size_t k;
    json_t *v;
    ck_assert_msg(json_is_array(r->json), "%s", r->body);
    json_array_foreach(r->json, k, v)
    {
        size_t o = strlen(out);
        snprintf(out + o, sizeof out - o, "%s%lld", k ? " " : "", (long long)jint(v, "fide_id"));
    }
    return out;
}

START_TEST(search_and_card)
{
    Resp *r = req(&D, &arb, "GET", "/api/v1/fide/search?q=topalov", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(ids(r), "");
    resp_free(r);

    import();
    /* "Топалов" */
    r = req(&D, &arb, "GET", "/api/v1/fide/search?q=%D0%A2%D0%BE%D0%BF%D0%B0%D0%BB%D0%BE%D0%B2",
            NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(ids(r), "2900084 2901234");
    resp_free(r);
    r = req(&D, &arb, "GET", "/api/v1/fide/search?q=topa&limit=1", NULL);
    ck_assert_str_eq(ids(r), "2900084");
    json_t *p = json_array_get(r->json, 0);
    ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "Topalov, Veselin");
    ck_assert_int_eq(jint(p, "std_rating"), 2733);
    resp_free(r);
    r = req(&D, &arb, "GET", "/api/v1/fide/search?q=N%C3%BA%C3%B1ez", NULL);
    ck_assert_str_eq(ids(r), "2200001");
    resp_free(r);

    r = req(&D, &arb, "GET", "/api/v1/fide/players/2900050", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "w_title")), "WGM");
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "o_title")), "IA,FT");
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "list_date")), "2025-01-01");
    ck_assert_int_eq(jint(r->json, "rapid_rating"), 2457);
    resp_free(r);
    r = req(&D, &arb, "GET", "/api/v1/fide/players/1", NULL);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
}
END_TEST

START_TEST(arbiters_only_and_bad_queries)
{
    Resp *r = req(&D, NULL, "GET", "/api/v1/fide/search?q=topalov", NULL);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = req(&D, NULL, "GET", "/api/v1/fide/players/2900084", NULL);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    static const char *const BAD[] = {"/api/v1/fide/search", "/api/v1/fide/search?q=a&limit=0",
                                      "/api/v1/fide/search?q=a&limit=101",
                                      "/api/v1/fide/search?q=a&limit=x"};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        r = req(&D, &arb, "GET", BAD[i], NULL);
        ck_assert_msg(r->status == 400, "%s: %ld", BAD[i], r->status);
        resp_free(r);
    }
    r = req(&D, &arb, "GET", "/api/v1/fide/players/x", NULL);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-fide");
    TCase *tc = tcase_create("fide");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, search_and_card);
    tcase_add_test(tc, arbiters_only_and_bad_queries);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    Suite *s = suite();
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
