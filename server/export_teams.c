/*
 * export_teams.c — the team crosstable and the match sheet as pages and
 * spreadsheets.  See export_teams.h.
 */
#include "export_teams.h"

#include <stdio.h>
#include <string.h>

static const char *s_of(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "";
}

/* A number of points: "2", "2.5". */
static void pts(json_t *v, char *out, size_t n)
{
    double d = json_number_value(v);
    if (d == (long long)d)
        snprintf(out, n, "%lld", (long long)d);
    else
        snprintf(out, n, "%.1f", d);
}

/* One field: a table cell or a CSV field. */
static void field(StrBuf *b, ExportFormat f, const char *text, int first)
{
    if (f == EXPORT_CSV) {
        export_csv_field(b, text, first);
        return;
    }
    strbuf_puts(b, "<td>");
    export_html(b, text);
    strbuf_puts(b, "</td>");
}

static void row_open(StrBuf *b, ExportFormat f)
{
    if (f == EXPORT_HTML)
        strbuf_puts(b, "<tr>");
}

static void row_close(StrBuf *b, ExportFormat f)
{
    strbuf_puts(b, f == EXPORT_HTML ? "</tr>\n" : "\r\n");
}

/* The text of B and its length, or NULL. */
static char *done(StrBuf *b, size_t *len)
{
    size_t n = b->len;
    char *s = strbuf_take(b);
    if (s)
        *len = n;
    return s;
}

/* A round's cell of the crosstable: "12w 3", "bye 2", "- 0". */
static void cross_cell(json_t *c, char *out, size_t n)
{
    char gp[16];
    pts(json_object_get(c, "game_points"), gp, sizeof gp);
    json_t *opp = json_object_get(c, "opponent");
    const char *bye = s_of(c, "bye");
    if (json_is_integer(opp))
        snprintf(out, n, "%lld%c %s%s", (long long)json_integer_value(opp),
                 strcmp(s_of(c, "colour"), "white") == 0 ? 'w' : 'b', gp,
                 s_of(c, "forfeit")[0] ? " (F)" : "");
    else
        snprintf(out, n, "%s %s", strcmp(bye, "pab") == 0 ? "PAB" : bye[0] ? "-" : "", gp);
}

char *export_teams_crosstable(json_t *ct, ExportFormat f, ExportLang lang, size_t *len)
{
    StrBuf b;
    strbuf_init(&b);
    int rounds = (int)json_integer_value(json_object_get(ct, "rounds"));
    if (f == EXPORT_HTML) {
        json_t *tour = json_pack("{s:s}", "name", export_word(lang, "team.crosstable"));
        export_page_open(&b, tour, export_word(lang, "team.crosstable"), lang);
        json_decref(tour);
        strbuf_puts(&b, "<table>\n<thead>");
    }
    row_open(&b, f);
    field(&b, f, export_word(lang, "print.rank"), 1);
    field(&b, f, export_word(lang, "print.no"), 0);
    field(&b, f, export_word(lang, "team.team"), 0);
    for (int r = 1; r <= rounds; r++) {
        char head[16];
        snprintf(head, sizeof head, "%d", r);
        field(&b, f, head, 0);
    }
    field(&b, f, export_word(lang, "team.mp"), 0);
    field(&b, f, export_word(lang, "team.gp"), 0);
    row_close(&b, f);
    if (f == EXPORT_HTML)
        strbuf_puts(&b, "</thead>\n<tbody>\n");
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(ct, "teams"), i, t)
    {
        char num[32];
        row_open(&b, f);
        snprintf(num, sizeof num, "%lld",
                 (long long)json_integer_value(json_object_get(t, "rank")));
        field(&b, f, num, 1);
        snprintf(num, sizeof num, "%lld",
                 (long long)json_integer_value(json_object_get(t, "pairing_number")));
        field(&b, f, num, 0);
        field(&b, f, s_of(t, "name"), 0);
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(t, "rounds"), k, c)
        {
            char text[48];
            cross_cell(c, text, sizeof text);
            field(&b, f, text, 0);
        }
        pts(json_object_get(t, "match_points"), num, sizeof num);
        field(&b, f, num, 0);
        pts(json_object_get(t, "game_points"), num, sizeof num);
        field(&b, f, num, 0);
        row_close(&b, f);
    }
    if (f == EXPORT_HTML) {
        strbuf_puts(&b, "</tbody>\n</table>\n");
        export_page_close(&b);
    }
    return done(&b, len);
}

/* "Name" of a match's side in M ("team_a" or "team_b"). */
static const char *side(json_t *m, const char *k)
{
    return s_of(json_object_get(m, k), "name");
}

char *export_teams_match_sheet(json_t *m, const char *tournament, ExportFormat f, ExportLang lang,
                               size_t *len)
{
    StrBuf b;
    strbuf_init(&b);
    char what[320];
    snprintf(what, sizeof what, "%s %lld: %s \xe2\x80\x93 %s", export_word(lang, "team.match"),
             (long long)json_integer_value(json_object_get(m, "table")), side(m, "team_a"),
             side(m, "team_b"));
    if (f == EXPORT_HTML) {
        json_t *tour = json_pack("{s:s}", "name", tournament ? tournament : "");
        export_page_open(&b, tour, what, lang);
        json_decref(tour);
        strbuf_puts(&b, "<table>\n");
    }
    row_open(&b, f);
    field(&b, f, export_word(lang, "print.board"), 1);
    field(&b, f, side(m, "team_a"), 0);
    field(&b, f, side(m, "team_b"), 0);
    field(&b, f, export_word(lang, "view.result"), 0);
    row_close(&b, f);
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(m, "boards"), i, g)
    {
        int a_white = strcmp(s_of(g, "colour_a"), "white") == 0;
        char board[16], a[180], bb[180];
        snprintf(board, sizeof board, "%lld",
                 (long long)json_integer_value(json_object_get(g, "board")));
        snprintf(a, sizeof a, "%s (%s)", s_of(g, a_white ? "white_name" : "black_name"),
                 a_white ? "w" : "b");
        snprintf(bb, sizeof bb, "%s (%s)", s_of(g, a_white ? "black_name" : "white_name"),
                 a_white ? "b" : "w");
        row_open(&b, f);
        field(&b, f, board, 1);
        field(&b, f, a, 0);
        field(&b, f, bb, 0);
        field(&b, f, s_of(g, "result"), 0);
        row_close(&b, f);
    }
    json_t *sc = json_object_get(m, "score");
    char ga[16], gb[16], total[40];
    pts(json_object_get(sc, "game_a"), ga, sizeof ga);
    pts(json_object_get(sc, "game_b"), gb, sizeof gb);
    snprintf(total, sizeof total, "%s : %s", ga, gb);
    row_open(&b, f);
    field(&b, f, export_word(lang, "team.total"), 1);
    field(&b, f, "", 0);
    field(&b, f, "", 0);
    field(&b, f, total, 0);
    row_close(&b, f);
    if (f == EXPORT_HTML) {
        strbuf_puts(&b, "</table>\n<p class=\"legend\">");
        export_html(&b, export_word(lang, "team.signatures"));
        strbuf_puts(&b, "</p>\n");
        export_page_close(&b);
    }
    return done(&b, len);
}
