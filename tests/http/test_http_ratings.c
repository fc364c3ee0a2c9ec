/*
 * test_http_ratings.c — the FIDE rating changes and title norms of a real
 * daemon: GET /tournaments/ID/ratings and /norms as JSON, HTML and CSV,
 * and the norm certificate.
 *
 * Outside truth: the command line.  A small rated tournament is played
 * through the API; its report (GET .../trf) is given to `arbiter ratings`
 * and `arbiter norms`, and the daemon's JSON must equal theirs object by
 * object (the daemon only adds player_id).  The printable pages in each
 * language must carry the words of web/i18n/<lang>.json and the figures
 * of the JSON.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static const char *const LANGS[] = {"en", "ru", "bg"};

/* The word KEY of web/i18n/LANG.json (the caller decrefs *DOC). */
static const char *word(const char *lang, const char *key, json_t **doc)
{
    char path[512];
    snprintf(path, sizeof path, "%s/i18n/%s.json", getenv("ARBITER_WEB"), lang);
    json_error_t e;
    *doc = json_load_file(path, 0, &e);
    ck_assert_msg(*doc != NULL, "%s: %s", path, e.text);
    const char *s = json_string_value(json_object_get(*doc, key));
    ck_assert_msg(s != NULL, "%s has no %s", path, key);
    return s;
}

/* A 6-player event, 3 rounds played, time control TC.  Player 1 is an FM of
 * BUL with a FIDE id.  Returns the tournament id; PIDS gets the ids. */
static int64_t play_event(const char *tc, int64_t *pids)
{
    int64_t tid = make_tournament(&D, &arb, tc, NULL, 6, pids, NULL);
    Resp *r = reqf(&D, &arb, "PATCH",
                   "{\"title\":\"FM\",\"federation\":\"BUL\","
                   "\"fide_id\":\"2900001\"}",
                   "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)pids[0]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    static const int pair[3][6] = {{0, 5, 1, 4, 2, 3}, {4, 0, 3, 1, 5, 2}, {0, 3, 2, 1, 4, 5}};
    static const char *const res[3] = {"1=0", "010", "=1="};
    for (int k = 0; k < 3; k++) {
        int64_t w[3], b[3], gids[3];
        for (int i = 0; i < 3; i++) {
            w[i] = pids[pair[k][2 * i]];
            b[i] = pids[pair[k][2 * i + 1]];
        }
        int64_t rn = make_round(&D, &arb, tid, 3, w, b, gids);
        finish_round(&D, &arb, tid, rn, res[k]);
    }
    return tid;
}

/* The command line's JSON of `arbiter CMD` on tournament TID's TRF (an
 * arbiter's export), with the further arguments EXTRA (may be ""). */
static json_t *cli_json_with(int64_t tid, const char *cmd, const char *extra)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    char path[400], line[1024];
    snprintf(path, sizeof path, "%s/report-%s.trf", D.dir, cmd);
    testutil_write(path, r->body, r->len);
    resp_free(r);
    snprintf(line, sizeof line, "'%s' %s '%s' --format json %s", testutil_bin(), cmd, path, extra);
    FILE *p = popen(line, "r");
    ck_assert_ptr_nonnull(p);
    json_error_t e;
    json_t *out = json_loadf(p, 0, &e);
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_msg(out != NULL, "arbiter %s: %s", cmd, e.text);
    return out;
}

static json_t *cli_json(int64_t tid, const char *cmd)
{
    return cli_json_with(tid, cmd, "");
}

/* Each object of the daemon's array API equals the command line's CLI
 * once player_id (which must be PIDS[start_rank - 1]) is taken out. */
