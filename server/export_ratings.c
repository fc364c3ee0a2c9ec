/*
 * export_ratings.c — rating-change list, norm list and norm certificate as
 * HTML or CSV.  See export_ratings.h.  The words come from the embedded
 * translation files, parsed once at first use and kept for the process.
 */
#include "export_ratings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ratings_json.h"
#include "strbuf.h"

/* The pages' translation files, embedded by embed_file (server/meson.build). */
extern const unsigned char i18n_en_json[], i18n_ru_json[], i18n_bg_json[];
extern const size_t i18n_en_json_len, i18n_ru_json_len, i18n_bg_json_len;

typedef enum Word {
    W_RATINGS,
    W_NORMS,
    W_AFTER,
    W_NO,
    W_NAME,
    W_TITLE,
    W_FED,
    W_RTG,
    W_K,
    W_GAMES,
    W_SCORE,
    W_EXPECTED,
    W_CHANGE,
    W_NEW,
    W_FIRST,
    W_NO_FIRST,
    W_STANDARD,
    W_RAPID,
    W_BLITZ,
    W_LEGEND_RATINGS,
    W_NORM,
    W_AVERAGE,
    W_PERFORMANCE,
    W_TITLED,
    W_HOLDERS,
    W_UNRATED,
    W_FEDS,
    W_STATUS,
    W_MADE,
    W_POSSIBLE,
    W_NONE,
    W_NEED,
    W_SWISS,
    W_LEGEND_NORMS,
    W_CERT,
    W_EVENT,
    W_PLACE,
    W_DATES,
    W_HOST,
    W_CHIEF,
    W_DEPUTY,
    W_PLAYER,
    W_FIDE_ID,
    W_BIRTH,
    W_ROUND,
    W_OPPONENT,
    W_RESULT,
    W_RAISED,
    W_DROPPED,
    W_SIGNATURE,
    W_DATE,
    W_COUNT
} Word;

/* The key of each word in web/i18n/<lang>.json; the list columns shared
 * with the other printables keep their keys. */
static const char *const WORD_KEYS[W_COUNT] = {
    [W_RATINGS] = "view.ratings",
    [W_NORMS] = "view.norms",
    [W_AFTER] = "print.after",
    [W_NO] = "print.no",
    [W_NAME] = "print.name",
    [W_TITLE] = "print.title",
    [W_FED] = "print.federation",
    [W_RTG] = "print.rating",
    [W_K] = "print.k",
    [W_GAMES] = "print.rated_games",
    [W_SCORE] = "print.score",
    [W_EXPECTED] = "print.expected",
    [W_CHANGE] = "print.change",
    [W_NEW] = "print.new_rating",
    [W_FIRST] = "print.first_rating",
    [W_NO_FIRST] = "print.no_first_rating",
    [W_STANDARD] = "print.kind_standard",
    [W_RAPID] = "print.kind_rapid",
    [W_BLITZ] = "print.kind_blitz",
    [W_LEGEND_RATINGS] = "print.legend_ratings",
    [W_NORM] = "print.norm",
    [W_AVERAGE] = "print.average",
    [W_PERFORMANCE] = "print.performance",
    [W_TITLED] = "print.titled",
    [W_HOLDERS] = "print.title_holders",
    [W_UNRATED] = "print.unrated",
    [W_FEDS] = "print.other_federations",
    [W_STATUS] = "print.norm_status",
    [W_MADE] = "print.norm_made",
    [W_POSSIBLE] = "print.norm_possible",
    [W_NONE] = "print.norm_none",
    [W_NEED] = "print.norm_need",
    [W_SWISS] = "print.swiss_exception",
    [W_LEGEND_NORMS] = "print.legend_norms",
    [W_CERT] = "print.certificate",
    [W_EVENT] = "print.event",
    [W_PLACE] = "print.place",
    [W_DATES] = "print.dates",
    [W_HOST] = "print.host_federation",
    [W_CHIEF] = "print.chief_arbiter",
    [W_DEPUTY] = "print.deputy_arbiter",
    [W_PLAYER] = "print.player",
    [W_FIDE_ID] = "print.fide_id",
    [W_BIRTH] = "print.birth",
    [W_ROUND] = "print.round",
    [W_OPPONENT] = "print.opponent",
    [W_RESULT] = "view.result",
    [W_RAISED] = "print.raised",
    [W_DROPPED] = "print.dropped",
    [W_SIGNATURE] = "print.signature",
    [W_DATE] = "print.date",
};

