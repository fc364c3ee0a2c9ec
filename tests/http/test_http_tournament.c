/*
 * test_http_tournament.c — the tournament layer through the API of a real
 * daemon: automatic pairing of Swiss rounds (FIDE Dutch) and round robin
 * rounds (Berger tables), requested byes, withdrawals, the point system
 * and tie-break settings, standings and the TRF rating report.
 *
 * The expected pairings are the FIDE Handbook's: round 1 of the Dutch
 * system (C.04.3: top half against bottom half, the lowest-ranked player
 * gets the bye, colours alternate from board 1) and the Berger table for
 * four players (C.05 Annex 1).  The TRF is read back with the rules
 * layer's reader and compared with the games the API reports.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trf.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* A Swiss tournament (or SYSTEM) of N players rated 2000, 1990, ... */
static int64_t tournament(const char *system, int rounds, int n, int64_t *pids)
{
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, n, pids, NULL);
    char body[128];
    snprintf(body, sizeof body, "{\"system\":\"%s\",\"rounds\":%d}", system, rounds);
    Resp *r = reqf(&D, &arb, "PATCH", body, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    return tid;
}

/* POST /rounds without pairings; the answer (caller frees). */
static Resp *pair(int64_t tid)
{
    return reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
}

/* Index of player ID in PIDS, -1 if none. */
static int who(const int64_t *pids, int n, json_int_t id)
{
    for (int i = 0; i < n; i++)
        if (pids[i] == id)
            return i;
    return -1;
}

static int has_bye(json_t *byes, int64_t pid, const char *kind)
{
    size_t i;
    json_t *b;
    json_array_foreach(
        byes, i, b) if (jint(b, "player_id") == pid &&
                        strcmp(json_string_value(json_object_get(b, "kind")), kind) == 0) return 1;
    return 0;
}

static void check_board(json_t *games, size_t i, int64_t white, int64_t black)
{
    json_t *g = json_array_get(games, i);
    ck_assert_msg(jint(g, "white_id") == white && jint(g, "black_id") == black,
                  "board %zu: %lld-%lld, expected %lld-%lld", i + 1, (long long)jint(g, "white_id"),
                  (long long)jint(g, "black_id"), (long long)white, (long long)black);
}

/* Every game the API lists appears in the TRF with the same opponent,
 * colour and result; returns the number of games compared. */
static int compare_trf(const Tournament *t, int64_t tid, const int64_t *pids, int n)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    int compared = 0;
    size_t i, j;
    json_t *round, *g;
    json_array_foreach(r->json, i, round)
    {
        int rn = (int)jint(round, "number");
        json_array_foreach(json_object_get(round, "games"), j, g)
        {
            int w = who(pids, n, jint(g, "white_id")), b = who(pids, n, jint(g, "black_id"));
            char wname[32], bname[32];
            snprintf(wname, sizeof wname, "Player %d", w + 1);
            snprintf(bname, sizeof bname, "Player %d", b + 1);
            const TrnPlayer *pw = NULL, *pb = NULL;
            for (int k = 0; k < t->n_players; k++) {
                if (!strcmp(t->players[k].name, wname))
                    pw = &t->players[k];
                if (!strcmp(t->players[k].name, bname))
                    pb = &t->players[k];
            }
            ck_assert_ptr_nonnull(pw);
            ck_assert_ptr_nonnull(pb);
            const TrnGame *gw = &pw->games[rn - 1], *gb = &pb->games[rn - 1];
            ck_assert_int_eq(gw->opponent, pb->id);
            ck_assert_int_eq(gb->opponent, pw->id);
            ck_assert_int_eq(gw->colour, TRN_WHITE);
            ck_assert_int_eq(gb->colour, TRN_BLACK);
            const char *res = json_string_value(json_object_get(g, "result"));
            char ew = !strcmp(res, "1-0") ? '1' : !strcmp(res, "0-1") ? '0' : '=';
            char eb = ew == '1' ? '0' : ew == '0' ? '1' : '=';
            ck_assert_msg(gw->result == ew && gb->result == eb, "round %d %s: %c %c for %s", rn,
                          wname, gw->result, gb->result, res);
            compared++;
        }
    }
    resp_free(r);
    return compared;
}

/* The API's standings equal the command line's on the exported TRF (which
 * reads the tie-breaks from the file's 202 line), under EDITION. */
static void compare_standings(int64_t tid, const char *trf, size_t len, int edition)
{
    json_t *cli = assert_standings_match_cli(&D, tid, trf, len, "");
    ck_assert_int_eq(jint(cli, "edition"), edition);
    json_decref(cli);
}

