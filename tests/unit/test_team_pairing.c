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

/*
 * Pairs round r, checks it, enters it with random results.  With `disturb`
 * some teams ask for a bye first (half or zero point), a team withdraws
 * now and then, and some matches are forfeited as a whole.
 */
static void play_round(TeamEvent *ev, int r, unsigned long long *seed, bool disturb)
{
    if (ev->n_rounds < r)
        ck_assert_ptr_nonnull(team_event_add_round(ev));
    if (disturb) {
        int t = 1 + (int)(rng_next(seed) % (unsigned)ev->n_teams);
        if (!team_event_team(ev, t)->withdrawn && rng_next(seed) % 2)
            ck_assert_ptr_nonnull(
                team_event_add_bye(ev, r, t, rng_next(seed) % 2 ? TRN_RES_HPB : TRN_RES_ZPB));
        if (r >= 3 && rng_next(seed) % 3 == 0) {
            t = 1 + (int)(rng_next(seed) % (unsigned)ev->n_teams);
            if (!team_event_match_of(ev, r, t))
                team_event_team_mut(ev, t)->withdrawn = true;
        }
    }
    TeamPair p[TEAM_MAX_TEAMS / 2 + 1];
    int n = 0;
    ck_assert_int_eq(team_pairing_swiss(ev, r, p, &n), 0);
    TeamViolation v[8];
    int nv = team_pairing_check(ev, r, p, n, v, 8);
    ck_assert_msg(nv == 0, "round %d: %d violations, first %s %d %d", r, nv,
                  team_pairing_violation_name(v[0].code), v[0].team, v[0].other);
    for (int i = 0; i < n; i++) {
        if (!p[i].b) {
            ck_assert_ptr_nonnull(team_event_add_bye(ev, r, p[i].a, TRN_RES_PAB));
            continue;
        }
        TeamMatch *m = team_event_add_match(ev, r, p[i].a, p[i].b, p[i].colour_a);
        ck_assert_ptr_nonnull(m);
        if (disturb && rng_next(seed) % 12 == 0) {
            m->forfeit = TEAM_FORFEIT_A;
            continue;
        }
        for (int k = 0; k < ev->settings.boards; k++) {
            m->board[k].result_a = random_result(seed);
            m->board[k].result_b = opposite(m->board[k].result_a);
        }
    }
}

/*
 * Plays a random event and checks what C.04.6 makes absolute: every round
 * legal by team_pairing_check (no rematch, the bye to an eligible team,
 * nobody left out), every present team in a match or bye each round, no
 * team with two pairing-allocated byes.  Basic rules 6 and 7 (colour
 * limits) never apply to teams, so no colour bound is asserted.
 */
static void property_run(int teams, int rounds, TeamPrefRule pref, TeamPrimary primary,
                         unsigned long long seed, bool disturb)
{
    TeamEvent *ev = make_event(teams, 4, pref, primary, rounds);
    for (int r = 1; r <= rounds; r++)
        play_round(ev, r, &seed, disturb);
    for (int t = 1; t <= teams; t++) {
        int pabs = 0;
        for (int r = 1; r <= rounds; r++) {
            const TeamMatch *m = team_event_match_of(ev, r, t);
            if (!team_event_team(ev, t)->withdrawn)
                ck_assert_ptr_nonnull(m);
            if (m && !m->team_b && m->bye == TRN_RES_PAB)
                pabs++;
        }
        ck_assert_int_le(pabs, 1);
    }
    team_event_free(ev);
}

START_TEST(property_random_events)
{
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        property_run(40, 9, TEAM_PREF_A, TEAM_PRIMARY_MATCH, seed, false);
        property_run(41, 9, TEAM_PREF_B, TEAM_PRIMARY_GAME, seed * 7, false);
        property_run(11, 9, TEAM_PREF_NONE, TEAM_PRIMARY_MATCH, seed * 13, false);
        property_run(40, 9, TEAM_PREF_A, TEAM_PRIMARY_MATCH, seed * 17, true);
        property_run(25, 11, TEAM_PREF_B, TEAM_PRIMARY_MATCH, seed * 19, true);
    }
    /* Olympiad size: brackets above 64 teams take the approximate order. */
    property_run(151, 4, TEAM_PREF_A, TEAM_PRIMARY_MATCH, 5, true);
}
END_TEST

/* Runs one hand-built case file (format in the files' comments):
 *   teams N | boards B | pref A|B|N | primary M|G | rounds R
 *   match R A B W|B RESULTS   (team A's results per board, FA/FB: forfeit)
 *   bye R T U|F|H|Z
 *   expect R A-B ... [bye T]  (first-named team first) */
