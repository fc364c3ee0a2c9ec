/*
 * routes_pins.c — PIN slips in bulk: fresh sign-in credentials for every
 * player of a tournament (withdrawn players left out), or for the players
 * of one round's boards, in one write, so the arbiter prints the slips in
 * the same step.  PINs are stored only hashed (auth.h): this answer is the
 * one place the new PINs appear, which is why the desk prints them at once.
 *
 * Invariants: either every listed player gets new credentials or none
 * does (one transaction); each new PIN is unique in the tournament; each
 * player's sessions end as with the single reset (sessions.h).
 * Workload: once per event or round, at most a few hundred players.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "errors.h"
#include "players.h"
#include "rounds.h"
#include "routes.h"
#include "sessions.h"
#include "sha256.h"

const JsonField route_pins_fields[] = {
    {"round", JF_INT, 0, 1, 99, NULL, NULL},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

/* One slip: the player and the secrets drawn for him. */
typedef struct Slip {
    int64_t pid;
    char pin[AUTH_PIN_DIGITS + 1], pin_hash[65], token_hash[65];
} Slip;

typedef struct Batch {
    json_t *list; /* the slips' public part, in answer order */
    size_t n;
    Slip *slips;
} Batch;

static void batch_free(void *p)
{
    Batch *b = p;
    if (!b)
        return;
    json_decref(b->list);
    free(b->slips);
    free(b);
}

static json_t *slip_object(json_t *player, int64_t board, const char *colour)
{
    json_t *o = json_pack("{s:O,s:O,s:O?,s:O?}", "player_id", json_object_get(player, "id"), "name",
                          json_object_get(player, "name"), "title",
                          json_object_get(player, "title"), "tpn", json_object_get(player, "tpn"));
    if (o && board > 0) {
        json_object_set_new(o, "board", json_integer(board));
        json_object_set_new(o, "colour", json_string(colour));
    }
    return o;
}

static json_t *player_by_id(json_t *players, json_int_t id)
{
    size_t i;
    json_t *p;
    json_array_foreach(players, i,
                       p) if (json_integer_value(json_object_get(p, "id")) == id) return p;
    return NULL;
}

/* The slips of round RN's boards by board, or of every player still in
 * the tournament when RN is 0; NULL with an answer sent when there is no
 * such round. */
static json_t *slips_of(Req *r, Store *s, int64_t rn)
{
    json_t *players = players_list(s, r->id[0]);
    json_t *out = json_array();
    size_t i;
    json_t *x;
    if (rn == 0) {
        json_array_foreach(players, i,
                           x) if (strcmp(jsonin_str(x, "status", "active"), "withdrawn") != 0)
            json_array_append_new(out, slip_object(x, 0, NULL));
    } else {
        json_t *round = rounds_get(s, r->id[0], rn);
        if (!round) {
            json_decref(players);
            json_decref(out);
            http_error(r, STORE_E_NOT_FOUND, "no round %lld", (long long)rn);
            return NULL;
        }
        json_array_foreach(json_object_get(round, "games"), i, x)
        {
            static const char *const sides[] = {"white", "black"};
            for (int c = 0; c < 2; c++) {
                char key[16];
                snprintf(key, sizeof key, "%s_id", sides[c]);
                json_t *p = player_by_id(players, json_integer_value(json_object_get(x, key)));
                if (p)
                    json_array_append_new(
                        out,
                        slip_object(p, json_integer_value(json_object_get(x, "board")), sides[c]));
            }
        }
        json_decref(round);
    }
    json_decref(players);
    return out;
}

static int run_pins_issue(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    Batch *b = r->data;
    for (size_t i = 0; i < b->n; i++) {
        Slip *sl = &b->slips[i];
        for (int attempt = 0; sessions_pin_taken(s, r->id[0], sl->pin_hash); attempt++)
            if (attempt == 16 || auth_random_pin(sl->pin, AUTH_PIN_DIGITS) ||
                auth_pin_hash(s, r->id[0], sl->pin, sl->pin_hash))
                return -EIO;
        int rc = sessions_credentials_set(s, r->id[0], sl->pid, sl->pin_hash, sl->token_hash,
                                          r->auth.user_id, r->err, sizeof r->err);
        if (rc)
            return rc;
        json_object_set_new(json_array_get(b->list, i), "pin", json_string(sl->pin));
    }
    r->result = json_pack("{s:O}", "slips", b->list);
    return 0;
}

int route_pins_issue(Req *r)
{
    if (http_parse_body(r, 1) || jsonin_check(r, r->in, route_pins_fields, NULL))
        return ROUTE_DONE;
    Store *s = http_req_reader(r);
    if (!s)
        return ROUTE_DONE;
    Batch *b = calloc(1, sizeof *b);
    if (!b)
        return http_error(r, API_E_INTERNAL, "out of memory");
    r->data = b;
    r->data_free = batch_free;
    b->list = slips_of(r, s, r->in ? jsonin_int(r->in, "round", 0) : 0);
    if (!b->list)
        return ROUTE_DONE;
    b->n = json_array_size(b->list);
    b->slips = calloc(b->n ? b->n : 1, sizeof *b->slips);
    if (!b->slips)
        return http_error(r, API_E_INTERNAL, "out of memory");
    for (size_t i = 0; i < b->n; i++) {
        Slip *sl = &b->slips[i];
        char token[65];
        sl->pid = json_integer_value(json_object_get(json_array_get(b->list, i), "player_id"));
        if (auth_random_pin(sl->pin, AUTH_PIN_DIGITS) || auth_random_hex(token, 32) ||
            auth_pin_hash(s, r->id[0], sl->pin, sl->pin_hash))
            return http_error(r, API_E_INTERNAL, "no randomness or no PIN key available");
        sha256_hex(token, strlen(token), sl->token_hash);
    }
    return http_submit(r, run_pins_issue, http_finish_json200);
}