static json_t *word_docs[EXPORT_LANGS];
static const char *words[EXPORT_LANGS][W_COUNT];
static pthread_once_t words_once = PTHREAD_ONCE_INIT;

/* English first, so a word another language lacks can fall back to it;
 * a key English lacks prints as itself. */
static void words_load(void)
{
    static const unsigned char *const files[EXPORT_LANGS] = {i18n_en_json, i18n_ru_json,
                                                             i18n_bg_json};
    const size_t sizes[EXPORT_LANGS] = {i18n_en_json_len, i18n_ru_json_len, i18n_bg_json_len};
    for (int l = EXPORT_EN; l < EXPORT_LANGS; l++)
        word_docs[l] = json_loadb((const char *)files[l], sizes[l], 0, NULL);
    for (int w = 0; w < W_COUNT; w++) {
        const char *en = json_string_value(json_object_get(word_docs[EXPORT_EN], WORD_KEYS[w]));
        words[EXPORT_EN][w] = en ? en : WORD_KEYS[w];
        for (int l = EXPORT_EN + 1; l < EXPORT_LANGS; l++) {
            const char *s = json_string_value(json_object_get(word_docs[l], WORD_KEYS[w]));
            words[l][w] = s ? s : words[EXPORT_EN][w];
        }
    }
}

static const char *word(ExportLang lang, Word w)
{
    pthread_once(&words_once, words_load);
    return words[lang < EXPORT_LANGS ? lang : EXPORT_EN][w];
}

/* TEXT with {n} and {p} replaced by N and P, into OUT. */
static void fill(char *out, size_t cap, const char *text, const char *n, const char *p)
{
    size_t o = 0;
    while (*text && o + 1 < cap) {
        const char *v = strncmp(text, "{n}", 3) == 0 ? n : strncmp(text, "{p}", 3) == 0 ? p : NULL;
        if (v) {
            o += (size_t)snprintf(out + o, cap - o, "%s", v);
            o = o < cap ? o : cap - 1;
            text += 3;
        } else {
            out[o++] = *text++;
        }
    }
    out[o] = 0;
}

/* ---- the output: HTML table rows or CSV records ---- */

typedef struct Out {
    StrBuf b;
    ExportFormat format;
    ExportLang lang;
    int col; /* cells written in the current row */
} Out;

/* Text with the characters that matter in HTML as entities. */
static void esc(StrBuf *b, const char *s)
{
    for (; s && *s; s++) {
        const char *e = *s == '&'    ? "&amp;"
                        : *s == '<'  ? "&lt;"
                        : *s == '>'  ? "&gt;"
                        : *s == '"'  ? "&quot;"
                        : *s == '\'' ? "&#39;"
                                     : NULL;
        if (e)
            strbuf_puts(b, e);
        else
            strbuf_putc(b, *s);
    }
}

static void row_open(Out *o)
{
    o->col = 0;
    if (o->format == EXPORT_HTML)
        strbuf_puts(&o->b, "<tr>");
}

static void row_close(Out *o)
{
    strbuf_puts(&o->b, o->format == EXPORT_HTML ? "</tr>\n" : "\r\n");
}

/*
 * One cell: in HTML a th (HEAD) or td of class CLS (NULL: none); in CSV a
 * field, quoted per RFC 4180, with an apostrophe before text a spreadsheet
 * would run as a formula (= + - @ tab CR first) unless it is one of our
 * NUMBERs.
 */
