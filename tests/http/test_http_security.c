/*
 * test_http_security.c — defences a user (or an attacker) would notice:
 * failed sign-ins from one address are throttled with 429 (per address,
 * arbiter passwords and player PINs alike, and a success clears it);
 * passwords, PINs, tokens and session cookies are stored only hashed and
 * never written to the logs; cookie-authenticated writes from a foreign
 * Origin are refused; a signed-out cookie or a replaced token no longer
 * acts; every answer carries the security headers, and each page a
 * Content-Security-Policy that allows exactly its own inline scripts;
 * oversized headers are refused without harm.
 */
#include <check.h>
#include <curl/curl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "auth.h"
#include "harness.h"
#include "security.h"
#include "sha256.h"

static Daemon D;
static Client arb;
static int64_t tid, pids[2];
static Client pl[2];

static void setup(void)
{
    /* The sign-in throttle is tested from several addresses, which a
     * trusted proxy on 127.0.0.1 names in X-Forwarded-For. */
    static const char *const args[] = {"--rate-limit", "0", "--trusted-proxy", "127.0.0.1", NULL};
    daemon_start_args(&D, 0, args);
    login_arbiter(&D, &arb);
    tid = make_tournament(&D, &arb, "5400+30", NULL, 2, pids, pl);
}

static void teardown(void)
{
    daemon_finish(&D);
}

/* An answer kept by value, so that a test can compare several. */
typedef struct Raw {
    long status;
    char headers[8192];
    char body[4096];
} Raw;

/* A request with any headers (NULL-terminated list) and no client. */
static void raw(const char *method, const char *path, const char *body, const char *const *headers,
                Raw *out)
{
    Resp *r = req_hdr(&D, method, path, body, headers);
    out->status = r->status;
    snprintf(out->headers, sizeof out->headers, "%s", r->headers);
    snprintf(out->body, sizeof out->body, "%s", r->body ? r->body : "");
    resp_free(r);
}

static long login_from(const char *addr, const char *password)
{
    char xff[80], body[200];
    snprintf(xff, sizeof xff, "X-Forwarded-For: %s", addr);
    snprintf(body, sizeof body, "{\"username\":\"arbiter\",\"password\":\"%s\"}", password);
    const char *hs[] = {xff, NULL};
    Raw r;
    raw("POST", "/api/v1/auth/login", body, hs, &r);
    if (r.status == 429)
        ck_assert_msg(strcasestr(r.headers, "Retry-After: ") != NULL, "429 without Retry-After");
    return r.status;
}

START_TEST(failed_sign_ins_are_throttled)
{
    /* Five failures are free; the sixth attempt must wait, even with the
     * right password (it is not even checked). */
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(login_from("198.51.100.7", "wrong"), 401);
    ck_assert_int_eq(login_from("198.51.100.7", "wrong"), 429);
    ck_assert_int_eq(login_from("198.51.100.7", D.password), 429);
    /* Another address is not affected. */
    ck_assert_int_eq(login_from("198.51.100.8", D.password), 200);
    /* After the wait (1 s after the fifth failure) one more try is allowed;
     * a success clears the address. */
    usleep(1100 * 1000);
    ck_assert_int_eq(login_from("198.51.100.7", D.password), 200);
    ck_assert_int_eq(login_from("198.51.100.7", "wrong"), 401);
    ck_assert_int_eq(login_from("198.51.100.7", D.password), 200);

    /* Guessing PINs: the same. */
    char xff[] = "X-Forwarded-For: 203.0.113.9";
    const char *hs[] = {xff, NULL};
    char body[200];
    Raw r;
    int refused = 0;
    for (int i = 0; i < 8; i++) {
        snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%07d\"}", (long long)tid,
                 9999000 + i);
        raw("POST", "/api/v1/auth/player", body, hs, &r);
        ck_assert_msg(r.status == 401 || r.status == 429, "%ld %s", r.status, r.body);
        if (i < 5)
            ck_assert_int_eq(r.status, 401);
        refused += r.status == 429;
    }
    ck_assert_int_ge(refused, 2);
    ck_assert_ptr_nonnull(strstr(r.body, "too_many_attempts"));
}
END_TEST

/* Every text value of every row of the store, one per line. */
static char *dump_store(void);