START_TEST(swiss_pairing_byes_and_report)
{
    int64_t p[6];
    int64_t tid = tournament("swiss", 3, 6, p);
    /* Before 2026-03-01: the 2023 tie-break rules, on both sides. */
    Resp *d = reqf(&D, &arb, "PATCH", "{\"start_date\":\"2025-09-01\"}", "/api/v1/tournaments/%lld",
                   (long long)tid);
    ck_assert_int_eq(d->status, 200);
    resp_free(d);
    /* A requested half-point bye for the lowest-rated player in round 1. */
    Resp *r = reqf(&D, &arb, "POST", "{\"round\":1,\"kind\":\"half\"}",
                   "/api/v1/tournaments/%lld/players/%lld/byes", (long long)tid, (long long)p[5]);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"round\":1,\"kind\":\"zero\"}",
             "/api/v1/tournaments/%lld/players/%lld/byes", (long long)tid, (long long)p[5]);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"round\":1,\"kind\":\"full\"}",
             "/api/v1/tournaments/%lld/players/%lld/byes", (long long)tid, (long long)p[4]);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);

    /* Round 1 of five players (C.04.3): 1-3 and 4-2, the bye to 5. */
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert_int_eq(jint(r->json, "number"), 1);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 2);
    check_board(games, 0, p[0], p[2]);
    check_board(games, 1, p[3], p[1]);
    ck_assert(has_bye(json_object_get(r->json, "byes"), p[4], "pab"));
    ck_assert(has_bye(json_object_get(r->json, "byes"), p[5], "half"));
    resp_free(r);

    /* Not while round 1 is being played; no bye for a paired round. */
    r = pair(tid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_ptr_nonnull(strstr(r->body, "no result"));
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{\"round\":1,\"kind\":\"zero\"}",
             "/api/v1/tournaments/%lld/players/%lld/byes", (long long)tid, (long long)p[0]);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);

    finish_round(&D, &arb, tid, 1, "1=");
    ck_assert(points_of(&D, tid, p[0]) == 1.0);
    ck_assert(points_of(&D, tid, p[2]) == 0.0);
    ck_assert(points_of(&D, tid, p[1]) == 0.5);
    ck_assert(points_of(&D, tid, p[4]) == 1.0); /* the pairing-allocated bye */
    ck_assert(points_of(&D, tid, p[5]) == 0.5); /* the requested half-point bye */

    /* Player 3 withdraws: round 2 pairs the five others, nobody meets an
     * opponent again, and the bye goes to someone who had none. */
    r = reqf(&D, &arb, "PATCH", "{\"status\":\"withdrawn\"}",
             "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)p[2]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 2);
    int seen[6] = {0};
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        int w = who(p, 6, jint(g, "white_id")), b = who(p, 6, jint(g, "black_id"));
        ck_assert(w >= 0 && b >= 0);
        seen[w]++;
        seen[b]++;
        int a = w < b ? w : b, z = w < b ? b : w;
        ck_assert_msg(!((a == 0 && z == 2) || (a == 1 && z == 3)), "a repeated pairing %d-%d",
                      w + 1, b + 1);
    }
    ck_assert_int_eq(seen[2], 0);
    json_t *byes = json_object_get(r->json, "byes");
    ck_assert_int_eq(json_array_size(byes), 1);
    ck_assert(!has_bye(byes, p[4], "pab"));
    ck_assert_int_eq(seen[who(p, 6, jint(json_array_get(byes, 0), "player_id"))], 0);
    resp_free(r);
    finish_round(&D, &arb, tid, 2, "01");

    /* The rating report: TRF-2026 by default, CR line ends, a file name. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strcasestr(r->headers, "Content-Type: text/plain; charset=utf-8"));
    ck_assert_ptr_nonnull(strcasestr(r->headers, "filename=\"tournament-"));
    ck_assert_ptr_null(memchr(r->body, '\n', r->len));
    ck_assert_ptr_nonnull(memchr(r->body, '\r', r->len));
    ck_assert_ptr_nonnull(strstr(r->body, "\r142 "));
    ck_assert_ptr_nonnull(strstr(r->body, "\r042 2025/09/01\r"));
    Tournament *t = NULL;
    TrfError e;
    int rc = trf_read(r->body, r->len, 0, &t, &e);
    ck_assert_msg(rc == 0, "TRF line %d col %d: %s", e.line, e.column, e.message);
    ck_assert_int_eq(t->n_players, 6);
    ck_assert_int_eq(compare_trf(t, tid, p, 6), 4);
    compare_standings(tid, r->body, r->len, 2023);
    /* Byes as the report spells them: U for the PAB, H for the request. */
    for (int k = 0; k < t->n_players; k++)
        if (!strcmp(t->players[k].name, "Player 5"))
            ck_assert_int_eq(t->players[k].games[0].result, TRN_RES_PAB);
        else if (!strcmp(t->players[k].name, "Player 6"))
            ck_assert_int_eq(t->players[k].games[0].result, TRN_RES_HPB);
    tournament_free(t);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf?flavour=16", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    rc = trf_read(r->body, r->len, 0, &t, &e);
    ck_assert_msg(rc == 0, "TRF16 line %d: %s", e.line, e.message);
    ck_assert_ptr_null(strstr(r->body, "\r142 "));
    ck_assert_int_eq(compare_trf(t, tid, p, 6), 4);
    tournament_free(t);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf?flavour=9", (long long)tid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
}
END_TEST

