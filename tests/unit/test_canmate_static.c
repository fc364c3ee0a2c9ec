/*
 * test_canmate_static.c — the proofs of rules/chess/canmate_static.c that
 * go beyond where men can stand: a capture by a king that leaves the other
 * side without a move, the pigeonhole over every flight square, and the
 * last moves before a mate when the loser's king is his only mobile man.
 *
 * Each proof is checked on side-cases of the labelled vector
 * (tests/data/canmate/d3-test-vector.txt, labels by an independent
 * analyser) that it decides, and on a close sibling where a mate exists:
 * there the proof must not answer, and the full search must find a line
 * that this test replays move by move.
 */
#include <check.h>

#include "board.h"
#include "canmate.h"
#include "canmate_static.h"
#include "movegen.h"
#include "testutil.h"

typedef struct {
    const char *fen;
    int winner;
} SideCase;

static void assert_proven(const SideCase *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Board b = testutil_board(c[i].fen);
        ck_assert_msg(canmate_static_no(&b, c[i].winner), "%s (%s): not proven", c[i].fen,
                      c[i].winner == WHITE ? "white" : "black");
        ck_assert_int_eq(canmate_analyse(&b, c[i].winner), CANMATE_NO);
    }
}

/* The sibling with a mate: no proof, and a line that mates. */
static void assert_mate_found(const SideCase *c)
{
    Board b = testutil_board(c->fen);
    ck_assert_msg(!canmate_static_no(&b, c->winner), "%s: proven, but a mate exists", c->fen);
    Move line[CANMATE_LINE_MAX];
    int len = -1;
    ck_assert_int_eq(canmate_search(&b, c->winner, NULL, NULL, line, &len), CANMATE_YES);
    for (int i = 0; i < len; i++) {
        ck_assert_msg(movegen_is_legal(&b, line[i]), "%s: ply %d illegal", c->fen, i);
        board_make(&b, line[i]);
    }
    ck_assert(b.side != c->winner);
    ck_assert(board_in_check(&b));
    ck_assert_int_eq(movegen_count_legal(&b), 0);
}

/* White's pawns stand on light squares that Black's dark bishops never
 * reach; only Black's king can take g2, and only while White's king is on
 * h4, where the capture leaves White without a move: stalemate, so the
 * black g-pawn never runs.  With a light bishop on e8 Black can open the
 * chain and both sides can mate. */
START_TEST(king_capture_that_stalemates)
{
    static const SideCase no[] = {
        {"8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", WHITE},
        {"8/8/7p/2b2p1P/1bkb1p1K/2b2Pp1/6P1/8 b - - 0 1", WHITE},
        {"8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", WHITE},
    };
    assert_proven(no, sizeof no / sizeof *no);
    assert_mate_found(&(SideCase){"4b3/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1", WHITE});
}
END_TEST

/* Black mates only with pawns, which never reach the b-, d-, f- or
 * h-file: every square where White's king can be checked keeps a flight
 * that no black pawn attacks and White's few pawns cannot all fill.  With
 * White's e-pawn moved to f2 Black's pawns can capture it and promote. */
START_TEST(flight_pigeonhole)
{
    static const SideCase no[] = {
        {"1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1", BLACK},
        {"3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1", BLACK},
        {"2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/8 w - - 0 1", BLACK},
        {"1b1k4/p1p1pBp1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1", BLACK},
    };
    assert_proven(no, sizeof no / sizeof *no);
    assert_mate_found(
        &(SideCase){"1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P2PP1/4K3 w - - 0 1", BLACK});
}
END_TEST

/* The loser's king shuttles between two squares and is his only mobile
 * man.  A mate on one needs the other covered by the winner's king, which
 * could not stand next to it a move before: the mating move would be a
 * king step with a discovered check, which a fixed pawn blocks.  With a
 * light bishop the other square is covered without the king; and from a
 * position with the mating move at hand (no last move to look back on)
 * nothing is proven. */
START_TEST(last_moves_before_mate)
{
    static const SideCase no[] = {
        {"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1", WHITE},
        {"8/1p2B1B1/1PpB1B2/k1P1B3/p1P2B2/P7/5K2/8 w - - 0 1", WHITE},
        {"8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", BLACK},
        {"8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 1", BLACK},
        {"8/b7/1b5p/2b2p1P/3b1p1K/4bPp1/6P1/5kb1 b - - 0 1", BLACK},
    };
    assert_proven(no, sizeof no / sizeof *no);
    assert_mate_found(&(SideCase){"4b3/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1", BLACK});
    assert_mate_found(&(SideCase){"8/Kp2B1B1/1PpB1B2/k1P5/p1P5/P7/8/8 w - - 0 1", WHITE});
    /* Nor when the root itself is the mate (found by a random walk). */
    Board mated = testutil_board("K1k5/PbPp4/3P4/8/8/8/8/8 w - - 0 1");
    ck_assert(!canmate_static_no(&mated, BLACK));
}
END_TEST

/* One side's king and pieces are walled in for good, so that side moves
 * only pawns and has a count of moves left; the other side's first
 * promotion needs more moves than that (its king must first take the pawn
 * in front of its own, then step off the file), so the walled side runs
 * out first and no promotion ever happens.  The siblings have one tempo
 * more (a pawn one rank further back, a pawn more) or a king nearer: there
 * the count does not hold and a mate exists. */
