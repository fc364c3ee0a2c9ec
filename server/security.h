/*
 * security.h — defences that sit beside the routes: the request rate limit
 * per client address (ratelimit.h), the throttle of failed
 * sign-ins per client address, the security headers of every answer (and
 * the Content-Security-Policy of the pages, with the hashes of their inline
 * scripts), and the Origin check of cookie-authenticated writes.
 *
 * The sign-in throttle keeps, per exact key (server/throttle.h, bounded,
 * forgotten on restart), two records.  Per client address and account
 * ("a|ADDRESS|user:NAME", "a|ADDRESS|pin:TOURNAMENT", "a|ADDRESS|token"):
 * THROTTLE_FREE failures are free; after that the client must wait 1 s,
 * 2 s, 4 s ... (at most 5 minutes) between attempts, and an attempt made
 * too early is answered 429 with Retry-After, without checking anything.
 * Per account ("k|user:NAME", "k|pin:TOURNAMENT"): a budget of failures
 * (a token bucket, SECURITY_*_FAILS_*) that catches guessing spread over
 * many addresses; once it is spent, a client that has already failed on
 * the account waits for it, but a client that has not failed is always
 * heard, so guessing never locks the rightful user out.  A right password
 * clears its client's record for that username; a right PIN clears
 * nothing (it says nothing about the tournament's other PINs).  Loopback
 * clients are throttled like any other.
 *
 * The client's address is the peer's, except when the peer is a trusted
 * proxy (`serve --trusted-proxy`, e.g. nginx on the same machine): then it
 * is the last one the proxy put in X-Forwarded-For.  A client that sends
 * X-Forwarded-For itself is not believed.
 */
#ifndef ARBITER_SERVER_SECURITY_H
#define ARBITER_SERVER_SECURITY_H

#include <microhttpd.h>
#include <stddef.h>

#include "http.h"

enum {
    THROTTLE_FREE = 5,
    THROTTLE_MAX_S = 300,
    /* Failed password sign-ins per username: bursts of 20, then 20 a minute,
     * unless SECURITY_USER_FAILS_ENV names another budget. */
    SECURITY_USER_FAILS_BURST = 20,
    SECURITY_USER_FAILS_PER_MIN = 20,
    /* Failed PINs per tournament: bursts of 30, then 6 a minute (the
     * arithmetic is in deploy/README.md). */
    SECURITY_PIN_FAILS_BURST = 30,
    SECURITY_PIN_FAILS_PER_MIN = 6,
};

/* The environment variable that may set the budget of failed passwords
 * per username, as RATE[,BURST] with RATE failures a second (the syntax
 * of `serve --rate-limit`; a RATE of 0, no budget, is not taken).  The
 * daemon reads it once, at the first password sign-in, and says on
 * stderr when it ignores it.  A budget that refills only in minutes
 * makes the tests of a spent budget independent of the machine's speed. */
#define SECURITY_USER_FAILS_ENV "ARBITER_USER_FAILS"

/* The client's address as text (see above).  Returns 1 for a local
 * program (a loopback peer whose address no trusted proxy forwarded: the
 * shell, the tests), which the per-address throttle leaves to the
 * per-account limits of the sign-in routes; else 0. */
int security_client_address(Req *r, char *out, size_t outlen);
/* At the start of a request: takes one token of the client's read (GET,
 * HEAD) or write budget.  0 to go on, or -1 after answering 429
 * rate_limited with Retry-After.  No limiter (r->srv->limiter NULL) or no
 * address: always 0. */
int security_rate_check(Req *r);
/* Before a live stream opens: takes one of the client address's stream
 * slots (conns.h), given back when the stream ends.  0 to go on, or -1
 * after answering 429 too_many_streams with Retry-After.  No address (an
 * in-process request): always 0. */
int security_stream_admit(Req *r);
/* Before checking the credentials of ACCOUNT ("user:NAME", "pin:TID",
 * "token"): 0 to go on, or -1 after answering 429 with Retry-After. */
int security_throttle_check(Req *r, const char *account);
/* After checking them: OK zero counts a failure of the client and of the
 * account; OK nonzero with CLEARS nonzero forgets the client's failures on
 * ACCOUNT (a username), else changes nothing. */
void security_throttle_result(Req *r, const char *account, int ok, int clears);

/* Adds the security headers to RESP (those not already there). */
void security_headers(struct MHD_Response *resp);
/* Adds the Content-Security-Policy of the HTML page at PATH: scripts and
 * styles from this server only, plus the inline <script> and <style>
 * elements of this very page by hash (never style="" attributes). */
void security_page_policy(struct MHD_Response *resp, const char *path);
/* The policy source allowing exactly TEXT (LEN bytes) inline:
 * "'sha256-<base64>'" into OUT (at least 56 bytes). */
void security_csp_hash(const char *text, size_t len, char *out, size_t outlen);

/* For a write made with the session cookie: 0 when the request's Origin
 * (or, without one, Referer) is absent or names this server: the same
 * scheme (https with --behind-tls, else http), host and port as the Host
 * header; else -1 after answering 403 csrf. */
int security_origin_check(Req *r);

#endif
