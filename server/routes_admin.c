/*
 * routes_admin.c — tournaments, players and their credentials, rounds and
 * pairings, standings, alerts.  Reads use this thread's reader connection;
 * writes go through the writer (group commit) and are answered once durable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "players.h"
#include "rounds.h"
#include "sessions.h"
#include "tournaments.h"
#include "auth.h"
#include "errors.h"
#include "games.h"
#include "jsonin.h"
#include "live.h"
#include "routes.h"
#include "tournament_io.h"

#define END {NULL, 0, 0, 0, 0, NULL}

static Store *reader(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        http_error(r, API_E_INTERNAL, "the store is not available");
    return s;
}

/* ---- tournaments ---- */

static const char *const SYSTEMS[] = {"swiss", "roundrobin", "manual", NULL};
static const char *const FLAGS[] = {"server", "claimed", NULL};
static const char *const ILLEGAL[] = {"penalize", "reject", NULL};
static const char *const OFFERS[] = {"free", "sofia", "arbiter", NULL};

static const JsonField SETTINGS_FIELDS[] = {
    {"flags", JF_STR, 0, 0, 0, FLAGS},
    {"illegal_entry", JF_STR, 0, 0, 0, ILLEGAL},
    {"illegal_moves_to_lose", JF_INT, 0, 0, 10, NULL},
    {"draw_offers", JF_STR, 0, 0, 0, OFFERS},
    {"sofia_moves", JF_INT, 0, 0, 200, NULL},
    {"default_time_ms", JF_INT, 0, 0, INT64_C(86400000), NULL},
    {"supervised", JF_BOOL, 0, 0, 0, NULL},
    {"penalty_ms", JF_INT, 0, 0, INT64_C(3600000), NULL},
    {"fen", JF_STR, 0, 1, 100, NULL},
    END,
};

static const JsonField TOURNAMENT_FIELDS[] = {
    {"name", JF_STR, 0, 1, 200, NULL},
    {"time_control", JF_STR, 0, 1, 100, NULL},
    {"system", JF_STR, 0, 0, 0, SYSTEMS},
    {"rounds", JF_INT, 0, 1, 99, NULL},
    {"place", JF_STR, 0, 0, 200, NULL},
    {"start_date", JF_STR, 0, 0, 40, NULL},
    {"settings", JF_OBJ, 0, 0, 0, NULL},
    {"points", JF_OBJ, 0, 0, 0, NULL},
    {"tiebreaks", JF_STR, 0, 0, 200, NULL},
    {"bye_limit", JF_INT, 0, 0, 99, NULL},
    {"bye_last_rounds", JF_INT, 0, 0, 99, NULL},
    END,
};

int route_tournaments_list(Req *r)
{
    Store *s = reader(r);
    return s ? http_json(r, 200, tournaments_list(s)) : ROUTE_DONE;
}

int route_tournament_get(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *t = tournaments_get(s, r->id[0]);
    if (!t)
        return http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
    return http_json(r, 200, t);
}

static int check_tournament_body(Req *r, int create)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, TOURNAMENT_FIELDS, NULL))
        return -1;
    json_t *settings = json_object_get(r->in, "settings");
    if (settings && jsonin_check(r, settings, SETTINGS_FIELDS, "settings"))
        return -1;
    if (create && !json_object_get(r->in, "name"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'name'"), -1;
    if (create && !json_object_get(r->in, "time_control"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'time_control'"), -1;
    char err[200] = "";
    if (tournaments_settings_check(settings, jsonin_str(r->in, "time_control", NULL), err, sizeof err) ||
        tournaments_options_check(r->in, err, sizeof err))
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
    if (auth_require_arbiter(r) || check_tournament_body(r, 1))
        return ROUTE_DONE;
    return http_submit(r, run_tournament_create, http_finish_json201);
}

static int run_tournament_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return tournaments_update(s, r->id[0], r->in, r->auth.user_id, &r->result, r->err,
                                   sizeof r->err);
}

int route_tournament_update(Req *r)
{
    if (auth_require_arbiter(r) || check_tournament_body(r, 0))
        return ROUTE_DONE;
    return http_submit(r, run_tournament_update, http_finish_json200);
}

/* ---- players ---- */

static const char *const PSTATUS[] = {"active", "withdrawn", NULL};
static const char *const SEXES[] = {"m", "w", "", NULL};

static const JsonField PLAYER_FIELDS[] = {
    {"name", JF_STR, 0, 1, 200, NULL},
    {"rating", JF_INT, 0, 0, 4000, NULL},
    {"rating_estimate", JF_INT, 0, 0, 4000, NULL},
    {"title", JF_STR, 0, 0, 8, NULL},
    {"federation", JF_STR, 0, 0, 8, NULL},
    {"fide_id", JF_STR, 0, 0, 20, NULL},
    {"sex", JF_STR, 0, 0, 0, SEXES},
    {"birth", JF_STR, 0, 0, 20, NULL},
    {"status", JF_STR, 0, 0, 0, PSTATUS},
    END,
};

bool route_tournament_exists(Req *r, Store *s)
{
    json_t *t = tournaments_get(s, r->id[0]);
    if (!t) {
        http_error(r, STORE_E_NOT_FOUND, "no tournament %lld", (long long)r->id[0]);
        return false;
    }
    json_decref(t);
    return true;
}

int route_players_list(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, players_list(s, r->id[0]));
}

int route_player_get(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *p = players_get(s, r->id[0], r->id[1]);
    if (!p)
        return http_error(r, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                          (long long)r->id[1], (long long)r->id[0]);
    return http_json(r, 200, p);
}

typedef struct Creds {
    char pin[8], token[65], pin_hash[65], token_hash[65];
} Creds;

static int creds_new(Req *r)
{
    Creds *c = calloc(1, sizeof *c);
    if (!c || auth_random_pin(c->pin, 6) || auth_random_hex(c->token, 32)) {
        free(c);
        return http_error(r, API_E_INTERNAL, "no randomness available"), -1;
    }
    auth_pin_hash(r->id[0], c->pin, c->pin_hash);
    auth_sha256_hex(c->token, strlen(c->token), c->token_hash);
    r->data = c;
    r->data_free = free;
    return 0;
}

static int run_player_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    Creds *c = r->data;
    /* A PIN must be unique within the tournament: draw again on a clash. */
    for (int attempt = 0; attempt < 16 && sessions_pin_taken(s, r->id[0], c->pin_hash); attempt++) {
        if (auth_random_pin(c->pin, 6))
            return -EIO;
        auth_pin_hash(r->id[0], c->pin, c->pin_hash);
    }
    json_t *p = NULL;
    int rc = players_create(s, r->id[0], r->in, c->pin_hash, c->token_hash, r->auth.user_id,
                                 &p, r->err, sizeof r->err);
    if (rc == 0)
        r->result = json_pack("{s:o,s:{s:O,s:s,s:s}}", "player", p, "credentials", "player_id",
                              json_object_get(p, "id"), "pin", c->pin, "token", c->token);
    return rc;
}

