/*
 * matches.h — the rounds of a team competition: pairing the next round
 * (team round robin by the Berger tables, or the Swiss Team Pairing System
 * C.04.6, rules/tournament/team_pairing.h), the matches of a round with
 * their boards and scores, and a whole match forfeited.
 *
 * Pairing round R creates the round's games through rounds_create (so the
 * tablets, clocks and the Laws engine see ordinary games): match t's board
 * k is game board (t - 1) * boards + k, its players the teams' line-ups
 * (db/lineups.h), its colours by board as the settings say.  A bye is a
 * match row without games.  Round 1 gives the teams their pairing numbers
 * (team_event_rank_order: the average of the top ratings first).
 *
 * Writes run inside the caller's writer job and return 0 or a positive
 * STORE_E_* with a message in ERR; objects are the caller's.
 *
 * Workload: a 200-team round is a few hundred inserts.
 */
#ifndef ARBITER_DB_MATCHES_H
#define ARBITER_DB_MATCHES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Pairs the next round of team competition TID.  Refused with
 * STORE_E_STATE (not a team event, the last round unfinished, all rounds
 * played, a team without enough players) or STORE_E_INVALID (no pairing
 * meets the absolute criteria).  0 with *OUT {"round", "matches"} as
 * matches_list. */
int matches_pair_next(Store *s, int64_t tid, int64_t user, json_t **out, char *err, size_t n);

/* The matches of round RN of TID in table order: [{"id", "round", "table",
 * "team_a": {"id","name","pairing_number"}, "team_b" (null for a bye),
 * "bye" ("", "pab", "free"), "forfeit", "colour_a", "score": {"game_a",
 * "game_b", "match_a", "match_b", "complete"}, "boards": [{"board",
 * "game_id", "white_id", "white_name", "black_id", "black_name",
 * "result", "status", "colour_a"}]}]; NULL when TID does not exist. */
json_t *matches_list(Store *s, int64_t tid, int64_t rn);
/* One match MID of TID as in matches_list, or NULL. */
json_t *matches_get(Store *s, int64_t tid, int64_t mid);

/* Records that a whole match was forfeited: KIND "a", "b", "both" or ""
 * (played after all).  *GAMES gets the match's games that have no result
 * yet with the forfeit scores the caller ends them with: [{"id", "white",
 * "black"}] (1 or 0; empty for "").  0, STORE_E_NOT_FOUND,
 * or STORE_E_STATE for a bye. */
int matches_forfeit(Store *s, int64_t tid, int64_t mid, const char *kind, int64_t user,
                    json_t **games, char *err, size_t n);

#endif
