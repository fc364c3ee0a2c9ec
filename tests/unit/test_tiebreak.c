/*
 * test_tiebreak.c — standings and C.07 tie-breaks against outside truths:
 *  - the FIDE TEC's published tie-break exercises (2023 rules; answers as
 *    quoted in the marceljuenemann/tiebreak test suite), crosstable in
 *    tests/data/tiebreak/fide-exercise-2023.trf;
 *  - FIDE's TieBreakServer (tiebreakchecker.py) on tournaments made by its
 *    own generator, for the 2023 and 2026 rules (the .csv files beside them);
 *  - the published B.02 rating tables;
 *  - small hand-checked cases for the pre-2023 virtual opponent.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"
#include "trf.h"
#include "testutil.h"

static Standings *standings_rr(const Tournament *t, const char *list, TbEdition ed, bool rr)
{
    TbSpec specs[TB_MAX_SPECS];
    int n;
    char err[200];
    ck_assert_msg(tiebreak_parse(list, specs, TB_MAX_SPECS - 1, &n, err, sizeof err) == 0, "%s",
                  err);
    TbOptions opt = {.edition = ed, .round_robin = rr};
    Standings *st;
    ck_assert_int_eq(tiebreak_standings(t, specs, n, &opt, &st), 0);
    return st;
}

static Standings *standings(const Tournament *t, const char *list, TbEdition ed)
{
    return standings_rr(t, list, ed, false);
}

/* Value (hundredths) of spec k for start rank sno. */
static int64_t value_of(const Standings *st, int sno, int k)
{
    for (int a = 0; a < st->n_rows; a++)
        if (st->rows[a].player == sno) {
            ck_assert(st->rows[a].valid[k]);
            return st->rows[a].value[k];
        }
    ck_abort_msg("no player %d", sno);
    return 0;
}

static int rank_of(const Standings *st, int sno)
{
    for (int a = 0; a < st->n_rows; a++)
        if (st->rows[a].player == sno)
            return st->rows[a].rank;
    return 0;
}

/* value in hundredths from a decimal string like "9.75" or "2089" */
static int64_t hundredths(const char *s)
{
    double d = strtod(s, NULL);
    return (int64_t)(d * 100 + (d < 0 ? -0.5 : 0.5));
}

typedef struct Expect {
    int sno;
    const char *tb;
    double value;
} Expect;

static void check_expect(const Tournament *t, TbEdition ed, const Expect *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Standings *st = standings(t, x[i].tb, ed);
        int64_t got = value_of(st, x[i].sno, 1);
        ck_assert_msg(got == (int64_t)(x[i].value * 100 + 0.5),
                      "edition %d, player %d, %s: got %lld/100, want %.2f", (int)ed, x[i].sno,
                      x[i].tb, (long long)got, x[i].value);
        tiebreak_standings_free(st);
    }
}

/* Answers of the TEC exercises (2023 rules), exercises 1-8, 11 and 12. */
START_TEST(fide_exercises_2023)
{
    Tournament *t = testutil_trf_load("tiebreak", "fide-exercise-2023.trf", 0);
    static const Expect x[] = {
        {2, "BH", 13},      {1, "BH", 12.5},   {3, "BH", 15.5},    {5, "BH", 8.5},
        {8, "BH", 13.5},    {11, "BH", 13.5},  {16, "BH", 12.5},   {4, "BH", 15.0},
        {5, "BH/C1", 7.5},  {8, "BH/C1", 12},  {11, "BH/C1", 12},  {7, "BH/C1", 12.5},
        {9, "BH/C1", 7.5},  {13, "BH/C1", 12}, {1, "BH/C1", 11.0}, {3, "BH/C1", 13},
        {4, "BH/C1", 11.5}, {16, "BH/C1", 11}, {12, "BH/C1", 9.5}, {14, "BH/C1", 9},
        {15, "BH/C1", 11},  {1, "SB", 8},      {3, "SB", 10.5},    {16, "SB", 7.25},
        {4, "SB", 9.75},    {2, "SB", 9.5},    {6, "SB", 6.5},     {11, "SB", 5.75},
        {8, "SB", 5.25},    {5, "SB", 4.25},   {14, "SB", 4.5},    {12, "SB", 4.0},
        {15, "SB", 3.5},    {13, "SB", 4.25},  {7, "SB", 3.25},    {10, "SB", 1.5},
    };
    check_expect(t, TB_EDITION_2023, x, sizeof x / sizeof x[0]);
    /* The scores of exercise 12 are the plain points. */
    Standings *st = standings(t, "PTS", TB_EDITION_2023);
    static const int sno[] = {2, 3, 4, 1, 16, 6, 11, 8, 5, 14, 12, 15, 13, 7, 10};
    static const double pts[] = {4, 3.5, 3.5, 3.5, 3.5, 3, 2.5, 2.5, 2.5, 2, 2, 2, 1.5, 1.5, 1};
    for (size_t i = 0; i < sizeof sno / sizeof sno[0]; i++)
        ck_assert_int_eq(value_of(st, sno[i], 0), (int64_t)(pts[i] * 100));
    tiebreak_standings_free(st);
    tournament_free(t);
}
END_TEST

