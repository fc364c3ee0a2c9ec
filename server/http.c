/*
 * http.c — libmicrohttpd glue: request life cycle, bodies, replies, static
 * files, the writer bridge, the request log.  See http.h.
 *
 * Life of a request: the first call of the access handler allocates a Req;
 * body chunks are appended (at most HTTP_MAX_BODY, beyond which the request
 * is answered 413 without reading more into memory); the final call hands
 * an /api/v1 request to the api hook (routes.c: session, route, role) or
 * serves a file.  A route either answers at
 * once or suspends (http_submit); the resumed call runs its finish callback
 * and queues the answer.  A heavy read (an export) suspends too and runs on
 * the heavy-read pool (http_offload): its threads run at a lower priority
 * than the polling threads, so a flood of exports takes the CPU that moves
 * leave over, never a polling thread.
 *
 * Before anything else, the first call refuses what HTTP/1.1 says a server
 * must not guess at (RFC 9112): a request without Host, a Content-Length
 * given twice with different values (400), a Transfer-Encoding other than
 * chunked (501); the answer closes the connection, since where the next
 * request would begin is unknown.
 */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"

static const char API_PREFIX[] = "/api/v1";

/* Requests suspended for the writer or the heavy-read pool. */
static atomic_int inflight;

/* The heavy-read pool: at most HEAVY_QUEUE requests wait; its threads run
 * HEAVY_NICE steps below the polling threads. */
enum { HEAVY_QUEUE = 256, HEAVY_DEFAULT_THREADS = 1, HEAVY_MAX_THREADS = 16, HEAVY_NICE = 10 };

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- reader connections, one per polling thread ---- */

static pthread_mutex_t readers_mu = PTHREAD_MUTEX_INITIALIZER;
static Store *readers[256];
static int n_readers;
static _Thread_local Store *tl_reader;

Store *http_reader(Server *srv)
{
    if (tl_reader)
        return tl_reader;
    char err[256];
    if (store_open(srv->db_path, 1, &tl_reader, err, sizeof err)) {
        fprintf(stderr, "serve: cannot open a reader: %s\n", err);
        return NULL;
    }
    pthread_mutex_lock(&readers_mu);
    if (n_readers < (int)(sizeof readers / sizeof readers[0]))
        readers[n_readers++] = tl_reader;
    pthread_mutex_unlock(&readers_mu);
    return tl_reader;
}

Store *http_req_reader(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        http_error(r, API_E_INTERNAL, "the store is not available");
    return s;
}

void http_readers_close(void)
{
    pthread_mutex_lock(&readers_mu);
    for (int i = 0; i < n_readers; i++)
        store_close(readers[i]);
    n_readers = 0;
    pthread_mutex_unlock(&readers_mu);
}

/* ---- replies ---- */

int http_text(Req *r, int status, const char *ctype, char *text, size_t len)
{
    free(r->out);
    r->status = status;
    r->out = text;
    r->out_len = len;
    r->ctype = ctype;
    return ROUTE_DONE;
}

int http_json(Req *r, int status, json_t *body)
{
    char *s = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    if (!s)
        return http_text(r, 500, "application/json", strdup(oom), sizeof oom - 1);
    return http_text(r, status, "application/json", s, strlen(s));
}

