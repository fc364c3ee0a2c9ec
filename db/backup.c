/*
 * backup.c — online copies, verification, restore, the server lock and the
 * rotation of periodic copies.  See backup.h for the contract.
 *
 * Why one read transaction around the whole copy: sqlite3_backup_step()
 * restarts from the first page whenever another connection changes the
 * source between two steps, so under a steady stream of moves a stepwise
 * copy would never finish.  Holding a read transaction pins one WAL
 * snapshot: the steps all read that snapshot, nothing restarts, and the
 * writer is not blocked (it only cannot checkpoint past the snapshot until
 * the copy ends).
 */
#include "backup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

enum { STEP_PAGES = 128 };

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", sql, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -EIO;
    }
    return 0;
}

/* fsync of a file or a directory by name. */
static int sync_path(const char *path, int dir)
{
    int fd = open(path, (dir ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = fsync(fd) ? -errno : 0;
    close(fd);
    return rc;
}

static void dir_of(const char *path, char *out, size_t outlen)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, outlen, ".");
    else if (slash == path)
        snprintf(out, outlen, "/");
    else
        snprintf(out, outlen, "%.*s", (int)(slash - path), path);
}

/* The single "ok" row of integrity_check, or the first complaint. */
static int integrity(sqlite3 *db, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        return BACKUP_E_INVALID;
    }
    rc = sqlite3_step(st);
    int ok = rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
    if (!ok)
        snprintf(err, errlen, "integrity check failed: %s",
                 rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return ok ? 0 : BACKUP_E_INVALID;
}

