/*
 * bench_http.c — load generator for `arbiter serve`: many real games at
 * once through the HTTP API, each simulated tablet a keep-alive connection,
 * every move validated by the Laws engine and durable before its answer:
 * first closed loop (each tablet moves as soon as it is answered: the
 * throughput), then paced at each offered rate of --rates (the latency a
 * player sees at that load, counted from the scheduled time); then, in the
 * same run, the raw bound of the store (group commit of one
 * small row per request, same SQLite settings, the same number of requests
 * in flight, no HTTP and no Laws) and the ratio of the two; then live
 * streams: V viewers of one game, the delay from a move's submission to
 * its arrival at every viewer.
 *
 *   bench_http [--tablets N] [--seconds S] [--viewers V] [--moves M]
 *              [--rates R1,R2,...]   (default 10000 moves/s)
 *
 * The daemon comes from ARBITER_BIN; everything runs in a temporary
 * directory.  Games are random legal games (fixed seeds) of up to 60 plies,
 * sent in UCI; a pair of tablets plays its rounds one after the other.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "board.h"
#include "store.h"
#include "writer.h"

enum { MAXPLY = 60, ROUNDS = 24 };

static int port;
static pid_t daemon_pid;
static char dir[256];

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_http: %s\n", what);
    if (daemon_pid > 0)
        kill(daemon_pid, SIGKILL);
    exit(1);
}

/* ---- a blocking HTTP client for the setup ---- */

