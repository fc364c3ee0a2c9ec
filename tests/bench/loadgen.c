/*
 * loadgen.c — the shared pieces of the HTTP load generators.  See loadgen.h.
 */
#include "loadgen.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"

static const char *program = "loadgen";
static int port;
static pid_t daemon_pid;
static char dir[256];
static const char *const *extra_args;
static int setup_fd = -1;

int64_t lg_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void lg_set_program(const char *name)
{
    program = name;
}

void lg_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (daemon_pid > 0)
        kill(daemon_pid, SIGKILL);
    exit(1);
}

long lg_raise_nofile(void)
{
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    return (long)rl.rlim_cur;
}

/* ---- the daemon ---- */

pid_t lg_daemon_pid(void)
{
    return daemon_pid;
}

int lg_port(void)
{
    return port;
}

const char *lg_dir(void)
{
    return dir;
}

/* The first-start password, from the file the daemon's standard output
 * names. */
static void read_password(char *password, size_t len)
{
    char path[320], line[512], file[400] = "";
    snprintf(path, sizeof path, "%s/stdout.txt", dir);
    FILE *f = fopen(path, "r");
    password[0] = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *p = strstr(line, "password is in ");
        if (p)
            snprintf(file, sizeof file, "%.*s", (int)strcspn(p + 15, " \r\n"), p + 15);
    }
    if (f)
        fclose(f);
    f = file[0] ? fopen(file, "r") : NULL;
    if (f && fgets(line, sizeof line, f))
        snprintf(password, len, "%.*s", (int)strcspn(line, " \r\n"), line);
    if (f)
        fclose(f);
}

int lg_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) ||
        getsockname(fd, (struct sockaddr *)&sa, &sl))
        lg_die("no free port");
    close(fd);
    return ntohs(sa.sin_port);
}

void lg_daemon_args(const char *const *args)
{
    extra_args = args;
}

void lg_daemon_start(const char *bin, const char *threads)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/arbiter-%s-XXXXXX", tmp, program);
    if (!mkdtemp(dir))
        lg_die("no temporary directory in %s", tmp);
    port = lg_free_port();
    char listen[64], db[300], out[300], err[300];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    snprintf(db, sizeof db, "%s/arbiter.db", dir);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    daemon_pid = fork();
    if (daemon_pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        /* Every simulated client comes from 127.0.0.1: no rate limit. */
        /* Every simulated tablet and viewer shares 127.0.0.1: no
         * per-address caps either. */
        const char *argv[32] = {bin,         "serve",
                                "--listen",  listen,
                                "--db",      db,
                                "--threads", threads,
                                "--quiet",   "--rate-limit",
                                "0",         "--max-connections-per-address",
                                "0",         "--max-streams-per-address",
                                "0"};
        int n = 15;
        for (int i = 0; extra_args && extra_args[i] && i < 8; i++)
            argv[n++] = extra_args[i];
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    for (int i = 0; i < 1000; i++) {
        int st;
        if (waitpid(daemon_pid, &st, WNOHANG) == daemon_pid) {
            daemon_pid = 0;
            lg_die("the daemon exited at start (see %s)", err);
        }
        if (lg_call("GET", "/api/v1/health", NULL, NULL, NULL, NULL, 0) == 200)
            return;
        usleep(10000);
    }
    lg_die("the daemon did not start");
}

int lg_daemon_stop(void)
{
    int status = 0;
    if (setup_fd >= 0)
        close(setup_fd);
    setup_fd = -1;
    if (daemon_pid > 0) {
        kill(daemon_pid, SIGTERM);
        waitpid(daemon_pid, &status, 0);
        daemon_pid = 0;
    }
    return status;
}

void lg_remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[600];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    if (rmdir(dir))
        fprintf(stderr, "%s: cannot remove %s\n", program, dir);
}

int64_t lg_self_cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
           (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

int64_t lg_daemon_cpu_us(void)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)daemon_pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return 0;
    return (int64_t)((ut + st) * 1000000ull / (unsigned long long)sysconf(_SC_CLK_TCK));
}

long lg_daemon_rss_kb(void)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)daemon_pid);
    FILE *f = fopen(path, "r");
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

int lg_daemon_fds(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)daemon_pid);
    DIR *d = opendir(path);
    int n = 0;
    while (d && readdir(d))
        n++;
    if (d)
        closedir(d);
    return n > 2 ? n - 2 : 0; /* "." and ".." */
}

/* ---- blocking requests ---- */

int lg_connect(int nonblock)
{
    return lg_connect_to(port, nonblock);
}

