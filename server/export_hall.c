/*
 * export_hall.c — the printed documents of the playing hall: pairings by
 * board and alphabetical, board cards, result slips and wall standings.
 * See export_hall.h.
 *
 * The pages share one style per paper size, a fixed text so that the
 * route can allow it by hash; the card and slip heights are chosen so that
 * two cards or three slips fit on the smaller of the two papers (Letter)
 * inside its margins.
 */
#include "export_hall.h"

#include <stdio.h>
#include <string.h>

#include "strbuf.h"

#define HALL_CSS_COMMON                                                                            \
    "body{font:11pt/1.35 'DejaVu Sans',Arial,sans-serif;margin:1.5em;color:#000;"                  \
    "background:#fff}"                                                                             \
    "h1{font-size:16pt;margin:0 0 .4em}"                                                           \
    "table{border-collapse:collapse;width:100%}"                                                   \
    "th,td{border:1px solid #777;padding:.2em .5em;text-align:left}"                               \
    "th{background:#e8e8e8}td.n{text-align:right}td.r{width:5em}"                                  \
    ".wall{font-size:20pt}.wall h1{font-size:32pt}"                                                \
    ".card{height:12cm;box-sizing:border-box;border:2px solid #000;margin-bottom:.5cm;"            \
    "text-align:center;break-inside:avoid}"                                                        \
    ".card .no{font-size:180pt;font-weight:bold;line-height:1.1}"                                  \
    ".card .lbl{font-size:28pt}"                                                                   \
    ".slip{height:8cm;box-sizing:border-box;border:1px dashed #000;padding:.4cm;"                  \
    "margin-bottom:.3cm;break-inside:avoid}"                                                       \
    ".slip h2{font-size:13pt;margin:0 0 .3em}"                                                     \
    ".box{display:inline-block;border:1px solid #000;padding:.3em 1em;margin:.4em .8em .4em 0}"    \
    ".sign{display:inline-block;width:30%;border-top:1px solid #000;margin:2.2em 2% 0 0;"          \
    "font-size:9pt}"                                                                               \
    "@media print{body{margin:0}thead{display:table-header-group}tr{break-inside:avoid}"           \
    ".card:nth-of-type(2n),.slip:nth-of-type(3n){break-after:page}"                                \
    "th{print-color-adjust:exact;-webkit-print-color-adjust:exact}}"

static const char css_a4[] = HALL_CSS_COMMON "@page{size:A4;margin:1cm}";
static const char css_letter[] = HALL_CSS_COMMON "@page{size:letter;margin:1cm}";

const char *export_hall_css(HallPaper paper)
{
    return paper == HALL_LETTER ? css_letter : css_a4;
}

/* Finds TEXT in the NULL-terminated NAMES; NULL is the first. */
static int pick(const char *text, const char *const *names)
{
    if (!text)
        return 0;
    for (int i = 0; names[i]; i++)
        if (strcmp(text, names[i]) == 0)
            return i;
    return -1;
}

int export_hall_doc_parse(const char *text, HallDoc *out)
{
    static const char *const names[] = {"board", "alpha", "cards", "slips", NULL};
    int i = pick(text, names);
    *out = i < 0 ? HALL_BOARD : (HallDoc)i;
    return i < 0 ? -1 : 0;
}

int export_hall_paper_parse(const char *text, HallPaper *out)
{
    static const char *const names[] = {"a4", "letter", NULL};
    int i = pick(text, names);
    *out = i < 0 ? HALL_A4 : (HallPaper)i;
    return i < 0 ? -1 : 0;
}

/* ---- small pieces ---- */

