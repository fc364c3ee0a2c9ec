/*
 * test_board.c — FEN in and out, impossible positions, making moves and the
 * Art. 9.2.3 position identity (castling rights and legal en passant).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "testutil.h"

static void play(Board *b, const char *ucis)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", ucis);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        board_make(b, testutil_uci(b, t));
}

START_TEST(fen_round_trip)
{
    static const char *const fens[] = {
        BOARD_START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "8/8/8/8/8/8/6k1/4K2R b K - 17 42",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Board b = testutil_board(fens[i]);
        char out[FEN_MAX];
        board_to_fen(&b, out);
        ck_assert_str_eq(out, fens[i]);
        ck_assert_uint_eq(b.key, board_compute_key(&b));
    }
}
END_TEST

START_TEST(fen_tolerates_spacing_and_missing_counters)
{
    Board b = testutil_board("  4k3/8/8/8/8/8/8/4K2R   w K -  ");
    char out[FEN_MAX];
    board_to_fen(&b, out);
    ck_assert_str_eq(out, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}
END_TEST

START_TEST(fen_rejections_say_why)
{
    const char *dir = getenv("ARBITER_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/fen/invalid.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *bar = strstr(line, " | ");
        ck_assert_msg(bar != NULL, "bad test line %s", line);
        *bar = '\0';
        const char *want = bar + 3;
        Board b;
        char err[160] = "";
        int rc = board_from_fen(&b, line, err, sizeof err);
        ck_assert_msg(rc == BOARD_E_FEN, "accepted impossible FEN '%s'", line);
        ck_assert_msg(strstr(err, want) != NULL, "FEN '%s': message '%s' lacks '%s'", line, err,
                      want);
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n, 25);
}
END_TEST

/* Art. 9.2.3: after 1.e4 the e3 square is not an en passant square in the
 * sense of the Laws (no black pawn can capture), so the position equals the
 * one reached with the same pieces by a transposition. */
START_TEST(ep_counts_only_when_capture_legal)
{
    Board a, b;
    board_start(&a);
    play(&a, "e2e4");
    ck_assert_uint_eq(a.ep, SQ_NONE);
    char fen[FEN_MAX];
    board_to_fen(&a, fen);
    ck_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");

    /* A real en passant right: 1.e4 Nf6 2.e5 d5 — exd6 is legal. */
    board_start(&a);
    play(&a, "e2e4 g8f6 e4e5 d7d5");
    ck_assert_uint_eq(a.ep, SQ(3, 5));
    /* The same placement reached with d7-d6-d5 has no e.p. right: different. */
    board_start(&b);
    play(&b, "e2e4 g8f6 e4e5 d7d6 g1f3 f6g8 f3g1 d6d5 g1f3 g8f6 f3g1");
    board_start(&b);
    play(&b, "e2e4 g8f6 e4e5 d7d6 b1c3 d6d5 c3b1");
    ck_assert(!board_same_position(&a, &b)); /* side to move differs */
    board_start(&b);
    play(&b, "g1f3 g8f6 f3g1 d7d5 e2e4 f6g8 e4e5 g8f6");
    /* White to move in both, same pieces; only a has the e.p. right. */
    Board c;
    board_start(&c);
    play(&c, "e2e4 g8f6 e4e5 d7d5");
    ck_assert(board_same_position(&a, &c));
    ck_assert_uint_eq(a.key, c.key);
    ck_assert_uint_eq(b.ep, SQ_NONE);
    ck_assert(!board_same_position(&a, &b));
    ck_assert_uint_ne(a.key, b.key);
}
END_TEST

/* An en passant capture that would expose the king along the rank is not
 * legal, so it is no en passant right at all. */
START_TEST(ep_pinned_along_rank_is_not_a_right)
{
    Board b = testutil_board("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
    play(&b, "e2e4");
    ck_assert_uint_eq(b.ep, SQ_NONE);
    MoveList list;
    movegen_legal_moves(&b, &list);
    for (int i = 0; i < list.count; i++)
        ck_assert_int_ne(move_kind(list.moves[i]), MOVE_EN_PASSANT);
}
END_TEST

START_TEST(castling_rights_are_lost_by_king_or_rook_moves)
{
    Board b = testutil_board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&b, "h1h2 a8a7");
    ck_assert_uint_eq(b.castling, CASTLE_WQ | CASTLE_BK);
    play(&b, "h2h1 a7a8");
    /* Rooks back home, but the rights are gone for good: a new position. */
    Board start = testutil_board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ck_assert(!board_same_position(&b, &start));
    ck_assert_uint_ne(b.key, start.key);
    /* Capturing a rook on its home square removes that right too. */
    Board c = testutil_board("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1");
    play(&c, "g2a8");
    ck_assert_uint_eq(c.castling, CASTLE_WK | CASTLE_WQ | CASTLE_BK);
}
END_TEST