int backup_copy(const char *src, const char *dst, char *err, size_t errlen)
{
    sqlite3 *from = NULL, *to = NULL;
    sqlite3_backup *b = NULL;
    char tmp[PATH_MAX], dir[PATH_MAX];
    int rc = -EIO, in_txn = 0;
    struct stat sb;
    tmp[0] = 0;
    if (stat(src, &sb) != 0 || sb.st_size == 0) {
        snprintf(err, errlen, "no database at %s", src);
        return BACKUP_E_MISSING;
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld", dst, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errlen, "the name %s is too long", dst);
        tmp[0] = 0;
        return -ENAMETOOLONG;
    }
    unlink(tmp);
    /* Read-write without create: a WAL database needs its -shm, and the
     * source must not spring into existence. */
    if (sqlite3_open_v2(src, &from, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(from); /* e.g. a copy on read-only media */
        from = NULL;
        if (sqlite3_open_v2(src, &from, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
            goto opened;
        snprintf(err, errlen, "cannot open %s: %s", src, from ? sqlite3_errmsg(from) : "no memory");
        goto fail;
    }
opened:
    sqlite3_busy_timeout(from, 5000);
    if (exec(from, "BEGIN", err, errlen) ||
        exec(from, "SELECT count(*) FROM sqlite_schema", err, errlen))
        goto fail;
    in_txn = 1;
    store_file_create_private(tmp);
    if (sqlite3_open_v2(tmp, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, to ? sqlite3_errmsg(to) : "no memory");
        goto fail;
    }
    b = sqlite3_backup_init(to, "main", from, "main");
    if (!b) {
        snprintf(err, errlen, "cannot start the copy: %s", sqlite3_errmsg(to));
        goto fail;
    }
    for (;;) {
        int s = sqlite3_backup_step(b, STEP_PAGES);
        if (s == SQLITE_DONE)
            break;
        if (s == SQLITE_OK || s == SQLITE_BUSY || s == SQLITE_LOCKED) {
            usleep(s == SQLITE_OK ? 200 : 5000);
            continue;
        }
        snprintf(err, errlen, "copy failed: %s", sqlite3_errstr(s));
        goto fail;
    }
    sqlite3_backup_finish(b);
    b = NULL;
    exec(from, "COMMIT", err, errlen);
    in_txn = 0;
    sqlite3_close(from);
    from = NULL;
    /* A single self-contained file, checked before it takes the name. */
    if (exec(to, "PRAGMA journal_mode=DELETE", err, errlen))
        goto fail;
    if ((rc = integrity(to, err, errlen)) != 0)
        goto fail;
    rc = -EIO;
    if (sqlite3_close(to) != SQLITE_OK) {
        snprintf(err, errlen, "cannot close %s", tmp);
        to = NULL;
        goto fail;
    }
    to = NULL;
    dir_of(dst, dir, sizeof dir);
    if (sync_path(tmp, 0) || rename(tmp, dst) || sync_path(dir, 1)) {
        rc = -errno;
        snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
        goto fail;
    }
    return 0;
fail:
    if (b)
        sqlite3_backup_finish(b);
    if (in_txn)
        sqlite3_exec(from, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(from);
    sqlite3_close(to);
    if (tmp[0])
        unlink(tmp);
    return rc;
}

int backup_verify(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        snprintf(err, errlen, "no file %s", path);
        return BACKUP_E_MISSING;
    }
    if (!S_ISREG(sb.st_mode) || sb.st_size == 0) {
        snprintf(err, errlen, "%s is not a database (empty or not a file)", path);
        return BACKUP_E_INVALID;
    }
    sqlite3 *db = NULL;
    int rc = BACKUP_E_INVALID;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        goto out;
    }
    char why[300];
    if (integrity(db, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        goto out;
    }
    sqlite3_stmt *st = NULL;
    int version = -1, tables = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT (SELECT user_version FROM pragma_user_version),"
                           " (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND"
                           "  name IN ('meta', 'games', 'game_events', 'tournaments'))",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        version = sqlite3_column_int(st, 0);
        tables = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (tables != 4 || version < 1) {
        snprintf(err, errlen, "%s is an SQLite file but not an Arbiter database", path);
        goto out;
    }
    if (version > store_migration_count) {
        snprintf(err, errlen, "%s has schema version %d, newer than this program knows (%d)", path,
                 version, store_migration_count);
        goto out;
    }
    rc = 0;
out:
    sqlite3_close(db);
    return rc;
}

int backup_lock(const char *dbpath, int *fd)
{
    *fd = -1;
    int f = open(dbpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (f < 0)
        return -errno;
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(f);
        return e == EWOULDBLOCK ? BACKUP_E_BUSY : -e;
    }
    *fd = f;
    return 0;
}

/* Folds the WAL of PATH into the main file, so the file alone is the
 * database.  SQLite's own view: BUSY when some connection still reads. */
static int fold_wal(const char *path, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    int rc = -EIO;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        goto out;
    }
    int log = 0, done = 0;
    int s = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log, &done);
    if (s == SQLITE_BUSY || s == SQLITE_LOCKED) {
        snprintf(err, errlen, "%s is in use by another program", path);
        rc = BACKUP_E_BUSY;
        goto out;
    }
    if (s != SQLITE_OK) {
        snprintf(err, errlen, "cannot checkpoint %s: %s", path, sqlite3_errmsg(db));
        goto out;
    }
    if (exec(db, "PRAGMA journal_mode=DELETE", err, errlen))
        goto out;
    rc = 0;
out:
    sqlite3_close(db);
    return rc;
}

int backup_restore(const char *src, const char *dst, char *err, size_t errlen)
{
    int rc = backup_verify(src, err, errlen);
    if (rc)
        return rc == BACKUP_E_MISSING ? BACKUP_E_MISSING : BACKUP_E_INVALID;
    int lockfd = -1;
    struct stat sb;
    int existed = stat(dst, &sb) == 0 && sb.st_size > 0;
    rc = backup_lock(dst, &lockfd);
    if (rc == BACKUP_E_BUSY) {
        snprintf(err, errlen, "%s is held by a running server; stop it first", dst);
        return rc;
    }
    if (rc) {
        snprintf(err, errlen, "cannot lock %s: %s", dst, strerror(-rc));
        return rc;
    }
    char aside[PATH_MAX], wal[PATH_MAX], shm[PATH_MAX];
    snprintf(aside, sizeof aside, "%s.before-restore", dst);
    snprintf(wal, sizeof wal, "%s-wal", dst);
    snprintf(shm, sizeof shm, "%s-shm", dst);
    if (existed) {
        if ((rc = fold_wal(dst, err, errlen)) != 0)
            goto out;
        if (link(dst, aside) != 0 &&
            !(errno == EEXIST && unlink(aside) == 0 && link(dst, aside) == 0)) {
            rc = -errno;
            snprintf(err, errlen, "cannot keep the old database as %s: %s", aside, strerror(errno));
            goto out;
        }
    }
    /* A copy through SQLite (not a byte copy) so the result is written
     * page by page by the library that will read it. */
    if ((rc = backup_copy(src, dst, err, errlen)) != 0)
        goto out;
    /* A WAL left by the old database must never be replayed onto the new. */
    unlink(wal);
    unlink(shm);
    char dir[PATH_MAX];
    dir_of(dst, dir, sizeof dir);
    sync_path(dir, 1);
out:
    close(lockfd);
    return rc;
}

static int is_backup_name(const char *n)
{
    size_t len = strlen(n);
    return len == strlen("arbiter-YYYYMMDD-HHMMSS.db") && strncmp(n, "arbiter-", 8) == 0 &&
           strcmp(n + len - 3, ".db") == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int backup_rotate(const char *db, const char *dir, int keep, int64_t now_ms, char *name,
                  size_t namelen, char *err, size_t errlen)
{
    time_t t = (time_t)(now_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    char path[PATH_MAX], stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(path, sizeof path, "%s/arbiter-%s.db", dir, stamp);
    int rc = backup_copy(db, path, err, errlen);
    if (rc)
        return rc;
    if (name)
        snprintf(name, namelen, "%s", path);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_backup_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i + (size_t)keep < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return 0;
}
