/*
 * round_edit.h — the arbiter's edits of a proposed (pending) round and the
 * report of what a round breaks (rules/tournament/pairing_check.h) for the store.
 *
 * Edits here complement POST /rounds/{rn}/games (add a board) and PATCH
 * /games/{gid} (change one board): a player's bye in the round (set,
 * change, remove) and the exchange of two players' places (two boards, a
 * board and a bye, or the colours of one board).  Every edit needs the round
 * to be pending (STORE_E_STATE otherwise) and is written to the audit log.
 *
 * Workload: one round of a few hundred boards per call.
 */
#ifndef ARBITER_DB_ROUND_EDIT_H
#define ARBITER_DB_ROUND_EDIT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/*
 * The criteria report of round RN of tournament TID (pending or past):
 * {"round", "status", "system", "violations": [{"code", "kind", "message",
 * "players": [player ids], "board", "value", "engine_value", "bracket" (the
 * points of the scoregroup whose bracket a quality item concerns, e.g. "1.5",
 * or null)}],
 * "engine_differs", "engine": [{"white_id", "black_id"}] (black_id null for
 * the bye)}.  Returns 0 with *OUT, STORE_E_NOT_FOUND, STORE_E_INVALID with
 * ERR, or -ENOMEM.
 */
int round_edit_check(Store *s, int64_t tid, int64_t rn, json_t **out, char *err, size_t n);

/*
 * Sets the bye of player PID in pending round RN to KIND ("pab", "half",
 * "zero", "free") or removes it ("none").  A player on a board leaves it for
 * the bye: the board is deleted and the opponent left unpaired (the way to
 * take a pairing apart before pairing by hand).  Returns 0 with *OUT the
 * round (as rounds_get plus "byes"), or STORE_E_NOT_FOUND /
 * STORE_E_STATE with ERR.
 */
int round_edit_bye(Store *s, int64_t tid, int64_t rn, int64_t pid, const char *kind, int64_t user,
                   json_t **out, char *err, size_t n);

/*
 * Exchanges the places of players A and B in pending round RN: on one board
 * their colours, on two boards their seats, a board and a bye (or nothing)
 * the seat and the bye.  Returns 0 with *OUT the round as round_edit_bye
 * does, or STORE_E_NOT_FOUND / STORE_E_STATE / STORE_E_INVALID with ERR.
 */
int round_edit_swap(Store *s, int64_t tid, int64_t rn, int64_t a, int64_t b, int64_t user,
                    json_t **out, char *err, size_t n);

#endif