/*
 * 2026 caps the dummy of an own unplayed round: player 4 (3.5 points, a
 * half-point bye in round 2) counts 2.5 there, so BH 15.0 becomes 14.0.
 */
START_TEST(edition_2026_caps_the_dummy)
{
    Tournament *t = testutil_trf_load("tiebreak", "fide-exercise-2023.trf", 0);
    static const Expect x[] = {{4, "BH", 14.0}, {11, "BH", 12.5}, {4, "SB", 9.25}};
    check_expect(t, TB_EDITION_2026, x, sizeof x / sizeof x[0]);
    tournament_free(t);
}
END_TEST

/*
 * The fore modifier of the TEC syntax (spec: "/F fore"): BH/F is FB, and
 * AOB/F averages the opponents' FB instead of their BH (C.07 2026, 8.2).
 * Values printed by FIDE's TieBreakServer (tiebreakchecker.py -s -t PTS
 * AOB/F, and AOB/F/C1) for the TEC exercise, rules of 2023 and of 2026.
 */
START_TEST(fore_modifier)
{
    Tournament *t = testutil_trf_load("tiebreak", "fide-exercise-2023.trf", 0);
    static const Expect a23[] = {
        {1, "AOB/F", 12.80},  {2, "AOB/F", 13.60},  {3, "AOB/F", 13.20},  {4, "AOB/F", 13.38},
        {5, "AOB/F", 12.80},  {6, "AOB/F", 12.63},  {7, "AOB/F", 12.30},  {8, "AOB/F", 12.90},
        {9, "AOB/F", 13.00},  {10, "AOB/F", 11.40}, {11, "AOB/F", 13.00}, {12, "AOB/F", 15.50},
        {13, "AOB/F", 12.40}, {14, "AOB/F", 12.67}, {15, "AOB/F", 12.60}, {16, "AOB/F", 12.80},
    };
    static const Expect a26[] = {
        {1, "AOB/F", 12.60},     {2, "AOB/F", 13.60},     {3, "AOB/F", 12.90},
        {4, "AOB/F", 13.25},     {5, "AOB/F", 12.70},     {6, "AOB/F", 12.63},
        {7, "AOB/F", 12.20},     {8, "AOB/F", 12.90},     {9, "AOB/F", 13.00},
        {10, "AOB/F", 11.40},    {11, "AOB/F", 13.00},    {12, "AOB/F", 14.50},
        {13, "AOB/F", 12.20},    {14, "AOB/F", 12.67},    {15, "AOB/F", 12.60},
        {16, "AOB/F", 12.70},    {1, "AOB/F/C1", 10.90},  {2, "AOB/F/C1", 11.80},
        {3, "AOB/F/C1", 11.20},  {4, "AOB/F/C1", 11.50},  {5, "AOB/F/C1", 11.10},
        {6, "AOB/F/C1", 11.00},  {7, "AOB/F/C1", 10.60},  {8, "AOB/F/C1", 11.20},
        {9, "AOB/F/C1", 11.50},  {10, "AOB/F/C1", 9.90},  {11, "AOB/F/C1", 11.13},
        {12, "AOB/F/C1", 12.00}, {13, "AOB/F/C1", 10.50}, {14, "AOB/F/C1", 11.17},
        {15, "AOB/F/C1", 10.90}, {16, "AOB/F/C1", 11.10},
    };
    check_expect(t, TB_EDITION_2023, a23, sizeof a23 / sizeof a23[0]);
    check_expect(t, TB_EDITION_2026, a26, sizeof a26 / sizeof a26[0]);
    /* BH/F is FB, whatever the edition. */
    for (int ed = 0; ed < 2; ed++) {
        Standings *st = standings(t, "BH/F,FB", ed ? TB_EDITION_2026 : TB_EDITION_2023);
        for (int a = 0; a < st->n_rows; a++)
            ck_assert_int_eq(st->rows[a].value[1], st->rows[a].value[2]);
        tiebreak_standings_free(st);
    }
    tournament_free(t);
    TbSpec s[2];
    int n;
    char err[200], name[32];
    ck_assert_int_eq(tiebreak_parse("AOB/F/C1", s, 2, &n, err, sizeof err), 0);
    ck_assert(s[0].fore);
    ck_assert_int_eq(s[0].cut_low, 1);
    tiebreak_spec_name(&s[0], name, sizeof name);
    ck_assert_str_eq(name, "AOB/C1/F");
    ck_assert_int_eq(tiebreak_parse("AOB-F", s, 2, &n, err, sizeof err), 0);
    ck_assert(s[0].fore);
    /* The Handbook defines no fore variant of SB or of the counts. */
    ck_assert_int_eq(tiebreak_parse("SB/F", s, 2, &n, err, sizeof err), TIEBREAK_E_SYNTAX);
    ck_assert_int_eq(tiebreak_parse("WIN/F", s, 2, &n, err, sizeof err), TIEBREAK_E_SYNTAX);
}
END_TEST

