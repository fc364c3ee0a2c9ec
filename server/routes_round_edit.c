/*
 * routes_round_edit.c — the criteria report of a round and the arbiter's
 * edits of a pending round that the board routes do not cover (a player's
 * bye, exchanging two players' places).  Adding a board is POST
 * /rounds/{rn}/games and changing one board PATCH /games/{gid}
 * (routes_admin.c, routes_games.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "auth.h"
#include "errors.h"
#include "jsonin.h"
#include "live.h"
#include "round_edit.h"
#include "routes.h"

int route_round_check(Req *r)
{
    if (auth_require_arbiter(r))
        return ROUTE_DONE;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *out = NULL;
    char err[256] = "";
    int rc = round_edit_check(s, r->id[0], r->id[1], &out, err, sizeof err);
    if (rc > 0)
        return http_error(r, rc, "%s", err);
    if (rc < 0 || !out)
        return http_error(r, API_E_INTERNAL, "the round could not be checked");
    return http_json(r, 200, out);
}

static void edited(Req *r, int rc)
{
    if (rc == 0 && r->result)
        live_round(r->srv, r->id[0], r->result);
}

static const char *const ROUND_BYE_KINDS[] = {"pab", "half", "zero", "free", "none", NULL};
static const JsonField ROUND_BYE_FIELDS[] = {
    {"player_id", JF_INT, 1, 1, INT64_MAX, NULL},
    {"kind", JF_STR, 1, 0, 0, ROUND_BYE_KINDS},
    {NULL, 0, 0, 0, 0, NULL},
};

static int run_round_bye(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return round_edit_bye(s, r->id[0], r->id[1], jsonin_int(r->in, "player_id", 0),
                          jsonin_str(r->in, "kind", "none"), r->auth.user_id, &r->result, r->err,
                          sizeof r->err);
}

int route_round_bye(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, ROUND_BYE_FIELDS, NULL))
        return ROUTE_DONE;
    r->committed = edited;
    return http_submit(r, run_round_bye, http_finish_json200);
}

static const JsonField SWAP_FIELDS[] = {
    {"first_id", JF_INT, 1, 1, INT64_MAX, NULL},
    {"second_id", JF_INT, 1, 1, INT64_MAX, NULL},
    {NULL, 0, 0, 0, 0, NULL},
};

static int run_swap(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return round_edit_swap(s, r->id[0], r->id[1], jsonin_int(r->in, "first_id", 0),
                           jsonin_int(r->in, "second_id", 0), r->auth.user_id, &r->result,
                           r->err, sizeof r->err);
}

int route_round_swap(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, SWAP_FIELDS, NULL))
        return ROUTE_DONE;
    r->committed = edited;
    return http_submit(r, run_swap, http_finish_json200);
}
