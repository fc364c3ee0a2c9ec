/*
 * test_http_nchan.c — the fan-out through a real nginx with Nchan: the
 * daemon runs with --nchan-publish, nginx on loopback runs the site files
 * of deploy/nginx/ (the publisher of arbiter-fanout.conf, the viewers'
 * locations of arbiter-fanout-streams.conf) from a configuration written
 * into the test's directory, without root and without port 80.
 *
 * Outside truth: what an anonymous viewer gets from the daemon's own public
 * stream.  Fifty viewers through nginx must get exactly that, message for
 * message and in order; viewers who drop out while games go on and come
 * back with Last-Event-ID must get exactly what they missed; under a public
 * delay Nchan's viewers get each event no earlier than the daemon's; with
 * nginx stopped the moves go on at their usual speed, and their events
 * reach Nchan once it is back.
 *
 * Skipped (exit 77) when nginx or its Nchan module is not installed
 * (deploy/setup.sh installs both).  NGINX and NCHAN_MODULE name others.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static const char *nginx_bin(void)
{
    const char *e = getenv("NGINX");
    if (e && *e)
        return e;
    static const char *const places[] = {"/usr/sbin/nginx", "/usr/local/sbin/nginx",
                                         "/usr/bin/nginx"};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
        if (access(places[i], X_OK) == 0)
            return places[i];
    return NULL;
}

static const char *nchan_module(void)
{
    const char *e = getenv("NCHAN_MODULE");
    return e && *e ? e : "/usr/lib/nginx/modules/ngx_nchan_module.so";
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    ck_assert(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
              getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
    close(fd);
    return ntohs(sa.sin_port);
}

static int connect_port(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

/* nginx, the daemon and where they talk. */
static Daemon D;
static Client arb;
static pid_t nginx_pid;
static int pub_port, view_port;
static char pub_url[64];

/* Writes the nginx configuration into DIR/nginx and starts nginx in the
 * foreground of a child (stopped by stop_nginx, at the latest when the
 * test's process exits: a failed check ends it without the teardown). */
