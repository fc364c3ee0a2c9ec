/*
 * game_canmate.c — the Laws engine's one door to the question "can this
 * side still checkmate by any series of legal moves?" (5.1.2, 5.2.2, 6.9,
 * 7.5.5), answered by rules/canmate.  Only a proven NO may turn a loss into
 * a draw or end the game as dead; UNKNOWN counts as "can mate".
 */
#include "canmate.h"
#include "game_internal.h"

bool game_board_cannot_mate(const Board *b, int winner)
{
    return canmate_analyse(b, winner) == CANMATE_NO;
}

bool game_board_dead(const Board *b)
{
    return canmate_is_dead(b);
}
