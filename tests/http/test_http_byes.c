/*
 * test_http_byes.c — pairing numbers and requested byes through the API of
 * a real daemon.
 *
 * The expectations come from the FIDE Handbook: the initial order of
 * C.04.2 Art. 2 (rating, then title GM IM WGM FM WIM CM WFM WCM, then
 * name; corrections renumber until round 4 is paired, late entries take
 * their place before and the next free number after), requested byes that
 * must be asked for before their round is paired, and the round robin
 * tables of C.05 Annex 1 (four players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1), in
 * which a game that is not played because of a requested bye leaves the
 * bye to the absent player (TRF H) and a forfeit win to the scheduled
 * opponent (TRF +).  The report is read back with the rules layer's TRF
 * reader and the standings compared with `arbiter standings` on it.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trf.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* An empty tournament of SYSTEM with ROUNDS rounds. */
static int64_t tournament(const char *system, int rounds)
{
    char body[160];
    snprintf(body, sizeof body,
             "{\"name\":\"Byes\",\"time_control\":\"5400+30\",\"system\":\"%s\",\"rounds\":%d}",
             system, rounds);
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments", body);
    ck_assert_msg(r->status == 201, "%s", r->body);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    return tid;
}

/* Registers a player (BODY: the player's fields); returns the id. */
static int64_t player(int64_t tid, const char *body)
{
    Resp *r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_msg(r->status == 201, "player %s: %ld %s", body, r->status, r->body);
    int64_t id = jint(json_object_get(r->json, "player"), "id");
    resp_free(r);
    return id;
}

/* Registers N players "Player 1".. with ratings 2000, 1990, ... (so their
 * pairing numbers follow the registration) and their ids into P. */
static void rated_players(int64_t tid, int n, int64_t *p)
{
    for (int i = 0; i < n; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"name\":\"Player %d\",\"rating\":%d}", i + 1, 2000 - 10 * i);
        p[i] = player(tid, body);
    }
}

/* The pairing number of player PID as GET players reports it. */
static int tpn_of(int64_t tid, int64_t pid)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    int tpn = -1;
    size_t i;
    json_t *p;
    json_array_foreach(r->json, i, p) if (jint(p, "id") == pid) tpn = (int)jint(p, "tpn");
    resp_free(r);
    return tpn;
}

/* Checks that the players' numbers are PIDS[0] = 1, PIDS[1] = 2, ... */
static void expect_tpns(int64_t tid, const int64_t *pids, int n, const char *when)
{
    for (int i = 0; i < n; i++)
        ck_assert_msg(tpn_of(tid, pids[i]) == i + 1, "%s: player %lld has number %d, not %d", when,
                      (long long)pids[i], tpn_of(tid, pids[i]), i + 1);
}

static long patch_player(int64_t tid, int64_t pid, const char *body)
{
    Resp *r = reqf(&D, &arb, "PATCH", body, "/api/v1/tournaments/%lld/players/%lld", (long long)tid,
                   (long long)pid);
    long st = r->status;
    ck_assert_msg(st == 200, "%s: %s", body, r->body);
    resp_free(r);
    return st;
}

/* POST /rounds without pairings; the answer (caller frees). */
static Resp *pair(int64_t tid)
{
    return reqf(&D, &arb, "POST", "{\"publish\":true}", "/api/v1/tournaments/%lld/rounds",
                (long long)tid);
}

/* Pairs the next round, starts it and makes every game a draw. */
static void play_round(int64_t tid)
{
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "pair: %s", r->body);
    int64_t rn = jint(r->json, "number");
    resp_free(r);
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%lld/start", (long long)tid,
             (long long)rn);
    ck_assert_msg(r->status == 200, "start: %s", r->body);
    json_t *games = json_object_get(r->json, "games");
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        Resp *a = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0.5}",
                       "/api/v1/games/%lld/arbiter/result", (long long)jint(g, "id"));
        ck_assert_msg(a->status == 200, "result: %s", a->body);
        resp_free(a);
    }
    resp_free(r);
}

/* POST a bye request; returns the status, the answer in MSG if given. */
static long bye(int64_t tid, int64_t pid, int rn, const char *kind, char *msg, size_t n)
{
    char body[80];
    snprintf(body, sizeof body, "{\"round\":%d,\"kind\":\"%s\"}", rn, kind);
    Resp *r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players/%lld/byes",
                   (long long)tid, (long long)pid);
    long st = r->status;
    if (msg)
        snprintf(msg, n, "%s", r->body ? r->body : "");
    resp_free(r);
    return st;
}

/* The TRF of TID (caller frees) read back; the text in *TEXT if wanted. */
static Tournament *report(int64_t tid, Resp **text)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    Tournament *t = NULL;
    TrfError e;
    int rc = trf_read(r->body, r->len, 0, &t, &e);
    ck_assert_msg(rc == 0, "TRF line %d col %d: %s", e.line, e.column, e.message);
    if (text)
        *text = r;
    else
        resp_free(r);
    return t;
}

