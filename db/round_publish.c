/*
 * round_publish.c — draft and published rounds.  See round_publish.h.
 */
#include "round_publish.h"

#include <stdio.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "rounds.h"

int round_publish_set(Store *s, int64_t tid, int64_t rn, int publish, int64_t user, json_t **out,
                      char *err, size_t n)
{
    int64_t started = store_int(s, -1,
                                "SELECT (r.status <> 'pending') + (SELECT count(*) FROM games g "
                                "WHERE g.tournament_id = r.tournament_id AND g.round = r.number "
                                "AND g.status <> 'pending') FROM rounds r WHERE r.tournament_id "
                                "= ?1 AND r.number = ?2",
                                "ii", tid, rn);
    if (started < 0)
        return error_set(err, n, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                         (long long)rn, (long long)tid);
    /* Once a clock has run the players have seen their boards. */
    if (!publish && started > 0)
        return error_set(err, n, STORE_E_STATE, "round %lld has started: it stays published",
                         (long long)rn);
    int rc = store_run(s, NULL,
                       publish ? "UPDATE rounds SET published_ms = coalesce(published_ms, ?3) "
                                 "WHERE tournament_id = ?1 AND number = ?2"
                               : "UPDATE rounds SET published_ms = NULL WHERE tournament_id = ?1 "
                                 "AND number = ?2 AND ?3 > 0",
                       "iii", tid, rn, store_now_ms());
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the round's state was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I,s:b}", "tournament", (json_int_t)tid, "round", (json_int_t)rn,
                          "published", publish);
    alerts_audit_add(s, user, 0, publish ? "round.publish" : "round.unpublish", "round", d);
    json_decref(d);
    *out = rounds_get(s, tid, rn);
    return 0;
}

bool round_publish_shown(Store *s, int64_t tid, int64_t rn)
{
    return store_int(s, 0,
                     "SELECT published_ms IS NOT NULL FROM rounds WHERE tournament_id = ?1 "
                     "AND number = ?2",
                     "ii", tid, rn) == 1;
}

bool round_publish_game_shown(Store *s, int64_t gid)
{
    return store_int(s, 0,
                     "SELECT r.published_ms IS NOT NULL FROM games g JOIN rounds r ON "
                     "r.tournament_id = g.tournament_id AND r.number = g.round WHERE g.id = ?1",
                     "i", gid) == 1;
}
