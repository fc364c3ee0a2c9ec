/*
 * routes_users.c — arbiter accounts on the API: the arbiters of a
 * tournament (its chief assigns them; db/users.h) and an arbiter changing
 * his own password.  The accounts themselves are made, listed and removed
 * with `arbiter user` on the server's machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "errors.h"
#include "jsonin.h"
#include "routes.h"
#include "security.h"
#include "sessions.h"
#include "sha256.h"
#include "users.h"

const JsonField route_arbiter_fields[] = {
    {"username", JF_STR, 1, 1, 64, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

int route_arbiters_list(Req *r)
{
    Store *s = route_tournament_reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *out = users_arbiters(s, r->id[0]);
    if (!out)
        return http_error(r, API_E_INTERNAL, "the arbiters could not be read");
    return http_json(r, 200, out);
}

static int run_arbiter(Store *s, WriterJob *job, int grant)
{
    Req *r = job->arg;
    const char *name = jsonin_str(r->in, "username", "");
    int rc = grant ? users_grant(s, r->id[0], name, r->auth.user_id, r->err, sizeof r->err)
                   : users_ungrant(s, r->id[0], name, r->auth.user_id, r->err, sizeof r->err);
    if (rc == 0)
        r->result = users_arbiters(s, r->id[0]);
    return rc;
}

static int run_grant(Store *s, WriterJob *job)
{
    return run_arbiter(s, job, 1);
}

static int run_ungrant(Store *s, WriterJob *job)
{
    return run_arbiter(s, job, 0);
}

int route_arbiter_grant(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_arbiter_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_grant, http_finish_json200);
}

int route_arbiter_revoke(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_arbiter_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_ungrant, http_finish_json200);
}

const JsonField route_password_fields[] = {
    {"password", JF_STR, 1, 1, 1024, NULL, NULL},
    {"new_password", JF_STR, 1, AUTH_PASSWORD_MIN, 1024, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

/* The new password's hash and the caller's session to keep. */
typedef struct NewPassword {
    char hash[256];
    char keep[65];
} NewPassword;

static int run_password(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    NewPassword *np = r->data;
    int rc = users_passwd_id(s, r->auth.user_id, np->hash, np->keep[0] ? np->keep : NULL);
    if (rc == 0)
        r->result = json_pack("{s:b}", "ok", 1);
    return rc;
}

int route_password(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_password_fields, NULL))
        return ROUTE_DONE;
    /* Guessing the password through a stolen session is throttled like
     * signing in. */
    char key[96];
    snprintf(key, sizeof key, "user:%s", r->auth.username);
    if (security_throttle_check(r, key))
        return ROUTE_DONE;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *u = sessions_user_find(s, r->auth.username);
    int ok = u && auth_password_check(jsonin_str(r->in, "password", ""),
                                      json_string_value(json_object_get(u, "pwhash")));
    json_decref(u);
    security_throttle_result(r, key, ok, 1);
    if (!ok)
        return http_error(r, API_E_FORBIDDEN, "the current password is wrong");
    NewPassword *np = calloc(1, sizeof *np);
    if (!np)
        return http_error(r, API_E_INTERNAL, "out of memory");
    r->data = np;
    r->data_free = free;
    if (auth_password_hash(jsonin_str(r->in, "new_password", ""), np->hash, sizeof np->hash))
        return http_error(r, API_E_INTERNAL, "the password cannot be hashed");
    /* The session making the change stays; every other one ends. */
    const char *cookie = MHD_lookup_connection_value(r->conn, MHD_COOKIE_KIND, AUTH_COOKIE);
    if (cookie && r->auth.by_cookie)
        sha256_hex(cookie, strlen(cookie), np->keep);
    return http_submit(r, run_password, http_finish_json200);
}