int http_error(Req *r, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* A message quoting the client's bytes (or cut at 511) may not be UTF-8,
     * which JSON cannot carry: then only its ASCII is kept. */
    json_t *m = json_string(msg);
    for (char *p = msg; !m && *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    if (!m)
        m = json_string(msg);
    return http_json(r, errors_status(code),
                     json_pack("{s:{s:s,s:o}}", "error", "code", errors_code(code), "message", m));
}

void http_add_header(Req *r, const char *name, const char *value)
{
    if (r->nhdr >= (int)(sizeof r->hdr / sizeof r->hdr[0]))
        return;
    r->hdr[r->nhdr][0] = strdup(name);
    r->hdr[r->nhdr][1] = strdup(value);
    r->nhdr++;
}

const char *http_header(Req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

int http_parse_body(Req *r, int empty_ok)
{
    if (r->body_len == 0 && empty_ok) {
        r->in = json_object();
        return 0;
    }
    json_error_t e;
    r->in = json_loadb(r->body ? r->body : "", r->body_len, JSON_REJECT_DUPLICATES, &e);
    if (!r->in) {
        http_error(r, API_E_BAD_JSON, "the body is not valid JSON: %s (line %d, column %d)", e.text,
                   e.line, e.column);
        return -1;
    }
    if (!json_is_object(r->in)) {
        http_error(r, API_E_BAD_JSON, "the body must be a JSON object");
        return -1;
    }
    return 0;
}

/* ---- the writer bridge ---- */

static void job_done(WriterJob *job, int rc)
{
    Req *r = job->arg;
    r->job_rc = rc;
    if (!r->keeps_auth && r->srv->hooks->write_committed)
        r->srv->hooks->write_committed();
    if (r->committed)
        r->committed(r, rc);
    MHD_resume_connection(r->conn);
}

int http_submit(Req *r, int (*run)(Store *s, WriterJob *job), void (*finish)(Req *r, int rc))
{
    if (r->srv->stopping)
        return http_error(r, API_E_UNAVAILABLE, "the server is stopping");
    r->job.run = run;
    r->job.done = job_done;
    r->job.arg = r;
    r->finish = finish;
    r->phase = 1;
    atomic_fetch_add(&inflight, 1);
    /* Suspend first: the commit may complete before this function returns. */
    MHD_suspend_connection(r->conn);
    if (writer_submit(r->srv->writer, &r->job)) {
        r->job_rc = API_E_UNAVAILABLE;
        snprintf(r->err, sizeof r->err, "the server is stopping");
        MHD_resume_connection(r->conn);
    }
    return ROUTE_SUSPENDED;
}

/* ---- the heavy-read pool ---- */

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Req *q[HEAVY_QUEUE];
    unsigned head, n;
    int nthreads, stop;
    pthread_t threads[HEAVY_MAX_THREADS];
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static void *heavy_main(void *arg)
{
    (void)arg;
    /* Linux gives each thread its own nice value. */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), HEAVY_NICE);
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (!pool.n && !pool.stop)
            pthread_cond_wait(&pool.cv, &pool.mu);
        if (!pool.n)
            break;
        Req *r = pool.q[pool.head];
        pool.head = (pool.head + 1) % HEAVY_QUEUE;
        pool.n--;
        int stopping = pool.stop;
        pthread_mutex_unlock(&pool.mu);
        /* When stopping, what waits is answered at once, not rendered. */
        if (stopping)
            http_error(r, API_E_UNAVAILABLE, "the server is stopping");
        else
            r->heavy(r);
        r->phase = 5;
        MHD_resume_connection(r->conn);
        pthread_mutex_lock(&pool.mu);
    }
    pthread_mutex_unlock(&pool.mu);
    return NULL;
}

static int pool_start(int threads)
{
    if (threads < 1)
        threads = HEAVY_DEFAULT_THREADS;
    if (threads > HEAVY_MAX_THREADS)
        threads = HEAVY_MAX_THREADS;
    pool.stop = 0;
    for (pool.nthreads = 0; pool.nthreads < threads; pool.nthreads++)
        if (pthread_create(&pool.threads[pool.nthreads], NULL, heavy_main, NULL))
            return -EAGAIN;
    return 0;
}

/* Answers the queued reads 503, lets the running ones finish, ends the
 * threads. */
static void pool_stop(void)
{
    pthread_mutex_lock(&pool.mu);
    pool.stop = 1;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.mu);
    for (int i = 0; i < pool.nthreads; i++)
        pthread_join(pool.threads[i], NULL);
    pool.nthreads = 0;
}

