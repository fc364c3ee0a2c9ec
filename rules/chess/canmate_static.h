/*
 * canmate_static.h — the mobility proof of "this side can never mate",
 * without playing any move.
 *
 * Over-approximates, for every man on the board, the squares it can ever
 * stand on and attack in any continuation of the game (a least fixpoint of
 * rules that are each a necessary condition of a real move), and then
 * shows that no square the loser's king can ever reach can be the square of
 * a mate: no man of the winner can ever attack it, or the king keeps a
 * flight square that no man of the winner can attack and neither the
 * winner's king nor enough of the loser's own men can ever take, or the
 * last moves before such a mate cannot be played.
 *
 * It generalises the frozen-wall proof (canmate_static_frozen_no, for
 * structures where no pawn ever moves) to pawn structures that
 * still move a little (pawns facing each other on a file that can never
 * pass), men that can be captured, and kings penned in by pawns.  Answers
 * "proven" or "not proven"; never a wrong "proven".
 *
 * Pure and deterministic; a few microseconds, no allocation.  Used by
 * canmate.c on the root, on the positions one move away, and inside the
 * exhaustive walk where the structure changed; the frozen-wall proof also
 * by the dead-position check after every move.
 */
#ifndef ARBITER_RULES_CANMATE_STATIC_H
#define ARBITER_RULES_CANMATE_STATIC_H

#include <stdbool.h>

#include "board.h"

/* Whether the winner's men can only mate with blockers the loser does not
 * have (a lone king; a lone knight against nothing but queens and pawns;
 * bishops of one colour against no knight and no bishop of the other
 * colour).  Exact only when the loser has no pawn: a pawn could promote to
 * the missing blocker. */
bool canmate_static_needs_help(const Board *b, int winner);

/* canmate_static_material_no() where the winner has pieces but no pawn,
 * rook or queen: the rules that look at both sides' minor pieces. */
bool canmate_static_minor_material_no(const Board *b, int winner);

/* True when the material on b can never mate the loser, whatever the
 * placement: the classic dead positions and their one-sided variants.
 * Every node of the searches asks, and the winner mostly has a pawn, a
 * rook or a queen: that answer is inline. */
static inline bool canmate_static_material_no(const Board *b, int winner)
{
    Bitboard wmat = b->by_color[winner] & ~b->by_type[KING];
    if (!wmat)
        return true; /* a lone king never gives check */
    if (wmat & (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN]))
        return false; /* pawns can promote; rooks and queens mate */
    return canmate_static_minor_material_no(b, winner);
}

/* True only when it is proven that `winner` (WHITE or BLACK) can never
 * mate from b by any series of legal moves; false means "not proven".
 * Positions with castling rights or a pawn that could ever promote are
 * never proven. */
bool canmate_static_no(const Board *b, int winner);

/* True only when it is proven that `winner` can never mate from b because
 * its pawn structure is frozen: every pawn blocked head-on and, with the
 * pawns as the only obstacles, no pawn can ever capture or be captured, so
 * the structure never changes; then none of the winner's pieces can ever
 * attack a square the loser's king can reach, or his only pieces are
 * bishops of one colour and every square they could check on keeps an
 * escape of the other colour that nothing can ever cover.  Cheaper than
 * canmate_static_no() and a different argument (the bishops' colour). */
bool canmate_static_frozen_no(const Board *b, int winner);

/* Squares a piece of `type` (KING included) on sq can ever stand on when
 * only the pawns on `pawns` are obstacles (other men move away in time)
 * and the squares of `forbidden` are never entered. */
Bitboard canmate_static_region(int type, int sq, Bitboard pawns, Bitboard forbidden);

#endif
