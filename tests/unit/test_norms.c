/*
 * test_norms.c — FIDE title norms (B.01 1.4) at their thresholds: exactly
 * 9 games, exactly a 2380 average, exactly a third of GMs, exactly half
 * titled, the 3/5 and 2/3 federation limits, the rating floor, and what a
 * player needs in the last round.  Every expected figure was worked out by
 * hand from the regulation and table B.02 8.1(a), not taken from the code.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "norms.h"
#include "testutil.h"
#include "trf.h"

/*
 * The base opposition for a GM norm, 9 games: three GMs at 2500 (GER, ESP,
 * FRA), two FMs and four untitled players at 2320, five of them from the
 * player's BUL.  Sum 3 x 2500 + 6 x 2320 = 21420, average exactly 2380;
 * 7 points: p = .78, dp 220, Rp exactly 2600.
 */
static NormOpponent base[9];

static void setup(void)
{
    static const NormOpponent b[9] = {
        {2500, "GM", "GER"}, {2500, "GM", "ESP"}, {2500, "GM", "FRA"},
        {2320, "FM", "BUL"}, {2320, "FM", "BUL"}, {2320, "", "BUL"},
        {2320, "", "BUL"},   {2320, "", "BUL"},   {2320, "", "GER"},
    };
    memcpy(base, b, sizeof base);
}

static NormCheck gm(const NormOpponent *o, int n, int score)
{
    NormCheck c;
    norms_check(NORM_GM, o, n, score, "BUL", false, 0, 0, &c);
    return c;
}

/* B.01 1.4 GM: exactly 9 games, 2380, 1/3 GMs, 50% titled, 2600. */
START_TEST(b01_gm_norm_at_every_threshold)
{
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.average, 2380);
    ck_assert_int_eq(c.performance, 2600);
    ck_assert_int_eq(c.title_holders, 3);
    ck_assert_int_eq(c.titled, 5);
    ck_assert_int_eq(c.own_federation, 5);
    ck_assert_int_eq(c.federations, 3);
    ck_assert(c.norm);
}
END_TEST

/* One point less in the sum: 21419 / 9 = 2379.9 -> 2380 (half up) still;
 * 9 points less: 21411 / 9 = 2379 -> no GM norm (minimum average 2380). */
START_TEST(b01_gm_average_2380)
{
    base[8].rating = 2319;
    ck_assert(gm(base, 9, 70).norm);
    base[8].rating = 2311;
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.average, 2379);
    ck_assert(!c.ok_average);
    ck_assert(!c.norm);
}
END_TEST

/* 6.5 / 9 = .72, dp 166: 2546 < 2600. */
START_TEST(b01_gm_performance_2600)
{
    NormCheck c = gm(base, 9, 65);
    ck_assert_int_eq(c.performance, 2546);
    ck_assert(!c.ok_performance);
    ck_assert(!c.norm);
}
END_TEST

/* 8 games are one short of the 9 required. */
START_TEST(b01_minimum_9_games)
{
    NormCheck c = gm(base, 8, 70);
    ck_assert(!c.ok_games);
    ck_assert(!c.norm);
    /* min_games 7 for the events the regulation names. */
    norms_check(NORM_IM, base, 8, 60, "BUL", false, 7, 0, &c);
    ck_assert(c.ok_games);
}
END_TEST

/* Two GMs of nine is under a third. */
START_TEST(b01_one_third_gms)
{
    base[2].title = "IM";
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.title_holders, 2);
    ck_assert(!c.ok_title_holders);
    ck_assert(!c.norm);
    /* For an IM norm the GMs and the IM all count. */
    norms_check(NORM_IM, base, 9, 70, "BUL", false, 0, 0, &c);
    ck_assert_int_eq(c.title_holders, 3);
    ck_assert(c.ok_title_holders);
}
END_TEST

