/*
 * test_canmate_guided.c — the guided deep helpmate search
 * (rules/chess/canmate_guided.c) and the way canmate_search() uses it, on
 * positions of the labelled vector (tests/data/canmate/d3-test-vector.txt,
 * the outside truth) whose helpmates are long: an underpromotion cage, a
 * rook shut in behind pawns, bishops behind a locked chain.  Every YES is
 * replayed here move by move, independently of the search.
 */
#include <check.h>
#include <stdlib.h>

#include "board.h"
#include "canmate.h"
#include "canmate_guided.h"
#include "testutil.h"

/* Labelled YES for the side given, undecided before the guided search
 * kept its table and pictured the mate in each corner. */
static const struct {
    const char *fen;
    int winner;
} long_mates[] = {
    /* White underpromotes to a knight that smothers the caged king. */
    {"8/8/8/2p5/1pp5/brpp4/qpprpK1P/1nkbn3 w - - 0 1", WHITE},
    {"6kR/4p1p1/1p2P1P1/1P2p3/1P2P3/1P2p1p1/4P1P1/5BK1 b - - 0 1", WHITE},
    {"8/7k/5p2/2p1pP2/2PbP1B1/2pBp1p1/2P1P1P1/5BbK b - - 0 1", WHITE},
};

START_TEST(search_finds_long_mates)
{
    CanMateScratch *scratch = canmate_scratch_new();
    ck_assert_ptr_nonnull(scratch);
    for (size_t i = 0; i < sizeof long_mates / sizeof *long_mates; i++)
        testutil_assert_search_mates(long_mates[i].fen, long_mates[i].winner, scratch);
    canmate_scratch_free(scratch);
}
END_TEST

enum { BITS = 18 };

/* The bishops behind the chain mate only where the search is told to
 * picture it: in a corner of White's own back rank, which the bishops'
 * colour does not point to. */
START_TEST(corner_decides_the_walk)
{
    const char *fen = "4k3/8/1Bb3b1/1p1p1p1p/1P1P1P1P/1b6/3B4/4K3 b - - 0 1";
    Board b = testutil_board(fen);
    CanMateTtEntry *tt = calloc((size_t)1 << BITS, sizeof *tt);
    ck_assert_ptr_nonnull(tt);
    uint32_t gen = 0, mask = ((uint32_t)1 << BITS) - 1;
    Move line[CANMATE_LINE_MAX];
    int len = 0;
    ck_assert_int_eq(canmate_guided_search(&b, WHITE, 1000000, tt, mask, &gen, line, &len),
                     CANMATE_UNKNOWN);
    ck_assert_int_eq(len, 0);
    CanMate r = CANMATE_UNKNOWN;
    for (int file = 0; file <= 7 && r != CANMATE_YES; file += 7)
        r = canmate_guided_search_at(&b, WHITE, SQ(file, 0), 250000, tt, mask, &gen, line, &len);
    ck_assert_int_eq(r, CANMATE_YES);
    testutil_assert_mates(fen, WHITE, line, len);
    free(tt);
}
END_TEST

/* Rounds that reuse the earlier rounds' table still prove NO only from a
 * round that saw everything on its own: a dead blocked position (labelled
 * "--") is proven, a live one never is, whatever the budget. */
START_TEST(kept_table_proves_only_what_it_saw)
{
    CanMateTtEntry *tt = calloc((size_t)1 << BITS, sizeof *tt);
    ck_assert_ptr_nonnull(tt);
    uint32_t gen = 0, mask = ((uint32_t)1 << BITS) - 1;
    Board dead = testutil_board("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1");
    ck_assert_int_eq(canmate_guided_search(&dead, WHITE, 1000000, tt, mask, &gen, NULL, NULL),
                     CANMATE_NO);
    for (size_t i = 0; i < sizeof long_mates / sizeof *long_mates; i++) {
        Board b = testutil_board(long_mates[i].fen);
        for (uint64_t budget = 1000; budget <= 100000; budget *= 10)
            ck_assert_int_ne(canmate_guided_search_at(&b, long_mates[i].winner, SQ(7, 7), budget,
                                                      tt, mask, &gen, NULL, NULL),
                             CANMATE_NO);
    }
    /* Generations near the end of the counter start again from zero. */
    gen = UINT32_MAX - 3;
    ck_assert_int_eq(canmate_guided_search(&dead, WHITE, 1000000, tt, mask, &gen, NULL, NULL),
                     CANMATE_NO);
    ck_assert_uint_lt(gen, 1000);
    free(tt);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("canmate_guided");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, search_finds_long_mates);
    tcase_add_test(tc, corner_decides_the_walk);
    tcase_add_test(tc, kept_table_proves_only_what_it_saw);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
