/*
 * trf.c — the TRF reader (see trf.h; the writer is trf_write.c).  The text
 * is read in two passes over its lines: first the 001 player records (so
 * every id is known), then the other records, whose ids can then be checked
 * at once with their line numbers.  A final pass checks every game from both
 * sides and every player's points.  Work is linear in the size of the file.
 */
#include "trf.h"
#include "trf_field.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

enum { MAX_COLS = 4096 };

/* One line, with the byte offset of each character column. */
typedef struct Line {
    const char *s;
    size_t len;
    int no;                /* 1-based line number */
    int ncols;             /* characters on the line (trailing blanks kept) */
    int pos[MAX_COLS + 1]; /* pos[c] = byte offset of column c + 1; pos[ncols] = len */
} Line;

typedef struct Reader {
    Tournament *t;
    TrfError *err;
    int flags;
    bool seen_299;
    bool pab_given; /* a P / BBU / PAB value was given explicitly */
    bool unknown_given;
    int rounds_line; /* line of the 142 / XXR record */
    int rounds_col;
    Line line;
} Reader;

static int fail(Reader *r, int code, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(Reader *r, int code, int col, const char *fmt, ...)
{
    TrfError *e = r->err;
    e->code = code;
    e->line = r->line.no;
    e->column = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return code;
}

/* Fills r->line.pos; fails when the line has too many columns or a NUL. */
static int index_line(Reader *r)
{
    Line *l = &r->line;
    size_t i = 0;
    int c = 0;
    while (i < l->len) {
        if (c >= MAX_COLS)
            return fail(r, TRF_E_TOO_LARGE, c + 1, "line longer than %d characters", MAX_COLS);
        if (l->s[i] == '\0')
            return fail(r, TRF_E_SYNTAX, c + 1, "NUL byte in the file");
        l->pos[c++] = (int)i;
        i += (size_t)trf_field_char_len((const unsigned char *)l->s + i, l->len - i);
    }
    l->pos[c] = (int)l->len;
    l->ncols = c;
    return 0;
}

/* Character at 1-based column c, or ' ' beyond the end (a multibyte char reads as '?'). */
static char col_char(const Reader *r, int c)
{
    const Line *l = &r->line;
    if (c < 1 || c > l->ncols)
        return ' ';
    int a = l->pos[c - 1], b = l->pos[c];
    return b - a == 1 ? l->s[a] : '?';
}

/*
 * Copies columns c1..c2 (1-based, inclusive, clipped to the line) into buf
 * with leading and trailing blanks removed.  Returns the byte length.
 */
static size_t field(const Reader *r, int c1, int c2, char *buf, size_t cap)
{
    const Line *l = &r->line;
    if (c2 > l->ncols)
        c2 = l->ncols;
    if (c1 > c2) {
        buf[0] = '\0';
        return 0;
    }
    int a = l->pos[c1 - 1], b = l->pos[c2];
    while (a < b && (l->s[a] == ' ' || l->s[a] == '\t'))
        a++;
    while (b > a && (l->s[b - 1] == ' ' || l->s[b - 1] == '\t'))
        b--;
    size_t n = (size_t)(b - a);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, l->s + a, n);
    buf[n] = '\0';
    return n;
}

/* Copies src into dst of cap bytes, cutting it short if needed. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* True if columns c1..c2 are all blank (or beyond the end). */
static bool blank(const Reader *r, int c1, int c2)
{
    for (int c = c1; c <= c2; c++)
        if (col_char(r, c) != ' ')
            return false;
    return true;
}

/* Parses a whole non-negative decimal number; -1 if s is empty, -2 if malformed. */
static long parse_uint(const char *s)
{
    if (!*s)
        return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -2;
        if (v > 100000000)
            return -2;
        v = v * 10 + (*s - '0');
    }
    return v;
}

/*
 * Whether a value can be written back into a 4-column field ("99.5", or a
 * whole "1000").  Totals (001) and a game's or a bye's value (162) have 4
 * columns: a file with more could be read (or XXS and BBx could say it) but
 * never written again.
 */
static bool fits_points_field(TrnPoints p)
{
    return p >= 0 && (p / TRN_POINT <= 99 || (p % TRN_POINT == 0 && p / TRN_POINT <= 9999));
}

/* Parses points like "11.5", ".5", "3", "-1.0" into tenths.  Returns 0 or -1. */
static int parse_points(const char *s, TrnPoints *out)
{
    int sign = 1;
    if (*s == '-') {
        sign = -1;
        s++;
    }
    long whole = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9') {
        whole = whole * 10 + (*s++ - '0');
        if (++digits > 6)
            return -1;
    }
    int tenths = 0, frac = 0;
    if (*s == '.') {
        s++;
        for (; *s >= '0' && *s <= '9'; s++, frac++) {
            if (frac == 0)
                tenths = *s - '0';
            else if (*s != '0')
                return -1; /* finer than a tenth */
        }
    }
    if (*s || (digits == 0 && frac == 0))
        return -1;
    *out = (TrnPoints)(sign * (whole * TRN_POINT + tenths));
    return 0;
}