/* Ten games: a third is 4 (3.33 rounded up), so 3 GMs are not enough. */
START_TEST(b01_one_third_of_ten)
{
    NormOpponent o[10];
    memcpy(o, base, sizeof base);
    o[9] = (NormOpponent){2380, "GM", "ESP"};
    NormCheck c = gm(o, 10, 80);
    ck_assert(c.ok_title_holders);
    o[9].title = "IM";
    c = gm(o, 10, 80);
    ck_assert(!c.ok_title_holders);
}
END_TEST

/* 4 titled of 9 is under half (CM and WCM do not count). */
START_TEST(b01_half_titled)
{
    base[4].title = "CM";
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.titled, 4);
    ck_assert(!c.ok_titled);
    ck_assert(!c.norm);
}
END_TEST

/* 3/5 of 9 is 5.4: six from BUL is too many; 2/3 of 9 is 6 from one
 * federation; and two federations besides the player's are needed. */
START_TEST(b01_federation_limits)
{
    base[8].federation = "BUL";
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.own_federation, 6);
    ck_assert(!c.ok_federations);
    /* The same six, seen by a player of another federation: 6 <= 2/3 x 9. */
    norms_check(NORM_GM, base, 9, 70, "SRB", false, 0, 0, &c);
    ck_assert_int_eq(c.max_one_federation, 6);
    ck_assert(c.ok_federations);
    base[7].federation = "SRB";
    base[8].federation = "SRB";
    base[3].federation = "SRB";
    norms_check(NORM_GM, base, 9, 70, "SRB", false, 0, 0, &c);
    ck_assert(c.ok_federations);
    /* Only GER and ESP/FRA besides BUL: make every opponent GER or BUL. */
    setup();
    base[1].federation = "GER";
    base[2].federation = "GER";
    c = gm(base, 9, 70);
    ck_assert_int_eq(c.federations, 1);
    ck_assert(!c.ok_federations);
    /* National championship: federation rules waived. */
    norms_check(NORM_GM, base, 9, 70, "BUL", true, 0, 0, &c);
    ck_assert(c.ok_federations);
    ck_assert(c.norm);
}
END_TEST

/* B.01 1.4 rating floor: the one lowest opponent is raised (IM floor
 * 2050), a second one below the floor is not.  IM norm, 9 games:
 * 1900 -> 2050, 2000 stays; sum 7 x 2400 + 2050 + 2000 = 20850, Ra 2317. */
START_TEST(b01_rating_floor_lowest_only)
{
    NormOpponent o[9];
    for (int i = 0; i < 7; i++)
        o[i] = (NormOpponent){2400, i < 3 ? "IM" : "FM", i % 2 ? "GER" : "ESP"};
    o[7] = (NormOpponent){1900, "", "BUL"};
    o[8] = (NormOpponent){2000, "", "BUL"};
    NormCheck c;
    norms_check(NORM_IM, o, 9, 60, "BUL", false, 0, 0, &c);
    ck_assert_int_eq(c.raised_from, 1900);
    ck_assert_int_eq(c.average, 2317);
    /* 6 / 9 = .67, dp 125: 2442 < 2450. */
    ck_assert_int_eq(c.performance, 2442);
    ck_assert(!c.norm);
    norms_check(NORM_IM, o, 9, 65, "BUL", false, 0, 0, &c);
    ck_assert_int_eq(c.performance, 2483); /* .72 -> 166 */
    ck_assert(c.norm);
}
END_TEST

/* An unrated opponent counts 1400 (then raised as the lowest); two unrated
 * of nine is over 20%. */
START_TEST(b01_unrated_opponents)
{
    base[8] = (NormOpponent){0, "", "GER"};
    NormCheck c = gm(base, 9, 70);
    ck_assert_int_eq(c.unrated, 1);
    ck_assert_int_eq(c.raised_from, 1400);
    ck_assert(c.ok_unrated);
    base[7] = (NormOpponent){0, "", "BUL"};
    c = gm(base, 9, 70);
    ck_assert(!c.ok_unrated);
}
END_TEST