static void run_case(const char *name)
{
    FILE *f = testutil_open("team", name, "r");
    char line[512];
    TeamEvent *ev = NULL;
    int teams = 0, boards = 4, rounds = 0, checked = 0;
    TeamPrefRule pref = TEAM_PREF_A;
    TeamPrimary primary = TEAM_PRIMARY_MATCH;
    while (fgets(line, sizeof line, f)) {
        char w[32];
        int r, a, b;
        if (line[0] == '#' || sscanf(line, "%31s", w) != 1)
            continue;
        if (!strcmp(w, "teams"))
            sscanf(line, "%*s %d", &teams);
        else if (!strcmp(w, "boards"))
            sscanf(line, "%*s %d", &boards);
        else if (!strcmp(w, "rounds"))
            sscanf(line, "%*s %d", &rounds);
        else if (!strcmp(w, "primary")) {
            char c = 'M';
            sscanf(line, "%*s %c", &c);
            primary = c == 'G' ? TEAM_PRIMARY_GAME : TEAM_PRIMARY_MATCH;
        } else if (!strcmp(w, "pref")) {
            char c = 'A';
            sscanf(line, "%*s %c", &c);
            pref = c == 'B' ? TEAM_PREF_B : c == 'N' ? TEAM_PREF_NONE : TEAM_PREF_A;
        }
        if (!ev && teams && rounds && strcmp(w, "teams") && strcmp(w, "boards") &&
            strcmp(w, "rounds") && strcmp(w, "pref") && strcmp(w, "primary"))
            ev = make_event(teams, boards, pref, primary, rounds);
        if (!strcmp(w, "match")) {
            char col, res[32];
            ck_assert_int_eq(sscanf(line, "%*s %d %d %d %c %31s", &r, &a, &b, &col, res), 5);
            while (ev->n_rounds < r)
                team_event_add_round(ev);
            TeamMatch *m = team_event_add_match(ev, r, a, b, col == 'B' ? TRN_BLACK : TRN_WHITE);
            ck_assert_msg(m != NULL, "%s: %s", name, line);
            if (!strcmp(res, "FA") || !strcmp(res, "FB"))
                m->forfeit = res[1] == 'A' ? TEAM_FORFEIT_A : TEAM_FORFEIT_B;
            else
                for (int k = 0; res[k] && k < boards; k++) {
                    m->board[k].result_a = res[k];
                    m->board[k].result_b = opposite(res[k]);
                }
        } else if (!strcmp(w, "bye")) {
            char kind;
            ck_assert_int_eq(sscanf(line, "%*s %d %d %c", &r, &a, &kind), 3);
            while (ev->n_rounds < r)
                team_event_add_round(ev);
            ck_assert_ptr_nonnull(team_event_add_bye(ev, r, a, kind));
        } else if (!strcmp(w, "expect")) {
            int used;
            char *p = line + 6;
            ck_assert_int_eq(sscanf(p, " %d%n", &r, &used), 1);
            p += used;
            char want[512] = "", got[512] = "";
            for (char tok[32]; sscanf(p, " %31s%n", tok, &used) == 1; p += used) {
                strcat(want, want[0] ? " " : "");
                strcat(want, tok);
            }
            TeamPair pr[TEAM_MAX_TEAMS / 2 + 1];
            int n;
            ck_assert_int_eq(team_pairing_swiss(ev, r, pr, &n), 0);
            for (int i = 0; i < n; i++) {
                char one[32];
                if (pr[i].b)
                    snprintf(one, sizeof one, "%s%d-%d", i ? " " : "", pr[i].a, pr[i].b);
                else
                    snprintf(one, sizeof one, "%sbye %d", i ? " " : "", pr[i].a);
                strcat(got, one);
            }
            ck_assert_msg(!strcmp(want, got), "%s round %d: want \"%s\", got \"%s\"", name, r, want,
                          got);
            checked++;
        }
    }
    fclose(f);
    ck_assert_msg(checked > 0, "%s: nothing checked", name);
    team_event_free(ev);
}

START_TEST(hand_built_cases)
{
    char dir[512];
    testutil_data_path(dir, sizeof dir, "team", "");
    char **names;
    int n = testutil_list(dir, ".txt", &names);
    int cases = 0;
    for (int i = 0; i < n; i++)
        if (!strncmp(names[i], "pairing-", 8)) {
            run_case(names[i]);
            cases++;
        }
    testutil_list_free(names, n);
    ck_assert_int_ge(cases, 3);
}
END_TEST

