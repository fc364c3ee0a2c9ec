/*
 * pgn.c — PGN export (writer) and tolerant import (reader).
 *
 * The writer keeps a growing buffer and a line wrapper: tokens are placed
 * on lines of at most 79 characters and a move number stays with its move.
 * The reader is a single pass over the text with a line counter: it lexes
 * tags, comments, variations, NAGs, numbers and results itself and hands
 * every move token to notation_parse() in the current position.  All
 * memory of a failed read is released before returning.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "notation.h"
#include "pgn.h"
#include "strbuf.h"

enum { LINE_MAX_COLS = 79 };

/* ---- writer -------------------------------------------------------------- */

typedef struct Wrap {
    StrBuf *b;
    int col;
} Wrap;

static void wrap_token(Wrap *w, const char *tok, size_t n)
{
    if (w->col > 0 && w->col + 1 + (int)n > LINE_MAX_COLS) {
        strbuf_puts(w->b, "\n");
        w->col = 0;
    } else if (w->col > 0) {
        strbuf_puts(w->b, " ");
        w->col++;
    }
    strbuf_append(w->b, tok, n);
    w->col += (int)n;
}

static bool is_symbol_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '+' || c == '#' || c == '=' || c == ':' || c == '-';
}

static bool is_symbol(const char *s)
{
    if (!s || !*s || strlen(s) > 255)
        return false;
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return false;
    for (const char *p = s; *p; p++)
        if (!is_symbol_char(*p))
            return false;
    return true;
}

static bool valid_result(const char *r)
{
    return strcmp(r, "1-0") == 0 || strcmp(r, "0-1") == 0 || strcmp(r, "1/2-1/2") == 0 ||
           strcmp(r, "*") == 0;
}

static void write_tag(StrBuf *b, const char *name, const char *value)
{
    strbuf_puts(b, "[");
    strbuf_puts(b, name);
    strbuf_puts(b, " \"");
    for (const char *p = value ? value : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            strbuf_append(b, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            strbuf_puts(b, " "); /* a tag pair is one line */
        } else {
            strbuf_append(b, p, 1);
        }
    }
    strbuf_puts(b, "\"]\n");
}

