/*
 * cmd_canmate.c — `arbiter canmate FEN white|black [--line]`: can that side
 * still checkmate by any series of legal moves (Art. 5.2.2, 6.9, 7.5.5)?
 * Prints "yes", "no" or "unknown"; with --line, a "yes" is followed by the
 * mating line in UCI on a second line (empty when the position is mate).
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "canmate.h"
#include "commands.h"

static int run(int argc, char **argv)
{
    int want_line = 0;
    const char *color_arg = NULL;
    char fen[256] = "";
    const char *args[16];
    int nargs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--line") == 0)
            want_line = 1;
        else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "arbiter canmate: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (nargs < 16)
            args[nargs++] = argv[i];
        else {
            fprintf(stderr, "arbiter canmate: too many arguments\n");
            return 2;
        }
    }
    if (nargs < 2) {
        fprintf(stderr, "usage: arbiter canmate FEN white|black [--line]\n");
        return 2;
    }
    /* The colour is the last argument; the FEN may come as one argument or
     * as its six fields. */
    color_arg = args[nargs - 1];
    for (int i = 0; i < nargs - 1; i++) {
        if (strlen(fen) + strlen(args[i]) + 2 > sizeof fen) {
            fprintf(stderr, "arbiter canmate: the FEN is too long\n");
            return 2;
        }
        if (fen[0])
            strcat(fen, " ");
        strcat(fen, args[i]);
    }
    int winner;
    if (strcmp(color_arg, "white") == 0 || strcmp(color_arg, "w") == 0)
        winner = WHITE;
    else if (strcmp(color_arg, "black") == 0 || strcmp(color_arg, "b") == 0)
        winner = BLACK;
    else {
        fprintf(stderr, "arbiter canmate: colour '%s' is not 'white' or 'black'\n", color_arg);
        return 2;
    }
    Board b;
    char err[160];
    if (board_from_fen(&b, fen, err, sizeof err)) {
        fprintf(stderr, "arbiter canmate: bad FEN: %s\n", err);
        return 2;
    }
    Move line[CANMATE_LINE_MAX];
    int len = 0;
    CanMate r = canmate_quick(&b, winner);
    if (r != CANMATE_NO && (r != CANMATE_YES || want_line))
        r = canmate_search(&b, winner, NULL, NULL, line, &len);
    printf("%s\n", canmate_name(r));
    if (want_line && r == CANMATE_YES) {
        for (int i = 0; i < len; i++) {
            char uci[6];
            move_to_uci(line[i], uci);
            printf("%s%s", i ? " " : "", uci);
        }
        printf("\n");
    }
    return 0;
}

const Command cmd_canmate = {
    .name = "canmate",
    .summary = "can a side still checkmate by any series of legal moves (dead position)",
    .help = "usage: arbiter canmate FEN white|black [--line]\n\n"
            "Answers whether the given side could still checkmate its opponent by\n"
            "some series of legal moves from FEN, both sides cooperating (FIDE Laws\n"
            "5.1.2, 5.2.2, 6.9, 7.5.5).  Prints 'yes', 'no' or 'unknown' (the\n"
            "analysis ran out of its budget: treat as 'yes' before declaring a\n"
            "draw).  With --line, a 'yes' is followed by a mating line in UCI\n"
            "moves on a second line.  The side to move in FEN may be either.\n"
            "Exit status: 0 answered, 2 bad FEN or colour.\n",
    .run = run,
};
