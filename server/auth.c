/*
 * auth.c — sessions, credentials, CSRF, and the hashes they need.  The
 * queries are db/sessions.h's; this file hashes, caches and decides.
 */
#include "auth.h"

#include <crypt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "errors.h"
#include "security.h"
#include "sessions.h"

/* ---- SHA-256 (FIPS 180-4), for looking up 256-bit random secrets ---- */

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void auth_sha256_hex(const void *data, size_t len, char out[65])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const unsigned char *p = data;
    size_t n = len;
    while (n >= 64) {
        block(h, p);
        p += 64;
        n -= 64;
    }
    unsigned char tail[128] = {0};
    memcpy(tail, p, n);
    tail[n] = 0x80;
    size_t tl = n + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tl - 1 - i] = (unsigned char)(bits >> (8 * i));
    block(h, tail);
    if (tl == 128)
        block(h, tail + 64);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", h[i]);
}

int auth_random_hex(char *out, size_t nbytes)
{
    unsigned char buf[64];
    if (nbytes > sizeof buf || getrandom(buf, nbytes, 0) != (ssize_t)nbytes)
        return -1;
    for (size_t i = 0; i < nbytes; i++)
        snprintf(out + 2 * i, 3, "%02x", buf[i]);
    return 0;
}

int auth_random_pin(char *out, int digits)
{
    unsigned char buf[16];
    if (digits > 16 || getrandom(buf, (size_t)digits, 0) != digits)
        return -1;
    for (int i = 0; i < digits; i++)
        out[i] = (char)('0' + buf[i] % 10); /* bias of 6/256 is irrelevant for a PIN */
    out[digits] = 0;
    return 0;
}

void auth_pin_hash(int64_t tournament_id, const char *pin, char out[65])
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "pin:%lld:%s", (long long)tournament_id, pin);
    auth_sha256_hex(buf, (size_t)n, out);
}

int auth_password_hash(const char *password, char *out, size_t outlen)
{
    char *salt = crypt_gensalt_ra("$y$", 0, NULL, 0);
    if (!salt)
        return -1;
    struct crypt_data *cd = calloc(1, sizeof *cd);
    int rc = -1;
    if (cd) {
        char *h = crypt_r(password, salt, cd);
        if (h && h[0] == '$' && strlen(h) < outlen) {
            strcpy(out, h);
            rc = 0;
        }
        free(cd);
    }
    free(salt);
    return rc;
}

int auth_password_check(const char *password, const char *hash)
{
    struct crypt_data *cd = calloc(1, sizeof *cd);
    if (!cd)
        return 0;
    char *h = crypt_r(password, hash, cd);
    int ok = h && h[0] == '$' && strcmp(h, hash) == 0;
    free(cd);
    return ok;
}

/* ---- resolving the caller ---- */

/* ---- a cache of resolved secrets ----
 *
 * A tablet sends the same secret with every request; hashing it and asking
 * SQLite each time was an eighth of the cost of a move.  A slot remembers
 * what a secret resolved to for at most CACHE_TTL_MS (so a change made by
 * another process, e.g. `arbiter user`, is seen within that time), never
 * past the session's expiry, and only while no write that may touch
 * sessions or credentials has committed since: auth_cache_forget() moves
 * the generation on after every committed write but the game actions.
 * Unknown secrets are not cached (a wrong token costs a lookup as before).
 * A secret's set is chosen by a hash seeded at random at start; the secret
 * itself is the key, compared in constant time.  A set has CACHE_WAYS
 * slots: with one slot per hash, 2,000 tablets in 4,096 slots left four in
 * ten sharing a slot with another and missing nearly every time. */
enum { CACHE_SETS = 4096, CACHE_WAYS = 4, CACHE_LOCKS = 16, CACHE_TTL_MS = 10000,
       SECRET_MAX = 96 };

typedef struct CacheSlot {
    char secret[SECRET_MAX];
    size_t len;
    char kind; /* 'b' bearer token, 'c' cookie; 0 = empty */
    uint64_t gen;
    int64_t until_ms;
    Auth auth;
} CacheSlot;

static CacheSlot cache[CACHE_SETS][CACHE_WAYS];
static pthread_mutex_t cache_lock[CACHE_LOCKS] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER};
static _Atomic uint64_t cache_gen = 1;
static _Atomic uint64_t cache_seed;

void auth_cache_forget(void)
{
    atomic_fetch_add(&cache_gen, 1);
}

static size_t set_of(const char *secret, size_t len, char kind)
{
    uint64_t seed = atomic_load(&cache_seed);
    if (!seed) {
        uint64_t v = 0;
        if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
            v = (uint64_t)(uintptr_t)&v;
        v |= 1;
        uint64_t zero = 0;
        atomic_compare_exchange_strong(&cache_seed, &zero, v);
        seed = atomic_load(&cache_seed);
    }
    uint64_t h = seed ^ (uint64_t)(unsigned char)kind;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)secret[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 40) % CACHE_SETS;
}

static int same_secret(const CacheSlot *c, const char *secret, size_t len, char kind)
{
    if (c->kind != kind || c->len != len)
        return 0;
    unsigned char d = 0;
    for (size_t i = 0; i < len; i++)
        d |= (unsigned char)(c->secret[i] ^ secret[i]);
    return d == 0;
}

/* 1 and *OUT when SECRET of KIND is cached and still valid at NOW. */
static int cache_get(const char *secret, char kind, int64_t now, Auth *out)
{
    size_t len = strlen(secret);
    if (len >= SECRET_MAX)
        return 0;
    size_t i = set_of(secret, len, kind);
    pthread_mutex_t *m = &cache_lock[i % CACHE_LOCKS];
    int hit = 0;
    pthread_mutex_lock(m);
    for (int w = 0; w < CACHE_WAYS && !hit; w++) {
        const CacheSlot *c = &cache[i][w];
        hit = same_secret(c, secret, len, kind) && c->gen == atomic_load(&cache_gen) &&
              now < c->until_ms;
        if (hit)
            *out = c->auth;
    }
    pthread_mutex_unlock(m);
    return hit;
}