static long pin_from(const char *addr, const char *pin)
{
    char xff[80], body[200];
    snprintf(xff, sizeof xff, "X-Forwarded-For: %s", addr);
    snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%s\"}", (long long)tid, pin);
    const char *hs[] = {xff, NULL};
    Raw r;
    raw("POST", "/api/v1/auth/player", body, hs, &r);
    if (r.status == 429)
        ck_assert_msg(strcasestr(r.headers, "Retry-After: ") != NULL, "429 without Retry-After");
    return r.status;
}

START_TEST(account_budget_never_locks_out_the_right_password)
{
    /* The budget gives back a failure every 3 s, and the part of one it
     * holds once spent grows while the right password below is hashed:
     * on a busy machine it grew to a whole failure before the last check,
     * which then heard the client.  The same budget giving back one
     * failure in 1000 s stays spent for the whole test, however slow the
     * machine. */
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    ck_assert_int_eq(setenv(SECURITY_USER_FAILS_ENV, "0.001,20", 1), 0);
    daemon_start_args(&D, 1, D.args);
    unsetenv(SECURITY_USER_FAILS_ENV);
    /* Twenty-five addresses fail once each on the arbiter's name: the
     * account's budget (bursts of 20) is spent, but each of them was a
     * client that had not failed yet, so each was heard. */
    char addr[32];
    for (int i = 0; i < 25; i++) {
        snprintf(addr, sizeof addr, "198.51.100.%d", 100 + i);
        ck_assert_int_eq(login_from(addr, "wrong"), 401);
    }
    /* A client that has not failed is heard, and the right password works. */
    ck_assert_int_eq(login_from("198.51.100.200", D.password), 200);
    /* A client that has failed waits for the budget, with Retry-After. */
    ck_assert_int_eq(login_from("198.51.100.101", "wrong"), 429);
    /* Failing as another name touches another budget: no collisions. */
    for (int i = 0; i < 25; i++) {
        char body[200], xff[80];
        snprintf(xff, sizeof xff, "X-Forwarded-For: 192.0.2.%d", i + 1);
        snprintf(body, sizeof body, "{\"username\":\"other%d\",\"password\":\"x\"}", i % 3);
        const char *hs[] = {xff, NULL};
        Raw r;
        raw("POST", "/api/v1/auth/login", body, hs, &r);
        ck_assert_int_eq(r.status, 401);
    }
}
END_TEST

START_TEST(right_pin_does_not_clear_failures)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/%lld/credentials",
                   (long long)tid, (long long)pids[0]);
    ck_assert_int_eq(r->status, 200);
    char pin[32];
    snprintf(pin, sizeof pin, "%s", json_string_value(json_object_get(r->json, "pin")));
    resp_free(r);
    /* An insider interleaves guesses with its own right PIN: the guesses
     * still add up to the address's limit. */
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pin_from("203.0.113.50", "0000000001"), 401);
    ck_assert_int_eq(pin_from("203.0.113.50", pin), 200);
    ck_assert_int_eq(pin_from("203.0.113.50", "0000000002"), 401);
    ck_assert_int_eq(pin_from("203.0.113.50", "0000000003"), 429);
}
END_TEST

START_TEST(pins_are_long_and_keyed)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/%lld/credentials",
                   (long long)tid, (long long)pids[1]);
    ck_assert_int_eq(r->status, 200);
    const char *pin = json_string_value(json_object_get(r->json, "pin"));
    ck_assert_int_eq((int)strlen(pin), 10);
    /* The stored hash is not the unkeyed SHA-256 of the PIN. */
    char plain[96], hex[65];
    snprintf(plain, sizeof plain, "pin:%lld:%s", (long long)tid, pin);
    sha256_hex(plain, strlen(plain), hex);
    resp_free(r);
    char *dump = dump_store();
    ck_assert_ptr_null(strstr(dump, hex));
    free(dump);
}
END_TEST

/* Every text value of every row of the store, one per line. */
static char *dump_store(void)
{
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open_v2(D.db, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    const char *tables[] = {"users",  "sessions", "player_credentials", "players", "audit",
                            "alerts", "meta",     "tournaments"};
    size_t cap = 1 << 20, len = 0;
    char *out = calloc(1, cap);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char sql[100];
        snprintf(sql, sizeof sql, "SELECT * FROM %s", tables[t]);
        sqlite3_stmt *st;
        ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW)
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *v = (const char *)sqlite3_column_text(st, c);
                if (v && len + strlen(v) + 2 < cap)
                    len += (size_t)sprintf(out + len, "%s\n", v);
            }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

