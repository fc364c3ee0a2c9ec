/*
 * soak.c — a simulated Olympiad on loopback against `arbiter serve`:
 * BOARDS boards with two tablets each (one keep-alive connection per
 * tablet) playing random legal games with random think times (accelerated
 * play), and VIEWERS spectators holding live streams (Server-Sent Events)
 * of the boards' games, for DURATION seconds.  So that the load lasts,
 * ROUNDS rounds are paired up front; rounds after the first are started and
 * paused at once, and when a board's game ends the arbiter resumes that
 * board's next game, and the board's viewers follow it to the new game.
 * One thread and one epoll loop drive every connection, so the generator
 * keeps up with thousands of sockets; its own lag is measured and printed.
 *
 * Every 10 s (--sample) a line: the daemon's resident memory and open
 * descriptors, open streams, moves (and per second), the window's p99 move
 * latency, stream events received, errors, games over, stream reconnects
 * and the generator's lag (the worst delay, in the window, between when a
 * move was due and when it was sent).  A move's latency counts from when
 * it was due, so the generator's lag is in it, never hidden.  Every error
 * is printed when it happens, with the time.
 *
 * Connections open at --connect-rate per second (viewers first, then the
 * tablets), with at most 256 streams waiting for their answer at a time.
 * A stream the server ends is reconnected with Last-Event-ID, as the web
 * pages do, and counted; an event repeated after such a
 * reconnection is an error.  A tablet connection the server closes while
 * idle (its keep-alive timeout) is opened again; a connection reset, or one
 * that fails with a request in flight, is an error (printed with what it
 * was doing), and the board carries on from the game's stored state.
 *
 * Passes (exit 0) when:
 *  - nothing failed (no error above, no refused move outside a game's end);
 *  - the p99 latency of all moves is within --p99-ms;
 *  - the memory is flat after the warm-up.  The warm-up is defined by the
 *    load, not by a clock: it ends at the first sample after every
 *    connection is open and as many games have ended as there are boards,
 *    and at least 256 (the finished games the server keeps loaded, its
 *    KEEP_DONE in db/games.c).  By then every kind of state the daemon
 *    keeps exists at its working size: connections and streams, games in
 *    play (a steady mix of young and old ones: each board has, on average,
 *    finished a game and gone on to the next), finished games (the oldest
 *    dropped as more end), the topics of ended games.  From then on no
 *    sample's RSS may exceed the first one's by more than --rss-growth
 *    percent plus 8 MB.  A run too short to end its warm-up fails: its
 *    memory was not checked (give it more time, or less --think: a random
 *    game lasts some 350 plies, so with 1,000 boards the warm-up takes about
 *    350 x --think seconds).  --warmup SECONDS replaces the rule by a fixed
 *    time.
 *
 *   soak [--boards 1000] [--viewers 5000] [--duration 600] [--think 4]
 *        [--rounds 8] [--time-control 1800+10] [--threads 2] [--sample 10]
 *        [--warmup auto|SECONDS] [--p99-ms 250] [--rss-growth 10] [--seed 1]
 *        [--connect-rate 2000]
 *
 * The daemon comes from ARBITER_BIN; everything runs in a temporary
 * directory (kept when the run fails).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "board.h"
#include "loadgen.h"

enum { KIND_TABLET = 1, KIND_VIEWER = 2 };
enum { B_WAIT, B_THINK, B_MOVE, B_STATE, B_RESUME, B_DONE, B_FAILED };

typedef struct Opts {
    int boards, viewers, rounds, threads;
    double duration, think, sample, warmup, p99_ms, rss_growth, connect_rate;
    const char *tc;
    unsigned seed;
} Opts;

typedef struct Tablet {
    LgConn io;
    int board, side; /* side 0: the board's first player, 1: its second */
    int busy;        /* a request in flight */
    int64_t sent_at; /* when it was sent */
    int late;        /* its lateness was reported */
    int open;
    char token[96];
} Tablet;

typedef struct Sim {
    int tablet[2];
    int round;
    int64_t *gid; /* by round */
    Board pos;
    int ply;
    Move pending;
    char uci[8];
    int phase;
    int resync;  /* B_STATE after a failed connection, not a refusal */
    int refused; /* the refusal's status, for the error message */
    int64_t due; /* B_THINK: when the move is due; B_MOVE: when it was */
    uint64_t rng;
} Sim;

typedef struct Viewer {
    LgConn io;
    LgSse sse;
    int board;
    int64_t gid, last_id;
    int open;      /* connected (counted in the streams) */
    int streaming; /* the head of the answer came */
    int failed;
} Viewer;