static const char *find_tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (g->tags[i].name && strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

static bool in_roster(const char *name)
{
    for (int i = 0; i < 7; i++)
        if (strcmp(name, roster[i]) == 0)
            return true;
    return false;
}

/* Writes a comment as brace-delimited words, wrapped like other tokens.
 * Braces inside become square brackets (parentheses could spell the "(=)"
 * mark); control characters become spaces. */
static void wrap_comment(Wrap *w, const char *text)
{
    size_t n = strlen(text);
    char *clean = malloc(n + 3);
    if (!clean) {
        w->b->failed = true;
        return;
    }
    size_t k = 0;
    clean[k++] = '{';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        clean[k++] = c == '{' ? '[' : c == '}' ? ']' : (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    clean[k++] = '}';
    clean[k] = '\0';
    /* Words; a word too long for a line is cut (the cut is a space, which a
     * reader of the comment sees as white space). */
    size_t i = 0;
    while (i < k) {
        while (i < k && clean[i] == ' ')
            i++;
        size_t j = i;
        while (j < k && clean[j] != ' ')
            j++;
        /* A clock command stays on one line: "[%clk 1:29:57]". */
        if (j - i >= 5 && strncmp(clean + j - 5, "[%clk", 5) == 0 && j < k) {
            j++;
            while (j < k && clean[j] != ' ')
                j++;
        }
        while (j > i) {
            size_t len = j - i;
            if (len > LINE_MAX_COLS - 9)
                len = LINE_MAX_COLS - 9;
            /* Do not cut a UTF-8 sequence. */
            while (len < j - i && len > 1 && ((unsigned char)clean[i + len] & 0xC0) == 0x80)
                len--;
            wrap_token(w, clean + i, len);
            i += len;
        }
        i = j;
    }
    free(clean);
}

int pgn_write(const PgnGame *g, char **out, char *err, size_t errlen)
{
    *out = NULL;
    Board b;
    char fen_err[160];
    if (g->fen) {
        if (board_from_fen(&b, g->fen, fen_err, sizeof fen_err))
            return error_set(err, errlen, PGN_E_FEN, "the starting FEN is not a position: %s",
                             fen_err);
    } else {
        board_start(&b);
    }
    const char *result = g->result ? g->result : find_tag(g, "Result");
    if (!result)
        result = "*";
    if (!valid_result(result))
        return error_set(err, errlen, PGN_E_RESULT,
                         "the result '%.20s' is none of 1-0, 0-1, 1/2-1/2 and *", result);
    for (int i = 0; i < g->ntags; i++)
        if (!is_symbol(g->tags[i].name))
            return error_set(err, errlen, PGN_E_TAG,
                             "the tag name '%.40s' is not a PGN symbol (letters, digits, _)",
                             g->tags[i].name ? g->tags[i].name : "");

    StrBuf buf = {0};
    for (int i = 0; i < 7; i++) {
        const char *v = i == 6 ? result : find_tag(g, roster[i]);
        write_tag(&buf, roster[i], v ? v : i == 2 ? "????.??.??" : "?");
    }
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->tags[i].name;
        if (in_roster(name) || strcmp(name, "FEN") == 0 || strcmp(name, "SetUp") == 0)
            continue;
        write_tag(&buf, name, g->tags[i].value);
    }
    char fen[FEN_MAX];
    board_to_fen(&b, fen);
    if (strcmp(fen, BOARD_START_FEN) != 0) {
        write_tag(&buf, "SetUp", "1");
        write_tag(&buf, "FEN", fen);
    }
    strbuf_puts(&buf, "\n");

    Wrap w = {&buf, 0};
    bool need_number = true;
    for (int i = 0; i < g->nplies; i++) {
        const PgnPly *p = &g->plies[i];
        char san[NOTATION_SAN_MAX], tok[NOTATION_SAN_MAX + 16];
        if (notation_san(&b, p->move, san)) {
            char uci[6];
            board_move_to_uci(p->move, uci);
            strbuf_free(&buf);
            board_to_fen(&b, fen);
            return error_set(err, errlen, PGN_E_MOVE, "ply %d: %s is not a legal move in %s", i + 1,
                             uci, fen);
        }
        if (b.side == WHITE)
            snprintf(tok, sizeof tok, "%d. %s", b.fullmove, san);
        else if (need_number)
            snprintf(tok, sizeof tok, "%d... %s", b.fullmove, san);
        else
            snprintf(tok, sizeof tok, "%s", san);
        wrap_token(&w, tok, strlen(tok));
        need_number = false;
        board_make(&b, p->move);

        char clk[48] = "";
        if (p->clock_ms >= 0) {
            long s = p->clock_ms / 1000;
            snprintf(clk, sizeof clk, "[%%clk %ld:%02ld:%02ld]", s / 3600, s / 60 % 60, s % 60);
        }
        if (clk[0] || p->draw_offer || (p->comment && p->comment[0])) {
            StrBuf c = {0};
            strbuf_puts(&c, clk);
            if (p->draw_offer)
                strbuf_puts(&c, c.len ? " (=)" : "(=)");
            if (p->comment && p->comment[0]) {
                if (c.len)
                    strbuf_puts(&c, " ");
                /* Text that reads "[%clk" (or "{%clk", a brace becomes "[") is
                 * not our clock: keep it text. */
                for (const char *q = p->comment; *q; q++) {
                    strbuf_append(&c, q, 1);
                    if (q > p->comment && strchr("[{", q[-1]) && q[0] == '%' &&
                        !strncmp(q + 1, "clk", 3))
                        strbuf_puts(&c, " ");
                }
            }
            if (c.failed) {
                strbuf_free(&c);
                strbuf_free(&buf);
                return -ENOMEM;
            }
            wrap_comment(&w, c.data);
            strbuf_free(&c);
            need_number = true;
        }
    }
    wrap_token(&w, result, strlen(result));
    strbuf_puts(&buf, "\n\n");
    if (buf.failed) {
        strbuf_free(&buf);
        return -ENOMEM;
    }
    *out = strbuf_take(&buf);
    return 0;
}

/* ---- reader -------------------------------------------------------------- */

typedef struct Reader {
    const char *s;
    size_t len, pos;
    int line;
    char *err;
    size_t errlen;

    PgnGame *games;
    int count, cap;

    /* The game being read. */
    bool open; /* a tag or a move has been seen */
    int game_line;
    PgnTag *tags;
    int ntags, tags_cap;
    PgnPly *plies;
    int nplies, plies_cap;
    Board board;
    bool board_ready;
} Reader;

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static void free_plies(PgnPly *plies, int n)
{
    for (int i = 0; i < n; i++)
        free((char *)plies[i].comment);
    free(plies);
}

static void free_tags(PgnTag *tags, int n)
{
    for (int i = 0; i < n; i++) {
        free((char *)tags[i].name);
        free((char *)tags[i].value);
    }
    free(tags);
}

void pgn_games_free(PgnGame *games, int count)
{
    if (!games)
        return;
    for (int i = 0; i < count; i++) {
        free_tags((PgnTag *)games[i].tags, games[i].ntags);
        free_plies((PgnPly *)games[i].plies, games[i].nplies);
        free((char *)games[i].fen);
        free((char *)games[i].result);
    }
    free(games);
}

static void reset_game(Reader *r)
{
    free_tags(r->tags, r->ntags);
    free_plies(r->plies, r->nplies);
    r->tags = NULL;
    r->plies = NULL;
    r->ntags = r->tags_cap = r->nplies = r->plies_cap = 0;
    r->open = false;
    r->board_ready = false;
}

static const char *tag_value(const Reader *r, const char *name)
{
    for (int i = 0; i < r->ntags; i++)
        if (strcmp(r->tags[i].name, name) == 0)
            return r->tags[i].value;
    return NULL;
}

/* Sets up the starting position from the FEN tag, once per game. */
static int ensure_board(Reader *r)
{
    if (r->board_ready)
        return 0;
    const char *fen = tag_value(r, "FEN");
    if (fen) {
        char why[160];
        if (board_from_fen(&r->board, fen, why, sizeof why))
            return error_set(r->err, r->errlen, PGN_E_FEN,
                             "line %d: the FEN tag is not a position: %s", r->game_line, why);
    } else {
        board_start(&r->board);
    }
    r->board_ready = true;
    return 0;
}

static int finish_game(Reader *r, const char *result)
{
    if (!r->open && !result)
        return 0;
    int rc = ensure_board(r);
    if (rc)
        return rc;
    if (r->count == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        PgnGame *g = realloc(r->games, (size_t)cap * sizeof *g);
        if (!g)
            return -ENOMEM;
        r->games = g;
        r->cap = cap;
    }
    const char *fen = tag_value(r, "FEN");
    PgnGame *g = &r->games[r->count];
    memset(g, 0, sizeof *g);
    g->result = dup_range(result ? result : "*", strlen(result ? result : "*"));
    g->fen = fen ? dup_range(fen, strlen(fen)) : NULL;
    if (!g->result || (fen && !g->fen)) {
        free((char *)g->result);
        free((char *)g->fen);
        return -ENOMEM;
    }
    g->tags = r->tags;
    g->ntags = r->ntags;
    g->plies = r->plies;
    g->nplies = r->nplies;
    g->line = r->game_line;
    r->count++;
    r->tags = NULL;
    r->plies = NULL;
    r->ntags = r->tags_cap = r->nplies = r->plies_cap = 0;
    r->open = false;
    r->board_ready = false;
    return 0;
}

static void open_game(Reader *r)
{
    if (!r->open) {
        r->open = true;
        r->game_line = r->line;
    }
}

static bool at_end(const Reader *r)
{
    return r->pos >= r->len;
}

static char peek(const Reader *r)
{
    return at_end(r) ? '\0' : r->s[r->pos];
}

static void advance(Reader *r)
{
    if (r->s[r->pos] == '\n')
        r->line++;
    r->pos++;
}

static void skip_line(Reader *r)
{
    while (!at_end(r) && peek(r) != '\n')
        r->pos++;
}

/* [Name "value"] */
static int read_tag(Reader *r)
{
    int line = r->line;
    r->pos++; /* '[' */
    while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t'))
        r->pos++;
    size_t start = r->pos;
    while (!at_end(r) && is_symbol_char(peek(r)))
        r->pos++;
    size_t name_len = r->pos - start;
    char first = name_len ? r->s[start] : '\0';
    if (name_len > 255 || !((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') ||
                            (first >= '0' && first <= '9')))
        name_len = 0; /* a symbol starts with a letter or digit */
    while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t'))
        r->pos++;
    if (name_len == 0 || peek(r) != '"')
        return error_set(r->err, r->errlen, PGN_E_TAG,
                         "line %d: a tag pair is written [Name \"value\"]", line);
    r->pos++;
    StrBuf v = {0};
    strbuf_puts(&v, "");
    while (!at_end(r) && peek(r) != '"' && peek(r) != '\n') {
        if (peek(r) == '\\' && r->pos + 1 < r->len &&
            (r->s[r->pos + 1] == '"' || r->s[r->pos + 1] == '\\'))
            r->pos++;
        strbuf_append(&v, r->s + r->pos, 1);
        r->pos++;
    }
    if (peek(r) != '"') {
        strbuf_free(&v);
        return error_set(r->err, r->errlen, PGN_E_TAG,
                         "line %d: the value of tag %.*s has no closing quote", line, (int)name_len,
                         r->s + start);
    }
    r->pos++;
    while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t'))
        r->pos++;
    if (peek(r) != ']') {
        strbuf_free(&v);
        return error_set(r->err, r->errlen, PGN_E_TAG, "line %d: the tag pair %.*s lacks its ']'",
                         line, (int)name_len, r->s + start);
    }
    r->pos++;
    if (v.failed)
        return -ENOMEM;
    if (r->ntags == r->tags_cap) {
        int cap = r->tags_cap ? 2 * r->tags_cap : 16;
        PgnTag *t = realloc(r->tags, (size_t)cap * sizeof *t);
        if (!t) {
            strbuf_free(&v);
            return -ENOMEM;
        }
        r->tags = t;
        r->tags_cap = cap;
    }
    char *name = dup_range(r->s + start, name_len);
    if (!name) {
        strbuf_free(&v);
        return -ENOMEM;
    }
    r->tags[r->ntags].name = name;
    r->tags[r->ntags].value = v.data;
    r->ntags++;
    return 0;
}

/* Parses "[%clk H:MM:SS(.f)]" at p; returns ms or -1, and its length. */
static long parse_clock(const char *p, size_t n, size_t *used)
{
    if (n < 8 || strncmp(p, "[%clk", 5) != 0)
        return -1;
    size_t i = 5;
    while (i < n && p[i] == ' ')
        i++;
    long parts[3] = {0, 0, 0};
    int np = 0;
    while (np < 3) {
        if (i >= n || p[i] < '0' || p[i] > '9')
            return -1;
        long v = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9' && v < 1000000)
            v = v * 10 + (p[i++] - '0');
        parts[np++] = v;
        if (i < n && p[i] == ':')
            i++;
        else
            break;
    }
    long ms = 0;
    for (int k = 0; k < np; k++)
        ms = ms * 60 + parts[k];
    ms *= 1000;
    if (i < n && p[i] == '.') {
        i++;
        long scale = 100;
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            ms += (p[i++] - '0') * scale;
            scale /= 10;
        }
    }
    while (i < n && p[i] == ' ')
        i++;
    if (i >= n || p[i] != ']')
        return -1;
    *used = i + 1;
    return ms;
}

/* Adds a comment's text to the last ply (clock and draw offer pulled out). */
static int attach_comment(Reader *r, const char *text, size_t n)
{
    if (r->nplies == 0)
        return 0; /* a comment before the first move describes the game */
    PgnPly *p = &r->plies[r->nplies - 1];
    /* Control characters count as spaces, as the writer makes them. */
    char *norm = dup_range(text, n);
    if (!norm)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)norm[i] < 0x20 || norm[i] == 0x7f)
            norm[i] = ' ';
    text = norm;
    StrBuf rest = {0};
    strbuf_puts(&rest, "");
    for (size_t i = 0; i < n;) {
        size_t used;
        long ms = parse_clock(text + i, n - i, &used);
        if (ms >= 0) {
            p->clock_ms = ms;
            i += used;
            /* What was around it stays apart: "[(=)%clk" is no clock. */
            if (rest.len > 0 && rest.data[rest.len - 1] != ' ')
                strbuf_append(&rest, " ", 1);
            continue;
        }
        if (n - i >= 3 && strncmp(text + i, "(=)", 3) == 0) {
            p->draw_offer = true;
            i += 3;
            if (rest.len > 0 && rest.data[rest.len - 1] != ' ')
                strbuf_append(&rest, " ", 1);
            continue;
        }
        char c = text[i];
        if (!(c == ' ' && (rest.len == 0 || rest.data[rest.len - 1] == ' ')))
            strbuf_append(&rest, &c, 1);
        i++;
    }
    free(norm);
    while (rest.len > 0 && rest.data[rest.len - 1] == ' ')
        strbuf_truncate(&rest, rest.len - 1);
    if (rest.failed) {
        strbuf_free(&rest);
        return -ENOMEM;
    }
    if (rest.len == 0) {
        strbuf_free(&rest);
        return 0;
    }
    if (p->comment) {
        StrBuf joined = {0};
        strbuf_puts(&joined, p->comment);
        strbuf_puts(&joined, " ");
        strbuf_puts(&joined, rest.data);
        strbuf_free(&rest);
        if (joined.failed) {
            strbuf_free(&joined);
            return -ENOMEM;
        }
        free((char *)p->comment);
        p->comment = joined.data;
    } else {
        p->comment = rest.data;
    }
    return 0;
}

