/*
 * game_state.h — the state changes and queries shared by the event
 * handlers of the Laws engine (game.c, game_arbiter.c); not part of its API.
 * Both handler files sit above game_state.c, which calls neither.
 */
#ifndef ARBITER_RULES_GAME_STATE_H
#define ARBITER_RULES_GAME_STATE_H

#include "game.h"

/* Fills the verdict with code and a printf-style reason; returns code. */
int game_state_refuse(GameVerdict *v, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets the verdict's reason (what happened). */
void game_state_say(GameVerdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a scoresheet note at the current ply, with ev's own note text
 * after it.  Room was reserved by game_apply(). */
void game_state_note(GameState *st, const GameEvent *ev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "White" or "Black". */
const char *game_state_side_name(int side);

/* Moves completed by each side since the start position. */
void game_state_moves_done(const GameState *st, int out[2]);

/* The 7.5.5 / 9.5.3 penalty time of this game. */
int64_t game_state_penalty_time(const GameState *st);

/* True only when it is proven that `winner` cannot checkmate from the
 * current position (UNKNOWN counts as "can"). */
bool game_state_cannot_mate(const GameState *st, int winner);

/* canmate's full answer for `winner` from the current position: YES, NO
 * (proven) or UNKNOWN. */
int game_state_can_mate(const GameState *st, int winner);

/* A loss of `loser` (end GAME_END_TIME at 6.9 or _ILLEGAL_MOVES at 7.5.5)
 * that stands only if the opponent can mate, when canmate cannot decide:
 * the game is not scored; the clocks pause at t and the arbiter decides
 * (dead_side, v->dead_question), by a `result`. */
void game_state_ask_dead(GameState *st, const GameEvent *ev, int loser, int end, int64_t t,
                         GameVerdict *v);

/* Clears what the player on move touched (4.3, 4.4, 7.5.1): no binding, and
 * his right to claim a draw (9.4) back. */
void game_state_clear_touch(GameState *st);

/* Ends the game with the given half-point scores (12.9 overrides applied). */
void game_state_end(GameState *st, int end, int side, int white, int black, int64_t t);

/* Ends the game as a loss of `loser`, or a draw when draw is true. */
void game_state_end_loss(GameState *st, int end, int loser, int64_t t, bool draw);

/* Plays the legal move m for the side to move at ev's time: clock press
 * (no increment when forced_queen, 7.5.2), history, offers, automatic ends. */
void game_state_play(GameState *st, const GameEvent *ev, Move m, bool forced_queen, bool offer,
                     GameVerdict *v);

/* The 7.5.5 penalty for side's completed illegal move. */
void game_state_illegal_penalty(GameState *st, const GameEvent *ev, int side, GameVerdict *v);

/* Whether the side to move in b has a legal move from `from` to `to`;
 * from < 0 = any piece, to < 0 = any square.  A move with a given `to` is a
 * capture or a move to that square, never castling (the king's move to its
 * castling square captures nothing and is bound by 4.4, not 4.3). */
bool game_state_has_move(const Board *b, int from, int to);

/* "e4" for a square 0..63 into out[3]. */
const char *game_state_square_name(int sq, char out[3]);

/* How many times the current position has occurred (Art. 9.2). */
int game_state_repetitions(const GameState *st);

/* The position after the first ply plies (clamped to the game) into *b. */
void game_state_position_at(const GameState *st, int ply, Board *b);

/* The result as PGN writes it ("1-0", "1/2-1/2", "+/-", "*") into buf. */
const char *game_state_result_text(const GameState *st, char buf[16]);

/* The name of a GAME_PENALTY_* ("?" when out of range), and back (-1 when
 * unknown). */
const char *game_state_penalty_name(int p);
int game_state_penalty_from_name(const char *s);

#endif