START_TEST(no_valid_pairing_is_409)
{
    int64_t p[2];
    int64_t tid = tournament("swiss", 5, 2, p);
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    finish_round(&D, &arb, tid, 1, "1");
    /* The two have met: no round 2 satisfies C.04.3 C1. */
    r = pair(tid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "conflict");
    ck_assert_ptr_nonnull(strstr(r->body, "no pairing"));
    resp_free(r);
    /* Nothing was written: still one round. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), 1);
    resp_free(r);
    /* A manual tournament needs explicit pairings. */
    r = reqf(&D, &arb, "PATCH", "{\"system\":\"manual\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    resp_free(r);
    r = pair(tid);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
}
END_TEST

START_TEST(round_robin_berger)
{
    int64_t p[4];
    int64_t tid = tournament("roundrobin", 3, 4, p);
    /* C.05 Annex 1, four players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1. */
    Resp *r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), 2);
    check_board(games, 0, p[0], p[3]);
    check_board(games, 1, p[1], p[2]);
    resp_free(r);
    finish_round(&D, &arb, tid, 1, "==");
    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    games = json_object_get(r->json, "games");
    check_board(games, 0, p[3], p[2]);
    check_board(games, 1, p[0], p[1]);
    resp_free(r);
}
END_TEST

/* Two players in a round robin are a match: as many games as rounds,
 * colours alternating, and no game past the last round. */
START_TEST(round_robin_match_of_two)
{
    int64_t p[2];
    int64_t tid = tournament("roundrobin", 2, 2, p);
    for (int rn = 1; rn <= 2; rn++) {
        Resp *r = pair(tid);
        ck_assert_msg(r->status == 201, "round %d: %s", rn, r->body);
        json_t *games = json_object_get(r->json, "games");
        ck_assert_int_eq(json_array_size(games), 1);
        check_board(games, 0, p[rn == 1 ? 0 : 1], p[rn == 1 ? 1 : 0]);
        resp_free(r);
        finish_round(&D, &arb, tid, rn, rn == 1 ? "1" : "=");
    }
    Resp *r = pair(tid);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
}
END_TEST

