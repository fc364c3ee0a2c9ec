/*
 * test_berger.c — round robin pairings against the Berger tables of the
 * FIDE Handbook (C.05 Annex 1, typed in tests/data/berger/), the closed form
 * of the TEC (in round r, i and j < N meet when i + j = r + 1 mod N - 1), and
 * the properties a round robin must have (everyone meets everyone once,
 * colours balanced, double round robin reversed).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "testutil.h"

/* Checks every round listed in berger-N.txt against berger_round(). */
static void check_table(int n)
{
    char name[64], line[512];
    snprintf(name, sizeof name, "berger-%d.txt", n);
    FILE *f = testutil_open("berger", name, "r");
    int rounds = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *p;
        int r = (int)strtol(line, &p, 10);
        ck_assert_msg(*p == ':', "%s: bad line %s", name, line);
        p++;
        BergerBoard b[BERGER_MAX_BOARDS], odd[BERGER_MAX_BOARDS];
        ck_assert_int_eq(berger_round(n, r, 0, b), n / 2);
        ck_assert_int_eq(berger_round(n - 1, r, 0, odd), n / 2);
        int k = 0, w, bl, used;
        while (sscanf(p, " %d-%d%n", &w, &bl, &used) == 2) {
            ck_assert_msg(k < n / 2, "%s round %d: too many boards", name, r);
            ck_assert_msg(b[k].white == w && b[k].black == bl,
                          "%d players, round %d, board %d: table %d-%d, ours %d-%d", n, r, k + 1, w,
                          bl, b[k].white, b[k].black);
            /* n - 1 players: the same table, n is the free round. */
            ck_assert_int_eq(odd[k].white, w == n ? 0 : w);
            ck_assert_int_eq(odd[k].black, bl == n ? 0 : bl);
            p += used;
            k++;
        }
        ck_assert_int_eq(k, n / 2);
        rounds++;
    }
    fclose(f);
    ck_assert_int_eq(rounds, n - 1); /* every round of the table */
}

START_TEST(published_tables)
{
    static const int sizes[] = {4, 6, 8, 10, 12, 14};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_table(sizes[i]);
}
END_TEST

/* The TEC's closed form, for every size and round. */
START_TEST(closed_form)
{
    for (int players = 3; players <= 24; players++) {
        int n = players + (players & 1);
        for (int r = 1; r <= n - 1; r++) {
            BergerBoard b[BERGER_MAX_BOARDS];
            ck_assert_int_eq(berger_round(n, r, 0, b), n / 2);
            for (int k = 0; k < n / 2; k++) {
                int w = b[k].white, bl = b[k].black;
                if (w == n || bl == n) {
                    int i = w == n ? bl : w;
                    ck_assert_int_eq((2 * i) % (n - 1), (r + 1) % (n - 1));
                    ck_assert_int_eq(w == n, r % 2 == 0); /* N: White in even rounds */
                } else {
                    ck_assert_int_eq((w + bl) % (n - 1), (r + 1) % (n - 1));
                    int lo = w < bl ? w : bl, hi = w < bl ? bl : w;
                    int white = (hi - lo) % 2 ? lo : hi;
                    ck_assert_msg(w == white, "n=%d r=%d %d-%d", n, r, w, bl);
                }
            }
        }
    }
}
END_TEST

START_TEST(everyone_meets_once_double_reversed)
{
    for (int players = 3; players <= 24; players++) {
        int n = players + (players & 1);
        int total = berger_rounds(players, BERGER_DOUBLE);
        ck_assert_int_eq(total, 2 * (n - 1));
        static int met[25][25];
        memset(met, 0, sizeof met);
        int whites[25] = {0}, blacks[25] = {0}, byes[25] = {0};
        for (int r = 1; r <= total; r++) {
            BergerBoard b[BERGER_MAX_BOARDS];
            ck_assert_int_eq(berger_round(players, r, BERGER_DOUBLE, b), n / 2);
            int seen[26] = {0};
            for (int k = 0; k < n / 2; k++) {
                int w = b[k].white, bl = b[k].black;
                seen[w]++;
                seen[bl]++;
                if (!w || !bl) {
                    byes[w | bl]++;
                    continue;
                }
                /* +1 for White: after both cycles every pair sums to 0. */
                met[w][bl]++;
                met[bl][w]--;
                whites[w]++;
                blacks[bl]++;
            }
            for (int p = 1; p <= players; p++)
                ck_assert_int_eq(seen[p], 1);
        }
        for (int p = 1; p <= players; p++) {
            ck_assert_int_eq(whites[p], blacks[p]);
            ck_assert_int_eq(byes[p], (players & 1) ? 2 : 0);
            for (int q = 1; q <= players; q++)
                ck_assert_int_eq(met[p][q], 0);
        }
        /* And in a single cycle each pair meets exactly once. */
        memset(met, 0, sizeof met);
        for (int r = 1; r <= n - 1; r++) {
            BergerBoard b[BERGER_MAX_BOARDS];
            berger_round(players, r, 0, b);
            for (int k = 0; k < n / 2; k++)
                if (b[k].white && b[k].black) {
                    met[b[k].white][b[k].black]++;
                    met[b[k].black][b[k].white]++;
                }
        }
        for (int p = 1; p <= players; p++)
            for (int q = 1; q <= players; q++)
                ck_assert_int_eq(met[p][q], p == q ? 0 : 1);
    }
}
END_TEST

