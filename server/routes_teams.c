/*
 * routes_teams.c — team competitions: the team settings, teams and their
 * rosters, captains' credentials and sign-in, line-ups and their
 * deadlines, pairing a team round, the matches of a round, a whole match
 * forfeited, and the lists (team standings, crosstable, players' results,
 * board prizes).
 *
 * A match's boards are ordinary games: they are started, played, paused
 * and ended by the game and round routes.  A captain signs in with his PIN
 * and acts with the token it gives (Authorization: Bearer); the route
 * table lets him reach only his own team's line-up (ROUTE_CAPTAIN).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "error.h"
#include "errors.h"
#include "event_json.h"
#include "games.h"
#include "jsonin.h"
#include "lineups.h"
#include "live.h"
#include "matches.h"
#include "rounds.h"
#include "routes.h"
#include "export_teams.h"
#include "security.h"
#include "sha256.h"
#include "team_lists.h"
#include "teams.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

static const char *query(Req *r, const char *name)
{
    return r->conn ? MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name) : NULL;
}

/* The integer query parameter NAME (DFLT when absent or not a number). */
static int64_t query_int(Req *r, const char *name, int64_t dflt)
{
    const char *q = query(r, name);
    char *end = NULL;
    long long v = q ? strtoll(q, &end, 10) : 0;
    return q && end != q && !*end ? v : dflt;
}

/* Answers the store's refusal RC (positive) with ERR, or 500. */
static int refused(Req *r, int rc, const char *err)
{
    if (rc > 0)
        return http_error(r, rc, "%s", err);
    return http_error(r, API_E_INTERNAL, "the list could not be computed");
}

/* The team {team} of the path exists in {tid}; else answers 404. */
static Store *team_reader(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (s && !teams_exists(s, r->id[0], r->id[1])) {
        http_error(r, STORE_E_NOT_FOUND, "no team %lld in tournament %lld", (long long)r->id[1],
                   (long long)r->id[0]);
        return NULL;
    }
    return s;
}

/* ---- settings ---- */

static const char *const KINDS[] = {"individual", "team", NULL};
static const char *const PRIMARY[] = {"match", "game", NULL};
static const char *const COLOURS[] = {"odd", "even", NULL};
static const char *const PREFERENCES[] = {"A", "B", "none", NULL};
static const JsonField match_points_fields[] = {
    {"win", JF_NUM, 0, 0, 0, NULL, NULL},
    {"draw", JF_NUM, 0, 0, 0, NULL, NULL},
    {"loss", JF_NUM, 0, 0, 0, NULL, NULL},
    END,
};
static const JsonField bye_fields[] = {
    {"match_points", JF_NUM, 0, 0, 0, NULL, NULL},
    {"game_points", JF_NUM, 0, 0, 0, NULL, NULL},
    END,
};
const JsonField route_team_settings_fields[] = {
    {"kind", JF_STR, 0, 0, 0, KINDS, NULL},
    {"boards", JF_INT, 0, 1, 16, NULL, NULL},
    {"match_points", JF_OBJ, 0, 0, 0, NULL, match_points_fields},
    {"primary", JF_STR, 0, 0, 0, PRIMARY, NULL},
    {"colours", JF_STR, 0, 0, 0, COLOURS, NULL},
    {"preference", JF_STR, 0, 0, 0, PREFERENCES, NULL},
    {"bye", JF_OBJ, 0, 0, 0, NULL, bye_fields},
    {"tiebreaks", JF_STR, 0, 1, 200, NULL, NULL},
    END,
};

/* Answers the JSON that FN gives for the tournament of the path. */
static int tournament_json(Req *r, json_t *(*fn)(Store *s, int64_t tid))
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *out = fn(s, r->id[0]);
    return out ? http_json(r, 200, out) : refused(r, -1, "");
}

int route_team_settings_get(Req *r)
{
    return tournament_json(r, teams_settings_get);
}

static int run_settings(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return teams_settings_set(s, r->id[0], r->in, r->auth.user_id, &r->result, r->err,
                              sizeof r->err);
}

int route_team_settings_update(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_team_settings_fields, NULL))
        return ROUTE_DONE;
    json_t *mp = json_object_get(r->in, "match_points"), *bye = json_object_get(r->in, "bye");
    if ((mp && jsonin_check(r, mp, match_points_fields, "match_points")) ||
        (bye && jsonin_check(r, bye, bye_fields, "bye")))
        return ROUTE_DONE;
    return http_submit(r, run_settings, http_finish_json200);
}

/* ---- teams ---- */