static const TrnPlayer *by_name(const Tournament *t, const char *name)
{
    for (int k = 0; k < t->n_players; k++)
        if (!strcmp(t->players[k].name, name))
            return &t->players[k];
    ck_abort_msg("no player %s in the report", name);
    return NULL;
}

START_TEST(initial_order_and_freeze)
{
    int64_t tid = tournament("swiss", 6);
    /* Registered in an order that has nothing to do with C.04.2. */
    int64_t zed = player(tid, "{\"name\":\"Zed\"}");
    int64_t young = player(tid, "{\"name\":\"Young\",\"rating_estimate\":1900}");
    int64_t bacrot = player(tid, "{\"name\":\"Bacrot\",\"rating\":2000,\"title\":\"IM\"}");
    int64_t carlsen = player(tid, "{\"name\":\"Carlsen\",\"rating\":2000,\"title\":\"GM\"}");
    int64_t anand = player(tid, "{\"name\":\"Anand\",\"rating\":2000,\"title\":\"IM\"}");
    int64_t ding = player(tid, "{\"name\":\"Ding\",\"rating\":2100,\"title\":\"WCM\"}");
    int64_t dom = player(tid, "{\"name\":\"Dominguez\",\"rating\":2000}");
    /* Rating; at 2000 GM before IM before untitled, the IMs by name; the
     * estimated player among the rated, the unrated one last. */
    expect_tpns(tid, (const int64_t[]){ding, carlsen, anand, bacrot, dom, young, zed}, 7,
                "registration");
    /* The answer of a creation carries the number too. */
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/players/%lld", (long long)tid,
                   (long long)zed);
    ck_assert_int_eq(jint(r->json, "tpn"), 7);
    ck_assert_int_eq(jint(r->json, "rating_estimate"), 0);
    resp_free(r);

    /* A late entry before the freeze takes its place; a correction renumbers. */
    int64_t late = player(tid, "{\"name\":\"Late\",\"rating\":2050}");
    expect_tpns(tid, (const int64_t[]){ding, late, carlsen, anand, bacrot, dom, young, zed}, 8,
                "late entry before round 1");
    play_round(tid);
    patch_player(tid, zed, "{\"rating\":2200}");
    expect_tpns(tid, (const int64_t[]){zed, ding, late, carlsen, anand, bacrot, dom, young}, 8,
                "correction after round 1");
    play_round(tid);
    play_round(tid);
    patch_player(tid, young, "{\"rating\":2150}");
    int64_t order[10] = {zed, young, ding, late, carlsen, anand, bacrot, dom};
    expect_tpns(tid, order, 8, "correction after round 3");

    /* Round 4 freezes the numbers: a correction changes nobody's, a late
     * entry rated above everybody gets the next free one. */
    play_round(tid);
    patch_player(tid, dom, "{\"rating\":2800}");
    patch_player(tid, zed, "{\"rating\":1000}");
    order[8] = player(tid, "{\"name\":\"Latest\",\"rating\":2900,\"title\":\"GM\"}");
    order[9] = player(tid, "{\"name\":\"Aaron\",\"rating\":2950}");
    expect_tpns(tid, order, 10, "after round 4");

    /* The report numbers players the same way, and the standings carry it. */
    Tournament *t = report(tid, NULL);
    ck_assert_int_eq(t->n_players, 10);
    ck_assert_int_eq(by_name(t, "Zed")->id, 1);
    ck_assert_int_eq(by_name(t, "Dominguez")->id, 8);
    ck_assert_int_eq(by_name(t, "Dominguez")->rating, 2800);
    ck_assert_int_eq(by_name(t, "Aaron")->id, 10);
    /* Rounds 1-4 reach the report with the new numbers: Latest missed them. */
    ck_assert_int_eq(by_name(t, "Latest")->games[0].opponent, 0);
    tournament_free(t);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    size_t i;
    json_t *row;
    json_array_foreach(r->json, i, row)
    {
        json_t *p = json_object_get(row, "player");
        ck_assert_int_eq(jint(p, "tpn"), tpn_of(tid, jint(p, "id")));
    }
    resp_free(r);

    /* A bad estimate is refused with the field named. */
    r = reqf(&D, &arb, "PATCH", "{\"rating_estimate\":-5}", "/api/v1/tournaments/%lld/players/%lld",
             (long long)tid, (long long)zed);
    ck_assert_int_eq(r->status, 400);
    ck_assert_ptr_nonnull(strstr(r->body, "rating_estimate"));
    resp_free(r);
}
END_TEST

