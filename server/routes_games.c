/*
 * routes_games.c — one game: its full state, pairing changes before the
 * start, PGN, and every action of the players and of the arbiter.
 *
 * An action becomes one event checked by the Laws engine on the writer
 * thread (db/games.h) and is answered once the event is durable.  A player
 * acts only in his own game and only with his own colour: the colour of the
 * event is the one the session's player has in this game, never taken from
 * the request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "players.h"
#include "rounds.h"
#include "tournaments.h"
#include "errors.h"
#include "cache.h"
#include "event_json.h"
#include "gamecache.h"
#include "feed.h"
#include "games.h"
#include "jsonin.h"
#include "live.h"
#include "pgn_out.h"
#include "routes.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

json_t *route_game_state(Req *r, Store *s, int64_t gid, int *code)
{
    GameState *st = NULL;
    json_t *sum = NULL;
    char err[256] = "";
    /* Under a public delay the public sees the game as it was then. */
    int64_t cut = cache_cut_ms(r, s, 0, gid);
    int rc = games_load_until(s, gid, cut, &st, &sum, err, sizeof err);
    if (rc) {
        *code = rc > 0 ? rc : API_E_INTERNAL;
        snprintf(r->err, sizeof r->err, "%s", err);
        return NULL;
    }
    int64_t tid = json_integer_value(json_object_get(sum, "tournament_id"));
    json_t *w = players_get(s, tid, json_integer_value(json_object_get(sum, "white_id")));
    json_t *b = players_get(s, tid, json_integer_value(json_object_get(sum, "black_id")));
    int64_t now = cut == INT64_MAX ? store_now_ms() : cut;
    json_t *o = json_pack("{s:o,s:o,s:o,s:I}", "game", sum, "white", w ? w : json_null(), "black",
                          b ? b : json_null(), "now_ms", (json_int_t)now);
    games_state_fields(st, now, o);
    json_t *evs = games_events(s, gid, 0);
    /* The events the replay above left out (an event's time_ms is its
     * stored at_ms). */
    for (size_t i = json_array_size(evs); cut != INT64_MAX && i-- > 0;)
        if (json_integer_value(json_object_get(json_array_get(evs, i), "time_ms")) > cut)
            json_array_remove(evs, i);
    json_object_set_new(o, "events", evs);
    game_free(st);
    return o;
}

/* The validators of a game the public sees finished: its last event and
 * its round's rows (names, ratings) stand for the whole answer, whose
 * now_ms alone would change.  A game in progress is validated by its body
 * (cache.c), as its clocks run.  1 when answered 304. */
static int game_conditional(Req *r, Store *s, int64_t gid)
{
    int64_t now = store_now_ms(), last = 0, at = 0;
    if (r->auth.role != ROLE_ANON || !feed_game_over_public(s, gid, now))
        return 0;
    json_t *sum = rounds_game_summary(s, gid);
    FeedVersion v;
    int rc = sum ? feed_version(s, json_integer_value(json_object_get(sum, "tournament_id")),
                                json_integer_value(json_object_get(sum, "round")), 0, &v)
                 : -1;
    json_decref(sum);
    if (rc)
        return 0;
    feed_game_public(s, gid, now, &last, &at);
    char etag[64];
    snprintf(etag, sizeof etag, "\"g%lld-%016llx\"", (long long)last,
             (unsigned long long)v.meta_hash);
    return cache_conditional(r, etag, at);
}

int route_game_get(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (game_conditional(r, s, r->id[0]))
        return ROUTE_DONE;
    int code = 0;
    json_t *o = route_game_state(r, s, r->id[0], &code);
    if (!o)
        return http_error(r, code, "%s", r->err[0] ? r->err : "the game cannot be loaded");
    return http_json(r, 200, o);
}

const JsonField route_game_update_fields[] = {
    {"board", JF_INT, 0, 1, 10000, NULL, NULL},
    {"white_id", JF_INT, 0, 1, INT64_MAX, NULL, NULL},
    {"black_id", JF_INT, 0, 1, INT64_MAX, NULL, NULL},
    END,
};

static int run_game_update(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    int rc =
        rounds_game_update(s, r->id[0], r->in, r->auth.user_id, &r->result, r->err, sizeof r->err);
    if (rc == 0)
        games_evict(r->srv->games, r->id[0]);
    return rc;
}

