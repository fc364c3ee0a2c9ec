/*
 * routes_alerts.c — the arbiter's alerts of a tournament (a player called,
 * a flag fell ...): the list and marking one resolved.  Their live stream
 * is in routes_streams.c.
 */

#include "alerts.h"
#include "errors.h"
#include "jsonin.h"
#include "routes.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

int route_alerts_list(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    return http_json(r, 200, alerts_list(s, r->id[0], 0));
}

const JsonField route_alert_fields[] = {
    {"resolved", JF_BOOL, 1, 0, 0, NULL, NULL},
    END,
};

static int run_alert_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return alerts_resolve(s, r->id[0], r->id[1], json_is_true(json_object_get(r->in, "resolved")),
                          &r->result, r->err, sizeof r->err);
}

int route_alert_update(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_alert_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_alert_update, http_finish_json200);
}
