/*
 * test_trf.c — the TRF reader and writer: every field of a hand-written
 * TRF-2026 file, files written by other programs (bbpPairings' generator,
 * JaVaFo's manual), read-write-read round trips in both flavours, CR / LF /
 * CRLF line ends, and rejections with their line and column.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swiss.h"
#include "trf.h"
#include "testutil.h"

START_TEST(trf2026_fields)
{
    Tournament *t = testutil_trf_load("trf", "valid-2026.trf", 0);
    ck_assert_str_eq(t->name, "Arbiter Test Open");
    ck_assert_str_eq(t->city, "Plovdiv");
    ck_assert_str_eq(t->start_date, "2026/03/01");
    ck_assert_int_eq(t->declared_players, 6);
    ck_assert_int_eq(t->declared_rated, 5);
    ck_assert_str_eq(t->chief_arbiter, "Ivanova, Maria");
    ck_assert_int_eq(t->n_round_dates, 3);
    ck_assert_str_eq(t->round_dates[2], "26/03/03");
    ck_assert_int_eq(t->n_rounds, 5);
    ck_assert_int_eq(t->initial_colour, TRN_WHITE);
    ck_assert_str_eq(t->system, "FIDE_DUTCH_2025");
    ck_assert_str_eq(t->tiebreaks, "BH/C1,BH,SB,DE");
    ck_assert_str_eq(t->encoded_tc, "5400+30");
    /* 162: W 3, D 1, L 0, A 0, P 3. */
    ck_assert(t->points_given);
    ck_assert_int_eq(t->points.win_black, 30);
    ck_assert_int_eq(t->points.forfeit_win, 30);
    ck_assert_int_eq(t->points.draw_white, 10);
    ck_assert_int_eq(t->points.hpb, 10);
    ck_assert_int_eq(t->points.pab, 30);
    ck_assert_int_eq(t->points.zpb, 0);
    ck_assert_int_eq(t->n_players, 6);
    ck_assert_int_eq(t->rounds_played, 3);

    const TrnPlayer *p = tournament_player(t, 2);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->name, "M\xc3\xbcller, J\xc3\xbcrgen");
    ck_assert_int_eq(p->sex, 'w');
    ck_assert_str_eq(p->title, "WIM");
    ck_assert_int_eq(p->rating, 2400);
    ck_assert_str_eq(p->federation, "GER");
    ck_assert_str_eq(p->fide_id, "7654321");
    ck_assert_str_eq(p->birth, "1995/05/05");
    ck_assert_int_eq(p->points, 70);
    ck_assert_int_eq(p->rank, 1);
    ck_assert_int_eq(p->games[1].opponent, 4);
    ck_assert_int_eq(p->games[1].colour, TRN_BLACK);
    ck_assert_int_eq(p->games[1].result, '1');
    ck_assert_int_eq(p->games[2].result, 'W');

    p = tournament_player(t, 4);
    ck_assert_int_eq(p->rating, 0);
    ck_assert_str_eq(p->birth, "2001");
    p = tournament_player(t, 1);
    ck_assert_int_eq(p->games[1].opponent, 0);
    ck_assert_int_eq(p->games[1].colour, TRN_COLOUR_NONE);
    ck_assert_int_eq(p->games[1].result, 'H');
    p = tournament_player(t, 6);
    ck_assert_int_eq(p->games[0].result, '-');
    ck_assert_int_eq(p->games[1].result, 'U');

    ck_assert_int_eq(t->n_byes, 2);
    ck_assert_int_eq(t->byes[1].type, 'H');
    ck_assert_int_eq(t->byes[1].round, 4);
    ck_assert_int_eq(t->byes[1].player, 5);
    ck_assert_int_eq(tournament_acceleration(t, 3, 4), 10);
    ck_assert_int_eq(tournament_acceleration(t, 3, 3), 0);
    ck_assert_int_eq(tournament_acceleration(t, 4, 5), 0);
    ck_assert(tournament_is_forbidden(t, 2, 1, 3));
    ck_assert(!tournament_is_forbidden(t, 2, 1, 6));
    ck_assert(!tournament_is_forbidden(t, 2, 3, 3));
    /* 112 and the ### comment are kept verbatim. */
    ck_assert_int_eq(t->n_other, 2);
    ck_assert_str_eq(t->other[0].text, "112 Petrov, Petar");
    ck_assert_str_eq(t->other[1].code, "###");
    tournament_free(t);
}
END_TEST

