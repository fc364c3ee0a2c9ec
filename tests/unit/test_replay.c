/*
 * test_replay.c — the contract of `arbiter replay`: one JSON object per
 * line per ply with ply, san, uci, fen, legal (sorted UCI) and status; an
 * error line and exit status 2 for a bad move or a move after the end; a
 * clear message and exit status 2 for a bad FEN.
 *
 * The built arbiter comes through ARBITER_BIN.  The legal-move lists are
 * checked against Stockfish's "go perft 1" (STOCKFISH), the outside truth.
 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char tmpdir[512];

typedef struct Run {
    int status;
    char *out; /* stdout, malloc'd */
    char *err; /* stderr, malloc'd */
    json_t *lines[600];
    int nlines;
} Run;

/* Runs `arbiter replay ARGS` with input on stdin. */
static void run(Run *r, const char *args, const char *input)
{
    const char *bin = getenv("ARBITER_BIN");
    ck_assert_msg(bin != NULL, "ARBITER_BIN is not set");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' replay %s", bin, args);
    r->status = testutil_shell(tmpdir, cmd, input, &r->out, &r->err);
    ck_assert(r->status >= 0);
    r->nlines = 0;
    char *save = NULL;
    char *copy = strdup(r->out);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        ck_assert_msg(j != NULL, "not JSON: %s (%s)", line, je.text);
        ck_assert(json_is_object(j));
        ck_assert_int_lt(r->nlines, 600);
        r->lines[r->nlines++] = j;
    }
    free(copy);
    /* Every output line ends with a newline. */
    size_t len = strlen(r->out);
    ck_assert(len == 0 || r->out[len - 1] == '\n');
}

static void run_free(Run *r)
{
    for (int i = 0; i < r->nlines; i++)
        json_decref(r->lines[i]);
    free(r->out);
    free(r->err);
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_string(v), "no string %s", key);
    return json_string_value(v);
}

static const char *last_status(const Run *r)
{
    ck_assert_int_gt(r->nlines, 0);
    return str(r->lines[r->nlines - 1], "status");
}

START_TEST(format_of_a_ply)
{
    Run r;
    run(&r, "", "e4 e5\n");
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(r.nlines, 2);
    /* The exact text of the first line: key order, no spaces, the FEN as
     * python-chess writes it (no en passant square: no capture is legal). */
    const char *want =
        "{\"ply\":1,\"san\":\"e4\",\"uci\":\"e2e4\","
        "\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\","
        "\"legal\":[\"a7a5\",\"a7a6\",\"b7b5\",\"b7b6\",\"b8a6\",\"b8c6\",\"c7c5\",\"c7c6\","
        "\"d7d5\",\"d7d6\",\"e7e5\",\"e7e6\",\"f7f5\",\"f7f6\",\"g7g5\",\"g7g6\",\"g8f6\","
        "\"g8h6\",\"h7h5\",\"h7h6\"],\"status\":\"ongoing\"}\n";
    ck_assert_int_eq(strncmp(r.out, want, strlen(want)), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(r.lines[1], "ply")), 2);
    ck_assert_str_eq(str(r.lines[1], "san"), "e5");
    ck_assert_str_eq(str(r.lines[1], "fen"),
                     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    run_free(&r);
}
END_TEST

