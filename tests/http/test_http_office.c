/*
 * test_http_office.c — the tournament office through a real daemon: the
 * officials and event data set with PATCH, read back by anyone, refused
 * when malformed, and written to both flavours of the rating report's
 * header; the rating type.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trf.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static const char OFFICE[] =
    "{\"place\":\"Plovdiv\",\"start_date\":\"2026-05-01\",\"rating_type\":\"rapid\","
    "\"office\":{\"federation\":\"BUL\",\"end_date\":\"2026-05-03\","
    "\"round_dates\":[{\"date\":\"2026-05-01\",\"time\":\"10:00\"},"
    "{\"date\":\"2026-05-01\",\"time\":\"15:00\"},{\"date\":\"2026-05-02\",\"time\":\"10:00\"}],"
    "\"chief_arbiter\":{\"name\":\"Petrova, Maria\",\"fide_id\":\"2900123\"},"
    "\"deputies\":[{\"name\":\"Ivanov, Georgi\",\"fide_id\":\"2900456\"},"
    "{\"name\":\"Kolev, Stefan\",\"fide_id\":\"\"}],"
    "\"chief_organiser\":{\"name\":\"Dimov, Petar\",\"fide_id\":\"2900789\"},"
    "\"time_control_text\":\"15 minutes + 10 seconds per move\","
    "\"event_code\":\"412345\"}}";

/* Asserts that the report TEXT has the line LINE (without its CR). */
static void has_line(const char *text, const char *line)
{
    char want[512];
    snprintf(want, sizeof want, "\r%s\r", line);
    ck_assert_msg(strstr(text, want) || strncmp(text, line, strlen(line)) == 0,
                  "no line '%s' in\n%s", line, text);
}

START_TEST(office_set_read_and_reported)
{
    int64_t pids[4];
    int64_t tid = make_tournament(&D, &arb, "900+10", NULL, 4, pids, NULL);
    Resp *r = reqf(&D, &arb, "PATCH", OFFICE, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    /* Anyone reads it with the tournament. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    json_t *o = json_object_get(r->json, "office");
    ck_assert_str_eq(json_string_value(json_object_get(o, "federation")), "BUL");
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "rating_type")), "rapid");
    ck_assert_int_eq(json_array_size(json_object_get(o, "deputies")), 2);
    resp_free(r);
    /* A field given replaces the stored one; the others stay. */
    r = reqf(&D, &arb, "PATCH", "{\"office\":{\"event_code\":\"499999\"}}",
             "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    o = json_object_get(r->json, "office");
    ck_assert_str_eq(json_string_value(json_object_get(o, "event_code")), "499999");
    ck_assert_str_eq(json_string_value(json_object_get(o, "end_date")), "2026-05-03");
    resp_free(r);
    for (int flavour = 16; flavour <= 26; flavour += 10) {
        r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf?flavour=%d", (long long)tid,
                 flavour);
        ck_assert_int_eq(r->status, 200);
        has_line(r->body, "022 Plovdiv");
        has_line(r->body, "032 BUL");
        has_line(r->body, "042 2026/05/01");
        has_line(r->body, "052 2026/05/03");
        has_line(r->body, "062 4");
        has_line(r->body, "072 4");
        has_line(r->body, "092 Swiss system, rapid");
        has_line(r->body, "102 Petrova, Maria (2900123)");
        has_line(r->body, "112 Ivanov, Georgi (2900456)");
        has_line(r->body, "112 Kolev, Stefan");
        has_line(r->body, "122 15 minutes + 10 seconds per move");
        has_line(r->body, "### FIDE event code: 499999");
        has_line(r->body, "### Chief organiser: Dimov, Petar (2900789)");
        ck_assert_ptr_nonnull(strstr(r->body, "\r132 "));
        ck_assert_ptr_nonnull(strstr(r->body, "26/05/01  26/05/01  26/05/02"));
        if (flavour == 26)
            has_line(r->body, "222 900+10");
        /* Our reader takes it back. */
        Tournament *t = NULL;
        TrfError e;
        ck_assert_msg(trf_read(r->body, r->len, 0, &t, &e) == 0, "line %d: %s", e.line,
                      e.message);
        ck_assert_str_eq(t->chief_arbiter, "Petrova, Maria (2900123)");
        ck_assert_int_eq(t->n_round_dates, 3);
        tournament_free(t);
        resp_free(r);
    }
}
END_TEST

START_TEST(office_refused)
{
    int64_t pids[2];
    int64_t tid = make_tournament(&D, &arb, "900+10", NULL, 2, pids, NULL);
    static const char *const bad[] = {
        "{\"office\":{\"federation\":\"bul\"}}",
        "{\"office\":{\"end_date\":\"2026-02-30\"}}",
        "{\"office\":{\"round_dates\":[{\"date\":\"2026-05-01\",\"time\":\"25:00\"}]}}",
        "{\"office\":{\"round_dates\":[5]}}",
        "{\"office\":{\"chief_arbiter\":{\"name\":\"A\",\"fide_id\":\"12x\"}}}",
        "{\"office\":{\"chief_arbiter\":{\"nick\":\"A\"}}}",
        "{\"office\":{\"deputies\":[{\"name\":\"A\\nB\"}]}}",
        "{\"office\":{\"colour\":\"red\"}}",
        "{\"office\":[]}",
        "{\"rating_type\":\"bullet\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Resp *r = reqf(&D, &arb, "PATCH", bad[i], "/api/v1/tournaments/%lld", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld %s", bad[i], r->status, r->body);
        resp_free(r);
    }
    /* Nothing was written; the public may not write at all. */
    Resp *r = reqf(&D, NULL, "PATCH", "{\"office\":{\"federation\":\"BUL\"}}",
                   "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(json_object_size(json_object_get(r->json, "office")), 0);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "rating_type")), "standard");
    resp_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http-office");
    TCase *tc = tcase_create("office");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, office_set_read_and_reported);
    tcase_add_test(tc, office_refused);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
