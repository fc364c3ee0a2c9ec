/*
 * test_canmate_plan.c — the plan-directed stage of the can-mate analysis
 * (rules/chess/canmate_plan.c) and its place in canmate_search(), on
 * positions of the labelled vector (tests/data/canmate/d3-test-vector.txt,
 * the outside truth): walls of pawns with bishops and knights whose mate
 * is not in a corner, and walled-in kings whose mates are a count of
 * tempi, all undecided before this stage.  Every YES is replayed
 * here, move by move, independently of the search; a labelled NO must
 * never come out as YES.
 */
#include <check.h>
#include <stdlib.h>

#include "board.h"
#include "canmate.h"
#include "canmate_plan.h"
#include "canmate_walk.h"
#include "testutil.h"

/* A position of the labelled vector and the side asked about. */
typedef struct {
    const char *fen;
    int winner;
} Case;

/* Labelled YES for the side given, whose mates the corner pictures miss. */
static const Case walled[] = {
    /* Black's bishops behind the chain mate White's king on the king's side. */
    {"8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", BLACK},
    /* White's king, shut in on the a-file, is mated beside its own pawns. */
    {"4k3/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/8 w - - 0 1", BLACK},
    /* Bishops and knights locked in a double chain. */
    {"8/1p2k1p1/bPp2pPb/n1P2P1n/N1p2p1N/BpP1KPpB/1P4P1/8 w - - 0 1", BLACK},
    {"8/2k5/2b1b3/1p1p1pBp/1P1P1P1P/8/2bK1B2/8 b - - 0 1", WHITE},
    /* White's king is shut in at h3 and h1: Black's king takes pawns so
     * that a pawn of Black's can pass, promote and be taken in turn. */
    {"8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/k7 w - - 0 1", WHITE},
    {"8/3p1p1p/1p6/1P6/KP6/PP6/3P1P1P/k7 w - - 0 1", WHITE},
};

/* The budget canmate_search() gives the stage by default. */
enum { BITS = 18, BUDGET = 2000000 };

static CanMateTtEntry *table(void)
{
    CanMateTtEntry *tt = calloc((size_t)1 << BITS, sizeof *tt);
    ck_assert_ptr_nonnull(tt);
    return tt;
}

/* Which search of the stage expect_stage() runs. */
enum { PLAN, TEMPO, EDGE, PIECES, PICTURES };

/* Runs the plan stage (TEMPO: its tempo search alone, EDGE: the tempo
 * search with the loser's king's steps to the edge free, PIECES: the tempo
 * search where pieces move, PICTURES: the pictured mates with blockers) with BUDGET on
 * each of the N CASES and asserts it answers WANT; a YES must carry a line
 * that replays to mate, an UNKNOWN no line at all. */
static void expect_stage(const Case *cases, size_t n, int search, uint64_t budget, CanMate want)
{
    CanMateTtEntry *tt = table();
    CanMateWalks *walks = NULL;
    uint32_t gen = 0, mask = ((uint32_t)1 << BITS) - 1;
    for (size_t i = 0; i < n; i++) {
        Board b = testutil_board(cases[i].fen);
        Move line[CANMATE_LINE_MAX];
        int len = 0;
        CanMate r =
            search == TEMPO
                ? canmate_plan_tempo_search(&b, cases[i].winner, budget, tt, mask, &gen, line, &len)
            : search == EDGE
                ? canmate_plan_edge_search(&b, cases[i].winner, budget, tt, mask, &gen, line, &len)
            : search == PIECES ? canmate_plan_pieces_tempo_search(&b, cases[i].winner, budget, tt,
                                                                  mask, &gen, line, &len)
            : search == PICTURES
                ? canmate_plan_picture_search(&b, cases[i].winner, budget, &walks, line, &len)
                : canmate_plan_search(&b, cases[i].winner, budget, tt, mask, &gen, line, &len);
        ck_assert_msg(r == want, "%s: %s", cases[i].fen, canmate_name(r));
        if (want == CANMATE_YES)
            testutil_assert_mates(cases[i].fen, cases[i].winner, line, len);
        else
            ck_assert_int_eq(len, 0);
    }
    canmate_walks_free(walks);
    free(tt);
}

