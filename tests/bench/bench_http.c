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
 * its arrival at every viewer, and the daemon's CPU per move meanwhile.
 *
 *   bench_http [--tablets N] [--seconds S] [--viewers V] [--moves M]
 *              [--rates R1,R2,...]   (default 10000 moves/s)
 *              [--viewer-procs P] [--only-viewers 1] [--fanout CMD]
 *
 * --only-viewers 1 runs the viewers alone; --viewer-procs spreads them over
 * P processes (one process may hold only so many descriptors); --fanout
 * CMD puts a proxy between them and the daemon: tests/bench/fanout.sh runs
 * nginx with Nchan and the relay of deploy/ (the viewers then connect to
 * nginx, and the daemon serves one stream to the relay).
 *
 * The daemon comes from ARBITER_BIN; everything runs in a temporary
 * directory.  Games are random legal games (fixed seeds) of up to 60 plies,
 * sent in UCI; a pair of tablets plays its rounds one after the other.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "loadgen.h"
#include "store.h"
#include "writer.h"

enum { MAXPLY = 60, ROUNDS = 24 };

/* ---- the load: tablets on keep-alive connections ---- */

typedef struct Conn {
    LgConn io;
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

static void send_move(Pair *p)
{
    int white_is_a = p->round % 2 == 0;
    int mover_is_a = (p->ply % 2 == 0) == white_is_a;
    Conn *c = &conns[p->conn[mover_is_a ? 0 : 1]];
    char body[64], req[512];
    int bl = snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", p->ply, p->moves[p->ply]);
    int n = snprintf(req, sizeof req,
                     "POST /api/v1/games/%lld/move HTTP/1.1\r\nHost: x\r\n"
                     "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                     "Content-Length: %d\r\n\r\n%s",
                     (long long)p->gid[p->round], c->token, bl, body);
    c->busy = 1;
    c->t0 = pace_us ? p->due : lg_now_us();
    if (lg_conn_send(&c->io, ep, (uint64_t)(c - conns), req, (size_t)n))
        errors++;
}

static void next_game(Pair *p)
{
    while (++p->round < ROUNDS) {
        p->ply = 0;
        p->nmoves =
            lg_random_game((uint64_t)(p - pairs) * 131 + (uint64_t)p->round, p->moves, MAXPLY);
        if (p->nmoves > 0)
            return;
    }
}

static void on_response(Conn *c, int status)
{
    int64_t t1 = lg_now_us();
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
    if (lg_now_us() >= t_end)
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
    int64_t t = lg_now_us();
    for (int i = 0; i < npairs; i++)
        if (pairs[i].waiting && pairs[i].due <= t && t < t_end) {
            pairs[i].waiting = 0;
            send_move(&pairs[i]);
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
    for (int i = 0; i < ntablets; i++)
        if (lg_conn_open(&conns[i].io, ep, (uint64_t)i))
            lg_die("cannot connect");
    usleep(200000);
    t_start = lg_now_us();
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
    while (lg_now_us() < t_end + 3000000 && inflight) {
        if (pace)
            send_due();
        int n = epoll_wait(ep, evs, 256, pace ? 1 : 100);
        for (int k = 0; k < n; k++) {
            Conn *c = &conns[evs[k].data.u64];
            if (evs[k].events & EPOLLOUT && lg_conn_flush(&c->io, ep, evs[k].data.u64))
                errors++;
            if (evs[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                int r = lg_conn_read(&c->io);
                if (r <= 0) {
                    errors++;
                    epoll_ctl(ep, EPOLL_CTL_DEL, c->io.fd, NULL);
                    c->busy = 0;
                }
                int status;
                char *body;
                while (lg_conn_response(&c->io, &status, &body))
                    on_response(c, status);
            }
        }
        if (lg_now_us() > t_end) {
            inflight = 0;
            for (int i = 0; i < ntablets && !inflight; i++)
                inflight = conns[i].busy;
        }
    }
    for (int i = 0; i < npairs; i++)
        pairs[i].waiting = 0;
    for (int i = 0; i < ntablets; i++)
        lg_conn_close(&conns[i].io, ep);
    close(ep);
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
    return store_run(
        s, NULL, "INSERT INTO bench_rows(k, at_ms, body) VALUES (?1, ?2, ?3)", "iis", j->k,
        store_now_ms(),
        "{\"type\":\"move\",\"time_ms\":1795959997695,\"actor\":\"white\",\"move\":\"e2e4\"}");
}

static void raw_done_cb(WriterJob *job, int rc)
{
    if (lg_now_us() <= raw_t_end)
        raw_done++;
    if (lg_now_us() < raw_t_end && writer_submit(raw_writer, job) == 0)
        return;
}

static double raw_bound(int inflight, int seconds)
{
    char path[320], err[256];
    snprintf(path, sizeof path, "%s/raw.db", lg_dir());
    raw_writer = writer_start(path, err, sizeof err);
    if (!raw_writer)
        lg_die("%s", err);
    WriterJob setup = {0};
    (void)setup;
    Store *s;
    if (store_open(path, 0, &s, err, sizeof err))
        lg_die("%s", err);
    store_run(s, NULL,
              "CREATE TABLE IF NOT EXISTS bench_rows(id INTEGER PRIMARY KEY, k INTEGER, "
              "at_ms INTEGER, body TEXT)",
              "");
    store_close(s);
    RawJob *jobs = calloc((size_t)inflight, sizeof *jobs);
    int64_t t0 = lg_now_us();
    raw_t_end = t0 + (int64_t)seconds * 1000000;
    for (int i = 0; i < inflight; i++) {
        jobs[i].job.run = raw_run;
        jobs[i].job.done = raw_done_cb;
        jobs[i].k = i;
        writer_submit(raw_writer, &jobs[i].job);
    }
    while (lg_now_us() < raw_t_end + 200000)
        usleep(50000);
    uint64_t nj, nb, ru, cu;
    writer_counts(raw_writer, &nj, &nb, &ru, &cu);
    printf("raw: %llu rows in %llu transactions (%.0f us running and %.0f us committing per "
           "transaction)\n",
           (unsigned long long)nj, (unsigned long long)nb, nb ? (double)ru / (double)nb : 0.0,
           nb ? (double)cu / (double)nb : 0.0);
    writer_stop(raw_writer);
    free(jobs);
    return (double)raw_done / seconds;
}

/* ---- live streams: V viewers of one game ---- */

/* Where the viewers connect: the daemon (0), or NPORTS ports of a proxy
 * from PORT0 (--fanout: nginx with Nchan, deploy/nginx/arbiter-fanout.conf).
 * They are spread over PROCS processes, as one process may hold only so
 * many descriptors. */
static int view_port0, view_nports = 1, view_procs = 1;

typedef struct Viewer {
    int fd;
    int seen; /* game events received */
    LgSse sse;
} Viewer;

static Viewer *v;
static int64_t *arrive, view_now;
static int view_moves;

static void on_view_event(void *ctx, const char *event, int64_t id)
{
    Viewer *w = ctx;
    (void)id;
    if (!strcmp(event, "game") && w->seen < view_moves)
        arrive[(size_t)(w - v) * (size_t)view_moves + (size_t)w->seen++] = view_now;
}

/* Reads what viewer W has received. */
static void drain(Viewer *w)
{
    char buf[65536];
    ssize_t got;
    while ((got = read(w->fd, buf, sizeof buf)) > 0)
        lg_sse_feed(&w->sse, buf, (size_t)got, on_view_event, w);
}

/* One viewer process: opens viewers FIRST .. FIRST+COUNT-1 of game GID,
 * says so on READY, reads until STOP closes, then writes each viewer's
 * count and arrival times (monotonic us, shared by the processes) to OUT. */
static void viewer_proc(int first, int count, int64_t gid, int ready, int stop, const char *out)
{
    v = calloc((size_t)count, sizeof *v);
    arrive = calloc((size_t)count * (size_t)view_moves, sizeof *arrive);
    int vep = epoll_create1(0);
    char req[160];
    int rl = snprintf(req, sizeof req,
                      "GET /api/v1/games/%lld/stream HTTP/1.1\r\nHost: x\r\n"
                      "Accept: text/event-stream\r\n\r\n",
                      (long long)gid);
    struct epoll_event evs[512];
    /* Connect in waves so the listen backlog never overflows. */
    for (int i = 0; i < count; i++) {
        int n = first + i;
        v[i].fd = view_port0 ? lg_connect_to(view_port0 + n % view_nports, 0) : lg_connect(0);
        if (v[i].fd < 0 || write(v[i].fd, req, (size_t)rl) != rl)
            _exit(3);
        fcntl(v[i].fd, F_SETFL, O_NONBLOCK);
        lg_sse_reset(&v[i].sse);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(vep, EPOLL_CTL_ADD, v[i].fd, &ev);
        if (i % 500 == 499) {
            int k;
            while ((k = epoll_wait(vep, evs, 512, 20)) > 0)
                for (int j = 0; j < k; j++)
                    drain(&v[evs[j].data.u32]);
        }
    }
    struct epoll_event sev = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
    epoll_ctl(vep, EPOLL_CTL_ADD, stop, &sev);
    if (write(ready, "r", 1) != 1)
        _exit(3);
    for (int done = 0; !done;) {
        int k = epoll_wait(vep, evs, 512, 50);
        view_now = lg_now_us();
        for (int j = 0; j < k; j++) {
            if (evs[j].data.u32 == UINT32_MAX)
                done = 1;
            else
                drain(&v[evs[j].data.u32]);
        }
    }
    FILE *f = fopen(out, "wb");
    for (int i = 0; f && i < count; i++) {
        fwrite(&v[i].seen, sizeof v[i].seen, 1, f);
        fwrite(&arrive[(size_t)i * (size_t)view_moves], sizeof *arrive, (size_t)view_moves, f);
    }
    _exit(f && fclose(f) == 0 ? 0 : 3);
}

/* A game of its own, both players checked in, started; the players'
 * authorization headers into AUTH.  Returns the game's id. */
static int64_t viewer_game(const char *arb_headers, char auth[2][256])
{
    json_t *t = lg_call_json("POST", "/api/v1/tournaments", arb_headers,
                             "{\"name\":\"Viewers\",\"time_control\":\"5400+30\"}", 201);
    int64_t tid = json_integer_value(json_object_get(t, "id"));
    json_decref(t);
    char path[128];
    int64_t pid[2];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/players", (long long)tid);
        json_t *p = lg_call_json("POST", path, arb_headers, "{\"name\":\"V\"}", 201);
        json_t *cred = json_object_get(p, "credentials");
        pid[i] = json_integer_value(json_object_get(cred, "player_id"));
        snprintf(auth[i], 256, "Authorization: Bearer %.100s\r\n",
                 json_string_value(json_object_get(cred, "token")));
        json_decref(p);
    }
    char body[200];
    snprintf(body, sizeof body,
             "{\"pairings\":[{\"white_id\":%lld,\"black_id\":%lld}],\"publish\":true}",
             (long long)pid[0], (long long)pid[1]);
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    json_t *r = lg_call_json("POST", path, arb_headers, body, 201);
    int64_t gid =
        json_integer_value(json_object_get(json_array_get(json_object_get(r, "games"), 0), "id"));
    json_decref(r);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "/api/v1/games/%lld/checkin", (long long)gid);
        json_decref(lg_call_json("POST", path, auth[i], "{}", 200));
    }
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    json_decref(lg_call_json("POST", path, arb_headers, NULL, 200));
    return gid;
}