static int read_brace_comment(Reader *r)
{
    int line = r->line;
    advance(r); /* '{' */
    size_t start = r->pos;
    while (!at_end(r) && peek(r) != '}')
        advance(r);
    if (at_end(r))
        return error_set(r->err, r->errlen, PGN_E_SYNTAX,
                         "line %d: the comment opened here with '{' is never closed", line);
    size_t end = r->pos;
    advance(r); /* '}' */
    return attach_comment(r, r->s + start, end - start);
}

static int skip_variation(Reader *r)
{
    int line = r->line, depth = 0;
    while (!at_end(r)) {
        char c = peek(r);
        if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (--depth == 0) {
                advance(r);
                return 0;
            }
        } else if (c == '{') {
            int cl = r->line;
            while (!at_end(r) && peek(r) != '}')
                advance(r);
            if (at_end(r))
                return error_set(r->err, r->errlen, PGN_E_SYNTAX,
                                 "line %d: the comment opened here with '{' is never closed", cl);
        } else if (c == ';') {
            skip_line(r);
            continue;
        }
        advance(r);
    }
    return error_set(r->err, r->errlen, PGN_E_SYNTAX,
                     "line %d: the variation opened here with '(' is never closed", line);
}

static bool is_result(const char *t)
{
    return valid_result(t);
}

