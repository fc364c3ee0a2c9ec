/*
 * routes_rounds.c — a tournament's rounds: the list, one round, a new
 * round (paired by the engine or given board by board), boards added,
 * start, pause and resume; the criteria report of a pending round and the
 * arbiter's edits of it that the board routes do not cover (a player's
 * bye, exchanging two players' places).  Changing one board is PATCH
 * /games/{gid} (routes_games.c).  A round of a Baku-accelerated Swiss
 * carries its players' virtual points for the pairing views.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "rounds.h"
#include "errors.h"
#include "games.h"
#include "jsonin.h"
#include "live.h"
#include "jsonget.h"
#include "round_edit.h"
#include "round_publish.h"
#include "routes.h"
#include "teams.h"
#include "tournament_io.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

/* ---- rounds ---- */

const JsonField route_pairing_fields[] = {
    {"board", JF_INT, 0, 1, 10000, NULL, NULL},
    {"white_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {"black_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    END,
};
const JsonField route_round_fields[] = {
    {"pairings", JF_ARR, 0, 0, 0, NULL, route_pairing_fields},
    {"publish", JF_BOOL, 0, 0, 0, NULL, NULL},
    END,
};

int route_rounds_list(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *list = rounds_list(s, r->id[0]);
    size_t i;
    json_t *v;
    /* the virtual points of an accelerated Swiss, for the pairing views */
    json_array_foreach(list, i, v) if (tournament_io_round_virtual_add(s, r->id[0], v))
    {
        json_decref(list);
        return http_error(r, API_E_INTERNAL, "out of memory");
    }
    return http_json(r, 200, list);
}

int route_round_get(Req *r)
{
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *round = rounds_get(s, r->id[0], r->id[1]);
    if (!round)
        return http_error(r, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                          (long long)r->id[1], (long long)r->id[0]);
    if (tournament_io_round_virtual_add(s, r->id[0], round)) {
        json_decref(round);
        return http_error(r, API_E_INTERNAL, "out of memory");
    }
    return http_json(r, 200, round);
}

static int run_round_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    json_t *p = json_object_get(r->in, "pairings");
    /* A team round is made of matches, whose games this route cannot make. */
    if (teams_event_is_team(s, r->id[0]))
        return error_set(r->err, sizeof r->err, STORE_E_STATE,
                         "a team competition pairs its rounds with POST .../matches");
    int rc = p ? rounds_create(s, r->id[0], p, r->auth.user_id, &r->result, r->err, sizeof r->err)
               /* no pairings given: the tournament's pairing system decides */
               : tournament_io_pair_next_round(s, r->id[0], r->auth.user_id, &r->result, r->err,
                                               sizeof r->err);
    if (rc || !json_is_true(json_object_get(r->in, "publish")))
        return rc;
    /* Paired and published at once: the round is never a draft. */
    json_t *pub = NULL;
    rc = round_publish_set(s, r->id[0], jsonget_int(r->result, "number"), 1, r->auth.user_id, &pub,
                           r->err, sizeof r->err);
    if (rc == 0) {
        json_object_set(r->result, "published", json_object_get(pub, "published"));
        json_object_set(r->result, "published_at", json_object_get(pub, "published_at"));
    }
    json_decref(pub);
    return rc;
}

static void round_committed(Req *r, int rc)
{
    if (rc == 0 && r->result)
        live_round(r->srv, r->id[0], r->result);
}

int route_round_create(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, route_round_fields, NULL))
        return ROUTE_DONE;
    json_t *p = json_object_get(r->in, "pairings");
    size_t i;
    json_t *v;
    json_array_foreach(p, i, v)
    {
        char where[32];
        snprintf(where, sizeof where, "pairings[%zu]", i);
        if (!json_is_object(v))
            return http_error(r, API_E_WRONG_TYPE, "%s must be an object", where);
        if (jsonin_check(r, v, route_pairing_fields, where))
            return ROUTE_DONE;
    }
    r->committed = round_committed;
    return http_submit(r, run_round_create, http_finish_json201);
}

static int run_add_game(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return rounds_pairing_add(s, r->id[0], r->id[1], r->in, r->auth.user_id, &r->result, r->err,
                              sizeof r->err);
}

int route_round_add_game(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_pairing_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_add_game, http_finish_json201);
}

/* Start, pause, resume a whole round. */
typedef struct RoundAct {
    int type;
    GameOutcome *outcomes;
} RoundAct;

static void round_act_free(void *p)
{
    RoundAct *ra = p;
    if (ra)
        games_outcome_free(ra->outcomes);
    free(ra);
}

static int run_round_act(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    RoundAct *ra = r->data;
    int rc = games_round_act(r->srv->games, s, r->id[0], r->id[1], ra->type, &ra->outcomes, r->err,
                             sizeof r->err);
    if (rc == 0) {
        json_t *d = json_pack("{s:I,s:I,s:s}", "tournament", (json_int_t)r->id[0], "round",
                              (json_int_t)r->id[1], "action", game_event_type_name(ra->type));
        alerts_audit_add(s, r->auth.user_id, 0, "round.action", "round", d);
        json_decref(d);
        r->result = rounds_get(s, r->id[0], r->id[1]);
    }
    return rc;
}

static void round_act_committed(Req *r, int rc)
{
    RoundAct *ra = r->data;
    if (rc < 0) {
        for (GameOutcome *o = ra->outcomes; o; o = o->next)
            games_evict(r->srv->games, o->gid);
        return;
    }
    if (rc)
        return;
    for (GameOutcome *o = ra->outcomes; o; o = o->next)
        live_game(r->srv, o);
    if (r->result)
        live_round(r->srv, r->id[0], r->result);
}

static int round_act(Req *r, int type)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL))
        return ROUTE_DONE;
    RoundAct *ra = calloc(1, sizeof *ra);
    if (!ra)
        return http_error(r, API_E_INTERNAL, "out of memory");
    ra->type = type;
    r->data = ra;
    r->data_free = round_act_free;
    r->committed = round_act_committed;
    return http_submit(r, run_round_act, http_finish_json200);
}

int route_round_start(Req *r)
{
    return round_act(r, GAME_EV_START);
}

int route_round_pause(Req *r)
{
    return round_act(r, GAME_EV_PAUSE);
}

int route_round_resume(Req *r)
{
    return round_act(r, GAME_EV_RESUME);
}

int route_round_check(Req *r)
{
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
const JsonField route_round_bye_fields[] = {
    {"player_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {"kind", JF_STR, 1, 0, 0, ROUND_BYE_KINDS, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
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
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_round_bye_fields, NULL))
        return ROUTE_DONE;
    r->committed = edited;
    return http_submit(r, run_round_bye, http_finish_json200);
}

const JsonField route_swap_fields[] = {
    {"first_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {"second_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

static int run_swap(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return round_edit_swap(s, r->id[0], r->id[1], jsonin_int(r->in, "first_id", 0),
                           jsonin_int(r->in, "second_id", 0), r->auth.user_id, &r->result, r->err,
                           sizeof r->err);
}

int route_round_swap(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_swap_fields, NULL))
        return ROUTE_DONE;
    r->committed = edited;
    return http_submit(r, run_swap, http_finish_json200);
}