/* Everything the model holds except the source line numbers. */
static void assert_same(const Tournament *a, const Tournament *b, bool same_records)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_str_eq(a->city, b->city);
    ck_assert_str_eq(a->chief_arbiter, b->chief_arbiter);
    ck_assert_int_eq(a->n_round_dates, b->n_round_dates);
    for (int k = 0; k < a->n_round_dates; k++)
        ck_assert_str_eq(a->round_dates[k], b->round_dates[k]);
    ck_assert_int_eq(a->n_rounds, b->n_rounds);
    ck_assert_int_eq(a->initial_colour, b->initial_colour);
    ck_assert(memcmp(&a->points, &b->points, sizeof a->points) == 0);
    ck_assert_int_eq(a->n_players, b->n_players);
    ck_assert_int_eq(a->rounds_played, b->rounds_played);
    for (int i = 0; i < a->n_players; i++) {
        TrnPlayer x = a->players[i], y = b->players[i];
        x.line = y.line = 0;
        x.has_accel = y.has_accel = false;
        memset(x.accel, 0, sizeof x.accel);
        memset(y.accel, 0, sizeof y.accel);
        ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "player %d differs", x.id);
        for (int r = 1; r <= TRN_MAX_ROUNDS; r++)
            ck_assert_int_eq(tournament_acceleration(a, x.id, r),
                             tournament_acceleration(b, x.id, r));
    }
    if (!same_records)
        return;
    ck_assert_str_eq(a->system, b->system);
    ck_assert_str_eq(a->tiebreaks, b->tiebreaks);
    ck_assert_int_eq(a->n_byes, b->n_byes);
    for (int i = 0; i < a->n_byes; i++) {
        ck_assert_int_eq(a->byes[i].type, b->byes[i].type);
        ck_assert_int_eq(a->byes[i].round, b->byes[i].round);
        ck_assert_int_eq(a->byes[i].player, b->byes[i].player);
        ck_assert_int_eq(a->byes[i].xxz, b->byes[i].xxz);
    }
    ck_assert_int_eq(a->n_forbidden, b->n_forbidden);
    for (int i = 0; i < a->n_forbidden; i++) {
        ck_assert_int_eq(a->forbidden[i].first_round, b->forbidden[i].first_round);
        ck_assert_int_eq(a->forbidden[i].last_round, b->forbidden[i].last_round);
        ck_assert_int_eq(a->forbidden[i].n, b->forbidden[i].n);
    }
    ck_assert_int_eq(a->n_other, b->n_other);
    for (int i = 0; i < a->n_other; i++)
        ck_assert_str_eq(a->other[i].text, b->other[i].text);
}

static void round_trip(const char *name, TrfFlavour flavour, bool same_records)
{
    Tournament *a = testutil_trf_load("trf", name, 0);
    size_t len;
    char *out = trf_write(a, flavour, &len);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(strlen(out), len);
    /* FIDE: every line ends with CR, and only CR. */
    ck_assert_ptr_null(strchr(out, '\n'));
    ck_assert_int_eq(out[len - 1], '\r');
    Tournament *b = testutil_trf("TRF", out, len, 0);
    assert_same(a, b, same_records);
    /* Writing again gives the same bytes. */
    size_t len2;
    char *out2 = trf_write(b, flavour, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_msg(memcmp(out, out2, len) == 0, "%s: second write differs", name);
    free(out);
    free(out2);
    tournament_free(a);
    tournament_free(b);
}

START_TEST(round_trips)
{
    round_trip("valid-2026.trf", TRF_FLAVOUR_26, true);
    round_trip("valid-2026.trf", TRF_FLAVOUR_16, false);
    round_trip("bbp-issue_7.trf", TRF_FLAVOUR_16, true);
    round_trip("bbp-issue_7.trf", TRF_FLAVOUR_26, true);
    round_trip("javafo-sample2.trf", TRF_FLAVOUR_16, true);
    round_trip("javafo-sample2.trf", TRF_FLAVOUR_26, true);
}
END_TEST

/*
 * A TRF16 of an event with its own point system stays checkable by
 * bbpPairings (the spec's yardstick; VCL: "TRF16 export analysable by a
 * checker even with other point systems"): besides JaVaFo's XXS it carries
 * bbpPairings' BBW BBD BBL BBZ BBF BBU lines ("BBW pp.p", its README), which
 * bbpPairings reads while it ignores XXS.
 */
START_TEST(trf16_points_for_bbp)
{
    Tournament *t =
        testutil_trf_load("trf", "valid-2026.trf", 0); /* 162: W 3, D 1, L 0, A 0, P 3 */
    size_t len;
    char *out = trf_write(t, TRF_FLAVOUR_16, &len);
    static const char *const want[] = {"\rBBW  3.0\r", "\rBBD  1.0\r", "\rBBL  0.0\r",
                                       "\rBBZ  0.0\r", "\rBBF  0.0\r", "\rBBU  3.0\r"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]) != NULL, "no %s in\n%s", want[i] + 1, out);
    ck_assert_ptr_nonnull(strstr(out, "\rXXS "));
    free(out);
    tournament_free(t);
    /* The FIDE default needs none. */
    t = testutil_trf_load("trf", "bbp-issue_7.trf", 0);
    out = trf_write(t, TRF_FLAVOUR_16, &len);
    ck_assert_ptr_null(strstr(out, "\rBB"));
    free(out);
    tournament_free(t);
}
END_TEST

