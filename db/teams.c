/*
 * teams.c — teams, rosters, captains' credentials and the team settings.
 * See teams.h.  Every write checks its preconditions inside the caller's
 * transaction, so a refused request writes nothing.
 */
#include "teams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "team_standings.h"

int teams_event_is_team(Store *s, int64_t tid)
{
    return store_int(s, 0, "SELECT kind = 'team' FROM tournaments WHERE id = ?1", "i", tid) == 1;
}

int teams_exists(Store *s, int64_t tid, int64_t team)
{
    return store_int(s, 0, "SELECT count(*) FROM teams WHERE tournament_id = ?1 AND id = ?2", "ii",
                     tid, team) > 0;
}

/* ---- settings ---- */

static TrnPoints tenths(double v)
{
    return (TrnPoints)(v * TRN_POINT + (v < 0 ? -0.5 : 0.5));
}

static double points(TrnPoints t)
{
    return (double)t / TRN_POINT;
}

/* NUM of O's K when it is a number, else DFLT. */
static double num(json_t *o, const char *k, double dflt)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

static const char *str_or(json_t *o, const char *k, const char *dflt)
{
    const char *v = jsonget_str(o, k);
    return v ? v : dflt;
}

void teams_settings_rules(Store *s, int64_t tid, TeamSettings *ts)
{
    json_t *row = store_row(s,
                            "SELECT team_settings AS settings_json, rounds FROM tournaments "
                            "WHERE id = ?1",
                            "i", tid);
    json_t *st = json_object_get(row, "settings");
    int boards = (int)num(st, "boards", 4);
    team_settings_default(ts, boards);
    json_t *mp = json_object_get(st, "match_points");
    ts->mp_win = tenths(num(mp, "win", points(ts->mp_win)));
    ts->mp_draw = tenths(num(mp, "draw", points(ts->mp_draw)));
    ts->mp_loss = tenths(num(mp, "loss", points(ts->mp_loss)));
    json_t *bye = json_object_get(st, "bye");
    ts->pab_mp = tenths(num(bye, "match_points", points(ts->pab_mp)));
    ts->pab_gp = tenths(num(bye, "game_points", points(ts->pab_gp)));
    ts->primary = strcmp(str_or(st, "primary", "match"), "game") == 0 ? TEAM_PRIMARY_GAME
                                                                      : TEAM_PRIMARY_MATCH;
    ts->scheme = strcmp(str_or(st, "colours", "odd"), "even") == 0 ? TEAM_BOARDS_EVEN_WHITE
                                                                   : TEAM_BOARDS_ODD_WHITE;
    const char *pref = str_or(st, "preference", "A");
    ts->pref = strcmp(pref, "B") == 0      ? TEAM_PREF_B
               : strcmp(pref, "none") == 0 ? TEAM_PREF_NONE
                                           : TEAM_PREF_A;
    ts->n_rounds = (int)jsonget_int(row, "rounds");
    json_decref(row);
}

/* The default tie-breaks: the Olympiad's after the primary score. */
static const char DEFAULT_TIEBREAKS[] = "GPTS,EMGSB/C1,BH:MP/C1";

json_t *teams_settings_get(Store *s, int64_t tid)
{
    json_t *row = store_row(s,
                            "SELECT kind, team_settings AS settings_json FROM tournaments "
                            "WHERE id = ?1",
                            "i", tid);
    if (!row)
        return NULL;
    TeamSettings ts;
    teams_settings_rules(s, tid, &ts);
    json_t *st = json_object_get(row, "settings");
    json_t *out =
        json_pack("{s:s,s:i,s:{s:f,s:f,s:f},s:s,s:s,s:s,s:{s:f,s:f},s:s}", "kind",
                  str_or(row, "kind", "individual"), "boards", ts.boards, "match_points", "win",
                  points(ts.mp_win), "draw", points(ts.mp_draw), "loss", points(ts.mp_loss),
                  "primary", ts.primary == TEAM_PRIMARY_GAME ? "game" : "match", "colours",
                  ts.scheme == TEAM_BOARDS_EVEN_WHITE ? "even" : "odd", "preference",
                  ts.pref == TEAM_PREF_B      ? "B"
                  : ts.pref == TEAM_PREF_NONE ? "none"
                                              : "A",
                  "bye", "match_points", points(ts.pab_mp), "game_points", points(ts.pab_gp),
                  "tiebreaks", str_or(st, "tiebreaks", DEFAULT_TIEBREAKS));
    json_decref(row);
    return out;
}

