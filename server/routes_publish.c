/*
 * routes_publish.c — publishing a paired round and withdrawing it to a
 * draft (db/round_publish.h).  The round goes out on the tournament's live
 * stream when published; a draft is never sent there.
 */
#include "errors.h"
#include "jsonin.h"
#include "live.h"
#include "round_publish.h"
#include "routes.h"

static int run_publish(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return round_publish_set(s, r->id[0], r->id[1], r->data != NULL, r->auth.user_id, &r->result,
                             r->err, sizeof r->err);
}

static void published(Req *r, int rc)
{
    if (rc == 0 && r->result)
        live_round(r->srv, r->id[0], r->result);
}

/* PUBLISH rides in r->data as a non-NULL marker (nothing to free). */
static int publish_act(Req *r, int publish)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL))
        return ROUTE_DONE;
    r->data = publish ? (void *)r : NULL;
    r->committed = published;
    return http_submit(r, run_publish, http_finish_json200);
}

int route_round_publish(Req *r)
{
    return publish_act(r, 1);
}

int route_round_unpublish(Req *r)
{
    return publish_act(r, 0);
}

bool route_round_hidden(Req *r, Store *s, char kind, int64_t tid, int64_t id)
{
    if (r->auth.role == ROLE_ARBITER)
        return false;
    if (kind == 'r')
        return !round_publish_shown(s, tid, id);
    if (kind == 'g')
        return !round_publish_game_shown(s, id);
    return false;
}
