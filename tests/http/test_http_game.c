/*
 * test_http_game.c — games played through the API of a real daemon: a full
 * game to mate, and Laws scenarios (illegal-move penalty and loss on the
 * third, draw by agreement, threefold claim, resignation, the server's flag
 * within 50 ms of the deadline, arbiter pause / adjust / result, colours
 * reversed: a new game or the players' colours swapped, 7.3), and the
 * arbiter's board events (touch-move, a forgotten press, 7.2, 7.4, 7.5.3-4).
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* A started game between two fresh players, both checked in. */
typedef struct Game {
    int64_t tid, gid;
    Client w, b;
} Game;

static Game new_game(const char *tc, const char *settings)
{
    Game g;
    Client pl[2];
    g.tid = harness_game_new(&D, &arb, tc, settings, pl, &g.gid);
    g.w = pl[0];
    g.b = pl[1];
    start_round_one(&D, &arb, pl, g.tid, g.gid);
    return g;
}

/* Plays MOVES[0..N) from ply 0, each by the side on move, all accepted. */
static void play_all(const Game *g, const char *const *moves, int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(play(&D, i % 2 ? &g->b : &g->w, g->gid, i, moves[i]), 200);
}

/* The result text of a game state as GET /games/{gid} gives it. */
static const char *result_of(json_t *st)
{
    return json_string_value(json_object_get(json_object_get(st, "game"), "result"));
}

static json_t *state(const Game *g, Resp **keep)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)g->gid);
    ck_assert_int_eq(r->status, 200);
    *keep = r;
    return r->json;
}

static json_int_t clock_ms(json_t *st, const char *side)
{
    return json_integer_value(
        json_object_get(json_object_get(json_object_get(st, "state"), "clock"), side));
}

START_TEST(full_game_to_mate)
{
    Game g = new_game("5400+30", NULL);
    static const char *const moves[] = {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
    play_all(&g, moves, 7);
    Resp *r;
    json_t *st = state(&g, &r);
    json_t *sum = json_object_get(st, "game");
    ck_assert_str_eq(json_string_value(json_object_get(sum, "status")), "over");
    ck_assert_str_eq(json_string_value(json_object_get(sum, "result")), "1-0");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "ply")), 7);
    /* 2 check-ins, the start and 7 moves: the whole scoresheet. */
    ck_assert_int_eq(json_array_size(json_object_get(st, "events")), 10);
    ck_assert_int_eq(json_object_size(json_object_get(st, "legal")), 0);
    resp_free(r);
    /* No move after the end. */
    r = reqf(&D, &g.b, "POST", "{\"ply\":7,\"move\":\"Ke7\"}", "/api/v1/games/%lld/move",
             (long long)g.gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "game_over");
    resp_free(r);
    /* The PGN passes pgn-extract, a peer tool, and has the mate. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld/pgn", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "Qxf7#"));
    ck_assert_ptr_nonnull(strstr(r->body, "[Result \"1-0\"]"));
    if (access("/usr/bin/pgn-extract", X_OK) == 0) {
        char path[300], cmd[700];
        snprintf(path, sizeof path, "%s/g.pgn", D.dir);
        testutil_write(path, r->body, r->len);
        snprintf(cmd, sizeof cmd, "/usr/bin/pgn-extract -s -r '%s' 2>&1 | grep -ci error", path);
        FILE *p = popen(cmd, "r");
        int errors = -1;
        ck_assert_int_eq(fscanf(p, "%d", &errors), 1);
        pclose(p);
        ck_assert_int_eq(errors, 0);
    }
    resp_free(r);
    /* Standings: the winner has a point. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)g.tid);
    ck_assert_int_eq(r->status, 200);
    json_t *first = json_array_get(r->json, 0);
    ck_assert(json_real_value(json_object_get(first, "points")) == 1.0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(first, "player"), "name")),
                     "Player 1");
    ck_assert_int_eq(json_integer_value(json_object_get(first, "games")), 1);
    /* Sonneborn-Berger of a win against an opponent with 0 points is 0,
     * and the loser's Buchholz is the winner's point. */
    json_t *second = json_array_get(r->json, 1);
    ck_assert(json_real_value(json_object_get(json_object_get(first, "tiebreaks"), "SB")) == 0.0);
    ck_assert(json_real_value(json_object_get(json_object_get(second, "tiebreaks"), "BH")) == 1.0);
    ck_assert_int_eq(json_integer_value(json_object_get(second, "rank")), 2);
    resp_free(r);
}
END_TEST