static const char *str_at(json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

static long long int_at(json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* The word KEY with its "{n}" made N, into OUT. */
static void word_n(ExportLang lang, const char *key, long long n, char *out, size_t cap)
{
    const char *w = export_word(lang, key);
    const char *at = strstr(w, "{n}");
    if (at)
        snprintf(out, cap, "%.*s%lld%s", (int)(at - w), w, n, at + 3);
    else
        snprintf(out, cap, "%s %lld", w, n);
}

/* Points as the hall reads them: "3", "2½", "½". */
static void points_text(json_t *v, char *out, size_t cap)
{
    double d = json_number_value(v);
    long long whole = (long long)d;
    int half = d - (double)whole >= 0.25;
    if (!half)
        snprintf(out, cap, "%lld", whole);
    else if (whole == 0)
        snprintf(out, cap, "\xc2\xbd");
    else
        snprintf(out, cap, "%lld\xc2\xbd", whole);
}

/* A cell of CLS (or none) holding TEXT escaped. */
static void cell(StrBuf *b, const char *cls, const char *text)
{
    strbuf_puts(b, cls ? "<td class=\"" : "<td>");
    if (cls) {
        strbuf_puts(b, cls);
        strbuf_puts(b, "\">");
    }
    export_html(b, text);
    strbuf_puts(b, "</td>");
}

static void heading(StrBuf *b, const char *tag, const char *text)
{
    strbuf_appendf(b, "<%s>", tag);
    export_html(b, text);
    strbuf_appendf(b, "</%s>\n", tag);
}

/* The page's head with the style of PAPER and the heading TITLE; WALL sets
 * the large type. */
static void open_page(StrBuf *b, json_t *tour, const char *title, HallPaper paper, ExportLang lang,
                      int wall)
{
    static const char *const code[EXPORT_LANGS] = {"en", "ru", "bg"};
    strbuf_appendf(b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n",
                   code[lang < EXPORT_LANGS ? lang : 0]);
    strbuf_puts(b, "<title>");
    export_html(b, str_at(tour, "name"));
    strbuf_puts(b, " \xe2\x80\x93 ");
    export_html(b, title);
    strbuf_puts(b, "</title>\n<style>");
    strbuf_puts(b, export_hall_css(paper));
    strbuf_appendf(b, "</style>\n</head>\n<body%s>\n", wall ? " class=\"wall\"" : "");
    heading(b, "h1", str_at(tour, "name"));
    heading(b, "h2", title);
}

static char *close_page(StrBuf *b, size_t *len)
{
    strbuf_puts(b, "</body>\n</html>\n");
    size_t n = b->len;
    char *text = strbuf_take(b);
    if (text)
        *len = n;
    return text;
}

/* A player as "Name (rating)". */
static void player_line(json_t *p, char *out, size_t cap)
{
    json_t *rt = json_object_get(p, "rating");
    if (json_integer_value(rt) > 0)
        snprintf(out, cap, "%s (%lld)", str_at(p, "name"), (long long)json_integer_value(rt));
    else
        snprintf(out, cap, "%s", str_at(p, "name"));
}

/* TPN, name, rating and points of P as four cells. */
static void player_cells(StrBuf *b, json_t *p)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%lld", int_at(p, "tpn"));
    cell(b, "n", tmp);
    cell(b, NULL, str_at(p, "name"));
    long long rt = int_at(p, "rating");
    snprintf(tmp, sizeof tmp, "%lld", rt);
    cell(b, "n", rt > 0 ? tmp : "");
    points_text(json_object_get(p, "points"), tmp, sizeof tmp);
    cell(b, "n", tmp);
}

static void head_cells(StrBuf *b, ExportLang lang, const char *const *keys)
{
    strbuf_puts(b, "<thead><tr>");
    for (int i = 0; keys[i]; i++) {
        strbuf_puts(b, "<th>");
        export_html(b, export_word(lang, keys[i]));
        strbuf_puts(b, "</th>");
    }
    strbuf_puts(b, "</tr></thead>\n<tbody>\n");
}

/* The word of a bye of KIND ("pab", "half", "zero", ...). */
static const char *bye_word(ExportLang lang, const char *kind)
{
    if (strcmp(kind, "pab") == 0)
        return export_word(lang, "print.bye_pab");
    if (strcmp(kind, "half") == 0)
        return export_word(lang, "print.bye_half");
    if (strcmp(kind, "free") == 0)
        return export_word(lang, "print.bye_free");
    return export_word(lang, "print.bye_zero");
}

/* ---- the documents of a round ---- */

static void by_board(StrBuf *b, json_t *pl, ExportLang lang)
{
    static const char *const keys[] = {"print.board",  "print.no",     "hall.white", "print.rating",
                                       "print.points", "hall.result",  "print.no",   "hall.black",
                                       "print.rating", "print.points", NULL};
    strbuf_puts(b, "<table>\n");
    head_cells(b, lang, keys);
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(pl, "boards"), i, g)
    {
        char tmp[24];
        snprintf(tmp, sizeof tmp, "%lld", int_at(g, "board"));
        strbuf_puts(b, "<tr>");
        cell(b, "n", tmp);
        player_cells(b, json_object_get(g, "white"));
        cell(b, "r", "");
        player_cells(b, json_object_get(g, "black"));
        strbuf_puts(b, "</tr>\n");
    }
    json_array_foreach(json_object_get(pl, "byes"), i, g)
    {
        strbuf_puts(b, "<tr><td></td>");
        player_cells(b, json_object_get(g, "player"));
        cell(b, NULL, bye_word(lang, str_at(g, "kind")));
        strbuf_puts(b, "<td></td><td></td><td></td><td></td></tr>\n");
    }
    strbuf_puts(b, "</tbody>\n</table>\n");
}

