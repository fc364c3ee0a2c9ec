/*
 * games.c — game event logs: replay, the writer's cache of live states,
 * appending checked events, round-wide actions, downtime pauses, time
 * checks.  See games.h.
 */
#include "games.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alert_detail.h"
#include "alerts.h"
#include "error.h"
#include "event_json.h"
#include "jsonget.h"
#include "rounds.h"

/* Games kept in memory: every game not over, and the KEEP_DONE that ended
 * last (players confirm a result, the arbiter corrects one, soon after the
 * end); older finished games are dropped in the order they ended, and a
 * later action on one replays it from the store.  An Olympiad plays a
 * thousand boards a round for eleven rounds; without the bound every game
 * played stayed loaded until the server stopped.  Dropping costs O(1) per
 * game that ends: scanning the table instead, with thousands of games of
 * rounds paired ahead loaded, took a third of the writer's time. */
enum { BUCKETS = 8192, KEEP_DONE = 256 };

typedef struct Entry {
    int64_t gid, tid;
    GameState *st;
    int32_t seq;     /* events stored so far */
    char status[12]; /* games.status as stored */
    char result[16]; /* games.result as stored */
    /* The last accepted action, to recognise a retried submission. */
    int last_type, last_actor;
    int32_t last_ply; /* plies before it */
    int32_t last_nevents;
    char last_text[GAME_MOVE_TEXT_MAX];
    EventJsonSheet sheet; /* the scoresheet text, one ply added per move */
    struct Entry *next;
    /* On the list of finished games, oldest end first, while st->over. */
    bool done;
    struct Entry *done_prev, *done_next;
} Entry;

struct Games {
    Entry *buckets[BUCKETS];
    Entry *done_head, *done_tail;
    int ndone;
};

Games *games_new(void)
{
    return calloc(1, sizeof(Games));
}

static void entry_free(Entry *e)
{
    if (e) {
        game_free(e->st);
        event_json_sheet_clear(&e->sheet);
        free(e);
    }
}

void games_free(Games *g)
{
    if (!g)
        return;
    for (int i = 0; i < BUCKETS; i++)
        for (Entry *e = g->buckets[i], *nx; e; e = nx) {
            nx = e->next;
            entry_free(e);
        }
    free(g);
}

static void done_unlink(Games *g, Entry *e)
{
    if (!e->done)
        return;
    *(e->done_prev ? &e->done_prev->done_next : &g->done_head) = e->done_next;
    *(e->done_next ? &e->done_next->done_prev : &g->done_tail) = e->done_prev;
    e->done = false;
    e->done_prev = e->done_next = NULL;
    g->ndone--;
}

void games_evict(Games *g, int64_t gid)
{
    Entry **pp = &g->buckets[gid % BUCKETS];
    while (*pp && (*pp)->gid != gid)
        pp = &(*pp)->next;
    if (*pp) {
        Entry *e = *pp;
        *pp = e->next;
        done_unlink(g, e);
        entry_free(e);
    }
}

/* Keeps the list of finished games in step with E (just loaded or just
 * changed: an arbiter can also reopen a game), then drops the oldest
 * finished games beyond KEEP_DONE.  E itself is the newest, so it stays. */
static void note_state(Games *g, Entry *e)
{
    if (e->st->over && !e->done) {
        e->done = true;
        e->done_prev = g->done_tail;
        *(g->done_tail ? &g->done_tail->done_next : &g->done_head) = e;
        g->done_tail = e;
        g->ndone++;
    } else if (!e->st->over) {
        done_unlink(g, e);
    }
    while (g->ndone > KEEP_DONE && g->done_head != e)
        games_evict(g, g->done_head->gid);
}

void games_outcome_clear(GameOutcome *o)
{
    json_decref(o->event);
    json_decref(o->update);
    json_decref(o->verdict);
    json_decref(o->alerts);
    game_free(o->snap);
    free(o->update_text);
    free(o->sheet);
    o->update_text = o->sheet = NULL;
    o->update_len = 0;
    o->event = o->update = o->verdict = o->alerts = NULL;
    o->snap = NULL;
}

void games_outcome_free(GameOutcome *o)
{
    while (o) {
        GameOutcome *nx = o->next;
        games_outcome_clear(o);
        free(o);
        o = nx;
    }
}

/* A deep copy of ST (its own ply, key and note arrays), or NULL.  The
 * arrays are sized to their contents, not to ST's capacity: a copy is made
 * for every move and freed once it is answered, and the capacity (7 KB for
 * a new game) made each copy a large allocation.  The capacities left are
 * ones game_apply()'s growth by doubling still handles. */
