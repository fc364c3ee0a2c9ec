/*
 * store.h — the SQLite store of Arbiter: opening a database (WAL,
 * synchronous=FULL, foreign keys on), creating and migrating its schema from
 * the versioned SQL files embedded at build time, cached prepared statements
 * and small helpers that turn rows into JSON.
 *
 * One Store is one SQLite connection and belongs to one thread at a time:
 * the writer thread owns the only read-write one, every reader thread opens
 * its own read-only one.  Rows come back as jansson objects whose keys are the
 * column names; a column whose name ends in "_json" holds JSON text and comes
 * back parsed, under the name without the suffix.
 */
#ifndef ARBITER_DB_STORE_H
#define ARBITER_DB_STORE_H

#include <jansson.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* Expected failures of the store and of the operations built on it. */
enum {
    STORE_E_NOT_FOUND = 1, /* an id that does not exist */
    STORE_E_CONFLICT,      /* a uniqueness rule (username, PIN, board number) */
    STORE_E_INVALID,       /* a value the schema or the rules refuse */
    STORE_E_STATE,         /* the object is not in a state that allows this */
    STORE_E_STALE,         /* a retried or outdated submission (ply) */
    STORE_E_ILLEGAL,       /* an illegal move or action refused by the Laws */
    STORE_E_FORBIDDEN,     /* the actor may not do this to this object */
};

typedef struct Store Store;

/* The migrations, in version order (generated from db/schema/NNN_*.sql). */
extern const char *const store_migrations[];
extern const int store_migration_count;

/* Creates PATH empty with mode 0600 when it does not exist (an existing
 * file keeps its mode): 0 or a negative errno.  Used before SQLite creates
 * a database or a backup. */
int store_file_create_private(const char *path);
/* Opens PATH.  With READONLY=0 creates the file if needed and brings its
 * schema to the newest version (each migration in its own transaction;
 * PRAGMA user_version is the version).  Returns 0 and *OUT, or a negative
 * errno-like value with a message in ERR. */
int store_open(const char *path, int readonly, Store **out, char *err, size_t errlen);
/* Finalises every cached statement and closes; NULL is a no-op. */
void store_close(Store *s);
sqlite3 *store_db(Store *s);
/* The schema version of an open store. */
int store_version(Store *s);

/* A cached prepared statement for SQL (compared by pointer first, then by
 * text), reset and with its bindings cleared.  NULL on a prepare error
 * (a programming error, logged). */
sqlite3_stmt *store_stmt(Store *s, const char *sql);

/* Binds the variadic arguments described by FMT to ST: 'i' int64_t,
 * 'd' int (promoted), 's' const char * (NULL binds NULL), 'n' a NULL. */
void store_bind(sqlite3_stmt *st, const char *fmt, ...);

/* Runs SQL with the FMT bindings; returns 0, or a positive STORE_E_* for a
 * constraint failure (STORE_E_CONFLICT for UNIQUE, STORE_E_INVALID for
 * others), or a negative value for anything else.  *CHANGES (if not NULL)
 * gets sqlite3_changes. */
int store_run(Store *s, int *changes, const char *sql, const char *fmt, ...);
/* All rows of the query as a JSON array (never NULL unless out of memory or
 * the SQL is wrong). */
json_t *store_rows(Store *s, const char *sql, const char *fmt, ...);
/* The first row as an object, or NULL when there is none. */
json_t *store_row(Store *s, const char *sql, const char *fmt, ...);
/* The first column of the first row as an integer; DFLT when there is none. */
int64_t store_int(Store *s, int64_t dflt, const char *sql, const char *fmt, ...);

/* Transactions on the writer connection. */
int store_begin(Store *s);
int store_commit(Store *s);
void store_rollback(Store *s);

/* The row of ST (after SQLITE_ROW) as a JSON object. */
json_t *store_row_json(sqlite3_stmt *st);

/* Makes the queries of S that read games' results (rounds.h, the
 * tournament model) show them as the public sees them at NOW_MS under the
 * tournament's public delay (db/feed.h): a game whose last event is younger
 * than the delay is still running with result "*".  0 ends the view.  The
 * SQL function public_now_ms() gives the instant (NULL outside a view). */
void store_public_view(Store *s, int64_t now_ms);

/* Wall-clock time in milliseconds since the epoch. */
int64_t store_now_ms(void);

#endif
