/*
 * sse.c — topics, rings and streams.  See sse.h.
 *
 * Locking: the hub mutex guards the topic table and the wake list; each
 * topic's mutex guards its ring and its list of streams.  A stream suspends
 * its connection while holding its topic's mutex, after finding nothing new;
 * a publisher adds to the ring under the same mutex and then has the waker
 * thread resume the suspended streams (under the mutex again), so a wake-up
 * is never lost and the publisher never waits for thousands of resumes.
 *
 * Lifetime: a topic exists while someone uses it.  Its USERS count (hub
 * mutex) holds one for each attached stream, one for a pending wake-up and
 * one for each call that looked it up and has not let go; the last one out
 * frees it.  A finished game's topic therefore goes with its last viewer,
 * and the table holds only the topics that are watched (it held every
 * topic ever opened, 1.7 KB each, until the server stopped).  Nothing is
 * lost by it: a stream opening later starts at the head and gets its past
 * from the store.
 *
 * The delay line (sse_publish_later) is a list of messages ordered by the
 * instant they fall due, under the hub mutex; the waker thread sleeps until
 * the first one is due and publishes it like any other.  Within one group
 * (a tournament) the order of publication is kept even when a later
 * message falls due a few milliseconds earlier (its event was stamped at
 * its request's arrival, before an earlier commit): it waits for the one
 * before it, so a stream's ids keep increasing and none is skipped.
 */
#include "sse.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"

enum { RING = 1024, GAME_RING = 64, BUCKETS = 4096 };
/* A game's topic keeps at most this many bytes of recent messages (each is
 * a whole game update, a few KB): a thousand watched games must not keep a
 * thousand full rings.  A viewer further behind resumes from the store. */
enum { GAME_TOPIC_BYTES = 64 * 1024 };

/* A message waiting in the delay line. */
typedef struct Later {
    struct Later *prev, *next;
    int64_t due_ms, group, id;
    char *topics[2]; /* one or two topics (NULL) */
    char *event, *data;
    size_t bytes;
} Later;

/* The delay line holds at most this many bytes: past it a message is not
 * delayed but dropped (a viewer resumes from the store on reconnect), and
 * the log says so once. */
enum { LATER_BYTES = 256 * 1024 * 1024 };

typedef struct Msg {
    int64_t id;
    char *text;
    size_t len;
} Msg;

typedef struct Topic {
    char *name;
    struct Topic *next_in_bucket;
    struct Topic *next_wake; /* in the hub's wake list (hub mutex) */
    int wake_pending;        /* hub mutex */
    int users;               /* hub mutex: see Lifetime above */
    pthread_mutex_t mu;
    Msg *ring; /* RING messages, GAME_RING for a game's topic */
    uint64_t nring;
    uint64_t head;     /* messages published so far */
    uint64_t tail;     /* the oldest message still in the ring */
    size_t bytes, cap; /* bytes of the messages in the ring, and their bound */
    Stream *streams;
    int closed;
    uint64_t last_tick; /* the hub's keepalive tick of the last message */
} Topic;

struct Stream {
    Topic *t;
    Hub *hub;
    Stream *prev, *next;
    struct MHD_Connection *conn;
    uint64_t cursor;
    size_t off;
    char *backlog;
    size_t blen, boff;
    int64_t last_id;
    int suspended, closed, live;
};

