/*
 * security.h — defences that sit beside the routes: the request rate limit
 * per client address (ratelimit.h), the throttle of failed
 * sign-ins per client address, the security headers of every answer (and
 * the Content-Security-Policy of the pages, with the hashes of their inline
 * scripts), and the Origin check of cookie-authenticated writes.
 *
 * The throttle is a small fixed table in memory (forgotten on restart):
 * each address may fail THROTTLE_FREE times; after that it must wait 1 s,
 * 2 s, 4 s ... (at most 5 minutes) between attempts, and an attempt made
 * too early is answered 429 without checking the credentials.  A success
 * clears the address.  The client's address is the peer's, except when the
 * peer is a trusted proxy (`serve --trusted-proxy`, e.g. nginx on the same
 * machine): then it is the last one the proxy put in X-Forwarded-For.  A
 * client that sends X-Forwarded-For itself is not believed.  The sign-in
 * routes also limit failures per account (username, tournament PINs), which
 * catches guessing spread over many addresses.
 */
#ifndef ARBITER_SERVER_SECURITY_H
#define ARBITER_SERVER_SECURITY_H

#include <microhttpd.h>
#include <stddef.h>

#include "http.h"

enum { THROTTLE_FREE = 5, THROTTLE_MAX_S = 300 };

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
/* Before checking credentials: 0 to go on, or -1 after answering 429 with
 * Retry-After. */
int security_throttle_check(Req *r);
/* After checking them: OK nonzero clears the address, zero counts a failure. */
void security_throttle_result(Req *r, int ok);

/* Adds the security headers to RESP (those not already there). */
void security_headers(struct MHD_Response *resp);
/* Adds the Content-Security-Policy of the HTML page at PATH: scripts and
 * styles from this server only, plus the inline <script> and <style>
 * elements of this very page by hash (never style="" attributes). */
void security_page_policy(struct MHD_Response *resp, const char *path);

/* For a write made with the session cookie: 0 when the request's Origin
 * (or, without one, Referer) is absent or names this server's host, else -1
 * after answering 403 csrf. */
int security_origin_check(Req *r);

#endif