/* Reads the value of a header line: columns 5.. trimmed, into dst (TRN_TEXT_MAX). */
/* Header records whose value is free text kept as written (cols 5-). */
static const struct {
    char code[4];
    size_t offset;
} text_headers[] = {
    {"012", offsetof(Tournament, name)},          {"022", offsetof(Tournament, city)},
    {"032", offsetof(Tournament, federation)},    {"042", offsetof(Tournament, start_date)},
    {"052", offsetof(Tournament, end_date)},      {"092", offsetof(Tournament, type)},
    {"102", offsetof(Tournament, chief_arbiter)}, {"122", offsetof(Tournament, time_control)},
    {"192", offsetof(Tournament, system)},        {"202", offsetof(Tournament, tiebreaks)},
    {"212", offsetof(Tournament, standings)},     {"222", offsetof(Tournament, encoded_tc)},
};

static int header_text(Reader *r, char *dst)
{
    char buf[MAX_COLS * 4 + 1];
    size_t n = field(r, 5, r->line.ncols, buf, sizeof buf);
    if (n >= TRN_TEXT_MAX)
        return fail(r, TRF_E_TOO_LARGE, 5, "value longer than %d bytes", TRN_TEXT_MAX - 1);
    memcpy(dst, buf, n + 1);
    return 0;
}

/* Reads a 4-column id at column c: 1..9999.  *id = 0 when blank and allow_zero. */
static int read_id(Reader *r, int c, int width, bool allow_zero, int *id, const char *what)
{
    char buf[32];
    field(r, c, c + width - 1, buf, sizeof buf);
    long v = parse_uint(buf);
    if (v == -2)
        return fail(r, TRF_E_SYNTAX, c, "%s '%s' is not a number", what, buf);
    if (v == -1 || v == 0) {
        if (!allow_zero)
            return fail(r, TRF_E_RANGE, c, "%s missing", what);
        *id = 0;
        return 0;
    }
    if (v > TRN_MAX_PLAYERS)
        return fail(r, TRF_E_RANGE, c, "%s %ld is above %d", what, v, TRN_MAX_PLAYERS);
    *id = (int)v;
    return 0;
}

static int read_round(Reader *r, int c, int width, int *round)
{
    char buf[32];
    field(r, c, c + width - 1, buf, sizeof buf);
    long v = parse_uint(buf);
    if (v < 0)
        return fail(r, TRF_E_SYNTAX, c, "round number '%s' is not a number", buf);
    if (v < 1 || v > TRN_MAX_ROUNDS)
        return fail(r, TRF_E_RANGE, c, "round %ld is not in 1..%d", v, TRN_MAX_ROUNDS);
    *round = (int)v;
    return 0;
}

static int need_blank(Reader *r, int c, const char *after)
{
    if (col_char(r, c) != ' ')
        return fail(r, TRF_E_SYNTAX, c, "expected a blank after %s (columns out of place?)", after);
    return 0;
}

/* ---- 001 ---- */

static bool valid_title(const char *s)
{
    static const char *const titles[] = {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "g",
                                         "i",  "f",  "wg",  "wi", "wf",  "c",  "wc",  "m",   "wm"};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strcasecmp(s, titles[i]) == 0)
            return true;
    return false;
}