/* What a user sees: the default analysis decides each of the N CASES, with
 * a line that replays to mate. */
static void expect_search_mates(const Case *cases, size_t n)
{
    CanMateScratch *scratch = canmate_scratch_new();
    ck_assert_ptr_nonnull(scratch);
    for (size_t i = 0; i < n; i++)
        testutil_assert_search_mates(cases[i].fen, cases[i].winner, scratch);
    canmate_scratch_free(scratch);
}

START_TEST(plan_finds_walled_mates)
{
    expect_stage(walled, sizeof walled / sizeof *walled, PLAN, BUDGET, CANMATE_YES);
}
END_TEST

/* What a user sees: the default analysis now decides them. */
START_TEST(search_decides_walled_mates)
{
    expect_search_mates(walled, sizeof walled / sizeof *walled);
}
END_TEST

/* Labelled NO for the side given: the stage must stay undecided (it never
 * claims a proof, and no mating line exists). */
static const Case cannot[] = {
    /* Black's king is walled in and its pawns never change files. */
    {"1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1", BLACK},
    {"1k6/1P3p1p/BP1p4/1P6/8/8/3P1PKP/8 w - - 0 1", BLACK},
    /* Too few tempi left for either side. */
    {"k7/p1p1p3/8/8/P1P1P3/6p1/6Pp/7K w - - 0 1", WHITE},
    {"k7/p1p1p3/8/8/P1P1P3/6p1/6Pp/7K w - - 0 1", BLACK},
};

START_TEST(plan_never_mates_where_none_exists)
{
    expect_stage(cannot, sizeof cannot / sizeof *cannot, PLAN, BUDGET / 4, CANMATE_UNKNOWN);
}
END_TEST

/* Labelled YES for the side given, one of each family of walled-in kings
 * whose mate is a count of tempi, undecided by every stage before the
 * tempo search walked kings to the pawns and gave pieces up for free. */
static const Case tempo[] = {
    /* Black's e-pawn promotes to a knight that frees White's king, the
     * h-pawn's queen is given up, a White pawn passes and mates. */
    {"5k2/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - - 0 1", WHITE},
    /* The kings walk to the pawns they must take or make way for. */
    {"8/1p1p1p1p/1P6/KP6/PP6/8/3P1P1P/k7 w - - 0 1", BLACK},
    {"8/p1p1p1p1/6P1/6PK/6PP/8/P1P1P3/7k w - - 0 1", WHITE},
    /* Black's king is shut in on b8: White promotes to bishops and gives
     * them up so that Black's pawns pass. */
    {"1k6/1P1p1p1p/BP6/1P6/1p6/8/1P1P1PKP/8 w - - 0 1", BLACK},
    {"8/p1p1p3/8/6p1/6Pk/6pB/PKP1P1P1/8 w - - 0 1", BLACK},
    {"6k1/p3p1P1/p1p3PB/p5P1/8/4P3/PKP5/8 w - - 0 1", BLACK},
};

/* The largest budget canmate_search() gives the tempo search in its
 * schedule. */
enum { TEMPO_BUDGET = 1500000 };

START_TEST(tempo_finds_walled_king_plans)
{
    expect_stage(tempo, sizeof tempo / sizeof *tempo, TEMPO, TEMPO_BUDGET, CANMATE_YES);
}
END_TEST

/* What a user sees: the default analysis decides them, each well within
 * a second. */
START_TEST(search_decides_tempo_plans)
{
    expect_search_mates(tempo, sizeof tempo / sizeof *tempo);
}
END_TEST

/* Labelled NO of the same families, where the tempo search runs to its
 * budget (pawns still move, nothing else does): it must find nothing.
 * And where a piece can move, it leaves the position to the others. */