/* Through the daemon's own publisher: waits (at most 30 s) until what the
 * set-up of the game published has reached Nchan, so that the viewers,
 * who attach next, count only the moves. */
static void publisher_settle(void)
{
    for (int i = 0; i < 600; i++) {
        json_t *h = lg_call_json("GET", "/api/v1/health", NULL, NULL, 200);
        json_t *nc = json_object_get(h, "nchan");
        int idle = !nc || json_integer_value(json_object_get(nc, "queued")) == 0;
        json_decref(h);
        if (idle)
            return;
        usleep(50 * 1000);
    }
}

/* Runs the viewers; returns how many received every move. */
static int run_viewers(int nviewers, int nmoves, const char *arb_headers)
{
    char auth[2][256], path[128], body[200], out[400];
    int64_t gid = viewer_game(arb_headers, auth);
    if (view_port0)
        publisher_settle();
    view_moves = nmoves;
    int ready[2], stop[2];
    if (pipe(ready) || pipe(stop))
        lg_die("pipe");
    pid_t *kids = calloc((size_t)view_procs, sizeof *kids);
    int share = (nviewers + view_procs - 1) / view_procs;
    for (int k = 0; k < view_procs; k++) {
        int first = k * share, count = first + share > nviewers ? nviewers - first : share;
        snprintf(out, sizeof out, "%s/viewers.%d", lg_dir(), k);
        fflush(stdout);
        kids[k] = fork();
        if (kids[k] == 0) {
            close(stop[1]);
            viewer_proc(first, count > 0 ? count : 0, gid, ready[1], stop[0], out);
        }
    }
    close(stop[0]);
    for (int k = 0; k < view_procs; k++) {
        char c;
        if (read(ready[0], &c, 1) != 1)
            lg_die("a viewer process failed to connect");
    }
    /* Let the first states (or nothing, through Nchan) arrive; through
     * the proxy, give the relay time to find the new tournament too. */
    usleep(view_port0 ? 6000000 : 2000000);
    static const char *const moves[] = {"g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1",
                                        "c6b8", "e2e3", "e7e6", "d1e2", "d8e7", "e2d1", "e7d8",
                                        "a2a3", "a7a6", "h2h3", "h7h6", "b2b3", "b7b6"};
    int64_t *sent = calloc((size_t)nmoves, sizeof *sent);
    int64_t cpu0 = lg_daemon_cpu_us(), cpu = -1;
    for (int m = 0; m < nmoves && m < 20; m++) {
        snprintf(path, sizeof path, "/api/v1/games/%lld/move", (long long)gid);
        snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", m, moves[m]);
        sent[m] = lg_now_us();
        if (lg_call("POST", path, auth[m % 2], body, NULL, NULL, 0) != 200)
            lg_die("viewer game move refused");
        /* 400 ms per move; after the last one, time for every viewer.
         * Through the proxy the daemon's part ends with its publishing:
         * its CPU is taken a second after the last move, not after the
         * wait for the viewers, which grows with their number and would
         * count the idle daemon's timers as work per move. */
        int last = m == nmoves - 1 || m == 19;
        if (last && view_port0) {
            usleep(1000000);
            cpu = lg_daemon_cpu_us() - cpu0;
            usleep((useconds_t)nviewers * 400);
        } else
            usleep(last ? 1000000 + (useconds_t)nviewers * 400 : 400000);
    }
    if (cpu < 0)
        cpu = lg_daemon_cpu_us() - cpu0;
    close(stop[1]);
    size_t ns = 0, complete = 0;
    int64_t *d = calloc((size_t)nviewers * (size_t)nmoves, sizeof *d);
    int64_t *times = calloc((size_t)nmoves, sizeof *times);
    for (int k = 0; k < view_procs; k++) {
        int status;
        waitpid(kids[k], &status, 0);
        snprintf(out, sizeof out, "%s/viewers.%d", lg_dir(), k);
        FILE *f = fopen(out, "rb");
        int seen;
        while (f && fread(&seen, sizeof seen, 1, f) == 1 &&
               fread(times, sizeof *times, (size_t)nmoves, f) == (size_t)nmoves) {
            complete += seen == nmoves;
            for (int m = 0; m < seen; m++)
                d[ns++] = times[m] - sent[m];
        }
        if (f)
            fclose(f);
    }
    qsort(d, ns, sizeof *d, lg_cmp64);
    printf("sse%s: %d viewers in %d processes, %zu received all %d moves (%zu of %lld move "
           "events arrived); move -> viewer delay p50 %.1f ms, p99 %.1f ms, max %.1f ms; daemon "
           "CPU %.1f ms per move\n",
           view_port0 ? " via the proxy" : "", nviewers, view_procs, complete, nmoves, ns,
           (long long)nviewers * nmoves, lg_pct(d, ns, 0.5) / 1000.0, lg_pct(d, ns, 0.99) / 1000.0,
           ns ? d[ns - 1] / 1000.0 : 0.0, cpu / 1000.0 / nmoves);
    close(ready[0]);
    close(ready[1]);
    free(kids);
    free(sent);
    free(d);
    free(times);
    return (int)complete;
}