static void start_nginx(const char *dir)
{
    const char *top = getenv("ARBITER_SOURCE_ROOT");
    ck_assert_msg(top != NULL, "ARBITER_SOURCE_ROOT is not set");
    char ndir[400], path[600], conf[600];
    snprintf(ndir, sizeof ndir, "%s/nginx", dir);
    mkdir(ndir, 0755);
    /* The shipped publisher site, on a free port instead of 8090. */
    snprintf(path, sizeof path, "%s/deploy/nginx/arbiter-fanout.conf", top);
    size_t len;
    char *fan = testutil_read(path, &len);
    ck_assert_msg(fan != NULL, "cannot read %s", path);
    char *at = strstr(fan, "listen 127.0.0.1:8090;");
    ck_assert_msg(at != NULL, "no publisher listen line in %s", path);
    snprintf(path, sizeof path, "%s/fanout.conf", ndir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fprintf(f, "%.*slisten 127.0.0.1:%d;%s", (int)(at - fan), fan, pub_port,
            at + strlen("listen 127.0.0.1:8090;"));
    fclose(f);
    free(fan);
    snprintf(conf, sizeof conf, "%s/nginx.conf", ndir);
    f = fopen(conf, "w");
    ck_assert(f != NULL);
    fprintf(f,
            "load_module %s;\n%s"
            "worker_processes 2;\n"
            "pid %s/nginx.pid;\n"
            "error_log %s/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            "    access_log off;\n"
            "    client_body_temp_path %s/body;\n"
            "    proxy_temp_path %s/proxy;\n"
            "    fastcgi_temp_path %s/fastcgi;\n"
            "    uwsgi_temp_path %s/uwsgi;\n"
            "    scgi_temp_path %s/scgi;\n"
            "    map \"$cookie_arbiter_session$http_authorization\" $arbiter_signed_in {\n"
            "        \"\" 0;\n"
            "        default 1;\n"
            "    }\n"
            "    upstream arbiter { server 127.0.0.1:%d; keepalive 8; }\n"
            "    include %s/fanout.conf;\n"
            "    server {\n"
            "        listen 127.0.0.1:%d;\n"
            "        include %s/deploy/nginx/arbiter-fanout-streams.conf;\n"
            "        location / { proxy_pass http://arbiter; proxy_http_version 1.1; "
            "proxy_set_header Connection \"\"; }\n"
            "    }\n"
            "}\n",
            nchan_module(), geteuid() == 0 ? "user root;\n" : "", ndir, ndir, ndir, ndir, ndir,
            ndir, ndir, D.port, ndir, view_port, top);
    fclose(f);
    char elog[600];
    snprintf(elog, sizeof elog, "%s/error.log", ndir);
    nginx_pid = fork();
    ck_assert(nginx_pid >= 0);
    if (nginx_pid == 0) {
        int o = open(elog, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (o >= 0) {
            dup2(o, 1);
            dup2(o, 2);
        }
        execl(nginx_bin(), "nginx", "-p", ndir, "-c", conf, "-e", elog, "-g", "daemon off;",
              (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 400; i++) {
        int fd = connect_port(view_port);
        if (fd >= 0) {
            close(fd);
            fd = connect_port(pub_port);
            if (fd >= 0) {
                close(fd);
                return;
            }
        }
        int st;
        if (waitpid(nginx_pid, &st, WNOHANG) == nginx_pid) {
            nginx_pid = 0;
            char *log = testutil_read(elog, &len);
            ck_abort_msg("nginx exited at start:\n%s", log ? log : "(no log)");
        }
        usleep(50 * 1000);
    }
    char *log = testutil_read(elog, &len);
    ck_abort_msg("nginx does not listen on %d:\n%s", view_port, log ? log : "(no log)");
}

static void stop_nginx(void)
{
    if (nginx_pid <= 0)
        return;
    kill(nginx_pid, SIGTERM);
    int st;
    waitpid(nginx_pid, &st, 0);
    nginx_pid = 0;
}

static void setup(void)
{
    atexit(stop_nginx);
    pub_port = free_port();
    view_port = free_port();
    snprintf(pub_url, sizeof pub_url, "http://127.0.0.1:%d/pub", pub_port);
    static const char *args[] = {"--rate-limit", "0", "--nchan-publish", pub_url, NULL};
    daemon_start_args(&D, 0, args);
    login_arbiter(&D, &arb);
    start_nginx(D.dir);
}

static void teardown(void)
{
    stop_nginx();
    daemon_finish(&D);
}

/* Waits until the daemon's publisher is connected to nginx with nothing
 * queued: what the daemon published before nginx came up (the set-up of a
 * test) has reached Nchan, and a viewer attached now gets what comes next. */
static void wait_publisher_idle(void)
{
    int64_t until = now_ms() + 15000;
    for (;;) {
        Resp *r = req(&D, NULL, "GET", "/api/v1/health", NULL);
        json_t *nc = json_object_get(r->json, "nchan");
        int idle = nc && json_is_true(json_object_get(nc, "connected")) && jint(nc, "queued") == 0;
        resp_free(r);
        if (idle)
            return;
        ck_assert_msg(now_ms() < until, "the publisher did not reach nginx");
        usleep(50 * 1000);
    }
}

/* One spectator's stream: raw HTTP/1.0 (the answer runs to the end of the
 * connection, no chunks), parsed into its messages. */
typedef struct Viewer {
    int port;
    char path[96];
    int fd;
    int status;       /* of the answer; 0 until its headers came */
    char last_id[64]; /* the last id: line */
    char *buf;
    size_t len, cap;
    char **msg;  /* "EVENT DATA" of each message with data, "state" left out */
    int64_t *at; /* when each came (now_ms) */
    size_t n, ncap;
} Viewer;

static void viewer_open(Viewer *v, const char *last_id)
{
    v->fd = connect_port(v->port);
    ck_assert_msg(v->fd >= 0, "cannot connect to %d", v->port);
    v->status = 0;
    v->len = 0;
    char req[400];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.0\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                     "%s%s%s\r\n",
                     v->path, last_id ? "Last-Event-ID: " : "", last_id ? last_id : "",
                     last_id ? "\r\n" : "");
    ck_assert_int_eq(send(v->fd, req, (size_t)n, MSG_NOSIGNAL), n);
    fcntl(v->fd, F_SETFL, O_NONBLOCK);
}

static void viewer_close(Viewer *v)
{
    if (v->fd >= 0)
        close(v->fd);
    v->fd = -1;
}

static void viewer_free(Viewer *v)
{
    viewer_close(v);
    for (size_t i = 0; i < v->n; i++)
        free(v->msg[i]);
    free(v->msg);
    free(v->at);
    free(v->buf);
}

/* Takes the whole messages out of v->buf. */
static void viewer_parse(Viewer *v)
{
    if (!v->status) {
        char *end = memmem(v->buf, v->len, "\r\n\r\n", 4);
        if (!end)
            return;
        ck_assert(sscanf(v->buf, "HTTP/1.%*d %d", &v->status) == 1);
        size_t skip = (size_t)(end + 4 - v->buf);
        memmove(v->buf, end + 4, v->len - skip);
        v->len -= skip;
    }
    char *start = v->buf, *end;
    while ((end = memmem(start, v->len - (size_t)(start - v->buf), "\n\n", 2))) {
        *end = '\0';
        char event[32] = "message", *data = NULL;
        for (char *line = start, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (!strncmp(line, "id:", 3))
                snprintf(v->last_id, sizeof v->last_id, "%s", line + 3 + (line[3] == ' '));
            else if (!strncmp(line, "event:", 6))
                snprintf(event, sizeof event, "%s", line + 6 + (line[6] == ' '));
            else if (!strncmp(line, "data:", 5))
                data = line + 5 + (line[5] == ' ');
        }
        if (data && strcmp(event, "state") != 0) {
            if (v->n == v->ncap) {
                v->ncap = v->ncap ? v->ncap * 2 : 16;
                v->msg = realloc(v->msg, v->ncap * sizeof *v->msg);
                v->at = realloc(v->at, v->ncap * sizeof *v->at);
                ck_assert(v->msg != NULL && v->at != NULL);
            }
            v->at[v->n] = now_ms();
            ck_assert(asprintf(&v->msg[v->n++], "%s %s", event, data) > 0);
        }
        start = end + 2;
    }
    size_t rest = v->len - (size_t)(start - v->buf);
    memmove(v->buf, start, rest);
    v->len = rest;
}

/* Reads what the N viewers' connections have for at most MS ms. */
static void pump(Viewer *v, int n, int ms)
{
    struct pollfd pf[128];
    ck_assert(n <= 128);
    for (int i = 0; i < n; i++)
        pf[i] = (struct pollfd){.fd = v[i].fd, .events = POLLIN};
    if (poll(pf, (nfds_t)n, ms) <= 0)
        return;
    for (int i = 0; i < n; i++) {
        if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        if (v[i].cap - v[i].len < 65536) {
            v[i].cap = v[i].cap * 2 + 65536;
            v[i].buf = realloc(v[i].buf, v[i].cap);
            ck_assert(v[i].buf != NULL);
        }
        ssize_t r = recv(v[i].fd, v[i].buf + v[i].len, v[i].cap - v[i].len - 1, 0);
        if (r > 0) {
            v[i].len += (size_t)r;
            v[i].buf[v[i].len] = '\0';
            viewer_parse(&v[i]);
        } else if (r == 0 || errno != EAGAIN)
            viewer_close(&v[i]); /* poll skips a negative descriptor */
    }
}

/* Pumps until every viewer has WANT[i] messages (its answer's headers when
 * WANT[i] is 0), for at most MS ms: 1 when they all do. */
static int pump_until(Viewer *v, int n, const size_t *want, int ms)
{
    int64_t until = now_ms() + ms;
    for (;;) {
        int done = 1;
        for (int i = 0; i < n; i++)
            done &= v[i].n >= want[i] && v[i].status != 0;
        if (done)
            return 1;
        if (now_ms() > until)
            return 0;
        pump(v, n, 50);
    }
}

static void viewer_init(Viewer *v, int port, const char *fmt, long long id)
{
    memset(v, 0, sizeof *v);
    v->port = port;
    v->fd = -1;
    snprintf(v->path, sizeof v->path, fmt, id);
}

/* Asserts that viewer V got exactly REF's messages (REF is the daemon's own
 * public stream of the same game or tournament). */
static void assert_same(const Viewer *v, const Viewer *ref, int i)
{
    ck_assert_msg(v->n == ref->n, "viewer %d of %s got %zu messages, the daemon's stream %zu", i,
                  v->path, v->n, ref->n);
    for (size_t k = 0; k < v->n; k++)
        ck_assert_msg(strcmp(v->msg[k], ref->msg[k]) == 0,
                      "viewer %d of %s, message %zu:\n%s\nthe daemon's:\n%s", i, v->path, k,
                      v->msg[k], ref->msg[k]);
}

enum { NVIEW = 50, NREF = 3 };

/* Plays three moves on each of the two games GIDS (White PL[0] and PL[1],
 * Black PL[2] and PL[3]) from their plies PLY. */
static void play_three(const Client *pl, const int64_t *gids, int *ply)
{
    static const char *const a_moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"};
    static const char *const b_moves[] = {"d4", "d5", "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7"};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(play(&D, &pl[ply[0] % 2 ? 2 : 0], gids[0], ply[0], a_moves[ply[0]]), 200);
        ply[0]++;
        ck_assert_int_eq(play(&D, &pl[ply[1] % 2 ? 3 : 1], gids[1], ply[1], b_moves[ply[1]]), 200);
        ply[1]++;
    }
}

START_TEST(fifty_viewers_through_nginx_get_every_event_in_order)
{
    int64_t pids[4], gids[2];
    Client pl[4];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 4, pids, pl);
    int64_t w[2] = {pids[0], pids[1]}, b[2] = {pids[2], pids[3]};
    ck_assert_int_eq(make_round(&D, &arb, tid, 2, w, b, gids), 1);
    harness_round_one_start(&D, &arb, pl, tid, gids, 2);
    wait_publisher_idle();

    /* v[0..2]: the daemon's own public streams (tournament, game A, game
     * B); then the viewers through nginx: 20 on the tournament, 15 on
     * each game. */
    Viewer v[NREF + NVIEW];
    viewer_init(&v[0], D.port, "/api/v1/tournaments/%lld/stream", (long long)tid);
    viewer_init(&v[1], D.port, "/api/v1/games/%lld/stream", (long long)gids[0]);
    viewer_init(&v[2], D.port, "/api/v1/games/%lld/stream", (long long)gids[1]);
    for (int i = 0; i < NVIEW; i++) {
        int kind = i < 20 ? 0 : i < 35 ? 1 : 2;
        viewer_init(&v[NREF + i], view_port,
                    kind ? "/api/v1/games/%lld/stream" : "/api/v1/tournaments/%lld/stream",
                    kind ? (long long)gids[kind - 1] : (long long)tid);
    }
    size_t want[NREF + NVIEW] = {0};
    for (int i = 0; i < NREF + NVIEW; i++)
        viewer_open(&v[i], NULL);
    ck_assert_msg(pump_until(v, NREF + NVIEW, want, 10000), "the streams did not open");
    for (int i = 0; i < NREF + NVIEW; i++)
        ck_assert_msg(v[i].status == 200, "%s on %d: %d", v[i].path, v[i].port, v[i].status);

    int ply[2] = {0, 0};
    play_three(pl, gids, ply);
    /* Six moves: six on the tournament's stream, three on each game's. */
    size_t ref_want[3] = {6, 3, 3};
    for (int i = 0; i < NREF + NVIEW; i++)
        want[i] = ref_want[i < NREF ? i : i - NREF < 20 ? 0 : i - NREF < 35 ? 1 : 2];
    ck_assert_msg(pump_until(v, NREF + NVIEW, want, 20000),
                  "not every viewer got the first six moves");
    for (int i = NREF; i < NREF + NVIEW; i++) {
        int k = i - NREF < 20 ? 0 : i - NREF < 35 ? 1 : 2;
        assert_same(&v[i], &v[k], i - NREF);
        ck_assert_msg(v[i].last_id[0], "viewer %d got no event id", i - NREF);
    }

    /* Ten viewers drop out (four of the tournament, three of each game),
     * the games go on, one ends; they come back with Last-Event-ID. */
    static const int gone[] = {0, 5, 10, 15, 20, 25, 30, 35, 40, 45};
    for (size_t g = 0; g < sizeof gone / sizeof gone[0]; g++)
        viewer_close(&v[NREF + gone[g]]);
    play_three(pl, gids, ply);
    Resp *r = reqf(&D, &arb, "POST", "{\"white\":1,\"black\":0}",
                   "/api/v1/games/%lld/arbiter/result", (long long)gids[1]);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    /* Three moves more on each game, and game B's result. */
    size_t ref_now[3] = {13, 6, 7};
    ck_assert_msg(pump_until(v, NREF, ref_now, 20000), "the daemon's streams fell short");
    pump(v, NREF + NVIEW, 300); /* anything after the result */
    for (size_t g = 0; g < sizeof gone / sizeof gone[0]; g++) {
        Viewer *x = &v[NREF + gone[g]];
        ck_assert_msg(x->n < v[gone[g] < 20   ? 0
                               : gone[g] < 35 ? 1
                                              : 2]
                                 .n,
                      "viewer %d was gone but is not behind", gone[g]);
        viewer_open(x, x->last_id);
    }
    for (int i = 0; i < NREF + NVIEW; i++)
        want[i] = v[i < NREF ? i : i - NREF < 20 ? 0 : i - NREF < 35 ? 1 : 2].n;
    ck_assert_msg(pump_until(v, NREF + NVIEW, want, 20000),
                  "not every viewer caught up after reconnecting");
    pump(v, NREF + NVIEW, 500); /* nothing more may come: no repeats */
    for (int i = NREF; i < NREF + NVIEW; i++)
        assert_same(&v[i], &v[i - NREF < 20 ? 0 : i - NREF < 35 ? 1 : 2], i - NREF);

    /* The publisher's counters: every message taken, none dropped. */
    r = req(&D, NULL, "GET", "/api/v1/health", NULL);
    json_t *nc = json_object_get(r->json, "nchan");
    ck_assert_msg(nc != NULL, "%s", r->body);
    ck_assert_int_ge(jint(nc, "sent"), (json_int_t)(v[0].n + v[1].n + v[2].n));
    ck_assert_int_eq(jint(nc, "dropped"), 0);
    ck_assert_int_eq(jint(nc, "rejected"), 0);
    ck_assert(json_is_true(json_object_get(nc, "connected")));
    resp_free(r);
    for (int i = 0; i < NREF + NVIEW; i++)
        viewer_free(&v[i]);
}
END_TEST

/* The board after 1. e4, and after 1. e4 c5, in a game update's FEN. */
#define AFTER_E4 "4P3/8/PPPP1PPP"
#define AFTER_C5 "2p5/4P3"

START_TEST(delayed_events_reach_nchan_after_the_delay)
{
    enum { DELAY_MS = 2000 };
    int64_t pids[2], gids[1];
    Client pl[2];
    int64_t tid = make_tournament(&D, &arb, "5400+30", "{\"public_delay\":2}", 2, pids, pl);
    ck_assert_int_eq(make_round(&D, &arb, tid, 1, &pids[0], &pids[1], gids), 1);
    harness_round_one_start(&D, &arb, pl, tid, gids, 1);
    /* The set-up's events fall due and reach Nchan before anyone watches:
     * all four viewers then start alike. */
    usleep((DELAY_MS + 500) * 1000);
    wait_publisher_idle();
    Viewer v[4];
    viewer_init(&v[0], D.port, "/api/v1/tournaments/%lld/stream", (long long)tid);
    viewer_init(&v[1], D.port, "/api/v1/games/%lld/stream", (long long)gids[0]);
    viewer_init(&v[2], view_port, "/api/v1/tournaments/%lld/stream", (long long)tid);
    viewer_init(&v[3], view_port, "/api/v1/games/%lld/stream", (long long)gids[0]);
    size_t want[4] = {0};
    for (int i = 0; i < 4; i++)
        viewer_open(&v[i], NULL);
    ck_assert(pump_until(v, 4, want, 10000));
    /* The moves are stamped when their requests arrive, after T0: no
     * viewer may see them before T0 + the delay. */
    int64_t t0 = now_ms();
    ck_assert_int_eq(play(&D, &pl[0], gids[0], 0, "e4"), 200);
    ck_assert_int_eq(play(&D, &pl[1], gids[0], 1, "c5"), 200);
    int64_t until = now_ms() + DELAY_MS + 15000;
    for (;;) {
        int done = 1;
        for (int i = 0; i < 4; i++)
            done &= v[i].n > 0 && strstr(v[i].msg[v[i].n - 1], AFTER_C5) != NULL;
        if (done)
            break;
        ck_assert_msg(now_ms() < until, "the delayed moves did not come");
        pump(v, 4, 50);
    }
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < v[i].n; k++)
            if (strstr(v[i].msg[k], AFTER_E4))
                ck_assert_msg(v[i].at[k] >= t0 + DELAY_MS - 100,
                              "%s on %d: a move came %lld ms after it, within the delay", v[i].path,
                              v[i].port, (long long)(v[i].at[k] - t0));
    /* Nchan's viewers got what the daemon's own public streams did. */
    pump(v, 4, 300);
    assert_same(&v[2], &v[0], 0);
    assert_same(&v[3], &v[1], 1);
    for (int i = 0; i < 4; i++)
        viewer_free(&v[i]);
}
END_TEST

