/*
 * tournament_lists.c — crosstable and pairing-list data.  See
 * tournament_lists.h.
 */
#include "tournament_lists.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonget.h"
#include "players.h"
#include "rounds.h"
#include "tournament_io.h"

/* O-packable: a missing member is null. */
static json_t *get(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return v ? v : json_null();
}

static json_t *tournament_head(Store *s, int64_t tid)
{
    return store_row(s,
                     "SELECT id, name, place, start_date, system, rounds FROM tournaments "
                     "WHERE id = ?1",
                     "i", tid);
}

/* Start rank of player ID among N, 0 if none. */
static int tpn_of(const int64_t *ids, int n, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return i + 1;
    return 0;
}

/* One round's cell of a player: the game G of round RN. */
static json_t *cell(const TrnGame *g, int rn, const int64_t *ids, int np)
{
    static const struct {
        char code;
        const char *kind, *text;
    } byes[] = {{TRN_RES_PAB, "pab", "PAB"},
                {TRN_RES_HPB, "hpb", "HPB"},
                {TRN_RES_FPB, "fpb", "FPB"},
                {TRN_RES_ZPB, "zpb", "ZPB"}};
    json_t *c = json_pack("{s:i}", "round", rn);
    if (g->opponent == 0 || g->opponent > np) {
        const char *kind = "zpb", *text = "ZPB";
        for (unsigned i = 0; i < sizeof byes / sizeof byes[0]; i++)
            if (g->result == byes[i].code) {
                kind = byes[i].kind;
                text = byes[i].text;
            }
        json_object_set_new(c, "kind", json_string(kind));
        json_object_set_new(c, "opponent", json_null());
        json_object_set_new(c, "opponent_id", json_null());
        json_object_set_new(c, "colour", json_null());
        json_object_set_new(c, "result", json_null());
        json_object_set_new(c, "text", json_string(text));
        /* A round robin win whose absent opponent had a half-point bye
         * (TRF + without opponent). */
        if (g->result == TRN_RES_FORFEIT_WIN) {
            json_object_set_new(c, "kind", json_string("forfeit"));
            json_object_set_new(c, "result", json_string("+"));
            json_object_set_new(c, "text", json_string("+"));
        }
        return c;
    }
    const char *res = NULL, *kind = "game";
    switch (g->result) {
    case TRN_RES_WIN:
    case TRN_RES_UNRATED_WIN: res = "1"; break;
    case TRN_RES_DRAW:
    case TRN_RES_UNRATED_DRAW: res = "\xc2\xbd"; break; /* ½ */
    case TRN_RES_LOSS:
    case TRN_RES_UNRATED_LOSS: res = "0"; break;
    case TRN_RES_FORFEIT_WIN: res = "+", kind = "forfeit"; break;
    case TRN_RES_FORFEIT_LOSS: res = "-", kind = "forfeit"; break;
    default: break; /* not finished yet */
    }
    const char *colour = g->colour == TRN_WHITE ? "w" : g->colour == TRN_BLACK ? "b" : NULL;
    char text[32];
    snprintf(text, sizeof text, "%d%s%s", g->opponent, colour ? colour : "", res ? res : "");
    json_object_set_new(c, "kind", json_string(kind));
    json_object_set_new(c, "opponent", json_integer(g->opponent));
    json_object_set_new(c, "opponent_id", json_integer(ids[g->opponent - 1]));
    json_object_set_new(c, "colour", colour ? json_string(colour) : json_null());
    json_object_set_new(c, "result", res ? json_string(res) : json_null());
    json_object_set_new(c, "text", json_string(text));
    return c;
}

json_t *tournament_lists_crosstable(Store *s, int64_t tid)
{
    json_t *head = tournament_head(s, tid);
    if (!head)
        return NULL;
    TournamentIoStandings ts;
    if (tournament_io_standings_build(s, tid, &ts)) {
        json_decref(head);
        return NULL;
    }
    int np = ts.t ? ts.t->n_players : 0;
    size_t i;
    json_t *row;
    json_array_foreach(ts.rows, i, row)
    {
        int tpn = tpn_of(ts.ids, np, jsonget_int(json_object_get(row, "player"), "id"));
        const TrnPlayer *tp = ts.t ? tournament_player(ts.t, tpn) : NULL;
        json_t *cells = json_array();
        for (int r = 0; tp && r < ts.rounds; r++)
            json_array_append_new(cells, cell(&tp->games[r], r + 1, ts.ids, np));
        json_object_set_new(row, "tpn", json_integer(tpn));
        json_object_set_new(row, "results", cells);
    }
    json_t *out = json_pack("{s:o,s:i,s:O,s:O}", "tournament", head, "after_round", ts.rounds,
                            "tiebreaks", ts.tiebreaks, "rows", ts.rows);
    tournament_io_standings_clear(&ts);
    return out;
}

/* The list entry of player ID: its row with start rank and points. */
static json_t *entry(json_t *players, const Tournament *t, const int64_t *ids, int with_points,
                     int64_t id)
{
    int tpn = t ? tpn_of(ids, t->n_players, id) : 0;
    const TrnPlayer *tp = tpn ? tournament_player(t, tpn) : NULL;
    double pts = tp && with_points ? (double)tp->points / TRN_POINT : 0.0;
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) if (jsonget_int(p, "id") == id) return json_pack(
        "{s:I,s:i,s:O,s:O,s:O,s:O,s:f}", "id", (json_int_t)id, "tpn", tpn, "name", get(p, "name"),
        "title", get(p, "title"), "federation", get(p, "federation"), "rating", get(p, "rating"),
        "points", pts);
    return json_pack("{s:I,s:i,s:s,s:f}", "id", (json_int_t)id, "tpn", tpn, "name", "?", "points",
                     pts);
}

json_t *tournament_lists_pairings(Store *s, int64_t tid, int64_t rn)
{
    json_t *round = rounds_get(s, tid, rn);
    if (!round)
        return NULL;
    json_t *head = tournament_head(s, tid);
    json_t *players = players_list(s, tid);
    /* Points before the round: the rounds before it (rounds = 0 would
     * mean every round to tournament_io_build, so round 1 asks for all, unused). */
    Tournament *t = NULL;
    int64_t *ids = NULL;
    char err[160];
    if (tournament_io_build(s, tid, rn > 1 ? (int)rn - 1 : 0, &t, &ids, err, sizeof err))
        t = NULL;
    int with_points = rn > 1;
    json_t *boards = json_array(), *byes = json_array();
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(round, "games"), i, g) json_array_append_new(
        boards,
        json_pack("{s:I,s:I,s:O,s:o,s:o}", "board", (json_int_t)jsonget_int(g, "board"), "game_id",
                  (json_int_t)jsonget_int(g, "id"), "result", get(g, "result"), "white",
                  entry(players, t, ids, with_points, jsonget_int(g, "white_id")), "black",
                  entry(players, t, ids, with_points, jsonget_int(g, "black_id"))));
    json_t *bl = tournament_io_round_byes(s, tid, rn);
    json_array_foreach(bl, i, g) json_array_append_new(
        byes, json_pack("{s:O,s:o}", "kind", get(g, "kind"), "player",
                        entry(players, t, ids, with_points, jsonget_int(g, "player_id"))));
    json_t *out =
        json_pack("{s:o,s:I,s:O,s:o,s:o}", "tournament", head ? head : json_object(), "round",
                  (json_int_t)rn, "status", get(round, "status"), "boards", boards, "byes", byes);
    json_decref(bl);
    json_decref(players);
    json_decref(round);
    tournament_free(t);
    free(ids);
    return out;
}
