/*
 * backup.h — copies of the store while the server runs, checks of a copy,
 * putting a copy back, the lock that says "a server holds this database",
 * and the rotation of periodic copies.
 *
 * A copy is taken with SQLite's online backup API from one read transaction
 * on the source: in WAL mode a reader never blocks the writer, so the server
 * keeps committing moves while the pages are copied in small steps, and the
 * copy is the database exactly as it was when the read transaction began
 * (every request acknowledged before that moment is in it).  The copy is
 * written beside its destination under a temporary name, checked
 * (integrity_check), made durable and renamed into place, so a destination
 * name never holds half a copy.  Copies are single files (rollback journal
 * mode), ready to be restored or opened by the sqlite3 shell.
 *
 * Workload: a tournament database is a few MB to a few hundred MB; a copy
 * takes a fraction of a second to a few seconds.
 */
#ifndef ARBITER_DB_BACKUP_H
#define ARBITER_DB_BACKUP_H

#include <stddef.h>
#include <stdint.h>

/* Expected failures. */
enum {
    BACKUP_E_INVALID = 1, /* the file is not a sound Arbiter database */
    BACKUP_E_BUSY,        /* a running server holds the database */
    BACKUP_E_MISSING,     /* the source does not exist */
};

/* Copies the database at SRC to DST (replacing DST atomically).  Returns 0,
 * BACKUP_E_MISSING, or a negative errno-like value; a message in ERR. */
int backup_copy(const char *src, const char *dst, char *err, size_t errlen);

/* Checks that PATH is an Arbiter database that passes PRAGMA
 * integrity_check and whose schema this program knows.  Returns 0,
 * BACKUP_E_MISSING or BACKUP_E_INVALID with the reason in ERR. */
int backup_verify(const char *path, char *err, size_t errlen);

/* Takes the advisory lock that marks DBPATH as held by a server (flock on
 * the database file, created empty if missing; released by the kernel when
 * the process dies).  Returns 0 and the descriptor in *FD (close it only
 * after every SQLite connection to the file is closed), BACKUP_E_BUSY when
 * another process holds it, or a negative errno. */
int backup_lock(const char *dbpath, int *fd);

/* Puts the verified copy SRC in place of the database DST.  Refuses
 * (BACKUP_E_BUSY) while a server holds DST; refuses (BACKUP_E_INVALID) a
 * copy that fails backup_verify.  An existing DST is kept as
 * DST.before-restore (its WAL folded in first).  Returns 0 or an error with
 * a message in ERR. */
int backup_restore(const char *src, const char *dst, char *err, size_t errlen);

/* Writes DIR/arbiter-YYYYMMDD-HHMMSS.db (UTC of NOW_MS) from the database
 * at DB, then deletes the oldest such files beyond KEEP.  The name written
 * goes to NAME (may be NULL).  Returns 0 or an error with a message in ERR. */
int backup_rotate(const char *db, const char *dir, int keep, int64_t now_ms, char *name,
                  size_t namelen, char *err, size_t errlen);

#endif