static int connect_to(int nonblock)
{
    int fd = socket(AF_INET, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0), 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One request on a fresh connection; returns the status, *BODY (malloc'd)
 * and the Set-Cookie value into COOKIE when asked. */
static int call(const char *method, const char *path, const char *headers, const char *body,
                char **out, char *cookie, size_t cookie_len)
{
    int fd = connect_to(0);
    if (fd < 0)
        return -1;
    char *req = NULL;
    int n = asprintf(&req, "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%s%s"
                           "Content-Length: %zu\r\n\r\n%s",
                     method, path, headers ? headers : "",
                     body ? "Content-Type: application/json\r\n" : "", body ? strlen(body) : 0,
                     body ? body : "");
    if (write(fd, req, (size_t)n) != n) {
        free(req);
        close(fd);
        return -1;
    }
    free(req);
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    ssize_t k;
    while ((k = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)k;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    close(fd);
    buf[len] = 0;
    int status = 0;
    sscanf(buf, "HTTP/1.1 %d", &status);
    if (cookie) {
        char *c = strcasestr(buf, "Set-Cookie: ");
        if (c)
            snprintf(cookie, cookie_len, "%.*s", (int)strcspn(c + 12, ";\r\n"), c + 12);
    }
    char *b = strstr(buf, "\r\n\r\n");
    if (out)
        *out = strdup(b ? b + 4 : "");
    free(buf);
    return status;
}

static json_t *call_json(const char *method, const char *path, const char *headers,
                         const char *body, int want)
{
    char *out = NULL;
    int st = call(method, path, headers, body, &out, NULL, 0);
    if (st != want) {
        fprintf(stderr, "%s %s -> %d %s\n", method, path, st, out ? out : "");
        die("setup request failed");
    }
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    return j;
}

/* ---- the daemon ---- */

static void start_daemon(const char *bin, const char *threads)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    bind(fd, (struct sockaddr *)&sa, sizeof sa);
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    port = ntohs(sa.sin_port);
    close(fd);
    char listen[64], db[300], out[300];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    snprintf(db, sizeof db, "%s/arbiter.db", dir);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    daemon_pid = fork();
    if (daemon_pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        /* Every simulated client comes from 127.0.0.1: no rate limit. */
        execl(bin, bin, "serve", "--listen", listen, "--db", db, "--threads", threads, "--quiet",
              "--rate-limit", "0", (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 500; i++) {
        if (call("GET", "/api/v1/health", NULL, NULL, NULL, NULL, 0) == 200)
            return;
        usleep(10000);
    }
    die("the daemon did not start");
}

/* CPU time (user + system) the daemon has used so far, in microseconds:
 * on a shared machine this, per move, is steadier than wall-clock rates. */
static int64_t self_cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
           (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

static int64_t daemon_cpu_us(void)
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
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
                     &st) != 2)
        return 0;
    return (int64_t)((ut + st) * 1000000ull / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/* ---- random legal games ---- */

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Up to MAXPLY plies of a random legal game in UCI; stops after a move
 * that leaves no legal reply (mate or stalemate). */
static int random_game(uint64_t seed, char moves[MAXPLY][6])
{
    Board b;
    board_start(&b);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    int n = 0;
    while (n < MAXPLY) {
        MoveList list;
        board_legal_moves(&b, &list);
        if (list.count == 0)
            break;
        Move m = list.moves[rng(&s) % (uint64_t)list.count];
        move_to_uci(m, moves[n++]);
        board_make(&b, m);
    }
    return n;
}

/* ---- the load: tablets on keep-alive connections ---- */

typedef struct Conn {
    int fd;
    char out[512];
    size_t outlen, outoff;
    char *in;
    size_t inlen, incap;
    int busy;
    int64_t t0;
    int pair, side; /* side: 0 = player A, 1 = player B */
    char token[80];
} Conn;

typedef struct Pair {
    int conn[2];
    int round;
    int ply, nmoves;
    char moves[MAXPLY][6];
    int64_t gid[ROUNDS];
    int64_t due; /* paced load: when the next move is to be sent */
    int waiting; /* paced load: the next move waits for its time */
} Pair;

static Conn *conns;
static Pair *pairs;
static int npairs, ntablets, ep;
static int64_t *lat;
static size_t nlat, caplat;
static long long accepted, refused, errors;
static int64_t t_start, t_end;
/* Paced (open-loop) load: each game moves every PACE_US; 0 = closed loop,
 * each tablet answering at once.  Latency is counted from the scheduled
 * time, so a slow server cannot hide its queue by delaying the senders. */
static int64_t pace_us;

static void arm(Conn *c, int want_out)
{
    struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0u),
                             .data.u32 = (uint32_t)(c - conns)};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void send_move(Pair *p)
{
    int white_is_a = p->round % 2 == 0;
    int mover_is_a = (p->ply % 2 == 0) == white_is_a;
    Conn *c = &conns[p->conn[mover_is_a ? 0 : 1]];
    char body[64];
    int bl = snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", p->ply, p->moves[p->ply]);
    c->outlen = (size_t)snprintf(c->out, sizeof c->out,
                                 "POST /api/v1/games/%lld/move HTTP/1.1\r\nHost: x\r\n"
                                 "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                                 "Content-Length: %d\r\n\r\n%s",
                                 (long long)p->gid[p->round], c->token, bl, body);
    c->outoff = 0;
    c->busy = 1;
    c->t0 = pace_us ? p->due : now_us();
    ssize_t k = write(c->fd, c->out, c->outlen);
    if (k > 0)
        c->outoff = (size_t)k;
    arm(c, c->outoff < c->outlen);
}

static void next_game(Pair *p)
{
    while (++p->round < ROUNDS) {
        p->ply = 0;
        p->nmoves = random_game((uint64_t)(p - pairs) * 131 + (uint64_t)p->round, p->moves);
        if (p->nmoves > 0)
            return;
    }
}

static void on_response(Conn *c, int status)
{
    int64_t t1 = now_us();
    c->busy = 0;
    Pair *p = &pairs[c->pair];
    if (t1 <= t_end) {
        if (nlat == caplat)
            lat = realloc(lat, (caplat = caplat ? caplat * 2 : 65536) * sizeof *lat);
        lat[nlat++] = t1 - c->t0;
    }
    if (status == 200) {
        if (t1 <= t_end)
            accepted++;
        p->ply++;
    } else {
        if (t1 <= t_end)
            refused++;
        p->ply = p->nmoves; /* the game ended (e.g. a dead position): next one */
    }
    if (now_us() >= t_end)
        return;
    if (p->ply >= p->nmoves)
        next_game(p);
    if (p->round >= ROUNDS)
        return;
    if (pace_us) {
        p->due += pace_us;
        p->waiting = 1;
    } else
        send_move(p);
}

/* Paced load: sends every move whose time has come. */
static void send_due(void)
{
    int64_t t = now_us();
    for (int i = 0; i < npairs; i++)
        if (pairs[i].waiting && pairs[i].due <= t && t < t_end) {
            pairs[i].waiting = 0;
            send_move(&pairs[i]);
        }
}

/* Parses complete responses in C's buffer. */
static void parse(Conn *c)
{
    for (;;) {
        c->in[c->inlen] = 0;
        char *hend = strstr(c->in, "\r\n\r\n");
        if (!hend)
            return;
        int status = 0;
        sscanf(c->in, "HTTP/1.1 %d", &status);
        char *cl = strcasestr(c->in, "Content-Length:");
        size_t blen = cl && cl < hend ? strtoul(cl + 15, NULL, 10) : 0;
        size_t total = (size_t)(hend + 4 - c->in) + blen;
        if (c->inlen < total)
            return;
        memmove(c->in, c->in + total, c->inlen - total);
        c->inlen -= total;
        on_response(c, status);
    }
}

/* Runs the load for SECONDS: closed loop when PACE is 0, else every game
 * moves every PACE microseconds.  Games go on from where the previous run
 * left them. */
static void run_load(int seconds, int64_t pace)
{
    pace_us = pace;
    nlat = 0;
    accepted = refused = errors = 0;
    ep = epoll_create1(0);
    for (int i = 0; i < ntablets; i++) {
        Conn *c = &conns[i];
        c->fd = connect_to(1);
        if (c->fd < 0)
            die("cannot connect");
        c->incap = 16384;
        c->in = malloc(c->incap + 1);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
    }
    usleep(200000);
    t_start = now_us();
    t_end = t_start + (int64_t)seconds * 1000000;
    for (int i = 0; i < npairs; i++) {
        Pair *p = &pairs[i];
        if (p->round < 0 || (p->round < ROUNDS && p->ply >= p->nmoves))
            next_game(p);
        if (p->round >= ROUNDS)
            continue;
        if (pace) {
            p->due = t_start + (int64_t)i * pace / npairs; /* spread evenly */
            p->waiting = 1;
        } else
            send_move(p);
    }
    struct epoll_event evs[256];
    int inflight = 1;
    while (now_us() < t_end + 3000000 && inflight) {
        if (pace)
            send_due();
        int n = epoll_wait(ep, evs, 256, pace ? 1 : 100);
        for (int k = 0; k < n; k++) {
            Conn *c = &conns[evs[k].data.u32];
            if (evs[k].events & EPOLLOUT && c->outoff < c->outlen) {
                ssize_t w = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
                if (w > 0)
                    c->outoff += (size_t)w;
                if (c->outoff == c->outlen)
                    arm(c, 0);
            }
            if (evs[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                for (;;) {
                    if (c->inlen + 4096 > c->incap) {
                        c->incap *= 2;
                        c->in = realloc(c->in, c->incap + 1);
                    }
                    ssize_t r = read(c->fd, c->in + c->inlen, c->incap - c->inlen);
                    if (r > 0) {
                        c->inlen += (size_t)r;
                        continue;
                    }
                    if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                        errors++;
                        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                        c->busy = 0;
                    }
                    break;
                }
                parse(c);
            }
        }
        if (now_us() > t_end) {
            inflight = 0;
            for (int i = 0; i < ntablets && !inflight; i++)
                inflight = conns[i].busy;
        }
    }
    for (int i = 0; i < npairs; i++)
        pairs[i].waiting = 0;
    for (int i = 0; i < ntablets; i++) {
        close(conns[i].fd);
        free(conns[i].in);
    }
    close(ep);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t pct(int64_t *v, size_t n, double p)
{
    if (!n)
        return 0;
    size_t i = (size_t)(p * (double)(n - 1));
    return v[i];
}

/* ---- the raw bound: the same writer, one small row per job ---- */

typedef struct RawJob {
    WriterJob job;
    int64_t k;
} RawJob;

static Writer *raw_writer;
static long long raw_done;
static int64_t raw_t_end;

static int raw_run(Store *s, WriterJob *job)
{
    RawJob *j = (RawJob *)job;
    return store_run(s, NULL, "INSERT INTO bench_rows(k, at_ms, body) VALUES (?1, ?2, ?3)", "iis",
                     j->k, store_now_ms(),
                     "{\"type\":\"move\",\"time_ms\":1795959997695,\"actor\":\"white\",\"move\":\"e2e4\"}");
}

static void raw_done_cb(WriterJob *job, int rc)
{
    if (now_us() <= raw_t_end)
        raw_done++;
    if (now_us() < raw_t_end && writer_submit(raw_writer, job) == 0)
        return;
}

static double raw_bound(int inflight, int seconds)
{
    char path[320], err[256];
    snprintf(path, sizeof path, "%s/raw.db", dir);
    raw_writer = writer_start(path, err, sizeof err);
    if (!raw_writer)
        die(err);
    WriterJob setup = {0};
    (void)setup;
    Store *s;
    if (store_open(path, 0, &s, err, sizeof err))
        die(err);
    store_run(s, NULL, "CREATE TABLE IF NOT EXISTS bench_rows(id INTEGER PRIMARY KEY, k INTEGER, "
                       "at_ms INTEGER, body TEXT)", "");
    store_close(s);
    RawJob *jobs = calloc((size_t)inflight, sizeof *jobs);
    int64_t t0 = now_us();
    raw_t_end = t0 + (int64_t)seconds * 1000000;
    for (int i = 0; i < inflight; i++) {
        jobs[i].job.run = raw_run;
        jobs[i].job.done = raw_done_cb;
        jobs[i].k = i;
        writer_submit(raw_writer, &jobs[i].job);
    }
    while (now_us() < raw_t_end + 200000)
        usleep(50000);
    uint64_t nj, nb, ru, cu;
    writer_counts(raw_writer, &nj, &nb, &ru, &cu);
    printf("raw: %llu rows in %llu transactions (%.0f us running and %.0f us committing per "
           "transaction)\n", (unsigned long long)nj, (unsigned long long)nb,
           nb ? (double)ru / (double)nb : 0.0, nb ? (double)cu / (double)nb : 0.0);
    writer_stop(raw_writer);
    free(jobs);
    return (double)raw_done / seconds;
}

/* ---- live streams: V viewers of one game ---- */

typedef struct Viewer {
    int fd;
    int seen;       /* game events received */
    char tail[16];  /* the end of the previous read, for split markers */
} Viewer;

static void run_viewers(int nviewers, int nmoves, const char *arb_headers)
{
    /* A game of its own, both players checked in, started. */
    json_t *t = call_json("POST", "/api/v1/tournaments", arb_headers,
                          "{\"name\":\"Viewers\",\"time_control\":\"5400+30\"}", 201);
    int64_t tid = json_integer_value(json_object_get(t, "id"));
    json_decref(t);
    char path[128], tok[2][160], auth[2][256];
    int64_t pid[2];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/players", (long long)tid);
        json_t *p = call_json("POST", path, arb_headers, "{\"name\":\"V\"}", 201);
        json_t *cred = json_object_get(p, "credentials");
        pid[i] = json_integer_value(json_object_get(cred, "player_id"));
        snprintf(tok[i], sizeof tok[i], "%s", json_string_value(json_object_get(cred, "token")));
        snprintf(auth[i], sizeof auth[i], "Authorization: Bearer %.100s\r\n", tok[i]);
        json_decref(p);
    }
    char body[200];
    snprintf(body, sizeof body, "{\"pairings\":[{\"white_id\":%lld,\"black_id\":%lld}]}",
             (long long)pid[0], (long long)pid[1]);
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    json_t *r = call_json("POST", path, arb_headers, body, 201);
    int64_t gid = json_integer_value(json_object_get(json_array_get(json_object_get(r, "games"), 0), "id"));
    json_decref(r);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "/api/v1/games/%lld/checkin", (long long)gid);
        json_decref(call_json("POST", path, auth[i], "{}", 200));
    }
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    json_decref(call_json("POST", path, arb_headers, NULL, 200));

    Viewer *v = calloc((size_t)nviewers, sizeof *v);
    int64_t *arrive = calloc((size_t)nviewers * (size_t)nmoves, sizeof *arrive);
    int vep = epoll_create1(0);
    char req[160];
    int rl = snprintf(req, sizeof req, "GET /api/v1/games/%lld/stream HTTP/1.1\r\nHost: x\r\n\r\n",
                      (long long)gid);
    int opened = 0;
    char buf[65536];
    struct epoll_event evs[512];
    /* Connect in waves so the listen backlog never overflows. */
    for (int i = 0; i < nviewers; i++) {
        v[i].fd = connect_to(0);
        if (v[i].fd < 0 || write(v[i].fd, req, (size_t)rl) != rl)
            die("viewer cannot connect");
        fcntl(v[i].fd, F_SETFL, O_NONBLOCK);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(vep, EPOLL_CTL_ADD, v[i].fd, &ev);
        opened++;
        if (i % 500 == 499) {
            int n;
            while ((n = epoll_wait(vep, evs, 512, 20)) > 0)
                for (int k = 0; k < n; k++)
                    while (read(v[evs[k].data.u32].fd, buf, sizeof buf) > 0)
                        ;
        }
    }
    /* Drain the initial states. */
    int64_t until = now_us() + 2000000;
    while (now_us() < until) {
        int n = epoll_wait(vep, evs, 512, 50);
        for (int k = 0; k < n; k++)
            while (read(v[evs[k].data.u32].fd, buf, sizeof buf) > 0)
                ;
    }
    static const char *const moves[] = {"g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6",
                                        "c3b1", "c6b8", "e2e3", "e7e6", "d1e2", "d8e7",
                                        "e2d1", "e7d8", "a2a3", "a7a6", "h2h3", "h7h6",
                                        "b2b3", "b7b6"};
    int64_t *sent = calloc((size_t)nmoves, sizeof *sent);
    for (int m = 0; m < nmoves && m < 20; m++) {
        snprintf(path, sizeof path, "/api/v1/games/%lld/move", (long long)gid);
        snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", m, moves[m]);
        sent[m] = now_us();
        if (call("POST", path, auth[m % 2], body, NULL, NULL, 0) != 200)
            die("viewer game move refused");
        /* 400 ms per move; after the last one, time for every viewer. */
        int64_t stop = now_us() + (m == nmoves - 1 || m == 19 ? 1000000 + (int64_t)nviewers * 400 : 400000);
        while (now_us() < stop) {
            int n = epoll_wait(vep, evs, 512, 20);
            int64_t tnow = now_us();
            for (int k = 0; k < n; k++) {
                Viewer *w = &v[evs[k].data.u32];
                ssize_t got;
                while ((got = read(w->fd, buf + 16, sizeof buf - 17)) > 0) {
                    /* The previous read's last bytes go first: a marker may
                     * be split between two reads. */
                    size_t tl = strlen(w->tail);
                    char *start = buf + 16 - tl;
                    memcpy(start, w->tail, tl);
                    buf[16 + got] = 0;
                    for (char *p = start; (p = strstr(p, "event: game")); p += 11)
                        if (p + 11 > buf + 16 && w->seen < nmoves)
                            arrive[(size_t)(evs[k].data.u32) * (size_t)nmoves + (size_t)w->seen++] = tnow;
                    size_t all = (size_t)(buf + 16 + got - start);
                    size_t keep = all < 15 ? all : 15;
                    memcpy(w->tail, buf + 16 + got - keep, keep);
                    w->tail[keep] = 0;
                }
            }
        }
    }
    size_t ns = 0, complete = 0;
    int64_t *d = calloc((size_t)nviewers * (size_t)nmoves, sizeof *d);
    for (int i = 0; i < nviewers; i++) {
        complete += v[i].seen == nmoves;
        for (int m = 0; m < v[i].seen; m++)
            d[ns++] = arrive[(size_t)i * (size_t)nmoves + (size_t)m] - sent[m];
    }
    qsort(d, ns, sizeof *d, cmp64);
    printf("sse: %d viewers opened, %zu received all %d moves; move -> viewer delay "
           "p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
           opened, complete, nmoves, pct(d, ns, 0.5) / 1000.0, pct(d, ns, 0.99) / 1000.0,
           ns ? d[ns - 1] / 1000.0 : 0.0);
    for (int i = 0; i < nviewers; i++)
        close(v[i].fd);
    close(vep);
    free(v);
    free(arrive);
    free(sent);
    free(d);
}

int main(int argc, char **argv)
{
    int tablets = 2000, seconds = 10, viewers = 10000, vmoves = 20;
    const char *threads = "2";
    double rates[8] = {10000};
    int nrates = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--tablets"))
            tablets = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds"))
            seconds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--viewers"))
            viewers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--moves"))
            vmoves = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads"))
            threads = argv[i + 1];
        else if (!strcmp(argv[i], "--rates")) {
            nrates = 0;
            for (char *t = strtok(argv[i + 1], ","); t && nrates < 8; t = strtok(NULL, ","))
                if (atof(t) > 0)
                    rates[nrates++] = atof(t);
        }
    }
    if (tablets < 2 || tablets % 2 || seconds < 1 || vmoves > 20) {
        fprintf(stderr, "usage: bench_http [--tablets EVEN] [--seconds S] [--viewers V] "
                        "[--moves M<=20] [--threads N] [--rates R1,R2,...]\n");
        return 2;
    }
    const char *bin = getenv("ARBITER_BIN");
    if (!bin) {
        fprintf(stderr, "bench_http: set ARBITER_BIN to the arbiter binary\n");
        return 2;
    }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    signal(SIGPIPE, SIG_IGN);
    snprintf(dir, sizeof dir, "%s/arbiter-bench-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        die("no temporary directory");
    start_daemon(bin, threads);

    /* Setup: the arbiter, a tournament, the players, ROUNDS rounds of
     * tablets/2 games each (pairs meet again with colours swapped). */
    char out[512], password[64] = "";
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    FILE *f = fopen(out, "r");
    while (f && fgets(out, sizeof out, f))
        if (strstr(out, "with password "))
            sscanf(strstr(out, "with password ") + 14, "%63s", password);
    if (f)
        fclose(f);
    char body[256], cookie[200] = "", arb[768];
    snprintf(body, sizeof body, "{\"username\":\"arbiter\",\"password\":\"%s\"}", password);
    char *login = NULL;
    if (call("POST", "/api/v1/auth/login", NULL, body, &login, cookie, sizeof cookie) != 200)
        die("login failed");
    json_t *lj = json_loads(login, 0, NULL);
    free(login);
    snprintf(arb, sizeof arb, "Cookie: %s\r\nX-CSRF-Token: %s\r\n", cookie,
             json_string_value(json_object_get(lj, "csrf_token")));
    json_decref(lj);
    json_t *tj = call_json("POST", "/api/v1/tournaments", arb,
                          "{\"name\":\"Bench\",\"time_control\":\"5400+30\",\"settings\":"
                          "{\"default_time_ms\":3600000}}", 201);
    int64_t tid = json_integer_value(json_object_get(tj, "id"));
    json_decref(tj);
    ntablets = tablets;
    npairs = tablets / 2;
    conns = calloc((size_t)tablets, sizeof *conns);
    pairs = calloc((size_t)npairs, sizeof *pairs);
    int64_t *pid = calloc((size_t)tablets, sizeof *pid);
    int64_t s0 = now_us();
    char path[128];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/players", (long long)tid);
    for (int i = 0; i < tablets; i++) {
        snprintf(body, sizeof body, "{\"name\":\"Tablet %d\",\"rating\":%d}", i, 1500 + i % 900);
        json_t *p = call_json("POST", path, arb, body, 201);
        json_t *cred = json_object_get(p, "credentials");
        pid[i] = json_integer_value(json_object_get(cred, "player_id"));
        snprintf(conns[i].token, sizeof conns[i].token, "%s",
                 json_string_value(json_object_get(cred, "token")));
        json_decref(p);
    }
    for (int i = 0; i < npairs; i++) {
        pairs[i].round = -1;
        pairs[i].conn[0] = 2 * i;
        pairs[i].conn[1] = 2 * i + 1;
        conns[2 * i].pair = conns[2 * i + 1].pair = i;
        conns[2 * i + 1].side = 1;
    }
    size_t cap = (size_t)npairs * 64 + 64;
    char *rb = malloc(cap);
    for (int r = 0; r < ROUNDS; r++) {
        size_t k = (size_t)sprintf(rb, "{\"pairings\":[");
        for (int i = 0; i < npairs; i++) {
            int64_t a = pid[2 * i], b = pid[2 * i + 1];
            k += (size_t)sprintf(rb + k, "%s{\"white_id\":%lld,\"black_id\":%lld}", i ? "," : "",
                                 (long long)(r % 2 ? b : a), (long long)(r % 2 ? a : b));
        }
        strcpy(rb + k, "]}");
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
        json_t *round = call_json("POST", path, arb, rb, 201);
        json_t *games = json_object_get(round, "games");
        for (int i = 0; i < npairs; i++)
            pairs[i].gid[r] =
                json_integer_value(json_object_get(json_array_get(games, (size_t)i), "id"));
        json_decref(round);
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/%d/start", (long long)tid,
                 r + 1);
        json_decref(call_json("POST", path, arb, NULL, 200));
    }
    free(rb);
    free(pid);
    printf("setup: %d tablets, %d games x %d rounds, in %.1f s\n", tablets, npairs, ROUNDS,
           (now_us() - s0) / 1e6);
    fflush(stdout);

    int64_t cpu0 = daemon_cpu_us(), self0 = self_cpu_us();
    run_load(seconds, 0);
    int64_t cpu = daemon_cpu_us() - cpu0, self = self_cpu_us() - self0;
    qsort(lat, nlat, sizeof *lat, cmp64);
    double rate = (double)accepted / seconds;
    printf("http: %lld durable validated moves in %d s = %.0f moves/s; latency p50 %.2f ms, "
           "p99 %.2f ms, max %.2f ms; %lld refused, %lld connection errors\n",
           accepted, seconds, rate, pct(lat, nlat, 0.5) / 1000.0, pct(lat, nlat, 0.99) / 1000.0,
           nlat ? lat[nlat - 1] / 1000.0 : 0.0, refused, errors);
    printf("http: daemon CPU %.2f s during the load = %.1f us per move (the load generator: "
           "%.1f us per move)\n",
           cpu / 1e6, accepted ? (double)cpu / (double)accepted : 0.0,
           accepted ? (double)self / (double)accepted : 0.0);
    fflush(stdout);

    /* The same tablets at a steady offered rate: with every tablet sending
     * as soon as it is answered, latency is only the queue (tablets divided
     * by throughput); at a given rate it shows what a player waits. */
    for (int k = 0; k < nrates; k++) {
        int64_t pace = (int64_t)((double)npairs * 1e6 / rates[k]);
        run_load(seconds, pace);
        qsort(lat, nlat, sizeof *lat, cmp64);
        printf("paced: %d tablets offering %.0f moves/s: %lld durable validated moves in %d s "
               "= %.0f moves/s; latency from the scheduled time p50 %.2f ms, p99 %.2f ms, "
               "max %.2f ms; %lld refused, %lld connection errors\n",
               tablets, rates[k], accepted, seconds, (double)accepted / seconds,
               pct(lat, nlat, 0.5) / 1000.0, pct(lat, nlat, 0.99) / 1000.0,
               nlat ? lat[nlat - 1] / 1000.0 : 0.0, refused, errors);
        fflush(stdout);
    }

    if (viewers > 0)
        run_viewers(viewers, vmoves, arb);

    kill(daemon_pid, SIGTERM);
    int status;
    waitpid(daemon_pid, &status, 0);

    /* The raw bound, same machine, same run, the daemon stopped. */
    double raw = raw_bound(npairs, seconds);
    printf("raw: group commit of one small row per request (WAL, synchronous=FULL, %d in flight)"
           " = %.0f rows/s\n", npairs, raw);
    printf("ratio http/raw = %.3f\n", raw > 0 ? rate / raw : 0.0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    free(conns);
    free(pairs);
    free(lat);
    return 0;
}