int route_game_update(Req *r)
{
    if (http_parse_body(r, 0) || jsonin_check(r, r->in, route_game_update_fields, NULL))
        return ROUTE_DONE;
    return http_submit(r, run_game_update, http_finish_json200);
}

/* ---- PGN ---- */

/* The PGN of the games IDS (taken) as far as the caller may see them
 * (cache_cut_ms), saved as WHAT.pgn. */
static int pgn_reply(Req *r, json_t *ids, const char *what)
{
    Store *s = http_reader(r->srv);
    if (!s) {
        json_decref(ids);
        return http_error(r, API_E_INTERNAL, "the store is not available");
    }
    StrBuf out = STRBUF_INIT;
    size_t i;
    json_t *row;
    json_array_foreach(ids, i, row)
    {
        int64_t gid = json_integer_value(json_object_get(row, "id"));
        GameState *st = NULL;
        json_t *sum = NULL;
        char err[256];
        if (games_load_until(s, gid, cache_cut_ms(r, s, 0, gid), &st, &sum, err, sizeof err))
            continue;
        int64_t tid = json_integer_value(json_object_get(sum, "tournament_id"));
        json_t *t = tournaments_get(s, tid);
        json_t *w = players_get(s, tid, json_integer_value(json_object_get(sum, "white_id")));
        json_t *b = players_get(s, tid, json_integer_value(json_object_get(sum, "black_id")));
        pgn_out_write_game(&out, st, sum, t, w, b);
        json_decref(t);
        json_decref(w);
        json_decref(b);
        json_decref(sum);
        game_free(st);
    }
    json_decref(ids);
    size_t len = out.len;
    char *text = strbuf_take(&out);
    if (!text)
        return http_error(r, API_E_INTERNAL, "out of memory");
    char disp[96];
    snprintf(disp, sizeof disp, "inline; filename=\"%s.pgn\"", what);
    http_add_header(r, "Content-Disposition", disp);
    return http_text(r, 200, "application/x-chess-pgn; charset=utf-8", text, len);
}

/* The validators of the feed of round RN (0: every round) of tournament
 * r->id[0], from the store's version of it (db/feed.h), without rendering
 * anything; 1 when the request was answered 304. */
static int feed_conditional(Req *r, Store *s, int64_t rn)
{
    if (r->auth.role != ROLE_ANON)
        return 0;
    int64_t cut = cache_cut_ms(r, s, r->id[0], 0);
    FeedVersion v;
    if (feed_version(s, r->id[0], rn, cut, &v))
        return 0;
    char etag[64];
    snprintf(etag, sizeof etag, "\"f%lld-%016llx\"", (long long)v.last_event,
             (unsigned long long)v.meta_hash);
    return cache_conditional(r, etag, v.modified_ms);
}

int route_game_pgn(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *sum = rounds_game_summary(s, r->id[0]);
    if (!sum)
        return http_error(r, STORE_E_NOT_FOUND, "no game %lld", (long long)r->id[0]);
    json_decref(sum);
    char name[32];
    snprintf(name, sizeof name, "game-%lld", (long long)r->id[0]);
    return pgn_reply(r, json_pack("[{s:I}]", "id", (json_int_t)r->id[0]), name);
}

int route_round_pgn(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    json_t *round = rounds_get(s, r->id[0], r->id[1]);
    if (!round)
        return http_error(r, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                          (long long)r->id[1], (long long)r->id[0]);
    json_decref(round);
    if (feed_conditional(r, s, r->id[1]))
        return ROUTE_DONE;
    char name[48];
    snprintf(name, sizeof name, "tournament-%lld-round-%lld", (long long)r->id[0],
             (long long)r->id[1]);
    return pgn_reply(r, rounds_game_ids(s, r->id[0], r->id[1]), name);
}

int route_tournament_pgn(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available");
    if (!route_tournament_exists(r, s))
        return ROUTE_DONE;
    if (feed_conditional(r, s, 0))
        return ROUTE_DONE;
    char name[32];
    snprintf(name, sizeof name, "tournament-%lld", (long long)r->id[0]);
    return pgn_reply(r, rounds_tournament_game_ids(s, r->id[0]), name);
}