static Opts o = {1000, 5000, 8, 2, 600, 4, 10, -1, 250, 10, 2000, "1800+10", 1};
static Tablet *tablets;
static Sim *sims;
static Viewer *viewers;
static int ep;
static char arb[768];
static int64_t t0_us, stop_us;
static int64_t *lat;
static size_t nlat, caplat;
static long long moves, events, nerrors, games_over, games_started, stream_drops, tablet_reconnects,
    follows, streams_open;
static int64_t lag_max_us, lag_max_all_us;
static int all_open;
/* Streams asked for and not answered yet.  Opening a stream costs the
 * server much more than a connection costs the kernel: the crowd arrives
 * at --connect-rate, but no faster than the server answers, so that the
 * listen queue never overflows (the kernel would then drop connections the
 * client believes open). */
enum { MAX_PENDING = 256 };
/* The finished games the server keeps loaded (db/games.c, KEEP_DONE): the
 * memory grows until that many have ended. */
enum { SERVER_KEEPS_DONE = 256 };
static int pending_streams;

/* Prints an error with the time since the start and counts it. */
static void error_at(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void error_at(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    printf("soak: error at %02d:%02d:%02d (t=%.1fs): ", tm.tm_hour, tm.tm_min, tm.tm_sec,
           (double)(lg_now_us() - t0_us) / 1e6);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
    nerrors++;
}

static double uniform(uint64_t *s)
{
    return (double)(lg_rng(s) >> 11) / 9007199254740992.0;
}

/* An exponential think time of mean --think, in microseconds. */
static int64_t think_us(Sim *b)
{
    return (int64_t)(-log(1.0 - uniform(&b->rng)) * o.think * 1e6);
}

static uint64_t tag(int kind, int i)
{
    return (uint64_t)kind << 32 | (uint32_t)i;
}

/* ---- the boards ---- */

static int white_is_first(const Sim *b)
{
    return b->round % 2 == 0;
}

static Tablet *mover(Sim *b)
{
    int first = (b->ply % 2 == 0) == white_is_first(b);
    return &tablets[b->tablet[first ? 0 : 1]];
}

static void tablet_send(Tablet *t, const char *method, const char *path, const char *headers,
                        const char *body)
{
    char req[1024];
    int n =
        snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: x\r\n%s%sContent-Length: %zu\r\n\r\n%s",
                 method, path, headers, body ? "Content-Type: application/json\r\n" : "",
                 body ? strlen(body) : 0, body ? body : "");
    t->busy = 1;
    t->sent_at = lg_now_us();
    t->late = 0;
    int rc = lg_conn_send(&t->io, ep, tag(KIND_TABLET, (int)(t - tablets)), req, (size_t)n);
    if (rc) {
        error_at("board %d tablet %d: %s while sending %s %s", t->board + 1, t->side + 1,
                 strerror(-rc), method, path);
        t->busy = 0;
        sims[t->board].phase = B_FAILED;
    }
}

static void bearer(const Tablet *t, char *h, size_t n)
{
    snprintf(h, n, "Authorization: Bearer %s\r\n", t->token);
}

static void send_move(Sim *b)
{
    MoveList list;
    movegen_legal_moves(&b->pos, &list);
    if (list.count == 0) {
        /* The server ends a mated or stalemated game with the move: asking
         * it tells what went wrong. */
        b->phase = B_STATE;
        b->refused = 0;
        char path[96], h[160];
        Tablet *t = &tablets[b->tablet[0]];
        bearer(t, h, sizeof h);
        snprintf(path, sizeof path, "/api/v1/games/%lld", (long long)b->gid[b->round]);
        tablet_send(t, "GET", path, h, NULL);
        return;
    }
    b->pending = list.moves[lg_rng(&b->rng) % (uint64_t)list.count];
    board_move_to_uci(b->pending, b->uci);
    Tablet *t = mover(b);
    char path[96], h[160], body[64];
    bearer(t, h, sizeof h);
    snprintf(path, sizeof path, "/api/v1/games/%lld/move", (long long)b->gid[b->round]);
    snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", b->ply, b->uci);
    b->phase = B_MOVE;
    tablet_send(t, "POST", path, h, body);
}

static void viewer_open(Viewer *v, int64_t gid, int64_t last_id);
static void viewer_close(Viewer *v);

/* The board's next game has begun: its viewers follow it. */
static void follow(int board)
{
    for (int i = board; i < o.viewers; i += o.boards) {
        Viewer *v = &viewers[i];
        if (v->io.fd < 0 && !v->open)
            continue; /* not opened yet: it opens on the new game */
        viewer_close(v);
        viewer_open(v, sims[board].gid[sims[board].round], 0);
        follows++;
    }
}

