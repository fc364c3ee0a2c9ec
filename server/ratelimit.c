/*
 * ratelimit.c — token buckets per client address in a bounded table, and
 * client address keys.  See ratelimit.h.
 *
 * Workload: one ratelimit_check per HTTP request (thousands per second):
 * a hash, one striped mutex, a scan of 8 entries.  The table is allocated
 * once (about 4 MB for 65,536 entries) and never grows.
 */
#include "ratelimit.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

enum { WAYS = 8, STRIPES = 256 };
static const int64_t MICRO = 1000000;

void ratelimit_bucket_init(TokenBucket *b, const RateRule *rule, int64_t now_ms)
{
    b->micro = rule->burst * MICRO;
    b->last_ms = now_ms;
}

int64_t ratelimit_bucket_take(TokenBucket *b, const RateRule *rule, int64_t now_ms)
{
    if (rule->milli_per_s <= 0)
        return 0;
    int64_t cap = rule->burst * MICRO;
    if (now_ms > b->last_ms) {
        /* milli_per_s thousandths of a token per second are as many
         * millionths per millisecond.  The product is only formed when it
         * stays below the room left, so it cannot overflow. */
        int64_t dt = now_ms - b->last_ms, room = cap - b->micro;
        if (room <= 0 || dt > room / rule->milli_per_s)
            b->micro = cap;
        else
            b->micro += dt * rule->milli_per_s;
        b->last_ms = now_ms;
    }
    if (b->micro >= MICRO) {
        b->micro -= MICRO;
        return 0;
    }
    return (MICRO - b->micro + rule->milli_per_s - 1) / rule->milli_per_s;
}

int ratelimit_rule_parse(const char *text, RateRule *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double rate = strtod(text, &end);
    if (end == text || errno || !(rate >= 0 && rate <= 1e6) || (*end && *end != ',')) {
        snprintf(err, errlen,
                 "wants RATE[,BURST] with RATE requests per second from 0 (no "
                 "limit) to 1000000, got '%s'",
                 text);
        return RATELIMIT_E_SYNTAX;
    }
    int64_t milli = (int64_t)(rate * 1000 + 0.5);
    if (rate > 0 && milli == 0) {
        snprintf(err, errlen, "a rate of '%s' per second is too small (at least 0.001)", text);
        return RATELIMIT_E_SYNTAX;
    }
    long long burst = (long long)((milli * 2 + 999) / 1000);
    if (burst < 1)
        burst = 1;
    if (*end == ',') {
        const char *b = end + 1;
        errno = 0;
        burst = strtoll(b, &end, 10);
        if (end == b || *end || errno || burst < 1 || burst > 1000000000) {
            snprintf(err, errlen,
                     "wants a BURST of 1 to 1000000000 requests after the comma, "
                     "got '%s'",
                     text);
            return RATELIMIT_E_SYNTAX;
        }
    }
    out->milli_per_s = milli;
    out->burst = milli ? burst : 0;
    return 0;
}

/* ---- the table ---- */

typedef struct Entry {
    unsigned char key[16];
    int used;
    int64_t seen_ms;
    TokenBucket read, write;
} Entry;

struct RateLimiter {
    RateRule read, write;
    unsigned nsets;
    uint64_t seed;
    pthread_mutex_t locks[STRIPES];
    Entry *entries; /* nsets * WAYS */
};

RateLimiter *ratelimit_new(const RateRule *read, const RateRule *write, unsigned entries)
{
    if (entries == 0)
        entries = RATELIMIT_ENTRIES;
    unsigned nsets = 1;
    while (nsets * WAYS < entries && nsets < (1u << 24))
        nsets <<= 1;
    RateLimiter *rl = calloc(1, sizeof *rl);
    if (!rl)
        return NULL;
    rl->entries = calloc((size_t)nsets * WAYS, sizeof *rl->entries);
    if (!rl->entries) {
        free(rl);
        return NULL;
    }
    rl->read = *read;
    rl->write = *write;
    rl->nsets = nsets;
    /* A secret seed: an attacker who picks addresses cannot aim them all at
     * one set to push a victim out. */
    if (getrandom(&rl->seed, sizeof rl->seed, GRND_NONBLOCK) != (ssize_t)sizeof rl->seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        rl->seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)rl;
    }
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_init(&rl->locks[i], NULL);
    return rl;
}