/* Splits text at CR / LF into a sorted array of non-empty lines. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **lines_of(char *text, int *n)
{
    char **v = malloc(4096 * sizeof *v);
    *n = 0;
    for (char *s = strtok(text, "\r\n"); s && *n < 4096; s = strtok(NULL, "\r\n")) {
        size_t l = strlen(s);
        while (l && s[l - 1] == ' ')
            s[--l] = '\0';
        if (l)
            v[(*n)++] = s;
    }
    qsort(v, (size_t)*n, sizeof *v, cmp_str);
    return v;
}

/*
 * bbpPairings wrote issue_7 itself: our TRF16 writer must produce the same
 * lines (the order of XXR among them aside).
 */
START_TEST(writer_matches_bbp_columns)
{
    size_t len;
    char *orig = testutil_load("trf", "bbp-issue_7.trf", &len);
    Tournament *t = testutil_trf("TRF", orig, len, 0);
    char *out = trf_write(t, TRF_FLAVOUR_16, NULL);
    int na, nb;
    char **a = lines_of(orig, &na), **b = lines_of(out, &nb);
    ck_assert_int_eq(na, nb);
    for (int i = 0; i < na; i++)
        ck_assert_str_eq(a[i], b[i]);
    free(a);
    free(b);
    free(out);
    free(orig);
    tournament_free(t);
}
END_TEST

START_TEST(line_endings)
{
    size_t len;
    char *cr = testutil_load("trf", "valid-2026.trf", &len);
    Tournament *ref = testutil_trf("TRF", cr, len, 0);
    char *lf = strdup(cr), *crlf = malloc(2 * len + 1);
    size_t m = 0;
    for (size_t i = 0; i < len; i++) {
        if (cr[i] == '\r') {
            lf[i] = '\n';
            crlf[m++] = '\r';
            crlf[m++] = '\n';
        } else {
            crlf[m++] = cr[i];
        }
    }
    Tournament *a = testutil_trf("TRF", lf, len, 0), *b = testutil_trf("TRF", crlf, m, 0);
    assert_same(ref, a, true);
    assert_same(ref, b, true);
    /* Line numbers count CRLF once. */
    ck_assert_int_eq(tournament_player(b, 1)->line, tournament_player(ref, 1)->line);
    /* No final line end at all is fine too. */
    Tournament *c = testutil_trf("TRF", cr, len - 1, 0);
    assert_same(ref, c, true);
    tournament_free(ref);
    tournament_free(a);
    tournament_free(b);
    tournament_free(c);
    free(cr);
    free(lf);
    free(crlf);
}
END_TEST

START_TEST(javafo_extensions)
{
    static const char text[] = "012 Ext\n"
                               "XXR 7\n"
                               "XXC rank black1\n"
                               "XXS W=3 D=1 PAB=2 WL=1\n"
                               "BBZ 0.5\n"
                               "001    1      A                                 2000               "
                               "              1.0    1     2 w 0\n"
                               "001    2      B                                 1900               "
                               "              3.0    2     1 b 1\n"
                               "001    3      C                                 1800               "
                               "              2.0    3  0000 - U\n"
                               "XXA    1  1.0  1.0\n"
                               "XXP 1 3\n"
                               "XXZ 2\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    ck_assert_int_eq(t->n_rounds, 7);
    ck_assert(t->pair_by_rank);
    ck_assert_int_eq(t->initial_colour, TRN_BLACK);
    ck_assert_int_eq(t->points.win_white, 30);
    ck_assert_int_eq(t->points.fpb, 30);
    ck_assert_int_eq(t->points.hpb, 10);
    ck_assert_int_eq(t->points.pab, 20);
    ck_assert_int_eq(t->points.loss_white, 10);
    ck_assert_int_eq(t->points.loss_black, 0);
    ck_assert_int_eq(t->points.zpb, 5);
    ck_assert_int_eq(tournament_acceleration(t, 1, 2), 10);
    ck_assert_int_eq(tournament_acceleration(t, 2, 2), 0);
    ck_assert(tournament_is_forbidden(t, 3, 1, 5));
    ck_assert_int_eq(t->n_byes, 1);
    ck_assert(t->byes[0].xxz);
    ck_assert_int_eq(t->byes[0].player, 2);
    tournament_free(t);
}
END_TEST

