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
    *rows = store_rows(s,
                       "SELECT id, name, rating, rating_estimate, title, "
                       "coalesce(start_rank, 0) AS frozen FROM players "
                       "WHERE tournament_id = ?1 ORDER BY id",
                       "i", tid);
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
    json_t *t = store_row(s,
                          "SELECT system, (SELECT coalesce(max(number), 0) FROM rounds WHERE "
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

/*
 * The number of one player without sorting the field: frozen numbers come
 * first (so a frozen player's number is counted in SQL), and an unfrozen
 * player follows every frozen one and each unfrozen one that
 * startrank_compare puts before him.  Every live stream that opens and
 * every game read names its two players; sorting two thousand players for
 * each of them was most of the server's work while viewers connected.
 * Returns the TPN, or 0 when PID is not a player of TID.
 */
static int tpn_of(Store *s, int64_t tid, json_t *player)
{
    int64_t pid = json_integer_value(json_object_get(player, "id"));
    int64_t frozen = store_int(s, -1,
                               "SELECT coalesce(start_rank, 0) FROM players "
                               "WHERE tournament_id = ?1 AND id = ?2",
                               "ii", tid, pid);
    if (frozen < 0)
        return 0;
    if (frozen > 0)
        return 1 + (int)store_int(s, 0,
                                  "SELECT count(*) FROM players WHERE tournament_id = ?1 "
                                  "AND start_rank > 0 AND (start_rank < ?2 OR "
                                  "(start_rank = ?2 AND id < ?3))",
                                  "iii", tid, frozen, pid);
    StartEntry me = {
        .key = pid,
        .name = json_string_value(json_object_get(player, "name")),
        .title = json_string_value(json_object_get(player, "title")),
        .rating = (int)json_integer_value(json_object_get(player, "rating")),
        .estimate = (int)json_integer_value(json_object_get(player, "rating_estimate")),
    };
    int before = (int)store_int(s, 0,
                                "SELECT count(*) FROM players WHERE tournament_id = ?1 "
                                "AND start_rank > 0",
                                "i", tid);
    sqlite3_stmt *st = store_stmt(s, "SELECT id, name, rating, rating_estimate, title "
                                     "FROM players WHERE tournament_id = ?1 AND "
                                     "coalesce(start_rank, 0) = 0 AND id <> ?2");
    if (!st)
        return 0;
    store_bind(st, "ii", tid, pid);
    while (sqlite3_step(st) == SQLITE_ROW) {
        StartEntry other = {
            .key = sqlite3_column_int64(st, 0),
            .name = (const char *)sqlite3_column_text(st, 1),
            .rating = sqlite3_column_int(st, 2),
            .estimate = sqlite3_column_int(st, 3),
            .title = (const char *)sqlite3_column_text(st, 4),
        };
        before += startrank_compare(&other, &me) < 0;
    }
    sqlite3_reset(st);
    return before + 1;
}

void tpn_annotate(Store *s, int64_t tid, json_t *players)
{
    if (json_is_object(players)) {
        int tpn = tpn_of(s, tid, players);
        if (tpn > 0)
            json_object_set_new(players, "tpn", json_integer(tpn));
        return;
    }
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
    size_t count = json_array_size(players);
    for (size_t i = 0; by_id && i < count; i++) {
        json_t *p = json_array_get(players, i);
        IdRank key = {json_integer_value(json_object_get(p, "id")), 0};
        const IdRank *hit = bsearch(&key, by_id, (size_t)n, sizeof *by_id, idrank_cmp);
        if (hit)
            json_object_set_new(p, "tpn", json_integer(hit->rank));
    }
    free(by_id);
    free(ids);
}
