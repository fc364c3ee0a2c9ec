/*
 * test_pgn.c — PGN export and import.
 *
 * The export format is checked against the PGN standard by hand-written
 * expectations and by pgn-extract (PGN_EXTRACT), which must read every
 * game we write without a word of complaint and find the moves we played.
 * The reader is checked on a messy real-world-style file against what
 * pgn-extract reads from the same file, and on each tolerance and error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "board.h"
#include "notation.h"
#include "pgn.h"
#include "testutil.h"

static char tmpdir[512];

/* Moves from SAN text, for building PgnGames. */
static int moves_of(const char *fen, const char *text, PgnPly *plies, int max)
{
    Board b = testutil_board(fen ? fen : BOARD_START_FEN);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < max; t = strtok(NULL, " ")) {
        Move m = testutil_san(&b, t);
        plies[n] = (PgnPly){.move = m, .clock_ms = -1};
        board_make(&b, m);
        n++;
    }
    return n;
}

static void assert_lines_fit(const char *pgn)
{
    int line = 1;
    for (const char *p = pgn; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        /* Columns, not bytes: UTF-8 continuation bytes do not count. */
        size_t cols = 0;
        for (size_t i = 0; i < n; i++)
            cols += ((unsigned char)p[i] & 0xC0) != 0x80;
        ck_assert_msg(cols <= 79, "line %d has %zu columns: %.*s", line, cols, (int)n, p);
        if (!nl)
            break;
        p = nl + 1;
        line++;
    }
}

static const char *pgn_extract(void)
{
    const char *tool = getenv("PGN_EXTRACT");
    if (!tool || !*tool || access(tool, X_OK) != 0)
        return NULL;
    return tool;
}

/* Runs pgn-extract -Wuci on path; returns its stdout (malloc'd) and fails
 * the test on any message on stderr. */
static char *pgn_extract_uci(const char *path)
{
    char cmd[1200], *out, *e;
    snprintf(cmd, sizeof cmd, "'%s' -s -Wuci --notags --nocomments '%s'", pgn_extract(), path);
    ck_assert_int_eq(testutil_shell(tmpdir, cmd, NULL, &out, &e), 0);
    ck_assert_msg(e[0] == '\0', "pgn-extract complained about %s:\n%s", path, e);
    free(e);
    return out;
}

/* Compares pgn-extract's UCI games (one per result token) with ours. */
static void compare_uci(char *text, const PgnGame *games, int count)
{
    int game = 0, ply = 0;
    Board b;
    char *save = NULL;
    for (char *t = strtok_r(text, " \n\r\t", &save); t; t = strtok_r(NULL, " \n\r\t", &save)) {
        if (strcmp(t, "*") == 0 || strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 ||
            strcmp(t, "1/2-1/2") == 0) {
            ck_assert_int_lt(game, count);
            ck_assert_msg(ply == games[game].nplies, "game %d: %d plies, we have %d", game + 1, ply,
                          games[game].nplies);
            ck_assert_str_eq(t, games[game].result);
            game++;
            ply = 0;
            continue;
        }
        ck_assert_int_lt(game, count);
        ck_assert_msg(ply < games[game].nplies, "game %d: extra move %s", game + 1, t);
        char uci[6];
        board_move_to_uci(games[game].plies[ply].move, uci);
        ck_assert_msg(strcasecmp(t, uci) == 0, "game %d ply %d: pgn-extract %s, we %s", game + 1,
                      ply + 1, t, uci);
        (void)b;
        ply++;
    }
    ck_assert_int_eq(game, count);
}

