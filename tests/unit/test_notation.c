/*
 * test_notation.c — SAN out and move input.
 *
 * The expected SAN and the accepted/rejected spellings live in
 * tests/data/notation/ (san.txt, parse.txt), written from the PGN standard
 * and the Laws, not from our output.  The outside truth is pgn-extract:
 * random legal games written with our SAN must be read back by it, move for
 * move, into the UCI moves we played.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "board.h"
#include "notation.h"
#include "testutil.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Splits "a | b | c" into three trimmed fields; false for comments. */
static bool split3(char *line, char **a, char **b, char **c)
{
    if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
        return false;
    char *p1 = strstr(line, " | ");
    ck_assert_msg(p1 != NULL, "bad data line: %s", line);
    char *p2 = strstr(p1 + 3, " | ");
    ck_assert_msg(p2 != NULL, "bad data line: %s", line);
    *p1 = *p2 = '\0';
    *a = trim(line);
    *b = p1 + 3; /* not trimmed: leading spaces are part of some inputs */
    *c = trim(p2 + 3);
    return true;
}

START_TEST(san_matches_the_pgn_standard)
{
    FILE *f = testutil_open("notation", "san.txt", "r");
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *fen, *uci, *want;
        if (!split3(line, &fen, &uci, &want))
            continue;
        uci = trim(uci);
        Board b = testutil_board(fen);
        Move m = testutil_uci(&b, uci);
        char san[NOTATION_SAN_MAX];
        ck_assert_int_eq(notation_san(&b, m, san), 0);
        ck_assert_msg(strcmp(san, want) == 0, "%s %s: got %s, want %s", fen, uci, san, want);
        /* And it reads back as the same move. */
        Move back;
        char err[NOTATION_ERR_MAX];
        ck_assert_msg(notation_parse(&b, san, &back, err, sizeof err) == 0, "%s: %s", san, err);
        ck_assert_uint_eq(back, m);
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n, 40);
}
END_TEST

static int code_of(const char *word)
{
    if (strcmp(word, "malformed") == 0)
        return NOTATION_E_MALFORMED;
    if (strcmp(word, "ambiguous") == 0)
        return NOTATION_E_AMBIGUOUS;
    if (strcmp(word, "illegal") == 0)
        return NOTATION_E_ILLEGAL;
    if (strcmp(word, "promotion") == 0)
        return NOTATION_E_NO_PROMOTION;
    ck_abort_msg("unknown code %s", word);
    return -1;
}

START_TEST(input_spellings_and_rejections)
{
    FILE *f = testutil_open("notation", "parse.txt", "r");
    char line[512];
    int n = 0, rejections[6] = {0};
    while (fgets(line, sizeof line, f)) {
        char *fen, *text, *want;
        if (!split3(line, &fen, &text, &want))
            continue;
        Board b = testutil_board(fen);
        Move m = 0x7777;
        char err[NOTATION_ERR_MAX];
        int rc = notation_parse(&b, text, &m, err, sizeof err);
        if (want[0] != '!') {
            ck_assert_msg(rc == 0, "'%s' in %s: %s", text, fen, err);
            char u[6];
            board_move_to_uci(m, u);
            ck_assert_msg(strcmp(u, want) == 0, "'%s': got %s, want %s", text, u, want);
        } else {
            char word[32];
            const char *sp = strchr(want, ' ');
            ck_assert(sp != NULL);
            snprintf(word, sizeof word, "%.*s", (int)(sp - want - 1), want + 1);
            int code = code_of(word);
            ck_assert_msg(rc == code, "'%s' in %s: got %d (%s), want %s", text, fen, rc,
                          rc ? err : "ok", word);
            ck_assert_msg(strstr(err, sp + 1) != NULL, "'%s': message '%s' lacks '%s'", text, err,
                          sp + 1);
            rejections[code]++;
        }
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n, 100);
    for (int c = NOTATION_E_MALFORMED; c <= NOTATION_E_NO_PROMOTION; c++)
        ck_assert_msg(rejections[c] >= 2, "too few cases of code %d", c);
}
END_TEST