START_TEST(secrets_hashed_and_never_logged)
{
    /* A fresh PIN and token, used; a second arbiter with a password. */
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/%lld/credentials",
                   (long long)tid, (long long)pids[1]);
    ck_assert_int_eq(r->status, 200);
    char pin[32], token[160];
    snprintf(pin, sizeof pin, "%s", json_string_value(json_object_get(r->json, "pin")));
    snprintf(token, sizeof token, "%s", json_string_value(json_object_get(r->json, "token")));
    resp_free(r);
    ck_assert_int_ge((int)strlen(pin), 4);
    ck_assert_int_ge((int)strlen(token), 16);
    char body[200];
    snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%s\"}", (long long)tid, pin);
    r = req(&D, NULL, "POST", "/api/v1/auth/player", body);
    ck_assert_int_eq(r->status, 200);
    char *p = strcasestr(r->headers, "Set-Cookie: ");
    ck_assert_ptr_nonnull(p);
    p = strchr(p, '=') + 1;
    char cookie[200];
    snprintf(cookie, sizeof cookie, "%.*s", (int)strcspn(p, ";\r\n"), p);
    resp_free(r);
    Client tok = {0};
    snprintf(tok.bearer, sizeof tok.bearer, "%s", token);
    r = req(&D, &tok, "GET", "/api/v1/auth/me", NULL);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* A wrong password that looks like a secret, too. */
    r = req(&D, NULL, "POST", "/api/v1/auth/login",
            "{\"username\":\"arbiter\",\"password\":\"Wrong-Secret-4711\"}");
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    const char *arb_cookie = strchr(arb.cookie, '=') + 1;

    char *store = dump_store();
    ck_assert_msg(!strstr(store, token), "a player token is stored in clear");
    ck_assert_msg(!strstr(store, pl[0].bearer), "a player token is stored in clear");
    ck_assert_msg(!strstr(store, cookie), "a session id is stored in clear");
    ck_assert_msg(!strstr(store, arb_cookie), "a session id is stored in clear");
    ck_assert_msg(!strstr(store, D.password), "the password is stored in clear");
    ck_assert_msg(!strstr(store, "Wrong-Secret-4711"), "a tried password is stored");
    char quoted[40];
    snprintf(quoted, sizeof quoted, "\"%s\"", pin);
    ck_assert_msg(!strstr(store, quoted), "a PIN is stored in clear");
    free(store);

    char *err = harness_daemon_file(&D, "stderr.txt"), *out = harness_daemon_file(&D, "stdout.txt");
    ck_assert_msg(strstr(err, "http POST /api/v1/auth/player") != NULL, "requests are not logged");
    const char *secrets[] = {token,      pl[0].bearer,        cookie, arb_cookie,
                             D.password, "Wrong-Secret-4711", pin};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
        ck_assert_msg(!strstr(err, secrets[i]), "secret %zu in the log", i);
        /* The first start's password is in its 0600 file only. */
        ck_assert_int_eq(count(out, secrets[i]), 0);
    }
    free(err);
    free(out);
}
END_TEST