START_TEST(export_format_text)
{
    PgnTag tags[] = {
        {"White", "Ivanov, A"},
        {"Event", "Club \"Open\" 2026"},
        {"TimeControl", "40/5400+30:1800+30"},
        {"Site", "Sofia"},
        {"Date", "2026.11.29"},
        {"Black", "Petrov\\B"},
        {"WhiteElo", "2100"},
        {"FEN", "ignored"},
    };
    PgnPly plies[8];
    int n = moves_of(NULL, "e4 e5 Nf3 Nc6 Bb5 a6", plies, 8);
    plies[0].clock_ms = 5397000;
    plies[1].clock_ms = 5390999;
    plies[2].clock_ms = 5340000;
    plies[2].draw_offer = true;
    plies[3].clock_ms = 5280000;
    plies[4].comment = "Ruy {Lopez}";
    PgnGame g = {.tags = tags, .ntags = 8, .plies = plies, .nplies = n};
    char *out;
    char err[200];
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), 0);
    const char *want =
        "[Event \"Club \\\"Open\\\" 2026\"]\n"
        "[Site \"Sofia\"]\n"
        "[Date \"2026.11.29\"]\n"
        "[Round \"?\"]\n"
        "[White \"Ivanov, A\"]\n"
        "[Black \"Petrov\\\\B\"]\n"
        "[Result \"*\"]\n"
        "[TimeControl \"40/5400+30:1800+30\"]\n"
        "[WhiteElo \"2100\"]\n"
        "\n"
        "1. e4 {[%clk 1:29:57]} 1... e5 {[%clk 1:29:50]} 2. Nf3 {[%clk 1:29:00] (=)}\n"
        "2... Nc6 {[%clk 1:28:00]} 3. Bb5 {Ruy [Lopez]} 3... a6 *\n"
        "\n";
    ck_assert_str_eq(out, want);
    free(out);

    /* A result given beats the tag; no tags at all gives the roster of "?". */
    PgnPly plain[2];
    moves_of(NULL, "e4 e5", plain, 2);
    g = (PgnGame){.plies = plain, .nplies = 2, .result = "1/2-1/2"};
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), 0);
    ck_assert_str_eq(out, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                          "[White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n\n"
                          "1. e4 e5 1/2-1/2\n\n");
    free(out);
}
END_TEST

START_TEST(export_from_a_position)
{
    const char *fen = "8/8/8/4k3/8/8/4P3/4K3 b - - 3 40";
    PgnPly plies[4];
    int n = moves_of(fen, "Kd5 Kd2 Kc4", plies, 4);
    PgnTag tags[] = {{"SetUp", "0"}, {"Result", "1/2-1/2"}};
    PgnGame g = {.tags = tags, .ntags = 2, .fen = fen, .plies = plies, .nplies = n};
    char *out;
    char err[200];
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(out, "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
                                      "[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 3 40\"]\n\n"
                                      "40... Kd5 41. Kd2 Kc4 1/2-1/2\n\n"));
    ck_assert_ptr_null(strstr(out, "SetUp \"0\""));
    free(out);
}
END_TEST

START_TEST(export_refuses_bad_descriptions)
{
    PgnPly plies[2];
    int n = moves_of(NULL, "e4 e5", plies, 2);
    char *out = (char *)1;
    char err[200];
    /* The second move is played out of order: illegal for White. */
    PgnPly wrong[2] = {plies[1], plies[0]};
    PgnGame g = {.plies = wrong, .nplies = 2};
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), PGN_E_MOVE);
    ck_assert_ptr_null(out);
    ck_assert_ptr_nonnull(strstr(err, "ply 1: e7e5 is not a legal move"));
    g = (PgnGame){.plies = plies, .nplies = n, .result = "2-0"};
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), PGN_E_RESULT);
    PgnTag bad[] = {{"Bad Name", "x"}};
    g = (PgnGame){.tags = bad, .ntags = 1};
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), PGN_E_TAG);
    ck_assert_ptr_nonnull(strstr(err, "Bad Name"));
    g = (PgnGame){.fen = "8/8/8/8/8/8/8/8 w - - 0 1"};
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), PGN_E_FEN);
}
END_TEST

START_TEST(long_comments_and_tags_stay_within_lines)
{
    PgnPly plies[40];
    int n =
        moves_of(NULL, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7",
                 plies, 40);
    char word[300];
    memset(word, 'w', sizeof word - 1);
    word[sizeof word - 1] = '\0';
    for (int i = 0; i < n; i++) {
        plies[i].clock_ms = 3600000L * 12 + i * 1000;
        plies[i].draw_offer = i % 7 == 3;
    }
    plies[3].comment = word;
    plies[5].comment = "Кр: Ц and Д — ♔♕ symbols in a comment that is long enough to wrap over "
                       "the end of a line twice, with\nnewlines\tand tabs";
    PgnTag tags[] = {{"Annotator", "line\nbreak \"q\" \\ back"}};
    PgnGame g = {.tags = tags, .ntags = 1, .plies = plies, .nplies = n, .result = "*"};
    char *out;
    char err[200];
    ck_assert_int_eq(pgn_write(&g, &out, err, sizeof err), 0);
    assert_lines_fit(out);
    ck_assert_ptr_nonnull(strstr(out, "[Annotator \"line break \\\"q\\\" \\\\ back\"]"));
    /* It reads back: clocks, draw offers and comments. */
    PgnGame *games;
    int count;
    ck_assert_int_eq(pgn_read(out, strlen(out), &games, &count, err, sizeof err), 0);
    ck_assert_int_eq(count, 1);
    ck_assert_int_eq(games[0].nplies, n);
    for (int i = 0; i < n; i++) {
        ck_assert_uint_eq(games[0].plies[i].move, plies[i].move);
        ck_assert_int_eq(games[0].plies[i].clock_ms, plies[i].clock_ms);
        ck_assert_int_eq(games[0].plies[i].draw_offer, plies[i].draw_offer);
    }
    ck_assert_str_eq(games[0].tags[7].value, "line break \"q\" \\ back");
    ck_assert_ptr_nonnull(strstr(games[0].plies[5].comment, "Кр: Ц and Д — ♔♕ symbols"));
    ck_assert_ptr_nonnull(strstr(games[0].plies[5].comment, "with newlines and tabs"));
    pgn_games_free(games, count);
    free(out);
}
END_TEST

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random legal games (some from a set-up position), written with clocks,
 * draw offers and comments: pgn-extract must accept every byte and find our
 * moves; our reader must give back exactly what was written. */