/* ---- actions ---- */

typedef struct GameJob {
    GameEvent ev;
    int expect_ply;
    int arbiter;
    GameOutcome out;
} GameJob;

static void job_free(void *p)
{
    GameJob *j = p;
    if (!j)
        return;
    games_outcome_clear(&j->out);
    free(j);
}

static int run_action(Store *s, WriterJob *job)
{
    Req *r = job->arg;
    GameJob *j = r->data;
    int rc = games_act(r->srv->games, s, r->id[0], &j->ev, j->expect_ply, &j->out, r->err,
                       sizeof r->err);
    if (rc == 0 && j->arbiter && j->out.event_id) {
        json_t *d = json_pack("{s:I,s:o}", "game", (json_int_t)r->id[0], "event",
                              event_json_to_json(&j->out.ev));
        alerts_audit_add(s, r->auth.user_id, 0, "game.arbiter", "game", d);
        json_decref(d);
    }
    return rc;
}

static void action_committed(Req *r, int rc)
{
    GameJob *j = r->data;
    if (rc < 0)
        games_evict(r->srv->games, r->id[0]);
    else if (rc == 0 && j->out.event_id) {
        /* 7.3: the players swapped colours in the pairing; every tablet
         * acts with its player's new colour from the next request on. */
        if (j->out.v.colours_swapped)
            gamecache_forget();
        live_game(r->srv, &j->out);
    }
}

static void action_finish(Req *r, int rc)
{
    GameJob *j = r->data;
    if (rc) {
        http_error(r, rc, "%s", r->err[0] ? r->err : "the action failed");
        return;
    }
    if (j->out.answer) {
        http_error(r, j->out.answer, "%s", j->out.answer_msg);
        return;
    }
    size_t len;
    char *text = games_outcome_answer(&j->out, &len);
    if (!text) {
        http_error(r, API_E_INTERNAL, "out of memory");
        return;
    }
    http_text(r, 200, "application/json", text, len);
}

static GameJob *job_new(Req *r, int type, int actor)
{
    GameJob *j = calloc(1, sizeof *j);
    if (!j) {
        http_error(r, API_E_INTERNAL, "out of memory");
        return NULL;
    }
    /* Stamped with the instant the request arrived (http.h): the writer's
     * queue is not the player's thinking time. */
    game_event_init(&j->ev, type, actor, r->arrived_ms);
    j->expect_ply = -1;
    r->keeps_auth = 1; /* a game event touches no session or credential */
    r->data = j;
    r->data_free = job_free;
    r->committed = action_committed;
    return j;
}

static const char *const CLAIMS[] = {"threefold", "fifty", "increment", "no_effort", NULL};

