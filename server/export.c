/*
 * export.c — crosstable, standings and pairing lists as HTML, CSV or JSON.
 * See export.h.  The words of the HTML pages come from the pages' own
 * translation files, embedded in the binary and parsed once at first use.
 */
#include "export.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collate.h"
#include "strbuf.h"

/* Print-friendly: black on white, thin rules, the header row repeated on
 * every printed page, rows never split across pages. */
const char export_css[] =
    "body{font:10pt/1.35 'DejaVu Sans',Arial,sans-serif;margin:1.5em;color:#000;"
    "background:#fff}"
    "h1{font-size:15pt;margin:0 0 .2em}"
    "p.sub{margin:0 0 1em;color:#333}"
    "table{border-collapse:collapse;margin-bottom:1em}"
    "th,td{border:1px solid #999;padding:.15em .45em;text-align:left;white-space:nowrap}"
    "th{background:#e8e8e8;font-weight:bold}"
    "td.n,th.n{text-align:right}"
    "td.c,th.c{text-align:center}"
    "tbody tr:nth-child(even){background:#f5f5f5}"
    "p.legend{font-size:8pt;color:#333}"
    "@page{margin:1cm}"
    "@media print{body{margin:0;font-size:9pt}thead{display:table-header-group}"
    "tr{break-inside:avoid}th,tbody tr:nth-child(even){print-color-adjust:exact;"
    "-webkit-print-color-adjust:exact}}";

/* ---- the words of the pages ---- */

/* The pages' translation files (web/i18n/<lang>.json), embedded at build time
 * by embed_file: the printed lists say what the pages say. */
extern const unsigned char i18n_en_json[], i18n_ru_json[], i18n_bg_json[];
extern const size_t i18n_en_json_len, i18n_ru_json_len, i18n_bg_json_len;

typedef enum Text {
    T_CROSSTABLE,
    T_STANDINGS,
    T_AFTER,
    T_NO_RESULTS,
    T_PAIRINGS,
    T_ALPHA,
    T_RK,
    T_NO,
    T_NAME,
    T_FED,
    T_RTG,
    T_PTS,
    T_BD,
    T_WHITE,
    T_BLACK,
    T_RESULT,
    T_COLOUR,
    T_OPPONENT,
    T_PAB,
    T_HALF,
    T_ZERO,
    T_FREE,
    T_CROSS_LEGEND,
    T_PTS_BEFORE,
    T_COUNT
} Text;

/* The key of each word in the translation files.  Titles, colours and the
 * result column are the pages' own words; the compact column heads, the
 * legends and the bye cells are print.*.  {n} is a round number.  The
 * cells' codes (w, b, PAB, HPB, ...) are the same in every language, as on
 * chess-results. */
static const char *const KEYS[T_COUNT] = {
    [T_CROSSTABLE] = "view.crosstable",
    [T_STANDINGS] = "view.standings",
    [T_AFTER] = "print.after",
    [T_NO_RESULTS] = "print.no_results",
    [T_PAIRINGS] = "print.pairings",
    [T_ALPHA] = "print.alpha",
    [T_RK] = "print.rank",
    [T_NO] = "print.no",
    [T_NAME] = "print.name",
    [T_FED] = "print.federation",
    [T_RTG] = "print.rating",
    [T_PTS] = "print.points",
    [T_BD] = "print.board",
    [T_WHITE] = "colour.white",
    [T_BLACK] = "colour.black",
    [T_RESULT] = "view.result",
    [T_COLOUR] = "print.colour",
    [T_OPPONENT] = "print.opponent",
    [T_PAB] = "print.bye_pab",
    [T_HALF] = "print.bye_half",
    [T_ZERO] = "print.bye_zero",
    [T_FREE] = "print.bye_free",
    [T_CROSS_LEGEND] = "print.legend_crosstable",
    [T_PTS_BEFORE] = "print.legend_points",
};

/* The parsed files (kept for the life of the process: TEXTS points into
 * them) and the words, filled once by load_texts, read-only after. */