/* Unrated, untitled: the name decides, diacritics folded (Ö is an O). */
START_TEST(initial_order_by_name)
{
    int64_t tid = tournament("swiss", 5);
    int64_t zoltan = player(tid, "{\"name\":\"Zoltan, B\"}");
    int64_t odon = player(tid, "{\"name\":\"Ödön, A\"}");
    int64_t ivanov = player(tid, "{\"name\":\"Иванов, И\"}");
    expect_tpns(tid, (const int64_t[]){odon, zoltan, ivanov}, 3, "names");
}
END_TEST

START_TEST(bye_rules)
{
    int64_t tid = tournament("swiss", 5);
    int64_t p[5];
    for (int i = 0; i < 5; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"name\":\"P%d\",\"rating\":%d}", i + 1, 2000 - 10 * i);
        p[i] = player(tid, body);
    }
    /* One half-point bye per player, none in the last round. */
    static const char *const bad[] = {"{\"bye_limit\":-1}", "{\"bye_limit\":\"2\"}",
                                      "{\"bye_last_rounds\":100}"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Resp *r = reqf(&D, &arb, "PATCH", bad[i], "/api/v1/tournaments/%lld", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld", bad[i], r->status);
        resp_free(r);
    }
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert(json_is_null(json_object_get(r->json, "bye_limit")));
    ck_assert_int_eq(jint(r->json, "bye_last_rounds"), 0);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"bye_limit\":1,\"bye_last_rounds\":1}",
             "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_int_eq(jint(r->json, "bye_limit"), 1);
    ck_assert_int_eq(jint(r->json, "bye_last_rounds"), 1);
    resp_free(r);

    char msg[512];
    ck_assert_int_eq(bye(tid, p[0], 5, "half", msg, sizeof msg), 409);
    ck_assert_ptr_nonnull(strstr(msg, "last 1 round"));
    ck_assert_int_eq(bye(tid, p[0], 5, "zero", NULL, 0), 201); /* an absence is always fine */
    ck_assert_int_eq(bye(tid, p[0], 2, "half", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[0], 3, "half", msg, sizeof msg), 409);
    ck_assert_ptr_nonnull(strstr(msg, "allows 1"));
    ck_assert_int_eq(bye(tid, p[0], 2, "zero", msg, sizeof msg), 409); /* one per round */
    ck_assert_int_eq(bye(tid, p[0], 6, "half", NULL, 0), 400);         /* no round 6 */
    ck_assert_int_eq(bye(tid, p[0], 1, "full", NULL, 0), 400);
    /* Cancelled, the half-point bye can be taken elsewhere. */
    ck_assert_int_eq(bye(tid, p[0], 2, "none", NULL, 0), 200);
    ck_assert_int_eq(bye(tid, p[0], 2, "none", msg, sizeof msg), 404);
    ck_assert_int_eq(bye(tid, p[0], 3, "half", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[1], 1, "zero", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[2], 1, "half", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[2], 1, "none", NULL, 0), 200);
    /* No half-point byes at all. */
    r = reqf(&D, &arb, "PATCH", "{\"bye_limit\":0}", "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    ck_assert_int_eq(bye(tid, p[3], 2, "half", msg, sizeof msg), 409);
    ck_assert_ptr_nonnull(strstr(msg, "no half-point byes"));
    r = reqf(&D, &arb, "PATCH", "{\"bye_limit\":1}", "/api/v1/tournaments/%lld", (long long)tid);
    resp_free(r);
    /* A withdrawn player is not paired anyway. */
    patch_player(tid, p[4], "{\"status\":\"withdrawn\"}");
    ck_assert_int_eq(bye(tid, p[4], 2, "half", NULL, 0), 409);
    patch_player(tid, p[4], "{\"status\":\"active\"}");

    /* Round 1: four players, P2 absent; the bye is nobody's pairing. */
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 2);
    resp_free(r);
    /* Round 1 is paired: no bye asked for, none cancelled there. */
    ck_assert_int_eq(bye(tid, p[3], 1, "zero", msg, sizeof msg), 409);
    ck_assert_ptr_nonnull(strstr(msg, "already paired"));
    ck_assert_int_eq(bye(tid, p[1], 1, "none", NULL, 0), 409);

    /* The list: by round, requested ones and the pairing's. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/byes", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 3);
    static const struct {
        int round, who;
        const char *kind;
    } want[] = {{1, 1, "zero"}, {3, 0, "half"}, {5, 0, "zero"}};
    for (size_t i = 0; i < 3; i++) {
        json_t *b = json_array_get(r->json, i);
        ck_assert_int_eq(jint(b, "round"), want[i].round);
        ck_assert_int_eq(jint(b, "player_id"), p[want[i].who]);
        ck_assert_str_eq(json_string_value(json_object_get(b, "kind")), want[i].kind);
        ck_assert_ptr_nonnull(json_string_value(json_object_get(b, "player_name")));
    }
    resp_free(r);
    r = req(&D, NULL, "GET", "/api/v1/tournaments/999/byes", NULL);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);

    /* A hand-made pairing cannot put a player with a requested bye on a
     * board, and the refused round leaves nothing behind. */
    ck_assert_int_eq(bye(tid, p[3], 2, "zero", NULL, 0), 201);
    char body[128];
    snprintf(body, sizeof body, "{\"pairings\":[{\"white_id\":%lld,\"black_id\":%lld}]}",
             (long long)p[3], (long long)p[1]);
    r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_ptr_nonnull(strstr(r->body, "cancel it first"));
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), 1);
    resp_free(r);
}
END_TEST

