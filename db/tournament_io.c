/*
 * tournament_io.c — a tournament's rows as a rules Tournament, and the
 * pairing engines' answers written back.  See tournament_io.h.
 */
#include "tournament_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "berger.h"
#include "burstein.h"
#include "dutch.h"
#include "error.h"
#include "forbidden.h"
#include "jsonget.h"
#include "office.h"
#include "rounds.h"
#include "tiebreak.h"
#include "tournaments.h"
#include "tpn.h"
#include "trf.h"

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* ---- building ---- */

/* Each side's TRF result for a stored result; 0 while the game has none. */
static void result_chars(const char *res, char *w, char *b)
{
    static const struct {
        const char *r;
        char w, b;
    } t[] = {{"1-0", '1', '0'},   {"0-1", '0', '1'}, {"1/2-1/2", '=', '='}, {"+/-", '+', '-'},
             {"-/+", '-', '+'},   {"-/-", '-', '-'}, {"+/+", '+', '+'},     {"1/2-0", '=', '0'},
             {"0-1/2", '0', '='}, {"0-0", '0', '0'}, {"1-1", '1', '1'},     {"1-1/2", '1', '='},
             {"1/2-1", '=', '1'}};
    *w = *b = 0;
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(res, t[i].r) == 0) {
            *w = t[i].w;
            *b = t[i].b;
        }
}

static char bye_char(const char *kind)
{
    if (strcmp(kind, "half") == 0)
        return TRN_RES_HPB;
    if (strcmp(kind, "pab") == 0)
        return TRN_RES_PAB;
    if (strcmp(kind, "forfeit") == 0)
        return TRN_RES_FORFEIT_WIN;
    return TRN_RES_ZPB; /* zero, free */
}

/* Start rank of player ID, 0 if not in the list. */
static int tpn_of(const int64_t *ids, int np, int64_t id)
{
    for (int i = 0; i < np; i++)
        if (ids[i] == id)
            return i + 1;
    return 0;
}

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* The player rows of TID in TPN order (row k has number k + 1, also
 * given as "tpn"); NULL when out of memory. */
static json_t *players_by_tpn(Store *s, int64_t tid)
{
    json_t *rows = store_rows(s,
                              "SELECT id, tournament_id, name, rating, rating_estimate, title, "
                              "federation, fide_id, sex, birth, status FROM players WHERE "
                              "tournament_id = ?1 ORDER BY id",
                              "i", tid);
    int64_t *ids = NULL;
    int np = 0;
    json_t *out = rows ? json_array() : NULL;
    if (out && tpn_order(s, tid, &ids, &np) == 0)
        for (int k = 0; k < np; k++) {
            /* ROWS are by id: a binary search finds each. */
            size_t lo = 0, hi = json_array_size(rows);
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (jsonget_int(json_array_get(rows, mid), "id") < ids[k])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            json_t *p = json_array_get(rows, lo);
            if (p && jsonget_int(p, "id") == ids[k]) {
                json_object_set_new(p, "tpn", json_integer(k + 1));
                json_array_append(out, p);
            }
        }
    free(ids);
    json_decref(rows);
    return out;
}

static json_t *tournament_row(Store *s, int64_t tid)
{
    return store_row(s,
                     "SELECT id, name, system, rounds, place, start_date, time_control, "
                     "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, "
                     "bye_last_rounds, office AS office_json, rating_type, pairing_system, "
                     "acceleration FROM tournaments WHERE id = ?1",
                     "i", tid);
}

/*
 * A round robin game not played because of an absence (bye row V with the
 * scheduled opponent) becomes a forfeit between the two when both sides
 * can say so: the present player's + (kind forfeit) against the absent
 * one's - (a zero-point bye, a withdrawal), or - against - when both were
 * absent.  C.07 counts such forfeits as games in a round robin.  A
 * half-point bye cannot name an opponent in the report (TRF H), so then
 * both stay unlinked: H, and + without opponent.
 */
static void link_forfeit(Tournament *t, const int64_t *ids, int np, json_t *v)
{
    int r = (int)jsonget_int(v, "round");
    int pi = tpn_of(ids, np, jsonget_int(v, "player_id")),
        oi = tpn_of(ids, np, jsonget_int(v, "opp"));
    TrnPlayer *p = tournament_player_mut(t, pi), *o = tournament_player_mut(t, oi);
    if (!p || !o || p == o || r < 1 || r > p->rounds || r > o->rounds)
        return;
    TrnGame *a = &p->games[r - 1], *b = &o->games[r - 1];
    int ok_a = a->result == TRN_RES_FORFEIT_WIN || a->result == TRN_RES_ZPB;
    int ok_b = b->result == TRN_RES_FORFEIT_WIN || b->result == TRN_RES_ZPB;
    if (a->opponent || b->opponent || !ok_a || !ok_b ||
        (a->result == TRN_RES_FORFEIT_WIN && b->result == TRN_RES_FORFEIT_WIN))
        return;
    *a = (TrnGame){(uint16_t)oi, TRN_COLOUR_NONE,
                   a->result == TRN_RES_FORFEIT_WIN ? TRN_RES_FORFEIT_WIN : TRN_RES_FORFEIT_LOSS};
    *b = (TrnGame){(uint16_t)pi, TRN_COLOUR_NONE,
                   b->result == TRN_RES_FORFEIT_WIN ? TRN_RES_FORFEIT_WIN : TRN_RES_FORFEIT_LOSS};
}

