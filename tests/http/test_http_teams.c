/*
 * test_http_teams.c — team competitions played end to end through the API
 * of a real daemon: a 40-team, 4-board, 9-round Swiss (C.04.6), a 10-team
 * round robin, and a small odd Swiss for the pairing-allocated bye.
 *
 * Every board result is entered by the arbiter on the board's game; the
 * test keeps its own account of each team's match points and game points
 * from those results (2/1/0 for a match won, drawn, lost; a whole-match
 * forfeit gives the present side every board) and compares it with the
 * team standings after each round.  Also: no two teams meet twice (a match
 * forfeited whole was no meeting), the
 * standings come in order of match points then game points, a captain may
 * submit only his own team's line-up and not after the deadline or the
 * start of the round, and a line-up of a pending round changes the games'
 * players, and the public delay holds back the match scores.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

enum { MAX_TEAMS = 40, MAX_ROSTER = 5 };

typedef struct Event {
    int64_t tid;
    int n, boards, roster;
    int64_t team[MAX_TEAMS];                 /* team ids */
    int64_t player[MAX_TEAMS][MAX_ROSTER];   /* roster in board order */
    double mp[MAX_TEAMS], gp[MAX_TEAMS];     /* the test's own account */
    unsigned char met[MAX_TEAMS][MAX_TEAMS]; /* pairs that have played */
    int byes[MAX_TEAMS];
} Event;

static int index_of(const Event *e, int64_t team)
{
    for (int i = 0; i < e->n; i++)
        if (e->team[i] == team)
            return i;
    ck_abort_msg("unknown team %lld", (long long)team);
    return -1;
}

/* A team competition of N teams with ROSTER players each (the last ones
 * reserves), BOARDS boards, SYSTEM and ROUNDS. */
static void event_new(Event *e, int n, int boards, int roster, const char *system, int rounds)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    e->boards = boards;
    e->roster = roster;
    char body[512];
    snprintf(body, sizeof body,
             "{\"name\":\"Team event\",\"time_control\":\"60+0\",\"system\":\"%s\","
             "\"rounds\":%d}",
             system, rounds);
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments", body);
    ck_assert_msg(r->status == 201, "%s", r->body);
    e->tid = jint(r->json, "id");
    resp_free(r);
    snprintf(body, sizeof body, "{\"kind\":\"team\",\"boards\":%d}", boards);
    r = reqf(&D, &arb, "PATCH", body, "/api/v1/tournaments/%lld/team-settings", (long long)e->tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "kind")), "team");
    resp_free(r);
    for (int t = 0; t < n; t++) {
        char members[512] = "";
        for (int k = 0; k < roster; k++) {
            /* Ratings spread the teams apart and fall down each roster. */
            snprintf(body, sizeof body, "{\"name\":\"Player %d.%d\",\"rating\":%d}", t + 1, k + 1,
                     2500 - 7 * t - 20 * k);
            r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players", (long long)e->tid);
            ck_assert_msg(r->status == 201, "%s", r->body);
            e->player[t][k] = jint(json_object_get(r->json, "player"), "id");
            resp_free(r);
            snprintf(members + strlen(members), sizeof members - strlen(members),
                     "%s{\"player_id\":%lld%s}", k ? "," : "", (long long)e->player[t][k],
                     k >= boards ? ",\"reserve\":true" : "");
        }
        snprintf(body, sizeof body,
                 "{\"name\":\"Team %02d\",\"federation\":\"FRA\",\"members\":[%s]}", t + 1,
                 members);
        r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/teams", (long long)e->tid);
        ck_assert_msg(r->status == 201, "%s", r->body);
        e->team[t] = jint(r->json, "id");
        resp_free(r);
    }
}

/* Pairs the next round: its matches (caller decrefs). */
static json_t *pair(Event *e, int rn)
{
    Resp *r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/matches", (long long)e->tid);
    ck_assert_msg(r->status == 201, "round %d: %ld %s", rn, r->status, r->body);
    ck_assert_int_eq(jint(r->json, "round"), rn);
    json_t *m = json_incref(json_object_get(r->json, "matches"));
    resp_free(r);
    /* A paired round is a draft: captains and the public see it once it
     * is published. */
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%d/publish",
             (long long)e->tid, rn);
    ck_assert_msg(r->status == 200, "publish round %d: %ld %s", rn, r->status, r->body);
    resp_free(r);
    return m;
}

static json_t *matches_of(Event *e, int rn)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d/matches",
                   (long long)e->tid, rn);
    ck_assert_int_eq(r->status, 200);
    json_t *m = json_incref(r->json);
    resp_free(r);
    return m;
}

/* Checks the pairing of a round: every team once, no rematch, at most the
 * one bye of an odd field (no team twice); records the pairs. */
