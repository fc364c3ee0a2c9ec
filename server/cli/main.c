/*
 * main.c — entry point of `arbiter`: dispatches to a subcommand, in the
 * manner of git or sqlite3, and answers `--help` and `help NAME`.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const Command *const commands[] = {
    &cmd_perft,   &cmd_serve,     &cmd_user,    &cmd_replay, &cmd_game, &cmd_pgn,
    &cmd_canmate, &cmd_standings, &cmd_trf,     &cmd_berger, &cmd_pair, &cmd_check,
    &cmd_backup,  &cmd_restore,   &cmd_ratings, &cmd_norms,  &cmd_fide,
};

enum { N_COMMANDS = sizeof(commands) / sizeof(commands[0]) };

static const Command *find(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: arbiter COMMAND [ARGS...]\n\n"
                 "Arbiter is a FIDE arbiter tournament server and its tools.\n\n"
                 "Commands:\n");
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out, "\nRun 'arbiter help COMMAND' for the details of one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0) {
        printf("arbiter 0.1.0\n");
        return 0;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        const Command *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "arbiter: no such command '%s'\n", argv[2]);
            return 2;
        }
        fputs(c->help, stdout);
        return 0;
    }
    const Command *c = find(name);
    if (!c) {
        fprintf(stderr, "arbiter: no such command '%s' (see 'arbiter --help')\n", name);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(c->help, stdout);
            return 0;
        }
    return c->run(argc - 1, argv + 1);
}
