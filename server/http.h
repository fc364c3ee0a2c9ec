/*
 * http.h — the HTTP layer of `arbiter serve`: libmicrohttpd (epoll, a pool
 * of polling threads, suspend/resume), request bodies, routing, JSON replies,
 * static files, and the bridge to the group-commit writer.  What a request
 * means (routes, sessions, defences) is plugged in through HttpHooks, so
 * this layer depends on none of it.
 *
 * A request that changes data never blocks a polling thread: its route
 * prepares a WriterJob and calls http_submit(), which suspends the
 * connection; the writer runs the job inside a group commit and, once the
 * commit is durable, resumes the connection; the route's finish callback then
 * builds the answer on a polling thread.  Live streams (sse.h) also suspend
 * while they have nothing to send, so thousands of them cost no threads.
 */
#ifndef ARBITER_SERVER_HTTP_H
#define ARBITER_SERVER_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

#include "conns.h"
#include "ratelimit.h"
#include "store.h"
#include "writer.h"

typedef struct Server Server;
typedef struct Req Req;
typedef struct Hub Hub;
typedef struct Games Games;
typedef struct Flags Flags;
typedef struct Nchan Nchan;

enum { HTTP_GET = 1, HTTP_POST, HTTP_PATCH, HTTP_PUT, HTTP_DELETE, HTTP_HEAD, HTTP_OTHER };

/* Who is asking (auth.h fills it). */
/* ROLE_CAPTAIN: a team captain (bearer token only), who may submit his
 * team's line-ups. */
typedef enum { ROLE_ANON = 0, ROLE_ARBITER, ROLE_PLAYER, ROLE_CAPTAIN } Role;
typedef struct Auth {
    Role role;
    int64_t user_id;       /* arbiter */
    int64_t player_id;     /* player */
    int64_t tournament_id; /* player's or captain's tournament */
    int64_t team_id;       /* captain */
    int by_cookie;         /* the session came from the cookie (CSRF applies) */
    char csrf[48];
    char username[64];
} Auth;

/* The largest request body kept; a longer one is answered 413. */
enum { HTTP_MAX_BODY = 64 * 1024 };

/* What a route returns. */
enum { ROUTE_DONE = 0, ROUTE_SUSPENDED = 1 };

struct Req {
    Server *srv;
    struct MHD_Connection *conn;
    int method;
    const char *method_name;
    const char *url;   /* the full path as received */
    const char *route; /* the route pattern matched (for the log) */
    int64_t id[4];     /* integer path parameters in order */
    char *body;
    size_t body_len, body_cap;
    int too_large;
    json_t *in; /* the parsed body (http_parse_body) */
    Auth auth;
    int colour; /* routes for a game's player: the caller's side (routes.c) */
    int64_t t0_us;
    /* The wall-clock instant (store_now_ms) the request's headers were
     * complete: what a move is stamped with, so that neither the writer's
     * queue nor a busy thread is charged to a player's clock. */
    int64_t arrived_ms;
    /* the answer */
    int status;
    char *out;
    size_t out_len;
    const char *ctype;
    struct MHD_Response *resp; /* a ready response (streams, files) */
    char *hdr[8][2];           /* extra response headers */
    int nhdr;
    /* deferred work */
    WriterJob job;
    int job_rc;
    int phase;
    void (*finish)(Req *r, int rc);
    /* Optional: runs on the writer thread right after the commit (rc as
     * for finish), before the connection resumes; what must happen in
     * commit order (publishing to live streams) happens here. */
    void (*committed)(Req *r, int rc);
    json_t *result; /* what the job produced for finish */
    char err[256];  /* a message for a positive error code */
    int keeps_auth; /* the job cannot change sessions or credentials */
    void *data;     /* route-private; freed with data_free */
    void (*data_free)(void *);
    /* A live stream slot of this client address (http_stream_slot),
     * given back when the request ends. */
    int stream_held;
    unsigned char stream_key[16];
    /* Offloaded to the heavy-read pool (http_offload): what runs there,
     * with an argument of the caller's. */
    int (*heavy)(Req *r);
    const void *heavy_arg;
};

/*
 * What the layers above the transport plug into it, set in Server before
 * http_start.  The HTTP layer calls them and includes none of their
 * headers: the routes, the sign-in and the defences use this file, never
 * the other way round.
 */