int http_offload(Req *r, int (*fn)(Req *r))
{
    r->heavy = fn;
    if (!r->conn || !pool.nthreads)
        return fn(r);
    pthread_mutex_lock(&pool.mu);
    int full = pool.n == HEAVY_QUEUE || pool.stop || r->srv->stopping;
    if (!full) {
        atomic_fetch_add(&inflight, 1);
        r->phase = 1;
        /* Suspend first: a pool thread may finish before this returns. */
        MHD_suspend_connection(r->conn);
        pool.q[(pool.head + pool.n) % HEAVY_QUEUE] = r;
        pool.n++;
        pthread_cond_signal(&pool.cv);
    }
    pthread_mutex_unlock(&pool.mu);
    if (!full)
        return ROUTE_SUSPENDED;
    http_add_header(r, "Retry-After", "2");
    return http_error(r, API_E_UNAVAILABLE,
                      "too many exports are being prepared; try again in 2 s");
}

/* ---- connections: per-address caps and header deadlines (conns.h) ---- */

unsigned http_stream_slot(Req *r, const unsigned char key[16])
{
    if (!r->srv->conns || r->stream_held)
        return 0;
    unsigned cap = conns_stream_take(r->srv->conns, key);
    if (!cap) {
        r->stream_held = 1;
        memcpy(r->stream_key, key, 16);
    }
    return cap;
}

static enum MHD_Result accept_policy(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    Server *srv = cls;
    (void)addrlen;
    return conns_accept(srv->conns, addr) ? MHD_YES : MHD_NO;
}

static void notify_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                              enum MHD_ConnectionNotificationCode toe)
{
    Server *srv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        conns_closed(srv->conns, *socket_context);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *ad =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    *socket_context =
        fd ? conns_started(srv->conns, fd->connect_fd, ad ? ad->client_addr : NULL) : NULL;
}

/* The guard's record of CONN (NULL for an in-process request). */
static Conn *conn_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        conn ? MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT) : NULL;
    return ci ? ci->socket_context : NULL;
}

/* ---- HTTP/1.1 strictness ---- */

typedef struct Lengths {
    const char *first;
    int conflict;
} Lengths;

static enum MHD_Result each_length(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    Lengths *l = cls;
    (void)kind;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) != 0 || !value)
        return MHD_YES;
    if (!l->first)
        l->first = value;
    else if (strcmp(l->first, value) != 0)
        l->conflict = 1;
    return MHD_YES;
}

/* 0 when the request's framing is clear, else answers it (400 or 501) and
 * returns -1. */
static int strict_check(Req *r, const char *version)
{
    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 && !http_header(r, MHD_HTTP_HEADER_HOST))
        return http_error(r, API_E_BAD_REQUEST, "an HTTP/1.1 request must carry Host"), -1;
    const char *te = http_header(r, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    if (te && strcasecmp(te, "chunked") != 0)
        return http_error(r, API_E_NOT_IMPLEMENTED,
                          "Transfer-Encoding '%.40s' is not supported (only chunked)", te),
               -1;
    Lengths l = {0};
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, each_length, &l);
    if (l.conflict)
        return http_error(r, API_E_BAD_REQUEST, "the request gives different Content-Lengths"), -1;
    return 0;
}

static void finish_json(Req *r, int rc, int status)
{
    if (rc) {
        http_error(r, rc, "%s", r->err[0] ? r->err : "the request failed");
        return;
    }
    json_t *res = r->result;
    r->result = NULL;
    http_json(r, status, res ? res : json_object());
}

void http_finish_json200(Req *r, int rc)
{
    finish_json(r, rc, 200);
}

void http_finish_json201(Req *r, int rc)
{
    finish_json(r, rc, 201);
}

/* ---- request methods ---- */

static int method_of(const char *m)
{
    static const struct {
        const char *name;
        int m;
    } t[] = {{"GET", HTTP_GET}, {"POST", HTTP_POST},     {"PATCH", HTTP_PATCH},
             {"PUT", HTTP_PUT}, {"DELETE", HTTP_DELETE}, {"HEAD", HTTP_HEAD}};
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(m, t[i].name) == 0)
            return t[i].m;
    return HTTP_OTHER;
}

/* ---- the access handler ---- */

