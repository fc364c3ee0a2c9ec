/*
 * loadgen.h — what the HTTP load generators (tests/bench/bench_http.c,
 * tests/soak/soak.c) share: `arbiter serve` as a child process on a free
 * loopback port with its database in a temporary directory, a blocking
 * client for the set-up (one keep-alive connection, or many requests in
 * parallel), non-blocking keep-alive connections for an epoll loop, the
 * parsing of HTTP responses and of Server-Sent-Event streams, random legal
 * games, percentiles.
 *
 * One daemon per process (module state): the generators are single
 * programs.  Everything here dies (lg_die, the daemon killed) on a set-up
 * failure; the load itself reports its failures to the caller.
 */
#ifndef ARBITER_TESTS_LOADGEN_H
#define ARBITER_TESTS_LOADGEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

/* ---- time, failure ---- */

/* Monotonic microseconds. */
int64_t lg_now_us(void);
/* Names the program in messages ("bench_http", "soak"); call first. */
void lg_set_program(const char *name);
/* Prints "PROGRAM: message", kills the daemon, exits 1. */
void lg_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Raises the open-file limit to the hard limit; returns the limit. */
long lg_raise_nofile(void);

/* ---- the daemon ---- */

/* Starts BIN serve on a free 127.0.0.1 port with THREADS HTTP threads, no
 * rate limit, its database in a new temporary directory; waits for
 * /api/v1/health and reads the first-start password.  Dies on failure. */
void lg_daemon_start(const char *bin, const char *threads);
/* A free TCP port on 127.0.0.1 (dies when there is none). */
int lg_free_port(void);
/* Extra `serve` options (NULL-terminated, at most 8, kept by reference)
 * for the next lg_daemon_start. */
void lg_daemon_args(const char *const *args);
/* The daemon's process id, port and directory (after lg_daemon_start). */
pid_t lg_daemon_pid(void);
int lg_port(void);
const char *lg_dir(void);
/* SIGTERM and wait; returns the wait status. */
int lg_daemon_stop(void);
/* Removes the temporary directory. */
void lg_remove_dir(void);
/* CPU time (user + system) in microseconds of the daemon / of this
 * process: per move, steadier than wall-clock rates on a shared machine. */
int64_t lg_daemon_cpu_us(void);
int64_t lg_self_cpu_us(void);
/* The daemon's resident memory in KB and its open descriptors. */
long lg_daemon_rss_kb(void);
int lg_daemon_fds(void);

/* ---- blocking requests (the set-up) ---- */

/* A TCP connection to the daemon with TCP_NODELAY; non-blocking when
 * NONBLOCK.  -1 on failure. */
int lg_connect(int nonblock);
/* The same to another loopback PORT (a proxy in front of the daemon). */
int lg_connect_to(int port, int nonblock);
/* One request on the set-up's keep-alive connection (opened again when the
 * server closed it while idle).  HEADERS: extra header lines, each ending in
 * "\r\n", or NULL; BODY: JSON or NULL.  Returns the status (-1 when the
 * connection failed); *OUT (malloc'd, may be NULL) gets the body and
 * COOKIE the Set-Cookie value when asked. */
int lg_call(const char *method, const char *path, const char *headers, const char *body, char **out,
            char *cookie, size_t cookie_len);
/* lg_call whose status must be WANT; returns the parsed body (the
 * caller's reference), dies otherwise. */
json_t *lg_call_json(const char *method, const char *path, const char *headers, const char *body,
                     int want);
/* Signs in as the first-start arbiter; writes the header lines (cookie and
 * CSRF token) that make a request the arbiter's into HEADERS. */
void lg_login(char *headers, size_t len);

/* A request of a batch: filled by the caller (HEADERS and BODY may be
 * NULL); STATUS and OUT (malloc'd, freed by the caller) by lg_call_many. */
