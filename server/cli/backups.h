/*
 * backups.h — the periodic copies of `arbiter serve --backup-dir DIR`: a
 * thread that writes DIR/arbiter-YYYYMMDD-HHMMSS.db every few minutes with
 * the online backup (db/backup.h) and keeps the newest N.  A failed copy is
 * logged and tried again at the next period; it never stops the server.
 */
#ifndef ARBITER_SERVER_BACKUPS_H
#define ARBITER_SERVER_BACKUPS_H

#include <stddef.h>

typedef struct Backups Backups;

/* Starts the thread: a copy of DB every EVERY_S seconds into DIR (created
 * if missing), keeping KEEP.  NULL with a message in ERR when DIR cannot be
 * used.  DB and DIR must outlive the thread. */
Backups *backups_start(const char *db, const char *dir, double every_s, int keep, int quiet,
                       char *err, size_t errlen);
/* Stops the thread (a copy in progress finishes first); NULL is a no-op. */
void backups_stop(Backups *b);

#endif
