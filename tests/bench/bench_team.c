/*
 * bench_team.c — time to pair a round of a team Swiss (C.04.6,
 * team_pairing_swiss): a 40-team, 4-board, 9-round event and an
 * Olympiad-size one (190 teams, 4 boards, 11 rounds), every round paired
 * then filled with random board results (a fixed seed), reporting the
 * slowest and the mean round in CPU milliseconds.
 *
 *   bench_team [--max-ms N]   fail (exit 1) when a 40-team round takes
 *                             more than N ms (default: report only)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "team.h"
#include "team_pairing.h"

static unsigned long long state = 20260201;

static unsigned rnd(unsigned n)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % n);
}

/* Plays `rounds` rounds of `teams` teams; *worst and *mean get the round times in ms. */
static int play(int teams, int rounds, double *worst, double *mean)
{
    TeamSettings s;
    team_settings_default(&s, 4);
    s.n_rounds = rounds;
    TeamEvent *ev = team_event_new(&s);
    if (!ev)
        return -1;
    for (int t = 1, id = 1; t <= teams; t++) {
        char name[24];
        snprintf(name, sizeof name, "T%03d", t);
        team_event_add_team(ev, name);
        for (int k = 0; k < 5; k++)
            team_event_add_player(ev, t, id++)->rating = 2700 - 3 * t - 20 * k;
    }
    static TeamPair pairs[TEAM_MAX_TEAMS / 2 + 1];
    double total = 0;
    *worst = 0;
    for (int r = 1; r <= rounds; r++) {
        int n;
        clock_t t0 = clock();
        int rc = team_pairing_swiss(ev, r, pairs, &n);
        double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (rc) {
            fprintf(stderr, "round %d: no pairing (%d)\n", r, rc);
            team_event_free(ev);
            return -1;
        }
        total += ms;
        if (ms > *worst)
            *worst = ms;
        team_event_add_round(ev);
        for (int i = 0; i < n; i++) {
            if (pairs[i].b == 0) {
                team_event_add_bye(ev, r, pairs[i].a, TRN_RES_PAB);
                continue;
            }
            TeamMatch *m = team_event_add_match(ev, r, pairs[i].a, pairs[i].b, pairs[i].colour_a);
            for (int k = 0; k < 4; k++) {
                static const char res[] = "1=0";
                int x = (int)rnd(3);
                m->board[k].result_a = res[x];
                m->board[k].result_b = res[2 - x];
            }
        }
    }
    *mean = total / rounds;
    team_event_free(ev);
    return 0;
}

int main(int argc, char **argv)
{
    double max_ms = 0;
    if (argc == 3 && !strcmp(argv[1], "--max-ms"))
        max_ms = atof(argv[2]);
    static const int sizes[][2] = {{40, 9}, {190, 11}};
    int status = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        double worst, mean;
        if (play(sizes[i][0], sizes[i][1], &worst, &mean))
            return 1;
        printf("team swiss %3d teams x %2d rounds: slowest round %.2f ms, mean %.2f ms\n",
               sizes[i][0], sizes[i][1], worst, mean);
        if (max_ms > 0 && sizes[i][0] == 40 && worst > max_ms)
            status = 1;
    }
    return status;
}