/* Longest run of one colour for player p over a double round robin. */
static int longest_run(int players, int flags, int p)
{
    int total = berger_rounds(players, flags), run = 0, best = 0, last = 0;
    for (int r = 1; r <= total; r++) {
        BergerBoard b[BERGER_MAX_BOARDS];
        int n = berger_round(players, r, flags, b), c = 0;
        for (int k = 0; k < n; k++) {
            if (b[k].white == p && b[k].black)
                c = 1;
            if (b[k].black == p && b[k].white)
                c = 2;
        }
        if (!c)
            continue; /* a free round does not break or extend a run */
        run = c == last ? run + 1 : 1;
        last = c;
        if (run > best)
            best = run;
    }
    return best;
}

/*
 * The Handbook swaps the first cycle's last two rounds of a double round
 * robin because otherwise some player gets one colour three times running.
 */
START_TEST(double_swap_avoids_three_in_a_row)
{
    for (int players = 4; players <= 24; players += 2) {
        int plain = 0, swapped = 0;
        for (int p = 1; p <= players; p++) {
            int a = longest_run(players, BERGER_DOUBLE, p);
            int b = longest_run(players, BERGER_DOUBLE | BERGER_SWAP_LAST_TWO, p);
            plain = a > plain ? a : plain;
            swapped = b > swapped ? b : swapped;
        }
        ck_assert_msg(plain >= 3, "%d players: plain double has no run of 3", players);
        ck_assert_msg(swapped <= 2, "%d players: swapped double has a run of %d", players, swapped);
    }
}
END_TEST

START_TEST(swap_only_touches_the_last_two_rounds)
{
    BergerBoard a[BERGER_MAX_BOARDS], b[BERGER_MAX_BOARDS];
    /* 6 players: rounds 4 and 5 trade places; round 5 is then 6-5 1-4 2-3. */
    ck_assert_int_eq(berger_round(6, 5, BERGER_DOUBLE | BERGER_SWAP_LAST_TWO, a), 3);
    ck_assert_int_eq(a[0].white, 6);
    ck_assert_int_eq(a[0].black, 5);
    ck_assert_int_eq(berger_round(6, 4, BERGER_DOUBLE | BERGER_SWAP_LAST_TWO, a), 3);
    ck_assert_int_eq(a[0].white, 3);
    ck_assert_int_eq(a[0].black, 6);
    /* Second cycle: round 6 is round 1 with colours reversed (6-1 5-2 4-3). */
    berger_round(6, 6, BERGER_DOUBLE | BERGER_SWAP_LAST_TWO, b);
    ck_assert_int_eq(b[0].white, 6);
    ck_assert_int_eq(b[0].black, 1);
    ck_assert_int_eq(b[2].white, 4);
    ck_assert_int_eq(b[2].black, 3);
}
END_TEST

START_TEST(out_of_range)
{
    BergerBoard b[BERGER_MAX_BOARDS];
    ck_assert_int_eq(berger_round(2, 1, 0, b), -BERGER_E_RANGE);
    ck_assert_int_eq(berger_round(25, 1, 0, b), -BERGER_E_RANGE);
    ck_assert_int_eq(berger_round(6, 0, 0, b), -BERGER_E_RANGE);
    ck_assert_int_eq(berger_round(6, 6, 0, b), -BERGER_E_RANGE);
    ck_assert_int_eq(berger_round(6, 11, BERGER_DOUBLE, b), -BERGER_E_RANGE);
    ck_assert_int_eq(berger_rounds(5, 0), 5);
    ck_assert_int_eq(berger_rounds(5, BERGER_DOUBLE), 10);
    ck_assert_int_eq(berger_rounds(26, 0), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("berger");
    TCase *tc = tcase_create("berger");
    tcase_add_test(tc, published_tables);
    tcase_add_test(tc, closed_form);
    tcase_add_test(tc, everyone_meets_once_double_reversed);
    tcase_add_test(tc, double_swap_avoids_three_in_a_row);
    tcase_add_test(tc, swap_only_touches_the_last_two_rounds);
    tcase_add_test(tc, out_of_range);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
