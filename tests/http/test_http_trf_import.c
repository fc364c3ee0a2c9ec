/*
 * test_http_trf_import.c — a whole tournament created from a TRF through a
 * real daemon (POST /tournaments/import).  Every file of the committed
 * corpora (tests/data/dutch/corpus, tests/data/trf) is imported, exported
 * as TRF-2026, imported again and exported again: the two exports are
 * identical, and the players' lines of the first (start rank, name,
 * rating, federation, FIDE ID, birth and every round) are those of
 * the source file (points aside, which are the results' sum).  A bad file is refused with its line
 * and writes nothing.  The 192 code gives the Swiss system and acceleration.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static Resp *import(const char *text, size_t len)
{
    json_t *b = json_pack("{s:s%}", "trf", text, len);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments/import", body);
    free(body);
    return r;
}

/* Imports TEXT and answers the new tournament's TRF-2026 (malloc'd). */
static char *import_export(const char *name, const char *text, size_t len)
{
    Resp *r = import(text, len);
    ck_assert_msg(r->status == 201, "%s: %ld %s", name, r->status, r->body);
    int64_t tid = jint(json_object_get(r->json, "tournament"), "id");
    resp_free(r);
    r = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf?flavour=26", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    char *out = strdup(r->body);
    resp_free(r);
    return out;
}

/* The title of columns 11-13 of the 001 line L in today's spelling (older
 * files write g, m, f, c and wg, wm, ... for them), into OUT. */
static void title_of(const char *l, size_t len, char out[4])
{
    static const char *const old[] = {"g", "m", "f", "c", "wg", "wm", "wf", "wc"};
    static const char *const now[] = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"};
    char t[4] = "";
    for (size_t i = 10, k = 0; i < 13 && i < len; i++)
        if (l[i] != ' ')
            t[k++] = l[i];
    for (int i = 0; i < 8; i++)
        if (strcmp(t, old[i]) == 0)
            snprintf(t, sizeof t, "%s", now[i]);
    snprintf(out, 4, "%-3s", t);
}

/* The byte offset of column COL (0-based, counted in characters: a UTF-8
 * sequence is one) of the line L of LEN bytes. */
