/*
 * exportcache.h — the rendered answers of the heavy reads (a tournament's
 * or a round's PGN, the TRF, the crosstable and standings lists, the
 * pairings) kept in memory, so that the second identical request is
 * answered without rendering the whole tournament again.
 *
 * Invariants: an answer is found again only under the same path, query
 * string, role class (the public or an arbiter: their answers differ) and
 * store version.  The store version is the writer's count of committed
 * batches, read before rendering: every committed write of the daemon moves
 * it, so no stale answer is ever served (a write committed while an answer
 * renders only files a newer answer under the older version).  Answers to
 * players and captains, conditional requests, and the public's answers of
 * a tournament with a public delay (their window moves with the clock, not
 * with the store), and the ratings and norms (they read FIDE's register,
 * which the command line loads from another process) are neither kept
 * nor served.  A hit carries "X-Cache: hit".
 *
 * Workload: one look-up per heavy GET (a key of a few hundred bytes); at
 * most EXPORTCACHE_ENTRIES answers and EXPORTCACHE_BYTES bytes, the least
 * recently used dropped first; one mutex, held only to copy bytes.
 */
#ifndef ARBITER_SERVER_EXPORTCACHE_H
#define ARBITER_SERVER_EXPORTCACHE_H

#include <stddef.h>

#include "http.h"

enum {
    EXPORTCACHE_ENTRIES = 64,
    EXPORTCACHE_BYTES = 64 << 20,
    EXPORTCACHE_KEY = 1024 /* the longest key kept; a longer one is not cached */
};

/* The cache key of heavy GET request R (route already matched, caller
 * resolved) into KEY (EXPORTCACHE_KEY bytes).  Returns 1 when R may be
 * cached, 0 when not (KEY then undefined).  Reads the store version, so
 * call it before rendering. */
int exportcache_key(Req *r, char *key);

/* Answers R from the cache when KEY (from exportcache_key) is there:
 * copies the status, body, content type and the route's headers into R
 * and adds "X-Cache: hit".  Returns 1 on a hit, 0 on a miss or when R is
 * conditional (If-None-Match / If-Modified-Since: the route answers those
 * itself, often 304 without rendering). */
int exportcache_serve(Req *r, const char *key);

/* Keeps R's answer under KEY when it is a 200 with a body and no ready
 * response: its body, content type and the headers from index FIRST_HDR on
 * (those the route added; not the session's).  R is not changed.  An
 * answer larger than a quarter of EXPORTCACHE_BYTES is not kept. */
void exportcache_put(const Req *r, const char *key, int first_hdr);

/* Drops every kept answer (at shutdown; tests). */
void exportcache_clear(void);

#endif
