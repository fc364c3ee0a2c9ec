/*
 * nchan.h — the daemon's publisher to nginx's Nchan module: every public
 * live event is POSTed once to Nchan's publisher endpoint, and nginx serves
 * the spectators' streams (deploy/nginx/arbiter-fanout.conf), however many
 * they are.
 *
 * The commit path only queues: nchan_publish() copies the message into a
 * bounded queue and returns; one thread of its own sends the queue in order
 * over one keep-alive HTTP/1.1 connection.  A slow or dead nginx therefore
 * never delays a move: the queue fills, and past its bound messages are
 * dropped and counted.  A broken connection is opened again with a backoff
 * (100 ms doubling to 5 s) and the message at the head is sent again, so
 * order is kept.
 *
 * Channels: a game's topic ("g:GID" or its delayed twin "~g:GID") maps to
 * channel games-GID, a tournament's ("t:TID", "~t:TID") to tournaments-TID;
 * other topics (the arbiters' alerts) are never published.  The caller
 * passes only what an anonymous viewer may see, when he may see it.
 */
#ifndef ARBITER_SERVER_NCHAN_H
#define ARBITER_SERVER_NCHAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct Nchan Nchan;

/* What the publisher did so far (nchan_counts). */
typedef struct NchanCounts {
    uint64_t sent;       /* accepted by Nchan (2xx) */
    uint64_t dropped;    /* not queued: the queue was full */
    uint64_t rejected;   /* answered with another status, or given up at stop */
    uint64_t reconnects; /* connections opened after the first */
    unsigned queued;     /* waiting now */
    int connected;       /* a connection is open now */
} NchanCounts;

/* Checks URL, "http://HOST[:PORT]/PREFIX" or "http://unix:/SOCKET:/PREFIX"
 * (nginx's own spelling for a unix socket), and starts the publisher
 * thread; messages go to PREFIX/CHANNEL.  Nothing is connected yet: nginx
 * may come up after the daemon.  NULL with a message in ERR (ERRLEN bytes)
 * when the URL is malformed or the thread cannot start. */
Nchan *nchan_start(const char *url, char *err, size_t errlen);
/* Checks URL as nchan_start does, without starting anything: 0, or -1 with
 * a message in ERR (option parsing, before the database is opened). */
int nchan_url_check(const char *url, char *err, size_t errlen);
/* Sends what is queued while the connection works (at most 2 s), then
 * stops the thread and frees N.  NULL is a no-op. */
void nchan_stop(Nchan *n);
/* Queues DATA (one line of JSON) with its SSE EVENT name for the channel
 * of TOPIC (see above; other topics are ignored).  Never blocks on the
 * network; copies its arguments.  N may be NULL (no publisher). */
void nchan_publish(Nchan *n, const char *topic, const char *event, const char *data);
/* The counters into *C. */
void nchan_counts(Nchan *n, NchanCounts *c);

#endif
