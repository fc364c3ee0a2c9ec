/*
 * test_outcome.c — checkmate, stalemate, the insufficient-material
 * patterns, repetition counts (Art. 9.2.3), fivefold repetition (9.6.1), the
 * 75-move rule (9.6.2) and the threefold / 50-move claim conditions.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "notation.h"
#include "outcome.h"
#include "testutil.h"

/* A game: the board and the key history the Laws engine would keep. */
typedef struct Game {
    Board b;
    uint64_t keys[512];
    int count;
} Game;

static void game_start(Game *g, const char *fen)
{
    g->b = testutil_board(fen);
    g->keys[0] = g->b.key;
    g->count = 1;
}

static void play(Game *g, const char *moves)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        board_make(&g->b, testutil_san(&g->b, t));
        ck_assert_int_lt(g->count, 512);
        g->keys[g->count++] = g->b.key;
    }
}

static Outcome now(const Game *g)
{
    return outcome_of_game(&g->b, g->keys, g->count);
}

START_TEST(mates_and_stalemates)
{
    Game g;
    game_start(&g, BOARD_START_FEN);
    play(&g, "f3 e5 g4");
    ck_assert_int_eq(now(&g), OUTCOME_ONGOING);
    play(&g, "Qh4#");
    ck_assert_int_eq(now(&g), OUTCOME_CHECKMATE);
    ck_assert_int_eq(outcome_of_position(&g.b), OUTCOME_CHECKMATE);

    game_start(&g, BOARD_START_FEN);
    play(&g, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    ck_assert_int_eq(now(&g), OUTCOME_CHECKMATE);

    /* Check that is not mate. */
    Board b = testutil_board("rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
    ck_assert_int_eq(outcome_of_position(&b), OUTCOME_ONGOING);

    /* Classic stalemates. */
    b = testutil_board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    ck_assert_int_eq(outcome_of_position(&b), OUTCOME_STALEMATE);
    b = testutil_board("k7/P7/1K6/8/8/8/8/8 b - - 0 1");
    ck_assert_int_eq(outcome_of_position(&b), OUTCOME_STALEMATE);
    /* A stalemate beats the 75-move count (both draws, the position first). */
    b = testutil_board("7k/5Q2/6K1/8/8/8/8/8 b - - 150 120");
    ck_assert_int_eq(outcome_of_game(&b, &b.key, 1), OUTCOME_STALEMATE);
}
END_TEST

START_TEST(insufficient_material_patterns)
{
    static const char *const dead[] = {
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",       /* K v K */
        "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",      /* K+N v K */
        "8/8/8/4k3/8/8/8/4Kn2 b - - 0 1",      /* K v K+N */
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",     /* K+B v K */
        "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1",   /* bishops c1, f8: both dark */
        "5b2/8/8/4k3/8/4B3/8/2B1K3 b - - 0 1", /* three bishops, all dark */
        "b7/1b6/8/4k3/8/8/8/4K2B w - - 0 1",   /* all light, on one side too */
    };
    static const char *const alive[] = {
        "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", /* c1 dark, c8 light */
        "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",   /* two knights */
        "8/8/8/4k3/8/8/8/4KN1n w - - 0 1",   /* K+N v K+N */
        "8/8/8/4k3/8/8/8/2B1Kn2 w - - 0 1",  /* K+B v K+N */
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",   /* a pawn */
        "8/8/8/4k3/8/8/8/4K2R w - - 0 1",    /* a rook */
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",    /* a queen */
        "8/8/8/4k3/8/8/8/2BBK3 w - - 0 1",   /* bishop pair */
    };
    for (size_t i = 0; i < sizeof dead / sizeof dead[0]; i++) {
        Board b = testutil_board(dead[i]);
        ck_assert_msg(outcome_insufficient_material(&b), "%s", dead[i]);
        ck_assert_int_eq(outcome_of_position(&b), OUTCOME_INSUFFICIENT);
    }
    for (size_t i = 0; i < sizeof alive / sizeof alive[0]; i++) {
        Board b = testutil_board(alive[i]);
        ck_assert_msg(!outcome_insufficient_material(&b), "%s", alive[i]);
        ck_assert_int_eq(outcome_of_position(&b), OUTCOME_ONGOING);
    }
    /* Reached by a capture in play. */
    Game g;
    game_start(&g, "8/8/8/4k3/8/8/3r4/3RK3 b - - 0 1");
    play(&g, "Rxd1+");
    ck_assert_int_eq(now(&g), OUTCOME_ONGOING);
    play(&g, "Kxd1");
    ck_assert_int_eq(now(&g), OUTCOME_INSUFFICIENT);
}
END_TEST

START_TEST(repetition_counts_and_fivefold)
{
    Game g;
    game_start(&g, BOARD_START_FEN);
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 1);
    for (int round = 1; round <= 4; round++) {
        play(&g, "Nf3 Nf6 Ng1");
        ck_assert_int_eq(now(&g), OUTCOME_ONGOING);
        play(&g, "Ng8");
        ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), round + 1);
        /* Threefold may be claimed from the third occurrence on. */
        ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, MOVE_NONE) & OUTCOME_CLAIM_THREEFOLD,
                         round + 1 >= 3 ? OUTCOME_CLAIM_THREEFOLD : 0);
        ck_assert_int_eq(now(&g), round + 1 == 5 ? OUTCOME_FIVEFOLD : OUTCOME_ONGOING);
    }
    ck_assert_str_eq(outcome_name(now(&g)), "fivefold");

    /* Not necessarily consecutive: a different shuffle in between. */
    game_start(&g, BOARD_START_FEN);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8");
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 5);
    ck_assert_int_eq(now(&g), OUTCOME_FIVEFOLD);

    /* Positions before a pawn move or capture are not looked at. */
    uint64_t keys[] = {7, 8, 7, 8, 7};
    ck_assert_int_eq(outcome_repetitions(keys, 5, 4), 3);
    ck_assert_int_eq(outcome_repetitions(keys, 5, 2), 2);
    ck_assert_int_eq(outcome_repetitions(keys, 5, 0), 1);
    ck_assert_int_eq(outcome_repetitions(keys, 5, 100), 3);
    ck_assert_int_eq(outcome_repetitions(keys, 0, 0), 0);
    ck_assert_int_eq(outcome_repetitions(NULL, 3, 0), 0);
}
END_TEST

