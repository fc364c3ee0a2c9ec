/*
 * sse.h — the hub of the live streams (Server-Sent Events).
 *
 * A topic ("g:GAME", "t:TOURNAMENT", "a:TOURNAMENT" for the arbiter's
 * alerts) keeps a ring of its recent messages; each open stream is a cursor
 * into that ring.  Publishing writes a message once and wakes the suspended
 * streams of the topic; each stream copies what it has not sent yet when its
 * connection can take it.  Nothing is copied per viewer on publish, and a
 * waiting stream holds no thread (its connection is suspended).
 *
 * Ids are the store's ids (game_events.id, alerts.id), increasing in commit
 * order.  A stream that reconnects with Last-Event-ID first gets the events
 * after that id from the store (the backlog), then live ones; messages the
 * backlog already carried are skipped by id, so nothing is lost or repeated.
 * A stream that falls a whole ring behind is closed: the client reconnects
 * and resumes from the store.
 *
 * A broadcast delay: the public streams of a tournament with a delay are
 * topics of their own (SSE_DELAYED before the name: "~g:GAME",
 * "~t:TOURNAMENT"), fed by the delay line: sse_publish_later() holds a
 * message until its instant, then publishes it like sse_publish().  The
 * line is kept whether or not anyone listens, since a viewer who comes
 * later must still get what falls due after he came.
 */
#ifndef ARBITER_SERVER_SSE_H
#define ARBITER_SERVER_SSE_H

#include <stdint.h>

#include "http.h"

Hub *sse_new(void);
/* Closes every stream; NULL is a no-op.  Call after the HTTP daemon stopped. */
void sse_free(Hub *h);
/* Publishes to TOPIC one event with ID (>0; 0 sends no id line), EVENT name
 * and DATA (one line of JSON).  Does nothing when nobody listens. */
void sse_publish(Hub *h, const char *topic, int64_t id, const char *event, const char *data);
/* The prefix of a topic fed by the delay line. */
#define SSE_DELAYED "~"
/* Publishes to TOPIC1 and TOPIC2 (NULL: none) what sse_publish() would, at
 * DUE_MS (wall-clock ms, store_now_ms) or, when a message of the same
 * GROUP queued before falls due later, right after that one: a group's
 * messages keep their order.  0, or -1 when out of memory or the delay
 * line is full (the message is dropped, once logged). */
int sse_publish_later(Hub *h, const char *topic1, const char *topic2, int64_t group, int64_t id,
                      const char *event, const char *data, int64_t due_ms);
/* What the delay line also hands each message to as it falls due, once
 * per topic, whether or not a stream listens: the daemon's Nchan publisher
 * (live.h), which must see every delayed public event.  Called on the
 * hub's waker thread, in the order of publication; must not block. */
typedef void (*SseTap)(void *cls, const char *topic, const char *event, const char *data);
/* Sets the tap (FN NULL: none); call before the first sse_publish_later. */
void sse_tap_set(Hub *h, SseTap fn, void *cls);
/* Messages waiting in the delay line. */
int sse_later_count(Hub *h);
/* 1 when TOPIC has open streams (skip formatting otherwise). */
int sse_listened(Hub *h, const char *topic);
/* Makes r's answer a stream of TOPIC.  BACKLOG (taken, may be NULL) is sent
 * first; live messages with an id <= LAST_ID are skipped.  Call before
 * reading the backlog from the store: sse_attach then sse_stream. */
typedef struct Stream Stream;
Stream *sse_attach(Hub *h, const char *topic);
int sse_stream(Req *r, Stream *s, char *backlog, size_t backlog_len, int64_t last_id);
/* Drops a stream that was attached but never handed to sse_stream. */
void sse_detach(Stream *s);
/* Ends every stream (shutdown). */
void sse_close_all(Hub *h);
/* Sends a comment line to the streams of every topic that has been quiet
 * for three calls (keeps proxies and dead-peer detection working); call
 * every ~5 s, so a quiet stream hears something every 15-20 s. */
void sse_keepalive(Hub *h);
/* Streams currently open. */
int sse_count(Hub *h);
/* Topics in memory: those with an open stream, and those in use for a
 * moment by a publisher or a wake-up. */
int sse_topics(Hub *h);

#endif
