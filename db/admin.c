/*
 * admin.c — tournaments, players, rounds, users, sessions, alerts, audit.
 * See admin.h.  Every write checks its preconditions inside the caller's
 * transaction, so a refused request writes nothing.
 */
#include "admin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "event_json.h"
#include "tiebreak.h"
#include "tournament.h"
#include "tournament_io.h"
#include "tpn.h"

#define ERR(code, ...) (snprintf(err, n, __VA_ARGS__), (code))

int admin_exists(Store *s, char kind, int64_t parent, int64_t id)
{
    switch (kind) {
    case 't':
        return store_int(s, 0, "SELECT count(*) FROM tournaments WHERE id = ?1", "i", id) > 0;
    case 'p':
        return store_int(s, 0, "SELECT count(*) FROM players WHERE tournament_id = ?1 AND id = ?2",
                         "ii", parent, id) > 0;
    case 'r':
        return store_int(s, 0, "SELECT count(*) FROM rounds WHERE tournament_id = ?1 AND "
                               "number = ?2", "ii", parent, id) > 0;
    case 'g':
        return store_int(s, 0, "SELECT count(*) FROM games WHERE id = ?1", "i", id) > 0;
    case 'a':
        return store_int(s, 0, "SELECT count(*) FROM alerts WHERE tournament_id = ?1 AND id = ?2",
                         "ii", parent, id) > 0;
    }
    return 0;
}

json_t *admin_default_settings(void)
{
    GameSettings gs;
    game_settings_default(&gs);
    json_t *o = event_json_settings_to_json(&gs);
    /* The time control is the tournament's own field; the start position
     * is given only when it is not the standard one. */
    json_object_del(o, "time_control");
    json_object_del(o, "fen");
    json_object_del(o, "type");
    return o;
}

int admin_settings_check(json_t *settings, const char *time_control, char *err, size_t n)
{
    json_t *o = settings ? json_deep_copy(settings) : json_object();
    if (time_control)
        json_object_set_new(o, "time_control", json_string(time_control));
    GameSettings gs;
    int rc = event_json_settings_from_json(o, &gs, err, n);
    json_decref(o);
    return rc ? STORE_E_INVALID : 0;
}

/* ---- tournaments ---- */

static const char SQL_T_COLS[] =
    "SELECT id, name, time_control, system, rounds, place, start_date, settings AS settings_json, "
    "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, bye_last_rounds, status, "
    "created_ms AS created_at FROM tournaments";
static const char SQL_T_LIST[] =
    "SELECT id, name, time_control, system, rounds, place, start_date, settings AS settings_json, "
    "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, bye_last_rounds, status, "
    "created_ms AS created_at FROM tournaments ORDER BY id";
static const char SQL_T_GET[] =
    "SELECT id, name, time_control, system, rounds, place, start_date, settings AS settings_json, "
    "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, bye_last_rounds, status, "
    "created_ms AS created_at FROM tournaments WHERE id = ?1";

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int has_int(json_t *o, const char *k)
{
    return json_is_integer(json_object_get(o, k));
}

static int64_t jint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* T's "status" from its rounds and games, not from its stored column
 * (which nothing moves on): "setup" until a round starts, "finished" once
 * the planned rounds have started and every game has a result, else
 * "running".  A round robin plans its Berger table's rounds (both cycles
 * when its round count asks for them); a Swiss without a round count is
 * never finished by itself. */