void ratelimit_free(RateLimiter *rl)
{
    if (!rl)
        return;
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_destroy(&rl->locks[i]);
    free(rl->entries);
    free(rl);
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_key(uint64_t seed, const unsigned char key[16])
{
    uint64_t a, b;
    memcpy(&a, key, 8);
    memcpy(&b, key + 8, 8);
    return mix(mix(a ^ seed) ^ b);
}

int64_t ratelimit_check(RateLimiter *rl, const unsigned char key[16], int write, int64_t now_ms)
{
    const RateRule *rule = write ? &rl->write : &rl->read;
    if (rule->milli_per_s <= 0)
        return 0;
    unsigned set = (unsigned)(hash_key(rl->seed, key) & (rl->nsets - 1));
    pthread_mutex_t *mu = &rl->locks[set % STRIPES];
    Entry *ways = &rl->entries[(size_t)set * WAYS], *e = NULL, *victim = NULL;
    pthread_mutex_lock(mu);
    for (int i = 0; i < WAYS && !e; i++) {
        Entry *w = &ways[i];
        if (!w->used) {
            if (!victim || victim->used)
                victim = w;
        } else if (memcmp(w->key, key, 16) == 0) {
            e = w;
        } else if (!victim || (victim->used && w->seen_ms < victim->seen_ms)) {
            victim = w;
        }
    }
    if (!e) {
        /* The least recently seen address of the set gives way; one idle
         * for BURST/RATE seconds had a full bucket anyway. */
        e = victim;
        memcpy(e->key, key, 16);
        e->used = 1;
        ratelimit_bucket_init(&e->read, &rl->read, now_ms);
        ratelimit_bucket_init(&e->write, &rl->write, now_ms);
    }
    if (now_ms > e->seen_ms)
        e->seen_ms = now_ms;
    int64_t wait = ratelimit_bucket_take(write ? &e->write : &e->read, rule, now_ms);
    pthread_mutex_unlock(mu);
    return wait;
}

const RateRule *ratelimit_rule(const RateLimiter *rl, int write)
{
    return write ? &rl->write : &rl->read;
}

unsigned ratelimit_count(RateLimiter *rl)
{
    unsigned n = 0;
    for (unsigned s = 0; s < rl->nsets; s++) {
        pthread_mutex_lock(&rl->locks[s % STRIPES]);
        for (int i = 0; i < WAYS; i++)
            n += rl->entries[(size_t)s * WAYS + (size_t)i].used != 0;
        pthread_mutex_unlock(&rl->locks[s % STRIPES]);
    }
    return n;
}

/* ---- addresses ---- */

static void mapped_v4(const void *in4, unsigned char key[16])
{
    memset(key, 0, 10);
    key[10] = key[11] = 0xff;
    memcpy(key + 12, in4, 4);
}

static int is_mapped(const unsigned char key[16])
{
    static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(key, prefix, 12) == 0;
}

int ratelimit_addr_parse(const char *text, unsigned char key[16])
{
    char buf[64];
    size_t n = strlen(text);
    if (n >= 2 && text[0] == '[' && text[n - 1] == ']') {
        text++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof buf)
        return RATELIMIT_E_SYNTAX;
    memcpy(buf, text, n);
    buf[n] = 0;
    struct in_addr a4;
    if (inet_pton(AF_INET, buf, &a4) == 1) {
        mapped_v4(&a4, key);
        return 0;
    }
    if (inet_pton(AF_INET6, buf, key) == 1)
        return 0;
    return RATELIMIT_E_SYNTAX;
}

int ratelimit_addr_of(const struct sockaddr *sa, unsigned char key[16])
{
    if (sa->sa_family == AF_INET) {
        mapped_v4(&((const struct sockaddr_in *)sa)->sin_addr, key);
        return 0;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return 0;
    }
    return RATELIMIT_E_SYNTAX;
}

void ratelimit_addr_text(const unsigned char key[16], char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    const char *ok = is_mapped(key) ? inet_ntop(AF_INET, key + 12, out, (socklen_t)outlen)
                                    : inet_ntop(AF_INET6, key, out, (socklen_t)outlen);
    if (!ok)
        out[0] = 0;
}

int ratelimit_addr_loopback(const unsigned char key[16])
{
    static const unsigned char one[16] = {[15] = 1};
    return (is_mapped(key) && key[12] == 127) || memcmp(key, one, 16) == 0;
}

int ratelimit_proxies_add(ProxyList *pl, const char *list, char *err, size_t errlen)
{
    const char *p = list;
    for (;;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, ",");
        while (n > 0 && p[n - 1] == ' ')
            n--;
        char item[64];
        unsigned char key[16];
        snprintf(item, sizeof item, "%.*s", (int)(n < 63 ? n : 63), p);
        if (n == 0 || n >= sizeof item || ratelimit_addr_parse(item, key)) {
            snprintf(err, errlen, "wants IPv4 or IPv6 addresses separated by commas, got '%s'",
                     list);
            return RATELIMIT_E_SYNTAX;
        }
        if (!ratelimit_proxies_has(pl, key)) {
            if (pl->n >= RATELIMIT_MAX_PROXIES) {
                snprintf(err, errlen, "at most %d trusted proxies", RATELIMIT_MAX_PROXIES);
                return RATELIMIT_E_FULL;
            }
            memcpy(pl->addr[pl->n++], key, 16);
        }
        p += strcspn(p, ",");
        if (!*p)
            return 0;
        p++;
    }
}

int ratelimit_proxies_has(const ProxyList *pl, const unsigned char key[16])
{
    for (int i = 0; pl && i < pl->n; i++)
        if (memcmp(pl->addr[i], key, 16) == 0)
            return 1;
    return 0;
}
