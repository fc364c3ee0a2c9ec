/*
 * rounds.c — rounds and their games' rows.  See rounds.h.  Every write
 * checks its preconditions inside the caller's transaction, so a refused
 * request writes nothing.
 */
#include "rounds.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "tournaments.h"
#include "tpn.h"

#define STATUS_RESULT                                                                              \
    " CASE WHEN " ROUNDS_SQL_HELD " THEN 'running' ELSE g.status END AS status,"                   \
    " CASE WHEN " ROUNDS_SQL_HELD " THEN '*' ELSE g.result END AS result"
static const char SQL_GAMES_OF_ROUND[] =
    "SELECT g.id, g.tournament_id, g.round, g.board, g.white_id, g.black_id, w.name AS white_name,"
    " b.name AS black_name," STATUS_RESULT " FROM games g JOIN players w ON w.id = g.white_id"
    " JOIN players b ON b.id = g.black_id WHERE g.tournament_id = ?1 AND g.round = ?2"
    " ORDER BY g.board";
static const char SQL_GAME_SUMMARY[] =
    "SELECT g.id, g.tournament_id, g.round, g.board, g.white_id, g.black_id, w.name AS white_name,"
    " b.name AS black_name," STATUS_RESULT " FROM games g JOIN players w ON w.id = g.white_id"
    " JOIN players b ON b.id = g.black_id WHERE g.id = ?1";

json_t *rounds_game_summary(Store *s, int64_t gid)
{
    return store_row(s, SQL_GAME_SUMMARY, "i", gid);
}

json_t *rounds_get(Store *s, int64_t tid, int64_t rn)
{
    json_t *r = store_row(s,
                          "SELECT tournament_id, number, status, started_ms AS started_at, "
                          "published_ms IS NOT NULL AS published, published_ms AS published_at "
                          "FROM rounds WHERE tournament_id = ?1 AND number = ?2 AND "
                          "(public_now_ms() IS NULL OR published_ms IS NOT NULL)",
                          "ii", tid, rn);
    if (!r)
        return NULL;
    json_object_set_new(r, "published", json_boolean(jsonget_int(r, "published")));
    json_t *games = store_rows(s, SQL_GAMES_OF_ROUND, "ii", tid, rn);
    json_object_set_new(r, "games", games);
    /* A started round whose every game has its result is over, whatever the
     * stored state of its clocks ("running", or "paused" after a restart):
     * the desk offers no "stop all clocks" and the next round can be paired. */
    const char *st = json_string_value(json_object_get(r, "status"));
    int open = st && strcmp(st, "pending") != 0 ? 0 : 1;
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        const char *res = json_string_value(json_object_get(g, "result"));
        open += !res || strcmp(res, "*") == 0;
    }
    if (!open && json_array_size(games))
        json_object_set_new(r, "status", json_string("finished"));
    return r;
}