static GameState *state_copy(const GameState *st)
{
    GameState *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *st;
    c->cap_plies = st->nplies + 1;
    c->cap_notes = st->nnotes + 3;
    c->plies = malloc(sizeof *c->plies * (size_t)c->cap_plies);
    c->keys = malloc(sizeof *c->keys * (size_t)(c->cap_plies + 1));
    c->notes = malloc(sizeof *c->notes * (size_t)c->cap_notes);
    if (!c->plies || !c->keys || !c->notes) {
        game_free(c);
        return NULL;
    }
    memcpy(c->plies, st->plies, sizeof *c->plies * (size_t)st->nplies);
    memcpy(c->keys, st->keys, sizeof *c->keys * (size_t)(st->nplies + 1));
    memcpy(c->notes, st->notes, sizeof *c->notes * (size_t)st->nnotes);
    return c;
}

static const char *status_of(const GameState *st)
{
    return st->over ? "over" : st->started ? "running" : "pending";
}

/* The GameSettings of tournament TID (its time control and settings). */
static int settings_of(Store *s, int64_t tid, GameSettings *gs, char *err, size_t n)
{
    json_t *t = store_row(s,
                          "SELECT time_control, settings AS settings_json FROM tournaments "
                          "WHERE id = ?1",
                          "i", tid);
    if (!t)
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    json_t *obj = json_deep_copy(json_object_get(t, "settings"));
    if (!json_is_object(obj)) {
        json_decref(obj);
        obj = json_object();
    }
    json_object_set(obj, "time_control", json_object_get(t, "time_control"));
    char e2[200] = "";
    int rc = event_json_settings_from_json(obj, gs, e2, sizeof e2);
    json_decref(obj);
    json_decref(t);
    if (rc)
        return error_set(err, n, STORE_E_INVALID, "the tournament's settings are not valid: %s",
                         e2);
    return 0;
}

static const char SQL_EVENTS[] =
    "SELECT id, seq, body FROM game_events WHERE game_id = ?1 AND at_ms <= ?2 ORDER BY seq";

/* Replays GID's events stored at or before CUT_MS into a new Entry (not yet
 * in the cache). */
static int load_entry(Store *s, int64_t gid, int64_t cut_ms, Entry **out, json_t **summary,
                      char *err, size_t n)
{
    *out = NULL;
    json_t *sum = rounds_game_summary(s, gid);
    if (!sum)
        return error_set(err, n, STORE_E_NOT_FOUND, "no game %lld", (long long)gid);
    Entry *e = calloc(1, sizeof *e);
    GameSettings gs;
    int rc = -ENOMEM;
    if (!e)
        goto fail;
    e->gid = gid;
    e->tid = json_integer_value(json_object_get(sum, "tournament_id"));
    snprintf(e->status, sizeof e->status, "%s", json_string_value(json_object_get(sum, "status")));
    snprintf(e->result, sizeof e->result, "%s", json_string_value(json_object_get(sum, "result")));
    e->last_type = -1;
    rc = settings_of(s, e->tid, &gs, err, n);
    if (rc)
        goto fail;
    e->st = game_new(&gs, err, n);
    rc = STORE_E_INVALID;
    if (!e->st)
        goto fail;
    sqlite3_stmt *st = store_stmt(s, SQL_EVENTS);
    store_bind(st, "ii", gid, cut_ms);
    rc = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        GameEvent ev;
        GameVerdict v;
        const char *body = (const char *)sqlite3_column_text(st, 2);
        int32_t before = e->st->nplies;
        if (event_json_parse(body, &ev, err, n) ||
            game_apply(e->st, &ev, ev.time_ms, &v) != GAME_OK) {
            if (!err[0] || rc == 0)
                snprintf(err, n, "game %lld: stored event %d is refused on replay: %s",
                         (long long)gid, sqlite3_column_int(st, 1), v.reason);
            rc = -EIO;
            break;
        }
        e->seq = sqlite3_column_int(st, 1);
        e->last_type = ev.type;
        e->last_actor = ev.actor;
        e->last_ply = before;
        e->last_nevents = e->st->nevents;
        memcpy(e->last_text, ev.move, sizeof e->last_text);
    }
    sqlite3_reset(st);
    if (rc)
        goto fail;
    *out = e;
    if (summary)
        *summary = sum;
    else
        json_decref(sum);
    return 0;
fail:
    if (rc < 0)
        fprintf(stderr, "games: %s\n", err);
    entry_free(e);
    json_decref(sum);
    return rc;
}

int games_load(Store *s, int64_t gid, GameState **st, json_t **summary, char *err, size_t n)
{
    return games_load_until(s, gid, INT64_MAX, st, summary, err, n);
}