static bool only_chars(const char *t, const char *set)
{
    return *t && strspn(t, set) == strlen(t);
}

static int add_move(Reader *r, const char *tok)
{
    int rc = ensure_board(r);
    if (rc)
        return rc;
    Move m;
    char why[NOTATION_ERR_MAX];
    rc = notation_parse(&r->board, tok, &m, why, sizeof why);
    if (rc == NOTATION_E_MALFORMED)
        return error_set(r->err, r->errlen, PGN_E_MOVE, "line %d: %s", r->line, why);
    if (rc)
        return error_set(r->err, r->errlen, PGN_E_MOVE, "line %d: '%s' at move %d%s: %s", r->line,
                         tok, r->board.fullmove, r->board.side == WHITE ? "" : " (Black)", why);
    if (r->nplies == r->plies_cap) {
        int cap = r->plies_cap ? 2 * r->plies_cap : 128;
        PgnPly *p = realloc(r->plies, (size_t)cap * sizeof *p);
        if (!p)
            return -ENOMEM;
        r->plies = p;
        r->plies_cap = cap;
    }
    r->plies[r->nplies++] = (PgnPly){.move = m, .clock_ms = -1};
    board_make(&r->board, m);
    return 0;
}

static int read_symbol(Reader *r)
{
    size_t start = r->pos;
    while (!at_end(r) && !strchr(" \t\r\n\f\v{}()[];$", peek(r)))
        r->pos++;
    size_t n = r->pos - start;
    char tok[64];
    if (n >= sizeof tok)
        return error_set(r->err, r->errlen, PGN_E_MOVE, "line %d: '%.20s...' is not a move",
                         r->line, r->s + start);
    memcpy(tok, r->s + start, n);
    tok[n] = '\0';
    if (is_result(tok) || strcmp(tok, "½-½") == 0) {
        open_game(r);
        return finish_game(r, tok[0] == '\xc2' ? "1/2-1/2" : tok);
    }
    /* A move number, perhaps glued to its move ("12.", "12...", "12.e4"). */
    char *t = tok;
    size_t digits = strspn(t, "0123456789");
    if (digits > 0 && t[digits] == '.') {
        t += digits;
        t += strspn(t, ".");
    } else if (digits == n) {
        return 0; /* a bare number, as some exporters write "12 e4" */
    }
    if (!*t || only_chars(t, ".") || only_chars(t, "!?") || strcmp(t, "e.p.") == 0 ||
        strcmp(t, "ep") == 0)
        return 0;
    open_game(r);
    if (strcmp(t, "--") == 0 || strcmp(t, "Z0") == 0)
        return error_set(r->err, r->errlen, PGN_E_MOVE,
                         "line %d: null moves (%s) are not part of a real game", r->line, t);
    return add_move(r, t);
}

