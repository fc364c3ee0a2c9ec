/*
 * forbidden.c — forbidden pairs in the store and in the rules Tournament.
 * See forbidden.h.
 */
#include "forbidden.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "tournaments.h"

static int rank_of(const int64_t *ids, int np, int64_t id)
{
    for (int i = 0; i < np; i++)
        if (ids[i] == id)
            return i + 1;
    return 0;
}

int forbidden_load(Store *s, int64_t tid, Tournament *t, const int64_t *ids, int np)
{
    json_t *rows = store_rows(s,
                              "SELECT player_a, player_b, coalesce(first_round, 0) AS f, "
                              "coalesce(last_round, 0) AS l FROM forbidden_pairs WHERE "
                              "tournament_id = ?1 ORDER BY player_a, player_b",
                              "i", tid);
    if (!rows)
        return -ENOMEM;
    int rc = 0;
    size_t k;
    json_t *v;
    json_array_foreach(rows, k, v)
    {
        int pair[2] = {rank_of(ids, np, jsonget_int(v, "player_a")),
                       rank_of(ids, np, jsonget_int(v, "player_b"))};
        if (!pair[0] || !pair[1])
            continue;
        int f = (int)jsonget_int(v, "f"), l = (int)jsonget_int(v, "l");
        /* XXP has no round range; 260 carries one. */
        bool xxp = f == 0 && l == 0;
        rc = tournament_add_forbidden(t, f ? f : 1, l ? l : TRN_MAX_ROUNDS, xxp, pair, 2);
        if (rc)
            break;
    }
    json_decref(rows);
    return rc;
}

static const char LIST_SQL[] =
    "SELECT f.player_a, f.player_b, a.name AS name_a, b.name AS name_b, f.first_round, "
    "f.last_round, f.created_ms FROM forbidden_pairs f JOIN players a ON a.id = f.player_a "
    "JOIN players b ON b.id = f.player_b WHERE f.tournament_id = ?1 AND (?2 = 0 OR "
    "(f.player_a = ?2 AND f.player_b = ?3)) ORDER BY f.player_a, f.player_b";

static json_t *pair_json(json_t *v)
{
    return json_pack("{s:[I,I],s:[O,O],s:O,s:O,s:O}", "players",
                     (json_int_t)jsonget_int(v, "player_a"), (json_int_t)jsonget_int(v, "player_b"),
                     "names", json_object_get(v, "name_a"), json_object_get(v, "name_b"),
                     "first_round", json_object_get(v, "first_round"), "last_round",
                     json_object_get(v, "last_round"), "created_at",
                     json_object_get(v, "created_ms"));
}

static json_t *list(Store *s, int64_t tid, int64_t a, int64_t b)
{
    json_t *rows = store_rows(s, LIST_SQL, "iii", tid, a, b);
    json_t *out = rows ? json_array() : NULL;
    size_t k;
    json_t *v;
    if (out)
        json_array_foreach(rows, k, v) json_array_append_new(out, pair_json(v));
    json_decref(rows);
    return out;
}

json_t *forbidden_list(Store *s, int64_t tid)
{
    return list(s, tid, 0, 0);
}

int forbidden_set(Store *s, int64_t tid, int64_t p1, int64_t p2, int first, int last, int add,
                  int64_t user, json_t **out, char *err, size_t n)
{
    *out = NULL;
    if (p1 == p2)
        return error_set(err, n, STORE_E_INVALID,
                         "a forbidden pair needs two different players, not #%lld "
                         "twice",
                         (long long)p1);
    if (first && last && first > last)
        return error_set(err, n, STORE_E_INVALID, "first_round %d is after last_round %d", first,
                         last);
    if (!tournaments_exists(s, 't', 0, tid))
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    int64_t a = p1 < p2 ? p1 : p2, b = p1 < p2 ? p2 : p1;
    int64_t pl[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (!tournaments_exists(s, 'p', tid, pl[i]))
            return error_set(err, n, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                             (long long)pl[i], (long long)tid);
    int changes = 0, rc;
    if (add)
        rc = store_run(s, &changes,
                       "INSERT INTO forbidden_pairs(tournament_id, player_a, "
                       "player_b, first_round, last_round, created_ms) VALUES (?1, "
                       "?2, ?3, nullif(?4, 0), nullif(?5, 0), ?6)",
                       "iiiiii", tid, a, b, (int64_t)first, (int64_t)last, store_now_ms());
    else
        rc = store_run(s, &changes,
                       "DELETE FROM forbidden_pairs WHERE tournament_id = ?1 AND "
                       "player_a = ?2 AND player_b = ?3",
                       "iii", tid, a, b);
    if (rc == STORE_E_CONFLICT)
        return error_set(err, n, rc, "players #%lld and #%lld are already a forbidden pair",
                         (long long)a, (long long)b);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the forbidden pair was refused by the store") : rc;
    if (!add && changes == 0)
        return error_set(err, n, STORE_E_NOT_FOUND,
                         "players #%lld and #%lld are not a forbidden pair", (long long)a,
                         (long long)b);
    json_t *d = json_pack("{s:I,s:[I,I]}", "tournament", (json_int_t)tid, "players", (json_int_t)a,
                          (json_int_t)b);
    alerts_audit_add(s, user, 0, add ? "forbidden.add" : "forbidden.remove", "tournament", d);
    json_decref(d);
    if (add) {
        json_t *rows = list(s, tid, a, b);
        *out = json_incref(json_array_get(rows, 0));
        json_decref(rows);
    } else {
        *out = json_pack("{s:b,s:[I,I]}", "removed", 1, "players", (json_int_t)a, (json_int_t)b);
    }
    return *out ? 0 : -ENOMEM;
}
