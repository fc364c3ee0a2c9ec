/*
 * test_http_broadcast.c — what a real daemon gives spectators and the
 * broadcast platforms: the live PGN feed of a round and of a tournament
 * (the tags the platforms read, clocks, "*" for games in progress), its
 * validators and 304 answers, the cache headers of public and signed-in
 * answers, and the public delay (settings.public_delay): every public GET
 * of the route table, walked from the table itself, must show nothing
 * played within the delay, while the arbiter and the game's players see it;
 * the public's streams deliver each event the delay after it happened (to
 * a viewer who came before it and to one who came after), the arbiter's
 * at once.
 *
 * Outside truth: pgn-extract (PGN_EXTRACT) must read the feed without a
 * complaint.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "routes.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* The value of response header NAME (case-insensitive) into OUT. */
static int header(const Resp *r, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *p = r->headers; *p;
         p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            p += n + 1;
            while (*p == ' ')
                p++;
            size_t k = strcspn(p, "\r\n");
            snprintf(out, cap, "%.*s", (int)(k < cap ? k : cap - 1), p);
            return 1;
        }
    }
    out[0] = 0;
    return 0;
}

static void patch_player(int64_t tid, int64_t pid, const char *body)
{
    Resp *r = reqf(&D, &arb, "PATCH", body, "/api/v1/tournaments/%lld/players/%lld", (long long)tid,
                   (long long)pid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
}

/* Two games of round 1 started: gids[0] White pl[0] Black pl[2], gids[1]
 * White pl[1] Black pl[3]. */
static int64_t two_games(const char *settings, int64_t *pids, Client *pl, int64_t *gids)
{
    int64_t tid = make_tournament(&D, &arb, "5400+30", settings, 4, pids, pl);
    int64_t w[2] = {pids[0], pids[1]}, b[2] = {pids[2], pids[3]};
    ck_assert_int_eq(make_round(&D, &arb, tid, 2, w, b, gids), 1);
    harness_round_one_start(&D, &arb, pl, tid, gids, 2);
    return tid;
}

static void pgn_extract_reads(const char *text)
{
    const char *tool = getenv("PGN_EXTRACT");
    if (!tool || !*tool) {
        fprintf(stderr, "pgn-extract not found (PGN_EXTRACT): skipped\n");
        return;
    }
    char path[] = "/tmp/arbiter-feed-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd, "'%s' -s -r '%s' 2>&1", tool, path);
    int rc = testutil_capture(cmd, out, sizeof out);
    unlink(path);
    ck_assert_msg(rc == 0 && !strcasestr(out, "error") && !strcasestr(out, "warning"),
                  "pgn-extract says:\n%s\non\n%s", out, text);
}

START_TEST(round_feed_tags_clocks_and_validators)
{
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = two_games(NULL, pids, pl, gids);
    patch_player(tid, pids[0], "{\"title\":\"GM\",\"fide_id\":\"1503014\"}");
    patch_player(tid, pids[2], "{\"title\":\"WIM\",\"fide_id\":\"4100018\"}");
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    ck_assert_int_eq(play(&D, &pl[2], gids[0], 1, "e5"), 200);
    ck_assert_int_eq(play(&D, &pl[1], gids[1], 0, "d4"), 200);
    Resp *r = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0}",
                   "/api/v1/games/%lld/arbiter/result", (long long)gids[1]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);

    char path[96], etag[80], lm[80], cc[80];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/1/pgn", (long long)tid);
    r = req(&D, NULL, "GET", path, NULL);
    ck_assert_int_eq(r->status, 200);
    static const char *const want[] = {
        "[Event \"",
        "[Site \"",
        "[Date \"",
        "[Round \"1.1\"]",
        "[Round \"1.2\"]",
        "[WhiteTitle \"GM\"]",
        "[WhiteFideId \"1503014\"]",
        "[BlackTitle \"WIM\"]",
        "[BlackFideId \"4100018\"]",
        "[WhiteElo \"",
        "[BlackElo \"",
        "[TimeControl \"5400+30\"]",
        "1. e4 {[%clk 1:30:",
        "[Result \"*\"]",
        "[Result \"1-0\"]",
        "e5 {[%clk 1:30:",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(r->body, want[i]) != NULL, "no '%s' in\n%s", want[i], r->body);
    pgn_extract_reads(r->body);
    ck_assert(header(r, "ETag", etag, sizeof etag) && etag[0] == '"');
    ck_assert(header(r, "Last-Modified", lm, sizeof lm) && strstr(lm, " GMT"));
    ck_assert(header(r, "Cache-Control", cc, sizeof cc));
    ck_assert_str_eq(cc, "public, max-age=1");
    resp_free(r);

    /* A poller with the validators is answered 304 without a body. */
    char inm[120], ims[120];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    snprintf(ims, sizeof ims, "If-Modified-Since: %s", lm);
    const char *h1[] = {inm, NULL}, *h2[] = {ims, NULL};
    r = req_hdr(&D, "GET", path, NULL, h1);
    ck_assert_int_eq(r->status, 304);
    ck_assert_uint_eq(r->len, 0);
    resp_free(r);
    r = req_hdr(&D, "GET", path, NULL, h2);
    ck_assert_int_eq(r->status, 304);
    resp_free(r);

    /* A move changes the version; a correction of a name does too. */
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 2, "Nf3"), 200);
    r = req_hdr(&D, "GET", path, NULL, h1);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "2. Nf3"));
    char etag2[80];
    header(r, "ETag", etag2, sizeof etag2);
    ck_assert_str_ne(etag, etag2);
    resp_free(r);
    patch_player(tid, pids[3], "{\"name\":\"Renamed, Player\"}");
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag2);
    r = req_hdr(&D, "GET", path, NULL, h1);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "Renamed, Player"));
    resp_free(r);

    /* The whole tournament's feed. */
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/pgn", (long long)tid);
    r = req(&D, NULL, "GET", path, NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert(header(r, "ETag", etag, sizeof etag));
    pgn_extract_reads(r->body);
    resp_free(r);
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    r = req_hdr(&D, "GET", path, NULL, h1);
    ck_assert_int_eq(r->status, 304);
    resp_free(r);

    /* The arbiter's answers are nobody's to keep. */
    r = req(&D, &arb, "GET", path, NULL);
    ck_assert_int_eq(r->status, 200);
    header(r, "Cache-Control", cc, sizeof cc);
    ck_assert_str_eq(cc, "private, no-store");
    ck_assert(!header(r, "ETag", etag, sizeof etag));
    resp_free(r);
}
END_TEST

