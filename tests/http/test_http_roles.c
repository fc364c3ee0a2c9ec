/*
 * test_http_roles.c — the role matrix: every operation of the OpenAPI
 * document (as the daemon serves it) x the arbiter (the tournament's
 * chief), the player, his opponent, another player, another arbiter (not
 * assigned to the tournament) and an anonymous caller.  Public operations
 * are open to all; arbiter operations answer 401 to the anonymous and 403
 * to players, and the other arbiter may read but not change the
 * tournament or its games (403); chief operations are the chief's only;
 * player operations are open only to the two players of the game (each
 * acting with his own colour).  Denied requests change nothing.
 * Also: CSRF on cookie sessions, bad credentials, and a player acting only
 * with his own colour.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { ARB, PLAYER, OPPONENT, OTHER, OUTSIDER, ANON, NROLES };
static const char *const ROLE_NAMES[] = {"arbiter",      "player",        "opponent",
                                         "other player", "other arbiter", "anonymous"};

static Daemon D;
static Client roles[NROLES];
static int64_t tid, gid, pid_spare, aid;
static char token1[160];

static void setup(void)
{
    daemon_start(&D, 0);
    login_arbiter(&D, &roles[ARB]);
    int64_t pids[6];
    Client pl[6];
    tid = make_tournament(&D, &roles[ARB], "5400+30", NULL, 6, pids, pl);
    int64_t w[2] = {pids[0], pids[2]}, b[2] = {pids[1], pids[3]}, gids[2];
    make_round(&D, &roles[ARB], tid, 2, w, b, gids);
    gid = gids[0];
    pid_spare = pids[5];
    roles[PLAYER] = pl[0];
    roles[OPPONENT] = pl[1];
    roles[OTHER] = pl[2];
    memset(&roles[ANON], 0, sizeof roles[ANON]);
    ck_assert_int_eq(harness_user(&D, "add", "outsider", "an outsider's secret"), 0);
    harness_login(&D, "outsider", "an outsider's secret", &roles[OUTSIDER]);
    snprintf(token1, sizeof token1, "%s", pl[0].bearer);
    for (int i = 0; i < 2; i++) {
        Resp *r = reqf(&D, &pl[i], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
        ck_assert_int_eq(r->status, 200);
        resp_free(r);
    }
    Resp *r = reqf(&D, &roles[ARB], "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start",
                   (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* An alert to address: the opponent calls the arbiter, then the arbiter
     * resumes the game. */
    r = reqf(&D, &pl[1], "POST", "{\"note\":\"test\"}", "/api/v1/games/%lld/call", (long long)gid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, &roles[ARB], "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)tid);
    aid = json_integer_value(json_object_get(json_array_get(r->json, 0), "id"));
    resp_free(r);
    ck_assert_int_gt(aid, 0);
    r = reqf(&D, &roles[ARB], "POST", "{}", "/api/v1/games/%lld/arbiter/resume", (long long)gid);
    resp_free(r);
}

static void teardown(void)
{
    int status = daemon_stop(&D, SIGTERM);
    daemon_cleanup(&D);
    ck_assert_msg(status == 0, "the daemon did not stop cleanly (%d)", status);
}

static const char *ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0 ? s : NULL;
}

/* A plausible body for the operation, so that only the role decides. */
static void body_for(const char *method, const char *path, char *out, size_t n)
{
    static const struct {
        const char *method, *suffix, *body;
    } t[] = {
        {"POST", "/tournaments", "{\"name\":\"X\",\"time_control\":\"60+1\"}"},
        {"PATCH", "/tournaments/{tid}", "{\"name\":\"Renamed\"}"},
        {"POST", "/players", "{\"name\":\"New player\"}"},
        {"PATCH", "/players/{pid}", "{\"rating\":1500}"},
        {"POST", "/rounds/{rn}/games", "{\"white_id\":1,\"black_id\":2}"},
        {"PATCH", "/alerts/{aid}", "{\"resolved\":true}"},
        {"PATCH", "/games/{gid}", "{\"board\":3}"},
        {"POST", "/move", "{\"ply\":0,\"move\":\"e4\"}"},
        {"POST", "/claim", "{\"claim\":\"threefold\"}"},
        {"POST", "/call", "{\"note\":\"help\"}"},
        {"POST", "/arbiter/adjust", "{\"side\":\"white\",\"add_ms\":1000}"},
        {"POST", "/arbiter/restore", "{\"ply\":0}"},
        {"POST", "/arbiter/illegal", "{\"side\":\"white\"}"},
        {"POST", "/arbiter/penalty", "{\"side\":\"white\",\"penalty\":\"warning\"}"},
        {"POST", "/arbiter/result", "{\"white\":1,\"black\":0}"},
        {"POST", "/arbiters", "{\"username\":\"arbiter\"}"},
        {"POST", "/arbiters/remove", "{\"username\":\"arbiter\"}"},
        /* A round without boards: the players' PINs stay as they are. */
        {"POST", "/{tid}/credentials", "{\"round\":99}"},
    };
    snprintf(out, n, "{}");
    if (ends_with(path, "/auth/login")) {
        snprintf(out, n, "{\"username\":\"arbiter\",\"password\":\"%s\"}", D.password);
        return;
    }
    if (ends_with(path, "/auth/player")) {
        snprintf(out, n, "{\"token\":\"%s\"}", token1);
        return;
    }
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(method, t[i].method) == 0 && ends_with(path, t[i].suffix)) {
            snprintf(out, n, "%s", t[i].body);
            return;
        }
}

