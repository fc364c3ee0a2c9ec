/*
 * canmate_plan.c — the plan-directed stage: where will the loser's king be
 * mated?
 *
 * In the blocked positions the earlier stages leave undecided the mate is
 * rarely in a corner: the loser's king is mated in its pen, against the
 * pawn walls that fence it in, after a long cooperative plan (a walk round
 * the wall, pieces given up so that pawns change files, tempo moves).  The
 * guided search (canmate_guided.c) follows such plans when every piece is
 * steered to the right square, and gets lost when it is steered anywhere
 * else.  So this stage pictures the mate first: every square but the
 * corners (the guided search's own pictures) is a candidate, best first
 * by how many of its neighbours a wall already closes (a mate needs every
 * flight covered; the edge, a pawn or a square the winner's pawns attack
 * covers one for nothing), then by nearness to the loser's king.  The
 * candidates are not limited to where the king can walk now: the plan may
 * open the wall first (a pawn that changes files by a capture), and the
 * mate is then often just beyond it.  The best CANMATE_PLAN_TARGETS each
 * get an equal share of the budget: a steered search finds its line
 * within some hundred thousand positions or, as a rule, not at all.
 *
 * Invariants: every YES is the guided search's, a line of legal moves that
 * mates (shortened there, at most CANMATE_LINE_MAX plies); this stage
 * never answers NO (a steered search that fails proves nothing, so the
 * guided search's own NO is not passed on either).  Deterministic: budgets
 * are counted in positions.
 *
 * Workload: run by canmate_search() only where the cheaper stages failed,
 * the constructed blocked positions; some million positions in all, a
 * tenth of a second or two, and a few microseconds to pick the squares.
 */
#include "canmate_plan.h"

#include <stdlib.h>

/* Chebyshev distance. */
static int king_steps(int a, int b)
{
    int df = abs(SQ_FILE(a) - SQ_FILE(b)), dr = abs(SQ_RANK(a) - SQ_RANK(b));
    return df > dr ? df : dr;
}

/* How good a square t looks for the loser's mate: its neighbours a wall
 * closes (the board's edge, a pawn, a square a winner's pawn attacks)
 * count most; nearness to the loser's king breaks ties. */
static int target_score(const Board *b, int winner, int t, int lk)
{
    Bitboard wp = board_pieces(b, winner, PAWN), watt = 0;
    while (wp)
        watt |= bb_pawn_attacks[winner][bb_pop(&wp)];
    Bitboard around = bb_king_attacks[t];
    int walls = 8 - bb_popcount(around) + bb_popcount(around & (b->by_type[PAWN] | watt));
    return 4 * walls - king_steps(t, lk);
}

CanMate canmate_plan_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                            uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len)
{
    int lk = board_king(b, winner ^ 1);
    /* The corners are the guided search's own pictures, tried before. */
    Bitboard corners = BB(SQ(0, 0)) | BB(SQ(7, 0)) | BB(SQ(0, 7)) | BB(SQ(7, 7));
    Bitboard cand = ~corners;
    int sq[64], score[64], n = 0;
    while (cand) {
        int t = bb_pop(&cand);
        int s = target_score(b, winner, t, lk);
        int j = n++;
        /* Insertion by score, best first; equal scores keep square order. */
        while (j > 0 && score[j - 1] < s) {
            sq[j] = sq[j - 1];
            score[j] = score[j - 1];
            j--;
        }
        sq[j] = t;
        score[j] = s;
    }
    uint64_t each = max_nodes / CANMATE_PLAN_TARGETS;
    for (int i = 0; i < n && i < CANMATE_PLAN_TARGETS; i++) {
        if (canmate_guided_search_at(b, winner, sq[i], each, tt, tt_mask, gen, line, line_len) ==
            CANMATE_YES)
            return CANMATE_YES;
    }
    return CANMATE_UNKNOWN;
}