START_TEST(failure_moves_follow_the_contract)
{
    Move m;
    char err[NOTATION_ERR_MAX];
    /* Art. 7.5.2: a promotion without a piece gives the queen promotion. */
    Board b = testutil_board("3r3k/4P1pp/8/8/8/8/8/4K3 w - - 0 1");
    ck_assert_int_eq(notation_parse(&b, "e8", &m, err, sizeof err), NOTATION_E_NO_PROMOTION);
    ck_assert_uint_eq(m, testutil_uci(&b, "e7e8q"));
    ck_assert_int_eq(notation_parse(&b, "exd8", &m, err, sizeof err), NOTATION_E_NO_PROMOTION);
    ck_assert_uint_eq(m, testutil_uci(&b, "e7d8q"));
    /* An illegal move names the piece tried, and is not legal. */
    b = testutil_board("k7/8/8/8/8/8/8/r2NK3 w - - 0 1");
    ck_assert_int_eq(notation_parse(&b, "Nc3", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(3, 0));
    ck_assert_int_eq(move_to(m), SQ(2, 2));
    ck_assert(!movegen_is_legal(&b, m));
    Board k = testutil_board("k7/8/8/8/8/8/8/r3K3 w - - 0 1");
    ck_assert_int_eq(notation_parse(&k, "Kd1", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(4, 0));
    /* Castling names the king even without the right (4.4.3); a pawn's
     * SAN names the pawn it would start from (4.3 after 7.5.1). */
    Board c = testutil_board("4k3/8/8/3pP3/8/8/4P3/R3K2R w - - 0 3");
    ck_assert_int_eq(notation_parse(&c, "O-O", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(4, 0));
    ck_assert_int_eq(move_to(m), SQ(6, 0));
    ck_assert_int_eq(notation_parse(&c, "exd6", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(4, 4));
    ck_assert_int_eq(notation_parse(&c, "e7", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(4, 4)); /* of two e-pawns, the one two squares behind */
    Board p = testutil_board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    ck_assert_int_eq(notation_parse(&p, "e5", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(move_from(m), SQ(4, 1));
    ck_assert(!movegen_is_legal(&p, m));
    /* A legal pawn move written with the wrong capture mark is not an
     * illegal move of that pawn: refused as notation, nothing binds it. */
    Board kiwi =
        testutil_board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    ck_assert_int_eq(notation_parse(&kiwi, "x5d6", &m, err, sizeof err), NOTATION_E_MALFORMED);
    ck_assert_uint_eq(m, MOVE_NONE);
    /* No piece named: MOVE_NONE. */
    ck_assert_int_eq(notation_parse(&b, "Qd4", &m, err, sizeof err), NOTATION_E_ILLEGAL);
    ck_assert_uint_eq(m, MOVE_NONE);
    ck_assert_int_eq(notation_parse(&b, "xyz", &m, err, sizeof err), NOTATION_E_MALFORMED);
    ck_assert_uint_eq(m, MOVE_NONE);
    /* NULL text, NULL err. */
    ck_assert_int_eq(notation_parse(&b, NULL, &m, err, sizeof err), NOTATION_E_MALFORMED);
    ck_assert_int_eq(notation_parse(&b, "Nc3", &m, NULL, 0), NOTATION_E_ILLEGAL);
    ck_assert_int_eq(notation_parse(&b, "", &m, err, sizeof err), NOTATION_E_MALFORMED);
    /* A small err buffer truncates without overflow. */
    char tiny[8];
    ck_assert_int_eq(notation_parse(&b, "Nc3", &m, tiny, sizeof tiny), NOTATION_E_ILLEGAL);
    ck_assert_uint_eq(strlen(tiny), 7);
    /* SAN of an illegal move is refused. */
    char san[NOTATION_SAN_MAX];
    b = testutil_board("start");
    ck_assert_int_eq(notation_san(&b, move_new(SQ(4, 1), SQ(4, 4), MOVE_NORMAL, KNIGHT), san),
                     NOTATION_E_ILLEGAL);
    ck_assert_str_eq(san, "");
}
END_TEST

START_TEST(localized_san)
{
    static const struct {
        const char *fen, *uci, *lang, *want;
    } cases[] = {
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e1e2", "ru", "Крe2"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e1e2", "bg", "Цe2"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e1e2", "figurine", "♔e2"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e1e2", "en", "Ke2"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "g1f3", "ru", "Кf3"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "g1f3", "bg", "Кf3"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1c4", "ru", "Сc4"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1c4", "bg", "Оc4"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d1h5", "ru", "Фh5"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d1h5", "bg", "Дh5"},
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d1h5", "figurine", "♕h5"},
        {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1c1", "ru", "Лac1"},
        {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1c1", "bg", "Тac1"},
        {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1c1", "figurine", "♖ac1"},
        {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "figurine", "♘bd2"},
        {"3r3k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "ru", "exd8=Ф#"},
        {"3r3k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "bg", "exd8=Д#"},
        {"3r3k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "figurine", "exd8=♘"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "ru", "O-O-O"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b = testutil_board(cases[i].fen);
        Move m = testutil_uci(&b, cases[i].uci);
        char san[NOTATION_SAN_MAX];
        ck_assert_int_eq(notation_san_localized(&b, m, cases[i].lang, san), 0);
        ck_assert_str_eq(san, cases[i].want);
        Move back;
        char err[NOTATION_ERR_MAX];
        ck_assert_msg(notation_parse(&b, san, &back, err, sizeof err) == 0, "%s: %s", san, err);
        ck_assert_uint_eq(back, m);
    }
    Board b = testutil_board("start");
    char san[NOTATION_SAN_MAX];
    ck_assert_int_eq(notation_san_localized(&b, testutil_uci(&b, "g1f3"), "xx", san),
                     NOTATION_E_LANG);
    ck_assert_str_eq(san, "Nf3");
}
END_TEST

/* Every legal move of the perft suite's positions, written in each form,
 * reads back as itself. */
START_TEST(every_move_round_trips)
{
    FILE *f = testutil_open("perft", "standard.epd", "r");
    static const char *const langs[] = {"en", "ru", "bg", "figurine"};
    char line[512];
    int moves = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        Board b;
        char err[NOTATION_ERR_MAX];
        if (board_from_fen(&b, line, err, sizeof err))
            continue;
        MoveList list;
        movegen_legal_moves(&b, &list);
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i], back;
            char text[NOTATION_SAN_MAX];
            for (size_t l = 0; l < 4; l++) {
                ck_assert_int_eq(notation_san_localized(&b, m, langs[l], text), 0);
                ck_assert_msg(notation_parse(&b, text, &back, err, sizeof err) == 0, "%s in %s: %s",
                              text, line, err);
                ck_assert_msg(back == m, "%s in %s read as another move", text, line);
            }
            board_move_to_uci(m, text);
            ck_assert_msg(notation_parse(&b, text, &back, err, sizeof err) == 0, "%s: %s", text,
                          err);
            ck_assert_uint_eq(back, m);
            moves++;
        }
    }
    fclose(f);
    ck_assert_int_gt(moves, 1000);
}
END_TEST

/* Random bytes and fragments never crash, and an accepted text is legal. */
START_TEST(garbage_is_refused_cleanly)
{
    static const char *const frags[] = {"N", "K", "Q", "R",    "B", "P",    "a",    "b", "e", "h",
                                        "1", "8", "9", "x",    ":", "-",    "=",    "/", "(", ")",
                                        "+", "#", "!", "?",    "O", "0",    "o",    "К", "р", "Кр",
                                        "О", "♔", "♟", "e.p.", " ", "\xff", "\xd0", "q", "n", "€"};
    Board positions[3];
    positions[0] = testutil_board("start");
    positions[1] =
        testutil_board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    positions[2] = testutil_board("3r3k/4P1pp/8/8/8/8/8/4K3 w - - 0 1");
    unsigned seed = 12345;
    int accepted = 0;
    for (int iter = 0; iter < 20000; iter++) {
        char text[64] = "";
        int parts = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 6;
        for (int k = 0; k < parts; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *fr = frags[(seed >> 16) % (sizeof frags / sizeof frags[0])];
            if (strlen(text) + strlen(fr) < sizeof text)
                strcat(text, fr);
        }
        const Board *b = &positions[iter % 3];
        Move m;
        char err[NOTATION_ERR_MAX];
        int rc = notation_parse(b, text, &m, err, sizeof err);
        ck_assert(rc >= 0 && rc <= NOTATION_E_NO_PROMOTION);
        if (rc == 0) {
            ck_assert(movegen_is_legal(b, m));
            accepted++;
        } else {
            ck_assert_msg(err[0] != '\0', "no message for '%s'", text);
        }
    }
    ck_assert_int_gt(accepted, 10);
}
END_TEST

/* ---- pgn-extract as the outside truth ------------------------------------- */

typedef struct RandomGame {
    char uci[400][6];
    char san[400][NOTATION_SAN_MAX];
    int plies;
    const char *result; /* "1-0", "0-1" after mate, "1/2-1/2" stalemate, else "*" */
} RandomGame;

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void random_game(uint64_t *seed, RandomGame *g)
{
    Board b;
    board_start(&b);
    g->plies = 0;
    g->result = "*";
    while (g->plies < 400) {
        MoveList list;
        if (movegen_legal_moves(&b, &list) == 0) {
            g->result = !board_in_check(&b) ? "1/2-1/2" : b.side == WHITE ? "0-1" : "1-0";
            break;
        }
        /* Favour captures, promotions and castling a little, so games reach
         * endings with promotions and disambiguations. */
        Move m = list.moves[rng_next(seed) % (uint64_t)list.count];
        for (int tries = 0; tries < 3; tries++) {
            Move c = list.moves[rng_next(seed) % (uint64_t)list.count];
            if (b.squares[move_to(c)] != PIECE_NONE || move_kind(c) != MOVE_NORMAL)
                m = c;
        }
        ck_assert_int_eq(notation_san(&b, m, g->san[g->plies]), 0);
        board_move_to_uci(m, g->uci[g->plies]);
        board_make(&b, m);
        g->plies++;
    }
}

START_TEST(pgn_extract_reads_our_san)
{
    const char *tool = getenv("PGN_EXTRACT");
    if (!tool || !*tool || access(tool, X_OK) != 0) {
        fprintf(stderr, "pgn-extract not found (PGN_EXTRACT): skipped\n");
        return;
    }
    enum { GAMES = 300 };
    static RandomGame games[GAMES];
    char dir[512];
    testutil_tmpdir_make(dir, sizeof dir, "notation");
    char pgn[600], cmd[1200], *out, *errs;
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    FILE *f = fopen(pgn, "w");
    ck_assert(f != NULL);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    long plies = 0;
    int promotions = 0, castlings = 0, disambiguations = 0, mates = 0;
    for (int i = 0; i < GAMES; i++) {
        RandomGame *g = &games[i];
        random_game(&seed, g);
        plies += g->plies;
        fprintf(f,
                "[Event \"random %d\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                "[White \"?\"]\n[Black \"?\"]\n[Result \"%s\"]\n\n",
                i, g->result);
        int col = 0;
        for (int p = 0; p < g->plies; p++) {
            char tok[48];
            if (p % 2 == 0)
                snprintf(tok, sizeof tok, "%d. %s", p / 2 + 1, g->san[p]);
            else
                snprintf(tok, sizeof tok, "%s", g->san[p]);
            if (col + (int)strlen(tok) + 1 > 79) {
                fputc('\n', f);
                col = 0;
            } else if (col) {
                fputc(' ', f);
                col++;
            }
            fputs(tok, f);
            col += (int)strlen(tok);
            promotions += strchr(g->san[p], '=') != NULL;
            castlings += g->san[p][0] == 'O';
            mates += strchr(g->san[p], '#') != NULL;
            if (strchr("NBRQK", g->san[p][0])) {
                /* Piece, then more than a bare target square. */
                size_t core = 0;
                for (const char *c = g->san[p] + 1; *c; c++)
                    core += !strchr("x+#", *c);
                disambiguations += core > 2;
            }
        }
        fprintf(f, " %s\n\n", g->result);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -s -Wuci --notags --nocomments '%s'", tool, pgn);
    ck_assert_int_eq(testutil_shell(dir, cmd, NULL, &out, &errs), 0);

    /* Not a single complaint. */
    if (errs[0])
        ck_abort_msg("pgn-extract complained: %.*s", (int)strcspn(errs, "\n") + 1, errs);
    free(errs);

    /* Its moves are ours, game by game. */
    f = fmemopen(out, strlen(out), "r");
    ck_assert(f != NULL);
    int game = 0, ply = 0;
    char tok[64];
    while (fscanf(f, "%63s", tok) == 1) {
        if (strcmp(tok, "*") == 0 || strcmp(tok, "1-0") == 0 || strcmp(tok, "0-1") == 0 ||
            strcmp(tok, "1/2-1/2") == 0) {
            ck_assert_msg(game < GAMES, "more games than written");
            ck_assert_msg(ply == games[game].plies, "game %d: %d plies, wrote %d", game, ply,
                          games[game].plies);
            game++;
            ply = 0;
            continue;
        }
        ck_assert_msg(game < GAMES && ply < games[game].plies, "extra move %s", tok);
        ck_assert_msg(strcasecmp(tok, games[game].uci[ply]) == 0, "game %d ply %d (%s): %s vs %s",
                      game, ply + 1, games[game].san[ply], tok, games[game].uci[ply]);
        ply++;
    }
    fclose(f);
    ck_assert_int_eq(game, GAMES);
    /* The games exercised what matters. */
    ck_assert_int_gt(plies, 20000);
    ck_assert_int_gt(promotions, 50);
    ck_assert_int_gt(castlings, 50);
    ck_assert_int_gt(disambiguations, 50);
    ck_assert_int_gt(mates, 5);
    fprintf(stderr,
            "pgn-extract agreed on %d games, %ld plies (%d promotions, %d castlings, "
            "%d disambiguations, %d mates)\n",
            GAMES, plies, promotions, castlings, disambiguations, mates);
    free(out);
    testutil_tmpdir_remove(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("notation");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, san_matches_the_pgn_standard);
    tcase_add_test(tc, input_spellings_and_rejections);
    tcase_add_test(tc, failure_moves_follow_the_contract);
    tcase_add_test(tc, localized_san);
    tcase_add_test(tc, every_move_round_trips);
    tcase_add_test(tc, garbage_is_refused_cleanly);
    tcase_add_test(tc, pgn_extract_reads_our_san);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