const JsonField route_ply_fields[] = {{"ply", JF_INT, 0, 0, 100000, NULL, NULL}, END};
const JsonField route_move_fields[] = {
    {"ply", JF_INT, 1, 0, 100000, NULL, NULL},
    {"move", JF_STR, 1, 1, GAME_MOVE_TEXT_MAX - 1, NULL, NULL},
    {"offer", JF_BOOL, 0, 0, 0, NULL, NULL},
    END,
};
const JsonField route_claim_fields[] = {
    {"ply", JF_INT, 0, 0, 100000, NULL, NULL},
    {"claim", JF_STR, 1, 0, 0, CLAIMS, NULL},
    {"move", JF_STR, 0, 0, GAME_MOVE_TEXT_MAX - 1, NULL, NULL},
    END,
};
const JsonField route_note_fields[] = {{"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL}, END};

static int player_action(Req *r, int type, const JsonField *fields)
{
    /* The table's role check found the caller's colour (routes.c). */
    int colour = r->colour;
    if (http_parse_body(r, fields != route_move_fields && fields != route_claim_fields) ||
        jsonin_check(r, r->in, fields, NULL))
        return ROUTE_DONE;
    GameJob *j = job_new(r, type, colour == WHITE ? GAME_ACTOR_WHITE : GAME_ACTOR_BLACK);
    if (!j)
        return ROUTE_DONE;
    j->expect_ply = (int)jsonin_int(r->in, "ply", -1);
    snprintf(j->ev.move, sizeof j->ev.move, "%s", jsonin_str(r->in, "move", ""));
    j->ev.offer = json_is_true(json_object_get(r->in, "offer"));
    snprintf(j->ev.note, sizeof j->ev.note, "%s", jsonin_str(r->in, "note", ""));
    if (type == GAME_EV_CLAIM)
        j->ev.claim = (uint8_t)game_claim_from_name(jsonin_str(r->in, "claim", ""));
    if (type == GAME_EV_FLAG)
        j->ev.side = (int8_t)(colour == WHITE ? BLACK : WHITE);
    return http_submit(r, run_action, action_finish);
}

int route_play_checkin(Req *r)
{
    return player_action(r, GAME_EV_CHECKIN, route_ply_fields);
}
int route_play_move(Req *r)
{
    return player_action(r, GAME_EV_MOVE, route_move_fields);
}
int route_play_offer(Req *r)
{
    return player_action(r, GAME_EV_OFFER, route_ply_fields);
}
int route_play_accept(Req *r)
{
    return player_action(r, GAME_EV_ACCEPT, route_ply_fields);
}
int route_play_decline(Req *r)
{
    return player_action(r, GAME_EV_DECLINE, route_ply_fields);
}
int route_play_claim(Req *r)
{
    return player_action(r, GAME_EV_CLAIM, route_claim_fields);
}
int route_play_resign(Req *r)
{
    return player_action(r, GAME_EV_RESIGN, route_ply_fields);
}
int route_play_flag(Req *r)
{
    return player_action(r, GAME_EV_FLAG, route_ply_fields);
}
int route_play_call(Req *r)
{
    return player_action(r, GAME_EV_CALL, route_note_fields);
}
int route_play_confirm(Req *r)
{
    return player_action(r, GAME_EV_CONFIRM, route_ply_fields);
}

static const char *const SIDES[] = {"white", "black", NULL};
static const char *const PENALTIES[] = {"warning",    "time_add", "time_sub",  "score_up",
                                        "score_down", "loss",     "exclusion", NULL};
const JsonField route_adjust_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"set_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"add_ms", JF_INT, 0, INT64_C(-86400000), INT64_C(86400000), NULL, NULL},
    {"moves", JF_INT, 0, 0, 10000, NULL, NULL},
    {"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL},
    END,
};
const JsonField route_restore_fields[] = {
    {"ply", JF_INT, 1, 0, 100000, NULL, NULL},
    {"white_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"black_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL},
    END,
};
const JsonField route_illegal_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"ply", JF_INT, 0, 0, 100000, NULL, NULL},
    {"white_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"black_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL},
    END,
};
const JsonField route_penalty_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"penalty", JF_STR, 1, 0, 0, PENALTIES, NULL},
    {"ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},
    {"score", JF_NUM, 0, 0, 0, NULL, NULL},
    {"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL},
    END,
};
const JsonField route_result_fields[] = {
    {"white", JF_NUM, 1, 0, 0, NULL, NULL},
    {"black", JF_NUM, 1, 0, 0, NULL, NULL},
    {"forfeit", JF_BOOL, 0, 0, 0, NULL, NULL},
    {"note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL},
    END,
};

#define NOTE_FIELD                                                                                 \
    {                                                                                              \
        "note", JF_STR, 0, 0, GAME_NOTE_MAX - 1, NULL, NULL                                        \
    }
#define CLOCK_FIELDS                                                                               \
    {"white_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL},                                     \
    {                                                                                              \
        "black_ms", JF_INT, 0, 0, INT64_C(86400000), NULL, NULL                                    \
    }
static const char *const ACTS[] = {"no_move", "two_hands", NULL};
static const char *const DISPLACED[] = {"none", "warning", "time_add", "time_sub", NULL};
static const char *const SETUPS[] = {"position", "orientation", NULL};
static const char *const DEAD[] = {"dead", "alive", NULL};
const JsonField route_touch_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"square", JF_STR, 1, 2, 2, NULL, NULL},
    {"ply", JF_INT, 0, 0, 100000, NULL, NULL},
    CLOCK_FIELDS,
    NOTE_FIELD,
    END,
};
const JsonField route_press_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"move", JF_STR, 1, 1, GAME_MOVE_TEXT_MAX - 1, NULL, NULL},
    NOTE_FIELD,
    END,
};
const JsonField route_illegal_act_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"kind", JF_STR, 1, 0, 0, ACTS, NULL},
    NOTE_FIELD,
    END,
};
const JsonField route_displaced_fields[] = {
    {"side", JF_STR, 1, 0, 0, SIDES, NULL},
    {"kind", JF_STR, 0, 0, 0, DISPLACED, NULL},
    {"ms", JF_INT, 0, 1, INT64_C(86400000), NULL, NULL},
    {"ply", JF_INT, 0, 0, 100000, NULL, NULL},
    CLOCK_FIELDS,
    NOTE_FIELD,
    END,
};
const JsonField route_setup_fields[] = {
    {"kind", JF_STR, 1, 0, 0, SETUPS, NULL},
    NOTE_FIELD,
    END,
};
const JsonField route_dead_fields[] = {
    {"kind", JF_STR, 1, 0, 0, DEAD, NULL},
    NOTE_FIELD,
    END,
};

