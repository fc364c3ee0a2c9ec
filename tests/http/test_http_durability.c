/*
 * test_http_durability.c — what must survive: duplicate and concurrent
 * submissions from two tablets (exactly one is recorded), a crash and a
 * clean stop in the middle of a game (scoresheet and clocks survive, the
 * downtime is not charged), live streams resuming with Last-Event-ID
 * without gaps, and a clean stop with streams open.
 */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static Daemon D;
static Client arb, W, B;
static int64_t tid, gid;

static void setup(void)
{
    daemon_start_signed_in(&D, &arb);
    Client pl[2];
    tid = harness_game_new(&D, &arb, "5400+30", NULL, pl, &gid);
    W = pl[0];
    B = pl[1];
    start_round_one(&D, &arb, pl, tid, gid);
}

static void teardown(void)
{
    daemon_finish(&D);
}

static json_t *game(Resp **keep)
{
    *keep = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    ck_assert_int_eq((*keep)->status, 200);
    return (*keep)->json;
}

static int nevents(void)
{
    Resp *k;
    int n = (int)json_array_size(json_object_get(game(&k), "events"));
    resp_free(k);
    return n;
}

START_TEST(duplicate_submission)
{
    Resp *r = reqf(&D, &W, "POST", "{\"ply\":0,\"move\":\"e4\"}", "/api/v1/games/%lld/move",
                   (long long)gid);
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_object(json_object_get(r->json, "event")));
    resp_free(r);
    int n = nevents();
    /* The tablet did not see the answer and sends the same move again. */
    r = reqf(&D, &W, "POST", "{\"ply\":0,\"move\":\"e4\"}", "/api/v1/games/%lld/move",
             (long long)gid);
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_null(json_object_get(r->json, "event")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(r->json, "game"), "ply")),
                     1);
    resp_free(r);
    ck_assert_int_eq(nevents(), n);
    /* An outdated position: a clear 409. */
    r = reqf(&D, &W, "POST", "{\"ply\":0,\"move\":\"d4\"}", "/api/v1/games/%lld/move",
             (long long)gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "stale_ply");
    resp_free(r);
    ck_assert_int_eq(nevents(), n);
}
END_TEST

typedef struct Shot {
    const Client *c;
    int ply;
    const char *move;
    pthread_barrier_t *go;
    long status;
} Shot;

static void *shoot(void *arg)
{
    Shot *s = arg;
    pthread_barrier_wait(s->go);
    s->status = play(&D, s->c, gid, s->ply, s->move);
    return NULL;
}

START_TEST(two_tablets_at_once)
{
    /* Each ply: the mover's two tablets send at the same instant, either
     * two different moves (one wins, the other is stale) or the same move
     * (one is recorded, the other is answered as a retry). */
    /* Every move is legal whichever of the two was recorded before it. */
    const char *a[] = {"e4", "e5", "Nf3", "Nc6", "a3", "a6", "g3", "Nf6"};
    const char *b[] = {"d4", "e5", "Nc3", "Nc6", "h3", "a6", "g3", "d6"};
    int ply = 0;
    for (int i = 0; i < 8; i++) {
        int before = nevents();
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, 2);
        const Client *c = i % 2 ? &B : &W;
        Shot s1 = {c, ply, a[i], &go, 0}, s2 = {c, ply, b[i], &go, 0};
        pthread_t t1, t2;
        pthread_create(&t1, NULL, shoot, &s1);
        pthread_create(&t2, NULL, shoot, &s2);
        pthread_join(t1, NULL);
        pthread_join(t2, NULL);
        pthread_barrier_destroy(&go);
        ck_assert_int_eq(nevents(), before + 1);
        if (strcmp(a[i], b[i]) == 0) {
            ck_assert_int_eq(s1.status, 200);
            ck_assert_int_eq(s2.status, 200);
        } else {
            ck_assert_msg((s1.status == 200) != (s2.status == 200), "%ld %ld", s1.status,
                          s2.status);
            ck_assert_int_eq(s1.status + s2.status, 200 + 409);
        }
        Resp *k;
        json_t *g = game(&k);
        json_t *moves = json_object_get(json_object_get(g, "state"), "moves");
        const char *got = json_string_value(json_array_get(moves, (size_t)ply));
        const char *want = s1.status == 200 ? a[i] : b[i];
        ck_assert_str_eq(got, want);
        resp_free(k);
        ply++;
    }
}
END_TEST