static int by_name(StrBuf *b, json_t *pl, ExportLang lang)
{
    static const char *const keys[] = {"print.name",  "print.no",     "print.points",
                                       "print.board", "print.colour", "print.opponent",
                                       NULL};
    json_t *list = export_pairings_alpha(pl);
    if (!list)
        return -1;
    strbuf_puts(b, "<table>\n");
    head_cells(b, lang, keys);
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        json_t *p = json_object_get(e, "player"), *o = json_object_get(e, "opponent");
        char tmp[200];
        strbuf_puts(b, "<tr>");
        cell(b, NULL, str_at(p, "name"));
        snprintf(tmp, sizeof tmp, "%lld", int_at(p, "tpn"));
        cell(b, "n", tmp);
        points_text(json_object_get(p, "points"), tmp, sizeof tmp);
        cell(b, "n", tmp);
        if (json_is_object(o)) {
            snprintf(tmp, sizeof tmp, "%lld", int_at(e, "board"));
            cell(b, "n", tmp);
            cell(b, NULL,
                 export_word(lang, strcmp(str_at(e, "colour"), "w") ? "hall.black" : "hall.white"));
            player_line(o, tmp, sizeof tmp);
            cell(b, NULL, tmp);
        } else {
            strbuf_puts(b, "<td></td><td></td>");
            cell(b, NULL, bye_word(lang, str_at(e, "bye")));
        }
        strbuf_puts(b, "</tr>\n");
    }
    strbuf_puts(b, "</tbody>\n</table>\n");
    json_decref(list);
    return 0;
}

/* The byes of the round as one line: the cards and slips are per board, yet
 * the hall should see who has no board. */
static void byes_line(StrBuf *b, json_t *pl, ExportLang lang)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(pl, "byes"), i, g)
    {
        strbuf_puts(b, i ? "; " : "<p class=\"byes\">");
        export_html(b, bye_word(lang, str_at(g, "kind")));
        strbuf_puts(b, ": ");
        export_html(b, str_at(json_object_get(g, "player"), "name"));
    }
    if (i)
        strbuf_puts(b, "</p>\n");
}

static void cards(StrBuf *b, json_t *pl, ExportLang lang)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(pl, "boards"), i, g)
    {
        char who[400], w[190], k[190];
        player_line(json_object_get(g, "white"), w, sizeof w);
        player_line(json_object_get(g, "black"), k, sizeof k);
        snprintf(who, sizeof who, "%s \xe2\x80\x93 %s", w, k);
        strbuf_puts(b, "<div class=\"card\"><div class=\"lbl\">");
        export_html(b, export_word(lang, "hall.board"));
        strbuf_appendf(b, "</div><div class=\"no\">%lld</div><div>", int_at(g, "board"));
        export_html(b, who);
        strbuf_puts(b, "</div></div>\n");
    }
}

static void sign_line(StrBuf *b, ExportLang lang, const char *key)
{
    strbuf_puts(b, "<span class=\"sign\">");
    export_html(b, export_word(lang, key));
    strbuf_puts(b, "</span>");
}