START_TEST(notations_move_numbers_and_en_passant)
{
    Run r;
    run(&r, "", "1. e2-e4 d5 2.ed5 e5 3. dxe6 e.p. ♞f6 4. Ng1f3 0-0\n");
    /* 0-0 for Black is not yet possible: the bishop is still on f8. */
    ck_assert_int_eq(r.status, 2);
    ck_assert_int_eq(r.nlines, 8);
    ck_assert_str_eq(str(r.lines[4], "san"), "dxe6");
    ck_assert_str_eq(str(r.lines[4], "uci"), "d5e6");
    ck_assert_str_eq(str(r.lines[5], "uci"), "g8f6");
    ck_assert_str_eq(str(r.lines[6], "san"), "Nf3");
    ck_assert_int_eq(json_integer_value(json_object_get(r.lines[7], "ply")), 8);
    ck_assert_ptr_nonnull(strstr(str(r.lines[7], "error"), "squares between"));
    run_free(&r);
    /* The en passant square shows only when the capture is legal. */
    run(&r, "", "e4 a6 e5 d5");
    ck_assert_str_eq(str(r.lines[3], "fen"),
                     "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    run_free(&r);
}
END_TEST

START_TEST(status_values)
{
    Run r;
    run(&r, "", "f3 e5 g4 Qh4#");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(last_status(&r), "checkmate");
    ck_assert_int_eq(json_array_size(json_object_get(r.lines[3], "legal")), 0);
    ck_assert_str_eq(str(r.lines[2], "status"), "ongoing");
    run_free(&r);

    run(&r, "--fen '7k/8/6K1/8/8/8/8/5Q2 w - - 0 1'", "Qf7");
    ck_assert_str_eq(last_status(&r), "stalemate");
    run_free(&r);

    run(&r, "--fen '8/8/8/4k3/8/8/3r4/3RK3 b - - 0 1'", "Rxd1+ Kxd1");
    ck_assert_str_eq(str(r.lines[0], "status"), "ongoing");
    ck_assert_str_eq(last_status(&r), "insufficient");
    run_free(&r);

    run(&r, "", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    ck_assert_int_eq(r.nlines, 16);
    ck_assert_str_eq(str(r.lines[14], "status"), "ongoing");
    ck_assert_str_eq(last_status(&r), "fivefold");
    run_free(&r);

    run(&r, "--fen '6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120'", "Ra2");
    ck_assert_str_eq(last_status(&r), "seventyfive");
    run_free(&r);
    run(&r, "--fen '6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120'", "Ra8#");
    ck_assert_str_eq(last_status(&r), "checkmate");
    run_free(&r);
}
END_TEST

START_TEST(errors_stop_with_status_2)
{
    static const struct {
        const char *input, *words;
        int good;
    } cases[] = {
        {"e4 e5 Nf9 d4", "is not a move", 2},
        {"e4 e5 Ke3", "no king can go to e3", 2},
        {"Nf3 Nf6 Nc3 Nc6 Ne4 Ne5 Ng5", "two knights can go to g5: say Neg5 or Nfg5", 6},
        {"f3 e5 g4 Qh4# a3", "the game is over: checkmate", 4},
        {"hello", "is not a move", 0},
        {"e4 1-0 e5", "the result '1-0' may only end the moves", 1},
        {"e4 e5 * Nf3", "the result '*' may only end the moves", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        run(&r, "", cases[i].input);
        ck_assert_int_eq(r.status, 2);
        ck_assert_int_eq(r.nlines, cases[i].good + 1);
        json_t *last = r.lines[r.nlines - 1];
        ck_assert_int_eq(json_object_size(last), 2);
        ck_assert_int_eq(json_integer_value(json_object_get(last, "ply")), cases[i].good + 1);
        ck_assert_msg(strstr(str(last, "error"), cases[i].words) != NULL, "%s: %s", cases[i].input,
                      str(last, "error"));
        run_free(&r);
    }
    /* The game over after a draw too. */
    Run r;
    run(&r, "--fen '7k/8/6K1/8/8/8/8/5Q2 w - - 0 1'", "Qf7 Kg8");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(str(r.lines[1], "error"), "the game is over: stalemate");
    run_free(&r);
    /* A game already over in the given FEN. */
    run(&r, "--fen '8/8/8/4k3/8/8/8/4K3 w - - 0 1'", "Kd2");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(str(r.lines[0], "error"), "the game is over: insufficient");
    run_free(&r);
    /* No moves: no output, success. */
    run(&r, "", "  \n");
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(r.nlines, 0);
    run_free(&r);
}
END_TEST

/* A PGN movetext or a scoresheet ends with the result: that is the end of
 * the input, not a bad move, whether or not the game really ended there. */
START_TEST(result_ends_the_input)
{
    static const struct {
        const char *input;
        int plies;
    } cases[] = {
        {"1. f3 e5 2. g4 Qh4# 0-1", 4},
        {"1. e4 e5 2. Nf3 Nc6 1/2-1/2\n", 4},
        {"e4 e5 d4 1-0", 3},
        {"1. d4 *", 1},
        {"0-1", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        run(&r, "", cases[i].input);
        ck_assert_msg(r.status == 0, "%s: status %d", cases[i].input, r.status);
        ck_assert_int_eq(r.nlines, cases[i].plies);
        for (int k = 0; k < r.nlines; k++)
            ck_assert_ptr_null(json_object_get(r.lines[k], "error"));
        run_free(&r);
    }
}
END_TEST

START_TEST(bad_fen)
{
    static const char *const fens[] = {
        "'not a fen'", "'8/8/8/8/8/8/8/8 w - - 0 1'",
        "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'"};
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Run r;
        char args[256];
        snprintf(args, sizeof args, "--fen %s", fens[i]);
        run(&r, args, "e4");
        ck_assert_int_eq(r.status, 2);
        ck_assert_int_eq(r.nlines, 0);
        ck_assert_msg(strstr(r.err, "bad FEN") != NULL, "stderr: %s", r.err);
        ck_assert_int_gt(strlen(r.err), 20);
        run_free(&r);
    }
    Run r;
    run(&r, "--bogus", "e4");
    ck_assert_int_eq(r.status, 2);
    run_free(&r);
}
END_TEST

/* The legal lists against Stockfish's perft 1 along a game with castling,
 * en passant, promotions and checks. */
START_TEST(legal_lists_match_stockfish)
{
    const char *sf = getenv("STOCKFISH");
    if (!sf || !*sf || access(sf, X_OK) != 0) {
        fprintf(stderr, "stockfish not found (STOCKFISH): skipped\n");
        return;
    }
    Run r;
    run(&r, "",
        "e4 d5 e5 f5 exf6 Nc6 fxg7 Bf5 gxh8=Q Qd7 Nf3 O-O-O Bb5 a6 O-O axb5 Qxg8 Bg7 "
        "d4 b4 c4 bxc3 Nxc3 Kb8 Qb3 Ka7 Qxb7+ Kxb7 Be3 Bxd4 Nxd4");
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(r.nlines, 31);
    char *in = NULL, *text = NULL, cmd[1024];
    size_t in_len = 0;
    FILE *f = open_memstream(&in, &in_len);
    ck_assert(f != NULL);
    for (int i = 0; i < r.nlines; i++)
        fprintf(f, "position fen %s\ngo perft 1\n", str(r.lines[i], "fen"));
    fprintf(f, "quit\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s'", sf);
    ck_assert_int_eq(testutil_shell(tmpdir, cmd, in, &text, NULL), 0);
    free(in);
    /* Stockfish lists "move: 1" lines, then "Nodes searched: N". */
    char *p = text;
    for (int i = 0; i < r.nlines; i++) {
        char moves[256][8];
        int n = 0;
        for (;;) {
            char *nl = strchr(p, '\n');
            ck_assert_msg(nl != NULL, "stockfish output ended early");
            *nl = '\0';
            if (strncmp(p, "Nodes searched:", 15) == 0) {
                p = nl + 1;
                break;
            }
            char mv[8];
            if (sscanf(p, "%7[a-h1-8qrbn]: 1", mv) == 1 && strlen(mv) >= 4 && n < 256)
                strcpy(moves[n++], mv);
            p = nl + 1;
        }
        qsort(moves, (size_t)n, sizeof moves[0], (int (*)(const void *, const void *))strcmp);
        json_t *legal = json_object_get(r.lines[i], "legal");
        ck_assert_msg((int)json_array_size(legal) == n, "ply %d: %zu moves, stockfish %d", i + 1,
                      json_array_size(legal), n);
        for (int k = 0; k < n; k++)
            ck_assert_str_eq(json_string_value(json_array_get(legal, (size_t)k)), moves[k]);
    }
    free(text);
    ck_assert_str_eq(str(r.lines[8], "san"), "gxh8=Q");
    ck_assert_str_eq(str(r.lines[11], "san"), "O-O-O");
    run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, format_of_a_ply);
    tcase_add_test(tc, notations_move_numbers_and_en_passant);
    tcase_add_test(tc, status_values);
    tcase_add_test(tc, errors_stop_with_status_2);
    tcase_add_test(tc, result_ends_the_input);
    tcase_add_test(tc, bad_fen);
    tcase_add_test(tc, legal_lists_match_stockfish);
    suite_add_tcase(s, tc);
    return testutil_run_in_tmpdir(s, "replay", tmpdir, sizeof tmpdir);
}
