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

typedef struct IdRank {
    int64_t id;
    int rank;
} IdRank;

static int idrank_cmp(const void *a, const void *b)
{
    int64_t x = ((const IdRank *)a)->id, y = ((const IdRank *)b)->id;
    return x < y ? -1 : x > y;
}

void tpn_annotate(Store *s, int64_t tid, json_t *players)
{
    int64_t *ids;
    int n;
    if (!players || tpn_order(s, tid, &ids, &n))
        return;
    /* By id, so each player is found in log n (lists of a few hundred). */
    IdRank *by_id = calloc((size_t)n + 1, sizeof *by_id);
    for (int k = 0; by_id && k < n; k++)
        by_id[k] = (IdRank){ids[k], k + 1};
    if (by_id)
        qsort(by_id, (size_t)n, sizeof *by_id, idrank_cmp);
    json_t *one = json_is_object(players) ? players : NULL;
    size_t count = one ? 1 : json_array_size(players);
    for (size_t i = 0; by_id && i < count; i++) {
        json_t *p = one ? one : json_array_get(players, i);
        IdRank key = {json_integer_value(json_object_get(p, "id")), 0};
        const IdRank *hit = bsearch(&key, by_id, (size_t)n, sizeof *by_id, idrank_cmp);
        if (hit)
            json_object_set_new(p, "tpn", json_integer(hit->rank));
    }
    free(by_id);
    free(ids);
}