/* Result RES ("1-0", "0-1", "1/2-1/2") for every game of round RN of TID,
 * after starting it; returns the number of games. */
static int record_round(int64_t tid, int64_t rn, const char *const *res)
{
    Resp *r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%lld/start",
                   (long long)tid, (long long)rn);
    ck_assert_msg(r->status == 200, "start: %s", r->body);
    json_t *games = json_object_get(r->json, "games");
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        const char *body = !strcmp(res[i], "1-0")     ? "{\"white\":1,\"black\":0}"
                           : !strcmp(res[i], "0-1")   ? "{\"white\":0,\"black\":1}"
                           : !strcmp(res[i], "1/2-0") ? "{\"white\":0.5,\"black\":0}"
                           : !strcmp(res[i], "0-0")   ? "{\"white\":0,\"black\":0}"
                           : !strcmp(res[i], "+/+")   ? "{\"white\":1,\"black\":1,\"forfeit\":true}"
                           : !strcmp(res[i], "-/-")   ? "{\"white\":0,\"black\":0,\"forfeit\":true}"
                                                      : "{\"white\":0.5,\"black\":0.5}";
        Resp *a = reqf(&D, &arb, "POST", body, "/api/v1/games/%lld/arbiter/result",
                       (long long)jint(g, "id"));
        ck_assert_msg(a->status == 200, "result: %s", a->body);
        resp_free(a);
    }
    int n = (int)json_array_size(games);
    resp_free(r);
    return n;
}

/* `arbiter standings FILE` on the TRF equals the API's standings: order,
 * points and every tie-break.  The report says by itself (line 192) that
 * the event is a round robin, where forfeits count as games (C.07). */
static void compare_standings(int64_t tid, const Resp *trf)
{
    ck_assert_ptr_nonnull(strstr(trf->body, "\r192 FIDE_ROUNDROBIN\r"));
    json_decref(assert_standings_match_cli(&D, tid, trf->body, trf->len, ""));
}

static int has_bye(json_t *byes, int64_t pid, const char *kind, int64_t opponent)
{
    size_t i;
    json_t *b;
    json_array_foreach(byes, i,
                       b) if (jint(b, "player_id") == pid &&
                              !strcmp(json_string_value(json_object_get(b, "kind")), kind) &&
                              jint(b, "opponent_id") == opponent) return 1;
    return 0;
}