static void fill_path(const char *tmpl, char *out, size_t n)
{
    size_t k = 0;
    k += (size_t)snprintf(out, n, "/api/v1");
    for (const char *p = tmpl; *p && k + 24 < n;) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            char name[16];
            snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
            long long v = !strcmp(name, "tid")   ? tid
                          : !strcmp(name, "gid") ? gid
                          : !strcmp(name, "pid") ? pid_spare
                          : !strcmp(name, "aid") ? aid
                                                 : 1;
            k += (size_t)snprintf(out + k, n - k, "%lld", v);
            p = e + 1;
        } else {
            out[k++] = *p++;
            out[k] = 0;
        }
    }
}

/* 1 when ROLE may call the operation METHOD TMPL of X-ROLE on game GID:
 * the other arbiter only reads the tournament and its games. */
static int allowed(const char *xrole, const char *method, const char *tmpl, int role)
{
    if (!strcmp(xrole, "public"))
        return 1;
    if (!strcmp(xrole, "chief"))
        return role == ARB;
    /* A team's captain or an arbiter; no caller here is a captain, and an
     * arbiter without a right on the tournament only reads. */
    if (!strcmp(xrole, "captain"))
        return role == ARB || (role == OUTSIDER && !strcmp(method, "GET"));
    if (!strcmp(xrole, "arbiter"))
        return role == ARB ||
               (role == OUTSIDER &&
                (!strcmp(method, "GET") ||
                 (strncmp(tmpl, "/tournaments/{tid}", 18) && strncmp(tmpl, "/games/{gid}", 12))));
    return role == PLAYER || role == OPPONENT;
}

static long call(int role, const char *method, const char *path, const char *body, Resp **out)
{
    if (strstr(path, "/stream")) {
        Resp *r = stream_read(&D, &roles[role], path, 300, 0);
        long st = r->status;
        *out = r;
        return st;
    }
    Resp *r = req(&D, &roles[role], method, path, strcmp(method, "GET") ? body : NULL);
    *out = r;
    return r->status;
}

static json_t *ops(void)
{
    Resp *r = req(&D, NULL, "GET", "/api/v1/openapi.json", NULL);
    ck_assert_int_eq(r->status, 200);
    json_t *paths = json_incref(json_object_get(r->json, "paths"));
    resp_free(r);
    return paths;
}

static int snapshot_events(void)
{
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    int n = (int)json_array_size(json_object_get(r->json, "events"));
    resp_free(r);
    return n;
}

static int snapshot_tournaments(void)
{
    Resp *r = req(&D, NULL, "GET", "/api/v1/tournaments", NULL);
    int n = (int)json_array_size(r->json);
    resp_free(r);
    return n;
}

static void pass(json_t *paths, int want_allowed, int *checked)
{
    const char *tmpl;
    json_t *item;
    json_object_foreach(paths, tmpl, item)
    {
        const char *m;
        json_t *op;
        json_object_foreach(item, m, op)
        {
            char method[8], path[256], body[512];
            snprintf(method, sizeof method, "%s", m);
            for (char *q = method; *q; q++)
                *q = (char)(*q - 32 * (*q >= 'a' && *q <= 'z'));
            if (!strcmp(tmpl, "/auth/logout"))
                continue; /* last, below: it ends the arbiter's session */
            const char *xrole = json_string_value(json_object_get(op, "x-role"));
            ck_assert_msg(xrole != NULL, "%s %s has no x-role", method, tmpl);
            fill_path(tmpl, path, sizeof path);
            body_for(method, tmpl, body, sizeof body);
            for (int role = 0; role < NROLES; role++) {
                int ok = allowed(xrole, method, tmpl, role);
                if (ok != want_allowed)
                    continue;
                Resp *r;
                long st = call(role, method, path, body, &r);
                (*checked)++;
                ck_assert_msg(st >= 200 && st < 500, "%s %s as %s: status %ld %s", method, path,
                              ROLE_NAMES[role], st, r->body ? r->body : "");
                if (ok)
                    ck_assert_msg(st != 401 && st != 403, "%s %s as %s: refused %ld %s", method,
                                  path, ROLE_NAMES[role], st, r->body);
                else
                    ck_assert_msg(st == (role == ANON ? 401 : 403), "%s %s as %s: %ld %s", method,
                                  path, ROLE_NAMES[role], st, r->body ? r->body : "");
                resp_free(r);
            }
        }
    }
}

