/*
 * tpn.h — a tournament's pairing numbers (TPN, the TRF start ranks) from
 * its player rows: the C.04.2 initial order (rules/tournament/startrank.h) while it
 * may still change, the numbers stored in players.start_rank once it may
 * not.
 *
 * The freeze: C.04.2 lets corrections renumber players only until round 4
 * has been paired.  A Swiss (or manual) tournament freezes when a round
 * numbered 4 or more is created; a round robin already when round 1 is,
 * because its Berger table is laid out on the numbers.  After the freeze a
 * late entry gets the next free number and a rating correction changes
 * nobody's number.  Before it, every read computes the order afresh, so a
 * late entry takes its proper place and corrections renumber.
 *
 * Workload: one tournament of a few hundred players per call, one query.
 */
#ifndef ARBITER_DB_TPN_H
#define ARBITER_DB_TPN_H

#include <jansson.h>
#include <stdint.h>

#include "store.h"

/* The first round whose pairing freezes the numbers of a tournament of
 * SYSTEM ("roundrobin": 1, anything else: 4). */
int tpn_freeze_round(const char *system);

/* The player ids of tournament TID in TPN order: (*IDS)[k] is the player
 * with number k + 1; *N players.  *IDS is malloc'd (caller frees; never
 * NULL on success).  Returns 0 or -ENOMEM. */
int tpn_order(Store *s, int64_t tid, int64_t **ids, int *n);

/* Stores the numbers of tournament TID if it has reached its freeze round
 * (players without one get theirs: all of them at the freeze, a late
 * entry the next free number).  Meant for a writer job, after a round or
 * a player was created.  Returns 0 or the store's error. */
int tpn_freeze(Store *s, int64_t tid);

/* Adds "tpn" to every player object of PLAYERS (an array of objects, or
 * one object) of tournament TID, by its "id".  Players not found get no
 * field. */
void tpn_annotate(Store *s, int64_t tid, json_t *players);

#endif
