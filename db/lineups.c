/*
 * lineups.c — line-ups and their deadlines.  See lineups.h.
 */
#include "lineups.h"

#include <stdio.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "team.h"
#include "teams.h"

static int boards_of(Store *s, int64_t tid)
{
    TeamSettings ts;
    teams_settings_rules(s, tid, &ts);
    return ts.boards;
}

static json_t *deadline_of(Store *s, int64_t tid, int64_t rn)
{
    int64_t at = store_int(s, 0,
                           "SELECT at_ms FROM lineup_deadlines WHERE tournament_id = ?1 AND "
                           "round = ?2",
                           "ii", tid, rn);
    return at ? json_integer(at) : json_null();
}

static const char SQL_DEFAULT[] =
    "SELECT m.player_id FROM team_members m JOIN players p ON p.id = m.player_id "
    "WHERE m.team_id = ?1 AND p.status = 'active' ORDER BY m.board_order LIMIT ?2";
static const char SQL_SUBMITTED[] =
    "SELECT player_id FROM lineups WHERE tournament_id = ?1 AND round = ?2 AND team_id = ?3 "
    "ORDER BY board";

int lineups_effective(Store *s, int64_t tid, int64_t rn, int64_t team, int boards, int64_t *ids)
{
    json_t *rows = store_rows(s, SQL_SUBMITTED, "iii", tid, rn, team);
    if (json_array_size(rows) == 0) {
        json_decref(rows);
        rows = store_rows(s, SQL_DEFAULT, "ii", team, (int64_t)boards);
    }
    int k = 0;
    size_t i;
    json_t *v;
    json_array_foreach(rows, i, v) if (k < boards) ids[k++] = jsonget_int(v, "player_id");
    json_decref(rows);
    return k;
}

json_t *lineups_get(Store *s, int64_t tid, int64_t rn, int64_t team)
{
    if (!teams_exists(s, tid, team))
        return NULL;
    int boards = boards_of(s, tid);
    int64_t ids[TEAM_MAX_BOARDS];
    int submitted = store_int(s, 0,
                              "SELECT count(*) FROM lineups WHERE tournament_id = ?1 AND "
                              "round = ?2 AND team_id = ?3",
                              "iii", tid, rn, team) > 0;
    int k = lineups_effective(s, tid, rn, team, boards, ids);
    json_t *players = json_array();
    for (int b = 0; b < k; b++) {
        json_t *p = store_row(s, "SELECT id AS player_id, name, rating FROM players WHERE id = ?1",
                              "i", ids[b]);
        if (p) {
            json_object_set_new(p, "board", json_integer(b + 1));
            json_array_append_new(players, p);
        }
    }
    return json_pack("{s:I,s:I,s:s,s:o,s:o}", "round", (json_int_t)rn, "team_id", (json_int_t)team,
                     "source", submitted ? "submitted" : "default", "deadline_at",
                     deadline_of(s, tid, rn), "players", players);
}

/* Checks PLAYERS against TEAM's roster: 0 or STORE_E_INVALID with ERR. */
static int check_players(Store *s, int64_t team, json_t *players, int boards, char *err, size_t n)
{
    if (!json_is_array(players) || (int)json_array_size(players) != boards)
        return error_set(err, n, STORE_E_INVALID, "a line-up names %d players, top board first",
                         boards);
    int64_t last = 0;
    size_t i;
    json_t *v;
    json_array_foreach(players, i, v)
    {
        if (!json_is_integer(v))
            return error_set(err, n, STORE_E_INVALID, "players[%zu] must be a player id", i);
        json_t *m = store_row(s,
                              "SELECT m.board_order, p.status FROM team_members m JOIN players p "
                              "ON p.id = m.player_id WHERE m.team_id = ?1 AND m.player_id = ?2",
                              "ii", team, (int64_t)json_integer_value(v));
        int64_t order = jsonget_int(m, "board_order");
        int active = m && strcmp(jsonget_str(m, "status"), "active") == 0;
        json_decref(m);
        if (!order)
            return error_set(err, n, STORE_E_INVALID,
                             "players[%zu]: player %lld is not in the "
                             "team",
                             i, (long long)json_integer_value(v));
        if (!active)
            return error_set(err, n, STORE_E_INVALID, "players[%zu]: player %lld has withdrawn", i,
                             (long long)json_integer_value(v));
        if (order <= last)
            return error_set(err, n, STORE_E_INVALID,
                             "players[%zu]: the line-up must follow the board order", i);
        last = order;
    }
    return 0;
}

