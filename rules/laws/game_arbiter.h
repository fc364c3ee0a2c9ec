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

#endif
