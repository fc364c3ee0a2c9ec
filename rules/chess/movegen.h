/*
 * movegen.h — moves and legal move generation (movegen.c): the 16-bit move
 * encoding, move lists, the legal moves of a position, and perft.
 *
 * Moves are 16 bits: from (0-5), to (6-11), kind (12-13), promotion piece
 * (14-15).  Castling is encoded as the king's move of two squares.
 *
 * Included by board.h, so every user of a Board sees it; the functions take
 * a Board, declared in board.h (movegen.c uses board.c, never the other way).
 *
 * Workload: movegen_legal_moves() and movegen_count_legal() are the perft hot
 * path (hundreds of millions of calls).
 */
#ifndef ARBITER_RULES_MOVEGEN_H
#define ARBITER_RULES_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "bitboard.h"

typedef struct Board Board;

typedef uint16_t Move;

enum { MOVE_NONE = 0 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

/* The most legal moves any position has is 218. */
enum { MOVES_MAX = 256 };

typedef struct MoveList {
    int count;
    Move moves[MOVES_MAX];
} MoveList;

static inline Move move_new(int from, int to, int kind, int promo_type)
{
    return (Move)(from | (to << 6) | (kind << 12) | ((promo_type - KNIGHT) << 14));
}
static inline int move_from(Move m)
{
    return m & 63;
}
static inline int move_to(Move m)
{
    return (m >> 6) & 63;
}
static inline int move_kind(Move m)
{
    return (m >> 12) & 3;
}
/* Piece type promoted to; meaningful only for MOVE_PROMOTION. */
static inline int move_promotion(Move m)
{
    return KNIGHT + (m >> 14);
}

/* Fills list with every legal move of the side to move; returns the count. */
int movegen_legal_moves(const Board *b, MoveList *list);

/* Fills list with the legal moves that may give check, in the order of
 * movegen_legal_moves(): every move that gives check (directly, by
 * uncovering a line, by promotion, castling or en passant) and a few that
 * do not, which the caller tells apart by making them.  For mate-in-one
 * tests, at a fraction of the cost of the full list.  Returns the count. */
int movegen_checking_candidates(const Board *b, MoveList *list);

/* Number of legal moves, faster than generating them (perft leaves). */
int movegen_count_legal(const Board *b);

/* Whether the side to move has a legal move at all: stops at the first
 * kind of move found (king steps come first), so it is cheaper than a
 * count where most positions have one (the leaves of the searches). */
bool movegen_has_legal(const Board *b);

/* Whether the legal move m gives check directly to the king on ksq: by
 * the man moved, from its new square (or by the piece it promotes to).
 * Checks it uncovers, and a castling rook's, are not seen.  For ordering
 * moves, and for skipping the moves that cannot mate. */
bool movegen_gives_check(const Board *b, Move m, int ksq);

/* Whether the legal move m gives check by any means: directly, by the
 * line it uncovers, by a castling rook or by an en passant capture (those
 * two rare ones by making the move).  Cheaper than making the move to
 * ask, where most moves give none. */
bool movegen_move_checks(const Board *b, Move m);

/* A move of list that mates at once, or MOVE_NONE: the first in the order
 * of list, which holds legal moves of b (all of them, or only those
 * movegen_checking_candidates() keeps: the same answer, every mate being
 * a check).  Only the moves that can give check are made: direct checks,
 * uncovering moves, castling and en passant. */
Move movegen_mating_move(const Board *b, const MoveList *list);

/* True when m is one of the legal moves in b. */
bool movegen_is_legal(const Board *b, Move m);

/* Leaf count of the legal move tree to depth (perft). depth >= 0. */
uint64_t movegen_perft(const Board *b, int depth);

#endif
