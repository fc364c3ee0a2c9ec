/*
 * fuzz_pgn.c — PGN import under arbitrary text, and export of what was
 * imported.
 *
 * pgn_read() must refuse with a line-numbered message or return games whose
 * moves are legal from their start position.  Each game it returns must
 * export (pgn_write), and the export must import again to the same game:
 * same start position, moves, result, clocks (whole seconds: the export
 * format's precision), draw offers, comments (up to white space: the writer
 * may cut a long word, and braces become parentheses) and non-roster tags
 * (control characters become spaces).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_legal(const PgnGame *g)
{
    Board b;
    char err[160];
    if (g->fen) {
        if (board_from_fen(&b, g->fen, err, sizeof err) != 0)
            abort();
    } else {
        board_start(&b);
    }
    for (int i = 0; i < g->nplies; i++) {
        if (!movegen_is_legal(&b, g->plies[i].move))
            abort();
        board_make(&b, g->plies[i].move);
    }
}

static void start_fen(const PgnGame *g, char fen[FEN_MAX])
{
    Board b;
    char err[160];
    if (!g->fen || board_from_fen(&b, g->fen, err, sizeof err) != 0)
        board_start(&b);
    board_to_fen(&b, fen);
}

static const char *tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

/* Comment text as a reader sees it: without white space or control
 * characters, and any bracket or brace counted as a parenthesis (the writer
 * turns braces into parentheses, or square brackets where they would read
 * as a draw offer "(=)"). */
static bool same_words(const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    for (;;) {
        while (*a && ((unsigned char)*a <= ' ' || *a == 0x7f))
            a++;
        while (*b && ((unsigned char)*b <= ' ' || *b == 0x7f))
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        char x = *a == '{' || *a == '[' ? '(' : *a == '}' || *a == ']' ? ')' : *a;
        char y = *b == '{' || *b == '[' ? '(' : *b == '}' || *b == ']' ? ')' : *b;
        if (x != y)
            return false;
        a++;
        b++;
    }
}

/* Tag values: the writer turns control characters into spaces (a tag
 * pair is one line). */
static bool same_value(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    for (; *a && *b; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x < 0x20 || x == 0x7f)
            x = ' ';
        if (x != y)
            return false;
    }
    return *a == *b;
}

static void check_same(const PgnGame *a, const PgnGame *b)
{
    char fa[FEN_MAX], fb[FEN_MAX];
    start_fen(a, fa);
    start_fen(b, fb);
    if (strcmp(fa, fb) != 0 || a->nplies != b->nplies)
        abort();
    if (strcmp(a->result ? a->result : "*", b->result ? b->result : "*") != 0)
        abort();
    for (int i = 0; i < a->nplies; i++) {
        const PgnPly *x = &a->plies[i], *y = &b->plies[i];
        if (x->move != y->move || x->draw_offer != y->draw_offer)
            abort();
        if ((x->clock_ms < 0) != (y->clock_ms < 0) ||
            (x->clock_ms >= 0 && x->clock_ms / 1000 != y->clock_ms / 1000))
            abort();
        if (!same_words(x->comment, y->comment))
            abort();
    }
    /* Every tag but the roster (defaults added) and FEN/SetUp (rewritten)
     * comes back with its value. */
    for (int i = 0; i < a->ntags; i++) {
        const char *name = a->tags[i].name;
        static const char *const skip[] = {"Event", "Site",   "Date", "Round", "White",
                                           "Black", "Result", "FEN",  "SetUp"};
        int skipped = 0;
        for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
            skipped |= strcmp(name, skip[k]) == 0;
        if (skipped)
            continue;
        if (!same_value(tag(a, name), tag(b, name)))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    PgnGame *games = NULL;
    int count = -1;
    char err[256];
    err[0] = '\0';
    int rc = pgn_read((const char *)data, size, &games, &count, err, sizeof err);
    if (rc != 0) {
        if (rc < 0 || err[0] == '\0' || games != NULL || count != 0 ||
            strncmp(err, "line ", 5) != 0)
            abort();
        return 0;
    }
    if (count < 0 || (count == 0) != (games == NULL))
        abort();
    for (int i = 0; i < count; i++) {
        const PgnGame *g = &games[i];
        check_legal(g);
        char *out = NULL;
        if (pgn_write(g, &out, err, sizeof err) != 0 || !out)
            abort();
        PgnGame *again = NULL;
        int n = 0;
        if (pgn_read(out, strlen(out), &again, &n, err, sizeof err) != 0 || n != 1)
            abort();
        check_same(g, &again[0]);
        free(out);
        pgn_games_free(again, n);
    }
    pgn_games_free(games, count);
    return 0;
}