START_TEST(every_operation_every_role)
{
    json_t *paths = ops();
    int events = snapshot_events(), tours = snapshot_tournaments(), checked = 0;
    pass(paths, 0, &checked);
    /* Nothing a refused caller sent left a trace. */
    ck_assert_int_eq(snapshot_events(), events);
    ck_assert_int_eq(snapshot_tournaments(), tours);
    pass(paths, 1, &checked);
    json_decref(paths);
    ck_assert_int_ge(checked, NROLES * 50);
    /* Logout: open to everyone; the arbiter's session ends with it. */
    for (int role = NROLES - 1; role >= 0; role--) {
        Resp *r = req(&D, &roles[role], "POST", "/api/v1/auth/logout", "{}");
        ck_assert_msg(r->status == 200, "logout as %s: %ld %s", ROLE_NAMES[role], r->status,
                      r->body);
        resp_free(r);
    }
    Resp *r = req(&D, &roles[ARB], "POST", "/api/v1/tournaments",
                  "{\"name\":\"X\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
}
END_TEST

START_TEST(csrf_and_credentials)
{
    Client c = roles[ARB];
    c.csrf[0] = 0;
    Resp *r =
        req(&D, &c, "POST", "/api/v1/tournaments", "{\"name\":\"X\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 403);
    ck_assert_str_eq(resp_code(r), "csrf");
    resp_free(r);
    snprintf(c.csrf, sizeof c.csrf, "not-the-token");
    r = req(&D, &c, "POST", "/api/v1/tournaments", "{\"name\":\"X\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 403);
    resp_free(r);
    /* A GET needs no token. */
    r = reqf(&D, &c, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    /* Wrong password, wrong PIN, wrong token. */
    r = req(&D, NULL, "POST", "/api/v1/auth/login",
            "{\"username\":\"arbiter\",\"password\":\"x\"}");
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    char body[128];
    snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"0000000\"}", (long long)tid);
    r = req(&D, NULL, "POST", "/api/v1/auth/player", body);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    Client bad = {.bearer = "deadbeef"};
    r = reqf(&D, &bad, "POST", "{\"ply\":0,\"move\":\"e4\"}", "/api/v1/games/%lld/move",
             (long long)gid);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    /* Guessing PINs: after a few wrong ones, even attempts stop. */
    int limited = 0;
    for (int i = 0; i < 30 && !limited; i++) {
        snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%06d\"}", (long long)tid, i);
        r = req(&D, NULL, "POST", "/api/v1/auth/player", body);
        ck_assert(r->status == 401 || r->status == 429 || r->status == 200);
        limited = r->status == 429;
        resp_free(r);
    }
    ck_assert(limited);
    /* The session cookie of a player, from his PIN (in another tournament,
     * whose budget is untouched). */
    int64_t pid2;
    int64_t tid2 = make_tournament(&D, &roles[ARB], "60", NULL, 1, &pid2, NULL);
    r = reqf(&D, &roles[ARB], "POST", "{}", "/api/v1/tournaments/%lld/players/%lld/credentials",
             (long long)tid2, (long long)pid2);
    ck_assert_int_eq(r->status, 200);
    snprintf(body, sizeof body, "{\"tournament_id\":%lld,\"pin\":\"%s\"}", (long long)tid2,
             json_string_value(json_object_get(r->json, "pin")));
    resp_free(r);
    r = req(&D, NULL, "POST", "/api/v1/auth/player", body);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_ptr_nonnull(strcasestr(r->headers, "HttpOnly"));
    ck_assert_ptr_nonnull(strcasestr(r->headers, "SameSite=Strict"));
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "role")), "player");
    resp_free(r);
}
END_TEST

START_TEST(own_colour_only)
{
    /* Black cannot move for White: the colour comes from the session. */
    Resp *r = reqf(&D, &roles[OPPONENT], "POST", "{\"ply\":0,\"move\":\"e4\"}",
                   "/api/v1/games/%lld/move", (long long)gid);
    ck_assert_int_eq(r->status, 409);
    ck_assert_str_eq(resp_code(r), "not_your_turn");
    resp_free(r);
    ck_assert_int_eq(play(&D, &roles[PLAYER], gid, 0, "e4"), 200);
    /* White cannot move for Black. */
    ck_assert_int_eq(play(&D, &roles[PLAYER], gid, 1, "e5"), 409);
    /* Another game's player cannot touch this one. */
    ck_assert_int_eq(play(&D, &roles[OTHER], gid, 1, "e5"), 403);
    ck_assert_int_eq(play(&D, &roles[OPPONENT], gid, 1, "e5"), 200);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-roles");
    TCase *tc = tcase_create("roles");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_operation_every_role);
    tcase_add_test(tc, csrf_and_credentials);
    tcase_add_test(tc, own_colour_only);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