static const char *const STATUSES[] = {"active", "withdrawn", NULL};
static const JsonField member_fields[] = {
    {"player_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {"reserve", JF_BOOL, 0, 0, 0, NULL, NULL},
    END,
};
const JsonField route_team_fields[] = {
    {"name", JF_STR, 0, 1, 100, NULL, NULL},
    {"federation", JF_STR, 0, 0, 3, NULL, NULL},
    {"club", JF_STR, 0, 0, 100, NULL, NULL},
    {"captain", JF_STR, 0, 0, 100, NULL, NULL},
    {"status", JF_STR, 0, 0, 0, STATUSES, NULL},
    {"members", JF_ARR, 0, 0, 0, NULL, member_fields},
    END,
};

int route_teams_list(Req *r)
{
    return tournament_json(r, teams_list);
}

int route_team_get(Req *r)
{
    Store *s = team_reader(r);
    return s ? http_json(r, 200, teams_get(s, r->id[0], r->id[1])) : ROUTE_DONE;
}

static int team_body(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_team_fields, NULL))
        return -1;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r->in, "members"), i, v)
    {
        char where[32];
        snprintf(where, sizeof where, "members[%zu]", i);
        if (!json_is_object(v))
            return http_error(r, API_E_WRONG_TYPE, "%s must be an object", where), -1;
        if (jsonin_check(r, v, member_fields, where))
            return -1;
    }
    return 0;
}

static int run_team_create(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return teams_create(s, r->id[0], r->in, r->auth.user_id, &r->result, r->err, sizeof r->err);
}

int route_team_create(Req *r)
{
    if (team_body(r))
        return ROUTE_DONE;
    if (!json_object_get(r->in, "name"))
        return http_error(r, API_E_MISSING_FIELD, "missing field 'name'");
    return http_submit(r, run_team_create, http_finish_json201);
}

static int run_team_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return teams_update(s, r->id[0], r->id[1], r->in, r->auth.user_id, &r->result, r->err,
                        sizeof r->err);
}

int route_team_update(Req *r)
{
    if (team_body(r))
        return ROUTE_DONE;
    return http_submit(r, run_team_update, http_finish_json200);
}

/* ---- captains ---- */

typedef struct CaptainCreds {
    char pin[AUTH_PIN_DIGITS + 1], pin_hash[65], token[65], token_hash[65];
    int64_t team, tid;
} CaptainCreds;

static CaptainCreds *creds_new(Req *r)
{
    CaptainCreds *c = calloc(1, sizeof *c);
    if (!c || auth_random_pin(c->pin, AUTH_PIN_DIGITS) || auth_random_hex(c->token, 32)) {
        free(c);
        http_error(r, API_E_INTERNAL, "no randomness available");
        return NULL;
    }
    sha256_hex(c->token, strlen(c->token), c->token_hash);
    r->data = c;
    r->data_free = free;
    return c;
}

static int run_credentials(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    CaptainCreds *c = r->data;
    if (!teams_exists(s, r->id[0], r->id[1]))
        return error_set(r->err, sizeof r->err, STORE_E_NOT_FOUND, "no team %lld",
                         (long long)r->id[1]);
    int rc = auth_pin_hash(s, r->id[0], c->pin, c->pin_hash);
    /* A PIN must be unique among the tournament's captains: draw again. */
    for (int i = 0; !rc && i < 16 && teams_pin_taken(s, r->id[0], c->pin_hash); i++)
        rc = auth_random_pin(c->pin, AUTH_PIN_DIGITS) ||
             auth_pin_hash(s, r->id[0], c->pin, c->pin_hash);
    if (rc)
        return -EIO;
    rc = teams_credentials_set(s, r->id[0], r->id[1], c->pin_hash, c->token_hash, r->auth.user_id);
    if (rc == 0)
        r->result = json_pack("{s:I,s:s,s:s}", "team_id", (json_int_t)r->id[1], "pin", c->pin,
                              "token", c->token);
    return rc > 0 ? error_set(r->err, sizeof r->err, rc, "the PIN is taken, try again") : rc;
}

int route_team_credentials(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL) || !creds_new(r))
        return ROUTE_DONE;
    return http_submit(r, run_credentials, http_finish_json200);
}

const JsonField route_captain_login_fields[] = {
    {"tournament_id", JF_INT, 1, 1, INT64_MAX, NULL, NULL},
    {"pin", JF_STR, 1, 4, 12, NULL, NULL},
    END,
};

static int run_captain_login(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    CaptainCreds *c = r->data;
    int rc = teams_token_set(s, c->team, c->token_hash);
    if (rc == 0)
        r->result =
            json_pack("{s:s,s:I,s:I,s:s}", "role", "captain", "tournament_id", (json_int_t)c->tid,
                      "team_id", (json_int_t)c->team, "token", c->token);
    return rc;
}

