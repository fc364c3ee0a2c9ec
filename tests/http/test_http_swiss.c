/*
 * test_http_swiss.c — a Swiss tournament's pairing system (Dutch or
 * Burstein) and Baku acceleration through the API of a real daemon.
 *
 * Outside truths: the Baku rule of C.04.7 (the first half of the players by
 * pairing number, the larger half when odd, carry one virtual point in the
 * first accelerated rounds), the rule that virtual points only form the
 * scoregroups (standings count results alone), and the command line's own
 * pairing engines: every round the daemon paired must be what
 * `arbiter check --dutch|--burstein` pairs again from the exported report,
 * which must name the system and acceleration on its 192 line as
 * bbpPairings reads it; with BBPPAIRINGS set, bbpPairings' own checker
 * agrees too.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* The string member K of O, "(none)" when absent. */
static const char *field(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "(none)";
}

/* A Swiss of ROUNDS rounds with EXTRA fields (",\"k\":v..." or ""). */
static int64_t tournament(int rounds, const char *extra)
{
    char body[300];
    snprintf(body, sizeof body,
             "{\"name\":\"Swiss\",\"time_control\":\"5400+30\",\"system\":\"swiss\","
             "\"rounds\":%d%s}",
             rounds, extra);
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments", body);
    ck_assert_msg(r->status == 201, "%s", r->body);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    return tid;
}

/* N players rated 2000, 1990, ... so that pairing numbers follow the order
 * of registration; their ids into P. */
static void players(int64_t tid, int n, int64_t *p)
{
    for (int i = 0; i < n; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"name\":\"Player %02d\",\"rating\":%d}", i + 1,
                 2000 - 10 * i);
        Resp *r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players", (long long)tid);
        ck_assert_msg(r->status == 201, "%s", r->body);
        p[i] = jint(json_object_get(r->json, "player"), "id");
        resp_free(r);
    }
}

/* Pairs the next round; the answer (caller frees). */
static Resp *pair(int64_t tid)
{
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_msg(r->status == 201, "pair: %s", r->body);
    return r;
}

/* The virtual points the pairing answer R gives player PID (0 if none). */
static double virtual_of(const Resp *r, int64_t pid)
{
    json_t *v = json_object_get(r->json, "virtual_points");
    ck_assert_msg(json_is_array(v), "no virtual_points in %s", r->body);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) if (jint(e, "player_id") ==
                                    pid) return json_number_value(json_object_get(e, "points"));
    return 0;
}

/* Exports the TRF-2026 report, asserts it carries LINE192, and runs
 * `arbiter check SYSTEM` on it: every round must be paired again alike. */
static void check_report(int64_t tid, const char *line192, const char *system, int rounds)
{
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    char want[64];
    snprintf(want, sizeof want, "\r192 %s\r", line192);
    ck_assert_msg(strstr(r->body, want) != NULL, "no '%s' in %s", line192, r->body);
    char path[400];
    snprintf(path, sizeof path, "%s/swiss-%lld.trf", D.dir, (long long)tid);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(r->body, 1, r->len, f);
    fclose(f);
    harness_bbp_check(&D, r->body, r->len, system, rounds);
    resp_free(r);
    char cmd[1000], out[4096] = "";
    snprintf(cmd, sizeof cmd, "'%s' check %s '%s' 2>&1", getenv("ARBITER_BIN"), system, path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = 0;
    int st = pclose(p);
    char last[64];
    snprintf(last, sizeof last, "%d rounds checked, 0 differ\n", rounds);
    ck_assert_msg(st == 0 && strstr(out, last), "arbiter check %s: %s", system, out);
}

/* The criteria report of round RN names nothing: the round is the engine's. */
static void check_clean(int64_t tid, int rn)
{
    Resp *r =
        reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d/check", (long long)tid, rn);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(json_array_size(json_object_get(r->json, "violations")) == 0 &&
                      json_is_false(json_object_get(r->json, "engine_differs")),
                  "round %d: %s", rn, r->body);
    resp_free(r);
}

/* GET of round RN, alone and in the list, carries the virtual points the
 * pairing answer PAIRED gave (the desk's pairing views read them there),
 * and the standings never do. */