json_t *rounds_list(Store *s, int64_t tid)
{
    json_t *nums = store_rows(
        s, "SELECT number FROM rounds WHERE tournament_id = ?1 ORDER BY number", "i", tid);
    json_t *out = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(nums, i, v)
    {
        json_t *r = rounds_get(s, tid, jsonget_int(v, "number"));
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
    json_t *b = store_row(s,
                          "SELECT kind FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                          "player_id = ?3",
                          "iii", tid, rn, pid);
    if (!b)
        return 0;
    const char *kind = jsonget_str(b, "kind");
    int requested = strcmp(kind, "half") == 0 || strcmp(kind, "zero") == 0;
    if (requested)
        snprintf(err, n,
                 "player %lld has a requested %s-point bye in round %lld; cancel it "
                 "first",
                 (long long)pid, kind, (long long)rn);
    json_decref(b);
    if (requested)
        return STORE_E_CONFLICT;
    return store_run(s, NULL,
                     "DELETE FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                     "player_id = ?3",
                     "iii", tid, rn, pid);
}

/* Checks that W and B may meet in round RN of TID, in game GID (0 for a
 * new game): both are players of the tournament and neither plays another
 * game of the round; a bye either had in the round makes way. */
static int seat_players(Store *s, int64_t tid, int64_t rn, int64_t w, int64_t b, int64_t gid,
                        char *err, size_t n)
{
    int64_t ids[2] = {w, b};
    for (int i = 0; i < 2; i++) {
        if (store_int(s, 0, "SELECT count(*) FROM players WHERE id = ?1 AND tournament_id = ?2",
                      "ii", ids[i], tid) == 0)
            return error_set(err, n, STORE_E_INVALID, "player %lld is not in tournament %lld",
                             (long long)ids[i], (long long)tid);
        if (store_int(s, 0,
                      "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2 "
                      "AND id <> ?4 AND (white_id = ?3 OR black_id = ?3)",
                      "iiii", tid, rn, ids[i], gid))
            return error_set(err, n, STORE_E_CONFLICT,
                             "player %lld is already paired in round %lld", (long long)ids[i],
                             (long long)rn);
        int rc = bye_make_way(s, tid, rn, ids[i], err, n);
        if (rc)
            return rc;
    }
    return 0;
}

/* Inserts one pairing of round RN after checking both players. */
static int add_pairing(Store *s, int64_t tid, int64_t rn, json_t *p, int64_t *gid, char *err,
                       size_t n)
{
    int64_t w = jsonget_int(p, "white_id"), b = jsonget_int(p, "black_id");
    int64_t board = jsonget_has_int(p, "board")
                        ? jsonget_int(p, "board")
                        : store_int(s, 0,
                                    "SELECT max(board) FROM games WHERE tournament_id = ?1 AND "
                                    "round = ?2",
                                    "ii", tid, rn) +
                              1;
    if (w == b)
        return error_set(err, n, STORE_E_INVALID, "a player cannot play himself (player %lld)",
                         (long long)w);
    int rc = seat_players(s, tid, rn, w, b, 0, err, n);
    if (rc)
        return rc;
    rc = store_run(s, NULL,
                   "INSERT INTO games(tournament_id, round, board, white_id, black_id) "
                   "VALUES (?1, ?2, ?3, ?4, ?5)",
                   "iiiii", tid, rn, board, w, b);
    if (rc == STORE_E_CONFLICT)
        return error_set(err, n, rc, "board %lld of round %lld is taken", (long long)board,
                         (long long)rn);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the pairing was refused by the store") : rc;
    *gid = sqlite3_last_insert_rowid(store_db(s));
    return 0;
}

int rounds_create(Store *s, int64_t tid, json_t *pairings, int64_t user, json_t **out, char *err,
                  size_t n)
{
    if (!tournaments_exists(s, 't', 0, tid))
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    int64_t rn =
        store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i", tid) + 1;
    int rc = store_run(s, NULL, "INSERT INTO rounds(tournament_id, number) VALUES (?1, ?2)", "ii",
                       tid, rn);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the round was refused by the store") : rc;
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
        return rc > 0 ? error_set(err, n, rc, "the pairing numbers were refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I}", "tournament", (json_int_t)tid, "round", (json_int_t)rn);
    alerts_audit_add(s, user, 0, "round.create", "round", d);
    json_decref(d);
    *out = rounds_get(s, tid, rn);
    return 0;
}

int rounds_pairing_add(Store *s, int64_t tid, int64_t rn, json_t *in, int64_t user, json_t **out,
                       char *err, size_t n)
{
    char status[16];
    int rc = rounds_status_get(s, tid, rn, status, sizeof status, err, n);
    if (rc)
        return rc;
    if (strcmp(status, "pending") != 0)
        return error_set(err, n, STORE_E_STATE, "round %lld has already started", (long long)rn);
    int64_t gid;
    rc = add_pairing(s, tid, rn, in, &gid, err, n);
    if (rc)
        return rc;
    json_t *d = json_pack("{s:I,s:O}", "game", (json_int_t)gid, "input", in);
    alerts_audit_add(s, user, 0, "game.create", "game", d);
    json_decref(d);
    *out = rounds_game_summary(s, gid);
    return 0;
}

int rounds_game_update(Store *s, int64_t gid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n)
{
    json_t *g = rounds_game_summary(s, gid);
    if (!g)
        return error_set(err, n, STORE_E_NOT_FOUND, "no game %lld", (long long)gid);
    int64_t tid = jsonget_int(g, "tournament_id"), rn = jsonget_int(g, "round");
    int64_t w =
        jsonget_has_int(in, "white_id") ? jsonget_int(in, "white_id") : jsonget_int(g, "white_id");
    int64_t b =
        jsonget_has_int(in, "black_id") ? jsonget_int(in, "black_id") : jsonget_int(g, "black_id");
    int64_t board =
        jsonget_has_int(in, "board") ? jsonget_int(in, "board") : jsonget_int(g, "board");
    int pending = strcmp(jsonget_str(g, "status"), "pending") == 0;
    json_decref(g);
    if (!pending ||
        store_int(s, 0, "SELECT count(*) FROM game_events WHERE game_id = ?1", "i", gid) > 0)
        return error_set(err, n, STORE_E_STATE, "game %lld has already started", (long long)gid);
    if (w == b)
        return error_set(err, n, STORE_E_INVALID, "a player cannot play himself");
    int rc = seat_players(s, tid, rn, w, b, gid, err, n);
    if (rc)
        return rc;
    rc = store_run(s, NULL,
                   "UPDATE games SET white_id = ?2, black_id = ?3, board = ?4 "
                   "WHERE id = ?1",
                   "iiii", gid, w, b, board);
    if (rc == STORE_E_CONFLICT)
        return error_set(err, n, rc, "board %lld of round %lld is taken", (long long)board,
                         (long long)rn);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the change was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "game", (json_int_t)gid, "changes", in);
    alerts_audit_add(s, user, 0, "game.update", "game", d);
    json_decref(d);
    *out = rounds_game_summary(s, gid);
    return 0;
}

