/*
 * cmd_fide.c — `arbiter fide import|search|show`: the local register of
 * FIDE's rating list (db/fide.h) from the command line: load the files
 * FIDE publishes, find a player by name or FIDE ID, show one player.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "fide.h"
#include "store.h"

static const char USAGE[] =
    "usage: arbiter fide import FILE... [--type standard|rapid|blitz] [--date YYYY-MM-DD]\n"
    "                           [--db FILE]\n"
    "       arbiter fide search TEXT... [--limit N] [--db FILE]\n"
    "       arbiter fide show FIDEID [--db FILE]\n";

static void progress(void *ctx, long players)
{
    fprintf(stderr, "\rarbiter fide: %ld players read", players);
}

static int import(Store *s, const char *const *files, int nfiles, int type, const char *date)
{
    FideImportOptions opt = {.type = type, .list_date = date, .progress = progress};
    FideImportResult res;
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = fide_import(s, files, nfiles, &opt, &res, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (res.rows >= 100000)
        fputc('\n', stderr);
    if (rc) {
        fprintf(stderr, "arbiter fide: %s\n", err);
        return rc == FIDE_E_FILE ? 3 : 1;
    }
    printf("%ld players in the register (list of %s), read in %.1f s\n", res.players,
           res.list_date[0] ? res.list_date : "unknown date",
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}

static const char *str(json_t *p, const char *k)
{
    const char *v = json_string_value(json_object_get(p, k));
    return v ? v : "";
}

/* A rating as "2750" or "-" when the player has none of that type. */
static const char *rating(json_t *p, const char *k, char *buf, size_t n)
{
    json_t *v = json_object_get(p, k);
    if (!json_is_integer(v))
        return "-";
    snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    return buf;
}

static int search(Store *s, const char *text, int limit)
{
    json_t *rows = fide_search(s, text, limit);
    if (!rows) {
        fprintf(stderr, "arbiter fide: the search failed\n");
        return 1;
    }
    size_t k;
    json_t *p;
    json_array_foreach(rows, k, p)
    {
        char a[8], b[8], c[8];
        printf("%-10lld %-40s %-3s %-4s %5s %5s %5s %4lld%s\n",
               (long long)json_integer_value(json_object_get(p, "fide_id")), str(p, "name"),
               str(p, "federation"), str(p, "title"), rating(p, "std_rating", a, sizeof a),
               rating(p, "rapid_rating", b, sizeof b), rating(p, "blitz_rating", c, sizeof c),
               (long long)json_integer_value(json_object_get(p, "birth_year")),
               json_is_true(json_object_get(p, "inactive")) ? " inactive" : "");
    }
    if (json_array_size(rows) == 0)
        fprintf(stderr, "arbiter fide: no player matches '%s'\n", text);
    json_decref(rows);
    return 0;
}

static int show(Store *s, const char *id)
{
    char *end;
    long long v = strtoll(id, &end, 10);
    if (*end || v <= 0) {
        fprintf(stderr, "arbiter fide: '%s' is not a FIDE ID\n", id);
        return 2;
    }
    json_t *p = fide_player(s, v);
    if (!p) {
        fprintf(stderr, "arbiter fide: %lld is not in the register\n", v);
        return 1;
    }
    json_t *list = fide_list_info(s);
    static const char *const TYPES[3][2] = {
        {"standard", "std"}, {"rapid", "rapid"}, {"blitz", "blitz"}};
    printf("FIDE ID     %lld\nname        %s\nfederation  %s\nsex         %s\n", v, str(p, "name"),
           str(p, "federation"), str(p, "sex"));
    printf("titles      %s%s%s\nother       %s\nFOA         %s\n", str(p, "title"),
           *str(p, "title") && *str(p, "w_title") ? " " : "", str(p, "w_title"), str(p, "o_title"),
           str(p, "foa_title"));
    for (int t = 0; t < 3; t++) {
        char key[32], buf[8];
        snprintf(key, sizeof key, "%s_rating", TYPES[t][1]);
        printf("%-11s %s", TYPES[t][0], rating(p, key, buf, sizeof buf));
        if (json_is_integer(json_object_get(p, key))) {
            snprintf(key, sizeof key, "%s_games", TYPES[t][1]);
            printf(", %lld games", (long long)json_integer_value(json_object_get(p, key)));
            snprintf(key, sizeof key, "%s_k", TYPES[t][1]);
            if (json_is_integer(json_object_get(p, key)))
                printf(", K %lld", (long long)json_integer_value(json_object_get(p, key)));
        }
        putchar('\n');
    }
    printf("born        %lld\nactive      %s\nlist        %s\n",
           (long long)json_integer_value(json_object_get(p, "birth_year")),
           json_is_true(json_object_get(p, "inactive")) ? "no" : "yes",
           *str(list, "list_date") ? str(list, "list_date") : "unknown date");
    json_decref(p);
    json_decref(list);
    return 0;
}

