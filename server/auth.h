/*
 * auth.h — who is asking: arbiter sessions (username + password hashed with
 * yescrypt), player sessions (a per-tournament PIN or a token), the session
 * cookie (HttpOnly, SameSite=Strict) and the CSRF check.
 *
 * Secrets are 256-bit random values shown once; the store keeps only their
 * SHA-256.  A player token also works directly as "Authorization: Bearer",
 * which tablets and the load generator use (no cookie, so no CSRF); so
 * does a team captain's token (db/teams.h), the captain's only credential.
 * Unsafe requests authenticated by the cookie must carry X-CSRF-Token.
 */
#ifndef ARBITER_SERVER_AUTH_H
#define ARBITER_SERVER_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "http.h"
#include "store.h"

#define AUTH_COOKIE "arbiter_session"

/* Fills r->auth from the cookie or bearer token.  Answers (401/403) and
 * returns -1 when a present credential is bad or CSRF fails; 0 otherwise
 * (anonymous included). */
int auth_resolve(Req *r);
/* Forgets every cached credential lookup: called after each committed
 * write that may have changed sessions, credentials or users (all but the
 * game actions), so the next request of every caller is looked up again. */
void auth_cache_forget(void);
/* Role checks (run by the route table, routes.c, before a handler): 0 when
 * allowed, else answers 401/403 and returns -1. */
int auth_require_arbiter(Req *r);
int auth_require_player(Req *r);
/* The arbiter, or the captain of team TEAM of tournament TID. */
int auth_require_captain(Req *r, int64_t tid, int64_t team);
/* For an arbiter's change to tournament TID (TID 0: the tournament of game
 * GID): 0 when r's arbiter may change it (db/users.h: an administrator, its
 * chief or an arbiter assigned to it), else answers 403 and returns -1.
 * Every arbiter may still read it. */
int auth_require_change(Req *r, int64_t tid, int64_t gid);
/* For assigning arbiters to tournament TID: 0 when r's arbiter is its chief
 * or an administrator, else answers 403 and returns -1. */
int auth_require_chief(Req *r, int64_t tid);

/* A random secret of N bytes as lowercase hex into OUT (2N+1 bytes). */
int auth_random_hex(char *out, size_t nbytes);
/* Digits of a new PIN: 10^10 PINs (the guessing arithmetic is in
 * deploy/README.md). */
enum { AUTH_PIN_DIGITS = 10 };
/* A random decimal PIN of DIGITS digits (at most 16) into OUT. */
int auth_random_pin(char *out, int digits);
/* The hash of a PIN within its tournament: HMAC-SHA-256 under the
 * database's random key (sessions_pin_key), read from S.  0, or a negative
 * error when the key cannot be read. */
int auth_pin_hash(Store *s, int64_t tournament_id, const char *pin, char out[65]);
/* The unkeyed SHA-256 that PINs issued before the keyed hash were stored
 * with; sign-in still accepts them until the arbiter issues new ones. */
void auth_pin_hash_legacy(int64_t tournament_id, const char *pin, char out[65]);
/* The shortest password an account may be given (command line and API);
 * sign-in still accepts older, shorter ones. */
enum { AUTH_PASSWORD_MIN = 12 };
/* yescrypt hash of PASSWORD into OUT; 0 or -1. */
int auth_password_hash(const char *password, char *out, size_t outlen);
/* 1 when PASSWORD matches HASH.  HASH NULL (no such user) costs the same
 * time as a real check, against a dummy hash made once, and gives 0: the
 * time of a sign-in does not tell whether the username exists. */
int auth_password_check(const char *password, const char *hash);

#endif
