/*
 * test_http_pairing_edit.c — arbiter edits of a proposed Swiss round and
 * the criteria report (GET /rounds/{rn}/check) through a real daemon.
 *
 * Seven players rated 2000, 1990, ... are paired by the Dutch engine; the
 * edits then make a rematch (C1), give a player the colour his absolute
 * preference forbids (C3), and hand out a second pairing-allocated bye
 * (PAB); each time the report must list exactly that absolute criterion,
 * and nothing absolute once the edit is undone.  What the engine pairs is
 * the Handbook's: round 1 top half against bottom half with the bye to the
 * lowest (C.04.3), so the histories below follow from the rules.
 */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static Resp *check_round(const Client *c, int64_t tid, int64_t rn)
{
    return reqf(&D, c, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld/check", (long long)tid,
                (long long)rn);
}

/* The absolute codes of the report, sorted and space-separated, e.g. "C1". */
static void absolute_codes(int64_t tid, int64_t rn, char *out, size_t cap, int *differs)
{
    Resp *r = check_round(&arb, tid, rn);
    ck_assert_msg(r->status == 200, "check: %ld %s", r->status, r->body);
    json_t *v = json_object_get(r->json, "violations");
    char codes[16][16];
    int n = 0;
    size_t i;
    json_t *it;
    json_array_foreach(v, i, it)
    {
        if (strcmp(json_string_value(json_object_get(it, "kind")), "absolute") == 0 && n < 16)
            snprintf(codes[n++], sizeof codes[0], "%s",
                     json_string_value(json_object_get(it, "code")));
        ck_assert(json_string_value(json_object_get(it, "message"))[0]);
        /* quality items past C5 name their bracket, nothing else does */
        const char *code = json_string_value(json_object_get(it, "code"));
        bool bracketed = strcmp(json_string_value(json_object_get(it, "kind")), "quality") == 0 &&
                         strcmp(code, "C5") != 0;
        json_t *br = json_object_get(it, "bracket");
        ck_assert_msg(bracketed ? json_is_string(br) : json_is_null(br), "%s: bracket", code);
    }
    qsort(codes, (size_t)n, sizeof codes[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int k = 0; k < n; k++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", k ? " " : "", codes[k]);
    if (differs)
        *differs = json_is_true(json_object_get(r->json, "engine_differs"));
    resp_free(r);
}

/* The quality codes of the report in its order, each with its bracket:
 * "C12@1 C13@1". */
static void quality_codes(int64_t tid, int64_t rn, char *out, size_t cap)
{
    Resp *r = check_round(&arb, tid, rn);
    ck_assert_msg(r->status == 200, "check: %ld %s", r->status, r->body);
    size_t i;
    json_t *it;
    out[0] = 0;
    json_array_foreach(json_object_get(r->json, "violations"), i, it)
    {
        if (strcmp(json_string_value(json_object_get(it, "kind")), "quality") != 0)
            continue;
        const char *br = json_string_value(json_object_get(it, "bracket"));
        snprintf(out + strlen(out), cap - strlen(out), "%s%s@%s", out[0] ? " " : "",
                 json_string_value(json_object_get(it, "code")), br ? br : "-");
    }
    resp_free(r);
}

static void expect_codes(int64_t tid, int64_t rn, const char *want, int want_differs)
{
    char got[256];
    int differs = 0;
    absolute_codes(tid, rn, got, sizeof got, &differs);
    ck_assert_msg(strcmp(got, want) == 0, "round %lld: absolute codes '%s', expected '%s'",
                  (long long)rn, got, want);
    if (want_differs >= 0)
        ck_assert_int_eq(differs, want_differs);
}

static Resp *swap(int64_t tid, int64_t rn, int64_t a, int64_t b)
{
    char body[96];
    snprintf(body, sizeof body, "{\"first_id\":%lld,\"second_id\":%lld}", (long long)a,
             (long long)b);
    return reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/%lld/swap", (long long)tid,
                (long long)rn);
}

static void swap_ok(int64_t tid, int64_t rn, int64_t a, int64_t b)
{
    Resp *r = swap(tid, rn, a, b);
    ck_assert_msg(r->status == 200, "swap: %ld %s", r->status, r->body);
    resp_free(r);
}

static Resp *bye(int64_t tid, int64_t rn, int64_t pid, const char *kind)
{
    char body[96];
    snprintf(body, sizeof body, "{\"player_id\":%lld,\"kind\":\"%s\"}", (long long)pid, kind);
    return reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/%lld/byes", (long long)tid,
                (long long)rn);
}