START_TEST(illegal_moves_penalty_and_loss)
{
    /* Standard time control: each completed illegal move gives the opponent
     * 2 minutes (7.5.5) and the third loses. */
    Game g = new_game("5400+30", NULL);
    Resp *keep;
    json_int_t before = clock_ms(state(&g, &keep), "black_ms");
    resp_free(keep);
    Resp *r = reqf(&D, &g.w, "POST", "{\"ply\":0,\"move\":\"e5\"}", "/api/v1/games/%lld/move",
                   (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert(json_is_true(json_object_get(json_object_get(r->json, "verdict"), "illegal")));
    resp_free(r);
    json_t *st = state(&g, &keep);
    json_int_t after = clock_ms(st, "black_ms");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "ply")), 0);
    resp_free(keep);
    ck_assert_msg(after - before == 120000, "black got %lld ms", (long long)(after - before));
    /* Two more illegal moves at the same ply: the third loses. */
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "Ke2"), 200);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "Qh5"), 200);
    st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "0-1");
    resp_free(keep);
}
END_TEST

START_TEST(draw_by_agreement)
{
    Game g = new_game("5400+30", NULL);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "e4"), 200);
    Resp *r = reqf(&D, &g.b, "POST", "{\"ply\":1,\"move\":\"e5\",\"offer\":true}",
                   "/api/v1/games/%lld/move", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* Black cannot accept his own offer. */
    r = reqf(&D, &g.b, "POST", "{}", "/api/v1/games/%lld/accept", (long long)g.gid);
    ck_assert_int_eq(r->status / 100, 4);
    resp_free(r);
    r = reqf(&D, &g.w, "POST", "{\"ply\":2}", "/api/v1/games/%lld/accept", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    Resp *keep;
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "1/2-1/2");
    resp_free(keep);
}
END_TEST

/* The open (not resolved) alerts of KIND in G's tournament; "*" counts
 * every kind.  Checks each alert names its board and players. */
static int open_alerts(const Game *g, const char *kind)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)g->tid);
    ck_assert_int_eq(r->status, 200);
    int n = 0;
    size_t i;
    json_t *a;
    json_array_foreach(r->json, i, a)
    {
        ck_assert_int_ge(jint(a, "board"), 1);
        ck_assert_ptr_nonnull(json_string_value(json_object_get(a, "white")));
        if (!json_is_true(json_object_get(a, "resolved")) &&
            (!strcmp(kind, "*") || !strcmp(json_string_value(json_object_get(a, "kind")), kind)))
            n++;
    }
    resp_free(r);
    return n;
}