START_TEST(points_and_tiebreaks)
{
    int64_t p[2];
    int64_t tid = tournament("swiss", 3, 2, p);
    static const char *const bad[] = {
        "{\"tiebreaks\":\"BH/C1,NOPE\"}", "{\"tiebreaks\":7}",
        "{\"points\":{\"win\":0.33}}",    "{\"points\":{\"win\":-1}}",
        "{\"points\":{\"victory\":3}}",   "{\"points\":[3,1,0]}",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Resp *r = reqf(&D, &arb, "PATCH", bad[i], "/api/v1/tournaments/%lld", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld %s", bad[i], r->status, r->body);
        resp_free(r);
    }
    Resp *r = reqf(&D, &arb, "PATCH", "{\"tiebreaks\":\"BH/C1,NOPE\"}", "/api/v1/tournaments/%lld",
                   (long long)tid);
    ck_assert_ptr_nonnull(strstr(r->body, "tiebreaks"));
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"points\":{\"win\":3,\"draw\":1},\"tiebreaks\":\"BH-C1, SB\"}",
             "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    json_t *pts = json_object_get(r->json, "points");
    ck_assert(json_number_value(json_object_get(pts, "win")) == 3.0);
    ck_assert(json_number_value(json_object_get(pts, "draw")) == 1.0);
    ck_assert(json_number_value(json_object_get(pts, "loss")) == 0.0);
    ck_assert(json_number_value(json_object_get(pts, "bye")) == 1.0);
    json_t *tb = json_object_get(r->json, "tiebreaks");
    ck_assert_int_eq(json_array_size(tb), 2);
    ck_assert_str_eq(json_string_value(json_array_get(tb, 0)), "BH/C1");
    ck_assert_str_eq(json_string_value(json_array_get(tb, 1)), "SB");
    resp_free(r);
    /* An empty list means the system's default. */
    r = reqf(&D, &arb, "PATCH", "{\"tiebreaks\":\"\"}", "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "tiebreaks")), 0);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"tiebreaks\":\"BH/C1 SB\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    /* A tournament created with them keeps them. */
    r = req(&D, &arb, "POST", "/api/v1/tournaments",
            "{\"name\":\"T\",\"time_control\":\"60\",\"points\":{\"win\":2,\"draw\":1,\"loss\":0,"
            "\"bye\":2},\"tiebreaks\":\"DE,WIN\"}");
    ck_assert_msg(r->status == 201, "%s", r->body);
    ck_assert(json_number_value(json_object_get(json_object_get(r->json, "points"), "bye")) == 2.0);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(r->json, "tiebreaks"), 1)),
                     "WIN");
    resp_free(r);

    r = pair(tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    finish_round(&D, &arb, tid, 1, "1");
    /* Three points for the win; the standings name the chosen tie-breaks. */
    ck_assert(points_of(&D, tid, p[0]) == 3.0);
    ck_assert(points_of(&D, tid, p[1]) == 0.0);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    json_t *row = json_array_get(r->json, 0);
    ck_assert_int_eq(jint(json_object_get(row, "player"), "id"), p[0]);
    json_t *tbs = json_object_get(row, "tiebreaks");
    ck_assert_int_eq(json_object_size(tbs), 2);
    ck_assert_ptr_nonnull(json_object_get(tbs, "BH/C1"));
    ck_assert_ptr_nonnull(json_object_get(tbs, "SB"));
    /* SB of the winner: the loser's score (0) times the win. */
    ck_assert(json_number_value(json_object_get(tbs, "SB")) == 0.0);
    resp_free(r);
}
END_TEST

START_TEST(swiss_whole_event)
{
    /* Seven players, five rounds, no round count set: every round pairs,
     * nobody meets twice, nobody gets the bye twice (C.04.3 C1, C2). */
    enum { N = 7, R = 5 };
    int64_t p[N];
    int64_t tid = make_tournament(&D, &arb, "60", NULL, N, p, NULL);
    int met[N][N] = {{0}}, pab[N] = {0};
    const char *pattern[R] = {"10=", "=01", "1=0", "01=", "=10"};
    for (int rn = 1; rn <= R; rn++) {
        Resp *r = pair(tid);
        ck_assert_msg(r->status == 201, "round %d: %s", rn, r->body);
        json_t *games = json_object_get(r->json, "games");
        ck_assert_int_eq(json_array_size(games), N / 2);
        size_t i;
        json_t *g;
        json_array_foreach(games, i, g)
        {
            int w = who(p, N, jint(g, "white_id")), b = who(p, N, jint(g, "black_id"));
            ck_assert_msg(!met[w][b], "round %d: %d and %d meet again", rn, w + 1, b + 1);
            met[w][b] = met[b][w] = 1;
        }
        json_t *byes = json_object_get(r->json, "byes");
        ck_assert_int_eq(json_array_size(byes), 1);
        int k = who(p, N, jint(json_array_get(byes, 0), "player_id"));
        ck_assert_msg(!pab[k], "round %d: a second bye for %d", rn, k + 1);
        pab[k] = 1;
        resp_free(r);
        finish_round(&D, &arb, tid, rn, pattern[rn - 1]);
    }
    /* Points over the event add up: 3 games and a bye per round. */
    double total = 0;
    for (int i = 0; i < N; i++)
        total += points_of(&D, tid, p[i]);
    ck_assert(total == R * (N / 2 + 1.0));
}
END_TEST

/* Titles, federations and ratings are checked by the server, and a refusal
 * names the field: a spreadsheet's columns pasted one place off ("2210" as
 * the title) must not be stored. */
