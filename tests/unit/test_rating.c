/*
 * test_rating.c — FIDE rating changes (B.02, edition of 1 March 2024)
 * against the regulation's own tables and hand-worked cases: every expected
 * value below was read from table 8.1(a)/(b) or worked out on paper (the
 * 30-player example in tests/data/rating/README), not taken from the code.
 */
#include <check.h>
#include <stdlib.h>

#include "rating.h"
#include "testutil.h"
#include "trf.h"

/* B.02 8.1(a): p -> dp, read from the published table. */
START_TEST(b02_8_1a_dp_table)
{
    ck_assert_int_eq(rating_dp(100), 800);
    ck_assert_int_eq(rating_dp(99), 677);
    ck_assert_int_eq(rating_dp(78), 220);
    ck_assert_int_eq(rating_dp(69), 141);
    ck_assert_int_eq(rating_dp(50), 0);
    ck_assert_int_eq(rating_dp(31), -141);
    ck_assert_int_eq(rating_dp(0), -800);
}
END_TEST

/* B.02 8.1(b): D -> PD at the edges of the published bands. */
START_TEST(b02_8_1b_expected_bands)
{
    ck_assert_int_eq(rating_expected(2000, 2000), 50);
    ck_assert_int_eq(rating_expected(2003, 2000), 50); /* 0-3 */
    ck_assert_int_eq(rating_expected(2004, 2000), 51); /* 4-10 */
    ck_assert_int_eq(rating_expected(2100, 2000), 64); /* 99-106 */
    ck_assert_int_eq(rating_expected(2000, 2100), 36); /* the lower-rated side: 1 - .64 */
    ck_assert_int_eq(rating_expected(2391, 2000), 91); /* 375-391 */
    ck_assert_int_eq(rating_expected(2392, 2000), 92); /* 392-411 */
}
END_TEST

/* B.02 8.3.1 (2024): a difference over 400 counts as 400, in every game. */
START_TEST(b02_8_3_1_400_point_rule)
{
    ck_assert_int_eq(rating_expected(2400, 2000), 92);
    ck_assert_int_eq(rating_expected(2401, 2000), 92);
    ck_assert_int_eq(rating_expected(2600, 1650), 92); /* 950 -> 400, not .99 */
    ck_assert_int_eq(rating_expected(1650, 2600), 8);
}
END_TEST

/* B.02 8.3.3: K by rating, age and kind of play, at the thresholds. */
START_TEST(b02_8_3_3_k_factor)
{
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2400, 30, false, false), 10);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2399, 30, false, false), 20);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2350, 30, false, true), 10);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2299, 18, false, false), 40);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2300, 18, false, false), 20);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 2299, 19, false, false), 20);
    ck_assert_int_eq(rating_k_default(RATING_STANDARD, 1900, 40, true, false), 40);
    ck_assert_int_eq(rating_k_default(RATING_RAPID, 2500, 15, false, true), 20);
    ck_assert_int_eq(rating_k_default(RATING_BLITZ, 1500, 12, true, false), 20);
    /* K x n <= 700. */
    ck_assert_int_eq(rating_k_limit(40, 17), 40); /* 680 */
    ck_assert_int_eq(rating_k_limit(40, 18), 38); /* 720 -> 38 x 18 = 684 */
    ck_assert_int_eq(rating_k_limit(20, 35), 20); /* 700 exactly */
    ck_assert_int_eq(rating_k_limit(20, 36), 19);
}
END_TEST

/* B.02 8.3: one game, K 20, 2000 beats 1900: 20 x (1 - .64) = +7.2. */
static Tournament *two_players(int ra, int rb, char result)
{
    Tournament *t = tournament_new();
    ck_assert_ptr_nonnull(t);
    TrnPlayer *a = tournament_add_player(t, 1);
    a->rating = ra;
    a->rounds = 1;
    a->games[0] = (TrnGame){2, TRN_WHITE, result};
    TrnPlayer *b = tournament_add_player(t, 2);
    b->rating = rb;
    b->rounds = 1;
    char inv = result == '1' ? '0' : result == '0' ? '1' : result == '+' ? '-' : result;
    b->games[0] = (TrnGame){1, TRN_BLACK, inv};
    t->rounds_played = 1;
    return t;
}

