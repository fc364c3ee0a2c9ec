/*
 * alerts.h — the arbiter's alerts (table alerts) and the audit log (table
 * audit): the two records the store keeps of what happened, the first for
 * the arbiter to act on, the second for the record.
 *
 * The bottom of the store's queries: every write elsewhere appends to the
 * audit log through here, so this module uses nothing but the store.
 * The audit log is append-only (schema triggers refuse updates and deletes).
 * Writes run inside the caller's writer job (db/writer.h).
 *
 * Workload: an alert per flag fall or arbiter call, an audit row per write.
 */
#ifndef ARBITER_DB_ALERTS_H
#define ARBITER_DB_ALERTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The alerts of tournament TID with an id above AFTER_ID, oldest first:
 * [{id, tournament_id, game_id, kind, at_ms, message, detail, resolved,
 * round, board, white, black}] (the caller owns it).  message is English;
 * detail says the same as a code and parameters (db/alert_detail.h), {}
 * for an alert stored without. */
json_t *alerts_list(Store *s, int64_t tid, int64_t after_id);

/* Alert AID with its game's round, board and player names (keys left out
 * for an alert of no game), or NULL; the caller owns it. */
json_t *alerts_get(Store *s, int64_t aid);
/* Adds an alert of tournament TID about game GID (0 = none) with its
 * English MESSAGE and DETAIL (borrowed; NULL = {}); *ID (if not NULL) gets
 * its id.  Returns 0 or the store's error. */
int alerts_add(Store *s, int64_t tid, int64_t gid, const char *kind, const char *message,
               const json_t *detail, int64_t at_ms, int64_t *id);

/* Marks alert AID of TID resolved (RESOLVED nonzero) or open again: 0 with
 * *OUT the alert (caller owns), or STORE_E_NOT_FOUND with ERR. */
int alerts_resolve(Store *s, int64_t tid, int64_t aid, int resolved, json_t **out, char *err,
                   size_t n);

/* Appends ACTION on TARGET by arbiter USER or player PLAYER (0 = none) to
 * the audit log with DETAIL (may be NULL; borrowed).  Returns 0 or the
 * store's error. */
int alerts_audit_add(Store *s, int64_t user, int64_t player, const char *action, const char *target,
                     json_t *detail);

#endif
