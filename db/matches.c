/*
 * matches.c — pairing a team round, the matches of a round, forfeits.
 * See matches.h.
 */
#include "matches.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "berger.h"
#include "error.h"
#include "jsonget.h"
#include "lineups.h"
#include "rounds.h"
#include "team_event.h"
#include "team_pairing.h"
#include "teams.h"

static double pts(TrnPoints t)
{
    return (double)t / TRN_POINT;
}

/* {"id","name","pairing_number"} of rules team NUM. */
static json_t *team_ref(const TeamLoad *l, int num)
{
    const TeamEntry *e = team_event_team(l->ev, num);
    if (!e)
        return json_null();
    return json_pack("{s:I,s:s,s:i}", "id", (json_int_t)l->team_ids[num - 1], "name", e->name,
                     "pairing_number", num);
}

static const char SQL_GAME[] =
    "SELECT g.id AS game_id, g.white_id, w.name AS white_name, g.black_id, b.name AS black_name,"
    " CASE WHEN " ROUNDS_SQL_HELD " THEN 'running' ELSE g.status END AS status,"
    " CASE WHEN " ROUNDS_SQL_HELD " THEN '*' ELSE g.result END AS result"
    " FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id"
    " WHERE g.id = ?1";

/* Match K of round RN of L as JSON. */
static json_t *match_json(Store *s, const TeamLoad *l, int rn, int k)
{
    const TeamMatch *m = &l->ev->rounds[rn - 1].matches[k];
    TeamMatchScore sc;
    team_match_score(&l->ev->settings, m, &sc);
    json_t *row = store_row(s, "SELECT table_no, bye, forfeit, colour_a FROM matches WHERE id = ?1",
                            "i", l->match_ids[rn - 1][k]);
    json_t *o = json_pack(
        "{s:I,s:i,s:I,s:o,s:o,s:s,s:s,s:s,s:{s:f,s:f,s:f,s:f,s:b},s:[]}", "id",
        (json_int_t)l->match_ids[rn - 1][k], "round", rn, "table",
        (json_int_t)jsonget_int(row, "table_no"), "team_a", team_ref(l, m->team_a), "team_b",
        m->team_b ? team_ref(l, m->team_b) : json_null(), "bye", jsonget_str(row, "bye"), "forfeit",
        jsonget_str(row, "forfeit"), "colour_a", jsonget_str(row, "colour_a"), "score", "game_a",
        pts(sc.gp_a), "game_b", pts(sc.gp_b), "match_a", pts(sc.mp_a), "match_b", pts(sc.mp_b),
        "complete", sc.complete, "boards");
    json_decref(row);
    json_t *boards = json_object_get(o, "boards");
    int B = l->ev->settings.boards;
    for (int b = 0; m->team_b && b < B; b++) {
        int64_t gid = l->game_ids[rn - 1][(size_t)k * B + b];
        json_t *g = gid ? store_row(s, SQL_GAME, "i", gid) : NULL;
        if (!g)
            continue;
        json_object_set_new(g, "board", json_integer(b + 1));
        json_object_set_new(g, "colour_a",
                            json_string(m->board[b].colour_a == TRN_BLACK ? "black" : "white"));
        json_array_append_new(boards, g);
    }
    return o;
}

json_t *matches_list(Store *s, int64_t tid, int64_t rn)
{
    TeamLoad *l = NULL;
    if (team_event_load(s, tid, (int)rn, &l))
        return NULL;
    json_t *out = json_array();
    if (rn >= 1 && rn <= l->ev->n_rounds)
        for (int k = 0; k < l->ev->rounds[rn - 1].n_matches; k++)
            json_array_append_new(out, match_json(s, l, (int)rn, k));
    team_event_load_free(l);
    return out;
}

json_t *matches_get(Store *s, int64_t tid, int64_t mid)
{
    int64_t rn = store_int(s, 0, "SELECT round FROM matches WHERE id = ?1 AND tournament_id = ?2",
                           "ii", mid, tid);
    if (!rn)
        return NULL;
    TeamLoad *l = NULL;
    if (team_event_load(s, tid, (int)rn, &l))
        return NULL;
    json_t *out = NULL;
    for (int k = 0; k < l->ev->rounds[rn - 1].n_matches && !out; k++)
        if (l->match_ids[rn - 1][k] == mid)
            out = match_json(s, l, (int)rn, k);
    team_event_load_free(l);
    return out;
}

/* Gives the teams of TID their pairing numbers by the rules' ranking order. */
static int number_teams(Store *s, int64_t tid)
{
    TeamLoad *l = NULL;
    int rc = team_event_load(s, tid, 0, &l);
    if (rc)
        return rc;
    int nt = l->ev->n_teams;
    int *order = calloc((size_t)nt + 1, sizeof *order);
    if (!order) {
        team_event_load_free(l);
        return -ENOMEM;
    }
    team_event_rank_order(l->ev, order);
    rc = store_run(s, NULL, "UPDATE teams SET pairing_number = NULL WHERE tournament_id = ?1", "i",
                   tid);
    for (int i = 0; i < nt && !rc; i++)
        rc = store_run(s, NULL, "UPDATE teams SET pairing_number = ?2 WHERE id = ?1", "ii",
                       l->team_ids[order[i] - 1], (int64_t)i + 1);
    free(order);
    team_event_load_free(l);
    return rc;
}