START_TEST(threefold_claim)
{
    Game g = new_game("5400+30", NULL);
    static const char *const moves[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"};
    play_all(&g, moves, 8);
    /* The start position has now occurred three times, White to move. */
    Resp *r = reqf(&D, &g.w, "POST", "{\"ply\":8,\"claim\":\"threefold\"}",
                   "/api/v1/games/%lld/claim", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    Resp *keep;
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "1/2-1/2");
    resp_free(keep);
    /* The claim reached the arbiter's alerts. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)g.tid);
    ck_assert_int_eq(r->status, 200);
    int claims = 0;
    size_t i;
    json_t *a;
    json_array_foreach(r->json, i, a) claims +=
        strcmp(json_string_value(json_object_get(a, "kind")), "claim") == 0;
    ck_assert_int_eq(claims, 1);
    resp_free(r);
    /* The server ruled it at once: nothing waits for the arbiter. */
    ck_assert_int_eq(open_alerts(&g, "claim"), 0);
}
END_TEST

START_TEST(resignation_and_confirmation)
{
    Game g = new_game("5400+30", NULL);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "d4"), 200);
    Resp *r;
    /* A call stands until the arbiter answers it. */
    r = reqf(&D, &g.w, "POST", "{}", "/api/v1/games/%lld/call", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(open_alerts(&g, "call"), 1);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(open_alerts(&g, "call"), 0);
    r = reqf(&D, &g.b, "POST", "{}", "/api/v1/games/%lld/resign", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* The result waits for both confirmations (8.7), then resolves itself. */
    for (int side = 0; side < 2; side++) {
        ck_assert_int_eq(open_alerts(&g, "result"), 1);
        r = reqf(&D, side ? &g.b : &g.w, "POST", "{}", "/api/v1/games/%lld/confirm",
                 (long long)g.gid);
        ck_assert_msg(r->status == 200, "%s", r->body);
        resp_free(r);
    }
    ck_assert_int_eq(open_alerts(&g, "*"), 0);
    Resp *keep;
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "1-0");
    resp_free(keep);
}
END_TEST

START_TEST(server_flag_within_50ms)
{
    /* 3 seconds for the game: White never moves. */
    Game g = new_game("3", NULL);
    Resp *keep;
    json_t *st = state(&g, &keep);
    json_int_t deadline = json_integer_value(
        json_object_get(json_object_get(json_object_get(st, "state"), "clock"), "deadline_ms"));
    resp_free(keep);
    ck_assert_int_gt(deadline, 0);
    while (now_ms() < deadline + 400)
        usleep(20000);
    st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "0-1");
    json_t *evs = json_object_get(st, "events");
    json_t *last = json_array_get(evs, json_array_size(evs) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "flag");
    ck_assert_str_eq(json_string_value(json_object_get(last, "actor")), "server");
    json_int_t at = json_integer_value(json_object_get(last, "time_ms"));
    ck_assert_msg(at >= deadline && at - deadline <= 50, "flag at deadline%+lld ms",
                  (long long)(at - deadline));
    resp_free(keep);
}
END_TEST

/* 6.9 when "can the opponent still mate?" is undecided: the server's flag
 * does not score the game; the clocks pause, the arbiter is alerted (dead
 * position? decide) and decides with a result. */
START_TEST(flag_with_undecided_mate_waits_for_the_arbiter)
{
    Game g =
        new_game("2", "{\"fen\":\"8/8/2B2p2/2p1pPp1/2PbPk1b/2pBp1p1/2P1P1P1/5BRK b - - 0 1\"}");
    Resp *keep;
    json_t *st = state(&g, &keep);
    json_int_t deadline = json_integer_value(
        json_object_get(json_object_get(json_object_get(st, "state"), "clock"), "deadline_ms"));
    resp_free(keep);
    ck_assert_int_gt(deadline, 0);
    /* The analysis at the flag may take a few hundred ms on a busy machine. */
    json_t *q = NULL;
    for (int tries = 0; tries < 100 && !json_is_object(q); tries++) {
        usleep(100000);
        if (tries)
            resp_free(keep);
        st = state(&g, &keep);
        q = json_object_get(json_object_get(st, "state"), "dead_position_awaits_arbiter");
    }
    ck_assert_int_ge(now_ms(), deadline);
    ck_assert_str_eq(result_of(st), "*");
    ck_assert_str_eq(json_string_value(json_object_get(q, "side")), "black");
    ck_assert_str_eq(json_string_value(json_object_get(q, "end")), "time");
    resp_free(keep);
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)g.tid);
    ck_assert_int_eq(r->status, 200);
    int dead = 0;
    size_t i;
    json_t *a;
    json_array_foreach(r->json, i, a) dead +=
        strcmp(json_string_value(json_object_get(a, "kind")), "dead_position") == 0;
    ck_assert_int_eq(dead, 1);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0,\"note\":\"White can still mate\"}",
             "/api/v1/games/%lld/arbiter/result", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_str_eq(result_of(state(&g, &keep)), "1-0");
    resp_free(keep);
}
END_TEST