START_TEST(b02_8_3_single_game)
{
    Tournament *t = two_players(2000, 1900, '1');
    RatingOptions opt = {.force_k = 20};
    RatingReport *r;
    ck_assert_int_eq(rating_event(t, &opt, &r), 0);
    ck_assert_int_eq(r->rows[0].expected, 64);
    ck_assert_int_eq(r->rows[0].change, 720);
    ck_assert_int_eq(r->rows[1].expected, 36);
    ck_assert_int_eq(r->rows[1].change, -720);
    rating_report_free(r);
    tournament_free(t);
}
END_TEST

/* B.02 rated games: a forfeit changes nobody's rating. */
START_TEST(b02_forfeit_not_rated)
{
    Tournament *t = two_players(2000, 1900, '+');
    RatingOptions opt = {0};
    RatingReport *r;
    ck_assert_int_eq(rating_event(t, &opt, &r), 0);
    ck_assert_int_eq(r->rows[0].rated_games, 0);
    ck_assert_int_eq(r->rows[0].change, 0);
    rating_report_free(r);
    tournament_free(t);
}
END_TEST

/* A rated player's game against an unrated opponent is not rated. */
START_TEST(b02_unrated_opponent_not_rated)
{
    Tournament *t = two_players(2000, 0, '0');
    RatingOptions opt = {0};
    RatingReport *r;
    ck_assert_int_eq(rating_event(t, &opt, &r), 0);
    ck_assert_int_eq(r->rows[0].rated_games, 0);
    ck_assert_int_eq(r->rows[0].change, 0);
    ck_assert_int_eq(r->rows[1].rated_games, 1); /* counts for the unrated one */
    ck_assert_int_eq(r->rows[1].initial, RATING_INITIAL_FEW_GAMES);
    rating_report_free(r);
    tournament_free(t);
}
END_TEST

/* B.02 7.1 (2024): Ra + dp with two hypothetical 1800 draws. */
START_TEST(b02_7_1_initial_rating)
{
    int ra, p, ru;
    /* 6 games, opponents summing 10400, 1.5 points (the README's player 29). */
    ck_assert_int_eq(rating_initial(6, 10400, 150, &ra, &p, &ru), RATING_INITIAL_OK);
    ck_assert_int_eq(ra, 1750);
    ck_assert_int_eq(p, 31);
    ck_assert_int_eq(ru, 1609);
    /* Exactly 5 games is enough, 4 is not. */
    ck_assert_int_eq(rating_initial(5, 5 * 1800, 250, &ra, &p, &ru), RATING_INITIAL_OK);
    ck_assert_int_eq(ru, 1800); /* 3.5 / 7 = .50 against 1800 */
    ck_assert_int_eq(rating_initial(4, 4 * 1800, 200, &ra, &p, &ru), RATING_INITIAL_FEW_GAMES);
    /* 7.1.1: a zero score is disregarded. */
    ck_assert_int_eq(rating_initial(5, 5 * 2000, 0, &ra, &p, &ru), RATING_INITIAL_ZERO);
}
END_TEST

/* The 1400 floor: exactly 1400 is published, 1399 is not.  5 games, half a
 * point: p = 1.5 / 7 = .21, dp -230; Ra 1630 needs 7 x 1630 - 3600 = 7810. */
