/*
 * cmd_user.c — `arbiter user VERB ...`: the arbiter accounts of a database
 * (db/users.h).  add, passwd, remove, list, revoke (end a user's sessions)
 * and admin.  A password comes from ARBITER_PASSWORD or the first line of
 * standard input (never from the command line, which other users can see).
 *
 * A running server sees a change within its credential cache's lifetime
 * (ten seconds, server/auth.c): a new password, a removal or a revocation
 * ends the user's sessions there too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth.h"
#include "commands.h"
#include "sessions.h"
#include "store.h"
#include "users.h"

static const char USAGE[] = "usage: arbiter user add NAME [--admin] [--db FILE]\n"
                            "       arbiter user passwd NAME [--db FILE]\n"
                            "       arbiter user remove NAME [--db FILE]\n"
                            "       arbiter user revoke NAME [--db FILE]\n"
                            "       arbiter user admin NAME [--off] [--db FILE]\n"
                            "       arbiter user list [--db FILE]\n";

/* The command line, parsed. */
typedef struct UserArgs {
    const char *db, *verb, *name;
    int admin, off;
} UserArgs;

/* A new password from the environment or stdin, hashed into HASH: 0, or
 * the exit status after a message. */
static int new_password(char *hash, size_t n)
{
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
    if (strlen(pw) < AUTH_PASSWORD_MIN) {
        fprintf(stderr, "arbiter user: the password must have at least %d characters\n",
                AUTH_PASSWORD_MIN);
        return 2;
    }
    if (auth_password_hash(pw, hash, n)) {
        fprintf(stderr, "arbiter user: cannot hash the password\n");
        return 1;
    }
    return 0;
}

static int parse(int argc, char **argv, UserArgs *a)
{
    *a = (UserArgs){.db = "./arbiter.db"};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            a->db = argv[++i];
        else if (strcmp(argv[i], "--admin") == 0)
            a->admin = 1;
        else if (strcmp(argv[i], "--off") == 0)
            a->off = 1;
        else if (!a->verb)
            a->verb = argv[i];
        else if (!a->name)
            a->name = argv[i];
        else {
            fprintf(stderr, "arbiter user: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    static const char *const verbs[] = {"add", "passwd", "remove", "revoke", "admin", "list"};
    int known = -1;
    for (int i = 0; a->verb && i < 6; i++)
        if (strcmp(a->verb, verbs[i]) == 0)
            known = i;
    if (known < 0 || (known < 5) != (a->name != NULL) || (a->admin && known != 0) ||
        (a->off && known != 4)) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (a->name && (!*a->name || strlen(a->name) > 64)) {
        fprintf(stderr, "arbiter user: the name must have 1 to 64 characters\n");
        return 2;
    }
    return 0;
}

static void list_print(Store *s)
{
    json_t *list = users_list(s);
    size_t i;
    json_t *u;
    printf("%-24s %-6s %8s  %s\n", "user", "admin", "sessions", "created");
    json_array_foreach(list, i, u)
    {
        time_t t = (time_t)(json_integer_value(json_object_get(u, "created_ms")) / 1000);
        char when[32] = "";
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
        printf("%-24s %-6s %8lld  %s\n", json_string_value(json_object_get(u, "username")),
               json_integer_value(json_object_get(u, "admin")) ? "yes" : "no",
               (long long)json_integer_value(json_object_get(u, "sessions")), when);
    }
    json_decref(list);
}

/* Runs the verb of A on the open store S inside a transaction. */
static int change(Store *s, const UserArgs *a, const char *hash, int *count, char *err, size_t n)
{
    switch (a->verb[0] == 'r' ? a->verb[2] : a->verb[0]) {
    case 'a':
        if (strcmp(a->verb, "add") == 0) {
            int rc = sessions_user_add(s, a->name, hash, err, n);
            return rc == 0 && a->admin ? users_admin_set(s, a->name, 1, err, n) : rc;
        }
        return users_admin_set(s, a->name, !a->off, err, n);
    case 'p': return users_passwd(s, a->name, hash, 0, err, n);
    case 'm': return users_remove(s, a->name, err, n);
    case 'v': return users_revoke(s, a->name, count, err, n);
    }
    return -1;
}

static int run(int argc, char **argv)
{
    UserArgs a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc;
    char hash[256] = "";
    if (!strcmp(a.verb, "add") || !strcmp(a.verb, "passwd"))
        if ((rc = new_password(hash, sizeof hash)))
            return rc;
    Store *s;
    char err[256] = "";
    if (store_open(a.db, 0, &s, err, sizeof err)) {
        fprintf(stderr, "arbiter user: %s\n", err);
        return 3;
    }
    if (!strcmp(a.verb, "list")) {
        list_print(s);
        store_close(s);
        return 0;
    }
    int count = 0;
    rc = store_begin(s);
    if (rc == 0)
        rc = change(s, &a, hash, &count, err, sizeof err);
    if (rc == 0)
        rc = store_commit(s);
    else
        store_rollback(s);
    store_close(s);
    if (rc) {
        fprintf(stderr, "arbiter user: %s\n",
                rc > 0 && err[0] ? err : "the database refused the change");
        return 1;
    }
    if (!strcmp(a.verb, "revoke"))
        printf("arbiter user '%s': %d sessions ended\n", a.name, count);
    else if (!strcmp(a.verb, "add"))
        printf("arbiter user '%s' added to %s\n", a.name, a.db);
    else
        printf("arbiter user '%s': %s done\n", a.name, a.verb);
    return 0;
}

const Command cmd_user = {
    .name = "user",
    .summary = "add, list, change and remove arbiter logins",
    .help = "usage: arbiter user add NAME [--admin] [--db FILE]\n"
            "       arbiter user passwd NAME [--db FILE]\n"
            "       arbiter user remove NAME [--db FILE]\n"
            "       arbiter user revoke NAME [--db FILE]\n"
            "       arbiter user admin NAME [--off] [--db FILE]\n"
            "       arbiter user list [--db FILE]\n\n"
            "The arbiter logins of the database (default ./arbiter.db, created if missing).\n"
            "  add     a new login; the first of a database, or one given --admin, is an\n"
            "          administrator (may change every tournament); any other arbiter may\n"
            "          change the tournaments he created or was assigned to, and read all\n"
            "  passwd  a new password; every session of the user ends\n"
            "  remove  the login, its sessions and its assignments (not the last admin)\n"
            "  revoke  ends every session of the user (signed out everywhere)\n"
            "  admin   makes the user an administrator (--off: no longer)\n"
            "  list    the logins, whether administrator, open sessions, created\n"
            "A password (at least 12 characters) is read from the environment variable\n"
            "ARBITER_PASSWORD or from the first line of standard input.  A running server\n"
            "sees a change within ten seconds.\n"
            "Exit status: 0 done, 1 refused (e.g. the name exists, no such user), 2 bad\n"
            "usage, 3 the database cannot be opened.\n",
    .run = run,
};