int pgn_read(const char *text, size_t len, PgnGame **games, int *count, char *err, size_t errlen)
{
    *games = NULL;
    *count = 0;
    Reader r = {
        .s = text ? text : "", .len = text ? len : 0, .line = 1, .err = err, .errlen = errlen};
    if (err && errlen)
        err[0] = '\0';
    if (r.len >= 3 && memcmp(r.s, "\xEF\xBB\xBF", 3) == 0)
        r.pos = 3;
    size_t first = r.pos;
    int rc = 0;
    while (!rc && !at_end(&r)) {
        char c = peek(&r);
        bool line_start = r.pos == first || r.s[r.pos - 1] == '\n';
        if (c == '%' && line_start) {
            skip_line(&r);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance(&r);
        } else if (c == ';') {
            skip_line(&r);
        } else if (c == '{') {
            rc = read_brace_comment(&r);
        } else if (c == '(') {
            rc = skip_variation(&r);
        } else if (c == ')' || c == '}' || c == ']') {
            rc = error_set(err, errlen, PGN_E_SYNTAX, "line %d: '%c' closes nothing", r.line, c);
        } else if (c == '[') {
            if (r.nplies > 0)
                rc = finish_game(&r, NULL); /* a game without its result */
            if (!rc) {
                open_game(&r);
                rc = read_tag(&r);
            }
        } else if (c == '$') {
            r.pos++;
            while (!at_end(&r) && peek(&r) >= '0' && peek(&r) <= '9')
                r.pos++;
        } else if (c == '\0') {
            rc = error_set(err, errlen, PGN_E_SYNTAX, "line %d: a NUL byte is not text", r.line);
        } else {
            rc = read_symbol(&r);
        }
    }
    if (!rc)
        rc = finish_game(&r, NULL);
    if (rc) {
        if (rc == -ENOMEM)
            error_set(err, errlen, -ENOMEM, "out of memory");
        reset_game(&r);
        pgn_games_free(r.games, r.count);
        return rc;
    }
    reset_game(&r);
    *games = r.games;
    *count = r.count;
    return 0;
}
