/*
 * test_http_daemon.c — the daemon as an operator meets it: `arbiter user
 * add` makes an arbiter login (before the first start, instead of the
 * printed one, and while the server runs); standard error carries one line
 * per request and one per game event; the arbiter's alert stream resumes
 * with Last-Event-ID without gaps or repeats, like the game and tournament
 * streams.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static Daemon D;

/* Runs `arbiter user add NAME --db DB` with PASSWORD in ARBITER_PASSWORD;
 * returns the exit status. */
static int user_add(const char *db, const char *name, const char *password)
{
    char env[200];
    snprintf(env, sizeof env, "ARBITER_PASSWORD=%s", password);
    const char *const argv[] = {testutil_bin(), "user", "add", name, "--db", db, NULL};
    const char *const envs[] = {env, NULL};
    return testutil_exec(argv, envs, NULL);
}

static long login_as(const char *name, const char *password, Resp **keep)
{
    char body[200];
    snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", name, password);
    Resp *r = req(&D, NULL, "POST", "/api/v1/auth/login", body);
    long st = r->status;
    if (keep)
        *keep = r;
    else
        resp_free(r);
    return st;
}

static int count_lines_with(const char *text, const char *prefix, const char *part)
{
    int n = 0;
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (strncmp(line, prefix, strlen(prefix)) == 0 && strstr(line, part))
            n++;
        p = e ? e + 1 : NULL;
    }
    return n;
}

START_TEST(user_add_before_first_start_and_while_running)
{
    static const char *const args[] = {"--rate-limit", "0", NULL};
    harness_daemon_prepare(&D);
    /* Before the first start: the login it makes replaces the printed one. */
    ck_assert_int_eq(user_add(D.db, "judge", "long enough secret"), 0);
    ck_assert_int_eq(user_add(D.db, "judge", "another secret"), 1);
    ck_assert_int_eq(user_add(D.db, "shorty", "short"), 2);
    daemon_start_args(&D, 1, args);
    char *out = harness_daemon_file(&D, "stdout.txt");
    ck_assert_msg(strstr(out, "password") == NULL, "a password was printed: %s", out);
    free(out);
    ck_assert_int_eq(login_as("judge", "long enough secret", NULL), 200);
    ck_assert_int_eq(login_as("judge", "another secret", NULL), 401);
    ck_assert_int_eq(login_as("shorty", "short", NULL), 401);
    /* While the server runs: the new login works at once, and can act. */
    ck_assert_int_eq(user_add(D.db, "deputy", "deputy's secret"), 0);
    Resp *r;
    ck_assert_int_eq(login_as("deputy", "deputy's secret", &r), 200);
    Client c = {0};
    const char *sc = strcasestr(r->headers, "Set-Cookie: ");
    ck_assert_ptr_nonnull(sc);
    sscanf(sc + 12, "%199[^;\r\n]", c.cookie);
    snprintf(c.csrf, sizeof c.csrf, "%s",
             json_string_value(json_object_get(r->json, "csrf_token")));
    /* The arbiter's session cookie is HttpOnly and SameSite=Strict too. */
    ck_assert_ptr_nonnull(strcasestr(r->headers, "HttpOnly"));
    ck_assert_ptr_nonnull(strcasestr(r->headers, "SameSite=Strict"));
    resp_free(r);
    r = req(&D, &c, "POST", "/api/v1/tournaments", "{\"name\":\"Open\",\"time_control\":\"60\"}");
    ck_assert_msg(r->status == 201, "%ld %s", r->status, r->body);
    resp_free(r);
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    daemon_cleanup(&D);
}
END_TEST

/* A fresh daemon with the arbiter signed in, and one game of round 1
 * started between PL[0] (White) and PL[1]. */
static void running_game(Client *arb, Client *pl, int64_t *tid, int64_t *gid)
{
    daemon_start_signed_in(&D, arb);
    *tid = harness_game_new(&D, arb, "5400+30", NULL, pl, gid);
    start_round_one(&D, arb, pl, *tid, *gid);
}

START_TEST(one_log_line_per_request_and_game_event)
{
    Client arb, pl[2];
    int64_t tid, gid;
    running_game(&arb, pl, &tid, &gid);
    Resp *r;
    ck_assert_int_eq(play(&D, &pl[0], gid, 0, "Nf3"), 200);
    ck_assert_int_eq(play(&D, &pl[1], gid, 1, "d5"), 200);
    /* Three reads of the same game, and a refused move. */
    char gpath[64];
    snprintf(gpath, sizeof gpath, "/api/v1/games/%lld", (long long)gid);
    for (int i = 0; i < 3; i++) {
        r = req(&D, NULL, "GET", gpath, NULL);
        resp_free(r);
    }
    ck_assert_int_eq(play(&D, &pl[1], gid, 2, "e5"), 409);
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    char *log = harness_daemon_file(&D, "stderr.txt");
    char want[128];
    snprintf(want, sizeof want, " %s ", gpath);
    ck_assert_int_eq(count_lines_with(log, "http GET", want), 3);
    snprintf(want, sizeof want, " %s/move 200 ", gpath);
    ck_assert_int_eq(count_lines_with(log, "http POST", want), 2);
    snprintf(want, sizeof want, " %s/move 409 ", gpath);
    ck_assert_int_eq(count_lines_with(log, "http POST", want), 1);
    /* Per game event: the two check-ins, the start and the two moves. */
    char gprefix[32];
    snprintf(gprefix, sizeof gprefix, "game %lld event ", (long long)gid);
    ck_assert_int_eq(count_lines_with(log, gprefix, " checkin "), 2);
    ck_assert_int_eq(count_lines_with(log, gprefix, " start "), 1);
    ck_assert_int_eq(count_lines_with(log, gprefix, " Nf3"), 1);
    ck_assert_int_eq(count_lines_with(log, gprefix, " d5"), 1);
    ck_assert_int_eq(count_lines_with(log, gprefix, " e5"), 0);
    ck_assert_int_eq(count_lines_with(log, gprefix, ""), 5);
    free(log);
    daemon_cleanup(&D);
}
END_TEST