/* The publisher's counter K in /api/v1/health. */
static json_int_t nchan_count(const char *k)
{
    Resp *r = req(&D, NULL, "GET", "/api/v1/health", NULL);
    json_t *nc = json_object_get(r->json, "nchan");
    ck_assert_msg(nc != NULL, "%s", r->body);
    json_int_t v = json_is_boolean(json_object_get(nc, k)) ? json_is_true(json_object_get(nc, k))
                                                           : jint(nc, k);
    resp_free(r);
    return v;
}

START_TEST(moves_go_on_while_nginx_is_down)
{
    int64_t pids[2], gids[1];
    Client pl[2];
    int64_t tid = make_tournament(&D, &arb, "5400+30", NULL, 2, pids, pl);
    ck_assert_int_eq(make_round(&D, &arb, tid, 1, &pids[0], &pids[1], gids), 1);
    harness_round_one_start(&D, &arb, pl, tid, gids, 1);
    wait_publisher_idle();
    json_int_t sent = nchan_count("sent");
    /* nginx goes away: the moves are answered as fast as ever, their
     * events wait in the publisher's queue. */
    stop_nginx();
    static const char *const moves[] = {"e4", "e5", "Nf3", "Nc6"};
    int64_t t0 = now_ms();
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(play(&D, &pl[i % 2], gids[0], i, moves[i]), 200);
    ck_assert_msg(now_ms() - t0 < 4000, "four moves took %lld ms without nginx",
                  (long long)(now_ms() - t0));
    usleep(300 * 1000);
    ck_assert_int_eq(nchan_count("connected"), 0);
    ck_assert_int_eq(nchan_count("queued"), 8); /* each move to its game and its tournament */
    /* nginx comes back: the queue drains in order, nothing was dropped. */
    start_nginx(D.dir);
    wait_publisher_idle();
    ck_assert_int_eq(nchan_count("sent"), sent + 8);
    ck_assert_int_eq(nchan_count("dropped"), 0);
    ck_assert_int_ge(nchan_count("reconnects"), 1);
}
END_TEST

int main(void)
{
    if (!nginx_bin() || access(nchan_module(), R_OK) != 0) {
        printf("nginx or its Nchan module (%s) is not installed: skipped\n", nchan_module());
        return 77;
    }
    signal(SIGPIPE, SIG_IGN);
    Suite *s = suite_create("http_nchan");
    TCase *tc = tcase_create("nchan");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fifty_viewers_through_nginx_get_every_event_in_order);
    tcase_add_test(tc, delayed_events_reach_nchan_after_the_delay);
    tcase_add_test(tc, moves_go_on_while_nginx_is_down);
    suite_add_tcase(s, tc);
    return testutil_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
