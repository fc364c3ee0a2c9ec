/*
 * writer.c — the group-commit writer thread.  See writer.h.
 *
 * Invariant: a job's done callback runs only after the COMMIT that holds its
 * effects returned (synchronous=FULL: the WAL frames are fsynced), so an
 * answer given from done is never taken back by a crash.
 */
#include "writer.h"

#include "sessions.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Writer {
    Store *store;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    WriterJob *head, *tail;
    int stopping;
    int64_t last_beat;
    uint64_t jobs, batches;
    int64_t last_expire;        /* when expired sessions were last dropped */
    uint64_t run_us, commit_us; /* time spent running jobs and committing */
    void (*stats)(void *cls, int batch);
    void *stats_cls;
};

/* The longest a batch waits for the rest of its cohort (see thread_main). */
enum { LINGER_US = 1000 };

static const char SQL_BEAT[] = "INSERT INTO meta(key, value) VALUES ('heartbeat_ms', ?1) "
                               "ON CONFLICT(key) DO UPDATE SET value = excluded.value";

static int step_simple(Store *s, const char *sql)
{
    sqlite3_stmt *st = store_stmt(s, sql);
    if (!st)
        return -EINVAL;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -EIO;
}

static void heartbeat(Writer *w, int force)
{
    int64_t now = store_now_ms();
    if (!force && now - w->last_beat < 250)
        return;
    if (store_run(w->store, NULL, SQL_BEAT, "i", now) == 0)
        w->last_beat = now;
    /* Expired sessions go in small bulks with the beat, never on a
     * sign-in's or a move's way: a thousand rows a second by the index. */
    if (now - w->last_expire >= 1000) {
        w->last_expire = now;
        sessions_expire(w->store, now, 250);
    }
}

/* One batch: every job in its savepoint inside one transaction. */
static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void run_batch(Writer *w, WriterJob *batch)
{
    int n = 0;
    uint64_t t0 = mono_us(), t1 = t0;
    int rc = store_begin(w->store);
    if (rc == 0) {
        for (WriterJob *j = batch; j; j = j->next) {
            n++;
            if (step_simple(w->store, "SAVEPOINT job")) {
                j->rc = -EIO;
                continue;
            }
            j->rc = j->run(w->store, j);
            if (j->rc)
                step_simple(w->store, "ROLLBACK TO job");
            step_simple(w->store, "RELEASE job");
        }
        heartbeat(w, 0);
        t1 = mono_us();
        rc = store_commit(w->store);
        if (rc)
            store_rollback(w->store);
    }
    if (rc == 0) {
        pthread_mutex_lock(&w->mu);
        w->jobs += (uint64_t)n;
        w->batches++;
        w->run_us += t1 - t0;
        w->commit_us += mono_us() - t1;
        pthread_mutex_unlock(&w->mu);
        if (w->stats)
            w->stats(w->stats_cls, n);
    }
    for (WriterJob *j = batch, *next; j; j = next) {
        next = j->next;
        j->next = NULL;
        if (j->done)
            j->done(j, rc ? rc : j->rc);
    }
}

/* Counts the queued jobs (called with the mutex held). */
static int queued(const Writer *w)
{
    int n = 0;
    for (const WriterJob *j = w->head; j; j = j->next)
        n++;
    return n;
}

static void add_us(struct timespec *ts, long us)
{
    ts->tv_nsec += us * 1000L;
    while (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static void *thread_main(void *arg)
{
    Writer *w = arg;
    int last_batch = 0;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->head && !w->stopping) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            add_us(&ts, 250000);
            if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) == ETIMEDOUT)
                break;
        }
        /* Closed-loop clients answered by the last commit come back within
         * a fraction of a millisecond; starting the next batch with the
         * first of them would leave the rest for the batch after, so that
         * batches alternate tiny and large.  Wait a little (at most LINGER)
         * while the queue is far below the last batch. */
        if (w->head && !w->stopping && last_batch > 8) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            add_us(&until, LINGER_US);
            while (queued(w) < last_batch / 2 && !w->stopping &&
                   pthread_cond_timedwait(&w->cv, &w->mu, &until) != ETIMEDOUT)
                ;
        }
        WriterJob *batch = w->head;
        w->head = w->tail = NULL;
        int stop = w->stopping;
        pthread_mutex_unlock(&w->mu);
        if (batch) {
            last_batch = 0;
            for (WriterJob *j = batch; j; j = j->next)
                last_batch++;
            run_batch(w, batch);
        } else if (!stop) {
            heartbeat(w, 0);
        }
        pthread_mutex_lock(&w->mu);
        if (stop && !w->head)
            break;
    }
    pthread_mutex_unlock(&w->mu);
    heartbeat(w, 1);
    return NULL;
}

Writer *writer_start(const char *path, char *err, size_t errlen)
{
    Writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (store_open(path, 0, &w->store, err, errlen)) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, thread_main, w)) {
        snprintf(err, errlen, "cannot start the writer thread");
        store_close(w->store);
        free(w);
        return NULL;
    }
    return w;
}

int writer_submit(Writer *w, WriterJob *job)
{
    job->next = NULL;
    pthread_mutex_lock(&w->mu);
    if (w->stopping) {
        pthread_mutex_unlock(&w->mu);
        return -ESHUTDOWN;
    }
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 0;
}

typedef struct Waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished, rc;
} Waiter;

static void waiter_done(WriterJob *job, int rc)
{
    Waiter *wt = job->wait;
    pthread_mutex_lock(&wt->mu);
    wt->finished = 1;
    wt->rc = rc;
    pthread_cond_signal(&wt->cv);
    pthread_mutex_unlock(&wt->mu);
}

int writer_call(Writer *w, WriterJob *job)
{
    Waiter wt = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    job->done = waiter_done;
    job->wait = &wt;
    int rc = writer_submit(w, job);
    if (rc)
        return rc;
    pthread_mutex_lock(&wt.mu);
    while (!wt.finished)
        pthread_cond_wait(&wt.cv, &wt.mu);
    pthread_mutex_unlock(&wt.mu);
    job->done = NULL;
    return wt.rc;
}

void writer_set_stats(Writer *w, void (*fn)(void *cls, int batch), void *cls)
{
    w->stats = fn;
    w->stats_cls = cls;
}

void writer_counts(Writer *w, uint64_t *jobs, uint64_t *batches, uint64_t *run_us,
                   uint64_t *commit_us)
{
    pthread_mutex_lock(&w->mu);
    *jobs = w->jobs;
    *batches = w->batches;
    *run_us = w->run_us;
    *commit_us = w->commit_us;
    pthread_mutex_unlock(&w->mu);
}

void writer_stop(Writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->stopping = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    store_close(w->store);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
}