static int read_player(Reader *r)
{
    Tournament *t = r->t;
    int rc, id;
    if ((rc = need_blank(r, 4, "001")))
        return rc;
    if ((rc = read_id(r, 5, 4, false, &id, "start rank")))
        return rc;
    if (tournament_player(t, id)) {
        const TrnPlayer *o = tournament_player(t, id);
        return fail(r, TRF_E_DUPLICATE, 5, "start rank %d already used on line %d", id, o->line);
    }
    if (t->n_players >= TRN_MAX_PLAYERS)
        return fail(r, TRF_E_TOO_LARGE, 1, "more than %d players", TRN_MAX_PLAYERS);
    static const struct {
        int col;
        const char *after;
    } seps[] = {
        {9, "the start rank"},  {14, "the title"},   {48, "the name"},       {53, "the rating"},
        {57, "the federation"}, {69, "the FIDE id"}, {80, "the birth date"}, {85, "the points"},
        {90, "the rank"},       {91, "the rank"},
    };
    for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++)
        if ((rc = need_blank(r, seps[i].col, seps[i].after)))
            return rc;

    TrnPlayer *p = tournament_add_player(t, id);
    if (!p)
        return -ENOMEM;
    p->line = r->line.no;
    char buf[MAX_COLS * 4 + 1];

    /* m or w by the format; other letters (f, u) occur in the wild and carry
     * nothing the model uses, so any letter is kept as written. */
    char sex = col_char(r, 10);
    if (sex >= 'A' && sex <= 'Z')
        sex = (char)(sex - 'A' + 'a');
    if (sex != ' ' && (sex < 'a' || sex > 'z'))
        return fail(r, TRF_E_SYNTAX, 10, "sex '%c' is not m or w", sex);
    p->sex = sex == ' ' ? '\0' : sex;

    field(r, 11, 13, buf, sizeof buf);
    if (buf[0] && !valid_title(buf))
        return fail(r, TRF_E_SYNTAX, 11, "unknown title '%s'", buf);
    copy_str(p->title, sizeof p->title, buf);

    size_t n = field(r, 15, 47, buf, sizeof buf);
    if (n >= sizeof p->name)
        n = sizeof p->name - 1;
    memcpy(p->name, buf, n);
    p->name[n] = '\0';

    field(r, 49, 52, buf, sizeof buf);
    long v = parse_uint(buf);
    if (v == -2)
        return fail(r, TRF_E_SYNTAX, 49, "rating '%s' is not a number", buf);
    p->rating = v < 0 ? 0 : (int)v;

    field(r, 54, 56, buf, sizeof buf);
    copy_str(p->federation, sizeof p->federation, buf);

    field(r, 58, 68, buf, sizeof buf);
    if (strspn(buf, "0123456789") != strlen(buf))
        return fail(r, TRF_E_SYNTAX, 58, "FIDE id '%s' is not a number", buf);
    copy_str(p->fide_id, sizeof p->fide_id, buf);

    field(r, 70, 79, buf, sizeof buf);
    for (const char *s = buf; *s; s++)
        if (!strchr("0123456789/.- ", *s))
            return fail(r, TRF_E_SYNTAX, 70, "birth date '%s' is not YYYY/MM/DD", buf);
    copy_str(p->birth, sizeof p->birth, buf);

    field(r, 81, 84, buf, sizeof buf);
    if (buf[0]) {
        if (parse_points(buf, &p->points) || p->points < 0)
            return fail(r, TRF_E_SYNTAX, 81, "points '%s' are not a number like 11.5", buf);
    } else {
        p->points = -1; /* filled in from the results after reading */
    }

    field(r, 86, 89, buf, sizeof buf);
    v = parse_uint(buf);
    if (v == -2)
        return fail(r, TRF_E_SYNTAX, 86, "rank '%s' is not a number", buf);
    p->rank = v < 0 ? 0 : (int)v;

    /* Round columns: 10 per round from column 92. */
    int last = 0;
    for (int k = 1;; k++) {
        int base = 92 + 10 * (k - 1);
        if (base > r->line.ncols)
            break;
        if (k > TRN_MAX_ROUNDS)
            return fail(r, TRF_E_TOO_LARGE, base, "more than %d rounds", TRN_MAX_ROUNDS);
        if (k > 1 && (rc = need_blank(r, base - 1, "the previous round")))
            return rc;
        if ((rc = need_blank(r, base + 4, "the opponent")) ||
            (rc = need_blank(r, base + 6, "the colour")))
            return rc;
        if (!blank(r, base + 8, base + 8))
            return fail(r, TRF_E_SYNTAX, base + 8,
                        "expected a blank after the result "
                        "(columns out of place?)");
        TrnGame *g = &p->games[k - 1];
        int opp = 0;
        if ((rc = read_id(r, base, 4, true, &opp, "opponent")))
            return rc;
        if (opp == id)
            return fail(r, TRF_E_OPPONENT, base, "player %d is paired with themself in round %d",
                        id, k);
        g->opponent = (uint16_t)opp;
        char c = col_char(r, base + 5);
        if (c == 'w' || c == 'W')
            g->colour = TRN_WHITE;
        else if (c == 'b' || c == 'B')
            g->colour = TRN_BLACK;
        else if (c == '-' || c == ' ')
            g->colour = TRN_COLOUR_NONE;
        else
            return fail(r, TRF_E_SYNTAX, base + 5, "colour '%c' is not w, b or -", c);
        char res = col_char(r, base + 7);
        if (res >= 'a' && res <= 'z')
            res = (char)(res - 'a' + 'A');
        if (res == ' ')
            res = TRN_RES_NONE;
        else if (!strchr("10=+-WDLHFUZ", res))
            return fail(r, TRF_E_SYNTAX, base + 7,
                        "result '%c' is not one of 1 0 = + - W D L H F U Z", res);
        g->result = res;
        if (tournament_result_is_played(res) && (!opp || g->colour == TRN_COLOUR_NONE))
            return fail(r, TRF_E_SYNTAX, base + 7,
                        "round %d: a game result needs an opponent and a colour", k);
        if (res && strchr("HFUZ", res) && opp)
            return fail(r, TRF_E_SYNTAX, base + 7, "round %d: a bye ('%c') cannot have an opponent",
                        k, res);
        if (!opp && g->colour != TRN_COLOUR_NONE)
            return fail(r, TRF_E_SYNTAX, base + 5, "round %d: a colour without an opponent", k);
        if (opp || g->colour || res)
            last = k;
    }
    p->rounds = last;
    if (last > t->rounds_played)
        t->rounds_played = last;
    return 0;
}