static void assert_same_players(json_t *api, json_t *cli, const int64_t *pids)
{
    ck_assert_int_eq(json_array_size(api), json_array_size(cli));
    ck_assert_int_gt(json_array_size(api), 0);
    for (size_t i = 0; i < json_array_size(api); i++) {
        json_t *a = json_deep_copy(json_array_get(api, i));
        ck_assert_int_eq(jint(a, "player_id"), pids[jint(a, "start_rank") - 1]);
        json_object_del(a, "player_id");
        char *as = json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT);
        char *cs = json_dumps(json_array_get(cli, i), JSON_SORT_KEYS | JSON_COMPACT);
        ck_assert_msg(json_equal(a, json_array_get(cli, i)), "row %zu:\nAPI %s\nCLI %s", i, as, cs);
        free(as);
        free(cs);
        json_decref(a);
    }
}

START_TEST(ratings_agree_with_the_command_line)
{
    int64_t pids[6];
    int64_t tid = play_event("5400+30", pids);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_ptr_nonnull(r->json);
    json_t *cli = cli_json(tid, "ratings");
    assert_same_players(r->json, cli, pids);
    /* Standard play, every game rated, the changes add up to zero for
     * equal K (all players are rated and under 2300 with no birth date). */
    json_t *first = json_array_get(r->json, 0);
    ck_assert_str_eq(json_string_value(json_object_get(first, "kind")), "standard");
    ck_assert_int_eq(jint(first, "rated_games"), 3);
    double sum = 0;
    for (size_t i = 0; i < json_array_size(r->json); i++)
        sum += json_number_value(json_object_get(json_array_get(r->json, i), "rating_change"));
    ck_assert_msg(sum > -0.001 && sum < 0.001, "changes sum to %g", sum);
    json_decref(cli);

    /* The printable list in each language: its words, every player's name
     * and new rating as the JSON has them. */
    for (int l = 0; l < 3; l++) {
        Resp *h =
            reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings?format=html&lang=%s",
                 (long long)tid, LANGS[l]);
        ck_assert_int_eq(h->status, 200);
        ck_assert_ptr_nonnull(strstr(h->headers, "Content-Security-Policy"));
        const char *keys[] = {"view.ratings", "print.change", "print.new_rating",
                              "print.kind_standard"};
        for (int k = 0; k < 4; k++) {
            json_t *doc;
            const char *w = word(LANGS[l], keys[k], &doc);
            ck_assert_msg(strstr(h->body, w) != NULL, "%s: no '%s'", LANGS[l], w);
            json_decref(doc);
        }
        for (size_t i = 0; i < json_array_size(r->json); i++) {
            json_t *p = json_array_get(r->json, i);
            char cell[64];
            snprintf(cell, sizeof cell, "<td class=\"n\">%lld</td>",
                     (long long)jint(p, "new_rating"));
            ck_assert_ptr_nonnull(strstr(h->body, json_string_value(json_object_get(p, "name"))));
            ck_assert_msg(strstr(h->body, cell) != NULL, "%s: no %s", LANGS[l], cell);
        }
        resp_free(h);
    }
    /* CSV: the JSON's field names, one record per player. */
    Resp *c =
        reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings?format=csv", (long long)tid);
    ck_assert_int_eq(c->status, 200);
    ck_assert_ptr_nonnull(strstr(c->body, "start_rank,name,rating,k,rated_games,score,expected,"
                                          "rating_change,new_rating,initial_status\r\n"));
    int records = 0;
    for (const char *s = c->body; (s = strstr(s, "\r\n")); s += 2)
        records++;
    ck_assert_int_eq(records, 7);
    resp_free(c);
    resp_free(r);
}
END_TEST

START_TEST(rapid_from_the_time_control)
{
    int64_t pids[6];
    int64_t tid = play_event("900+10", pids);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    json_t *first = json_array_get(r->json, 0);
    ck_assert_str_eq(json_string_value(json_object_get(first, "kind")), "rapid");
    ck_assert_int_eq(jint(first, "k"), 20);
    json_t *cli = cli_json(tid, "ratings");
    assert_same_players(r->json, cli, pids);
    json_decref(cli);
    resp_free(r);
}
END_TEST

