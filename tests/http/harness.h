/*
 * harness.h — integration tests of `arbiter serve`: starts the real daemon
 * on a free port with a fresh database in a temporary directory, and talks
 * to it over HTTP with libcurl.
 *
 * The daemon binary comes from ARBITER_BIN.  Each Daemon keeps its
 * directory, so a test can stop it (cleanly or with SIGKILL) and start it
 * again on the same database.
 *
 * The harness builds on testutil (files, scratch directories, program
 * runs), which every suite that includes it may use as well; what only
 * daemon tests need lives here.  Helpers added since the first suites
 * carry the harness_ prefix; the older short names (req, play, ...) stay,
 * as every daemon suite is written with them.
 */
#ifndef ARBITER_TESTS_HARNESS_H
#define ARBITER_TESTS_HARNESS_H

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "testutil.h"

typedef struct Daemon {
    pid_t pid;
    int port;
    char dir[256];
    char db[300];
    char password[64];       /* the first start's arbiter password */
    const char *const *args; /* extra `serve` options (NULL-terminated) */
} Daemon;

/* Who sends a request: a cookie session (with its CSRF token) or a bearer
 * token, or nobody (NULL Client). */
typedef struct Client {
    char cookie[200];
    char csrf[80];
    char bearer[160];
} Client;

typedef struct Resp {
    long status;
    char *body;
    size_t len;
    json_t *json; /* parsed body (NULL when not JSON) */
    char headers[4096];
} Resp;

/* Makes D a fresh directory with the path of its database (not yet
 * created) and no daemon, for a test that prepares the database before the
 * first start (daemon_start_args with restart nonzero then uses it). */
void harness_daemon_prepare(Daemon *d);

/* Starts a daemon on a fresh database (restart zero) or on D->dir again
 * (restart nonzero, with the options it had).  The tests' requests all come
 * from 127.0.0.1 at machine speed, so it runs with --rate-limit 0.  Aborts
 * the test on failure. */
void daemon_start(Daemon *d, int restart);
/* The same with the extra `serve` options ARGS (NULL-terminated, kept by
 * reference for restarts) instead of --rate-limit 0. */
void daemon_start_args(Daemon *d, int restart, const char *const *args);
/* Sends SIG (SIGTERM: clean stop, SIGKILL: crash) and waits for the exit;
 * returns the exit status (or 128+signal). */
int daemon_stop(Daemon *d, int sig);
/* Removes the directory. */
void daemon_cleanup(Daemon *d);

/* One request; BODY may be NULL (no body).  CTYPE NULL means
 * application/json when there is a body. */
Resp *req(Daemon *d, const Client *c, const char *method, const char *path, const char *body);
Resp *req_raw(Daemon *d, const Client *c, const char *method, const char *path, const char *body,
              size_t body_len, const char *ctype);
/* Without a client, with the extra request HEADERS ("Name: value",
 * NULL-terminated). */
Resp *req_hdr(Daemon *d, const char *method, const char *path, const char *body,
              const char *const *headers);
/* printf-style path and body. */
Resp *reqf(Daemon *d, const Client *c, const char *method, const char *body, const char *pathfmt,
           ...) __attribute__((format(printf, 5, 6)));
void resp_free(Resp *r);
/* Opens a live stream for at most TIMEOUT_MS and returns what arrived in
 * that time (status and body so far).  LAST_ID > 0 sends Last-Event-ID. */
Resp *stream_read(Daemon *d, const Client *c, const char *path, long timeout_ms, long long last_id);
/* The error code string of an error answer, or "". */
const char *resp_code(const Resp *r);

/* The usual Check fixture pair: a fresh daemon with the arbiter signed in
 * into ARB; stopping it with SIGTERM, which must end cleanly. */
void daemon_start_signed_in(Daemon *d, Client *arb);
void daemon_finish(Daemon *d);

/* Declares, for a suite file, the static daemon D and arbiter client ARB
 * with the fixture functions setup() (daemon_start_signed_in) and
 * teardown() (daemon_finish) for tcase_add_checked_fixture(). */
#define HARNESS_SIGNED_IN_FIXTURE(D, ARB)                                                          \
    static Daemon D;                                                                               \
    static Client ARB;                                                                             \
    static void setup(void)                                                                        \
    {                                                                                              \
        daemon_start_signed_in(&D, &ARB);                                                          \
    }                                                                                              \
    static void teardown(void)                                                                     \
    {                                                                                              \
        daemon_finish(&D);                                                                         \
    }

/* The contents of the file NAME in the daemon's directory (stdout.txt,
 * stderr.txt), NUL-terminated, for the caller to free. */
char *harness_daemon_file(const Daemon *d, const char *name);

