/*
 * routes_auth.c — the sessions: signing in and out (arbiters with a
 * password, players with a PIN or token) and who-am-I.
 *
 * Passwords are checked with yescrypt on the polling thread (tens of ms,
 * rare); the session row is written through the writer, and the cookie is
 * set only once it is durable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players.h"
#include "rounds.h"
#include "sessions.h"
#include "sha256.h"
#include "auth.h"
#include "errors.h"
#include "jsonin.h"
#include "routes.h"
#include "security.h"

enum { ARBITER_SESSION_MS = 12 * 3600 * 1000, PLAYER_SESSION_MS = 24 * 3600 * 1000 };

/* A new session being written. */
typedef struct NewSession {
    char token[65], hash[65], csrf[33];
    int64_t user, player, tid, gid;
    int64_t expires;
    json_t *who; /* the user or player object for the answer */
} NewSession;

static void session_free(void *p)
{
    NewSession *ns = p;
    if (ns)
        json_decref(ns->who);
    free(ns);
}

static int run_session(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    NewSession *ns = r->data;
    int rc = sessions_create(s, ns->hash, ns->user, ns->player, ns->csrf, ns->expires);
    if (rc > 0)
        snprintf(r->err, sizeof r->err, "the session could not be created");
    return rc;
}

static void finish_session(Req *r, int rc)
{
    NewSession *ns = r->data;
    if (rc) {
        http_error(r, rc, "%s", r->err[0] ? r->err : "the session could not be created");
        return;
    }
    char cookie[256];
    snprintf(cookie, sizeof cookie, "%s=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d%s",
             AUTH_COOKIE, ns->token,
             (int)((ns->user ? ARBITER_SESSION_MS : PLAYER_SESSION_MS) / 1000),
             r->srv->behind_tls ? "; Secure" : "");
    http_add_header(r, "Set-Cookie", cookie);
    json_t *out;
    if (ns->user)
        out = json_pack("{s:s,s:O,s:n,s:n,s:n,s:s}", "role", "arbiter", "user", ns->who, "player",
                        "game_id", "colour", "csrf_token", ns->csrf);
    else
        out = json_pack("{s:s,s:n,s:O,s:o,s:o,s:s}", "role", "player", "user", "player", ns->who,
                        "game_id", ns->gid ? json_integer(ns->gid) : json_null(), "colour",
                        json_null(), "csrf_token", ns->csrf);
    http_json(r, 200, out);
}

static NewSession *session_new(Req *r)
{
    NewSession *ns = calloc(1, sizeof *ns);
    if (!ns || auth_random_hex(ns->token, 32) || auth_random_hex(ns->csrf, 16)) {
        free(ns);
        return NULL;
    }
    sha256_hex(ns->token, strlen(ns->token), ns->hash);
    r->data = ns;
    r->data_free = session_free;
    return ns;
}

const JsonField route_login_fields[] = {
    {"username", JF_STR, 1, 1, 64, NULL, NULL},
    {"password", JF_STR, 1, 1, 1024, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

int route_login(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_login_fields, NULL))
        return ROUTE_DONE;
    char key[96];
    snprintf(key, sizeof key, "user:%s", jsonin_str(r->in, "username", ""));
    if (security_throttle_check(r, key))
        return ROUTE_DONE;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *u = sessions_user_find(s, jsonin_str(r->in, "username", ""));
    /* An unknown name is checked against a dummy hash: it takes as long. */
    int ok = auth_password_check(jsonin_str(r->in, "password", ""),
                                 u ? json_string_value(json_object_get(u, "pwhash")) : NULL);
    security_throttle_result(r, key, ok, 1);
    if (!ok) {
        json_decref(u);
        return http_error(r, API_E_UNAUTHORIZED, "wrong username or password");
    }
    NewSession *ns = session_new(r);
    if (!ns) {
        json_decref(u);
        return http_error(r, API_E_INTERNAL, "no randomness available");
    }
    ns->user = json_integer_value(json_object_get(u, "id"));
    ns->expires = store_now_ms() + ARBITER_SESSION_MS;
    json_object_del(u, "pwhash");
    ns->who = u;
    return http_submit(r, run_session, finish_session);
}

