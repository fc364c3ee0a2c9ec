/*
 * test_http_hall.c — the printed documents of the playing hall from a real
 * daemon: pairings by board and alphabetical, board cards, result slips
 * and the wall standings, in English, Russian and Bulgarian, on A4 and
 * Letter.
 *
 * Each page must carry the words of its language (written out here, not
 * read from the translation files), every player's name, the paper size
 * in its print style, and a Content-Security-Policy that allows exactly
 * its one style.  A draft round's documents stay with the arbiters; bad
 * choices answer 400 with a JSON error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "security.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static const char *const names[] = {"Ivanova, Maria", "Петров, Иван", "Георгиев, Кирил",
                                    "Smith, Anna", "Müller, Hans"};
enum { N_PLAYERS = 5 };

static const char *const langs[] = {"en", "ru", "bg"};
static const char *const docs[] = {"board", "alpha", "cards", "slips"};

/* Per language: the words of each document (a NULL ends a list). */
static const char *const words[3][4][5] = {
    {{"Round 1: pairings by board", "White", "Black", "Result", NULL},
     {"Round 1: pairings in alphabetical order", "White", "Black", "bye (PAB)", NULL},
     {"Round 1: board cards", "Board", NULL},
     {"Round 1: result slips", "Result slip", "White&#39;s signature", "Arbiter&#39;s signature",
      NULL}},
    {{"Тур 1: пары по доскам", "Белые", "Чёрные", "Результат", NULL},
     {"Тур 1: пары по алфавиту", "Белые", "Чёрные", NULL},
     {"Тур 1: номера досок", "Доска", NULL},
     {"Тур 1: бланки результатов", "Бланк результата", "Подпись белых", "Подпись арбитра", NULL}},
    {{"Кръг 1: двойки по дъски", "Бели", "Черни", "Резултат", NULL},
     {"Кръг 1: двойки по азбучен ред", "Бели", "Черни", NULL},
     {"Кръг 1: номера на дъските", "Дъска", NULL},
     {"Кръг 1: фишове за резултат", "Фиш за резултат", "Подпис на белите", "Подпис на съдията",
      NULL}},
};

static int64_t new_event(void)
{
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments",
                  "{\"name\":\"Hall Open\",\"time_control\":\"60\"}");
    ck_assert_msg(r->status == 201, "%s", r->body);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", "{\"system\":\"swiss\",\"rounds\":3}", "/api/v1/tournaments/%lld",
             (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    for (int i = 0; i < N_PLAYERS; i++) {
        char body[160];
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"rating\":%d}", names[i], 2200 - 50 * i);
        r = reqf(&D, &arb, "POST", body, "/api/v1/tournaments/%lld/players", (long long)tid);
        ck_assert_msg(r->status == 201, "%s", r->body);
        resp_free(r);
    }
    return tid;
}

/* Starts round 1 of TID and gives every game a draw. */
static void play_round_one(int64_t tid)
{
    Resp *r =
        reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    ck_assert_msg(r->status == 200, "start: %s", r->body);
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    json_t *games = json_incref(json_object_get(r->json, "games"));
    resp_free(r);
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        r = reqf(&D, &arb, "POST", "{\"white\":0.5,\"black\":0.5}",
                 "/api/v1/games/%lld/arbiter/result", (long long)jint(g, "id"));
        ck_assert_msg(r->status == 200, "result: %s", r->body);
        resp_free(r);
    }
    json_decref(games);
}

/* The header NAME's value in R (up to the line end) into OUT. */
static void header_of(const Resp *r, const char *name, char *out, size_t cap)
{
    out[0] = 0;
    const char *at = strcasestr(r->headers, name);
    if (!at)
        return;
    at += strlen(name) + 1;
    while (*at == ' ')
        at++;
    size_t n = strcspn(at, "\r\n");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), at);
}

/* A hall page: HTML, its style allowed by hash, on PAPER, every name. */
static void check_page(const Resp *r, const char *paper)
{
    ck_assert_msg(r->status == 200, "%ld %s", r->status, r->body);
    char ctype[120], csp[300], hash[64];
    header_of(r, "Content-Type", ctype, sizeof ctype);
    ck_assert_msg(strncmp(ctype, "text/html", 9) == 0, "%s", ctype);
    const char *a = strstr(r->body, "<style>"), *b = strstr(r->body, "</style>");
    ck_assert(a && b && b > a);
    a += 7;
    char size[40];
    snprintf(size, sizeof size, "@page{size:%s;", strcmp(paper, "a4") ? "letter" : "A4");
    ck_assert_msg(memmem(a, (size_t)(b - a), size, strlen(size)), "no %s", size);
    security_csp_hash(a, (size_t)(b - a), hash, sizeof hash);
    header_of(r, "Content-Security-Policy", csp, sizeof csp);
    ck_assert_msg(strstr(csp, hash), "%s vs %s", csp, hash);
    ck_assert_ptr_null(strstr(r->body, "<script"));
    for (int i = 0; i < N_PLAYERS; i++)
        ck_assert_msg(strstr(r->body, names[i]), "no %s", names[i]);
}

