/*
 * test_http_input.c — malformed input on every operation that takes a body
 * (bad JSON, not an object, unknown field, wrong type, wrong media type, too
 * large), unknown ids on every operation with a path parameter, and that
 * none of it is answered with a 5xx or leaves anything written.  And the
 * OpenAPI document lists exactly the routes the daemon has: the route
 * table compiled into the daemon, and every documented operation answers
 * while undocumented methods are 405.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "http.h"
#include "routes.h"

static Daemon D;
static Client arb, white;
static int64_t tid, gid, aid;

static void setup(void)
{
    daemon_start_signed_in(&D, &arb);
    Client pl[2];
    tid = harness_game_new(&D, &arb, "5400+30", NULL, pl, &gid);
    white = pl[0];
    /* An alert (for the alert routes): Black checks in late and calls. */
    Resp *r = reqf(&D, &pl[0], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
    resp_free(r);
    r = reqf(&D, &pl[1], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gid);
    resp_free(r);
    r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = reqf(&D, &pl[1], "POST", "{}", "/api/v1/games/%lld/call", (long long)gid);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/alerts", (long long)tid);
    aid = json_integer_value(json_object_get(json_array_get(r->json, 0), "id"));
    resp_free(r);
    ck_assert_int_gt(aid, 0);
}

static void teardown(void)
{
    daemon_finish(&D);
}

static json_t *doc_paths(void)
{
    Resp *r = req(&D, NULL, "GET", "/api/v1/openapi.json", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(r->json, "openapi")), "3.1.0");
    json_t *p = json_incref(json_object_get(r->json, "paths"));
    resp_free(r);
    return p;
}

static void upper(const char *m, char *out)
{
    int i = 0;
    for (; m[i]; i++)
        out[i] = (char)(m[i] >= 'a' && m[i] <= 'z' ? m[i] - 32 : m[i]);
    out[i] = 0;
}

/* The path with every parameter replaced by VALUE, or by the real ids. */
static void fill(const char *tmpl, const char *value, char *out, size_t n)
{
    size_t k = (size_t)snprintf(out, n, "/api/v1");
    for (const char *p = tmpl; *p && k + 24 < n;) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            char v[24];
            if (value)
                snprintf(v, sizeof v, "%s", value);
            else
                snprintf(v, sizeof v, "%lld",
                         !strncmp(p, "{gid}", 5)   ? (long long)gid
                         : !strncmp(p, "{tid}", 5) ? (long long)tid
                         : !strncmp(p, "{aid}", 5) ? (long long)aid
                                                   : 1LL);
            k += (size_t)snprintf(out + k, n - k, "%s", v);
            p = e + 1;
        } else {
            out[k++] = *p++;
            out[k] = 0;
        }
    }
}

static const Client *who(json_t *op)
{
    const char *role = json_string_value(json_object_get(op, "x-role"));
    /* The first arbiter is an administrator: chief of every tournament; a
     * captain's routes are the arbiter's too. */
    return !strcmp(role, "arbiter") || !strcmp(role, "chief") || !strcmp(role, "captain") ? &arb
           : !strcmp(role, "player")                                                      ? &white
                                                                                          : NULL;
}

START_TEST(document_matches_route_table)
{
    json_t *paths = doc_paths();
    int documented = 0;
    const char *p;
    json_t *item;
    json_object_foreach(paths, p, item)
    {
        const char *m;
        json_t *op;
        json_object_foreach(item, m, op)
        {
            char M[8];
            upper(m, M);
            documented++;
            int found = 0;
            for (int i = 0; i < routes_count; i++)
                found |=
                    !strcmp(routes_table[i].pattern, p) && !strcmp(routes_table[i].method_name, M);
            ck_assert_msg(found, "documented but not routed: %s %s", M, p);
        }
    }
    for (int i = 0; i < routes_count; i++) {
        char m[8];
        snprintf(m, sizeof m, "%s", routes_table[i].method_name);
        for (char *q = m; *q; q++)
            *q = (char)(*q + 32 * (*q >= 'A' && *q <= 'Z'));
        ck_assert_msg(json_object_get(json_object_get(paths, routes_table[i].pattern), m),
                      "routed but not documented: %s %s", routes_table[i].method_name,
                      routes_table[i].pattern);
    }
    ck_assert_int_eq(documented, routes_count);
    json_decref(paths);
}
END_TEST

