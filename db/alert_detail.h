/*
 * alert_detail.h — what an alert of a game says, as data: a code and its
 * parameters (the side concerned, the article of the Laws, the move as
 * entered, the claim, the count of illegal moves, the piece that must
 * move ...).  The English message of the alert says the same for English
 * readers and logs; a desk writes the detail in its reader's language and
 * falls back on the message for a code it does not know.
 *
 * Pure: reads the event, its verdict and the game state after it; no store.
 *
 * The codes by kind (every parameter optional unless named):
 *   call           call, call_note (note: the player's words)
 *   claim          claim_correct, claim_incorrect, claim_incorrect_played
 *                  (move played), claim_incorrect_illegal (move illegal),
 *                  claim_waiting (Guidelines III: the arbiter decides);
 *                  side, claim, article, move, penalty_s
 *   flag           flag_lost, flag_draw (6.9), flag_both, flag_undecided;
 *                  side (the flag that fell), article
 *   dead_position  dead_question; side (would lose), end ("time",
 *                  "illegal_moves"), article
 *   illegal        illegal_move (7.5.1), illegal_promotion (7.5.2),
 *                  illegal_act (7.5.3/7.5.4, act "no_move"/"two_hands"),
 *                  illegal_recorded (by the arbiter), illegal_lost,
 *                  illegal_draw, illegal_undecided (7.5.5); side, count,
 *                  limit (0: none), move, penalty_s, article, and while the
 *                  game goes on must ("move" or "capture"), piece (P N B R
 *                  Q K), square
 *   result         result; result ("1-0" ...), end (game_end_name)
 *
 * Workload: one call per alert, a few per game at most.
 */
#ifndef ARBITER_DB_ALERT_DETAIL_H
#define ARBITER_DB_ALERT_DETAIL_H

#include <jansson.h>
#include <stdbool.h>

#include "game.h"

/* The detail of an alert of KIND ("call", "claim", ...) raised by EV with
 * verdict V, ST the game after it, PLAYED whether EV added a ply.  A new
 * object (the caller owns it) with at least "code", or NULL when out of
 * memory. */
json_t *alert_detail_new(const char *kind, const GameEvent *ev, const GameVerdict *v,
                         const GameState *st, bool played);

#endif
