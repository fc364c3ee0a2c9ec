/*
 * routes_tournament.c — the tournament-level routes that go through the
 * pure tournament layer: the FIDE rating report (TRF) and byes (requested
 * ones, their cancellation, and the list with those the pairing gave).
 * The automatic pairing of a round shares POST /rounds (routes_admin.c)
 * and lives in db/tournament_io.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "admin.h"
#include "auth.h"
#include "errors.h"
#include "jsonin.h"
#include "routes.h"
#include "tournament_io.h"

int route_tournament_trf(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!admin_exists(s, 't', 0, r->id[0]))
        return http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
    /* The query string, if any: only flavour=16 or flavour=26. */
    int flavour = 26;
    const char *q = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, "flavour");
    if (q) {
        if (strcmp(q, "16") == 0)
            flavour = 16;
        else if (strcmp(q, "26") != 0)
            return http_error(r, API_E_INVALID_VALUE,
                              "flavour must be 16 (TRF16) or 26 (TRF-2026), not '%.20s'", q);
    }
    char err[200] = "";
    size_t len = 0;
    char *text = tio_trf(s, r->id[0], flavour, &len, err, sizeof err);
    if (!text)
        return http_error(r, API_E_INTERNAL, "%s", err);
    char disp[96];
    snprintf(disp, sizeof disp, "attachment; filename=\"tournament-%lld.trf\"",
             (long long)r->id[0]);
    http_add_header(r, "Content-Disposition", disp);
    return http_text(r, 200, "text/plain; charset=utf-8", text, len);
}

/* "none" cancels the requested bye of that round. */
static const char *const BYE_KINDS[] = {"half", "zero", "none", NULL};
static const JsonField BYE_FIELDS[] = {
    {"round", JF_INT, 1, 1, 99, NULL},
    {"kind", JF_STR, 1, 0, 0, BYE_KINDS},
    {NULL, 0, 0, 0, 0, NULL},
};

static int run_bye(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return tio_bye_request(s, r->id[0], r->id[1], jsonin_int(r->in, "round", 0),
                           jsonin_str(r->in, "kind", "zero"), r->auth.user_id, &r->result,
                           r->err, sizeof r->err);
}

int route_player_bye(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, BYE_FIELDS, NULL))
        return ROUTE_DONE;
    int cancel = strcmp(jsonin_str(r->in, "kind", ""), "none") == 0;
    return http_submit(r, run_bye, cancel ? http_finish_json200 : http_finish_json201);
}

int route_byes_list(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, tio_byes_list(s, r->id[0]));
}