START_TEST(castling_rights_count_in_repetition)
{
    /* The king steps out and back: same placement, but the castling rights
     * are gone, so it is not the starting position again (Art. 9.2.3). */
    Game g;
    game_start(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&g, "Ke2 Ke7 Ke1 Ke8");
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 1);
    play(&g, "Ke2 Ke7 Ke1 Ke8");
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 2);
}
END_TEST

START_TEST(en_passant_only_counts_when_legal)
{
    /* After e2-e4 the d4 pawn may not take en passant (the a4 rook would
     * check the h4 king), so the position equals the one after the
     * knights return: two occurrences. */
    Game g;
    game_start(&g, "1n6/8/8/8/R2p3k/8/4P3/4K1N1 w - - 0 1");
    play(&g, "e4 Nc6 Nh3 Nb8 Ng1");
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 2);
    ck_assert_uint_eq(g.keys[1], g.keys[5]);

    /* Without the rook the capture is legal: the first position had a
     * right the later one lacks, so they differ. */
    game_start(&g, "1n6/8/8/8/3p3k/8/4P3/4K1N1 w - - 0 1");
    play(&g, "e4 Nc6 Nh3 Nb8 Ng1");
    ck_assert_int_eq(outcome_repetitions(g.keys, g.count, g.b.halfmove), 1);
    ck_assert_uint_ne(g.keys[1], g.keys[5]);
}
END_TEST

