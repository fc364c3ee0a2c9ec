/*
 * ratelimit.h — how fast one client may ask, and who the client is.
 *
 * Every client address has two token buckets, one for reads (GET, HEAD:
 * pages, files, lists, live streams at connect) and one for writes (every
 * other method).  A bucket holds at most BURST tokens and gains RATE tokens
 * per second; a request takes one token or, when none is left, is refused
 * with the time until the next token.  The defaults (RATELIMIT_DEFAULT_*)
 * leave a real venue alone: a tablet moves a few times a second at most, a
 * desk user clicks, the public reloads pages; they stop one address from
 * flooding the server.
 *
 * The buckets live in a fixed table (RATELIMIT_ENTRIES by default, a few MB)
 * so memory stays bounded whatever the number of addresses: the table is
 * set-associative (8 entries per set, chosen by a keyed hash of the
 * address), and a new address takes the least recently seen entry of its
 * set.  An evicted address starts again with a full bucket, which only
 * matters when more addresses than entries are active at once.  Each set is
 * guarded by one of 256 striped mutexes, held for a few dozen instructions.
 *
 * Addresses are kept as 16 bytes: IPv6 as is, IPv4 as ::ffff:a.b.c.d.
 * The trusted proxies (ProxyList) are the peers whose X-Forwarded-For is
 * believed (security.c uses them to find the client's address).
 *
 * The bucket arithmetic takes the time as an argument (milliseconds on any
 * monotonic clock), so it is deterministic and tested without sleeping.
 */
#ifndef ARBITER_SERVER_RATELIMIT_H
#define ARBITER_SERVER_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

enum {
    RATELIMIT_E_SYNTAX = 1, /* a rule or an address that does not parse */
    RATELIMIT_E_FULL,       /* too many trusted proxies */
};

enum {
    RATELIMIT_ENTRIES = 65536,
    RATELIMIT_MAX_PROXIES = 16,
    /* Per address: writes 20/s with bursts of 40, reads five times that. */
    RATELIMIT_DEFAULT_WRITE_RATE = 20,
    RATELIMIT_DEFAULT_WRITE_BURST = 40,
    RATELIMIT_READ_FACTOR = 5,
};

/* RATE tokens per second (in thousandths, so 0.5/s can be said), at most
 * BURST tokens held.  milli_per_s == 0 means no limit. */
typedef struct RateRule {
    int64_t milli_per_s;
    int64_t burst;
} RateRule;

/* A bucket: its tokens in millionths, as of last_ms. */
typedef struct TokenBucket {
    int64_t micro;
    int64_t last_ms;
} TokenBucket;

/* A full bucket as of NOW_MS. */
void ratelimit_bucket_init(TokenBucket *b, const RateRule *rule, int64_t now_ms);
/* Refills B up to NOW_MS (a time before last_ms adds nothing) and takes one
 * token.  Returns 0 when taken, else the milliseconds until a token will be
 * there (B then keeps what it had). */
int64_t ratelimit_bucket_take(TokenBucket *b, const RateRule *rule, int64_t now_ms);

/* Parses "RATE[,BURST]" (RATE a decimal number of requests per second,
 * BURST a whole number, by default twice RATE and at least 1) into OUT;
 * "0" is no limit.  Returns 0, or RATELIMIT_E_SYNTAX with a message in ERR. */
int ratelimit_rule_parse(const char *text, RateRule *out, char *err, size_t errlen);

typedef struct RateLimiter RateLimiter;

/* A table of about ENTRIES addresses (rounded up to a power of two, at
 * least 8; 0 means RATELIMIT_ENTRIES) with the READ and WRITE rules.
 * Returns NULL when out of memory.  Free with ratelimit_free. */
RateLimiter *ratelimit_new(const RateRule *read, const RateRule *write, unsigned entries);
void ratelimit_free(RateLimiter *rl);
/* One request from the address KEY at NOW_MS: 0 to serve it, else the
 * milliseconds until the address may ask again.  Thread-safe. */
int64_t ratelimit_check(RateLimiter *rl, const unsigned char key[16], int write, int64_t now_ms);
/* The rule of writes (WRITE nonzero) or reads. */
const RateRule *ratelimit_rule(const RateLimiter *rl, int write);
/* How many addresses the table holds now (for tests). */
unsigned ratelimit_count(RateLimiter *rl);

/* The 16-byte key of a textual IPv4 or IPv6 address ("[::1]" allowed).
 * Returns 0 or RATELIMIT_E_SYNTAX. */
int ratelimit_addr_parse(const char *text, unsigned char key[16]);
/* The key of a socket address; 0, or RATELIMIT_E_SYNTAX for another family. */
int ratelimit_addr_of(const struct sockaddr *sa, unsigned char key[16]);
/* The key as text (IPv4 dotted for mapped addresses); OUT of at least 46. */
void ratelimit_addr_text(const unsigned char key[16], char *out, size_t outlen);
/* Whether KEY is a loopback address (127/8 or ::1). */
int ratelimit_addr_loopback(const unsigned char key[16]);

typedef struct ProxyList {
    int n;
    unsigned char addr[RATELIMIT_MAX_PROXIES][16];
} ProxyList;

/* Adds the addresses of the comma-separated LIST.  Returns 0, or
 * RATELIMIT_E_SYNTAX / RATELIMIT_E_FULL with a message in ERR. */
int ratelimit_proxies_add(ProxyList *pl, const char *list, char *err, size_t errlen);
/* Whether KEY is one of PL's addresses (PL may be NULL: none). */
int ratelimit_proxies_has(const ProxyList *pl, const unsigned char key[16]);

#endif