static json_t *docs[EXPORT_LANGS];
static const char *texts[EXPORT_LANGS][T_COUNT];
static pthread_once_t texts_once = PTHREAD_ONCE_INIT;

/* A word missing from a language falls back to English, and one missing
 * from English to its key (the unit test keeps every key present). */
static void load_texts(void)
{
    const unsigned char *const src[EXPORT_LANGS] = {i18n_en_json, i18n_ru_json, i18n_bg_json};
    const size_t len[EXPORT_LANGS] = {i18n_en_json_len, i18n_ru_json_len, i18n_bg_json_len};
    for (int l = 0; l < EXPORT_LANGS; l++) {
        docs[l] = json_loadb((const char *)src[l], len[l], 0, NULL);
        for (int t = 0; t < T_COUNT; t++) {
            const char *s = json_string_value(json_object_get(docs[l], KEYS[t]));
            texts[l][t] = s ? s : l != EXPORT_EN ? texts[EXPORT_EN][t] : KEYS[t];
        }
    }
}

static const char *tr(ExportLang lang, Text t)
{
    pthread_once(&texts_once, load_texts);
    return texts[lang < EXPORT_LANGS ? lang : EXPORT_EN][t];
}

/* TEXT with {n} replaced by N, into OUT. */
static void subst(char *out, size_t cap, const char *text, long long n)
{
    const char *at = strstr(text, "{n}");
    if (at)
        snprintf(out, cap, "%.*s%lld%s", (int)(at - text), text, n, at + 3);
    else
        snprintf(out, cap, "%s", text);
}

/* ---- a growing text ---- */

/* The text of B, or NULL when memory ran out (B is emptied either way). */
static char *take(StrBuf *b, size_t *len)
{
    size_t n = b->len;
    char *s = strbuf_take(b);
    if (s)
        *len = n;
    return s;
}

/* Text with the five characters that matter in HTML as entities. */
static void html(StrBuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': strbuf_puts(b, "&amp;"); break;
        case '<': strbuf_puts(b, "&lt;"); break;
        case '>': strbuf_puts(b, "&gt;"); break;
        case '"': strbuf_puts(b, "&quot;"); break;
        case '\'': strbuf_puts(b, "&#39;"); break;
        default: strbuf_append(b, s, 1);
        }
    }
}

/*
 * One CSV field of stored text, after a comma unless FIRST.  A spreadsheet
 * runs a cell that begins with = + - @ (or a tab or carriage return, which
 * some of them skip first) as a formula, so a player named "=HYPERLINK(..)"
 * could act when the file is opened: such a field gets a leading
 * apostrophe, which shows the text as typed.  Then RFC 4180 quoting.
 */
static void csv_text(StrBuf *b, const char *s, int first)
{
    if (!first)
        strbuf_append(b, ",", 1);
    s = s ? s : "";
    int guard = s[0] && strchr("=+-@\t\r", s[0]) != NULL;
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote)
        strbuf_append(b, "\"", 1);
    if (guard)
        strbuf_append(b, "'", 1);
    for (; *s; s++) {
        if (*s == '"')
            strbuf_append(b, "\"\"", 2);
        else
            strbuf_append(b, s, 1);
    }
    if (quote)
        strbuf_append(b, "\"", 1);
}

/* A field we made ourselves (numbers, fixed words): no guard needed. */
static void csv_raw(StrBuf *b, const char *s, int first)
{
    if (!first)
        strbuf_append(b, ",", 1);
    strbuf_puts(b, s);
}

/* ---- values ---- */

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

static long long jint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* A number of points or a tie-break value: "3", "2.5", "40.75"; "" for
 * null (undefined). */