struct Hub {
    pthread_mutex_t mu;
    Topic *buckets[BUCKETS];
    int count;  /* streams (atomic) */
    int topics; /* in the table (hub mutex) */
    /* Resuming thousands of suspended streams takes a while: a thread of
     * its own does it, so that a publisher (the writer thread) never waits
     * for the fan-out. */
    pthread_t waker;
    pthread_cond_t wake_cv;
    Topic *wake_head;
    int stop;
    /* The waker resumes outside the topic's mutex, so the polling threads
     * can send to the first viewers while it resumes the last ones: BUSY
     * while it does, CLOSING once sse_close_all waits for it to stop. */
    int busy, closing;
    pthread_cond_t idle_cv;
    uint64_t tick;                 /* keepalive calls so far (atomic) */
    struct MHD_Connection **batch; /* the waker's own */
    size_t batch_cap;
    /* The delay line (hub mutex): oldest due first. */
    Later *later_head, *later_tail;
    size_t later_bytes;
    int later_full; /* the log said the line is full */
    SseTap tap;     /* hub mutex (set once at start) */
    void *tap_cls;
};

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % BUCKETS;
}

static void wake_all(Topic *t);
static void release_locked(Hub *h, Topic *t);

/* Marks T's suspended streams resumed and lists their connections in
 * h->batch (T's mutex held); returns how many, or -1 when the list cannot
 * grow (the caller then resumes under the mutex as before). */
static long collect(Hub *h, Topic *t)
{
    size_t n = 0;
    for (Stream *s = t->streams; s; s = s->next)
        n += s->suspended != 0;
    if (n > h->batch_cap) {
        struct MHD_Connection **b = realloc(h->batch, n * sizeof *b);
        if (!b)
            return -1;
        h->batch = b;
        h->batch_cap = n;
    }
    n = 0;
    for (Stream *s = t->streams; s; s = s->next)
        if (s->suspended) {
            s->suspended = 0;
            h->batch[n++] = s->conn;
        }
    return (long)n;
}

static void later_free(Later *l)
{
    if (!l)
        return;
    free(l->topics[0]);
    free(l->topics[1]);
    free(l->event);
    free(l->data);
    free(l);
}

/* Detaches the messages of the delay line due at NOW (hub mutex held) and
 * returns them as a list (next), oldest first. */
static Later *later_take(Hub *h, int64_t now)
{
    Later *first = h->later_head, *l = first;
    while (l && l->due_ms <= now) {
        h->later_bytes -= l->bytes;
        l = l->next;
    }
    if (l == first)
        return NULL;
    h->later_head = l;
    if (l) {
        l->prev->next = NULL;
        l->prev = NULL;
    } else
        h->later_tail = NULL;
    return first;
}

/* Sleeps on the wake condition until signalled or, when the delay line is
 * not empty, until its first message falls due (hub mutex held). */
static void waker_sleep(Hub *h)
{
    if (!h->later_head) {
        pthread_cond_wait(&h->wake_cv, &h->mu);
        return;
    }
    int64_t due = h->later_head->due_ms;
    struct timespec ts = {.tv_sec = (time_t)(due / 1000), .tv_nsec = (long)(due % 1000) * 1000000};
    pthread_cond_timedwait(&h->wake_cv, &h->mu, &ts);
}

