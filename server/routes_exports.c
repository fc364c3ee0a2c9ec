/*
 * routes_exports.c — the standings and the printable and downloadable
 * lists of a tournament: the crosstable, the standings as JSON, HTML or
 * CSV, and the pairing list of a round, by board or alphabetical.  Public:
 * no sign-in.
 *
 * ?format=html|csv|json picks the form (export.h renders it), ?lang=en|ru|bg
 * the words of an HTML page; an HTML
 * answer carries its own Content-Security-Policy that allows nothing but
 * its one inline style, by hash, since the policy of non-page answers
 * (security.c) would leave it unstyled.
 */
#include <stdio.h>
#include <string.h>

#include <microhttpd.h>

#include "jsonin.h"
#include "errors.h"
#include "export.h"
#include "export_hall.h"
#include "routes.h"
#include "security.h"
#include "tournament_io.h"
#include "tournament_lists.h"

static const char *query(Req *r, const char *name)
{
    return r->conn ? MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name) : NULL;
}

/* The ?lang= of the request into *L; on a bad value answers 400 and
 * returns -1. */
static int lang_of(Req *r, ExportLang *l)
{
    const char *q = query(r, "lang");
    if (export_lang_parse(q, l)) {
        http_error(r, API_E_INVALID_VALUE, "lang must be en, ru or bg, not '%.20s'", q);
        return -1;
    }
    return 0;
}

/* The ?format= and ?lang= of the request into *F and *L; on a bad value
 * answers 400 and returns -1. */
int route_export_format(Req *r, ExportFormat *f, ExportLang *l)
{
    const char *q = query(r, "format");
    if (export_format_parse(q, f)) {
        http_error(r, API_E_INVALID_VALUE, "format must be html, csv or json, not '%.20s'", q);
        return -1;
    }
    return lang_of(r, l);
}

/* Answers TEXT (taken) in format F, to be saved as NAME.<ext>; an HTML
 * page's policy allows the one style CSS. */
static int reply_styled(Req *r, ExportFormat f, char *text, size_t len, const char *name,
                        const char *css)
{
    if (!text)
        return http_error(r, API_E_INTERNAL, "out of memory while rendering the list");
    static const char *const ext[] = {"json", "html", "csv"};
    static const char *const ctype[] = {"application/json", "text/html; charset=utf-8",
                                        "text/csv; charset=utf-8; header=present"};
    char disp[160];
    snprintf(disp, sizeof disp, "%s; filename=\"%s.%s\"", f == EXPORT_CSV ? "attachment" : "inline",
             name, ext[f]);
    http_add_header(r, "Content-Disposition", disp);
    if (f == EXPORT_HTML) {
        char hash[64], csp[256];
        security_csp_hash(css, strlen(css), hash, sizeof hash);
        snprintf(csp, sizeof csp,
                 "default-src 'none'; style-src %s; base-uri 'none'; form-action 'none'; "
                 "frame-ancestors 'none'",
                 hash);
        http_add_header(r, "Content-Security-Policy", csp);
    }
    return http_text(r, 200, ctype[f], text, len);
}

/* Answers TEXT (taken) in format F, to be saved as NAME.<ext>. */
int route_export_reply(Req *r, ExportFormat f, char *text, size_t len, const char *name)
{
    return reply_styled(r, f, text, len, name, export_css);
}

/* The crosstable of the tournament in the path (the caller owns it), or
 * NULL after answering the error. */
static json_t *crosstable_of(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), NULL;
    json_t *ct = tournament_lists_crosstable(s, r->id[0]);
    if (!ct)
        http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
    return ct;
}

/* The pairing list of the round in the path (tournament_lists_pairings; the
 * caller owns it), or NULL after answering the error. */
static json_t *round_list(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), NULL;
    if (!route_tournament_exists(r, s))
        return NULL;
    json_t *pl = tournament_lists_pairings(s, r->id[0], r->id[1]);
    if (!pl)
        http_error(r, STORE_E_NOT_FOUND, "no round %lld in tournament %lld", (long long)r->id[1],
                   (long long)r->id[0]);
    return pl;
}

/* How one list is answered: its form, its words, the renderer's own choice
 * (OPTION: crosstable rounds, alphabetical order, or the hall document),
 * the paper of a hall document, and the one style an HTML page may use. */
typedef struct {
    ExportFormat format;
    ExportLang lang;
    int option;
    HallPaper paper;
    const char *css;
} ListForm;

/* Renders LIST as F asks; the text (NULL when out of memory) and its *LEN. */
typedef char *(*ListRenderer)(json_t *list, const ListForm *f, size_t *len);

/* Loads the list with LOAD (which answers its own errors), renders it with
 * RENDER and answers the text, to be saved as NAME.<ext>. */
