/*
 * routes_forbidden.c — the forbidden pairs of a tournament, which the
 * pairing engines pair around: the list, adding one, removing one.
 */

#include "errors.h"
#include "forbidden.h"
#include "jsonin.h"
#include "routes.h"
#include "tournament_io.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

/* Forbidden pairs: {"players": [id, id]}, optionally limited to a round
 * range when adding.  Both players are checked here so the writer only
 * sees well-formed pairs. */
const JsonField route_forbidden_fields[] = {
    {"players", JF_ARR, 1, 0, 0, NULL, NULL},
    {"first_round", JF_INT, 0, 1, TRN_MAX_ROUNDS, NULL, NULL},
    {"last_round", JF_INT, 0, 1, TRN_MAX_ROUNDS, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};
const JsonField route_forbidden_remove_fields[] = {
    {"players", JF_ARR, 1, 0, 0, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
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
                         (int)jsonin_int(r->in, "last_round", 0), add, r->auth.user_id, &r->result,
                         r->err, sizeof r->err);
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
        return http_error(r, API_E_INVALID_VALUE,
                          "players must list exactly two player ids, "
                          "not %zu",
                          json_array_size(p)),
               -1;
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_array_get(p, i);
        if (!json_is_integer(v) || json_integer_value(v) < 1)
            return http_error(r, API_E_WRONG_TYPE,
                              "players[%zu] must be a player id (a "
                              "positive integer)",
                              i),
                   -1;
    }
    if (pair_id(r, 0) == pair_id(r, 1))
        return http_error(r, API_E_INVALID_VALUE,
                          "a forbidden pair needs two different "
                          "players, not #%lld twice",
                          (long long)pair_id(r, 0)),
               -1;
    return 0;
}

int route_forbidden_list(Req *r)
{
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
    if (http_parse_body(r, 0) || pair_check(r, route_forbidden_fields))
        return ROUTE_DONE;
    return http_submit(r, run_forbidden_add, http_finish_json201);
}

int route_forbidden_remove(Req *r)
{
    if (http_parse_body(r, 0) || pair_check(r, route_forbidden_remove_fields))
        return ROUTE_DONE;
    return http_submit(r, run_forbidden_remove, http_finish_json200);
}