/* 6.7: a player absent at the default time after the start loses; the
 * server records it by itself, on time, and a late arrival changes
 * nothing. */
START_TEST(absent_player_loses_at_default_time)
{
    int64_t pids[2], gid;
    Client pl[2];
    int64_t tid = make_tournament(&D, &arb, "60", "{\"default_time_ms\":1000}", 2, pids, pl);
    make_round(&D, &arb, tid, 1, &pids[0], &pids[1], &gid);
    Resp *r = reqf(&D, &pl[0], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    ck_assert_int_eq(play(&D, &pl[0], gid, 0, "e4"), 200);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    json_int_t start = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->json, "events"), i,
                       e) if (!strcmp(json_string_value(json_object_get(e, "type")), "start"))
        start = jint(e, "time_ms");
    resp_free(r);
    ck_assert_int_gt(start, 0);
    while (now_ms() < start + 1400)
        usleep(20000);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    json_t *evs = json_object_get(r->json, "events");
    json_t *last = json_array_get(evs, json_array_size(evs) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "flag");
    ck_assert_str_eq(json_string_value(json_object_get(last, "actor")), "server");
    json_int_t at = jint(last, "time_ms");
    ck_assert_msg(at > start + 1000 && at <= start + 1000 + 50, "default at start%+lld ms",
                  (long long)(at - start));
    resp_free(r);
    /* Arriving late does not undo it. */
    r = reqf(&D, &pl[1], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
    ck_assert_int_lt(r->status, 500);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r->json, "game"), "result")),
                     "+/-");
    resp_free(r);
    ck_assert_int_eq(play(&D, &pl[1], gid, 1, "e5"), 409);
}
END_TEST

/* 9.2.1.1 and 9.5: a draw claimed with the move that would repeat the
 * position for the third time ends the game without the move being played;
 * an incorrect claim gives the opponent two more minutes and the intended
 * move is played. */
