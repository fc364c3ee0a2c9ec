/*
 * outcome.c — checkmate, stalemate, the simple dead-material patterns,
 * repetition counts and the automatic and claimed draws of Art. 9.
 *
 * Repetition relies on Board.key being the Art. 9.2.3 identity (see
 * board.h), so counting equal keys is counting equal positions.  The scan
 * steps back two plies at a time (the side to move is part of the identity)
 * and stops at the last capture or pawn move, before which no position can
 * come back.
 */
#include "outcome.h"

const char *outcome_name(Outcome o)
{
    switch (o) {
    case OUTCOME_ONGOING: return "ongoing";
    case OUTCOME_CHECKMATE: return "checkmate";
    case OUTCOME_STALEMATE: return "stalemate";
    case OUTCOME_INSUFFICIENT: return "insufficient";
    case OUTCOME_FIVEFOLD: return "fivefold";
    case OUTCOME_SEVENTYFIVE: return "seventyfive";
    }
    return "unknown";
}

bool outcome_insufficient_material(const Board *b)
{
    if (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN])
        return false;
    Bitboard knights = b->by_type[KNIGHT], bishops = b->by_type[BISHOP];
    if (knights) {
        /* K+N v K only: one knight and nothing else. */
        return !bishops && !bb_more_than_one(knights);
    }
    /* K v K, K+B v K, and any number of bishops (either side) that all
     * stand on squares of one colour: no mate is possible. */
    return !(bishops & LIGHT_SQUARES_BB) || !(bishops & DARK_SQUARES_BB);
}

Outcome outcome_of_position(const Board *b)
{
    if (movegen_count_legal(b) == 0)
        return board_in_check(b) ? OUTCOME_CHECKMATE : OUTCOME_STALEMATE;
    if (outcome_insufficient_material(b))
        return OUTCOME_INSUFFICIENT;
    return OUTCOME_ONGOING;
}

int outcome_repetitions(const uint64_t *keys, int count, int halfmove)
{
    if (!keys || count <= 0)
        return 0;
    int oldest = count - 1 - (halfmove < 0 ? 0 : halfmove);
    if (oldest < 0)
        oldest = 0;
    uint64_t now = keys[count - 1];
    int n = 0;
    for (int i = count - 1; i >= oldest; i -= 2)
        n += keys[i] == now;
    return n;
}

Outcome outcome_of_game(const Board *b, const uint64_t *keys, int count)
{
    Outcome o = outcome_of_position(b);
    if (o != OUTCOME_ONGOING)
        return o;
    if (count > 0 && outcome_repetitions(keys, count, b->halfmove) >= 5)
        return OUTCOME_FIVEFOLD;
    if (b->halfmove >= 150)
        return OUTCOME_SEVENTYFIVE;
    return OUTCOME_ONGOING;
}

int outcome_claims(const Board *b, const uint64_t *keys, int count, Move intended)
{
    int grounds = 0;
    if (intended == MOVE_NONE) {
        if (count > 0 && outcome_repetitions(keys, count, b->halfmove) >= 3)
            grounds |= OUTCOME_CLAIM_THREEFOLD;
        if (b->halfmove >= 100)
            grounds |= OUTCOME_CLAIM_FIFTY;
        return grounds;
    }
    if (!movegen_is_legal(b, intended))
        return 0;
    Board after = *b;
    board_make(&after, intended);
    /* Count the new position among the old ones, then itself. */
    int limit = after.halfmove; /* plies back that can still repeat */
    int n = 1;
    for (int i = count - 2, back = 2; i >= 0 && back <= limit; i -= 2, back += 2)
        n += keys[i] == after.key;
    if (n >= 3)
        grounds |= OUTCOME_CLAIM_THREEFOLD;
    if (after.halfmove >= 100)
        grounds |= OUTCOME_CLAIM_FIFTY;
    return grounds;
}
