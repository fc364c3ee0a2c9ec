/*
 * routes_streams.c — the live streams (Server-Sent Events) of a game, of a
 * tournament and of the arbiter's alerts.  A reconnecting client first gets
 * what it missed from the store (after its Last-Event-ID), then live
 * events from the hub (sse.h); nothing is lost or sent twice.
 *
 * Under a public delay (settings.public_delay) the public's streams show
 * the games as they were that long ago: the first state and the backlog
 * are cut at that instant (the public view of the store), and what follows
 * comes from the hub's delayed topics, each event the delay after it
 * happened.  Arbiters and the players of a game get it live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "alerts.h"
#include "rounds.h"
#include "cache.h"
#include "errors.h"
#include "games.h"
#include "routes.h"
#include "security.h"
#include "sse.h"
#include "strbuf.h"

#define END                                                                                        \
    {                                                                                              \
        NULL, 0, 0, 0, 0, NULL, NULL                                                               \
    }

/* The id the client has seen: the Last-Event-ID header or ?last_event_id=;
 * 0 when none, -1 when malformed. */
static int64_t last_event_id(Req *r)
{
    const char *v = http_header(r, "Last-Event-ID");
    if (!v)
        v = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, "last_event_id");
    if (!v || !*v)
        return 0;
    char *end;
    long long x = strtoll(v, &end, 10);
    return *end || x < 0 ? -1 : x;
}

/* Appends one SSE message (an id line when ID > 0) to B; a message that
 * cannot be encoded or stored is left out whole. */
static void buf_add(StrBuf *b, int64_t id, const char *event, json_t *data)
{
    char *d = json_dumps(data, JSON_COMPACT);
    if (!d)
        return;
    size_t mark = b->len;
    if (id > 0)
        strbuf_appendf(b, "id: %lld\n", (long long)id);
    strbuf_appendf(b, "event: %s\ndata: %s\n\n", event, d);
    if (b->failed)
        strbuf_truncate(b, mark);
    free(d);
}

/* Sorts GameUpdate objects by id (backlogs of several games). */
static int by_id(const void *a, const void *b)
{
    json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "id"));
    json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "id"));
    return (x > y) - (x < y);
}

/* Takes one of the address's stream slots, reads Last-Event-ID and takes a
 * reader; false after answering the error (the route then returns
 * ROUTE_DONE). */
static bool stream_begin(Req *r, int64_t *last, Store **s)
{
    if (security_stream_admit(r))
        return false;
    *last = last_event_id(r);
    if (*last < 0) {
        http_error(r, API_E_INVALID_VALUE, "Last-Event-ID must be a whole number");
        return false;
    }
    *s = http_reader(r->srv);
    if (!*s) {
        http_error(r, API_E_INTERNAL, "the store is not available");
        return false;
    }
    return true;
}

/* Attaches to the hub topic "KIND:ID" of the route's first id (g game,
 * t tournament, a alerts), its delayed twin when CUT (the instant up to
 * which the caller may see, cache_cut_ms) is not INT64_MAX; NULL after
 * answering the error. */
static Stream *stream_attach(Req *r, char kind, int64_t cut)
{
    char topic[32];
    snprintf(topic, sizeof topic, "%s%c:%lld", cut == INT64_MAX ? "" : SSE_DELAYED, kind,
             (long long)r->id[0]);
    Stream *st = sse_attach(r->srv->hub, topic);
    if (!st)
        http_error(r, API_E_INTERNAL, "out of memory");
    return st;
}

/* True when the GameUpdate U happened after CUT: the delayed stream sends
 * it later, from the hub. */
static bool after_cut(json_t *u, int64_t cut)
{
    return json_integer_value(json_object_get(json_object_get(u, "event"), "time_ms")) > cut;
}

/* stream_begin() and stream_attach() for a stream of tournament r->id[0]
 * (KIND t or a), which must exist, with *CUT the instant up to which the
 * caller sees its games; NULL after answering the error. */
static Stream *tournament_stream_begin(Req *r, char kind, int64_t *last, Store **s, int64_t *cut)
{
    if (!stream_begin(r, last, s) || !route_tournament_exists(r, *s))
        return NULL;
    *cut = cache_cut_ms(r, *s, r->id[0], 0);
    return stream_attach(r, kind, *cut);
}

