/*
 * nchan.c — the publisher to Nchan: a bounded queue, one thread, one
 * keep-alive HTTP/1.1 connection.  See nchan.h.
 *
 * The protocol is the little HTTP/1.1 that Nchan's publisher needs: a POST
 * with Content-Length and X-EventSource-Event, and an answer whose body
 * (Nchan's channel summary) is read and thrown away, sized by
 * Content-Length or chunked.  One request at a time: a move makes two
 * messages, a few hundred microseconds on loopback, and waiting for each
 * answer keeps a channel's messages in order without pipelining.
 *
 * A POST is not repeated blindly: it is sent again only when the
 * connection failed before any byte of the answer came, which is what a
 * kept-alive connection that nginx closed meanwhile looks like.
 *
 * Workload: two messages per move, a few KB each; the queue holds at most
 * QUEUE_MAX messages or QUEUE_BYTES bytes.
 */
#include "nchan.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum { QUEUE_MAX = 20000, QUEUE_BYTES = 64 * 1024 * 1024 };
enum { IO_TIMEOUT_MS = 5000, BACKOFF_FIRST_MS = 100, BACKOFF_MAX_MS = 5000, STOP_MS = 2000 };

typedef struct Item {
    struct Item *next;
    char channel[48];
    char event[24];
    size_t len;
    char data[];
} Item;

struct Nchan {
    char host[256];   /* Host header; the socket's path for a unix socket */
    char port[8];     /* "" for a unix socket */
    char prefix[256]; /* the path before /CHANNEL, without a trailing slash */
    int unix_socket;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Item *head, *tail;  /* mu */
    unsigned queued;    /* mu */
    size_t bytes;       /* mu */
    int stop;           /* mu */
    int64_t stop_by;    /* mu: monotonic ms after which the queue is given up */
    NchanCounts counts; /* mu */
    int fd;             /* the thread's */
    int opened;         /* connections opened so far (the thread's) */
    int down;           /* the log said the publisher is unreachable */
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Parses URL into N: 0, or -1 with a message in ERR. */
static int parse_url(Nchan *n, const char *url, char *err, size_t errlen)
{
    const char *p = url;
    if (strncmp(p, "http://", 7) != 0) {
        snprintf(err, errlen, "--nchan-publish wants http://HOST[:PORT]/PATH, got '%s'", url);
        return -1;
    }
    p += 7;
    const char *path;
    if (strncmp(p, "unix:", 5) == 0) {
        /* http://unix:/run/nchan.sock:/pub, as nginx's proxy_pass says it. */
        const char *sock = p + 5, *colon = strchr(sock, ':');
        if (*sock != '/' || !colon || colon[1] != '/' ||
            (size_t)(colon - sock) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
            snprintf(err, errlen, "--nchan-publish wants http://unix:/SOCKET:/PATH, got '%s'", url);
            return -1;
        }
        snprintf(n->host, sizeof n->host, "%.*s", (int)(colon - sock), sock);
        n->unix_socket = 1;
        path = colon + 1;
    } else {
        path = strchr(p, '/');
        if (!path)
            path = p + strlen(p);
        const char *colon = memchr(p, ':', (size_t)(path - p));
        const char *hend = colon ? colon : path;
        if (hend == p || (size_t)(hend - p) >= sizeof n->host) {
            snprintf(err, errlen, "--nchan-publish: no host in '%s'", url);
            return -1;
        }
        snprintf(n->host, sizeof n->host, "%.*s", (int)(hend - p), p);
        if (colon) {
            char *end;
            long port = strtol(colon + 1, &end, 10);
            if (end != path || port < 1 || port > 65535) {
                snprintf(err, errlen, "--nchan-publish: bad port in '%s'", url);
                return -1;
            }
            snprintf(n->port, sizeof n->port, "%ld", port);
        } else
            snprintf(n->port, sizeof n->port, "80");
    }
    size_t plen = strlen(path);
    while (plen > 0 && path[plen - 1] == '/')
        plen--;
    if (plen >= sizeof n->prefix || strpbrk(path, " \r\n?#")) {
        snprintf(err, errlen, "--nchan-publish: bad path in '%s'", url);
        return -1;
    }
    snprintf(n->prefix, sizeof n->prefix, "%.*s", (int)plen, path);
    return 0;
}

/* Waits until FD is ready for EVENTS within IO_TIMEOUT_MS: 0 or -1. */
static int wait_fd(int fd, short events)
{
    struct pollfd pf = {.fd = fd, .events = events};
    int rc;
    do
        rc = poll(&pf, 1, IO_TIMEOUT_MS);
    while (rc < 0 && errno == EINTR);
    return rc == 1 ? 0 : -1;
}

/* A non-blocking connection to ADDR, open within IO_TIMEOUT_MS: the
 * descriptor or -1. */
static int connect_addr(const struct sockaddr *addr, socklen_t len, int family)
{
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, addr, len) == 0)
        return fd;
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    if (errno == EINPROGRESS && wait_fd(fd, POLLOUT) == 0 &&
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr == 0)
        return fd;
    close(fd);
    return -1;
}