START_TEST(documented_operations_answer)
{
    json_t *paths = doc_paths();
    static const char *const methods[] = {"GET", "POST", "PATCH", "PUT", "DELETE"};
    const char *p;
    json_t *item;
    json_object_foreach(paths, p, item)
    {
        char path[256];
        fill(p, NULL, path, sizeof path);
        for (int k = 0; k < 5; k++) {
            char lower[8];
            snprintf(lower, sizeof lower, "%s", methods[k]);
            for (char *q = lower; *q; q++)
                *q = (char)(*q + 32);
            json_t *op = json_object_get(item, lower);
            Resp *r;
            if (op && strstr(p, "/stream"))
                r = stream_read(&D, who(op), path, 300, 0);
            else
                r = req(&D, op ? who(op) : &arb, methods[k], path, k == 0 ? NULL : "{}");
            if (op)
                ck_assert_msg(strcmp(resp_code(r), "no_route") && r->status != 405 &&
                                  r->status < 500 && r->status >= 200,
                              "%s %s: %ld %s", methods[k], path, r->status, r->body);
            else
                ck_assert_msg(r->status == 405 && !strcmp(resp_code(r), "method_not_allowed"),
                              "undocumented %s %s: %ld", methods[k], path, r->status);
            resp_free(r);
        }
    }
    json_decref(paths);
    /* And a path that is not documented at all. */
    Resp *r = req(&D, NULL, "GET", "/api/v1/nothing/here", NULL);
    ck_assert_int_eq(r->status, 404);
    ck_assert_str_eq(resp_code(r), "no_route");
    resp_free(r);
}
END_TEST

static int count_rows(void)
{
    int n = 0;
    Resp *r = req(&D, NULL, "GET", "/api/v1/tournaments", NULL);
    n += (int)json_array_size(r->json);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/players", (long long)tid);
    n += (int)json_array_size(r->json);
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    n += (int)json_array_size(r->json);
    n += (int)json_array_size(json_object_get(json_array_get(r->json, 0), "games"));
    resp_free(r);
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gid);
    n += (int)json_array_size(json_object_get(r->json, "events"));
    resp_free(r);
    return n;
}

START_TEST(malformed_bodies_everywhere)
{
    json_t *paths = doc_paths();
    int before = count_rows(), checked = 0;
    char *big = malloc(70 * 1024 + 32);
    strcpy(big, "{\"name\":\"");
    memset(big + 9, 'x', 70 * 1024);
    strcpy(big + 9 + 70 * 1024, "\"}");
    static const struct {
        const char *body, *ctype, *code;
        long status;
    } bad[] = {
        {"{", NULL, "bad_json", 400},
        {"{\"a\":1,}", NULL, "bad_json", 400},
        {"[1,2]", NULL, "bad_json", 400},
        {"\"text\"", NULL, "bad_json", 400},
        {"{\"zzz_unknown\":1}", NULL, "unknown_field", 400},
        {"{\"ply\":1,\"ply\":2}", NULL, "bad_json", 400},
        {"{}", "text/plain", "unsupported_media_type", 415},
        {"name=x", "application/x-www-form-urlencoded", "unsupported_media_type", 415},
        {NULL, NULL, "too_large", 413},
    };
    const char *p;
    json_t *item;
    json_object_foreach(paths, p, item)
    {
        const char *m;
        json_t *op;
        json_object_foreach(item, m, op)
        {
            if (!strcmp(m, "get") || !strcmp(p, "/auth/logout"))
                continue;
            char M[8], path[256];
            upper(m, M);
            fill(p, NULL, path, sizeof path);
            for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                const char *body = bad[i].body ? bad[i].body : big;
                Resp *r = req_raw(&D, who(op), M, path, body, strlen(body), bad[i].ctype);
                ck_assert_msg(r->status == bad[i].status && !strcmp(resp_code(r), bad[i].code),
                              "%s %s with %.20s: %ld %s (wanted %ld %s)", M, path, body, r->status,
                              r->body ? r->body : "", bad[i].status, bad[i].code);
                ck_assert_ptr_nonnull(
                    json_object_get(json_object_get(r->json, "error"), "message"));
                checked++;
                resp_free(r);
            }
        }
    }
    free(big);
    json_decref(paths);
    ck_assert_int_ge(checked, 9 * 30);
    ck_assert_int_eq(count_rows(), before);
}
END_TEST