START_TEST(public_reads_carry_etag_and_max_age)
{
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = two_games(NULL, pids, pl, gids);
    Resp *r = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0.5}",
                   "/api/v1/games/%lld/arbiter/result", (long long)gids[1]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    struct {
        char path[96];
        const char *cc;
    } c[4];
    snprintf(c[0].path, sizeof c[0].path, "/api/v1/games/%lld", (long long)gids[0]);
    c[0].cc = "public, max-age=1";
    snprintf(c[1].path, sizeof c[1].path, "/api/v1/games/%lld", (long long)gids[1]);
    c[1].cc = "public, max-age=3600";
    snprintf(c[2].path, sizeof c[2].path, "/api/v1/tournaments/%lld/standings", (long long)tid);
    c[2].cc = "public, max-age=5";
    snprintf(c[3].path, sizeof c[3].path, "/api/v1/tournaments/%lld/players", (long long)tid);
    c[3].cc = "public, max-age=5";
    for (int i = 0; i < 4; i++) {
        char etag[80], cc[80], inm[120];
        r = req(&D, NULL, "GET", c[i].path, NULL);
        ck_assert_int_eq(r->status, 200);
        ck_assert_msg(header(r, "ETag", etag, sizeof etag), "%s: no ETag", c[i].path);
        header(r, "Cache-Control", cc, sizeof cc);
        ck_assert_msg(strcmp(cc, c[i].cc) == 0, "%s: %s", c[i].path, cc);
        resp_free(r);
        snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
        const char *h[] = {inm, NULL};
        r = req_hdr(&D, "GET", c[i].path, NULL, h);
        /* A game in progress is validated by its body, whose now_ms moves. */
        ck_assert_msg(r->status == 304 || i == 0, "%s: %ld", c[i].path, r->status);
        resp_free(r);
        /* The player sees his own answers privately. */
        r = req(&D, &pl[0], "GET", c[i].path, NULL);
        header(r, "Cache-Control", cc, sizeof cc);
        ck_assert_msg(strcmp(cc, "private, no-store") == 0, "%s: %s", c[i].path, cc);
        resp_free(r);
    }
}
END_TEST