/* Every value TieBreakServer printed for the generated tournaments. */
static void check_tbs_rr(const char *trf, const char *csv, TbEdition ed, bool rr)
{
    Tournament *t = testutil_trf_load("tiebreak", trf, 0);
    size_t len;
    char *text = testutil_load("tiebreak", csv, &len);
    char *save = NULL, *line;
    char header[1024] = "";
    int rows = 0, values = 0;
    Standings *ranked = standings_rr(t, "BH/C1,BH,SB,DE", ed, rr);
    Standings *st = NULL;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        if (!header[0]) {
            snprintf(header, sizeof header, "%s", line);
            /* Columns after sno,rank are the tie-breaks, PTS first. */
            const char *tbs = strchr(strchr(header, ',') + 1, ',') + 1;
            st = standings_rr(t, tbs, ed, rr);
            continue;
        }
        char *f = NULL, *cells[64];
        int nc = 0;
        for (char *c = strtok_r(line, ",", &f); c && nc < 64; c = strtok_r(NULL, ",", &f))
            cells[nc++] = c;
        int sno = atoi(cells[0]);
        ck_assert_int_eq(nc, st->n_specs + 2);
        ck_assert_msg(rank_of(ranked, sno) == atoi(cells[1]), "%s: player %d ranked %d, TBS %s",
                      csv, sno, rank_of(ranked, sno), cells[1]);
        for (int k = 0; k < st->n_specs; k++) {
            char name[32];
            tiebreak_spec_name(&st->specs[k], name, sizeof name);
            int a = 0;
            while (st->rows[a].player != sno)
                a++;
            if (!st->rows[a].valid[k]) {
                /* Undefined here (no ratings); TieBreakServer prints -0 or None. */
                ck_assert_msg(strcmp(cells[k + 2], "-0") == 0 || strcmp(cells[k + 2], "None") == 0,
                              "%s: player %d %s undefined, TBS %s", csv, sno, name, cells[k + 2]);
                continue;
            }
            int64_t want = hundredths(cells[k + 2]);
            ck_assert_msg(value_of(st, sno, k) == want, "%s: player %d %s = %lld/100, TBS %s", csv,
                          sno, name, (long long)value_of(st, sno, k), cells[k + 2]);
            values++;
        }
        rows++;
    }
    ck_assert_int_ge(rows, 9);
    ck_assert_int_ge(values, rows * 15);
    tiebreak_standings_free(st);
    tiebreak_standings_free(ranked);
    free(text);
    tournament_free(t);
}

static void check_tbs(const char *trf, const char *csv, TbEdition ed)
{
    check_tbs_rr(trf, csv, ed, false);
}

/* Round robins (10 and 9 players, forfeits count as games, KS limit over 8 games for 9). */
START_TEST(tiebreakserver_round_robin)
{
    check_tbs_rr("tbs-rr-10.trf", "tbs-rr-10-2023.csv", TB_EDITION_2023, true);
    check_tbs_rr("tbs-rr-10.trf", "tbs-rr-10-2026.csv", TB_EDITION_2026, true);
    check_tbs_rr("tbs-rr-9.trf", "tbs-rr-9-2023.csv", TB_EDITION_2023, true);
    check_tbs_rr("tbs-rr-9.trf", "tbs-rr-9-2026.csv", TB_EDITION_2026, true);
}
END_TEST