START_TEST(claims_with_intended_move)
{
    Game g = new_game("5400+30", NULL);
    static const char *const moves[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"};
    play_all(&g, moves, 7);
    Resp *r = reqf(&D, &g.b, "POST", "{\"ply\":7,\"claim\":\"threefold\",\"move\":\"Ng8\"}",
                   "/api/v1/games/%lld/claim", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    Resp *keep;
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "1/2-1/2");
    ck_assert_int_eq(jint(st, "ply"), 7);
    resp_free(keep);

    Game h = new_game("5400+30", NULL);
    ck_assert_int_eq(play(&D, &h.w, h.gid, 0, "e4"), 200);
    st = state(&h, &keep);
    json_int_t white = clock_ms(st, "white_ms");
    resp_free(keep);
    r = reqf(&D, &h.b, "POST", "{\"ply\":1,\"claim\":\"threefold\",\"move\":\"e5\"}",
             "/api/v1/games/%lld/claim", (long long)h.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    st = state(&h, &keep);
    ck_assert_str_eq(result_of(st), "*");
    ck_assert_int_eq(jint(st, "ply"), 2);
    json_t *mv = json_object_get(json_object_get(st, "state"), "moves");
    ck_assert_str_eq(json_string_value(json_array_get(mv, 1)), "e5");
    /* White's clock runs again since e5: a few ms may have gone. */
    json_int_t now_white = clock_ms(st, "white_ms");
    ck_assert_msg(now_white <= white + 120000 && now_white > white + 120000 - 200, "%lld -> %lld",
                  (long long)white, (long long)now_white);
    resp_free(keep);
    ck_assert_int_eq(play(&D, &h.w, h.gid, 2, "Nf3"), 200);
}
END_TEST

/* When the tournament says flags are claimed, the server records no flag:
 * the opponent claims it. */
START_TEST(claimed_flags)
{
    Game g = new_game("2", "{\"flags\":\"claimed\"}");
    usleep(2400000);
    Resp *keep;
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "*");
    resp_free(keep);
    /* White cannot claim his own flag. */
    Resp *r = reqf(&D, &g.w, "POST", "{}", "/api/v1/games/%lld/flag", (long long)g.gid);
    ck_assert_int_eq(r->status / 100, 4);
    resp_free(r);
    r = reqf(&D, &g.b, "POST", "{}", "/api/v1/games/%lld/flag", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "0-1");
    resp_free(keep);
}
END_TEST

START_TEST(arbiter_pause_adjust_result)
{
    Game g = new_game("5400+30", NULL);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "e4"), 200);
    Resp *r = reqf(&D, &arb, "POST", "{\"note\":\"noise in the hall\"}",
                   "/api/v1/games/%lld/arbiter/pause", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    /* While paused, the clocks stand still and moves are refused. */
    Resp *keep;
    json_int_t b1 = clock_ms(state(&g, &keep), "black_ms");
    resp_free(keep);
    usleep(300000);
    json_int_t b2 = clock_ms(state(&g, &keep), "black_ms");
    resp_free(keep);
    ck_assert_int_eq(b1, b2);
    r = reqf(&D, &g.b, "POST", "{\"ply\":1,\"move\":\"e5\"}", "/api/v1/games/%lld/move",
             (long long)g.gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "paused");
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"side\":\"black\",\"set_ms\":600000}",
             "/api/v1/games/%lld/arbiter/adjust", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(clock_ms(state(&g, &keep), "black_ms"), 600000);
    resp_free(keep);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    ck_assert_int_eq(play(&D, &g.b, g.gid, 1, "e5"), 200);
    r = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0,\"note\":\"12.9\"}",
             "/api/v1/games/%lld/arbiter/result", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    json_t *st = state(&g, &keep);
    ck_assert_str_eq(result_of(st), "1/2-0");
    resp_free(keep);
    /* A score that is not 0, 0.5 or 1 is refused by the Laws' parser. */
    r = reqf(&D, &arb, "POST", "{\"white\":0.7,\"black\":0}", "/api/v1/games/%lld/arbiter/result",
             (long long)g.gid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
}
END_TEST

/* 10.2: no game is worth more than a game.  A result of 1-1 and a score
 * penalty that would make a draw 1-1/2 are refused with the article. */
START_TEST(no_game_worth_more_than_a_game)
{
    Game g = new_game("5400+30", NULL);
    play_all(&g, (const char *const[]){"e4", "e5"}, 2);
    Resp *r = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":1}",
                   "/api/v1/games/%lld/arbiter/result", (long long)g.gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "illegal_state");
    ck_assert_ptr_nonnull(strstr(r->body, "10.2"));
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0.5}", "/api/v1/games/%lld/arbiter/result",
             (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"side\":\"black\",\"penalty\":\"score_up\",\"score\":1}",
             "/api/v1/games/%lld/arbiter/penalty", (long long)g.gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_ptr_nonnull(strstr(r->body, "10.2"));
    resp_free(r);
    Resp *keep;
    ck_assert_str_eq(result_of(state(&g, &keep)), "1/2-1/2");
    resp_free(keep);
}
END_TEST

/* The tournament setting guidelines_iii turns Guidelines III on; they
 * never apply to blitz (III.2.2).  White is given 60 s to be under two
 * minutes, then asks for the increment (III.4). */
static Resp *increment_asked(const char *tc)
{
    Game g = new_game(tc, "{\"guidelines_iii\":true}");
    Resp *r = reqf(&D, &arb, "POST", "{\"side\":\"white\",\"set_ms\":60000}",
                   "/api/v1/games/%lld/arbiter/adjust", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    return reqf(&D, &g.w, "POST", "{\"ply\":0,\"claim\":\"increment\"}", "/api/v1/games/%lld/claim",
                (long long)g.gid);
}

START_TEST(guidelines_iii_not_in_blitz)
{
    Resp *r = increment_asked("900");
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = increment_asked("300");
    ck_assert_int_eq(r->status, 400);
    ck_assert_ptr_nonnull(strstr(r->body, "III.2.2"));
    resp_free(r);
}
END_TEST

START_TEST(round_pause_resume)
{
    Game g = new_game("5400+30", NULL);
    Resp *r =
        reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/pause", (long long)g.tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "status")), "paused");
    resp_free(r);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "e4"), 409);
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/resume", (long long)g.tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "e4"), 200);
    /* Starting a started round again is a clear conflict. */
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)g.tid);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
}
END_TEST