static json_int_t clock_of(json_t *g, const char *side)
{
    return json_integer_value(
        json_object_get(json_object_get(json_object_get(g, "state"), "clock"), side));
}

static void restart_case(int sig)
{
    const char *moves[] = {"d4", "d5", "c4", "e6"};
    for (int i = 0; i < 4; i++) {
        usleep(150000);
        ck_assert_int_eq(play(&D, i % 2 ? &B : &W, gid, i, moves[i]), 200);
    }
    usleep(200000);
    Resp *k;
    json_t *g = game(&k);
    char *moves_before = json_dumps(json_object_get(json_object_get(g, "state"), "moves"), 0);
    int events_before = (int)json_array_size(json_object_get(g, "events"));
    json_int_t white_before = clock_of(g, "white_ms");
    json_int_t black_before = clock_of(g, "black_ms");
    resp_free(k);
    int status = daemon_stop(&D, sig);
    if (sig == SIGTERM)
        ck_assert_int_eq(status, 0);
    sleep(2); /* downtime */
    daemon_start(&D, 1);
    g = game(&k);
    char *moves_after = json_dumps(json_object_get(json_object_get(g, "state"), "moves"), 0);
    ck_assert_str_eq(moves_after, moves_before);
    free(moves_before);
    free(moves_after);
    /* The scoresheet gained exactly the pause of the restart. */
    json_t *evs = json_object_get(g, "events");
    ck_assert_int_eq((int)json_array_size(evs), events_before + 1);
    json_t *last = json_array_get(evs, json_array_size(evs) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "pause");
    json_t *clock = json_object_get(json_object_get(g, "state"), "clock");
    ck_assert(json_is_true(json_object_get(clock, "paused")));
    /* White is on move: his clock lost at most the time between our reading
     * and the stop (well under the 2 s of downtime); Black's did not move. */
    json_int_t white_after = clock_of(g, "white_ms");
    ck_assert_msg(white_after > white_before - 700 && white_after <= white_before + 300,
                  "white %lld -> %lld", (long long)white_before, (long long)white_after);
    ck_assert_int_eq(clock_of(g, "black_ms"), black_before);
    resp_free(k);
    /* Paused: nobody's time runs until the arbiter resumes. */
    usleep(300000);
    g = game(&k);
    ck_assert_int_eq(clock_of(g, "white_ms"), white_after);
    resp_free(k);
    login_arbiter(&D, &arb);
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(play(&D, &W, gid, 4, "Nc3"), 200);
}

START_TEST(crash_mid_game)
{
    restart_case(SIGKILL);
}
END_TEST

START_TEST(clean_stop_mid_game)
{
    restart_case(SIGTERM);
}
END_TEST

/* After a restart every running game of the round is paused, so the round
 * is shown paused and the arbiter resumes it in one action (without first
 * "pausing" a round in which no clock runs). */
START_TEST(round_paused_by_restart_resumes_at_once)
{
    ck_assert_int_eq(play(&D, &W, gid, 0, "e4"), 200);
    ck_assert_int_eq(daemon_stop(&D, SIGKILL), 128 + SIGKILL);
    daemon_start(&D, 1);
    login_arbiter(&D, &arb);
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "status")), "paused");
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds/1/resume", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "status")), "running");
    resp_free(r);
    Resp *k;
    json_t *g = game(&k);
    ck_assert(json_is_false(
        json_object_get(json_object_get(json_object_get(g, "state"), "clock"), "paused")));
    resp_free(k);
    ck_assert_int_eq(play(&D, &B, gid, 1, "e5"), 200);
    /* A clean stop does the same. */
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    daemon_start(&D, 1);
    login_arbiter(&D, &arb);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds/1/resume", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(play(&D, &W, gid, 2, "Nf3"), 200);
}
END_TEST