/* What the player needs: 6 of 8 against the first eight of the base
 * (19100 / 8 = 2387.5 -> 2388), one round left, the average assumed to
 * stay.  6 / 9 = .67 -> 2513; 6.5 / 9 = .72 -> 2554; 7 / 9 = .78 -> 2608:
 * a win.  For an IM norm 6 / 9 already gives 2513 >= 2450: any result. */
START_TEST(b01_need_in_last_round)
{
    NormCheck c;
    norms_check(NORM_GM, base, 8, 60, "BUL", false, 0, 1, &c);
    ck_assert(!c.norm);
    ck_assert_int_eq(c.need, 10);
    ck_assert(c.possible);
    norms_check(NORM_IM, base, 8, 60, "BUL", false, 0, 1, &c);
    ck_assert_int_eq(c.need, 0);
    /* 5 of 8: 6 / 9 at best, GM out of reach. */
    norms_check(NORM_GM, base, 8, 50, "BUL", false, 0, 1, &c);
    ck_assert_int_eq(c.need, -1);
    ck_assert(!c.possible);
}
END_TEST

START_TEST(b01_levels)
{
    ck_assert_int_eq(norms_level(NORM_GM)->performance, 2600);
    ck_assert_int_eq(norms_level(NORM_GM)->min_average, 2380);
    ck_assert_int_eq(norms_level(NORM_IM)->performance, 2450);
    ck_assert_int_eq(norms_level(NORM_IM)->min_average, 2230);
    ck_assert_int_eq(norms_level(NORM_WGM)->performance, 2400);
    ck_assert_int_eq(norms_level(NORM_WGM)->min_average, 2180);
    ck_assert_int_eq(norms_level(NORM_WIM)->performance, 2250);
    ck_assert_int_eq(norms_level(NORM_WIM)->min_average, 2030);
    ck_assert_str_eq(norms_title_code("wgm"), "WGM");
    ck_assert_str_eq(norms_title_code("xx"), "");
}
END_TEST

/* The Swiss exception needs 20 rated foreigners, 3 federations, 10 titled. */
START_TEST(b01_swiss_exception)
{
    Tournament *t = tournament_new();
    strcpy(t->federation, "BUL");
    static const char *const feds[] = {"GER", "ESP", "FRA"};
    for (int i = 1; i <= 20; i++) {
        TrnPlayer *p = tournament_add_player(t, i);
        p->rating = 2300;
        strcpy(p->federation, feds[i % 3]);
        strcpy(p->title, i <= 10 ? "IM" : "FM");
    }
    ck_assert(norms_swiss_exception(t));
    tournament_player_mut(t, 10)->title[0] = 0; /* 9 titled */
    ck_assert(!norms_swiss_exception(t));
    strcpy(tournament_player_mut(t, 10)->title, "WIM");
    tournament_player_mut(t, 20)->rating = 0; /* 19 rated */
    ck_assert(!norms_swiss_exception(t));
    tournament_free(t);
}
END_TEST

/*
 * B.01: games against opponents the player defeated may be disregarded if
 * the rest still meet every requirement.  Ten rounds: the base opposition
 * (draws against the GMs of rounds 1-2, a loss in round 3, wins in rounds
 * 4-9: 7 points) and a win in round 10 against an untitled 1800 of GER.
 * All ten: the 1800 is raised to the GM floor 2200, average
 * (21420 + 2200) / 10 = 2362 < 2380, and 3 GMs of 10 is under a third: no
 * norm.  Leaving out one of the wins against a 2320 still averages
 * (21420 - 2320 + 2200) / 9 = 2366.7; leaving out round 10 gives the base
 * nine games: exactly 2380 and 2600, a norm.
 */
