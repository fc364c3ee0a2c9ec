/*
 * test_http_forbidden.c — forbidden pairs through a real daemon: the list
 * the arbiter keeps (GET/POST /forbidden, POST /forbidden/remove), the
 * Dutch engine pairing around a pair, the round check reporting one
 * (FORBIDDEN), and the rating report (TRF) carrying it.
 *
 * Four players rated 2000, 1990, 1980, 1970: round 1 of a Swiss pairs the
 * top half against the bottom half in order (C.04.3), 1-3 and 2-4; the
 * test confirms that on a scratch tournament first, so forbidding 1-3 is
 * what makes the engine pair differently.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static int64_t swiss(int64_t *p, Client *players)
{
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 4, p + 1, players);
    Resp *r = reqf(&D, &arb, "PATCH", "{\"system\":\"swiss\",\"rounds\":3}",
                   "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    return tid;
}

static void pair_next(int64_t tid)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_msg(r->status == 201, "pair: %ld %s", r->status, r->body);
    resp_free(r);
}

/* OPP[k] gets the round-1 opponent index of player k (1-based, 0 = none);
 * returns the number of boards. */
static int opponents(int64_t tid, const int64_t *p, int *opp)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    memset(opp, 0, 5 * sizeof *opp);
    json_t *games = json_object_get(r->json, "games");
    size_t i;
    json_t *v;
    json_array_foreach(games, i, v)
    {
        int w = 0, b = 0;
        for (int k = 1; k <= 4; k++) {
            w = p[k] == jint(v, "white_id") ? k : w;
            b = p[k] == jint(v, "black_id") ? k : b;
        }
        ck_assert_msg(w && b, "a board with a stranger");
        ck_assert_msg(!opp[w] && !opp[b], "a player on two boards");
        opp[w] = b;
        opp[b] = w;
    }
    int n = (int)json_array_size(games);
    resp_free(r);
    return n;
}

static Resp *forbid(const Client *c, int64_t tid, const char *path, const char *body)
{
    return reqf(&D, c, "POST", body, "/api/v1/tournaments/%lld/forbidden%s", (long long)tid, path);
}

static void expect(Resp *r, long status, const char *code)
{
    ck_assert_msg(r->status == status, "expected %ld, got %ld %s", status, r->status,
                  r->body ? r->body : "");
    if (code)
        ck_assert_str_eq(resp_code(r), code);
    resp_free(r);
}

static char *pair_body(int64_t a, int64_t b)
{
    static char body[96];
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld]}", (long long)a, (long long)b);
    return body;
}

/* The record of the report starting with CODE (at a line start), or NULL. */
static const char *record(const char *text, const char *code)
{
    size_t n = strlen(code);
    for (const char *l = text; l && *l; l = strpbrk(l, "\r\n")) {
        l += strspn(l, "\r\n");
        if (strncmp(l, code, n) == 0)
            return l;
    }
    return NULL;
}

START_TEST(engine_pairs_around_a_forbidden_pair)
{
    int64_t q[5], p[5];
    Client qc[4], pc[4];
    int opp[5];

    /* Without the constraint round 1 is 1-3, 2-4. */
    int64_t scratch = swiss(q, qc);
    pair_next(scratch);
    ck_assert_int_eq(opponents(scratch, q, opp), 2);
    ck_assert_int_eq(opp[1], 3);
    ck_assert_int_eq(opp[2], 4);

    int64_t tid = swiss(p, pc);
    /* Given in either order, stored smaller id first. */
    Resp *r = forbid(&arb, tid, "", pair_body(p[3], p[1]));
    ck_assert_msg(r->status == 201, "%ld %s", r->status, r->body);
    json_t *pl = json_object_get(r->json, "players");
    ck_assert_int_eq(json_integer_value(json_array_get(pl, 0)), p[1] < p[3] ? p[1] : p[3]);
    ck_assert_int_eq(json_integer_value(json_array_get(pl, 1)), p[1] < p[3] ? p[3] : p[1]);
    resp_free(r);

    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/forbidden", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 1);
    json_t *names = json_object_get(json_array_get(r->json, 0), "names");
    ck_assert_int_eq(json_array_size(names), 2);
    ck_assert(json_string_length(json_array_get(names, 0)) > 0);
    ck_assert(json_is_null(json_object_get(json_array_get(r->json, 0), "first_round")));
    resp_free(r);

    /* The rating report says it too: XXP (every round) with start ranks. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    const char *x = record(r->body, "XXP ");
    ck_assert_msg(x, "no XXP record in %s", r->body);
    int a = 0, b = 0;
    ck_assert_int_eq(sscanf(x + 4, "%d %d", &a, &b), 2);
    ck_assert_int_eq(a, 1);
    ck_assert_int_eq(b, 3);
    resp_free(r);

    /* The engine pairs everyone, but not 1 with 3. */
    pair_next(tid);
    ck_assert_int_eq(opponents(tid, p, opp), 2);
    for (int k = 1; k <= 4; k++)
        ck_assert_msg(opp[k] != 0, "player %d unpaired", k);
    ck_assert_int_ne(opp[1], 3);
    char codes[128];
    round_check_codes(&D, &arb, tid, 1, codes, sizeof codes);
    ck_assert_msg(!strstr(codes, "FORBIDDEN"), "codes: %s", codes);

    /* The arbiter puts 3 on 1's board: the check reports it. */
    char body[96];
    snprintf(body, sizeof body, "{\"first_id\":%lld,\"second_id\":%lld}", (long long)p[opp[1]],
             (long long)p[3]);
    r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/1/swap", (long long)tid);
    ck_assert_msg(r->status == 200, "swap: %ld %s", r->status, r->body);
    resp_free(r);
    ck_assert_int_eq(opponents(tid, p, opp), 2);
    ck_assert_int_eq(opp[1], 3);
    round_check_codes(&D, &arb, tid, 1, codes, sizeof codes);
    ck_assert_msg(strstr(codes, "FORBIDDEN"), "codes: %s", codes);

    /* Allowed again: the same round is clean. */
    expect(forbid(&arb, tid, "/remove", pair_body(p[1], p[3])), 200, NULL);
    round_check_codes(&D, &arb, tid, 1, codes, sizeof codes);
    ck_assert_msg(!strstr(codes, "FORBIDDEN"), "codes: %s", codes);
}
END_TEST

