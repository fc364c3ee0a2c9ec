/*
 * writer.h — the single writer of the store, with group commit.
 *
 * Every change to the database goes through one thread that owns the only
 * read-write connection.  Requests that arrive while a commit is on its way
 * to disk are queued; the next round takes all of them into ONE transaction
 * (each in its own savepoint, so one failing request does not undo the
 * others), commits once, and only then reports to each of them.  Durable
 * acknowledgement follows: a request is answered from its done callback,
 * after the commit that holds its effects.
 *
 * The writer also keeps the heartbeat (meta.heartbeat_ms), written every
 * 250 ms (inside a batch when there is one), that tells the next start when this one stopped.
 * Workload: thousands of small jobs a second; one fsync per batch.
 */
#ifndef ARBITER_DB_WRITER_H
#define ARBITER_DB_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

typedef struct Writer Writer;
typedef struct WriterJob WriterJob;

struct WriterJob {
    /* Runs on the writer thread inside the batch's transaction.  Returns 0,
     * or an error: then everything this job wrote is rolled back and the
     * others in the batch are not affected. */
    int (*run)(Store *s, WriterJob *job);
    /* Runs on the writer thread after the batch is durable, with run's
     * result, or with a negative value when the commit itself failed (then
     * nothing of the batch was written).  May be NULL.  After done the job
     * memory belongs to the submitter again. */
    void (*done)(WriterJob *job, int rc);
    void *arg;       /* the submitter's */
    WriterJob *next; /* private to the writer */
    int rc;          /* private to the writer */
    void *wait;      /* private to writer_call */
};

/* Opens (creating and migrating) the database at PATH and starts the writer
 * thread.  NULL with a message in ERR on failure. */
Writer *writer_start(const char *path, char *err, size_t errlen);
/* Queues JOB; it must stay valid until its done callback.  Returns 0, or
 * -ESHUTDOWN when the writer is stopping (done is then not called). */
int writer_submit(Writer *w, WriterJob *job);
/* Queues JOB and waits for its commit; returns run's result (or the commit
 * failure).  JOB->done must be NULL (the writer uses it). */
int writer_call(Writer *w, WriterJob *job);
/* Hook run on the writer thread after every successful commit with the
 * batch size (statistics).  May be NULL. */
void writer_set_stats(Writer *w, void (*fn)(void *cls, int batch), void *cls);
/* Finishes every queued job, writes a last heartbeat, stops the thread,
 * closes the database.  NULL is a no-op. */
void writer_stop(Writer *w);
/* Jobs and batches committed so far, and the time spent running the jobs
 * and committing (microseconds). */
void writer_counts(Writer *w, uint64_t *jobs, uint64_t *batches, uint64_t *run_us,
                   uint64_t *commit_us);

#endif