START_TEST(round_robin_with_a_half_point_bye)
{
    int64_t tid = tournament("roundrobin", 3);
    int64_t p[4];
    rated_players(tid, 4, p);
    /* Player 2 asks for a half-point bye in round 2, where the Berger table
     * (C.05 Annex 1: 4-3, 1-2) has him against player 1. */
    ck_assert_int_eq(bye(tid, p[1], 2, "half", NULL, 0), 201);
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 2);
    resp_free(r);
    /* Round 1: 1-4 1-0, 2-3 draw.  The bye of round 2 counts only from
     * round 2. */
    ck_assert_int_eq(record_round(tid, 1, (const char *const[]){"1-0", "1/2-1/2"}), 2);
    ck_assert(points_of(&D, tid, p[1]) == 0.5);
    /* After round 1 the numbers are fixed: a correction changes nothing,
     * and the table takes no late entry. */
    patch_player(tid, p[3], "{\"rating\":2500}");
    ck_assert_int_eq(tpn_of(tid, p[3]), 4);
    r = reqf(&D, &arb, "POST", "{\"name\":\"Late\"}", "/api/v1/tournaments/%lld/players",
             (long long)tid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_ptr_nonnull(strstr(r->body, "round robin"));
    resp_free(r);

    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 1); /* only 4-3 is played */
    json_t *g = json_array_get(games, 0);
    ck_assert_int_eq(jint(g, "white_id"), p[3]);
    ck_assert_int_eq(jint(g, "black_id"), p[2]);
    json_t *byes = json_object_get(r->json, "byes");
    ck_assert_int_eq(json_array_size(byes), 2);
    ck_assert(has_bye(byes, p[1], "half", p[0]));
    ck_assert(has_bye(byes, p[0], "forfeit", p[1]));
    resp_free(r);
    /* The criteria report finds the round as the table has it. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/2/check", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(json_array_size(json_object_get(r->json, "violations")) == 0, "%s", r->body);
    ck_assert(json_is_false(json_object_get(r->json, "engine_differs")));
    resp_free(r);
    /* The unplayed game is no game: starting the round starts only 4-3. */
    ck_assert_int_eq(record_round(tid, 2, (const char *const[]){"0-1"}), 1);
    ck_assert(points_of(&D, tid, p[0]) == 2.0); /* 1 + the forfeit win */
    ck_assert(points_of(&D, tid, p[1]) == 1.0); /* 0.5 + the half-point bye */
    ck_assert(points_of(&D, tid, p[2]) == 1.5);
    ck_assert(points_of(&D, tid, p[3]) == 0.0);
    /* Round 3: 2-4, 3-1, both played. */
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 2);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "byes")), 0);
    resp_free(r);
    ck_assert_int_eq(record_round(tid, 3, (const char *const[]){"1-0", "0-1"}), 2);

    Resp *text;
    Tournament *t = report(tid, &text);
    const TrnPlayer *one = by_name(t, "Player 1"), *two = by_name(t, "Player 2");
    ck_assert_int_eq(two->games[1].result, TRN_RES_HPB);
    ck_assert_int_eq(two->games[1].opponent, 0);
    ck_assert_int_eq(one->games[1].result, TRN_RES_FORFEIT_WIN);
    ck_assert_int_eq(one->games[1].opponent, 0);
    ck_assert_int_eq(one->points, 3 * TRN_POINT);
    ck_assert_int_eq(two->points, 2 * TRN_POINT);
    /* The TRF columns themselves: no opponent, no colour. */
    ck_assert_ptr_nonnull(strstr(text->body, "0000 - H"));
    ck_assert_ptr_nonnull(strstr(text->body, "0000 - +"));
    compare_standings(tid, text);
    tournament_free(t);
    resp_free(text);
    /* The list shows both byes of round 2. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/byes", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), 2);
    ck_assert(has_bye(r->json, p[0], "forfeit", p[1]));
    resp_free(r);
    /* The PGN has the five games played and nothing for the forfeit. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/pgn", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    int events = 0;
    for (const char *q = r->body; (q = strstr(q, "[Event ")); q++)
        events++;
    ck_assert_int_eq(events, 5);
    resp_free(r);
}
END_TEST

START_TEST(round_robin_absences)
{
    int64_t tid = tournament("roundrobin", 3);
    int64_t p[4];
    rated_players(tid, 4, p);
    /* Round 1 (1-4, 2-3): 2 and 3 both announce their absence. */
    ck_assert_int_eq(bye(tid, p[1], 1, "zero", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[2], 1, "half", NULL, 0), 201);
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 1);
    json_t *byes = json_object_get(r->json, "byes");
    ck_assert_int_eq(json_array_size(byes), 2);
    ck_assert(has_bye(byes, p[1], "zero", p[2]));
    ck_assert(has_bye(byes, p[2], "half", p[1]));
    resp_free(r);
    ck_assert_int_eq(record_round(tid, 1, (const char *const[]){"1/2-1/2"}), 1);
    ck_assert(points_of(&D, tid, p[1]) == 0.0);
    ck_assert(points_of(&D, tid, p[2]) == 0.5);
    /* Round 2 (4-3, 1-2): 4 is absent, 1 and 2 both; no game at all. */
    ck_assert_int_eq(bye(tid, p[3], 2, "zero", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[0], 2, "zero", NULL, 0), 201);
    ck_assert_int_eq(bye(tid, p[1], 2, "zero", NULL, 0), 201);
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 0);
    byes = json_object_get(r->json, "byes");
    ck_assert(has_bye(byes, p[2], "forfeit", p[3]));
    resp_free(r);
    /* Such a round counts as soon as it is paired. */
    ck_assert(points_of(&D, tid, p[2]) == 1.5);
    ck_assert(points_of(&D, tid, p[3]) == 0.5);

    Resp *text;
    Tournament *t = report(tid, &text);
    const TrnPlayer *q[4];
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "Player %d", i + 1);
        q[i] = by_name(t, name);
    }
    /* Round 1: the half-point bye cannot name an opponent, so neither does
     * the zero-point one. */
    ck_assert_int_eq(q[1]->games[0].result, TRN_RES_ZPB);
    ck_assert_int_eq(q[1]->games[0].opponent, 0);
    ck_assert_int_eq(q[2]->games[0].result, TRN_RES_HPB);
    /* Round 2: forfeits between the scheduled opponents, + against - and
     * - against - (C.07: a round robin counts them as games). */
    ck_assert_int_eq(q[2]->games[1].result, TRN_RES_FORFEIT_WIN);
    ck_assert_int_eq(q[2]->games[1].opponent, q[3]->id);
    ck_assert_int_eq(q[3]->games[1].result, TRN_RES_FORFEIT_LOSS);
    ck_assert_int_eq(q[3]->games[1].opponent, q[2]->id);
    ck_assert_int_eq(q[0]->games[1].result, TRN_RES_FORFEIT_LOSS);
    ck_assert_int_eq(q[0]->games[1].opponent, q[1]->id);
    ck_assert_int_eq(q[1]->games[1].result, TRN_RES_FORFEIT_LOSS);
    ck_assert_int_eq(q[1]->games[1].opponent, q[0]->id);
    compare_standings(tid, text);
    tournament_free(t);
    resp_free(text);
}
END_TEST

