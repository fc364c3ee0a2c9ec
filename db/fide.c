/*
 * fide.c — the FIDE register in the store: import, search, lookup.  See
 * fide.h.
 *
 * An import runs in steps, none of which holds the store's write lock for
 * long, so a daemon serving a round beside it keeps recording moves.
 * First the files are read into a TEMP table (the temporary database: no
 * lock on the store, no write-ahead log), in transactions of BATCH rows
 * through one prepared statement, then merged and sorted by name into a
 * second TEMP table whose rowid is the player's place (the rowid of the name
 * index); a bad file or a FIDE ID given twice stops here and nothing else
 * has changed.  Then fide_players_new and fide_names_new are created from
 * the schema's own definitions and filled BATCH places per write
 * transaction; one short transaction renames the live tables to *_old and
 * the new ones to their names, so readers see the old list or the new one,
 * never a mixture; last the old tables are emptied BATCH rows per
 * transaction and dropped.  Tables *_new and *_old left by an import that
 * was stopped are removed by the next one.
 */
#include "fide.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fide_text.h"

enum { BATCH = 20000, WRITE_BATCH = 10000, MAX_WORDS = 8, WORD_MAX = 64 };

#define ERR(code, ...) (snprintf(err, n, __VA_ARGS__), (code))

static const char LOAD_DDL[] =
    "DROP TABLE IF EXISTS temp.fide_load;"
    "CREATE TEMP TABLE fide_load (fide_id INTEGER, name TEXT, federation TEXT, sex TEXT, "
    "title TEXT, w_title TEXT, o_title TEXT, foa_title TEXT, std_rating INTEGER, "
    "std_games INTEGER, std_k INTEGER, rapid_rating INTEGER, rapid_games INTEGER, "
    "rapid_k INTEGER, blitz_rating INTEGER, blitz_games INTEGER, blitz_k INTEGER, "
    "birth_year INTEGER, inactive INTEGER, types INTEGER, seq INTEGER, line INTEGER)";

static const char LOAD_SQL[] =
    "INSERT INTO temp.fide_load VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
    "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)";

#define PLAYER_COLUMNS                                                                             \
    "fide_id, name, federation, sex, title, w_title, o_title, foa_title, std_rating, "             \
    "std_games, std_k, rapid_rating, rapid_games, rapid_k, blitz_rating, blitz_games, "            \
    "blitz_k, birth_year, inactive"

/* The merged list in name order: pos is the player's place.  fide_id is
 * UNIQUE so that an ID given twice in one file fails here (duplicate()). */
static const char SORTED_DDL[] =
    "DROP TABLE IF EXISTS temp.fide_sorted;"
    "CREATE TEMP TABLE fide_sorted (pos INTEGER PRIMARY KEY, fide_id INTEGER NOT NULL UNIQUE, "
    "name TEXT, federation TEXT, sex TEXT, title TEXT, w_title TEXT, o_title TEXT, "
    "foa_title TEXT, std_rating INTEGER, std_games INTEGER, std_k INTEGER, "
    "rapid_rating INTEGER, rapid_games INTEGER, rapid_k INTEGER, blitz_rating INTEGER, "
    "blitz_games INTEGER, blitz_k INTEGER, birth_year INTEGER, inactive INTEGER)";

/* One file: its rows go in as they come, in name order. */
static const char FILL_ONE_SQL[] =
    "INSERT INTO temp.fide_sorted (" PLAYER_COLUMNS ") SELECT " PLAYER_COLUMNS
    " FROM temp.fide_load ORDER BY name COLLATE NOCASE, fide_id";

/* Several files: one row per FIDE ID; the last file read gives the
 * player's data, each rating type comes from the files that carry it. */
