/*
 * test_http_office.c — the tournament office through a real daemon: the
 * officials and event data set with PATCH, read back by anyone, refused
 * when malformed, and written to both flavours of the rating report's
 * header; the rating type; players added from the FIDE register and
 * refreshed from a newer list before round 1.  Draft rounds: nothing of a draft reaches a
 * public read, a player or the live stream until it is published.
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
        ck_assert_msg(trf_read(r->body, r->len, 0, &t, &e) == 0, "line %d: %s", e.line, e.message);
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

/* ---- draft and published rounds ---- */

/* Every public read that lists games, pairings or results, the id filled
 * in by public_bodies: the game's under /games/, else the tournament's. */
static const char *const PUBLIC_READS[] = {
    "/tournaments/%lld/rounds",
    "/tournaments/%lld/rounds/1",
    "/tournaments/%lld/rounds/1/pairings",
    "/tournaments/%lld/rounds/1/pairings?format=html&order=alpha",
    "/tournaments/%lld/rounds/1/pgn",
    "/tournaments/%lld/pgn",
    "/tournaments/%lld/byes",
    "/tournaments/%lld/standings",
    "/tournaments/%lld/crosstable",
    "/tournaments/%lld/crosstable?format=csv",
    "/tournaments/%lld/ratings",
    "/tournaments/%lld/norms",
    "/tournaments/%lld/players",
    "/tournaments/%lld",
    "/games/%lld",
    "/games/%lld/pgn",
};
enum { NREADS = sizeof PUBLIC_READS / sizeof PUBLIC_READS[0] };

/* The status and body of every public read, as C (NULL: anonymous) gets
 * them, into OUT[i] ("STATUS BODY", malloc'd). */
static void public_bodies(const Client *c, int64_t tid, int64_t gid, char **out)
{
    for (int i = 0; i < NREADS; i++) {
        char path[256] = "/api/v1";
        int64_t id = strncmp(PUBLIC_READS[i], "/games/", 7) == 0 ? gid : tid;
        snprintf(path + 7, sizeof path - 7, PUBLIC_READS[i], (long long)id);
        Resp *r = req(&D, c, "GET", path, NULL);
        size_t n = r->len + 32;
        out[i] = malloc(n);
        snprintf(out[i], n, "%ld %s", r->status, r->body ? r->body : "");
        resp_free(r);
    }
}

static void same_bodies(char **a, char **b, const char *what)
{
    for (int i = 0; i < NREADS; i++) {
        ck_assert_msg(strcmp(a[i], b[i]) == 0, "%s: %s changed:\n%.300s\n---\n%.300s", what,
                      PUBLIC_READS[i], a[i], b[i]);
        free(a[i]);
        free(b[i]);
    }
}

static Resp *round_post(int64_t tid, const char *what)
{
    return reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds/1/%s", (long long)tid,
                what);
}

START_TEST(draft_round_stays_with_the_arbiters)
{
    int64_t p[4];
    Client pl[4];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 4, p, pl);
    /* Game ids are given in order: round 1's first game will be this one. */
    char *before[NREADS], *after[NREADS], *as_player[NREADS];
    int64_t gid = 1;
    public_bodies(NULL, tid, gid, before);
    HarnessStream hs;
    char spath[96];
    snprintf(spath, sizeof spath, "/api/v1/tournaments/%lld/stream", (long long)tid);
    harness_stream_start(&hs, &D, NULL, spath, 2500, 0);

    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert(json_is_false(json_object_get(r->json, "published")));
    gid = jint(json_array_get(json_object_get(r->json, "games"), 0), "id");
    ck_assert_int_eq(gid, 1);
    int64_t white = jint(json_array_get(json_object_get(r->json, "games"), 0), "white_id");
    resp_free(r);

    /* Neither the public nor a player sees anything of the draft. */
    public_bodies(NULL, tid, gid, after);
    same_bodies(before, after, "anonymous");
    public_bodies(NULL, tid, gid, before);
    public_bodies(&pl[0], tid, gid, as_player);
    same_bodies(before, as_player, "player");
    /* The arbiter does, and may check it. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 2);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/check", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* No tablet is bound to a draft's board. */
    int wi = white == p[0] ? 0 : white == p[1] ? 1 : white == p[2] ? 2 : 3;
    r = reqf(&D, &pl[wi], "GET", NULL, "/api/v1/auth/me");
    ck_assert(json_is_null(json_object_get(r->json, "game_id")));
    resp_free(r);
    r = reqf(&D, &pl[wi], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);

    /* Published: the stream announces it, the tablet finds its board. */
    r = round_post(tid, "publish");
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert(json_is_true(json_object_get(r->json, "published")));
    resp_free(r);
    r = harness_stream_join(&hs);
    const char *ev = strstr(r->body, "event: round");
    ck_assert_msg(ev && !strstr(ev + 1, "event: round"), "%s", r->body);
    ck_assert_ptr_nonnull(strstr(ev, "\"published\":true"));
    resp_free(r);
    r = reqf(&D, &pl[wi], "GET", NULL, "/api/v1/auth/me");
    ck_assert_int_eq(jint(r->json, "game_id"), gid);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/pairings", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);

    /* Withdrawn before the start: hidden again; started: it stays. */
    r = round_post(tid, "unpublish");
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_false(json_object_get(r->json, "published")));
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
    r = round_post(tid, "start");
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_true(json_object_get(r->json, "published")));
    resp_free(r);
    r = round_post(tid, "unpublish");
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
    /* Only arbiters publish. */
    r = reqf(&D, NULL, "POST", "{}", "/api/v1/tournaments/%lld/rounds/1/publish", (long long)tid);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds/9/publish", (long long)tid);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
}
END_TEST