START_TEST(round_range_in_the_report)
{
    int64_t p[5];
    Client pc[4];
    int64_t tid = swiss(p, pc);
    Resp *r = forbid(&arb, tid, "", "{\"players\":[0,0],\"first_round\":2}");
    expect(r, 400, NULL);
    char body[128];
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld],\"first_round\":2,\"last_round\":3}",
             (long long)p[4], (long long)p[2]);
    expect(forbid(&arb, tid, "", body), 201, NULL);
    /* 260 carries the range; TRF16 too (bbpPairings reads both). */
    for (int f = 0; f < 2; f++) {
        r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf%s", (long long)tid,
                 f ? "?flavour=16" : "");
        ck_assert_int_eq(r->status, 200);
        const char *x = record(r->body, "260 ");
        ck_assert_msg(x, "no 260 record in %s", r->body);
        int fr = 0, lr = 0, a = 0, b = 0;
        ck_assert_int_eq(sscanf(x + 4, "%d %d %d %d", &fr, &lr, &a, &b), 4);
        ck_assert_int_eq(fr, 2);
        ck_assert_int_eq(lr, 3);
        ck_assert_int_eq(a, 2);
        ck_assert_int_eq(b, 4);
        ck_assert_ptr_null(record(r->body, "XXP"));
        resp_free(r);
    }
    /* Round 1 is outside the range: the engine's usual 1-3, 2-4. */
    pair_next(tid);
    int opp[5];
    opponents(tid, p, opp);
    ck_assert_int_eq(opp[2], 4);
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld],\"first_round\":3,\"last_round\":2}",
             (long long)p[1], (long long)p[2]);
    expect(forbid(&arb, tid, "", body), 400, "invalid_value");
}
END_TEST

START_TEST(bad_requests_and_roles)
{
    int64_t p[5], o[5];
    Client pc[4], oc[4];
    int64_t tid = swiss(p, pc);
    swiss(o, oc); /* a second tournament, for a player not in the first */

    expect(forbid(&arb, tid, "", "{\"players\":[1]}"), 400, "invalid_value");
    char body[128];
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld,%lld]}", (long long)p[1], (long long)p[2],
             (long long)p[3]);
    expect(forbid(&arb, tid, "", body), 400, "invalid_value");
    expect(forbid(&arb, tid, "", pair_body(p[2], p[2])), 400, "invalid_value");
    expect(forbid(&arb, tid, "", "{\"players\":[\"a\",2]}"), 400, "wrong_type");
    expect(forbid(&arb, tid, "", "{\"players\":5}"), 400, "wrong_type");
    expect(forbid(&arb, tid, "", "{}"), 400, "missing_field");
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld],\"colour\":1}", (long long)p[1],
             (long long)p[2]);
    expect(forbid(&arb, tid, "", body), 400, "unknown_field");
    /* a player of another tournament, and one of nowhere */
    expect(forbid(&arb, tid, "", pair_body(p[1], o[2])), 404, "not_found");
    expect(forbid(&arb, tid, "", pair_body(p[1], 999999)), 404, "not_found");
    expect(forbid(&arb, 999999, "", pair_body(p[1], p[2])), 404, "not_found");
    /* a pair once, whatever the order */
    expect(forbid(&arb, tid, "", pair_body(p[1], p[2])), 201, NULL);
    expect(forbid(&arb, tid, "", pair_body(p[2], p[1])), 409, "conflict");
    /* removing: the range may not come along; an unknown pair is 404 */
    snprintf(body, sizeof body, "{\"players\":[%lld,%lld],\"first_round\":1}", (long long)p[1],
             (long long)p[2]);
    expect(forbid(&arb, tid, "/remove", body), 400, "unknown_field");
    expect(forbid(&arb, tid, "/remove", pair_body(p[3], p[4])), 404, "not_found");

    /* Arbiter only: nothing listed to or changed by anybody else. */
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/forbidden", (long long)tid);
    expect(r, 401, NULL);
    r = reqf(&D, &pc[0], "GET", NULL, "/api/v1/tournaments/%lld/forbidden", (long long)tid);
    expect(r, 403, NULL);
    expect(forbid(NULL, tid, "", pair_body(p[3], p[4])), 401, NULL);
    expect(forbid(&pc[2], tid, "", pair_body(p[3], p[4])), 403, NULL);
    expect(forbid(NULL, tid, "/remove", pair_body(p[1], p[2])), 401, NULL);
    expect(forbid(&pc[0], tid, "/remove", pair_body(p[1], p[2])), 403, NULL);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/forbidden", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 1);
    resp_free(r);

    expect(forbid(&arb, tid, "/remove", pair_body(p[2], p[1])), 200, NULL);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/forbidden", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), 0);
    resp_free(r);
    expect(forbid(&arb, tid, "/remove", pair_body(p[2], p[1])), 404, "not_found");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http-forbidden");
    TCase *tc = tcase_create("forbidden");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, engine_pairs_around_a_forbidden_pair);
    tcase_add_test(tc, round_range_in_the_report);
    tcase_add_test(tc, bad_requests_and_roles);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