static void same_virtual_later(int64_t tid, int rn, const Resp *paired)
{
    Resp *one =
        reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%d", (long long)tid, rn);
    Resp *all = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_int_eq(one->status, 200);
    ck_assert_int_eq(all->status, 200);
    json_t *want = json_object_get(paired->json, "virtual_points");
    json_t *got = json_object_get(one->json, "virtual_points");
    json_t *listed = json_object_get(json_array_get(all->json, (size_t)rn - 1), "virtual_points");
    if (json_array_size(want) == 0)
        ck_assert_msg(!got && !listed, "round %d: %s", rn, one->body);
    else
        ck_assert_msg(json_equal(want, got) && json_equal(want, listed), "round %d: %s", rn,
                      one->body);
    resp_free(one);
    resp_free(all);
    Resp *st = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    ck_assert_int_eq(st->status, 200);
    ck_assert_ptr_null(strstr(st->body, "virtual"));
    resp_free(st);
}

START_TEST(settings_are_checked_and_stored)
{
    int64_t tid = tournament(5, "");
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_str_eq(field(r->json, "pairing_system"), "dutch");
    ck_assert_str_eq(field(r->json, "acceleration"), "none");
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"pairing_system\":\"monrad\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"acceleration\":\"sheremetyev\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"pairing_system\":\"burstein\",\"acceleration\":\"baku\"}",
             "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    ck_assert_str_eq(field(r->json, "pairing_system"), "burstein");
    ck_assert_str_eq(field(r->json, "acceleration"), "baku");
    resp_free(r);
    /* an unrelated change keeps them */
    r = reqf(&D, &arb, "PATCH", "{\"place\":\"Plovdiv\"}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_str_eq(field(r->json, "pairing_system"), "burstein");
    ck_assert_str_eq(field(r->json, "acceleration"), "baku");
    resp_free(r);
}
END_TEST

/* Burstein with Baku acceleration, ten players, five rounds: pairing
 * numbers 1-5 carry a whole point in rounds 1 and 2 and a half in round 3
 * (rounds up to (5 - 1) / 2 + 1, the first half of them by a point, as
 * bbpPairings counts them). */
START_TEST(burstein_with_baku)
{
    int64_t tid = tournament(5, ",\"pairing_system\":\"burstein\",\"acceleration\":\"baku\"");
    int64_t p[10];
    players(tid, 10, p);
    static const char *const results[] = {"1=0=1", "=10=1", "1=10=", "0=1=1", "=1=01"};
    for (int rn = 1; rn <= 5; rn++) {
        Resp *r = pair(tid);
        for (int i = 0; i < 10; i++) {
            double want = i < 5 ? (rn <= 2 ? 1.0 : rn == 3 ? 0.5 : 0.0) : 0.0;
            ck_assert_msg(virtual_of(r, p[i]) == want, "round %d player %d: %g virtual points", rn,
                          i + 1, virtual_of(r, p[i]));
        }
        same_virtual_later(tid, rn, r);
        resp_free(r);
        check_clean(tid, rn);
        finish_round(&D, &arb, tid, rn, results[rn - 1]);
        if (rn == 1) {
            /* the standings count the games only */
            double sum = 0;
            for (int i = 0; i < 10; i++)
                sum += points_of(&D, tid, p[i]);
            ck_assert(sum == 5.0);
        }
    }
    check_report(tid, "FIDE_BURSTEIN_BAKU", "--burstein", 5);
}
END_TEST

/* The Dutch with Baku acceleration and an odd field (the PAB). */
START_TEST(dutch_with_baku)
{
    int64_t tid = tournament(4, ",\"acceleration\":\"baku\"");
    int64_t p[9];
    players(tid, 9, p);
    static const char *const results[] = {"1=01", "=10=", "01=1", "1=0="};
    for (int rn = 1; rn <= 4; rn++) {
        Resp *r = pair(tid);
        /* (9 - 1) / 2 = 4: pairing numbers 1-5 carry a point in round 1 */
        ck_assert(virtual_of(r, p[4]) == (rn == 1 ? 1.0 : rn == 2 ? 0.5 : 0.0));
        ck_assert(virtual_of(r, p[5]) == 0.0);
        same_virtual_later(tid, rn, r);
        resp_free(r);
        check_clean(tid, rn);
        finish_round(&D, &arb, tid, rn, results[rn - 1]);
    }
    check_report(tid, "FIDE_DUTCH_2026_BAKU", "--dutch", 4);
}
END_TEST

/* Burstein without acceleration: no virtual points, and the report says so
 * (or a reader would apply Burstein's default). */
START_TEST(burstein_without_acceleration)
{
    int64_t tid = tournament(3, ",\"pairing_system\":\"burstein\"");
    int64_t p[8];
    players(tid, 8, p);
    static const char *const results[] = {"1=0=", "=1=0", "01=1"};
    for (int rn = 1; rn <= 3; rn++) {
        Resp *r = pair(tid);
        ck_assert_int_eq(json_array_size(json_object_get(r->json, "virtual_points")), 0);
        resp_free(r);
        finish_round(&D, &arb, tid, rn, results[rn - 1]);
    }
    check_report(tid, "FIDE_BURSTEIN", "--burstein", 3);
    /* not as a zero 250 record, which TRF-2026 does not allow (its points
     * must be nonzero for individuals): player 1's accelerations, none */
    Resp *r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    ck_assert_ptr_null(strstr(r->body, "\r250 "));
    ck_assert_ptr_nonnull(strstr(r->body, "\rXXA    1\r"));
    resp_free(r);
}
END_TEST

/* The round check judges a Burstein event by the Burstein engine.  Round 1
 * of eight players without acceleration is where the systems part: the
 * Burstein system pairs the top of the scoregroup against its bottom
 * (1-8, 2-7, ...), the Dutch the top half against the bottom half (1-5,
 * 2-6, ...).  The round as paired checks clean; after a hand edit that
 * makes board 1 the Dutch pairing, the check names the difference from
 * the Burstein engine and gives its pairing, with no Dutch quality item. */
START_TEST(burstein_round_checked_as_burstein)
{
    int64_t tid = tournament(5, ",\"pairing_system\":\"burstein\"");
    int64_t p[8];
    players(tid, 8, p);
    Resp *r = pair(tid);
    json_t *b1 = json_array_get(json_object_get(r->json, "games"), 0);
    int64_t top = jint(b1, "white_id") == p[0] ? jint(b1, "black_id") : jint(b1, "white_id");
    ck_assert_msg(top == p[7], "board 1 is not 1 - 8: %s", r->body);
    resp_free(r);
    check_clean(tid, 1);
    /* by hand: 1 meets 5, and 8 takes 5's place */
    char body[96];
    snprintf(body, sizeof body, "{\"first_id\":%lld,\"second_id\":%lld}", (long long)p[4],
             (long long)p[7]);
    r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/rounds/1/swap", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/check", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(field(r->json, "pairing_system"), "burstein");
    ck_assert(json_is_true(json_object_get(r->json, "engine_differs")));
    json_t *items = json_object_get(r->json, "violations");
    ck_assert_int_eq(json_array_size(items), 1);
    ck_assert_str_eq(field(json_array_get(items, 0), "code"), "ENGINE");
    ck_assert_msg(strstr(field(json_array_get(items, 0), "message"), "Burstein"), "%s", r->body);
    /* the engine's pairing is Burstein's: 1 against 8 */
    int found = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r->json, "engine"), i, e)
    {
        int64_t w = jint(e, "white_id"), b = jint(e, "black_id");
        found |= (w == p[0] && b == p[7]) || (w == p[7] && b == p[0]);
    }
    ck_assert_msg(found, "engine: %s", r->body);
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-swiss");
    TCase *tc = tcase_create("swiss");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, settings_are_checked_and_stored);
    tcase_add_test(tc, burstein_with_baku);
    tcase_add_test(tc, dutch_with_baku);
    tcase_add_test(tc, burstein_without_acceleration);
    tcase_add_test(tc, burstein_round_checked_as_burstein);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