typedef struct LgCall {
    const char *method;
    char path[160];
    const char *headers;
    char *body;
    int status;
    char *out;
} LgCall;
/* Runs the N requests over NCONNS keep-alive connections at once (the
 * server commits concurrent writes together: much faster than one by
 * one).  Dies when a connection fails. */
void lg_call_many(LgCall *calls, int n, int nconns);

/* ---- keep-alive connections in an epoll loop ---- */

typedef struct LgConn {
    int fd;
    char *out;
    size_t outlen, outoff, outcap;
    char *in;
    size_t inlen, incap;
    size_t pending; /* the length of the response handed out, until consumed */
    char saved;     /* the byte its terminating NUL covers */
} LgConn;

/* Opens C (non-blocking) and adds it to EP with TAG as its epoll data.
 * 0 or -errno. */
int lg_conn_open(LgConn *c, int ep, uint64_t tag);
/* Queues REQ (LEN bytes) and writes what the socket takes; the rest goes
 * on EPOLLOUT (lg_conn_flush).  0 or -errno. */
int lg_conn_send(LgConn *c, int ep, uint64_t tag, const char *req, size_t len);
/* Writes queued bytes (on EPOLLOUT).  0 or -errno. */
int lg_conn_flush(LgConn *c, int ep, uint64_t tag);
/* Reads everything available into C's input.  1 while open, 0 when the
 * peer closed, -errno on an error (e.g. -ECONNRESET). */
int lg_conn_read(LgConn *c);
/* The first complete response in C's input: 1 with *STATUS and *BODY
 * (NUL-terminated, inside C's buffer, valid until lg_conn_consume or the
 * next call, which drops it), 0 when incomplete.  Responses carry a
 * Content-Length (the API's do). */
int lg_conn_response(LgConn *c, int *status, char **body);
/* Drops the response lg_conn_response returned. */
void lg_conn_consume(LgConn *c);
/* Closes C (removed from EP) and frees its buffers; C can be opened again. */
void lg_conn_close(LgConn *c, int ep);

/* ---- Server-Sent-Event streams ---- */

/* The parse state of one stream's answer: the HTTP head, the chunked
 * transfer coding, then SSE lines.  Only a line's first bytes are kept
 * (ids and event names; data lines hold whole games, not needed). */
typedef struct LgSse {
    int phase; /* 0 head, 1 chunk size, 2 chunk data, 3 chunk end, 4 done */
    int status;
    int chunked;
    size_t chunk_left;
    char head[512]; /* the head so far, then a chunk size line */
    size_t hlen;
    char line[40];      /* the current line's first bytes */
    size_t llen, lfull; /* bytes kept, and the line's length so far */
    char event[24];     /* the current event's name */
    int64_t id;         /* the current event's id, 0 when none */
    int64_t last_id;    /* the last id of a complete event */
} LgSse;

/* Called for each complete event (a comment is not one) with its name and
 * id (0 when none). */
typedef void (*LgSseEvent)(void *ctx, const char *event, int64_t id);
/* Starts a new answer. */
void lg_sse_reset(LgSse *s);
/* Parses N bytes of the answer.  0 while it goes on, 1 when the server
 * ended the stream (the last chunk), -1 when malformed.  The status is in
 * s->status once the head is in. */
int lg_sse_feed(LgSse *s, const char *data, size_t n, LgSseEvent cb, void *ctx);

/* ---- games, statistics ---- */

/* A xorshift step: the generators' random numbers (deterministic). */
uint64_t lg_rng(uint64_t *state);
/* Up to MAX plies of a random legal game from the start in UCI; stops after
 * a move that leaves no legal reply.  Returns the number of plies. */
int lg_random_game(uint64_t seed, char (*moves)[6], int max);
/* qsort comparison of int64_t, and the P-quantile (0..1) of sorted V. */
int lg_cmp64(const void *a, const void *b);
int64_t lg_pct(const int64_t *v, size_t n, double p);

#endif
