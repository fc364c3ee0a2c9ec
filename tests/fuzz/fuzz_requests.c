/*
 * fuzz_requests.c — the daemon's request bodies under arbitrary bytes,
 * without HTTP.
 *
 * Every route of the table that takes a body (POST, PATCH) is called
 * directly with a request built here: the first input byte picks the route,
 * the second who asks (nobody, the arbiter, White or Black of the one game),
 * the rest is the body.  The store is a small database made once per
 * process (one tournament, two players, one round with their game); the
 * server is marked as stopping, so a body that passes every check ends in
 * 503 instead of reaching the writer, and nothing is ever written.
 *
 * Whatever the body, the route must answer at once with a JSON reply (its
 * length as stated), never an internal error (500); an error reply carries
 * a code and a message; a body that is not a JSON
 * object is never accepted (503), except an empty body where the route
 * allows one.  Runs are deterministic: no user can sign in (its password
 * hash matches nothing) and no session is ever made.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <microhttpd.h>

#include "players.h"
#include "rounds.h"
#include "sessions.h"
#include "tournaments.h"
#include "http.h"
#include "routes.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_BODY = 8192 };

static Server srv;
static char dir[64], path[96];
static int64_t tid, white_id, black_id, gid;
static int body_routes[64], n_body_routes;

static void cleanup(void)
{
    http_readers_close();
    char p[128];
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
    rmdir(dir);
}

static int64_t id_of(json_t *obj)
{
    int64_t id = json_integer_value(json_object_get(obj, "id"));
    json_decref(obj);
    if (id <= 0)
        abort();
    return id;
}

/* The database every input sees: made once, read only afterwards. */
static void setup(void)
{
    snprintf(dir, sizeof dir, "%s/arbiter-fuzz-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/fuzz.db", dir);
    atexit(cleanup);
    Store *s;
    char err[256];
    json_t *out = NULL;
    if (store_open(path, 0, &s, err, sizeof err) != 0)
        abort();
    if (sessions_user_add(s, "arbiter", "no-hash", err, sizeof err) < 0)
        abort();
    json_t *t = json_pack("{s:s,s:s}", "name", "Fuzz Open", "time_control", "5400+30");
    if (tournaments_create(s, t, 1, &out, err, sizeof err) != 0)
        abort();
    json_decref(t);
    tid = id_of(out);
    for (int i = 0; i < 2; i++) {
        json_t *p = json_pack("{s:s,s:i}", "name", i ? "Black, B" : "White, W", "rating", 2000);
        char pin[65], token[65];
        snprintf(pin, sizeof pin, "%064d", i);
        snprintf(token, sizeof token, "%064d", 10 + i);
        if (players_create(s, tid, p, pin, token, 1, &out, err, sizeof err) != 0)
            abort();
        json_decref(p);
        *(i ? &black_id : &white_id) = id_of(out);
    }
    json_t *pairings = json_pack("[{s:I,s:I}]", "white_id", (json_int_t)white_id, "black_id",
                                 (json_int_t)black_id);
    if (rounds_create(s, tid, pairings, 1, &out, err, sizeof err) != 0)
        abort();
    json_decref(pairings);
    json_decref(out);
    json_t *ids = rounds_game_ids(s, tid, 1);
    gid = json_integer_value(json_object_get(json_array_get(ids, 0), "id"));
    json_decref(ids);
    if (gid <= 0)
        abort();
    store_close(s);

    srv.db_path = path;
    srv.quiet = 1;
    srv.stopping = 1;
    for (int i = 0; i < routes_count && n_body_routes < 64; i++)
        if (routes_table[i].method == HTTP_POST || routes_table[i].method == HTTP_PATCH)
            body_routes[n_body_routes++] = i;
}

/* Path parameters in the order of the pattern, all naming existing things. */
static void fill_ids(Req *r, const char *pattern)
{
    int k = 0;
    for (const char *p = strchr(pattern, '{'); p && k < 4; p = strchr(p + 1, '{')) {
        int64_t v = 1;
        if (strncmp(p, "{tid}", 5) == 0)
            v = tid;
        else if (strncmp(p, "{pid}", 5) == 0)
            v = white_id;
        else if (strncmp(p, "{gid}", 5) == 0)
            v = gid;
        r->id[k++] = v; /* {rn} and {aid}: 1 */
    }
}

static void check_reply(const Req *r, const uint8_t *body, size_t len)
{
    if (r->status < 200 || r->status > 599 || !r->out || r->resp || strlen(r->out) != r->out_len)
        abort();
    if (r->status >= 500 && r->status != 503)
        abort(); /* no body is an internal error */
    json_error_t e;
    json_t *reply = json_loadb(r->out, r->out_len, 0, &e);
    if (!reply)
        abort();
    if (r->status >= 400) {
        json_t *err = json_object_get(reply, "error");
        const char *code = json_string_value(json_object_get(err, "code"));
        const char *msg = json_string_value(json_object_get(err, "message"));
        if (!code || !*code || !msg || !*msg)
            abort();
    }
    json_decref(reply);
    if (r->status == 503 && len > 0) {
        /* Accepted for writing: the body was a JSON object. */
        json_t *in = json_loadb((const char *)body, len, JSON_REJECT_DUPLICATES, &e);
        if (!json_is_object(in))
            abort();
        json_decref(in);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!srv.db_path)
        setup();
    if (size < 2 || size - 2 > MAX_BODY)
        return 0;
    const Route *route = &routes_table[body_routes[data[0] % n_body_routes]];
    Req r;
    memset(&r, 0, sizeof r);
    r.srv = &srv;
    r.method = route->method;
    r.method_name = route->method_name;
    r.url = route->pattern;
    r.route = route->pattern;
    fill_ids(&r, route->pattern);
    switch (data[1] % 4) {
    case 0: break; /* nobody signed in */
    case 1:
        r.auth.role = ROLE_ARBITER;
        r.auth.user_id = 1;
        snprintf(r.auth.username, sizeof r.auth.username, "arbiter");
        break;
    default:
        r.auth.role = ROLE_PLAYER;
        r.auth.player_id = data[1] % 4 == 2 ? white_id : black_id;
        r.auth.tournament_id = tid;
        break;
    }
    size_t len = size - 2;
    r.body = malloc(len + 1);
    if (!r.body)
        return 0;
    memcpy(r.body, data + 2, len);
    r.body[len] = '\0';
    r.body_len = len;
    r.body_cap = len + 1;

    /* The table's role check first, as the dispatcher does. */
    if (routes_authorize(&r, route) == 0 && route->fn(&r) != ROUTE_DONE)
        abort(); /* a stopping server never suspends */
    check_reply(&r, data + 2, len);
    if (getenv("FUZZ_REQUESTS_VERBOSE")) /* to see what the seeds reach */
        fprintf(stderr, "%s %s -> %d %.*s\n", route->method_name, route->pattern, r.status,
                (int)r.out_len, r.out);

    json_decref(r.in);
    json_decref(r.result);
    free(r.out);
    if (r.data_free)
        r.data_free(r.data);
    for (int i = 0; i < r.nhdr; i++) {
        free(r.hdr[i][0]);
        free(r.hdr[i][1]);
    }
    free(r.body);
    return 0;
}