START_TEST(round_robin_free_round_and_withdrawal)
{
    int64_t tid = tournament("roundrobin", 5);
    int64_t p[5];
    rated_players(tid, 5, p);
    /* Five players, the table of six: round 1 is 1-6 (player 1 free), 2-5,
     * 3-4.  A half-point bye asked for a free round is moot: the free
     * round stands and scores nothing. */
    ck_assert_int_eq(bye(tid, p[0], 1, "half", NULL, 0), 201);
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 2);
    json_t *byes = json_object_get(r->json, "byes");
    ck_assert_int_eq(json_array_size(byes), 1);
    ck_assert(has_bye(byes, p[0], "free", 0));
    resp_free(r);
    ck_assert_int_eq(record_round(tid, 1, (const char *const[]){"1-0", "1-0"}), 2);
    ck_assert(points_of(&D, tid, p[0]) == 0.0);
    /* Player 5 withdraws; round 2 is 6-4 (4 free), 5-3, 1-2: player 3 wins
     * by forfeit, only 1-2 is played. */
    patch_player(tid, p[4], "{\"status\":\"withdrawn\"}");
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 1);
    ck_assert_int_eq(jint(json_array_get(games, 0), "white_id"), p[0]);
    ck_assert_int_eq(jint(json_array_get(games, 0), "black_id"), p[1]);
    byes = json_object_get(r->json, "byes");
    ck_assert(has_bye(byes, p[3], "free", 0));
    ck_assert(has_bye(byes, p[2], "forfeit", p[4]));
    resp_free(r);
    ck_assert_int_eq(record_round(tid, 2, (const char *const[]){"1/2-1/2"}), 1);
    ck_assert(points_of(&D, tid, p[2]) == 2.0); /* the win in round 1 and the forfeit */
    ck_assert(points_of(&D, tid, p[4]) == 0.0);
    Tournament *t = report(tid, NULL);
    const TrnPlayer *three = by_name(t, "Player 3"), *five = by_name(t, "Player 5");
    ck_assert_int_eq(three->games[1].result, TRN_RES_FORFEIT_WIN);
    ck_assert_int_eq(three->games[1].opponent, five->id);
    ck_assert_int_eq(five->games[1].result, TRN_RES_FORFEIT_LOSS);
    ck_assert_int_eq(five->games[1].opponent, three->id);
    tournament_free(t);
}
END_TEST

/* The arbiter edits round 5's bye of player PID (KIND: none, zero, half) and
 * the criteria report then says exactly WANT. */
static void edit_bye_then_check(int64_t tid, int64_t pid, const char *kind, const char *want,
                                const char *what)
{
    char body[96], codes[256];
    snprintf(body, sizeof body, "{\"player_id\":%lld,\"kind\":\"%s\"}", (long long)pid, kind);
    Resp *r =
        reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/5/byes", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    round_check_codes(&D, &arb, tid, 5, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, want), "%s: %s", what, codes);
}

/* Round robin, six players (C.05 Annex 1: 1-6 2-5 3-4 / 6-4 5-3 1-2 /
 * 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1).  The criteria report of the
 * server's own rounds has nothing to say, whether a scheduled opponent wins
 * by forfeit because of a requested bye (pending or played) or a
 * withdrawal; an edit that leaves a player out is reported. */