/* A Swiss's 192 line from its pairing system and acceleration, in the
 * codes of TRF-2026's table (swiss_code_name(); *_BAKU turns Baku
 * acceleration on in the engines). */
static void swiss_head(Tournament *t, json_t *tour)
{
    int burstein = strcmp(jstr(tour, "pairing_system"), "burstein") == 0;
    int baku = strcmp(jstr(tour, "acceleration"), "baku") == 0;
    snprintf(t->system, sizeof t->system, "%s",
             swiss_code_name(burstein ? SWISS_BURSTEIN : SWISS_DUTCH, baku));
}

/* A Burstein event without acceleration says so, or a reader of the report
 * (and the engine) would apply the Burstein default acceleration: the first
 * player's accelerations are given, all zero (an XXA line without values,
 * which bbpPairings and the engines read as acceleration given by hand).
 * A 250 record cannot say it: TRF-2026 wants its points nonzero for
 * individuals, and bbpPairings refuses a zero one. */
static void burstein_unaccelerated(Tournament *t, json_t *tour)
{
    if (t->n_players > 0 && strcmp(jstr(tour, "system"), "swiss") == 0 &&
        strcmp(jstr(tour, "pairing_system"), "burstein") == 0 &&
        strcmp(jstr(tour, "acceleration"), "baku") != 0)
        t->players[0].has_accel = true;
}

/* The tournament-wide fields of T (NP players) from its row TOUR: names,
 * dates, the system line of the report, points and tie-breaks.  Returns 0
 * or -ENOMEM. */
static int fill_head(Tournament *t, json_t *tour, int np)
{
    int rc = 0;
    copy(t->name, sizeof t->name, jstr(tour, "name"));
    copy(t->city, sizeof t->city, jstr(tour, "place"));
    copy(t->start_date, sizeof t->start_date, jstr(tour, "start_date"));
    /* The report writes dates as YYYY/MM/DD; the desk sends YYYY-MM-DD. */
    if (strlen(t->start_date) == 10 && t->start_date[4] == '-' && t->start_date[7] == '-')
        t->start_date[4] = t->start_date[7] = '/';
    copy(t->time_control, sizeof t->time_control, jstr(tour, "time_control"));
    copy(t->encoded_tc, sizeof t->encoded_tc, jstr(tour, "time_control"));
    int rr = strcmp(jstr(tour, "system"), "roundrobin") == 0;
    t->n_rounds = (int)jsonget_int(tour, "rounds");
    /* Line 192 tells a reader of the report how the event was paired, and
     * so whether forfeits count as games (round robin, C.07).  A double
     * round robin is paired with the first cycle's last two rounds swapped
     * (pair_berger), which is what FIDE_DOUBLEROUNDROBIN means. */
    if (strcmp(jstr(tour, "system"), "swiss") == 0)
        swiss_head(t, tour);
    int double_rr = berger_rounds(np, BERGER_DOUBLE);
    if (rr)
        copy(t->system, sizeof t->system,
             double_rr > 0 && t->n_rounds >= double_rr ? "FIDE_DOUBLEROUNDROBIN"
                                                       : "FIDE_ROUNDROBIN");
    t->initial_colour = TRN_WHITE;
    tournaments_point_system(json_object_get(tour, "points"), &t->points);
    TrnPointSystem def;
    tournament_points_default(&def);
    t->points_given = memcmp(&def, &t->points, sizeof def) != 0;
    json_t *tb = json_object_get(tour, "tiebreaks");
    size_t k;
    json_t *v;
    json_array_foreach(tb, k, v)
    {
        size_t len = strlen(t->tiebreaks);
        snprintf(t->tiebreaks + len, sizeof t->tiebreaks - len, "%s%s", k ? "," : "",
                 json_string_value(v));
    }
    if (!t->tiebreaks[0])
        copy(t->tiebreaks, sizeof t->tiebreaks, rr ? "DE,SB,WIN" : "BH/C1,BH,SB,DE");
    return rc;
}