static void check_pairing(Event *e, json_t *matches, int rn)
{
    int seen[MAX_TEAMS] = {0}, byes = 0;
    size_t i;
    json_t *m;
    json_array_foreach(matches, i, m)
    {
        int a = index_of(e, jint(json_object_get(m, "team_a"), "id"));
        seen[a]++;
        if (json_is_null(json_object_get(m, "team_b"))) {
            byes++;
            ck_assert_msg(e->byes[a] == 0, "round %d: team %d has a second bye", rn, a + 1);
            e->byes[a]++;
            continue;
        }
        int b = index_of(e, jint(json_object_get(m, "team_b"), "id"));
        seen[b]++;
        ck_assert_msg(!e->met[a][b], "round %d: teams %d and %d meet again", rn, a + 1, b + 1);
        e->met[a][b] = e->met[b][a] = 1;
        ck_assert_int_eq(json_array_size(json_object_get(m, "boards")), e->boards);
    }
    for (int t = 0; t < e->n; t++)
        ck_assert_msg(seen[t] == 1, "round %d: team %d paired %d times", rn, t + 1, seen[t]);
    ck_assert_int_eq(byes, e->n % 2);
}

/* A deterministic board result: 0 White wins, 1 draw, 2 Black wins. */
static int outcome(int rn, int table, int board)
{
    unsigned h = (unsigned)(rn * 7919 + table * 104729 + board * 31);
    h ^= h >> 7;
    h *= 2654435761u;
    return (int)((h >> 13) % 3);
}

/* Adds a match's match points from game points GA : GB. */
static void score_match(Event *e, int a, int b, double ga, double gb)
{
    e->gp[a] += ga;
    e->gp[b] += gb;
    e->mp[a] += ga > gb ? 2 : ga == gb ? 1 : 0;
    e->mp[b] += gb > ga ? 2 : ga == gb ? 1 : 0;
}

/* Starts round RN and enters every board's result; FORFEIT_TABLE (0 for
 * none) is forfeited whole by its second team.  Keeps the account. */
static void play_round(Event *e, json_t *matches, int rn, int forfeit_table)
{
    Resp *r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%d/start",
                   (long long)e->tid, rn);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    size_t i;
    json_t *m;
    json_array_foreach(matches, i, m)
    {
        int a = index_of(e, jint(json_object_get(m, "team_a"), "id"));
        if (json_is_null(json_object_get(m, "team_b"))) {
            /* The PAB: a drawn match by default (C.04.6 Art. 1.4). */
            e->mp[a] += 1;
            e->gp[a] += e->boards / 2.0;
            continue;
        }
        int b = index_of(e, jint(json_object_get(m, "team_b"), "id"));
        int table = (int)jint(m, "table");
        if (table == forfeit_table) {
            r = reqf(&D, &arb, "POST", "{\"forfeit\":\"b\"}",
                     "/api/v1/tournaments/%lld/matches/%lld/forfeit", (long long)e->tid,
                     (long long)jint(m, "id"));
            ck_assert_msg(r->status == 200, "%s", r->body);
            ck_assert_str_eq(json_string_value(json_object_get(r->json, "forfeit")), "b");
            resp_free(r);
            score_match(e, a, b, e->boards, 0);
            /* A match forfeited whole was no meeting: the two may meet. */
            e->met[a][b] = e->met[b][a] = 0;
            continue;
        }
        double ga = 0, gb = 0;
        size_t k;
        json_t *g;
        json_array_foreach(json_object_get(m, "boards"), k, g)
        {
            int o = outcome(rn, table, (int)k);
            /* Round 4's first board is won by forfeit: a board forfeit
             * counts as a win in the match. */
            int board_forfeit = rn == 4 && table == 1 && k == 0;
            static const char *const body[] = {"{\"white\":1,\"black\":0}",
                                               "{\"white\":0.5,\"black\":0.5}",
                                               "{\"white\":0,\"black\":1}"};
            if (board_forfeit)
                o = 0;
            r = reqf(&D, &arb, "POST",
                     board_forfeit ? "{\"white\":1,\"black\":0,\"forfeit\":true}" : body[o],
                     "/api/v1/games/%lld/arbiter/result", (long long)jint(g, "game_id"));
            ck_assert_msg(r->status == 200, "%s", r->body);
            resp_free(r);
            double w = o == 0 ? 1 : o == 1 ? 0.5 : 0;
            int a_white = strcmp(json_string_value(json_object_get(g, "colour_a")), "white") == 0;
            ga += a_white ? w : 1 - w;
            gb += a_white ? 1 - w : w;
        }
        score_match(e, a, b, ga, gb);
    }
}