static void set_status(Store *s, json_t *t)
{
    int64_t tid = jint(t, "id");
    json_t *c = store_row(s,
                          "SELECT (SELECT count(*) FROM rounds WHERE tournament_id = ?1"
                          " AND status <> 'pending') AS started,"
                          " (SELECT count(*) FROM games WHERE tournament_id = ?1"
                          " AND result = '*') AS open,"
                          " (SELECT count(*) FROM players WHERE tournament_id = ?1) AS players",
                          "i", tid);
    if (!c)
        return;
    int64_t started = jint(c, "started"), open = jint(c, "open");
    int np = (int)jint(c, "players");
    json_decref(c);
    const char *system = jstr(t, "system");
    int64_t planned = jint(t, "rounds");
    if (system && strcmp(system, "roundrobin") == 0 && np >= BERGER_MIN_PLAYERS &&
        np <= BERGER_MAX_PLAYERS)
        planned = berger_rounds(np, planned >= berger_rounds(np, BERGER_DOUBLE) ? BERGER_DOUBLE
                                                                                 : 0);
    const char *st = started == 0                                     ? "setup"
                     : planned > 0 && started >= planned && open == 0 ? "finished"
                                                                      : "running";
    json_object_set_new(t, "status", json_string(st));
}

json_t *admin_tournaments_list(Store *s)
{
    (void)SQL_T_COLS;
    json_t *list = store_rows(s, SQL_T_LIST, "");
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t) set_status(s, t);
    return list;
}

json_t *admin_tournament_get(Store *s, int64_t tid)
{
    json_t *t = store_row(s, SQL_T_GET, "i", tid);
    if (t)
        set_status(s, t);
    return t;
}

int admin_tournament_create(Store *s, json_t *in, int64_t user, json_t **out, char *err, size_t n)
{
    json_t *settings = admin_default_settings();
    json_t *given = json_object_get(in, "settings");
    if (given)
        json_object_update(settings, given);
    char *st = json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    int rc = store_run(s, NULL,
                       "INSERT INTO tournaments(name, time_control, system, rounds, place, start_date,"
                       " settings, created_ms) VALUES (?1, ?2, coalesce(?3, 'swiss'), ?4,"
                       " coalesce(?5, ''), coalesce(?6, ''), ?7, ?8)",
                       "sss" "i" "sssi", jstr(in, "name"), jstr(in, "time_control"),
                       jstr(in, "system"), has_int(in, "rounds") ? jint(in, "rounds") : (int64_t)0,
                       jstr(in, "place"), jstr(in, "start_date"), st, store_now_ms());
    free(st);
    if (rc)
        return rc > 0 ? ERR(rc, "the tournament was refused by the store") : rc;
    int64_t id = sqlite3_last_insert_rowid(store_db(s));
    if (!has_int(in, "rounds"))
        store_run(s, NULL, "UPDATE tournaments SET rounds = NULL WHERE id = ?1", "i", id);
    rc = tio_settings_store(s, id, in);
    if (rc)
        return rc > 0 ? ERR(rc, "the points or tie-breaks were refused by the store") : rc;
    admin_audit(s, user, 0, "tournament.create", "tournament", in);
    *out = admin_tournament_get(s, id);
    return 0;
}