static void game_ended(Sim *b)
{
    games_over++;
    if (b->round + 1 >= o.rounds || lg_now_us() >= stop_us) {
        b->phase = B_DONE;
        return;
    }
    char path[128];
    snprintf(path, sizeof path, "/api/v1/games/%lld/arbiter/resume",
             (long long)b->gid[b->round + 1]);
    b->phase = B_RESUME;
    tablet_send(&tablets[b->tablet[0]], "POST", path, arb, "{}");
}

static void schedule(Sim *b)
{
    b->phase = B_THINK;
    b->due = lg_now_us() + think_us(b);
}

/* The game state in a move's answer ({"game": {..., "state"}}) or a
 * game's ({..., "state"}). */
static json_t *state_of(json_t *root)
{
    json_t *st = json_object_get(root, "state");
    return st ? st : json_object_get(json_object_get(root, "game"), "state");
}

static void record_latency(int64_t us)
{
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 65536;
        lat = realloc(lat, caplat * sizeof *lat);
        if (!lat)
            lg_die("out of memory");
    }
    lat[nlat++] = us;
}

static void on_tablet_response(Tablet *t, int status, const char *body)
{
    Sim *b = &sims[t->board];
    int64_t now = lg_now_us();
    t->busy = 0;
    json_t *root = json_loads(body, 0, NULL);
    json_t *st = state_of(root);
    int over = json_is_true(json_object_get(st, "over"));
    int ply = (int)json_integer_value(json_object_get(st, "ply"));
    long long gid = (long long)b->gid[b->round];
    switch (b->phase) {
    case B_MOVE:
        if (status == 200 && st) {
            record_latency(now - b->due);
            moves++;
            board_make(&b->pos, b->pending);
            b->ply++;
            if (over)
                game_ended(b);
            else
                schedule(b);
        } else {
            /* A flag that fell while the player thought ends the game: not
             * an error.  The game's state tells. */
            char path[96], h[160];
            bearer(t, h, sizeof h);
            snprintf(path, sizeof path, "/api/v1/games/%lld", gid);
            b->phase = B_STATE;
            b->refused = status;
            b->resync = 0;
            tablet_send(t, "GET", path, h, NULL);
        }
        break;
    case B_STATE:
        if (status != 200 || !st) {
            error_at("game %lld (board %d): reading its state: %d %.200s", gid, t->board + 1,
                     status, body);
            b->phase = B_FAILED;
        } else if (over)
            game_ended(b);
        else if (b->resync && ply == b->ply + 1) {
            board_make(&b->pos, b->pending); /* the move went through */
            b->ply++;
            schedule(b);
        } else if (b->resync && ply == b->ply)
            schedule(b);
        else {
            error_at("game %lld (board %d): move %d %s refused (%d), the game goes on at ply %d",
                     gid, t->board + 1, b->ply, b->uci, b->refused, ply);
            b->phase = B_FAILED;
        }
        break;
    case B_RESUME:
        if (status != 200) {
            error_at("game %lld (board %d): resume: %d %.200s", (long long)b->gid[b->round + 1],
                     t->board + 1, status, body);
            b->phase = B_FAILED;
            break;
        }
        b->round++;
        board_start(&b->pos);
        b->ply = 0;
        games_started++;
        follow(t->board);
        schedule(b);
        break;
    default: error_at("board %d: an answer nobody asked for: %d", t->board + 1, status);
    }
    json_decref(root);
}

static const char *doing(const Sim *b)
{
    switch (b->phase) {
    case B_MOVE: return "sending a move";
    case B_STATE: return "reading the game's state";
    case B_RESUME: return "resuming the next game";
    default: return "idle";
    }
}

/* The tablet's connection ended (RC 0: closed by the server, else -errno). */
static void tablet_failed(Tablet *t, int rc)
{
    Sim *b = &sims[t->board];
    int busy = t->busy;
    if (busy || rc != 0)
        error_at("board %d tablet %d (game %lld, ply %d): %s while %s", t->board + 1, t->side + 1,
                 (long long)b->gid[b->round], b->ply,
                 rc ? strerror(-rc) : "connection closed by the server", busy ? doing(b) : "idle");
    else
        tablet_reconnects++;
    lg_conn_close(&t->io, ep);
    t->busy = 0;
    if (lg_conn_open(&t->io, ep, tag(KIND_TABLET, (int)(t - tablets)))) {
        error_at("board %d tablet %d: cannot connect again", t->board + 1, t->side + 1);
        b->phase = B_FAILED;
        return;
    }
    if (!busy)
        return;
    if (b->phase == B_RESUME) {
        /* Resuming twice is refused when the first went through: ask the
         * game instead. */
        b->phase = B_FAILED;
        return;
    }
    /* Whether the move went through is in the game's state. */
    char path[96], h[160];
    bearer(t, h, sizeof h);
    snprintf(path, sizeof path, "/api/v1/games/%lld", (long long)b->gid[b->round]);
    b->phase = B_STATE;
    b->resync = 1;
    tablet_send(t, "GET", path, h, NULL);
}

