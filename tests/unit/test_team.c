/*
 * test_team.c — the team event model and the team standings: settings
 * defaults, rosters, board colours by scheme, match scores (boards,
 * forfeits of a board and of a match, byes), the initial ranking order,
 * the C.07 team tie-breaks on a small hand-computed event, individual
 * results and board prizes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"
#include "team_standings.h"
#include "team_trf.h"
#include "testutil.h"

/* n teams of `boards` boards plus one reserve; ratings from `base` down. */
static TeamEvent *small_event(int n, int boards, int base)
{
    TeamSettings s;
    team_settings_default(&s, boards);
    TeamEvent *ev = team_event_new(&s);
    ck_assert_ptr_nonnull(ev);
    int pid = 1;
    for (int t = 1; t <= n; t++) {
        char name[16] = "Team X";
        name[5] = (char)('A' + t - 1);
        ck_assert_ptr_nonnull(team_event_add_team(ev, name));
        for (int k = 0; k <= boards; k++) {
            TeamPlayer *p = team_event_add_player(ev, t, pid++);
            ck_assert_ptr_nonnull(p);
            p->rating = base - 100 * t - 10 * k;
        }
    }
    return ev;
}

/* Sets the board results of m from a string of team_a's results ("1=0+"). */
static void set_results(TeamMatch *m, const char *res)
{
    for (int k = 0; res[k]; k++) {
        char a = res[k];
        m->board[k].result_a = a;
        m->board[k].result_b = a == '1'   ? '0'
                               : a == '0' ? '1'
                               : a == '+' ? '-'
                               : a == '-' ? '+'
                                          : a;
    }
}

START_TEST(defaults)
{
    TeamSettings s;
    team_settings_default(&s, 4);
    ck_assert_int_eq(s.mp_win, 20);
    ck_assert_int_eq(s.mp_draw, 10);
    ck_assert_int_eq(s.mp_loss, 0);
    ck_assert_int_eq(s.pab_mp, 10); /* C.04.6 Art. 1.4: a drawn match */
    ck_assert_int_eq(s.pab_gp, 20);
    team_settings_default(&s, 5);
    ck_assert_int_eq(s.pab_gp, 25);
    team_settings_default(&s, 40);
    ck_assert_int_eq(s.boards, TEAM_MAX_BOARDS);
}
END_TEST

START_TEST(rosters_and_ids)
{
    TeamEvent *ev = small_event(2, 4, 2500);
    ck_assert_int_eq(ev->n_teams, 2);
    ck_assert_int_eq(team_event_team(ev, 2)->n_roster, 5);
    ck_assert_int_eq(team_event_player(ev, 7)->team, 2);
    ck_assert_ptr_null(team_event_add_player(ev, 1, 7));  /* id taken */
    ck_assert_ptr_null(team_event_add_player(ev, 3, 99)); /* no team 3 */
    ck_assert_ptr_null(team_event_team(ev, 0));
    team_event_free(ev);
    team_event_free(NULL);
}
END_TEST

START_TEST(board_colours)
{
    TeamSettings s;
    team_settings_default(&s, 4);
    /* Default: the first-named team White on odd boards. */
    ck_assert_int_eq(team_board_colour(&s, TRN_WHITE, 1), TRN_WHITE);
    ck_assert_int_eq(team_board_colour(&s, TRN_WHITE, 2), TRN_BLACK);
    ck_assert_int_eq(team_board_colour(&s, TRN_BLACK, 3), TRN_BLACK);
    ck_assert_int_eq(team_board_colour(&s, TRN_BLACK, 4), TRN_WHITE);
    s.scheme = TEAM_BOARDS_PATTERN;
    strcpy(s.board_pattern, "WWBB");
    ck_assert_int_eq(team_board_colour(&s, TRN_WHITE, 2), TRN_WHITE);
    ck_assert_int_eq(team_board_colour(&s, TRN_WHITE, 3), TRN_BLACK);
    ck_assert_int_eq(team_board_colour(&s, TRN_BLACK, 2), TRN_BLACK);
    ck_assert_int_eq(team_board_colour(&s, TRN_WHITE, 0), TRN_COLOUR_NONE);
}
END_TEST