/* ---- point systems ---- */

/* The points of a win ('W' in the 162 and BBW records): over the board,
 * by forfeit and the full-point bye, and the pairing-allocated bye as long
 * as no record gave that one on its own. */
static void set_win(Reader *r, TrnPoints v)
{
    TrnPointSystem *ps = &r->t->points;
    ps->win_white = ps->win_black = ps->forfeit_win = ps->fpb = v;
    if (!r->pab_given)
        ps->pab = v;
}

static int read_162(Reader *r)
{
    TrnPointSystem *ps = &r->t->points;
    char buf[32];
    int c;
    for (c = 6; c <= r->line.ncols; c += 9) {
        char code = col_char(r, c);
        if (code == ' ' && blank(r, c, c + 4))
            continue;
        field(r, c + 1, c + 4, buf, sizeof buf);
        TrnPoints v;
        if (parse_points(buf, &v) || !fits_points_field(v))
            return fail(r, TRF_E_SYNTAX, c + 1,
                        "points '%s' for '%c' are not a number of 0 to 99.9 or a whole one "
                        "to 9999",
                        buf, code);
        switch (code) {
        case 'W': set_win(r, v); break;
        case 'D':
            ps->draw_white = ps->draw_black = ps->hpb = v;
            if (!r->unknown_given)
                ps->unknown = v;
            break;
        case 'L': ps->loss_white = ps->loss_black = v; break;
        case 'A': ps->zpb = ps->forfeit_loss = v; break;
        case 'P':
            ps->pab = v;
            r->pab_given = true;
            break;
        case 'X':
            ps->unknown = v;
            r->unknown_given = true;
            break;
        default: return fail(r, TRF_E_SYNTAX, c, "point code '%c' is not W, D, L, A, P or X", code);
        }
        if (!blank(r, c + 5, c + 8) && c + 5 <= r->line.ncols)
            return fail(r, TRF_E_SYNTAX, c + 5, "expected blanks between point codes");
    }
    r->t->points_given = true;
    return 0;
}

static int read_bb(Reader *r, char which)
{
    TrnPointSystem *ps = &r->t->points;
    char buf[64];
    field(r, 4, r->line.ncols, buf, sizeof buf);
    TrnPoints v;
    if (parse_points(buf, &v) || !fits_points_field(v))
        return fail(r, TRF_E_SYNTAX, 5,
                    "points '%s' are not a number of 0 to 99.9 or a whole one to 9999", buf);
    switch (which) {
    case 'W': set_win(r, v); break;
    case 'D': ps->draw_white = ps->draw_black = ps->hpb = ps->unknown = v; break;
    case 'L': ps->loss_white = ps->loss_black = v; break;
    case 'Z': ps->zpb = v; break;
    case 'F': ps->forfeit_loss = v; break;
    case 'U':
        ps->pab = v;
        r->pab_given = true;
        break;
    }
    r->t->points_given = true;
    return 0;
}

static int read_xxs(Reader *r)
{
    TrnPointSystem *ps = &r->t->points;
    const Line *l = &r->line;
    int c = 4;
    while (c < l->ncols) {
        while (c < l->ncols && (col_char(r, c + 1) == ' ' || col_char(r, c + 1) == '\t'))
            c++;
        if (c >= l->ncols)
            break;
        int start = c + 1, end = start;
        while (end < l->ncols && col_char(r, end + 1) != ' ' && col_char(r, end + 1) != '\t')
            end++;
        char tok[64];
        field(r, start, end, tok, sizeof tok);
        c = end;
        char *eq = strchr(tok, '=');
        if (!eq)
            return fail(r, TRF_E_SYNTAX, start, "'%s' is not CODE=VALUE", tok);
        *eq = '\0';
        TrnPoints v;
        if (parse_points(eq + 1, &v) || !fits_points_field(v))
            return fail(r, TRF_E_SYNTAX, start,
                        "value '%s' is not a number of 0 to 99.9 or a whole one to 9999", eq + 1);
        static const struct {
            const char *code;
            size_t off;
        } map[] = {
            {"WW", offsetof(TrnPointSystem, win_white)},
            {"BW", offsetof(TrnPointSystem, win_black)},
            {"WD", offsetof(TrnPointSystem, draw_white)},
            {"BD", offsetof(TrnPointSystem, draw_black)},
            {"WL", offsetof(TrnPointSystem, loss_white)},
            {"BL", offsetof(TrnPointSystem, loss_black)},
            {"ZPB", offsetof(TrnPointSystem, zpb)},
            {"HPB", offsetof(TrnPointSystem, hpb)},
            {"FPB", offsetof(TrnPointSystem, fpb)},
            {"PAB", offsetof(TrnPointSystem, pab)},
            {"FW", offsetof(TrnPointSystem, forfeit_win)},
            {"FL", offsetof(TrnPointSystem, forfeit_loss)},
        };
        if (strcasecmp(tok, "W") == 0) {
            ps->win_white = ps->win_black = ps->forfeit_win = ps->fpb = v;
        } else if (strcasecmp(tok, "D") == 0) {
            ps->draw_white = ps->draw_black = ps->hpb = v;
        } else {
            size_t i;
            for (i = 0; i < sizeof map / sizeof map[0]; i++)
                if (strcasecmp(tok, map[i].code) == 0)
                    break;
            if (i == sizeof map / sizeof map[0])
                return fail(r, TRF_E_SYNTAX, start, "unknown XXS code '%s'", tok);
            *(TrnPoints *)((char *)ps + map[i].off) = v;
        }
    }
    r->t->points_given = true;
    return 0;
}

