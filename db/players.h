/*
 * players.h — player rows (table players) of a tournament, each answered
 * with its pairing number "tpn" (db/tpn.h).  A new player gets his
 * credentials (db/sessions.h) in the same transaction.
 *
 * Reads take any Store; writes run inside the caller's writer job
 * (db/writer.h) and return 0 or a positive STORE_E_* with a message in ERR.
 * Objects come back as JSON with the API's field names; the caller owns
 * them.  Inputs are JSON objects already checked by the server.
 *
 * Workload: a few hundred players per tournament; a list is one query plus
 * the pairing numbers' one.
 */
#ifndef ARBITER_DB_PLAYERS_H
#define ARBITER_DB_PLAYERS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The players of TID by id / player PID of TID (NULL when there is none). */
json_t *players_list(Store *s, int64_t tid);
json_t *players_get(Store *s, int64_t tid, int64_t pid);
/* Creates a player with the given credential hashes; after the freeze the
 * player gets the next free pairing number.  0 with *OUT the player, or
 * with ERR: STORE_E_NOT_FOUND (no tournament), STORE_E_STATE (a round
 * robin whose round 1 is paired), STORE_E_CONFLICT (the PIN is taken),
 * STORE_E_INVALID (a federation other than three capital letters, a rating
 * from 1 to 999 or above 3500; ERR names the field). */
int players_create(Store *s, int64_t tid, json_t *in, const char *pin_hash, const char *token_hash,
                   int64_t user, json_t **out, char *err, size_t n);
/* Changes the fields IN gives: 0 with *OUT the player, STORE_E_NOT_FOUND,
 * STORE_E_INVALID (as players_create) or a store error with ERR. */
int players_update(Store *s, int64_t tid, int64_t pid, json_t *in, int64_t user, json_t **out,
                   char *err, size_t n);

#endif