START_TEST(match_scores)
{
    TeamEvent *ev = small_event(3, 4, 2500);
    ck_assert_ptr_nonnull(team_event_add_round(ev));
    TeamMatch *m = team_event_add_match(ev, 1, 1, 2, TRN_WHITE);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->board[0].player_a, 1);
    ck_assert_int_eq(m->board[3].player_b, 9);
    ck_assert_int_eq(m->board[1].colour_a, TRN_BLACK);
    ck_assert_ptr_null(team_event_add_match(ev, 1, 2, 3, TRN_WHITE)); /* 2 already plays */
    TeamMatchScore sc;
    team_match_score(&ev->settings, m, &sc);
    ck_assert(!sc.complete);
    set_results(m, "1=0+"); /* 1 + 0.5 + 0 + 1 (forfeit) = 2.5 : 1.5 */
    team_match_score(&ev->settings, m, &sc);
    ck_assert(sc.complete);
    ck_assert_int_eq(sc.gp_a, 25);
    ck_assert_int_eq(sc.gp_b, 15);
    ck_assert_int_eq(sc.mp_a, 20);
    ck_assert_int_eq(sc.mp_b, 0);
    set_results(m, "1=0=");
    team_match_score(&ev->settings, m, &sc);
    ck_assert_int_eq(sc.mp_a, 10);
    ck_assert_int_eq(sc.mp_b, 10);
    /* A double forfeit on a board scores nothing for either side. */
    m->board[3].result_a = m->board[3].result_b = TRN_RES_FORFEIT_LOSS;
    team_match_score(&ev->settings, m, &sc);
    ck_assert_int_eq(sc.gp_a, 15);
    ck_assert_int_eq(sc.gp_b, 15);
    /* Whole-match forfeit: all boards and a win to the side present. */
    m->forfeit = TEAM_FORFEIT_A;
    team_match_score(&ev->settings, m, &sc);
    ck_assert_int_eq(sc.gp_b, 40);
    ck_assert_int_eq(sc.mp_b, 20);
    ck_assert_int_eq(sc.mp_a, 0);
    m->forfeit = TEAM_FORFEIT_BOTH;
    team_match_score(&ev->settings, m, &sc);
    ck_assert_int_eq(sc.gp_a + sc.gp_b + sc.mp_a + sc.mp_b, 0);
    /* Byes. */
    TeamMatch *b = team_event_add_bye(ev, 1, 3, TRN_RES_PAB);
    ck_assert_ptr_nonnull(b);
    team_match_score(&ev->settings, b, &sc);
    ck_assert_int_eq(sc.mp_a, 10);
    ck_assert_int_eq(sc.gp_a, 20);
    b->bye = TRN_RES_FPB;
    team_match_score(&ev->settings, b, &sc);
    ck_assert_int_eq(sc.mp_a, 20); /* a full-point bye: a won match */
    ck_assert_int_eq(sc.gp_a, 40);
    b->bye = TRN_RES_HPB;
    team_match_score(&ev->settings, b, &sc);
    ck_assert_int_eq(sc.mp_a, 10);
    ck_assert_int_eq(sc.gp_a, 20);
    b->bye = TRN_RES_ZPB;
    team_match_score(&ev->settings, b, &sc);
    ck_assert_int_eq(sc.mp_a + sc.gp_a, 0);
    ck_assert_ptr_null(team_event_add_bye(ev, 1, 3, 'X'));
    team_event_free(ev);
}
END_TEST