START_TEST(player_fields_validated)
{
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 0, NULL, NULL);
    static const struct {
        const char *body, *field;
    } bad[] = {
        {"{\"name\":\"Vasilev, Georgi\",\"title\":\"2210\"}", "'title'"},
        {"{\"name\":\"Vasilev, Georgi\",\"title\":\"gm\"}", "'title'"},
        {"{\"name\":\"Vasilev, Georgi\",\"federation\":\"FM\"}", "'federation'"},
        {"{\"name\":\"Vasilev, Georgi\",\"federation\":\"bul\"}", "'federation'"},
        {"{\"name\":\"Vasilev, Georgi\",\"rating\":999}", "'rating'"},
        {"{\"name\":\"Vasilev, Georgi\",\"rating\":3501}", "'rating'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Resp *r =
            reqf(&D, &arb, "POST", bad[i].body, "/api/v1/tournaments/%lld/players", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld", bad[i].body, (long)r->status);
        const char *msg =
            json_string_value(json_object_get(json_object_get(r->json, "error"), "message"));
        ck_assert_msg(msg && strstr(msg, bad[i].field), "%s: %s", bad[i].body, msg);
        resp_free(r);
    }
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), 0);
    resp_free(r);
    r = reqf(&D, &arb, "POST",
             "{\"name\":\"Vasilev, Georgi\",\"rating\":2210,\"title\":\"FM\","
             "\"federation\":\"BUL\"}",
             "/api/v1/tournaments/%lld/players", (long long)tid);
    ck_assert_int_eq(r->status, 201);
    int64_t pid = jint(json_object_get(r->json, "player"), "id");
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"federation\":\"Bulgaria\"}",
             "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)pid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"title\":\"\",\"rating\":0}",
             "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)pid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "federation")), "BUL");
    resp_free(r);
}
END_TEST

/* settings.confirm_moves: the event makes every tablet ask for each move.
 * A boolean, kept by a PATCH of other settings, given to anyone who reads
 * the tournament (the tablets read it there); anything but true or false
 * is refused and changes nothing. */
START_TEST(confirm_moves_setting)
{
    int64_t tid = make_tournament(&D, &arb, "5400+30", "{\"confirm_moves\":true}", 0, NULL, NULL);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert(json_is_true(json_object_get(json_object_get(r->json, "settings"), "confirm_moves")));
    resp_free(r);
    static const char *const bad[] = {"{\"settings\":{\"confirm_moves\":1}}",
                                      "{\"settings\":{\"confirm_moves\":\"yes\"}}",
                                      "{\"settings\":{\"confirm_moves\":null}}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = reqf(&D, &arb, "PATCH", bad[i], "/api/v1/tournaments/%lld", (long long)tid);
        ck_assert_msg(r->status == 400, "%s: %ld %s", bad[i], r->status, r->body);
        ck_assert_ptr_nonnull(strstr(r->body, "confirm_moves"));
        resp_free(r);
    }
    r = reqf(&D, &arb, "PATCH", "{\"settings\":{\"supervised\":false}}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert(json_is_true(json_object_get(json_object_get(r->json, "settings"), "confirm_moves")));
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"settings\":{\"confirm_moves\":false}}",
             "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert(
        json_is_false(json_object_get(json_object_get(r->json, "settings"), "confirm_moves")));
    resp_free(r);
}
END_TEST

/* A settings change reaches an open tablet on its game's stream, as a
 * "tournament" event with the tournament as GET /tournaments/{tid} reads. */
START_TEST(settings_change_on_game_stream)
{
    Client pl[2];
    int64_t gid;
    int64_t tid = harness_game_new(&D, &arb, "5400+30", NULL, pl, &gid);
    char path[64];
    snprintf(path, sizeof path, "/api/v1/games/%lld/stream", (long long)gid);
    HarnessStream tablet;
    harness_stream_start(&tablet, &D, &pl[0], path, 1500, 0);
    usleep(300 * 1000);
    Resp *r = reqf(&D, &arb, "PATCH", "{\"settings\":{\"confirm_moves\":true}}",
                   "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = harness_stream_join(&tablet);
    ck_assert_int_eq(r->status, 200);
    const char *ev = strstr(r->body, "event: tournament\ndata: ");
    ck_assert_msg(ev != NULL, "no tournament event:\n%s", r->body);
    json_t *t = json_loads(ev + strlen("event: tournament\ndata: "), JSON_DISABLE_EOF_CHECK, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(jint(t, "id"), tid);
    ck_assert(json_is_true(json_object_get(json_object_get(t, "settings"), "confirm_moves")));
    json_decref(t);
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-tournament");
    TCase *tc = tcase_create("tournament");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, swiss_pairing_byes_and_report);
    tcase_add_test(tc, no_valid_pairing_is_409);
    tcase_add_test(tc, swiss_whole_event);
    tcase_add_test(tc, round_robin_berger);
    tcase_add_test(tc, round_robin_match_of_two);
    tcase_add_test(tc, points_and_tiebreaks);
    tcase_add_test(tc, player_fields_validated);
    tcase_add_test(tc, confirm_moves_setting);
    tcase_add_test(tc, settings_change_on_game_stream);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