START_TEST(b02_initial_floor_1400)
{
    int ra, p, ru;
    ck_assert_int_eq(rating_initial(5, 7810, 50, &ra, &p, &ru), RATING_INITIAL_OK);
    ck_assert_int_eq(ra, 1630);
    ck_assert_int_eq(p, 21);
    ck_assert_int_eq(ru, 1400);
    ck_assert_int_eq(rating_initial(5, 7803, 50, &ra, &p, &ru), RATING_INITIAL_BELOW_FLOOR);
    ck_assert_int_eq(ru, 1399);
}
END_TEST

START_TEST(kind_from_time_control)
{
    ck_assert_int_eq(rating_kind_for_control("5400+30"), RATING_STANDARD);
    ck_assert_int_eq(rating_kind_for_control("900+10"), RATING_RAPID);
    ck_assert_int_eq(rating_kind_for_control("180+2"), RATING_BLITZ);
    ck_assert_int_eq(rating_kind_for_control("600"), RATING_BLITZ);
    /* A.1: the second period counts when reached within 60 moves; the
     * first period alone (90 min) already makes it standard. */
    ck_assert_int_eq(rating_kind_for_control("40/5400+30:1800+30"), RATING_STANDARD);
    ck_assert_int_eq(rating_kind_for_control("40/1200+10:600+10"), RATING_RAPID);
    ck_assert_int_eq(rating_kind_for_control(""), RATING_STANDARD);
}
END_TEST

static const RatingRow *row_of(const RatingReport *r, int id)
{
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].player == id)
            return &r->rows[i];
    ck_abort_msg("no player %d", id);
    return NULL;
}

/* The 30-player example, players worked by hand in tests/data/rating/README. */
START_TEST(example_30_by_hand)
{
    Tournament *t = testutil_trf_load("rating", "example-30.trf", 0);
    RatingOptions opt = {.kind = RATING_STANDARD};
    RatingReport *r;
    ck_assert_int_eq(rating_event(t, &opt, &r), 0);
    ck_assert_int_eq(r->n_rows, 30);

    const RatingRow *p1 = row_of(r, 1);
    ck_assert_int_eq(p1->k, 10);
    ck_assert_int_eq(p1->rated_games, 9);
    ck_assert_int_eq(p1->score, 650);
    ck_assert_int_eq(p1->expected, 668);
    ck_assert_int_eq(p1->change, -180);
    ck_assert_int_eq(p1->games[0].expected, 92); /* 400-point rule */

    const RatingRow *p21 = row_of(r, 21);
    ck_assert_int_eq(p21->k, 40);
    ck_assert_int_eq(p21->rated_games, 8);
    ck_assert_int_eq(p21->expected, 372);
    ck_assert_int_eq(p21->change, -4880);

    const RatingRow *p29 = row_of(r, 29);
    ck_assert_int_eq(p29->initial, RATING_INITIAL_OK);
    ck_assert_int_eq(p29->rated_games, 6);
    ck_assert_int_eq(p29->initial_rating, 1609);
    ck_assert_int_eq(row_of(r, 30)->initial, RATING_INITIAL_FEW_GAMES);

    /* --k 20 for everybody. */
    rating_report_free(r);
    opt.force_k = 20;
    ck_assert_int_eq(rating_event(t, &opt, &r), 0);
    ck_assert_int_eq(row_of(r, 1)->change, -360);
    rating_report_free(r);
    tournament_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rating");
    TCase *tc = tcase_create("b02");
    tcase_add_test(tc, b02_8_1a_dp_table);
    tcase_add_test(tc, b02_8_1b_expected_bands);
    tcase_add_test(tc, b02_8_3_1_400_point_rule);
    tcase_add_test(tc, b02_8_3_3_k_factor);
    tcase_add_test(tc, b02_8_3_single_game);
    tcase_add_test(tc, b02_forfeit_not_rated);
    tcase_add_test(tc, b02_unrated_opponent_not_rated);
    tcase_add_test(tc, b02_7_1_initial_rating);
    tcase_add_test(tc, b02_initial_floor_1400);
    tcase_add_test(tc, kind_from_time_control);
    tcase_add_test(tc, example_30_by_hand);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