/* Opens the connection to the publisher (n->fd): 0 or -1. */
static int open_conn(Nchan *n)
{
    if (n->unix_socket) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        memcpy(sa.sun_path, n->host, strlen(n->host) + 1); /* fits: parse_url */
        n->fd = connect_addr((struct sockaddr *)&sa, sizeof sa, AF_UNIX);
    } else {
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai = NULL;
        if (getaddrinfo(n->host, n->port, &hints, &ai) != 0)
            return -1;
        n->fd = -1;
        for (struct addrinfo *a = ai; a && n->fd < 0; a = a->ai_next)
            n->fd = connect_addr(a->ai_addr, a->ai_addrlen, a->ai_family);
        freeaddrinfo(ai);
    }
    if (n->fd < 0)
        return -1;
    pthread_mutex_lock(&n->mu);
    n->counts.connected = 1;
    if (n->opened++)
        n->counts.reconnects++;
    pthread_mutex_unlock(&n->mu);
    return 0;
}

static void close_conn(Nchan *n)
{
    if (n->fd >= 0)
        close(n->fd);
    n->fd = -1;
    pthread_mutex_lock(&n->mu);
    n->counts.connected = 0;
    pthread_mutex_unlock(&n->mu);
}

/* Writes the IOV (CNT parts) whole: 0 or -1. */
static int send_all(int fd, struct iovec *iov, int cnt)
{
    while (cnt > 0) {
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)cnt};
        ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN && wait_fd(fd, POLLOUT) == 0)
                continue;
            return -1;
        }
        while (cnt > 0 && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++;
            cnt--;
        }
        if (cnt > 0) {
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return 0;
}

/* Reads more of the answer into BUF (LEN so far, CAP in all): the bytes
 * read, 0 at the end of the connection, -1 on error or timeout. */
static ssize_t read_more(int fd, char *buf, size_t len, size_t cap)
{
    for (;;) {
        ssize_t r = recv(fd, buf + len, cap - len, 0);
        if (r >= 0)
            return r;
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN || wait_fd(fd, POLLIN))
            return -1;
    }
}

/* The value of header NAME (lower case, with its colon) in the header
 * block HDR, or NULL. */
static const char *header(const char *hdr, const char *name)
{
    size_t nl = strlen(name);
    for (const char *l = strstr(hdr, "\r\n"); l; l = strstr(l + 2, "\r\n")) {
        if (strncasecmp(l + 2, name, nl) == 0) {
            const char *v = l + 2 + nl;
            while (*v == ' ' || *v == '\t')
                v++;
            return v;
        }
    }
    return NULL;
}

/* Reads one answer: its status (> 0), or 0 when the connection ended or
 * failed before any byte came (the request may be sent again on a new
 * one), -1 when it failed later.  *KEEP: the connection may be used
 * again. */
