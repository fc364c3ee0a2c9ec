/*
 * conns.h — what one client address may hold of the daemon's connections,
 * and how long a connection may take to say what it wants.
 *
 * Per address (16 bytes, as ratelimit.h keeps them): at most
 * ConnLimits.per_addr open connections (refused at accept, before a byte
 * is read) and at most ConnLimits.streams live streams (a stream over it
 * is answered 429).  The peers given as trusted proxies are not capped on
 * connections (a reverse proxy carries many clients over its own address;
 * it caps them itself), but their clients' streams are counted per client.
 *
 * Deadlines: a new connection must deliver its first request's headers
 * within ConnLimits.header_s seconds, whatever it trickles in the
 * meantime (slowloris); a kept-alive connection must deliver its next
 * request's headers within ConnLimits.idle_s of the last answer.  A
 * connection past its deadline is shut down (shutdown(2): libmicrohttpd
 * then sees the end of the stream and closes it in its own thread).  A
 * request whose headers arrived has no deadline here: a live stream stays
 * open as long as its client reads (libmicrohttpd's own idle timeout ends a
 * stalled one).  The connections waiting for headers sit in two lists
 * ordered by deadline (one per kind of deadline, each only appended to), so
 * the sweep looks only at the expired heads.
 *
 * Invariants: every counter and list is guarded by one mutex, held for a
 * handful of instructions per connection event; a connection's socket is
 * shut down only while it is registered, that is before libmicrohttpd's
 * "closed" notice, which comes before the descriptor is closed, so a
 * reused descriptor number is never touched.
 * Workload: a few events per connection; a sweep twice a second.
 */
#ifndef ARBITER_SERVER_CONNS_H
#define ARBITER_SERVER_CONNS_H

#include <stdint.h>
#include <sys/socket.h>

#include "ratelimit.h"

typedef struct Conns Conns;
typedef struct Conn Conn;

/* The limits (0: none). */
typedef struct ConnLimits {
    unsigned per_addr; /* open connections per client address */
    unsigned streams;  /* live streams per client address */
    unsigned header_s; /* seconds for a new connection's first headers */
    unsigned idle_s;   /* seconds for a kept-alive connection's next headers */
} ConnLimits;

/* The defaults, sized for a venue behind one NAT address (deploy/README.md
 * has the arithmetic). */
enum {
    CONNS_DEFAULT_PER_ADDR = 2000,
    CONNS_DEFAULT_STREAMS = 1000,
    CONNS_DEFAULT_HEADER_S = 5,
    CONNS_DEFAULT_IDLE_S = 30,
};

/* A guard with limits L (copied); PROXIES (kept by reference, may be NULL)
 * are exempt from the connection cap.  Starts the sweeping thread.  NULL
 * when out of memory or the thread cannot start. */
Conns *conns_new(const ConnLimits *l, const ProxyList *proxies);
/* Stops the sweep and frees G (after the daemon stopped).  NULL is a
 * no-op. */
void conns_free(Conns *g);

/* The accept policy: 1 when a connection from SA may be taken (its
 * address is under the cap), else 0. */
int conns_accept(Conns *g, const struct sockaddr *sa);
/* A connection from SA on socket FD began: registers it (its deadline for
 * headers starts) and returns its record for the calls below, or NULL
 * (out of memory: the connection is then only counted by libmicrohttpd). */
Conn *conns_started(Conns *g, int fd, const struct sockaddr *sa);
/* The headers of a request of C arrived: no deadline until it is answered.
 * C NULL is a no-op. */
void conns_request_begun(Conns *g, Conn *c);
/* A request of C was answered: the next headers are due within idle_s. */
void conns_request_done(Conns *g, Conn *c);
/* C is closing: forgets it and frees it.  C NULL is a no-op. */
void conns_closed(Conns *g, Conn *c);

/* Takes a live stream slot of client address KEY: 0, or the cap (> 0)
 * when the address holds that many streams already. */
unsigned conns_stream_take(Conns *g, const unsigned char key[16]);
/* Gives back a slot taken with conns_stream_take. */
void conns_stream_give(Conns *g, const unsigned char key[16]);

/* Shuts down every connection whose deadline is at or before NOW_MS (a
 * monotonic clock); the sweeping thread calls it, tests may too.  Returns
 * how many. */
unsigned conns_sweep(Conns *g, int64_t now_ms);
/* The connections and streams of KEY now (for tests and the log). */
void conns_counts(Conns *g, const unsigned char key[16], unsigned *conns, unsigned *streams);

#endif
