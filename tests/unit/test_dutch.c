/*
 * test_dutch.c — the Dutch pairing engine against bbpPairings v6.
 *
 * Outside truths:
 *  - tests/data/dutch/corpus/: tournaments made by bbpPairings' random
 *    tournament generator, which pairs every round with its own engine; every
 *    round is re-paired here and must equal the file (colours included).
 *    Rounds listed in tests/data/dutch/known_differences.txt are reported, not
 *    failed; any other difference fails.
 *  - tests/data/dutch/bbp/: bbpPairings' public Dutch test cases (input and
 *    expected output, byte for byte in its output format).
 *  - tests/data/dutch/baku/: the same histories cut after a round, with a
 *    192 FIDE_DUTCH_BAKU line, and bbpPairings' pairing of the next round.
 *  - tests/data/dutch/special/: such histories with forbidden pairs and
 *    absences for the round to pair, and bbpPairings' pairing of it.
 *  - small hand-made cases whose answer follows from the rules (C.04.3 and
 *    C.04.2 board order), each also confirmed with bbpPairings.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dutch.h"
#include "trf.h"
#include "testutil.h"
#include "testutil_pairing.h"

/* bbpPairings' output format */
static void format_pairing(const DutchPairing *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%d\n", p->n_pairs);
    for (int i = 0; i < p->n_pairs && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%d %d\n", p->pairs[i].white, p->pairs[i].black);
}

/* ---- the generated corpus ---- */

START_TEST(corpus_rounds_equal_bbp)
{
    TestutilCorpusCount c = testutil_corpus_pair("dutch", dutch_pair_round, 20);
    ck_assert_msg(c.unexpected == 0, "%d rounds differ from bbpPairings", c.unexpected);
}
END_TEST

/* ---- bbpPairings' own test cases ---- */

static void bbp_case_in(const char *dir, const char *name)
{
    char topic[64], file[256];
    snprintf(topic, sizeof topic, "dutch/%s", dir);
    snprintf(file, sizeof file, "%s.input", name);
    Tournament *t = testutil_trf_load(topic, file, TRF_READ_NO_POINTS_CHECK);
    snprintf(file, sizeof file, "%s.output.expected", name);
    char *want = testutil_load(topic, file, NULL);
    /* the expected files may end lines in CR */
    for (char *c = want; *c; c++)
        if (*c == '\r')
            *c = '\n';
    DutchPairing p;
    char err[200] = "";
    int rc = dutch_pair_round(t, dutch_next_round(t), &p, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: rc %d: %s", name, rc, err);
    char got[8192];
    format_pairing(&p, got, sizeof got);
    ck_assert_str_eq(got, want);
    dutch_pairing_free(&p);
    free(want);
    tournament_free(t);
}

static void bbp_case(const char *name)
{
    bbp_case_in("bbp", name);
}

/* Baku acceleration (192 FIDE_DUTCH_BAKU) on corpus histories cut after
 * some round; expected output from bbpPairings' -p on the same file. */
START_TEST(baku_acceleration)
{
    static const char *const cases[] = {"seed0005_2", "seed0010_1", "seed0013_3",
                                        "seed0020_4", "seed0027_2", "seed0029_5"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bbp_case_in("baku", cases[i]);
}
END_TEST

/* Forbidden pairs (XXP, 260) naming boards bbpPairings would otherwise
 * pair, a 240 half-point bye, and absences (Z, H, F) written in the column
 * of the round to pair; expected output from bbpPairings on the same file. */
START_TEST(forbidden_pairs_and_absences)
{
    static const char *const cases[] = {"seed0003_4_xxp", "seed0017_6_xxp", "seed0008_3_260",
                                        "seed0031_7_260", "seed0011_2_240", "seed0025_5_240",
                                        "seed0006_3_abs", "seed0022_8_abs", "seed0036_1_abs"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bbp_case_in("special", cases[i]);
}
END_TEST

START_TEST(bbp_dutch_2025_c5)
{
    bbp_case("dutch_2025_C5");
}
END_TEST
START_TEST(bbp_dutch_2025_c9)
{
    bbp_case("dutch_2025_C9");
}
END_TEST
START_TEST(bbp_issue_7)
{
    bbp_case("issue_7");
}
END_TEST

/* ---- hand-made cases ---- */

/* A 001 line, column exact: games[k] is round k+1 ("   4 w 1"). */
static void add_line(char *buf, size_t cap, int id, int rating, const char *pts,
                     const char *const *games, int ng)
{
    char l[300];
    memset(l, ' ', sizeof l);
    char tmp[64];
    memcpy(l, "001", 3);
    snprintf(tmp, sizeof tmp, "%4d", id);
    memcpy(l + 4, tmp, 4);
    snprintf(tmp, sizeof tmp, "Player %d", id);
    memcpy(l + 14, tmp, strlen(tmp));
    snprintf(tmp, sizeof tmp, "%4d", rating);
    memcpy(l + 48, tmp, 4);
    snprintf(tmp, sizeof tmp, "%4s", pts);
    memcpy(l + 80, tmp, 4);
    int end = 84;
    for (int k = 0; k < ng; k++) {
        memcpy(l + 91 + 10 * k, games[k], 8);
        end = 91 + 10 * k + 8;
    }
    l[end] = '\0';
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s\r", l);
}

static int pair_text(const char *text, char *out, size_t cap)
{
    Tournament *t = testutil_trf("TRF", text, strlen(text), TRF_READ_NO_POINTS_CHECK);
    DutchPairing p;
    char err[200];
    int rc = dutch_pair_round(t, dutch_next_round(t), &p, err, sizeof err);
    if (rc == 0)
        format_pairing(&p, out, cap);
    dutch_pairing_free(&p);
    tournament_free(t);
    return rc;
}

/* Round 1 of four: S1 = {1, 2} meets S2 = {3, 4}; the higher player of each
 * board with an odd pairing number gets the initial colour (white), 2 gets
 * black; boards in order of the higher player's number. */
START_TEST(round_one_of_four)
{
    char text[4096] = "012 t\rXXR 5\rXXC white1\r", out[256];
    for (int i = 1; i <= 4; i++)
        add_line(text, sizeof text, i, 2500 - 10 * i, "0.0", NULL, 0);
    ck_assert_int_eq(pair_text(text, out, sizeof out), 0);
    ck_assert_str_eq(out, "2\n1 3\n4 2\n");
}
END_TEST

/* With initial colour black the colours turn round. */
START_TEST(round_one_initial_black)
{
    char text[4096] = "012 t\rXXR 5\rXXC black1\r", out[256];
    for (int i = 1; i <= 4; i++)
        add_line(text, sizeof text, i, 2500 - 10 * i, "0.0", NULL, 0);
    ck_assert_int_eq(pair_text(text, out, sizeof out), 0);
    ck_assert_str_eq(out, "2\n3 1\n2 4\n");
}
END_TEST

/* A player announced absent (half-point bye written in the round to pair)
 * is not paired and does not count for the colour alternation. */
START_TEST(absent_player_left_out)
{
    char text[4096] = "012 t\rXXR 5\rXXC white1\r", out[256];
    const char *h[] = {"0000 - H"};
    for (int i = 1; i <= 5; i++)
        add_line(text, sizeof text, i, 2500 - 10 * i, i == 3 ? "0.5" : "0.0", i == 3 ? h : NULL,
                 i == 3);
    ck_assert_int_eq(pair_text(text, out, sizeof out), 0);
    ck_assert_str_eq(out, "2\n1 4\n5 2\n");
}
END_TEST

/* Two players who have met cannot meet again (C1), and a single PAB cannot
 * absorb both: no valid pairing. */
START_TEST(rematch_has_no_pairing)
{
    char text[4096] = "012 t\rXXR 5\rXXC white1\r", out[256];
    const char *g1[] = {"   2 w 1"}, *g2[] = {"   1 b 0"};
    add_line(text, sizeof text, 1, 2500, "1.0", g1, 1);
    add_line(text, sizeof text, 2, 2400, "0.0", g2, 1);
    ck_assert_int_eq(pair_text(text, out, sizeof out), DUTCH_E_NO_PAIRING);
}
END_TEST

/* Round 1 without an initial colour cannot be paired; a bad round number is
 * refused. */
START_TEST(input_errors)
{
    char text[4096] = "012 t\rXXR 5\r", out[256];
    for (int i = 1; i <= 4; i++)
        add_line(text, sizeof text, i, 2500 - 10 * i, "0.0", NULL, 0);
    ck_assert_int_eq(pair_text(text, out, sizeof out), DUTCH_E_INPUT);
    Tournament *t = testutil_trf("TRF", text, strlen(text), TRF_READ_NO_POINTS_CHECK);
    DutchPairing p;
    char err[200];
    ck_assert_int_eq(dutch_pair_round(t, 0, &p, err, sizeof err), DUTCH_E_INPUT);
    ck_assert_int_eq(p.n_pairs, 0);
    ck_assert_ptr_null(p.pairs);
    dutch_pairing_free(&p);
    dutch_pairing_free(NULL);
    tournament_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dutch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, corpus_rounds_equal_bbp);
    tcase_add_test(tc, bbp_dutch_2025_c5);
    tcase_add_test(tc, bbp_dutch_2025_c9);
    tcase_add_test(tc, bbp_issue_7);
    tcase_add_test(tc, baku_acceleration);
    tcase_add_test(tc, forbidden_pairs_and_absences);
    tcase_add_test(tc, round_one_of_four);
    tcase_add_test(tc, round_one_initial_black);
    tcase_add_test(tc, absent_player_left_out);
    tcase_add_test(tc, rematch_has_no_pairing);
    tcase_add_test(tc, input_errors);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
