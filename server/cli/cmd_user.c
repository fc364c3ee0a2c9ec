/*
 * cmd_user.c — `arbiter user add NAME [--db FILE]`: creates an arbiter
 * login; the password comes from ARBITER_PASSWORD or the first line of
 * standard input (never from the command line, which other users can see).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sessions.h"
#include "auth.h"
#include "commands.h"
#include "store.h"

static int run(int argc, char **argv)
{
    const char *db = "./arbiter.db", *name = NULL, *verb = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            db = argv[++i];
        else if (!verb)
            verb = argv[i];
        else if (!name)
            name = argv[i];
        else {
            fprintf(stderr, "arbiter user: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!verb || strcmp(verb, "add") != 0 || !name) {
        fprintf(stderr, "usage: arbiter user add NAME [--db FILE]\n");
        return 2;
    }
    if (!*name || strlen(name) > 64) {
        fprintf(stderr, "arbiter user: the name must have 1 to 64 characters\n");
        return 2;
    }
    char pw[1100] = "";
    const char *env = getenv("ARBITER_PASSWORD");
    if (env) {
        snprintf(pw, sizeof pw, "%s", env);
    } else {
        if (!fgets(pw, sizeof pw, stdin)) {
            fprintf(stderr, "arbiter user: give the password on standard input or in "
                            "ARBITER_PASSWORD\n");
            return 2;
        }
        pw[strcspn(pw, "\r\n")] = 0;
    }
    if (strlen(pw) < 8) {
        fprintf(stderr, "arbiter user: the password must have at least 8 characters\n");
        return 2;
    }
    char hash[256];
    if (auth_password_hash(pw, hash, sizeof hash)) {
        fprintf(stderr, "arbiter user: cannot hash the password\n");
        return 1;
    }
    Store *s;
    char err[256];
    if (store_open(db, 0, &s, err, sizeof err)) {
        fprintf(stderr, "arbiter user: %s\n", err);
        return 3;
    }
    int rc = store_begin(s);
    if (rc == 0)
        rc = sessions_user_add(s, name, hash, err, sizeof err);
    if (rc == 0)
        rc = store_commit(s);
    else
        store_rollback(s);
    store_close(s);
    if (rc) {
        fprintf(stderr, "arbiter user: %s\n", rc > 0 ? err : "the database refused the change");
        return 1;
    }
    printf("arbiter user '%s' added to %s\n", name, db);
    return 0;
}

const Command cmd_user = {
    .name = "user",
    .summary = "add an arbiter login to the database",
    .help = "usage: arbiter user add NAME [--db FILE]\n\n"
            "Adds an arbiter login NAME to the database (default ./arbiter.db, created if\n"
            "missing).  The password (at least 8 characters) is read from the environment\n"
            "variable ARBITER_PASSWORD or from the first line of standard input.\n"
            "Exit status: 0 added, 1 refused (e.g. the name exists), 2 bad usage,\n"
            "3 the database cannot be opened.\n",
    .run = run,
};
