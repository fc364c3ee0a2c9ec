/*
 * cmd_perft.c — `arbiter perft DEPTH [FEN]`: counts the leaves of the legal
 * move tree, the standard check of a move generator against published
 * counts.  The count is always the last line of output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "commands.h"

static int run(int argc, char **argv)
{
    int divide = 0;
    const char *depth_arg = NULL;
    char fen[256] = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--divide") == 0) {
            divide = 1;
        } else if (!depth_arg) {
            depth_arg = argv[i];
        } else {
            /* The FEN may come as one argument or as its six fields. */
            if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) {
                fprintf(stderr, "arbiter perft: the FEN is too long\n");
                return 2;
            }
            if (fen[0])
                strcat(fen, " ");
            strcat(fen, argv[i]);
        }
    }
    if (!depth_arg) {
        fprintf(stderr, "usage: arbiter perft [--divide] DEPTH [FEN]\n");
        return 2;
    }
    char *end;
    long depth = strtol(depth_arg, &end, 10);
    if (*end || end == depth_arg || depth < 0 || depth > 12) {
        fprintf(stderr, "arbiter perft: depth '%s' is not a whole number from 0 to 12\n",
                depth_arg);
        return 2;
    }
    Board b;
    char err[160];
    if (board_from_fen(&b, fen[0] ? fen : BOARD_START_FEN, err, sizeof err)) {
        fprintf(stderr, "arbiter perft: bad FEN: %s\n", err);
        return 2;
    }
    uint64_t total = 0;
    if (divide && depth > 0) {
        MoveList list;
        board_legal_moves(&b, &list);
        for (int i = 0; i < list.count; i++) {
            Board child = b;
            char uci[6];
            board_make(&child, list.moves[i]);
            uint64_t n = board_perft(&child, (int)depth - 1);
            move_to_uci(list.moves[i], uci);
            printf("%s: %llu\n", uci, (unsigned long long)n);
            total += n;
        }
        printf("\n");
    } else {
        total = board_perft(&b, (int)depth);
    }
    printf("%llu\n", (unsigned long long)total);
    return 0;
}

const Command cmd_perft = {
    .name = "perft",
    .summary = "count the leaves of the legal move tree (move generator check)",
    .help = "usage: arbiter perft [--divide] DEPTH [FEN]\n\n"
            "Counts the positions reached after DEPTH plies of legal moves from FEN\n"
            "(default: the start position) and prints the count as the last line.\n"
            "With --divide, first prints each legal move (UCI) with its own count.\n"
            "DEPTH is 0 to 12. Exit status: 0 ok, 2 bad depth or FEN.\n",
    .run = run,
};