/* The ids of the events named EVENT in an SSE body, in order. */
static int ids_of(const char *body, const char *event, long long *ids, int max)
{
    int n = 0;
    char want[64];
    snprintf(want, sizeof want, "event: %s\n", event);
    for (const char *p = body; p && (p = strstr(p, "id: ")) && n < max; p += 4)
        if ((p == body || p[-1] == '\n') && strncmp(strchr(p, '\n') + 1, want, strlen(want)) == 0)
            ids[n++] = atoll(p + 4);
    return n;
}

static void call_arbiter(const Client *pl, const Client *arb, int64_t gid, const char *note)
{
    char body[128];
    snprintf(body, sizeof body, "{\"note\":\"%s\"}", note);
    Resp *r = reqf(&D, pl, "POST", body, "/api/v1/games/%lld/call", (long long)gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, arb, "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
}

START_TEST(alert_stream_resumes_without_gaps)
{
    Client arb, pl[2];
    int64_t tid, gid;
    running_game(&arb, pl, &tid, &gid);
    Resp *r;
    char path[128];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/alerts/stream", (long long)tid);
    /* Live: the arbiter's feed sees the first call as it happens. */
    HarnessStream rd;
    harness_stream_start(&rd, &D, &arb, path, 1500, 0);
    usleep(400000);
    call_arbiter(&pl[0], &arb, gid, "first");
    harness_stream_join(&rd);
    ck_assert_int_eq(rd.r->status, 200);
    long long ids[16];
    ck_assert_int_eq(ids_of(rd.r->body, "alert", ids, 16), 1);
    ck_assert_ptr_nonnull(strstr(rd.r->body, "first"));
    long long seen = ids[0];
    resp_free(rd.r);
    /* Away: two more calls. */
    call_arbiter(&pl[1], &arb, gid, "second");
    call_arbiter(&pl[0], &arb, gid, "third");
    /* Back with Last-Event-ID: exactly those two, in order, then a live one. */
    HarnessStream again;
    harness_stream_start(&again, &D, &arb, path, 1500, seen);
    usleep(400000);
    call_arbiter(&pl[1], &arb, gid, "fourth");
    harness_stream_join(&again);
    ck_assert_int_eq(again.r->status, 200);
    int n = ids_of(again.r->body, "alert", ids, 16);
    ck_assert_msg(n == 3, "%d alerts after %lld: %s", n, seen, again.r->body);
    for (int i = 0; i < n; i++)
        ck_assert_int_gt(ids[i], i ? ids[i - 1] : seen);
    const char *a = strstr(again.r->body, "second"), *b = strstr(again.r->body, "third"),
               *c = strstr(again.r->body, "fourth");
    ck_assert(a && b && c && a < b && b < c);
    ck_assert_ptr_null(strstr(again.r->body, "first"));
    resp_free(again.r);
    /* Only the arbiter may listen. */
    r = stream_read(&D, &pl[0], path, 300, 0);
    ck_assert_int_eq(r->status, 403);
    resp_free(r);
    r = stream_read(&D, NULL, path, 300, 0);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    daemon_finish(&D);
}
END_TEST

START_TEST(tournament_stream_resumes_then_goes_live)
{
    Client arb;
    daemon_start_signed_in(&D, &arb);
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 4, pids, pl);
    int64_t w[2] = {pids[0], pids[1]}, b[2] = {pids[2], pids[3]};
    make_round(&D, &arb, tid, 2, w, b, gids);
    harness_round_one_start(&D, &arb, pl, tid, gids, 2);
    Resp *r;
    char path[128];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/stream", (long long)tid);
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    r = stream_read(&D, NULL, path, 300, 0);
    resp_free(r);
    /* The last id seen: the game stream's state has it. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gids[0]);
    json_t *evs = json_object_get(r->json, "events");
    long long seen = jint(json_array_get(evs, json_array_size(evs) - 1), "id");
    resp_free(r);
    /* Away: moves on both boards. */
    ck_assert_int_eq(play(&D, &pl[1], gids[1], 0, "d4"), 200);
    ck_assert_int_eq(play(&D, &pl[2], gids[0], 1, "c5"), 200);
    HarnessStream rd;
    harness_stream_start(&rd, &D, NULL, path, 1500, seen);
    usleep(400000);
    ck_assert_int_eq(play(&D, &pl[3], gids[1], 1, "Nf6"), 200);
    harness_stream_join(&rd);
    long long ids[16];
    int n = ids_of(rd.r->body, "game", ids, 16);
    ck_assert_msg(n == 3, "%d events after %lld: %s", n, seen, rd.r->body);
    for (int i = 0; i < n; i++)
        ck_assert_int_gt(ids[i], i ? ids[i - 1] : seen);
    const char *d4 = strstr(rd.r->body, "\"d4\""), *c5 = strstr(rd.r->body, "\"c5\""),
               *nf6 = strstr(rd.r->body, "\"Nf6\"");
    ck_assert(d4 && c5 && nf6 && d4 < c5 && c5 < nf6);
    resp_free(rd.r);
    daemon_finish(&D);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-daemon");
    TCase *tc = tcase_create("daemon");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, user_add_before_first_start_and_while_running);
    tcase_add_test(tc, one_log_line_per_request_and_game_event);
    tcase_add_test(tc, alert_stream_resumes_without_gaps);
    tcase_add_test(tc, tournament_stream_resumes_then_goes_live);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