static size_t col_at(const char *l, size_t len, size_t col)
{
    size_t i = 0;
    for (size_t c = 0; i < len && c < col; c++) {
        i++;
        while (i < len && ((unsigned char)l[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* The 001 lines of TEXT (lines end in CR, LF or both), each cut to what a
 * report says of the player and his games: columns 1-80 and 92 on, trailing
 * blanks removed; at most ROUNDS rounds. */
static char *player_lines(const char *text, size_t rounds)
{
    size_t cap = strlen(text) + 1, o = 0;
    char *out = calloc(1, cap);
    for (const char *l = text; *l;) {
        size_t len = strcspn(l, "\r\n");
        if (len > 4 && strncmp(l, "001 ", 4) == 0) {
            /* Points (81-84) are the sum of the results compared below, and
             * a file may count a bye announced for the next round in. */
            size_t a = col_at(l, len, 80), r = col_at(l, len, 91);
            memcpy(out + o, l, a);
            if (a >= 13)
                title_of(l, len, out + o + 10);
            out[o + 13] = a > 13 ? l[13] : ' ';
            /* An unrated player's rating written as 0 or left blank. */
            size_t rt = col_at(l, len, 48);
            if (a >= rt + 4 && strncmp(out + o + rt, "   0", 4) == 0)
                out[o + rt + 3] = ' ';
            o += a;
            /* Only the rounds paired: the byes announced for the round to
             * pair are no games yet. */
            size_t games = len > r ? len - r : 0;
            if (games > rounds * 10)
                games = rounds * 10;
            memcpy(out + o, l + r, games);
            /* W D L (a game shorter than a move) come back as played. */
            for (size_t k = 7; k < games; k += 10)
                out[o + k] = out[o + k] == 'W'   ? '1'
                             : out[o + k] == 'D' ? '='
                             : out[o + k] == 'L' ? '0'
                                                 : out[o + k];
            o += games;
            while (o > 0 && out[o - 1] == ' ')
                o--;
            out[o++] = '\n';
        }
        l += len;
        l += strspn(l, "\r\n");
    }
    out[o] = 0;
    return out;
}

static int round_trip(const char *dir, const char *file)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len = 0;
    char *src = testutil_read(path, &len);
    ck_assert_ptr_nonnull(src);
    char *one = import_export(file, src, len);
    char *two = import_export(file, one, strlen(one));
    ck_assert_msg(strcmp(one, two) == 0, "%s: export, import, export differs", file);
    size_t rounds = (strcspn(strstr(one, "\r001 ") + 1, "\r") - 91 + 9) / 10;
    char *a = player_lines(src, rounds), *b = player_lines(one, rounds);
    /* The first line that differs, both ways. */
    size_t at = 0;
    while (a[at] && a[at] == b[at])
        at++;
    while (at > 0 && a[at - 1] != '\n')
        at--;
    ck_assert_msg(strcmp(a, b) == 0, "%s: players differ:\n%.*s\n%.*s", file,
                  (int)strcspn(a + at, "\n"), a + at, (int)strcspn(b + at, "\n"), b + at);
    free(a);
    free(b);
    free(one);
    free(two);
    free(src);
    return 1;
}

static int corpus(const char *sub)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", testutil_data_dir(), sub);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".trf"))
            files += round_trip(dir, e->d_name);
    closedir(d);
    return files;
}

START_TEST(corpus_export_import_export)
{
    int files = corpus("dutch/corpus") + corpus("trf");
    ck_assert_int_ge(files, 40);
    fprintf(stderr, "%d files imported, exported and imported again\n", files);
}
END_TEST

START_TEST(bad_file_refused_with_its_line)
{
    static const char bad[] = "012 Broken\r"
                              "001    1 m    Alpha, Ann                        2100 BUL      "
                              "1234567 1990/01/01  1.0    1     2 w 1\r"
                              "001    2 m    Beta, Bob                         2000 BUL      "
                              "7654321 1991/01/01  1.0    2     1 b 1\r";
    Resp *r = import(bad, strlen(bad));
    ck_assert_int_eq(r->status, 400);
    json_t *e = json_object_get(r->json, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_value");
    ck_assert_int_eq(jint(e, "line"), 2);
    resp_free(r);
    /* A file the reader takes but the server cannot hold: a full-point bye. */
    static const char fpb[] = "012 Bye\r"
                              "001    1 m    Alpha, Ann                        2100 BUL     "
                              "1234567 1990/01/01  1.0    1  0000 - F\r"
                              "001    2 m    Beta, Bob                         2000 BUL     "
                              "7654321 1991/01/01  0.0    2  0000 - Z\r";
    r = import(fpb, strlen(fpb));
    ck_assert_msg(r->status == 400, "%s", r->body);
    ck_assert_msg(strstr(r->body, "line 2"), "%s", r->body);
    resp_free(r);
    r = import("", 0);
    ck_assert_int_eq(r->status, 400);
    resp_free(r);
    /* Nothing was written. */
    r = req(&D, &arb, "GET", "/api/v1/tournaments", NULL);
    ck_assert_int_eq(json_array_size(r->json), 0);
    resp_free(r);
    r = req(&D, NULL, "POST", "/api/v1/tournaments/import", "{\"trf\":\"012 X\"}");
    ck_assert_int_eq(r->status, 401);
    resp_free(r);
}
END_TEST

/* The 192 line names the Swiss system and acceleration of the imported
 * tournament, in TRF-2026's codes and the older spellings alike; a Dutch
 * file of the 2017 rules and a system the server cannot pair are named in
 * the warnings. */
START_TEST(system_from_192)
{
    static const struct {
        const char *code, *system, *accel, *warning;
    } CASES[] = {
        {"FIDE_DUTCH_2026", "dutch", "none", NULL},
        {"FIDE_DUTCH_2026_BAKU", "dutch", "baku", NULL},
        {"FIDE_DUTCH_2025", "dutch", "none", NULL},
        {"FIDE_DUTCH_BAKU", "dutch", "baku", NULL},
        {"FIDE_BURSTEIN", "burstein", "none", NULL},
        {"FIDE_BURSTEIN_BAKU", "burstein", "baku", NULL},
        {"FIDE_DUTCH_2017", "dutch", "none", "rules of 2017"},
        {"FIDE_DUBOV", "dutch", "none", "FIDE_DUBOV"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "012 System %s\r192 %s\r"
                 "001    1 m    Alpha, Ann                        2100 BUL     "
                 "1234567 1990/01/01  1.0    1     2 w 1\r"
                 "001    2 m    Beta, Bob                         2000 BUL     "
                 "7654321 1991/01/01  0.0    2     1 b 0\r",
                 CASES[i].code, CASES[i].code);
        Resp *r = import(text, strlen(text));
        ck_assert_msg(r->status == 201, "%s: %s", CASES[i].code, r->body);
        json_t *t = json_object_get(r->json, "tournament");
        ck_assert_str_eq(json_string_value(json_object_get(t, "pairing_system")), CASES[i].system);
        ck_assert_str_eq(json_string_value(json_object_get(t, "acceleration")), CASES[i].accel);
        char *warnings = json_dumps(json_object_get(r->json, "warnings"), 0);
        if (CASES[i].warning)
            ck_assert_msg(strstr(warnings, CASES[i].warning), "%s: %s", CASES[i].code, warnings);
        else
            ck_assert_msg(!strstr(warnings, "192") && !strstr(warnings, "rules"), "%s: %s",
                          CASES[i].code, warnings);
        free(warnings);
        resp_free(r);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http-trf-import");
    TCase *tc = tcase_create("trf-import");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, bad_file_refused_with_its_line);
    tcase_add_test(tc, corpus_export_import_export);
    tcase_add_test(tc, system_from_192);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