int games_load_until(Store *s, int64_t gid, int64_t cut_ms, GameState **st, json_t **summary,
                     char *err, size_t n)
{
    Entry *e;
    int rc = load_entry(s, gid, cut_ms, &e, summary, err, n);
    if (rc)
        return rc;
    if (summary) {
        /* The row's status and result are the log's end, or the public
         * view's (store_public_view): say what the replayed part says. */
        char resbuf[16];
        json_object_set_new(*summary, "status", json_string(status_of(e->st)));
        json_object_set_new(*summary, "result", json_string(game_result_text(e->st, resbuf)));
    }
    *st = e->st;
    e->st = NULL;
    entry_free(e);
    return 0;
}

static int get_entry(Games *g, Store *s, int64_t gid, Entry **out, char *err, size_t n)
{
    Entry *e = g->buckets[gid % BUCKETS];
    while (e && e->gid != gid)
        e = e->next;
    if (!e) {
        int rc = load_entry(s, gid, INT64_MAX, &e, NULL, err, n);
        if (rc)
            return rc;
        e->next = g->buckets[gid % BUCKETS];
        g->buckets[gid % BUCKETS] = e;
        note_state(g, e);
    }
    *out = e;
    return 0;
}

static const char *const SQ = "abcdefgh";

/* The legal destinations of each origin square as bit sets (a promotion
 * to four pieces is one destination): the "legal" field of a state. */
static void legal_targets(const GameState *st, uint64_t to[64])
{
    MoveList list;
    memset(to, 0, 64 * sizeof *to);
    movegen_legal_moves(&st->board, &list);
    for (int i = 0; i < list.count; i++)
        to[move_from(list.moves[i])] |= 1ull << move_to(list.moves[i]);
}

void games_state_fields(const GameState *st, int64_t now, json_t *obj)
{
    char fen[FEN_MAX];
    board_to_fen(&st->board, fen);
    json_object_set_new(obj, "ply", json_integer(st->nplies));
    json_object_set_new(obj, "fen", json_string(fen));
    json_object_set_new(obj, "to_move",
                        json_string(game_side_to_move(st) == WHITE ? "white" : "black"));
    json_t *legal = json_object();
    if (st->started && !st->over) {
        uint64_t to[64];
        legal_targets(st, to);
        for (int f = 0; f < 64; f++) {
            if (!to[f])
                continue;
            json_t *arr = json_array();
            for (uint64_t m = to[f]; m; m &= m - 1) {
                int t = __builtin_ctzll(m);
                char sq[3] = {SQ[t & 7], (char)('1' + (t >> 3)), 0};
                json_array_append_new(arr, json_string_nocheck(sq));
            }
            char from[3] = {SQ[f & 7], (char)('1' + (f >> 3)), 0};
            json_object_set_new_nocheck(legal, from, arr);
        }
    }
    json_object_set_new(obj, "legal", legal);
    json_object_set_new(obj, "state", event_json_state_to_json(st, now));
}

static json_t *event_object_ev(int64_t id, int32_t seq, const GameEvent *ev)
{
    json_t *o = event_json_to_json(ev);
    if (!o)
        o = json_object();
    json_object_set_new(o, "id", json_integer(id));
    json_object_set_new(o, "seq", json_integer(seq));
    return o;
}

void games_outcome_json(GameOutcome *o)
{
    if (o->event_id && !o->event)
        o->event = event_object_ev(o->event_id, o->seq, &o->ev);
    if (!o->verdict)
        o->verdict = o->event_id ? event_json_verdict_to_json(&o->v)
                                 : json_pack("{s:b,s:s,s:s}", "ok", 1, "code", "ok", "reason",
                                             "already recorded");
    if (!o->update && o->snap) {
        o->update = o->event_id
                        ? json_pack("{s:I,s:i,s:I,s:O}", "id", (json_int_t)o->event_id, "seq",
                                    o->seq, "game_id", (json_int_t)o->gid, "event", o->event)
                        : json_pack("{s:I}", "game_id", (json_int_t)o->gid);
        games_state_fields(o->snap, o->at_ms, o->update);
    }
}

/* The update of O as text, straight from the state; t->bad when some
 * string is not UTF-8 (the json_t path then decides what to do). */