/* Sets team t's match colours (one char per round, '-' = no match) by
 * playing it against fresh opponents; returns its preference for the next round. */
static TeamColourPref pref_after(TeamPrefRule rule, const char *hist, int n_rounds)
{
    int len = (int)strlen(hist);
    TeamEvent *ev = make_event(2 + len, 2, rule, TEAM_PRIMARY_MATCH, n_rounds);
    for (int r = 1; r <= len; r++) {
        team_event_add_round(ev);
        if (hist[r - 1] != '-')
            team_event_add_match(ev, r, 1, r + 1, hist[r - 1] == 'W' ? TRN_WHITE : TRN_BLACK);
    }
    TeamColourPref p = team_pairing_preference(ev, 1, len + 1);
    team_event_free(ev);
    return p;
}

START_TEST(preference_variants)
{
    /* Art. 1.7 type A: |CD| >= 2, or the same colour twice running. */
    TeamColourPref p = pref_after(TEAM_PREF_A, "WW", 9);
    ck_assert_int_eq(p.colour, TRN_BLACK);
    ck_assert_int_eq(p.cd, 2);
    p = pref_after(TEAM_PREF_A, "WBB", 9);
    ck_assert_int_eq(p.colour, TRN_WHITE);
    p = pref_after(TEAM_PREF_A, "W", 9);
    ck_assert_int_eq(p.colour, TRN_COLOUR_NONE);
    p = pref_after(TEAM_PREF_A, "WB-W", 9); /* no match in round 3 */
    ck_assert_int_eq(p.colour, TRN_COLOUR_NONE);
    ck_assert_int_eq(p.cd, 1);
    /* Type B: the same strong; mild for an odd difference, or an even one
     * following the last colour except in the last round. */
    p = pref_after(TEAM_PREF_B, "BB", 9);
    ck_assert_int_eq(p.colour, TRN_WHITE);
    ck_assert_int_eq(p.strength, TEAM_PREF_STRONG);
    p = pref_after(TEAM_PREF_B, "W", 9);
    ck_assert_int_eq(p.colour, TRN_BLACK);
    ck_assert_int_eq(p.strength, TEAM_PREF_MILD);
    p = pref_after(TEAM_PREF_B, "WB", 9);
    ck_assert_int_eq(p.colour, TRN_WHITE);
    ck_assert_int_eq(p.strength, TEAM_PREF_MILD);
    p = pref_after(TEAM_PREF_B, "WB", 3); /* round 3 is the last */
    ck_assert_int_eq(p.colour, TRN_COLOUR_NONE);
    p = pref_after(TEAM_PREF_NONE, "WWW", 9);
    ck_assert_int_eq(p.colour, TRN_COLOUR_NONE);
    ck_assert_int_eq(p.cd, 3);
}
END_TEST

/* Team 1 plays the colours h1, team 2 the colours h2, each against fresh
 * opponents with no results; returns the allocation of round 5 between them. */
static TeamPair colours_after(TeamPrefRule rule, const char *h1, const char *h2)
{
    TeamEvent *ev =
        make_event(2 + (int)strlen(h1) + (int)strlen(h2), 2, rule, TEAM_PRIMARY_MATCH, 9);
    int opp = 3;
    for (int r = 1; r <= 4; r++) {
        team_event_add_round(ev);
        const char *h[2] = {h1, h2};
        for (int t = 0; t < 2; t++)
            if (r <= (int)strlen(h[t]))
                team_event_add_match(ev, r, t + 1, opp++,
                                     h[t][r - 1] == 'W' ? TRN_WHITE : TRN_BLACK);
    }
    TeamPair p = team_pairing_colours(ev, 5, 1, 2);
    team_event_free(ev);
    return p;
}

START_TEST(colour_allocation_variants)
{
    /* Art. 4.3.4 (type B): team 1 (WWBB: strong White) against team 2
     * (BWB: mild White, lower colour difference): the strong one wins. */
    TeamPair p = colours_after(TEAM_PREF_B, "WWBB", "BWB");
    ck_assert_int_eq(p.a, 1);
    ck_assert_int_eq(p.colour_a, TRN_WHITE);
    /* No preferences: 4.3.5, the lower colour difference (team 2) White. */
    p = colours_after(TEAM_PREF_NONE, "WWBB", "BWB");
    ck_assert_int_eq(p.a, 2);
    /* Type A, 4.3.2: only team 1 has a preference (Black after WW). */
    p = colours_after(TEAM_PREF_A, "WW", "BW");
    ck_assert_int_eq(p.a, 2);
    /* 4.3.6: equal differences, last differing round 2 (1 White, 2 Black):
     * alternate, team 1 Black. */
    p = colours_after(TEAM_PREF_A, "BW", "WB");
    ck_assert_int_eq(p.a, 2);
}
END_TEST

