/*
 * tpn.c — pairing numbers from the player rows (see tpn.h).
 */
#include "tpn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "startrank.h"

int tpn_freeze_round(const char *system)
{
    return system && strcmp(system, "roundrobin") == 0 ? 1 : 4;
}

/* The players of TID as start entries in TPN order; *ROWS keeps the JSON
 * the entries' strings point into (caller decrefs). */
static int entries(Store *s, int64_t tid, StartEntry **out, int *n, json_t **rows)
{
    *out = NULL;
    *n = 0;
    *rows = store_rows(s, "SELECT id, name, rating, rating_estimate, title, "
                          "coalesce(start_rank, 0) AS frozen FROM players "
                          "WHERE tournament_id = ?1 ORDER BY id", "i", tid);
    if (!*rows)
        return -ENOMEM;
    size_t np = json_array_size(*rows);
    StartEntry *e = calloc(np + 1, sizeof *e);
    if (!e) {
        json_decref(*rows);
        *rows = NULL;
        return -ENOMEM;
    }
    size_t i;
    json_t *p;
    json_array_foreach(*rows, i, p)
    {
        e[i].key = json_integer_value(json_object_get(p, "id"));
        e[i].name = json_string_value(json_object_get(p, "name"));
        e[i].title = json_string_value(json_object_get(p, "title"));
        e[i].rating = (int)json_integer_value(json_object_get(p, "rating"));
        e[i].estimate = (int)json_integer_value(json_object_get(p, "rating_estimate"));
        e[i].frozen = (int)json_integer_value(json_object_get(p, "frozen"));
    }
    startrank_assign(e, (int)np);
    *out = e;
    *n = (int)np;
    return 0;
}

int tpn_order(Store *s, int64_t tid, int64_t **ids, int *n)
{
    *ids = NULL;
    StartEntry *e;
    json_t *rows;
    int rc = entries(s, tid, &e, n, &rows);
    if (rc)
        return rc;
    *ids = calloc((size_t)*n + 1, sizeof **ids);
    if (!*ids)
        rc = -ENOMEM;
    for (int i = 0; !rc && i < *n; i++)
        (*ids)[i] = e[i].key;
    free(e);
    json_decref(rows);
    return rc;
}

int tpn_freeze(Store *s, int64_t tid)
{
    json_t *t = store_row(s, "SELECT system, (SELECT coalesce(max(number), 0) FROM rounds WHERE "
                             "tournament_id = ?1) AS last FROM tournaments WHERE id = ?1",
                          "i", tid);
    if (!t)
        return 0;
    int reached = json_integer_value(json_object_get(t, "last")) >=
                  tpn_freeze_round(json_string_value(json_object_get(t, "system")));
    json_decref(t);
    if (!reached)
        return 0;
    StartEntry *e = NULL;
    json_t *rows = NULL;
    int n = 0;
    int rc = entries(s, tid, &e, &n, &rows);
    /* Only rows whose number is missing (or out of step after a gap) change. */
    for (int i = 0; !rc && i < n; i++)
        if (e[i].frozen != e[i].rank)
            rc = store_run(s, NULL, "UPDATE players SET start_rank = ?2 WHERE id = ?1", "ii",
                           e[i].key, (int64_t)e[i].rank);
    free(e);
    json_decref(rows);
    return rc;
}

void tpn_annotate(Store *s, int64_t tid, json_t *players)
{
    int64_t *ids;
    int n;
    if (!players || tpn_order(s, tid, &ids, &n))
        return;
    json_t *one = json_is_object(players) ? players : NULL;
    size_t i, count = one ? 1 : json_array_size(players);
    for (i = 0; i < count; i++) {
        json_t *p = one ? one : json_array_get(players, i);
        json_int_t id = json_integer_value(json_object_get(p, "id"));
        for (int k = 0; k < n; k++)
            if (ids[k] == id) {
                json_object_set_new(p, "tpn", json_integer(k + 1));
                break;
            }
    }
    free(ids);
}