static void update_text(EventJsonText *t, const GameOutcome *o)
{
    const GameState *st = o->snap;
    event_json_text_raw(t, "{", 1);
    if (o->event_id) {
        event_json_text_lit(t, "\"id\":");
        event_json_text_int(t, o->event_id);
        event_json_text_lit(t, ",\"seq\":");
        event_json_text_int(t, o->seq);
        event_json_text_lit(t, ",\"game_id\":");
        event_json_text_int(t, o->gid);
        event_json_text_lit(t, ",\"event\":");
        event_json_text_event(t, &o->ev, o->event_id, o->seq);
        event_json_text_raw(t, ",", 1);
    } else {
        event_json_text_lit(t, "\"game_id\":");
        event_json_text_int(t, o->gid);
        event_json_text_raw(t, ",", 1);
    }
    char fen[FEN_MAX];
    board_to_fen(&st->board, fen);
    event_json_text_lit(t, "\"ply\":");
    event_json_text_int(t, st->nplies);
    event_json_text_lit(t, ",\"fen\":");
    event_json_text_str(t, fen);
    event_json_text_lit(t, game_side_to_move(st) == WHITE ? ",\"to_move\":\"white\""
                                                          : ",\"to_move\":\"black\"");
    event_json_text_lit(t, ",\"legal\":{");
    if (st->started && !st->over) {
        uint64_t to[64];
        legal_targets(st, to);
        int first = 1;
        for (int f = 0; f < 64; f++) {
            if (!to[f])
                continue;
            char sq[8] = {',', '"', SQ[f & 7], (char)('1' + (f >> 3)), '"', ':', '['};
            event_json_text_raw(t, sq + first, 7 - (size_t)first);
            first = 0;
            for (uint64_t m = to[f]; m; m &= m - 1) {
                int q = __builtin_ctzll(m);
                char d[5] = {'"', SQ[q & 7], (char)('1' + (q >> 3)), '"', ','};
                event_json_text_raw(t, d, (m & (m - 1)) ? 5 : 4);
            }
            event_json_text_raw(t, "]", 1);
        }
    }
    event_json_text_lit(t, "},\"state\":");
    event_json_text_state(t, st, o->at_ms, o->sheet);
    event_json_text_raw(t, "}", 1);
}

const char *games_outcome_text(GameOutcome *o, size_t *len)
{
    if (!o->update_text && o->snap) {
        EventJsonText t = {0};
        update_text(&t, o);
        if (t.bad) {
            free(t.p);
            games_outcome_json(o);
            t.p = o->update ? json_dumps(o->update, JSON_COMPACT) : NULL;
            t.len = t.p ? strlen(t.p) : 0;
        }
        o->update_text = t.p;
        o->update_len = t.len;
    }
    if (len)
        *len = o->update_len;
    return o->update_text;
}

char *games_outcome_answer(GameOutcome *o, size_t *len)
{
    size_t ulen;
    const char *u = games_outcome_text(o, &ulen);
    EventJsonText t = {0};
    if (u) {
        event_json_text_lit(&t, "{\"verdict\":");
        if (o->event_id)
            event_json_text_verdict(&t, &o->v);
        else
            event_json_text_lit(&t,
                                "{\"ok\":true,\"code\":\"ok\",\"reason\":\"already recorded\"}");
        event_json_text_lit(&t, ",\"event\":");
        if (o->event_id)
            event_json_text_event(&t, &o->ev, o->event_id, o->seq);
        else
            event_json_text_lit(&t, "null");
        event_json_text_lit(&t, ",\"game\":");
        event_json_text_raw(&t, u, ulen);
        event_json_text_raw(&t, "}", 1);
    }
    if (!u || t.bad) {
        /* A string jansson would refuse, or out of memory: the tree path. */
        free(t.p);
        games_outcome_json(o);
        json_t *a = json_pack("{s:O,s:O,s:O}", "verdict", o->verdict, "event",
                              o->event ? o->event : json_null(), "game", o->update);
        t.p = a ? json_dumps(a, JSON_COMPACT) : NULL;
        t.len = t.p ? strlen(t.p) : 0;
        json_decref(a);
    }
    *len = t.len;
    return t.p;
}

static json_t *event_object(int64_t id, int32_t seq, const char *body)
{
    json_t *o = json_loads(body, 0, NULL);
    if (!o)
        o = json_object();
    json_object_set_new(o, "id", json_integer(id));
    json_object_set_new(o, "seq", json_integer(seq));
    return o;
}

json_t *games_events(Store *s, int64_t gid, int64_t after_id)
{
    json_t *arr = json_array();
    sqlite3_stmt *st = store_stmt(s, "SELECT id, seq, body FROM game_events WHERE game_id = ?1 "
                                     "AND id > ?2 ORDER BY seq");
    store_bind(st, "ii", gid, after_id);
    while (sqlite3_step(st) == SQLITE_ROW)
        json_array_append_new(arr,
                              event_object(sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                                           (const char *)sqlite3_column_text(st, 2)));
    sqlite3_reset(st);
    return arr;
}