/* ---- other records ---- */

/* Reads ids at columns first, first + step, ... to the end of the line into ids. */
static int read_id_list(Reader *r, int first, int step, int *ids, int *n)
{
    int rc;
    *n = 0;
    for (int c = first; c <= r->line.ncols; c += step) {
        if (blank(r, c, c + step - 1))
            continue;
        if (!blank(r, c + 4, c + step - 1))
            return fail(r, TRF_E_SYNTAX, c + 4, "ids must sit in %d-column fields", step);
        int id;
        if ((rc = read_id(r, c, 4, false, &id, "player id")))
            return rc;
        if (!tournament_player(r->t, id))
            return fail(r, TRF_E_OPPONENT, c, "no player with start rank %d", id);
        ids[(*n)++] = id;
    }
    return 0;
}

/* Whitespace-separated ids from column 4 on (XXP, XXZ). */
static int read_id_tokens(Reader *r, int *ids, int *n)
{
    *n = 0;
    int c = 4;
    while (c < r->line.ncols) {
        if (col_char(r, c + 1) == ' ' || col_char(r, c + 1) == '\t') {
            c++;
            continue;
        }
        int start = c + 1, end = start;
        while (end < r->line.ncols && col_char(r, end + 1) != ' ' && col_char(r, end + 1) != '\t')
            end++;
        char tok[32];
        field(r, start, end < start + 30 ? end : start + 30, tok, sizeof tok);
        long v = parse_uint(tok);
        if (v < 0 || end - start > 6)
            return fail(r, TRF_E_SYNTAX, start, "'%s' is not a player id", tok);
        if (!tournament_player(r->t, (int)v))
            return fail(r, TRF_E_OPPONENT, start, "no player with start rank %ld", v);
        ids[(*n)++] = (int)v;
        c = end;
    }
    return 0;
}

static int read_240(Reader *r, int *ids)
{
    int rc, round, n;
    char type = col_char(r, 5);
    if (type >= 'a' && type <= 'z')
        type = (char)(type - 'a' + 'A');
    if (type != 'F' && type != 'H' && type != 'Z')
        return fail(r, TRF_E_SYNTAX, 5, "bye type '%c' is not F, H or Z", type);
    if ((rc = need_blank(r, 6, "the bye type")) || (rc = read_round(r, 7, 3, &round)) ||
        (rc = need_blank(r, 10, "the round")) || (rc = read_id_list(r, 11, 5, ids, &n)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = tournament_add_bye(r->t, (TrnBye){type, round, ids[i], false})))
            return rc;
    return 0;
}

static int read_250(Reader *r)
{
    char buf[32];
    int rc;
    TrnAccel a = {0};
    field(r, 5, 8, buf, sizeof buf);
    if (buf[0] && parse_points(buf, &a.match_points))
        return fail(r, TRF_E_SYNTAX, 5, "match points '%s' are not a number", buf);
    field(r, 10, 13, buf, sizeof buf);
    if (buf[0] && parse_points(buf, &a.points))
        return fail(r, TRF_E_SYNTAX, 10, "fictitious points '%s' are not a number", buf);
    if ((rc = read_round(r, 15, 3, &a.first_round)) || (rc = read_round(r, 19, 3, &a.last_round)))
        return rc;
    if (a.last_round < a.first_round)
        return fail(r, TRF_E_RANGE, 19, "last round %d is before first round %d", a.last_round,
                    a.first_round);
    if ((rc = read_id(r, 23, 4, false, &a.first_player, "first player")) ||
        (rc = read_id(r, 28, 4, false, &a.last_player, "last player")))
        return rc;
    if (a.last_player < a.first_player)
        return fail(r, TRF_E_RANGE, 28, "last player %d is before first player %d", a.last_player,
                    a.first_player);
    if (!blank(r, 32, r->line.ncols))
        return fail(r, TRF_E_SYNTAX, 32, "unexpected text after the player range");
    return tournament_add_accel(r->t, a);
}