static const char FILL_MERGE_SQL[] =
    "INSERT INTO temp.fide_sorted (" PLAYER_COLUMNS ") SELECT " PLAYER_COLUMNS " FROM ("
    "SELECT max(seq), fide_id, name, federation, sex, title, w_title, o_title, foa_title, "
    "max(iif(types & 1, std_rating, NULL)) AS std_rating, "
    "max(iif(types & 1, std_games, NULL)) AS std_games, "
    "max(iif(types & 1, std_k, NULL)) AS std_k, "
    "max(iif(types & 2, rapid_rating, NULL)) AS rapid_rating, "
    "max(iif(types & 2, rapid_games, NULL)) AS rapid_games, "
    "max(iif(types & 2, rapid_k, NULL)) AS rapid_k, "
    "max(iif(types & 4, blitz_rating, NULL)) AS blitz_rating, "
    "max(iif(types & 4, blitz_games, NULL)) AS blitz_games, "
    "max(iif(types & 4, blitz_k, NULL)) AS blitz_k, birth_year, inactive "
    "FROM temp.fide_load GROUP BY fide_id) ORDER BY name COLLATE NOCASE, fide_id";

/* One batch of places ?1 < pos <= ?2 into the new tables. */
static const char COPY_SQL[] =
    "INSERT INTO fide_players_new (pos, " PLAYER_COLUMNS ") SELECT pos, " PLAYER_COLUMNS
    " FROM temp.fide_sorted WHERE pos > ?1 AND pos <= ?2";
static const char INDEX_SQL[] = "INSERT INTO fide_names_new (rowid, name, translit) "
                                "SELECT pos, name, fide_key(name) FROM temp.fide_sorted "
                                "WHERE pos > ?1 AND pos <= ?2";

static const char SWAP_SQL[] = "ALTER TABLE fide_players RENAME TO fide_players_old;"
                               "ALTER TABLE fide_names RENAME TO fide_names_old;"
                               "ALTER TABLE fide_players_new RENAME TO fide_players;"
                               "ALTER TABLE fide_names_new RENAME TO fide_names;";

/* Emptying a table before it is dropped, a batch per transaction.  The
 * name index's content lives in its shadow table fide_names_*_data; its
 * rows 1 and 10 (averages, structure) stay, as opening the table to drop
 * it reads them, the segments go. */
static const char *const EMPTY_SQL[] = {
    "DELETE FROM fide_players_old WHERE pos IN (SELECT pos FROM fide_players_old LIMIT 5000)",
    "DELETE FROM fide_names_old_data WHERE rowid IN "
    "(SELECT rowid FROM fide_names_old_data WHERE rowid > 10 LIMIT 1000)",
    "DELETE FROM fide_players_new WHERE pos IN (SELECT pos FROM fide_players_new LIMIT 5000)",
    "DELETE FROM fide_names_new_data WHERE rowid IN "
    "(SELECT rowid FROM fide_names_new_data WHERE rowid > 10 LIMIT 1000)",
};

/* fide_key(TEXT): the spelling keys of a name (fide_text_key). */
static void key_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    const char *in = (const char *)sqlite3_value_text(argv[0]);
    char out[512];
    size_t len = fide_text_key(in ? in : "", out, sizeof out);
    sqlite3_result_text(cx, out, (int)len, SQLITE_TRANSIENT);
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t n)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    return ERR(-EIO, "the store refused the register: %s", sqlite3_errmsg(db));
}

typedef struct Load {
    sqlite3 *db;
    sqlite3_stmt *st;
    int seq;
    long rows;
    const FideImportOptions *opt;
    const char *path;
    char *err;
    size_t n;
} Load;

