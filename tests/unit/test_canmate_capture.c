/*
 * test_canmate_capture.c — the milestone search of the can-mate analysis
 * (rules/chess/canmate_capture.c) and its place in canmate_search(), on
 * positions of the labelled vector (tests/data/canmate/d3-test-vector.txt,
 * the outside truth): kings walled in by their own rook, bishop and pawns
 * behind locked chains, mated only after bishops walk round the chains to
 * take the wall and the freed king walks out; undecided by every other
 * stage.  Every YES is replayed here, move by move, independently of the
 * search; a labelled NO must never come out as YES.
 */
#include <check.h>
#include <stdlib.h>

#include "board.h"
#include "canmate.h"
#include "canmate_capture.h"
#include "testutil.h"

/* A position of the labelled vector and the side asked about. */
typedef struct {
    const char *fen;
    int winner;
} Case;

/* Labelled YES for both sides: White's king on h1 is shut in by its own
 * Rg1, Bf1 and pawns, and no man but a bishop or two can move. */
static const Case walled[] = {
    /* Black's bishop takes the rook, Black's king the bishop, and White's
     * king walks out to be mated on a1. */
    {"8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - - 0 1", BLACK},
    {"8/8/5p2/2p1pPk1/2PbP1Bb/2pBp1p1/2P1P1P1/5BRK b - - 0 1", BLACK},
    /* The same captures free White's king to take the f6 pawn, and the
     * f-pawn promotes and mates. */
    {"8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - - 0 1", WHITE},
    {"8/8/5p2/2p1pPk1/2PbP1Bb/2pBp1p1/2P1P1P1/5BRK b - - 0 1", WHITE},
};

/* The budget canmate_search() gives the stage by default. */
enum { BUDGET = 1000000 };

START_TEST(capture_finds_walled_mates)
{
    CanMateCapture *mem = NULL; /* kept from one case to the next */
    for (size_t i = 0; i < sizeof walled / sizeof *walled; i++) {
        Board b = testutil_board(walled[i].fen);
        Move line[CANMATE_LINE_MAX];
        int len = 0;
        CanMate r = canmate_capture_search(&b, walled[i].winner, BUDGET, &mem, line, &len);
        ck_assert_msg(r == CANMATE_YES, "%s: %s", walled[i].fen, canmate_name(r));
        testutil_assert_mates(walled[i].fen, walled[i].winner, line, len);
    }
    canmate_capture_free(mem);
}
END_TEST

/* What a user sees: the default analysis now decides them. */
START_TEST(search_decides_walled_mates)
{
    CanMateScratch *scratch = canmate_scratch_new();
    ck_assert_ptr_nonnull(scratch);
    for (size_t i = 0; i < sizeof walled / sizeof *walled; i++)
        testutil_assert_search_mates(walled[i].fen, walled[i].winner, scratch);
    canmate_scratch_free(scratch);
}
END_TEST

/* Labelled NO for both sides, of the same family: the search must stay
 * undecided (it never claims a proof, and no mating line exists). */
static const Case cannot[] = {
    {"8/8/5p2/2p1pP2/2PbP1kb/2pBp1p1/2P1P1P1/5BRK b - - 0 1", WHITE},
    {"8/8/5p2/2p1pP2/2PbP1kb/2pBp1p1/2P1P1P1/5BRK b - - 0 1", BLACK},
    {"8/8/3k4/2p1p3/1pP1P3/1P2p1p1/B3P1P1/1B1B1BRK w - - 0 1", WHITE},
    {"8/8/3k4/2p1p3/1pP1P3/1P2p1p1/B3P1P1/1B1B1BRK w - - 0 1", BLACK},
    {"3k4/2p1p3/2P1P3/2pBp3/2P1P3/3Bp1p1/4P1P1/5BRK w - - 0 1", WHITE},
    {"3k4/2p1p3/2P1P3/2pBp3/2P1P3/3Bp1p1/4P1P1/5BRK w - - 0 1", BLACK},
};

START_TEST(capture_never_mates_where_none_exists)
{
    for (size_t i = 0; i < sizeof cannot / sizeof *cannot; i++) {
        Board b = testutil_board(cannot[i].fen);
        Move line[CANMATE_LINE_MAX];
        int len = 0;
        CanMate r = canmate_capture_search(&b, cannot[i].winner, BUDGET, NULL, line, &len);
        ck_assert_msg(r == CANMATE_UNKNOWN, "%s: %s", cannot[i].fen, canmate_name(r));
        ck_assert_int_eq(len, 0);
    }
}
END_TEST

/* Where the root's layer is large (bishops free on an open board), the
 * search leaves the position to the others at once: UNKNOWN, and well
 * within its budget (a labelled YES that the pictured mates decide). */
START_TEST(capture_gives_up_on_large_layers)
{
    Board b = testutil_board("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1");
    ck_assert_int_eq(canmate_capture_search(&b, WHITE, BUDGET, NULL, NULL, NULL), CANMATE_UNKNOWN);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("canmate_capture");
    TCase *tc = tcase_create("capture");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, capture_finds_walled_mates);
    tcase_add_test(tc, search_decides_walled_mates);
    tcase_add_test(tc, capture_never_mates_where_none_exists);
    tcase_add_test(tc, capture_gives_up_on_large_layers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