START_TEST(tiebreakserver_2023)
{
    check_tbs("fide-exercise-2023.trf", "fide-exercise-2023-2023.csv", TB_EDITION_2023);
    check_tbs("tbs-swiss-15.trf", "tbs-swiss-15-2023.csv", TB_EDITION_2023);
    check_tbs("tbs-swiss-15-310.trf", "tbs-swiss-15-310-2023.csv", TB_EDITION_2023);
    check_tbs("tbs-swiss-24.trf", "tbs-swiss-24-2023.csv", TB_EDITION_2023);
    check_tbs("tbs-swiss-31.trf", "tbs-swiss-31-2023.csv", TB_EDITION_2023);
}
END_TEST

START_TEST(tiebreakserver_2026)
{
    check_tbs("fide-exercise-2023.trf", "fide-exercise-2023-2026.csv", TB_EDITION_2026);
    check_tbs("tbs-swiss-15.trf", "tbs-swiss-15-2026.csv", TB_EDITION_2026);
    check_tbs("tbs-swiss-15-310.trf", "tbs-swiss-15-310-2026.csv", TB_EDITION_2026);
    check_tbs("tbs-swiss-24.trf", "tbs-swiss-24-2026.csv", TB_EDITION_2026);
    check_tbs("tbs-swiss-31.trf", "tbs-swiss-31-2026.csv", TB_EDITION_2026);
}
END_TEST

/*
 * Pre-2023 virtual opponent (worked out by hand from the rule): A beats B,
 * then wins by forfeit, then neither plays.
 */
START_TEST(virtual_opponent_2009)
{
    static const char two[] = "001    1      A                                                     "
                              "             2.0    1     2 w 1     2 w +\n"
                              "001    2      B                                                     "
                              "             0.0    2     1 b 0     1 b -\n";
    Tournament *t = testutil_trf("TRF", two, sizeof two - 1, 0);
    /* A: B counts 0 + 0.5 (its unplayed round as a draw); the forfeit round a
     * virtual opponent with 1 before, the loss, no later rounds: 1. */
    static const Expect x[] = {{1, "BH", 1.5}, {2, "BH", 2.5}, {1, "SB", 1.5}, {2, "SB", 0}};
    check_expect(t, TB_EDITION_2009, x, sizeof x / sizeof x[0]);
    tournament_free(t);
    static const char three[] = "001    1      A                                                   "
                                "               2.0    1     2 w 1     2 w +  0000 - Z\n"
                                "001    2      B                                                   "
                                "               0.0    2     1 b 0     1 b -  0000 - Z\n";
    t = testutil_trf("TRF", three, sizeof three - 1, 0);
    static const Expect y[] = {{1, "BH", 5.5}, {2, "BH", 4.5}};
    check_expect(t, TB_EDITION_2009, y, sizeof y / sizeof y[0]);
    tournament_free(t);
}
END_TEST

/*
 * Pre-2023: an opponent's unplayed rounds (forfeits, byes, not paired) count
 * as draws.  Expected values from the marceljuenemann/tiebreak suite: A's
 * BH after rounds 1-4 is 0, 1*0.5 + 1, 2*0.5 + 2*2, 3*0.5 + 3*3.
 */
START_TEST(opponents_unplayed_as_draws_2009)
{
    Tournament *t = testutil_trf_load("tiebreak", "virtual-2009.trf", 0);
    static const int64_t want[] = {0, 150, 500, 1050};
    TbSpec bh = {.code = TB_BH, .limit_percent = 50};
    for (int r = 1; r <= 4; r++) {
        TbOptions opt = {.edition = TB_EDITION_2009, .rounds = r};
        Standings *st;
        ck_assert_int_eq(tiebreak_standings(t, &bh, 1, &opt, &st), 0);
        ck_assert_int_eq(st->rounds, r);
        ck_assert_int_eq(value_of(st, 1, 1), want[r - 1]);
        tiebreak_standings_free(st);
    }
    tournament_free(t);
}
END_TEST

/*
 * FB counts the final round's games as draws; a file stopped before its final
 * round (bbpPairings' issue 7: 14 of 15 rounds) has no final round yet, so
 * FB equals BH (TieBreakServer agrees).
 */