static int read_260(Reader *r, int *ids)
{
    int rc, first, last, n;
    if ((rc = read_round(r, 5, 3, &first)) || (rc = read_round(r, 9, 3, &last)))
        return rc;
    if (last < first)
        return fail(r, TRF_E_RANGE, 9, "last round %d is before first round %d", last, first);
    if ((rc = read_id_list(r, 13, 5, ids, &n)))
        return rc;
    if (n < 2)
        return fail(r, TRF_E_SYNTAX, 13, "a forbidden pairing needs at least two players");
    return tournament_add_forbidden(r->t, first, last, false, ids, n);
}

static int read_xxa(Reader *r)
{
    int rc, id;
    if ((rc = read_id(r, 5, 4, false, &id, "player id")))
        return rc;
    TrnPlayer *p = tournament_player_mut(r->t, id);
    if (!p)
        return fail(r, TRF_E_OPPONENT, 5, "no player with start rank %d", id);
    p->has_accel = true;
    char buf[32];
    for (int k = 1, c = 10; c <= r->line.ncols; k++, c += 5) {
        if (k > TRN_MAX_ROUNDS)
            return fail(r, TRF_E_TOO_LARGE, c, "more than %d rounds", TRN_MAX_ROUNDS);
        if ((rc = need_blank(r, c - 1, "the previous value")))
            return rc;
        field(r, c, c + 3, buf, sizeof buf);
        if (buf[0] && parse_points(buf, &p->accel[k - 1]))
            return fail(r, TRF_E_SYNTAX, c, "fictitious points '%s' are not a number", buf);
    }
    return 0;
}

static int read_xxc(Reader *r)
{
    char buf[MAX_COLS * 4 + 1];
    field(r, 4, r->line.ncols, buf, sizeof buf);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (strcmp(tok, "rank") == 0)
            r->t->pair_by_rank = true;
        else if (strcmp(tok, "white1") == 0)
            r->t->initial_colour = TRN_WHITE;
        else if (strcmp(tok, "black1") == 0)
            r->t->initial_colour = TRN_BLACK;
        else
            return fail(r, TRF_E_SYNTAX, 5, "XXC option '%s' is not rank, white1 or black1", tok);
    }
    return 0;
}

static int read_rounds_count(Reader *r, int col)
{
    char buf[64];
    field(r, col, r->line.ncols, buf, sizeof buf);
    long v = parse_uint(buf);
    if (v < 0)
        return fail(r, TRF_E_SYNTAX, col, "number of rounds '%s' is not a number", buf);
    if (v < 1 || v > TRN_MAX_ROUNDS)
        return fail(r, TRF_E_RANGE, col, "number of rounds %ld is not in 1..%d", v, TRN_MAX_ROUNDS);
    r->t->n_rounds = (int)v;
    r->rounds_line = r->line.no;
    r->rounds_col = col;
    return 0;
}

static int read_132(Reader *r)
{
    Tournament *t = r->t;
    char buf[32];
    t->n_round_dates = 0;
    for (int k = 1, c = 92; c <= r->line.ncols; k++, c += 10) {
        if (k > TRN_MAX_ROUNDS)
            return fail(r, TRF_E_TOO_LARGE, c, "more than %d round dates", TRN_MAX_ROUNDS);
        field(r, c, c + 7, buf, sizeof buf);
        copy_str(t->round_dates[k - 1], sizeof t->round_dates[k - 1], buf);
        if (buf[0])
            t->n_round_dates = k;
    }
    return 0;
}

/* Keeps the current line as written, without its end of line. */
static int keep_line(Reader *r)
{
    char *copy = malloc(r->line.len + 1);
    if (!copy)
        return -ENOMEM;
    memcpy(copy, r->line.s, r->line.len);
    copy[r->line.len] = '\0';
    int rc = tournament_add_other(r->t, copy);
    free(copy);
    return rc;
}