int tournament_io_build(Store *s, int64_t tid, int rounds, Tournament **out, int64_t **ids_out,
                        char *err, size_t n)
{
    *out = NULL;
    *ids_out = NULL;
    json_t *tour = tournament_row(s, tid);
    if (!tour)
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    if (rounds <= 0)
        rounds = (int)store_int(s, 0,
                                "SELECT coalesce(max(number), 0) FROM rounds WHERE "
                                "tournament_id = ?1 AND (public_now_ms() IS NULL OR "
                                "published_ms IS NOT NULL)",
                                "i", tid);
    json_t *players = players_by_tpn(s, tid);
    /* Under a public view, a result the delay holds back is not in yet. */
    json_t *games = store_rows(s,
                               "SELECT round, white_id, black_id, CASE WHEN " ROUNDS_SQL_HELD
                               " THEN '*' ELSE result END AS result FROM games g WHERE "
                               "tournament_id = ?1 AND round <= ?2 AND " ROUNDS_SQL_SHOWN(
                                   "?1", "g.round") " ORDER BY round, board",
                               "ii", tid, (int64_t)rounds);
    json_t *byes =
        store_rows(s,
                   "SELECT round, player_id, kind, coalesce(opponent_id, 0) AS "
                   "opp FROM byes WHERE tournament_id = ?1 AND round <= ?2 AND " ROUNDS_SQL_SHOWN(
                       "?1", "round") " ORDER BY round, player_id",
                   "ii", tid, (int64_t)rounds);
    Tournament *t = tournament_new();
    int np = (int)json_array_size(players);
    int64_t *ids = calloc((size_t)np + 1, sizeof *ids);
    int rc = 0;
    if (!t || !ids || !players || !games || !byes) {
        rc = -ENOMEM;
        goto fail;
    }
    if (np > TRN_MAX_PLAYERS || rounds > TRN_MAX_ROUNDS) {
        rc = error_set(err, n, STORE_E_INVALID,
                       "too many players or rounds for a tournament report");
        goto fail;
    }
    rc = fill_head(t, tour, np);
    if (rc)
        goto fail;
    size_t k;
    json_t *v;
    for (int i = 0; i < np; i++) {
        json_t *p = json_array_get(players, (size_t)i);
        TrnPlayer *tp = tournament_add_player(t, i + 1);
        if (!tp) {
            rc = -ENOMEM;
            goto fail;
        }
        ids[i] = jsonget_int(p, "id");
        copy(tp->name, sizeof tp->name, jstr(p, "name"));
        copy(tp->title, sizeof tp->title, jstr(p, "title"));
        copy(tp->federation, sizeof tp->federation, jstr(p, "federation"));
        copy(tp->fide_id, sizeof tp->fide_id, jstr(p, "fide_id"));
        copy(tp->birth, sizeof tp->birth, jstr(p, "birth"));
        tp->sex = jstr(p, "sex")[0];
        tp->rating = (int)jsonget_int(p, "rating");
        tp->rounds = rounds;
        /* Absent unless a game or a bye says otherwise. */
        for (int r = 0; r < rounds; r++)
            tp->games[r] = (TrnGame){0, TRN_COLOUR_NONE, TRN_RES_ZPB};
    }
    burstein_unaccelerated(t, tour);
    rc = forbidden_load(s, tid, t, ids, np);
    if (rc)
        goto fail;
    json_array_foreach(games, k, v)
    {
        int r = (int)jsonget_int(v, "round");
        int w = tpn_of(ids, np, jsonget_int(v, "white_id")),
            b = tpn_of(ids, np, jsonget_int(v, "black_id"));
        TrnPlayer *pw = tournament_player_mut(t, w), *pb = tournament_player_mut(t, b);
        if (r < 1 || r > rounds || !pw || !pb)
            continue;
        char rw, rb;
        result_chars(jstr(v, "result"), &rw, &rb);
        pw->games[r - 1] = (TrnGame){(uint16_t)b, TRN_WHITE, rw};
        pb->games[r - 1] = (TrnGame){(uint16_t)w, TRN_BLACK, rb};
    }
    json_array_foreach(byes, k, v)
    {
        int r = (int)jsonget_int(v, "round");
        TrnPlayer *p = tournament_player_mut(t, tpn_of(ids, np, jsonget_int(v, "player_id")));
        if (p && r >= 1 && r <= rounds && p->games[r - 1].opponent == 0)
            p->games[r - 1] = (TrnGame){0, TRN_COLOUR_NONE, bye_char(jstr(v, "kind"))};
    }
    json_array_foreach(byes, k, v) link_forfeit(t, ids, np, v);
    t->rounds_played = rounds;
    for (int i = 0; i < np; i++)
        t->players[i].points = tournament_player_score(t, &t->players[i], rounds);
    rc = office_trf_fill(tour, t);
    if (rc)
        goto fail;
    *out = t;
    *ids_out = ids;
    t = NULL;
    ids = NULL;
fail:
    tournament_free(t);
    free(ids);
    json_decref(tour);
    json_decref(players);
    json_decref(games);
    json_decref(byes);
    return rc;
}

/* ---- pairing ---- */

/* A bye row; OPP is the absent scheduled opponent of a forfeit, else 0. */
static int add_bye_row(Store *s, int64_t tid, int64_t rn, int64_t pid, const char *kind,
                       int64_t opp)
{
    return store_run(s, NULL,
                     "INSERT INTO byes(tournament_id, round, player_id, kind, "
                     "created_ms, opponent_id) VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, 0))",
                     "iiisii", tid, rn, pid, kind, store_now_ms(), opp);
}

json_t *tournament_io_round_byes(Store *s, int64_t tid, int64_t rn)
{
    json_t *b = store_rows(
        s,
        "SELECT player_id, kind, opponent_id FROM byes WHERE "
        "tournament_id = ?1 AND round = ?2 AND " ROUNDS_SQL_SHOWN("?1", "?2") " ORDER BY player_id",
        "ii", tid, rn);
    return b ? b : json_array();
}

