/*
 * bench_flood.c — do exports slow the tablets down?  Many tablets play
 * paced games through the HTTP API (each game moves every --pace ms),
 * alone and beside a flood of public reads of the whole tournament's PGN
 * (--readers keep-alive connections, each asking again as soon as it is
 * answered), in turns (--rounds of --seconds each), so that a drift of the
 * machine weighs on both alike.  Prints the tablets' move latency (p50,
 * p99, max) alone and beside the flood and the ratio of the p99s; the
 * target is at most 1.2 (exports run on their own threads below the
 * polling threads' priority, http.h).  It also prints how far the stored
 * time of sampled moves trails their sending, which is what a player's
 * clock is charged.
 *
 *   bench_flood [--tablets N] [--seconds S] [--pace MS] [--readers R]
 *               [--warmup PLIES] [--rounds N] [--threads T]
 *
 * Defaults: 2000 tablets (1000 games), 3 rounds of 5 s alone and 5 s with
 * the flood, a move every 2000 ms per game (500 moves/s), 4 readers, 20
 * plies played before measuring.  The daemon comes from ARBITER_BIN;
 * everything runs in a temporary directory.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "loadgen.h"

enum { MAXPLY = 80 };

/* One game: its two tablets' connections and tokens, its moves. */
typedef struct Game {
    int64_t gid;
    char token[2][80];
    char moves[MAXPLY][6];
    int nmoves, ply;
    int busy;       /* a move is in flight */
    int64_t due;    /* when the next move is to be sent (paced) */
    int64_t t_sent; /* when the move in flight was due */
    int64_t wall_sent_ms;
    int64_t wall_acked_ms; /* when the last accepted move was sent */
} Game;

static Game *games;
static LgConn *tab; /* one connection per tablet: 2 per game */
static LgConn *rd;  /* the readers */
static int *rbusy;  /* a reader's request is in flight */
static int ngames, nreaders, ep;
static int64_t tid;
static long long reads, read_bytes, failures;
static int64_t phase_end; /* moves due before it are counted */

/* A growing list of samples (microseconds). */
typedef struct Samples {
    int64_t *v;
    size_t n, cap;
} Samples;

static Samples lat[2], lag[2]; /* [0] alone, [1] beside the flood */

static void keep(Samples *s, int64_t x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 65536;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            lg_die("out of memory");
    }
    s->v[s->n++] = x;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Tags: tablets 0..2*ngames-1, readers after them. */
static void send_move(Game *g, int64_t due)
{
    int side = g->ply % 2;
    int t = (int)(g - games) * 2 + side;
    char body[64], req[512];
    int bl = snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", g->ply, g->moves[g->ply]);
    int n = snprintf(req, sizeof req,
                     "POST /api/v1/games/%lld/move HTTP/1.1\r\nHost: bench\r\n"
                     "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                     "Content-Length: %d\r\n\r\n%s",
                     (long long)g->gid, g->token[side], bl, body);
    g->busy = 1;
    g->t_sent = due;
    g->wall_sent_ms = wall_ms();
    if (lg_conn_send(&tab[t], ep, (uint64_t)t, req, (size_t)n))
        failures++;
}

static void send_read(int i)
{
    char req[160];
    int n = snprintf(req, sizeof req,
                     "GET /api/v1/tournaments/%lld/pgn HTTP/1.1\r\nHost: bench\r\n\r\n",
                     (long long)tid);
    rbusy[i] = 1;
    if (lg_conn_send(&rd[i], ep, (uint64_t)(2 * ngames + i), req, (size_t)n))
        failures++;
}

/* The stored time of game G's last move (its at_ms), read back after the
 * phase: the lag behind its sending is what the player's clock paid. */