static void tablet_event(Tablet *t, uint32_t evs)
{
    uint64_t tg = tag(KIND_TABLET, (int)(t - tablets));
    if (evs & EPOLLOUT) {
        int rc = lg_conn_flush(&t->io, ep, tg);
        if (rc) {
            tablet_failed(t, rc);
            return;
        }
    }
    if (!(evs & (EPOLLIN | EPOLLHUP | EPOLLERR)))
        return;
    int rd = lg_conn_read(&t->io);
    int status;
    char *body;
    while (lg_conn_response(&t->io, &status, &body))
        on_tablet_response(t, status, body);
    if (rd <= 0)
        tablet_failed(t, rd);
}

/* ---- the viewers ---- */

static void viewer_open(Viewer *v, int64_t gid, int64_t last_id)
{
    int i = (int)(v - viewers);
    lg_sse_reset(&v->sse);
    v->gid = gid;
    v->last_id = last_id;
    v->streaming = 0;
    if (lg_conn_open(&v->io, ep, tag(KIND_VIEWER, i))) {
        error_at("viewer %d of game %lld: cannot connect", i + 1, (long long)gid);
        v->failed = 1;
        return;
    }
    char req[256], last[64] = "";
    if (last_id > 0)
        snprintf(last, sizeof last, "Last-Event-ID: %lld\r\n", (long long)last_id);
    int n = snprintf(req, sizeof req,
                     "GET /api/v1/games/%lld/stream HTTP/1.1\r\nHost: x\r\n"
                     "Accept: text/event-stream\r\n%s\r\n",
                     (long long)gid, last);
    int rc = lg_conn_send(&v->io, ep, tag(KIND_VIEWER, i), req, (size_t)n);
    if (rc)
        error_at("viewer %d of game %lld: %s while asking for the stream", i + 1, (long long)gid,
                 strerror(-rc));
    v->open = 1;
    streams_open++;
    pending_streams++;
}

static void viewer_close(Viewer *v)
{
    if (v->open && !v->streaming)
        pending_streams--;
    if (v->open)
        streams_open--;
    v->open = 0;
    lg_conn_close(&v->io, ep);
}

static void on_stream_event(void *ctx, const char *event, int64_t id)
{
    Viewer *v = ctx;
    events++;
    if (id > 0 && id <= v->last_id)
        error_at("viewer %d of game %lld: event %lld again (after %lld)", (int)(v - viewers) + 1,
                 (long long)v->gid, (long long)id, (long long)v->last_id);
    if (id > v->last_id)
        v->last_id = id;
    (void)event;
}

static void viewer_event(Viewer *v, uint32_t evs)
{
    int i = (int)(v - viewers);
    if (evs & EPOLLOUT) {
        int rc = lg_conn_flush(&v->io, ep, tag(KIND_VIEWER, i));
        if (rc) {
            error_at("viewer %d of game %lld: %s while asking for the stream", i + 1,
                     (long long)v->gid, strerror(-rc));
            viewer_close(v);
            viewer_open(v, v->gid, v->last_id);
            return;
        }
    }
    if (!(evs & (EPOLLIN | EPOLLHUP | EPOLLERR)))
        return;
    static char buf[1 << 16];
    int end = 0;
    for (;;) {
        ssize_t n = read(v->io.fd, buf, sizeof buf);
        if (n > 0) {
            int rc = lg_sse_feed(&v->sse, buf, (size_t)n, on_stream_event, v);
            if (!v->streaming && v->sse.status) {
                v->streaming = 1;
                pending_streams--;
            }
            if (rc < 0) {
                error_at("viewer %d: the stream of game %lld answered %d", i + 1, (long long)v->gid,
                         v->sse.status);
                viewer_close(v);
                v->failed = 1;
                return;
            }
            if (rc > 0) {
                end = 1;
                break;
            }
            continue;
        }
        if (n == 0)
            end = 1;
        else if (errno == EINTR)
            continue;
        else if (errno != EAGAIN && errno != EWOULDBLOCK) {
            error_at("viewer %d of game %lld: %s while streaming", i + 1, (long long)v->gid,
                     strerror(errno));
            end = 1;
        }
        break;
    }
    if (!end)
        return;
    /* The server ended the stream (e.g. the viewer fell a whole ring
     * behind): resume from the last event seen, as the web pages do. */
    stream_drops++;
    if (stream_drops <= 20)
        printf("soak: t=%.1fs: the stream of game %lld (viewer %d) ended; reconnecting with "
               "Last-Event-ID %lld%s\n",
               (double)(lg_now_us() - t0_us) / 1e6, (long long)v->gid, i + 1, (long long)v->last_id,
               stream_drops == 20 ? " (no more such lines)" : "");
    viewer_close(v);
    viewer_open(v, v->gid, v->last_id);
}