int admin_tournament_update(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out,
                            char *err, size_t n)
{
    json_t *t = admin_tournament_get(s, tid);
    if (!t)
        return ERR(STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    json_t *settings = json_deep_copy(json_object_get(t, "settings"));
    if (!json_is_object(settings)) {
        json_decref(settings);
        settings = admin_default_settings();
    }
    json_t *given = json_object_get(in, "settings");
    if (given)
        json_object_update(settings, given);
    char *st = json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    json_decref(t);
    int rc = store_run(s, NULL,
                       "UPDATE tournaments SET name = coalesce(?2, name), time_control = "
                       "coalesce(?3, time_control), system = coalesce(?4, system), rounds = "
                       "CASE WHEN ?5 > 0 THEN ?5 ELSE rounds END, place = coalesce(?6, place), "
                       "start_date = coalesce(?7, start_date), settings = ?8 WHERE id = ?1",
                       "i" "sss" "i" "sss", tid, jstr(in, "name"), jstr(in, "time_control"),
                       jstr(in, "system"), has_int(in, "rounds") ? jint(in, "rounds") : (int64_t)0,
                       jstr(in, "place"), jstr(in, "start_date"), st);
    free(st);
    if (rc)
        return rc > 0 ? ERR(rc, "the change was refused by the store") : rc;
    rc = tio_settings_store(s, tid, in);
    if (rc)
        return rc > 0 ? ERR(rc, "the points or tie-breaks were refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)tid, "changes", in);
    admin_audit(s, user, 0, "tournament.update", "tournament", d);
    json_decref(d);
    *out = admin_tournament_get(s, tid);
    return 0;
}

/* ---- players ---- */

static const char SQL_P_LIST[] =
    "SELECT id, tournament_id, name, rating, rating_estimate, title, federation, fide_id, sex, "
    "birth, status FROM players WHERE tournament_id = ?1 ORDER BY id";
static const char SQL_P_GET[] =
    "SELECT id, tournament_id, name, rating, rating_estimate, title, federation, fide_id, sex, "
    "birth, status FROM players WHERE tournament_id = ?1 AND id = ?2";

json_t *admin_players_list(Store *s, int64_t tid)
{
    json_t *rows = store_rows(s, SQL_P_LIST, "i", tid);
    tpn_annotate(s, tid, rows);
    return rows;
}

json_t *admin_player_get(Store *s, int64_t tid, int64_t pid)
{
    json_t *p = store_row(s, SQL_P_GET, "ii", tid, pid);
    tpn_annotate(s, tid, p);
    return p;
}

static int tournament_exists(Store *s, int64_t tid)
{
    return store_int(s, 0, "SELECT count(*) FROM tournaments WHERE id = ?1", "i", tid) > 0;
}

int admin_player_create(Store *s, int64_t tid, json_t *in, const char *pin_hash,
                        const char *token_hash, int64_t user, json_t **out, char *err, size_t n)
{
    if (!tournament_exists(s, tid))
        return ERR(STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    /* A round robin's table is laid out for its players from round 1 on. */
    if (store_int(s, 0, "SELECT count(*) FROM tournaments t WHERE id = ?1 AND system = "
                        "'roundrobin' AND EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = "
                        "t.id)", "i", tid))
        return ERR(STORE_E_STATE, "round 1 of this round robin is paired: its table cannot "
                                  "take another player");
    int rc = store_run(s, NULL,
                       "INSERT INTO players(tournament_id, name, rating, title, federation, fide_id,"
                       " sex, birth, status, rating_estimate) VALUES (?1, ?2, ?3, coalesce(?4, ''),"
                       " coalesce(?5, ''), coalesce(?6, ''), coalesce(?7, ''), coalesce(?8, ''),"
                       " coalesce(?9, 'active'), ?10)",
                       "is" "i" "ssssss" "i", tid, jstr(in, "name"), jint(in, "rating"),
                       jstr(in, "title"), jstr(in, "federation"), jstr(in, "fide_id"),
                       jstr(in, "sex"), jstr(in, "birth"), jstr(in, "status"),
                       jint(in, "rating_estimate"));
    if (rc)
        return rc > 0 ? ERR(rc, "the player was refused by the store") : rc;
    int64_t pid = sqlite3_last_insert_rowid(store_db(s));
    rc = store_run(s, NULL,
                   "INSERT INTO player_credentials(player_id, tournament_id, pin_hash, token_hash) "
                   "VALUES (?1, ?2, ?3, ?4)",
                   "iiss", pid, tid, pin_hash, token_hash);
    if (rc)
        return rc > 0 ? ERR(STORE_E_CONFLICT, "that PIN is already in use, try again") : rc;
    /* A late entry after the freeze gets the next free number. */
    rc = tpn_freeze(s, tid);
    if (rc)
        return rc > 0 ? ERR(rc, "the pairing number was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)pid, "input", in);
    admin_audit(s, user, 0, "player.create", "player", d);
    json_decref(d);
    *out = admin_player_get(s, tid, pid);
    return 0;
}

int admin_player_update(Store *s, int64_t tid, int64_t pid, json_t *in, int64_t user,
                        json_t **out, char *err, size_t n)
{
    if (store_int(s, 0, "SELECT count(*) FROM players WHERE tournament_id = ?1 AND id = ?2", "ii",
                  tid, pid) == 0)
        return ERR(STORE_E_NOT_FOUND, "no player %lld in tournament %lld", (long long)pid,
                   (long long)tid);
    int rc = store_run(s, NULL,
                       "UPDATE players SET name = coalesce(?2, name), rating = CASE WHEN ?3 >= 0 "
                       "THEN ?3 ELSE rating END, title = coalesce(?4, title), federation = "
                       "coalesce(?5, federation), fide_id = coalesce(?6, fide_id), sex = "
                       "coalesce(?7, sex), birth = coalesce(?8, birth), status = coalesce(?9, status), "
                       "rating_estimate = CASE WHEN ?10 >= 0 THEN ?10 ELSE rating_estimate END "
                       "WHERE id = ?1",
                       "is" "i" "ssssss" "i", pid, jstr(in, "name"),
                       has_int(in, "rating") ? jint(in, "rating") : (int64_t)-1, jstr(in, "title"),
                       jstr(in, "federation"), jstr(in, "fide_id"), jstr(in, "sex"),
                       jstr(in, "birth"), jstr(in, "status"),
                       has_int(in, "rating_estimate") ? jint(in, "rating_estimate") : (int64_t)-1);
    if (rc)
        return rc > 0 ? ERR(rc, "the change was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)pid, "changes", in);
    admin_audit(s, user, 0, "player.update", "player", d);
    json_decref(d);
    *out = admin_player_get(s, tid, pid);
    return 0;
}

int admin_credentials_set(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
                          const char *token_hash, int64_t user, char *err, size_t n)
{
    int changes = 0;
    int rc = store_run(s, &changes,
                       "UPDATE player_credentials SET pin_hash = ?3, token_hash = ?4 "
                       "WHERE player_id = ?1 AND tournament_id = ?2",
                       "iiss", pid, tid, pin_hash, token_hash);
    if (rc)
        return rc > 0 ? ERR(STORE_E_CONFLICT, "that PIN is already in use, try again") : rc;
    if (!changes)
        return ERR(STORE_E_NOT_FOUND, "no player %lld in tournament %lld", (long long)pid,
                   (long long)tid);
    /* Old player sessions stop working with the old secrets. */
    store_run(s, NULL, "DELETE FROM sessions WHERE player_id = ?1", "i", pid);
    json_t *d = json_pack("{s:I}", "id", (json_int_t)pid);
    admin_audit(s, user, 0, "player.credentials", "player", d);
    json_decref(d);
    return 0;
}

int admin_pin_taken(Store *s, int64_t tid, const char *pin_hash)
{
    return store_int(s, 0, "SELECT count(*) FROM player_credentials WHERE tournament_id = ?1 AND "
                           "pin_hash = ?2", "is", tid, pin_hash) > 0;
}

json_t *admin_player_by_pin(Store *s, int64_t tid, const char *pin_hash)
{
    return store_row(s,
                     "SELECT player_id AS id, tournament_id FROM player_credentials "
                     "WHERE tournament_id = ?1 AND pin_hash = ?2",
                     "is", tid, pin_hash);
}

json_t *admin_player_by_token(Store *s, const char *token_hash)
{
    return store_row(s,
                     "SELECT player_id AS id, tournament_id FROM player_credentials "
                     "WHERE token_hash = ?1",
                     "s", token_hash);
}

/* ---- rounds and games ---- */

static const char SQL_GAMES_OF_ROUND[] =
    "SELECT g.id, g.tournament_id, g.round, g.board, g.white_id, g.black_id, w.name AS white_name,"
    " b.name AS black_name, g.status, g.result FROM games g JOIN players w ON w.id = g.white_id"
    " JOIN players b ON b.id = g.black_id WHERE g.tournament_id = ?1 AND g.round = ?2"
    " ORDER BY g.board";
static const char SQL_GAME_SUMMARY[] =
    "SELECT g.id, g.tournament_id, g.round, g.board, g.white_id, g.black_id, w.name AS white_name,"
    " b.name AS black_name, g.status, g.result FROM games g JOIN players w ON w.id = g.white_id"
    " JOIN players b ON b.id = g.black_id WHERE g.id = ?1";

json_t *admin_game_summary(Store *s, int64_t gid)
{
    return store_row(s, SQL_GAME_SUMMARY, "i", gid);
}

json_t *admin_round_get(Store *s, int64_t tid, int64_t rn)
{
    json_t *r = store_row(s,
                          "SELECT tournament_id, number, status, started_ms AS started_at "
                          "FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                          "ii", tid, rn);
    if (r)
        json_object_set_new(r, "games", store_rows(s, SQL_GAMES_OF_ROUND, "ii", tid, rn));
    return r;
}

json_t *admin_rounds_list(Store *s, int64_t tid)
{
    json_t *nums = store_rows(s, "SELECT number FROM rounds WHERE tournament_id = ?1 ORDER BY number",
                              "i", tid);
    json_t *out = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(nums, i, v)
    {
        json_t *r = admin_round_get(s, tid, jint(v, "number"));
        if (r)
            json_array_append_new(out, r);
    }
    json_decref(nums);
    return out;
}

/* Makes way for a game of player PID in round RN of TID: STORE_E_CONFLICT
 * when the player has a requested bye there (the arbiter cancels it
 * first); a bye the pairing gave (PAB, free round, forfeit win) gives way
 * to the game. */
static int bye_make_way(Store *s, int64_t tid, int64_t rn, int64_t pid, char *err, size_t n)
{
    json_t *b = store_row(s, "SELECT kind FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                             "player_id = ?3", "iii", tid, rn, pid);
    if (!b)
        return 0;
    const char *kind = jstr(b, "kind");
    int requested = strcmp(kind, "half") == 0 || strcmp(kind, "zero") == 0;
    if (requested)
        snprintf(err, n, "player %lld has a requested %s-point bye in round %lld; cancel it "
                 "first", (long long)pid, kind, (long long)rn);
    json_decref(b);
    if (requested)
        return STORE_E_CONFLICT;
    return store_run(s, NULL, "DELETE FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                              "player_id = ?3", "iii", tid, rn, pid);
}

/* Inserts one pairing of round RN after checking both players. */
static int add_pairing(Store *s, int64_t tid, int64_t rn, json_t *p, int64_t *gid, char *err,
                       size_t n)
{
    int64_t w = jint(p, "white_id"), b = jint(p, "black_id");
    int64_t board = has_int(p, "board") ? jint(p, "board")
                    : store_int(s, 0, "SELECT max(board) FROM games WHERE tournament_id = ?1 AND "
                                      "round = ?2", "ii", tid, rn) + 1;
    if (w == b)
        return ERR(STORE_E_INVALID, "a player cannot play himself (player %lld)", (long long)w);
    int64_t ids[2] = {w, b};
    for (int i = 0; i < 2; i++) {
        if (store_int(s, 0, "SELECT count(*) FROM players WHERE id = ?1 AND tournament_id = ?2",
                      "ii", ids[i], tid) == 0)
            return ERR(STORE_E_INVALID, "player %lld is not in tournament %lld",
                       (long long)ids[i], (long long)tid);
        if (store_int(s, 0, "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2 "
                            "AND (white_id = ?3 OR black_id = ?3)", "iii", tid, rn, ids[i]))
            return ERR(STORE_E_CONFLICT, "player %lld is already paired in round %lld",
                       (long long)ids[i], (long long)rn);
        int rc = bye_make_way(s, tid, rn, ids[i], err, n);
        if (rc)
            return rc;
    }
    int rc = store_run(s, NULL,
                       "INSERT INTO games(tournament_id, round, board, white_id, black_id) "
                       "VALUES (?1, ?2, ?3, ?4, ?5)",
                       "iiiii", tid, rn, board, w, b);
    if (rc == STORE_E_CONFLICT)
        return ERR(rc, "board %lld of round %lld is taken", (long long)board, (long long)rn);
    if (rc)
        return rc > 0 ? ERR(rc, "the pairing was refused by the store") : rc;
    *gid = sqlite3_last_insert_rowid(store_db(s));
    return 0;
}

int admin_round_create(Store *s, int64_t tid, json_t *pairings, int64_t user, json_t **out,
                       char *err, size_t n)
{
    if (!tournament_exists(s, tid))
        return ERR(STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    int64_t rn = store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i",
                           tid) + 1;
    int rc = store_run(s, NULL, "INSERT INTO rounds(tournament_id, number) VALUES (?1, ?2)", "ii",
                       tid, rn);
    if (rc)
        return rc > 0 ? ERR(rc, "the round was refused by the store") : rc;
    size_t i;
    json_t *p;
    json_array_foreach(pairings, i, p)
    {
        int64_t gid;
        rc = add_pairing(s, tid, rn, p, &gid, err, n);
        if (rc) {
            char tmp[200];
            snprintf(tmp, sizeof tmp, "%s", err);
            snprintf(err, n, "pairings[%zu]: %s", i, tmp);
            return rc;
        }
    }
    /* Pairing round 4 (round 1 of a round robin) fixes the numbers. */
    rc = tpn_freeze(s, tid);
    if (rc)
        return rc > 0 ? ERR(rc, "the pairing numbers were refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I}", "tournament", (json_int_t)tid, "round", (json_int_t)rn);
    admin_audit(s, user, 0, "round.create", "round", d);
    json_decref(d);
    *out = admin_round_get(s, tid, rn);
    return 0;
}

int admin_pairing_add(Store *s, int64_t tid, int64_t rn, json_t *in, int64_t user, json_t **out,
                      char *err, size_t n)
{
    json_t *r = store_row(s, "SELECT status FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                          "ii", tid, rn);
    if (!r)
        return ERR(STORE_E_NOT_FOUND, "no round %lld in tournament %lld", (long long)rn,
                   (long long)tid);
    int pending = strcmp(jstr(r, "status"), "pending") == 0;
    json_decref(r);
    if (!pending)
        return ERR(STORE_E_STATE, "round %lld has already started", (long long)rn);
    int64_t gid;
    int rc = add_pairing(s, tid, rn, in, &gid, err, n);
    if (rc)
        return rc;
    json_t *d = json_pack("{s:I,s:O}", "game", (json_int_t)gid, "input", in);
    admin_audit(s, user, 0, "game.create", "game", d);
    json_decref(d);
    *out = admin_game_summary(s, gid);
    return 0;
}

int admin_game_update(Store *s, int64_t gid, json_t *in, int64_t user, json_t **out, char *err,
                      size_t n)
{
    json_t *g = admin_game_summary(s, gid);
    if (!g)
        return ERR(STORE_E_NOT_FOUND, "no game %lld", (long long)gid);
    int64_t tid = jint(g, "tournament_id"), rn = jint(g, "round");
    int64_t w = has_int(in, "white_id") ? jint(in, "white_id") : jint(g, "white_id");
    int64_t b = has_int(in, "black_id") ? jint(in, "black_id") : jint(g, "black_id");
    int64_t board = has_int(in, "board") ? jint(in, "board") : jint(g, "board");
    int pending = strcmp(jstr(g, "status"), "pending") == 0;
    json_decref(g);
    if (!pending ||
        store_int(s, 0, "SELECT count(*) FROM game_events WHERE game_id = ?1", "i", gid) > 0)
        return ERR(STORE_E_STATE, "game %lld has already started", (long long)gid);
    if (w == b)
        return ERR(STORE_E_INVALID, "a player cannot play himself");
    int64_t ids[2] = {w, b};
    for (int i = 0; i < 2; i++) {
        if (store_int(s, 0, "SELECT count(*) FROM players WHERE id = ?1 AND tournament_id = ?2",
                      "ii", ids[i], tid) == 0)
            return ERR(STORE_E_INVALID, "player %lld is not in tournament %lld",
                       (long long)ids[i], (long long)tid);
        if (store_int(s, 0, "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2 "
                            "AND id <> ?4 AND (white_id = ?3 OR black_id = ?3)",
                      "iiii", tid, rn, ids[i], gid))
            return ERR(STORE_E_CONFLICT, "player %lld is already paired in round %lld",
                       (long long)ids[i], (long long)rn);
        int rc = bye_make_way(s, tid, rn, ids[i], err, n);
        if (rc)
            return rc;
    }
    int rc = store_run(s, NULL, "UPDATE games SET white_id = ?2, black_id = ?3, board = ?4 "
                                "WHERE id = ?1", "iiii", gid, w, b, board);
    if (rc == STORE_E_CONFLICT)
        return ERR(rc, "board %lld of round %lld is taken", (long long)board, (long long)rn);
    if (rc)
        return rc > 0 ? ERR(rc, "the change was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "game", (json_int_t)gid, "changes", in);
    admin_audit(s, user, 0, "game.update", "game", d);
    json_decref(d);
    *out = admin_game_summary(s, gid);
    return 0;
}

int admin_game_players(Store *s, int64_t gid, int64_t *white, int64_t *black)
{
    sqlite3_stmt *st = store_stmt(s, "SELECT white_id, black_id FROM games WHERE id = ?1");
    if (!st)
        return -EIO;
    store_bind(st, "i", gid);
    int rc = STORE_E_NOT_FOUND;
    if (sqlite3_step(st) == SQLITE_ROW) {
        *white = sqlite3_column_int64(st, 0);
        *black = sqlite3_column_int64(st, 1);
        rc = 0;
    }
    sqlite3_reset(st);
    return rc;
}

int64_t admin_player_current_game(Store *s, int64_t pid)
{
    return store_int(s, 0,
                     "SELECT id FROM games WHERE white_id = ?1 OR black_id = ?1 "
                     "ORDER BY round DESC LIMIT 1", "i", pid);
}

json_t *admin_round_game_ids(Store *s, int64_t tid, int64_t rn)
{
    return store_rows(s, "SELECT id FROM games WHERE tournament_id = ?1 AND round = ?2 "
                         "ORDER BY board", "ii", tid, rn);
}

json_t *admin_tournament_game_ids(Store *s, int64_t tid)
{
    return store_rows(s, "SELECT id FROM games WHERE tournament_id = ?1 ORDER BY round, board",
                      "i", tid);
}

int admin_round_set_status(Store *s, int64_t tid, int64_t rn, const char *status, int64_t at_ms)
{
    return store_run(s, NULL,
                     "UPDATE rounds SET status = ?3, started_ms = coalesce(started_ms, ?4) "
                     "WHERE tournament_id = ?1 AND number = ?2",
                     "iisi", tid, rn, status, at_ms);
}

/* ---- users and sessions ---- */

int admin_user_add(Store *s, const char *username, const char *pwhash, char *err, size_t n)
{
    int rc = store_run(s, NULL, "INSERT INTO users(username, pwhash, created_ms) VALUES (?1, ?2, ?3)",
                       "ssi", username, pwhash, store_now_ms());
    if (rc == STORE_E_CONFLICT)
        return ERR(rc, "there is already a user '%s'", username);
    if (rc)
        return rc > 0 ? ERR(rc, "the user was refused by the store") : rc;
    json_t *d = json_pack("{s:s}", "username", username);
    admin_audit(s, 0, 0, "user.add", "user", d);
    json_decref(d);
    return 0;
}

json_t *admin_user_by_name(Store *s, const char *username)
{
    return store_row(s, "SELECT id, username, pwhash FROM users WHERE username = ?1", "s",
                     username);
}

int64_t admin_user_count(Store *s)
{
    return store_int(s, 0, "SELECT count(*) FROM users", "");
}

int admin_session_create(Store *s, const char *token_hash, int64_t user, int64_t player,
                         const char *csrf, int64_t expires_ms)
{
    store_run(s, NULL, "DELETE FROM sessions WHERE expires_ms < ?1", "i", store_now_ms());
    return store_run(s, NULL,
                     "INSERT INTO sessions(token_hash, user_id, player_id, csrf, created_ms, "
                     "expires_ms) VALUES (?1, nullif(?2, 0), nullif(?3, 0), ?4, ?5, ?6)",
                     "siisii", token_hash, user, player, csrf, store_now_ms(), expires_ms);
}

int admin_session_delete(Store *s, const char *token_hash)
{
    return store_run(s, NULL, "DELETE FROM sessions WHERE token_hash = ?1", "s", token_hash);
}

/* ---- alerts and audit ---- */

static const char SQL_ALERTS[] =
    "SELECT id, tournament_id, game_id, kind, at_ms, message, resolved <> 0 AS resolved_int "
    "FROM alerts WHERE tournament_id = ?1 AND id > ?2 ORDER BY id";

static void fix_resolved(json_t *a)
{
    json_object_set_new(a, "resolved", json_boolean(jint(a, "resolved_int")));
    json_object_del(a, "resolved_int");
}

json_t *admin_alerts_list(Store *s, int64_t tid, int64_t after_id)
{
    json_t *rows = store_rows(s, SQL_ALERTS, "ii", tid, after_id);
    size_t i;
    json_t *a;
    json_array_foreach(rows, i, a) fix_resolved(a);
    return rows;
}

int admin_alert_add(Store *s, int64_t tid, int64_t gid, const char *kind, const char *message,
                    int64_t at_ms, int64_t *id)
{
    int rc = store_run(s, NULL,
                       "INSERT INTO alerts(tournament_id, game_id, kind, at_ms, message) "
                       "VALUES (?1, nullif(?2, 0), ?3, ?4, ?5)",
                       "iisis", tid, gid, kind, at_ms, message);
    if (rc == 0 && id)
        *id = sqlite3_last_insert_rowid(store_db(s));
    return rc;
}

int admin_alert_resolve(Store *s, int64_t tid, int64_t aid, int resolved, json_t **out,
                        char *err, size_t n)
{
    int changes = 0;
    int rc = store_run(s, &changes, "UPDATE alerts SET resolved = ?3 WHERE tournament_id = ?1 "
                                    "AND id = ?2", "iid", tid, aid, resolved);
    if (rc)
        return rc > 0 ? ERR(rc, "the change was refused by the store") : rc;
    if (!changes)
        return ERR(STORE_E_NOT_FOUND, "no alert %lld in tournament %lld", (long long)aid,
                   (long long)tid);
    *out = store_row(s,
                     "SELECT id, tournament_id, game_id, kind, at_ms, message, resolved <> 0 AS "
                     "resolved_int FROM alerts WHERE id = ?1", "i", aid);
    if (*out)
        fix_resolved(*out);
    return 0;
}

int admin_audit(Store *s, int64_t user, int64_t player, const char *action, const char *target,
                json_t *detail)
{
    char *d = detail ? json_dumps(detail, JSON_COMPACT) : NULL;
    int rc = store_run(s, NULL,
                       "INSERT INTO audit(at_ms, user_id, player_id, action, target, detail) "
                       "VALUES (?1, nullif(?2, 0), nullif(?3, 0), ?4, ?5, coalesce(?6, '{}'))",
                       "iiisss", store_now_ms(), user, player, action, target, d);
    free(d);
    return rc;
}

/* ---- standings ---- */

json_t *admin_standings(Store *s, int64_t tid)
{
    return tio_standings(s, tid);
}