static void bind_text(sqlite3_stmt *st, int i, const char *t)
{
    if (*t)
        sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_pos(sqlite3_stmt *st, int i, int v, int keep_zero)
{
    if (v > 0 || (v == 0 && keep_zero))
        sqlite3_bind_int(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int load_row(void *ctx, const FideRow *r)
{
    Load *l = ctx;
    sqlite3_stmt *st = l->st;
    sqlite3_bind_int64(st, 1, r->id);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->federation, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, r->sex, -1, SQLITE_STATIC);
    bind_text(st, 5, r->title);
    bind_text(st, 6, r->w_title);
    bind_text(st, 7, r->o_title);
    bind_text(st, 8, r->foa_title);
    for (int t = 0; t < FIDE_TYPES; t++) {
        int rated = r->r[t].rating > 0;
        bind_pos(st, 9 + 3 * t, r->r[t].rating, 0);
        bind_pos(st, 10 + 3 * t, rated ? r->r[t].games : -1, 1);
        bind_pos(st, 11 + 3 * t, r->r[t].k, 0);
    }
    bind_pos(st, 18, r->birth_year, 0);
    sqlite3_bind_int(st, 19, r->inactive);
    sqlite3_bind_int(st, 20, (int)r->types);
    sqlite3_bind_int(st, 21, l->seq);
    sqlite3_bind_int64(st, 22, r->line);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        snprintf(l->err, l->n, "cannot stage the list: %s", sqlite3_errmsg(l->db));
        return -EIO;
    }
    if (++l->rows % BATCH == 0) {
        char *err = l->err;
        size_t n = l->n;
        if (exec(l->db, "COMMIT; BEGIN", err, n))
            return -EIO;
        if (l->opt && l->opt->progress && l->rows % 100000 == 0)
            l->opt->progress(l->opt->ctx, l->rows);
    }
    return 0;
}

/* Creates NAME_new from the definition of NAME in sqlite_master. */
static int clone_table(sqlite3 *db, const char *name, char *err, size_t n)
{
    sqlite3_stmt *st = NULL;
    char sql[2048] = "";
    if (sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            snprintf(sql, sizeof sql, "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    char *at = strstr(sql, name);
    if (!at)
        return ERR(-EPROTO, "the store has no table %s (schema too old?)", name);
    size_t head = (size_t)(at - sql) + strlen(name);
    char out[2100];
    snprintf(out, sizeof out, "%.*s_new%s", (int)head, sql, sql + head);
    return exec(db, out, err, n);
}

/* After a UNIQUE failure: the line of a FIDE ID given twice in one file. */
static int duplicate(sqlite3 *db, const char *const *paths, char *err, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc = -EIO;
    if (sqlite3_prepare_v2(db,
                           "SELECT b.seq, b.line, b.fide_id, a.line FROM temp.fide_load a "
                           "JOIN temp.fide_load b ON b.fide_id = a.fide_id AND b.rowid > "
                           "a.rowid WHERE a.seq = b.seq LIMIT 1",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        rc = ERR(FIDE_E_FILE, "%s:%lld: FIDE ID %lld again (first on line %lld)",
                 paths[sqlite3_column_int(st, 0)], (long long)sqlite3_column_int64(st, 1),
                 (long long)sqlite3_column_int64(st, 2), (long long)sqlite3_column_int64(st, 3));
    sqlite3_finalize(st);
    return rc;
}

/* Reads every file into temp.fide_load. */
static int stage(sqlite3 *db, const char *const *paths, int npaths, const FideImportOptions *opt,
                 FideImportResult *res, char *err, size_t n)
{
    Load l = {.db = db, .opt = opt, .err = err, .n = n};
    int rc = exec(db, LOAD_DDL, err, n);
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(db, LOAD_SQL, -1, &l.st, NULL) != SQLITE_OK)
        return ERR(-EIO, "cannot stage the list: %s", sqlite3_errmsg(db));
    rc = exec(db, "BEGIN", err, n);
    for (int i = 0; i < npaths && rc == 0; i++) {
        FideReadInfo info;
        l.seq = i;
        l.path = paths[i];
        rc = fide_read_file(paths[i], opt ? opt->type : -1, load_row, &l, &info, err, n);
        if (rc == 0 && !res->list_date[0])
            snprintf(res->list_date, sizeof res->list_date, "%s", info.list_date);
    }
    sqlite3_finalize(l.st);
    if (rc == 0)
        rc = exec(db, "COMMIT", err, n);
    if (rc)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    res->rows = l.rows;
    if (rc == 0 && l.rows == 0)
        rc = ERR(FIDE_E_EMPTY, "%s: no player in the list", paths[0]);
    return rc;
}

/* The comma-separated file names (without directories) for fide_list. */
static void file_names(const char *const *paths, int npaths, char *out, size_t n)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < npaths && o < n; i++) {
        const char *base = strrchr(paths[i], '/');
        int k = snprintf(out + o, n - o, "%s%s", i ? ", " : "", base ? base + 1 : paths[i]);
        o += k > 0 ? (size_t)k : 0;
    }
}

/* True when the store has a table NAME. */
static bool table_exists(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st = NULL;
    bool yes = sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = ?1", -1, &st,
                                  NULL) == SQLITE_OK &&
               (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC), sqlite3_step(st) == SQLITE_ROW);
    sqlite3_finalize(st);
    return yes;
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * After a write transaction that began at T0: stay away from the store for
 * half as long again.  SQLite's lock is not a queue: another connection
 * waiting for it polls with growing sleeps (up to 100 ms), and would rarely
 * catch the instant between two transactions that follow each other at
 * once; a pause as long as half the transaction lets it in.
 */
static void pace(double t0)
{
    double e = mono_s() - t0;
    if (e < 0.002)
        e = 0.002;
    long long ns = (long long)(e / 2 * 1e9);
    struct timespec t = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    nanosleep(&t, NULL);
}

/* Runs SQL (a batch that changes at most a few thousand rows) in write
 * transactions of its own until it changes nothing. */
static int in_batches(sqlite3 *db, const char *sql, char *err, size_t n)
{
    for (;;) {
        double t0 = mono_s();
        int rc = exec(db, "BEGIN IMMEDIATE", err, n);
        if (rc)
            return rc;
        if ((rc = exec(db, sql, err, n))) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
        int changed = sqlite3_changes(db);
        if ((rc = exec(db, "COMMIT", err, n)))
            return rc;
        if (!changed)
            return 0;
        pace(t0);
    }
}

/* Empties and drops the register tables with SUFFIX ("old" or "new"), if
 * an import left them, without one long write transaction. */
static int drop_tables(sqlite3 *db, const char *suffix, char *err, size_t n)
{
    static const char *const kinds[2] = {"fide_players", "fide_names"};
    for (int k = 0; k < 2; k++) {
        char name[32], sql[64];
        snprintf(name, sizeof name, "%s_%s", kinds[k], suffix);
        if (!table_exists(db, name))
            continue;
        int rc = in_batches(db, EMPTY_SQL[k + (strcmp(suffix, "new") == 0 ? 2 : 0)], err, n);
        snprintf(sql, sizeof sql, "DROP TABLE %s", name);
        if (rc || (rc = exec(db, sql, err, n)))
            return rc;
    }
    return 0;
}

/* Fills the new tables from temp.fide_sorted, BATCH places a transaction. */
static int fill_new(sqlite3 *db, long players, char *err, size_t n)
{
    sqlite3_stmt *copy = NULL, *index = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, COPY_SQL, -1, &copy, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, INDEX_SQL, -1, &index, NULL) != SQLITE_OK)
        rc = ERR(-EIO, "cannot fill the register: %s", sqlite3_errmsg(db));
    for (long lo = 0; lo < players && rc == 0; lo += WRITE_BATCH) {
        double t0 = mono_s();
        if ((rc = exec(db, "BEGIN IMMEDIATE", err, n)))
            break;
        sqlite3_stmt *sts[2] = {copy, index};
        for (int k = 0; k < 2 && rc == 0; k++) {
            sqlite3_bind_int64(sts[k], 1, lo);
            sqlite3_bind_int64(sts[k], 2, lo + WRITE_BATCH);
            if (sqlite3_step(sts[k]) != SQLITE_DONE)
                rc = ERR(-EIO, "cannot fill the register: %s", sqlite3_errmsg(db));
            sqlite3_reset(sts[k]);
        }
        if (rc == 0 && (rc = exec(db, "COMMIT", err, n)) == 0)
            pace(t0);
        else
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_finalize(copy);
    sqlite3_finalize(index);
    return rc;
}