/* ---- set-up ---- */

static json_t *parse_call(LgCall *c, int want)
{
    json_t *j = json_loads(c->out ? c->out : "", 0, NULL);
    if (c->status != want || !j)
        lg_die("set-up %s %s: %d %s", c->method, c->path, c->status, c->out ? c->out : "");
    return j;
}

static void free_calls(LgCall *c, int n)
{
    for (int i = 0; i < n; i++) {
        free(c[i].body);
        free(c[i].out);
        c[i].body = c[i].out = NULL;
    }
}

/* Both players of every board check in to the game of round R (0-based). */
static void check_in(LgCall *calls, int r, char (*auth)[160])
{
    for (int i = 0; i < 2 * o.boards; i++) {
        Sim *b = &sims[i / 2];
        calls[i] =
            (LgCall){.method = "POST", .headers = auth[b->tablet[i % 2]], .body = strdup("{}")};
        snprintf(calls[i].path, sizeof calls[i].path, "/api/v1/games/%lld/checkin",
                 (long long)b->gid[r]);
    }
    lg_call_many(calls, 2 * o.boards, 16);
    for (int i = 0; i < 2 * o.boards; i++)
        json_decref(parse_call(&calls[i], 200));
    free_calls(calls, 2 * o.boards);
}

static void setup(void)
{
    char body[256], path[160];
    lg_login(arb, sizeof arb);
    snprintf(body, sizeof body, "{\"name\":\"Olympiad\",\"time_control\":\"%s\"}", o.tc);
    json_t *tj = lg_call_json("POST", "/api/v1/tournaments", arb, body, 201);
    long long tid = (long long)json_integer_value(json_object_get(tj, "id"));
    json_decref(tj);
    int np = 2 * o.boards;
    LgCall *calls = calloc((size_t)np, sizeof *calls);
    int64_t *pid = calloc((size_t)np, sizeof *pid);
    char(*auth)[160] = calloc((size_t)np, sizeof *auth);
    /* Players: board b is played by players b and BOARDS + b. */
    for (int i = 0; i < np; i++) {
        calls[i] = (LgCall){.method = "POST", .headers = arb};
        snprintf(calls[i].path, sizeof calls[i].path, "/api/v1/tournaments/%lld/players", tid);
        if (asprintf(&calls[i].body, "{\"name\":\"Player %d\",\"rating\":%d}", i + 1,
                     2400 - i % 1000) < 0)
            lg_die("out of memory");
    }
    lg_call_many(calls, np, 16);
    for (int i = 0; i < np; i++) {
        json_t *p = parse_call(&calls[i], 201);
        json_t *cred = json_object_get(p, "credentials");
        int b = i % o.boards, side = i / o.boards;
        Tablet *t = &tablets[2 * b + side];
        pid[2 * b + side] = json_integer_value(json_object_get(cred, "player_id"));
        snprintf(t->token, sizeof t->token, "%s",
                 json_string_value(json_object_get(cred, "token")));
        bearer(t, auth[2 * b + side], sizeof auth[0]);
        json_decref(p);
    }
    free_calls(calls, np);
    size_t cap = (size_t)o.boards * 64 + 64;
    char *rb = malloc(cap);
    for (int r = 0; r < o.rounds; r++) {
        /* Colours alternate: the first player has white in odd rounds. */
        size_t k = (size_t)sprintf(rb, "{\"pairings\":[");
        for (int b = 0; b < o.boards; b++) {
            int64_t a = pid[2 * b], c = pid[2 * b + 1];
            k += (size_t)sprintf(rb + k, "%s{\"white_id\":%lld,\"black_id\":%lld}", b ? "," : "",
                                 (long long)(r % 2 ? c : a), (long long)(r % 2 ? a : c));
        }
        strcpy(rb + k, "],\"publish\":true}");
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", tid);
        json_t *round = lg_call_json("POST", path, arb, rb, 201);
        json_t *games = json_object_get(round, "games");
        if ((int)json_array_size(games) != o.boards)
            lg_die("round %d has %zu games", r + 1, json_array_size(games));
        for (int b = 0; b < o.boards; b++)
            sims[b].gid[r] =
                json_integer_value(json_object_get(json_array_get(games, (size_t)b), "id"));
        json_decref(round);
        check_in(calls, r, auth);
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/%d/start", tid, r + 1);
        json_decref(lg_call_json("POST", path, arb, NULL, 200));
        if (r > 0) {
            /* Waits, clocks stopped, for the arbiter to resume it board by
             * board. */
            snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/%d/pause", tid, r + 1);
            json_decref(lg_call_json("POST", path, arb, NULL, 200));
        }
    }
    free(rb);
    free(calls);
    free(pid);
    free(auth);
}