/* --fanout CMD: runs "CMD start DAEMON_PORT DIR", which starts the proxy
 * and prints its first viewer port and how many ports it listens on. */
static void fanout_start(const char *cmd)
{
    char line[600], got[64] = "";
    snprintf(line, sizeof line, "%s start %d %s", cmd, lg_port(), lg_dir());
    FILE *p = popen(line, "r");
    int ok = p && fgets(got, sizeof got, p) && sscanf(got, "%d %d", &view_port0, &view_nports) == 2;
    int status = p ? pclose(p) : -1;
    if (!ok && WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        /* No nginx with Nchan here: skipped. */
        lg_daemon_stop();
        lg_remove_dir();
        exit(77);
    }
    if (!ok)
        lg_die("the fan-out command '%s' did not start", cmd);
}

static void fanout_stop(const char *cmd)
{
    char line[600];
    snprintf(line, sizeof line, "%s stop %d %s", cmd, lg_port(), lg_dir());
    if (system(line) != 0)
        fprintf(stderr, "bench_http: '%s' failed\n", line);
}

int main(int argc, char **argv)
{
    int tablets = 2000, seconds = 10, viewers = 10000, vmoves = 20, only_viewers = 0;
    const char *threads = "2", *fanout = NULL;
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
        else if (!strcmp(argv[i], "--viewer-procs"))
            view_procs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--only-viewers"))
            only_viewers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--fanout"))
            fanout = argv[i + 1];
        else if (!strcmp(argv[i], "--rates")) {
            nrates = 0;
            for (char *t = strtok(argv[i + 1], ","); t && nrates < 8; t = strtok(NULL, ","))
                if (atof(t) > 0)
                    rates[nrates++] = atof(t);
        }
    }
    if (tablets < 2 || tablets % 2 || seconds < 1 || vmoves > 20 || view_procs < 1) {
        fprintf(stderr, "usage: bench_http [--tablets EVEN] [--seconds S] [--viewers V] "
                        "[--moves M<=20] [--threads N] [--rates R1,R2,...] [--viewer-procs P] "
                        "[--only-viewers 1] [--fanout CMD]\n");
        return 2;
    }
    const char *bin = getenv("ARBITER_BIN");
    if (!bin) {
        fprintf(stderr, "bench_http: set ARBITER_BIN to the arbiter binary\n");
        return 2;
    }
    lg_set_program("bench_http");
    lg_raise_nofile();
    signal(SIGPIPE, SIG_IGN);
    /* --fanout: the daemon publishes to Nchan itself, on a port chosen
     * here and handed to the fan-out command (NCHAN_PUB_PORT); with
     * FANOUT_RELAY=1 the command runs deploy/nchan-relay.py instead. */
    static char pub_url[64];
    static const char *pub_args[] = {"--nchan-publish", pub_url, NULL};
    const char *relay = getenv("FANOUT_RELAY");
    if (fanout && !(relay && !strcmp(relay, "1"))) {
        char port[16];
        snprintf(port, sizeof port, "%d", lg_free_port());
        setenv("NCHAN_PUB_PORT", port, 1);
        snprintf(pub_url, sizeof pub_url, "http://127.0.0.1:%s/pub", port);
        lg_daemon_args(pub_args);
    }
    lg_daemon_start(bin, threads);
    if (only_viewers) {
        char arb[768];
        lg_login(arb, sizeof arb);
        if (fanout)
            fanout_start(fanout);
        int complete = run_viewers(viewers, vmoves, arb);
        if (fanout)
            fanout_stop(fanout);
        lg_daemon_stop();
        lg_remove_dir();
        /* 2: every viewer must have received every move. */
        return only_viewers == 2 && complete < viewers ? 1 : 0;
    }

    /* Setup: the arbiter, a tournament, the players, ROUNDS rounds of
     * tablets/2 games each (pairs meet again with colours swapped). */
    char arb[768];
    lg_login(arb, sizeof arb);
    json_t *tj = lg_call_json("POST", "/api/v1/tournaments", arb,
                              "{\"name\":\"Bench\",\"time_control\":\"5400+30\",\"settings\":"
                              "{\"default_time_ms\":3600000}}",
                              201);
    int64_t tid = json_integer_value(json_object_get(tj, "id"));
    json_decref(tj);
    ntablets = tablets;
    npairs = tablets / 2;
    conns = calloc((size_t)tablets, sizeof *conns);
    pairs = calloc((size_t)npairs, sizeof *pairs);
    int64_t *pid = calloc((size_t)tablets, sizeof *pid);
    int64_t s0 = lg_now_us();
    char path[128];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/players", (long long)tid);
    LgCall *calls = calloc((size_t)tablets, sizeof *calls);
    for (int i = 0; i < tablets; i++) {
        calls[i].method = "POST";
        snprintf(calls[i].path, sizeof calls[i].path, "%s", path);
        calls[i].headers = arb;
        if (asprintf(&calls[i].body, "{\"name\":\"Tablet %d\",\"rating\":%d}", i, 1500 + i % 900) <
            0)
            lg_die("out of memory");
    }
    lg_call_many(calls, tablets, 16);
    for (int i = 0; i < tablets; i++) {
        json_t *p = json_loads(calls[i].out, 0, NULL);
        if (calls[i].status != 201 || !p)
            lg_die("adding a player: %d %s", calls[i].status, calls[i].out);
        json_t *cred = json_object_get(p, "credentials");
        pid[i] = json_integer_value(json_object_get(cred, "player_id"));
        snprintf(conns[i].token, sizeof conns[i].token, "%s",
                 json_string_value(json_object_get(cred, "token")));
        json_decref(p);
        free(calls[i].body);
        free(calls[i].out);
    }
    free(calls);
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
        strcpy(rb + k, "],\"publish\":true}");
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
        json_t *round = lg_call_json("POST", path, arb, rb, 201);
        json_t *games = json_object_get(round, "games");
        for (int i = 0; i < npairs; i++)
            pairs[i].gid[r] =
                json_integer_value(json_object_get(json_array_get(games, (size_t)i), "id"));
        json_decref(round);
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/%d/start", (long long)tid,
                 r + 1);
        json_decref(lg_call_json("POST", path, arb, NULL, 200));
    }
    free(rb);
    free(pid);
    printf("setup: %d tablets, %d games x %d rounds, in %.1f s\n", tablets, npairs, ROUNDS,
           (lg_now_us() - s0) / 1e6);
    fflush(stdout);

    int64_t cpu0 = lg_daemon_cpu_us(), self0 = lg_self_cpu_us();
    run_load(seconds, 0);
    int64_t cpu = lg_daemon_cpu_us() - cpu0, self = lg_self_cpu_us() - self0;
    qsort(lat, nlat, sizeof *lat, lg_cmp64);
    double rate = (double)accepted / seconds;
    printf("http: %lld durable validated moves in %d s = %.0f moves/s; latency p50 %.2f ms, "
           "p99 %.2f ms, max %.2f ms; %lld refused, %lld connection errors\n",
           accepted, seconds, rate, lg_pct(lat, nlat, 0.5) / 1000.0,
           lg_pct(lat, nlat, 0.99) / 1000.0, nlat ? lat[nlat - 1] / 1000.0 : 0.0, refused, errors);
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
        qsort(lat, nlat, sizeof *lat, lg_cmp64);
        printf("paced: %d tablets offering %.0f moves/s: %lld durable validated moves in %d s "
               "= %.0f moves/s; latency from the scheduled time p50 %.2f ms, p99 %.2f ms, "
               "max %.2f ms; %lld refused, %lld connection errors\n",
               tablets, rates[k], accepted, seconds, (double)accepted / seconds,
               lg_pct(lat, nlat, 0.5) / 1000.0, lg_pct(lat, nlat, 0.99) / 1000.0,
               nlat ? lat[nlat - 1] / 1000.0 : 0.0, refused, errors);
        fflush(stdout);
    }

    if (viewers > 0)
        run_viewers(viewers, vmoves, arb);

    lg_daemon_stop();

    /* The raw bound, same machine, same run, the daemon stopped. */
    double raw = raw_bound(npairs, seconds);
    printf("raw: group commit of one small row per request (WAL, synchronous=FULL, %d in flight)"
           " = %.0f rows/s\n",
           npairs, raw);
    printf("ratio http/raw = %.3f\n", raw > 0 ? rate / raw : 0.0);
    lg_remove_dir();
    free(conns);
    free(pairs);
    free(lat);
    return 0;
}