/*
 * Each side of a game carries its own score: both can lose (Laws 11.8) and
 * an arbiter's penalty can leave 1/2-0 (12.9), as the server stores and
 * reports them.  bbpPairings reads such files (it checks opponents, colours
 * and totals, not that the two results mirror each other); so must we, and
 * the file must write back the same.
 */
START_TEST(penalty_scores_read)
{
    static const char text[] = "012 Penalties\n"
                               "XXR 3\n"
                               "001    1      A                                 2000               "
                               "              0.5    1     2 w =     3 b 0\n"
                               "001    2      B                                 1900               "
                               "              1.0    2     1 b 0  0000 - F\n"
                               "001    3      C                                 1800               "
                               "              1.0    3  0000 - U     1 w 0\n"
                               "001    4      D                                 1700               "
                               "              0.5    4     5 w D\n"
                               "001    5      E                                 1600               "
                               "              0.0    5     4 b L\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    ck_assert_int_eq(tournament_player(t, 1)->games[0].result, '=');
    ck_assert_int_eq(tournament_player(t, 2)->games[0].result, '0');
    ck_assert_int_eq(tournament_player(t, 1)->games[1].result, '0');
    ck_assert_int_eq(tournament_player(t, 3)->games[1].result, '0');
    size_t len;
    char *out = trf_write(t, TRF_FLAVOUR_26, &len);
    Tournament *b = testutil_trf("TRF", out, len, 0);
    ck_assert_int_eq(tournament_player(b, 2)->points, 10);
    tournament_free(b);
    free(out);
    tournament_free(t);
}
END_TEST

typedef struct Bad {
    const char *text;
    int code, line, column;
    const char *words; /* must occur in the message */
} Bad;

#define P1                                                                                         \
    "001    1      A                                 2000                             1.0    1"
#define P2                                                                                         \
    "001    2      B                                 1900                             0.0    2"