static void cell_put(Out *o, int head, const char *cls, const char *text, int number)
{
    text = text ? text : "";
    if (o->format == EXPORT_HTML) {
        strbuf_appendf(&o->b, "<%s%s%s%s>", head ? "th" : "td", cls ? " class=\"" : "",
                       cls ? cls : "", cls ? "\"" : "");
        esc(&o->b, text);
        strbuf_appendf(&o->b, "</%s>", head ? "th" : "td");
    } else {
        if (o->col)
            strbuf_putc(&o->b, ',');
        int quote = strpbrk(text, ",\"\r\n") != NULL;
        if (quote)
            strbuf_putc(&o->b, '"');
        if (!number && text[0] && strchr("=+-@\t\r", text[0]))
            strbuf_putc(&o->b, '\'');
        for (const char *s = text; *s; s++)
            strbuf_puts(&o->b, *s == '"' ? "\"\"" : (char[2]){*s, 0});
        if (quote)
            strbuf_putc(&o->b, '"');
    }
    o->col++;
}

static void td(Out *o, const char *cls, const char *text)
{
    cell_put(o, 0, cls, text, 0);
}

static void tdn(Out *o, const char *text)
{
    cell_put(o, 0, "n", text, 1);
}

static void tdi(Out *o, long long v)
{
    char s[24];
    snprintf(s, sizeof s, "%lld", v);
    tdn(o, s);
}

/* A header cell: the page's word in HTML, the JSON's field name in CSV. */
static void th(Out *o, const char *cls, Word w, const char *field)
{
    cell_put(o, 1, cls, o->format == EXPORT_HTML ? word(o->lang, w) : field, 1);
}

