/*
 * conns.c — per-address connection and stream counts, header deadlines,
 * the sweeping thread.  See conns.h.
 *
 * Addresses live in a chained hash table (an entry exists while its
 * address holds a connection or a stream, so its size follows the open
 * connections, bounded by the daemon's connection limit).  The two deadline
 * lists are doubly linked through the connection records: a record is in
 * at most one of them.
 */
#include "conns.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum { BUCKETS = 4096, SWEEP_MS = 500 };

typedef struct Addr {
    unsigned char key[16];
    unsigned conns, streams;
    struct Addr *next;
} Addr;

/* Which deadline list a connection waits in. */
enum { WAIT_NONE = -1, WAIT_FIRST = 0, WAIT_NEXT = 1 };

struct Conn {
    int fd;
    int wait; /* WAIT_* */
    int counted;
    int64_t deadline_ms;
    unsigned char key[16];
    Conn *prev, *next;
};

typedef struct List {
    Conn *head, *tail;
} List;

struct Conns {
    ConnLimits lim;
    const ProxyList *proxies;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    int stop;
    Addr *buckets[BUCKETS];
    List wait[2];
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static unsigned hash(const unsigned char key[16])
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 16777619u;
    return h % BUCKETS;
}

/* The entry of KEY; created (zeroed) when CREATE, else NULL if absent. */
static Addr *addr_get(Conns *g, const unsigned char key[16], int create)
{
    Addr **b = &g->buckets[hash(key)];
    for (Addr *a = *b; a; a = a->next)
        if (memcmp(a->key, key, 16) == 0)
            return a;
    if (!create)
        return NULL;
    Addr *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    memcpy(a->key, key, 16);
    a->next = *b;
    *b = a;
    return a;
}

/* Drops KEY's entry once it holds nothing. */
static void addr_drop_if_empty(Conns *g, const unsigned char key[16])
{
    for (Addr **p = &g->buckets[hash(key)]; *p; p = &(*p)->next)
        if (memcmp((*p)->key, key, 16) == 0) {
            Addr *a = *p;
            if (a->conns == 0 && a->streams == 0) {
                *p = a->next;
                free(a);
            }
            return;
        }
}

static void unlink_wait(Conns *g, Conn *c)
{
    if (c->wait == WAIT_NONE)
        return;
    List *l = &g->wait[c->wait];
    if (c->prev)
        c->prev->next = c->next;
    else
        l->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    else
        l->tail = c->prev;
    c->prev = c->next = NULL;
    c->wait = WAIT_NONE;
}

/* Puts C at the tail of list W with the deadline SECONDS from now: every
 * entry of a list has the same timeout, so the list stays in deadline
 * order.  SECONDS 0: no deadline (C waits in no list). */
static void wait_for(Conns *g, Conn *c, int w, unsigned seconds)
{
    unlink_wait(g, c);
    if (!seconds)
        return;
    List *l = &g->wait[w];
    c->wait = w;
    c->deadline_ms = mono_ms() + (int64_t)seconds * 1000;
    c->prev = l->tail;
    c->next = NULL;
    if (l->tail)
        l->tail->next = c;
    else
        l->head = c;
    l->tail = c;
}

static void *sweeper(void *arg)
{
    Conns *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += SWEEP_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&g->cv, &g->mu, &ts);
        if (g->stop)
            break;
        pthread_mutex_unlock(&g->mu);
        conns_sweep(g, mono_ms());
        pthread_mutex_lock(&g->mu);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

Conns *conns_new(const ConnLimits *l, const ProxyList *proxies)
{
    Conns *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->lim = *l;
    g->proxies = proxies;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    if (pthread_create(&g->thread, NULL, sweeper, g)) {
        pthread_cond_destroy(&g->cv);
        pthread_mutex_destroy(&g->mu);
        free(g);
        return NULL;
    }
    return g;
}

