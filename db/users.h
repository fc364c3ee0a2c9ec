/*
 * users.h — arbiter accounts beyond signing in (db/sessions.h adds and
 * finds them): the list, new passwords, removal, ending an account's
 * sessions, and the rights on tournaments (table tournament_arbiters,
 * schema 008).
 *
 * Rights: an administrator (users.admin) may change every tournament; the
 * user who created a tournament (tournaments.created_by) is its chief
 * arbiter; the chief or an administrator assigns further arbiters to it.
 * Every arbiter may read every tournament; changing one needs one of these
 * rights.  The first account of a database is an administrator.
 *
 * Workload: a handful of accounts; users_may_change runs once per
 * arbiter's write (by primary key and index).
 */
#ifndef ARBITER_DB_USERS_H
#define ARBITER_DB_USERS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* [{id, username, admin, created_ms, sessions}] by name (caller owns;
 * NULL only when out of memory). */
json_t *users_list(Store *s);
/* The id of USERNAME, or 0 when there is none. */
int64_t users_id(Store *s, const char *username);
/* Gives USERNAME the password hash PWHASH and ends all his sessions: 0, or
 * STORE_E_NOT_FOUND with ERR.  Audited as BY (0: the command line). */
int users_passwd(Store *s, const char *username, const char *pwhash, int64_t by, char *err,
                 size_t n);
/* Like users_passwd for user UID, keeping the session of KEEP_HASH (the
 * caller's own; NULL keeps none). */
int users_passwd_id(Store *s, int64_t uid, const char *pwhash, const char *keep_hash);
/* Removes USERNAME with his sessions and tournament rights (the tournaments
 * he created keep their data, without a chief): 0, or STORE_E_NOT_FOUND /
 * STORE_E_CONFLICT (the last administrator) with ERR.  Audited. */
int users_remove(Store *s, const char *username, char *err, size_t n);
/* Ends every session of USERNAME, *COUNT of them: 0, or STORE_E_NOT_FOUND
 * with ERR when there is no such user.  Audited. */
int users_revoke(Store *s, const char *username, int *count, char *err, size_t n);
/* Makes USERNAME an administrator (ADMIN 1) or not (0): 0, or
 * STORE_E_NOT_FOUND / STORE_E_CONFLICT (the last administrator) with ERR. */
int users_admin_set(Store *s, const char *username, int admin, char *err, size_t n);

/* 1 when user UID may assign arbiters to TID (an administrator or its
 * creator), else 0. */
int users_is_chief(Store *s, int64_t uid, int64_t tid);
/* 1 when user UID may change tournament TID (TID 0: the tournament of game
 * GID): an administrator, its creator or an arbiter assigned to it; else 0
 * (an unknown tournament included). */
int users_may_change(Store *s, int64_t uid, int64_t tid, int64_t gid);
/* The arbiters of TID: {chief: {id, username} or null, arbiters: [{id,
 * username, granted_by, granted_ms}]} (caller owns). */
json_t *users_arbiters(Store *s, int64_t tid);
/* Assigns USERNAME to TID (again is fine): 0, or STORE_E_NOT_FOUND with
 * ERR.  Audited as BY. */
int users_grant(Store *s, int64_t tid, const char *username, int64_t by, char *err, size_t n);
/* Takes USERNAME's assignment to TID away: 0, or STORE_E_NOT_FOUND (no such
 * user or he was not assigned) with ERR.  Audited as BY. */
int users_ungrant(Store *s, int64_t tid, const char *username, int64_t by, char *err, size_t n);

#endif