/* Records the list imported; inside the swap's transaction. */
static int record_list(sqlite3 *db, const char *const *paths, int npaths,
                       const FideImportResult *res, char *err, size_t n)
{
    char files[512];
    file_names(paths, npaths, files, sizeof files);
    sqlite3_stmt *st = NULL;
    int rc = -EIO;
    if (sqlite3_prepare_v2(db,
                           "INSERT OR REPLACE INTO fide_list (id, list_date, files, players, "
                           "imported_ms) VALUES (1, ?1, ?2, ?3, ?4)",
                           -1, &st, NULL) == SQLITE_OK) {
        bind_text(st, 1, res->list_date);
        sqlite3_bind_text(st, 2, files, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, res->players);
        sqlite3_bind_int64(st, 4, store_now_ms());
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
    }
    sqlite3_finalize(st);
    if (rc)
        snprintf(err, n, "cannot record the list: %s", sqlite3_errmsg(db));
    return rc;
}

int fide_import(Store *s, const char *const *paths, int npaths, const FideImportOptions *opt,
                FideImportResult *res, char *err, size_t n)
{
    sqlite3 *db = store_db(s);
    char ignored[160];
    memset(res, 0, sizeof *res);
    if (npaths < 1)
        return ERR(FIDE_E_EMPTY, "no file to import");
    if (opt && opt->list_date)
        snprintf(res->list_date, sizeof res->list_date, "%s", opt->list_date);
    if (sqlite3_create_function(db, "fide_key", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, key_fn,
                                NULL, NULL) != SQLITE_OK)
        return ERR(-EIO, "cannot register fide_key: %s", sqlite3_errmsg(db));
    int rc = stage(db, paths, npaths, opt, res, err, n);
    if (rc)
        goto done;
    /* Merge and sort in the temporary database: no lock on the store. */
    if ((rc = exec(db, SORTED_DDL, err, n)))
        goto done;
    if (sqlite3_exec(db, npaths == 1 ? FILL_ONE_SQL : FILL_MERGE_SQL, NULL, NULL, NULL) !=
        SQLITE_OK) {
        rc = sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE
                 ? duplicate(db, paths, err, n)
                 : ERR(-EIO, "cannot fill the register: %s", sqlite3_errmsg(db));
        goto done;
    }
    res->players = (long)sqlite3_changes(db);
    sqlite3_exec(db, "DROP TABLE IF EXISTS temp.fide_load", NULL, NULL, NULL);
    if ((rc = drop_tables(db, "new", err, n)) || (rc = drop_tables(db, "old", err, n)))
        goto done;
    if ((rc = exec(db, "BEGIN IMMEDIATE", err, n)))
        goto done;
    if ((rc = clone_table(db, "fide_players", err, n)) ||
        (rc = clone_table(db, "fide_names", err, n)) || (rc = exec(db, "COMMIT", err, n))) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        goto done;
    }
    if ((rc = fill_new(db, res->players, err, n)))
        goto done;
    if ((rc = exec(db, "BEGIN IMMEDIATE", err, n)))
        goto done;
    if ((rc = exec(db, SWAP_SQL, err, n)) || (rc = record_list(db, paths, npaths, res, err, n)) ||
        (rc = exec(db, "COMMIT", err, n))) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        goto done;
    }
    /* The new list is live; what is left is housekeeping.  The list passed
     * through the write-ahead log: give its space back rather than keep a
     * log as large as the register (best effort; a reader in the middle of
     * a query may prevent it). */
    drop_tables(db, "old", ignored, sizeof ignored); /* else the next import does it */
    sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
