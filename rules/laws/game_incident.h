/*
 * game_incident.h — the handlers of the irregularities an arbiter records
 * from the board (game_incident.c): a touched piece (4.3, 4.4), a clock
 * pressed without a move or a move made with two hands (7.5.3, 7.5.4),
 * displaced pieces (7.4), a wrong initial position or board (7.2) and the
 * arbiter's ruling on a dead position (5.2.2, 6.9, 7.5.5).  Called by
 * game_apply()'s dispatch in game.c; not part of the Laws engine's API.
 * Calls go game.c -> game_incident.c -> game_arbiter.c -> game_state.c.
 */
#ifndef ARBITER_RULES_GAME_INCIDENT_H
#define ARBITER_RULES_GAME_INCIDENT_H

#include "game_state.h"

/* A touch, illegal_act, displaced, setup or dead_position event: decides,
 * then changes st.  Returns 0 or the GAME_E_* refusal written into v. */
int game_incident_on_event(GameState *st, const GameEvent *ev, GameVerdict *v);

#endif