/* A live stream read in a thread of its own, so that the test can act while
 * it is open: harness_stream_start() opens it as stream_read() would (the
 * arguments are copied), harness_stream_join() waits for the end and puts
 * the answer into S->r (also returned; the caller frees it). */
typedef struct HarnessStream {
    Daemon *d;
    const Client *c;
    char path[256];
    long timeout_ms;
    long long last_id;
    Resp *r;
    pthread_t thread;
} HarnessStream;
void harness_stream_start(HarnessStream *s, Daemon *d, const Client *c, const char *path,
                          long timeout_ms, long long last_id);
Resp *harness_stream_join(HarnessStream *s);
/* The integer member K of O (0 when absent). */
json_int_t jint(json_t *o, const char *k);

/* Asserts that tournament TID's standings from the API equal what
 * `arbiter standings FILE [EXTRA] --format json` prints for the TRF text
 * (LEN bytes): row by row the names, ranks, points and every tie-break.
 * Returns the command line's JSON (the caller decrefs it). */
json_t *assert_standings_match_cli(Daemon *d, int64_t tid, const char *trf, size_t len,
                                   const char *extra);

/* Starts round RN of tournament TID as ARB and gives each game, in board
 * order, the result RESULTS[i] ('1' white wins, '0' black wins, '=' draw). */
void finish_round(Daemon *d, const Client *arb, int64_t tid, int64_t rn, const char *results);
/* Points of player PID in the public standings (-1 when absent). */
double points_of(Daemon *d, int64_t tid, int64_t pid);
/* The codes of round RN's criteria report (GET .../rounds/RN/check as ARB),
 * space-separated in report order, into OUT (CAP bytes; "" for none). */
void round_check_codes(Daemon *d, const Client *arb, int64_t tid, int64_t rn, char *out,
                       size_t cap);

/*
 * bbpPairings' checker (`SYS FILE -c`, SYS "--dutch" or "--burstein")
 * on the TRF-2026 report TEXT (LEN bytes) written under D's directory, when
 * BBPPAIRINGS names its binary: it re-pairs every round and prints those
 * whose pairing differs ("Checker pairings").  Asserts ROUNDS rounds, none
 * differing; returns 1, or 0 (nothing run) without BBPPAIRINGS, like the
 * slow corpora.  bbpPairings v6 reads the Dutch rules of 2026 as the draft
 * table's FIDE_DUTCH_2025[_BAKU] and refuses the code table's
 * FIDE_DUTCH_2026 (its later sources read both): its copy says 2025.
 */
int harness_bbp_check(const Daemon *d, const char *text, size_t len, const char *sys, int rounds);

/* Signs in as the arbiter (the first start's password) into C. */
void login_arbiter(Daemon *d, Client *c);
/* Signs in as arbiter NAME with PASSWORD into C (asserts success). */
void harness_login(Daemon *d, const char *name, const char *password, Client *c);
/* Runs `arbiter user VERB NAME --db` on D's database with PASSWORD (NULL:
 * none) in ARBITER_PASSWORD; returns the exit status. */
int harness_user(const Daemon *d, const char *verb, const char *name, const char *password);
/* A tournament with N players (ratings 2000, 1990, ...); fills player ids
 * and bearer clients.  Returns the tournament id. */
int64_t make_tournament(Daemon *d, const Client *arb, const char *time_control,
                        const char *settings_json, int n, int64_t *pids, Client *players);
/* Creates the next round with the given pairings (white, black ids);
 * returns the round number and fills game ids. */
int64_t make_round(Daemon *d, const Client *arb, int64_t tid, int npairs, const int64_t *white,
                   const int64_t *black, int64_t *gids);

/* A tournament of two players (time control TC, SETTINGS_JSON or NULL)
 * with round 1 paired, not started: its one game into *GID, White's and
 * Black's bearer clients into PL[0] and PL[1].  Returns the tournament id. */
int64_t harness_game_new(Daemon *d, const Client *arb, const char *tc, const char *settings_json,
                         Client *pl, int64_t *gid);

/* Checks in both players of each of the N games GIDS (White PL[i], Black
 * PL[N + i], as make_tournament and make_round number them) and has ARB
 * start round 1 of tournament TID: the White clocks run. */
void harness_round_one_start(Daemon *d, const Client *arb, const Client *pl, int64_t tid,
                             const int64_t *gids, int n);

/* harness_round_one_start() of the one game GID (PL[0] and PL[1]). */
void start_round_one(Daemon *d, const Client *arb, const Client *pl, int64_t tid, int64_t gid);

/* A move by C at PLY; returns the status. */
long play(Daemon *d, const Client *c, int64_t gid, int ply, const char *move);

int64_t now_ms(void);

#endif