START_TEST(round_robin_check_of_absences)
{
    int64_t tid = tournament("roundrobin", 5);
    int64_t p[6];
    rated_players(tid, 6, p);
    char codes[256];
    for (int rn = 1; rn <= 2; rn++) {
        Resp *r = pair(tid);
        ck_assert_msg(r->status == 201, "%s", r->body);
        resp_free(r);
        ck_assert_int_eq(record_round(tid, rn, (const char *const[]){"1-0", "0-1", "1/2-1/2"}), 3);
    }
    /* Round 3 (2-6 3-1 4-5): player 4 asks for a half-point bye, so 5 wins
     * by forfeit; nothing to report, paired or played. */
    ck_assert_int_eq(bye(tid, p[3], 3, "half", NULL, 0), 201);
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert(has_bye(json_object_get(r->json, "byes"), p[4], "forfeit", p[3]));
    resp_free(r);
    round_check_codes(&D, &arb, tid, 3, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, ""), "round 3 as paired: %s", codes);
    ck_assert_int_eq(record_round(tid, 3, (const char *const[]){"1-0", "0-1"}), 2);
    round_check_codes(&D, &arb, tid, 3, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, ""), "round 3 as played: %s", codes);
    /* Player 1 withdraws: in round 4 (6-5 1-4 2-3) 4 wins by forfeit. */
    patch_player(tid, p[0], "{\"status\":\"withdrawn\"}");
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert(has_bye(json_object_get(r->json, "byes"), p[3], "forfeit", p[0]));
    resp_free(r);
    round_check_codes(&D, &arb, tid, 4, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, ""), "round 4 as paired: %s", codes);
    ck_assert_int_eq(record_round(tid, 4, (const char *const[]){"1-0", "0-1"}), 2);
    round_check_codes(&D, &arb, tid, 4, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, ""), "round 4 as played: %s", codes);
    /* Round 5 (3-6 4-2 5-1): 5 wins by forfeit against the withdrawn 1,
     * and 2 asks for a zero-point bye, so 4 does too. */
    ck_assert_int_eq(bye(tid, p[1], 5, "zero", NULL, 0), 201);
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "games")), 1);
    resp_free(r);
    round_check_codes(&D, &arb, tid, 5, codes, sizeof codes);
    ck_assert_msg(!strcmp(codes, ""), "round 5 as paired: %s", codes);
    /* The arbiter takes 2's bye back: 2 is present without a game, and 4's
     * forfeit win no longer stands for an absence. */
    edit_bye_then_check(tid, p[1], "none", "UNPAIRED BERGER", "round 5 without the bye");
    /* The bye again, then the forfeit winner 5 left out. */
    edit_bye_then_check(tid, p[1], "zero", "", "round 5 with the bye again");
    edit_bye_then_check(tid, p[4], "none", "UNPAIRED", "round 5 without the forfeit win");
}
END_TEST

/*
 * Line 192 of the report: four players and six rounds are a double round
 * robin, paired with the first cycle's last two rounds swapped
 * (FIDE_DOUBLEROUNDROBIN); with three rounds a single one.
 */
