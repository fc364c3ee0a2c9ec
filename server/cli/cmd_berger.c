/*
 * cmd_berger.c — `arbiter berger PLAYERS [--double [--swap]]`: prints the
 * round robin pairings of the FIDE Berger tables (C.05 Annex 1), one round
 * a line, boards in table order, White first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "commands.h"

static int run(int argc, char **argv)
{
    int flags = 0, players = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--double") == 0) {
            flags |= BERGER_DOUBLE;
        } else if (strcmp(argv[i], "--swap") == 0) {
            flags |= BERGER_SWAP_LAST_TWO;
        } else if (!players) {
            char *end;
            long v = strtol(argv[i], &end, 10);
            if (*end || v < BERGER_MIN_PLAYERS || v > BERGER_MAX_PLAYERS) {
                fprintf(stderr, "arbiter berger: players '%s' is not a number from %d to %d\n",
                        argv[i], BERGER_MIN_PLAYERS, BERGER_MAX_PLAYERS);
                return 2;
            }
            players = (int)v;
        } else {
            fprintf(stderr, "arbiter berger: unexpected '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!players) {
        fprintf(stderr, "usage: arbiter berger PLAYERS [--double [--swap]]\n");
        return 2;
    }
    if ((flags & BERGER_SWAP_LAST_TWO) && !(flags & BERGER_DOUBLE)) {
        fprintf(stderr, "arbiter berger: --swap applies to --double only\n");
        return 2;
    }
    int rounds = berger_rounds(players, flags);
    for (int r = 1; r <= rounds; r++) {
        BergerBoard b[BERGER_MAX_BOARDS];
        int n = berger_round(players, r, flags, b);
        printf("Round %d:", r);
        for (int k = 0; k < n; k++) {
            if (!b[k].white || !b[k].black)
                printf(" %d-bye", b[k].white ? b[k].white : b[k].black);
            else
                printf(" %d-%d", b[k].white, b[k].black);
        }
        printf("\n");
    }
    return 0;
}

const Command cmd_berger = {
    .name = "berger",
    .summary = "round robin pairings from the FIDE Berger tables",
    .help = "usage: arbiter berger PLAYERS [--double [--swap]]\n\n"
            "Prints the pairings of a round robin for 3 to 24 players by the Berger\n"
            "tables of the FIDE Handbook (C.05 Annex 1): one line per round, boards in\n"
            "table order, White first; with an odd number of players the highest\n"
            "number of the table is the free round (shown as N-bye).\n"
            "  --double  double round robin: the second cycle reverses the colours.\n"
            "  --swap    with --double: play the first cycle's last two rounds in\n"
            "            swapped order (TRF-2026 FIDE_DOUBLEROUNDROBIN), so nobody has\n"
            "            the same colour three times running.\n",
    .run = run,
};