START_TEST(seventy_five_moves)
{
    Game g;
    game_start(&g, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120");
    ck_assert_int_eq(now(&g), OUTCOME_ONGOING);
    play(&g, "Ra2");
    ck_assert_int_eq(g.b.halfmove, 150);
    ck_assert_int_eq(now(&g), OUTCOME_SEVENTYFIVE);
    ck_assert_str_eq(outcome_name(now(&g)), "seventyfive");

    /* The 150th ply mates: the mate stands (9.6.2). */
    game_start(&g, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120");
    play(&g, "Ra8#");
    ck_assert_int_eq(g.b.halfmove, 150);
    ck_assert_int_eq(now(&g), OUTCOME_CHECKMATE);

    /* A capture on the 150th ply resets the count. */
    game_start(&g, "6k1/5ppp/8/8/8/8/r7/R3K3 w - - 149 120");
    play(&g, "Rxa2");
    ck_assert_int_eq(now(&g), OUTCOME_ONGOING);

    /* One ply short. */
    game_start(&g, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 148 120");
    play(&g, "Ra2");
    ck_assert_int_eq(now(&g), OUTCOME_ONGOING);
}
END_TEST

START_TEST(fifty_move_claims)
{
    Board b = testutil_board("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 120");
    ck_assert_int_eq(outcome_claims(&b, &b.key, 1, MOVE_NONE), 0);
    /* An intended quiet move completes the 50 moves (9.3.1 a). */
    ck_assert_int_eq(outcome_claims(&b, &b.key, 1, testutil_san(&b, "Ra2")), OUTCOME_CLAIM_FIFTY);
    ck_assert_int_eq(outcome_claims(&b, &b.key, 1, testutil_san(&b, "Kd2")), OUTCOME_CLAIM_FIFTY);
    /* An intended pawn move does not. */
    b = testutil_board("6k1/5ppp/8/8/8/8/1P6/R3K3 w - - 99 120");
    ck_assert_int_eq(outcome_claims(&b, &b.key, 1, testutil_san(&b, "b4")), 0);
    /* Already 100 plies (9.3.1 b). */
    b = testutil_board("6k1/5ppp/8/8/8/8/8/R3K3 w - - 100 120");
    ck_assert_int_eq(outcome_claims(&b, &b.key, 1, MOVE_NONE), OUTCOME_CLAIM_FIFTY);
    /* An illegal intended move supports nothing. */
    ck_assert_int_eq(
        outcome_claims(&b, &b.key, 1, move_new(SQ(0, 0), SQ(1, 1), MOVE_NORMAL, KNIGHT)), 0);
}
END_TEST

START_TEST(threefold_claims_with_an_intended_move)
{
    Game g;
    game_start(&g, BOARD_START_FEN);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    /* Black on move: Ng8 would bring the start position a third time. */
    ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, MOVE_NONE), 0);
    ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, testutil_san(&g.b, "Ng8")),
                     OUTCOME_CLAIM_THREEFOLD);
    ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, testutil_san(&g.b, "Nc6")), 0);
    /* The position after Nf6 (White to move) has occurred three times
     * already: a claim now, without a move, is correct. */
    game_start(&g, BOARD_START_FEN);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
    ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, MOVE_NONE), OUTCOME_CLAIM_THREEFOLD);
    /* A pawn move in between makes earlier positions unreachable. */
    game_start(&g, BOARD_START_FEN);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 e5 Nf3 Ng8 Ng1");
    ck_assert_int_eq(outcome_claims(&g.b, g.keys, g.count, testutil_san(&g.b, "Nf6")), 0);
}
END_TEST

START_TEST(names)
{
    ck_assert_str_eq(outcome_name(OUTCOME_ONGOING), "ongoing");
    ck_assert_str_eq(outcome_name(OUTCOME_CHECKMATE), "checkmate");
    ck_assert_str_eq(outcome_name(OUTCOME_STALEMATE), "stalemate");
    ck_assert_str_eq(outcome_name(OUTCOME_INSUFFICIENT), "insufficient");
    ck_assert_str_eq(outcome_name(OUTCOME_FIVEFOLD), "fivefold");
    ck_assert_str_eq(outcome_name(OUTCOME_SEVENTYFIVE), "seventyfive");
    ck_assert_str_eq(outcome_name((Outcome)99), "unknown");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("outcome");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, mates_and_stalemates);
    tcase_add_test(tc, insufficient_material_patterns);
    tcase_add_test(tc, repetition_counts_and_fivefold);
    tcase_add_test(tc, castling_rights_count_in_repetition);
    tcase_add_test(tc, en_passant_only_counts_when_legal);
    tcase_add_test(tc, seventy_five_moves);
    tcase_add_test(tc, fifty_move_claims);
    tcase_add_test(tc, threefold_claims_with_an_intended_move);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
