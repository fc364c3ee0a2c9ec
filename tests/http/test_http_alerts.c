/*
 * test_http_alerts.c — the arbiter's alerts through the API of a real
 * daemon: beside its English message each alert carries its detail as a
 * code and parameters (db/alert_detail.h), which the desk writes in its
 * reader's language.  Checked for an illegal move (the count, the penalty
 * and the piece that must move, 4.3 and 7.5), a threefold claim with an
 * intended move that is played (9.2, 9.5.3), a Guidelines III claim that
 * waits for the arbiter, a call with the player's words, a flag fallen
 * (6.9) and a result to confirm; the live stream carries the same detail
 * as the list.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

typedef struct Game {
    int64_t tid, gid;
    Client pl[2];
} Game;

static Game game(const char *tc, const char *settings)
{
    Game g;
    g.tid = harness_game_new(&D, &arb, tc, settings, g.pl, &g.gid);
    start_round_one(&D, &arb, g.pl, g.tid, g.gid);
    return g;
}

/* The newest alert of KIND in G's tournament (a new reference), asserted
 * present. */
static json_t *newest(const Game *g, const char *kind)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)g->tid);
    ck_assert_int_eq(r->status, 200);
    json_t *found = NULL;
    size_t i;
    json_t *a;
    json_array_foreach(
        r->json, i, a) if (!strcmp(json_string_value(json_object_get(a, "kind")), kind)) found = a;
    ck_assert_msg(found != NULL, "no %s alert in %s", kind, r->body);
    json_incref(found);
    resp_free(r);
    return found;
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "(none)";
}

/* Asserts the detail of alert A has the string members of EXPECT ("k=v"
 * pairs, NULL-terminated) and an English message beside it. */
static void detail_has(json_t *a, const char *const *expect)
{
    json_t *d = json_object_get(a, "detail");
    ck_assert_msg(json_is_object(d), "no detail: %s", str(a, "message"));
    ck_assert_ptr_nonnull(json_string_value(json_object_get(a, "message")));
    for (int i = 0; expect[i]; i++) {
        char key[32];
        const char *eq = strchr(expect[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - expect[i]), expect[i]);
        ck_assert_msg(!strcmp(str(d, key), eq + 1), "%s: %s, not %s", key, str(d, key), eq + 1);
    }
}

START_TEST(illegal_move)
{
    Game g = game("5400+30", NULL);
    /* Nf3 then Nf6; White's knight tries f3 to f5: it must move (4.3). */
    ck_assert_int_eq(play(&D, &g.pl[0], g.gid, 0, "Nf3"), 200);
    ck_assert_int_eq(play(&D, &g.pl[1], g.gid, 1, "Nf6"), 200);
    ck_assert_int_eq(play(&D, &g.pl[0], g.gid, 2, "f3f5"), 200);
    json_t *a = newest(&g, "illegal");
    static const char *const want[] = {
        "code=illegal_move", "article=7.5.1", "side=white", "move=f3f5",
        "must=move",         "piece=N",       "square=f3",  NULL};
    detail_has(a, want);
    json_t *d = json_object_get(a, "detail");
    ck_assert_int_eq(jint(d, "count"), 1);
    ck_assert_int_eq(jint(d, "limit"), 3);
    ck_assert_int_eq(jint(d, "penalty_s"), 120);
    json_decref(a);
    /* The third loses (7.5.5): no penalty, no piece to move. */
    ck_assert_int_eq(play(&D, &g.pl[0], g.gid, 2, "f3f4"), 200);
    ck_assert_int_eq(play(&D, &g.pl[0], g.gid, 2, "f3f6"), 200);
    a = newest(&g, "illegal");
    static const char *const lost[] = {"code=illegal_lost", "article=7.5.5", "side=white", NULL};
    detail_has(a, lost);
    d = json_object_get(a, "detail");
    ck_assert_int_eq(jint(d, "count"), 3);
    ck_assert_ptr_null(json_object_get(d, "piece"));
    ck_assert_ptr_null(json_object_get(d, "penalty_s"));
    json_decref(a);
    a = newest(&g, "result");
    static const char *const res[] = {"code=result", "result=0-1", "end=illegal_moves", NULL};
    detail_has(a, res);
    json_decref(a);
}
END_TEST

START_TEST(claims)
{
    /* 9.2 with an intended move that does not repeat: incorrect, played,
     * the opponent gets the penalty (9.5.3). */
    Game g = game("5400+30", NULL);
    ck_assert_int_eq(play(&D, &g.pl[0], g.gid, 0, "e4"), 200);
    Resp *r = reqf(&D, &g.pl[1], "POST", "{\"ply\":1,\"claim\":\"threefold\",\"move\":\"e5\"}",
                   "/api/v1/games/%lld/claim", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    json_t *a = newest(&g, "claim");
    static const char *const played[] = {"code=claim_incorrect_played",
                                         "claim=threefold",
                                         "article=9.2",
                                         "side=black",
                                         "move=e5",
                                         NULL};
    detail_has(a, played);
    ck_assert_int_eq(jint(json_object_get(a, "detail"), "penalty_s"), 120);
    json_decref(a);
    /* A call with the player's words. */
    r = reqf(&D, &g.pl[0], "POST", "{\"note\":\"noise\"}", "/api/v1/games/%lld/call",
             (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    a = newest(&g, "call");
    static const char *const call[] = {"code=call_note", "side=white", "note=noise", NULL};
    detail_has(a, call);
    json_decref(a);

    /* III.5 under two minutes: the claim waits for the arbiter, on the
     * live stream as in the list. */
    Game h = game("900", "{\"guidelines_iii\":true}");
    r = reqf(&D, &arb, "POST", "{\"side\":\"white\",\"set_ms\":60000}",
             "/api/v1/games/%lld/arbiter/adjust", (long long)h.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, &h.pl[0], "POST", "{\"ply\":0,\"claim\":\"no_effort\"}",
             "/api/v1/games/%lld/claim", (long long)h.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    a = newest(&h, "claim");
    static const char *const waiting[] = {"code=claim_waiting", "claim=no_effort", "article=III.5",
                                          "side=white", NULL};
    detail_has(a, waiting);
    ck_assert(!json_is_true(json_object_get(a, "resolved")));
    json_decref(a);
    char path[96];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/alerts/stream", (long long)h.tid);
    r = stream_read(&D, &arb, path, 1500, 0);
    ck_assert_ptr_nonnull(strstr(r->body, "\"code\":\"claim_waiting\""));
    resp_free(r);
}
END_TEST

/* The server's flag (6.9): White never moves in a game of two seconds. */
START_TEST(flag_fell)
{
    Game g = game("2", NULL);
    int64_t until = now_ms() + 10000;
    json_t *a = NULL;
    while (!a && now_ms() < until) {
        usleep(200000);
        Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)g.tid);
        size_t i;
        json_t *x;
        json_array_foreach(r->json, i, x) if (!strcmp(str(x, "kind"), "flag")) a = json_incref(x);
        resp_free(r);
    }
    ck_assert_msg(a != NULL, "no flag alert");
    static const char *const want[] = {"code=flag_lost", "article=6.9", "side=white", NULL};
    detail_has(a, want);
    json_decref(a);
    a = newest(&g, "result");
    static const char *const res[] = {"code=result", "result=0-1", "end=time", NULL};
    detail_has(a, res);
    json_decref(a);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-alerts");
    TCase *tc = tcase_create("alerts");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, illegal_move);
    tcase_add_test(tc, claims);
    tcase_add_test(tc, flag_fell);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