int lg_connect_to(int to_port, int nonblock)
{
    int fd = socket(AF_INET, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)to_port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

static char *format_request(const char *method, const char *path, const char *headers,
                            const char *body, size_t *len)
{
    char *req = NULL;
    int n = asprintf(&req, "%s %s HTTP/1.1\r\nHost: x\r\n%s%sContent-Length: %zu\r\n\r\n%s", method,
                     path, headers ? headers : "", body ? "Content-Type: application/json\r\n" : "",
                     body ? strlen(body) : 0, body ? body : "");
    if (n < 0)
        lg_die("out of memory");
    *len = (size_t)n;
    return req;
}

/* The length of the response head in BUF (up to and with the blank line)
 * and its Content-Length, or 0 when the head is incomplete. */
static size_t head_length(const char *buf, size_t *blen)
{
    const char *hend = strstr(buf, "\r\n\r\n");
    if (!hend)
        return 0;
    *blen = 0;
    for (const char *p = strstr(buf, "\r\n"); p && p < hend; p = strstr(p + 2, "\r\n"))
        if (!strncasecmp(p + 2, "Content-Length:", 15))
            *blen = strtoul(p + 17, NULL, 10);
    return (size_t)(hend + 4 - buf);
}

/* Sends REQ on the set-up connection and reads one response into *BUF
 * (malloc'd, NUL-terminated); its length, or -1 when the connection failed
 * before any byte of the answer (the caller may try again). */
static long exchange(const char *req, size_t len, char **buf, size_t *hlen, size_t *blen)
{
    if (setup_fd < 0 && (setup_fd = lg_connect(0)) < 0)
        return -1;
    if (write(setup_fd, req, len) != (ssize_t)len)
        goto fail;
    size_t cap = 65536, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            b = realloc(b, cap *= 2);
        ssize_t k = read(setup_fd, b + n, cap - n - 1);
        if (k <= 0) {
            free(b);
            goto fail;
        }
        n += (size_t)k;
        b[n] = 0;
        size_t h = head_length(b, blen);
        if (h && n >= h + *blen) {
            *hlen = h;
            *buf = b;
            return (long)n;
        }
    }
fail:
    close(setup_fd);
    setup_fd = -1;
    return -1;
}

int lg_call(const char *method, const char *path, const char *headers, const char *body, char **out,
            char *cookie, size_t cookie_len)
{
    size_t len, hlen = 0, blen = 0;
    char *req = format_request(method, path, headers, body, &len), *buf = NULL;
    long n = -1;
    /* A keep-alive connection the server closed while idle: once more. */
    for (int attempt = 0; attempt < 2 && n < 0; attempt++)
        n = exchange(req, len, &buf, &hlen, &blen);
    free(req);
    if (n < 0)
        return -1;
    int status = 0;
    sscanf(buf, "HTTP/1.1 %d", &status);
    if (cookie) {
        char *c = strcasestr(buf, "Set-Cookie: ");
        if (c && c < buf + hlen)
            snprintf(cookie, cookie_len, "%.*s", (int)strcspn(c + 12, ";\r\n"), c + 12);
    }
    if (out)
        *out = strndup(buf + hlen, blen);
    free(buf);
    return status;
}

json_t *lg_call_json(const char *method, const char *path, const char *headers, const char *body,
                     int want)
{
    char *out = NULL;
    int st = lg_call(method, path, headers, body, &out, NULL, 0);
    if (st != want)
        lg_die("set-up request %s %s -> %d %s", method, path, st, out ? out : "");
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    if (!j)
        lg_die("set-up request %s %s: the answer is not JSON", method, path);
    return j;
}

void lg_login(char *headers, size_t len)
{
    char password[64], body[256], cookie[200] = "", *out = NULL;
    read_password(password, sizeof password);
    snprintf(body, sizeof body, "{\"username\":\"arbiter\",\"password\":\"%s\"}", password);
    if (lg_call("POST", "/api/v1/auth/login", NULL, body, &out, cookie, sizeof cookie) != 200)
        lg_die("login failed: %s", out ? out : "");
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    const char *csrf = json_string_value(json_object_get(j, "csrf_token"));
    snprintf(headers, len, "Cookie: %s\r\nX-CSRF-Token: %s\r\n", cookie, csrf ? csrf : "");
    json_decref(j);
}

