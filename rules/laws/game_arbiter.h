/*
 * game_arbiter.h — the handlers of draw claims and of the arbiter's actions
 * (game_arbiter.c), called by game_apply()'s dispatch in game.c; not part
 * of the Laws engine's API.  They use game_state.h below them and never
 * call back into game.c.
 */
#ifndef ARBITER_RULES_GAME_ARBITER_H
#define ARBITER_RULES_GAME_ARBITER_H

#include "game_state.h"

/* A draw claim (9.2, 9.3, 9.5, Guidelines III): decides, then changes st.
 * Returns 0 or the GAME_E_* refusal written into v. */
int game_arbiter_on_claim(GameState *st, const GameEvent *ev, GameVerdict *v);

/* An arbiter-only event (call, pause, resume, adjust, restore, illegal,
 * penalty, result, colours reversed).  Returns 0 or a GAME_E_* refusal. */
int game_arbiter_on_arbiter(GameState *st, const GameEvent *ev, GameVerdict *v);

/* The arbiter grants (grant) or rejects the pending Guidelines III claim.
 * Returns 0 or a GAME_E_* refusal. */
int game_arbiter_iii_decide(GameState *st, const GameEvent *ev, bool grant, GameVerdict *v);

/* Refuses (GAME_E_PAYLOAD, into v) a restore whose ply or clock readings
 * are out of range; 0 when they are fine. */
int game_arbiter_restore_check(const GameState *st, const GameEvent *ev, GameVerdict *v);

/* Takes the game back to the position after ply plies (checked), with
 * ev's optional clock readings, and notes it. */
void game_arbiter_restore_to(GameState *st, const GameEvent *ev, int ply);

/* Discards the game for a new one from the start position at t (7.2, 7.3):
 * clocks in full, counts and pending offers or claims cleared, every note
 * moved before the first move.  The players stay where they are. */
void game_arbiter_new_game(GameState *st, int64_t t);

/* "5 moves", "10 moves by White and 9 by Black" into out. */
void game_arbiter_moves_made(const GameState *st, char *out, size_t cap);

/* The moves played from the start, as the scoresheet reads them, into out
 * (as many whole moves as fit, then " ..."). */
void game_arbiter_moves_text(const GameState *st, char *out, size_t cap);

#endif