START_TEST(rank_order)
{
    TeamSettings s;
    team_settings_default(&s, 2);
    TeamEvent *ev = team_event_new(&s);
    const int ratings[4][3] = {{2400, 2000, 2700}, /* top 2: 2550 */
                               {2600, 2500, 0},    /* 2550, whole roster lower */
                               {2300, 2300, 2300}, /* 2300 */
                               {2550, 2550, 2550}};
    const char *names[4] = {"B", "A", "C", "D"};
    int pid = 1;
    for (int t = 0; t < 4; t++) {
        team_event_add_team(ev, names[t]);
        for (int k = 0; k < 3; k++)
            team_event_add_player(ev, t + 1, pid++)->rating = ratings[t][k];
    }
    ck_assert_int_eq(team_rating_average(ev, 1, 2), 2550);
    ck_assert_int_eq(team_rating_average(ev, 2, 3), 1700);
    int order[4];
    team_event_rank_order(ev, order);
    /* 2550 x3; then the roster average: D 2550, B 2367, A 1700; then C. */
    ck_assert_int_eq(order[0], 4);
    ck_assert_int_eq(order[1], 1);
    ck_assert_int_eq(order[2], 2);
    ck_assert_int_eq(order[3], 3);
    team_event_free(ev);
}
END_TEST

/*
 * Four teams, two boards, two rounds (2/1/0 match points):
 *   R1: A-B 2:0, C-D 1:1      R2: A-C 1.5:0.5, B-D 0.5:1.5
 * Final: A 4 MP 3.5 GP; D 3 MP 2.5; C 1 MP 1.5; B 0 MP 0.5.
 */
static TeamEvent *four_teams(void)
{
    TeamEvent *ev = small_event(4, 2, 2600);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 1, 1, 2, TRN_WHITE), "11");
    set_results(team_event_add_match(ev, 1, 3, 4, TRN_WHITE), "10");
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 2, 1, 3, TRN_BLACK), "1=");
    set_results(team_event_add_match(ev, 2, 2, 4, TRN_WHITE), "=0");
    return ev;
}

START_TEST(standings_tiebreaks)
{
    TeamEvent *ev = four_teams();
    TeamTbSpec sp[8];
    int n;
    char err[128];
    ck_assert_int_eq(
        team_standings_parse("GPTS, BH:MP/C1 EMGSB SB:MP;EGGSB,DE", sp, 8, &n, err, sizeof err), 0);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(sp[1].code, TEAM_TB_BH_MP);
    ck_assert_int_eq(sp[1].cut_low, 1);
    ck_assert_int_eq(sp[3].code, TEAM_TB_EMMSB);
    char name[32];
    team_standings_spec_name(&sp[1], name, sizeof name);
    ck_assert_str_eq(name, "BH:MP/C1");
    ck_assert_int_eq(team_standings_parse("XYZ", sp, 8, &n, err, sizeof err),
                     TEAM_STANDINGS_E_SYNTAX);
    ck_assert_int_eq(team_standings_parse("bh:gp-M1", sp, 8, &n, err, sizeof err), 0);
    ck_assert_int_eq(sp[0].cut_high, 1);
    ck_assert_int_eq(sp[0].code, TEAM_TB_BH_GP);

    const char *list = "GPTS,BH:MP,EMGSB,EMMSB,EGGSB";
    ck_assert_int_eq(team_standings_parse(list, sp, 8, &n, err, sizeof err), 0);
    TeamStandings *st;
    ck_assert_int_eq(team_standings_compute(ev, 0, sp, n, &st), 0);
    ck_assert_int_eq(st->n_rows, 4);
    ck_assert_int_eq(st->rows[0].team, 1);
    ck_assert_int_eq(st->rows[1].team, 4);
    ck_assert_int_eq(st->rows[2].team, 3);
    ck_assert_int_eq(st->rows[3].team, 2);
    const TeamRow *a = &st->rows[0];
    ck_assert_int_eq(a->value[0], 400); /* PTS = MP */
    ck_assert_int_eq(a->value[1], 350); /* GPTS */
    ck_assert_int_eq(a->value[2], 100); /* BH:MP: B 0 + C 1 */
    ck_assert_int_eq(a->value[3], 150); /* EMGSB: 0 x 2 + 1 x 1.5 */
    ck_assert_int_eq(a->value[4], 200); /* EMMSB: 0 x 2 + 1 x 2 */
    ck_assert_int_eq(a->value[5], 325); /* EGGSB: 0.5 x 2 + 1.5 x 1.5 = 1 + 2.25 */
    team_standings_free(st);
    team_standings_free(NULL);
    team_event_free(ev);
}
END_TEST