START_TEST(rejections)
{
    static const Bad bad[] = {
        {"012 x\n", TRF_E_EMPTY, 0, 0, "no player"},
        {"012 x\nhello\n" P1 "\n", TRF_E_SYNTAX, 2, 4, "not a TRF record"},
        {"012 x\n#ab x\n" P1 "\n", TRF_E_SYNTAX, 2, 4, "not a TRF record"},
        {"012 x\n\xef\xbb\xbf ab\n" P1 "\n", TRF_E_SYNTAX, 2, 4, "not a TRF record"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n" P1 "\n", TRF_E_DUPLICATE, 3, 5, "line 1"},
        {P1 "     2 w 1\n" P2 "     1 w 0\n", TRF_E_OPPONENT, 1, 97, "both"},
        /* Each side keeps its own score (Laws 11.8, 12.9): a 1-1 is caught by
         * the totals, a game against a forfeit by the results. */
        {P1 "     2 w 1\n" P2 "     1 b 1\n", TRF_E_POINTS, 2, 81, "add up to 1.0"},
        {P1 "     2 w 1\n" P2 "     1 b -\n", TRF_E_OPPONENT, 1, 99, "does not match"},
        {P1 "     2 w 1\n" P2 "     1 b L\n", TRF_E_OPPONENT, 1, 99, "does not match"},
        {P1 "     3 w 1\n" P2 "     1 b 0\n", TRF_E_OPPONENT, 1, 92, "no player"},
        {P1 "     2 w 1\n" P2 "  0000 - Z\n", TRF_E_OPPONENT, 1, 92, "no opponent"},
        {P1 "     2 x 1\n" P2 "     1 b 0\n", TRF_E_SYNTAX, 1, 97, "colour"},
        {P1 "     2 w 7\n" P2 "     1 b 0\n", TRF_E_SYNTAX, 1, 99, "result"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n"
            "001    3      C                                 "
            "1800                             0.5    3  0000 - =\n",
         TRF_E_SYNTAX, 3, 99, "needs an opponent"},
        {P1 "     2 w 1\n" P2 "     1 b H\n", TRF_E_SYNTAX, 2, 99, "bye"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n"
            "001    3      C                                 "
            "1800                             0.5    3  0000 - H\n"
            "001     \n",
         TRF_E_SYNTAX, 4, 4, "ends before the start rank"},
        {"001    0      A\n", TRF_E_RANGE, 1, 5, "start rank missing"},
        {"001   1x      A\n", TRF_E_SYNTAX, 1, 5, "start rank"},
        {"001 12345\n", TRF_E_SYNTAX, 1, 9, "blank after the start rank"},
        {"001    1      A                                 2O00\n", TRF_E_SYNTAX, 1, 49, "rating"},
        {"001    1  XX  A\n", TRF_E_SYNTAX, 1, 11, "title"},
        {"001    1      A                                 2000                            1.0x\n",
         TRF_E_SYNTAX, 1, 81, "points"},
        {"001    1      A                                 2000                             1.0    "
         "1 2\n",
         TRF_E_SYNTAX, 1, 91, "blank"},
        {P1 "     2 w 1\n" P2 "     1 b =\n", TRF_E_POINTS, 2, 81, "add up to 0.5"},
        {"001    1      A                                 2000                             2.0    "
         "1     2 w 1\n" P2 "     1 b 0\n",
         TRF_E_POINTS, 1, 81, "add up to 1.0"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n162  W 1.0    Q 1.0\n", TRF_E_SYNTAX, 3, 15, "'Q'"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n142 0\n", TRF_E_RANGE, 3, 5, "rounds"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXR 100\n", TRF_E_RANGE, 3, 4, "rounds"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n152 X\n", TRF_E_SYNTAX, 3, 5, "initial colour"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n240 H 002    7\n", TRF_E_OPPONENT, 3, 11,
         "no player with start rank 7"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n240 Q 002    1\n", TRF_E_SYNTAX, 3, 5, "bye type"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n260 003 002    1    2\n", TRF_E_RANGE, 3, 9, "before"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXP 1 x\n", TRF_E_SYNTAX, 3, 7, "player id"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXS WW=1 ZZ=2\n", TRF_E_SYNTAX, 3, 10, "ZZ"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXC red1\n", TRF_E_SYNTAX, 3, 5, "red1"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n142 1\nXXR 1\n"
            "001    3      C                                 "
            "1800                             0.0    3  0000 - Z  0000 - Z\n",
         TRF_E_RANGE, 4, 4, "go to round 2"},
        {P1 "     2 w 1\n" P2 "     1 b 0\n250      0.5 002 001    1    2\n", TRF_E_RANGE, 3, 19,
         "before"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXA    1  1.x\n", TRF_E_SYNTAX, 3, 10, "fictitious"},
        /* values that a 162 line could not carry on export */
        {P1 "     2 w 1\n" P2 "     1 b 0\nXXS WW=100.5\n", TRF_E_SYNTAX, 3, 5, "0 to 99.9"},
        {P1 "     2 w 1\n" P2 "     1 b 0\nBBD 100.5\n", TRF_E_SYNTAX, 3, 5, "0 to 99.9"},
        /* totals that the 4-column points field could not carry on export */
        {"001    1      A                                 2000                                    "
         "1     2 w 1     2 b 1\n" P2 "     1 b 0     1 w 0\nXXS WW=60.5 BW=60\n",
         TRF_E_RANGE, 1, 81, "add up to 120.5"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Tournament *t = (Tournament *)1;
        TrfError e;
        int rc = trf_read(bad[i].text, strlen(bad[i].text), 0, &t, &e);
        ck_assert_msg(rc == bad[i].code, "case %zu: rc %d (want %d): line %d col %d %s", i, rc,
                      bad[i].code, e.line, e.column, e.message);
        ck_assert_ptr_null(t);
        ck_assert_msg(e.line == bad[i].line && e.column == bad[i].column,
                      "case %zu: at %d:%d, want %d:%d (%s)", i, e.line, e.column, bad[i].line,
                      bad[i].column, e.message);
        ck_assert_msg(strstr(e.message, bad[i].words), "case %zu: message '%s' lacks '%s'", i,
                      e.message, bad[i].words);
    }
}
END_TEST

/* Values of 100 points and more fit a 4-column field only without decimals. */
START_TEST(wide_values_still_fit)
{
    static const char text[] = "001    1      A                                 2000               "
                               "              100    1     2 w 1\n"
                               "001    2      B                                 1900               "
                               "              0.0    2     1 b 0\n"
                               "162  W 100    D 1.0\n"
                               "250      180 001 002    1    2\n";
    Tournament *t = testutil_trf("TRF", text, sizeof text - 1, 0);
    ck_assert_int_eq(tournament_player(t, 1)->points, 1000);
    for (int f = 16; f <= 26; f += 10) {
        size_t len;
        char *out = trf_write(t, (TrfFlavour)f, &len);
        Tournament *u = testutil_trf("TRF", out, len, 0);
        assert_same(t, u, false);
        ck_assert_int_eq(tournament_acceleration(u, 2, 2), 1800);
        tournament_free(u);
        free(out);
    }
    tournament_free(t);
}
END_TEST

/* A tournament built in memory (as the server will) writes a file that reads back. */
START_TEST(write_built_in_memory)
{
    Tournament *t = tournament_new();
    ck_assert_ptr_nonnull(t);
    snprintf(t->name, sizeof t->name, "Built");
    t->n_rounds = 3;
    t->initial_colour = TRN_WHITE;
    static const char *const names[] = {"Ivanov, Ivan", "Petrova, Elena", "Smith, John"};
    for (int id = 1; id <= 3; id++) {
        TrnPlayer *p = tournament_add_player(t, id);
        ck_assert_ptr_nonnull(p);
        snprintf(p->name, sizeof p->name, "%s", names[id - 1]);
        p->rating = 2000 - 100 * id;
    }
    ck_assert_ptr_null(tournament_add_player(t, 2)); /* taken */
    ck_assert_ptr_null(tournament_add_player(t, 0));
    ck_assert_ptr_null(tournament_add_player(t, TRN_MAX_PLAYERS + 1));
    /* Round 1: 1-2 1-0, 3 gets the PAB. */
    TrnPlayer *a = tournament_player_mut(t, 1), *b = tournament_player_mut(t, 2),
              *c = tournament_player_mut(t, 3);
    a->games[0] = (TrnGame){2, TRN_WHITE, TRN_RES_WIN};
    b->games[0] = (TrnGame){1, TRN_BLACK, TRN_RES_LOSS};
    c->games[0] = (TrnGame){0, TRN_COLOUR_NONE, TRN_RES_PAB};
    a->rounds = b->rounds = c->rounds = 1;
    t->rounds_played = 1;
    for (int i = 0; i < 3; i++)
        t->players[i].points = tournament_player_score(t, &t->players[i], 1);
    int ids[] = {1, 3};
    ck_assert_int_eq(tournament_add_forbidden(t, 2, 3, false, ids, 2), 0);
    size_t len;
    char *out = trf_write(t, TRF_FLAVOUR_26, &len);
    ck_assert_ptr_nonnull(strstr(out, "\r001    3      Smith, John                       1700"));
    ck_assert_ptr_nonnull(strstr(out, "  0000 - U\r"));
    ck_assert_ptr_nonnull(strstr(out, "260 002 003    1    3\r"));
    Tournament *u = testutil_trf("TRF", out, len, 0);
    assert_same(t, u, false);
    ck_assert(tournament_is_forbidden(u, 3, 1, 2));
    ck_assert(!tournament_is_forbidden(u, 3, 1, 1));
    free(out);
    tournament_free(u);
    tournament_free(t);
    tournament_free(NULL);
}
END_TEST

/* Characters of S (UTF-8 sequences count one). */
static int utf8_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

START_TEST(random_names_round_trip)
{
    /* Property: whatever names (long Spanish and Cyrillic ones, with
     * CR/LF/TAB inside), titles and federations a tournament holds, its TRF
     * is read back by the reader, every player's name is the first 33
     * characters of the original (cut on a character boundary, CR and LF
     * as blanks) and no line holds a second record. */
    static const char *const parts[] = {
        "Fernández",      "Núñez",          "García-Ordóñez", "de la Peña", "Íñigo",
        "Begoña",         "Muñoz",          "Жуковский",      "Щербаков",   "Александра",
        "Ёлкина",         "Константинович", "Чайковская",     "O'Neill",    "Smith",
        "\r012 Injected", "\n001 9999",     "Ølstad",         "Łukasz"};
    static const char *const titles[] = {"GM", "IM", "WGM", "", "FM"};
    static const char *const feds[] = {"ESP", "RUS", "BUL", "", "ГРЦ"};
    uint64_t seed = 0x2545F4914F6CDD1Du;
    for (int iter = 0; iter < 200; iter++) {
        Tournament *t = tournament_new();
        snprintf(t->name, sizeof t->name, "Open\r\n001 9999 injected");
        t->n_rounds = 1;
        int n = 2 + (int)(seed % 20);
        char want[32][TRN_NAME_MAX];
        for (int id = 1; id <= n; id++) {
            TrnPlayer *p = tournament_add_player(t, id);
            char name[TRN_NAME_MAX] = "";
            size_t len = 0;
            int words = 1 + (int)((seed >> 7) % 6);
            for (int w = 0; w < words; w++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                const char *part = parts[seed % (sizeof parts / sizeof parts[0])];
                if (len + strlen(part) + 3 >= sizeof name)
                    break;
                len += (size_t)snprintf(name + len, sizeof name - len, "%s%s",
                                        w == 0   ? ""
                                        : w == 1 ? ", "
                                                 : " ",
                                        part);
            }
            if (!name[0])
                snprintf(name, sizeof name, "Solo");
            snprintf(p->name, sizeof p->name, "%s", name);
            snprintf(p->title, sizeof p->title, "%s", titles[seed % 5]);
            snprintf(p->federation, sizeof p->federation, "%s", feds[(seed >> 3) % 5]);
            p->rating = 1000 + (int)(seed % 1800);
            /* What the reader should give back: 33 characters, CR and LF
             * as blanks, trailing blanks dropped. */
            char *o = want[id - 1];
            size_t k = 0;
            int chars = 0;
            for (const char *q = name; *q; q++) {
                if (((unsigned char)*q & 0xC0) != 0x80 && ++chars > 33)
                    break;
                o[k++] = *q == '\r' || *q == '\n' ? ' ' : *q;
            }
            while (k > 0 && o[k - 1] == ' ')
                k--;
            o[k] = 0;
            /* A leading blank is not part of the name either. */
            size_t lead = strspn(o, " ");
            memmove(o, o + lead, strlen(o + lead) + 1);
        }
        size_t len;
        char *out = trf_write(t, TRF_FLAVOUR_26, &len);
        ck_assert_ptr_nonnull(out);
        Tournament *u = NULL;
        TrfError e;
        int rc = trf_read(out, len, 0, &u, &e);
        ck_assert_msg(rc == 0, "iteration %d: the writer's own TRF was refused: %s\n%s", iter,
                      e.message, out);
        ck_assert_int_eq(u->n_players, n);
        for (int id = 1; id <= n; id++) {
            const TrnPlayer *p = tournament_player(u, id);
            ck_assert_ptr_nonnull(p);
            ck_assert_int_le(utf8_chars(p->name), 33);
            ck_assert_str_eq(p->name, want[id - 1]);
        }
        ck_assert_ptr_null(strstr(out, "\r001 9999"));
        free(out);
        tournament_free(u);
        tournament_free(t);
    }
}
END_TEST

START_TEST(points_check_can_be_relaxed)
{
    static const char text[] = "001    1      A                                 2000               "
                               "              2.0    1     2 w 1\n" P2 "     1 b 0\n";
    Tournament *t;
    TrfError e;
    ck_assert_int_eq(trf_read(text, sizeof text - 1, TRF_READ_NO_POINTS_CHECK, &t, &e), 0);
    ck_assert_int_eq(tournament_player(t, 1)->points, 20);
    tournament_free(t);
}
END_TEST

START_TEST(garbage_never_crashes)
{
    /* Random bytes and truncations of a valid file: always a clean answer. */
    size_t len;
    char *text = testutil_load("trf", "valid-2026.trf", &len);
    unsigned seed = 12345;
    char *buf = malloc(len);
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(buf, text, len);
        size_t n = len;
        if (iter % 3 == 0) {
            n = (size_t)(iter * 7919u) % len;
        } else {
            for (int k = 0; k < 1 + iter % 5; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % len;
                seed = seed * 1103515245u + 12345u;
                buf[at] = (char)(seed >> 16);
            }
        }
        Tournament *t;
        TrfError e;
        int rc = trf_read(buf, n, 0, &t, &e);
        if (rc == 0) {
            char *out = trf_write(t, TRF_FLAVOUR_26, NULL);
            ck_assert_ptr_nonnull(out);
            free(out);
            tournament_free(t);
        } else {
            ck_assert_int_gt(rc, 0);
            ck_assert_ptr_null(t);
            ck_assert(e.message[0]);
        }
    }
    free(buf);
    free(text);
}
END_TEST

/* The 192 codes of the Swiss systems the engines pair, as TRF-2026's
 * tournament type code table (C.02.03 Annex C) spells them: the Dutch by
 * edition, FIDE_DUTCH_2026 for the rules in force from 1 February 2026 and
 * FIDE_DUTCH_2017 for the ones before, bare FIDE_DUTCH for the edition of
 * the event's date, each with _BAKU for Baku acceleration (C.04.7), and
 * FIDE_BURSTEIN[_BAKU].  The report writes FIDE_DUTCH_2026; the draft
 * table's FIDE_DUTCH_2025, which bbpPairings v6 reads and writes, is still
 * read.  Other systems and free text are not Swiss codes of ours. */
START_TEST(swiss_codes_192)
{
    static const struct {
        const char *code;
        SwissSystem system;
        int baku;
    } READ[] = {
        {"FIDE_DUTCH_2026", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2026_BAKU", SWISS_DUTCH, 1},
        {"FIDE_DUTCH", SWISS_DUTCH, 0},       {"FIDE_DUTCH_BAKU", SWISS_DUTCH, 1},
        {"FIDE_DUTCH_2017", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2017_BAKU", SWISS_DUTCH, 1},
        {"FIDE_DUTCH_2025", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2025_BAKU", SWISS_DUTCH, 1},
        {"FIDE_BURSTEIN", SWISS_BURSTEIN, 0}, {"FIDE_BURSTEIN_BAKU", SWISS_BURSTEIN, 1},
    };
    Tournament *t = testutil_trf_load("dutch/corpus", "seed0001.trf", 0);
    for (size_t i = 0; i < sizeof READ / sizeof READ[0]; i++) {
        SwissSystem sys = (SwissSystem)-1;
        int baku = -1;
        ck_assert_msg(swiss_code_read(READ[i].code, &sys, &baku), "%s", READ[i].code);
        ck_assert_int_eq(sys, READ[i].system);
        ck_assert_int_eq(baku, READ[i].baku);
        /* the engines read the same code for their acceleration */
        snprintf(t->system, sizeof t->system, "%s", READ[i].code);
        SwissRound sr;
        char err[200] = "";
        ck_assert_int_eq(swiss_round_setup(&sr, t, 2, READ[i].system, NULL, err, sizeof err), 0);
        ck_assert_msg(!sr.baku == !READ[i].baku, "%s", READ[i].code);
        swiss_round_free(&sr);
    }
    static const char *const OTHERS[] = {
        "FIDE_DUBOV",        "FIDE_ROUNDROBIN", "FIDE_DOUBLEROUNDROBIN",
        "BERGER_ROUNDROBIN", "CUSTOM_SWISS",    "fide_dutch_2026",
        "FIDE_DUTCH_2026 ",  "Swiss system",    ""};
    for (size_t i = 0; i < sizeof OTHERS / sizeof OTHERS[0]; i++) {
        SwissSystem sys;
        int baku;
        ck_assert_msg(!swiss_code_read(OTHERS[i], &sys, &baku), "'%s'", OTHERS[i]);
    }
    ck_assert_str_eq(swiss_code_name(SWISS_DUTCH, 0), "FIDE_DUTCH_2026");
    ck_assert_str_eq(swiss_code_name(SWISS_DUTCH, 1), "FIDE_DUTCH_2026_BAKU");
    ck_assert_str_eq(swiss_code_name(SWISS_BURSTEIN, 0), "FIDE_BURSTEIN");
    ck_assert_str_eq(swiss_code_name(SWISS_BURSTEIN, 1), "FIDE_BURSTEIN_BAKU");
    /* the TRF-2026 report carries the code on its 192 line, read back alike */
    snprintf(t->system, sizeof t->system, "%s", swiss_code_name(SWISS_DUTCH, 1));
    size_t len = 0;
    char *text = trf_write(t, TRF_FLAVOUR_26, &len);
    ck_assert_ptr_nonnull(strstr(text, "\r192 FIDE_DUTCH_2026_BAKU\r"));
    Tournament *back = NULL;
    TrfError e;
    ck_assert_int_eq(trf_read(text, len, 0, &back, &e), 0);
    ck_assert_str_eq(back->system, "FIDE_DUTCH_2026_BAKU");
    free(text);
    tournament_free(back);
    tournament_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trf");
    TCase *tc = tcase_create("trf");
    tcase_add_test(tc, trf2026_fields);
    tcase_add_test(tc, round_trips);
    tcase_add_test(tc, trf16_points_for_bbp);
    tcase_add_test(tc, writer_matches_bbp_columns);
    tcase_add_test(tc, line_endings);
    tcase_add_test(tc, javafo_extensions);
    tcase_add_test(tc, penalty_scores_read);
    tcase_add_test(tc, rejections);
    tcase_add_test(tc, wide_values_still_fit);
    tcase_add_test(tc, write_built_in_memory);
    tcase_add_test(tc, random_names_round_trip);
    tcase_add_test(tc, points_check_can_be_relaxed);
    tcase_add_test(tc, garbage_never_crashes);
    tcase_add_test(tc, swiss_codes_192);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