done:
    if (rc)
        drop_tables(db, "new", ignored, sizeof ignored);
    sqlite3_exec(db, "DROP TABLE IF EXISTS temp.fide_load", NULL, NULL, NULL);
    sqlite3_exec(db, "DROP TABLE IF EXISTS temp.fide_sorted", NULL, NULL, NULL);
    return rc;
}

/* ---- lookups ---- */

#define SELECT_PLAYER                                                                              \
    "SELECT p.fide_id, p.name, p.federation, p.sex, p.title, p.w_title, p.o_title, "               \
    "p.foa_title, p.std_rating, p.std_games, p.std_k, p.rapid_rating, p.rapid_games, "             \
    "p.rapid_k, p.blitz_rating, p.blitz_games, p.blitz_k, p.birth_year, p.inactive "

/* Rows of store_rows with inactive as a boolean. */
static json_t *players_json(json_t *rows)
{
    size_t k;
    json_t *v;
    json_array_foreach(rows, k, v)
    {
        json_t *in = json_object_get(v, "inactive");
        json_object_set_new(v, "inactive", json_boolean(json_integer_value(in) != 0));
    }
    return rows;
}

json_t *fide_player(Store *s, int64_t fide_id)
{
    json_t *rows =
        store_rows(s, SELECT_PLAYER "FROM fide_players p WHERE p.fide_id = ?1", "i", fide_id);
    if (!rows)
        return NULL;
    json_t *one = json_incref(json_array_get(players_json(rows), 0));
    json_decref(rows);
    return one;
}