json_t *tournament_io_byes_list(Store *s, int64_t tid)
{
    json_t *b =
        store_rows(s,
                   "SELECT b.round, b.player_id, p.name AS player_name, b.kind, "
                   "b.opponent_id, b.created_ms AS created_at FROM byes b JOIN players "
                   "p ON p.id = b.player_id WHERE b.tournament_id = ?1 AND " ROUNDS_SQL_SHOWN(
                       "?1", "b.round") " ORDER BY b.round, b.player_id",
                   "i", tid);
    return b ? b : json_array();
}

/* The virtual points (acceleration) of each player of round RN of T under
 * SYS, as [{player_id, points}] for those who have any, into VIRT.  They
 * decide the scoregroups only; standings never see them.  Returns 0 or
 * -ENOMEM. */
static int virtual_points(Tournament *t, SwissSystem sys, int64_t rn, const int64_t *ids,
                          json_t *virt)
{
    SwissRound sr;
    char why[200];
    int rc = swiss_round_setup(&sr, t, (int)rn, sys, NULL, why, sizeof why);
    for (int i = 0; !rc && i < sr.n; i++) {
        TrnPoints a = swiss_round_acceleration(&sr, sr.pl[i].tp, (int)rn);
        if (a)
            rc = json_array_append_new(virt, json_pack("{s:I,s:f}", "player_id",
                                                       (json_int_t)ids[sr.pl[i].id - 1], "points",
                                                       (double)a / TRN_POINT))
                     ? -ENOMEM
                     : 0;
    }
    swiss_round_free(&sr);
    return rc < 0 ? rc : 0;
}

int tournament_io_round_virtual_add(Store *s, int64_t tid, json_t *round)
{
    /* Only Baku gives virtual points here: a Burstein event without it
     * has its acceleration given as zero (burstein_unaccelerated). */
    json_t *tour =
        store_row(s, "SELECT system, acceleration FROM tournaments WHERE id = ?1", "i", tid);
    bool baku = tour && strcmp(jstr(tour, "system"), "swiss") == 0 &&
                strcmp(jstr(tour, "acceleration"), "baku") == 0;
    json_decref(tour);
    int64_t rn = jsonget_int(round, "number");
    if (!baku || rn < 1)
        return 0;
    Tournament *t = NULL;
    int64_t *ids = NULL;
    char err[200];
    json_t *virt = json_array();
    int rc = virt ? tournament_io_build(s, tid, (int)rn, &t, &ids, err, sizeof err) : -ENOMEM;
    if (rc == 0) {
        SwissSystem sys = strncmp(t->system, "FIDE_BURSTEIN", 13) ? SWISS_DUTCH : SWISS_BURSTEIN;
        rc = virtual_points(t, sys, rn, ids, virt);
    }
    if (rc == 0 && json_array_size(virt))
        rc = json_object_set(round, "virtual_points", virt) ? -ENOMEM : 0;
    json_decref(virt);
    tournament_free(t);
    free(ids);
    /* a round the report cannot hold simply shows no virtual points */
    return rc < 0 ? rc : 0;
}

/* Swiss: the tournament's system (Dutch or Burstein, from T's 192 line)
 * pairs round RN of T; fills PAIRINGS, *PAB (player id of the
 * pairing-allocated bye, 0 = none) and VIRT (see virtual_points). */
static int pair_swiss(Store *s, int64_t tid, int64_t rn, Tournament *t, const int64_t *ids,
                      json_t *pairings, int64_t *pab, json_t *virt, char *err, size_t n)
{
    json_t *absent = store_rows(s,
                                "SELECT id FROM players WHERE tournament_id = ?1 AND "
                                "status = 'withdrawn'",
                                "i", tid);
    json_t *req = store_rows(s,
                             "SELECT player_id, kind FROM byes WHERE tournament_id = ?1 AND "
                             "round = ?2",
                             "ii", tid, rn);
    size_t k;
    json_t *v;
    int rc = 0;
    json_array_foreach(absent, k, v) if (!rc) rc = tournament_add_bye(
        t, (TrnBye){'Z', (int)rn, tpn_of(ids, t->n_players, jsonget_int(v, "id")), false});
    json_array_foreach(req, k, v) if (!rc) rc = tournament_add_bye(
        t, (TrnBye){strcmp(jstr(v, "kind"), "half") ? 'Z' : 'H', (int)rn,
                    tpn_of(ids, t->n_players, jsonget_int(v, "player_id")), false});
    json_decref(absent);
    json_decref(req);
    if (rc)
        return rc;
    SwissPairing dp = {0};
    char why[200] = "";
    SwissSystem sys = strncmp(t->system, "FIDE_BURSTEIN", 13) ? SWISS_DUTCH : SWISS_BURSTEIN;
    rc = sys == SWISS_BURSTEIN ? burstein_pair_round(t, (int)rn, &dp, why, sizeof why)
                               : dutch_pair_round(t, (int)rn, &dp, why, sizeof why);
    if (rc == SWISS_E_NO_PAIRING)
        return error_set(err, n, STORE_E_CONFLICT,
                         "no pairing of round %lld satisfies the absolute criteria "
                         "(%s)%s%s",
                         (long long)rn, sys == SWISS_BURSTEIN ? "C.04.4.2" : "C.04.3",
                         why[0] ? ": " : "", why);
    if (rc == SWISS_E_INPUT)
        return error_set(err, n, STORE_E_CONFLICT, "round %lld cannot be paired: %s", (long long)rn,
                         why);
    if (rc)
        return rc;
    int board = 0;
    for (int i = 0; i < dp.n_pairs; i++) {
        int64_t w = ids[dp.pairs[i].white - 1];
        if (dp.pairs[i].black == 0) {
            *pab = w;
            continue;
        }
        json_array_append_new(pairings, json_pack("{s:i,s:I,s:I}", "board", ++board, "white_id",
                                                  (json_int_t)w, "black_id",
                                                  (json_int_t)ids[dp.pairs[i].black - 1]));
    }
    swiss_pairing_free(&dp);
    return virtual_points(t, sys, rn, ids, virt);
}

