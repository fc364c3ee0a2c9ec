/*
 * test_http_ratelimit.c — the per-address request rate limit as a client
 * sees it: a burst beyond the budget is answered 429 rate_limited with
 * Retry-After and a JSON error; after the wait the budget is back; reads
 * and writes have budgets of their own; another address is not affected;
 * X-Forwarded-For names the client only when the peer is a trusted proxy
 * (without --trusted-proxy a client cannot dodge the limit by sending it);
 * --rate-limit 0 turns the limit off; with no option at all the default
 * limit is on, and an open live stream counted once when it opened keeps
 * flowing after its address ran out of reads; bad options are refused.
 *
 * Every daemon here runs with a small limit (--rate-limit 2,4: writes 2/s
 * in bursts of 4, reads 10/s in bursts of 20) so a few dozen requests
 * prove it.  Timing: the number of answers before the first 429 is checked
 * against the budget plus what refills in the measured elapsed time, so a
 * slow machine cannot make the test fail.
 */
#include <check.h>
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "harness.h"

static Daemon D;

static void teardown(void)
{
    daemon_finish(&D);
}

static void start_limited(void)
{
    static const char *const args[] = {"--rate-limit", "2,4", "--trusted-proxy", "127.0.0.1", NULL};
    daemon_start_args(&D, 0, args);
}

static void start_untrusting(void)
{
    static const char *const args[] = {"--rate-limit", "2,4", NULL};
    daemon_start_args(&D, 0, args);
}

static void start_unlimited(void)
{
    static const char *const args[] = {"--rate-limit", "0", NULL};
    daemon_start_args(&D, 0, args);
}

/* A request from FROM (via X-Forwarded-For; NULL: none); returns it. */
static Resp *from(const char *addr, const char *method, const char *path, const char *body)
{
    char xff[80];
    snprintf(xff, sizeof xff, "X-Forwarded-For: %s", addr ? addr : "");
    const char *hs[] = {addr ? xff : NULL, NULL};
    return req_hdr(&D, method, path, body, hs);
}

/* The 429 answer as the API documents it. */
static void check_refusal(const Resp *r)
{
    ck_assert_int_eq(r->status, 429);
    ck_assert_str_eq(resp_code(r), "rate_limited");
    const char *msg =
        json_string_value(json_object_get(json_object_get(r->json, "error"), "message"));
    ck_assert_msg(msg && strstr(msg, "try again"), "message: %s", r->body);
    const char *ra = strcasestr(r->headers, "\nRetry-After: ");
    ck_assert_msg(ra != NULL, "429 without Retry-After: %s", r->headers);
    long secs = strtol(ra + 14, NULL, 10);
    ck_assert_msg(secs >= 1 && secs <= 2, "Retry-After %ld for a budget refilling at 2/s", secs);
    ck_assert_ptr_nonnull(strcasestr(r->headers, "Content-Type: application/json"));
}

/* Sends METHOD PATH from ADDR until the first 429 (at most LIMIT times);
 * returns how many were served before it, the refusal in *REFUSED (or
 * NULL) and the elapsed seconds in *SECS. */
static int until_refused(const char *addr, const char *method, const char *path, const char *body,
                         int limit, Resp **refused, double *secs)
{
    int64_t t0 = now_ms();
    int served = 0;
    *refused = NULL;
    for (int i = 0; i < limit; i++) {
        Resp *r = from(addr, method, path, body);
        if (r->status == 429) {
            *refused = r;
            break;
        }
        ck_assert_msg(r->status > 0 && r->status != 500, "%ld %s", r->status, r->body);
        served++;
        resp_free(r);
    }
    *secs = (double)(now_ms() - t0) / 1000;
    return served;
}

