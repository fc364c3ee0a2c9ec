/*
 * store.c — SQLite connections, migrations, the statement cache and rows as
 * JSON.  See store.h for the contract.
 *
 * Settings that matter for durability: journal_mode=WAL (readers never block
 * the writer), synchronous=FULL (a commit is on disk when sqlite3_step of
 * COMMIT returns, so an answered request survives a power cut), foreign_keys
 * on, and a busy timeout for the readers during checkpoints.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { STMT_CACHE = 96 };

struct Store {
    sqlite3 *db;
    int n;
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[STMT_CACHE];
    int64_t public_now; /* store_public_view; 0: everything as stored */
};

/* public_now_ms(): the instant of the public view, NULL outside one. */
static void public_now_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    Store *s = sqlite3_user_data(ctx);
    if (s->public_now)
        sqlite3_result_int64(ctx, s->public_now);
    else
        sqlite3_result_null(ctx);
}

void store_public_view(Store *s, int64_t now_ms)
{
    if (s)
        s->public_now = now_ms;
}

int64_t store_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

sqlite3 *store_db(Store *s)
{
    return s->db;
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        if (err)
            snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -EIO;
    }
    return 0;
}

int store_version(Store *s)
{
    return (int)store_int(s, 0, "PRAGMA user_version", "");
}

static int migrate(Store *s, char *err, size_t errlen)
{
    int v = store_version(s);
    if (v > store_migration_count) {
        snprintf(err, errlen,
                 "the database has schema version %d, newer than this "
                 "program knows (%d)",
                 v, store_migration_count);
        return -EPROTO;
    }
    for (; v < store_migration_count; v++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", v + 1);
        if (exec(s->db, "BEGIN IMMEDIATE", err, errlen) ||
            exec(s->db, store_migrations[v], err, errlen) || exec(s->db, pragma, err, errlen) ||
            exec(s->db, "COMMIT", err, errlen)) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -EIO;
        }
    }
    return 0;
}

int store_file_create_private(const char *path)
{
    /* SQLite creates a new database with the process's umask (often 0644)
     * and its -wal and -shm files with the database's mode; made here
     * first, all three hold personal data for the owner only. */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    close(fd);
    return 0;
}

/* Before SQLite's first use: no memory statistics.  They take one mutex
 * of the whole process around every allocation of every connection, so a
 * reader rendering an export at a low priority, preempted while holding
 * it, would hold up the writer and the moves. */
static void sqlite_once(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int store_open(const char *path, int readonly, Store **out, char *err, size_t errlen)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sqlite_once);
    *out = NULL;
    Store *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (!readonly && path[0] && strcmp(path, ":memory:") != 0 && strncmp(path, "file:", 5) != 0)
        store_file_create_private(path);
    flags |= SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(s->db, 5000);
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_create_function(s->db, "public_now_ms", 0, SQLITE_UTF8, s, public_now_fn, NULL, NULL);
    if (!readonly) {
        char mode[16] = "";
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            snprintf(mode, sizeof mode, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        if (strcmp(mode, "wal") != 0) {
            snprintf(err, errlen, "cannot put %s in WAL mode: %s", path, sqlite3_errmsg(s->db));
            goto fail;
        }
    }
    if (exec(s->db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", err, errlen))
        goto fail;
    if (!readonly && migrate(s, err, errlen))
        goto fail;
    if (readonly && store_version(s) != store_migration_count) {
        snprintf(err, errlen, "%s has schema version %d, expected %d", path, store_version(s),
                 store_migration_count);
        goto fail;
    }
    *out = s;
    return 0;
fail:
    store_close(s);
    return -EIO;
}

void store_close(Store *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        sqlite3_finalize(s->cache[i].st);
    sqlite3_close(s->db);
    free(s);
}

sqlite3_stmt *store_stmt(Store *s, const char *sql)
{
    for (int i = 0; i < s->n; i++)
        if (s->cache[i].sql == sql || strcmp(s->cache[i].sql, sql) == 0) {
            sqlite3_stmt *st = s->cache[i].st;
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            return st;
        }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "store: cannot prepare \"%s\": %s\n", sql, sqlite3_errmsg(s->db));
        return NULL;
    }
    if (s->n < STMT_CACHE) {
        s->cache[s->n].sql = sql;
        s->cache[s->n].st = st;
        s->n++;
    } else {
        /* Full cache: the oldest entry makes room (never happens with the
         * fixed set of statements the program uses). */
        sqlite3_finalize(s->cache[0].st);
        memmove(&s->cache[0], &s->cache[1], sizeof s->cache[0] * (STMT_CACHE - 1));
        s->cache[STMT_CACHE - 1].sql = sql;
        s->cache[STMT_CACHE - 1].st = st;
    }
    return st;
}