START_TEST(check_lists_violations)
{
    TeamEvent *ev = make_event(5, 2, TEAM_PREF_A, TEAM_PRIMARY_MATCH, 5);
    team_event_add_round(ev);
    team_event_add_match(ev, 1, 1, 2, TRN_WHITE);
    team_event_add_match(ev, 1, 3, 4, TRN_WHITE);
    team_event_add_bye(ev, 1, 5, TRN_RES_PAB);
    team_event_team_mut(ev, 4)->withdrawn = true;
    TeamPair p[4] = {
        {2, 1, TRN_WHITE}, {3, 4, TRN_WHITE}, {5, 0, TRN_COLOUR_NONE}, {3, 0, TRN_COLOUR_NONE}};
    TeamViolation v[16];
    int n = team_pairing_check(ev, 2, p, 4, v, 16);
    /* C1 (2-1 and 3-4), WITHDRAWN (4), C2 (5), DUP (3), PAB (two). */
    int seen[8] = {0};
    for (int i = 0; i < n; i++)
        seen[v[i].code]++;
    ck_assert_int_eq(seen[TEAM_V_C1], 2);
    ck_assert_int_eq(seen[TEAM_V_WITHDRAWN], 1);
    ck_assert_int_eq(seen[TEAM_V_C2], 1);
    ck_assert_int_eq(seen[TEAM_V_DUP], 1);
    ck_assert_int_eq(seen[TEAM_V_PAB], 1);
    ck_assert_str_eq(team_pairing_violation_name(TEAM_V_C1), "C1");
    /* Against the engine's own round 2. */
    team_event_team_mut(ev, 4)->withdrawn = false;
    TeamPair own[4];
    int no;
    ck_assert_int_eq(team_pairing_swiss(ev, 2, own, &no), 0);
    ck_assert_int_eq(team_pairing_compare(ev, 2, own, no), TEAM_SAME);
    TeamPair swapped = own[0];
    own[0] =
        (TeamPair){swapped.b, swapped.a, swapped.colour_a == TRN_WHITE ? TRN_BLACK : TRN_WHITE};
    ck_assert_int_eq(team_pairing_compare(ev, 2, own, no), TEAM_OTHER_COLOURS);
    ck_assert_int_eq(team_pairing_compare(ev, 2, p, 3), TEAM_OTHER_PAIRS);
    team_event_free(ev);
}
END_TEST

START_TEST(tiny_fields)
{
    /* One team: the bye; two: one match; three: a match and the bye;
     * none left after a withdrawal: an empty round. */
    for (int n = 1; n <= 3; n++) {
        TeamEvent *ev = make_event(n, 2, TEAM_PREF_A, TEAM_PRIMARY_MATCH, 3);
        TeamPair p[4];
        int np = -1;
        ck_assert_int_eq(team_pairing_swiss(ev, 1, p, &np), 0);
        ck_assert_int_eq(np, (n + 1) / 2);
        if (n % 2)
            ck_assert_int_eq(p[np - 1].b, 0);
        team_event_free(ev);
    }
    TeamEvent *ev = make_event(1, 2, TEAM_PREF_A, TEAM_PRIMARY_MATCH, 3);
    team_event_team_mut(ev, 1)->withdrawn = true;
    TeamPair p[2];
    int np = -1;
    ck_assert_int_eq(team_pairing_swiss(ev, 1, p, &np), 0);
    ck_assert_int_eq(np, 0);
    ck_assert_int_eq(team_pairing_swiss(ev, 5, p, &np), TEAM_PAIRING_E_RANGE);
    team_event_free(ev);
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
        play_round(ev, r, &seed, false);
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
    tcase_add_test(tc, tiny_fields);
    tcase_add_test(tc, property_random_events);
    tcase_add_test(tc, hand_built_cases);
    tcase_add_test(tc, preference_variants);
    tcase_add_test(tc, colour_allocation_variants);
    tcase_add_test(tc, check_lists_violations);
    tcase_add_test(tc, forty_teams_fast);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
