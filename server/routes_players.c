/*
 * routes_players.c — a tournament's players: the list, one player, entry
 * and changes, sign-in credentials (a PIN and a token, shown once), and
 * the byes players request (with the list of those the pairing gave).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "players.h"
#include "sessions.h"
#include "auth.h"
#include "errors.h"
#include "jsonin.h"
#include "routes.h"
#include "sha256.h"
#include "tournament_io.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

/* ---- players ---- */

static const char *const PSTATUS[] = {"active", "withdrawn", NULL};
static const char *const SEXES[] = {"m", "w", "", NULL};
/* FIDE's titles (B.01, B.07); "" is no title.  Federations and the rating's
 * gap below 1000 are checked in players.c, where the rule has its words. */
static const char *const TITLES[] = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "", NULL};

const JsonField route_player_fields[] = {
    {"name", JF_STR, 0, 1, 200, NULL, NULL},
    {"rating", JF_INT, 0, 0, 3500, NULL, NULL},
    {"rating_estimate", JF_INT, 0, 0, 4000, NULL, NULL},
    {"title", JF_STR, 0, 0, 0, TITLES, NULL},
    {"federation", JF_STR, 0, 0, 3, NULL, NULL},
    {"fide_id", JF_STR, 0, 0, 20, NULL, NULL},
    {"sex", JF_STR, 0, 0, 0, SEXES, NULL},
    {"birth", JF_STR, 0, 0, 20, NULL, NULL},
    {"status", JF_STR, 0, 0, 0, PSTATUS, NULL},
    END,
};

/* What the public may see of a player: name, title, federation, rating
 * and the tournament's own data (id, status, points).  Birth date, sex and
 * FIDE id are personal data: only an arbiter sees them. */
static json_t *public_view(const Req *r, json_t *player)
{
    static const char *const personal[] = {"birth", "sex", "fide_id"};
    if (!player || r->auth.role == ROLE_ARBITER)
        return player;
    for (size_t i = 0; i < sizeof personal / sizeof personal[0]; i++)
        json_object_del(player, personal[i]);
    return player;
}

int route_players_list(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    json_t *list = players_list(s, r->id[0]);
    size_t i;
    json_t *p;
    json_array_foreach(list, i, p) public_view(r, p);
    return http_json(r, 200, list);
}

int route_player_get(Req *r)
{
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *p = players_get(s, r->id[0], r->id[1]);
    if (!p)
        return http_error(r, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                          (long long)r->id[1], (long long)r->id[0]);
    return http_json(r, 200, public_view(r, p));
}

typedef struct Creds {
    char pin[AUTH_PIN_DIGITS + 1], token[65], pin_hash[65], token_hash[65];
} Creds;

static int creds_new(Req *r)
{
    Creds *c = calloc(1, sizeof *c);
    Store *s = http_reader(r->srv);
    if (!c || !s || auth_random_pin(c->pin, AUTH_PIN_DIGITS) || auth_random_hex(c->token, 32) ||
        auth_pin_hash(s, r->id[0], c->pin, c->pin_hash)) {
        free(c);
        return http_error(r, API_E_INTERNAL, "no randomness or no PIN key available"), -1;
    }
    sha256_hex(c->token, strlen(c->token), c->token_hash);
    r->data = c;
    r->data_free = free;
    return 0;
}

/* A PIN must be unique within tournament TID: draws again on a clash, at
 * most 16 times.  0, or -EIO without randomness. */
static int unique_pin(Store *s, int64_t tid, Creds *c)
{
    for (int attempt = 0; attempt < 16 && sessions_pin_taken(s, tid, c->pin_hash); attempt++) {
        if (auth_random_pin(c->pin, AUTH_PIN_DIGITS) || auth_pin_hash(s, tid, c->pin, c->pin_hash))
            return -EIO;
    }
    return 0;
}

static int run_player_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    Creds *c = r->data;
    if (unique_pin(s, r->id[0], c))
        return -EIO;
    json_t *p = NULL;
    int rc = players_create(s, r->id[0], r->in, c->pin_hash, c->token_hash, r->auth.user_id, &p,
                            r->err, sizeof r->err);
    if (rc == 0)
        r->result = json_pack("{s:o,s:{s:O,s:s,s:s}}", "player", p, "credentials", "player_id",
                              json_object_get(p, "id"), "pin", c->pin, "token", c->token);
    return rc;
}

int route_player_create(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_player_fields, NULL))
        return ROUTE_DONE;
    if (!json_object_get(r->in, "name"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'name'");
    return route_player_submit(r);
}

int route_player_submit(Req *r)
{
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
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_player_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_player_update, http_finish_json200);
}

static int run_credentials(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    Creds *c = r->data;
    if (unique_pin(s, r->id[0], c))
        return -EIO;
    int rc = sessions_credentials_set(s, r->id[0], r->id[1], c->pin_hash, c->token_hash,
                                      r->auth.user_id, r->err, sizeof r->err);
    if (rc == 0)
        r->result = json_pack("{s:I,s:s,s:s}", "player_id", (json_int_t)r->id[1], "pin", c->pin,
                              "token", c->token);
    return rc;
}

int route_player_credentials(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL) || creds_new(r))
        return ROUTE_DONE;
    return http_submit(r, run_credentials, http_finish_json200);
}

/* "none" cancels the requested bye of that round. */
static const char *const BYE_KINDS[] = {"half", "zero", "none", NULL};
const JsonField route_bye_fields[] = {
    {"round", JF_INT, 1, 1, 99, NULL, NULL},
    {"kind", JF_STR, 1, 0, 0, BYE_KINDS, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
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
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_bye_fields, NULL))
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
