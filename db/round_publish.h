/*
 * round_publish.h — draft and published rounds (column rounds.published_ms,
 * schema 009).  A paired round is a draft: the arbiters see it, edit it and
 * check it; the public, the players and their tablets do not, until it is
 * published.  Starting a round publishes it.  A published round may be
 * withdrawn to a draft again until any of its games has started.
 *
 * What the public does not see is cut in SQL (ROUNDS_SQL_SHOWN in
 * rounds.h) under the store's public view (store_public_view), and at the
 * door for the routes that name a round or a game (the two checks below).
 *
 * Workload: one small write per publication; the checks are one indexed
 * look-up per request.
 */
#ifndef ARBITER_DB_ROUND_PUBLISH_H
#define ARBITER_DB_ROUND_PUBLISH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/*
 * Publishes (PUBLISH = 1) or withdraws (0) round RN of tournament TID, in
 * the caller's writer job.  Publishing a published round changes nothing.
 * Returns 0 with *OUT the round (rounds_get), or with ERR:
 * STORE_E_NOT_FOUND (no such round), STORE_E_STATE (withdrawing a round
 * that has started, or a game of which has).
 */
int round_publish_set(Store *s, int64_t tid, int64_t rn, int publish, int64_t user, json_t **out,
                      char *err, size_t n);

/* Whether round RN of TID is published (false when there is none). */
bool round_publish_shown(Store *s, int64_t tid, int64_t rn);

/* Whether the round of game GID is published (false when there is none). */
bool round_publish_game_shown(Store *s, int64_t gid);

#endif
