/*
 * routes_tournament.c — the tournament-level routes that go through the
 * pure tournament layer: the FIDE rating report (TRF) and byes (requested
 * ones, their cancellation, and the list with those the pairing gave) and
 * the forbidden pairs the engines pair around.
 * The automatic pairing of a round shares POST /rounds (routes_admin.c)
 * and lives in db/tournament_io.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "tournaments.h"
#include "auth.h"
#include "errors.h"
#include "forbidden.h"
#include "jsonin.h"
#include "routes.h"
#include "tournament_io.h"

int route_tournament_trf(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!tournaments_exists(s, 't', 0, r->id[0]))
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
    char *text = tournament_io_trf(s, r->id[0], flavour, &len, err, sizeof err);
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
    return tournament_io_bye_request(s, r->id[0], r->id[1], jsonin_int(r->in, "round", 0),
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
    return http_json(r, 200, tournament_io_byes_list(s, r->id[0]));
}

/* Forbidden pairs: {"players": [id, id]}, optionally limited to a round
 * range when adding.  Both players are checked here so the writer only
 * sees well-formed pairs. */
static const JsonField FORBIDDEN_FIELDS[] = {
    {"players", JF_ARR, 1, 0, 0, NULL},
    {"first_round", JF_INT, 0, 1, TRN_MAX_ROUNDS, NULL},
    {"last_round", JF_INT, 0, 1, TRN_MAX_ROUNDS, NULL},
    {NULL, 0, 0, 0, 0, NULL},
};
static const JsonField FORBIDDEN_REMOVE_FIELDS[] = {
    {"players", JF_ARR, 1, 0, 0, NULL},
    {NULL, 0, 0, 0, 0, NULL},
};

static int64_t pair_id(Req *r, size_t i)
{
    return json_integer_value(json_array_get(json_object_get(r->in, "players"), i));
}

static int run_forbidden(Store *s, WriterJob *job, int add)
{
    Req *r = job->arg;
    return forbidden_set(s, r->id[0], pair_id(r, 0), pair_id(r, 1),
                         (int)jsonin_int(r->in, "first_round", 0),
                         (int)jsonin_int(r->in, "last_round", 0), add, r->auth.user_id,
                         &r->result, r->err, sizeof r->err);
}

static int run_forbidden_add(Store *s, WriterJob *job)
{
    return run_forbidden(s, job, 1);
}

static int run_forbidden_remove(Store *s, WriterJob *job)
{
    return run_forbidden(s, job, 0);
}

/* Answers 400 unless "players" holds exactly two different positive ids. */
static int pair_check(Req *r, const JsonField *fields)
{
    if (jsonin_check(r, r->in, fields, NULL))
        return -1;
    json_t *p = json_object_get(r->in, "players");
    if (json_array_size(p) != 2)
        return http_error(r, API_E_INVALID_VALUE, "players must list exactly two player ids, "
                                                  "not %zu", json_array_size(p)), -1;
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_array_get(p, i);
        if (!json_is_integer(v) || json_integer_value(v) < 1)
            return http_error(r, API_E_WRONG_TYPE, "players[%zu] must be a player id (a "
                                                   "positive integer)", i), -1;
    }
    if (pair_id(r, 0) == pair_id(r, 1))
        return http_error(r, API_E_INVALID_VALUE, "a forbidden pair needs two different "
                                                  "players, not #%lld twice",
                          (long long)pair_id(r, 0)), -1;
    return 0;
}

int route_forbidden_list(Req *r)
{
    if (auth_require_arbiter(r))
        return ROUTE_DONE;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    json_t *out = forbidden_list(s, r->id[0]);
    if (!out)
        return http_error(r, API_E_INTERNAL, "the forbidden pairs could not be read");
    return http_json(r, 200, out);
}

int route_forbidden_add(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) || pair_check(r, FORBIDDEN_FIELDS))
        return ROUTE_DONE;
    return http_submit(r, run_forbidden_add, http_finish_json201);
}

int route_forbidden_remove(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        pair_check(r, FORBIDDEN_REMOVE_FIELDS))
        return ROUTE_DONE;
    return http_submit(r, run_forbidden_remove, http_finish_json200);
}
