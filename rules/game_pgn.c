/*
 * game_pgn.c — the PGN export of a folded game (see game_pgn.h).  The
 * movetext is assembled token by token and wrapped at 79 columns.
 */
#include "game_pgn.h"

#include <stdio.h>
#include <string.h>

#include "game_internal.h"
#include "notation.h"

typedef struct Out {
    char *buf;
    size_t cap, len;
    int col; /* column in the current movetext line */
} Out;

static void put_raw(Out *o, const char *s, size_t n)
{
    if (o->len < o->cap) {
        size_t room = o->cap - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

/* One movetext token (a word, or a comment's word), wrapped at 79. */
static void token(Out *o, const char *t)
{
    size_t n = strlen(t);
    if (n == 0)
        return;
    if (o->col > 0 && o->col + 1 + (int)n > 79) {
        put_raw(o, "\n", 1);
        o->col = 0;
    } else if (o->col > 0) {
        put_raw(o, " ", 1);
        o->col++;
    }
    for (size_t i = 0; i < n; i++)
        put_raw(o, t[i] == 1 ? " " : t + i, 1);
    o->col += (int)n;
}

/* A comment, split into words so that it wraps; braces and control
 * characters become spaces. */
static void comment(Out *o, const char *text)
{
    char clean[1200];
    size_t n = 0;
    clean[n++] = '{';
    while (*text == ' ')
        text++;
    bool command = false; /* inside [%...]: kept whole, on one line */
    for (const char *p = text; *p && n + 2 < sizeof clean; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '[' && p[1] == '%')
            command = true;
        else if (c == ']')
            command = false;
        if (c == ' ' && command)
            c = 1;
        clean[n++] = (c == '{' || c == '}' || (c < 32 && c != 1) || c == 127) ? ' ' : (char)c;
    }
    while (n > 1 && clean[n - 1] == ' ')
        n--;
    clean[n++] = '}';
    clean[n] = '\0';
    char *save = NULL;
    for (char *w = strtok_r(clean, " ", &save); w; w = strtok_r(NULL, " ", &save))
        token(o, w);
}

int game_pgn_tag_check(const char *name, const char *value)
{
    if (!name || !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
        return 1;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 1;
    for (const unsigned char *p = (const unsigned char *)value; p && *p; p++)
        if (*p < 32 || *p == 127)
            return 1;
    return 0;
}

static void tag(Out *o, const char *name, const char *value)
{
    put_raw(o, "[", 1);
    put_raw(o, name, strlen(name));
    put_raw(o, " \"", 2);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            put_raw(o, "\\", 1);
        put_raw(o, p, 1);
    }
    put_raw(o, "\"]\n", 3);
}

static const char *given(const GamePgnTags *tags, const char *name)
{
    for (int i = 0; tags && i < tags->count; i++)
        if (strcmp(tags->name[i], name) == 0)
            return tags->value[i];
    return NULL;
}

static const char *termination(const GameState *st)
{
    if (!st->over)
        return "unterminated";
    switch (st->end) {
    case GAME_END_TIME: return "time forfeit";
    case GAME_END_ILLEGAL_MOVES: case GAME_END_PENALTY: return "rules infraction";
    case GAME_END_DEFAULT: return "abandoned";
    case GAME_END_ARBITER: return "adjudication";
    default: return "normal";
    }
}

/* The PGN result token: only the four the standard knows. */
static const char *pgn_result(const GameState *st)
{
    if (!st->over)
        return "*";
    int w = st->score[WHITE], b = st->score[BLACK];
    if (w == 2 && b == 0)
        return "1-0";
    if (w == 0 && b == 2)
        return "0-1";
    if (w == 1 && b == 1)
        return "1/2-1/2";
    return "*";
}

static void clk(char *out, size_t cap, int64_t ms)
{
    if (ms < 0)
        ms = 0;
    int64_t s = ms / 1000;
    snprintf(out, cap, "[%%clk %lld:%02lld:%02lld]", (long long)(s / 3600),
             (long long)(s / 60 % 60), (long long)(s % 60));
}

/* Notes attached after `ply` plies, joined; returns how many. */
static int notes_at(const GameState *st, int ply, char *out, size_t cap)
{
    size_t n = 0;
    int count = 0;
    out[0] = '\0';
    for (int i = 0; i < st->nnotes; i++) {
        if (st->notes[i].ply != ply)
            continue;
        n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", count ? "; " : "",
                              st->notes[i].text);
        if (n >= cap)
            n = cap - 1;
        count++;
    }
    return count;
}