static int64_t last_move_at(const Game *g)
{
    char path[96], *out = NULL;
    snprintf(path, sizeof path, "/api/v1/games/%lld", (long long)g->gid);
    int64_t at = 0;
    if (lg_call("GET", path, NULL, NULL, &out, NULL, 0) == 200) {
        json_t *j = json_loads(out, 0, NULL);
        json_t *evs = json_object_get(j, "events");
        json_t *last = json_array_get(evs, json_array_size(evs) - 1);
        at = json_integer_value(json_object_get(last, "time_ms"));
        json_decref(j);
    }
    free(out);
    return at;
}

/* A tablet's answer on connection TAG: the next move of its game is due
 * PACE_US after this one was (at once in a closed loop, PACE_US 0). */
static void on_move(int tag, int status, int64_t pace_us, Samples *into)
{
    Game *g = &games[tag / 2];
    int64_t t1 = lg_now_us();
    g->busy = 0;
    if (into && g->t_sent < phase_end)
        keep(into, t1 - g->t_sent);
    if (status != 200) {
        g->nmoves = g->ply; /* over (e.g. a dead position) */
        return;
    }
    g->wall_acked_ms = g->wall_sent_ms;
    g->ply++;
    g->due = pace_us ? g->t_sent + pace_us : t1;
}

/* Reads what arrived on connection TAG and handles its answers. */
static void on_input(int tag, int64_t pace_us, int reading, Samples *into)
{
    LgConn *c = tag < 2 * ngames ? &tab[tag] : &rd[tag - 2 * ngames];
    if (lg_conn_read(c) <= 0) {
        failures++;
        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
        if (tag >= 2 * ngames)
            rbusy[tag - 2 * ngames] = 0;
        return;
    }
    int status;
    char *body;
    while (lg_conn_response(c, &status, &body)) {
        if (tag < 2 * ngames) {
            on_move(tag, status, pace_us, into);
            continue;
        }
        int i = tag - 2 * ngames;
        rbusy[i] = 0;
        reads += status == 200;
        read_bytes += (long long)strlen(body);
        if (reading)
            send_read(i);
    }
}

/* One phase: paced moves (every PACE_US per game; closed loop when 0,
 * until every game has UNTIL_PLY plies) for SECONDS, their latencies into
 * INTO; with FLOOD the readers ask all along.  The phase ends only once the
 * readers' last answers are in, so that no export runs into the next
 * phase; the tablets go on moving meanwhile (not counted: their
 * connections would time out). */