/* The standings agree with the account and come in order. */
static void check_standings(Event *e, int rn)
{
    Resp *r =
        reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/team-standings", (long long)e->tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    json_t *rows = json_object_get(r->json, "rows");
    ck_assert_int_eq(json_array_size(rows), e->n);
    double last_mp = 1e9, last_gp = 1e9;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        int t = index_of(e, jint(row, "team_id"));
        double mp = json_number_value(json_object_get(row, "match_points"));
        double gp = json_number_value(json_object_get(row, "game_points"));
        ck_assert_msg(mp == e->mp[t] && gp == e->gp[t],
                      "round %d, team %d: %.1f MP %.1f GP in the standings, %.1f %.1f counted", rn,
                      t + 1, mp, gp, e->mp[t], e->gp[t]);
        ck_assert_msg(mp < last_mp || (mp == last_mp && gp <= last_gp),
                      "round %d: standings out of order at row %zu", rn, i + 1);
        last_mp = mp;
        last_gp = gp;
    }
    resp_free(r);
}

/* A captain's credentials for team T: his bearer client. */
static Client captain(Event *e, int t)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/teams/%lld/credentials",
                   (long long)e->tid, (long long)e->team[t]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    char body[128];
    snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%s\"}", (long long)e->tid,
             json_string_value(json_object_get(r->json, "pin")));
    resp_free(r);
    r = req(&D, NULL, "POST", "/api/v1/auth/captain", body);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "role")), "captain");
    Client c;
    memset(&c, 0, sizeof c);
    snprintf(c.bearer, sizeof c.bearer, "%s", json_string_value(json_object_get(r->json, "token")));
    resp_free(r);
    return c;
}

/* C submits team T's line-up of players K[0..boards-1] (roster indexes):
 * the status. */
static long lineup(Event *e, const Client *c, int t, int rn, const int *k)
{
    char body[256];
    snprintf(body, sizeof body, "{\"round\":%d,\"players\":[", rn);
    for (int b = 0; b < e->boards; b++)
        snprintf(body + strlen(body), sizeof body - strlen(body), "%s%lld", b ? "," : "",
                 (long long)e->player[t][k[b]]);
    strcat(body, "]}");
    Resp *r = reqf(&D, c, "POST", body, "/api/v1/tournaments/%lld/teams/%lld/lineup",
                   (long long)e->tid, (long long)e->team[t]);
    long st = r->status;
    resp_free(r);
    return st;
}

/* 1 when player PID plays a board of round RN. */
static int plays(Event *e, int rn, int64_t pid)
{
    json_t *ms = matches_of(e, rn);
    int found = 0;
    size_t i, k;
    json_t *m, *g;
    json_array_foreach(ms, i, m) json_array_foreach(json_object_get(m, "boards"), k, g) found |=
        jint(g, "white_id") == pid || jint(g, "black_id") == pid;
    json_decref(ms);
    return found;
}

static void deadline(Event *e, int rn, long long at_ms)
{
    char body[96];
    snprintf(body, sizeof body, "{\"round\":%d,\"at_ms\":%lld}", rn, at_ms);
    Resp *r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/lineup-deadlines",
                   (long long)e->tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
}

START_TEST(swiss_40_teams_9_rounds)
{
    static Event e;
    event_new(&e, 40, 4, 5, "swiss", 9);
    Client cap0 = captain(&e, 0), cap1 = captain(&e, 1);
    /* Round 1: team 1 rests its board 4 for the reserve; its captain cannot
     * touch team 2's line-up; after the deadline he cannot change his. */
    const int with_reserve[4] = {0, 1, 2, 4}, regular[4] = {0, 1, 2, 3};
    ck_assert_int_eq(lineup(&e, &cap0, 0, 1, with_reserve), 200);
    ck_assert_int_eq(lineup(&e, &cap0, 1, 1, regular), 403);
    ck_assert_int_eq(lineup(&e, &cap1, 1, 1, regular), 200);
    const int out_of_order[4] = {1, 0, 2, 3};
    ck_assert_int_eq(lineup(&e, &cap1, 1, 1, out_of_order), 400);
    deadline(&e, 1, 1000);
    ck_assert_int_eq(lineup(&e, &cap1, 1, 1, regular), 409);
    Resp *r =
        reqf(&D, NULL, "POST", "{\"round\":1,\"players\":[1,2,3,4]}",
             "/api/v1/tournaments/%lld/teams/%lld/lineup", (long long)e.tid, (long long)e.team[0]);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = req(&D, &cap0, "GET", "/api/v1/auth/me", NULL);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "role")), "captain");
    ck_assert_int_eq(jint(r->json, "team_id"), e.team[0]);
    resp_free(r);
    /* A team round is paired as matches, not as an individual round. */
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)e.tid);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
    for (int rn = 1; rn <= 9; rn++) {
        json_t *m = pair(&e, rn);
        check_pairing(&e, m, rn);
        if (rn == 1) {
            ck_assert(plays(&e, 1, e.player[0][4]));
            ck_assert(!plays(&e, 1, e.player[0][3]));
        }
        if (rn == 2) {
            /* A line-up of the paired, pending round moves the players. */
            ck_assert(!plays(&e, 2, e.player[0][4]));
            ck_assert_int_eq(lineup(&e, &cap0, 0, 2, with_reserve), 200);
            ck_assert(plays(&e, 2, e.player[0][4]));
            json_decref(m);
            m = matches_of(&e, 2);
        }
        play_round(&e, m, rn, rn == 3 ? 5 : 0);
        json_decref(m);
        if (rn == 2) /* the round has started: line-ups are fixed */
            ck_assert_int_eq(lineup(&e, &cap0, 0, 2, regular), 409);
        check_standings(&e, rn);
    }
    /* All nine rounds are paired. */
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/matches", (long long)e.tid);
    ck_assert_int_eq(r->status, 409);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/team-crosstable?format=csv",
             (long long)e.tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "Team 01"));
    resp_free(r);
    /* The rating report names every team (310) and the forfeited match (330). */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/team-trf", (long long)e.tid);
    ck_assert_int_eq(r->status, 200);
    int teams = 0;
    for (const char *p = r->body; (p = strstr(p, "\r310 ")); p++)
        teams++;
    ck_assert_int_eq(teams, 40);
    ck_assert_ptr_nonnull(strstr(r->body, "\r330 "));
    resp_free(r);
}
END_TEST

