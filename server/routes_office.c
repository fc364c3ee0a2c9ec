/*
 * routes_office.c — the tournament office's player routes: a player added
 * from the FIDE register by FIDE ID (the card's data, the rating of the
 * tournament's rating type), and the refresh of every player's rating,
 * title and federation from the register before round 1, shown first and
 * applied on request (db/office_players.h); and a whole tournament created
 * from a TRF (db/trf_import.h), a bad file answered 400 with its line.
 */
#include <string.h>

#include "errors.h"
#include "fide.h"
#include "jsonin.h"
#include "office_players.h"
#include "routes.h"
#include "trf.h"
#include "trf_import.h"

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

/* ---- a tournament from a report file ---- */

const JsonField route_tournament_import_fields[] = {
    {"trf", JF_STR, 1, 1, HTTP_MAX_BODY, NULL, NULL},
    {"time_control", JF_STR, 0, 1, 100, NULL, NULL},
    END,
};

static void import_free(void *p)
{
    tournament_free(p);
}

static int run_import(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return trf_import_create(s, r->srv->games, r->data, jsonin_str(r->in, "time_control", NULL),
                             r->auth.user_id, &r->result, r->err, sizeof r->err);
}

int route_tournament_import(Req *r)
{
    if (http_parse_body(r, 0))
        return ROUTE_DONE;
    /* A report is lines, which the table's check of one line of text would
     * refuse: the table checks a copy with the text stood in for. */
    json_t *trf = json_object_get(r->in, "trf");
    json_t *copy = json_deep_copy(r->in);
    if (json_is_string(trf) && json_string_length(trf) > 0)
        json_object_set_new(copy, "trf", json_string("-"));
    int bad = jsonin_check(r, copy, route_tournament_import_fields, NULL);
    json_decref(copy);
    if (bad)
        return ROUTE_DONE;
    const char *text = json_string_value(trf);
    Tournament *t = NULL;
    TrfError e;
    int rc = trf_read(text, strlen(text), 0, &t, &e);
    if (rc < 0)
        return http_error(r, API_E_INTERNAL, "out of memory");
    if (rc) {
        /* The line and column go with the message, for the desk to point at. */
        json_t *body = json_pack("{s:{s:s,s:s,s:i,s:i}}", "error", "code", "invalid_value",
                                 "message", e.message, "line", e.line, "column", e.column);
        return http_json(r, 400, body);
    }
    r->data = t;
    r->data_free = import_free;
    return http_submit(r, run_import, http_finish_json201);
}