size_t game_pgn_write(const GameState *st, const GamePgnTags *tags, char *out, size_t cap)
{
    Out o = {out, cap, 0, 0};
    static const struct { const char *name, *dflt; } roster[] = {
        {"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
        {"White", "?"}, {"Black", "?"},
    };
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *v = given(tags, roster[i].name);
        tag(&o, roster[i].name, v ? v : roster[i].dflt);
    }
    const char *result = pgn_result(st);
    tag(&o, "Result", result);
    for (int i = 0; tags && i < tags->count; i++) {
        static const char *const skip[] = {"Event", "Site", "Date", "Round", "White", "Black",
                                           "Result", "FEN", "SetUp", "TimeControl",
                                           "Termination"};
        bool dup = false;
        for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
            if (strcmp(tags->name[i], skip[k]) == 0)
                dup = true;
        if (!dup)
            tag(&o, tags->name[i], tags->value[i]);
    }
    char tc[TC_TEXT_MAX];
    timecontrol_format(&st->settings.tc, tc);
    tag(&o, "TimeControl", tc);
    tag(&o, "Termination", termination(st));
    if (strcmp(st->settings.start_fen, BOARD_START_FEN) != 0) {
        tag(&o, "SetUp", "1");
        tag(&o, "FEN", st->settings.start_fen);
    }
    put_raw(&o, "\n", 1);

    char notes[1000], text[1100];
    if (notes_at(st, 0, notes, sizeof notes))
        comment(&o, notes);
    Board b = st->start;
    bool need_number = true;
    for (int i = 0; i < st->nplies; i++) {
        const GamePly *p = &st->plies[i];
        char san[NOTATION_SAN_MAX], num[24];
        if (b.side == WHITE || need_number) {
            snprintf(num, sizeof num, b.side == WHITE ? "%d." : "%d...", (int)b.fullmove);
            token(&o, num);
        }
        if (notation_san(&b, p->move, san))
            snprintf(san, sizeof san, "--");
        token(&o, san);
        int mover = b.side;
        board_make(&b, p->move);
        size_t n = 0;
        if (!st->settings.tc.untimed) {
            clk(text, sizeof text, p->clock_ms[mover]);
            n = strlen(text);
        }
        int k = notes_at(st, i + 1, notes, sizeof notes);
        if (p->flags & GAME_PLY_PROMO_FORCED)
            n += (size_t)snprintf(text + n, sizeof text - n,
                                  "%sno promotion piece chosen: a queen (7.5.2)", n ? " " : "");
        if (k)
            snprintf(text + n, sizeof text - n, "%s%s", n ? " " : "", notes);
        need_number = false;
        if (text[0] && (n || k)) {
            comment(&o, text);
            need_number = true;
        }
    }
    if (st->over && strcmp(result, "*") == 0) {
        char buf[16];
        snprintf(text, sizeof text, "result %s (white %s, black %s)", game_result_text(st, buf),
                 st->score[WHITE] == 2 ? "1" : st->score[WHITE] == 1 ? "1/2" : "0",
                 st->score[BLACK] == 2 ? "1" : st->score[BLACK] == 1 ? "1/2" : "0");
        comment(&o, text);
    }
    token(&o, result);
    put_raw(&o, "\n\n", 2);
    if (cap) {
        size_t end = o.len < cap ? o.len : cap - 1;
        out[end] = '\0';
    }
    return o.len;
}
