/*
 * forbidden.h — forbidden pairs of a tournament (table forbidden_pairs):
 * two players who must not be paired with each other, in every round or
 * in a round range.  The arbiter keeps the list; tournament_io_build() hands it to
 * the rules Tournament so the Dutch engine pairs around it, the round
 * check reports it (FORBIDDEN) and the rating report writes it.
 *
 * Invariant: a pair is stored once, smaller player id first.
 * Workload: a handful of pairs per tournament, read on every pairing.
 */
#ifndef ARBITER_DB_FORBIDDEN_H
#define ARBITER_DB_FORBIDDEN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tournament.h"

/*
 * Adds the pairs of TID to T, whose start rank k belongs to player
 * IDS[k - 1] (NP players).  A pair without a round range becomes an XXP
 * record (every round), one with a range a 260 record.  Pairs naming a
 * player not in IDS are skipped.  Returns 0 or -ENOMEM.
 */
int forbidden_load(Store *s, int64_t tid, Tournament *t, const int64_t *ids, int np);

/* The pairs of TID: [{players: [a, b], names: [..], first_round,
 * last_round (null = open), created_at}] by player ids (never NULL unless
 * out of memory). */
json_t *forbidden_list(Store *s, int64_t tid);

/*
 * Forbids (ADD nonzero) or allows again (ADD 0) the pair P1, P2 of
 * tournament TID, in rounds FIRST..LAST (0 = open end; used when adding).
 * Returns 0 with *OUT the pair as forbidden_list shows it (or {removed:
 * true, players}), or with ERR: STORE_E_INVALID (the same player twice, a
 * bad round range), STORE_E_NOT_FOUND (no such tournament, a player not in
 * it, no such pair to remove), STORE_E_CONFLICT (the pair already there).
 * Written to the audit log as USER.
 */
int forbidden_set(Store *s, int64_t tid, int64_t p1, int64_t p2, int first, int last, int add,
                  int64_t user, json_t **out, char *err, size_t n);

#endif
