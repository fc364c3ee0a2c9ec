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
#include "sha256.h"
#include "teams.h"
#include "users.h"

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

int auth_pin_hash(Store *s, int64_t tournament_id, const char *pin, char out[65])
{
    unsigned char key[32];
    int rc = sessions_pin_key(s, key);
    if (rc)
        return rc;
    char buf[96];
    int n = snprintf(buf, sizeof buf, "pin:%lld:%s", (long long)tournament_id, pin);
    sha256_hmac_hex(key, sizeof key, buf, (size_t)n, out);
    return 0;
}

void auth_pin_hash_legacy(int64_t tournament_id, const char *pin, char out[65])
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "pin:%lld:%s", (long long)tournament_id, pin);
    sha256_hex(buf, (size_t)n, out);
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

/* A hash of a random password with the same cost as a real one: an
 * unknown username is checked against it. */
static char dummy_hash[256];
static pthread_once_t dummy_once = PTHREAD_ONCE_INIT;

static void dummy_make(void)
{
    char pw[33];
    if (auth_random_hex(pw, 16) || auth_password_hash(pw, dummy_hash, sizeof dummy_hash))
        dummy_hash[0] = 0;
}

int auth_password_check(const char *password, const char *hash)
{
    /* Made on the first check of any kind, so that even the first
     * unknown name takes no longer than a known one. */
    pthread_once(&dummy_once, dummy_make);
    int real = hash != NULL;
    if (!real)
        hash = dummy_hash;
    struct crypt_data *cd = calloc(1, sizeof *cd);
    if (!cd)
        return 0;
    char *h = crypt_r(password, hash, cd);
    int ok = h && h[0] == '$' && strcmp(h, hash) == 0;
    free(cd);
    return real && ok;
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
enum { CACHE_SETS = 4096, CACHE_WAYS = 4, CACHE_LOCKS = 16, CACHE_TTL_MS = 10000, SECRET_MAX = 96 };

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
            http_error(r, API_E_CSRF,
                       "a request made with the session cookie must carry the "
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
    sha256_hex(secret, strlen(secret), hash);
    if (bearer) {
        if (sessions_lookup_token(s, hash, &r->auth.player_id, &r->auth.tournament_id) > 0)
            r->auth.role = ROLE_PLAYER;
        else if (teams_lookup_token(s, hash, &r->auth.team_id, &r->auth.tournament_id) > 0)
            r->auth.role = ROLE_CAPTAIN;
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

int auth_require_change(Req *r, int64_t tid, int64_t gid)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), -1;
    if (users_may_change(s, r->auth.user_id, tid, gid))
        return 0;
    http_error(r, API_E_FORBIDDEN,
               "you may read this tournament but not change it: its chief arbiter "
               "assigns its arbiters");
    return -1;
}

int auth_require_chief(Req *r, int64_t tid)
{
    if (auth_require_arbiter(r))
        return -1;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), -1;
    if (users_is_chief(s, r->auth.user_id, tid))
        return 0;
    http_error(r, API_E_FORBIDDEN,
               "only the tournament's chief arbiter (who created it) or an "
               "administrator assigns its arbiters");
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

int auth_require_captain(Req *r, int64_t tid, int64_t team)
{
    if (r->auth.role == ROLE_ARBITER ||
        (r->auth.role == ROLE_CAPTAIN && r->auth.team_id == team && r->auth.tournament_id == tid))
        return 0;
    if (r->auth.role == ROLE_ANON)
        http_error(r, API_E_UNAUTHORIZED, "sign in as the team's captain or an arbiter first");
    else
        http_error(r, API_E_FORBIDDEN, "only this team's captain or an arbiter may do this");
    return -1;
}
