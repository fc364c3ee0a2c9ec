/*
 * cache.h — validators and freshness of the answers to GET requests, so
 * that a proxy (deploy/nginx) or a CDN can absorb the public read load and
 * a client polling a feed every second is answered 304 without a body.
 *
 * Invariants: an answer to a signed-in caller (arbiter or player) or of a
 * route that is not public is "Cache-Control: private, no-store" and has
 * no validator, since with a public delay (settings.public_delay) it may
 * show what the public may not see yet.  A public answer carries an ETag
 * (a hash of its body unless the route gave a cheaper one) and "public,
 * max-age=N" with N fitted to how soon it may change: a finished game an
 * hour, a live game or a PGN feed one second, lists a few seconds.
 */
#ifndef ARBITER_SERVER_CACHE_H
#define ARBITER_SERVER_CACHE_H

#include <stdint.h>

#include "http.h"

/* For a route that knows its version before rendering: adds ETAG (a
 * quoted entity tag) and, when MODIFIED_MS > 0, Last-Modified to the
 * answer, and answers 304 when the request's If-None-Match names ETAG or,
 * without If-None-Match, its If-Modified-Since is not older than
 * MODIFIED_MS.  Returns 1 when it answered 304 (the route returns
 * ROUTE_DONE), else 0.  Does nothing (returns 0) for a signed-in caller. */
int cache_conditional(Req *r, const char *etag, int64_t modified_ms);

/* The instant up to which R's caller may see tournament TID's games (TID
 * 0: the tournament of game GID): the
 * store's now minus the tournament's public delay for the public, INT64_MAX
 * (everything, live) for an arbiter, for a player in his own game GID (0:
 * no game in view) and when the tournament has no delay. */
int64_t cache_cut_ms(Req *r, Store *s, int64_t tid, int64_t gid);

/* After the handler of a GET route answered R (not suspended): adds
 * Cache-Control (private when the route is not PUBLIC or the caller signed
 * in), and for a public 200 without a validator yet an ETag of the body,
 * turning the answer into 304 when If-None-Match names it. */
void cache_finish(Req *r, int public_route);

#endif
