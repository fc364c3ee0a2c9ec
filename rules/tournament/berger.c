/*
 * berger.c — the Berger tables, built round by round with the TEC recipe:
 * round 1 has player b against N + 1 - b on board b; each later round lists
 * players 1..N-1 in the previous round's board order (White before Black),
 * the last of that list meets N on board 1 (N has White in even rounds), and
 * the rest are paired from the end of the list, the earlier of each pair
 * with White.  The tests compare it with the published tables and with the
 * closed form (i + j = r + 1 mod N - 1).
 */
#include "berger.h"

#include <stdbool.h>

int berger_rounds(int players, int flags)
{
    if (players < BERGER_MIN_PLAYERS || players > BERGER_MAX_PLAYERS)
        return 0;
    int n = players + (players & 1);
    return (flags & BERGER_DOUBLE) ? 2 * (n - 1) : n - 1;
}

/* Round r (1..N-1) of the single table for even N, boards in table order. */
static void single_round(int n, int r, BergerBoard *b)
{
    for (int k = 0; k < n / 2; k++)
        b[k] = (BergerBoard){k + 1, n - k};
    for (int round = 2; round <= r; round++) {
        int list[BERGER_MAX_PLAYERS], m = 0;
        for (int k = 0; k < n / 2; k++) {
            if (b[k].white != n)
                list[m++] = b[k].white;
            if (b[k].black != n)
                list[m++] = b[k].black;
        }
        int last = list[--m];
        b[0] = (round % 2 == 0) ? (BergerBoard){n, last} : (BergerBoard){last, n};
        for (int k = 1; k < n / 2; k++) {
            b[k] = (BergerBoard){list[m - 2], list[m - 1]};
            m -= 2;
        }
    }
}

int berger_round(int players, int round, int flags, BergerBoard boards[BERGER_MAX_BOARDS])
{
    int total = berger_rounds(players, flags);
    if (!total || round < 1 || round > total)
        return -BERGER_E_RANGE;
    int n = players + (players & 1);
    int cycle = n - 1;
    bool second = round > cycle;
    int r = second ? round - cycle : round;
    if ((flags & BERGER_DOUBLE) && (flags & BERGER_SWAP_LAST_TWO) && !second && cycle >= 2) {
        if (r == cycle)
            r = cycle - 1;
        else if (r == cycle - 1)
            r = cycle;
    }
    single_round(n, r, boards);
    for (int k = 0; k < n / 2; k++) {
        if (second) {
            int w = boards[k].white;
            boards[k].white = boards[k].black;
            boards[k].black = w;
        }
        if (boards[k].white > players)
            boards[k].white = 0;
        if (boards[k].black > players)
            boards[k].black = 0;
    }
    return n / 2;
}
