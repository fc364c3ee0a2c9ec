/*
 * lineups.h — the line-up of a team for a round (table lineups) and the
 * round's deadline for them (table lineup_deadlines).
 *
 * A line-up names the players of the match's boards, top board first: as
 * many as the event has boards, all in the team's roster, not withdrawn,
 * and in the roster's order (a reserve plays below the regulars it
 * replaces).  A team that submitted none plays the default line-up: the
 * first players of its roster who are not withdrawn.  A line-up may be
 * submitted before the round is paired (it is used by the pairing) or
 * after, while the round is pending: then the players of the match's
 * pending games are rewritten.  A captain's line-up is refused after the
 * round's deadline; the arbiter's until the round starts.
 *
 * Writes run inside the caller's writer job and return 0 or a positive
 * STORE_E_* with a message in ERR; objects are the caller's.
 *
 * Workload: one team's few boards per call.
 */
#ifndef ARBITER_DB_LINEUPS_H
#define ARBITER_DB_LINEUPS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The line-up of TEAM of TID for round RN: {"round", "team_id", "source"
 * ("submitted" or "default"), "deadline_at" (ms or null), "players":
 * [{"board", "player_id", "name", "rating"}]}; NULL when the team does not
 * exist. */
json_t *lineups_get(Store *s, int64_t tid, int64_t rn, int64_t team);

/* The players of TEAM's line-up for round RN into IDS (BOARDS entries):
 * the submitted one, else the default one.  Returns how many were found
 * (fewer than BOARDS when the roster is short). */
int lineups_effective(Store *s, int64_t tid, int64_t rn, int64_t team, int boards, int64_t *ids);

/* Stores PLAYERS (an array of player ids, top board first) as TEAM's
 * line-up for round RN.  BY_CAPTAIN: the deadline applies.  Refused with
 * STORE_E_STATE (round started, or deadline passed at NOW_MS),
 * STORE_E_INVALID (wrong players), STORE_E_NOT_FOUND.  0 with *OUT as
 * lineups_get. */
int lineups_submit(Store *s, int64_t tid, int64_t rn, int64_t team, json_t *players, int by_captain,
                   int64_t now_ms, int64_t user, json_t **out, char *err, size_t n);

/* Sets the captains' deadline of round RN to AT_MS (0 removes it): 0 with
 * *OUT {"round", "deadline_at"}. */
int lineups_deadline_set(Store *s, int64_t tid, int64_t rn, int64_t at_ms, int64_t user,
                         json_t **out, char *err, size_t n);

#endif