static int read_other_record(Reader *r, int *ids)
{
    Tournament *t = r->t;
    char code[4];
    field(r, 1, 3, code, sizeof code);
    int rc, n;
    for (size_t i = 0; i < sizeof text_headers / sizeof text_headers[0]; i++)
        if (strcmp(code, text_headers[i].code) == 0)
            return header_text(r, (char *)t + text_headers[i].offset);
    if (strcmp(code, "062") == 0 || strcmp(code, "072") == 0) {
        char buf[64];
        field(r, 5, r->line.ncols, buf, sizeof buf);
        long v = parse_uint(buf);
        if (v == -2)
            return fail(r, TRF_E_SYNTAX, 5, "'%s' is not a number", buf);
        *(code[1] == '6' ? &t->declared_players : &t->declared_rated) = (int)v;
        return 0;
    }
    if (strcmp(code, "132") == 0)
        return read_132(r);
    if (strcmp(code, "142") == 0)
        return read_rounds_count(r, 5);
    if (strcmp(code, "XXR") == 0)
        return read_rounds_count(r, 4);
    if (strcmp(code, "152") == 0) {
        char buf[16];
        field(r, 5, r->line.ncols, buf, sizeof buf);
        if (strcasecmp(buf, "W") == 0)
            t->initial_colour = TRN_WHITE;
        else if (strcasecmp(buf, "B") == 0)
            t->initial_colour = TRN_BLACK;
        else
            return fail(r, TRF_E_SYNTAX, 5, "initial colour '%s' is not W or B", buf);
        return 0;
    }
    if (strcmp(code, "XXC") == 0)
        return read_xxc(r);
    if (strcmp(code, "162") == 0)
        return read_162(r);
    if (strcmp(code, "XXS") == 0)
        return read_xxs(r);
    if (code[0] == 'B' && code[1] == 'B' && code[2] && strchr("WDLZFU", code[2]))
        return read_bb(r, code[2]);
    if (strcmp(code, "240") == 0)
        return read_240(r, ids);
    if (strcmp(code, "250") == 0)
        return read_250(r);
    if (strcmp(code, "260") == 0)
        return read_260(r, ids);
    if (strcmp(code, "XXA") == 0)
        return read_xxa(r);
    if (strcmp(code, "XXP") == 0) {
        if ((rc = read_id_tokens(r, ids, &n)))
            return rc;
        if (n < 2)
            return fail(r, TRF_E_SYNTAX, 5, "XXP needs at least two players");
        return tournament_add_forbidden(t, 1, TRN_MAX_ROUNDS, true, ids, n);
    }
    if (strcmp(code, "XXZ") == 0) {
        if ((rc = read_id_tokens(r, ids, &n)))
            return rc;
        for (int i = 0; i < n; i++)
            if ((rc = tournament_add_bye(t, (TrnBye){'Z', 0, ids[i], true})))
                return rc;
        return 0;
    }
    if (strcmp(code, "299") == 0)
        r->seen_299 = true;
    return keep_line(r);
}

/* ---- whole file ---- */

/*
 * Results two sides of one game may carry.  Each side has its own score:
 * both can lose and a penalty can leave 1/2-0 (Laws 11.8, 12.9), so any
 * two over-the-board results of one kind (rated 1 = 0, unrated W D L) go
 * together; the totals are checked per player.  Forfeits pair + with -,
 * - with - when neither came, and + with + when the arbiter gave both the
 * point (the server stores +/+ and reports it so).
 */
static bool results_agree(char a, char b)
{
    static const char *const pairs[] = {"+-", "-+", "--", "++"};
    if (!a || !b)
        return !a && !b;
    if (tournament_result_is_rated(a) && tournament_result_is_rated(b))
        return true;
    if (strchr("WDL", a) && strchr("WDL", b))
        return true;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == a && pairs[i][1] == b)
            return true;
    return false;
}

static int check_games(Reader *r)
{
    Tournament *t = r->t;
    char pa[16], pb[16];
    for (int i = 0; i < t->n_players; i++) {
        TrnPlayer *p = &t->players[i];
        r->line.no = p->line;
        for (int k = 1; k <= p->rounds; k++) {
            const TrnGame *g = &p->games[k - 1];
            int col = 92 + 10 * (k - 1);
            if (!g->opponent)
                continue;
            const TrnPlayer *o = tournament_player(t, g->opponent);
            if (!o)
                return fail(r, TRF_E_OPPONENT, col, "round %d: no player with start rank %d", k,
                            g->opponent);
            const TrnGame *h = &o->games[k - 1];
            if (h->opponent != p->id)
                return fail(r, TRF_E_OPPONENT, col,
                            "round %d: opponent %d lists %s%d there (line %d)", k, o->id,
                            h->opponent ? "opponent " : "no opponent", h->opponent, o->line);
            if (g->colour && h->colour == g->colour)
                return fail(r, TRF_E_OPPONENT, col + 5, "round %d: both %d and %d have %s", k,
                            p->id, o->id, g->colour == TRN_WHITE ? "white" : "black");
            if ((g->colour == TRN_COLOUR_NONE) != (h->colour == TRN_COLOUR_NONE))
                return fail(r, TRF_E_OPPONENT, col + 5,
                            "round %d: only one of %d and %d has a colour", k, p->id, o->id);
            if (!results_agree(g->result, h->result))
                return fail(r, TRF_E_OPPONENT, col + 7,
                            "round %d: result '%c' of %d does not match '%c' of %d (line %d)", k,
                            g->result ? g->result : ' ', p->id, h->result ? h->result : ' ', o->id,
                            o->line);
        }
        TrnPoints sum = tournament_player_score(t, p, p->rounds);
        if (p->points < 0) {
            if (!fits_points_field(sum)) {
                trf_field_format_points(sum, pb);
                return fail(r, TRF_E_RANGE, 81,
                            "player %d: the results add up to %s points, more than the "
                            "4-column points field can hold",
                            p->id, pb);
            }
            p->points = sum;
        } else if (sum != p->points && !r->seen_299 && !(r->flags & TRF_READ_NO_POINTS_CHECK)) {
            trf_field_format_points(p->points, pa);
            trf_field_format_points(sum, pb);
            return fail(r, TRF_E_POINTS, 81,
                        "player %d has %s points but the results add up to %s%s", p->id, pa, pb,
                        t->points_given ? "" : " (no 162/XXS line: 1, 0.5, 0 assumed)");
        }
    }
    if (t->n_rounds && t->rounds_played > t->n_rounds) {
        r->line.no = r->rounds_line;
        return fail(r, TRF_E_RANGE, r->rounds_col,
                    "%d rounds, but the players' lines go to round %d", t->n_rounds,
                    t->rounds_played);
    }
    return 0;
}