/* 1 when REQ (rows {player_id, kind}) holds a requested bye of player ID;
 * a withdrawn player (rows of WITHDRAWN, {id}) is absent just the same. */
static int requested(json_t *req, json_t *withdrawn, int64_t id)
{
    size_t k;
    json_t *v;
    json_array_foreach(req, k, v) if (jsonget_int(v, "player_id") == id &&
                                      (!strcmp(jstr(v, "kind"), "half") ||
                                       !strcmp(jstr(v, "kind"), "zero"))) return 1;
    json_array_foreach(withdrawn, k, v) if (jsonget_int(v, "id") == id) return 1;
    return 0;
}

/*
 * Round robin: round RN from the Berger tables by start rank; double round
 * robin when the tournament has the rounds for it.  The table is fixed, so
 * a requested bye does not move anybody: the game it falls on is not
 * played.  The absent player keeps the bye (H, or Z which the report
 * links as a forfeit loss), the scheduled opponent wins by forfeit, and
 * when both asked for a bye each keeps their own.  A withdrawn player is
 * absent the same way (no row needed).  UNPLAYED gets {player_id,
 * opponent_id, kind}: "forfeit" for a new row of the present player,
 * "absent" for the scheduled opponent to note on a requested bye.  Such a
 * board gets no game row, so nothing can start it or put it in the PGN.
 */
static int pair_berger(json_t *tour, json_t *req, json_t *wd, int64_t rn, int np,
                       const int64_t *ids, json_t *pairings, json_t *unplayed, int64_t *free_id,
                       char *err, size_t n)
{
    BergerBoard boards[BERGER_MAX_BOARDS];
    int nb;
    if (np == 2) {
        /* Two players: a match of the tournament's rounds, colours
         * alternating from the Berger table's one board (1 - 2). */
        int64_t planned = jsonget_int(tour, "rounds");
        if (planned > 0 && rn > planned)
            return error_set(err, n, STORE_E_STATE, "this match has only %lld games",
                             (long long)planned);
        boards[0] = rn % 2 ? (BergerBoard){1, 2} : (BergerBoard){2, 1};
        nb = 1;
    } else {
        if (np < BERGER_MIN_PLAYERS || np > BERGER_MAX_PLAYERS)
            return error_set(err, n, STORE_E_CONFLICT,
                             "the Berger tables need %d to %d players, not %d", BERGER_MIN_PLAYERS,
                             BERGER_MAX_PLAYERS, np);
        int flags = 0;
        if (jsonget_int(tour, "rounds") >= berger_rounds(np, BERGER_DOUBLE))
            flags = BERGER_DOUBLE | BERGER_SWAP_LAST_TWO;
        nb = berger_round(np, (int)rn, flags, boards);
        if (nb < 0)
            return error_set(err, n, STORE_E_STATE,
                             "a round robin of %d players has only %d rounds", np,
                             berger_rounds(np, flags));
    }
    int board = 0;
    for (int i = 0; i < nb; i++) {
        if (!boards[i].white || !boards[i].black) {
            *free_id = ids[(boards[i].white ? boards[i].white : boards[i].black) - 1];
            continue;
        }
        int64_t w = ids[boards[i].white - 1], b = ids[boards[i].black - 1];
        int aw = requested(req, wd, w), ab = requested(req, wd, b);
        for (int side = 0; side < 2 && (aw || ab); side++) {
            int64_t me = side ? b : w, other = side ? w : b;
            int absent = side ? ab : aw;
            json_array_append_new(unplayed, json_pack("{s:I,s:I,s:s}", "player_id", (json_int_t)me,
                                                      "opponent_id", (json_int_t)other, "kind",
                                                      absent ? "absent" : "forfeit"));
        }
        if (aw || ab)
            continue;
        json_array_append_new(pairings, json_pack("{s:i,s:I,s:I}", "board", ++board, "white_id",
                                                  (json_int_t)w, "black_id", (json_int_t)b));
    }
    return 0;
}