void lg_call_many(LgCall *calls, int n, int nconns)
{
    if (n <= 0)
        return;
    if (nconns > n)
        nconns = n;
    int ep = epoll_create1(0);
    LgConn *c = calloc((size_t)nconns, sizeof *c);
    int *cur = calloc((size_t)nconns, sizeof *cur);
    int next = 0, done = 0;
    for (int i = 0; i < nconns; i++) {
        if (lg_conn_open(&c[i], ep, (uint64_t)i))
            lg_die("cannot connect");
        cur[i] = -1;
    }
    struct epoll_event evs[64];
    while (done < n) {
        for (int i = 0; i < nconns; i++)
            if (cur[i] < 0 && next < n) {
                LgCall *q = &calls[next];
                size_t len;
                char *req = format_request(q->method, q->path, q->headers, q->body, &len);
                if (lg_conn_send(&c[i], ep, (uint64_t)i, req, len))
                    lg_die("set-up connection failed");
                free(req);
                cur[i] = next++;
            }
        int k = epoll_wait(ep, evs, 64, 1000);
        for (int e = 0; e < k; e++) {
            int i = (int)evs[e].data.u64;
            if (evs[e].events & EPOLLOUT && lg_conn_flush(&c[i], ep, (uint64_t)i))
                lg_die("set-up connection failed");
            if (!(evs[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                continue;
            int rd = lg_conn_read(&c[i]);
            int status;
            char *body;
            while (cur[i] >= 0 && lg_conn_response(&c[i], &status, &body)) {
                calls[cur[i]].status = status;
                calls[cur[i]].out = strdup(body);
                lg_conn_consume(&c[i]);
                cur[i] = -1;
                done++;
            }
            if (rd <= 0 && cur[i] >= 0)
                lg_die("set-up connection failed: %s", rd ? strerror(-rd) : "closed");
            if (rd <= 0) {
                lg_conn_close(&c[i], ep);
                if (lg_conn_open(&c[i], ep, (uint64_t)i))
                    lg_die("cannot connect");
            }
        }
    }
    for (int i = 0; i < nconns; i++)
        lg_conn_close(&c[i], ep);
    close(ep);
    free(c);
    free(cur);
}

/* ---- keep-alive connections ---- */

static void arm(LgConn *c, int ep, uint64_t tag, int want_out)
{
    struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0u), .data.u64 = tag};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

int lg_conn_open(LgConn *c, int ep, uint64_t tag)
{
    c->fd = lg_connect(1);
    if (c->fd < 0)
        return -errno;
    c->outlen = c->outoff = c->inlen = c->pending = 0;
    if (!c->in) {
        c->incap = 8192;
        c->in = malloc(c->incap + 1);
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = tag};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev)) {
        int e = errno;
        close(c->fd);
        c->fd = -1;
        return -e;
    }
    return 0;
}