/* The pairs of round RN of L by the tournament's SYSTEM: 0 with *NP. */
static int make_pairs(const TeamLoad *l, const char *system, int planned, int rn, TeamPair *pairs,
                      int *np, char *err, size_t n)
{
    if (strcmp(system, "roundrobin") == 0) {
        int nt = l->ev->n_teams;
        int flags = planned > 0 && planned == 2 * (nt % 2 ? nt : nt - 1) ? BERGER_DOUBLE : 0;
        int k = team_pairing_round_robin(nt, rn, flags, pairs);
        if (k < 0)
            return error_set(err, n, STORE_E_STATE,
                             "a team round robin of %d teams has no round %d", nt, rn);
        *np = k;
        return 0;
    }
    if (strcmp(system, "swiss") != 0)
        return error_set(err, n, STORE_E_STATE, "a %s tournament is not paired by the server",
                         system);
    int rc = team_pairing_swiss(l->ev, rn, pairs, np);
    if (rc == TEAM_PAIRING_E_NONE)
        return error_set(err, n, STORE_E_INVALID,
                         "no pairing of round %d meets the absolute criteria", rn);
    if (rc)
        return rc > 0 ? error_set(err, n, STORE_E_STATE, "round %d cannot be paired", rn) : rc;
    return 0;
}

/* A team's line-up for round RN into IDS, or STORE_E_STATE when short. */
static int lineup(Store *s, const TeamLoad *l, int rn, int num, int64_t *ids, char *err, size_t n)
{
    int B = l->ev->settings.boards;
    if (lineups_effective(s, l->tid, rn, l->team_ids[num - 1], B, ids) < B)
        return error_set(err, n, STORE_E_STATE, "team %s has fewer than %d players available",
                         team_event_team(l->ev, num)->name, B);
    return 0;
}

/* The games of the pairs: {board, white_id, black_id} in board order. */
static int board_pairings(Store *s, const TeamLoad *l, int rn, const TeamPair *pairs, int np,
                          json_t *out, char *err, size_t n)
{
    int B = l->ev->settings.boards, table = 0;
    for (int i = 0; i < np; i++) {
        if (!pairs[i].b)
            continue;
        int64_t a[TEAM_MAX_BOARDS], b[TEAM_MAX_BOARDS];
        int rc = lineup(s, l, rn, pairs[i].a, a, err, n);
        if (!rc)
            rc = lineup(s, l, rn, pairs[i].b, b, err, n);
        if (rc)
            return rc;
        for (int k = 0; k < B; k++) {
            int a_white =
                team_board_colour(&l->ev->settings, pairs[i].colour_a, k + 1) == TRN_WHITE;
            json_array_append_new(out, json_pack("{s:i,s:I,s:I}", "board", table * B + k + 1,
                                                 "white_id", (json_int_t)(a_white ? a[k] : b[k]),
                                                 "black_id", (json_int_t)(a_white ? b[k] : a[k])));
        }
        table++;
    }
    return 0;
}

/* The match rows of the new round RN and their games. */
static int store_matches(Store *s, const TeamLoad *l, int rn, const TeamPair *pairs, int np, int rr)
{
    int B = l->ev->settings.boards, table = 0, rc = 0;
    for (int i = 0; i < np && !rc; i++) {
        int bye = !pairs[i].b;
        rc = store_run(s, NULL,
                       "INSERT INTO matches(tournament_id, round, table_no, team_a, team_b, bye, "
                       "colour_a) VALUES (?1, ?2, ?3, ?4, nullif(?5, 0), ?6, ?7)",
                       "iiiiiss", l->tid, (int64_t)rn, (int64_t)i + 1, l->team_ids[pairs[i].a - 1],
                       bye ? 0 : l->team_ids[pairs[i].b - 1], bye ? (rr ? "free" : "pab") : "",
                       pairs[i].colour_a == TRN_BLACK ? "black" : "white");
        if (rc || bye)
            continue;
        int64_t mid = sqlite3_last_insert_rowid(store_db(s));
        for (int k = 0; k < B && !rc; k++)
            rc = store_run(s, NULL,
                           "INSERT INTO match_games(match_id, board, game_id) SELECT ?1, ?2, id "
                           "FROM games WHERE tournament_id = ?3 AND round = ?4 AND board = ?5",
                           "iiiii", mid, (int64_t)k + 1, l->tid, (int64_t)rn,
                           (int64_t)table * B + k + 1);
        table++;
    }
    return rc;
}

/* 0 when round RN - 1 of TID is over (or RN is 1), else STORE_E_STATE. */
static int previous_over(Store *s, int64_t tid, int64_t rn, char *err, size_t n)
{
    if (rn == 1)
        return 0;
    json_t *r = rounds_get(s, tid, rn - 1);
    int over = r && strcmp(jsonget_str(r, "status"), "finished") == 0;
    json_decref(r);
    return over ? 0
                : error_set(err, n, STORE_E_STATE, "round %lld is not finished", (long long)rn - 1);
}