START_TEST(cookie_writes_need_our_origin)
{
    char cookie[260], csrf[120], origin[120];
    snprintf(cookie, sizeof cookie, "Cookie: %s", arb.cookie);
    snprintf(csrf, sizeof csrf, "X-CSRF-Token: %s", arb.csrf);
    const char *body = "{\"name\":\"X\",\"time_control\":\"60\"}";
    Raw r;
    const char *evil[] = {cookie, csrf, "Origin: https://evil.example", NULL};
    raw("POST", "/api/v1/tournaments", body, evil, &r);
    ck_assert_int_eq(r.status, 403);
    ck_assert_ptr_nonnull(strstr(r.body, "csrf"));
    const char *evil_ref[] = {cookie, csrf, "Referer: http://127.0.0.1.evil.example/x", NULL};
    raw("POST", "/api/v1/tournaments", body, evil_ref, &r);
    ck_assert_int_eq(r.status, 403);
    /* Same host, another port or scheme: another origin. */
    char other[120];
    snprintf(other, sizeof other, "Origin: http://127.0.0.1:%d", D.port + 1);
    const char *other_port[] = {cookie, csrf, other, NULL};
    raw("POST", "/api/v1/tournaments", body, other_port, &r);
    ck_assert_int_eq(r.status, 403);
    snprintf(other, sizeof other, "Origin: https://127.0.0.1:%d", D.port);
    const char *other_scheme[] = {cookie, csrf, other, NULL};
    raw("POST", "/api/v1/tournaments", body, other_scheme, &r);
    ck_assert_int_eq(r.status, 403);
    snprintf(origin, sizeof origin, "Origin: http://127.0.0.1:%d", D.port);
    const char *ours[] = {cookie, csrf, origin, NULL};
    raw("POST", "/api/v1/tournaments", body, ours, &r);
    ck_assert_msg(r.status == 201, "%ld %s", r.status, r.body);
    /* Programs that send no Origin rely on the CSRF token alone. */
    const char *plain[] = {cookie, csrf, NULL};
    raw("POST", "/api/v1/tournaments", body, plain, &r);
    ck_assert_int_eq(r.status, 201);
    /* Bearer tokens are not sent by browsers on their own: no Origin rule. */
    char bearer[220];
    snprintf(bearer, sizeof bearer, "Authorization: Bearer %s", pl[0].bearer);
    const char *tablet[] = {bearer, "Origin: https://elsewhere.example", NULL};
    raw("GET", "/api/v1/auth/me", NULL, tablet, &r);
    ck_assert_int_eq(r.status, 200);
}
END_TEST

START_TEST(ended_sessions_and_replaced_tokens_do_not_act)
{
    /* A second arbiter session, signed out: its cookie is just anonymous. */
    Client c;
    login_arbiter(&D, &c);
    Resp *r = req(&D, &c, "POST", "/api/v1/auth/logout", "{}");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = req(&D, &c, "POST", "/api/v1/tournaments", "{\"name\":\"X\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    /* New credentials replace the old token, even one the server has just
     * seen (and may remember). */
    Client old = pl[0];
    r = req(&D, &old, "GET", "/api/v1/auth/me", NULL);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/players/%lld/credentials",
             (long long)tid, (long long)pids[0]);
    ck_assert_int_eq(r->status, 200);
    Client fresh = {0};
    snprintf(fresh.bearer, sizeof fresh.bearer, "%s",
             json_string_value(json_object_get(r->json, "token")));
    resp_free(r);
    r = req(&D, &old, "GET", "/api/v1/auth/me", NULL);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    r = req(&D, &fresh, "GET", "/api/v1/auth/me", NULL);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* The arbiter's own session still works. */
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
}
END_TEST

START_TEST(pairing_edits_are_seen_at_once)
{
    /* A player who has just asked about a game is taken out of it by the
     * arbiter's edit of the pending round: the next request sees it.  (A
     * move before the start is refused with 409 once the player is known
     * to play in the game, with 403 when not.) */
    int64_t p[5];
    Client c[5];
    int64_t t = make_tournament(&D, &arb, "5400+30", NULL, 5, p, c);
    int64_t w[2] = {p[0], p[2]}, b[2] = {p[1], p[3]}, g[2];
    make_round(&D, &arb, t, 2, w, b, g);
    ck_assert_int_eq(play(&D, &c[0], g[0], 0, "e4"), 409);
    ck_assert_int_eq(play(&D, &c[4], g[0], 0, "e4"), 403);
    char body[96];
    snprintf(body, sizeof body, "{\"white_id\":%lld,\"black_id\":%lld}", (long long)p[4],
             (long long)p[1]);
    Resp *r = reqf(&D, &arb, "PATCH", body, "/api/v1/games/%lld", (long long)g[0]);
    ck_assert_msg(r->status == 200, "%ld %s", r->status, r->body);
    resp_free(r);
    ck_assert_int_eq(play(&D, &c[0], g[0], 0, "e4"), 403);
    ck_assert_int_eq(play(&D, &c[4], g[0], 0, "e4"), 409);
}
END_TEST

static void base64(const unsigned char *in, size_t n, char *out)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = A[v >> 18 & 63];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < n ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    out[o] = 0;
}

static void header_of(const char *headers, const char *name, char *out, size_t outlen)
{
    out[0] = 0;
    char key[80];
    snprintf(key, sizeof key, "\n%s: ", name);
    const char *p = strcasestr(headers, key);
    if (p) {
        p += strlen(key);
        snprintf(out, outlen, "%.*s", (int)strcspn(p, "\r\n"), p);
    }
}