START_TEST(counters_follow_the_moves)
{
    Board b;
    board_start(&b);
    play(&b, "g1f3 g8f6 f3g1 f6g8");
    ck_assert_uint_eq(b.halfmove, 4);
    ck_assert_uint_eq(b.fullmove, 3);
    play(&b, "e2e4");
    ck_assert_uint_eq(b.halfmove, 0);
    Board c;
    board_start(&c);
    ck_assert_uint_eq(b.key == c.key, 0);
    play(&c, "g1f3 g8f6 f3g1 f6g8");
    Board d;
    board_start(&d);
    ck_assert(board_same_position(&c, &d));
    ck_assert_uint_eq(c.key, d.key);
}
END_TEST

START_TEST(special_moves_are_made_correctly)
{
    Board b = testutil_board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    Board x = b;
    play(&x, "e5d6");
    char fen[FEN_MAX];
    board_to_fen(&x, fen);
    ck_assert_str_eq(fen, "r3k2r/1P6/3P4/8/8/8/8/R3K2R b KQkq - 0 1");
    x = b;
    play(&x, "b7a8n");
    board_to_fen(&x, fen);
    ck_assert_str_eq(fen, "N3k2r/8/8/3pP3/8/8/8/R3K2R b KQk - 0 1");
    x = b;
    play(&x, "e1c1");
    board_to_fen(&x, fen);
    ck_assert_str_eq(fen, "r3k2r/1P6/8/3pP3/8/8/8/2KR3R b kq - 1 1");
    play(&x, "e8g8");
    board_to_fen(&x, fen);
    ck_assert_str_eq(fen, "r4rk1/1P6/8/3pP3/8/8/8/2KR3R w - - 2 2");
}
END_TEST

/* Calls visit() on b and on every position of the tree below it to `depth`
 * plies; returns the sum of what the calls return. */
static long walk_tree(const Board *b, int depth, long (*visit)(const Board *))
{
    long sum = visit(b);
    if (depth == 0)
        return sum;
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        sum += walk_tree(&child, depth - 1, visit);
    }
    return sum;
}

/* walk_tree() from each of the positions `fens`; the sum of the walks. */
static long walk_trees(const char *const *fens, size_t n, int depth, long (*visit)(const Board *))
{
    long sum = 0;
    for (size_t i = 0; i < n; i++) {
        Board b = testutil_board(fens[i]);
        sum += walk_tree(&b, depth, visit);
    }
    return sum;
}

/* Each move from b: the key announced by board_key_after() is the one
 * board_make() gives, and board_make_keyed() with that key leaves the
 * very board board_make() leaves; returns the moves seen. */
static long keys_agree(const Board *b)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b, keyed = *b;
        board_make(&child, list.moves[i]);
        char uci[6];
        board_move_to_uci(list.moves[i], uci);
        uint64_t key = board_key_after(b, list.moves[i]);
        ck_assert_msg(key == child.key, "key after %s differs", uci);
        ck_assert_msg(key == board_compute_key(&child), "made key after %s is wrong", uci);
        board_make_keyed(&keyed, list.moves[i], key);
        ck_assert_msg(memcmp(&keyed, &child, sizeof keyed) == 0, "keyed make of %s differs", uci);
    }
    return list.count;
}

START_TEST(key_after_matches_the_made_move)
{
    /* Castling both ways with rights lost to rook captures, en passant
     * with and without a pin along the rank, promotions with capture. */
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    ck_assert_int_gt(walk_trees(fens, sizeof fens / sizeof fens[0], 2, keys_agree), 10000);
}
END_TEST

/* movegen_has_legal() agrees with the move count in b; returns 1 when b
 * has no move. */
static long has_legal_agrees(const Board *b)
{
    int count = movegen_count_legal(b);
    char fen[FEN_MAX];
    board_to_fen(b, fen);
    ck_assert_msg(movegen_has_legal(b) == (count > 0), "has_legal wrong in %s", fen);
    return count == 0;
}

START_TEST(has_legal_agrees_with_the_count)
{
    /* Stalemates with only pinned men, a pawn that may take only en
     * passant, mates and near-mates, the perft positions. */
    static const char *const fens[] = {
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        "7k/8/8/8/8/8/r7/1r5K w - - 0 1",
        "k7/b7/8/8/8/8/6P1/7K w - - 0 1",
        "k7/1r6/8/3pP3/8/8/8/1K6 w - d6 0 2",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "r1b1kbnr/pppp1Npp/8/4P3/4n3/8/PPP2qPP/RNBQKB1R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    ck_assert_int_gt(walk_trees(fens, sizeof fens / sizeof fens[0], 3, has_legal_agrees), 0);
}
END_TEST

/* The legal moves of b, its checking candidates and its FEN (for messages). */
static void both_lists(const Board *b, MoveList *list, MoveList *cand, char fen[FEN_MAX])
{
    movegen_legal_moves(b, list);
    movegen_checking_candidates(b, cand);
    board_to_fen(b, fen);
}

/* In b, the checking candidates are legal moves in the order of the full
 * list and include every move that gives check; returns the checking moves. */
static long candidates_hold_the_checks(const Board *b)
{
    MoveList list, cand;
    char fen[FEN_MAX];
    both_lists(b, &list, &cand, fen);
    long checks = 0;
    int k = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        bool kept = k < cand.count && cand.moves[k] == list.moves[i];
        if (kept)
            k++;
        if (board_in_check(&child)) {
            char uci[6];
            board_move_to_uci(list.moves[i], uci);
            ck_assert_msg(kept, "check %s missing in %s", uci, fen);
            checks++;
        }
    }
    ck_assert_msg(k == cand.count, "candidates out of order or not legal in %s", fen);
    return checks;
}

