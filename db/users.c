/*
 * users.c — arbiter accounts and their rights on tournaments.  See users.h.
 */
#include "users.h"

#include <stdio.h>

#include "alerts.h"

#define ERR(code, ...) (snprintf(err, n, __VA_ARGS__), (code))

json_t *users_list(Store *s)
{
    return store_rows(s,
                      "SELECT u.id, u.username, u.admin, u.created_ms, "
                      "(SELECT count(*) FROM sessions WHERE user_id = u.id) AS sessions "
                      "FROM users u ORDER BY u.username",
                      "");
}

int64_t users_id(Store *s, const char *username)
{
    return store_int(s, 0, "SELECT id FROM users WHERE username = ?1", "s", username);
}

/* Audits ACTION on USERNAME by BY. */
static void audit(Store *s, int64_t by, const char *action, const char *username, int64_t tid)
{
    json_t *d = json_pack("{s:s}", "username", username);
    if (tid)
        json_object_set_new(d, "tournament_id", json_integer(tid));
    alerts_audit_add(s, by, 0, action, "user", d);
    json_decref(d);
}

int users_passwd_id(Store *s, int64_t uid, const char *pwhash, const char *keep_hash)
{
    int rc = store_run(s, NULL, "UPDATE users SET pwhash = ?2 WHERE id = ?1", "is", uid, pwhash);
    if (rc)
        return rc;
    /* Whoever knew the old password may hold a session: it ends. */
    return store_run(s, NULL, "DELETE FROM sessions WHERE user_id = ?1 AND token_hash IS NOT ?2",
                     "is", uid, keep_hash);
}

int users_passwd(Store *s, const char *username, const char *pwhash, int64_t by, char *err,
                 size_t n)
{
    int64_t uid = users_id(s, username);
    if (!uid)
        return ERR(STORE_E_NOT_FOUND, "there is no user '%s'", username);
    int rc = users_passwd_id(s, uid, pwhash, NULL);
    if (rc)
        return rc;
    audit(s, by, "user.passwd", username, 0);
    return 0;
}

/* 1 when UID is the only administrator left. */
static int last_admin(Store *s, int64_t uid)
{
    return store_int(s, 0, "SELECT admin FROM users WHERE id = ?1", "i", uid) == 1 &&
           store_int(s, 0, "SELECT count(*) FROM users WHERE admin = 1", "") == 1;
}

int users_remove(Store *s, const char *username, char *err, size_t n)
{
    int64_t uid = users_id(s, username);
    if (!uid)
        return ERR(STORE_E_NOT_FOUND, "there is no user '%s'", username);
    if (last_admin(s, uid))
        return ERR(STORE_E_CONFLICT,
                   "'%s' is the last administrator: make another user one first "
                   "(arbiter user admin NAME)",
                   username);
    /* Sessions and assignments go with the user (ON DELETE CASCADE); the
     * tournaments he created lose their chief (ON DELETE SET NULL). */
    int rc = store_run(s, NULL, "DELETE FROM users WHERE id = ?1", "i", uid);
    if (rc)
        return rc > 0 ? ERR(rc, "the store refused to remove '%s'", username) : rc;
    audit(s, 0, "user.remove", username, 0);
    return 0;
}

int users_revoke(Store *s, const char *username, int *count, char *err, size_t n)
{
    int64_t uid = users_id(s, username);
    if (!uid)
        return ERR(STORE_E_NOT_FOUND, "there is no user '%s'", username);
    int rc = store_run(s, count, "DELETE FROM sessions WHERE user_id = ?1", "i", uid);
    if (rc)
        return rc;
    audit(s, 0, "user.revoke", username, 0);
    return 0;
}

int users_admin_set(Store *s, const char *username, int admin, char *err, size_t n)
{
    int64_t uid = users_id(s, username);
    if (!uid)
        return ERR(STORE_E_NOT_FOUND, "there is no user '%s'", username);
    if (!admin && last_admin(s, uid))
        return ERR(STORE_E_CONFLICT, "'%s' is the last administrator", username);
    int rc = store_run(s, NULL, "UPDATE users SET admin = ?2 WHERE id = ?1", "ii", uid,
                       (int64_t)(admin != 0));
    if (rc)
        return rc;
    audit(s, 0, admin ? "user.admin" : "user.unadmin", username, 0);
    return 0;
}

/* ---- rights on tournaments ---- */

/* The test that user ?1 is an administrator or the creator of tournament
 * t (an alias in the query). */
#define CHIEF_SQL "((SELECT admin FROM users WHERE id = ?1) = 1 OR t.created_by = ?1)"

int users_is_chief(Store *s, int64_t uid, int64_t tid)
{
    return store_int(s, 0,
                     "SELECT EXISTS (SELECT 1 FROM tournaments t WHERE t.id = ?2 AND " CHIEF_SQL
                     ")",
                     "ii", uid, tid) == 1;
}

int users_may_change(Store *s, int64_t uid, int64_t tid, int64_t gid)
{
    if (!tid)
        tid = store_int(s, 0, "SELECT tournament_id FROM games WHERE id = ?1", "i", gid);
    return store_int(s, 0,
                     "SELECT EXISTS (SELECT 1 FROM tournaments t WHERE t.id = ?2 AND "
                     "(" CHIEF_SQL " OR EXISTS (SELECT 1 FROM tournament_arbiters a WHERE "
                     "a.tournament_id = t.id AND a.user_id = ?1)))",
                     "ii", uid, tid) == 1;
}

json_t *users_arbiters(Store *s, int64_t tid)
{
    json_t *chief = store_row(s,
                              "SELECT u.id, u.username FROM tournaments t JOIN users u ON u.id = "
                              "t.created_by WHERE t.id = ?1",
                              "i", tid);
    json_t *list = store_rows(s,
                              "SELECT u.id, u.username, a.granted_by, a.granted_ms FROM "
                              "tournament_arbiters a JOIN users u ON u.id = a.user_id "
                              "WHERE a.tournament_id = ?1 ORDER BY u.username",
                              "i", tid);
    return json_pack("{s:o,s:o}", "chief", chief ? chief : json_null(), "arbiters",
                     list ? list : json_array());
}

int users_grant(Store *s, int64_t tid, const char *username, int64_t by, char *err, size_t n)
{
    int64_t uid = users_id(s, username);
    if (!uid)
        return ERR(STORE_E_NOT_FOUND, "there is no user '%s'", username);
    int rc = store_run(s, NULL,
                       "INSERT INTO tournament_arbiters(tournament_id, user_id, granted_by, "
                       "granted_ms) VALUES (?1, ?2, nullif(?3, 0), ?4) "
                       "ON CONFLICT(tournament_id, user_id) DO NOTHING",
                       "iiii", tid, uid, by, store_now_ms());
    if (rc)
        return rc > 0 ? ERR(rc, "the store refused the assignment") : rc;
    audit(s, by, "tournament.arbiter.grant", username, tid);
    return 0;
}

int users_ungrant(Store *s, int64_t tid, const char *username, int64_t by, char *err, size_t n)
{
    int changes = 0;
    int rc = store_run(s, &changes,
                       "DELETE FROM tournament_arbiters WHERE tournament_id = ?1 AND user_id = "
                       "(SELECT id FROM users WHERE username = ?2)",
                       "is", tid, username);
    if (rc)
        return rc;
    if (!changes)
        return ERR(STORE_E_NOT_FOUND, "'%s' is not an arbiter of tournament %lld", username,
                   (long long)tid);
    audit(s, by, "tournament.arbiter.revoke", username, tid);
    return 0;
}
