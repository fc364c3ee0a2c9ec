/*
 * cmd_backup.c — `arbiter backup FILE` and `arbiter restore FILE`: a
 * consistent copy of the database while the server runs, and putting a copy
 * back while it does not.  Thin fronts over db/backup.h.
 */
#include <stdio.h>
#include <string.h>

#include "backup.h"
#include "commands.h"

/* FILE and --db from ARGV; 0 or the usage exit status. */
static int args(const char *cmd, int argc, char **argv, const char **file, const char **db)
{
    *file = NULL;
    *db = "./arbiter.db";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0) {
            if (++i >= argc) {
                fprintf(stderr, "arbiter %s: '--db' needs a value\n", cmd);
                return 2;
            }
            *db = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arbiter %s: unknown option '%s' (see 'arbiter help %s')\n", cmd,
                    argv[i], cmd);
            return 2;
        } else if (*file) {
            fprintf(stderr, "arbiter %s: one FILE only (see 'arbiter help %s')\n", cmd, cmd);
            return 2;
        } else {
            *file = argv[i];
        }
    }
    if (!*file) {
        fprintf(stderr, "arbiter %s: FILE is missing (see 'arbiter help %s')\n", cmd, cmd);
        return 2;
    }
    return 0;
}

static int run_backup(int argc, char **argv)
{
    const char *file, *db;
    int rc = args("backup", argc, argv, &file, &db);
    if (rc)
        return rc;
    char err[600];
    rc = backup_copy(db, file, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter backup: %s\n", err);
        return rc == BACKUP_E_MISSING ? 3 : 1;
    }
    fprintf(stderr, "arbiter backup: %s copied to %s (integrity check ok)\n", db, file);
    return 0;
}

static int run_restore(int argc, char **argv)
{
    const char *file, *db;
    int rc = args("restore", argc, argv, &file, &db);
    if (rc)
        return rc;
    char err[600];
    rc = backup_restore(file, db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter restore: %s\n", err);
        return rc == BACKUP_E_INVALID || rc == BACKUP_E_MISSING ? 3 : rc == BACKUP_E_BUSY ? 4 : 1;
    }
    fprintf(stderr, "arbiter restore: %s restored to %s; start the server on it\n", file, db);
    return 0;
}

const Command cmd_backup = {
    .name = "backup",
    .summary = "copy the database consistently, also while the server runs",
    .help = "usage: arbiter backup FILE [--db ./arbiter.db]\n\n"
            "Writes a consistent copy of the database to FILE while the server may keep\n"
            "running: every request the server acknowledged before the copy began is in it.\n"
            "The copy is taken from one snapshot in small steps (the server's writes are not\n"
            "held up), checked with PRAGMA integrity_check, and renamed into place, so FILE\n"
            "never holds half a copy.  FILE is a single SQLite file.\n"
            "Exit status: 0 copied, 1 the copy failed, 2 bad usage, 3 no database.\n",
    .run = run_backup,
};

const Command cmd_restore = {
    .name = "restore",
    .summary = "put a backup back in place of the database (server stopped)",
    .help = "usage: arbiter restore FILE [--db ./arbiter.db]\n\n"
            "Checks FILE (an Arbiter database that passes PRAGMA integrity_check, with a\n"
            "schema this program knows) and puts it in place of the database.  Refuses\n"
            "while a server holds the database.  The database it replaces is kept as\n"
            "DB.before-restore.  Games whose clocks ran in the copy are paused by the next\n"
            "start of the server, as of the moment the copy was taken.\n"
            "Exit status: 0 restored, 1 failed, 2 bad usage, 3 FILE is missing or not a\n"
            "sound database, 4 a running server holds the database.\n",
    .run = run_restore,
};