static int answer_list(Req *r, json_t *(*load)(Req *), ListRenderer render, const ListForm *f,
                       const char *name)
{
    json_t *list = load(r);
    if (!list)
        return ROUTE_DONE;
    size_t len = 0;
    char *text = render(list, f, &len);
    json_decref(list);
    return reply_styled(r, f->format, text, len, name, f->css);
}

static char *render_table(json_t *ct, const ListForm *f, size_t *len)
{
    return export_crosstable(ct, f->format, f->lang, f->option, len);
}

static char *render_pairings(json_t *pl, const ListForm *f, size_t *len)
{
    return export_pairings(pl, f->format, f->lang, f->option, len);
}

static char *render_hall_round(json_t *pl, const ListForm *f, size_t *len)
{
    return export_hall_round(pl, (HallDoc)f->option, f->paper, f->lang, len);
}

static char *render_hall_standings(json_t *ct, const ListForm *f, size_t *len)
{
    return export_hall_standings(ct, f->paper, f->lang, len);
}

/* The crosstable (ROUNDS nonzero) or the standings table in format F. */
static int table(Req *r, ExportFormat f, ExportLang l, int rounds)
{
    const ListForm form = {.format = f, .lang = l, .option = rounds, .css = export_css};
    char name[64];
    snprintf(name, sizeof name, "%s-%lld", rounds ? "crosstable" : "standings",
             (long long)r->id[0]);
    return answer_list(r, crosstable_of, render_table, &form, name);
}

int route_crosstable(Req *r)
{
    ExportFormat f;
    ExportLang l;
    if (route_export_format(r, &f, &l))
        return ROUTE_DONE;
    return table(r, f, l, 1);
}

int route_standings_export(Req *r)
{
    ExportFormat f;
    ExportLang l;
    if (route_export_format(r, &f, &l))
        return ROUTE_DONE;
    if (f != EXPORT_JSON)
        return table(r, f, l, 0);
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, tournament_io_standings(s, r->id[0]));
}

int route_round_pairings(Req *r)
{
    ExportFormat f;
    ExportLang l;
    if (route_export_format(r, &f, &l))
        return ROUTE_DONE;
    const char *order = query(r, "order");
    int alpha = order && strcmp(order, "alpha") == 0;
    if (order && !alpha && strcmp(order, "board") != 0)
        return http_error(r, API_E_INVALID_VALUE, "order must be board or alpha, not '%.20s'",
                          order);
    const ListForm form = {.format = f, .lang = l, .option = alpha, .css = export_css};
    char name[80];
    snprintf(name, sizeof name, "pairings-%lld-round-%lld%s", (long long)r->id[0],
             (long long)r->id[1], alpha ? "-alpha" : "");
    return answer_list(r, round_list, render_pairings, &form, name);
}

/* ---- the documents of the playing hall ---- */

/* The ?paper= and ?lang= of the request into *P and *L; on a bad value
 * answers 400 and returns -1. */
static int hall_options(Req *r, HallPaper *p, ExportLang *l)
{
    const char *q = query(r, "paper");
    if (export_hall_paper_parse(q, p)) {
        http_error(r, API_E_INVALID_VALUE, "paper must be a4 or letter, not '%.20s'", q);
        return -1;
    }
    return lang_of(r, l);
}

int route_round_hall(Req *r)
{
    static const char *const names[] = {"board", "alpha", "cards", "slips"};
    HallDoc doc;
    HallPaper paper;
    ExportLang l;
    const char *q = query(r, "doc");
    if (export_hall_doc_parse(q, &doc))
        return http_error(r, API_E_INVALID_VALUE,
                          "doc must be board, alpha, cards or slips, not '%.20s'", q);
    if (hall_options(r, &paper, &l))
        return ROUTE_DONE;
    const ListForm form = {.format = EXPORT_HTML,
                           .lang = l,
                           .option = (int)doc,
                           .paper = paper,
                           .css = export_hall_css(paper)};
    char name[80];
    snprintf(name, sizeof name, "hall-%lld-round-%lld-%s", (long long)r->id[0], (long long)r->id[1],
             names[doc]);
    return answer_list(r, round_list, render_hall_round, &form, name);
}

int route_hall(Req *r)
{
    const char *q = query(r, "doc");
    if (q && strcmp(q, "standings") != 0)
        return http_error(r, API_E_INVALID_VALUE, "doc must be standings, not '%.20s'", q);
    HallPaper paper;
    ExportLang l;
    if (hall_options(r, &paper, &l))
        return ROUTE_DONE;
    const ListForm form = {
        .format = EXPORT_HTML, .lang = l, .paper = paper, .css = export_hall_css(paper)};
    char name[64];
    snprintf(name, sizeof name, "hall-%lld-standings", (long long)r->id[0]);
    return answer_list(r, crosstable_of, render_hall_standings, &form, name);
}

/* ---- the standings as JSON ---- */

int route_standings(Req *r)
{
    if (r->conn && MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, "format"))
        return route_standings_export(r);
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    return http_json(r, 200, tournament_io_standings(s, r->id[0]));
}