int tournament_io_pair_next_round(Store *s, int64_t tid, int64_t user, json_t **out, char *err,
                                  size_t n)
{
    *out = NULL;
    json_t *tour = tournament_row(s, tid);
    if (!tour)
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    const char *system = jstr(tour, "system");
    int64_t rn = store_int(s, 0,
                           "SELECT coalesce(max(number), 0) FROM rounds WHERE "
                           "tournament_id = ?1",
                           "i", tid) +
                 1;
    int64_t open = store_int(s, 0,
                             "SELECT count(*) FROM games WHERE tournament_id = ?1 AND "
                             "result = '*'",
                             "i", tid);
    Tournament *t = NULL;
    int64_t *ids = NULL;
    json_t *pairings = json_array(), *unplayed = json_array(), *req = NULL, *wd = NULL;
    json_t *virt = NULL;
    int64_t bye_id = 0;
    int rc;
    if (strcmp(system, "manual") == 0) {
        rc = error_set(err, n, STORE_E_STATE,
                       "a manual tournament is paired by hand: send the pairings");
        goto done;
    }
    if (jsonget_int(tour, "rounds") > 0 && rn > jsonget_int(tour, "rounds")) {
        rc = error_set(err, n, STORE_E_STATE, "all %lld rounds have been paired",
                       (long long)jsonget_int(tour, "rounds"));
        goto done;
    }
    if (open) {
        rc = error_set(err, n, STORE_E_STATE, "%lld game(s) of earlier rounds have no result yet",
                       (long long)open);
        goto done;
    }
    rc = tournament_io_build(s, tid, (int)rn - 1, &t, &ids, err, n);
    if (rc)
        goto done;
    if (t->n_players < 2) {
        rc = error_set(err, n, STORE_E_STATE, "at least two players are needed to pair a round");
        goto done;
    }
    int rr = strcmp(system, "roundrobin") == 0;
    if (rr) {
        req = store_rows(s,
                         "SELECT player_id, kind FROM byes WHERE tournament_id = ?1 AND "
                         "round = ?2",
                         "ii", tid, rn);
        wd = store_rows(s,
                        "SELECT id FROM players WHERE tournament_id = ?1 AND "
                        "status = 'withdrawn'",
                        "i", tid);
        rc = pair_berger(tour, req, wd, rn, t->n_players, ids, pairings, unplayed, &bye_id, err, n);
    } else {
        virt = json_array();
        rc = pair_swiss(s, tid, rn, t, ids, pairings, &bye_id, virt, err, n);
    }
    if (rc)
        goto done;
    rc = rounds_create(s, tid, pairings, user, out, err, n);
    if (rc)
        goto done;
    size_t k;
    json_t *v;
    json_array_foreach(unplayed, k, v)
    {
        if (rc)
            break;
        if (strcmp(jstr(v, "kind"), "forfeit") == 0)
            rc = add_bye_row(s, tid, rn, jsonget_int(v, "player_id"), "forfeit",
                             jsonget_int(v, "opponent_id"));
        else /* a withdrawn player has no row to update */
            rc = store_run(s, NULL,
                           "UPDATE byes SET opponent_id = ?4 WHERE tournament_id = ?1 "
                           "AND round = ?2 AND player_id = ?3",
                           "iiii", tid, rn, jsonget_int(v, "player_id"),
                           jsonget_int(v, "opponent_id"));
    }
    /* The free round of an odd round robin scores nothing; a bye the free
     * player asked for is moot and gives way to it. */
    if (!rc && bye_id && rr && requested(req, NULL, bye_id))
        rc = store_run(s, NULL,
                       "UPDATE byes SET kind = 'free' WHERE tournament_id = ?1 AND "
                       "round = ?2 AND player_id = ?3",
                       "iii", tid, rn, bye_id);
    else if (!rc && bye_id)
        rc = add_bye_row(s, tid, rn, bye_id, rr ? "free" : "pab", 0);
    if (rc) {
        rc = rc > 0 ? error_set(err, n, rc, "the bye was refused by the store") : rc;
        goto done;
    }
    json_object_set_new(*out, "byes", tournament_io_round_byes(s, tid, rn));
    if (virt)
        json_object_set(*out, "virtual_points", virt);
done:
    if (rc) {
        json_decref(*out);
        *out = NULL;
    }
    tournament_free(t);
    free(ids);
    json_decref(pairings);
    json_decref(unplayed);
    json_decref(req);
    json_decref(wd);
    json_decref(virt);
    json_decref(tour);
    return rc;
}

/* A requested bye's round must still be open: 0, or an error with ERR. */
static int bye_round_open(Store *s, int64_t tid, json_t *tour, int64_t rn, char *err, size_t n)
{
    int64_t rounds = jsonget_int(tour, "rounds");
    if (rounds > 0 && rn > rounds)
        return error_set(err, n, STORE_E_INVALID, "the tournament has only %lld rounds",
                         (long long)rounds);
    if (tournaments_exists(s, 'r', tid, rn))
        return error_set(err, n, STORE_E_STATE,
                         "round %lld is already paired; byes can only be requested "
                         "or cancelled for rounds not yet paired",
                         (long long)rn);
    return 0;
}

/* Cancels the requested bye of PID in round RN. */
static int bye_cancel(Store *s, int64_t tid, int64_t pid, int64_t rn, json_t **out, char *err,
                      size_t n)
{
    int changes = 0;
    int rc = store_run(s, &changes,
                       "DELETE FROM byes WHERE tournament_id = ?1 AND round = ?2 "
                       "AND player_id = ?3 AND kind IN ('half', 'zero')",
                       "iii", tid, rn, pid);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the cancellation was refused by the store") : rc;
    if (!changes)
        return error_set(err, n, STORE_E_NOT_FOUND,
                         "player %lld has no requested bye in round %lld", (long long)pid,
                         (long long)rn);
    *out = json_pack("{s:I,s:I,s:I,s:s}", "tournament_id", (json_int_t)tid, "player_id",
                     (json_int_t)pid, "round", (json_int_t)rn, "kind", "none");
    return 0;
}

