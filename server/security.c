/*
 * security.c — who the client is, the request rate limit, the sign-in
 * throttle, security headers, Origin check.  See security.h.
 *
 * Workload: the rate limit sees every request (one table look-up, see
 * ratelimit.c); the throttle sees only sign-ins (rare); the headers are added to
 * every answer (a few constant strings); a page's policy reads the page
 * (a few KB) when it is served.
 */
#include "security.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "errors.h"
#include "sha256.h"
#include "store.h"
#include "throttle.h"

enum { FORGET_MS = 15 * 60 * 1000, PAGE_MAX = 256 * 1024 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* The client of R as a ratelimit key.  Returns 1 for a local program (a
 * loopback peer whose address no trusted proxy forwarded), 0 for another
 * client, -1 when there is no address (an in-process request). */
static int client_key(Req *r, unsigned char key[16])
{
    if (!r->conn) /* a request made in-process (the request fuzzer) */
        return -1;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !ci->client_addr || ratelimit_addr_of(ci->client_addr, key))
        return -1;
    if (ratelimit_proxies_has(r->srv->proxies, key)) {
        /* The last hop is the address the proxy itself saw; any earlier
         * ones are the client's own say. */
        const char *xff = http_header(r, "X-Forwarded-For");
        if (xff && *xff) {
            const char *last = strrchr(xff, ',');
            last = last ? last + 1 : xff;
            last += strspn(last, " \t");
            char text[64];
            snprintf(text, sizeof text, "%.*s", (int)strcspn(last, " \t"), last);
            if (ratelimit_addr_parse(text, key) == 0)
                return 0;
        }
    }
    return ratelimit_addr_loopback(key);
}

/* 1 when R's peer is one of the trusted proxies. */
static int from_trusted_proxy(Req *r)
{
    if (!r->conn || !r->srv)
        return 0;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    unsigned char key[16];
    return ci && ci->client_addr && ratelimit_addr_of(ci->client_addr, key) == 0 &&
           ratelimit_proxies_has(r->srv->proxies, key);
}

