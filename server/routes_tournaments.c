/*
 * routes_tournaments.c — the tournaments: the list, one tournament, its
 * creation and settings, and its FIDE rating report (TRF).  Reads use this
 * thread's reader connection; writes go through the writer (group commit)
 * and are answered once durable.
 */
#include <stdio.h>
#include <string.h>

#include <microhttpd.h>

#include "tournaments.h"
#include "errors.h"
#include "jsonin.h"
#include "live.h"
#include "office.h"
#include "routes.h"
#include "tournament_io.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

/* ---- tournaments ---- */

static const char *const SYSTEMS[] = {"swiss", "roundrobin", "manual", NULL};
static const char *const FLAGS[] = {"server", "claimed", NULL};
static const char *const ILLEGAL[] = {"penalize", "reject", NULL};
static const char *const OFFERS[] = {"free", "sofia", "arbiter", NULL};
static const char *const PAIRING_SYSTEMS[] = {"dutch", "burstein", NULL};
static const char *const ACCELERATIONS[] = {"none", "baku", NULL};

const JsonField route_settings_fields[] = {
    {"flags", JF_STR, 0, 0, 0, FLAGS, NULL},
    {"illegal_entry", JF_STR, 0, 0, 0, ILLEGAL, NULL},
    {"illegal_moves_to_lose", JF_INT, 0, 0, 10, NULL, NULL},
    {"draw_offers", JF_STR, 0, 0, 0, OFFERS, NULL},
    {"sofia_moves", JF_INT, 0, 0, 200, NULL, NULL},
    {"default_time_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"supervised", JF_BOOL, 0, 0, 0, NULL, NULL},
    {"penalty_ms", JF_INT, 0, 0, INT64_C(3600000), NULL, NULL},
    {"public_delay", JF_INT, 0, 0, 86400, NULL, NULL},
    {"guidelines_iii", JF_BOOL, 0, 0, 0, NULL, NULL},
    {"fen", JF_STR, 0, 1, 100, NULL, NULL},
    {"norm_min_games", JF_INT, 0, 0, 99, NULL, NULL},
    {"national_championship", JF_BOOL, 0, 0, 0, NULL, NULL},
    {"confirm_moves", JF_BOOL, 0, 0, 0, NULL, NULL},
    END,
};

static const char *const RATING_TYPES[] = {"standard", "rapid", "blitz", NULL};

static const JsonField person_fields[] = {
    {"name", JF_STR, 0, 0, 80, NULL, NULL},
    {"fide_id", JF_STR, 0, 0, 11, NULL, NULL},
    END,
};

static const JsonField round_date_fields[] = {
    {"date", JF_STR, 0, 0, 10, NULL, NULL},
    {"time", JF_STR, 0, 0, 5, NULL, NULL},
    END,
};

/* The officials and event data (db/office.h checks the formats). */
static const JsonField office_fields[] = {
    {"federation", JF_STR, 0, 0, 3, NULL, NULL},
    {"end_date", JF_STR, 0, 0, 10, NULL, NULL},
    {"round_dates", JF_ARR, 0, 0, 0, NULL, round_date_fields},
    {"chief_arbiter", JF_OBJ, 0, 0, 0, NULL, person_fields},
    {"deputies", JF_ARR, 0, 0, 0, NULL, person_fields},
    {"chief_organiser", JF_OBJ, 0, 0, 0, NULL, person_fields},
    {"time_control_text", JF_STR, 0, 0, 100, NULL, NULL},
    {"event_code", JF_STR, 0, 0, 40, NULL, NULL},
    END,
};

const JsonField route_tournament_fields[] = {
    {"name", JF_STR, 0, 1, 200, NULL, NULL},
    {"time_control", JF_STR, 0, 1, 100, NULL, NULL},
    {"system", JF_STR, 0, 0, 0, SYSTEMS, NULL},
    {"rounds", JF_INT, 0, 1, 99, NULL, NULL},
    {"place", JF_STR, 0, 0, 200, NULL, NULL},
    {"start_date", JF_STR, 0, 0, 40, NULL, NULL},
    {"settings", JF_OBJ, 0, 0, 0, NULL, route_settings_fields},
    {"points", JF_OBJ, 0, 0, 0, NULL, NULL},
    {"tiebreaks", JF_STR, 0, 0, 200, NULL, NULL},
    {"bye_limit", JF_INT, 0, 0, 99, NULL, NULL},
    {"bye_last_rounds", JF_INT, 0, 0, 99, NULL, NULL},
    {"office", JF_OBJ, 0, 0, 0, NULL, office_fields},
    {"rating_type", JF_STR, 0, 0, 0, RATING_TYPES, NULL},
    {"pairing_system", JF_STR, 0, 0, 0, PAIRING_SYSTEMS, NULL},
    {"acceleration", JF_STR, 0, 0, 0, ACCELERATIONS, NULL},
    END,
};

int route_tournaments_list(Req *r)
{
    Store *s = http_req_reader(r);
    return s ? http_json(r, 200, tournaments_list(s)) : ROUTE_DONE;
}

int route_tournament_get(Req *r)
{
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *t = tournaments_get(s, r->id[0]);
    if (!t)
        return http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
    return http_json(r, 200, t);
}

/* The office object's fields and the objects inside it: 0, or -1 answered. */
static int check_office(Req *r, json_t *office)
{
    if (!office)
        return 0;
    if (jsonin_check(r, office, office_fields, "office"))
        return -1;
    static const char *const PEOPLE[] = {"chief_arbiter", "chief_organiser"};
    for (int i = 0; i < 2; i++) {
        json_t *p = json_object_get(office, PEOPLE[i]);
        if (p && jsonin_check(r, p, person_fields, PEOPLE[i]))
            return -1;
    }
    static const char *const LISTS[] = {"deputies", "round_dates"};
    const JsonField *subs[] = {person_fields, round_date_fields};
    for (int i = 0; i < 2; i++) {
        size_t k;
        json_t *e;
        json_array_foreach(json_object_get(office, LISTS[i]), k, e)
        {
            if (!json_is_object(e))
                return http_error(r, API_E_WRONG_TYPE, "office.%s[%zu] must be an object", LISTS[i],
                                  k),
                       -1;
            if (jsonin_check(r, e, subs[i], LISTS[i]))
                return -1;
        }
    }
    return 0;
}

static int check_tournament_body(Req *r, int create)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_tournament_fields, NULL))
        return -1;
    json_t *settings = json_object_get(r->in, "settings");
    if (settings && jsonin_check(r, settings, route_settings_fields, "settings"))
        return -1;
    if (check_office(r, json_object_get(r->in, "office")))
        return -1;
    if (create && !json_object_get(r->in, "name"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'name'"), -1;
    if (create && !json_object_get(r->in, "time_control"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'time_control'"), -1;
    char err[200] = "";
    if (tournaments_settings_check(settings, jsonin_str(r->in, "time_control", NULL), err,
                                   sizeof err) ||
        tournaments_options_check(r->in, err, sizeof err) || office_check(r->in, err, sizeof err))
        return http_error(r, API_E_INVALID_VALUE, "%s", err), -1;
    return 0;
}

static int run_tournament_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return tournaments_create(s, r->in, r->auth.user_id, &r->result, r->err, sizeof r->err);
}

int route_tournament_create(Req *r)
{
    if (check_tournament_body(r, 1))
        return ROUTE_DONE;
    return http_submit(r, run_tournament_create, http_finish_json201);
}

static int run_tournament_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return tournaments_update(s, r->id[0], r->in, r->auth.user_id, &r->result, r->err,
                              sizeof r->err);
}

/* The tablets follow their game's stream: a changed setting (the confirm
 * step, say) reaches them there. */
static void tournament_committed(Req *r, int rc)
{
    if (rc == 0 && r->result)
        live_tournament(r->srv, r->id[0], r->result);
}

int route_tournament_update(Req *r)
{
    if (check_tournament_body(r, 0))
        return ROUTE_DONE;
    r->committed = tournament_committed;
    return http_submit(r, run_tournament_update, http_finish_json200);
}

bool route_tournament_exists(Req *r, Store *s)
{
    /* A count, not tournaments_get(): the check must not build the whole
     * tournament only to drop it. */
    if (!tournaments_exists(s, 't', 0, r->id[0])) {
        http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
        return false;
    }
    return true;
}

Store *route_tournament_reader(Req *r)
{
    Store *s = http_req_reader(r);
    return s && route_tournament_exists(r, s) ? s : NULL;
}

int route_tournament_trf_reply(Req *r, const char *stem, char *text, size_t len, const char *err)
{
    if (!text)
        return http_error(r, API_E_INTERNAL, "%s", err);
    char disp[96];
    snprintf(disp, sizeof disp, "attachment; filename=\"%s-%lld.trf\"", stem, (long long)r->id[0]);
    http_add_header(r, "Content-Disposition", disp);
    return http_text(r, 200, "text/plain; charset=utf-8", text, len);
}

int route_tournament_trf(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
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
    return route_tournament_trf_reply(r, "tournament", text, len, err);
}
