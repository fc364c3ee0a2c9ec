/*
 * feed.c — the version of a round's or a tournament's game list without
 * replaying the games.  See feed.h.
 *
 * Workload: one call per poll of a feed (a broadcast platform polls every
 * second or so, per round).  The newest event of a game is one look-up in
 * the (game_id, seq) index; the other rows are a few per game.
 */
#include "feed.h"

#include <errno.h>
#include <string.h>

#include "rounds.h"

/* The newest event of each game of the feed (stored at or before ?3), then
 * the rows the feed also prints; ?2 = 0 takes every round.  A game's status
 * and result follow from its events, so they are left out (under a delay
 * they would tell too early that something happened). */
static const char SQL_LAST_EVENTS[] =
    "SELECT e.id, e.at_ms FROM games g JOIN game_events e ON e.id ="
    " (SELECT id FROM game_events WHERE game_id = g.id AND at_ms <= ?3 ORDER BY seq DESC LIMIT 1)"
    " WHERE g.tournament_id = ?1 AND (?2 = 0 OR g.round = ?2) AND " ROUNDS_SQL_SHOWN("?1",
                                                                                     "g.round");
static const char SQL_META[] =
    "SELECT t.name, t.place, t.time_control, t.settings, t.status, t.created_ms,"
    " (SELECT group_concat(number || ':' || status || ':' || ifnull(started_ms, 0))"
    "  FROM rounds WHERE tournament_id = t.id AND (?2 = 0 OR number = ?2) AND"
    "  (public_now_ms() IS NULL OR published_ms IS NOT NULL)),"
    " (SELECT group_concat(g.id || ':' || g.round || ':' || g.board || ':' || w.name || ':' || "
    "w.rating || ':' || w.title || ':' || w.fide_id || ':' ||"
    "   b.name || ':' || b.rating || ':' || b.title || ':' || b.fide_id, '|')"
    "  FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id"
    "  WHERE g.tournament_id = t.id AND (?2 = 0 OR g.round = ?2) AND"
    " " ROUNDS_SQL_SHOWN("t.id", "g.round") ")"
                                            " FROM tournaments t WHERE t.id = ?1";

/* FNV-1a, 64 bits: a change detector, not a defence. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int feed_version(Store *s, int64_t tid, int64_t rn, int64_t cut_ms, FeedVersion *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = store_stmt(s, SQL_LAST_EVENTS);
    if (!st)
        return -EIO;
    store_bind(st, "iii", tid, rn, cut_ms);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0), at = sqlite3_column_int64(st, 1);
        if (id > out->last_event)
            out->last_event = id;
        if (at > out->modified_ms)
            out->modified_ms = at;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return -EIO;
    st = store_stmt(s, SQL_META);
    if (!st)
        return -EIO;
    store_bind(st, "ii", tid, rn);
    uint64_t h = 0xcbf29ce484222325ULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_count(st);
        for (int i = 0; i < n; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            h = fnv(h, t ? t : (const unsigned char *)"",
                    t ? (size_t)sqlite3_column_bytes(st, i) : 0);
            h = fnv(h, (const unsigned char *)"\x1f", 1);
        }
        int64_t created = sqlite3_column_int64(st, 5);
        if (created > out->modified_ms)
            out->modified_ms = created;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        memset(out, 0, sizeof *out);
        return -EIO;
    }
    out->meta_hash = h;
    return 0;
}

int64_t feed_delay_ms(Store *s, int64_t tid, int64_t gid)
{
    if (tid == 0)
        tid = store_int(s, 0, "SELECT tournament_id FROM games WHERE id = ?1", "i", gid);
    int64_t sec = store_int(s, 0,
                            "SELECT ifnull(json_extract(settings, '$.public_delay'), 0) FROM "
                            "tournaments WHERE id = ?1",
                            "i", tid);
    return sec > 0 ? sec * 1000 : 0;
}

int feed_game_public(Store *s, int64_t gid, int64_t now_ms, int64_t *id, int64_t *at_ms)
{
    int64_t cut = now_ms - feed_delay_ms(s, 0, gid);
    json_t *row = store_row(s,
                            "SELECT (SELECT id FROM game_events WHERE game_id = ?1 AND at_ms <= ?2"
                            " ORDER BY seq DESC LIMIT 1) AS id,"
                            " (SELECT at_ms FROM game_events WHERE game_id = ?1 AND at_ms <= ?2"
                            " ORDER BY seq DESC LIMIT 1) AS at_ms,"
                            " (SELECT count(*) FROM game_events WHERE game_id = ?1 AND at_ms > ?2)"
                            " AS held",
                            "ii", gid, cut);
    int64_t i = 0, a = 0, held = 0;
    if (row) {
        i = json_integer_value(json_object_get(row, "id"));
        a = json_integer_value(json_object_get(row, "at_ms"));
        held = json_integer_value(json_object_get(row, "held"));
        json_decref(row);
    }
    if (id)
        *id = i;
    if (at_ms)
        *at_ms = a;
    return held == 0;
}

int feed_game_over_public(Store *s, int64_t gid, int64_t now_ms)
{
    if (store_int(s, 0, "SELECT status = 'over' FROM games WHERE id = ?1", "i", gid) != 1)
        return 0;
    return feed_game_public(s, gid, now_ms, NULL, NULL);
}