const JsonField route_player_login_fields[] = {
    {"tournament_id", JF_INT, 0, 1, INT64_MAX, NULL, NULL},
    {"pin", JF_STR, 0, 4, 12, NULL, NULL},
    {"token", JF_STR, 0, 1, 128, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

int route_player_login(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_player_login_fields, NULL))
        return ROUTE_DONE;
    const char *pin = jsonin_str(r->in, "pin", NULL);
    const char *token = jsonin_str(r->in, "token", NULL);
    int64_t tid = jsonin_int(r->in, "tournament_id", 0);
    if ((pin != NULL) == (token != NULL))
        return http_error(r, API_E_MISSING_FIELD,
                          "give either 'tournament_id' and 'pin', or 'token'");
    if (pin && !tid)
        return http_error(r, API_E_MISSING_FIELD,
                          "missing field 'tournament_id' (a PIN belongs "
                          "to one tournament)");
    char hash[65], key[48];
    if (pin)
        snprintf(key, sizeof key, "pin:%lld", (long long)tid);
    else
        snprintf(key, sizeof key, "token");
    if (security_throttle_check(r, key))
        return ROUTE_DONE;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *p;
    if (pin) {
        if (auth_pin_hash(s, tid, pin, hash))
            return http_error(r, API_E_INTERNAL, "the PIN key is not available");
        p = sessions_player_by_pin(s, tid, hash);
        if (!p && strlen(pin) < AUTH_PIN_DIGITS) {
            /* A PIN issued before the keyed hash (6 digits). */
            auth_pin_hash_legacy(tid, pin, hash);
            p = sessions_player_by_pin(s, tid, hash);
        }
    } else {
        sha256_hex(token, strlen(token), hash);
        p = sessions_player_by_token(s, hash);
    }
    security_throttle_result(r, key, p != NULL, 0);
    if (!p) {
        return http_error(r, API_E_UNAUTHORIZED,
                          pin ? "wrong PIN for this tournament" : "this token is not valid");
    }
    int64_t pid = json_integer_value(json_object_get(p, "id"));
    tid = json_integer_value(json_object_get(p, "tournament_id"));
    json_decref(p);
    NewSession *ns = session_new(r);
    if (!ns)
        return http_error(r, API_E_INTERNAL, "no randomness available");
    ns->player = pid;
    ns->tid = tid;
    ns->gid = rounds_player_current_game(s, pid);
    ns->expires = store_now_ms() + PLAYER_SESSION_MS;
    ns->who = players_get(s, tid, pid);
    return http_submit(r, run_session, finish_session);
}

static int run_logout(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    return sessions_delete(s, r->data);
}

static void finish_logout(Req *r, int rc)
{
    if (rc) {
        http_error(r, rc, "the session could not be ended");
        return;
    }
    char cookie[128];
    snprintf(cookie, sizeof cookie, "%s=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0%s",
             AUTH_COOKIE, r->srv->behind_tls ? "; Secure" : "");
    http_add_header(r, "Set-Cookie", cookie);
    http_json(r, 200, json_pack("{s:b}", "ok", 1));
}

int route_logout(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, jsonin_none, NULL))
        return ROUTE_DONE;
    const char *cookie = MHD_lookup_connection_value(r->conn, MHD_COOKIE_KIND, AUTH_COOKIE);
    if (!cookie || !r->auth.by_cookie) {
        finish_logout(r, 0);
        return ROUTE_DONE;
    }
    char *hash = malloc(65);
    if (!hash)
        return http_error(r, API_E_INTERNAL, "out of memory");
    sha256_hex(cookie, strlen(cookie), hash);
    r->data = hash;
    r->data_free = free;
    return http_submit(r, run_logout, finish_logout);
}

int route_me(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    const char *csrf = r->auth.by_cookie ? r->auth.csrf : NULL;
    if (r->auth.role == ROLE_ARBITER)
        return http_json(r, 200,
                         json_pack("{s:s,s:{s:I,s:s},s:n,s:n,s:n,s:s?}", "role", "arbiter", "user",
                                   "id", (json_int_t)r->auth.user_id, "username", r->auth.username,
                                   "player", "game_id", "colour", "csrf_token", csrf));
    if (r->auth.role == ROLE_PLAYER) {
        int64_t gid = rounds_player_current_game(s, r->auth.player_id);
        json_t *p = players_get(s, r->auth.tournament_id, r->auth.player_id);
        const char *colour = NULL;
        if (gid) {
            json_t *g = rounds_game_summary(s, gid);
            colour = json_integer_value(json_object_get(g, "white_id")) == r->auth.player_id
                         ? "white"
                         : "black";
            json_decref(g);
        }
        return http_json(r, 200,
                         json_pack("{s:s,s:n,s:o,s:o,s:s?,s:s?}", "role", "player", "user",
                                   "player", p ? p : json_null(), "game_id",
                                   gid ? json_integer(gid) : json_null(), "colour", colour,
                                   "csrf_token", csrf));
    }
    if (r->auth.role == ROLE_CAPTAIN)
        return http_json(r, 200,
                         json_pack("{s:s,s:n,s:n,s:n,s:n,s:n,s:I,s:I}", "role", "captain", "user",
                                   "player", "game_id", "colour", "csrf_token", "team_id",
                                   (json_int_t)r->auth.team_id, "tournament_id",
                                   (json_int_t)r->auth.tournament_id));
    return http_json(r, 200,
                     json_pack("{s:s,s:n,s:n,s:n,s:n,s:n}", "role", "anonymous", "user", "player",
                               "game_id", "colour", "csrf_token"));
}