void conns_free(Conns *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->mu);
    g->stop = 1;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->thread, NULL);
    for (int i = 0; i < BUCKETS; i++)
        for (Addr *a = g->buckets[i], *next; a; a = next) {
            next = a->next;
            free(a);
        }
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* KEY of SA and whether it is capped: 1 capped, 0 exempt (a trusted
 * proxy), -1 no address. */
static int capped_key(Conns *g, const struct sockaddr *sa, unsigned char key[16])
{
    if (!sa || ratelimit_addr_of(sa, key))
        return -1;
    return !ratelimit_proxies_has(g->proxies, key);
}

int conns_accept(Conns *g, const struct sockaddr *sa)
{
    unsigned char key[16];
    if (!g->lim.per_addr || capped_key(g, sa, key) != 1)
        return 1;
    pthread_mutex_lock(&g->mu);
    Addr *a = addr_get(g, key, 0);
    int ok = !a || a->conns < g->lim.per_addr;
    pthread_mutex_unlock(&g->mu);
    return ok;
}

Conn *conns_started(Conns *g, int fd, const struct sockaddr *sa)
{
    Conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    c->wait = WAIT_NONE;
    int capped = capped_key(g, sa, c->key);
    pthread_mutex_lock(&g->mu);
    if (capped == 1) {
        Addr *a = addr_get(g, c->key, 1);
        if (a) {
            a->conns++;
            c->counted = 1;
        }
    }
    wait_for(g, c, WAIT_FIRST, g->lim.header_s);
    pthread_mutex_unlock(&g->mu);
    return c;
}

void conns_request_begun(Conns *g, Conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&g->mu);
    unlink_wait(g, c);
    pthread_mutex_unlock(&g->mu);
}

void conns_request_done(Conns *g, Conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&g->mu);
    wait_for(g, c, WAIT_NEXT, g->lim.idle_s);
    pthread_mutex_unlock(&g->mu);
}

void conns_closed(Conns *g, Conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&g->mu);
    unlink_wait(g, c);
    if (c->counted) {
        Addr *a = addr_get(g, c->key, 0);
        if (a && a->conns)
            a->conns--;
        addr_drop_if_empty(g, c->key);
    }
    pthread_mutex_unlock(&g->mu);
    free(c);
}

unsigned conns_stream_take(Conns *g, const unsigned char key[16])
{
    if (!g->lim.streams)
        return 0;
    pthread_mutex_lock(&g->mu);
    Addr *a = addr_get(g, key, 1);
    unsigned refused = 0;
    if (a && a->streams >= g->lim.streams)
        refused = g->lim.streams;
    else if (a)
        a->streams++;
    pthread_mutex_unlock(&g->mu);
    return refused;
}

void conns_stream_give(Conns *g, const unsigned char key[16])
{
    if (!g->lim.streams)
        return;
    pthread_mutex_lock(&g->mu);
    Addr *a = addr_get(g, key, 0);
    if (a && a->streams)
        a->streams--;
    addr_drop_if_empty(g, key);
    pthread_mutex_unlock(&g->mu);
}

unsigned conns_sweep(Conns *g, int64_t now_ms)
{
    unsigned n = 0;
    pthread_mutex_lock(&g->mu);
    for (int w = 0; w < 2; w++)
        while (g->wait[w].head && g->wait[w].head->deadline_ms <= now_ms) {
            Conn *c = g->wait[w].head;
            unlink_wait(g, c);
            /* Still registered, so the descriptor is still this
             * connection's (conns.h). */
            shutdown(c->fd, SHUT_RDWR);
            n++;
        }
    pthread_mutex_unlock(&g->mu);
    return n;
}

void conns_counts(Conns *g, const unsigned char key[16], unsigned *conns, unsigned *streams)
{
    pthread_mutex_lock(&g->mu);
    Addr *a = addr_get(g, key, 0);
    *conns = a ? a->conns : 0;
    *streams = a ? a->streams : 0;
    pthread_mutex_unlock(&g->mu);
}