START_TEST(every_document_in_every_language)
{
    int64_t tid = new_event();
    Resp *r = reqf(&D, &arb, "POST", "{\"publish\":true}", "/api/v1/tournaments/%lld/rounds",
                   (long long)tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    for (int l = 0; l < 3; l++)
        for (int d = 0; d < 4; d++) {
            const char *paper = (l + d) % 2 ? "letter" : "a4";
            r = reqf(&D, &arb, "GET", NULL,
                     "/api/v1/tournaments/%lld/rounds/1/hall?doc=%s&paper=%s&lang=%s",
                     (long long)tid, docs[d], paper, langs[l]);
            check_page(r, paper);
            for (int w = 0; words[l][d][w]; w++)
                ck_assert_msg(strstr(r->body, words[l][d][w]), "%s/%s: no '%s'", langs[l], docs[d],
                              words[l][d][w]);
            if (d == 2) /* two boards, two cards */
                ck_assert_ptr_nonnull(strstr(r->body, "class=\"no\">2<"));
            if (d == 3)
                ck_assert(strstr(r->body, "1-0") && strstr(r->body, "\xc2\xbd-\xc2\xbd") &&
                          strstr(r->body, "0-1"));
            resp_free(r);
        }
    /* Published or not, the round's documents are the arbiters'. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/hall?doc=slips",
             (long long)tid);
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
    /* The wall standings are public: the start list, and after the round
     * is played, the standings. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/hall?lang=bg", (long long)tid);
    check_page(r, "a4");
    ck_assert_msg(strstr(r->body, "Стартов списък"), "%s", r->body);
    resp_free(r);
    play_round_one(tid);
    static const char *const wall[] = {"Standings after round 1", "Положение после тура 1",
                                       "Класиране след кръг 1"};
    for (int l = 0; l < 3; l++) {
        r = reqf(&D, NULL, "GET", NULL,
                 "/api/v1/tournaments/%lld/hall?doc=standings&paper=%s&lang=%s", (long long)tid,
                 l == 1 ? "letter" : "a4", langs[l]);
        check_page(r, l == 1 ? "letter" : "a4");
        ck_assert_ptr_nonnull(strstr(r->body, "class=\"wall\""));
        ck_assert_msg(strstr(r->body, wall[l]), "%s", r->body);
        resp_free(r);
    }
}
END_TEST

static void expect_400(const Client *c, const char *path)
{
    Resp *r = req(&D, c, "GET", path, NULL);
    ck_assert_msg(r->status == 400, "%s: %ld", path, r->status);
    ck_assert_ptr_nonnull(r->json);
    ck_assert_str_eq(resp_code(r), "invalid_value");
    resp_free(r);
}

START_TEST(draft_stays_with_the_arbiters)
{
    int64_t tid = new_event();
    Resp *r = reqf(&D, &arb, "POST", "{}", "/api/v1/tournaments/%lld/rounds", (long long)tid);
    ck_assert_msg(r->status == 201, "%s", r->body);
    resp_free(r);
    for (int d = 0; d < 4; d++) {
        r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/hall?doc=%s",
                 (long long)tid, docs[d]);
        /* The draft is not there for the public at all. */
        ck_assert_msg(r->status == 404, "%ld %s", r->status, r->body);
        ck_assert_ptr_null(strstr(r->body, names[0]));
        resp_free(r);
        /* As the desk links it: the lists' ?format= is let be. */
        r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/1/hall?doc=%s&format=html",
                 (long long)tid, docs[d]);
        check_page(r, "a4");
        resp_free(r);
    }
    char path[120];
    const char *bad[] = {"doc=wall", "paper=a3", "lang=de", "doc=", "paper=A4"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds/1/hall?%s", (long long)tid,
                 bad[i]);
        expect_400(&arb, path);
    }
    const char *bad_wall[] = {"doc=board", "paper=legal", "lang=fr"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/hall?%s", (long long)tid,
                 bad_wall[i]);
        expect_400(NULL, path);
    }
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/7/hall", (long long)tid);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-hall");
    TCase *tc = tcase_create("hall");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_document_in_every_language);
    tcase_add_test(tc, draft_stays_with_the_arbiters);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