START_TEST(wrong_types_and_values)
{
    static const struct {
        const char *method, *path, *body, *code;
        int who; /* 0 arbiter, 1 white */
    } cases[] = {
        {"POST", "/tournaments", "{\"name\":5,\"time_control\":\"60\"}", "wrong_type", 0},
        {"POST", "/tournaments", "{\"time_control\":\"60\"}", "missing_field", 0},
        {"POST", "/tournaments", "{\"name\":\"X\",\"time_control\":\"sandclock\"}", "invalid_value",
         0},
        {"POST", "/tournaments",
         "{\"name\":\"X\",\"time_control\":\"60\",\"settings\":{\"flags\":\"maybe\"}}",
         "invalid_value", 0},
        {"POST", "/tournaments",
         "{\"name\":\"X\",\"time_control\":\"60\",\"settings\":{\"nope\":1}}", "unknown_field", 0},
        {"POST", "/tournaments", "{\"name\":\"\",\"time_control\":\"60\"}", "invalid_value", 0},
        {"POST", "/tournaments", "{\"name\":\"X\",\"time_control\":\"60\",\"rounds\":1000}",
         "invalid_value", 0},
        {"POST", "/tournaments/T/players", "{\"name\":\"X\",\"rating\":\"high\"}", "wrong_type", 0},
        {"POST", "/tournaments/T/players", "{\"name\":\"X\",\"rating\":-5}", "invalid_value", 0},
        {"POST", "/tournaments/T/rounds", "{\"pairings\":[{\"white_id\":1}]}", "missing_field", 0},
        {"POST", "/tournaments/T/rounds", "{\"pairings\":[5]}", "wrong_type", 0},
        {"POST", "/tournaments/T/rounds", "{\"pairings\":[{\"white_id\":1,\"black_id\":1}]}",
         "invalid_value", 0},
        {"POST", "/tournaments/T/rounds", "{\"pairings\":[{\"white_id\":1,\"black_id\":99999}]}",
         "invalid_value", 0},
        {"POST", "/games/G/move", "{\"ply\":\"0\",\"move\":\"e4\"}", "wrong_type", 1},
        {"POST", "/games/G/move", "{\"move\":\"e4\"}", "missing_field", 1},
        {"POST", "/games/G/move", "{\"ply\":-1,\"move\":\"e4\"}", "invalid_value", 1},
        {"POST", "/games/G/move", "{\"ply\":0,\"move\":\"\"}", "invalid_value", 1},
        {"POST", "/games/G/claim", "{\"claim\":\"boredom\"}", "invalid_value", 1},
        {"POST", "/games/G/arbiter/adjust", "{\"side\":\"green\"}", "invalid_value", 0},
        {"POST", "/games/G/arbiter/penalty",
         "{\"side\":\"white\",\"penalty\":\"warning\",\"ms\":\"1\"}", "wrong_type", 0},
        {"POST", "/games/G/arbiter/result", "{\"white\":\"1\",\"black\":0}", "wrong_type", 0},
        {"POST", "/auth/login", "{\"username\":\"arbiter\"}", "missing_field", 0},
        {"POST", "/auth/player", "{\"pin\":\"1234\"}", "missing_field", 0},
        {"PATCH", "/tournaments/T/alerts/A", "{\"resolved\":1}", "wrong_type", 0},
        /* Control characters in text: CR/LF would inject TRF or PGN lines. */
        {"POST", "/tournaments", "{\"name\":\"Open\\r\\n001 9999\",\"time_control\":\"60\"}",
         "invalid_value", 0},
        {"POST", "/tournaments",
         "{\"name\":\"X\",\"time_control\":\"60\",\"place\":\"Sofia\\u001b[2J\"}", "invalid_value",
         0},
        {"POST", "/tournaments/T/players", "{\"name\":\"Ivanov,\\nIvan\"}", "invalid_value", 0},
        {"POST", "/tournaments/T/players", "{\"name\":\"X\",\"federation\":\"B\\tG\"}",
         "invalid_value", 0},
        {"POST", "/tournaments/T/players", "{\"name\":\"X\\u0085Y\"}", "invalid_value", 0},
        {"POST", "/tournaments/T/players", "{\"name\":\"X\\u007fY\"}", "invalid_value", 0},
    };
    int before = count_rows();
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256] = "/api/v1";
        for (const char *q = cases[i].path; *q; q++) {
            size_t k = strlen(path);
            if (*q == 'T')
                snprintf(path + k, sizeof path - k, "%lld", (long long)tid);
            else if (*q == 'G')
                snprintf(path + k, sizeof path - k, "%lld", (long long)gid);
            else if (*q == 'A')
                snprintf(path + k, sizeof path - k, "%lld", (long long)aid);
            else {
                path[k] = *q;
                path[k + 1] = 0;
            }
        }
        Resp *r = req(&D, cases[i].who ? &white : &arb, cases[i].method, path, cases[i].body);
        ck_assert_msg(r->status == 400 && !strcmp(resp_code(r), cases[i].code),
                      "%s %s %s: %ld %s (wanted %s)", cases[i].method, path, cases[i].body,
                      r->status, r->body ? r->body : "", cases[i].code);
        resp_free(r);
    }
    ck_assert_int_eq(count_rows(), before);
}
END_TEST