/* Checks the values the route's shape check cannot say. */
static int settings_check(json_t *in, int boards, char *err, size_t n)
{
    if (json_object_get(in, "boards") && (boards < 1 || boards > TEAM_MAX_BOARDS))
        return error_set(err, n, STORE_E_INVALID, "boards must be 1 to %d", TEAM_MAX_BOARDS);
    static const char *const keys[] = {"win", "draw", "loss"};
    json_t *mp = json_object_get(in, "match_points");
    for (int i = 0; i < 3; i++) {
        double v = num(mp, keys[i], 0);
        if (v < 0 || v > 10)
            return error_set(err, n, STORE_E_INVALID, "match_points.%s must be 0 to 10", keys[i]);
    }
    json_t *bye = json_object_get(in, "bye");
    if (num(bye, "match_points", 0) < 0 || num(bye, "match_points", 0) > 10 ||
        num(bye, "game_points", 0) < 0 || num(bye, "game_points", 0) > boards)
        return error_set(err, n, STORE_E_INVALID,
                         "bye.match_points must be 0 to 10, bye.game_points 0 to the boards");
    const char *tb = jsonget_str(in, "tiebreaks");
    if (tb) {
        TeamTbSpec specs[TEAM_TB_MAX];
        int ns = 0;
        char why[160] = "";
        if (team_standings_parse(tb, specs, TEAM_TB_MAX - 1, &ns, why, sizeof why))
            return error_set(err, n, STORE_E_INVALID, "tiebreaks: %s", why);
    }
    return 0;
}

int teams_settings_set(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n)
{
    if (store_int(s, 0, "SELECT count(*) FROM rounds WHERE tournament_id = ?1", "i", tid) > 0)
        return error_set(err, n, STORE_E_STATE,
                         "the team settings cannot change once a round is paired");
    json_t *row = store_row(s,
                            "SELECT team_settings AS settings_json FROM tournaments "
                            "WHERE id = ?1",
                            "i", tid);
    if (!row)
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    json_t *st = json_deep_copy(json_object_get(row, "settings"));
    json_decref(row);
    if (!json_is_object(st)) {
        json_decref(st);
        st = json_object();
    }
    json_t *v;
    const char *k;
    json_object_foreach(in, k, v)
    {
        if (strcmp(k, "kind") == 0)
            continue;
        if (json_is_object(v) && json_is_object(json_object_get(st, k)))
            json_object_update(json_object_get(st, k), v);
        else
            json_object_set(st, k, v);
    }
    int rc = settings_check(st, (int)num(st, "boards", 4), err, n);
    if (rc) {
        json_decref(st);
        return rc;
    }
    char *text = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    rc = store_run(s, NULL,
                   "UPDATE tournaments SET team_settings = ?2, kind = coalesce(?3, kind) "
                   "WHERE id = ?1",
                   "iss", tid, text, jsonget_str(in, "kind"));
    free(text);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the settings were refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "tournament", (json_int_t)tid, "settings", in);
    alerts_audit_add(s, user, 0, "team.settings", "tournament", d);
    json_decref(d);
    *out = teams_settings_get(s, tid);
    return 0;
}

/* ---- teams ---- */

static const char SQL_TEAMS[] =
    "SELECT id, name, federation, club, captain, pairing_number, status FROM teams "
    "WHERE tournament_id = ?1 AND (?2 = 0 OR id = ?2) "
    "ORDER BY pairing_number IS NULL, pairing_number, id";
static const char SQL_MEMBERS[] =
    "SELECT m.player_id, p.name, p.rating, p.title, p.federation, m.board_order, "
    "m.reserve = 1 AS reserve, p.status FROM team_members m JOIN players p ON p.id = m.player_id "
    "WHERE m.team_id = ?1 ORDER BY m.board_order";