START_TEST(direct_encounter)
{
    /* A and C level on match points after A beat C: DE puts A first. */
    TeamEvent *ev = small_event(4, 2, 2600);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 1, 1, 3, TRN_WHITE), "1=");
    set_results(team_event_add_match(ev, 1, 2, 4, TRN_WHITE), "11");
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 2, 1, 2, TRN_WHITE), "00");
    set_results(team_event_add_match(ev, 2, 3, 4, TRN_WHITE), "11");
    TeamTbSpec sp[2];
    int n;
    char err[64];
    ck_assert_int_eq(team_standings_parse("DE,TPN", sp, 2, &n, err, sizeof err), 0);
    TeamStandings *st;
    ck_assert_int_eq(team_standings_compute(ev, 0, sp, n, &st), 0);
    /* B 4 MP; A and C 2 MP, A won their match; D 0. */
    ck_assert_int_eq(st->rows[0].team, 2);
    ck_assert_int_eq(st->rows[1].team, 1);
    ck_assert_int_eq(st->rows[1].value[1], 200);
    ck_assert_int_eq(st->rows[2].team, 3);
    ck_assert_int_eq(st->rows[2].value[1], 0);
    ck_assert_int_eq(st->rows[3].team, 4);
    ck_assert_int_eq(st->rows[3].rank, 4);
    team_standings_free(st);
    team_event_free(ev);
}
END_TEST

START_TEST(unplayed_rounds_dummy)
{
    /* Three teams, two boards: R1 1-2 2:0, 3 PAB; R2 1-3 1:1, 2 PAB.
     * Final: 1 3 MP, 3 2 MP, 2 1 MP (a PAB is a drawn match). */
    TeamEvent *ev = small_event(3, 2, 2600);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 1, 1, 2, TRN_WHITE), "11");
    team_event_add_bye(ev, 1, 3, TRN_RES_PAB);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 2, 1, 3, TRN_WHITE), "==");
    team_event_add_bye(ev, 2, 2, TRN_RES_PAB);
    TeamTbSpec sp[4];
    int n;
    char err[64];
    ck_assert_int_eq(team_standings_parse("BH:MP EMMSB MPvGP", sp, 4, &n, err, sizeof err), 0);
    TeamStandings *st;
    ck_assert_int_eq(team_standings_compute(ev, 0, sp, n, &st), 0);
    ck_assert_int_eq(st->rows[1].team, 3);
    /* The PAB round: a dummy with 3's own 2 MP (cap: a draw a round, 2). */
    ck_assert_int_eq(st->rows[1].value[1], 200 + 300);
    ck_assert_int_eq(st->rows[1].value[2], 20 * 10 + 30 * 10);
    ck_assert_int_eq(st->rows[1].value[3], 200); /* game points */
    /* Team 2: opponent 1 (3 MP) and a dummy with its own 1 MP. */
    ck_assert_int_eq(st->rows[2].team, 2);
    ck_assert_int_eq(st->rows[2].value[1], 300 + 100);
    team_standings_free(st);
    team_event_free(ev);
}
END_TEST

START_TEST(players_and_board_prizes)
{
    TeamEvent *ev = four_teams();
    TeamPlayerResult res[12];
    team_standings_players(ev, 0, res);
    /* Player 1: A board 1, beat B1 (2400) and C1 (2300) in two rounds. */
    ck_assert_int_eq(res[0].player, 1);
    ck_assert_int_eq(res[0].board, 1);
    ck_assert_int_eq(res[0].games, 2);
    ck_assert_int_eq(res[0].points, 20);
    ck_assert_int_eq(res[0].percent, 10000);
    ck_assert_int_eq(res[0].performance, 2350 + 800);
    ck_assert_int_eq(res[0].rounds[0].opponent, 4);
    ck_assert_int_eq(res[0].rounds[1].colour, TRN_BLACK);
    /* The reserve did not play. */
    ck_assert_int_eq(res[2].games, 0);
    int order[12];
    int n = team_standings_board_prizes(ev, res, 1, 2, TEAM_PRIZE_PERCENT, order);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(res[order[0]].player, 1);
    n = team_standings_board_prizes(ev, res, 2, 3, TEAM_PRIZE_PERFORMANCE, order);
    ck_assert_int_eq(n, 0); /* nobody played 3 games */
    team_event_free(ev);
}
END_TEST