int fide_k_of(Store *s, int type, const Tournament *t, int *k_of)
{
    static const char *const sql[FIDE_TYPES] = {
        "SELECT std_k FROM fide_players WHERE fide_id = ?1",
        "SELECT rapid_k FROM fide_players WHERE fide_id = ?1",
        "SELECT blitz_k FROM fide_players WHERE fide_id = ?1",
    };
    if (type < 0 || type >= FIDE_TYPES)
        return -EINVAL;
    int found = 0;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        char *end;
        long long id = strtoll(p->fide_id, &end, 10);
        if (!p->fide_id[0] || *end || id <= 0)
            continue;
        sqlite3_stmt *st = store_stmt(s, sql[type]);
        if (!st)
            return -EIO;
        store_bind(st, "i", (int64_t)id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
            int k = sqlite3_column_int(st, 0);
            if (k > 0 && k <= 100) {
                k_of[p->id] = k;
                found++;
            }
        } else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            sqlite3_reset(st);
            return -EIO;
        }
        sqlite3_reset(st);
    }
    return found;
}

/* Appends `COLUMN : "WORD" *` to the MATCH expression Q (N bytes). */
static void add_word(char *q, size_t n, int *words, const char *column, const char *w, size_t len)
{
    size_t o = strlen(q);
    if (len == 0 || *words == MAX_WORDS || len >= WORD_MAX)
        return;
    snprintf(q + o, n - o, "%s%s : \"%.*s\" *", *words ? " AND " : "", column, (int)len, w);
    (*words)++;
}

/* Adds the words of the folded or keyed text T to Q. */
static void add_words(char *q, size_t n, int *words, const char *column, const char *t)
{
    while (*t) {
        size_t len = strcspn(t, " ");
        add_word(q, n, words, column, t, len);
        t += len + (t[len] == ' ');
    }
}

json_t *fide_search(Store *s, const char *text, int limit)
{
    if (limit < 1)
        limit = 1;
    if (limit > 100)
        limit = 100;
    size_t digits = strspn(text, "0123456789"), len = strlen(text);
    while (len && text[len - 1] == ' ')
        len--;
    if (digits && digits == len && digits <= 10) {
        json_t *one = fide_player(s, strtoll(text, NULL, 10));
        json_t *arr = json_array();
        if (one && arr)
            json_array_append_new(arr, one);
        else
            json_decref(one);
        return arr;
    }
    /* Each word on its own: a Cyrillic one becomes spelling keys, a Latin
     * one is matched as folded, so a mixed query works too. */
    char q[1024] = "", raw[256], folded[512];
    int words = 0;
    for (const char *p = text; *p;) {
        size_t wl = strcspn(p, " \t,;.-'\"()/");
        if (wl && wl < sizeof raw) {
            memcpy(raw, p, wl);
            raw[wl] = 0;
            int cyr = 0;
            fide_text_fold(raw, folded, sizeof folded, &cyr);
            if (cyr)
                fide_text_key(raw, folded, sizeof folded);
            add_words(q, sizeof q, &words, cyr ? "translit" : "name", folded);
        }
        p += wl + (p[wl] != 0);
    }
    if (!words)
        return json_array();
    json_t *rows = store_rows(s,
                              SELECT_PLAYER "FROM fide_names JOIN fide_players p ON p.pos = "
                                            "fide_names.rowid WHERE fide_names MATCH ?1 ORDER BY "
                                            "fide_names.rowid LIMIT ?2",
                              "sd", q, limit);
    return rows ? players_json(rows) : NULL;
}

json_t *fide_list_info(Store *s)
{
    return store_row(s,
                     "SELECT list_date, files, players, imported_ms AS imported_at "
                     "FROM fide_list WHERE id = 1",
                     "");
}