START_TEST(burst_beyond_budget_is_refused_and_refills)
{
    /* Reads: 20 at once, then 10 per second. */
    Resp *r;
    double secs;
    int served = until_refused("198.51.100.1", "GET", "/api/v1/health", NULL, 400, &r, &secs);
    ck_assert_msg(r != NULL, "400 reads in %.2f s and no 429", secs);
    ck_assert_msg(served >= 20, "only %d reads before the 429 (burst 20)", served);
    ck_assert_msg(served <= 20 + (int)(10 * secs) + 1, "%d reads in %.2f s", served, secs);
    check_refusal(r);
    resp_free(r);

    /* Writes have their own budget: a write from the same address is still
     * served (401: not signed in), four at once, then 2 per second. */
    const char *body = "{\"name\":\"X\",\"time_control\":\"60\"}";
    served = until_refused("198.51.100.1", "POST", "/api/v1/tournaments", body, 100, &r, &secs);
    ck_assert_msg(r != NULL, "100 writes in %.2f s and no 429", secs);
    ck_assert_msg(served >= 4, "only %d writes before the 429 (burst 4)", served);
    ck_assert_msg(served <= 4 + (int)(2 * secs) + 1, "%d writes in %.2f s", served, secs);
    check_refusal(r);
    resp_free(r);

    /* Another address has its whole budget. */
    for (int i = 0; i < 15; i++) {
        r = from("198.51.100.2", "GET", "/api/v1/health", NULL);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
    }
    r = from("2001:db8::2", "POST", "/api/v1/tournaments", body);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);

    /* After the wait the bucket has refilled: 1.1 s at 10/s is 11 reads. */
    usleep(1100 * 1000);
    for (int i = 0; i < 10; i++) {
        r = from("198.51.100.1", "GET", "/api/v1/health", NULL);
        ck_assert_msg(r->status == 200, "read %d after the wait: %ld", i, r->status);
        resp_free(r);
    }
    r = from("198.51.100.1", "POST", "/api/v1/tournaments", body);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
}
END_TEST

START_TEST(a_refused_body_is_not_read)
{
    /* Use up the write budget, then send a large body: the answer is the
     * 429, not 413 or a parse error, and the connection stays usable. */
    const char *body = "{\"name\":\"X\",\"time_control\":\"60\"}";
    Resp *r;
    double secs;
    until_refused("198.51.100.3", "POST", "/api/v1/tournaments", body, 100, &r, &secs);
    ck_assert_ptr_nonnull(r);
    resp_free(r);
    size_t n = 200 * 1024;
    char *big = malloc(n + 1);
    memset(big, 'x', n);
    big[n] = 0;
    r = from("198.51.100.3", "POST", "/api/v1/tournaments", big);
    free(big);
    check_refusal(r);
    resp_free(r);
    r = from("198.51.100.4", "GET", "/api/v1/health", NULL);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
}
END_TEST

START_TEST(forwarded_for_is_ignored_without_a_trusted_proxy)
{
    /* Each request claims another address; all come from 127.0.0.1, whose
     * budget they share. */
    int64_t t0 = now_ms();
    int served = 0;
    Resp *refused = NULL;
    for (int i = 0; i < 400 && !refused; i++) {
        char addr[40];
        snprintf(addr, sizeof addr, "203.0.113.%d", i % 250 + 1);
        Resp *r = from(addr, "GET", "/api/v1/health", NULL);
        if (r->status == 429)
            refused = r;
        else {
            ck_assert_int_eq(r->status, 200);
            served++;
            resp_free(r);
        }
    }
    double secs = (double)(now_ms() - t0) / 1000;
    ck_assert_msg(refused != NULL, "X-Forwarded-For dodged the limit: %d reads in %.2f s", served,
                  secs);
    ck_assert_msg(served <= 20 + (int)(10 * secs) + 1, "%d reads in %.2f s", served, secs);
    check_refusal(refused);
    resp_free(refused);
}
END_TEST

START_TEST(zero_turns_the_limit_off)
{
    const char *body = "{\"name\":\"X\",\"time_control\":\"60\"}";
    for (int i = 0; i < 300; i++) {
        Resp *r = from(NULL, "GET", "/api/v1/health", NULL);
        ck_assert_msg(r->status == 200, "read %d: %ld", i, r->status);
        resp_free(r);
    }
    for (int i = 0; i < 60; i++) {
        Resp *r = from(NULL, "POST", "/api/v1/tournaments", body);
        ck_assert_msg(r->status == 401, "write %d: %ld", i, r->status);
        resp_free(r);
    }
}
END_TEST

static Client W, B;
static int64_t gid;

/* The default limit (no option) and a game in progress, set up from
 * 127.0.0.1 well within its budget (ten changes). */
static void start_default_with_game(void)
{
    static const char *const none[] = {NULL};
    daemon_start_args(&D, 0, none);
    Client arb;
    login_arbiter(&D, &arb);
    Client pl[2];
    int64_t tid = harness_game_new(&D, &arb, "5400+30", NULL, pl, &gid);
    W = pl[0];
    B = pl[1];
    start_round_one(&D, &arb, pl, tid, gid);
}