START_TEST(random_games_pass_pgn_extract_and_read_back)
{
    enum { GAMES = 200, MAXPLY = 300 };
    static const char *const starts[] = {
        NULL,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/4P3/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    static PgnPly plies[GAMES][MAXPLY];
    static PgnGame games[GAMES];
    static char comments[GAMES][MAXPLY / 10][32];
    static char event[GAMES][48];
    static PgnTag tags[GAMES][3];
    uint64_t seed = 0xC0FFEE1234567ull;
    for (int i = 0; i < GAMES; i++) {
        const char *fen = starts[i % 4];
        Board b = testutil_board(fen ? fen : BOARD_START_FEN);
        int n = 0;
        const char *result = "*";
        while (n < MAXPLY) {
            MoveList list;
            if (movegen_legal_moves(&b, &list) == 0) {
                result = !board_in_check(&b) ? "1/2-1/2" : b.side == WHITE ? "0-1" : "1-0";
                break;
            }
            Move m = list.moves[rng(&seed) % (uint64_t)list.count];
            PgnPly *p = &plies[i][n];
            *p = (PgnPly){.move = m, .clock_ms = -1};
            if (rng(&seed) % 3)
                p->clock_ms = (long)(rng(&seed) % 10800000);
            p->draw_offer = rng(&seed) % 29 == 0;
            if (n % 10 == 5 && rng(&seed) % 2) {
                snprintf(comments[i][n / 10], 32, "note %d {x} \"y\"", n);
                p->comment = comments[i][n / 10];
            }
            board_make(&b, m);
            n++;
        }
        snprintf(event[i], sizeof event[i], "Random \"%d\" \\ test", i);
        tags[i][0] = (PgnTag){"Event", event[i]};
        tags[i][1] = (PgnTag){"Round", "7"};
        tags[i][2] = (PgnTag){"Annotator", "Arbiter"};
        games[i] = (PgnGame){.tags = tags[i],
                             .ntags = 3,
                             .fen = fen,
                             .plies = plies[i],
                             .nplies = n,
                             .result = result};
    }
    /* Write them all into one file. */
    char path[600];
    snprintf(path, sizeof path, "%s/random.pgn", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    size_t total = 0;
    for (int i = 0; i < GAMES; i++) {
        char *out;
        char err[200];
        ck_assert_msg(pgn_write(&games[i], &out, err, sizeof err) == 0, "game %d: %s", i, err);
        assert_lines_fit(out);
        fputs(out, f);
        total += strlen(out);
        free(out);
    }
    fclose(f);

    /* Our reader gives back what was written. */
    size_t len;
    char *text = testutil_read(path, &len);
    ck_assert_uint_eq(len, total);
    PgnGame *back;
    int count;
    char err[200];
    ck_assert_msg(pgn_read(text, len, &back, &count, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(count, GAMES);
    for (int i = 0; i < GAMES; i++) {
        ck_assert_int_eq(back[i].nplies, games[i].nplies);
        ck_assert_str_eq(back[i].result, games[i].result);
        ck_assert_str_eq(back[i].tags[0].value, event[i]);
        if (games[i].fen) {
            Board a = testutil_board(games[i].fen), c = testutil_board(back[i].fen);
            ck_assert(board_same_position(&a, &c));
        } else {
            ck_assert_ptr_null(back[i].fen);
        }
        for (int k = 0; k < games[i].nplies; k++) {
            const PgnPly *p = &games[i].plies[k], *q = &back[i].plies[k];
            ck_assert_uint_eq(q->move, p->move);
            ck_assert_int_eq(q->clock_ms, (p->clock_ms < 0 ? -1 : p->clock_ms / 1000 * 1000));
            ck_assert_int_eq(q->draw_offer, p->draw_offer);
            if (p->comment) {
                char want[40];
                snprintf(want, sizeof want, "note %d [x] \"y\"", k);
                ck_assert_str_eq(q->comment, want);
            } else {
                ck_assert_ptr_null(q->comment);
            }
        }
    }
    pgn_games_free(back, count);
    free(text);

    if (!pgn_extract()) {
        fprintf(stderr, "pgn-extract not found (PGN_EXTRACT): skipped\n");
        return;
    }
    char *uci = pgn_extract_uci(path);
    compare_uci(uci, games, GAMES);
    free(uci);
    unlink(path);
}
END_TEST

/* A file with a BOM, CRLF, % lines, NAGs, nested variations with comments,
 * clocks in lichess style, a set-up position and four results. */
START_TEST(messy_file_reads_like_pgn_extract)
{
    char path[600];
    testutil_data_path(path, sizeof path, "pgn", "messy.pgn");
    size_t len;
    char *text = testutil_read(path, &len);
    PgnGame *games;
    int count;
    char err[200];
    ck_assert_msg(pgn_read(text, len, &games, &count, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(count, 4);
    ck_assert_str_eq(games[0].tags[0].name, "Event");
    ck_assert_str_eq(games[0].tags[0].value, "Messy \"quoted\" open");
    ck_assert_int_eq(games[0].plies[0].clock_ms, (1 * 3600 + 29 * 60 + 58) * 1000L);
    ck_assert_int_eq(games[0].plies[1].clock_ms, (1 * 3600 + 29 * 60 + 51) * 1000L);
    ck_assert_int_eq(games[0].plies[2].clock_ms, -1);
    ck_assert_str_eq(games[0].result, "1-0");
    ck_assert_int_eq(games[0].line, 2);
    ck_assert_str_eq(games[1].fen, "8/8/8/4k3/8/8/4P3/4K3 b - - 0 40");
    ck_assert(games[1].plies[2].draw_offer);
    ck_assert_ptr_null(games[1].plies[2].comment);
    ck_assert_str_eq(games[1].result, "1/2-1/2");
    ck_assert_int_eq(games[2].ntags, 0);
    ck_assert_str_eq(games[2].result, "*");
    ck_assert_str_eq(games[3].result, "0-1");
    if (pgn_extract()) {
        char *uci = pgn_extract_uci(path);
        compare_uci(uci, games, count);
        free(uci);
    } else {
        fprintf(stderr, "pgn-extract not found (PGN_EXTRACT): skipped\n");
    }
    pgn_games_free(games, count);
    free(text);
}
END_TEST

static void read_ok(const char *text, PgnGame **games, int *count)
{
    char err[200];
    ck_assert_msg(pgn_read(text, strlen(text), games, count, err, sizeof err) == 0, "%s: %s", text,
                  err);
}

static void assert_moves(const PgnGame *g, const char *ucis)
{
    char buf[1024] = "";
    for (int i = 0; i < g->nplies; i++) {
        char u[6];
        board_move_to_uci(g->plies[i].move, u);
        if (i)
            strcat(buf, " ");
        strcat(buf, u);
    }
    ck_assert_str_eq(buf, ucis);
}

START_TEST(reader_tolerances)
{
    PgnGame *g;
    int n;
    /* Semicolon comments, e.p. marks, glued numbers, annotation tokens. */
    read_ok("1.e4 d5 ; a comment with 2. Nf3 in it\n2.e5 f5 3.exf6 e.p. Nc6 ! 4.fxg7 $6 Bf5 "
            "5.gxh8=Q+? *",
            &g, &n);
    ck_assert_int_eq(n, 1);
    assert_moves(&g[0], "e2e4 d7d5 e4e5 f7f5 e5f6 b8c6 f6g7 c8f5 g7h8q");
    pgn_games_free(g, n);
    /* A game without a result, then the next game's tags. */
    read_ok("[Event \"A\"]\n\n1. e4 e5\n\n[Event \"B\"]\n\n1. d4 1-0\n", &g, &n);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(g[0].result, "*");
    assert_moves(&g[0], "e2e4 e7e5");
    ck_assert_str_eq(g[1].tags[0].value, "B");
    assert_moves(&g[1], "d2d4");
    ck_assert_int_eq(g[1].line, 5);
    pgn_games_free(g, n);
    /* Nothing but moves, and no result; "1 ... e5" spaced dots. */
    read_ok("1. e4 1 ... e5 2. Nf3", &g, &n);
    ck_assert_int_eq(n, 1);
    assert_moves(&g[0], "e2e4 e7e5 g1f3");
    pgn_games_free(g, n);
    /* Empty text, only comments: no games. */
    read_ok("", &g, &n);
    ck_assert_int_eq(n, 0);
    ck_assert_ptr_null(g);
    read_ok("% escape\n; comment\n{ brace }\n", &g, &n);
    ck_assert_int_eq(n, 0);
    pgn_games_free(g, n);
    /* Clocks with tenths, variations holding ')' in comments. */
    read_ok("1. e4 {[%clk 0:00:09.5]} (1. d4 {see (this)} d5 (1... Nf6)) e5 {[%emt 0:00:03] "
            "[%clk 1:02:03]} 1/2-1/2",
            &g, &n);
    ck_assert_int_eq(g[0].plies[0].clock_ms, 9500);
    ck_assert_int_eq(g[0].plies[1].clock_ms, 3723000);
    ck_assert_str_eq(g[0].plies[1].comment, "[%emt 0:00:03]");
    assert_moves(&g[0], "e2e4 e7e5");
    pgn_games_free(g, n);
    /* Text need not be NUL-terminated: only len bytes count. */
    char err[200];
    ck_assert_int_eq(pgn_read("1. e4 e5 XXXX", 8, &g, &n, err, sizeof err), 0);
    assert_moves(&g[0], "e2e4 e7e5");
    pgn_games_free(g, n);
    pgn_games_free(NULL, 0);
}
END_TEST

START_TEST(reader_errors_name_the_line)
{
    static const struct {
        const char *text, *words;
        int code;
    } cases[] = {
        {"[Event \"x\"]\n\n1. e4 e5\n2. Nf9 Nc6 *", "line 4: 'Nf9' is not a move", PGN_E_MOVE},
        {"1. e4 e5\n2. Nf3 Nc6\n3. Nd7 *", "line 3: 'Nd7' at move 3: no knight can go to d7",
         PGN_E_MOVE},
        {"1. e4 d6\n2. Nf3\nNf6 Nc3 Nd7 *", "line 3: 'Nd7' at move 3 (Black): two knights",
         PGN_E_MOVE},
        {"1. e4 { never closed\n2. d4 *", "line 1: the comment opened here with '{' is never",
         PGN_E_SYNTAX},
        {"1. e4\n(1. d4 d5\n2. c4 *", "line 2: the variation opened here", PGN_E_SYNTAX},
        {"1. e4 e5 ) *", "line 1: ')' closes nothing", PGN_E_SYNTAX},
        {"[Event x]\n1. e4 *", "line 1: a tag pair is written", PGN_E_TAG},
        {"\n[Event \"x\n1. e4 *", "line 2: the value of tag Event has no closing quote", PGN_E_TAG},
        {"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *", "line 1: the FEN tag is not a position",
         PGN_E_FEN},
        {"1. e4 -- *", "null moves", PGN_E_MOVE},
        {"1. e4 e5\r\n2. Ke3 *", "line 2: 'Ke3'", PGN_E_MOVE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PgnGame *g = (PgnGame *)1;
        int n = 7;
        char err[200];
        int rc = pgn_read(cases[i].text, strlen(cases[i].text), &g, &n, err, sizeof err);
        ck_assert_msg(rc == cases[i].code, "%s: got %d (%s)", cases[i].text, rc, err);
        ck_assert_msg(strstr(err, cases[i].words) != NULL, "'%s' lacks '%s'", err, cases[i].words);
        ck_assert_ptr_null(g);
        ck_assert_int_eq(n, 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pgn");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, export_format_text);
    tcase_add_test(tc, export_from_a_position);
    tcase_add_test(tc, export_refuses_bad_descriptions);
    tcase_add_test(tc, long_comments_and_tags_stay_within_lines);
    tcase_add_test(tc, random_games_pass_pgn_extract_and_read_back);
    tcase_add_test(tc, messy_file_reads_like_pgn_extract);
    tcase_add_test(tc, reader_tolerances);
    tcase_add_test(tc, reader_errors_name_the_line);
    suite_add_tcase(s, tc);
    return testutil_run_in_tmpdir(s, "pgn", tmpdir, sizeof tmpdir);
}