/* The rating average of the top BOARDS ratings of MEMBERS (rounded). */
static int average_top(json_t *members, int boards)
{
    int r[TEAM_MAX_ROSTER], k = 0;
    size_t i;
    json_t *m;
    json_array_foreach(members, i, m) if (k < TEAM_MAX_ROSTER) r[k++] =
        (int)jsonget_int(m, "rating");
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            if (r[b] > r[a]) {
                int t = r[a];
                r[a] = r[b];
                r[b] = t;
            }
    int top = k < boards ? k : boards;
    long sum = 0;
    for (int a = 0; a < top; a++)
        sum += r[a];
    return top ? (int)((sum + top / 2) / top) : 0;
}

static json_t *teams_query(Store *s, int64_t tid, int64_t team)
{
    json_t *teams = store_rows(s, SQL_TEAMS, "ii", tid, team);
    TeamSettings ts;
    teams_settings_rules(s, tid, &ts);
    size_t i;
    json_t *t;
    json_array_foreach(teams, i, t)
    {
        json_t *m = store_rows(s, SQL_MEMBERS, "i", jsonget_int(t, "id"));
        size_t j;
        json_t *v;
        json_array_foreach(m, j, v)
            json_object_set_new(v, "reserve", json_boolean(jsonget_int(v, "reserve")));
        json_object_set_new(t, "rating_average", json_integer(average_top(m, ts.boards)));
        json_object_set_new(t, "members", m);
    }
    return teams;
}

json_t *teams_list(Store *s, int64_t tid)
{
    return teams_query(s, tid, 0);
}

json_t *teams_get(Store *s, int64_t tid, int64_t team)
{
    if (team <= 0)
        return NULL;
    json_t *a = teams_query(s, tid, team);
    json_t *t = json_incref(json_array_get(a, 0));
    json_decref(a);
    return t;
}

static int paired(Store *s, int64_t tid)
{
    return store_int(s, 0, "SELECT count(*) FROM matches WHERE tournament_id = ?1", "i", tid) > 0;
}

/* Replaces TEAM's roster by MEMBERS ([{player_id, reserve?}], board order). */
static int roster_set(Store *s, int64_t tid, int64_t team, json_t *members, char *err, size_t n)
{
    if (json_array_size(members) > TEAM_MAX_ROSTER)
        return error_set(err, n, STORE_E_INVALID, "a roster has at most %d players",
                         TEAM_MAX_ROSTER);
    int rc = store_run(s, NULL, "DELETE FROM team_members WHERE team_id = ?1", "i", team);
    size_t i;
    json_t *m;
    json_array_foreach(members, i, m)
    {
        if (rc)
            break;
        int64_t pid = jsonget_int(m, "player_id");
        if (store_int(s, 0, "SELECT count(*) FROM players WHERE id = ?1 AND tournament_id = ?2",
                      "ii", pid, tid) == 0)
            return error_set(err, n, STORE_E_INVALID,
                             "members[%zu]: no player %lld in "
                             "tournament %lld",
                             i, (long long)pid, (long long)tid);
        rc = store_run(s, NULL,
                       "INSERT INTO team_members(team_id, player_id, board_order, reserve) "
                       "VALUES (?1, ?2, ?3, ?4)",
                       "iiii", team, pid, (int64_t)i + 1,
                       (int64_t)json_is_true(json_object_get(m, "reserve")));
        if (rc == STORE_E_CONFLICT)
            return error_set(err, n, rc, "members[%zu]: player %lld is already in a team", i,
                             (long long)pid);
    }
    return rc > 0 ? error_set(err, n, rc, "the roster was refused by the store") : rc;
}