int security_client_address(Req *r, char *out, size_t outlen)
{
    unsigned char key[16];
    int rc = client_key(r, key);
    if (rc != 0) {
        snprintf(out, outlen, "local");
        return rc > 0 || !r->conn;
    }
    ratelimit_addr_text(key, out, outlen);
    return 0;
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int security_rate_check(Req *r)
{
    unsigned char key[16];
    if (!r->srv->limiter || client_key(r, key) < 0)
        return 0;
    int write = r->method != HTTP_GET && r->method != HTTP_HEAD;
    int64_t wait_ms = ratelimit_check(r->srv->limiter, key, write, mono_ms());
    if (wait_ms <= 0)
        return 0;
    const RateRule *rule = ratelimit_rule(r->srv->limiter, write);
    char secs[24];
    snprintf(secs, sizeof secs, "%lld", (long long)((wait_ms + 999) / 1000));
    http_add_header(r, "Retry-After", secs);
    http_error(r, API_E_RATE_LIMITED,
               "too many %s from this address (more than %g per second, bursts of %lld); "
               "try again in %s s",
               write ? "changes" : "requests", (double)rule->milli_per_s / 1000,
               (long long)rule->burst, secs);
    return -1;
}

int security_stream_admit(Req *r)
{
    unsigned char key[16];
    if (client_key(r, key) < 0)
        return 0;
    unsigned cap = http_stream_slot(r, key);
    if (!cap)
        return 0;
    http_add_header(r, "Retry-After", "10");
    http_error(r, API_E_STREAMS,
               "this address has %u live streams open already, the most one address may hold; "
               "close one or try again in 10 s",
               cap);
    return -1;
}

/* One table for every sign-in record, created on first use; its mutex makes
 * each check and each count one atomic step, so parallel guesses are
 * counted exactly.  Sign-ins are rare: one lock is enough. */
static Throttle *table;

/* The budget of failed passwords per username (see security.h), written
 * once, before the first sign-in reads it. */
static RateRule user_rule = {SECURITY_USER_FAILS_PER_MIN * 1000 / 60, SECURITY_USER_FAILS_BURST};
static pthread_once_t user_rule_once = PTHREAD_ONCE_INIT;

static void user_rule_load(void)
{
    const char *text = getenv(SECURITY_USER_FAILS_ENV);
    if (!text || !*text)
        return;
    RateRule rule;
    char err[200];
    if (ratelimit_rule_parse(text, &rule, err, sizeof err) != 0)
        fprintf(stderr, "serve: %s ignored: %s\n", SECURITY_USER_FAILS_ENV, err);
    else if (rule.milli_per_s <= 0) /* 0 is "no limit" to ratelimit_rule_parse */
        fprintf(stderr, "serve: %s ignored: a username's budget cannot be taken away\n",
                SECURITY_USER_FAILS_ENV);
    else
        user_rule = rule;
}

static const RateRule *account_rule(const char *account)
{
    static const RateRule pin = {SECURITY_PIN_FAILS_PER_MIN * 1000 / 60, SECURITY_PIN_FAILS_BURST};
    if (strcmp(account, "token") == 0)
        return NULL; /* 256 random bits: the per-address limit is enough */
    if (strncmp(account, "pin:", 4) == 0)
        return &pin;
    pthread_once(&user_rule_once, user_rule_load);
    return &user_rule;
}

/* The record keys of R's client for ACCOUNT: "a|ADDRESS|ACCOUNT" and
 * "k|ACCOUNT".  Returns -1 when R has no address (an in-process request). */
static int keys_of(Req *r, const char *account, char *akey, char *kkey)
{
    unsigned char key[16];
    if (client_key(r, key) < 0)
        return -1;
    char addr[64];
    ratelimit_addr_text(key, addr, sizeof addr);
    snprintf(akey, THROTTLE_KEY_MAX + 1, "a|%s|%.120s", addr, account);
    snprintf(kkey, THROTTLE_KEY_MAX + 1, "k|%.120s", account);
    return 0;
}

static int refuse(Req *r, int64_t wait_ms, const char *what)
{
    char secs[24];
    snprintf(secs, sizeof secs, "%lld", (long long)((wait_ms + 999) / 1000));
    http_add_header(r, "Retry-After", secs);
    http_error(r, API_E_RATE, "too many failed sign-ins %s; try again in %s s", what, secs);
    return -1;
}

int security_throttle_check(Req *r, const char *account)
{
    char akey[THROTTLE_KEY_MAX + 1], kkey[THROTTLE_KEY_MAX + 1];
    if (keys_of(r, account, akey, kkey))
        return 0;
    int64_t now = store_now_ms(), addr_wait = 0, account_wait = 0;
    pthread_mutex_lock(&mu);
    ThrottleRec a, k;
    if (table && throttle_get(table, akey, &a)) {
        int failed = a.fails > 0 && now - a.last_ms <= FORGET_MS;
        if (now < a.next_ms)
            addr_wait = a.next_ms - now;
        /* The account's budget is spent: a client that has failed on it
         * waits for the budget; one that has not is always heard, so that
         * guessing elsewhere never locks a player or an arbiter out. */
        const RateRule *rule = account_rule(account);
        if (failed && rule && throttle_get(table, kkey, &k)) {
            TokenBucket probe = k.budget;
            account_wait = ratelimit_bucket_take(&probe, rule, now);
        }
    }
    pthread_mutex_unlock(&mu);
    if (addr_wait > 0)
        return refuse(r, addr_wait, "from this address");
    if (account_wait > 0)
        return refuse(r, account_wait, "for this account");
    return 0;
}

void security_throttle_result(Req *r, const char *account, int ok, int clears)
{
    char akey[THROTTLE_KEY_MAX + 1], kkey[THROTTLE_KEY_MAX + 1];
    if (keys_of(r, account, akey, kkey))
        return;
    int64_t now = store_now_ms();
    pthread_mutex_lock(&mu);
    if (!table)
        table = throttle_new(0);
    if (!table) {
        pthread_mutex_unlock(&mu);
        return;
    }
    ThrottleRec a, k;
    if (ok) {
        /* Only the client's record for this very account is cleared, and
         * only when the account is one person's (a username): a right PIN
         * says nothing about the other PINs of its tournament. */
        if (clears)
            throttle_del(table, akey);
        pthread_mutex_unlock(&mu);
        return;
    }
    throttle_get(table, akey, &a);
    if (now - a.last_ms > FORGET_MS)
        memset(&a, 0, sizeof a);
    a.fails++;
    a.last_ms = now;
    if (a.fails >= THROTTLE_FREE) {
        int shift = a.fails - THROTTLE_FREE;
        int64_t wait_s = shift >= 9 ? THROTTLE_MAX_S : (int64_t)1 << shift;
        if (wait_s > THROTTLE_MAX_S)
            wait_s = THROTTLE_MAX_S;
        a.next_ms = now + wait_s * 1000;
    }
    throttle_put(table, akey, &a);
    const RateRule *rule = account_rule(account);
    if (rule) {
        if (!throttle_get(table, kkey, &k))
            ratelimit_bucket_init(&k.budget, rule, now);
        ratelimit_bucket_take(&k.budget, rule, now);
        k.fails++;
        k.last_ms = now;
        throttle_put(table, kkey, &k);
    }
    pthread_mutex_unlock(&mu);
}

void security_headers(struct MHD_Response *resp)
{
    static const char *const H[][2] = {
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
        /* Answers that are not pages (JSON, scripts, styles) need no
         * powers at all. */
        {"Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"},
    };
    for (size_t i = 0; i < sizeof H / sizeof H[0]; i++)
        if (!MHD_get_response_header(resp, H[i][0]))
            MHD_add_response_header(resp, H[i][0], H[i][1]);
}

static void base64(const unsigned char *in, size_t n, char *out)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = A[v >> 18 & 63];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < n ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    out[o] = 0;
}