int lg_conn_flush(LgConn *c, int ep, uint64_t tag)
{
    while (c->outoff < c->outlen) {
        ssize_t k = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
        if (k > 0) {
            c->outoff += (size_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            arm(c, ep, tag, 1);
            return 0;
        }
        return k < 0 ? -errno : -EPIPE;
    }
    c->outoff = c->outlen = 0;
    arm(c, ep, tag, 0);
    return 0;
}

int lg_conn_send(LgConn *c, int ep, uint64_t tag, const char *req, size_t len)
{
    if (c->outlen + len > c->outcap) {
        size_t cap = c->outcap ? c->outcap : 1024;
        while (cap < c->outlen + len)
            cap *= 2;
        char *p = realloc(c->out, cap);
        if (!p)
            return -ENOMEM;
        c->out = p;
        c->outcap = cap;
    }
    memcpy(c->out + c->outlen, req, len);
    c->outlen += len;
    return lg_conn_flush(c, ep, tag);
}

int lg_conn_read(LgConn *c)
{
    for (;;) {
        if (c->inlen + 4096 > c->incap) {
            char *p = realloc(c->in, c->incap * 2 + 1);
            if (!p)
                return -ENOMEM;
            c->in = p;
            c->incap *= 2;
        }
        ssize_t r = read(c->fd, c->in + c->inlen, c->incap - c->inlen);
        if (r > 0) {
            c->inlen += (size_t)r;
            continue;
        }
        if (r == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -errno;
    }
}

int lg_conn_response(LgConn *c, int *status, char **body)
{
    lg_conn_consume(c);
    if (!c->in)
        return 0;
    c->in[c->inlen] = 0;
    size_t blen = 0, h = head_length(c->in, &blen);
    if (!h || c->inlen < h + blen)
        return 0;
    *status = 0;
    sscanf(c->in, "HTTP/1.1 %d", status);
    /* The body ends in place with a NUL; the byte it covers (the next
     * response's first) is put back by lg_conn_consume. */
    c->pending = h + blen;
    c->saved = c->in[c->pending];
    c->in[c->pending] = 0;
    *body = c->in + h;
    return 1;
}

void lg_conn_consume(LgConn *c)
{
    if (!c->pending)
        return;
    c->in[c->pending] = c->saved;
    memmove(c->in, c->in + c->pending, c->inlen - c->pending);
    c->inlen -= c->pending;
    c->pending = 0;
}

void lg_conn_close(LgConn *c, int ep)
{
    if (c->fd >= 0) {
        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    c->fd = -1;
    free(c->in);
    free(c->out);
    c->in = c->out = NULL;
    c->inlen = c->incap = c->outlen = c->outoff = c->outcap = c->pending = 0;
}

/* ---- Server-Sent-Event streams ---- */

void lg_sse_reset(LgSse *s)
{
    memset(s, 0, sizeof *s);
}

/* One complete SSE line (its first bytes in s->line; FULL its length). */
static void sse_line(LgSse *s, size_t full, LgSseEvent cb, void *ctx)
{
    s->line[s->llen] = 0;
    if (full == 0) {
        if (s->event[0] || s->id) {
            if (s->id)
                s->last_id = s->id;
            cb(ctx, s->event[0] ? s->event : "message", s->id);
        }
        s->event[0] = 0;
        s->id = 0;
        return;
    }
    if (!strncmp(s->line, "event: ", 7))
        snprintf(s->event, sizeof s->event, "%s", s->line + 7);
    else if (!strncmp(s->line, "id: ", 4))
        s->id = strtoll(s->line + 4, NULL, 10);
}

/* SSE bytes of the body (chunk framing removed).  Whole runs up to a line
 * end are skipped with memchr: a viewer's events are game updates of a few
 * KB, and ten thousand viewers parsing them byte by byte took CPU from the
 * server on the same cores. */
static void sse_bytes(LgSse *s, const char *p, size_t n, size_t *full, LgSseEvent cb, void *ctx)
{
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) : n;
        size_t room = sizeof s->line - 1 - s->llen;
        size_t keep = k < room ? k : room;
        memcpy(s->line + s->llen, p, keep);
        s->llen += keep;
        *full += k;
        if (!nl)
            return;
        sse_line(s, *full, cb, ctx);
        s->llen = 0;
        *full = 0;
        p += k + 1;
        n -= k + 1;
    }
}

int lg_sse_feed(LgSse *s, const char *data, size_t n, LgSseEvent cb, void *ctx)
{
    size_t i = 0;
    while (i < n) {
        switch (s->phase) {
        case 0: { /* the head: status line, then up to the blank line */
            char ch = data[i++];
            if (s->hlen >= sizeof s->head - 1)
                return -1; /* the streams' heads are short */
            s->head[s->hlen++] = ch;
            s->head[s->hlen] = 0;
            if (ch != '\n')
                break; /* the head is looked at a line at a time */
            if (!s->status)
                sscanf(s->head, "HTTP/1.1 %d", &s->status);
            if (strcasestr(s->head, "Transfer-Encoding: chunked"))
                s->chunked = 1;
            if (s->hlen >= 4 && !memcmp(s->head + s->hlen - 4, "\r\n\r\n", 4)) {
                if (s->status != 200)
                    return -1;
                s->phase = s->chunked ? 1 : 2;
                s->chunk_left = s->chunked ? 0 : SIZE_MAX;
                s->hlen = 0;
            }
            break;
        }
        case 1: { /* a chunk's size line */
            char ch = data[i++];
            if (ch == '\n') {
                s->head[s->hlen] = 0;
                s->chunk_left = strtoul(s->head, NULL, 16);
                s->hlen = 0;
                s->phase = s->chunk_left ? 2 : 4;
                if (s->phase == 4)
                    return 1;
            } else if (ch != '\r' && s->hlen < 32)
                s->head[s->hlen++] = ch;
            else if (ch != '\r')
                return -1;
            break;
        }
        case 2: { /* chunk data */
            size_t k = n - i < s->chunk_left ? n - i : s->chunk_left;
            sse_bytes(s, data + i, k, &s->lfull, cb, ctx);
            i += k;
            if (s->chunk_left != SIZE_MAX)
                s->chunk_left -= k;
            if (s->chunk_left == 0)
                s->phase = 3;
            break;
        }
        case 3: /* the CRLF after a chunk */
            if (data[i++] == '\n')
                s->phase = 1;
            break;
        default: return 1;
        }
    }
    return 0;
}

/* ---- games, statistics ---- */

uint64_t lg_rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int lg_random_game(uint64_t seed, char (*moves)[6], int max)
{
    Board b;
    board_start(&b);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    int n = 0;
    while (n < max) {
        MoveList list;
        movegen_legal_moves(&b, &list);
        if (list.count == 0)
            break;
        Move m = list.moves[lg_rng(&s) % (uint64_t)list.count];
        board_move_to_uci(m, moves[n++]);
        board_make(&b, m);
    }
    return n;
}

int lg_cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t lg_pct(const int64_t *v, size_t n, double p)
{
    if (!n)
        return 0;
    return v[(size_t)(p * (double)(n - 1))];
}