/* The players listed as White and Black in the game's summary. */
static void listed(const Game *g, json_int_t *white, json_int_t *black)
{
    Resp *r;
    json_t *st = state(g, &r);
    *white = jint(json_object_get(st, "white"), "id");
    *black = jint(json_object_get(st, "black"), "id");
    ck_assert_int_eq(jint(json_object_get(st, "game"), "white_id"), *white);
    ck_assert_int_eq(jint(json_object_get(st, "game"), "black_id"), *black);
    resp_free(r);
}

START_TEST(colours_reversed)
{
    Game g = new_game("5400+30", NULL);
    json_int_t w0, b0, w, b;
    listed(&g, &w0, &b0);
    /* Found after one move each: a new game, the pairing stands (7.3). */
    ck_assert_int_eq(play(&D, &g.w, g.gid, 0, "e4"), 200);
    ck_assert_int_eq(play(&D, &g.b, g.gid, 1, "e5"), 200);
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/games/%lld/arbiter/colours", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    Resp *keep;
    json_t *st = json_object_get(state(&g, &keep), "state");
    ck_assert_int_eq(jint(st, "ply"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(st, "clock"), "running")),
                     "white");
    resp_free(keep);
    listed(&g, &w, &b);
    ck_assert(w == w0 && b == b0);
    /* Found after twelve moves each: the game goes on, recorded with the
     * colours as played. */
    static const char *const ruy[] = {"e4",  "e5",  "Nf3", "Nc6",  "Bb5",  "a6",  "Ba4", "Nf6",
                                      "O-O", "Be7", "Re1", "b5",   "Bb3",  "d6",  "c3",  "O-O",
                                      "h3",  "Nb8", "d4",  "Nbd7", "Nbd2", "Bb7", "Bc2", "Re8"};
    play_all(&g, ruy, 24);
    /* A player may not report it. */
    r = reqf(&D, &g.w, "POST", "{}", "/api/v1/games/%lld/arbiter/colours", (long long)g.gid);
    ck_assert_int_eq(r->status, 403);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"note\":\"seen by the deputy\"}",
             "/api/v1/games/%lld/arbiter/colours", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    st = state(&g, &keep);
    ck_assert_int_eq(jint(json_object_get(st, "state"), "ply"), 24);
    ck_assert(json_is_true(json_object_get(json_object_get(st, "state"), "colours_reversed")));
    resp_free(keep);
    listed(&g, &w, &b);
    ck_assert(w == b0 && b == w0);
    /* The first player is now Black: his tablet's move as White is refused,
     * his opponent moves as White, then he as Black. */
    r = reqf(&D, &g.w, "GET", NULL, "/api/v1/auth/me");
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "colour")), "black");
    resp_free(r);
    long code = play(&D, &g.w, g.gid, 24, "Nf1");
    ck_assert_msg(code >= 400 && code < 500, "the move as White answered %ld", code);
    ck_assert_int_eq(play(&D, &g.b, g.gid, 24, "Nf1"), 200);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 25, "Bf8"), 200);
    /* Replaying the log after a restart swaps nothing again. */
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    daemon_start(&D, 1);
    listed(&g, &w, &b);
    ck_assert(w == b0 && b == w0);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)g.gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(play(&D, &g.b, g.gid, 26, "Ng3"), 200);
    listed(&g, &w, &b);
    ck_assert(w == b0 && b == w0);
    /* The PGN names the players as they played. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld/pgn", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(strstr(r->body, "[White \"Player 2\"]") &&
                      strstr(r->body, "[Black \"Player 1\"]"),
                  "%s", r->body);
    ck_assert_ptr_nonnull(strstr(r->body, "7.3: colours reversed found after 12 moves"));
    resp_free(r);
}
END_TEST

/* POSTs BODY to the arbiter's ACTION on the game; returns the status. */
static long arbiter_post(const Game *g, const char *action, const char *body)
{
    Resp *r =
        reqf(&D, &arb, "POST", body, "/api/v1/games/%lld/arbiter/%s", (long long)g->gid, action);
    long status = r->status;
    resp_free(r);
    return status;
}