int matches_pair_next(Store *s, int64_t tid, int64_t user, json_t **out, char *err, size_t n)
{
    if (!teams_event_is_team(s, tid))
        return error_set(err, n, STORE_E_STATE, "tournament %lld is not a team competition",
                         (long long)tid);
    json_t *t = store_row(s, "SELECT system, rounds FROM tournaments WHERE id = ?1", "i", tid);
    char system[16];
    snprintf(system, sizeof system, "%s", jsonget_str(t, "system"));
    int planned = (int)jsonget_int(t, "rounds");
    json_decref(t);
    int64_t rn =
        store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i", tid) + 1;
    int rc = previous_over(s, tid, rn, err, n);
    if (rc)
        return rc;
    if (planned && rn > planned)
        return error_set(err, n, STORE_E_STATE, "all %d rounds are paired", planned);
    if (rn == 1 && (rc = number_teams(s, tid)))
        return rc > 0 ? error_set(err, n, rc, "the pairing numbers were refused") : rc;
    TeamLoad *l = NULL;
    if ((rc = team_event_load(s, tid, -1, &l)))
        return rc > 0 ? error_set(err, n, rc, "no tournament %lld", (long long)tid) : rc;
    if (l->ev->n_teams < 2) {
        team_event_load_free(l);
        return error_set(err, n, STORE_E_STATE, "a team competition needs two teams");
    }
    TeamPair *pairs = calloc(TEAM_MAX_TEAMS / 2 + BERGER_MAX_BOARDS + 2, sizeof *pairs);
    json_t *games = json_array(), *round = NULL;
    int np = 0;
    rc = pairs ? make_pairs(l, system, planned, (int)rn, pairs, &np, err, n) : -ENOMEM;
    if (!rc)
        rc = board_pairings(s, l, (int)rn, pairs, np, games, err, n);
    if (!rc)
        rc = rounds_create(s, tid, games, user, &round, err, n);
    if (!rc)
        rc = store_matches(s, l, (int)rn, pairs, np, strcmp(system, "roundrobin") == 0);
    json_decref(round);
    json_decref(games);
    free(pairs);
    team_event_load_free(l);
    if (rc)
        return rc > 0 && !err[0] ? error_set(err, n, rc, "the matches were refused") : rc;
    json_t *d = json_pack("{s:I,s:I}", "tournament", (json_int_t)tid, "round", (json_int_t)rn);
    alerts_audit_add(s, user, 0, "team.pair", "round", d);
    json_decref(d);
    *out = json_pack("{s:I,s:o}", "round", (json_int_t)rn, "matches", matches_list(s, tid, rn));
    return 0;
}

int matches_forfeit(Store *s, int64_t tid, int64_t mid, const char *kind, int64_t user,
                    json_t **games, char *err, size_t n)
{
    json_t *m = store_row(s, "SELECT bye FROM matches WHERE id = ?1 AND tournament_id = ?2", "ii",
                          mid, tid);
    if (!m)
        return error_set(err, n, STORE_E_NOT_FOUND, "no match %lld in tournament %lld",
                         (long long)mid, (long long)tid);
    int bye = jsonget_str(m, "bye")[0] != 0;
    json_decref(m);
    if (bye)
        return error_set(err, n, STORE_E_STATE, "a bye cannot be forfeited");
    int rc = store_run(s, NULL, "UPDATE matches SET forfeit = ?2 WHERE id = ?1", "is", mid, kind);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the forfeit was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:s}", "match", (json_int_t)mid, "forfeit", kind);
    alerts_audit_add(s, user, 0, "team.forfeit", "match", d);
    json_decref(d);
    json_t *rows = store_rows(s,
                              "SELECT g.id, (SELECT count(*) FROM team_members tm WHERE "
                              "tm.team_id = m.team_a AND tm.player_id = g.white_id) AS a_white "
                              "FROM matches m JOIN match_games mg ON mg.match_id = m.id JOIN "
                              "games g ON g.id = mg.game_id WHERE m.id = ?1 AND g.result = '*' "
                              "ORDER BY mg.board",
                              "i", mid);
    /* The side that forfeited loses every board still open; "both": both. */
    int a_lost = strcmp(kind, "a") == 0 || strcmp(kind, "both") == 0;
    int b_lost = strcmp(kind, "b") == 0 || strcmp(kind, "both") == 0;
    *games = json_array();
    size_t i;
    json_t *g;
    json_array_foreach(rows, i, g)
    {
        if (!kind[0])
            break;
        int a_white = jsonget_int(g, "a_white") > 0;
        int white_lost = a_white ? a_lost : b_lost, black_lost = a_white ? b_lost : a_lost;
        json_array_append_new(*games,
                              json_pack("{s:I,s:i,s:i}", "id", (json_int_t)jsonget_int(g, "id"),
                                        "white", !white_lost, "black", !black_lost));
    }
    json_decref(rows);
    return 0;
}
