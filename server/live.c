/*
 * live.c — publishing committed game events, alerts and rounds to the live
 * streams, and re-arming the flag timers.  See live.h and sse.h; the
 * stream routes are in routes_streams.c.
 */
#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flags.h"
#include "sse.h"

void live_game(Server *srv, GameOutcome *o)
{
    char topic[2][32];
    snprintf(topic[0], sizeof topic[0], "g:%lld", (long long)o->gid);
    snprintf(topic[1], sizeof topic[1], "t:%lld", (long long)o->tid);
    if (o->event_id && (sse_listened(srv->hub, topic[0]) || sse_listened(srv->hub, topic[1]))) {
        /* Rendered once, shared with the answer (games_outcome_answer). */
        const char *data = games_outcome_text(o, NULL);
        if (data) {
            sse_publish(srv->hub, topic[0], o->event_id, "game", data);
            sse_publish(srv->hub, topic[1], o->event_id, "game", data);
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
    char topic[32];
    snprintf(topic, sizeof topic, "t:%lld", (long long)tid);
    if (!sse_listened(srv->hub, topic))
        return;
    char *data = json_dumps(round, JSON_COMPACT);
    if (data) {
        sse_publish(srv->hub, topic, 0, "round", data);
        free(data);
    }
}
