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

/* The crosstable (ROUNDS nonzero) or the standings table in format F. */
static int table(Req *r, ExportFormat f, ExportLang l, int rounds)
{
    json_t *ct = crosstable_of(r);
    if (!ct)
        return ROUTE_DONE;
    size_t len = 0;
    char *text = export_crosstable(ct, f, l, rounds, &len);
    json_decref(ct);
    char name[64];
    snprintf(name, sizeof name, "%s-%lld", rounds ? "crosstable" : "standings",
             (long long)r->id[0]);
    return route_export_reply(r, f, text, len, name);
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
    json_t *pl = round_list(r);
    if (!pl)
        return ROUTE_DONE;
    size_t len = 0;
    char *text = export_pairings(pl, f, l, alpha, &len);
    json_decref(pl);
    char name[80];
    snprintf(name, sizeof name, "pairings-%lld-round-%lld%s", (long long)r->id[0],
             (long long)r->id[1], alpha ? "-alpha" : "");
    return route_export_reply(r, f, text, len, name);
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
    json_t *pl = round_list(r);
    if (!pl)
        return ROUTE_DONE;
    size_t len = 0;
    char *text = export_hall_round(pl, doc, paper, l, &len);
    json_decref(pl);
    char name[80];
    snprintf(name, sizeof name, "hall-%lld-round-%lld-%s", (long long)r->id[0], (long long)r->id[1],
             names[doc]);
    return reply_styled(r, EXPORT_HTML, text, len, name, export_hall_css(paper));
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
    json_t *ct = crosstable_of(r);
    if (!ct)
        return ROUTE_DONE;
    size_t len = 0;
    char *text = export_hall_standings(ct, paper, l, &len);
    json_decref(ct);
    char name[64];
    snprintf(name, sizeof name, "hall-%lld-standings", (long long)r->id[0]);
    return reply_styled(r, EXPORT_HTML, text, len, name, export_hall_css(paper));
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