START_TEST(fore_buchholz_before_the_final_round)
{
    size_t n;
    char *buf = testutil_load("trf", "bbp-issue_7.trf", &n);
    Tournament *t = testutil_trf("TRF", buf, n, 0);
    free(buf);
    ck_assert_int_eq(t->n_rounds, 15);
    Standings *st = standings(t, "FB,BH", TB_EDITION_2023);
    int differ = 0;
    for (int a = 0; a < st->n_rows; a++)
        ck_assert_int_eq(st->rows[a].value[1], st->rows[a].value[2]);
    tiebreak_standings_free(st);
    /* Declared as 14 rounds, round 14 is the final one and FB differs. */
    t->n_rounds = 14;
    st = standings(t, "FB,BH", TB_EDITION_2023);
    for (int a = 0; a < st->n_rows; a++)
        differ += st->rows[a].value[1] != st->rows[a].value[2];
    ck_assert_int_gt(differ, 10);
    tiebreak_standings_free(st);
    tournament_free(t);
}
END_TEST

/* A small event ranked by PTS, BH, BH/C1, SB (2023 rules). */
START_TEST(ranking_with_forfeit_and_pab)
{
    static const char text[] = "001    1      A                                                    "
                               "              0.5    0     3 b =     2 w 0\n"
                               "001    2      B                                                    "
                               "              2.0    0     4 w +     1 b 1\n"
                               "001    3      C                                                    "
                               "              1.5    0     1 w =  0000 - U\n"
                               "001    4      D                                                    "
                               "              0.0    0     2 b -  0000 - Z\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    Standings *st = standings(t, "BH,BH/C1,SB", TB_EDITION_2023);
    static const int order[] = {2, 3, 1, 4};
    static const int64_t want[4][4] = {
        {200, 250, 200, 250}, {150, 200, 150, 175}, {50, 350, 200, 75}, {0, 0, 0, 0}};
    for (int a = 0; a < 4; a++) {
        ck_assert_int_eq(st->rows[a].player, order[a]);
        ck_assert_int_eq(st->rows[a].rank, a + 1);
        for (int k = 0; k < 4; k++)
            ck_assert_int_eq(st->rows[a].value[k], want[a][k]);
    }
    tiebreak_standings_free(st);
    tournament_free(t);

    /* Complete ties share the rank and list by start rank. */
    static const char one[] = "001    1      A                                                     "
                              "             0.5    0     3 b =\n"
                              "001    2      B                                                     "
                              "             1.0    0     4 w 1\n"
                              "001    3      C                                                     "
                              "             0.5    0     1 w =\n"
                              "001    4      D                                                     "
                              "             0.0    0     2 b 0\n";
    t = testutil_trf("TRF", one, sizeof one - 1, 0);
    st = standings(t, "BH", TB_EDITION_2023);
    static const int o2[] = {2, 1, 3, 4}, r2[] = {1, 2, 2, 4};
    for (int a = 0; a < 4; a++) {
        ck_assert_int_eq(st->rows[a].player, o2[a]);
        ck_assert_int_eq(st->rows[a].rank, r2[a]);
    }
    tiebreak_standings_free(st);
    tournament_free(t);
}
END_TEST

/*
 * The counting tie-breaks follow the results, whatever each result is worth
 * (JaVaFo's XXS can value a win with Black above one with White): WON
 * (C.07 7.2) counts games won over the board, BWG (7.4) those won with
 * Black, REP (7.6) every round but half- and zero-point byes and forfeit
 * losses, so a full-point bye worth half a point still counts.  WIN (7.1)
 * counts rounds that brought a win's points, played or not.
 */
START_TEST(counts_follow_results)
{
    static const char text[] = "XXS WW=1 BW=1.5 FPB=0.5\n"
                               "001    1      A                                                    "
                               "              2.0    0     2 b 1  0000 - F     3 w 0\n"
                               "001    2      B                                                    "
                               "              0.5    0     1 w 0     3 b 0  0000 - F\n"
                               "001    3      C                                                    "
                               "              3.0    0  0000 - F     2 w 1     1 b 1\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    static const Expect x[] = {
        {1, "WON", 1}, {1, "BWG", 1}, {1, "WIN", 1}, {1, "REP", 3}, {1, "BPG", 1}, {2, "WON", 0},
        {2, "WIN", 0}, {2, "REP", 3}, {3, "WON", 2}, {3, "BWG", 1}, {3, "WIN", 2}, {3, "REP", 3},
    };
    check_expect(t, TB_EDITION_2023, x, sizeof x / sizeof x[0]);
    tournament_free(t);
}
END_TEST