/* Puts the line-up of TEAM on the pending games of its match in round RN. */
static int rewrite_games(Store *s, int64_t tid, int64_t rn, int64_t team, json_t *players)
{
    json_t *games = store_rows(s,
                               "SELECT g.id, g.white_id, g.status, mg.board FROM matches m "
                               "JOIN match_games mg ON mg.match_id = m.id JOIN games g ON "
                               "g.id = mg.game_id WHERE m.tournament_id = ?1 AND m.round = ?2 "
                               "AND (m.team_a = ?3 OR m.team_b = ?3) ORDER BY mg.board",
                               "iii", tid, rn, team);
    int rc = 0;
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        if (rc)
            break;
        if (strcmp(jsonget_str(g, "status"), "pending") != 0) {
            rc = STORE_E_STATE;
            break;
        }
        json_t *p = json_array_get(players, (size_t)jsonget_int(g, "board") - 1);
        int ours_white = store_int(s, 0,
                                   "SELECT count(*) FROM team_members WHERE team_id = ?1 AND "
                                   "player_id = ?2",
                                   "ii", team, jsonget_int(g, "white_id")) > 0;
        rc = store_run(s, NULL,
                       ours_white ? "UPDATE games SET white_id = ?2 WHERE id = ?1"
                                  : "UPDATE games SET black_id = ?2 WHERE id = ?1",
                       "ii", jsonget_int(g, "id"), (int64_t)json_integer_value(p));
    }
    json_decref(games);
    return rc;
}

int lineups_submit(Store *s, int64_t tid, int64_t rn, int64_t team, json_t *players, int by_captain,
                   int64_t now_ms, int64_t user, json_t **out, char *err, size_t n)
{
    if (!teams_exists(s, tid, team))
        return error_set(err, n, STORE_E_NOT_FOUND, "no team %lld in tournament %lld",
                         (long long)team, (long long)tid);
    int64_t last =
        store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i", tid);
    json_t *round = store_row(s,
                              "SELECT status FROM rounds WHERE tournament_id = ?1 AND "
                              "number = ?2",
                              "ii", tid, rn);
    int pending = round && strcmp(jsonget_str(round, "status"), "pending") == 0;
    json_decref(round);
    if (rn < last || (rn == last && !pending))
        return error_set(err, n, STORE_E_STATE, "round %lld has started: its line-ups are fixed",
                         (long long)rn);
    if (rn > last + 1)
        return error_set(err, n, STORE_E_INVALID, "line-ups are for round %lld or %lld",
                         (long long)last, (long long)last + 1);
    int64_t deadline = store_int(s, 0,
                                 "SELECT at_ms FROM lineup_deadlines WHERE tournament_id = ?1 AND "
                                 "round = ?2",
                                 "ii", tid, rn);
    if (by_captain && deadline && now_ms > deadline)
        return error_set(err, n, STORE_E_STATE,
                         "the deadline for the line-ups of round %lld has passed", (long long)rn);
    int rc = check_players(s, team, players, boards_of(s, tid), err, n);
    if (rc)
        return rc;
    rc = store_run(s, NULL,
                   "DELETE FROM lineups WHERE tournament_id = ?1 AND round = ?2 AND team_id = ?3",
                   "iii", tid, rn, team);
    size_t i;
    json_t *v;
    json_array_foreach(players, i, v) if (!rc) rc =
        store_run(s, NULL,
                  "INSERT INTO lineups(tournament_id, round, team_id, board, player_id, "
                  "submitted_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                  "iiiiii", tid, rn, team, (int64_t)i + 1, (int64_t)json_integer_value(v), now_ms);
    if (!rc && rn == last)
        rc = rewrite_games(s, tid, rn, team, players);
    if (rc == STORE_E_STATE)
        return error_set(err, n, rc, "a game of the match has started");
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the line-up was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I,s:O,s:b}", "team", (json_int_t)team, "round", (json_int_t)rn,
                          "players", players, "captain", by_captain);
    alerts_audit_add(s, user, 0, "team.lineup", "team", d);
    json_decref(d);
    *out = lineups_get(s, tid, rn, team);
    return 0;
}

int lineups_deadline_set(Store *s, int64_t tid, int64_t rn, int64_t at_ms, int64_t user,
                         json_t **out, char *err, size_t n)
{
    int rc = at_ms ? store_run(s, NULL,
                               "INSERT INTO lineup_deadlines(tournament_id, round, at_ms) VALUES "
                               "(?1, ?2, ?3) ON CONFLICT(tournament_id, round) DO UPDATE SET "
                               "at_ms = excluded.at_ms",
                               "iii", tid, rn, at_ms)
                   : store_run(s, NULL,
                               "DELETE FROM lineup_deadlines WHERE tournament_id = ?1 AND "
                               "round = ?2",
                               "ii", tid, rn);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the deadline was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I}", "round", (json_int_t)rn, "at_ms", (json_int_t)at_ms);
    alerts_audit_add(s, user, 0, "team.deadline", "tournament", d);
    json_decref(d);
    *out = json_pack("{s:I,s:o}", "round", (json_int_t)rn, "deadline_at", deadline_of(s, tid, rn));
    return 0;
}