START_TEST(norms_agree_and_print)
{
    int64_t pids[6];
    int64_t tid = play_event("5400+30", pids);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/norms", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    json_t *cli = cli_json(tid, "norms");
    ck_assert_int_eq(jint(r->json, "rounds"), jint(cli, "rounds"));
    ck_assert_int_eq(jint(r->json, "total_rounds"), jint(cli, "total_rounds"));
    assert_same_players(json_object_get(r->json, "players"), json_object_get(cli, "players"), pids);
    json_decref(cli);
    /* Player 1 is an FM: no FM-level checks, the IM check comes after GM. */
    json_t *p1 = json_array_get(json_object_get(r->json, "players"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(p1, "title")), "FM");
    for (int l = 0; l < 3; l++) {
        Resp *h = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/norms?format=html&lang=%s",
                       (long long)tid, LANGS[l]);
        ck_assert_int_eq(h->status, 200);
        json_t *doc;
        const char *w = word(LANGS[l], "view.norms", &doc);
        ck_assert_ptr_nonnull(strstr(h->body, w));
        json_decref(doc);
        resp_free(h);
        /* The certificate of player 1: the form's words, the player, every
         * opponent, the performance the JSON gives. */
        h = reqf(&D, NULL, "GET", NULL,
                 "/api/v1/tournaments/%lld/norms?format=html&lang=%s&player=%lld&title=IM",
                 (long long)tid, LANGS[l], (long long)pids[0]);
        ck_assert_msg(h->status == 200, "%s", h->body);
        const char *keys[] = {"print.certificate", "print.chief_arbiter", "print.average",
                              "print.performance", "print.signature"};
        for (int k = 0; k < 5; k++) {
            w = word(LANGS[l], keys[k], &doc);
            ck_assert_msg(strstr(h->body, w) != NULL, "%s: no '%s'", LANGS[l], w);
            json_decref(doc);
        }
        ck_assert_ptr_nonnull(strstr(h->body, "Player 1"));
        ck_assert_ptr_nonnull(strstr(h->body, "2900001"));
        ck_assert_ptr_nonnull(strstr(h->body, "Player 6"));
        ck_assert_ptr_nonnull(strstr(h->body, "Player 5"));
        ck_assert_ptr_nonnull(strstr(h->body, "Player 4"));
        json_t *im = json_array_get(json_object_get(p1, "norms"), 1);
        ck_assert_str_eq(json_string_value(json_object_get(im, "title")), "IM");
        char cell[64];
        snprintf(cell, sizeof cell, "<td>%lld</td>", (long long)jint(im, "performance"));
        ck_assert_msg(strstr(h->body, cell) != NULL, "no %s", cell);
        resp_free(h);
    }
    Resp *c =
        reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/norms?format=csv", (long long)tid);
    ck_assert_int_eq(c->status, 200);
    ck_assert_ptr_nonnull(strstr(c->body, "start_rank,title,name,federation,norm_title,"));
    resp_free(c);
    resp_free(r);
}
END_TEST

/* K comes from the FIDE register when it holds the player: 2901234 is
 * rated 1950 with K 40 in the January list (a new player), where the
 * regulations' default for a rating under 2300 without a birth date is
 * 20.  The command line reads the same register with --db. */
START_TEST(k_from_the_register)
{
    int64_t pids[6];
    int64_t tid = play_event("5400+30", pids);
    Resp *r = reqf(&D, &arb, "PATCH", "{\"fide_id\":\"2901234\"}",
                   "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)pids[1]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    ck_assert_int_eq(jint(json_array_get(r->json, 1), "k"), 20);
    resp_free(r);

    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' fide import '%s/fide/standard_jan25frl.txt' --db '%s' >/dev/null",
             testutil_bin(), getenv("ARBITER_TEST_DATA"), D.db);
    ck_assert_int_eq(system(cmd), 0);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    json_t *second = json_array_get(r->json, 1);
    ck_assert_int_eq(jint(second, "k"), 40);
    /* Player 1's FIDE ID is not in the list: the default stays. */
    ck_assert_int_eq(jint(json_array_get(r->json, 0), "k"), 20);
    char extra[600];
    snprintf(extra, sizeof extra, "--db '%s'", D.db);
    json_t *cli = cli_json_with(tid, "ratings", extra);
    assert_same_players(r->json, cli, pids);
    json_decref(cli);
    resp_free(r);
}
END_TEST

