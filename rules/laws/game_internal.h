/*
 * game_internal.h — helpers shared by the files of the Laws engine
 * (game.c, game_arbiter.c, game_pgn.c); not part of its API.
 */
#ifndef ARBITER_RULES_GAME_INTERNAL_H
#define ARBITER_RULES_GAME_INTERNAL_H

#include "game.h"

/* Fills the verdict with code and a printf-style reason; returns code. */
int game_refuse(GameVerdict *v, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets the verdict's reason (what happened). */
void game_say(GameVerdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a scoresheet note at the current ply, with ev's own note text
 * after it.  Room was reserved by game_apply(). */
void game_note(GameState *st, const GameEvent *ev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "White" or "Black". */
const char *game_side_name(int side);

/* Moves completed by each side since the start position. */
void game_moves_done(const GameState *st, int out[2]);

/* The 7.5.5 / 9.5.3 penalty time of this game. */
int64_t game_penalty_time(const GameState *st);

/* True only when it is proven that `winner` cannot checkmate from the
 * current position (UNKNOWN counts as "can"). */
bool game_cannot_mate(const GameState *st, int winner);

/* Ends the game with the given half-point scores (12.9 overrides applied). */
void game_end(GameState *st, int end, int side, int white, int black, int64_t t);

/* Ends the game as a loss of `loser`, or a draw when draw is true. */
void game_end_loss(GameState *st, int end, int loser, int64_t t, bool draw);

/* Plays the legal move m for the side to move at ev's time: clock press
 * (no increment when forced_queen, 7.5.2), history, offers, automatic ends. */
void game_play(GameState *st, const GameEvent *ev, Move m, bool forced_queen, bool offer,
               GameVerdict *v);

/* The 7.5.5 penalty for side's completed illegal move. */
void game_illegal_penalty(GameState *st, const GameEvent *ev, int side, GameVerdict *v);

/* 0 when a draw may be offered (agreeing: agreed) now, else a refusal;
 * with_move: the offer comes with the move the side to move is making. */
int game_offer_rule(const GameState *st, bool agreeing, bool with_move, GameVerdict *v);

/* Handlers in game_arbiter.c. */
int game_on_claim(GameState *st, const GameEvent *ev, GameVerdict *v);
int game_on_arbiter(GameState *st, const GameEvent *ev, GameVerdict *v);

/* The arbiter grants (grant) or rejects the pending Guidelines III claim. */
int game_iii_decide(GameState *st, const GameEvent *ev, bool grant, GameVerdict *v);

#endif