static void num(json_t *v, char *out, size_t n)
{
    if (!json_is_number(v)) {
        snprintf(out, n, "%s", "");
        return;
    }
    double x = json_number_value(v);
    long long h = (long long)(x * 100 + (x < 0 ? -0.5 : 0.5));
    long long whole = h / 100, frac = (h < 0 ? -h : h) % 100;
    if (frac == 0)
        snprintf(out, n, "%lld", whole);
    else if (frac % 10 == 0)
        snprintf(out, n, "%s%lld.%lld", h < 0 && whole == 0 ? "-" : "", whole, frac / 10);
    else
        snprintf(out, n, "%s%lld.%02lld", h < 0 && whole == 0 ? "-" : "", whole, frac);
}

/* num() for a page in LANG: Russian and Bulgarian write a decimal comma
 * ("40,75"), as the desk does; the CSV files keep the point. */
static void num_in(json_t *v, ExportLang lang, char *out, size_t n)
{
    num(v, out, n);
    char *dot = lang == EXPORT_EN ? NULL : strchr(out, '.');
    if (dot)
        *dot = ',';
}

/* A rating, "" when unrated. */
static void rating(json_t *p, char *out, size_t n)
{
    long long r = jint(p, "rating");
    if (r > 0)
        snprintf(out, n, "%lld", r);
    else
        snprintf(out, n, "%s", "");
}

/* A stored game result for people: "1-0", "½-½", "+/-"; "" while none. */
static void result_text(const char *res, char *out, size_t n)
{
    if (!res || strcmp(res, "*") == 0) {
        snprintf(out, n, "%s", "");
        return;
    }
    size_t k = 0;
    for (const char *s = res; *s && k + 3 < n; s++) {
        if (strncmp(s, "1/2", 3) == 0) {
            memcpy(out + k, "\xc2\xbd", 2);
            k += 2;
            s += 2;
        } else {
            out[k++] = *s;
        }
    }
    out[k] = 0;
}

static const char *bye_label(const char *kind, ExportLang lang)
{
    if (strcmp(kind, "pab") == 0)
        return tr(lang, T_PAB);
    if (strcmp(kind, "half") == 0)
        return tr(lang, T_HALF);
    if (strcmp(kind, "free") == 0)
        return tr(lang, T_FREE);
    return tr(lang, T_ZERO);
}

/* ---- the page around a table ---- */

