/*
 * berger.h — round robin pairings by the Berger tables (FIDE Handbook C.05,
 * Annex 1) for 3 to 24 players, single or double round robin.
 *
 * With an odd number n of players a dummy n + 1 completes the table; whoever
 * meets it is free that round (the board is returned with 0 on the dummy's
 * side).  Boards come in the order of the published tables.
 *
 * Double round robin: the second cycle repeats the first with colours
 * reversed.  BERGER_SWAP_LAST_TWO (TRF-2026 192 code FIDE_DOUBLEROUNDROBIN,
 * the Handbook's recommendation) plays the first cycle's last two rounds in
 * swapped order, so that nobody gets the same colour three times running
 * across the two cycles; the second cycle keeps the table order.
 *
 * Pure and cheap: each call rebuilds the rounds up to the one asked, O(n^2).
 */
#ifndef ARBITER_RULES_BERGER_H
#define ARBITER_RULES_BERGER_H

enum {
    BERGER_MIN_PLAYERS = 3,
    BERGER_MAX_PLAYERS = 24,
    BERGER_MAX_BOARDS = BERGER_MAX_PLAYERS / 2,
    BERGER_E_RANGE = 1, /* players or round out of range */
};

enum {
    BERGER_DOUBLE = 1 << 0,        /* double round robin: 2(N-1) rounds */
    BERGER_SWAP_LAST_TWO = 1 << 1, /* with BERGER_DOUBLE: FIDE_DOUBLEROUNDROBIN order */
};

/* One board: start numbers of White and Black; 0 = the dummy (a free round). */
typedef struct BergerBoard {
    int white, black;
} BergerBoard;

/* Number of rounds for n players with the given flags, or 0 if n is out of range. */
int berger_rounds(int players, int flags);

/*
 * Fills boards[0 .. (n+1)/2 - 1] with the pairings of round (1-based) for
 * `players` players.  Returns the number of boards, or -BERGER_E_RANGE when
 * players is not in 3..24 or round not in 1..berger_rounds().
 */
int berger_round(int players, int round, int flags, BergerBoard boards[BERGER_MAX_BOARDS]);

#endif
