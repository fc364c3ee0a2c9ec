/*
 * alerts.c — alerts and the audit log.  See alerts.h.
 */
#include "alerts.h"

#include <stdio.h>
#include <stdlib.h>

#include "error.h"

/* With the game's round, board and players, so a desk can say "board 3,
 * Vasilev - Petrova" in its reader's language without asking again. */
#define SQL_ALERT_COLS                                                                             \
    "SELECT a.id, a.tournament_id, a.game_id, a.kind, a.at_ms, a.message, "                        \
    "a.detail AS detail_json, a.resolved <> 0 AS resolved_int, g.round, g.board, "                 \
    "w.name AS white, b.name AS black FROM alerts a "                                              \
    "LEFT JOIN games g ON g.id = a.game_id LEFT JOIN players w ON w.id = g.white_id "              \
    "LEFT JOIN players b ON b.id = g.black_id "
static const char SQL_ALERTS[] =
    SQL_ALERT_COLS "WHERE a.tournament_id = ?1 AND a.id > ?2 ORDER BY a.id";

/* SQLite has no boolean: the column comes back as an integer.  An alert
 * of no game has no round, board or players: those keys are left out. */
static void fix_resolved(json_t *a)
{
    json_object_set_new(a, "resolved",
                        json_boolean(json_integer_value(json_object_get(a, "resolved_int"))));
    json_object_del(a, "resolved_int");
    static const char *const game_keys[] = {"round", "board", "white", "black"};
    for (size_t i = 0; i < sizeof game_keys / sizeof game_keys[0]; i++)
        if (json_is_null(json_object_get(a, game_keys[i])))
            json_object_del(a, game_keys[i]);
}

json_t *alerts_get(Store *s, int64_t aid)
{
    json_t *a = store_row(s, SQL_ALERT_COLS "WHERE a.id = ?1", "i", aid);
    if (a)
        fix_resolved(a);
    return a;
}

json_t *alerts_list(Store *s, int64_t tid, int64_t after_id)
{
    json_t *rows = store_rows(s, SQL_ALERTS, "ii", tid, after_id);
    size_t i;
    json_t *a;
    json_array_foreach(rows, i, a) fix_resolved(a);
    return rows;
}

int alerts_add(Store *s, int64_t tid, int64_t gid, const char *kind, const char *message,
               const json_t *detail, int64_t at_ms, int64_t *id)
{
    char *d = detail ? json_dumps(detail, JSON_COMPACT) : NULL;
    int rc = store_run(s, NULL,
                       "INSERT INTO alerts(tournament_id, game_id, kind, at_ms, message, detail) "
                       "VALUES (?1, nullif(?2, 0), ?3, ?4, ?5, coalesce(?6, '{}'))",
                       "iisiss", tid, gid, kind, at_ms, message, d);
    free(d);
    if (rc == 0 && id)
        *id = sqlite3_last_insert_rowid(store_db(s));
    return rc;
}

int alerts_resolve(Store *s, int64_t tid, int64_t aid, int resolved, json_t **out, char *err,
                   size_t n)
{
    int changes = 0;
    int rc = store_run(s, &changes,
                       "UPDATE alerts SET resolved = ?3 WHERE tournament_id = ?1 "
                       "AND id = ?2",
                       "iid", tid, aid, resolved);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the change was refused by the store") : rc;
    if (!changes)
        return error_set(err, n, STORE_E_NOT_FOUND, "no alert %lld in tournament %lld",
                         (long long)aid, (long long)tid);
    *out = alerts_get(s, aid);
    return 0;
}

int alerts_audit_add(Store *s, int64_t user, int64_t player, const char *action, const char *target,
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