/* ---- players from the register ---- */

static void fide_import(const char *files)
{
    const char *bin = getenv("ARBITER_BIN"), *data = getenv("ARBITER_TEST_DATA");
    char cmd[2048] = "", list[1024] = "";
    char copy[512];
    snprintf(copy, sizeof copy, "%s", files);
    for (char *f = strtok(copy, " "); f; f = strtok(NULL, " "))
        snprintf(list + strlen(list), sizeof list - strlen(list), " '%s/fide/%s'", data, f);
    snprintf(cmd, sizeof cmd, "'%s' fide import%s --db '%s' >/dev/null", bin, list, D.db);
    ck_assert_int_eq(system(cmd), 0);
}

static Resp *add_fide(int64_t tid, long long fide_id)
{
    char body[64];
    snprintf(body, sizeof body, "{\"fide_id\":%lld}", fide_id);
    return reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players/fide", (long long)tid);
}

START_TEST(players_from_the_register_and_refreshed)
{
    fide_import("standard_jan25frl.txt rapid_jan25frl.txt blitz_jan25frl.txt");
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments",
                  "{\"name\":\"Rapid\",\"time_control\":\"900+10\",\"rating_type\":\"rapid\"}");
    ck_assert_int_eq(r->status, 201);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    /* The rapid rating of the card, its title, federation and birth year. */
    r = add_fide(tid, 2900084);
    ck_assert_msg(r->status == 201, "%s", r->body);
    json_t *p = json_object_get(r->json, "player");
    ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "Topalov, Veselin");
    ck_assert_int_eq(jint(p, "rating"), 2691);
    ck_assert_str_eq(json_string_value(json_object_get(p, "title")), "GM");
    ck_assert_str_eq(json_string_value(json_object_get(p, "federation")), "BUL");
    ck_assert_str_eq(json_string_value(json_object_get(p, "fide_id")), "2900084");
    ck_assert_str_eq(json_string_value(json_object_get(p, "birth")), "1975");
    ck_assert_ptr_nonnull(json_object_get(json_object_get(r->json, "credentials"), "pin"));
    resp_free(r);
    r = add_fide(tid, 2905540);
    ck_assert_int_eq(r->status, 201);
    resp_free(r);
    r = add_fide(tid, 123);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"fide_id\":\"2900084\"}", "/api/v1/tournaments/%lld/players/fide",
             (long long)tid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);

    /* Nothing to refresh from the same list; the rating type switched to
     * standard shows each rating's change, and applies it on request. */
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/refresh", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "changes")), 0);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"rating_type\":\"standard\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    resp_free(r);
    fide_import("players_newer.xml");
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/refresh", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    json_t *ch = json_object_get(r->json, "changes");
    ck_assert_msg(json_array_size(ch) == 2, "%s", r->body);
    json_t *c0 = json_array_get(ch, 0);
    ck_assert_str_eq(json_string_value(json_object_get(c0, "field")), "rating");
    ck_assert_int_eq(jint(c0, "from"), 2691);
    ck_assert_int_eq(jint(c0, "to"), 2740);
    ck_assert(json_is_false(json_object_get(r->json, "applied")));
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_int_eq(jint(json_array_get(r->json, 0), "rating"), 2691);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"apply\":true}", "/api/v1/tournaments/%lld/players/refresh",
             (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_true(json_object_get(r->json, "applied")));
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_int_eq(jint(json_array_get(r->json, 0), "rating"), 2740);
    ck_assert_int_eq(jint(json_array_get(r->json, 1), "rating"), 2644);
    resp_free(r);
    /* Once round 1 is paired the event's ratings stay. */
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_int_eq(r->status, 201);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/refresh", (long long)tid);
    ck_assert_int_eq(r->status, 409);
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
    tcase_add_test(tc, draft_round_stays_with_the_arbiters);
    tcase_add_test(tc, players_from_the_register_and_refreshed);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