static void page_open(StrBuf *b, json_t *tour, const char *what, ExportLang lang)
{
    static const char *const code[EXPORT_LANGS] = {"en", "ru", "bg"};
    strbuf_puts(b, "<!DOCTYPE html>\n<html lang=\"");
    strbuf_puts(b, code[lang < EXPORT_LANGS ? lang : EXPORT_EN]);
    strbuf_puts(
        b, "\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    html(b, jstr(tour, "name"));
    strbuf_puts(b, " \xe2\x80\x94 ");
    html(b, what);
    strbuf_puts(b, "</title>\n<style>");
    strbuf_puts(b, export_css);
    strbuf_puts(b, "</style>\n</head>\n<body>\n<h1>");
    html(b, jstr(tour, "name"));
    strbuf_puts(b, "</h1>\n<p class=\"sub\">");
    html(b, what);
    const char *place = jstr(tour, "place"), *date = jstr(tour, "start_date");
    if (place[0]) {
        strbuf_puts(b, " \xc2\xb7 ");
        html(b, place);
    }
    if (date[0]) {
        strbuf_puts(b, " \xc2\xb7 ");
        html(b, date);
    }
    strbuf_puts(b, "</p>\n");
}

static void page_close(StrBuf *b, const char *legend)
{
    if (legend) {
        strbuf_puts(b, "<p class=\"legend\">");
        html(b, legend);
        strbuf_puts(b, "</p>\n");
    }
    strbuf_puts(b, "</body>\n</html>\n");
}

/* <TAG class="CLS">TEXT</TAG>, TEXT escaped; no class when CLS is NULL. */
static void cell(StrBuf *b, const char *tag, const char *cls, const char *text)
{
    strbuf_puts(b, "<");
    strbuf_puts(b, tag);
    if (cls) {
        strbuf_puts(b, " class=\"");
        strbuf_puts(b, cls);
        strbuf_puts(b, "\"");
    }
    strbuf_puts(b, ">");
    html(b, text);
    strbuf_puts(b, "</");
    strbuf_puts(b, tag);
    strbuf_puts(b, ">");
}

static void th(StrBuf *b, const char *cls, const char *text)
{
    cell(b, "th", cls, text);
}

static void td(StrBuf *b, const char *cls, const char *text)
{
    cell(b, "td", cls, text);
}

/* ---- crosstable and standings ---- */

char *export_crosstable(json_t *ct, ExportFormat format, ExportLang lang, int rounds, size_t *len)
{
    StrBuf b = STRBUF_INIT;
    json_t *tour = json_object_get(ct, "tournament"), *rows = json_object_get(ct, "rows");
    json_t *tbs = json_object_get(ct, "tiebreaks");
    int after = (int)jint(ct, "after_round");
    int nr = rounds ? after : 0;
    if (format == EXPORT_JSON) {
        char *text = json_dumps(ct, JSON_COMPACT);
        if (text)
            *len = strlen(text);
        return text;
    }
    size_t i, k;
    json_t *row, *v;
    char what[160], tmp[64];
    const char *kind = tr(lang, rounds ? T_CROSSTABLE : T_STANDINGS);
    if (after > 0) {
        subst(tmp, sizeof tmp, tr(lang, T_AFTER), after);
        snprintf(what, sizeof what, "%s %s", kind, tmp);
    } else {
        snprintf(what, sizeof what, "%s %s", kind, tr(lang, T_NO_RESULTS));
    }
    if (format == EXPORT_CSV) {
        strbuf_puts(&b, "\xef\xbb\xbf"); /* BOM: spreadsheets then read UTF-8 */
        csv_raw(&b, "rank", 1);
        csv_raw(&b, "no", 0);
        csv_raw(&b, "title", 0);
        csv_raw(&b, "name", 0);
        csv_raw(&b, "federation", 0);
        csv_raw(&b, "rating", 0);
        for (int r = 1; r <= nr; r++) {
            snprintf(tmp, sizeof tmp, "r%d", r);
            csv_raw(&b, tmp, 0);
        }
        csv_raw(&b, "points", 0);
        json_array_foreach(tbs, k, v) csv_text(&b, json_string_value(v), 0);
        strbuf_puts(&b, "\r\n");
        json_array_foreach(rows, i, row)
        {
            json_t *p = json_object_get(row, "player");
            snprintf(tmp, sizeof tmp, "%lld", jint(row, "rank"));
            csv_raw(&b, tmp, 1);
            snprintf(tmp, sizeof tmp, "%lld", jint(row, "tpn"));
            csv_raw(&b, tmp, 0);
            csv_text(&b, jstr(p, "title"), 0);
            csv_text(&b, jstr(p, "name"), 0);
            csv_text(&b, jstr(p, "federation"), 0);
            rating(p, tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            json_t *cells = json_object_get(row, "results");
            for (int r = 0; r < nr; r++)
                csv_text(&b, jstr(json_array_get(cells, (size_t)r), "text"), 0);
            num(json_object_get(row, "points"), tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            json_array_foreach(tbs, k, v)
            {
                num(json_object_get(json_object_get(row, "tiebreaks"), json_string_value(v)), tmp,
                    sizeof tmp);
                csv_raw(&b, tmp, 0);
            }
            strbuf_puts(&b, "\r\n");
        }
        return take(&b, len);
    }
    page_open(&b, tour, what, lang);
    strbuf_puts(&b, "<table>\n<thead><tr>");
    th(&b, "n", tr(lang, T_RK));
    th(&b, "n", tr(lang, T_NO));
    th(&b, NULL, "");
    th(&b, NULL, tr(lang, T_NAME));
    th(&b, NULL, tr(lang, T_FED));
    th(&b, "n", tr(lang, T_RTG));
    for (int r = 1; r <= nr; r++) {
        snprintf(tmp, sizeof tmp, "%d", r);
        th(&b, "c", tmp);
    }
    th(&b, "n", tr(lang, T_PTS));
    json_array_foreach(tbs, k, v) th(&b, "n", json_string_value(v));
    strbuf_puts(&b, "</tr></thead>\n<tbody>\n");
    json_array_foreach(rows, i, row)
    {
        json_t *p = json_object_get(row, "player");
        strbuf_puts(&b, "<tr>");
        snprintf(tmp, sizeof tmp, "%lld", jint(row, "rank"));
        td(&b, "n", tmp);
        snprintf(tmp, sizeof tmp, "%lld", jint(row, "tpn"));
        td(&b, "n", tmp);
        td(&b, NULL, jstr(p, "title"));
        td(&b, NULL, jstr(p, "name"));
        td(&b, NULL, jstr(p, "federation"));
        rating(p, tmp, sizeof tmp);
        td(&b, "n", tmp);
        json_t *cells = json_object_get(row, "results");
        for (int r = 0; r < nr; r++)
            td(&b, "c", jstr(json_array_get(cells, (size_t)r), "text"));
        num_in(json_object_get(row, "points"), lang, tmp, sizeof tmp);
        td(&b, "n", tmp);
        json_array_foreach(tbs, k, v)
        {
            num_in(json_object_get(json_object_get(row, "tiebreaks"), json_string_value(v)), lang,
                   tmp, sizeof tmp);
            td(&b, "n", tmp);
        }
        strbuf_puts(&b, "</tr>\n");
    }
    strbuf_puts(&b, "</tbody>\n</table>\n");
    page_close(&b, nr ? tr(lang, T_CROSS_LEGEND) : NULL);
    return take(&b, len);
}

/* ---- pairing lists ---- */

static int alpha_cmp(const void *x, const void *y)
{
    json_t *a = json_object_get(*(json_t *const *)x, "player");
    json_t *b = json_object_get(*(json_t *const *)y, "player");
    int c = collate_names_cmp(jstr(a, "name"), jstr(b, "name"));
    return c ? c : (jint(a, "tpn") > jint(b, "tpn")) - (jint(a, "tpn") < jint(b, "tpn"));
}

json_t *export_pairings_alpha(json_t *pl)
{
    json_t *boards = json_object_get(pl, "boards"), *byes = json_object_get(pl, "byes");
    size_t n = json_array_size(boards) * 2 + json_array_size(byes), k = 0, i;
    json_t **e = calloc(n + 1, sizeof *e), *g;
    json_t *out = json_array();
    if (!e || !out) {
        free(e);
        json_decref(out);
        return NULL;
    }
    json_array_foreach(boards, i, g)
    {
        json_t *w = json_object_get(g, "white"), *bl = json_object_get(g, "black");
        json_t *res = json_object_get(g, "result");
        e[k++] = json_pack("{s:O,s:O,s:s,s:O,s:n,s:O}", "player", w, "board",
                           json_object_get(g, "board"), "colour", "w", "opponent", bl, "bye",
                           "result", res ? res : json_null());
        e[k++] = json_pack("{s:O,s:O,s:s,s:O,s:n,s:O}", "player", bl, "board",
                           json_object_get(g, "board"), "colour", "b", "opponent", w, "bye",
                           "result", res ? res : json_null());
    }
    json_array_foreach(byes, i, g) e[k++] =
        json_pack("{s:O,s:n,s:n,s:n,s:O,s:n}", "player", json_object_get(g, "player"), "board",
                  "colour", "opponent", "bye", json_object_get(g, "kind"), "result");
    for (i = 0; i < k; i++)
        if (!e[i]) {
            for (size_t j = 0; j < k; j++)
                json_decref(e[j]);
            free(e);
            json_decref(out);
            return NULL;
        }
    qsort(e, k, sizeof *e, alpha_cmp);
    for (i = 0; i < k; i++)
        json_array_append_new(out, e[i]);
    free(e);
    return out;
}

/* A player's name after his title, escaped. */
static void who(StrBuf *b, json_t *p)
{
    const char *title = jstr(p, "title");
    if (title[0]) {
        html(b, title);
        strbuf_puts(b, " ");
    }
    html(b, jstr(p, "name"));
}

static char *pairings_board(json_t *pl, ExportFormat format, ExportLang lang, size_t *len)
{
    StrBuf b = STRBUF_INIT;
    json_t *boards = json_object_get(pl, "boards"), *byes = json_object_get(pl, "byes");
    char tmp[64], what[128];
    size_t i;
    json_t *g;
    subst(what, sizeof what, tr(lang, T_PAIRINGS), jint(pl, "round"));
    if (format == EXPORT_CSV) {
        strbuf_puts(&b, "\xef\xbb\xbf"
                        "board,white_no,white_title,white,white_rating,white_points,result,"
                        "black_points,black,black_title,black_rating,black_no\r\n");
        json_array_foreach(boards, i, g)
        {
            json_t *w = json_object_get(g, "white"), *bl = json_object_get(g, "black");
            snprintf(tmp, sizeof tmp, "%lld", jint(g, "board"));
            csv_raw(&b, tmp, 1);
            snprintf(tmp, sizeof tmp, "%lld", jint(w, "tpn"));
            csv_raw(&b, tmp, 0);
            csv_text(&b, jstr(w, "title"), 0);
            csv_text(&b, jstr(w, "name"), 0);
            rating(w, tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            num(json_object_get(w, "points"), tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            result_text(jstr(g, "result"), tmp, sizeof tmp);
            csv_text(&b, tmp, 0);
            num(json_object_get(bl, "points"), tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            csv_text(&b, jstr(bl, "name"), 0);
            csv_text(&b, jstr(bl, "title"), 0);
            rating(bl, tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            snprintf(tmp, sizeof tmp, "%lld", jint(bl, "tpn"));
            csv_raw(&b, tmp, 0);
            strbuf_puts(&b, "\r\n");
        }
        json_array_foreach(byes, i, g)
        {
            json_t *p = json_object_get(g, "player");
            csv_raw(&b, "", 1);
            snprintf(tmp, sizeof tmp, "%lld", jint(p, "tpn"));
            csv_raw(&b, tmp, 0);
            csv_text(&b, jstr(p, "title"), 0);
            csv_text(&b, jstr(p, "name"), 0);
            rating(p, tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            num(json_object_get(p, "points"), tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            csv_text(&b, bye_label(jstr(g, "kind"), EXPORT_EN), 0);
            strbuf_puts(&b, ",,,,,\r\n");
        }
        return take(&b, len);
    }
    page_open(&b, json_object_get(pl, "tournament"), what, lang);
    strbuf_puts(&b, "<table>\n<thead><tr>");
    th(&b, "n", tr(lang, T_BD));
    th(&b, "n", tr(lang, T_NO));
    th(&b, NULL, tr(lang, T_WHITE));
    th(&b, "n", tr(lang, T_RTG));
    th(&b, "n", tr(lang, T_PTS));
    th(&b, "c", tr(lang, T_RESULT));
    th(&b, "n", tr(lang, T_PTS));
    th(&b, NULL, tr(lang, T_BLACK));
    th(&b, "n", tr(lang, T_RTG));
    th(&b, "n", tr(lang, T_NO));
    strbuf_puts(&b, "</tr></thead>\n<tbody>\n");
    json_array_foreach(boards, i, g)
    {
        json_t *w = json_object_get(g, "white"), *bl = json_object_get(g, "black");
        strbuf_puts(&b, "<tr>");
        snprintf(tmp, sizeof tmp, "%lld", jint(g, "board"));
        td(&b, "n", tmp);
        snprintf(tmp, sizeof tmp, "%lld", jint(w, "tpn"));
        td(&b, "n", tmp);
        strbuf_puts(&b, "<td>");
        who(&b, w);
        strbuf_puts(&b, "</td>");
        rating(w, tmp, sizeof tmp);
        td(&b, "n", tmp);
        num_in(json_object_get(w, "points"), lang, tmp, sizeof tmp);
        td(&b, "n", tmp);
        result_text(jstr(g, "result"), tmp, sizeof tmp);
        td(&b, "c", tmp);
        num_in(json_object_get(bl, "points"), lang, tmp, sizeof tmp);
        td(&b, "n", tmp);
        strbuf_puts(&b, "<td>");
        who(&b, bl);
        strbuf_puts(&b, "</td>");
        rating(bl, tmp, sizeof tmp);
        td(&b, "n", tmp);
        snprintf(tmp, sizeof tmp, "%lld", jint(bl, "tpn"));
        td(&b, "n", tmp);
        strbuf_puts(&b, "</tr>\n");
    }
    json_array_foreach(byes, i, g)
    {
        json_t *p = json_object_get(g, "player");
        strbuf_puts(&b, "<tr><td></td>");
        snprintf(tmp, sizeof tmp, "%lld", jint(p, "tpn"));
        td(&b, "n", tmp);
        strbuf_puts(&b, "<td>");
        who(&b, p);
        strbuf_puts(&b, "</td>");
        rating(p, tmp, sizeof tmp);
        td(&b, "n", tmp);
        num_in(json_object_get(p, "points"), lang, tmp, sizeof tmp);
        td(&b, "n", tmp);
        td(&b, "c", bye_label(jstr(g, "kind"), lang));
        strbuf_puts(&b, "<td></td><td></td><td></td><td></td></tr>\n");
    }
    strbuf_puts(&b, "</tbody>\n</table>\n");
    page_close(&b, tr(lang, T_PTS_BEFORE));
    return take(&b, len);
}

static char *pairings_alpha(json_t *pl, json_t *list, ExportFormat format, ExportLang lang,
                            size_t *len)
{
    StrBuf b = STRBUF_INIT;
    char tmp[64], what[160];
    size_t i;
    json_t *e;
    subst(tmp, sizeof tmp, tr(lang, T_PAIRINGS), jint(pl, "round"));
    snprintf(what, sizeof what, "%s, %s", tmp, tr(lang, T_ALPHA));
    if (format == EXPORT_CSV) {
        strbuf_puts(&b, "\xef\xbb\xbf"
                        "name,title,no,points,board,colour,opponent,opponent_no,bye\r\n");
        json_array_foreach(list, i, e)
        {
            json_t *p = json_object_get(e, "player"), *o = json_object_get(e, "opponent");
            csv_text(&b, jstr(p, "name"), 1);
            csv_text(&b, jstr(p, "title"), 0);
            snprintf(tmp, sizeof tmp, "%lld", jint(p, "tpn"));
            csv_raw(&b, tmp, 0);
            num(json_object_get(p, "points"), tmp, sizeof tmp);
            csv_raw(&b, tmp, 0);
            if (json_is_object(o)) {
                snprintf(tmp, sizeof tmp, "%lld", jint(e, "board"));
                csv_raw(&b, tmp, 0);
                csv_raw(&b, strcmp(jstr(e, "colour"), "w") ? "black" : "white", 0);
                csv_text(&b, jstr(o, "name"), 0);
                snprintf(tmp, sizeof tmp, "%lld", jint(o, "tpn"));
                csv_raw(&b, tmp, 0);
                csv_raw(&b, "", 0);
            } else {
                strbuf_puts(&b, ",,,,");
                csv_text(&b, bye_label(jstr(e, "bye"), EXPORT_EN), 0);
            }
            strbuf_puts(&b, "\r\n");
        }
        return take(&b, len);
    }
    page_open(&b, json_object_get(pl, "tournament"), what, lang);
    strbuf_puts(&b, "<table>\n<thead><tr>");
    th(&b, NULL, tr(lang, T_NAME));
    th(&b, "n", tr(lang, T_NO));
    th(&b, "n", tr(lang, T_PTS));
    th(&b, "n", tr(lang, T_BD));
    th(&b, "c", tr(lang, T_COLOUR));
    th(&b, NULL, tr(lang, T_OPPONENT));
    strbuf_puts(&b, "</tr></thead>\n<tbody>\n");
    json_array_foreach(list, i, e)
    {
        json_t *p = json_object_get(e, "player"), *o = json_object_get(e, "opponent");
        strbuf_puts(&b, "<tr><td>");
        who(&b, p);
        strbuf_puts(&b, "</td>");
        snprintf(tmp, sizeof tmp, "%lld", jint(p, "tpn"));
        td(&b, "n", tmp);
        num_in(json_object_get(p, "points"), lang, tmp, sizeof tmp);
        td(&b, "n", tmp);
        if (json_is_object(o)) {
            snprintf(tmp, sizeof tmp, "%lld", jint(e, "board"));
            td(&b, "n", tmp);
            td(&b, "c", tr(lang, strcmp(jstr(e, "colour"), "w") ? T_BLACK : T_WHITE));
            strbuf_puts(&b, "<td>");
            who(&b, o);
            strbuf_puts(&b, "</td>");
        } else {
            strbuf_puts(&b, "<td></td><td></td>");
            td(&b, NULL, bye_label(jstr(e, "bye"), lang));
        }
        strbuf_puts(&b, "</tr>\n");
    }
    strbuf_puts(&b, "</tbody>\n</table>\n");
    page_close(&b, tr(lang, T_PTS_BEFORE));
    return take(&b, len);
}

char *export_pairings(json_t *pl, ExportFormat format, ExportLang lang, int alpha, size_t *len)
{
    if (!alpha && format != EXPORT_JSON)
        return pairings_board(pl, format, lang, len);
    json_t *out = NULL;
    char *text = NULL;
    if (!alpha) {
        out = json_copy(pl);
        if (out)
            json_object_set_new(out, "order", json_string("board"));
    } else {
        json_t *list = export_pairings_alpha(pl);
        if (!list)
            return NULL;
        if (format != EXPORT_JSON) {
            text = pairings_alpha(pl, list, format, lang, len);
            json_decref(list);
            return text;
        }
        out = json_pack("{s:O,s:O,s:O,s:s,s:o}", "tournament", json_object_get(pl, "tournament"),
                        "round", json_object_get(pl, "round"), "status",
                        json_object_get(pl, "status"), "order", "alpha", "players", list);
    }
    if (out)
        text = json_dumps(out, JSON_COMPACT);
    json_decref(out);
    if (text)
        *len = strlen(text);
    return text;
}

int export_lang_parse(const char *text, ExportLang *out)
{
    static const char *const names[EXPORT_LANGS] = {"en", "ru", "bg"};
    *out = EXPORT_EN;
    if (!text)
        return 0;
    for (int i = 0; i < EXPORT_LANGS; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (ExportLang)i;
            return 0;
        }
    return -1;
}

int export_format_parse(const char *text, ExportFormat *out)
{
    static const struct {
        const char *name;
        ExportFormat f;
    } t[] = {{"json", EXPORT_JSON}, {"html", EXPORT_HTML}, {"csv", EXPORT_CSV}};
    if (!text) {
        *out = EXPORT_JSON;
        return 0;
    }
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(text, t[i].name) == 0) {
            *out = t[i].f;
            return 0;
        }
    return -1;
}

/* ---- for the other lists (export_teams.c) ---- */

const char *export_word(ExportLang lang, const char *key)
{
    pthread_once(&texts_once, load_texts);
    const char *s = json_string_value(json_object_get(docs[lang < EXPORT_LANGS ? lang : 0], key));
    if (!s)
        s = json_string_value(json_object_get(docs[EXPORT_EN], key));
    return s ? s : key;
}

void export_html(StrBuf *b, const char *text)
{
    html(b, text);
}

void export_csv_field(StrBuf *b, const char *text, int first)
{
    csv_text(b, text, first);
}

void export_page_open(StrBuf *b, json_t *tour, const char *what, ExportLang lang)
{
    page_open(b, tour, what, lang);
}

void export_page_close(StrBuf *b)
{
    page_close(b, NULL);
}
