/*
 * game_canmate.c — the Laws engine's one door to the question "can this
 * side still checkmate by any series of legal moves?" (5.1.2, 5.2.2, 6.9,
 * 7.5.5).  Only a proven NO may turn a loss into a draw; anything this file
 * cannot prove counts as "can mate".
 *
 * This version proves NO only by material: a bare king never mates, and the
 * insufficient-material patterns of rules/outcome mate for neither side.
 */
#include "game_internal.h"
#include "outcome.h"

bool game_board_cannot_mate(const Board *b, int winner)
{
    Bitboard mine = b->by_color[winner];
    if (!bb_more_than_one(mine))
        return true; /* the king alone */
    return outcome_insufficient_material(b);
}

bool game_board_dead(const Board *b)
{
    return outcome_insufficient_material(b);
}