/* ---- options ---- */

static void usage(void)
{
    fprintf(stderr,
            "usage: soak [--boards N] [--viewers N] [--duration S] [--think S] [--rounds N]\n"
            "            [--time-control TC] [--threads N] [--sample S] [--warmup auto|S]\n"
            "            [--p99-ms MS] [--rss-growth PCT] [--seed N] [--connect-rate PER_S]\n");
    exit(2);
}

static void parse_options(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(k, "--help") || !v)
            usage();
        i++;
        if (!strcmp(k, "--boards"))
            o.boards = atoi(v);
        else if (!strcmp(k, "--viewers"))
            o.viewers = atoi(v);
        else if (!strcmp(k, "--duration"))
            o.duration = atof(v);
        else if (!strcmp(k, "--think"))
            o.think = atof(v);
        else if (!strcmp(k, "--rounds"))
            o.rounds = atoi(v);
        else if (!strcmp(k, "--time-control"))
            o.tc = v;
        else if (!strcmp(k, "--threads"))
            o.threads = atoi(v);
        else if (!strcmp(k, "--sample"))
            o.sample = atof(v);
        else if (!strcmp(k, "--warmup"))
            o.warmup = strcmp(v, "auto") ? atof(v) : -1;
        else if (!strcmp(k, "--p99-ms"))
            o.p99_ms = atof(v);
        else if (!strcmp(k, "--rss-growth"))
            o.rss_growth = atof(v);
        else if (!strcmp(k, "--seed"))
            o.seed = (unsigned)atoi(v);
        else if (!strcmp(k, "--connect-rate"))
            o.connect_rate = atof(v);
        else
            usage();
    }
    if (o.boards < 1 || o.viewers < 0 || o.duration <= 0 || o.think <= 0 || o.rounds < 1 ||
        o.threads < 1 || o.sample <= 0 || o.connect_rate <= 0 || strlen(o.tc) > 40 ||
        strchr(o.tc, '"'))
        usage();
}

/* ---- the run ---- */

typedef struct Sample {
    double t;
    long rss_kb;
    int fds;
    int warm;
} Sample;