int route_game_stream(Req *r)
{
    int64_t last;
    Store *s;
    if (!stream_begin(r, &last, &s))
        return ROUTE_DONE;
    json_t *sum = rounds_game_summary(s, r->id[0]);
    if (!sum)
        return http_error(r, STORE_E_NOT_FOUND, "no game %lld", (long long)r->id[0]);
    json_decref(sum);
    /* Attach before reading the store: whatever commits in between is in
     * the ring and is skipped there by id when the backlog has it.  Under
     * a delay the same holds of what falls due in between. */
    int64_t cut = cache_cut_ms(r, s, 0, r->id[0]);
    Stream *st = stream_attach(r, 'g', cut);
    if (!st)
        return ROUTE_DONE;
    StrBuf b = STRBUF_INIT;
    int64_t seen = last;
    if (last == 0) {
        int code = 0;
        json_t *state = route_game_state(r, s, r->id[0], &code);
        if (!state) {
            sse_detach(st);
            return http_error(r, code ? code : API_E_INTERNAL, "the game cannot be loaded");
        }
        json_t *evs = json_object_get(state, "events");
        size_t ne = json_array_size(evs);
        if (ne)
            seen = json_integer_value(json_object_get(json_array_get(evs, ne - 1), "id"));
        buf_add(&b, 0, "state", state);
        json_decref(state);
    } else {
        json_t *ups = games_updates_since(s, r->id[0], last);
        size_t i;
        json_t *u;
        json_array_foreach(ups, i, u)
        {
            int64_t id = json_integer_value(json_object_get(u, "id"));
            if (after_cut(u, cut))
                break;
            buf_add(&b, id, "game", u);
            if (id > seen)
                seen = id;
        }
        json_decref(ups);
    }
    return sse_stream(r, st, b.data, b.len, seen);
}

int route_tournament_stream(Req *r)
{
    int64_t last, cut;
    Store *s;
    Stream *st = tournament_stream_begin(r, 't', &last, &s, &cut);
    if (!st)
        return ROUTE_DONE;
    StrBuf b = STRBUF_INIT;
    int64_t seen = last;
    if (last > 0) {
        /* Every game with events after LAST, replayed, merged by id. */
        json_t *evs = games_tournament_events(s, r->id[0], last, 100000);
        json_t *all = json_array();
        json_t *done = json_object();
        size_t i;
        json_t *e;
        json_array_foreach(evs, i, e)
        {
            char key[24];
            snprintf(key, sizeof key, "%lld",
                     (long long)json_integer_value(json_object_get(e, "game_id")));
            if (json_object_get(done, key))
                continue;
            json_object_set_new(done, key, json_true());
            json_t *ups =
                games_updates_since(s, json_integer_value(json_object_get(e, "game_id")), last);
            json_array_extend(all, ups);
            json_decref(ups);
        }
        size_t n = json_array_size(all);
        json_t **v = malloc((n ? n : 1) * sizeof *v);
        for (i = 0; v && i < n; i++)
            v[i] = json_array_get(all, i);
        if (v)
            qsort(v, n, sizeof *v, by_id);
        for (i = 0; v && i < n; i++) {
            int64_t id = json_integer_value(json_object_get(v[i], "id"));
            if (after_cut(v[i], cut))
                continue;
            buf_add(&b, id, "game", v[i]);
            if (id > seen)
                seen = id;
        }
        free(v);
        json_decref(all);
        json_decref(done);
        json_decref(evs);
    }
    return sse_stream(r, st, b.data, b.len, seen);
}

int route_alerts_stream(Req *r)
{
    int64_t last, cut;
    Store *s;
    Stream *st = tournament_stream_begin(r, 'a', &last, &s, &cut);
    if (!st)
        return ROUTE_DONE;
    json_t *alerts = alerts_list(s, r->id[0], last);
    StrBuf b = STRBUF_INIT;
    int64_t seen = last;
    size_t i;
    json_t *a;
    json_array_foreach(alerts, i, a)
    {
        int64_t id = json_integer_value(json_object_get(a, "id"));
        if (id > seen)
            seen = id;
        if (last == 0 && json_is_true(json_object_get(a, "resolved")))
            continue;
        buf_add(&b, id, "alert", a);
    }
    json_decref(alerts);
    return sse_stream(r, st, b.data, b.len, seen);
}