static enum MHD_Result queue(Req *r)
{
    struct MHD_Response *resp = r->resp;
    if (!resp) {
        resp = MHD_create_response_from_buffer(r->out_len, r->out ? r->out : (char *)"",
                                               r->out ? MHD_RESPMEM_MUST_FREE
                                                      : MHD_RESPMEM_PERSISTENT);
        r->out = NULL;
        if (r->ctype)
            MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->ctype);
        /* Nothing is kept unless the route said how long (cache.h). */
        int cc = 0;
        for (int i = 0; i < r->nhdr; i++)
            cc |= strcasecmp(r->hdr[i][0], MHD_HTTP_HEADER_CACHE_CONTROL) == 0;
        if (!cc)
            MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
    r->resp = NULL;
    for (int i = 0; i < r->nhdr; i++)
        MHD_add_response_header(resp, r->hdr[i][0], r->hdr[i][1]);
    r->srv->hooks->headers(resp);
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_size, void **con_cls)
{
    Server *srv = cls;
    Req *r = *con_cls;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        r->srv = srv;
        r->conn = conn;
        r->url = url;
        r->method = method_of(method);
        r->method_name = method;
        r->t0_us = now_us();
        r->arrived_ms = store_now_ms();
        *con_cls = r;
        if (srv->conns)
            conns_request_begun(srv->conns, conn_of(conn));
        if (strict_check(r, version)) {
            http_add_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
            r->phase = 3;
            return queue(r);
        }
        /* Before anything else is done for it: a client over its budget
         * costs one table look-up, and its body is not even kept. */
        if (srv->hooks->admit && srv->hooks->admit(r))
            r->phase = 4;
        return MHD_YES;
    }
    if (r->phase == 4) { /* refused at the start: drop the body, then answer */
        if (*upload_size) {
            *upload_size = 0;
            return MHD_YES;
        }
        r->phase = 3;
        return queue(r);
    }
    if (r->phase == 1) {
        /* Resumed after the commit. */
        atomic_fetch_sub(&inflight, 1);
        r->phase = 2;
        r->finish(r, r->job_rc);
        return queue(r);
    }
    if (r->phase == 5) { /* resumed with the heavy read's answer */
        atomic_fetch_sub(&inflight, 1);
        r->phase = 3;
        return queue(r);
    }
    if (r->phase == 3) /* a stream answered already */
        return MHD_YES;
    if (*upload_size) {
        if (r->body_len + *upload_size > HTTP_MAX_BODY) {
            r->too_large = 1;
        } else if (!r->too_large) {
            if (r->body_len + *upload_size + 1 > r->body_cap) {
                size_t cap = r->body_cap ? r->body_cap * 2 : 1024;
                while (cap < r->body_len + *upload_size + 1)
                    cap *= 2;
                char *nb = realloc(r->body, cap);
                if (!nb)
                    return MHD_NO;
                r->body = nb;
                r->body_cap = cap;
            }
            memcpy(r->body + r->body_len, upload_data, *upload_size);
            r->body_len += *upload_size;
            r->body[r->body_len] = 0;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    int rc;
    size_t pl = sizeof API_PREFIX - 1;
    if (strncmp(url, API_PREFIX, pl) == 0 && (url[pl] == '/' || url[pl] == 0))
        rc = srv->hooks->api(r, url[pl] ? url + pl : "/");
    else {
        int e = srv->hooks->files(r, url);
        rc = e == 0  ? ROUTE_DONE
             : e > 0 ? http_error(r, API_E_NO_ROUTE, "not found: %s", url)
                     : http_error(r, API_E_INTERNAL, "cannot send %s", url);
    }
    if (rc == ROUTE_SUSPENDED)
        return MHD_YES;
    r->phase = 3;
    return queue(r);
}

void http_log_escape(const char *in, char *out, size_t outlen)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (outlen == 0)
        return;
    for (const unsigned char *p = (const unsigned char *)(in ? in : ""); *p; p++) {
        /* Printable ASCII but the blank and the backslash stays itself;
         * everything else becomes \xHH, so one request is one line of
         * blank-separated fields whatever it contains. */
        int plain = *p > 0x20 && *p < 0x7f && *p != '\\';
        size_t need = plain ? 1 : 4;
        if (o + need + 4 >= outlen) {
            if (o + 3 < outlen)
                memcpy(out + o, "...", 3), o += 3;
            break;
        }
        if (plain) {
            out[o++] = (char)*p;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        }
    }
    out[o] = 0;
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    Server *srv = cls;
    Req *r = *con_cls;
    if (srv->conns && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
        conns_request_done(srv->conns, conn_of(conn));
    if (!r)
        return;
    if (r->stream_held)
        conns_stream_give(srv->conns, r->stream_key);
    if (!srv->quiet && r->status != 0) {
        const char *m = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
        char method[64], url[1024], id[256];
        http_log_escape(r->method_name, method, sizeof method);
        http_log_escape(r->url, url, sizeof url);
        http_log_escape(m ? m : "", id, sizeof id);
        fprintf(stderr, "http %s %s %d %lldus%s%s\n", method, url, r->status,
                (long long)(now_us() - r->t0_us), m ? " id=" : "", id);
    }
    if (r->data_free)
        r->data_free(r->data);
    for (int i = 0; i < r->nhdr; i++) {
        free(r->hdr[i][0]);
        free(r->hdr[i][1]);
    }
    json_decref(r->in);
    json_decref(r->result);
    free(r->body);
    free(r->out);
    if (r->resp)
        MHD_destroy_response(r->resp);
    free(r);
    *con_cls = NULL;
}

void http_heap_trim(void)
{
    malloc_trim(0);
}

int http_start(Server *srv, const char *addr, int threads, char *err, size_t errlen)
{
    /* Requests allocate and free a few KB each: keep the freed memory
     * instead of giving it back and faulting it in again (zeroed pages were
     * a few percent of the CPU under load).  What the threads' heaps keep
     * free between their live blocks goes back once a minute
     * (http_heap_trim): in the soak's hour the memory in use stayed flat
     * while the heaps' free gaps grew the RSS by 13%. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof host) {
        snprintf(err, errlen, "--listen wants HOST:PORT, got '%s'", addr);
        return -EINVAL;
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 0 || port > 65535) {
        snprintf(err, errlen, "bad port in '%s'", addr);
        return -EINVAL;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        snprintf(err, errlen, "--listen wants an IPv4 address, got '%s'", host);
        return -EINVAL;
    }
    unsigned flags =
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
    if (!(srv->conns = conns_new(&srv->conn_limits, srv->proxies)) ||
        pool_start(srv->heavy_threads)) {
        snprintf(err, errlen, "cannot start the connection guard or the export threads");
        pool_stop();
        conns_free(srv->conns);
        srv->conns = NULL;
        return -ENOMEM;
    }
    /* libmicrohttpd's idle timeout ends a connection on which nothing moved
     * for that long (a stream that its client stopped reading, a stalled
     * body); suspended streams are not timed, and a live one is resumed
     * for its keep-alive well within it. */
    srv->mhd = MHD_start_daemon(
        flags, (uint16_t)port, accept_policy, srv, handler, srv, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&sa, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)30000, MHD_OPTION_CONNECTION_TIMEOUT,
        srv->conn_limits.idle_s, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)4096,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024), MHD_OPTION_NOTIFY_COMPLETED,
        completed, srv, MHD_OPTION_NOTIFY_CONNECTION, notify_connection, srv, MHD_OPTION_END);
    if (!srv->mhd) {
        int e = errno;
        pool_stop();
        conns_free(srv->conns);
        srv->conns = NULL;
        snprintf(err, errlen, "cannot listen on %s: %s", addr, strerror(e));
        return -EADDRINUSE;
    }
    return 0;
}

void http_stop(Server *srv)
{
    if (!srv->mhd)
        return;
    /* From now on new writes are answered 503.  (MHD_quiesce_daemon is not
     * used: with a pool of epoll threads it can race with a worker and
     * abort.) */
    srv->stopping = 1;
    /* In-flight writes finish (the writer is still running). */
    for (int i = 0; i < 500 && atomic_load(&inflight) > 0; i++)
        usleep(10000);
    pool_stop();
    if (srv->hooks->stopping)
        srv->hooks->stopping(srv);
    usleep(50000);
    MHD_stop_daemon(srv->mhd);
    srv->mhd = NULL;
    conns_free(srv->conns);
    srv->conns = NULL;
}