static int64_t window_p99(size_t from)
{
    size_t n = nlat - from;
    if (!n)
        return 0;
    int64_t *w = malloc(n * sizeof *w);
    memcpy(w, lat + from, n * sizeof *w);
    qsort(w, n, sizeof *w, lg_cmp64);
    int64_t p = lg_pct(w, n, 0.99);
    free(w);
    return p;
}

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    lg_set_program("soak");
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *bin = getenv("ARBITER_BIN");
    if (!bin) {
        fprintf(stderr, "soak: set ARBITER_BIN to the arbiter binary\n");
        return 2;
    }
    long need = 2L * o.boards + o.viewers + 256, have = lg_raise_nofile();
    if (have < need) {
        fprintf(stderr, "soak: %ld descriptors needed, the hard limit is %ld\n", need, have);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    tablets = calloc((size_t)(2 * o.boards), sizeof *tablets);
    sims = calloc((size_t)o.boards, sizeof *sims);
    viewers = calloc((size_t)(o.viewers ? o.viewers : 1), sizeof *viewers);
    for (int b = 0; b < o.boards; b++) {
        Sim *s = &sims[b];
        s->gid = calloc((size_t)o.rounds, sizeof *s->gid);
        for (int k = 0; k < 2; k++) {
            s->tablet[k] = 2 * b + k;
            tablets[2 * b + k] = (Tablet){.io.fd = -1, .board = b, .side = k};
        }
        s->rng = ((uint64_t)o.seed << 32 | (uint64_t)(b + 1)) * 0x9E3779B97F4A7C15ull;
        board_start(&s->pos);
        s->phase = B_WAIT;
    }
    for (int i = 0; i < o.viewers; i++)
        viewers[i] = (Viewer){.io.fd = -1, .board = i % o.boards};

    char threads[16];
    snprintf(threads, sizeof threads, "%d", o.threads);
    int64_t s0 = lg_now_us();
    lg_daemon_start(bin, threads);
    setup();
    printf("soak: %d boards, %d tablets, %d viewers, %d rounds; set-up took %.1f s\n", o.boards,
           2 * o.boards, o.viewers, o.rounds, (double)(lg_now_us() - s0) / 1e6);

    ep = epoll_create1(0);
    t0_us = lg_now_us();
    stop_us = t0_us + (int64_t)(o.duration * 1e6);
    int nconn = o.viewers + 2 * o.boards, opened = 0;
    int64_t next_sample = t0_us + (int64_t)(o.sample * 1e6);
    long long last_moves = 0;
    size_t last_lat = 0;
    size_t nsamples = 0, capsamples = 64;
    Sample *samples = malloc(capsamples * sizeof *samples);
    double warm_t = -1;
    struct epoll_event evs[512];
    int64_t drain_until = 0;
    for (;;) {
        int64_t now = lg_now_us();
        /* Connections open at the connect rate: viewers first (they join
         * as the round goes on), then the tablets. */
        int want = (int)((double)(now - t0_us) / 1e6 * o.connect_rate) + 1;
        if (want > nconn)
            want = nconn;
        for (; opened < want; opened++) {
            if (opened < o.viewers && pending_streams >= MAX_PENDING)
                break;
            if (opened < o.viewers) {
                Viewer *v = &viewers[opened];
                viewer_open(v, sims[v->board].gid[sims[v->board].round], 0);
                continue;
            }
            Tablet *t = &tablets[opened - o.viewers];
            if (lg_conn_open(&t->io, ep, tag(KIND_TABLET, opened - o.viewers)))
                lg_die("cannot connect (tablet %d)", opened - o.viewers + 1);
            t->open = 1;
            Sim *b = &sims[t->board];
            if (t->side == 1 && b->phase == B_WAIT)
                schedule(b);
        }
        if (!all_open && opened == nconn) {
            all_open = 1;
            printf("soak: t=%.1fs: all %d connections open\n", (double)(now - t0_us) / 1e6, nconn);
        }
        /* Moves whose time has come; the next one sets the wait. */
        int64_t next_due = now + 10000;
        if (now < stop_us)
            for (int i = 0; i < o.boards; i++) {
                Sim *b = &sims[i];
                if (b->phase != B_THINK)
                    continue;
                if (b->due <= now) {
                    int64_t lag = now - b->due;
                    if (lag > lag_max_us)
                        lag_max_us = lag;
                    send_move(b);
                } else if (b->due < next_due)
                    next_due = b->due;
            }
        if (now >= next_sample) {
            double t = (double)(now - t0_us) / 1e6;
            if (warm_t < 0 && (o.warmup >= 0 ? t >= o.warmup
                                             : all_open && games_over >= o.boards &&
                                                   games_over >= SERVER_KEEPS_DONE)) {
                warm_t = t;
                printf("soak: t=%.1fs: warm-up over (%s); the memory must stay flat from here\n", t,
                       o.warmup >= 0 ? "--warmup"
                                     : "every connection open, as many games "
                                       "over as boards, and 256");
            }
            /* A request unanswered for half a minute is an error (once). */
            for (int i = 0; i < 2 * o.boards; i++) {
                Tablet *tb = &tablets[i];
                if (tb->busy && !tb->late && now - tb->sent_at > 30000000) {
                    tb->late = 1;
                    error_at("board %d tablet %d (game %lld): no answer for 30 s while %s",
                             tb->board + 1, tb->side + 1,
                             (long long)sims[tb->board].gid[sims[tb->board].round],
                             doing(&sims[tb->board]));
                }
            }
            if (nsamples == capsamples)
                samples = realloc(samples, (capsamples *= 2) * sizeof *samples);
            Sample *sm = &samples[nsamples++];
            *sm = (Sample){t, lg_daemon_rss_kb(), lg_daemon_fds(), warm_t >= 0};
            printf("soak: t=%4.0fs rss=%6.1f MB fds=%5d streams=%5lld moves=%7lld (%5.0f/s) "
                   "p99=%6.1f ms events=%8lld errors=%lld games-over=%lld reconnects=%lld "
                   "generator-lag-max=%.1f ms\n",
                   t, (double)sm->rss_kb / 1024, sm->fds, streams_open, moves,
                   (double)(moves - last_moves) / o.sample, (double)window_p99(last_lat) / 1000.0,
                   events, nerrors, games_over, stream_drops, (double)lag_max_us / 1000.0);
            if (lag_max_us > lag_max_all_us)
                lag_max_all_us = lag_max_us;
            lag_max_us = 0;
            last_moves = moves;
            last_lat = nlat;
            next_sample += (int64_t)(o.sample * 1e6);
        }
        if (now >= stop_us) {
            /* No new moves; the ones in flight get a few seconds. */
            if (!drain_until)
                drain_until = now + 5000000;
            int busy = 0;
            for (int i = 0; i < 2 * o.boards && !busy; i++)
                busy = tablets[i].busy;
            if (!busy || now >= drain_until)
                break;
        }
        if (next_due > next_sample)
            next_due = next_sample;
        int wait_ms = next_due > now ? (int)((next_due - now + 999) / 1000) : 0;
        if (opened < nconn && wait_ms > 5)
            wait_ms = 5;
        int n = epoll_wait(ep, evs, 512, wait_ms);
        for (int k = 0; k < n; k++) {
            int kind = (int)(evs[k].data.u64 >> 32), i = (int)(uint32_t)evs[k].data.u64;
            if (kind == KIND_TABLET)
                tablet_event(&tablets[i], evs[k].events);
            else
                viewer_event(&viewers[i], evs[k].events);
        }
    }
    double run_s = (double)(lg_now_us() - t0_us) / 1e6;
    lg_daemon_stop();

    /* The summary and the verdict. */
    qsort(lat, nlat, sizeof *lat, lg_cmp64);
    double p50 = (double)lg_pct(lat, nlat, 0.5) / 1000.0,
           p99 = (double)lg_pct(lat, nlat, 0.99) / 1000.0,
           mx = nlat ? (double)lat[nlat - 1] / 1000.0 : 0.0;
    long rss0 = 0, rss_warm_max = 0, rss_max = 0;
    long rss_end = nsamples ? samples[nsamples - 1].rss_kb : 0;
    int fds_max = 0;
    for (size_t i = 0; i < nsamples; i++) {
        if (samples[i].warm && !rss0)
            rss0 = samples[i].rss_kb;
        if (samples[i].warm && samples[i].rss_kb > rss_warm_max)
            rss_warm_max = samples[i].rss_kb;
        if (samples[i].rss_kb > rss_max)
            rss_max = samples[i].rss_kb;
        if (samples[i].fds > fds_max)
            fds_max = samples[i].fds;
    }
    long long failed = 0;
    for (int b = 0; b < o.boards; b++)
        failed += sims[b].phase == B_FAILED;
    printf("soak: %.0f s, %d boards (%d tablets), %d viewers; %lld moves (%.0f/s), %lld games "
           "over, %lld games started; move latency from the due time p50 %.1f ms, p99 %.1f ms, "
           "max %.1f ms; generator lag max %.1f ms; %lld stream events delivered, %lld streams "
           "ended by the server and resumed, %lld follows to a next game, %lld idle tablet "
           "connections opened again; max fds %d; %lld errors, %lld boards stopped\n",
           run_s, o.boards, 2 * o.boards, o.viewers, moves, (double)moves / run_s, games_over,
           games_started + o.boards, p50, p99, mx, (double)lag_max_all_us / 1000.0, events,
           stream_drops, follows, tablet_reconnects, fds_max, nerrors, failed);
    int mem_ok = 0;
    if (warm_t < 0)
        printf("soak: memory NOT CHECKED: the warm-up did not end (%lld of %d games over%s); "
               "RSS max %.1f MB\n",
               games_over, o.boards > SERVER_KEEPS_DONE ? o.boards : SERVER_KEEPS_DONE,
               all_open ? "" : ", connections still opening", (double)rss_max / 1024);
    else {
        long limit = rss0 + (long)((double)rss0 * o.rss_growth / 100) + 8 * 1024;
        mem_ok = rss_warm_max <= limit;
        printf("soak: RSS %.1f MB at the warm-up's end (t=%.0fs) -> max %.1f MB after it "
               "(%+.1f%%, limit %.1f MB), %.1f MB at the end; max %.1f MB overall\n",
               (double)rss0 / 1024, warm_t, (double)rss_warm_max / 1024,
               rss0 ? (double)(rss_warm_max - rss0) * 100.0 / (double)rss0 : 0.0,
               (double)limit / 1024, (double)rss_end / 1024, (double)rss_max / 1024);
    }
    int ok = nerrors == 0 && failed == 0 && p99 <= o.p99_ms && mem_ok;
    printf("soak: %s\n", ok ? "PASS" : "FAIL");
    if (ok)
        lg_remove_dir();
    else
        printf("soak: directory kept: %s\n", lg_dir());
    return ok ? 0 : 1;
}