/* Five teams, three rounds: a reserve, an empty board, a PAB, a match
 * forfeited as a whole, a half-point and a zero-point bye. */
static TeamEvent *trf_event(void)
{
    TeamEvent *ev = small_event(5, 4, 2700);
    strcpy(team_event_team_mut(ev, 1)->federation, "NOR");
    strcpy(team_event_player_mut(ev, 1)->name, "Ødegård, Åse");
    strcpy(team_event_team_mut(ev, 2)->name, "Échecs Club Genève");
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 1, 1, 2, TRN_WHITE), "1=0=");
    TeamMatch *m = team_event_add_match(ev, 1, 4, 3, TRN_WHITE);
    m->board[3].player_a = 20; /* team 4's reserve on board 4 */
    m->board[2].player_b = 0;  /* team 3 leaves board 3 empty */
    set_results(m, "10+1");
    team_event_add_bye(ev, 1, 5, TRN_RES_PAB);
    team_event_add_round(ev);
    team_event_add_match(ev, 2, 1, 3, TRN_WHITE)->forfeit = TEAM_FORFEIT_B;
    set_results(team_event_add_match(ev, 2, 2, 5, TRN_WHITE), "1010");
    team_event_add_bye(ev, 2, 4, TRN_RES_HPB);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 3, 4, 1, TRN_WHITE), "====");
    set_results(team_event_add_match(ev, 3, 5, 3, TRN_WHITE), "1111");
    team_event_add_bye(ev, 3, 2, TRN_RES_ZPB);
    return ev;
}

START_TEST(trf_round_trip)
{
    TeamEvent *ev = trf_event();
    Tournament *head = tournament_new();
    strcpy(head->name, "Team Open");
    strcpy(head->city, "Oslo");
    size_t n1, n2;
    char *t1 = team_trf_write(ev, head, &n1);
    ck_assert_ptr_nonnull(t1);
    ck_assert_ptr_nonnull(strstr(t1, "\r352 WBWB\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r192 FIDE_TEAM_TYPEA_MP_GP\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r330 +- 002 001 003\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r320  1.0  2.0 005 000 000\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r240 H 002    4\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r300 001 003 004 0011 0012 0000 0014\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r300 001 004 003 0016 0017 0018 0020\r"));
    TeamEvent *back;
    Tournament *indiv;
    TrfError err;
    int rc = team_trf_read(t1, n1, &back, &indiv, &err);
    ck_assert_msg(rc == 0, "read: %d line %d: %s", rc, err.line, err.message);
    ck_assert_int_eq(back->n_teams, 5);
    ck_assert_int_eq(back->settings.boards, 4);
    ck_assert_str_eq(team_event_team(back, 2)->name, "Échecs Club Genève");
    ck_assert_str_eq(team_event_team(back, 1)->federation, "NOR");
    ck_assert_int_eq(back->n_rounds, 3);
    const TeamMatch *m = team_event_match_of(back, 1, 3);
    ck_assert_int_eq(m->team_a, 4);
    ck_assert_int_eq(m->colour_a, TRN_WHITE);
    ck_assert_int_eq(m->board[3].player_a, 20);
    ck_assert_int_eq(m->board[2].player_b, 0);
    ck_assert_int_eq(m->board[2].result_b, TRN_RES_FORFEIT_LOSS);
    ck_assert_int_eq(team_event_match_of(back, 2, 3)->forfeit, TEAM_FORFEIT_B);
    ck_assert_int_eq(team_event_match_of(back, 2, 4)->bye, TRN_RES_HPB);
    ck_assert_int_eq(team_event_match_of(back, 1, 5)->bye, TRN_RES_PAB);
    for (int t = 1; t <= 5; t++) {
        TrnPoints m1, g1, m2, g2;
        team_event_score(ev, t, 3, &m1, &g1);
        team_event_score(back, t, 3, &m2, &g2);
        ck_assert_int_eq(m1, m2);
        ck_assert_int_eq(g1, g2);
    }
    char *t2 = team_trf_write(back, indiv, &n2);
    ck_assert_str_eq(t1, t2);
    free(t1);
    free(t2);
    tournament_free(head);
    tournament_free(indiv);
    team_event_free(back);
    team_event_free(ev);
}
END_TEST

