/*
 * test_swiss.c — the Burstein engine and Baku acceleration in both Swiss
 * engines against bbpPairings v6.
 *
 * Outside truths:
 *  - tests/data/burstein/corpus/: tournaments made by bbpPairings' random
 *    tournament generator with its Burstein engine (which also applies the
 *    Burstein default acceleration); every round is re-paired here and must
 *    equal the file, colours included. Rounds listed in
 *    tests/data/burstein/known_differences.txt are reported, not failed.
 *  - tests/data/{dutch,burstein}/baku_rounds/seedNNNN.expected: for each
 *    round R of corpus/seedNNNN.trf, what `bbpPairings --dutch|--burstein -p`
 *    printed for that file cut before R with "192 FIDE_*_BAKU" (see the
 *    README beside them). Here the same round is paired from the whole
 *    file with the 192 line and round count set alike.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burstein.h"
#include "dutch.h"
#include "testutil.h"
#include "testutil_pairing.h"
#include "trf.h"

static int pair_round(SwissSystem sys, const Tournament *t, int round, SwissPairing *p, char *err,
                      size_t n)
{
    return sys == SWISS_BURSTEIN ? burstein_pair_round(t, round, p, err, n)
                                 : dutch_pair_round(t, round, p, err, n);
}

/* ---- the generated Burstein corpus ---- */

START_TEST(burstein_corpus_equals_bbp)
{
    TestutilCorpusCount c = testutil_corpus_pair("burstein", burstein_pair_round, 10);
    ck_assert_msg(c.unexpected == 0, "%d rounds differ from bbpPairings", c.unexpected);
    ck_assert_int_ge(c.rounds, 100);
}
END_TEST

/* ---- Baku acceleration, round by round ---- */

/* The rounds written in t (the longest history of a player). */
static int rounds_written(const Tournament *t)
{
    int n = 0;
    for (int i = 0; i < t->n_players; i++)
        if (t->players[i].rounds > n)
            n = t->players[i].rounds;
    return n;
}

/* True when p is the block of bbpPairings' output at *text: a board count,
 * then "white black" per board; *text moves past it. */
static int same_as_bbp(const SwissPairing *p, char **text)
{
    char *s = *text;
    int boards = (int)strtol(s, &s, 10), ok = boards == p->n_pairs;
    for (int i = 0; i < boards; i++) {
        int w = (int)strtol(s, &s, 10), b = (int)strtol(s, &s, 10);
        ok &= i < p->n_pairs && p->pairs[i].white == w && p->pairs[i].black == b;
    }
    *text = s;
    return ok;
}

/* Every round of every file of TOPIC/baku_rounds; returns rounds compared. */
static int baku_rounds(const char *topic, SwissSystem sys, const char *system_line)
{
    char dir[512], sub[64];
    snprintf(sub, sizeof sub, "%s/baku_rounds", topic);
    testutil_data_path(dir, sizeof dir, topic, "baku_rounds");
    char **names;
    int nn = testutil_list(dir, ".expected", &names), rounds = 0, differ = 0;
    ck_assert_int_ge(nn, 5);
    for (int i = 0; i < nn; i++) {
        char trf[128];
        snprintf(trf, sizeof trf, "%.*s.trf", (int)(strlen(names[i]) - strlen(".expected")),
                 names[i]);
        char ctopic[64];
        snprintf(ctopic, sizeof ctopic, "%s/corpus", topic);
        Tournament *t = testutil_trf_load(ctopic, trf, TRF_READ_NO_POINTS_CHECK);
        snprintf(t->system, sizeof t->system, "%s", system_line);
        t->n_rounds = rounds_written(t);
        char *want = testutil_load(sub, names[i], NULL);
        char *s = want;
        int r;
        while ((s = strstr(s, "round ")) != NULL && sscanf(s, "round %d", &r) == 1) {
            s = strchr(s, '\n');
            SwissPairing p;
            char err[200] = "";
            int rc = pair_round(sys, t, r, &p, err, sizeof err), ok;
            if (strncmp(s + 1, "no pairing", 10) == 0)
                ok = rc == SWISS_E_NO_PAIRING;
            else
                ok = rc == 0 && same_as_bbp(&p, &s);
            rounds++;
            if (!ok) {
                differ++;
                fprintf(stderr, "DIFFERS: %s %s round %d (rc %d %s)\n", topic, trf, r, rc, err);
            }
            swiss_pairing_free(&p);
        }
        free(want);
        tournament_free(t);
    }
    testutil_list_free(names, nn);
    fprintf(stderr, "%s with Baku: %d of %d rounds equal bbpPairings\n", topic, rounds - differ,
            rounds);
    ck_assert_msg(differ == 0, "%d rounds differ from bbpPairings", differ);
    return rounds;
}

START_TEST(dutch_baku_rounds)
{
    ck_assert_int_ge(baku_rounds("dutch", SWISS_DUTCH, "FIDE_DUTCH_BAKU"), 100);
}
END_TEST

START_TEST(burstein_baku_rounds)
{
    ck_assert_int_ge(baku_rounds("burstein", SWISS_BURSTEIN, "FIDE_BURSTEIN_BAKU"), 100);
}
END_TEST

/* ---- acceleration from the file's own lines ---- */

/* Four players, round 1, Burstein (both answers confirmed with bbpPairings):
 * without any line the upper half carries Burstein's default win, so 1 and
 * 2 form a scoregroup of their own and meet; an XXA line of 0.0 turns the
 * default off and one scoregroup pairs its top against its bottom. */
static const char FOUR[] =
    "012 Four\r"
    "XXC white1\r"
    "XXR 5\r"
    "001    1      P1                                2400                             0.0\r"
    "001    2      P2                                2300                             0.0\r"
    "001    3      P3                                2200                             0.0\r"
    "001    4      P4                                2100                             0.0\r";

static void first_round(const char *extra, int w1, int b1, int w2, int b2)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s", FOUR, extra);
    Tournament *t = NULL;
    TrfError e;
    ck_assert_int_eq(trf_read(text, strlen(text), TRF_READ_NO_POINTS_CHECK, &t, &e), 0);
    SwissPairing p;
    char err[200] = "";
    ck_assert_int_eq(burstein_pair_round(t, 1, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.n_pairs, 2);
    ck_assert_int_eq(p.pairs[0].white, w1);
    ck_assert_int_eq(p.pairs[0].black, b1);
    ck_assert_int_eq(p.pairs[1].white, w2);
    ck_assert_int_eq(p.pairs[1].black, b2);
    swiss_pairing_free(&p);
    tournament_free(t);
}

START_TEST(burstein_acceleration_from_the_file)
{
    first_round("", 1, 2, 3, 4);
    first_round("XXA    1  0.0\r", 1, 4, 3, 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("swiss");
    TCase *tc = tcase_create("swiss");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, burstein_corpus_equals_bbp);
    tcase_add_test(tc, dutch_baku_rounds);
    tcase_add_test(tc, burstein_baku_rounds);
    tcase_add_test(tc, burstein_acceleration_from_the_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