/* The board after 1. e4 e5 as FEN's piece placement: it can only be in an
 * answer that shows those moves. */
#define AFTER_E4_E5 "4p3/4P3"

/* Every public GET of the route table, anonymously, with the ids of
 * tournament TID, player PID and game GID; FORBIDDEN must be in none
 * (streams included: they show the games as they were the delay ago). */
static void walk_public(int64_t tid, int64_t pid, int64_t gid, const char *forbidden)
{
    for (int i = 0; i < routes_count; i++) {
        const Route *rt = &routes_table[i];
        /* The API's own description quotes results as examples. */
        if (rt->method != HTTP_GET || rt->role != ROUTE_PUBLIC ||
            strcmp(rt->pattern, "/openapi.json") == 0)
            continue;
        /* A team or a match is not in this individual tournament (the
         * team competition's delay: test_http_teams.c). */
        if (strstr(rt->pattern, "{team}") || strstr(rt->pattern, "{mid}"))
            continue;
        char path[256] = "/api/v1";
        for (const char *p = rt->pattern; *p;) {
            size_t n = strlen(path);
            if (strncmp(p, "{tid}", 5) == 0)
                snprintf(path + n, sizeof path - n, "%lld", (long long)tid), p += 5;
            else if (strncmp(p, "{pid}", 5) == 0)
                snprintf(path + n, sizeof path - n, "%lld", (long long)pid), p += 5;
            else if (strncmp(p, "{gid}", 5) == 0)
                snprintf(path + n, sizeof path - n, "%lld", (long long)gid), p += 5;
            else if (strncmp(p, "{rn}", 4) == 0)
                snprintf(path + n, sizeof path - n, "1"), p += 4;
            else
                snprintf(path + n, sizeof path - n, "%c", *p++);
        }
        int stream = strstr(path, "/stream") != NULL;
        Resp *r = stream ? stream_read(&D, NULL, path, 300, 0) : req(&D, NULL, "GET", path, NULL);
        ck_assert_msg(r->status == 200, "%s: %ld %.300s", path, r->status, r->body);
        ck_assert_msg(!r->body || !strstr(r->body, forbidden), "%s shows '%s' early:\n%.300s", path,
                      forbidden, r->body);
        resp_free(r);
    }
}

START_TEST(public_delay_holds_back_every_public_read)
{
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = two_games("{\"public_delay\":4}", pids, pl, gids);
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    ck_assert_int_eq(play(&D, &pl[2], gids[0], 1, "e5"), 200);
    Resp *r = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0}",
                   "/api/v1/games/%lld/arbiter/result", (long long)gids[1]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    int64_t t0 = now_ms();
    walk_public(tid, pids[0], gids[0], AFTER_E4_E5);
    walk_public(tid, pids[0], gids[0], "%clk");
    walk_public(tid, pids[1], gids[1], "1-0");
    ck_assert(points_of(&D, tid, pids[1]) == 0);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_msg(strstr(r->body, "\"over\"") == NULL, "%s", r->body);
    resp_free(r);
    ck_assert_msg(now_ms() - t0 < 3500, "the walk took too long to prove anything");

    /* Live for the arbiter and for the game's players, not another's. */
    char path[64];
    snprintf(path, sizeof path, "/api/v1/games/%lld", (long long)gids[0]);
    r = req(&D, &arb, "GET", path, NULL);
    ck_assert_ptr_nonnull(strstr(r->body, AFTER_E4_E5));
    resp_free(r);
    r = req(&D, &pl[2], "GET", path, NULL);
    ck_assert_ptr_nonnull(strstr(r->body, AFTER_E4_E5));
    resp_free(r);
    r = req(&D, &pl[1], "GET", path, NULL);
    ck_assert_ptr_null(strstr(r->body, AFTER_E4_E5));
    resp_free(r);
    snprintf(path, sizeof path, "/api/v1/games/%lld/pgn", (long long)gids[0]);
    r = req(&D, &arb, "GET", path, NULL);
    ck_assert_ptr_nonnull(strstr(r->body, "1. e4"));
    resp_free(r);

    /* Once the delay has passed the public sees the moves. */
    usleep(4500 * 1000);
    r = req(&D, NULL, "GET", path, NULL);
    ck_assert_msg(strstr(r->body, "1. e4 {[%clk") != NULL, "%s", r->body);
    resp_free(r);
    snprintf(path, sizeof path, "/api/v1/games/%lld", (long long)gids[0]);
    r = req(&D, NULL, "GET", path, NULL);
    ck_assert_ptr_nonnull(strstr(r->body, AFTER_E4_E5));
    resp_free(r);
    ck_assert(points_of(&D, tid, pids[1]) == 1);

    /* A stream is never kept, by anyone. */
    snprintf(path, sizeof path, "/api/v1/games/%lld/stream", (long long)gids[0]);
    r = stream_read(&D, &arb, path, 300, 0);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_null(strcasestr(r->headers, "max-age"));
    resp_free(r);
}
END_TEST