START_TEST(trf_settings_round_trip)
{
    TeamSettings s;
    team_settings_default(&s, 6);
    s.scheme = TEAM_BOARDS_PATTERN;
    strcpy(s.board_pattern, "WWBBWB");
    s.mp_win = 30;
    s.pref = TEAM_PREF_B;
    s.primary = TEAM_PRIMARY_GAME;
    s.n_rounds = 7;
    s.no_secondary = true;
    TeamEvent *ev = team_event_new(&s);
    team_event_add_team(ev, "A");
    team_event_add_team(ev, "B");
    for (int i = 1; i <= 12; i++)
        team_event_add_player(ev, (i - 1) / 6 + 1, i);
    team_event_add_round(ev);
    set_results(team_event_add_match(ev, 1, 2, 1, TRN_WHITE), "1=01=0");
    size_t n;
    char *t1 = team_trf_write(ev, NULL, &n);
    ck_assert_ptr_nonnull(strstr(t1, "\r352 WWBBWB\r"));
    ck_assert_ptr_nonnull(strstr(t1, "\r362 TW 3.0   TD 1.0   TL 0.0\r"));
    TeamEvent *back;
    TrfError err;
    ck_assert_int_eq(team_trf_read(t1, n, &back, NULL, &err), 0);
    ck_assert_int_eq(back->settings.scheme, TEAM_BOARDS_PATTERN);
    ck_assert_int_eq(back->settings.mp_win, 30);
    ck_assert_int_eq(back->settings.pref, TEAM_PREF_B);
    ck_assert_int_eq(back->settings.primary, TEAM_PRIMARY_GAME);
    ck_assert_int_eq(back->settings.n_rounds, 7);
    ck_assert(back->settings.no_secondary);
    ck_assert_ptr_nonnull(strstr(t1, "\r192 FIDE_TEAM_TYPEB_GP\r"));
    const TeamMatch *m = team_event_match_of(back, 1, 1);
    ck_assert_int_eq(m->team_a, 2);
    ck_assert_int_eq(m->colour_a, TRN_WHITE);
    ck_assert_int_eq(m->board[1].colour_a, TRN_WHITE);
    ck_assert_int_eq(m->board[2].colour_a, TRN_BLACK);
    team_event_free(back);
    /* A file whose player is in no team is refused. */
    const char *bad =
        "001    1      Solo, Sam                         2000                            0.0    1\r"
        "310   1 Alone\r";
    ck_assert_int_eq(team_trf_read(bad, strlen(bad), &back, NULL, &err) != 0, 1);
    free(t1);
    team_event_free(ev);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("team");
    TCase *tc = tcase_create("team");
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, rosters_and_ids);
    tcase_add_test(tc, board_colours);
    tcase_add_test(tc, match_scores);
    tcase_add_test(tc, rank_order);
    tcase_add_test(tc, standings_tiebreaks);
    tcase_add_test(tc, direct_encounter);
    tcase_add_test(tc, unplayed_rounds_dummy);
    tcase_add_test(tc, players_and_board_prizes);
    tcase_add_test(tc, trf_round_trip);
    tcase_add_test(tc, trf_settings_round_trip);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