static void vbind(sqlite3_stmt *st, const char *fmt, va_list ap)
{
    for (int i = 0; fmt[i]; i++) {
        int idx = i + 1;
        switch (fmt[i]) {
        case 'i': sqlite3_bind_int64(st, idx, va_arg(ap, int64_t)); break;
        case 'd': sqlite3_bind_int64(st, idx, va_arg(ap, int)); break;
        case 's': {
            const char *v = va_arg(ap, const char *);
            if (v)
                sqlite3_bind_text(st, idx, v, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(st, idx);
            break;
        }
        default: sqlite3_bind_null(st, idx);
        }
    }
}

void store_bind(sqlite3_stmt *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vbind(st, fmt, ap);
    va_end(ap);
}

static int classify(int rc)
{
    if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return STORE_E_CONFLICT;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return STORE_E_INVALID;
    return -EIO;
}

int store_run(Store *s, int *changes, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st = store_stmt(s, sql);
    if (!st)
        return -EINVAL;
    va_list ap;
    va_start(ap, fmt);
    vbind(st, fmt, ap);
    va_end(ap);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    if (changes)
        *changes = sqlite3_changes(s->db);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return 0;
    if ((rc & 0xff) != SQLITE_CONSTRAINT)
        fprintf(stderr, "store: \"%s\": %s\n", sql, sqlite3_errmsg(s->db));
    return classify(rc);
}

json_t *store_row_json(sqlite3_stmt *st)
{
    json_t *o = json_object();
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        size_t len = strlen(name);
        json_t *v;
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER: v = json_integer(sqlite3_column_int64(st, i)); break;
        case SQLITE_FLOAT: v = json_real(sqlite3_column_double(st, i)); break;
        case SQLITE_NULL: v = json_null(); break;
        default: {
            const char *t = (const char *)sqlite3_column_text(st, i);
            if (len > 5 && strcmp(name + len - 5, "_json") == 0) {
                v = json_loads(t, JSON_DECODE_ANY, NULL);
                if (!v)
                    v = json_null();
                char key[64];
                snprintf(key, sizeof key, "%.*s", (int)(len - 5), name);
                json_object_set_new(o, key, v);
                continue;
            }
            v = json_stringn(t, (size_t)sqlite3_column_bytes(st, i));
        }
        }
        json_object_set_new(o, name, v);
    }
    return o;
}

static json_t *vrows(Store *s, int max, const char *sql, const char *fmt, va_list ap)
{
    sqlite3_stmt *st = store_stmt(s, sql);
    if (!st)
        return NULL;
    vbind(st, fmt, ap);
    json_t *arr = json_array();
    int rc;
    while ((max < 0 || (int)json_array_size(arr) < max) && (rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(arr, store_row_json(st));
    sqlite3_reset(st);
    return arr;
}

json_t *store_rows(Store *s, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *r = vrows(s, -1, sql, fmt, ap);
    va_end(ap);
    return r;
}

json_t *store_row(Store *s, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *r = vrows(s, 1, sql, fmt, ap);
    va_end(ap);
    if (!r)
        return NULL;
    json_t *row = json_array_get(r, 0);
    json_incref(row);
    json_decref(r);
    return row;
}

int64_t store_int(Store *s, int64_t dflt, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st = store_stmt(s, sql);
    if (!st)
        return dflt;
    va_list ap;
    va_start(ap, fmt);
    vbind(st, fmt, ap);
    va_end(ap);
    int64_t v = dflt;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return v;
}

int store_begin(Store *s)
{
    sqlite3_stmt *st = store_stmt(s, "BEGIN IMMEDIATE");
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    if (st)
        sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -EIO;
}

int store_commit(Store *s)
{
    sqlite3_stmt *st = store_stmt(s, "COMMIT");
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    if (st)
        sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "store: commit failed: %s\n", sqlite3_errmsg(s->db));
        return -EIO;
    }
    return 0;
}

void store_rollback(Store *s)
{
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}