/* The board after 1. e4 as a GameUpdate's FEN shows it. */
#define AFTER_E4 "4P3/8/PPPP1PPP"

START_TEST(public_stream_delayed_arbiter_live)
{
    enum { DELAY_MS = 3000 };
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = two_games("{\"public_delay\":3}", pids, pl, gids);
    char game[64], tour[64];
    snprintf(game, sizeof game, "/api/v1/games/%lld/stream", (long long)gids[0]);
    snprintf(tour, sizeof tour, "/api/v1/tournaments/%lld/stream", (long long)tid);
    /* Public viewers who came before the move: one leaves before the delay
     * has passed, one stays past it; the arbiter watches live. */
    HarnessStream early, late, tlate, live;
    harness_stream_start(&early, &D, NULL, game, DELAY_MS - 1000, 0);
    harness_stream_start(&late, &D, NULL, game, DELAY_MS + 2000, 0);
    harness_stream_start(&tlate, &D, NULL, tour, DELAY_MS + 2000, 0);
    harness_stream_start(&live, &D, &arb, game, 1000, 0);
    usleep(300 * 1000);
    int64_t t0 = now_ms();
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    /* A viewer who comes after the move, within the delay. */
    usleep(1000 * 1000);
    HarnessStream after;
    harness_stream_start(&after, &D, NULL, game, DELAY_MS + 1000, 0);
    Resp *r = harness_stream_join(&live);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(strstr(r->body, AFTER_E4) != NULL, "the arbiter did not see the move:\n%s",
                  r->body);
    resp_free(r);
    r = harness_stream_join(&early);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(strstr(r->body, AFTER_E4) == NULL, "the public saw the move early:\n%s", r->body);
    resp_free(r);
    ck_assert_msg(now_ms() - t0 < DELAY_MS, "too slow to prove anything");
    HarnessStream *stays[] = {&late, &tlate, &after};
    for (int i = 0; i < 3; i++) {
        r = harness_stream_join(stays[i]);
        ck_assert_int_eq(r->status, 200);
        ck_assert_msg(strstr(r->body, AFTER_E4) != NULL, "viewer %d missed the move:\n%s", i,
                      r->body);
        /* Once. */
        const char *m = strstr(r->body, "\"move\":\"e4\"");
        ck_assert_ptr_nonnull(m);
        ck_assert_ptr_null(strstr(m + 1, "\"move\":\"e4\""));
        resp_free(r);
    }
    ck_assert_int_ge(now_ms() - t0, DELAY_MS);
    /* Reconnecting with Last-Event-ID after the delay: nothing repeated,
     * and the next move also comes the delay after it. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/games/%lld", (long long)gids[0]);
    json_t *evs = json_object_get(r->json, "events");
    long long last = jint(json_array_get(evs, json_array_size(evs) - 1), "id");
    resp_free(r);
    HarnessStream again;
    harness_stream_start(&again, &D, NULL, game, DELAY_MS + 1500, last);
    usleep(200 * 1000);
    ck_assert_int_eq(play(&D, &pl[2], gids[0], 1, "e5"), 200);
    r = harness_stream_join(&again);
    ck_assert_ptr_null(strstr(r->body, "\"move\":\"e4\""));
    ck_assert_msg(strstr(r->body, "4p3/4P3") != NULL, "the reply never came:\n%s", r->body);
    resp_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http_broadcast");
    TCase *tc = tcase_create("broadcast");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, round_feed_tags_clocks_and_validators);
    tcase_add_test(tc, public_reads_carry_etag_and_max_age);
    tcase_add_test(tc, public_delay_holds_back_every_public_read);
    tcase_add_test(tc, public_stream_delayed_arbiter_live);
    suite_add_tcase(s, tc);
    return testutil_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