json_t *games_updates_since(Store *s, int64_t gid, int64_t after_id)
{
    json_t *arr = json_array();
    json_t *sum = rounds_game_summary(s, gid);
    GameSettings gs;
    char err[256];
    GameState *st = NULL;
    if (!sum ||
        settings_of(s, json_integer_value(json_object_get(sum, "tournament_id")), &gs, err,
                    sizeof err) ||
        !(st = game_new(&gs, err, sizeof err))) {
        json_decref(sum);
        return arr;
    }
    json_decref(sum);
    sqlite3_stmt *q = store_stmt(s, SQL_EVENTS);
    store_bind(q, "ii", gid, INT64_MAX);
    while (sqlite3_step(q) == SQLITE_ROW) {
        GameEvent ev;
        GameVerdict v;
        const char *body = (const char *)sqlite3_column_text(q, 2);
        if (event_json_parse(body, &ev, err, sizeof err) ||
            game_apply(st, &ev, ev.time_ms, &v) != GAME_OK)
            break;
        int64_t id = sqlite3_column_int64(q, 0);
        if (id <= after_id)
            continue;
        int seq = sqlite3_column_int(q, 1);
        json_t *u = json_pack("{s:I,s:i,s:I,s:o}", "id", (json_int_t)id, "seq", seq, "game_id",
                              (json_int_t)gid, "event", event_object(id, seq, body));
        games_state_fields(st, ev.time_ms, u);
        json_array_append_new(arr, u);
    }
    sqlite3_reset(q);
    game_free(st);
    return arr;
}

json_t *games_tournament_events(Store *s, int64_t tid, int64_t after_id, int limit)
{
    json_t *arr = json_array();
    sqlite3_stmt *st = store_stmt(
        s, "SELECT e.id, e.seq, e.body, e.game_id FROM game_events e "
           "JOIN games g ON g.id = e.game_id WHERE g.tournament_id = ?1 "
           "AND e.id > ?2 AND " ROUNDS_SQL_SHOWN("?1", "g.round") " ORDER BY e.id LIMIT ?3");
    store_bind(st, "iid", tid, after_id, limit);
    while (sqlite3_step(st) == SQLITE_ROW) {
        json_t *ev = event_object(sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                                  (const char *)sqlite3_column_text(st, 2));
        json_array_append_new(arr, json_pack("{s:I,s:I,s:i,s:o}", "id",
                                             (json_int_t)sqlite3_column_int64(st, 0), "game_id",
                                             (json_int_t)sqlite3_column_int64(st, 3), "seq",
                                             sqlite3_column_int(st, 1), "event", ev));
    }
    sqlite3_reset(st);
    return arr;
}

json_t *games_running(Store *s)
{
    return store_rows(s, "SELECT id FROM games WHERE status = 'running' ORDER BY id", "");
}

/* What raised an alert: the event, its verdict, the game after it and
 * whether the event added a ply. */
typedef struct AlertCause {
    const GameEvent *ev;
    const GameVerdict *v;
    const GameState *st;
    bool played;
} AlertCause;

/* Adds an alert in this transaction and to OUT's list: the English message
 * and the same as data (db/alert_detail.h) for the desks' languages. */