/* DE in a round robin: three tied players, each beat one other. */
START_TEST(direct_encounter)
{
    /* 1 beats 2, 2 beats 3, 3 beats 1; 1, 2, 3 all beat 4; 1-2-3 tied on 2.0.
     * With DE first they stay tied (1 point each); then 4 ranks last. */
    static const char text[] = "001    1      A                                                    "
                               "              2.0    0     4 w 1     2 w 1     3 b 0\n"
                               "001    2      B                                                    "
                               "              2.0    0     3 w 1     1 b 0     4 w 1\n"
                               "001    3      C                                                    "
                               "              2.0    0     2 b 0     4 w 1     1 w 1\n"
                               "001    4      D                                                    "
                               "              0.0    0     1 b 0     3 b 0     2 b 0\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    Standings *st = standings(t, "DE", TB_EDITION_2023);
    ck_assert_int_eq(st->rows[0].rank, 1);
    ck_assert_int_eq(st->rows[1].rank, 1);
    ck_assert_int_eq(st->rows[2].rank, 1);
    ck_assert_int_eq(st->rows[3].rank, 4);
    tiebreak_standings_free(st);
    tournament_free(t);

    /* Four on one point who did not all meet (Swiss): nobody is out of
     * reach of the others' possible results, so DE leaves them tied. */
    static const char four[] = "001    1      A                                                    "
                               "              1.0    0     2 w 0     3 w 1\n"
                               "001    2      B                                                    "
                               "              1.0    0     1 b 1     4 w 0\n"
                               "001    3      C                                                    "
                               "              1.0    0     4 w 1     1 b 0\n"
                               "001    4      D                                                    "
                               "              1.0    0     3 b 0     2 b 1\n";
    t = testutil_trf("TRF", four, sizeof four - 1, 0);
    st = standings(t, "DE", TB_EDITION_2023);
    for (int a = 0; a < 4; a++)
        ck_assert_int_eq(st->rows[a].rank, 1);
    tiebreak_standings_free(st);
    tournament_free(t);

    /* Two tied players who met: the winner of their game ranks first, even
     * with the higher start rank. */
    static const char two[] = "001    1      A                                                     "
                              "             1.0    0     2 w 0     3 w 1\n"
                              "001    2      B                                                     "
                              "             1.0    0     1 b 1     4 b 0\n"
                              "001    3      C                                                     "
                              "             0.0    0     4 w 0     1 b 0\n"
                              "001    4      D                                                     "
                              "             2.0    0     3 b 1     2 w 1\n";
    t = testutil_trf("TRF", two, sizeof two - 1, 0);
    st = standings(t, "DE", TB_EDITION_2023);
    static const int order[] = {4, 2, 1, 3};
    for (int a = 0; a < 4; a++) {
        ck_assert_int_eq(st->rows[a].player, order[a]);
        ck_assert_int_eq(st->rows[a].rank, a + 1);
    }
    tiebreak_standings_free(st);
    tournament_free(t);
}
END_TEST

