/*
 * routes_office.c — the tournament office's player routes: a player added
 * from the FIDE register by FIDE ID (the card's data, the rating of the
 * tournament's rating type), and the refresh of every player's rating,
 * title and federation from the register before round 1, shown first and
 * applied on request (db/office_players.h).
 */
#include "errors.h"
#include "fide.h"
#include "jsonin.h"
#include "office_players.h"
#include "routes.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

const JsonField route_player_fide_fields[] = {
    {"fide_id", JF_INT, 1, 1, INT64_C(99999999999), NULL, NULL},
    {"rating_estimate", JF_INT, 0, 0, 4000, NULL, NULL},
    END,
};

const JsonField route_players_refresh_fields[] = {
    {"apply", JF_BOOL, 0, 0, 0, NULL, NULL},
    END,
};

int route_player_add_fide(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_player_fide_fields, NULL))
        return ROUTE_DONE;
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    int64_t id = jsonin_int(r->in, "fide_id", 0);
    json_t *card = fide_player(s, id);
    if (!card)
        return http_error(r, STORE_E_NOT_FOUND, "FIDE ID %lld is not in the register",
                          (long long)id);
    char type[16];
    office_players_rating_type(s, r->id[0], type, sizeof type);
    json_t *body = office_players_body(card, type);
    json_decref(card);
    if (!body)
        return http_error(r, API_E_INTERNAL, "out of memory");
    json_t *est = json_object_get(r->in, "rating_estimate");
    if (est)
        json_object_set(body, "rating_estimate", est);
    /* From here on it is the player body a desk would have typed. */
    json_decref(r->in);
    r->in = body;
    return route_player_submit(r);
}

static int run_refresh(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return office_players_refresh(s, r->id[0], json_is_true(json_object_get(r->in, "apply")),
                                  r->auth.user_id, &r->result, r->err, sizeof r->err);
}

int route_players_refresh(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, route_players_refresh_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_refresh, http_finish_json200);
}
