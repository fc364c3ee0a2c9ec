/*
 * sessions.c — users, player credentials and sessions.  See sessions.h.
 */
#include "sessions.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alerts.h"

#define ERR(code, ...) (snprintf(err, n, __VA_ARGS__), (code))

/* ---- arbiter users ---- */

int sessions_user_add(Store *s, const char *username, const char *pwhash, char *err, size_t n)
{
    int rc = store_run(s, NULL,
                       /* The first account is the administrator (db/users.h). */
                       "INSERT INTO users(username, pwhash, created_ms, admin) VALUES (?1, ?2, ?3, "
                       "NOT EXISTS (SELECT 1 FROM users))",
                       "ssi", username, pwhash, store_now_ms());
    if (rc == STORE_E_CONFLICT)
        return ERR(rc, "there is already a user '%s'", username);
    if (rc)
        return rc > 0 ? ERR(rc, "the user was refused by the store") : rc;
    json_t *d = json_pack("{s:s}", "username", username);
    alerts_audit_add(s, 0, 0, "user.add", "user", d);
    json_decref(d);
    return 0;
}

json_t *sessions_user_find(Store *s, const char *username)
{
    return store_row(s, "SELECT id, username, pwhash FROM users WHERE username = ?1", "s",
                     username);
}

int64_t sessions_user_count(Store *s)
{
    return store_int(s, 0, "SELECT count(*) FROM users", "");
}

/* ---- sessions ---- */

int sessions_create(Store *s, const char *token_hash, int64_t user, int64_t player,
                    const char *csrf, int64_t expires_ms)
{
    int rc = store_run(s, NULL,
                       "INSERT INTO sessions(token_hash, user_id, player_id, csrf, created_ms, "
                       "expires_ms) VALUES (?1, nullif(?2, 0), nullif(?3, 0), ?4, ?5, ?6)",
                       "siisii", token_hash, user, player, csrf, store_now_ms(), expires_ms);
    if (rc)
        return rc;
    /* The holder keeps only its newest sessions: signing in again and
     * again cannot grow the table (indexes sessions_user, sessions_player). */
    if (user)
        return store_run(s, NULL,
                         "DELETE FROM sessions WHERE user_id = ?1 AND rowid NOT IN (SELECT rowid "
                         "FROM sessions WHERE user_id = ?1 ORDER BY created_ms DESC, rowid DESC "
                         "LIMIT ?2)",
                         "ii", user, (int64_t)SESSIONS_PER_HOLDER);
    return store_run(s, NULL,
                     "DELETE FROM sessions WHERE player_id = ?1 AND rowid NOT IN (SELECT rowid "
                     "FROM sessions WHERE player_id = ?1 ORDER BY created_ms DESC, rowid DESC "
                     "LIMIT ?2)",
                     "ii", player, (int64_t)SESSIONS_PER_HOLDER);
}

int sessions_expire(Store *s, int64_t now_ms, int limit)
{
    int changes = 0;
    int rc = store_run(s, &changes,
                       "DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions "
                       "WHERE expires_ms < ?1 LIMIT ?2)",
                       "ii", now_ms, (int64_t)limit);
    return rc ? rc : changes;
}

int sessions_delete(Store *s, const char *token_hash)
{
    return store_run(s, NULL, "DELETE FROM sessions WHERE token_hash = ?1", "s", token_hash);
}

static const char SQL_SESSION[] =
    "SELECT s.user_id, s.player_id, s.csrf, u.username, p.tournament_id, s.expires_ms "
    "FROM sessions s LEFT JOIN users u ON u.id = s.user_id "
    "LEFT JOIN players p ON p.id = s.player_id "
    "WHERE s.token_hash = ?1 AND s.expires_ms > ?2";

/* Column COL of ST as text into DST (CAP bytes), "" for NULL. */
static void column_copy(sqlite3_stmt *st, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

int sessions_lookup(Store *s, const char *token_hash, int64_t now_ms, SessionsCaller *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = store_stmt(s, SQL_SESSION);
    if (!st)
        return -EIO;
    store_bind(st, "si", token_hash, now_ms);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        out->user_id = sqlite3_column_int64(st, 0); /* NULL reads as 0 */
        out->player_id = sqlite3_column_int64(st, 1);
        out->tournament_id = sqlite3_column_int64(st, 4);
        out->expires_ms = sqlite3_column_int64(st, 5);
        column_copy(st, 2, out->csrf, sizeof out->csrf);
        column_copy(st, 3, out->username, sizeof out->username);
    }
    sqlite3_reset(st);
    return found;
}

/* ---- player credentials ---- */

int sessions_pin_key(Store *s, unsigned char key[32])
{
    sqlite3_stmt *st = store_stmt(s, "SELECT value FROM secrets WHERE name = 'pin_hmac'");
    if (!st)
        return -EIO;
    int rc = -ENOENT;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_bytes(st, 0) == 32) {
        memcpy(key, sqlite3_column_blob(st, 0), 32);
        rc = 0;
    }
    sqlite3_reset(st);
    return rc;
}

int sessions_credentials_add(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
                             const char *token_hash)
{
    return store_run(s, NULL,
                     "INSERT INTO player_credentials(player_id, tournament_id, pin_hash, "
                     "token_hash) VALUES (?1, ?2, ?3, ?4)",
                     "iiss", pid, tid, pin_hash, token_hash);
}

int sessions_credentials_set(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
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
    alerts_audit_add(s, user, 0, "player.credentials", "player", d);
    json_decref(d);
    return 0;
}

int sessions_pin_taken(Store *s, int64_t tid, const char *pin_hash)
{
    return store_int(s, 0,
                     "SELECT count(*) FROM player_credentials WHERE tournament_id = ?1 AND "
                     "pin_hash = ?2",
                     "is", tid, pin_hash) > 0;
}

json_t *sessions_player_by_pin(Store *s, int64_t tid, const char *pin_hash)
{
    return store_row(s,
                     "SELECT player_id AS id, tournament_id FROM player_credentials "
                     "WHERE tournament_id = ?1 AND pin_hash = ?2",
                     "is", tid, pin_hash);
}

json_t *sessions_player_by_token(Store *s, const char *token_hash)
{
    return store_row(s,
                     "SELECT player_id AS id, tournament_id FROM player_credentials "
                     "WHERE token_hash = ?1",
                     "s", token_hash);
}

int sessions_lookup_token(Store *s, const char *token_hash, int64_t *player, int64_t *tid)
{
    sqlite3_stmt *st = store_stmt(
        s, "SELECT player_id, tournament_id FROM player_credentials WHERE token_hash = ?1");
    if (!st)
        return -EIO;
    store_bind(st, "s", token_hash);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        *player = sqlite3_column_int64(st, 0);
        *tid = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    return found;
}
