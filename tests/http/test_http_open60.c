/*
 * test_http_open60.c — a FIDE-rated open run end to end through the API of
 * a real daemon: 60 players added by FIDE ID from a list file imported
 * into the register (tests/data/fide/standard_open60.txt), the officials
 * and dates set, nine rounds each paired as a draft, checked, published,
 * played and given their results.  The TRF-2026 report then passes our
 * pairings checker (`arbiter check --dutch`: every round re-paired agrees)
 * and, when BBPPAIRINGS names its binary, bbpPairings' (`-c`); its header
 * carries every official and date.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

enum { PLAYERS = 60, ROUNDS = 9 };

static const char OFFICE[] =
    "{\"place\":\"Sofia\",\"start_date\":\"2026-07-01\",\"rating_type\":\"standard\","
    "\"office\":{\"federation\":\"BUL\",\"end_date\":\"2026-07-09\","
    "\"chief_arbiter\":{\"name\":\"Petrova, Maria\",\"fide_id\":\"2900123\"},"
    "\"deputies\":[{\"name\":\"Ivanov, Georgi\",\"fide_id\":\"2900456\"},"
    "{\"name\":\"Kolev, Stefan\",\"fide_id\":\"2900457\"}],"
    "\"chief_organiser\":{\"name\":\"Dimov, Petar\",\"fide_id\":\"\"},"
    "\"time_control_text\":\"90 minutes + 30 seconds per move from move 1\","
    "\"event_code\":\"420001\",\"round_dates\":[";

/* Asserts that the report TEXT has the line LINE (without its CR). */
static void has_line(const char *text, const char *line)
{
    char want[512];
    snprintf(want, sizeof want, "\r%s\r", line);
    ck_assert_msg(strstr(text, want) || strncmp(text, want + 1, strlen(want + 1)) == 0,
                  "no line '%s' in the report", line);
}

/* The result of board B of round RN: mostly decisive, some draws, the
 * stronger side not always winning, so the score groups mix. */
static char result_of(int rn, int b)
{
    int k = (rn * 7 + b * 3) % 10;
    return k < 4 ? '1' : k < 7 ? '0' : '=';
}

START_TEST(open_of_sixty_from_list_to_report)
{
    const char *bin = getenv("ARBITER_BIN"), *data = getenv("ARBITER_TEST_DATA");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' fide import '%s/fide/standard_open60.txt' --db '%s' >/dev/null",
             bin, data, D.db);
    ck_assert_int_eq(system(cmd), 0);

    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments",
                  "{\"name\":\"Sofia Open 2026\",\"time_control\":\"5400+30\",\"system\":"
                  "\"swiss\",\"rounds\":9}");
    ck_assert_int_eq(r->status, 201);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    /* The officials, and a date and time for each round. */
    char body[4096];
    snprintf(body, sizeof body, "%s", OFFICE);
    for (int rn = 1; rn <= ROUNDS; rn++)
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "%s{\"date\":\"2026-07-%02d\",\"time\":\"15:00\"}", rn > 1 ? "," : "", rn);
    strcat(body, "]}}");
    r = reqf(&D, &arb, "PATCH", body, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    /* The entry list: every player by FIDE ID from the register. */
    for (int i = 0; i < PLAYERS; i++) {
        snprintf(body, sizeof body, "{\"fide_id\":%d}", 2990001 + i);
        r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players/fide", (long long)tid);
        ck_assert_msg(r->status == 201, "player %d: %s", i, r->body);
        resp_free(r);
    }

    for (int rn = 1; rn <= ROUNDS; rn++) {
        /* A draft: the public sees no round yet, the check passes. */
        r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
        ck_assert_msg(r->status == 201, "round %d: %s", rn, r->body);
        ck_assert(json_is_false(json_object_get(r->json, "published")));
        ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), PLAYERS / 2);
        resp_free(r);
        r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d/pairings",
                 (long long)tid, rn);
        ck_assert_int_eq(r->status, 404);
        resp_free(r);
        char codes[512];
        round_check_codes(&D, &arb, tid, rn, codes, sizeof codes);
        ck_assert_msg(codes[0] == 0, "round %d check: %s", rn, codes);
        r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds/%d/publish",
                 (long long)tid, rn);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
        r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d/pairings",
                 (long long)tid, rn);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
        char results[PLAYERS / 2 + 1];
        for (int b = 0; b < PLAYERS / 2; b++)
            results[b] = result_of(rn, b);
        results[PLAYERS / 2] = 0;
        finish_round(&D, &arb, tid, rn, results);
    }

    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf?flavour=26", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    has_line(r->body, "012 Sofia Open 2026");
    has_line(r->body, "022 Sofia");
    has_line(r->body, "032 BUL");
    has_line(r->body, "042 2026/07/01");
    has_line(r->body, "052 2026/07/09");
    has_line(r->body, "062 60");
    has_line(r->body, "072 60");
    has_line(r->body, "092 Swiss system, standard");
    has_line(r->body, "102 Petrova, Maria (2900123)");
    has_line(r->body, "112 Ivanov, Georgi (2900456)");
    has_line(r->body, "112 Kolev, Stefan (2900457)");
    has_line(r->body, "122 90 minutes + 30 seconds per move from move 1");
    has_line(r->body, "142 9");
    has_line(r->body, "192 FIDE_DUTCH_2026");
    has_line(r->body, "222 5400+30");
    has_line(r->body, "### FIDE event code: 420001");
    has_line(r->body, "### Chief organiser: Dimov, Petar");
    char dates[200] = "";
    for (int rn = 1; rn <= ROUNDS; rn++)
        snprintf(dates + strlen(dates), sizeof dates - strlen(dates), "%s26/07/%02d",
                 rn > 1 ? "  " : "", rn);
    ck_assert_msg(strstr(r->body, dates), "no round dates %s", dates);
    /* The players came from the list: their FIDE IDs are in the report. */
    ck_assert_ptr_nonnull(strstr(r->body, "2990001"));
    ck_assert_ptr_nonnull(strstr(r->body, "2990060"));

    char path[512];
    snprintf(path, sizeof path, "%s/open60.trf", D.dir);
    testutil_write(path, r->body, r->len);
    harness_bbp_check(&D, r->body, r->len, "--dutch", ROUNDS);
    resp_free(r);
    snprintf(cmd, sizeof cmd, "'%s' check --dutch '%s' > '%s/check.txt'", bin, path, D.dir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/check.txt", D.dir);
    size_t len = 0;
    char *out = testutil_read(path, &len);
    ck_assert_msg(rc == 0, "arbiter check: %s", out ? out : "");
    ck_assert_ptr_nonnull(strstr(out, "9 rounds checked, 0 differ"));
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http-open60");
    TCase *tc = tcase_create("open60");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, open_of_sixty_from_list_to_report);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
