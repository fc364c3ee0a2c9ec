/*
 * backups.c — the periodic backup thread of the daemon.  See backups.h.
 *
 * The copy runs on its own thread and its own SQLite connection, from one
 * read snapshot, so the writer and the readers of the server never wait for
 * it.
 */
#include "backups.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "backup.h"
#include "store.h"

struct Backups {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    const char *db, *dir;
    double every_s;
    int keep, quiet;
};

static void *loop(void *arg)
{
    Backups *b = arg;
    struct timespec next;
    clock_gettime(CLOCK_REALTIME, &next);
    pthread_mutex_lock(&b->mu);
    for (;;) {
        long long ns = (long long)next.tv_nsec + (long long)(b->every_s * 1e9);
        next.tv_sec += (time_t)(ns / 1000000000LL);
        next.tv_nsec = (long)(ns % 1000000000LL);
        while (!b->stop && pthread_cond_timedwait(&b->cv, &b->mu, &next) != ETIMEDOUT)
            ;
        if (b->stop)
            break;
        pthread_mutex_unlock(&b->mu);
        char name[512], err[512];
        int rc = backup_rotate(b->db, b->dir, b->keep, store_now_ms(), name, sizeof name, err,
                               sizeof err);
        if (rc)
            fprintf(stderr, "arbiter: periodic backup failed: %s\n", err);
        else if (!b->quiet)
            fprintf(stderr, "arbiter: backup written to %s\n", name);
        pthread_mutex_lock(&b->mu);
        /* A copy slower than the period does not pile up. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (now.tv_sec > next.tv_sec)
            next = now;
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

Backups *backups_start(const char *db, const char *dir, double every_s, int keep, int quiet,
                       char *err, size_t errlen)
{
    struct stat sb;
    if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create the backup directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "%s is not a directory", dir);
        return NULL;
    }
    Backups *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->db = db;
    b->dir = dir;
    b->every_s = every_s;
    b->keep = keep;
    b->quiet = quiet;
    if (pthread_create(&b->thread, NULL, loop, b) != 0) {
        snprintf(err, errlen, "cannot start the backup thread");
        free(b);
        return NULL;
    }
    return b;
}

void backups_stop(Backups *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    b->stop = 1;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->thread, NULL);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
    free(b);
}