static int run(int argc, char **argv)
{
    const char *db = "./arbiter.db", *verb = NULL, *date = NULL;
    const char **args = calloc((size_t)argc, sizeof *args);
    int nargs = 0, limit = 20, type = -1, rc = 2;
    char text[512] = "";
    if (!args)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
            db = argv[++i];
        } else if (strcmp(argv[i], "--limit") == 0 && i + 1 < argc) {
            limit = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--date") == 0 && i + 1 < argc) {
            date = argv[++i];
        } else if (strcmp(argv[i], "--type") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            type = strcmp(t, "standard") == 0 ? 0
                   : strcmp(t, "rapid") == 0  ? 1
                   : strcmp(t, "blitz") == 0  ? 2
                                              : -2;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "arbiter fide: unknown option '%s'\n%s", argv[i], USAGE);
            goto done;
        } else if (!verb) {
            verb = argv[i];
        } else {
            args[nargs++] = argv[i];
        }
    }
    int ok = verb && nargs > 0 && type != -2 && limit >= 1 && limit <= 100;
    if (ok && strcmp(verb, "show") == 0)
        ok = nargs == 1;
    else if (ok && strcmp(verb, "search") != 0 && strcmp(verb, "import") != 0)
        ok = 0;
    if (!ok) {
        fputs(USAGE, stderr);
        goto done;
    }
    Store *s;
    char err[256];
    if (store_open(db, strcmp(verb, "import") != 0, &s, err, sizeof err)) {
        fprintf(stderr, "arbiter fide: %s\n", err);
        rc = 3;
        goto done;
    }
    if (strcmp(verb, "import") == 0) {
        rc = import(s, args, nargs, type, date);
    } else if (strcmp(verb, "show") == 0) {
        rc = show(s, args[0]);
    } else {
        for (int i = 0; i < nargs; i++) {
            size_t o = strlen(text);
            snprintf(text + o, sizeof text - o, "%s%s", i ? " " : "", args[i]);
        }
        rc = search(s, text, limit);
    }
    store_close(s);
done:
    free(args);
    return rc;
}

const Command cmd_fide = {
    .name = "fide",
    .summary = "the local register of FIDE's rating list: import, search, show",
    .help = "usage: arbiter fide import FILE... [--type standard|rapid|blitz] [--date YYYY-MM-DD]\n"
            "                           [--db FILE]\n"
            "       arbiter fide search TEXT... [--limit N] [--db FILE]\n"
            "       arbiter fide show FIDEID [--db FILE]\n\n"
            "import  replaces the register in the database (default ./arbiter.db) with the\n"
            "        players of FIDE's rating list files: the combined XML list\n"
            "        (players_list_xml_foa.xml) or a single rating type's XML list, the\n"
            "        fixed-width TXT lists (combined players_list_foa.txt, or standard_...,\n"
            "        rapid_..., blitz_...frl.txt), each plain, gzipped or zipped as FIDE\n"
            "        serves them.  Several files are merged by FIDE ID, e.g. the standard,\n"
            "        rapid and blitz TXT lists of one month.  A single-type list's type comes\n"
            "        from its file name as FIDE names it, or --type.  The list's date comes\n"
            "        from a TXT list's month column, or --date.  A bad file is reported as\n"
            "        FILE:LINE and the register stays as it was.  The last step holds the\n"
            "        database's write lock for up to a minute on a full list: import before\n"
            "        the event or between rounds, not while games are played.\n"
            "search  the players whose name begins with the words given (each word begins a\n"
            "        word of the name; any order; case and accents ignored; Cyrillic finds\n"
            "        the Latin FIDE spelling: 'Топалов' finds 'Topalov, Veselin'), in\n"
            "        alphabetical order, at most --limit (1..100, default 20); digits only\n"
            "        look up a FIDE ID.  One line a player: FIDE ID, name, federation, title,\n"
            "        standard, rapid and blitz rating ('-' none), birth year.\n"
            "show    the card of one player: titles (women's, other such as arbiter and\n"
            "        trainer titles, FOA), each rating with its games and K, birth year,\n"
            "        activity and the list's date.\n"
            "Exit status: 0 done, 1 not in the register or the store failed, 2 bad usage,\n"
            "3 a bad list file or a database that cannot be opened.\n",
    .run = run,
};