/* The arbiter's board events: a touched piece binds (4.3), a forgotten
 * press completes the move then (6.2.2), a press without a move and a move
 * with two hands are illegal moves (7.5.3, 7.5.4), displaced pieces with a
 * penalty (7.4), a wrong board (7.2.2), wrong initial position (7.2.1: a new
 * game), and a dead-position ruling refused where a mate exists (5.2.2). */
START_TEST(board_incidents)
{
    Game g = new_game("5400+30", NULL);
    play_all(&g, (const char *const[]){"e4", "e5"}, 2);
    ck_assert_int_eq(arbiter_post(&g, "touch", "{\"side\":\"white\",\"square\":\"g1\"}"), 200);
    Resp *keep;
    json_t *st = json_object_get(state(&g, &keep), "state");
    ck_assert_str_eq(json_string_value(json_object_get(st, "must_move_from")), "g1");
    resp_free(keep);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 2, "d4"), 409);
    ck_assert_int_eq(play(&D, &g.w, g.gid, 2, "Nf3"), 200);
    ck_assert_int_eq(arbiter_post(&g, "press", "{\"side\":\"black\",\"move\":\"Nc6\"}"), 200);
    ck_assert_int_eq(arbiter_post(&g, "illegal_act", "{\"side\":\"white\",\"kind\":\"no_move\"}"),
                     200);
    ck_assert_int_eq(arbiter_post(&g, "illegal_act", "{\"side\":\"black\",\"kind\":\"two_hands\"}"),
                     200);
    ck_assert_int_eq(arbiter_post(&g, "illegal_act", "{\"side\":\"black\",\"kind\":\"jump\"}"),
                     400);
    ck_assert_int_eq(
        arbiter_post(&g, "displaced", "{\"side\":\"white\",\"kind\":\"time_add\",\"ms\":60000}"),
        200);
    ck_assert_int_eq(arbiter_post(&g, "setup", "{\"kind\":\"orientation\"}"), 200);
    ck_assert_int_eq(arbiter_post(&g, "dead_position", "{\"kind\":\"dead\"}"), 400);
    st = json_object_get(state(&g, &keep), "state");
    json_t *ill = json_object_get(st, "illegal_moves");
    ck_assert_int_eq(json_integer_value(json_object_get(ill, "white")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(ill, "black")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(st, "ply")), 4);
    resp_free(keep);
    ck_assert_int_eq(arbiter_post(&g, "setup", "{\"kind\":\"position\"}"), 200);
    st = json_object_get(state(&g, &keep), "state");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "ply")), 0);
    resp_free(keep);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld/pgn", (long long)g.gid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "7.2.1: the initial position was incorrect"));
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-game");
    TCase *tc = tcase_create("game");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, full_game_to_mate);
    tcase_add_test(tc, illegal_moves_penalty_and_loss);
    tcase_add_test(tc, draw_by_agreement);
    tcase_add_test(tc, threefold_claim);
    tcase_add_test(tc, resignation_and_confirmation);
    tcase_add_test(tc, server_flag_within_50ms);
    tcase_add_test(tc, absent_player_loses_at_default_time);
    tcase_add_test(tc, flag_with_undecided_mate_waits_for_the_arbiter);
    tcase_add_test(tc, claims_with_intended_move);
    tcase_add_test(tc, claimed_flags);
    tcase_add_test(tc, arbiter_pause_adjust_result);
    tcase_add_test(tc, no_game_worth_more_than_a_game);
    tcase_add_test(tc, guidelines_iii_not_in_blitz);
    tcase_add_test(tc, round_pause_resume);
    tcase_add_test(tc, colours_reversed);
    tcase_add_test(tc, board_incidents);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
