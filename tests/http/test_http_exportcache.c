/*
 * test_http_exportcache.c — the kept answers of the heavy reads (exports)
 * on a real daemon: the second identical request is served from memory
 * ("X-Cache: hit") with the same body, every committed move or result
 * makes the next answer a fresh one, the public's and an arbiter's
 * answers are kept apart, another query string is another answer, and a
 * tournament with a public delay never serves the public a kept answer,
 * nor do the ratings (FIDE's register is loaded by another process).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static int hit(const Resp *r)
{
    return strcasestr(r->headers, "\nX-Cache: hit") != NULL;
}

/* GET PATH as C (NULL: the public); asserts 200 and whether it was a hit. */
static Resp *get(const Client *c, const char *path, int want_hit)
{
    Resp *r = req(&D, c, "GET", path, NULL);
    ck_assert_msg(r->status == 200, "%s: %ld %s", path, r->status, r->body);
    ck_assert_msg(hit(r) == want_hit, "%s: hit %d, wanted %d", path, hit(r), want_hit);
    return r;
}

/* Two games of round 1 (White pl[0], pl[1]; Black pl[2], pl[3]), started. */
static int64_t two_games(const char *settings, Client *pl, int64_t *gids)
{
    int64_t pids[4];
    int64_t tid = make_tournament(&D, &arb, "60", settings, 4, pids, pl);
    int64_t w[2] = {pids[0], pids[1]}, b[2] = {pids[2], pids[3]};
    ck_assert_int_eq(make_round(&D, &arb, tid, 2, w, b, gids), 1);
    harness_round_one_start(&D, &arb, pl, tid, gids, 2);
    return tid;
}

START_TEST(second_request_is_a_hit_and_writes_refresh_it)
{
    Client pl[4];
    int64_t gids[2];
    int64_t tid = two_games(NULL, pl, gids);
    char pgn[64], csv[96], html[96];
    snprintf(pgn, sizeof pgn, "/api/v1/tournaments/%lld/pgn", (long long)tid);
    snprintf(csv, sizeof csv, "/api/v1/tournaments/%lld/crosstable?format=csv", (long long)tid);
    snprintf(html, sizeof html, "/api/v1/tournaments/%lld/crosstable?format=html", (long long)tid);

    Resp *a = get(NULL, pgn, 0), *b = get(NULL, pgn, 1);
    ck_assert_uint_eq(a->len, b->len);
    ck_assert(memcmp(a->body, b->body, a->len) == 0);
    ck_assert_ptr_nonnull(strcasestr(b->headers, "\nContent-Disposition: "));
    ck_assert_ptr_nonnull(strcasestr(b->headers, "\nCache-Control: public"));
    resp_free(a);
    resp_free(b);

    /* A move: the next answer is rendered again and shows it. */
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    a = get(NULL, pgn, 0);
    ck_assert_ptr_nonnull(strstr(a->body, "1. e4"));
    resp_free(a);
    a = get(NULL, pgn, 1);
    ck_assert_ptr_nonnull(strstr(a->body, "1. e4"));
    resp_free(a);

    /* The arbiter's answers are kept apart from the public's. */
    a = get(&arb, pgn, 0);
    ck_assert_ptr_nonnull(strcasestr(a->headers, "\nCache-Control: private"));
    resp_free(a);
    a = get(&arb, pgn, 1);
    ck_assert_ptr_nonnull(strcasestr(a->headers, "\nCache-Control: private"));
    ck_assert_ptr_null(strcasestr(a->headers, "\nETag: "));
    resp_free(a);
    a = get(NULL, pgn, 1);
    ck_assert_ptr_null(strcasestr(a->headers, "private"));
    resp_free(a);

    /* Another query string is another answer. */
    a = get(NULL, csv, 0);
    resp_free(a);
    a = get(NULL, html, 0);
    ck_assert_ptr_nonnull(strstr(a->body, "<html"));
    resp_free(a);
    a = get(NULL, csv, 1);
    ck_assert_ptr_null(strstr(a->body, "<html"));
    resp_free(a);

    /* A result changes the crosstable at once. */
    Resp *before = get(NULL, csv, 1);
    Resp *res = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0}",
                     "/api/v1/games/%lld/arbiter/result", (long long)gids[1]);
    ck_assert_msg(res->status == 200, "%s", res->body);
    resp_free(res);
    Resp *after = get(NULL, csv, 0);
    ck_assert(after->len != before->len || memcmp(after->body, before->body, after->len) != 0);
    resp_free(before);
    resp_free(after);

    /* The ratings read FIDE's register, which another process may load. */
    char ratings[64];
    snprintf(ratings, sizeof ratings, "/api/v1/tournaments/%lld/ratings", (long long)tid);
    for (int i = 0; i < 2; i++) {
        a = get(NULL, ratings, 0);
        resp_free(a);
    }

    /* A conditional request is left to the route (304 without a body). */
    a = get(NULL, pgn, 0);
    char etag[80] = "";
    const char *e = strcasestr(a->headers, "\nETag: ");
    ck_assert_ptr_nonnull(e);
    e += 7;
    snprintf(etag, sizeof etag, "If-None-Match: %.*s", (int)strcspn(e, "\r\n"), e);
    resp_free(a);
    const char *const hdrs[] = {etag, NULL};
    a = req_hdr(&D, "GET", pgn, NULL, hdrs);
    ck_assert_int_eq(a->status, 304);
    resp_free(a);
}
END_TEST

START_TEST(public_delay_is_never_served_from_memory)
{
    Client pl[4];
    int64_t gids[2];
    int64_t tid = two_games("{\"public_delay\":30}", pl, gids);
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    char pgn[64];
    snprintf(pgn, sizeof pgn, "/api/v1/tournaments/%lld/pgn", (long long)tid);
    for (int i = 0; i < 2; i++) {
        Resp *a = get(NULL, pgn, 0);
        ck_assert_ptr_null(strstr(a->body, "1. e4"));
        resp_free(a);
    }
    /* The arbiter sees the game live, kept or not. */
    Resp *a = get(&arb, pgn, 0);
    ck_assert_ptr_nonnull(strstr(a->body, "1. e4"));
    resp_free(a);
    a = get(&arb, pgn, 1);
    ck_assert_ptr_nonnull(strstr(a->body, "1. e4"));
    resp_free(a);
    /* A player is never served a kept answer. */
    a = get(&pl[1], pgn, 0);
    resp_free(a);
    a = get(&pl[1], pgn, 0);
    resp_free(a);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-exportcache");
    TCase *tc = tcase_create("exportcache");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, second_request_is_a_hit_and_writes_refresh_it);
    tcase_add_test(tc, public_delay_is_never_served_from_memory);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