int teams_create(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err, size_t n)
{
    if (paired(s, tid))
        return error_set(err, n, STORE_E_STATE, "teams cannot join once round 1 is paired");
    int rc = store_run(s, NULL,
                       "INSERT INTO teams(tournament_id, name, federation, club, captain) "
                       "VALUES (?1, ?2, coalesce(?3, ''), coalesce(?4, ''), coalesce(?5, ''))",
                       "issss", tid, jsonget_str(in, "name"), jsonget_str(in, "federation"),
                       jsonget_str(in, "club"), jsonget_str(in, "captain"));
    if (rc == STORE_E_CONFLICT)
        return error_set(err, n, rc, "there is already a team '%s'", jsonget_str(in, "name"));
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the team was refused by the store") : rc;
    int64_t team = sqlite3_last_insert_rowid(store_db(s));
    json_t *members = json_object_get(in, "members");
    if (members && (rc = roster_set(s, tid, team, members, err, n)))
        return rc;
    alerts_audit_add(s, user, 0, "team.create", "team", in);
    *out = teams_get(s, tid, team);
    return 0;
}

int teams_update(Store *s, int64_t tid, int64_t team, json_t *in, int64_t user, json_t **out,
                 char *err, size_t n)
{
    if (!teams_exists(s, tid, team))
        return error_set(err, n, STORE_E_NOT_FOUND, "no team %lld in tournament %lld",
                         (long long)team, (long long)tid);
    json_t *members = json_object_get(in, "members");
    if (members && paired(s, tid))
        return error_set(err, n, STORE_E_STATE, "the board order is fixed once round 1 is paired");
    int rc =
        store_run(s, NULL,
                  "UPDATE teams SET name = coalesce(?2, name), federation = coalesce(?3, "
                  "federation), club = coalesce(?4, club), captain = coalesce(?5, captain), "
                  "status = coalesce(?6, status) WHERE id = ?1",
                  "isssss", team, jsonget_str(in, "name"), jsonget_str(in, "federation"),
                  jsonget_str(in, "club"), jsonget_str(in, "captain"), jsonget_str(in, "status"));
    if (rc == STORE_E_CONFLICT)
        return error_set(err, n, rc, "there is already a team '%s'", jsonget_str(in, "name"));
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the team was refused by the store") : rc;
    if (members && (rc = roster_set(s, tid, team, members, err, n)))
        return rc;
    json_t *d = json_pack("{s:I,s:O}", "team", (json_int_t)team, "changes", in);
    alerts_audit_add(s, user, 0, "team.update", "team", d);
    json_decref(d);
    *out = teams_get(s, tid, team);
    return 0;
}

/* ---- captains ---- */

int teams_credentials_set(Store *s, int64_t tid, int64_t team, const char *pin_hash,
                          const char *token_hash, int64_t user)
{
    int rc = store_run(s, NULL,
                       "INSERT INTO team_credentials(team_id, tournament_id, pin_hash, "
                       "token_hash) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(team_id) DO UPDATE SET "
                       "pin_hash = excluded.pin_hash, token_hash = excluded.token_hash",
                       "iiss", team, tid, pin_hash, token_hash);
    if (rc)
        return rc;
    json_t *d = json_pack("{s:I}", "team", (json_int_t)team);
    alerts_audit_add(s, user, 0, "team.credentials", "team", d);
    json_decref(d);
    return 0;
}

int teams_pin_taken(Store *s, int64_t tid, const char *pin_hash)
{
    return store_int(s, 0,
                     "SELECT count(*) FROM team_credentials WHERE tournament_id = ?1 AND "
                     "pin_hash = ?2",
                     "is", tid, pin_hash) > 0;
}

int64_t teams_by_pin(Store *s, int64_t tid, const char *pin_hash)
{
    return store_int(s, 0,
                     "SELECT team_id FROM team_credentials WHERE tournament_id = ?1 AND "
                     "pin_hash = ?2",
                     "is", tid, pin_hash);
}

int teams_token_set(Store *s, int64_t team, const char *token_hash)
{
    return store_run(s, NULL, "UPDATE team_credentials SET token_hash = ?2 WHERE team_id = ?1",
                     "is", team, token_hash);
}

int teams_lookup_token(Store *s, const char *token_hash, int64_t *team, int64_t *tid)
{
    json_t *row =
        store_row(s, "SELECT team_id, tournament_id FROM team_credentials WHERE token_hash = ?1",
                  "s", token_hash);
    if (!row)
        return 0;
    *team = jsonget_int(row, "team_id");
    *tid = jsonget_int(row, "tournament_id");
    json_decref(row);
    return 1;
}