/* The ids of the "game" events in an SSE body, in order. */
static int ids_of(const char *body, long long *ids, int max)
{
    int n = 0;
    for (const char *p = body; p && (p = strstr(p, "id: ")) && n < max; p += 4)
        if (p == body || p[-1] == '\n')
            ids[n++] = atoll(p + 4);
    return n;
}

START_TEST(stream_live_and_resume)
{
    char path[128];
    snprintf(path, sizeof path, "/api/v1/games/%lld/stream", (long long)gid);
    /* Live: a viewer connected before the move sees it. */
    HarnessStream rd;
    harness_stream_start(&rd, &D, NULL, path, 1500, 0);
    usleep(400000);
    ck_assert_int_eq(play(&D, &W, gid, 0, "e4"), 200);
    harness_stream_join(&rd);
    ck_assert_int_eq(rd.r->status, 200);
    ck_assert_ptr_nonnull(strstr(rd.r->headers, "text/event-stream"));
    ck_assert_ptr_nonnull(strstr(rd.r->body, "event: state"));
    long long ids[64];
    int n = ids_of(rd.r->body, ids, 64);
    ck_assert_int_eq(n, 1);
    ck_assert_ptr_nonnull(strstr(rd.r->body, "\"move\":\"e4\""));
    long long seen = ids[0];
    resp_free(rd.r);
    /* Disconnected: three more events happen. */
    ck_assert_int_eq(play(&D, &B, gid, 1, "c5"), 200);
    ck_assert_int_eq(play(&D, &W, gid, 2, "Nf3"), 200);
    ck_assert_int_eq(play(&D, &B, gid, 3, "d6"), 200);
    /* Reconnecting with Last-Event-ID gets exactly those, in order, then
     * live ones. */
    HarnessStream again;
    harness_stream_start(&again, &D, NULL, path, 1200, seen);
    usleep(400000);
    ck_assert_int_eq(play(&D, &W, gid, 4, "d4"), 200);
    harness_stream_join(&again);
    n = ids_of(again.r->body, ids, 64);
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < n; i++)
        ck_assert_int_gt(ids[i], i ? ids[i - 1] : seen);
    ck_assert_ptr_null(strstr(again.r->body, "event: state"));
    const char *c5 = strstr(again.r->body, "\"c5\""), *d4 = strstr(again.r->body, "\"d4\"");
    ck_assert(c5 && d4 && c5 < d4);
    resp_free(again.r);
    /* The tournament stream resumes the same way. */
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/stream", (long long)tid);
    Resp *r = stream_read(&D, NULL, path, 400, seen);
    ck_assert_int_eq(ids_of(r->body, ids, 64), 4);
    resp_free(r);
}
END_TEST

START_TEST(stop_with_streams_open)
{
    char path[128];
    snprintf(path, sizeof path, "/api/v1/games/%lld/stream", (long long)gid);
    HarnessStream rd[3];
    for (int i = 0; i < 3; i++)
        harness_stream_start(&rd[i], &D, NULL, path, 10000, 0);
    usleep(400000);
    int64_t t0 = now_ms();
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    for (int i = 0; i < 3; i++) {
        harness_stream_join(&rd[i]);
        ck_assert_int_eq(rd[i].r->status, 200);
        resp_free(rd[i].r);
    }
    ck_assert_int_lt(now_ms() - t0, 5000);
    daemon_start(&D, 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-durability");
    TCase *tc = tcase_create("durability");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, duplicate_submission);
    tcase_add_test(tc, two_tablets_at_once);
    tcase_add_test(tc, crash_mid_game);
    tcase_add_test(tc, clean_stop_mid_game);
    tcase_add_test(tc, round_paused_by_restart_resumes_at_once);
    tcase_add_test(tc, stream_live_and_resume);
    tcase_add_test(tc, stop_with_streams_open);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