/* The tournament's norm settings reach the norm report: a national
 * championship waives the federation rules, as `arbiter norms --national`
 * does; bad values are refused. */
START_TEST(norm_settings)
{
    int64_t pids[6];
    int64_t tid = play_event("5400+30", pids);
    Resp *r = reqf(&D, &arb, "PATCH",
                   "{\"settings\":{\"national_championship\":true,"
                   "\"norm_min_games\":7}}",
                   "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/norms", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    json_t *cli = cli_json_with(tid, "norms", "--national --min-games 7");
    assert_same_players(json_object_get(r->json, "players"), json_object_get(cli, "players"), pids);
    json_t *plain = cli_json(tid, "norms");
    json_t *p1 = json_array_get(json_object_get(r->json, "players"), 0);
    json_t *c1 = json_array_get(json_object_get(plain, "players"), 0);
    ck_assert(json_is_true(
        json_object_get(json_array_get(json_object_get(p1, "norms"), 0), "federations_waived")));
    ck_assert(!json_is_true(
        json_object_get(json_array_get(json_object_get(c1, "norms"), 0), "federations_waived")));
    json_decref(plain);
    json_decref(cli);
    resp_free(r);
    const char *bad[] = {"{\"settings\":{\"national_championship\":1}}",
                         "{\"settings\":{\"norm_min_games\":100}}",
                         "{\"settings\":{\"norm_min_games\":\"9\"}}"};
    for (int i = 0; i < 3; i++) {
        r = reqf(&D, &arb, "PATCH", bad[i], "/api/v1/tournaments/%lld", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld %s", bad[i], r->status, r->body);
        resp_free(r);
    }
}
END_TEST

static void check_error(const char *path, long status)
{
    Resp *r = req(&D, NULL, "GET", path, NULL);
    ck_assert_msg(r->status == status, "%s: %ld %s", path, r->status, r->body);
    resp_free(r);
}

START_TEST(bad_requests)
{
    int64_t pids[6];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 6, pids, NULL);
    char p[160];
    check_error("/api/v1/tournaments/999999/ratings", 404);
    check_error("/api/v1/tournaments/999999/norms", 404);
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/ratings?format=xml", (long long)tid);
    check_error(p, 400);
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/norms?lang=de", (long long)tid);
    check_error(p, 400);
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/norms?format=csv&player=%lld", (long long)tid,
             (long long)pids[0]);
    check_error(p, 400);
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/norms?format=html&player=999999",
             (long long)tid);
    check_error(p, 404);
    /* Before any round: every player, no rated game. */
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 6);
    ck_assert_int_eq(jint(json_array_get(r->json, 0), "rated_games"), 0);
    resp_free(r);
    /* A tournament without players: empty answers. */
    r = req(&D, &arb, "POST", "/api/v1/tournaments",
            "{\"name\":\"Empty\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 201);
    int64_t empty = jint(r->json, "id");
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/ratings", (long long)empty);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 0);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/norms?format=html", (long long)empty);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-ratings");
    TCase *tc = tcase_create("ratings");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ratings_agree_with_the_command_line);
    tcase_add_test(tc, rapid_from_the_time_control);
    tcase_add_test(tc, norms_agree_and_print);
    tcase_add_test(tc, k_from_the_register);
    tcase_add_test(tc, norm_settings);
    tcase_add_test(tc, bad_requests);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