/* The round's boards as "w-b" by player index (1-based), and the PAB. */
static void round_text(int64_t tid, int64_t rn, const int64_t *pids, int n, char *out, size_t cap)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld/check",
                   (long long)tid, (long long)rn);
    Resp *g = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld", (long long)tid,
                   (long long)rn);
    out[0] = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(g->json, "games"), i, v)
    {
        int w = 0, b = 0;
        for (int k = 0; k < n; k++) {
            w = pids[k] == jint(v, "white_id") ? k + 1 : w;
            b = pids[k] == jint(v, "black_id") ? k + 1 : b;
        }
        snprintf(out + strlen(out), cap - strlen(out), "%d-%d ", w, b);
    }
    json_array_foreach(json_object_get(r->json, "byes"), i,
                       v) for (int k = 0; k < n; k++) if (pids[k] == jint(v, "player_id"))
        snprintf(out + strlen(out), cap - strlen(out), "bye%d ", k + 1);
    resp_free(r);
    resp_free(g);
}

static void pair_next(int64_t tid)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_msg(r->status == 201, "pair: %ld %s", r->status, r->body);
    resp_free(r);
}

START_TEST(edits_and_their_report)
{
    int64_t p[8];
    Client players[7];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 7, p + 1, players);
    Resp *r = reqf(&D, &arb, "PATCH", "{\"system\":\"swiss\",\"rounds\":5}",
                   "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    char text[256];

    /* Round 1 (C.04.3): 1-4 5-2 3-6, the bye to 7; nothing to report. */
    pair_next(tid);
    round_text(tid, 1, p + 1, 7, text, sizeof text);
    ck_assert_str_eq(text, "1-4 5-2 3-6 bye7 ");
    expect_codes(tid, 1, "", 0);
    finish_round(&D, &arb, tid, 1, "101"); /* 1, 2 and 3 win */

    /* Round 2: 1 2 3 7 have a point, 4 5 6 none; 1-3 / 2-7 would leave 1 or
     * 3 without the colour both prefer (C12), so 7-1 2-3. */
    pair_next(tid);
    round_text(tid, 2, p + 1, 7, text, sizeof text);
    ck_assert_str_eq(text, "7-1 2-3 4-5 bye6 ");
    expect_codes(tid, 2, "", 0);

    /* A rematch: 7 and 4 change places, so 4 meets 1 again (C1). */
    swap_ok(tid, 2, p[7], p[4]);
    round_text(tid, 2, p + 1, 7, text, sizeof text);
    ck_assert_str_eq(text, "4-1 2-3 7-5 bye6 ");
    expect_codes(tid, 2, "C1", 1);
    /* the report names the players and the board */
    r = check_round(&arb, tid, 2);
    json_t *c1 = json_array_get(json_object_get(r->json, "violations"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(c1, "code")), "C1");
    ck_assert_int_eq(jint(c1, "board"), 1);
    ck_assert_int_eq(json_array_size(json_object_get(c1, "players")), 2);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "engine")), 4);
    resp_free(r);
    swap_ok(tid, 2, p[7], p[4]); /* undone: the engine's pairing again */
    expect_codes(tid, 2, "", 0);
    /* Colours of 2-3 reversed: legal (nobody has an absolute preference
     * yet) but not the engine's pairing. */
    swap_ok(tid, 2, p[2], p[3]);
    round_text(tid, 2, p + 1, 7, text, sizeof text);
    ck_assert_str_eq(text, "7-1 3-2 4-5 bye6 ");
    expect_codes(tid, 2, "", 1);
    /* ... and 2 (Black in round 1) and 3 (White) both miss the colour they
     * prefer, strongly after one game: in the 1-point bracket only. */
    char quality[128];
    quality_codes(tid, 2, quality, sizeof quality);
    ck_assert_str_eq(quality, "C12@1 C13@1");
    finish_round(&D, &arb, tid, 2, "111"); /* 7, 3, 4 win */

    /* Round 3: 3 had White twice, so must have Black (absolute). */
    pair_next(tid);
    expect_codes(tid, 3, "", 0);
    Resp *g = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/3", (long long)tid);
    int64_t opp = 0, gid = 0, x = 0, mate = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(g->json, "games"), i, v)
    {
        int64_t w = jint(v, "white_id"), b = jint(v, "black_id");
        if (b == p[3]) {
            opp = w;
            gid = jint(v, "id");
        }
        /* a board of two players who never had a bye */
        if (w != p[5] && w != p[6] && w != p[7] && b != p[5] && b != p[6] && b != p[7]) {
            x = w;
            mate = b;
        }
    }
    resp_free(g);
    ck_assert_msg(opp != 0, "3 should have Black in round 3");
    /* Colours of 3's board swapped: White a third time (C3). */
    swap_ok(tid, 3, p[3], opp);
    expect_codes(tid, 3, "C3", 1);
    /* PATCH /games swaps them back: clean again */
    char body[96];
    snprintf(body, sizeof body, "{\"white_id\":%lld,\"black_id\":%lld}", (long long)opp,
             (long long)p[3]);
    r = reqf(&D, &arb, "PATCH", body, "/api/v1/games/%lld", (long long)gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    expect_codes(tid, 3, "", 0);

    /* A second bye: X (no bye yet) leaves his board for a PAB; his
     * opponent is then unpaired; given a PAB too, three PABs. */
    ck_assert_msg(x != 0, "round 3 should have a board without a former bye");
    r = bye(tid, 3, x, "pab");
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 2);
    resp_free(r);
    expect_codes(tid, 3, "PAB UNPAIRED", 1);
    r = bye(tid, 3, mate, "pab");
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    expect_codes(tid, 3, "PAB", 1);
    /* a third player who had a bye already: C2 as well */
    r = bye(tid, 3, p[7], "pab");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    expect_codes(tid, 3, "C2 PAB UNPAIRED", 1);
    r = bye(tid, 3, p[7], "none");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* back to the engine's boards: X and his opponent, 7 and 3, paired by
     * hand (7 has White, 3 Black as the engine gave them) */
    r = bye(tid, 3, x, "none");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = bye(tid, 3, mate, "none");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    snprintf(body, sizeof body, "{\"white_id\":%lld,\"black_id\":%lld}", (long long)x,
             (long long)mate);
    r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/3/games", (long long)tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    expect_codes(tid, 3, "UNPAIRED UNPAIRED", 1);
    snprintf(body, sizeof body, "{\"white_id\":%lld,\"black_id\":%lld}", (long long)p[7],
             (long long)p[3]);
    r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/3/games", (long long)tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    expect_codes(tid, 3, "", 0);

    /* Edits of a started round: 409 with a JSON error. */
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/3/start", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = swap(tid, 3, p[1], p[2]);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "illegal_state");
    resp_free(r);
    r = bye(tid, 3, p[2], "pab");
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "illegal_state");
    resp_free(r);
    r = bye(tid, 2, p[2], "none");
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
    /* a past round can still be checked */
    expect_codes(tid, 2, "", -1);

    /* Only the arbiter: 401 without a session, 403 for a player. */
    r = check_round(NULL, tid, 3);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = check_round(&players[0], tid, 3);
    ck_assert_int_eq(r->status, 403);
    resp_free(r);
    r = reqf(&D, &players[0], "POST", "{\"first_id\":1,\"second_id\":2}",
             "/api/v1/tournaments/%lld/rounds/3/swap", (long long)tid);
    ck_assert_int_eq(r->status, 403);
    resp_free(r);
    /* unknown round and player */
    r = check_round(&arb, tid, 9);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http_pairing_edit");
    TCase *tc = tcase_create("edit");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, edits_and_their_report);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