static int read_answer(Nchan *n, int *keep)
{
    char buf[8192];
    size_t len = 0;
    char *end = NULL;
    *keep = 0;
    while (!end) {
        if (len == sizeof buf - 1)
            return -1;
        ssize_t r = read_more(n->fd, buf, len, sizeof buf - 1);
        if (r <= 0)
            return len ? -1 : 0;
        len += (size_t)r;
        buf[len] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    int status = 0;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1 || status < 100)
        return -1;
    *end = '\0'; /* the header block, for header() */
    const char *cl = header(buf, "content-length:");
    const char *te = header(buf, "transfer-encoding:");
    const char *conn = header(buf, "connection:");
    int chunked = te && strncasecmp(te, "chunked", 7) == 0;
    size_t have = len - (size_t)(end + 4 - buf);
    memmove(buf, end + 4, have);
    if (cl) {
        size_t want = (size_t)strtoull(cl, NULL, 10);
        while (have < want) {
            size_t room = want - have < sizeof buf ? want - have : sizeof buf;
            ssize_t r = read_more(n->fd, buf, 0, room);
            if (r <= 0)
                return -1;
            have += (size_t)r;
        }
    } else if (chunked) {
        /* Nchan's summary is a few lines: read until the last chunk. */
        buf[have] = '\0';
        while (!(have >= 5 && memcmp(buf + have - 5, "0\r\n\r\n", 5) == 0)) {
            if (have >= sizeof buf - 1) {
                memmove(buf, buf + have - 4, 4);
                have = 4;
            }
            ssize_t r = read_more(n->fd, buf, have, sizeof buf - 1);
            if (r <= 0)
                return -1;
            have += (size_t)r;
        }
    } else if (status != 204 && status != 304)
        return status; /* the body runs to the end of the connection */
    *keep = !(conn && strncasecmp(conn, "close", 5) == 0);
    return status;
}

/* Sends item I once on the open connection: its status, 0 when it may be
 * sent again on a new connection, -1 on another failure.  The connection
 * is closed unless it may be kept. */
static int send_item(Nchan *n, const Item *it)
{
    char head[1024];
    int hl = snprintf(head, sizeof head,
                      "POST %s/%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                      "X-EventSource-Event: %s\r\nContent-Length: %zu\r\n\r\n",
                      n->prefix, it->channel, n->unix_socket ? "localhost" : n->host, it->event,
                      it->len);
    struct iovec iov[2] = {{head, (size_t)hl}, {(void *)it->data, it->len}};
    int keep = 0;
    int status = send_all(n->fd, iov, 2) ? 0 : read_answer(n, &keep);
    if (!keep)
        close_conn(n);
    return status;
}

/* Sleeps MS or until stopped: nonzero when stopping. */
static int backoff(Nchan *n, int ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&n->mu);
    if (!n->stop)
        pthread_cond_timedwait(&n->cv, &n->mu, &ts);
    int stop = n->stop;
    pthread_mutex_unlock(&n->mu);
    return stop;
}

/* Delivers IT: 1 when Nchan took it, 0 when it answered otherwise (the
 * item is dropped), -1 when the publisher cannot be reached now (the item
 * stays at the head of the queue). */
static int deliver(Nchan *n, const Item *it)
{
    for (int fresh = 0; fresh < 2; fresh++) {
        int reused = n->fd >= 0;
        if (!reused && open_conn(n))
            return -1;
        int status = send_item(n, it);
        if (status > 0)
            return status >= 200 && status < 300;
        /* Only a kept-alive connection that nginx closed meanwhile is
         * tried again at once, on a new one. */
        if (status < 0 || !reused)
            return -1;
    }
    return -1;
}

static void say(Nchan *n, int down)
{
    if (n->down == down)
        return;
    n->down = down;
    if (down)
        fprintf(stderr,
                "arbiter: the Nchan publisher at %s%s%s%s cannot be reached; trying again, "
                "public events queue meanwhile\n",
                n->host, n->port[0] ? ":" : "", n->port, n->prefix);
    else
        fprintf(stderr, "arbiter: the Nchan publisher is reached again\n");
}