START_TEST(a_stream_counts_once_at_connect)
{
    char path[128];
    snprintf(path, sizeof path, "/api/v1/games/%lld/stream", (long long)gid);
    HarnessStream rd;
    harness_stream_start(&rd, &D, NULL, path, 2500, 0);
    usleep(300 * 1000);
    /* 127.0.0.1 spends its reads (the default: 100/s, bursts of 200). */
    Resp *r;
    double secs;
    int served = until_refused(NULL, "GET", "/api/v1/health", NULL, 2000, &r, &secs);
    ck_assert_msg(r != NULL, "2000 reads in %.2f s and no 429 with the default limit", secs);
    ck_assert_msg(served <= 200 + (int)(100 * secs) + 1, "%d reads in %.2f s", served, secs);
    resp_free(r);
    /* Moves (changes have their own budget) still reach the open stream. */
    ck_assert_int_eq(play(&D, &W, gid, 0, "e4"), 200);
    ck_assert_int_eq(play(&D, &B, gid, 1, "c5"), 200);
    harness_stream_join(&rd);
    ck_assert_int_eq(rd.r->status, 200);
    ck_assert_ptr_nonnull(strstr(rd.r->body, "\"move\":\"e4\""));
    ck_assert_ptr_nonnull(strstr(rd.r->body, "\"move\":\"c5\""));
    resp_free(rd.r);
}
END_TEST

/* `arbiter serve ARGS...` on a fresh database; returns the exit status
 * (2 for bad usage) and its standard error in ERR. */
static int serve_status(const char *a1, const char *a2, char *err, size_t errlen)
{
    char dir[512], db[600], log[600];
    testutil_tmpdir_make(dir, sizeof dir, "rl");
    snprintf(db, sizeof db, "%s/a.db", dir);
    snprintf(log, sizeof log, "%s/err.txt", dir);
    const char *const argv[] = {
        testutil_bin(), "serve", "--listen", "127.0.0.1:1", "--db", db, a1, a2, NULL};
    int st = testutil_exec(argv, NULL, log);
    char *text = testutil_read(log, NULL);
    snprintf(err, errlen, "%s", text);
    free(text);
    testutil_tmpdir_remove(dir);
    return st;
}

START_TEST(bad_options_are_refused)
{
    char err[1024];
    const char *bad[][2] = {
        {"--rate-limit", "fast"},
        {"--rate-limit", "-1"},
        {"--rate-limit", "10,"},
        {"--rate-limit", "10,0"},
        {"--rate-limit", "10,2.5"},
        {"--read-rate-limit", "x"},
        {"--trusted-proxy", "nginx"},
        {"--trusted-proxy", "127.0.0.1,"},
        {"--trusted-proxy", "10.0.0.1:8080"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = serve_status(bad[i][0], bad[i][1], err, sizeof err);
        ck_assert_msg(st == 2, "%s %s: exit %d", bad[i][0], bad[i][1], st);
        ck_assert_msg(strstr(err, bad[i][0]) != NULL, "%s %s: %s", bad[i][0], bad[i][1], err);
    }
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("http-ratelimit");
    TCase *tc = tcase_create("limited");
    tcase_add_checked_fixture(tc, start_limited, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, burst_beyond_budget_is_refused_and_refills);
    tcase_add_test(tc, a_refused_body_is_not_read);
    suite_add_tcase(s, tc);
    tc = tcase_create("untrusting");
    tcase_add_checked_fixture(tc, start_untrusting, teardown);
    tcase_add_test(tc, forwarded_for_is_ignored_without_a_trusted_proxy);
    suite_add_tcase(s, tc);
    tc = tcase_create("unlimited");
    tcase_add_checked_fixture(tc, start_unlimited, teardown);
    tcase_add_test(tc, zero_turns_the_limit_off);
    suite_add_tcase(s, tc);
    tc = tcase_create("defaults");
    tcase_add_checked_fixture(tc, start_default_with_game, teardown);
    tcase_add_test(tc, a_stream_counts_once_at_connect);
    suite_add_tcase(s, tc);
    tc = tcase_create("options");
    tcase_add_test(tc, bad_options_are_refused);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