START_TEST(unknown_ids_everywhere)
{
    json_t *paths = doc_paths();
    const char *p;
    json_t *item;
    int checked = 0;
    json_object_foreach(paths, p, item)
    {
        if (!strchr(p, '{'))
            continue;
        const char *m;
        json_t *op;
        json_object_foreach(item, m, op)
        {
            char M[8];
            upper(m, M);
            static const char *const ids[] = {"999999", "0", "abc", "-1", "99999999999999999999"};
            for (int k = 0; k < 5; k++) {
                char path[256];
                fill(p, ids[k], path, sizeof path);
                const Client *c = who(op);
                if (!strcmp(json_string_value(json_object_get(op, "x-role")), "public"))
                    c = &arb;
                Resp *r = strstr(p, "/stream")
                              ? stream_read(&D, c, path, 300, 0)
                              : req(&D, c, M, path, strcmp(M, "GET") ? "{}" : NULL);
                /* A player's routes answer 404 for an unknown game; the
                 * routes of a tournament with parameters in the wrong
                 * place likewise. */
                ck_assert_msg(r->status == 404, "%s %s: %ld %s", M, path, r->status,
                              r->body ? r->body : "");
                checked++;
                resp_free(r);
            }
        }
    }
    json_decref(paths);
    ck_assert_int_ge(checked, 5 * 40);
}
END_TEST

/* A browser may send a long head (other cookies of the site, long
 * headers of a proxy): 6 KB of them still get a signed-in write through.
 * A head of 64 KB is refused with 431 and the server goes on serving. */
START_TEST(long_request_heads)
{
    static char pad[6001], huge[64 * 1024 + 1];
    memset(pad, 'x', sizeof pad - 1);
    memset(huge, 'y', sizeof huge - 1);
    char cookie[6400], csrf[128];
    snprintf(cookie, sizeof cookie, "Cookie: %s; prefs=%s", arb.cookie, pad);
    snprintf(csrf, sizeof csrf, "X-CSRF-Token: %s", arb.csrf);
    const char *const hs[] = {cookie, csrf, NULL};
    Resp *r = req_hdr(&D, "POST", "/api/v1/tournaments",
                      "{\"name\":\"Long heads\",\"time_control\":\"5400+30\"}", hs);
    ck_assert_msg(r->status == 201, "%ld %s", r->status, r->body ? r->body : "");
    resp_free(r);

    char *big = malloc(sizeof huge + 16);
    ck_assert_ptr_nonnull(big);
    snprintf(big, sizeof huge + 16, "X-Pad: %s", huge);
    const char *const hb[] = {big, NULL};
    r = req_hdr(&D, "GET", "/api/v1/tournaments", NULL, hb);
    ck_assert_int_eq(r->status, 431);
    resp_free(r);
    free(big);

    r = req(&D, NULL, "GET", "/api/v1/tournaments", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_ptr_nonnull(json_array_get(r->json, 1)); /* the two tournaments */
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-input");
    TCase *tc = tcase_create("input");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, document_matches_route_table);
    tcase_add_test(tc, documented_operations_answer);
    tcase_add_test(tc, malformed_bodies_everywhere);
    tcase_add_test(tc, wrong_types_and_values);
    tcase_add_test(tc, unknown_ids_everywhere);
    tcase_add_test(tc, long_request_heads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