int route_player_create(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, PLAYER_FIELDS, NULL))
        return ROUTE_DONE;
    if (!json_object_get(r->in, "name"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'name'");
    if (creds_new(r))
        return ROUTE_DONE;
    return http_submit(r, run_player_create, http_finish_json201);
}

static int run_player_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return players_update(s, r->id[0], r->id[1], r->in, r->auth.user_id, &r->result, r->err,
                               sizeof r->err);
}

int route_player_update(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, PLAYER_FIELDS, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_player_update, http_finish_json200);
}

static int run_credentials(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    Creds *c = r->data;
    for (int attempt = 0; attempt < 16 && sessions_pin_taken(s, r->id[0], c->pin_hash); attempt++) {
        if (auth_random_pin(c->pin, 6))
            return -EIO;
        auth_pin_hash(r->id[0], c->pin, c->pin_hash);
    }
    int rc = sessions_credentials_set(s, r->id[0], r->id[1], c->pin_hash, c->token_hash,
                                   r->auth.user_id, r->err, sizeof r->err);
    if (rc == 0)
        r->result = json_pack("{s:I,s:s,s:s}", "player_id", (json_int_t)r->id[1], "pin", c->pin,
                              "token", c->token);
    return rc;
}

int route_player_credentials(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 1) ||
        jsonin_check(r, r->in, (const JsonField[]){END}, NULL) || creds_new(r))
        return ROUTE_DONE;
    return http_submit(r, run_credentials, http_finish_json200);
}

/* ---- rounds ---- */

static const JsonField PAIRING_FIELDS[] = {
    {"board", JF_INT, 0, 1, 10000, NULL},
    {"white_id", JF_INT, 1, 1, INT64_MAX, NULL},
    {"black_id", JF_INT, 1, 1, INT64_MAX, NULL},
    END,
};
static const JsonField ROUND_FIELDS[] = {
    {"pairings", JF_ARR, 0, 0, 0, NULL},
    END,
};

int route_rounds_list(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, rounds_list(s, r->id[0]));
}

int route_round_get(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *round = rounds_get(s, r->id[0], r->id[1]);
    if (!round)
        return http_error(r, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                          (long long)r->id[1], (long long)r->id[0]);
    return http_json(r, 200, round);
}

static int run_round_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    json_t *p = json_object_get(r->in, "pairings");
    if (!p) /* no pairings given: the tournament's pairing system decides */
        return tournament_io_pair_next_round(s, r->id[0], r->auth.user_id, &r->result, r->err,
                                   sizeof r->err);
    json_t *empty = json_array();
    int rc = rounds_create(s, r->id[0], p ? p : empty, r->auth.user_id, &r->result, r->err,
                                sizeof r->err);
    json_decref(empty);
    return rc;
}

static void round_committed(Req *r, int rc)
{
    if (rc == 0 && r->result)
        live_round(r->srv, r->id[0], r->result);
}

int route_round_create(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 1) ||
        jsonin_check(r, r->in, ROUND_FIELDS, NULL))
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
        if (jsonin_check(r, v, PAIRING_FIELDS, where))
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
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, PAIRING_FIELDS, NULL))
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
    int rc = games_round_act(r->srv->games, s, r->id[0], r->id[1], ra->type, &ra->outcomes,
                             r->err, sizeof r->err);
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
    if (auth_require_arbiter(r) || http_parse_body(r, 1) ||
        jsonin_check(r, r->in, (const JsonField[]){END}, NULL))
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

/* ---- standings and alerts ---- */

int route_standings(Req *r)
{
    if (r->conn && MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, "format"))
        return route_standings_export(r);
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, tournament_io_standings(s, r->id[0]));
}

int route_alerts_list(Req *r)
{
    if (auth_require_arbiter(r))
        return ROUTE_DONE;
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    return http_json(r, 200, alerts_list(s, r->id[0], 0));
}

static const JsonField ALERT_FIELDS[] = {
    {"resolved", JF_BOOL, 1, 0, 0, NULL},
    END,
};

static int run_alert_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return alerts_resolve(s, r->id[0], r->id[1],
                               json_is_true(json_object_get(r->in, "resolved")), &r->result,
                               r->err, sizeof r->err);
}

int route_alert_update(Req *r)
{
    if (auth_require_arbiter(r) || http_parse_body(r, 0) ||
        jsonin_check(r, r->in, ALERT_FIELDS, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_alert_update, http_finish_json200);
}