START_TEST(parse_lists)
{
    TbSpec a[TB_MAX_SPECS], b[TB_MAX_SPECS];
    int na, nb;
    char err[200];
    ck_assert_int_eq(tiebreak_parse("BH/C1,BH,SB,DE", a, TB_MAX_SPECS, &na, err, sizeof err), 0);
    ck_assert_int_eq(tiebreak_parse("bh-c1, BH; SB DE", b, TB_MAX_SPECS, &nb, err, sizeof err), 0);
    ck_assert_int_eq(na, 4);
    ck_assert_int_eq(nb, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(a[i].code, b[i].code);
        ck_assert_int_eq(a[i].cut_low, b[i].cut_low);
    }
    ck_assert_int_eq(a[0].code, TB_BH);
    ck_assert_int_eq(a[0].cut_low, 1);
    ck_assert_int_eq(a[3].code, TB_DE);
    ck_assert_int_eq(
        tiebreak_parse("BH/M2,KS/L+1,GE,AOB,PTP/C1,SB/P", a, TB_MAX_SPECS, &na, err, sizeof err),
        0);
    ck_assert_int_eq(a[0].cut_low, 2);
    ck_assert_int_eq(a[0].cut_high, 2);
    ck_assert_int_eq(a[1].limit_delta, 5);
    ck_assert_int_eq(a[2].code, TB_REP);
    ck_assert(a[5].as_played);
    char name[32];
    tiebreak_spec_name(&a[0], name, sizeof name);
    ck_assert_str_eq(name, "BH/M2");
    tiebreak_spec_name(&a[1], name, sizeof name);
    ck_assert_str_eq(name, "KS/L+1");
    ck_assert_int_eq(tiebreak_parse("BH:GP/C1", a, TB_MAX_SPECS, &na, err, sizeof err), 0);
    ck_assert_int_eq(a[0].code, TB_BH);
    ck_assert_int_eq(a[0].cut_low, 1);
    ck_assert_int_eq(tiebreak_parse("BH:MP/C1", a, TB_MAX_SPECS, &na, err, sizeof err),
                     TIEBREAK_E_SYNTAX);
    ck_assert_int_eq(tiebreak_parse("BH,XYZ", a, TB_MAX_SPECS, &na, err, sizeof err),
                     TIEBREAK_E_SYNTAX);
    ck_assert_ptr_nonnull(strstr(err, "XYZ"));
    ck_assert_int_eq(tiebreak_parse("BH/Q1", a, TB_MAX_SPECS, &na, err, sizeof err),
                     TIEBREAK_E_SYNTAX);
    ck_assert_int_eq(tiebreak_parse("SB/L+1", a, TB_MAX_SPECS, &na, err, sizeof err),
                     TIEBREAK_E_SYNTAX);
    ck_assert_int_eq(tiebreak_parse("BH/C", a, TB_MAX_SPECS, &na, err, sizeof err),
                     TIEBREAK_E_SYNTAX);
    ck_assert_int_eq(tiebreak_parse("BH,BH,BH", a, 2, &na, err, sizeof err), TIEBREAK_E_SYNTAX);
}
END_TEST

/* Values read from the FIDE Handbook B.02 tables 8.1.1 and 8.1.2. */
START_TEST(rating_tables)
{
    ck_assert_int_eq(tiebreak_dp(100), 800);
    ck_assert_int_eq(tiebreak_dp(99), 677);
    ck_assert_int_eq(tiebreak_dp(83), 273);
    ck_assert_int_eq(tiebreak_dp(64), 102);
    ck_assert_int_eq(tiebreak_dp(50), 0);
    ck_assert_int_eq(tiebreak_dp(36), -102);
    ck_assert_int_eq(tiebreak_dp(1), -677);
    ck_assert_int_eq(tiebreak_dp(0), -800);
    ck_assert_int_eq(tiebreak_expected(0), 50);
    ck_assert_int_eq(tiebreak_expected(3), 50);
    ck_assert_int_eq(tiebreak_expected(4), 51);
    ck_assert_int_eq(tiebreak_expected(98), 63);
    ck_assert_int_eq(tiebreak_expected(99), 64);
    ck_assert_int_eq(tiebreak_expected(-400), 8);
    ck_assert_int_eq(tiebreak_expected(735), 99);
    ck_assert_int_eq(tiebreak_expected(736), 100);
    ck_assert_int_eq(tiebreak_expected(-736), 0);
    /* The two tables are mirror images: dp(p) falls in the band of PD = p. */
    for (int p = 51; p <= 99; p++)
        ck_assert_int_eq(tiebreak_expected(tiebreak_dp(p)), p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tiebreak");
    TCase *tc = tcase_create("tiebreak");
    tcase_add_test(tc, fide_exercises_2023);
    tcase_add_test(tc, edition_2026_caps_the_dummy);
    tcase_add_test(tc, fore_modifier);
    tcase_add_test(tc, tiebreakserver_2023);
    tcase_add_test(tc, tiebreakserver_2026);
    tcase_add_test(tc, tiebreakserver_round_robin);
    tcase_add_test(tc, virtual_opponent_2009);
    tcase_add_test(tc, opponents_unplayed_as_draws_2009);
    tcase_add_test(tc, fore_buchholz_before_the_final_round);
    tcase_add_test(tc, ranking_with_forfeit_and_pab);
    tcase_add_test(tc, counts_follow_results);
    tcase_add_test(tc, direct_encounter);
    tcase_add_test(tc, parse_lists);
    tcase_add_test(tc, rating_tables);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
