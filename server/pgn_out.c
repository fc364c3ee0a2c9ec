/*
 * pgn_out.c — PGN export.  See pgn_out.h.  Tag values escape '\' and '"';
 * movetext lines stay under 80 characters as the PGN standard asks.
 */
#include "pgn_out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "notation.h"

static void add(PgnBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(PgnBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return;
        b->p = p;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void tag(PgnBuf *b, const char *name, const char *value)
{
    add(b, "[%s \"", name);
    for (const char *p = value ? value : "?"; *p; p++)
        add(b, "%s%c", (*p == '"' || *p == '\\') ? "\\" : "", *p);
    add(b, "\"]\n");
}

static const char *str(json_t *o, const char *k, const char *dflt)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) && json_string_length(v) ? json_string_value(v) : dflt;
}

/* The four PGN results; the engine's other texts (forfeits, penalties) have
 * no PGN form and are kept in a comment. */
static const char *pgn_result(const char *r)
{
    if (!strcmp(r, "1-0") || !strcmp(r, "+/-"))
        return "1-0";
    if (!strcmp(r, "0-1") || !strcmp(r, "-/+"))
        return "0-1";
    if (!strcmp(r, "1/2-1/2"))
        return r;
    return "*";
}

void pgn_write_game(PgnBuf *b, const GameState *st, json_t *game, json_t *tournament,
                    json_t *white, json_t *black)
{
    char buf[64], res[16];
    const char *result = game_result_text(st, res);
    tag(b, "Event", str(tournament, "name", "?"));
    tag(b, "Site", str(tournament, "place", "?"));
    if (st->started) {
        time_t t = (time_t)(st->start_ms / 1000);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
        tag(b, "Date", buf);
    } else {
        tag(b, "Date", "????.??.??");
    }
    snprintf(buf, sizeof buf, "%lld.%lld",
             (long long)json_integer_value(json_object_get(game, "round")),
             (long long)json_integer_value(json_object_get(game, "board")));
    tag(b, "Round", buf);
    tag(b, "White", str(white, "name", "?"));
    tag(b, "Black", str(black, "name", "?"));
    tag(b, "Result", pgn_result(result));
    json_int_t we = json_integer_value(json_object_get(white, "rating"));
    json_int_t be = json_integer_value(json_object_get(black, "rating"));
    if (we > 0) {
        snprintf(buf, sizeof buf, "%lld", (long long)we);
        tag(b, "WhiteElo", buf);
    }
    if (be > 0) {
        snprintf(buf, sizeof buf, "%lld", (long long)be);
        tag(b, "BlackElo", buf);
    }
    tag(b, "TimeControl", str(tournament, "time_control", "?"));
    if (st->over)
        tag(b, "Termination", game_end_name(st->end));
    char fen[FEN_MAX], startfen[FEN_MAX];
    board_to_fen(&st->start, fen);
    Board std;
    board_start(&std);
    board_to_fen(&std, startfen);
    if (strcmp(fen, startfen) != 0) {
        tag(b, "SetUp", "1");
        tag(b, "FEN", fen);
    }
    add(b, "\n");
    Board pos = st->start;
    int col = 0;
    for (int i = 0; i < st->nplies; i++) {
        char tok[NOTATION_SAN_MAX + 48];
        char san[NOTATION_SAN_MAX];
        if (notation_san(&pos, st->plies[i].move, san))
            break;
        int side = pos.side;
        int64_t ms = st->plies[i].clock_ms[side];
        if (ms < 0)
            ms = 0;
        int64_t s = (ms + 999) / 1000;
        int n = 0;
        if (side == WHITE)
            n = snprintf(tok, sizeof tok, "%d. ", pos.fullmove);
        else if (i == 0)
            n = snprintf(tok, sizeof tok, "%d... ", pos.fullmove);
        snprintf(tok + n, sizeof tok - (size_t)n, "%s {[%%clk %lld:%02lld:%02lld]}", san,
                 (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60));
        int len = (int)strlen(tok);
        if (col && col + 1 + len > 79) {
            add(b, "\n");
            col = 0;
        }
        add(b, "%s%s", col ? " " : "", tok);
        col += (col ? 1 : 0) + len;
        board_make(&pos, st->plies[i].move);
    }
    if (strcmp(pgn_result(result), result) != 0 && strcmp(result, "*") != 0)
        add(b, "%s{%s}", col ? " " : "", result);
    add(b, "%s%s\n\n", col ? " " : "", pgn_result(result));
}