static void *publisher_main(void *arg)
{
    Nchan *n = arg;
    int wait_ms = BACKOFF_FIRST_MS;
    pthread_mutex_lock(&n->mu);
    for (;;) {
        while (!n->head && !n->stop)
            pthread_cond_wait(&n->cv, &n->mu);
        if (!n->head || (n->stop && mono_ms() > n->stop_by))
            break;
        Item *it = n->head;
        pthread_mutex_unlock(&n->mu);
        int ok = deliver(n, it);
        if (ok < 0) {
            say(n, 1);
            int stopping = backoff(n, wait_ms);
            wait_ms = wait_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : wait_ms * 2;
            pthread_mutex_lock(&n->mu);
            if (stopping)
                break;
            continue;
        }
        say(n, 0);
        wait_ms = BACKOFF_FIRST_MS;
        pthread_mutex_lock(&n->mu);
        n->head = it->next;
        if (!n->head)
            n->tail = NULL;
        n->queued--;
        n->bytes -= it->len;
        if (ok)
            n->counts.sent++;
        else
            n->counts.rejected++;
        free(it);
    }
    /* Stopping: what could not be sent is given up. */
    for (Item *it = n->head, *next; it; it = next) {
        next = it->next;
        n->counts.rejected++;
        free(it);
    }
    n->head = n->tail = NULL;
    n->queued = 0;
    n->bytes = 0;
    pthread_mutex_unlock(&n->mu);
    close_conn(n);
    return NULL;
}

Nchan *nchan_start(const char *url, char *err, size_t errlen)
{
    Nchan *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->fd = -1;
    if (parse_url(n, url, err, errlen)) {
        free(n);
        return NULL;
    }
    pthread_mutex_init(&n->mu, NULL);
    pthread_cond_init(&n->cv, NULL);
    if (pthread_create(&n->thread, NULL, publisher_main, n)) {
        snprintf(err, errlen, "cannot start the Nchan publisher thread");
        pthread_cond_destroy(&n->cv);
        pthread_mutex_destroy(&n->mu);
        free(n);
        return NULL;
    }
    return n;
}

int nchan_url_check(const char *url, char *err, size_t errlen)
{
    Nchan n = {.fd = -1};
    return parse_url(&n, url, err, errlen);
}

void nchan_stop(Nchan *n)
{
    if (!n)
        return;
    pthread_mutex_lock(&n->mu);
    n->stop = 1;
    n->stop_by = mono_ms() + STOP_MS;
    pthread_cond_signal(&n->cv);
    pthread_mutex_unlock(&n->mu);
    pthread_join(n->thread, NULL);
    pthread_cond_destroy(&n->cv);
    pthread_mutex_destroy(&n->mu);
    free(n);
}

/* The channel of TOPIC into OUT (CAP bytes): 0, or -1 when TOPIC is not a
 * game's or a tournament's. */
static int channel_of(const char *topic, char *out, size_t cap)
{
    if (*topic == '~')
        topic++;
    const char *kind = topic[0] == 'g' ? "games" : topic[0] == 't' ? "tournaments" : NULL;
    if (!kind || topic[1] != ':')
        return -1;
    char *end;
    long long id = strtoll(topic + 2, &end, 10);
    if (*end || id <= 0)
        return -1;
    snprintf(out, cap, "%s-%lld", kind, id);
    return 0;
}

void nchan_publish(Nchan *n, const char *topic, const char *event, const char *data)
{
    if (!n)
        return;
    size_t len = strlen(data);
    Item *it = malloc(sizeof *it + len);
    if (!it || channel_of(topic, it->channel, sizeof it->channel) ||
        strlen(event) >= sizeof it->event) {
        free(it);
        return;
    }
    snprintf(it->event, sizeof it->event, "%s", event);
    memcpy(it->data, data, len);
    it->len = len;
    it->next = NULL;
    pthread_mutex_lock(&n->mu);
    if (n->queued >= QUEUE_MAX || n->bytes + len > QUEUE_BYTES || n->stop) {
        n->counts.dropped++;
        pthread_mutex_unlock(&n->mu);
        free(it);
        return;
    }
    if (n->tail)
        n->tail->next = it;
    else
        n->head = it;
    n->tail = it;
    n->queued++;
    n->bytes += len;
    pthread_cond_signal(&n->cv);
    pthread_mutex_unlock(&n->mu);
}

void nchan_counts(Nchan *n, NchanCounts *c)
{
    pthread_mutex_lock(&n->mu);
    *c = n->counts;
    c->queued = n->queued;
    pthread_mutex_unlock(&n->mu);
}