static void page_open(Out *o, const Tournament *t, const char *what, const char *sub)
{
    static const char *const code[EXPORT_LANGS] = {"en", "ru", "bg"};
    if (o->format == EXPORT_CSV) {
        strbuf_puts(&o->b, "\xef\xbb\xbf");
        return;
    }
    strbuf_appendf(&o->b,
                   "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, "
                   "initial-scale=1\">\n<title>",
                   code[o->lang < EXPORT_LANGS ? o->lang : EXPORT_EN]);
    esc(&o->b, t->name);
    strbuf_puts(&o->b, " \xe2\x80\x94 ");
    esc(&o->b, what);
    strbuf_appendf(&o->b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", export_css);
    esc(&o->b, t->name);
    strbuf_puts(&o->b, "</h1>\n<p class=\"sub\">");
    esc(&o->b, what);
    const char *more[] = {sub, t->city, t->start_date};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (more[i] && more[i][0]) {
            strbuf_puts(&o->b, " \xc2\xb7 ");
            esc(&o->b, more[i]);
        }
    strbuf_puts(&o->b, "</p>\n");
}

/* One column of a list: its cell class (NULL: none; "n": a number), its
 * word in the HTML head and its field name in the CSV head. */
typedef struct Column {
    const char *cls;
    Word word;
    const char *field;
} Column;

/* Opens a table with the head row of the N columns COLS: the words in HTML,
 * the field names as the first CSV record. */
static void table_head(Out *o, const Column *cols, size_t n)
{
    if (o->format == EXPORT_HTML)
        strbuf_puts(&o->b, "<table>\n<thead>");
    row_open(o);
    for (size_t i = 0; i < n; i++)
        th(o, cols[i].cls, cols[i].word, cols[i].field);
    row_close(o);
    if (o->format == EXPORT_HTML)
        strbuf_puts(&o->b, "</thead>\n<tbody>\n");
}

/* Closes the table and the page, with LEGEND (NULL: none) under it. */
static char *page_close(Out *o, const char *legend, size_t *len)
{
    if (o->format == EXPORT_HTML) {
        strbuf_puts(&o->b, "</tbody>\n</table>\n");
        if (legend) {
            strbuf_puts(&o->b, "<p class=\"legend\">");
            esc(&o->b, legend);
            strbuf_puts(&o->b, "</p>\n");
        }
        strbuf_puts(&o->b, "</body>\n</html>\n");
    }
    size_t n = o->b.len;
    char *text = strbuf_take(&o->b);
    *len = text ? n : 0;
    return text;
}

/* "after round N" in LANG, or "" before the first round. */
static void after(ExportLang lang, int rounds, char *out, size_t cap)
{
    char n[16];
    snprintf(n, sizeof n, "%d", rounds);
    if (rounds > 0)
        fill(out, cap, word(lang, W_AFTER), n, "");
    else
        out[0] = 0;
}

/* ---- rating changes ---- */

char *export_ratings_list(const Tournament *t, const RatingReport *r, ExportFormat format,
                          ExportLang lang, size_t *len)
{
    Out o = {STRBUF_INIT, format, lang, 0};
    char sub[160], a[64], x[32];
    const Word kind = r->kind == RATING_RAPID   ? W_RAPID
                      : r->kind == RATING_BLITZ ? W_BLITZ
                                                : W_STANDARD;
    after(lang, r->rounds, a, sizeof a);
    snprintf(sub, sizeof sub, "%s%s%s", word(lang, kind), a[0] ? ", " : "", a);
    page_open(&o, t, word(lang, W_RATINGS), sub);
    static const Column cols[] = {
        {"n", W_NO, "start_rank"},     {NULL, W_NAME, "name"},
        {"n", W_RTG, "rating"},        {"n", W_K, "k"},
        {"n", W_GAMES, "rated_games"}, {"n", W_SCORE, "score"},
        {"n", W_EXPECTED, "expected"}, {"n", W_CHANGE, "rating_change"},
        {"n", W_NEW, "new_rating"},    {NULL, W_STATUS, "initial_status"},
    };
    table_head(&o, cols, sizeof cols / sizeof cols[0]);
    for (int i = 0; i < r->n_rows; i++) {
        const RatingRow *w = &r->rows[i];
        row_open(&o);
        tdi(&o, w->player);
        td(&o, NULL, tournament_player(t, w->player)->name);
        tdi(&o, w->rating);
        ratings_json_centi(w->score, x, sizeof x);
        if (w->rating > 0) {
            tdi(&o, w->k);
            tdi(&o, w->rated_games);
            tdn(&o, x);
            ratings_json_centi(w->expected, x, sizeof x);
            tdn(&o, x);
            ratings_json_centi(w->change, x, sizeof x);
            tdn(&o, x);
            tdi(&o, w->rating + ratings_json_rounded(w->change));
            td(&o, NULL, "");
        } else {
            tdn(&o, "");
            tdi(&o, w->rated_games);
            tdn(&o, x);
            tdn(&o, "");
            tdn(&o, "");
            if (w->initial == RATING_INITIAL_OK)
                tdi(&o, w->initial_rating);
            else
                tdn(&o, "");
            td(&o, NULL,
               format == EXPORT_CSV              ? ratings_json_initial(w->initial)
               : w->initial == RATING_INITIAL_OK ? word(lang, W_FIRST)
                                                 : word(lang, W_NO_FIRST));
        }
        row_close(&o);
    }
    return page_close(&o, word(lang, W_LEGEND_RATINGS), len);
}

/* ---- norms ---- */

/* The status of check C in LANG: made, the points needed, still possible,
 * out of reach. */
static void status(const NormCheck *c, ExportLang lang, char *out, size_t cap)
{
    char p[16], n[16];
    if (c->norm && !c->remaining) {
        snprintf(out, cap, "%s", word(lang, W_MADE));
    } else if (c->need < 0 || !c->possible) {
        snprintf(out, cap, "%s", word(lang, W_NONE));
    } else if (c->remaining > 0) {
        ratings_json_points(c->need, p, sizeof p);
        snprintf(n, sizeof n, "%d", c->remaining);
        fill(out, cap, word(lang, W_NEED), n, p);
    } else {
        snprintf(out, cap, "%s", word(lang, W_POSSIBLE));
    }
}

char *export_ratings_norms(const Tournament *t, const NormReport *r, ExportFormat format,
                           ExportLang lang, size_t *len)
{
    Out o = {STRBUF_INIT, format, lang, 0};
    char a[64], x[320];
    after(lang, r->rounds, a, sizeof a);
    page_open(&o, t, word(lang, W_NORMS), a);
    static const Column cols[] = {
        {"n", W_NO, "start_rank"},
        {NULL, W_TITLE, "title"},
        {NULL, W_NAME, "name"},
        {NULL, W_FED, "federation"},
        {NULL, W_NORM, "norm_title"},
        {"n", W_GAMES, "games"},
        {"n", W_SCORE, "score"},
        {"n", W_AVERAGE, "average"},
        {"n", W_PERFORMANCE, "performance"},
        {"n", W_TITLED, "titled"},
        {"n", W_HOLDERS, "title_holders"},
        {"n", W_FEDS, "other_federations"},
        {NULL, W_STATUS, "outlook"},
    };
    table_head(&o, cols, sizeof cols / sizeof cols[0]);
    for (int i = 0; i < r->n_rows; i++) {
        const NormRow *w = &r->rows[i];
        const TrnPlayer *p = tournament_player(t, w->player);
        for (int k = 0; k < w->n_checks; k++) {
            const NormCheck *c = &w->checks[k];
            row_open(&o);
            tdi(&o, w->player);
            td(&o, NULL, norms_title_code(p->title));
            td(&o, NULL, p->name);
            td(&o, NULL, p->federation);
            td(&o, NULL, norms_level(c->title)->name);
            tdi(&o, c->games);
            ratings_json_points(c->score, x, sizeof x);
            tdn(&o, x);
            tdi(&o, c->average);
            tdi(&o, c->performance);
            tdi(&o, c->titled);
            tdi(&o, c->title_holders);
            tdi(&o, c->federations);
            if (format == EXPORT_CSV)
                ratings_json_outlook(c, r->rounds, x, sizeof x);
            else
                status(c, lang, x, sizeof x);
            td(&o, NULL, x);
            row_close(&o);
        }
    }
    const char *legend = word(lang, W_LEGEND_NORMS);
    char both[600];
    if (r->swiss_exception) {
        snprintf(both, sizeof both, "%s %s", word(lang, W_SWISS), legend);
        legend = both;
    }
    return page_close(&o, legend, len);
}

/* ---- the certificate ---- */

/* A labelled line of the form: LABEL, then VALUE or a blank to fill in. */
static void field(Out *o, Word label, const char *value)
{
    row_open(o);
    cell_put(o, 1, NULL, word(o->lang, label), 1);
    td(o, NULL, value && value[0] ? value : "\xc2\xa0");
    row_close(o);
}

static void fieldi(Out *o, Word label, long long v)
{
    char s[24];
    snprintf(s, sizeof s, "%lld", v);
    field(o, label, s);
}

/* The result of a round for the form: "1", "½", "0", "+", "-" or the bye code. */
static const char *result_mark(char res)
{
    switch (res) {
    case TRN_RES_WIN:
    case TRN_RES_UNRATED_WIN: return "1";
    case TRN_RES_DRAW:
    case TRN_RES_UNRATED_DRAW: return "\xc2\xbd";
    case TRN_RES_LOSS:
    case TRN_RES_UNRATED_LOSS: return "0";
    case TRN_RES_FORFEIT_WIN: return "+";
    case TRN_RES_FORFEIT_LOSS: return "-";
    case TRN_RES_HPB: return "HPB";
    case TRN_RES_FPB: return "FPB";
    case TRN_RES_PAB: return "PAB";
    case TRN_RES_ZPB: return "ZPB";
    default: return "";
    }
}

static void opponents(Out *o, const Tournament *t, const TrnPlayer *p, int rounds)
{
    static const Column cols[] = {
        {"n", W_ROUND, "round"},   {NULL, W_OPPONENT, "opponent"}, {NULL, W_TITLE, "title"},
        {"n", W_RTG, "rating"},    {NULL, W_FED, "federation"},    {NULL, W_FIDE_ID, "fide_id"},
        {"c", W_RESULT, "result"},
    };
    table_head(o, cols, sizeof cols / sizeof cols[0]);
    for (int r = 0; r < rounds && r < p->rounds; r++) {
        const TrnGame *g = &p->games[r];
        const TrnPlayer *q = g->opponent ? tournament_player(t, g->opponent) : NULL;
        row_open(o);
        tdi(o, r + 1);
        td(o, NULL, q ? q->name : "");
        td(o, NULL, q ? norms_title_code(q->title) : "");
        if (q && q->rating > 0)
            tdi(o, q->rating);
        else
            tdn(o, "");
        td(o, NULL, q ? q->federation : "");
        td(o, NULL, q ? q->fide_id : "");
        td(o, "c", result_mark(g->result));
        row_close(o);
    }
    strbuf_puts(&o->b, "</tbody>\n</table>\n");
}

char *export_ratings_certificate(const Tournament *t, const NormReport *r, int player,
                                 const NormCheck *c, ExportLang lang, size_t *len)
{
    Out o = {STRBUF_INIT, EXPORT_HTML, lang, 0};
    const TrnPlayer *p = tournament_player(t, player);
    char what[200], x[600];
    snprintf(what, sizeof what, "%s \xe2\x80\x94 %s", word(lang, W_CERT),
             norms_level(c->title)->name);
    page_open(&o, t, what, NULL);
    strbuf_puts(&o.b, "<table>\n<tbody>\n");
    field(&o, W_EVENT, t->name);
    field(&o, W_PLACE, t->city);
    snprintf(x, sizeof x, "%s%s%s", t->start_date, t->end_date[0] ? " \xe2\x80\x93 " : "",
             t->end_date);
    field(&o, W_DATES, x);
    field(&o, W_HOST, t->federation);
    field(&o, W_CHIEF, t->chief_arbiter);
    field(&o, W_DEPUTY, "");
    strbuf_puts(&o.b, "</tbody>\n</table>\n<table>\n<tbody>\n");
    field(&o, W_PLAYER, p ? p->name : "");
    field(&o, W_TITLE, p ? norms_title_code(p->title) : "");
    field(&o, W_FED, p ? p->federation : "");
    field(&o, W_FIDE_ID, p ? p->fide_id : "");
    field(&o, W_BIRTH, p ? p->birth : "");
    if (p && p->rating > 0)
        fieldi(&o, W_RTG, p->rating);
    else
        field(&o, W_RTG, "");
    strbuf_puts(&o.b, "</tbody>\n</table>\n");
    if (p)
        opponents(&o, t, p, r->rounds);
    strbuf_puts(&o.b, "<table>\n<tbody>\n");
    fieldi(&o, W_GAMES, c->games);
    if (c->n_dropped) {
        ratings_json_dropped(c, x, sizeof x);
        field(&o, W_DROPPED, x);
    }
    ratings_json_points(c->score, x, sizeof x);
    field(&o, W_SCORE, x);
    fieldi(&o, W_AVERAGE, c->average);
    if (c->raised_from) {
        char n[16];
        snprintf(n, sizeof n, "%d", c->raised_from);
        fill(x, sizeof x, word(lang, W_RAISED), n, "");
        field(&o, W_AVERAGE, x);
    }
    fieldi(&o, W_PERFORMANCE, c->performance);
    fieldi(&o, W_TITLED, c->titled);
    fieldi(&o, W_HOLDERS, c->title_holders);
    fieldi(&o, W_UNRATED, c->unrated);
    fieldi(&o, W_FEDS, c->federations);
    status(c, lang, x, sizeof x);
    field(&o, W_STATUS, x);
    field(&o, W_CHIEF, "");
    field(&o, W_SIGNATURE, "");
    field(&o, W_DATE, "");
    return page_close(&o, word(lang, W_LEGEND_NORMS), len);
}