/* Remembers that SECRET resolved to A, as of generation GEN (read before
 * the lookup, so a write committed meanwhile makes the slot stale).  The
 * slot is the secret's own if it has one, else an empty or outdated one,
 * else the one filled longest ago (the earliest expiry). */
static void cache_put(const char *secret, char kind, uint64_t gen, int64_t now, int64_t until,
                      const Auth *a)
{
    size_t len = strlen(secret);
    if (len >= SECRET_MAX)
        return;
    size_t i = set_of(secret, len, kind);
    pthread_mutex_t *m = &cache_lock[i % CACHE_LOCKS];
    pthread_mutex_lock(m);
    CacheSlot *c = NULL;
    for (int w = 0; w < CACHE_WAYS && !c; w++)
        if (same_secret(&cache[i][w], secret, len, kind))
            c = &cache[i][w];
    for (int w = 0; w < CACHE_WAYS && !c; w++) {
        CacheSlot *x = &cache[i][w];
        if (!x->kind || x->gen != atomic_load(&cache_gen) || now >= x->until_ms)
            c = x;
    }
    if (!c) {
        c = &cache[i][0];
        for (int w = 1; w < CACHE_WAYS; w++)
            if (cache[i][w].until_ms < c->until_ms)
                c = &cache[i][w];
    }
    memcpy(c->secret, secret, len);
    c->len = len;
    c->kind = kind;
    c->gen = gen;
    c->until_ms = until;
    c->auth = *a;
    pthread_mutex_unlock(m);
}

static int csrf_check(Req *r)
{
    /* An unknown or expired cookie is just anonymous: the browser may keep
     * an old one. */
    if (r->auth.role != ROLE_ANON && r->method != HTTP_GET && r->method != HTTP_HEAD) {
        const char *t = http_header(r, "X-CSRF-Token");
        if (!t || strcmp(t, r->auth.csrf) != 0) {
            http_error(r, API_E_CSRF, "a request made with the session cookie must carry the "
                                      "X-CSRF-Token header given at sign-in");
            return -1;
        }
        if (security_origin_check(r))
            return -1;
    }
    return 0;
}

int auth_resolve(Req *r)
{
    memset(&r->auth, 0, sizeof r->auth);
    const char *bearer = http_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *cookie = MHD_lookup_connection_value(r->conn, MHD_COOKIE_KIND, AUTH_COOKIE);
    if (!bearer && !cookie)
        return 0;
    if (bearer && strncasecmp(bearer, "Bearer ", 7) != 0) {
        http_error(r, API_E_UNAUTHORIZED, "the Authorization header must be 'Bearer TOKEN'");
        return -1;
    }
    const char *secret = bearer ? bearer + 7 : cookie;
    char kind = bearer ? 'b' : 'c';
    int64_t now = store_now_ms();
    if (cache_get(secret, kind, now, &r->auth))
        return bearer ? 0 : csrf_check(r);
    uint64_t gen = atomic_load(&cache_gen);
    Store *s = http_reader(r->srv);
    if (!s) {
        http_error(r, API_E_INTERNAL, "the store is not available");
        return -1;
    }
    char hash[65];
    auth_sha256_hex(secret, strlen(secret), hash);
    if (bearer) {
        if (sessions_lookup_token(s, hash, &r->auth.player_id, &r->auth.tournament_id) > 0)
            r->auth.role = ROLE_PLAYER;
        if (r->auth.role == ROLE_ANON) {
            http_error(r, API_E_UNAUTHORIZED,
                       "this token is not valid (it may have been replaced)");
            return -1;
        }
        cache_put(secret, kind, gen, now, now + CACHE_TTL_MS, &r->auth);
        return 0;
    }
    SessionsCaller c;
    int64_t expires = 0;
    if (sessions_lookup(s, hash, now, &c) > 0) {
        r->auth.by_cookie = 1;
        snprintf(r->auth.csrf, sizeof r->auth.csrf, "%s", c.csrf);
        if (c.user_id) {
            r->auth.role = ROLE_ARBITER;
            r->auth.user_id = c.user_id;
            snprintf(r->auth.username, sizeof r->auth.username, "%s", c.username);
        } else {
            r->auth.role = ROLE_PLAYER;
            r->auth.player_id = c.player_id;
            r->auth.tournament_id = c.tournament_id;
        }
        expires = c.expires_ms;
    }
    if (r->auth.role != ROLE_ANON) {
        int64_t until = expires < now + CACHE_TTL_MS ? expires : now + CACHE_TTL_MS;
        cache_put(secret, kind, gen, now, until, &r->auth);
    }
    return csrf_check(r);
}

int auth_require_arbiter(Req *r)
{
    if (r->auth.role == ROLE_ARBITER)
        return 0;
    if (r->auth.role == ROLE_ANON)
        http_error(r, API_E_UNAUTHORIZED, "sign in as an arbiter first");
    else
        http_error(r, API_E_FORBIDDEN, "only an arbiter may do this");
    return -1;
}

int auth_require_player(Req *r)
{
    if (r->auth.role == ROLE_PLAYER)
        return 0;
    if (r->auth.role == ROLE_ANON)
        http_error(r, API_E_UNAUTHORIZED, "sign in on the board's tablet first");
    else
        http_error(r, API_E_FORBIDDEN, "only the players of the game may do this");
    return -1;
}