/* A record code: three ASCII letters or digits (001, XXR, NRS federations). */
static bool is_code(const Reader *r)
{
    for (int c = 1; c <= 3; c++) {
        char ch = col_char(r, c);
        if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')))
            return false;
    }
    return true;
}

/* Calls fn for each line of text; a line ends at CR, LF or CRLF. */
static int each_line(Reader *r, const char *text, size_t len, int pass)
{
    int *ids = malloc((MAX_COLS / 2 + 1) * sizeof *ids);
    if (!ids)
        return -ENOMEM;
    int rc = 0;
    size_t i = 0;
    int no = 0;
    while (i < len && rc == 0) {
        size_t j = i;
        while (j < len && text[j] != '\r' && text[j] != '\n')
            j++;
        no++;
        Line *l = &r->line;
        l->s = text + i;
        l->len = j - i;
        l->no = no;
        /* Next line: skip one CR, LF or CRLF. */
        if (j < len && text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
            i = j + 2;
        else
            i = j + 1;
        while (l->len > 0 && (l->s[l->len - 1] == ' ' || l->s[l->len - 1] == '\t'))
            l->len--; /* trailing blanks carry nothing */
        if (no == 1 && l->len >= 3 && memcmp(l->s, "\xEF\xBB\xBF", 3) == 0) {
            l->s += 3; /* UTF-8 byte order mark */
            l->len -= 3;
        }
        if ((rc = index_line(r)))
            break;
        if (blank(r, 1, l->ncols))
            continue;
        bool is_player = l->ncols >= 3 && memcmp(l->s, "001", 3) == 0;
        if (pass == 0) {
            if (!is_player)
                continue;
            if (l->ncols < 8)
                rc = fail(r, TRF_E_SYNTAX, l->ncols + 1, "001 record ends before the start rank");
            else
                rc = read_player(r);
            continue;
        }
        if (is_player)
            continue;
        if (l->ncols >= 3 && memcmp(l->s, "###", 3) == 0)
            rc = keep_line(r);
        else if (l->ncols < 3 || col_char(r, 4) != ' ' || !is_code(r))
            rc = fail(r, TRF_E_SYNTAX, l->ncols < 3 ? 1 : 4,
                      "not a TRF record (three-character code and a blank expected)");
        else
            rc = read_other_record(r, ids);
    }
    free(ids);
    return rc;
}

static int bye_cmp(const void *pa, const void *pb)
{
    const TrnBye *a = pa, *b = pb;
    if (a->xxz != b->xxz)
        return a->xxz ? 1 : -1;
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    return (a->player > b->player) - (a->player < b->player);
}

/* Byes are a set: the same bye may be listed twice and in any order
 * (240 lines, XXZ lines, repeated).  One canonical order, without
 * repeats, makes an import written out and read again the same
 * tournament. */
static void canonical_byes(Tournament *t)
{
    if (t->n_byes < 2)
        return;
    qsort(t->byes, (size_t)t->n_byes, sizeof *t->byes, bye_cmp);
    int n = 1;
    for (int i = 1; i < t->n_byes; i++)
        if (bye_cmp(&t->byes[i], &t->byes[n - 1]) != 0)
            t->byes[n++] = t->byes[i];
    t->n_byes = n;
}

int trf_read(const char *text, size_t len, int flags, Tournament **out, TrfError *err)
{
    TrfError dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    *out = NULL;
    Reader *r = malloc(sizeof *r);
    if (!r)
        return -ENOMEM;
    memset(r, 0, offsetof(Reader, line));
    r->err = err;
    r->flags = flags;
    r->t = tournament_new();
    int rc = -ENOMEM;
    if (!r->t)
        goto fail;
    if ((rc = each_line(r, text, len, 0)) || (rc = each_line(r, text, len, 1)))
        goto fail;
    if (r->t->n_players == 0) {
        r->line.no = 0;
        rc = fail(r, TRF_E_EMPTY, 0, "no player (001) records");
        goto fail;
    }
    /* X (unknown result) defaults to the draw, whatever set the draw. */
    if (!r->unknown_given)
        r->t->points.unknown = r->t->points.draw_white;
    canonical_byes(r->t);
    if ((rc = check_games(r)))
        goto fail;
    *out = r->t;
    free(r);
    return 0;
fail:
    if (rc < 0) {
        err->code = rc;
        snprintf(err->message, sizeof err->message, "out of memory");
    }
    tournament_free(r->t);
    free(r);
    return rc;
}