static void *waker_main(void *arg)
{
    Hub *h = arg;
    pthread_mutex_lock(&h->mu);
    while (!h->stop) {
        Later *due = later_take(h, store_now_ms());
        if (due) {
            SseTap tap = h->tap;
            void *cls = h->tap_cls;
            pthread_mutex_unlock(&h->mu);
            for (Later *l = due, *n; l; l = n) {
                n = l->next;
                for (int k = 0; k < 2 && l->topics[k]; k++) {
                    sse_publish(h, l->topics[k], l->id, l->event, l->data);
                    if (tap)
                        tap(cls, l->topics[k], l->event, l->data);
                }
                later_free(l);
            }
            pthread_mutex_lock(&h->mu);
            continue;
        }
        Topic *t = h->wake_head;
        if (!t) {
            waker_sleep(h);
            continue;
        }
        h->wake_head = t->next_wake;
        t->wake_pending = 0;
        int outside = !h->closing;
        h->busy = outside;
        pthread_mutex_unlock(&h->mu);
        pthread_mutex_lock(&t->mu);
        long n = outside ? collect(h, t) : -1;
        if (n < 0)
            wake_all(t);
        pthread_mutex_unlock(&t->mu);
        /* A suspended connection cannot be closed, so the pointers stay
         * valid until their resume; sse_close_all waits for this loop. */
        for (long i = 0; i < n; i++)
            MHD_resume_connection(h->batch[i]);
        pthread_mutex_lock(&h->mu);
        h->busy = 0;
        pthread_cond_broadcast(&h->idle_cv);
        release_locked(h, t); /* the wake-up's hold */
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

Hub *sse_new(void)
{
    Hub *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->wake_cv, NULL);
    pthread_cond_init(&h->idle_cv, NULL);
    if (pthread_create(&h->waker, NULL, waker_main, h)) {
        free(h);
        return NULL;
    }
    return h;
}

static void topic_free(Topic *t)
{
    for (uint64_t k = 0; k < t->nring; k++)
        free(t->ring[k].text);
    free(t->ring);
    pthread_mutex_destroy(&t->mu);
    free(t->name);
    free(t);
}

/* Lets go of one hold on T (hub mutex held); the last one unlinks and
 * frees it. */
static void release_locked(Hub *h, Topic *t)
{
    if (--t->users > 0)
        return;
    Topic **p = &h->buckets[hash(t->name)];
    while (*p != t)
        p = &(*p)->next_in_bucket;
    *p = t->next_in_bucket;
    h->topics--;
    topic_free(t);
}

/* Lets go of the hold taken by topic(); with WAKE, first asks the waker
 * thread to resume T's suspended streams (the wake-up holds T until it is
 * done). */
static void release(Hub *h, Topic *t, int wake)
{
    pthread_mutex_lock(&h->mu);
    if (wake && !t->wake_pending) {
        t->wake_pending = 1;
        t->users++;
        t->next_wake = h->wake_head;
        h->wake_head = t;
        pthread_cond_signal(&h->wake_cv);
    }
    release_locked(h, t);
    pthread_mutex_unlock(&h->mu);
}

void sse_free(Hub *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->stop = 1;
    pthread_cond_signal(&h->wake_cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->waker, NULL);
    pthread_cond_destroy(&h->wake_cv);
    pthread_cond_destroy(&h->idle_cv);
    free(h->batch);
    for (Later *l = h->later_head, *n; l; l = n) {
        n = l->next;
        later_free(l);
    }
    for (int i = 0; i < BUCKETS; i++)
        for (Topic *t = h->buckets[i], *n; t; t = n) {
            n = t->next_in_bucket;
            topic_free(t);
        }
    pthread_mutex_destroy(&h->mu);
    free(h);
}

/* Finds topic NAME (creates it with CREATE) and holds it: the caller lets
 * go with release().  NULL when absent or out of memory. */
static Topic *topic(Hub *h, const char *name, int create)
{
    unsigned b = hash(name);
    pthread_mutex_lock(&h->mu);
    Topic *t = h->buckets[b];
    while (t && strcmp(t->name, name) != 0)
        t = t->next_in_bucket;
    if (!t && create) {
        int game = strncmp(name, "g:", 2) == 0 || strncmp(name, SSE_DELAYED "g:", 3) == 0;
        t = calloc(1, sizeof *t);
        if (t) {
            t->nring = game ? GAME_RING : RING;
            t->ring = calloc(t->nring, sizeof *t->ring);
            t->name = strdup(name);
            if (!t->ring || !t->name) {
                free(t->ring);
                free(t->name);
                free(t);
                t = NULL;
            }
        }
        if (t) {
            t->cap = game ? GAME_TOPIC_BYTES : SIZE_MAX;
            /* A stream opened while the server stops ends at once. */
            t->closed = h->closing;
            pthread_mutex_init(&t->mu, NULL);
            t->next_in_bucket = h->buckets[b];
            h->buckets[b] = t;
            h->topics++;
        }
    }
    if (t)
        t->users++;
    pthread_mutex_unlock(&h->mu);
    return t;
}

static void wake_all(Topic *t)
{
    for (Stream *s = t->streams; s; s = s->next)
        if (s->suspended) {
            s->suspended = 0;
            MHD_resume_connection(s->conn);
        }
}

static void drop_oldest(Topic *t)
{
    Msg *o = &t->ring[t->tail % t->nring];
    t->bytes -= o->len;
    free(o->text);
    o->text = NULL;
    o->len = 0;
    t->tail++;
}

static void push(Topic *t, int64_t id, char *text, size_t len)
{
    if (t->head - t->tail == t->nring)
        drop_oldest(t);
    Msg *m = &t->ring[t->head % t->nring];
    m->id = id;
    m->text = text;
    m->len = len;
    t->head++;
    t->bytes += len;
    while (t->bytes > t->cap && t->head - t->tail > 1)
        drop_oldest(t);
}

void sse_publish(Hub *h, const char *name, int64_t id, const char *event, const char *data)
{
    Topic *t = topic(h, name, 0);
    if (!t)
        return;
    char *text = NULL;
    int n = id > 0
                ? asprintf(&text, "id: %lld\nevent: %s\ndata: %s\n\n", (long long)id, event, data)
                : asprintf(&text, "event: %s\ndata: %s\n\n", event, data);
    if (n < 0) {
        release(h, t, 0);
        return;
    }
    pthread_mutex_lock(&t->mu);
    int listened = t->streams != NULL;
    if (listened) {
        push(t, id, text, (size_t)n);
        t->last_tick = __atomic_load_n(&h->tick, __ATOMIC_RELAXED);
    } else
        free(text);
    pthread_mutex_unlock(&t->mu);
    release(h, t, listened);
}

/* Puts L into the delay line by its due time (hub mutex held), never
 * before a message of its own group: it then falls due with that one. */
static void later_insert(Hub *h, Later *l)
{
    Later *p = h->later_tail;
    while (p && p->due_ms > l->due_ms && p->group != l->group)
        p = p->prev;
    if (p && p->group == l->group && p->due_ms > l->due_ms)
        l->due_ms = p->due_ms;
    l->prev = p;
    l->next = p ? p->next : h->later_head;
    if (l->next)
        l->next->prev = l;
    else
        h->later_tail = l;
    if (p)
        p->next = l;
    else
        h->later_head = l;
    h->later_bytes += l->bytes;
}

int sse_publish_later(Hub *h, const char *topic1, const char *topic2, int64_t group, int64_t id,
                      const char *event, const char *data, int64_t due_ms)
{
    Later *l = calloc(1, sizeof *l);
    if (!l)
        return -1;
    l->due_ms = due_ms;
    l->group = group;
    l->id = id;
    l->topics[0] = strdup(topic1);
    l->topics[1] = topic2 ? strdup(topic2) : NULL;
    l->event = strdup(event);
    l->data = strdup(data);
    l->bytes = sizeof *l + strlen(data) + strlen(event) + 64;
    if (!l->topics[0] || (topic2 && !l->topics[1]) || !l->event || !l->data) {
        later_free(l);
        return -1;
    }
    pthread_mutex_lock(&h->mu);
    if (h->later_bytes + l->bytes > LATER_BYTES) {
        int say = !h->later_full;
        h->later_full = 1;
        pthread_mutex_unlock(&h->mu);
        if (say)
            fprintf(stderr,
                    "arbiter: the broadcast delay line is full (%d MB): delayed "
                    "events are dropped, public viewers resume from the store\n",
                    LATER_BYTES >> 20);
        later_free(l);
        return -1;
    }
    h->later_full = 0;
    later_insert(h, l);
    /* A new first message: the waker sleeps until it instead. */
    if (h->later_head == l)
        pthread_cond_signal(&h->wake_cv);
    pthread_mutex_unlock(&h->mu);
    return 0;
}

void sse_tap_set(Hub *h, SseTap fn, void *cls)
{
    pthread_mutex_lock(&h->mu);
    h->tap = fn;
    h->tap_cls = cls;
    pthread_mutex_unlock(&h->mu);
}

int sse_later_count(Hub *h)
{
    pthread_mutex_lock(&h->mu);
    int n = 0;
    for (Later *l = h->later_head; l; l = l->next)
        n++;
    pthread_mutex_unlock(&h->mu);
    return n;
}

int sse_listened(Hub *h, const char *name)
{
    Topic *t = topic(h, name, 0);
    if (!t)
        return 0;
    pthread_mutex_lock(&t->mu);
    int yes = t->streams != NULL;
    pthread_mutex_unlock(&t->mu);
    release(h, t, 0);
    return yes;
}

Stream *sse_attach(Hub *h, const char *name)
{
    Topic *t = topic(h, name, 1); /* the stream's hold, until sse_detach */
    if (!t)
        return NULL;
    Stream *s = calloc(1, sizeof *s);
    if (!s) {
        release(h, t, 0);
        return NULL;
    }
    s->t = t;
    s->hub = h;
    pthread_mutex_lock(&t->mu);
    s->cursor = t->head;
    s->next = t->streams;
    if (t->streams)
        t->streams->prev = s;
    t->streams = s;
    pthread_mutex_unlock(&t->mu);
    __atomic_add_fetch(&h->count, 1, __ATOMIC_RELAXED);
    return s;
}

void sse_detach(Stream *s)
{
    if (!s)
        return;
    Topic *t = s->t;
    pthread_mutex_lock(&t->mu);
    if (s->prev)
        s->prev->next = s->next;
    else
        t->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    pthread_mutex_unlock(&t->mu);
    __atomic_sub_fetch(&s->hub->count, 1, __ATOMIC_RELAXED);
    release(s->hub, t, 0);
    free(s->backlog);
    free(s);
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
    Stream *s = cls;
    Topic *t = s->t;
    size_t n = 0;
    pthread_mutex_lock(&t->mu);
    if (s->boff < s->blen) {
        n = s->blen - s->boff < max ? s->blen - s->boff : max;
        memcpy(buf, s->backlog + s->boff, n);
        s->boff += n;
        pthread_mutex_unlock(&t->mu);
        return (ssize_t)n;
    }
    if (s->closed || t->closed) {
        pthread_mutex_unlock(&t->mu);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (s->cursor < t->tail) {
        /* Fell behind the ring: the client resumes from the store. */
        pthread_mutex_unlock(&t->mu);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    while (s->cursor < t->head && n < max) {
        Msg *m = &t->ring[s->cursor % t->nring];
        if (m->id > 0 && m->id <= s->last_id && s->off == 0) {
            s->cursor++;
            continue;
        }
        size_t k = m->len - s->off < max - n ? m->len - s->off : max - n;
        memcpy(buf + n, m->text + s->off, k);
        n += k;
        s->off += k;
        if (s->off == m->len) {
            if (m->id > s->last_id)
                s->last_id = m->id;
            s->off = 0;
            s->cursor++;
        }
    }
    if (n == 0) {
        s->suspended = 1;
        MHD_suspend_connection(s->conn);
    }
    pthread_mutex_unlock(&t->mu);
    return (ssize_t)n;
}

static void reader_free(void *cls)
{
    sse_detach(cls);
}

int sse_stream(Req *r, Stream *s, char *backlog, size_t backlog_len, int64_t last_id)
{
    pthread_mutex_lock(&s->t->mu);
    s->backlog = backlog;
    s->blen = backlog ? backlog_len : 0;
    s->last_id = last_id;
    s->conn = r->conn;
    s->live = 1;
    pthread_mutex_unlock(&s->t->mu);
    r->resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, reader, s, reader_free);
    if (!r->resp) {
        sse_detach(s);
        return http_error(r, -12, "out of memory");
    }
    MHD_add_response_header(r->resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r->resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r->resp, "X-Accel-Buffering", "no");
    r->status = 200;
    return ROUTE_DONE;
}

static void each_topic(Hub *h, void (*fn)(Topic *t))
{
    pthread_mutex_lock(&h->mu);
    for (int i = 0; i < BUCKETS; i++)
        for (Topic *t = h->buckets[i]; t; t = t->next_in_bucket)
            fn(t);
    pthread_mutex_unlock(&h->mu);
}

static void close_topic(Topic *t)
{
    pthread_mutex_lock(&t->mu);
    t->closed = 1;
    for (Stream *s = t->streams; s; s = s->next)
        s->closed = 1;
    wake_all(t);
    pthread_mutex_unlock(&t->mu);
}

void sse_close_all(Hub *h)
{
    if (!h)
        return;
    /* From now on the waker resumes under the topics' mutexes, and a batch
     * it is resuming outside them ends before the topics close. */
    pthread_mutex_lock(&h->mu);
    h->closing = 1;
    while (h->busy)
        pthread_cond_wait(&h->idle_cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
    each_topic(h, close_topic);
}

/* A topic whose streams heard nothing for KEEPALIVE_TICKS calls gets a
 * comment line, resumed by the waker like a message.  Only idle topics:
 * pinging every stream at once (thousands) kept the polling threads busy
 * for a quarter of a second, and moves waited behind them; a game in play
 * needs no ping, and idle topics fall due at different times.  The hub
 * mutex is held only to copy the topic list (publishers take it for every
 * message). */
enum { KEEPALIVE_TICKS = 3 };

void sse_keepalive(Hub *h)
{
    uint64_t tick = __atomic_add_fetch(&h->tick, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&h->mu);
    size_t n = (size_t)h->topics + 64, k = 0;
    Topic **list = malloc(n * sizeof *list);
    for (int i = 0; list && i < BUCKETS; i++)
        for (Topic *t = h->buckets[i]; t; t = t->next_in_bucket) {
            if (k == n) {
                Topic **more = realloc(list, (n *= 2) * sizeof *list);
                if (!more) {
                    for (size_t j = 0; j < k; j++)
                        release_locked(h, list[j]);
                    free(list);
                    list = NULL;
                    break;
                }
                list = more;
            }
            t->users++; /* held until released below */
            list[k++] = t;
        }
    pthread_mutex_unlock(&h->mu);
    for (size_t i = 0; list && i < k; i++) {
        Topic *t = list[i];
        int any;
        pthread_mutex_lock(&t->mu);
        /* The messages every open stream has sent can go (all of them when
         * none is open): the ring is for streams that fall behind, and none
         * will read these again; a stream that opens later starts at the
         * head.  Keeping them held a full ring per watched game (64 KB: a
         * thousand boards of an Olympiad kept 64 MB of game updates every
         * viewer had already received). */
        uint64_t oldest = t->head;
        for (Stream *s = t->streams; s; s = s->next)
            if (s->cursor < oldest)
                oldest = s->cursor;
        while (t->tail < oldest)
            drop_oldest(t);
        any = t->streams != NULL && tick - t->last_tick >= KEEPALIVE_TICKS;
        if (any) {
            char *text = strdup(": keepalive\n\n");
            if (text)
                push(t, 0, text, strlen(text));
            t->last_tick = tick;
        }
        pthread_mutex_unlock(&t->mu);
        release(h, t, any);
    }
    free(list);
}

int sse_count(Hub *h)
{
    return __atomic_load_n(&h->count, __ATOMIC_RELAXED);
}

int sse_topics(Hub *h)
{
    pthread_mutex_lock(&h->mu);
    int n = h->topics;
    pthread_mutex_unlock(&h->mu);
    return n;
}