static void slips(StrBuf *b, json_t *pl, ExportLang lang)
{
    static const char *const boxes[] = {"1-0", "\xc2\xbd-\xc2\xbd", "0-1"};
    long long rn = int_at(pl, "round");
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(pl, "boards"), i, g)
    {
        char line[400], who[190];
        snprintf(line, sizeof line, "%s \xe2\x80\x94 %s %lld, %s %lld",
                 export_word(lang, "hall.slip"), export_word(lang, "hall.round"), rn,
                 export_word(lang, "hall.board"), int_at(g, "board"));
        strbuf_puts(b, "<div class=\"slip\">");
        heading(b, "h2", line);
        strbuf_puts(b, "<table>");
        const char *side[] = {"white", "black"}, *word[] = {"hall.white", "hall.black"};
        for (int s = 0; s < 2; s++) {
            strbuf_puts(b, "<tr>");
            cell(b, NULL, export_word(lang, word[s]));
            player_line(json_object_get(g, side[s]), who, sizeof who);
            cell(b, NULL, who);
            strbuf_puts(b, "</tr>");
        }
        strbuf_puts(b, "</table>\n<div>");
        export_html(b, export_word(lang, "hall.result"));
        strbuf_puts(b, ": ");
        for (int k = 0; k < 3; k++)
            strbuf_appendf(b, "<span class=\"box\">\xe2\x98\x90 %s</span>", boxes[k]);
        strbuf_puts(b, "</div>\n<div>");
        sign_line(b, lang, "hall.sign_white");
        sign_line(b, lang, "hall.sign_black");
        sign_line(b, lang, "hall.sign_arbiter");
        strbuf_puts(b, "</div></div>\n");
    }
}

char *export_hall_round(json_t *pl, HallDoc doc, HallPaper paper, ExportLang lang, size_t *len)
{
    static const char *const titles[] = {"hall.pairings_board", "hall.pairings_alpha", "hall.cards",
                                         "hall.slips"};
    StrBuf b;
    strbuf_init(&b);
    char title[200];
    word_n(lang, titles[doc], int_at(pl, "round"), title, sizeof title);
    open_page(&b, json_object_get(pl, "tournament"), title, paper, lang, 0);
    if (doc == HALL_BOARD)
        by_board(&b, pl, lang);
    else if (doc == HALL_ALPHA) {
        if (by_name(&b, pl, lang)) {
            strbuf_free(&b);
            return NULL;
        }
    } else {
        if (doc == HALL_CARDS)
            cards(&b, pl, lang);
        else
            slips(&b, pl, lang);
        byes_line(&b, pl, lang);
    }
    return close_page(&b, len);
}

char *export_hall_standings(json_t *ct, HallPaper paper, ExportLang lang, size_t *len)
{
    static const char *const keys[] = {"print.rank",   "print.name",   "print.federation",
                                       "print.rating", "print.points", NULL};
    StrBuf b;
    strbuf_init(&b);
    char title[200];
    long long after = int_at(ct, "after_round");
    /* Before any result the wall shows the start list. */
    if (after > 0)
        word_n(lang, "hall.standings", after, title, sizeof title);
    else
        snprintf(title, sizeof title, "%s", export_word(lang, "hall.start_list"));
    open_page(&b, json_object_get(ct, "tournament"), title, paper, lang, 1);
    strbuf_puts(&b, "<table>\n");
    head_cells(&b, lang, keys);
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(ct, "rows"), i, row)
    {
        json_t *p = json_object_get(row, "player");
        char tmp[32];
        strbuf_puts(&b, "<tr>");
        snprintf(tmp, sizeof tmp, "%lld", int_at(row, "rank"));
        cell(&b, "n", tmp);
        cell(&b, NULL, str_at(p, "name"));
        cell(&b, NULL, str_at(p, "federation"));
        long long rt = int_at(p, "rating");
        snprintf(tmp, sizeof tmp, "%lld", rt);
        cell(&b, "n", rt > 0 ? tmp : "");
        points_text(json_object_get(row, "points"), tmp, sizeof tmp);
        cell(&b, "n", tmp);
        strbuf_puts(&b, "</tr>\n");
    }
    strbuf_puts(&b, "</tbody>\n</table>\n");
    return close_page(&b, len);
}