static int arbiter_action(Req *r, int type, const JsonField *fields)
{
    if (http_parse_body(r, fields == route_note_fields) || jsonin_check(r, r->in, fields, NULL))
        return ROUTE_DONE;
    /* The body is the event's own fields: the Laws' parser checks what the
     * field table cannot (scores of 0, 0.5 or 1, fields that go together). */
    json_t *evj = json_deep_copy(r->in);
    json_object_set_new(evj, "type", json_string(game_event_type_name(type)));
    json_object_set_new(evj, "time_ms", json_integer(0));
    json_object_set_new(evj, "actor", json_string("arbiter"));
    GameJob *j = job_new(r, type, GAME_ACTOR_ARBITER);
    if (!j) {
        json_decref(evj);
        return ROUTE_DONE;
    }
    j->arbiter = 1;
    char err[200] = "";
    int rc = event_json_from_json(evj, &j->ev, err, sizeof err);
    json_decref(evj);
    if (rc)
        return http_error(r, API_E_INVALID_VALUE, "%s", err);
    j->ev.time_ms = r->arrived_ms;
    return http_submit(r, run_action, action_finish);
}

int route_arb_pause(Req *r)
{
    return arbiter_action(r, GAME_EV_PAUSE, route_note_fields);
}
int route_arb_resume(Req *r)
{
    return arbiter_action(r, GAME_EV_RESUME, route_note_fields);
}
int route_arb_accept(Req *r)
{
    return arbiter_action(r, GAME_EV_ACCEPT, route_note_fields);
}
int route_arb_decline(Req *r)
{
    return arbiter_action(r, GAME_EV_DECLINE, route_note_fields);
}
int route_arb_adjust(Req *r)
{
    return arbiter_action(r, GAME_EV_ADJUST, route_adjust_fields);
}
int route_arb_restore(Req *r)
{
    return arbiter_action(r, GAME_EV_RESTORE, route_restore_fields);
}
int route_arb_illegal(Req *r)
{
    return arbiter_action(r, GAME_EV_ILLEGAL, route_illegal_fields);
}
int route_arb_penalty(Req *r)
{
    return arbiter_action(r, GAME_EV_PENALTY, route_penalty_fields);
}
int route_arb_result(Req *r)
{
    return arbiter_action(r, GAME_EV_RESULT, route_result_fields);
}
int route_arb_colours(Req *r)
{
    return arbiter_action(r, GAME_EV_COLOURS, route_note_fields);
}
int route_arb_touch(Req *r)
{
    return arbiter_action(r, GAME_EV_TOUCH, route_touch_fields);
}
int route_arb_press(Req *r)
{
    return arbiter_action(r, GAME_EV_PRESS, route_press_fields);
}
int route_arb_illegal_act(Req *r)
{
    return arbiter_action(r, GAME_EV_ILLEGAL_ACT, route_illegal_act_fields);
}
int route_arb_displaced(Req *r)
{
    return arbiter_action(r, GAME_EV_DISPLACED, route_displaced_fields);
}
int route_arb_setup(Req *r)
{
    return arbiter_action(r, GAME_EV_SETUP, route_setup_fields);
}
int route_arb_dead(Req *r)
{
    return arbiter_action(r, GAME_EV_DEAD, route_dead_fields);
}