START_TEST(round_robin_10_teams)
{
    static Event e;
    event_new(&e, 10, 4, 4, "roundrobin", 9);
    for (int rn = 1; rn <= 9; rn++) {
        json_t *m = pair(&e, rn);
        check_pairing(&e, m, rn);
        play_round(&e, m, rn, 0);
        json_decref(m);
        check_standings(&e, rn);
    }
    for (int a = 0; a < 10; a++)
        for (int b = 0; b < 10; b++)
            ck_assert(a == b || e.met[a][b]);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/board-prizes?min_games=5",
                   (long long)e.tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 4);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/team-players", (long long)e.tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_int_eq(json_array_size(r->json), 40);
    resp_free(r);
}
END_TEST

START_TEST(odd_swiss_gives_one_bye)
{
    static Event e;
    event_new(&e, 7, 4, 4, "swiss", 5);
    for (int rn = 1; rn <= 5; rn++) {
        json_t *m = pair(&e, rn);
        check_pairing(&e, m, rn);
        play_round(&e, m, rn, 0);
        json_decref(m);
        check_standings(&e, rn);
    }
    int byes = 0;
    for (int t = 0; t < 7; t++)
        byes += e.byes[t];
    ck_assert_int_eq(byes, 5);
    /* A match sheet prints. */
    json_t *m = matches_of(&e, 1);
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/matches/%lld?format=html",
                   (long long)e.tid, (long long)jint(json_array_get(m, 0), "id"));
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(strstr(r->body, "<table>"));
    resp_free(r);
    json_decref(m);
}
END_TEST

START_TEST(public_delay_holds_back_match_scores)
{
    static Event e;
    event_new(&e, 4, 2, 2, "swiss", 3);
    Resp *r = reqf(&D, &arb, "PATCH", "{\"settings\":{\"public_delay\":3600}}",
                   "/api/v1/tournaments/%lld", (long long)e.tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    json_t *m = pair(&e, 1);
    play_round(&e, m, 1, 0);
    json_decref(m);
    /* The arbiter sees the scores; the public sees the boards still open. */
    const Client *who[] = {&arb, NULL};
    for (int i = 0; i < 2; i++) {
        r = reqf(&D, who[i], "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/matches",
                 (long long)e.tid);
        ck_assert_int_eq(r->status, 200);
        json_t *first = json_array_get(r->json, 0);
        json_t *score = json_object_get(first, "score");
        const char *res = json_string_value(
            json_object_get(json_array_get(json_object_get(first, "boards"), 0), "result"));
        ck_assert_int_eq(json_is_true(json_object_get(score, "complete")), i == 0);
        ck_assert_int_eq(strcmp(res, "*") == 0, i == 1);
        resp_free(r);
        r = reqf(&D, who[i], "GET", NULL, "/api/v1/tournaments/%lld/team-standings",
                 (long long)e.tid);
        double total = 0;
        size_t k;
        json_t *row;
        json_array_foreach(json_object_get(r->json, "rows"), k, row) total +=
            json_number_value(json_object_get(row, "game_points"));
        ck_assert(i == 0 ? total == 4 : total == 0);
        resp_free(r);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-teams");
    TCase *tc = tcase_create("teams");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, swiss_40_teams_9_rounds);
    tcase_add_test(tc, round_robin_10_teams);
    tcase_add_test(tc, odd_swiss_gives_one_bye);
    tcase_add_test(tc, public_delay_holds_back_match_scores);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
