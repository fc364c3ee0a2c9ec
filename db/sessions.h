/*
 * sessions.h — the store's side of signing in: arbiter users and their
 * password hashes, the players' credentials (a PIN per tournament and a
 * token, table player_credentials), and the sessions a sign-in opens.
 *
 * Only hashes are stored: the caller hashes every secret (server/auth.h)
 * and looks it up here by its hash.  A PIN hash is unique within its
 * tournament, a token hash and a session's token hash everywhere.
 * Writes run inside the caller's writer job (db/writer.h).
 *
 * Workload: a sign-in now and then; the lookups of a request's credential
 * are cached by the server, so they run once per caller every few seconds.
 */
#ifndef ARBITER_DB_SESSIONS_H
#define ARBITER_DB_SESSIONS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Adds an arbiter USERNAME with the password hash PWHASH (the first one of
 * the database an administrator, db/users.h): 0, or STORE_E_CONFLICT (the
 * name is taken) with ERR.  Audited. */
int sessions_user_add(Store *s, const char *username, const char *pwhash, char *err, size_t n);
/* {"id", "username", "pwhash"} of USERNAME or NULL (caller owns). */
json_t *sessions_user_find(Store *s, const char *username);
/* How many arbiter users there are. */
int64_t sessions_user_count(Store *s);

/* Sessions one arbiter or one player keeps at most: a new one drops the
 * oldest beyond this. */
enum { SESSIONS_PER_HOLDER = 20 };

/* Opens a session for TOKEN_HASH of arbiter USER or player PLAYER (the other
 * 0) with its CSRF token, valid until EXPIRES_MS, and drops the holder's
 * oldest sessions beyond SESSIONS_PER_HOLDER.  Expired sessions are not
 * looked at here (sessions_expire does it off the request path).  Returns
 * 0 or the store's error. */
int sessions_create(Store *s, const char *token_hash, int64_t user, int64_t player,
                    const char *csrf, int64_t expires_ms);
/* Deletes at most LIMIT sessions expired before NOW_MS (by the index on
 * expiry): the writer calls it with its heartbeat.  Returns how many went,
 * or a negative error. */
int sessions_expire(Store *s, int64_t now_ms, int limit);
/* Closes the session of TOKEN_HASH (none is fine).  0 or the store's error. */
int sessions_delete(Store *s, const char *token_hash);

/* The database's random key of PIN hashes (table secrets, made by the
 * schema) into KEY: 0, or a negative error when it cannot be read. */
int sessions_pin_key(Store *s, unsigned char key[32]);

/* Stores the first credentials of player PID of TID.  Returns 0, a positive
 * STORE_E_* when the store refuses them (a PIN hash already taken), or a
 * negative error. */
int sessions_credentials_add(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
                             const char *token_hash);
/* Replaces the credentials of player PID of TID and closes his sessions:
 * 0, or STORE_E_CONFLICT (PIN taken) / STORE_E_NOT_FOUND with ERR.
 * Audited as USER. */
int sessions_credentials_set(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
                             const char *token_hash, int64_t user, char *err, size_t n);
/* 1 when PIN_HASH is already some player's PIN in tournament TID. */
int sessions_pin_taken(Store *s, int64_t tid, const char *pin_hash);
/* The player signing in with a PIN of tournament TID / with a token:
 * {"id", "tournament_id"} or NULL (caller owns). */
json_t *sessions_player_by_pin(Store *s, int64_t tid, const char *pin_hash);
json_t *sessions_player_by_token(Store *s, const char *token_hash);

/* What the hash of a session cookie resolves to. */
typedef struct SessionsCaller {
    int64_t user_id;       /* the arbiter; 0 in a player's session */
    int64_t player_id;     /* the player; 0 in an arbiter's session */
    int64_t tournament_id; /* the player's tournament */
    int64_t expires_ms;
    char csrf[48];     /* the session's CSRF token */
    char username[64]; /* the arbiter's name ("" for a player) */
} SessionsCaller;

/* The session of TOKEN_HASH still valid at NOW_MS: 1 with *OUT filled, 0
 * when there is none, -EIO when the query cannot run.  Meant for every
 * request the server's cache misses: a cached statement, no JSON. */
int sessions_lookup(Store *s, const char *token_hash, int64_t now_ms, SessionsCaller *out);

/* The player whose token hashes to TOKEN_HASH: 1 with *PLAYER and *TID, 0
 * when there is none, -EIO when the query cannot run.  Like
 * sessions_lookup, for the uncached path of a bearer token. */
int sessions_lookup_token(Store *s, const char *token_hash, int64_t *player, int64_t *tid);

#endif