void security_csp_hash(const char *text, size_t len, char *out, size_t outlen)
{
    char hex[65], b64[48];
    unsigned char bin[32];
    sha256_hex(text, len, hex);
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        bin[i] = (unsigned char)v;
    }
    base64(bin, 32, b64);
    snprintf(out, outlen, "'sha256-%s'", b64);
}

/* 'sha256-...' of every inline element TAG ("script" or "style") of the
 * page TEXT, appended to OUT.  Scripts with src= are not inline. */
static void inline_hashes(const char *text, const char *tag, char *out, size_t outlen)
{
    char open_tag[16], close_tag[16];
    snprintf(open_tag, sizeof open_tag, "<%s", tag);
    snprintf(close_tag, sizeof close_tag, "</%s>", tag);
    const char *p = text;
    while ((p = strstr(p, open_tag)) != NULL) {
        const char *gt = strchr(p, '>');
        if (!gt)
            break;
        const char *src = strstr(p, "src=");
        const char *end = strstr(gt + 1, close_tag);
        if (!end)
            break;
        if (!src || src > gt) {
            char h[64];
            security_csp_hash(gt + 1, (size_t)(end - gt - 1), h, sizeof h);
            size_t len = strlen(out);
            snprintf(out + len, outlen - len, " %s", h);
        }
        p = end;
    }
}

void security_page_policy(struct MHD_Response *resp, const char *path)
{
    char scripts[1024] = "", styles[512] = "";
    FILE *f = fopen(path, "rb");
    if (f) {
        char *text = malloc(PAGE_MAX + 1);
        if (text) {
            size_t n = fread(text, 1, PAGE_MAX, f);
            text[n] = 0;
            inline_hashes(text, "script", scripts, sizeof scripts);
            inline_hashes(text, "style", styles, sizeof styles);
            free(text);
        }
        fclose(f);
    }
    char csp[1800];
    /* Styles: the style sheets of this server and the page's own <style>
     * elements by hash; no style="" attributes (the board library sets its
     * positions through element.style, which a policy does not restrict). */
    snprintf(csp, sizeof csp,
             "default-src 'self'; script-src 'self'%s; style-src 'self'%s; "
             "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
             "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
             scripts, styles);
    MHD_add_response_header(resp, "Content-Security-Policy", csp);
}

/* The scheme, host and port of a URL "scheme://host[:port]/..." (SCHEME
 * NULL: S is an authority "host[:port]" of a URL of DEFAULT_SCHEME).  The
 * port defaults by scheme (80 http, 443 https).  0, or -1 when S does not
 * parse. */
static int origin_of(const char *s, const char *default_scheme, char *scheme, size_t sn, char *host,
                     size_t hn, long *port)
{
    const char *p = strstr(s, "://");
    if (p) {
        snprintf(scheme, sn, "%.*s", (int)(p - s), s);
        p += 3;
    } else {
        snprintf(scheme, sn, "%s", default_scheme);
        p = s;
    }
    size_t n = *p == '[' ? strcspn(p, "]") + 1 : strcspn(p, ":/");
    if (n == 0 || n >= hn)
        return -1;
    snprintf(host, hn, "%.*s", (int)n, p);
    p += n;
    *port = strcasecmp(scheme, "https") == 0 ? 443 : 80;
    if (*p == ':') {
        char *end;
        *port = strtol(p + 1, &end, 10);
        if (end == p + 1 || (*end && *end != '/'))
            return -1;
    }
    return 0;
}

int security_origin_check(Req *r)
{
    const char *origin = http_header(r, "Origin");
    if (!origin || strcmp(origin, "null") == 0)
        origin = http_header(r, "Referer");
    const char *host = http_header(r, "Host");
    if (!origin)
        return 0; /* not a browser, or one that says nothing: the CSRF token decides */
    /* Same origin: scheme, host and port, as browsers define it.  The
     * scheme the pages were served with is https behind a TLS proxy. */
    const char *ours = r->srv && r->srv->behind_tls ? "https" : "http";
    const char *proto = http_header(r, "X-Forwarded-Proto");
    if (proto && strcasecmp(proto, "https") == 0 && from_trusted_proxy(r))
        ours = "https";
    char sa[16], ha[256], sb[16], hb[256];
    long pa, pb;
    if (host && origin_of(origin, ours, sa, sizeof sa, ha, sizeof ha, &pa) == 0 &&
        origin_of(host, ours, sb, sizeof sb, hb, sizeof hb, &pb) == 0 && strcasecmp(sa, sb) == 0 &&
        strcasecmp(ha, hb) == 0 && pa == pb)
        return 0;
    http_error(r, API_E_CSRF,
               "a request made with the session cookie must come from a page of "
               "this server (Origin %.200s)",
               origin);
    return -1;
}