static const Case tempo_cannot[] = {
    {"8/3p1p1p/1p6/1P6/KP6/PP1P4/5P1P/k7 w - - 0 1", WHITE},
    {"8/3p1p1p/1p6/1P6/KP6/PP1P4/5P1P/k7 w - - 0 1", BLACK},
    {"1k6/1P1p3p/BP3p2/1P5p/3P4/8/5PKP/8 b - - 0 1", BLACK},
    {"8/p1p1p3/8/8/8/P5p1/2P1P1Pp/k6K w - - 0 1", WHITE},
    {"8/1p1p1p1p/1P6/KP6/PP6/1P1P4/5P1P/k7 w - - 0 1", WHITE},
    {"3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1", BLACK},
};

START_TEST(tempo_never_mates_where_none_exists)
{
    expect_stage(tempo_cannot, sizeof tempo_cannot / sizeof *tempo_cannot, TEMPO, TEMPO_BUDGET,
                 CANMATE_UNKNOWN);
    expect_stage(tempo_cannot, sizeof tempo_cannot / sizeof *tempo_cannot, EDGE, TEMPO_BUDGET,
                 CANMATE_UNKNOWN);
    CanMateTtEntry *tt = table();
    uint32_t gen = 0, mask = ((uint32_t)1 << BITS) - 1;
    /* A labelled YES whose bishops move: not the tempo search's. */
    Board b = testutil_board(walled[0].fen);
    ck_assert_int_eq(
        canmate_plan_tempo_search(&b, walled[0].winner, TEMPO_BUDGET, tt, mask, &gen, NULL, NULL),
        CANMATE_UNKNOWN);
    free(tt);
}
END_TEST

/* Labelled YES where the loser's king walks to the edge square it is mated
 * on while the pawns run: the plain tempo search pays a move of its depth
 * for each of those steps and finds nothing within a fifth of its largest
 * budget; the edge search, for which they are free, finds each there. */
static const Case edge[] = {
    {"8/p1p1p1p1/6P1/6PK/6PP/6P1/P1P1P3/k7 w - - 0 1", BLACK},
    {"8/p1p1p1p1/6P1/6PK/6PP/8/P1P1P3/7k w - - 0 1", BLACK},
    {"8/1p1p1p1p/1P6/KP6/PP6/8/3P1P1P/k7 w - - 0 1", BLACK},
    {"k7/3p1p2/7p/1p6/1P6/KP6/PP1P1P1P/8 w - - 0 1", BLACK},
};

START_TEST(edge_finds_king_walks_to_the_edge)
{
    size_t n = sizeof edge / sizeof *edge;
    expect_stage(edge, n, EDGE, TEMPO_BUDGET / 5, CANMATE_YES);
    expect_stage(edge, n, TEMPO, TEMPO_BUDGET / 5, CANMATE_UNKNOWN);
    expect_search_mates(edge, n); /* what a user sees: the analysis decides them */
}
END_TEST

/* Labelled YES where a piece moves and the mate is a tempo plan: White's
 * king walks round to take Black's locked bishop and the pawn beside it,
 * so that Black's king gets out and Black's other bishop mates.  The tempo
 * search leaves positions where pieces move to the others; the turn that
 * runs it there too finds the plan within 700,000 positions (the plan
 * stage found it only after its pictured squares, with three times the
 * budget). */
static const Case pieces_tempo[] = {
    {"k1b5/1p1p4/1P1P1K2/8/8/B7/8/1b6 w - - 0 1", BLACK},
};

START_TEST(pieces_tempo_finds_a_plan_where_pieces_move)
{
    size_t n = sizeof pieces_tempo / sizeof *pieces_tempo;
    expect_stage(pieces_tempo, n, PIECES, 700000, CANMATE_YES);
    expect_stage(pieces_tempo, n, TEMPO, 700000, CANMATE_UNKNOWN);
    expect_search_mates(pieces_tempo, n);
}
END_TEST

/* Labelled YES for White: eight bishops on dark squares, White's king shut
 * in on a1.  Black's king can be mated only where its own light bishops
 * fill the flights no White man can ever cover. */
static const char bishops8[] = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1";

/* The plan to mate Black's king on h8 (its light flights g8 and h7 filled
 * by its bishops): each step of it brings the pictured mate one move
 * nearer; a waiting move, a bishop that comes no nearer to its square and
 * White's bishop that leaves h8 for g7, where it still bears on h8, leave
 * the count where it was. */
