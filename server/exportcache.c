/*
 * exportcache.c — the in-memory cache of rendered heavy-read answers.
 * See exportcache.h.
 *
 * Invariants: the table and every entry's bytes belong to the cache and
 * change only under its mutex; a hit copies the body out, so a dropped
 * entry never frees what a connection still sends.  Content types are the
 * routes' string literals and are kept as pointers.
 *
 * Workload: a linear scan of at most EXPORTCACHE_ENTRIES keys per look-up,
 * negligible next to the rendering a hit saves (a 400-player tournament's
 * PGN takes tens of milliseconds).
 */
#include "exportcache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed.h"

enum { MAX_HDR = 8 };

typedef struct Entry {
    char *key; /* NULL: a free slot */
    char *out;
    size_t len;
    const char *ctype;
    char *hdr[MAX_HDR][2];
    int nhdr;
    uint64_t used; /* the tick of the last hit or store: the LRU order */
} Entry;

static struct {
    pthread_mutex_t mu;
    Entry e[EXPORTCACHE_ENTRIES];
    size_t bytes;
    uint64_t tick;
} cache = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* Appends the query's NAME=VALUE& to the key (MHD's iterator). */
typedef struct KeyBuf {
    char *p;
    size_t len, cap;
    int over;
} KeyBuf;

static void key_add(KeyBuf *k, const char *a, const char *b, const char *c)
{
    int n = snprintf(k->p + k->len, k->cap - k->len, "%s%s%s", a, b ? b : "", c);
    if (n < 0 || (size_t)n >= k->cap - k->len)
        k->over = 1;
    else
        k->len += (size_t)n;
}

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *name,
                                 const char *value)
{
    (void)kind;
    KeyBuf *k = cls;
    key_add(k, name, "=", "");
    key_add(k, value ? value : "", "&", "");
    return k->over ? MHD_NO : MHD_YES;
}

int exportcache_key(Req *r, char *key)
{
    if (!r->conn || !r->srv || !r->srv->writer || r->id[0] <= 0)
        return 0;
    /* The ratings and norms read FIDE's register too, which `arbiter fide
     * import` loads from another process: no commit of ours marks that. */
    const char *route = r->route ? r->route : "";
    if (strstr(route, "/ratings") || strstr(route, "/norms"))
        return 0;
    int arbiter = r->auth.role == ROLE_ARBITER;
    if (!arbiter && r->auth.role != ROLE_ANON)
        return 0;
    if (!arbiter) {
        Store *s = http_reader(r->srv);
        if (!s || feed_delay_ms(s, r->id[0], 0) > 0)
            return 0;
    }
    uint64_t jobs, batches, run_us, commit_us;
    writer_counts(r->srv->writer, &jobs, &batches, &run_us, &commit_us);
    KeyBuf k = {key, 0, EXPORTCACHE_KEY, 0};
    char head[64];
    snprintf(head, sizeof head, "%llu %c ", (unsigned long long)batches, arbiter ? 'A' : 'P');
    key_add(&k, head, r->url, "?");
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_arg, &k);
    return !k.over;
}

static void entry_clear(Entry *e)
{
    if (e->key)
        cache.bytes -= e->len + strlen(e->key);
    free(e->key);
    free(e->out);
    for (int i = 0; i < e->nhdr; i++) {
        free(e->hdr[i][0]);
        free(e->hdr[i][1]);
    }
    memset(e, 0, sizeof *e);
}

static Entry *find(const char *key)
{
    for (int i = 0; i < EXPORTCACHE_ENTRIES; i++)
        if (cache.e[i].key && strcmp(cache.e[i].key, key) == 0)
            return &cache.e[i];
    return NULL;
}

int exportcache_serve(Req *r, const char *key)
{
    if (http_header(r, "If-None-Match") || http_header(r, "If-Modified-Since"))
        return 0;
    pthread_mutex_lock(&cache.mu);
    Entry *e = find(key);
    char *out = e ? malloc(e->len ? e->len : 1) : NULL;
    if (out) {
        memcpy(out, e->out, e->len);
        e->used = ++cache.tick;
        free(r->out);
        r->out = out;
        r->out_len = e->len;
        r->ctype = e->ctype;
        r->status = 200;
        for (int i = 0; i < e->nhdr; i++)
            http_add_header(r, e->hdr[i][0], e->hdr[i][1]);
    }
    pthread_mutex_unlock(&cache.mu);
    if (out)
        http_add_header(r, "X-Cache", "hit");
    return out != NULL;
}

/* The slot for a new entry of SIZE bytes: a free one, else the least
 * recently used, after dropping old entries until SIZE fits. */
static Entry *make_room(size_t size)
{
    for (;;) {
        Entry *free_slot = NULL, *oldest = NULL;
        for (int i = 0; i < EXPORTCACHE_ENTRIES; i++) {
            Entry *e = &cache.e[i];
            if (!e->key)
                free_slot = free_slot ? free_slot : e;
            else if (!oldest || e->used < oldest->used)
                oldest = e;
        }
        if (free_slot && cache.bytes + size <= EXPORTCACHE_BYTES)
            return free_slot;
        if (!oldest)
            return free_slot;
        entry_clear(oldest);
    }
}

void exportcache_put(const Req *r, const char *key, int first_hdr)
{
    if (r->status != 200 || !r->out || r->resp || r->out_len > EXPORTCACHE_BYTES / 4)
        return;
    Entry n = {.key = strdup(key),
               .out = malloc(r->out_len ? r->out_len : 1),
               .len = r->out_len,
               .ctype = r->ctype};
    int ok = n.key && n.out;
    for (int i = first_hdr; ok && i < r->nhdr && n.nhdr < MAX_HDR; i++, n.nhdr++) {
        n.hdr[n.nhdr][0] = strdup(r->hdr[i][0]);
        n.hdr[n.nhdr][1] = strdup(r->hdr[i][1]);
        ok = n.hdr[n.nhdr][0] && n.hdr[n.nhdr][1];
    }
    if (!ok) {
        free(n.key); /* n is not counted in cache.bytes */
        n.key = NULL;
        entry_clear(&n);
        return;
    }
    memcpy(n.out, r->out, r->out_len);
    pthread_mutex_lock(&cache.mu);
    Entry *old = find(key);
    if (old)
        entry_clear(old);
    Entry *slot = make_room(n.len + strlen(n.key));
    n.used = ++cache.tick;
    cache.bytes += n.len + strlen(n.key);
    *slot = n;
    pthread_mutex_unlock(&cache.mu);
}

void exportcache_clear(void)
{
    pthread_mutex_lock(&cache.mu);
    for (int i = 0; i < EXPORTCACHE_ENTRIES; i++)
        entry_clear(&cache.e[i]);
    pthread_mutex_unlock(&cache.mu);
}