START_TEST(security_headers_everywhere)
{
    char v[2048];
    Raw r;
    raw("GET", "/api/v1/health", NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    header_of(r.headers, "X-Content-Type-Options", v, sizeof v);
    ck_assert_str_eq(v, "nosniff");
    header_of(r.headers, "X-Frame-Options", v, sizeof v);
    ck_assert_str_eq(v, "DENY");
    header_of(r.headers, "Referrer-Policy", v, sizeof v);
    ck_assert_str_eq(v, "no-referrer");
    header_of(r.headers, "Content-Security-Policy", v, sizeof v);
    ck_assert_ptr_nonnull(strstr(v, "default-src 'none'"));
    /* Errors too. */
    raw("GET", "/api/v1/nothing-here", NULL, NULL, &r);
    ck_assert_int_eq(r.status, 404);
    header_of(r.headers, "X-Frame-Options", v, sizeof v);
    ck_assert_str_eq(v, "DENY");

    /* The pages, from a server with the web directory. */
    const char *web = getenv("ARBITER_WEB");
    ck_assert_ptr_nonnull(web);
    daemon_stop(&D, SIGTERM);
    const char *bin = getenv("ARBITER_BIN");
    int port = D.port;
    char listen[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    pid_t p = fork();
    if (p == 0) {
        if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(bin, bin, "serve", "--listen", listen, "--db", D.db, "--web", web, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 200; i++) {
        raw("GET", "/api/v1/health", NULL, NULL, &r);
        if (r.status == 200)
            break;
        usleep(20000);
    }
    const char *pages[] = {"/", "/board.html", "/desk.html"};
    const char *files[] = {"index.html", "board.html", "desk.html"};
    for (int i = 0; i < 3; i++) {
        raw("GET", pages[i], NULL, NULL, &r);
        ck_assert_int_eq(r.status, 200);
        header_of(r.headers, "X-Frame-Options", v, sizeof v);
        ck_assert_str_eq(v, "DENY");
        header_of(r.headers, "Referrer-Policy", v, sizeof v);
        ck_assert_str_eq(v, "no-referrer");
        header_of(r.headers, "Content-Security-Policy", v, sizeof v);
        ck_assert_msg(count(r.headers, "Content-Security-Policy") == 1, "two policies");
        ck_assert_ptr_nonnull(strstr(v, "script-src 'self'"));
        ck_assert_ptr_nonnull(strstr(v, "frame-ancestors 'none'"));
        ck_assert_ptr_null(strstr(v, "'unsafe-eval'"));
        const char *ss = strstr(v, "script-src");
        ck_assert_msg(!strstr(ss, "'unsafe-inline'") ||
                          strstr(ss, ";") < strstr(ss, "'unsafe-inline'"),
                      "inline scripts allowed wholesale: %s", v);
        /* Nor inline styles: the pages use style sheets only. */
        ck_assert_msg(!strstr(v, "'unsafe-inline'"), "inline code allowed wholesale: %s", v);
        ck_assert_ptr_nonnull(strstr(v, "style-src 'self'"));
        /* Each inline script of the page is allowed by its hash: the
         * build's copy of the page when there is one (web/bundle.mjs), as
         * the daemon serves it. */
        char path[600];
        snprintf(path, sizeof path, "%s/dist/%s", web, files[i]);
        if (access(path, R_OK) != 0)
            snprintf(path, sizeof path, "%s/%s", web, files[i]);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        static char text[1 << 18];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = 0;
        fclose(f);
        int inline_scripts = 0;
        for (const char *s = text; (s = strstr(s, "<script")) != NULL; s++) {
            const char *gt = strchr(s, '>'), *src = strstr(s, "src=");
            const char *end = strstr(gt, "</script>");
            if (src && src < gt)
                continue;
            char hex[65], want[80];
            unsigned char bin32[32];
            sha256_hex(gt + 1, (size_t)(end - gt - 1), hex);
            for (int k = 0; k < 32; k++) {
                unsigned x;
                sscanf(hex + 2 * k, "%2x", &x);
                bin32[k] = (unsigned char)x;
            }
            char b64[48];
            base64(bin32, 32, b64);
            snprintf(want, sizeof want, "'sha256-%s'", b64);
            ck_assert_msg(strstr(v, want) != NULL, "%s: inline script not allowed: %s", files[i],
                          v);
            inline_scripts++;
        }
        (void)inline_scripts;
    }
    /* A request with 100 KB of headers is refused, and the server lives on. */
    char *big = malloc(100 * 1024);
    strcpy(big, "X-Padding: ");
    memset(big + 11, 'a', 100 * 1024 - 12);
    big[100 * 1024 - 1] = 0;
    const char *hs[] = {big, NULL};
    raw("GET", "/api/v1/health", NULL, hs, &r);
    ck_assert_msg(r.status == 0 || (r.status >= 400 && r.status < 500), "%ld", r.status);
    free(big);
    raw("GET", "/api/v1/health", NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    kill(p, SIGTERM);
    int st;
    waitpid(p, &st, 0);
    D.pid = 0;
    daemon_start(&D, 1); /* for the teardown */
}
END_TEST

START_TEST(loopback_is_throttled)
{
    /* No X-Forwarded-For: the client is 127.0.0.1 itself, and is throttled
     * like any other address. */
    const char body[] = "{\"username\":\"arbiter\",\"password\":\"wrong\"}";
    Raw r;
    for (int i = 0; i < 5; i++) {
        raw("POST", "/api/v1/auth/login", body, NULL, &r);
        ck_assert_int_eq(r.status, 401);
    }
    raw("POST", "/api/v1/auth/login", body, NULL, &r);
    ck_assert_int_eq(r.status, 429);
    ck_assert_ptr_nonnull(strcasestr(r.headers, "Retry-After: "));
}
END_TEST

START_TEST(log_lines_cannot_be_forged)
{
    /* A decoded path with CR/LF and a request id with ESC: each request is
     * still one line of the log, with no terminal escapes. */
    const char *hs[] = {"X-Request-Id: abc\x1b[31mred", NULL};
    Raw r;
    raw("GET", "/api/v1/nothing%0d%0ahttp%20GET%20/forged%20200%201us", NULL, hs, &r);
    ck_assert_int_eq(r.status, 404);
    usleep(200 * 1000); /* the log line is written after the answer */
    char path[400];
    snprintf(path, sizeof path, "%s/stderr.txt", D.dir);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ck_assert_ptr_null(strstr(text, "\nhttp GET /forged"));
    ck_assert_ptr_null(strchr(text, '\x1b'));
    ck_assert_ptr_nonnull(strstr(text, "nothing\\x0d\\x0ahttp\\x20GET"));
    ck_assert_ptr_nonnull(strstr(text, "id=abc\\x1b[31mred"));
}
END_TEST

START_TEST(personal_data_needs_an_arbiter)
{
    Resp *r =
        reqf(&D, &arb, "PATCH", "{\"birth\":\"1990/05/17\",\"sex\":\"w\",\"fide_id\":\"24126055\"}",
             "/api/v1/tournaments/%lld/players/%lld", (long long)tid, (long long)pids[0]);
    ck_assert_msg(r->status == 200, "%ld %s", r->status, r->body);
    resp_free(r);
    const Client *who[] = {NULL, &pl[0], &arb};
    for (int w = 0; w < 3; w++) {
        r = reqf(&D, who[w], "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
        ck_assert_int_eq(r->status, 200);
        int seen = strstr(r->body, "1990/05/17") || strstr(r->body, "24126055");
        ck_assert_msg(seen == (w == 2), "who %d: %s", w, r->body);
        ck_assert_ptr_nonnull(strstr(r->body, "\"name\""));
        ck_assert_ptr_nonnull(strstr(r->body, "\"federation\""));
        resp_free(r);
        r = reqf(&D, who[w], "GET", NULL, "/api/v1/tournaments/%lld/players/%lld", (long long)tid,
                 (long long)pids[0]);
        ck_assert_int_eq(r->status, 200);
        seen = strstr(r->body, "1990/05/17") || strstr(r->body, "24126055") ||
               strstr(r->body, "\"sex\"");
        ck_assert_msg(seen == (w == 2), "who %d: %s", w, r->body);
        resp_free(r);
        r = reqf(&D, who[w], "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
        ck_assert_int_eq(r->status, w == 2 ? 200 : w == 0 ? 401 : 403);
        resp_free(r);
    }
}
END_TEST

START_TEST(behind_tls_cookie_is_secure)
{
    Daemon t = {0};
    static const char *const args[] = {"--rate-limit", "0", "--behind-tls", NULL};
    daemon_start_args(&t, 0, args);
    char body[200];
    snprintf(body, sizeof body, "{\"username\":\"arbiter\",\"password\":\"%s\"}", t.password);
    Resp *r = req(&t, NULL, "POST", "/api/v1/auth/login", body);
    ck_assert_int_eq(r->status, 200);
    const char *c = strcasestr(r->headers, "Set-Cookie: ");
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(strstr(c, "; Secure"));
    resp_free(r);
    daemon_finish(&t);
    /* Without it (plain http at a venue) the cookie must not be Secure, or
     * the browser would drop it. */
    snprintf(body, sizeof body, "{\"username\":\"arbiter\",\"password\":\"%s\"}", D.password);
    r = req(&D, NULL, "POST", "/api/v1/auth/login", body);
    ck_assert_int_eq(r->status, 200);
    c = strcasestr(r->headers, "Set-Cookie: ");
    ck_assert_ptr_null(strstr(c, "Secure"));
    resp_free(r);
}
END_TEST

static void put_file(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(web_root_serves_only_the_pages)
{
    /* A web root like the real one, with the npm files and a test tool
     * beside the pages, and a symbolic link that leads out of it. */
    char root[400], sub[600];
    snprintf(root, sizeof root, "%s/webroot", D.dir);
    ck_assert_int_eq(mkdir(root, 0700), 0);
    const char *dirs[] = {"js", "node_modules", "node_modules/chessground",
                          "node_modules/chessground/dist", "node_modules/playwright-core"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(sub, sizeof sub, "%s/%s", root, dirs[i]);
        ck_assert_int_eq(mkdir(sub, 0700), 0);
    }
    put_file(root, "index.html", "<p>hi</p>");
    put_file(root, "favicon.ico", "ico");
    put_file(root, "package-lock.json", "{}");
    put_file(root, "js/app.js", "1;");
    put_file(root, "node_modules/chessground/dist/chessground.min.js", "2;");
    put_file(root, "node_modules/playwright-core/index.js", "3;");
    put_file(D.dir, "outside.js", "secret");
    char target[600], link[600];
    snprintf(target, sizeof target, "%s/outside.js", D.dir);
    snprintf(link, sizeof link, "%s/js/out.js", root);
    ck_assert_int_eq(symlink(target, link), 0);

    Daemon w = {0};
    const char *args[] = {"--rate-limit", "0", "--web", root, NULL};
    daemon_start_args(&w, 0, args);
    static const struct {
        const char *path;
        long status;
    } cases[] = {
        {"/", 200},
        {"/index.html", 200},
        {"/favicon.ico", 200},
        {"/js/app.js", 200},
        {"/node_modules/chessground/dist/chessground.min.js", 200},
        {"/package-lock.json", 404},
        {"/node_modules/playwright-core/index.js", 404},
        {"/js/out.js", 404},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Resp *r = req(&w, NULL, "GET", cases[i].path, NULL);
        ck_assert_msg(r->status == cases[i].status, "%s: %ld", cases[i].path, r->status);
        if (r->status == 200)
            ck_assert_ptr_null(r->body ? strstr(r->body, "secret") : NULL);
        resp_free(r);
    }
    daemon_finish(&w);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-security");
    TCase *tc = tcase_create("security");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, failed_sign_ins_are_throttled);
    tcase_add_test(tc, account_budget_never_locks_out_the_right_password);
    tcase_add_test(tc, right_pin_does_not_clear_failures);
    tcase_add_test(tc, pins_are_long_and_keyed);
    tcase_add_test(tc, loopback_is_throttled);
    tcase_add_test(tc, log_lines_cannot_be_forged);
    tcase_add_test(tc, personal_data_needs_an_arbiter);
    tcase_add_test(tc, behind_tls_cookie_is_secure);
    tcase_add_test(tc, web_root_serves_only_the_pages);
    tcase_add_test(tc, secrets_hashed_and_never_logged);
    tcase_add_test(tc, cookie_writes_need_our_origin);
    tcase_add_test(tc, ended_sessions_and_replaced_tokens_do_not_act);
    tcase_add_test(tc, pairing_edits_are_seen_at_once);
    tcase_add_test(tc, security_headers_everywhere);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return testutil_run(suite());
}
