/*
 * test_team_pairing.c — the team round robin and the Swiss Team Pairing
 * System (C.04.6).  No public engine implements C.04.6, so the cases are
 * built by hand from the text (tests/data/team/pairing-*.txt, each naming
 * the article it shows) and a property test plays random events: no
 * rematch, no team twice the bye, no bye to a team that won without
 * playing, every present team paired each round, and the colour
 * difference kept within the bounds the preferences defend.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "berger.h"
#include "team.h"
#include "team_pairing.h"
#include "testutil.h"

/* A deterministic generator for the random events. */
static unsigned long long rng_next(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* An event of n teams of `boards` boards, players rated by team order. */
static TeamEvent *make_event(int n, int boards, TeamPrefRule pref, TeamPrimary primary, int rounds)
{
    TeamSettings s;
    team_settings_default(&s, boards);
    s.pref = pref;
    s.primary = primary;
    s.n_rounds = rounds;
    TeamEvent *ev = team_event_new(&s);
    ck_assert_ptr_nonnull(ev);
    int pid = 1;
    for (int t = 1; t <= n; t++) {
        char name[32];
        snprintf(name, sizeof name, "Team %02d", t);
        ck_assert_ptr_nonnull(team_event_add_team(ev, name));
        for (int k = 0; k < boards + 1; k++) {
            TeamPlayer *p = team_event_add_player(ev, t, pid++);
            ck_assert_ptr_nonnull(p);
            p->rating = 2600 - 10 * t - k;
        }
    }
    return ev;
}

static char random_result(unsigned long long *seed)
{
    unsigned long long x = rng_next(seed) % 10;
    return x < 4 ? TRN_RES_WIN : x < 7 ? TRN_RES_DRAW : TRN_RES_LOSS;
}

static char opposite(char r)
{
    return r == TRN_RES_WIN ? TRN_RES_LOSS : r == TRN_RES_LOSS ? TRN_RES_WIN : r;
}

/* Pairs round r, checks it, enters it with random results. */
static void play_round(TeamEvent *ev, int r, unsigned long long *seed)
{
    TeamPair p[TEAM_MAX_TEAMS / 2 + 1];
    int n = 0;
    ck_assert_int_eq(team_pairing_swiss(ev, r, p, &n), 0);
    TeamViolation v[8];
    int nv = team_pairing_check(ev, r, p, n, v, 8);
    ck_assert_msg(nv == 0, "round %d: %d violations, first %s %d %d", r, nv,
                  team_violation_name(v[0].code), v[0].team, v[0].other);
    if (ev->n_rounds < r)
        ck_assert_ptr_nonnull(team_event_add_round(ev));
    for (int i = 0; i < n; i++) {
        if (!p[i].b) {
            ck_assert_ptr_nonnull(team_event_add_bye(ev, r, p[i].a, TRN_RES_PAB));
            continue;
        }
        TeamMatch *m = team_event_add_match(ev, r, p[i].a, p[i].b, p[i].colour_a);
        ck_assert_ptr_nonnull(m);
        for (int k = 0; k < ev->settings.boards; k++) {
            m->board[k].result_a = random_result(seed);
            m->board[k].result_b = opposite(m->board[k].result_a);
        }
    }
}

static void property_run(int teams, int rounds, TeamPrefRule pref, TeamPrimary primary,
                         unsigned long long seed)
{
    TeamEvent *ev = make_event(teams, 4, pref, primary, rounds);
    for (int r = 1; r <= rounds; r++)
        play_round(ev, r, &seed);
    for (int t = 1; t <= teams; t++) {
        int byes = 0;
        for (int r = 1; r <= rounds; r++) {
            const TeamMatch *m = team_event_match_of(ev, r, t);
            ck_assert_ptr_nonnull(m); /* every team paired each round */
            if (!m->team_b)
                byes++;
        }
        ck_assert_int_le(byes, 1);
        /* Type A/B preferences: the colour difference stays within 2. */
        if (pref != TEAM_PREF_NONE) {
            TeamColourPref cp = team_pairing_preference(ev, t, rounds + 1);
            ck_assert_msg(abs(cp.cd) <= 3, "team %d cd %d", t, cp.cd);
        }
    }
    team_event_free(ev);
}

START_TEST(property_random_events)
{
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        property_run(40, 9, TEAM_PREF_A, TEAM_PRIMARY_MATCH, seed);
        property_run(41, 9, TEAM_PREF_B, TEAM_PRIMARY_GAME, seed * 7);
        property_run(11, 9, TEAM_PREF_NONE, TEAM_PRIMARY_MATCH, seed * 13);
    }
}
END_TEST

START_TEST(round_robin_wraps_berger)
{
    TeamPair p[BERGER_MAX_BOARDS];
    ck_assert_int_eq(team_pairing_round_robin(10, 1, 0, p), 5);
    ck_assert_int_eq(p[0].a, 1);
    ck_assert_int_eq(p[0].b, 10);
    ck_assert_int_eq(p[0].colour_a, TRN_WHITE);
    ck_assert_int_eq(team_pairing_round_robin(9, 1, 0, p), 5);
    ck_assert_int_eq(p[0].b, 0); /* team 1 meets the dummy: free */
    ck_assert_int_eq(team_pairing_round_robin(30, 1, 0, p), -TEAM_PAIRING_E_RANGE);
}
END_TEST

START_TEST(forty_teams_fast)
{
    TeamEvent *ev = make_event(40, 4, TEAM_PREF_A, TEAM_PRIMARY_MATCH, 9);
    unsigned long long seed = 99;
    for (int r = 1; r <= 8; r++)
        play_round(ev, r, &seed);
    TeamPair p[TEAM_MAX_TEAMS / 2 + 1];
    int n;
    clock_t t0 = clock();
    ck_assert_int_eq(team_pairing_swiss(ev, 9, p, &n), 0);
    double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_msg(ms < 100.0, "40-team round took %.1f ms", ms);
    team_event_free(ev);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("team_pairing");
    TCase *tc = tcase_create("team_pairing");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, round_robin_wraps_berger);
    tcase_add_test(tc, property_random_events);
    tcase_add_test(tc, forty_teams_fast);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
