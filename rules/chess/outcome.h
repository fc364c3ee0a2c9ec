/*
 * outcome.h — the game-end facts a position and its history can tell:
 * checkmate (Art. 5.1.1), stalemate (5.2.1), the simple insufficient-
 * material patterns (a subset of the dead positions of 5.2.2), repetition
 * counts (9.2.3), fivefold repetition (9.6.1), the 75-move rule (9.6.2) and
 * the threefold / 50-move claim conditions (9.2, 9.3).
 *
 * History is a plain array of position keys: keys[0] is Board.key of the
 * position the game (or the FEN it started from) began with, keys[i] the
 * key after ply i, keys[count-1] the current position.  Board.key already
 * is the Art. 9.2.3 identity (side to move, placement, castling rights, and
 * the en passant square only when a capture is legal), so equal keys mean
 * the same position.  The Laws engine appends the new key after every move
 * and calls outcome_of_game(); for a claim it calls outcome_claims(), with
 * the intended move when the player wrote one.
 *
 * "Insufficient" here is only the material patterns K v K, K+N v K,
 * K+B v K, and kings with any bishops all on squares of one colour; whether
 * a side can still mate at all is rules/canmate's question.
 *
 * All functions are pure.  Workload: a few calls per move; a repetition
 * scan looks at no more than Board.halfmove + 1 keys.
 */
#ifndef ARBITER_RULES_OUTCOME_H
#define ARBITER_RULES_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

typedef enum Outcome {
    OUTCOME_ONGOING = 0,
    OUTCOME_CHECKMATE,    /* 5.1.1: the side to move is mated and loses */
    OUTCOME_STALEMATE,    /* 5.2.1: draw */
    OUTCOME_INSUFFICIENT, /* 5.2.2, simple material patterns: draw */
    OUTCOME_FIVEFOLD,     /* 9.6.1: draw */
    OUTCOME_SEVENTYFIVE,  /* 9.6.2: draw */
} Outcome;

/* "ongoing", "checkmate", "stalemate", "insufficient", "fivefold",
 * "seventyfive" (the words of `arbiter replay`); "unknown" otherwise. */
const char *outcome_name(Outcome o);

/* True for the material patterns above (whatever the side to move). */
bool outcome_insufficient_material(const Board *b);

/*
 * What the position alone says: OUTCOME_CHECKMATE, OUTCOME_STALEMATE,
 * OUTCOME_INSUFFICIENT or OUTCOME_ONGOING (in that order of precedence).
 */
Outcome outcome_of_position(const Board *b);

/*
 * How many times the current position keys[count-1] has occurred in
 * keys[0..count-1], itself included (so >= 1 when count >= 1; 0 when
 * count <= 0).  halfmove is the current Board.halfmove: positions before
 * the last capture or pawn move cannot repeat, so only the last
 * halfmove + 1 keys are looked at (pass count to look at all of them).
 */
int outcome_repetitions(const uint64_t *keys, int count, int halfmove);

/*
 * The automatic end of the game after the last move, given the current
 * position b and its history (keys[count-1] must be b->key; count may be 0
 * to give no history).  Precedence: checkmate (it beats the 75-move rule,
 * 9.6.2), stalemate, insufficient material, fivefold repetition (9.6.1:
 * the current position has occurred five times), the 75-move rule
 * (b->halfmove >= 150).  OUTCOME_ONGOING when none applies.
 */
Outcome outcome_of_game(const Board *b, const uint64_t *keys, int count);

/* Grounds a draw claim may have (bits of outcome_claims()'s result). */
enum {
    OUTCOME_CLAIM_THREEFOLD = 1, /* Art. 9.2 */
    OUTCOME_CLAIM_FIFTY = 2,     /* Art. 9.3 */
};

/*
 * Which draw claims by the player on move in b would be correct.  Without
 * an intended move (intended == MOVE_NONE) the claims are judged on the
 * current position: it has occurred at least three times (9.2.1 b), or
 * b->halfmove >= 100 (9.3.1 b).  With an intended move, which must be legal
 * in b, they are judged on the position that move would produce (9.2.1 a,
 * 9.3.1 a): it would occur for at least the third time, or the halfmove
 * clock would reach 100.  keys/count as for outcome_of_game() (keys[count-1]
 * == b->key).  Returns a bitmask of OUTCOME_CLAIM_*, 0 when neither holds
 * or the intended move is not legal.
 */
int outcome_claims(const Board *b, const uint64_t *keys, int count, Move intended);

#endif