START_TEST(checking_candidates_hold_every_check)
{
    /* Discovered checks by pawns, pieces and the king, checks by
     * promotion (along the file the pawn leaves), castling and en
     * passant, pins, and the perft positions. */
    static const char *const fens[] = {
        "4k3/4P3/8/8/8/8/8/4K2R w K - 0 1",
        "2k5/8/8/8/8/8/4P3/3QK2R w K - 0 1",
        "7k/8/5N2/8/3B4/8/1PK5/B3R3 w - - 0 1",
        "k7/8/8/2pP4/8/8/8/K5B1 w - c6 0 2",
        "8/8/8/K2pP2k/8/8/8/8 w - d6 0 2",
        "4k3/8/4K3/8/8/8/8/4R3 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    ck_assert_int_gt(walk_trees(fens, sizeof fens / sizeof fens[0], 2, candidates_hold_the_checks),
                     1000);
}
END_TEST

/* In b, movegen_mating_move() finds the first mate of the full list, or
 * none when no move mates (tried by making every move), from the full list
 * and from the checking candidates alike; movegen_gives_check() claims
 * only checks, and every check by the man moved (or the piece it promotes
 * to) outside castling and en passant; movegen_move_checks() says of every
 * move whether it checks, uncovered checks and the special moves' too.
 * Returns the mating moves. */
static long mating_move_agrees(const Board *b)
{
    MoveList list, cand;
    char fen[FEN_MAX];
    both_lists(b, &list, &cand, fen);
    int opp_king = board_king(b, b->side ^ 1);
    Move first = MOVE_NONE;
    long mates = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        Board child = *b;
        board_make(&child, m);
        Bitboard checkers = board_checkers(&child);
        bool direct = (checkers & BB(move_to(m))) != 0;
        bool special = move_kind(m) == MOVE_CASTLING || move_kind(m) == MOVE_EN_PASSANT;
        char uci[6];
        board_move_to_uci(m, uci);
        if (movegen_gives_check(b, m, opp_king))
            ck_assert_msg(direct, "%s claimed a check in %s", uci, fen);
        else
            ck_assert_msg(!direct || special, "%s: its check missed in %s", uci, fen);
        ck_assert_msg(movegen_move_checks(b, m) == (checkers != 0), "%s: check %s in %s", uci,
                      checkers ? "missed" : "claimed", fen);
        if (checkers && movegen_count_legal(&child) == 0) {
            if (first == MOVE_NONE)
                first = m;
            mates++;
        }
    }
    ck_assert_msg(movegen_mating_move(b, &list) == first, "mate in one wrong in %s", fen);
    ck_assert_msg(movegen_mating_move(b, &cand) == first, "mate in one wrong (candidates) in %s",
                  fen);
    return mates;
}

START_TEST(mating_move_is_the_first_mate)
{
    /* Back-rank, smothered, discovered, promotion and en passant mates,
     * positions with none, and the perft positions' trees. */
    static const char *const fens[] = {
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1",
        "2rkr3/2p1p3/8/3N4/8/8/8/3R3K w - - 0 1",
        "k7/2P5/1K6/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/2k1Pp2/8/3K4/8 b - e3 0 1",
        "r1b1kbnr/pppp1Npp/8/4P3/4n3/8/PPP2qPP/RNBQKB1R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    ck_assert_int_gt(walk_trees(fens, sizeof fens / sizeof fens[0], 2, mating_move_agrees), 10);
}
END_TEST

START_TEST(distance_table_counts_king_steps)
{
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int df = abs(SQ_FILE(a) - SQ_FILE(b)), dr = abs(SQ_RANK(a) - SQ_RANK(b));
            ck_assert_int_eq(bb_distance[a][b], df > dr ? df : dr);
        }
    ck_assert_int_eq(bb_distance[SQ(0, 0)][SQ(7, 7)], 7);
    ck_assert_int_eq(bb_distance[SQ(4, 3)][SQ(5, 5)], 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("board");
    tcase_add_test(tc, fen_round_trip);
    tcase_add_test(tc, fen_tolerates_spacing_and_missing_counters);
    tcase_add_test(tc, fen_rejections_say_why);
    tcase_add_test(tc, ep_counts_only_when_capture_legal);
    tcase_add_test(tc, ep_pinned_along_rank_is_not_a_right);
    tcase_add_test(tc, castling_rights_are_lost_by_king_or_rook_moves);
    tcase_add_test(tc, counters_follow_the_moves);
    tcase_add_test(tc, special_moves_are_made_correctly);
    tcase_add_test(tc, key_after_matches_the_made_move);
    tcase_add_test(tc, has_legal_agrees_with_the_count);
    tcase_add_test(tc, checking_candidates_hold_every_check);
    tcase_add_test(tc, mating_move_is_the_first_mate);
    tcase_add_test(tc, distance_table_counts_king_steps);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
