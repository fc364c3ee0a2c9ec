/*
 * live.c — publishing committed game events, alerts and rounds to the live
 * streams (and, for a tournament with a public delay, to its public
 * streams through the hub's delay line), a tournament's settings to its
 * games' streams, to nginx's Nchan when the daemon
 * publishes there (nchan.h), and re-arming the flag timers.  See live.h
 * and sse.h; the stream routes are in routes_streams.c.
 */
#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed.h"
#include "flags.h"
#include "nchan.h"
#include "rounds.h"
#include "sse.h"

/* Tournament TID's public delay in ms (0: live), read on the calling
 * thread's store connection. */
static int64_t delay_of(Server *srv, int64_t tid)
{
    Store *s = http_reader(srv);
    return s ? feed_delay_ms(s, tid, 0) : 0;
}

void live_game(Server *srv, GameOutcome *o)
{
    char topic[2][32], later[2][40];
    snprintf(topic[0], sizeof topic[0], "g:%lld", (long long)o->gid);
    snprintf(topic[1], sizeof topic[1], "t:%lld", (long long)o->tid);
    int64_t delay = o->event_id ? delay_of(srv, o->tid) : 0;
    int heard = sse_listened(srv->hub, topic[0]) || sse_listened(srv->hub, topic[1]);
    /* Nchan's viewers get a live event now, a delayed one from the delay
     * line (live_tap), whether or not anyone listens here. */
    int fan = srv->nchan && !delay;
    if (o->event_id && (heard || delay || fan)) {
        /* Rendered once, shared with the answer (games_outcome_answer). */
        const char *data = games_outcome_text(o, NULL);
        if (data && heard) {
            sse_publish(srv->hub, topic[0], o->event_id, "game", data);
            sse_publish(srv->hub, topic[1], o->event_id, "game", data);
        }
        if (data && fan) {
            nchan_publish(srv->nchan, topic[0], "game", data);
            nchan_publish(srv->nchan, topic[1], "game", data);
        }
        /* The public's streams get it when the delay has passed since it
         * happened, as the public's reads show it (db/feed.h). */
        if (data && delay) {
            snprintf(later[0], sizeof later[0], SSE_DELAYED "%s", topic[0]);
            snprintf(later[1], sizeof later[1], SSE_DELAYED "%s", topic[1]);
            sse_publish_later(srv->hub, later[0], later[1], o->tid, o->event_id, "game", data,
                              o->at_ms + delay);
        }
    }
    if (o->event_id && !srv->quiet)
        fprintf(stderr, "game %lld event %lld %s %s%s%s\n", (long long)o->gid,
                (long long)o->event_id, game_event_type_name(o->ev.type),
                game_actor_name(o->ev.actor), o->ev.move[0] ? " " : "", o->ev.move);
    if (o->alerts) {
        char at[32];
        snprintf(at, sizeof at, "a:%lld", (long long)o->tid);
        size_t i;
        json_t *a;
        json_array_foreach(o->alerts, i, a)
        {
            char *data = json_dumps(a, JSON_COMPACT);
            if (data) {
                /* A resolution repeats an earlier alert's id: sent without
                 * one, so a reconnecting desk resumes after the newest. */
                int64_t id = json_is_true(json_object_get(a, "resolved"))
                                 ? 0
                                 : json_integer_value(json_object_get(a, "id"));
                sse_publish(srv->hub, at, id, "alert", data);
                free(data);
            }
        }
    }
    flags_set(srv->flags, o->gid, o->deadline_ms);
}

void live_round(Server *srv, int64_t tid, json_t *round)
{
    /* The stream is public: a draft round stays with the arbiters. */
    if (json_is_false(json_object_get(round, "published")))
        return;
    char topic[32], later[40];
    snprintf(topic, sizeof topic, "t:%lld", (long long)tid);
    snprintf(later, sizeof later, SSE_DELAYED "%s", topic);
    int64_t delay = delay_of(srv, tid);
    int heard = sse_listened(srv->hub, topic);
    int fan = srv->nchan && !delay;
    if (!heard && !delay && !fan)
        return;
    char *data = json_dumps(round, JSON_COMPACT);
    if (data) {
        if (heard)
            sse_publish(srv->hub, topic, 0, "round", data);
        if (fan)
            nchan_publish(srv->nchan, topic, "round", data);
        if (delay)
            sse_publish_later(srv->hub, later, NULL, tid, 0, "round", data, store_now_ms() + delay);
        free(data);
    }
}

void live_tournament(Server *srv, int64_t tid, json_t *tour)
{
    Store *s = http_reader(srv);
    json_t *ids = s ? rounds_tournament_game_ids(s, tid) : NULL;
    char *data = NULL;
    size_t i;
    json_t *g;
    json_array_foreach(ids, i, g)
    {
        char topic[32];
        snprintf(topic, sizeof topic, "g:%lld",
                 (long long)json_integer_value(json_object_get(g, "id")));
        if (!sse_listened(srv->hub, topic))
            continue;
        /* Rendered once, for the first game someone follows. */
        if (!data)
            data = json_dumps(tour, JSON_COMPACT);
        if (data)
            sse_publish(srv->hub, topic, 0, "tournament", data);
    }
    free(data);
    json_decref(ids);
}

void live_tap(void *cls, const char *topic, const char *event, const char *data)
{
    nchan_publish(cls, topic, event, data);
}