/* The half-point bye rules of TOUR for player PID in round RN. */
static int half_bye_allowed(Store *s, json_t *tour, int64_t tid, int64_t pid, int64_t rn, char *err,
                            size_t n)
{
    int64_t rounds = jsonget_int(tour, "rounds"), last = jsonget_int(tour, "bye_last_rounds");
    if (rounds > 0 && last > 0 && rn > rounds - last)
        return error_set(err, n, STORE_E_CONFLICT,
                         "no half-point byes in the last %lld round(s) of this "
                         "tournament (round %lld of %lld)",
                         (long long)last, (long long)rn, (long long)rounds);
    json_t *limit = json_object_get(tour, "bye_limit");
    if (!json_is_integer(limit))
        return 0;
    if (json_integer_value(limit) == 0)
        return error_set(err, n, STORE_E_CONFLICT,
                         "this tournament allows no half-point byes (bye_limit 0)");
    int64_t had = store_int(s, 0,
                            "SELECT count(*) FROM byes WHERE tournament_id = ?1 AND "
                            "player_id = ?2 AND kind = 'half'",
                            "ii", tid, pid);
    if (had >= json_integer_value(limit))
        return error_set(err, n, STORE_E_CONFLICT,
                         "player %lld already has %lld half-point bye(s); this "
                         "tournament allows %lld",
                         (long long)pid, (long long)had, (long long)json_integer_value(limit));
    return 0;
}

int tournament_io_bye_request(Store *s, int64_t tid, int64_t pid, int64_t rn, const char *kind,
                              int64_t user, json_t **out, char *err, size_t n)
{
    *out = NULL;
    json_t *p = store_row(s, "SELECT status FROM players WHERE tournament_id = ?1 AND id = ?2",
                          "ii", tid, pid);
    json_t *tour = tournament_row(s, tid);
    int rc = 0;
    if (!p || !tour) {
        rc = error_set(err, n, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                       (long long)pid, (long long)tid);
        goto done;
    }
    int none = strcmp(kind, "none") == 0;
    rc = bye_round_open(s, tid, tour, rn, err, n);
    if (rc)
        goto done;
    if (none) {
        rc = bye_cancel(s, tid, pid, rn, out, err, n);
        if (!rc)
            alerts_audit_add(s, user, 0, "bye.cancel", "player", *out);
        goto done;
    }
    if (strcmp(jstr(p, "status"), "withdrawn") == 0) {
        rc = error_set(err, n, STORE_E_STATE, "player %lld has withdrawn and is not paired anyway",
                       (long long)pid);
        goto done;
    }
    if (strcmp(kind, "half") == 0 && (rc = half_bye_allowed(s, tour, tid, pid, rn, err, n)))
        goto done;
    rc = add_bye_row(s, tid, rn, pid, kind, 0);
    if (rc == STORE_E_CONFLICT) {
        rc = error_set(err, n, rc,
                       "player %lld already has a bye in round %lld; cancel it first (kind "
                       "\"none\")",
                       (long long)pid, (long long)rn);
        goto done;
    }
    if (rc) {
        rc = rc > 0 ? error_set(err, n, rc, "the bye was refused by the store") : rc;
        goto done;
    }
    *out = json_pack("{s:I,s:I,s:I,s:s}", "tournament_id", (json_int_t)tid, "player_id",
                     (json_int_t)pid, "round", (json_int_t)rn, "kind", kind);
    alerts_audit_add(s, user, 0, "bye.request", "player", *out);
done:
    json_decref(p);
    json_decref(tour);
    return rc;
}

/* ---- standings and the report ---- */

/* Standings of T after ROUNDS rounds with the tie-breaks T names. */
static int standings_of(const Tournament *t, int rr, int rounds, Standings **st)
{
    TbSpec specs[TB_MAX_SPECS];
    int count = 0;
    char why[160];
    if (tiebreak_parse(t->tiebreaks, specs, TB_MAX_SPECS - 1, &count, why, sizeof why))
        count = 0;
    /* The edition in force on the start date, as `arbiter standings` picks it. */
    TbOptions opt = {
        .edition = tiebreak_edition_for_date(t->start_date), .rounds = rounds, .round_robin = rr};
    return tiebreak_standings(t, specs, count, &opt, st);
}

void tournament_io_standings_clear(TournamentIoStandings *ts)
{
    if (!ts)
        return;
    tournament_free(ts->t);
    free(ts->ids);
    json_decref(ts->rows);
    json_decref(ts->tiebreaks);
    memset(ts, 0, sizeof *ts);
}