int route_captain_login(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_captain_login_fields, NULL))
        return ROUTE_DONE;
    int64_t tid = jsonin_int(r->in, "tournament_id", 0);
    char key[48], hash[65];
    /* The budget of PINs, apart from the players' PINs of the tournament. */
    snprintf(key, sizeof key, "pin:captain:%lld", (long long)tid);
    if (security_throttle_check(r, key))
        return ROUTE_DONE;
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    if (auth_pin_hash(s, tid, jsonin_str(r->in, "pin", ""), hash))
        return http_error(r, API_E_INTERNAL, "the PIN key is not available");
    int64_t team = teams_by_pin(s, tid, hash);
    security_throttle_result(r, key, team != 0, 0);
    if (!team)
        return http_error(r, API_E_UNAUTHORIZED, "wrong captain's PIN for this tournament");
    CaptainCreds *c = creds_new(r);
    if (!c)
        return ROUTE_DONE;
    c->team = team;
    c->tid = tid;
    return http_submit(r, run_captain_login, http_finish_json200);
}

/* ---- line-ups ---- */

/* The round a line-up is for when none is named: the newest round while
 * it is pending, else the next one. */
static int64_t lineup_round(Store *s, int64_t tid)
{
    int64_t last =
        store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i", tid);
    int pending = store_int(s, 0,
                            "SELECT count(*) FROM rounds WHERE tournament_id = ?1 AND number = ?2 "
                            "AND status = 'pending'",
                            "ii", tid, last) > 0;
    return pending ? last : last + 1;
}

int route_lineup_get(Req *r)
{
    Store *s = team_reader(r);
    if (!s)
        return ROUTE_DONE;
    int64_t rn = query_int(r, "round", 0);
    if (rn < 1)
        rn = lineup_round(s, r->id[0]);
    return http_json(r, 200, lineups_get(s, r->id[0], rn, r->id[1]));
}

const JsonField route_lineup_fields[] = {
    {"round", JF_INT, 0, 1, 99, NULL, NULL},
    {"players", JF_ARR, 1, 0, 0, NULL, NULL},
    END,
};

static int run_lineup(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    int64_t rn = jsonin_int(r->in, "round", 0);
    return lineups_submit(s, r->id[0], rn ? rn : lineup_round(s, r->id[0]), r->id[1],
                          json_object_get(r->in, "players"), r->auth.role == ROLE_CAPTAIN,
                          store_now_ms(), r->auth.user_id, &r->result, r->err, sizeof r->err);
}

int route_lineup_submit(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_lineup_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_lineup, http_finish_json200);
}

const JsonField route_deadline_fields[] = {
    {"round", JF_INT, 1, 1, 99, NULL, NULL},
    {"at_ms", JF_INT, 1, 0, INT64_MAX, NULL, NULL},
    END,
};

static int run_deadline(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return lineups_deadline_set(s, r->id[0], jsonin_int(r->in, "round", 1),
                                jsonin_int(r->in, "at_ms", 0), r->auth.user_id, &r->result, r->err,
                                sizeof r->err);
}

int route_lineup_deadline(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_deadline_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_deadline, http_finish_json200);
}

/* ---- matches ---- */

static int run_pair(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return matches_pair_next(s, r->id[0], r->auth.user_id, &r->result, r->err, sizeof r->err);
}

static void paired(Req *r, int rc)
{
    if (rc != 0 || !r->result)
        return;
    Store *s = http_reader(r->srv);
    json_t *round = s ? rounds_get(s, r->id[0], jsonin_int(r->result, "round", 0)) : NULL;
    if (round)
        live_round(r->srv, r->id[0], round);
    json_decref(round);
}

int route_matches_pair(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL))
        return ROUTE_DONE;
    r->committed = paired;
    return http_submit(r, run_pair, http_finish_json201);
}

int route_round_matches(Req *r)
{
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *m = matches_list(s, r->id[0], r->id[1]);
    return m ? http_json(r, 200, m) : http_error(r, API_E_INTERNAL, "the matches are unreadable");
}

/* The match {mid} of the path, or NULL after answering 404 (or 500). */
static json_t *path_match(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return NULL;
    json_t *m = matches_get(s, r->id[0], r->id[1]);
    if (!m)
        http_error(r, STORE_E_NOT_FOUND, "no match %lld in tournament %lld", (long long)r->id[1],
                   (long long)r->id[0]);
    return m;
}

static const char *const FORFEITS[] = {"a", "b", "both", "none", NULL};
const JsonField route_forfeit_fields[] = {
    {"forfeit", JF_STR, 1, 0, 0, FORFEITS, NULL},
    END,
};

/* The games a forfeit ended, for the streams after the commit. */
typedef struct Forfeit {
    GameOutcome *outcomes;
} Forfeit;

static void forfeit_free(void *p)
{
    Forfeit *f = p;
    if (f)
        games_outcome_free(f->outcomes);
    free(f);
}

