/*
 * commands.h — the subcommands of the `arbiter` binary.
 *
 * Each subcommand is a thin front over the same modules the daemon uses.
 * A subcommand gets argv with argv[0] = its own name and returns the process
 * exit status: 0 success, 1 a documented "no" (e.g. no pairing), 2 bad input,
 * 3 invalid file, other values as its help says.
 */
#ifndef ARBITER_SERVER_COMMANDS_H
#define ARBITER_SERVER_COMMANDS_H

typedef struct Command {
    const char *name;
    const char *summary; /* one line for `arbiter --help` */
    const char *help;    /* full text for `arbiter help NAME` */
    int (*run)(int argc, char **argv);
} Command;

extern const Command cmd_perft;
extern const Command cmd_serve;
extern const Command cmd_user;
extern const Command cmd_replay;
extern const Command cmd_game;
extern const Command cmd_pgn;
extern const Command cmd_canmate;
extern const Command cmd_standings;
extern const Command cmd_trf;
extern const Command cmd_berger;
extern const Command cmd_pair;
extern const Command cmd_check;
extern const Command cmd_backup;
extern const Command cmd_restore;
extern const Command cmd_ratings;
extern const Command cmd_norms;
extern const Command cmd_fide;

#endif