int rounds_game_players(Store *s, int64_t gid, int64_t *white, int64_t *black)
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

int64_t rounds_player_current_game(Store *s, int64_t pid)
{
    return store_int(s, 0,
                     "SELECT g.id FROM games g JOIN rounds r ON r.tournament_id = "
                     "g.tournament_id AND r.number = g.round WHERE (g.white_id = ?1 OR "
                     "g.black_id = ?1) AND r.published_ms IS NOT NULL ORDER BY g.round DESC "
                     "LIMIT 1",
                     "i", pid);
}

json_t *rounds_game_ids(Store *s, int64_t tid, int64_t rn)
{
    return store_rows(
        s,
        "SELECT id FROM games WHERE tournament_id = ?1 AND round = ?2 AND " ROUNDS_SQL_SHOWN(
            "?1", "?2") " ORDER BY board",
        "ii", tid, rn);
}

json_t *rounds_tournament_game_ids(Store *s, int64_t tid)
{
    return store_rows(s,
                      "SELECT id FROM games WHERE tournament_id = ?1 AND " ROUNDS_SQL_SHOWN(
                          "?1", "round") " ORDER BY round, board",
                      "i", tid);
}

int rounds_status_get(Store *s, int64_t tid, int64_t rn, char *status, size_t cap, char *err,
                      size_t n)
{
    json_t *r = store_row(s, "SELECT status FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                          "ii", tid, rn);
    if (!r)
        return error_set(err, n, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                         (long long)rn, (long long)tid);
    const char *v = jsonget_str(r, "status");
    snprintf(status, cap, "%s", v ? v : "");
    json_decref(r);
    return 0;
}

int rounds_status_set(Store *s, int64_t tid, int64_t rn, const char *status, int64_t at_ms)
{
    return store_run(s, NULL,
                     "UPDATE rounds SET status = ?3, started_ms = coalesce(started_ms, ?4), "
                     "published_ms = coalesce(published_ms, ?4) WHERE tournament_id = ?1 AND "
                     "number = ?2",
                     "iisi", tid, rn, status, at_ms);
}