START_TEST(round_robin_report_names_its_system)
{
    static const struct {
        int rounds;
        const char *line;
    } cases[] = {{6, "\r192 FIDE_DOUBLEROUNDROBIN\r"}, {3, "\r192 FIDE_ROUNDROBIN\r"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t tid = tournament("roundrobin", cases[i].rounds);
        int64_t p[4];
        rated_players(tid, 4, p);
        Resp *text;
        Tournament *t = report(tid, &text);
        ck_assert_msg(strstr(text->body, cases[i].line) != NULL, "%d rounds: %s", cases[i].rounds,
                      text->body);
        resp_free(text);
        tournament_free(t);
    }
}
END_TEST

/*
 * Scores that do not add up (Laws 11.8: both lose; 12.9: a penalty leaves
 * 1/2-0) go into the report side by side; the file reads back and its
 * standings are the API's.
 */
/* A round robin of four whose round 1 (1-4, 2-3) got results A and B; the
 * report read back, and its text in *TEXT. */
static Tournament *round_one_report(const char *a, const char *b, int64_t *tid, Resp **text)
{
    *tid = tournament("roundrobin", 3);
    int64_t p[4];
    rated_players(*tid, 4, p);
    Resp *r = pair(*tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    ck_assert_int_eq(record_round(*tid, 1, (const char *const[]){a, b}), 2);
    return report(*tid, text);
}

START_TEST(report_with_penalty_scores)
{
    int64_t tid;
    Resp *text;
    Tournament *t = round_one_report("1/2-0", "0-0", &tid, &text);
    const TrnPlayer *one = by_name(t, "Player 1"), *four = by_name(t, "Player 4");
    ck_assert_int_eq(one->games[0].result, TRN_RES_DRAW);
    ck_assert_int_eq(four->games[0].result, TRN_RES_LOSS);
    ck_assert_int_eq(one->points, 5);
    ck_assert_int_eq(by_name(t, "Player 2")->points, 0);
    compare_standings(tid, text);
    resp_free(text);
    tournament_free(t);
}
END_TEST

/* An arbiter may award both players the point of a game not played
 * (+/+); the report carries it and reads back, with the standings equal. */
START_TEST(report_with_both_forfeits_won)
{
    int64_t tid;
    Resp *text;
    Tournament *t = round_one_report("+/+", "-/-", &tid, &text);
    ck_assert_ptr_nonnull(t);
    const TrnPlayer *one = by_name(t, "Player 1"), *four = by_name(t, "Player 4");
    ck_assert_int_eq(one->games[0].result, TRN_RES_FORFEIT_WIN);
    ck_assert_int_eq(four->games[0].result, TRN_RES_FORFEIT_WIN);
    ck_assert_int_eq(one->points, 10);
    ck_assert_int_eq(four->points, 10);
    ck_assert_int_eq(by_name(t, "Player 2")->points, 0);
    compare_standings(tid, text);
    resp_free(text);
    tournament_free(t);
}
END_TEST

/* The tournament's status, as the desk and the public pages show it:
 * in preparation until a round starts, running while rounds are played,
 * finished once the last round (three of a Swiss; a round robin's Berger
 * table, here three for four players) has a result on every board. */
static const char *tournament_status(int64_t tid, char *buf, size_t n)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    snprintf(buf, n, "%s", json_string_value(json_object_get(r->json, "status")));
    resp_free(r);
    Resp *l = req(&D, NULL, "GET", "/api/v1/tournaments", NULL);
    size_t i;
    json_t *x;
    json_array_foreach(l->json, i, x) if (jint(x, "id") == tid)
        ck_assert_str_eq(json_string_value(json_object_get(x, "status")), buf);
    resp_free(l);
    return buf;
}

START_TEST(tournament_status_follows_the_rounds)
{
    char st[32];
    static const char *const systems[] = {"swiss", "roundrobin"};
    for (int k = 0; k < 2; k++) {
        /* An hour of default time, so that a board nobody plays stays open
         * (with none, both players are absent at once: -/-, 6.7). */
        char body[200];
        snprintf(body, sizeof body,
                 "{\"name\":\"Status\",\"time_control\":\"5400+30\",\"system\":\"%s\","
                 "\"rounds\":3,\"settings\":{\"default_time_ms\":3600000}}",
                 systems[k]);
        Resp *t = req(&D, &arb, "POST", "/api/v1/tournaments", body);
        ck_assert_msg(t->status == 201, "%s", t->body);
        int64_t tid = jint(t->json, "id");
        resp_free(t);
        int64_t p[4];
        rated_players(tid, 4, p);
        ck_assert_str_eq(tournament_status(tid, st, sizeof st), "setup");
        Resp *r = pair(tid);
        ck_assert_msg(r->status == 201, "%s", r->body);
        resp_free(r);
        ck_assert_str_eq(tournament_status(tid, st, sizeof st), "setup");
        r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
        ck_assert_str_eq(tournament_status(tid, st, sizeof st), "running");
        for (int rn = 1; rn <= 3; rn++) {
            r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d", (long long)tid,
                     rn);
            ck_assert_int_eq(r->status, 200);
            size_t i;
            json_t *g;
            json_array_foreach(json_object_get(r->json, "games"), i, g)
            {
                /* The last board of the last round stays open a while. */
                if (rn == 3 && i + 1 == json_array_size(json_object_get(r->json, "games")))
                    continue;
                Resp *a = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0}",
                               "/api/v1/games/%lld/arbiter/result", (long long)jint(g, "id"));
                ck_assert_msg(a->status == 200, "result: %s", a->body);
                resp_free(a);
            }
            resp_free(r);
            ck_assert_msg(!strcmp(tournament_status(tid, st, sizeof st), "running"),
                          "%s after round %d: %s", systems[k], rn, st);
            if (rn < 3) {
                r = pair(tid);
                ck_assert_msg(r->status == 201, "%s", r->body);
                resp_free(r);
                r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%d/start",
                         (long long)tid, rn + 1);
                ck_assert_int_eq(r->status, 200);
                resp_free(r);
            }
        }
        r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/3", (long long)tid);
        json_t *games = json_object_get(r->json, "games");
        int64_t last = jint(json_array_get(games, json_array_size(games) - 1), "id");
        resp_free(r);
        r = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0.5}",
                 "/api/v1/games/%lld/arbiter/result", (long long)last);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
        ck_assert_str_eq(tournament_status(tid, st, sizeof st), "finished");
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-byes");
    TCase *tc = tcase_create("byes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, initial_order_and_freeze);
    tcase_add_test(tc, initial_order_by_name);
    tcase_add_test(tc, bye_rules);
    tcase_add_test(tc, round_robin_with_a_half_point_bye);
    tcase_add_test(tc, round_robin_absences);
    tcase_add_test(tc, round_robin_free_round_and_withdrawal);
    tcase_add_test(tc, round_robin_check_of_absences);
    tcase_add_test(tc, round_robin_report_names_its_system);
    tcase_add_test(tc, report_with_penalty_scores);
    tcase_add_test(tc, report_with_both_forfeits_won);
    tcase_add_test(tc, tournament_status_follows_the_rounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