START_TEST(race_to_promotion)
{
    static const SideCase no[] = {
        /* The loser walled in (White's king on h3), and the winner. */
        {"8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/7k w - - 0 1", BLACK},
        {"8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/7k w - - 0 1", WHITE},
        {"5k2/p1p5/8/8/4p3/6p1/P1P1P1Pp/7K w - - 0 1", WHITE},
        {"8/3p1p1p/1p6/1P6/KP6/PP1P4/5P1P/k7 w - - 0 1", WHITE},
        {"8/3p1p1p/1p6/1P6/KP6/PP1P4/5P1P/k7 w - - 0 1", BLACK},
        {"8/1p1p1p1p/1P6/KP6/PP6/1P1P4/5P1P/k7 w - - 0 1", WHITE},
        {"8/1p1p1p1p/1P6/KP6/PP6/1P1P4/5P1P/k7 w - - 0 1", BLACK},
    };
    assert_proven(no, sizeof no / sizeof *no);
    static const SideCase yes[] = {
        {"8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/k7 w - - 0 1", BLACK},
        {"5k2/p1p5/8/4p3/8/6p1/P1P1P1Pp/7K w - - 0 1", WHITE},
        {"8/3p1p1p/1p6/1P6/KP6/PP6/2PP1P1P/k7 w - - 0 1", WHITE},
        {"8/3p1p1p/1p6/1P6/KP6/PP6/2PP1P1P/k7 w - - 0 1", BLACK},
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        assert_mate_found(&yes[i]);
}
END_TEST

/* Black's king is walled in on b8 and White's d-pawn promotes first; the
 * count alone does not decide these, but it prunes the walk of the
 * positions after White's king has taken a pawn, which then completes.
 * With a pawn more each on the b-file Black can mate: never a NO there. */
START_TEST(walled_king_walk)
{
    static const char *no[] = {
        "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1",
        "1k6/1P3p1p/BP1p4/1P6/8/8/3P1PKP/8 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        Board b = testutil_board(no[i]);
        ck_assert_msg(canmate_analyse(&b, BLACK) == CANMATE_NO, "%s: not proven", no[i]);
    }
    Board b = testutil_board("1k6/1P1p1p1p/BP6/1P6/1p6/8/1P1P1PKP/8 w - - 0 1");
    ck_assert(!canmate_static_no(&b, BLACK));
    ck_assert_int_ne(canmate_analyse(&b, BLACK), CANMATE_NO);
}
END_TEST

/* Random games from the positions above (a fixed seed): wherever the
 * static proof answers NO, no mate is found within a few plies either.
 * The proof's rules hold for every continuation, so a position reached on
 * the way to a mate would show it here. */
START_TEST(random_walks_agree)
{
    static const char *starts[] = {
        "8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/7k w - - 0 1",
        "8/p1p1p3/8/6p1/6P1/6PK/P1P1P1PP/k7 w - - 0 1",
        "5k2/p1p5/8/8/4p3/6p1/P1P1P1Pp/7K w - - 0 1",
        "8/3p1p1p/1p6/1P6/KP6/PP6/2PP1P1P/k7 w - - 0 1",
        "8/1p1p1p1p/1P6/KP6/PP6/1P1P4/5P1P/k7 w - - 0 1",
        "1k6/1P1p1p1p/BP6/1P6/1p6/8/1P1P1PKP/8 w - - 0 1",
    };
    uint64_t seed = 0x2545F4914F6CDD1DULL;
    int proven = 0;
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        for (int walk = 0; walk < 6; walk++) {
            Board b = testutil_board(starts[i]);
            for (int ply = 0; ply < 24; ply++) {
                MoveList list;
                movegen_legal_moves(&b, &list);
                if (list.count == 0)
                    break;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                board_make(&b, list.moves[seed % (uint64_t)list.count]);
                for (int w = WHITE; w <= BLACK; w++) {
                    if (!canmate_static_no(&b, w))
                        continue;
                    proven++;
                    ck_assert_msg(!testutil_mate_within(&b, w, 3),
                                  "%s: walk %d ply %d: mate for %s", starts[i], walk, ply,
                                  w == WHITE ? "white" : "black");
                }
            }
        }
    }
    ck_assert_int_gt(proven, 100);
}
END_TEST

/* The dead-position check after every move sees these without a search. */
START_TEST(dead_without_search)
{
    static const char *dead[] = {
        "8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1",
        "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof dead / sizeof *dead; i++) {
        Board b = testutil_board(dead[i]);
        ck_assert_msg(canmate_is_dead(&b), "%s: not dead", dead[i]);
    }
}
END_TEST

static Suite *canmate_static_suite(void)
{
    Suite *s = suite_create("canmate_static");
    TCase *tc = tcase_create("proofs");
    tcase_add_test(tc, king_capture_that_stalemates);
    tcase_add_test(tc, flight_pigeonhole);
    tcase_add_test(tc, last_moves_before_mate);
    tcase_add_test(tc, race_to_promotion);
    tcase_add_test(tc, walled_king_walk);
    tcase_add_test(tc, random_walks_agree);
    tcase_add_test(tc, dead_without_search);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(canmate_static_suite());
}