START_TEST(b01_defeated_opponents_left_out)
{
    Tournament *t = tournament_new();
    t->rounds_played = 10;
    TrnPlayer *me = tournament_add_player(t, 1);
    strcpy(me->federation, "BUL");
    me->rating = 2450;
    me->rounds = 10;
    static const char res[10] = {'=', '=', '0', '1', '1', '1', '1', '1', '1', '1'};
    for (int r = 1; r <= 10; r++) {
        TrnPlayer *o = tournament_add_player(t, r + 1);
        const NormOpponent *b = r <= 9 ? &base[r - 1] : NULL;
        o->rating = b ? b->rating : 1800;
        strcpy(o->title, b ? b->title : "");
        strcpy(o->federation, b ? b->federation : "GER");
        me = tournament_player_mut(t, 1);
        me->games[r - 1] =
            (TrnGame){.opponent = (uint16_t)(r + 1), .colour = TRN_WHITE, .result = res[r - 1]};
    }
    NormOptions opt = {0};
    NormReport *rep;
    ck_assert_int_eq(norms_event(t, &opt, &rep), 0);
    ck_assert_int_eq(rep->rows[0].player, 1);
    const NormCheck *c = &rep->rows[0].checks[0];
    ck_assert_int_eq(c->title, NORM_GM);
    ck_assert(c->norm);
    ck_assert_int_eq(c->n_dropped, 1);
    ck_assert_int_eq(c->dropped[0], 10);
    ck_assert_int_eq(c->games, 9);
    ck_assert_int_eq(c->score, 70);
    ck_assert_int_eq(c->average, 2380);
    ck_assert_int_eq(c->performance, 2600);
    norms_report_free(rep);

    /* With a minimum of 10 games nothing may be left out: no norm. */
    opt.min_games = 10;
    ck_assert_int_eq(norms_event(t, &opt, &rep), 0);
    c = &rep->rows[0].checks[0];
    ck_assert(!c->norm);
    ck_assert_int_eq(c->n_dropped, 0);
    ck_assert_int_eq(c->games, 10);
    ck_assert_int_eq(c->average, 2362);
    norms_report_free(rep);
    tournament_free(t);
}
END_TEST

/* The example event (tests/data/rating/README): FM Stoyanov's IM norm. */
START_TEST(example_30_im_norm)
{
    Tournament *t = testutil_trf_load("rating", "example-30.trf", 0);
    NormOptions opt = {.swiss = true};
    NormReport *r;
    ck_assert_int_eq(norms_event(t, &opt, &r), 0);
    const NormRow *row = NULL;
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].player == 9)
            row = &r->rows[i];
    ck_assert_ptr_nonnull(row);
    ck_assert_int_eq(row->n_checks, 2); /* GM and IM; not a woman */
    const NormCheck *g = &row->checks[0], *im = &row->checks[1];
    ck_assert_int_eq(im->title, NORM_IM);
    ck_assert_int_eq(im->average, 2370);
    ck_assert_int_eq(im->performance, 2590);
    ck_assert_int_eq(im->titled, 7);
    ck_assert(im->norm);
    ck_assert_int_eq(g->average, 2387);
    ck_assert_int_eq(g->title_holders, 2);
    ck_assert(!g->norm);
    norms_report_free(r);

    opt.rounds = 8;
    ck_assert_int_eq(norms_event(t, &opt, &r), 0);
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].player == 9) {
            ck_assert_int_eq(r->rows[i].checks[1].remaining, 1);
            ck_assert_int_eq(r->rows[i].checks[1].need, 0);
        }
    norms_report_free(r);
    tournament_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("norms");
    TCase *tc = tcase_create("b01");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, b01_gm_norm_at_every_threshold);
    tcase_add_test(tc, b01_gm_average_2380);
    tcase_add_test(tc, b01_gm_performance_2600);
    tcase_add_test(tc, b01_minimum_9_games);
    tcase_add_test(tc, b01_one_third_gms);
    tcase_add_test(tc, b01_one_third_of_ten);
    tcase_add_test(tc, b01_half_titled);
    tcase_add_test(tc, b01_federation_limits);
    tcase_add_test(tc, b01_rating_floor_lowest_only);
    tcase_add_test(tc, b01_unrated_opponents);
    tcase_add_test(tc, b01_need_in_last_round);
    tcase_add_test(tc, b01_levels);
    tcase_add_test(tc, b01_swiss_exception);
    tcase_add_test(tc, b01_defeated_opponents_left_out);
    tcase_add_test(tc, example_30_im_norm);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