int tournament_io_standings_build(Store *s, int64_t tid, TournamentIoStandings *ts)
{
    memset(ts, 0, sizeof *ts);
    ts->rows = json_array();
    ts->tiebreaks = json_array();
    json_t *tour = tournament_row(s, tid);
    ts->round_robin = tour && strcmp(jstr(tour, "system"), "roundrobin") == 0;
    json_decref(tour);
    /* The rounds that have begun to produce results; a paired round of
     * byes and forfeits alone (no game) counts at once. */
    int rounds = (int)store_int(s, 0,
                                "SELECT coalesce(max(r), 0) FROM (SELECT round AS r FROM "
                                "games WHERE tournament_id = ?1 AND result <> '*' UNION "
                                "SELECT number FROM rounds x WHERE x.tournament_id = ?1 AND "
                                "EXISTS (SELECT 1 FROM byes b WHERE b.tournament_id = ?1 "
                                "AND b.round = x.number) AND NOT EXISTS (SELECT 1 FROM "
                                "games g WHERE g.tournament_id = ?1 AND g.round = "
                                "x.number))",
                                "i", tid);
    json_t *players = players_by_tpn(s, tid);
    Standings *st = NULL;
    char err[160];
    size_t np = json_array_size(players);
    int rc = 0;
    if (!ts->rows || !ts->tiebreaks || !players) {
        rc = -ENOMEM;
        goto out;
    }
    if (np == 0 || tournament_io_build(s, tid, rounds, &ts->t, &ts->ids, err, sizeof err))
        goto out;
    ts->rounds = rounds;
    if (rounds == 0 || standings_of(ts->t, ts->round_robin, rounds, &st)) {
        /* No result yet: the start list, and the names the standings will have. */
        TbSpec specs[TB_MAX_SPECS];
        int count = 0;
        char why[160];
        if (tiebreak_parse(ts->t->tiebreaks, specs, TB_MAX_SPECS - 1, &count, why, sizeof why))
            count = 0;
        for (int k = 0; k < count; k++) {
            char name[32];
            tiebreak_spec_name(&specs[k], name, sizeof name);
            if (specs[k].code != TB_PTS)
                json_array_append_new(ts->tiebreaks, json_string(name));
        }
        for (size_t i = 0; i < np; i++)
            json_array_append_new(ts->rows,
                                  json_pack("{s:I,s:O,s:f,s:i,s:{}}", "rank", (json_int_t)i + 1,
                                            "player", json_array_get(players, i), "points", 0.0,
                                            "games", 0, "tiebreaks"));
        ts->rounds = 0;
        goto out;
    }
    for (int k = 1; k < st->n_specs; k++) {
        char name[32];
        tiebreak_spec_name(&st->specs[k], name, sizeof name);
        json_array_append_new(ts->tiebreaks, json_string(name));
    }
    for (int i = 0; i < st->n_rows; i++) {
        const TbRow *row = &st->rows[i];
        const TrnPlayer *tp = tournament_player(ts->t, row->player);
        int played = 0;
        for (int r = 0; tp && r < rounds; r++)
            played += tournament_result_is_played(tp->games[r].result) ||
                      tp->games[r].result == TRN_RES_FORFEIT_WIN ||
                      tp->games[r].result == TRN_RES_FORFEIT_LOSS;
        json_t *tb = json_object();
        for (int k = 1; k < st->n_specs; k++)
            json_object_set_new(tb, json_string_value(json_array_get(ts->tiebreaks, (size_t)k - 1)),
                                row->valid[k] ? json_real((double)row->value[k] / TB_SCALE)
                                              : json_null());
        json_array_append_new(ts->rows,
                              json_pack("{s:i,s:O,s:f,s:i,s:o}", "rank", row->rank, "player",
                                        json_array_get(players, (size_t)row->player - 1), "points",
                                        (double)row->value[0] / TB_SCALE, "games", played,
                                        "tiebreaks", tb));
    }
out:
    tiebreak_standings_free(st);
    json_decref(players);
    if (rc)
        tournament_io_standings_clear(ts);
    return rc;
}

json_t *tournament_io_standings(Store *s, int64_t tid)
{
    TournamentIoStandings ts;
    if (tournament_io_standings_build(s, tid, &ts))
        return json_array();
    json_t *rows = json_incref(ts.rows);
    tournament_io_standings_clear(&ts);
    return rows;
}

char *tournament_io_trf(Store *s, int64_t tid, int flavour, size_t *len, char *err, size_t n)
{
    Tournament *t = NULL;
    int64_t *ids = NULL;
    if (tournament_io_build(s, tid, 0, &t, &ids, err, n))
        return NULL;
    json_t *tour = tournament_row(s, tid);
    int rr = tour && strcmp(jstr(tour, "system"), "roundrobin") == 0;
    json_decref(tour);
    Standings *st = NULL;
    if (t->rounds_played > 0 && standings_of(t, rr, t->rounds_played, &st) == 0)
        for (int i = 0; i < st->n_rows; i++) {
            TrnPlayer *p = tournament_player_mut(t, st->rows[i].player);
            if (p)
                p->rank = st->rows[i].rank;
        }
    tiebreak_standings_free(st);
    char *text = trf_write(t, flavour == 16 ? TRF_FLAVOUR_16 : TRF_FLAVOUR_26, len);
    if (!text)
        snprintf(err, n, "out of memory");
    tournament_free(t);
    free(ids);
    return text;
}
