/*
 * flags.c — a min-heap of deadlines and a thread that fires them.
 *
 * The heap may hold stale entries (a game's deadline moved); the current
 * deadline of each game is kept in a table indexed by game id and an entry
 * fires only when it still matches.  A fired check is a writer job; its
 * outcome is published like any other event.
 */
#include "flags.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games.h"

typedef struct Item {
    int64_t at, gid;
} Item;

struct Flags {
    Server *srv;
    FlagsCommitted committed;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Item *heap;
    size_t n, cap;
    int64_t *deadline; /* by game id */
    size_t ndeadline;
    int stop;
};

typedef struct Check {
    WriterJob job;
    Server *srv;
    Flags *flags;
    int64_t gid;
    GameOutcome out;
} Check;

static void swap(Item *a, Item *b)
{
    Item t = *a;
    *a = *b;
    *b = t;
}

static void push(Flags *f, Item it)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        Item *h = realloc(f->heap, cap * sizeof *h);
        if (!h)
            return;
        f->heap = h;
        f->cap = cap;
    }
    size_t i = f->n++;
    f->heap[i] = it;
    while (i > 0 && f->heap[(i - 1) / 2].at > f->heap[i].at) {
        swap(&f->heap[(i - 1) / 2], &f->heap[i]);
        i = (i - 1) / 2;
    }
}

static Item pop(Flags *f)
{
    Item top = f->heap[0];
    f->heap[0] = f->heap[--f->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < f->n && f->heap[l].at < f->heap[m].at)
            m = l;
        if (r < f->n && f->heap[r].at < f->heap[m].at)
            m = r;
        if (m == i)
            break;
        swap(&f->heap[m], &f->heap[i]);
        i = m;
    }
    return top;
}

static int run_check(Store *s, WriterJob *job)
{
    Check *c = job->arg;
    int rc = games_time_check(c->srv->games, s, c->gid, &c->out);
    return rc;
}

static void check_done(WriterJob *job, int rc)
{
    Check *c = job->arg;
    if (rc == 0 && c->out.event_id) {
        if (!c->srv->quiet)
            fprintf(stderr, "game %lld time check: flag event %lld\n", (long long)c->gid,
                    (long long)c->out.event_id);
        c->flags->committed(c->srv, &c->out);
    } else if (rc < 0) {
        games_evict(c->srv->games, c->gid);
    }
    games_outcome_clear(&c->out);
    free(c);
}

static void *thread_main(void *arg)
{
    Flags *f = arg;
    pthread_mutex_lock(&f->mu);
    while (!f->stop) {
        int64_t now = store_now_ms();
        if (f->n && f->heap[0].at <= now) {
            Item it = pop(f);
            if ((size_t)it.gid < f->ndeadline && f->deadline[it.gid] == it.at) {
                f->deadline[it.gid] = INT64_MAX;
                Check *c = calloc(1, sizeof *c);
                if (c) {
                    c->srv = f->srv;
                    c->flags = f;
                    c->gid = it.gid;
                    c->job.run = run_check;
                    c->job.done = check_done;
                    c->job.arg = c;
                    if (writer_submit(f->srv->writer, &c->job))
                        free(c);
                }
            }
            continue;
        }
        if (f->n) {
            int64_t at = f->heap[0].at;
            struct timespec ts = {.tv_sec = at / 1000, .tv_nsec = (at % 1000) * 1000000};
            pthread_cond_timedwait(&f->cv, &f->mu, &ts);
        } else {
            pthread_cond_wait(&f->cv, &f->mu);
        }
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

Flags *flags_start(Server *srv, FlagsCommitted committed)
{
    Flags *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->srv = srv;
    f->committed = committed;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    if (pthread_create(&f->thread, NULL, thread_main, f)) {
        free(f);
        return NULL;
    }
    return f;
}

void flags_set(Flags *f, int64_t gid, int64_t deadline_ms)
{
    if (!f || gid <= 0)
        return;
    pthread_mutex_lock(&f->mu);
    if ((size_t)gid >= f->ndeadline) {
        size_t n = f->ndeadline ? f->ndeadline : 1024;
        while (n <= (size_t)gid)
            n *= 2;
        int64_t *d = realloc(f->deadline, n * sizeof *d);
        if (!d) {
            pthread_mutex_unlock(&f->mu);
            return;
        }
        for (size_t i = f->ndeadline; i < n; i++)
            d[i] = INT64_MAX;
        f->deadline = d;
        f->ndeadline = n;
    }
    if (f->deadline[gid] != deadline_ms) {
        f->deadline[gid] = deadline_ms;
        if (deadline_ms != INT64_MAX) {
            push(f, (Item){deadline_ms, gid});
            if (f->heap[0].gid == gid && f->heap[0].at == deadline_ms)
                pthread_cond_signal(&f->cv);
        }
    }
    pthread_mutex_unlock(&f->mu);
}

void flags_stop(Flags *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->thread, NULL);
}

void flags_free(Flags *f)
{
    if (!f)
        return;
    free(f->heap);
    free(f->deadline);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    free(f);
}
