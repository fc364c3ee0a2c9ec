/*
 * players.c — player rows.  See players.h.  Every write checks its
 * preconditions inside the caller's transaction, so a refused request
 * writes nothing.
 */
#include "players.h"

#include <stdio.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "sessions.h"
#include "tournaments.h"
#include "tpn.h"

/* The values the route's shape check cannot say: a federation is FIDE's
 * three capital letters (or none), a rating is 0 (unrated) or on FIDE's
 * scale from its floor of 1000.  Names the field, for the user to fix. */
static int check_values(json_t *in, char *err, size_t n)
{
    const char *fed = jsonget_str(in, "federation");
    if (fed && *fed) {
        int ok = strlen(fed) == 3;
        for (const char *c = fed; ok && *c; c++)
            ok = *c >= 'A' && *c <= 'Z';
        if (!ok)
            return error_set(err, n, STORE_E_INVALID,
                             "field 'federation' must be three capital letters "
                             "(e.g. BUL), not \"%s\"",
                             fed);
    }
    if (jsonget_has_int(in, "rating")) {
        int64_t r = jsonget_int(in, "rating");
        if (r != 0 && (r < 1000 || r > 3500))
            return error_set(err, n, STORE_E_INVALID,
                             "field 'rating' must be 0 (unrated) or from 1000 to "
                             "3500, not %lld",
                             (long long)r);
    }
    return 0;
}

static const char SQL_P_LIST[] =
    "SELECT id, tournament_id, name, rating, rating_estimate, title, federation, fide_id, sex, "
    "birth, status FROM players WHERE tournament_id = ?1 ORDER BY id";
static const char SQL_P_GET[] =
    "SELECT id, tournament_id, name, rating, rating_estimate, title, federation, fide_id, sex, "
    "birth, status FROM players WHERE tournament_id = ?1 AND id = ?2";

json_t *players_list(Store *s, int64_t tid)
{
    json_t *rows = store_rows(s, SQL_P_LIST, "i", tid);
    tpn_annotate(s, tid, rows);
    return rows;
}

json_t *players_get(Store *s, int64_t tid, int64_t pid)
{
    json_t *p = store_row(s, SQL_P_GET, "ii", tid, pid);
    tpn_annotate(s, tid, p);
    return p;
}

int players_create(Store *s, int64_t tid, json_t *in, const char *pin_hash, const char *token_hash,
                   int64_t user, json_t **out, char *err, size_t n)
{
    if (!tournaments_exists(s, 't', 0, tid))
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    int bad = check_values(in, err, n);
    if (bad)
        return bad;
    /* A round robin's table is laid out for its players from round 1 on. */
    if (store_int(s, 0,
                  "SELECT count(*) FROM tournaments t WHERE id = ?1 AND system = "
                  "'roundrobin' AND EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = "
                  "t.id)",
                  "i", tid))
        return error_set(err, n, STORE_E_STATE,
                         "round 1 of this round robin is paired: its table cannot "
                         "take another player");
    int rc = store_run(
        s, NULL,
        "INSERT INTO players(tournament_id, name, rating, title, federation, fide_id,"
        " sex, birth, status, rating_estimate) VALUES (?1, ?2, ?3, coalesce(?4, ''),"
        " coalesce(?5, ''), coalesce(?6, ''), coalesce(?7, ''), coalesce(?8, ''),"
        " coalesce(?9, 'active'), ?10)",
        "is"
        "i"
        "ssssss"
        "i",
        tid, jsonget_str(in, "name"), jsonget_int(in, "rating"), jsonget_str(in, "title"),
        jsonget_str(in, "federation"), jsonget_str(in, "fide_id"), jsonget_str(in, "sex"),
        jsonget_str(in, "birth"), jsonget_str(in, "status"), jsonget_int(in, "rating_estimate"));
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the player was refused by the store") : rc;
    int64_t pid = sqlite3_last_insert_rowid(store_db(s));
    rc = sessions_credentials_add(s, tid, pid, pin_hash, token_hash);
    if (rc)
        return rc > 0 ? error_set(err, n, STORE_E_CONFLICT, "that PIN is already in use, try again")
                      : rc;
    /* A late entry after the freeze gets the next free number. */
    rc = tpn_freeze(s, tid);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the pairing number was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)pid, "input", in);
    alerts_audit_add(s, user, 0, "player.create", "player", d);
    json_decref(d);
    *out = players_get(s, tid, pid);
    return 0;
}

int players_update(Store *s, int64_t tid, int64_t pid, json_t *in, int64_t user, json_t **out,
                   char *err, size_t n)
{
    if (store_int(s, 0, "SELECT count(*) FROM players WHERE tournament_id = ?1 AND id = ?2", "ii",
                  tid, pid) == 0)
        return error_set(err, n, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                         (long long)pid, (long long)tid);
    int bad = check_values(in, err, n);
    if (bad)
        return bad;
    int rc = store_run(
        s, NULL,
        "UPDATE players SET name = coalesce(?2, name), rating = CASE WHEN ?3 >= 0 "
        "THEN ?3 ELSE rating END, title = coalesce(?4, title), federation = "
        "coalesce(?5, federation), fide_id = coalesce(?6, fide_id), sex = "
        "coalesce(?7, sex), birth = coalesce(?8, birth), status = coalesce(?9, status), "
        "rating_estimate = CASE WHEN ?10 >= 0 THEN ?10 ELSE rating_estimate END "
        "WHERE id = ?1",
        "is"
        "i"
        "ssssss"
        "i",
        pid, jsonget_str(in, "name"),
        jsonget_has_int(in, "rating") ? jsonget_int(in, "rating") : (int64_t)-1,
        jsonget_str(in, "title"), jsonget_str(in, "federation"), jsonget_str(in, "fide_id"),
        jsonget_str(in, "sex"), jsonget_str(in, "birth"), jsonget_str(in, "status"),
        jsonget_has_int(in, "rating_estimate") ? jsonget_int(in, "rating_estimate") : (int64_t)-1);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the change was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)pid, "changes", in);
    alerts_audit_add(s, user, 0, "player.update", "player", d);
    json_decref(d);
    *out = players_get(s, tid, pid);
    return 0;
}