typedef struct HttpHooks {
    /* At the start of every request, before its body is read: 0 to go on,
     * -1 after answering (the rate limit). */
    int (*admit)(Req *r);
    /* An /api/v1 request once its body is in; PATH is what follows the
     * prefix ("/" at least).  Returns ROUTE_DONE or ROUTE_SUSPENDED. */
    int (*api)(Req *r, const char *path);
    /* On the writer thread after a committed write that may have changed
     * sessions, credentials or pairings (r->keeps_auth unset). */
    void (*write_committed)(void);
    /* The headers every answer carries (those not already there). */
    void (*headers)(struct MHD_Response *resp);
    /* The headers of the HTML page at PATH, before the common ones. */
    void (*page_headers)(struct MHD_Response *resp, const char *path);
    /* A request outside /api/v1 (the pages' files): 0 with r->resp and
     * r->status set, a positive value for "not found", negative when no
     * answer could be made (webfiles.h). */
    int (*files)(Req *r, const char *url);
    /* When stopping, after in-flight writes finished and before the
     * connections close: ends what holds connections suspended (streams). */
    void (*stopping)(Server *srv);
} HttpHooks;

/* The daemon's shared state. */
struct Server {
    const HttpHooks *hooks;
    struct MHD_Daemon *mhd;
    Writer *writer;
    Hub *hub;
    Games *games;
    Flags *flags;
    Nchan *nchan; /* the public events' publisher to nginx (nchan.h); NULL: none */
    const char *db_path;
    const char *web_dir;
    int quiet;                /* no per-request log lines */
    RateLimiter *limiter;     /* requests per client address; NULL: no limit */
    const ProxyList *proxies; /* peers whose X-Forwarded-For names the client */
    int behind_tls;           /* clients reach us over https (a TLS proxy in front) */
    ConnLimits conn_limits;   /* per-address caps and header deadlines (conns.h) */
    Conns *conns;             /* made by http_start */
    int heavy_threads;        /* threads for heavy reads (http_offload); 0: default */
    volatile int stopping;
};

/* Starts serving on ADDR ("host:port") with THREADS polling threads.
 * Returns 0 or a negative value with a message in ERR. */
int http_start(Server *srv, const char *addr, int threads, char *err, size_t errlen);
/* Stops accepting, lets deferred requests finish, closes everything. */
void http_stop(Server *srv);
/* Gives the heap's free pages back to the system (malloc_trim): called
 * once a minute by the serving loop, not per request. */
void http_heap_trim(void);

/* This thread's read-only store connection (opened on first use). */
Store *http_reader(Server *srv);
/* As http_reader() for a request: NULL after answering 500 (the route then
 * returns ROUTE_DONE) when no connection can be opened. */
Store *http_req_reader(Req *r);
/* Closes every reader connection (after the polling threads stopped). */
void http_readers_close(void);

/* Replies: take ownership of the JSON / text. */
int http_json(Req *r, int status, json_t *body);
int http_text(Req *r, int status, const char *ctype, char *text, size_t len);
/* The error reply for CODE (errors.h) with a printf-style message. */
int http_error(Req *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Parses the body as a JSON object into r->in; on failure answers and
 * returns -1 (the route returns ROUTE_DONE).  An empty body is {} when
 * EMPTY_OK. */
int http_parse_body(Req *r, int empty_ok);
/* Suspends the connection and hands RUN to the writer; FINISH(r, rc) builds
 * the answer after the commit.  Returns ROUTE_SUSPENDED (or ROUTE_DONE after
 * answering 503 when the server is stopping). */
int http_submit(Req *r, int (*run)(Store *s, WriterJob *job), void (*finish)(Req *r, int rc));
/* Finish callback for jobs whose result is r->result answered with 200/201. */
void http_finish_json200(Req *r, int rc);
void http_finish_json201(Req *r, int rc);
/* A request header, or NULL. */
const char *http_header(Req *r, const char *name);
/* Takes a live stream slot of client address KEY for R (given back when
 * R ends): 0, or the per-address cap (> 0) when the address holds that
 * many streams already. */
unsigned http_stream_slot(Req *r, const unsigned char key[16]);
/* Runs FN(r) on a thread of the heavy-read pool instead of this polling
 * thread, so that exports never delay a move: suspends the connection and
 * returns ROUTE_SUSPENDED; FN must answer (return ROUTE_DONE).  Answers 503
 * with Retry-After (ROUTE_DONE) when the pool's queue is full or the server
 * is stopping.  FN runs at once, here, when there is no pool (in-process
 * requests). */
int http_offload(Req *r, int (*fn)(Req *r));
/* Adds a header to the response built at the end (e.g. Set-Cookie). */
void http_add_header(Req *r, const char *name, const char *value);

/* IN as one log field into OUT (OUTLEN bytes, cut with "..." when longer):
 * printable ASCII other than the blank and the backslash is kept, every
 * other byte (CR, LF, ESC, blanks, UTF-8) becomes \xHH, so a client's
 * bytes can neither start a line nor fake a field.  IN NULL is "". */
void http_log_escape(const char *in, char *out, size_t outlen);

#endif