/* Ends game G ({id, white, black}) by forfeit as the arbiter. */
static int end_by_forfeit(Req *r, Store *s, json_t *g, Forfeit *f)
{
    json_t *evj = json_pack("{s:s,s:i,s:s,s:O,s:O,s:b}", "type", "result", "time_ms", 0, "actor",
                            "arbiter", "white", json_object_get(g, "white"), "black",
                            json_object_get(g, "black"), "forfeit", 1);
    GameOutcome *o = calloc(1, sizeof *o);
    GameEvent ev;
    char err[200] = "";
    int rc = !evj || !o ? -ENOMEM : event_json_from_json(evj, &ev, err, sizeof err);
    json_decref(evj);
    if (rc == 0)
        rc = games_act(r->srv->games, s, jsonin_int(g, "id", 0), &ev, -1, o, r->err, sizeof r->err);
    if (rc) {
        free(o);
        return rc;
    }
    o->next = f->outcomes;
    f->outcomes = o;
    return 0;
}

static int run_forfeit(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    const char *kind = jsonin_str(r->in, "forfeit", "none");
    json_t *games = NULL;
    int rc = matches_forfeit(s, r->id[0], r->id[1], strcmp(kind, "none") ? kind : "",
                             r->auth.user_id, &games, r->err, sizeof r->err);
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        if (rc)
            break;
        rc = end_by_forfeit(r, s, g, r->data);
    }
    json_decref(games);
    if (rc == 0)
        r->result = matches_get(s, r->id[0], r->id[1]);
    return rc;
}

static void forfeit_committed(Req *r, int rc)
{
    Forfeit *f = r->data;
    for (GameOutcome *o = f->outcomes; o; o = o->next) {
        if (rc < 0)
            games_evict(r->srv->games, o->gid);
        else if (rc == 0)
            live_game(r->srv, o);
    }
}

int route_match_forfeit(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_forfeit_fields, NULL))
        return ROUTE_DONE;
    Forfeit *f = calloc(1, sizeof *f);
    if (!f)
        return http_error(r, API_E_INTERNAL, "out of memory");
    r->data = f;
    r->data_free = forfeit_free;
    r->committed = forfeit_committed;
    return http_submit(r, run_forfeit, http_finish_json200);
}

/* ---- lists ---- */

int route_team_standings(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *out = NULL;
    char err[256] = "";
    int rc =
        team_lists_standings(s, r->id[0], (int)query_int(r, "rounds", 0), &out, err, sizeof err);
    return rc ? refused(r, rc, err) : http_json(r, 200, out);
}

int route_team_crosstable(Req *r)
{
    ExportFormat f;
    ExportLang lang;
    if (route_export_format(r, &f, &lang))
        return ROUTE_DONE;
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *out = NULL;
    char err[256] = "";
    int rc = team_lists_crosstable(s, r->id[0], &out, err, sizeof err);
    if (rc)
        return refused(r, rc, err);
    if (f == EXPORT_JSON)
        return http_json(r, 200, out);
    size_t len = 0;
    char *text = export_teams_crosstable(out, f, lang, &len);
    json_decref(out);
    char name[48];
    snprintf(name, sizeof name, "team-crosstable-%lld", (long long)r->id[0]);
    return route_export_reply(r, f, text, len, name);
}

int route_team_players(Req *r)
{
    return tournament_json(r, team_lists_players);
}

int route_team_trf(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    char err[200] = "";
    size_t len = 0;
    char *text = team_lists_trf(s, r->id[0], &len, err, sizeof err);
    return route_tournament_trf_reply(r, "team-tournament", text, len, err);
}

int route_board_prizes(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    const char *by = query(r, "by");
    if (by && strcmp(by, "percent") && strcmp(by, "performance") && strcmp(by, "points"))
        return http_error(r, API_E_INVALID_VALUE,
                          "by must be percent, performance or points, not '%.20s'", by);
    json_t *out =
        team_lists_prizes(s, r->id[0], (int)query_int(r, "min_games", 0), by ? by : "percent");
    return out ? http_json(r, 200, out) : refused(r, -1, "");
}

int route_match_get(Req *r)
{
    ExportFormat f;
    ExportLang lang;
    if (route_export_format(r, &f, &lang))
        return ROUTE_DONE;
    json_t *m = path_match(r);
    if (!m || f == EXPORT_JSON)
        return m ? http_json(r, 200, m) : ROUTE_DONE;
    json_t *t =
        store_row(http_reader(r->srv), "SELECT name FROM tournaments WHERE id = ?1", "i", r->id[0]);
    size_t len = 0;
    char *text =
        export_teams_match_sheet(m, json_string_value(json_object_get(t, "name")), f, lang, &len);
    json_decref(t);
    json_decref(m);
    char name[48];
    snprintf(name, sizeof name, "match-%lld", (long long)r->id[1]);
    return route_export_reply(r, f, text, len, name);
}