static void alert(Store *s, GameOutcome *out, const char *kind, const AlertCause *c,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void alert(Store *s, GameOutcome *out, const char *kind, const AlertCause *c,
                  const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int64_t id = 0;
    json_t *detail = alert_detail_new(kind, c->ev, c->v, c->st, c->played);
    int rc = alerts_add(s, out->tid, out->gid, kind, msg, detail, c->ev->time_ms, &id);
    json_decref(detail);
    if (rc)
        return;
    if (!out->alerts)
        out->alerts = json_array();
    json_t *a = alerts_get(s, id);
    if (a)
        json_array_append_new(out->alerts, a);
}

/* Resolves the game's open alerts of KIND, in this transaction, and adds
 * each one, now resolved, to OUT's list so the desks drop it. */
static void settle(Store *s, GameOutcome *out, const char *kind)
{
    json_t *ids = store_rows(s,
                             "SELECT id FROM alerts WHERE game_id = ?1 AND kind = ?2 AND "
                             "resolved = 0",
                             "is", out->gid, kind);
    size_t i;
    json_t *row;
    json_array_foreach(ids, i, row)
    {
        json_t *a = NULL;
        char e2[120];
        if (alerts_resolve(s, out->tid, json_integer_value(json_object_get(row, "id")), 1, &a, e2,
                           sizeof e2) ||
            !a)
            continue;
        if (!out->alerts)
            out->alerts = json_array();
        json_array_append_new(out->alerts, a);
    }
    json_decref(ids);
}

/* An alert stands while its cause does: a call until the arbiter answers
 * (after a game's end a call pauses no clock: any arbiter action answers),
 * a claim until it is ruled (the server rules 9.2 and 9.3 at once; a
 * Guidelines III claim waits for the arbiter), a dead-position question
 * until the arbiter decides it, and the result, the flag and
 * the illegal moves of a game until its result is final: both players
 * confirmed it (8.7) or the arbiter set it. */
static void settle_alerts(Store *s, GameOutcome *out, const GameEvent *ev, const GameState *st)
{
    if (ev->actor == GAME_ACTOR_ARBITER && !st->call_pending)
        settle(s, out, "call");
    if (st->iii_claim < 0)
        settle(s, out, "claim");
    if (ev->actor == GAME_ACTOR_ARBITER && st->dead_side < 0)
        settle(s, out, "dead_position");
    bool ruled = ev->type == GAME_EV_RESULT || ev->type == GAME_EV_DEAD;
    bool final = st->over && ((st->confirmed[0] && st->confirmed[1]) ||
                              (ruled && ev->actor == GAME_ACTOR_ARBITER));
    if (final) {
        settle(s, out, "result");
        settle(s, out, "flag");
        settle(s, out, "illegal");
    }
}

static const char SQL_INSERT_EVENT[] =
    "INSERT INTO game_events(game_id, seq, at_ms, body) VALUES (?1, ?2, ?3, ?4)";

/* Stores EV, just accepted by E's state, and fills OUT. */
static int store_event(Store *s, Entry *e, const GameEvent *ev, const GameVerdict *v,
                       int32_t ply_before, GameOutcome *out, char *err, size_t n)
{
    char *body = event_json_format(ev);
    if (!body)
        return -ENOMEM;
    int rc =
        store_run(s, NULL, SQL_INSERT_EVENT, "idis", e->gid, (int)(e->seq + 1), ev->time_ms, body);
    if (rc) {
        free(body);
        return rc > 0 ? error_set(err, n, STORE_E_CONFLICT, "the event could not be stored") : rc;
    }
    int64_t id = sqlite3_last_insert_rowid(store_db(s));
    e->seq++;
    const GameState *st = e->st;
    const char *status = status_of(st);
    char resbuf[16];
    const char *result = game_result_text(st, resbuf);
    if (strcmp(status, e->status) != 0 || strcmp(result, e->result) != 0) {
        rc = store_run(s, NULL, "UPDATE games SET status = ?2, result = ?3 WHERE id = ?1", "iss",
                       e->gid, status, result);
        if (rc) {
            free(body);
            return rc;
        }
        snprintf(e->status, sizeof e->status, "%s", status);
        snprintf(e->result, sizeof e->result, "%s", result);
    }
    if (v->colours_swapped) {
        /* 7.3, the game goes on: it is recorded with the colours actually
         * played, so crosstables, PGN, TRF and colour histories follow the
         * board.  Only here, when the event is first stored: a replay
         * folds the event without touching the row. */
        rc = store_run(s, NULL,
                       "UPDATE games SET white_id = black_id, black_id = white_id "
                       "WHERE id = ?1",
                       "i", e->gid);
        if (rc) {
            free(body);
            return rc > 0 ? error_set(err, n, STORE_E_CONFLICT,
                                      "the players' colours could not be swapped")
                          : rc;
        }
    }
    e->last_type = ev->type;
    e->last_actor = ev->actor;
    e->last_ply = ply_before;
    e->last_nevents = st->nevents;
    memcpy(e->last_text, ev->move, sizeof e->last_text);

    out->gid = e->gid;
    out->tid = e->tid;
    out->event_id = id;
    out->seq = e->seq;
    out->ev = *ev;
    out->v = *v;
    out->at_ms = ev->time_ms;
    out->snap = state_copy(st);
    out->sheet = event_json_sheet_text(&e->sheet, st);
    free(body);
    if (!out->snap)
        return -ENOMEM;
    out->deadline_ms = game_next_deadline(st, ev->time_ms);

    const char *who = game_actor_name(ev->actor);
    const AlertCause c = {ev, v, st, st->nplies > ply_before};
    switch (ev->type) {
    case GAME_EV_CLAIM:
        alert(s, out, "claim", &c, "game %lld: %s claims a draw (%s): %s", (long long)e->gid, who,
              game_claim_name(ev->claim), v->reason);
        break;
    case GAME_EV_CALL:
        alert(s, out, "call", &c, "game %lld: %s calls the arbiter%s%s", (long long)e->gid, who,
              ev->note[0] ? ": " : "", ev->note);
        break;
    case GAME_EV_FLAG:
        alert(s, out, "flag", &c, "game %lld: %s", (long long)e->gid, v->reason);
        break;
    default: break;
    }
    if (v->dead_question)
        alert(s, out, "dead_position", &c, "game %lld: dead position? decide: %s",
              (long long)e->gid, v->reason);
    if (v->illegal)
        alert(s, out, "illegal", &c, "game %lld: illegal move by %s: %s", (long long)e->gid, who,
              v->reason);
    if (v->ended && ev->actor != GAME_ACTOR_ARBITER)
        alert(s, out, "result", &c, "game %lld ended %s (%s): waiting for confirmation",
              (long long)e->gid, result, game_end_name(st->end));
    settle_alerts(s, out, ev, st);
    return 0;
}

/* Applies EV at AT to E and stores it.  A refusal because a flag fell first
 * stores the server's flag event instead and reports the refusal in
 * out->answer. */
static int act_at(Games *g, Store *s, Entry *e, GameEvent *ev, int64_t at, int64_t now,
                  GameOutcome *out, char *err, size_t n)
{
    if (at < e->st->last_ms)
        at = e->st->last_ms;
    ev->time_ms = at;
    GameVerdict v;
    int32_t before = e->st->nplies;
    int code = game_apply(e->st, ev, now, &v);
    if (code == GAME_E_FLAG_FELL) {
        GameEvent flag;
        game_event_init(&flag, GAME_EV_FLAG, GAME_ACTOR_SERVER, at);
        GameVerdict fv;
        if (game_apply(e->st, &flag, now, &fv) == GAME_OK) {
            int rc = store_event(s, e, &flag, &fv, before, out, err, n);
            if (rc) {
                games_evict(g, e->gid);
                return rc;
            }
            note_state(g, e);
            out->answer = GAMES_E_BASE + GAME_E_FLAG_FELL;
            snprintf(out->answer_msg, sizeof out->answer_msg, "%s", v.reason);
            return 0;
        }
    }
    if (code != GAME_OK)
        return error_set(err, n, GAMES_E_BASE + code, "%s", v.reason);
    int rc = store_event(s, e, ev, &v, before, out, err, n);
    if (rc)
        games_evict(g, e->gid);
    else
        note_state(g, e);
    return rc;
}

int games_act(Games *g, Store *s, int64_t gid, GameEvent *ev, int expect_ply, GameOutcome *out,
              char *err, size_t n)
{
    Entry *e;
    int rc = get_entry(g, s, gid, &e, err, n);
    if (rc)
        return rc;
    int64_t now = store_now_ms();
    if (expect_ply >= 0 && e->last_type == ev->type && e->last_actor == ev->actor &&
        e->last_ply == expect_ply && e->last_nevents == e->st->nevents &&
        strncmp(e->last_text, ev->move, sizeof e->last_text) == 0) {
        /* The same submission again (a retry, or the second tablet): answer
         * with the state it produced, store nothing. */
        out->gid = gid;
        out->tid = e->tid;
        out->at_ms = now;
        out->snap = state_copy(e->st);
        out->sheet = event_json_sheet_text(&e->sheet, e->st);
        out->deadline_ms = game_next_deadline(e->st, now);
        return out->snap ? 0 : -ENOMEM;
    }
    if (expect_ply >= 0 && expect_ply != e->st->nplies)
        return error_set(err, n, STORE_E_STALE,
                         "the game is at ply %d, this request was made at ply %d", e->st->nplies,
                         expect_ply);
    int64_t at = ev->time_ms > 0 && ev->time_ms < now ? ev->time_ms : now;
    return act_at(g, s, e, ev, at, now, out, err, n);
}

/*
 * One game's part of an action on several games: 0 when O holds its
 * outcome, 1 to pass the game over (O left empty), or a negative errno
 * that stops the whole action (O's contents released).
 */
typedef int (*GameStep)(Games *g, Store *s, Entry *e, void *ctx, GameOutcome *o);

/* Runs STEP on every game of IDS (a taken list of {"id"}) that can be
 * loaded, collecting the outcomes in *OUT in order.  Returns 0, or a
 * step's negative errno with *OUT emptied. */
static int each_game(Games *g, Store *s, json_t *ids, GameStep step, void *ctx, GameOutcome **out)
{
    *out = NULL;
    GameOutcome **tail = out;
    int rc = 0;
    size_t i;
    json_t *row;
    json_array_foreach(ids, i, row)
    {
        Entry *e;
        char err[256];
        if (get_entry(g, s, jsonget_int(row, "id"), &e, err, sizeof err))
            continue;
        GameOutcome *o = calloc(1, sizeof *o);
        if (!o)
            break;
        rc = step(g, s, e, ctx, o);
        if (rc) {
            free(o);
            if (rc < 0) {
                games_outcome_free(*out);
                *out = NULL;
                break;
            }
            rc = 0;
            continue;
        }
        *tail = o;
        tail = &o->next;
    }
    json_decref(ids);
    return rc;
}

/* A round started, paused or resumed: the event of TYPE at NOW. */
typedef struct RoundAct {
    int type;
    int64_t now;
} RoundAct;

static int round_act_step(Games *g, Store *s, Entry *e, void *ctx, GameOutcome *o)
{
    const RoundAct *ra = ctx;
    if (ra->type != GAME_EV_START && (e->st->over || !e->st->started))
        return 1;
    GameEvent ev;
    game_event_init(&ev, ra->type, GAME_ACTOR_ARBITER, ra->now);
    char err[256];
    int rc = act_at(g, s, e, &ev, ra->now, ra->now, o, err, sizeof err);
    return rc > 0 ? 1 : rc;
}

/* After a stop: a running clock paused as of the last heartbeat BEAT. */
typedef struct DowntimePause {
    int64_t beat, now;
} DowntimePause;

static int downtime_step(Games *g, Store *s, Entry *e, void *ctx, GameOutcome *o)
{
    const DowntimePause *dp = ctx;
    if (!e->st->started || e->st->over || e->st->clock.paused || e->st->clock.running < 0)
        return 1;
    GameEvent ev;
    game_event_init(&ev, GAME_EV_PAUSE, GAME_ACTOR_ARBITER, dp->beat);
    snprintf(ev.note, sizeof ev.note, "the server stopped; clocks paused as of then");
    char err[256];
    if (act_at(g, s, e, &ev, dp->beat, dp->now, o, err, sizeof err))
        return 1;
    /* Its round is paused too: the arbiter resumes the round in one
     * action, and the round is not shown running while no clock runs. */
    int rc = store_run(s, NULL,
                       "UPDATE rounds SET status = 'paused' WHERE status = 'running' AND "
                       "(tournament_id, number) = (SELECT tournament_id, round FROM games "
                       "WHERE id = ?1)",
                       "i", e->gid);
    if (rc < 0) {
        games_outcome_clear(o);
        return rc;
    }
    return 0;
}

int games_round_act(Games *g, Store *s, int64_t tid, int64_t rn, int type, GameOutcome **out,
                    char *err, size_t n)
{
    *out = NULL;
    char status[16];
    int rc = rounds_status_get(s, tid, rn, status, sizeof status, err, n);
    if (rc)
        return rc;
    const char *next = NULL;
    if (type == GAME_EV_START) {
        if (strcmp(status, "pending") != 0)
            return error_set(err, n, STORE_E_STATE, "round %lld has already been started",
                             (long long)rn);
        next = "running";
    } else if (type == GAME_EV_PAUSE) {
        if (strcmp(status, "running") != 0)
            return error_set(err, n, STORE_E_STATE, "round %lld is not running (it is %s)",
                             (long long)rn, status);
        next = "paused";
    } else {
        if (strcmp(status, "paused") != 0)
            return error_set(err, n, STORE_E_STATE, "round %lld is not paused (it is %s)",
                             (long long)rn, status);
        next = "running";
    }
    int64_t now = store_now_ms();
    rc = rounds_status_set(s, tid, rn, next, now);
    if (rc)
        return error_set(err, n, rc > 0 ? rc : STORE_E_STATE, "the round could not be changed");
    RoundAct ra = {type, now};
    return each_game(g, s, rounds_game_ids(s, tid, rn), round_act_step, &ra, out);
}

int games_pause_after_downtime(Games *g, Store *s, GameOutcome **out)
{
    *out = NULL;
    int64_t beat = store_int(s, 0, "SELECT value FROM meta WHERE key = 'heartbeat_ms'", "");
    int64_t now = store_now_ms();
    if (beat <= 0 || beat > now)
        beat = now;
    DowntimePause dp = {beat, now};
    return each_game(g, s, games_running(s), downtime_step, &dp, out);
}

int games_time_check(Games *g, Store *s, int64_t gid, GameOutcome *out)
{
    Entry *e;
    char err[256];
    int rc = get_entry(g, s, gid, &e, err, sizeof err);
    if (rc)
        return rc;
    int64_t now = store_now_ms();
    GameEvent ev;
    game_event_init(&ev, GAME_EV_FLAG, GAME_ACTOR_SERVER, now);
    return act_at(g, s, e, &ev, now, now, out, err, sizeof err);
}