START_TEST(picture_distance_counts_the_plan)
{
    Board b = testutil_board(bishops8);
    Bitboard blocks = BB(SQ(6, 7)) | BB(SQ(7, 6));
    static const struct {
        const char *uci;
        int change;
    } steps[] = {
        {"g7h6", -1}, {"b7a6", 0},  {"h8g7", 0},  {"a8b7", -1}, {"g7f8", -1}, {"b7c8", -1},
        {"d2c1", 0},  {"c8d7", -1}, {"f6g5", -1}, {"c6e4", -1}, {"e5f4", -1}, {"e4h7", -1},
        {"d4c5", -1}, {"d7e8", -1}, {"c3b4", -1}, {"e8f7", -1},
    };
    uint32_t d = canmate_walk_picture_distance(&b, WHITE, SQ(7, 7), blocks);
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        board_make(&b, testutil_uci(&b, steps[i].uci));
        uint32_t next = canmate_walk_picture_distance(&b, WHITE, SQ(7, 7), blocks);
        ck_assert_msg((int)next - (int)d == steps[i].change, "%s: %u -> %u", steps[i].uci, d, next);
        d = next;
    }
}
END_TEST

/* Labelled YES for the side given, where the winner's only pieces are
 * bishops of one colour (or one bishop beside a king): the loser's own men
 * must stand beside its king. */
static const Case pictured[] = {
    {bishops8, WHITE},
    {"3kBbB1/b1pBbBp1/1pPpPpP1/1P1P1P2/8/8/6K1/8 w - - 0 1", WHITE},
    {"8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BKB1/8/8 b - - 0 1", BLACK},
    {"8/2k5/8/4K3/1n6/8/8/B7 w - - 0 1", WHITE},
};

/* Labelled NO for the side given, with squares the winner never covers:
 * the pictures are tried and no line is claimed. */
static const Case pictured_cannot[] = {
    {"7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 w - - 0 1", WHITE},
    {"5b1N/4p1pk/4P1P1/7K/8/8/8/8 b - - 0 1", BLACK},
};

/* The budget canmate_search() gives the pictures. */
enum { PICTURE_BUDGET = 4000 };

START_TEST(pictures_find_mates_with_blockers)
{
    expect_stage(pictured, sizeof pictured / sizeof *pictured, PICTURES, PICTURE_BUDGET,
                 CANMATE_YES);
}
END_TEST

START_TEST(pictures_never_mate_where_none_exists)
{
    expect_stage(pictured_cannot, sizeof pictured_cannot / sizeof *pictured_cannot, PICTURES,
                 PICTURE_BUDGET, CANMATE_UNKNOWN);
}
END_TEST

/* Where the winner may cover every square (a knight, a pawn that can still
 * promote), there is nothing to picture: UNKNOWN at once, no line. */
START_TEST(pictures_need_squares_never_covered)
{
    static const Case open[] = {
        {"k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1N4/K7 w - - 0 1", WHITE},
        {"k7/1b6/2b5/8/8/1p6/pP2P3/K1B5 w - - 0 1", WHITE},
    };
    expect_stage(open, sizeof open / sizeof *open, PICTURES, PICTURE_BUDGET, CANMATE_UNKNOWN);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("canmate_plan");
    TCase *tc = tcase_create("plan");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, plan_finds_walled_mates);
    tcase_add_test(tc, search_decides_walled_mates);
    tcase_add_test(tc, plan_never_mates_where_none_exists);
    tcase_add_test(tc, tempo_finds_walled_king_plans);
    tcase_add_test(tc, search_decides_tempo_plans);
    tcase_add_test(tc, tempo_never_mates_where_none_exists);
    tcase_add_test(tc, edge_finds_king_walks_to_the_edge);
    tcase_add_test(tc, pieces_tempo_finds_a_plan_where_pieces_move);
    tcase_add_test(tc, picture_distance_counts_the_plan);
    tcase_add_test(tc, pictures_find_mates_with_blockers);
    tcase_add_test(tc, pictures_never_mate_where_none_exists);
    tcase_add_test(tc, pictures_need_squares_never_covered);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