static void run_phase(int seconds, int64_t pace_us, int until_ply, int flood, Samples *into)
{
    int64_t t0 = lg_now_us(), t_end = t0 + (int64_t)seconds * 1000000;
    phase_end = t_end;
    for (int i = 0; i < ngames; i++)
        games[i].due = t0 + (pace_us ? (int64_t)i * pace_us / ngames : 0);
    /* Connected only now: a connection that says nothing for the header
     * timeout is shut by the server. */
    for (int i = 0; flood && i < nreaders; i++) {
        if (lg_conn_open(&rd[i], ep, (uint64_t)(2 * ngames + i)))
            lg_die("cannot connect a reader");
        send_read(i);
    }
    struct epoll_event evs[256];
    for (;;) {
        int64_t now = lg_now_us();
        int active = 0;
        int draining = 0;
        for (int i = 0; flood && i < nreaders; i++)
            draining |= rbusy[i];
        for (int i = 0; i < ngames; i++) {
            Game *g = &games[i];
            int open =
                g->ply < g->nmoves && (pace_us ? now < t_end || draining : g->ply < until_ply);
            active |= g->busy || open;
            if (!g->busy && open && g->due <= now)
                send_move(g, g->due);
        }
        active |= draining;
        if (!active || now > t_end + 120000000)
            break;
        int n = epoll_wait(ep, evs, 256, 1);
        for (int k = 0; k < n; k++) {
            int tag = (int)evs[k].data.u64;
            LgConn *c = tag < 2 * ngames ? &tab[tag] : &rd[tag - 2 * ngames];
            if (evs[k].events & EPOLLOUT && lg_conn_flush(c, ep, (uint64_t)tag))
                failures++;
            if (evs[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                on_input(tag, pace_us, flood && lg_now_us() < t_end, pace_us ? into : NULL);
        }
    }
    for (int i = 0; flood && i < nreaders; i++)
        lg_conn_close(&rd[i], ep);
    /* What the clocks were charged: the stored time of a sample of games'
     * last moves against their sending. */
    for (int i = 0; pace_us && i < ngames; i += ngames / 50 + 1) {
        int64_t at = last_move_at(&games[i]);
        if (at > 0 && games[i].wall_acked_ms > 0 && !games[i].busy)
            keep(&lag[into == &lat[1]], (at - games[i].wall_acked_ms) * 1000);
    }
}

static void setup(int tablets)
{
    char arb[768], path[128];
    lg_login(arb, sizeof arb);
    json_t *t = lg_call_json("POST", "/api/v1/tournaments", arb,
                             "{\"name\":\"Flood\",\"time_control\":\"5400+30\",\"settings\":"
                             "{\"default_time_ms\":3600000}}",
                             201);
    tid = json_integer_value(json_object_get(t, "id"));
    json_decref(t);
    LgCall *calls = calloc((size_t)tablets, sizeof *calls);
    for (int i = 0; i < tablets; i++) {
        calls[i].method = "POST";
        snprintf(calls[i].path, sizeof calls[i].path, "/api/v1/tournaments/%lld/players",
                 (long long)tid);
        calls[i].headers = arb;
        if (asprintf(&calls[i].body, "{\"name\":\"Player %05d\",\"rating\":%d}", i,
                     2400 - i % 1000) < 0)
            lg_die("out of memory");
    }
    lg_call_many(calls, tablets, 16);
    size_t blen = (size_t)ngames * 64 + 64, k;
    char *pairing = malloc(blen);
    k = (size_t)sprintf(pairing, "{\"pairings\":[");
    int64_t white = 0;
    for (int i = 0; i < tablets; i++) {
        json_t *p = json_loads(calls[i].out, 0, NULL);
        json_t *cred = json_object_get(p, "credentials");
        if (calls[i].status != 201 || !cred)
            lg_die("adding a player: %d %s", calls[i].status, calls[i].out);
        snprintf(games[i / 2].token[i % 2], sizeof games[i / 2].token[i % 2], "%s",
                 json_string_value(json_object_get(cred, "token")));
        int64_t id = json_integer_value(json_object_get(cred, "player_id"));
        if (i % 2 == 0)
            white = id;
        else
            k += (size_t)sprintf(pairing + k, "%s{\"white_id\":%lld,\"black_id\":%lld}",
                                 i > 1 ? "," : "", (long long)white, (long long)id);
        json_decref(p);
        free(calls[i].body);
        free(calls[i].out);
    }
    free(calls);
    strcpy(pairing + k, "]}");
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    json_t *round = lg_call_json("POST", path, arb, pairing, 201);
    free(pairing);
    for (int i = 0; i < ngames; i++) {
        Game *g = &games[i];
        g->gid = json_integer_value(
            json_object_get(json_array_get(json_object_get(round, "games"), (size_t)i), "id"));
        g->nmoves = lg_random_game((uint64_t)i * 7919 + 17, g->moves, MAXPLY);
    }
    json_decref(round);
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    json_decref(lg_call_json("POST", path, arb, NULL, 200));
}

static void report(const char *what, Samples *l, Samples *g)
{
    qsort(l->v, l->n, sizeof *l->v, lg_cmp64);
    qsort(g->v, g->n, sizeof *g->v, lg_cmp64);
    printf("%s: %zu moves, latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; stored time after "
           "sending p50 %.0f ms, max %.0f ms\n",
           what, l->n, lg_pct(l->v, l->n, 0.5) / 1000.0, lg_pct(l->v, l->n, 0.99) / 1000.0,
           l->n ? l->v[l->n - 1] / 1000.0 : 0.0, lg_pct(g->v, g->n, 0.5) / 1000.0,
           g->n ? g->v[g->n - 1] / 1000.0 : 0.0);
}

int main(int argc, char **argv)
{
    int tablets = 2000, seconds = 5, pace_ms = 2000, warmup = 20, rounds = 3;
    const char *threads = "2";
    nreaders = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--tablets"))
            tablets = v;
        else if (!strcmp(argv[i], "--seconds"))
            seconds = v;
        else if (!strcmp(argv[i], "--pace"))
            pace_ms = v;
        else if (!strcmp(argv[i], "--readers"))
            nreaders = v;
        else if (!strcmp(argv[i], "--warmup"))
            warmup = v;
        else if (!strcmp(argv[i], "--rounds"))
            rounds = v;
        else if (!strcmp(argv[i], "--threads"))
            threads = argv[i + 1];
    }
    const char *bin = getenv("ARBITER_BIN");
    if (tablets < 2 || tablets % 2 || seconds < 1 || pace_ms < 1 || nreaders < 1 || !bin ||
        warmup < 0 || warmup > 40 || rounds < 1 || rounds > 10) {
        fprintf(stderr, "usage: ARBITER_BIN=... bench_flood [--tablets EVEN] [--seconds S] "
                        "[--pace MS] [--readers R] [--warmup PLIES<=40] [--rounds N<=10] "
                        "[--threads T]\n");
        return 2;
    }
    lg_set_program("bench_flood");
    lg_raise_nofile();
    signal(SIGPIPE, SIG_IGN);
    lg_daemon_start(bin, threads);
    ngames = tablets / 2;
    games = calloc((size_t)ngames, sizeof *games);
    tab = calloc((size_t)tablets, sizeof *tab);
    rd = calloc((size_t)nreaders, sizeof *rd);
    rbusy = calloc((size_t)nreaders, sizeof *rbusy);
    int64_t s0 = lg_now_us();
    setup(tablets);
    ep = epoll_create1(0);
    for (int i = 0; i < tablets; i++)
        if (lg_conn_open(&tab[i], ep, (uint64_t)i))
            lg_die("cannot connect a tablet");
    Samples warm = {0};
    run_phase(600, 0, warmup, 0, &warm);
    printf("setup: %d tablets, %d games, %d plies each played in %.1f s\n", tablets, ngames, warmup,
           (lg_now_us() - s0) / 1e6);
    /* Alone and beside the flood in turns, so that a drift of the machine
     * (other work, the games growing) weighs on both alike. */
    int64_t pace = (int64_t)pace_ms * 1000, flood_us = 0;
    for (int r = 0; r < rounds; r++) {
        run_phase(seconds, pace, 0, 0, &lat[0]);
        int64_t t = lg_now_us();
        run_phase(seconds, pace, 0, 1, &lat[1]);
        flood_us += lg_now_us() - t;
    }
    report("alone", &lat[0], &lag[0]);
    report("flood", &lat[1], &lag[1]);
    printf("flood: %lld PGN reads of %.2f MB in %.1f s of flood phases (%.2f/s), %d readers; "
           "%lld connection failures\n",
           reads, reads ? (double)read_bytes / (double)reads / 1e6 : 0.0, flood_us / 1e6,
           flood_us ? (double)reads * 1e6 / (double)flood_us : 0.0, nreaders, failures);
    int64_t quiet = lg_pct(lat[0].v, lat[0].n, 0.99), loud = lg_pct(lat[1].v, lat[1].n, 0.99);
    printf("p99 move latency: %.2f ms alone, %.2f ms beside the PGN flood: ratio %.2f "
           "(target <= 1.20)\n",
           quiet / 1000.0, loud / 1000.0, quiet > 0 ? (double)loud / (double)quiet : 0.0);
    fflush(stdout);
    for (int i = 0; i < tablets; i++)
        lg_conn_close(&tab[i], ep);
    close(ep);
    lg_daemon_stop();
    lg_remove_dir();
    for (int k = 0; k < 2; k++) {
        free(lat[k].v);
        free(lag[k].v);
    }
    free(warm.v);
    free(games);
    free(tab);
    free(rd);
    free(rbusy);
    return 0;
}
