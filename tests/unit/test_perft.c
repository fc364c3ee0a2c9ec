/*
 * test_perft.c — the move generator against published perft counts
 * (tests/data/perft/standard.epd: 128 positions, counts to depth 5-6).
 *
 * Default run: depth 4 for every position, depth 5 for a handful of the
 * hardest (start position, Kiwipete, castling and promotion corners).
 * With --deep (suite "slow"): every published depth.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "testutil.h"

static int deep;

typedef struct {
    char fen[128];
    unsigned long long counts[8]; /* counts[d], 0 when not published */
} EpdCase;

static EpdCase cases[200];
static int n_cases;

static void load_epd(void)
{
    FILE *f = testutil_open_at_start("perft", "standard.epd", "r");
    char line[512];
    while (fgets(line, sizeof line, f) && n_cases < 200) {
        EpdCase *c = &cases[n_cases];
        memset(c, 0, sizeof *c);
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        snprintf(c->fen, sizeof c->fen, "%.127s", line);
        for (char *p = semi + 1; p && *p;) {
            int d;
            unsigned long long n;
            if (sscanf(p, " D%d %llu", &d, &n) == 2 && d > 0 && d < 8)
                c->counts[d] = n;
            p = strchr(p, ';');
            if (p)
                p++;
        }
        n_cases++;
    }
    fclose(f);
}

static void check_case(const EpdCase *c, int depth)
{
    Board b = testutil_board(c->fen);
    unsigned long long got = movegen_perft(&b, depth);
    ck_assert_msg(got == c->counts[depth], "%s depth %d: got %llu, published %llu", c->fen, depth,
                  got, c->counts[depth]);
}

START_TEST(perft_suite_depth4)
{
    ck_assert_int_eq(n_cases, 128);
    for (int i = 0; i < n_cases; i++)
        for (int d = 1; d <= 4; d++)
            if (cases[i].counts[d])
                check_case(&cases[i], d);
}
END_TEST

/* Depth 5 where it matters most: start, Kiwipete, both-side castling with
 * rook captures, and promotion-heavy positions. */
START_TEST(perft_selected_depth5)
{
    static const int picks[] = {0, 1, 12, 13, 16, 100, 110, 120};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        int k = picks[i];
        if (k < n_cases && cases[k].counts[5])
            check_case(&cases[k], 5);
    }
}
END_TEST

START_TEST(perft_all_published)
{
    for (int i = 0; i < n_cases; i++)
        for (int d = 5; d < 8; d++)
            if (cases[i].counts[d])
                check_case(&cases[i], d);
}
END_TEST

/* Perft with the incremental Zobrist key checked against a recomputed one
 * at every node: a key bug would silently break repetition detection. */
static void walk_keys(const Board *b, int depth)
{
    ck_assert_uint_eq(b->key, board_compute_key(b));
    if (depth == 0)
        return;
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        walk_keys(&child, depth - 1);
    }
}

START_TEST(incremental_keys_match)
{
    for (int i = 0; i < n_cases; i += 9) {
        Board b = testutil_board(cases[i].fen);
        walk_keys(&b, 3);
    }
}
END_TEST

int main(int argc, char **argv)
{
    deep = argc > 1 && strcmp(argv[1], "--deep") == 0;
    load_epd();
    Suite *s = suite_create("perft");
    TCase *tc = tcase_create(deep ? "deep" : "default");
    tcase_set_timeout(tc, deep ? 3600 : 600);
    if (deep) {
        tcase_add_test(tc, perft_all_published);
    } else {
        tcase_add_test(tc, perft_suite_depth4);
        tcase_add_test(tc, perft_selected_depth5);
        tcase_add_test(tc, incremental_keys_match);
    }
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
