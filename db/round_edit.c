/*
 * round_edit.c — arbiter edits of a pending round and its criteria report
 * (see round_edit.h).
 *
 * The report rebuilds the tournament from the store with tournament_io_build(), then
 * turns round RN's column into what the pairing engines see before pairing:
 * only absences (requested byes, and for a pending round the withdrawn
 * players), while the round's boards and pairing-allocated / free byes
 * become the proposal handed to pairing_check_round().  So the report judges the round
 * with exactly the facts tournament_io_pair_next_round() paired it from, by
 * the tournament's own system (Dutch or Burstein, with its acceleration:
 * the 192 line tournament_io_build() writes carries it).
 */
#include "round_edit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "jsonget.h"
#include "rounds.h"
#include "tournaments.h"
#include "berger.h"
#include "pairing_check.h"
#include "tournament_io.h"

static const char *jstr(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "";
}

static int tpn_of(const int64_t *ids, int np, int64_t id)
{
    for (int i = 0; i < np; i++)
        if (ids[i] == id)
            return i + 1;
    return 0;
}

/* MSG with every "#N" (a start rank) replaced by the player's name. */
static json_t *named(const char *msg, const Tournament *t)
{
    char out[600];
    size_t o = 0;
    for (const char *p = msg; *p && o + 1 < sizeof out;) {
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            char *end;
            long id = strtol(p + 1, &end, 10);
            const TrnPlayer *tp = tournament_player(t, (int)id);
            if (tp && tp->name[0]) {
                o += (size_t)snprintf(out + o, sizeof out - o, "%s", tp->name);
                if (o >= sizeof out)
                    o = sizeof out - 1;
                p = end;
                continue;
            }
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
    return json_string(out);
}

static const char *const KINDS[] = {"absolute", "quality", "note"};

static json_t *report_json(const PairingCheckReport *rep, const Tournament *t, const int64_t *ids)
{
    json_t *v = json_array();
    for (int i = 0; i < rep->n_items; i++) {
        const PairingCheckItem *it = &rep->items[i];
        json_t *pl = json_array();
        for (int k = 0; k < it->n_players; k++)
            if (it->players[k] >= 1 && it->players[k] <= t->n_players)
                json_array_append_new(pl, json_integer(ids[it->players[k] - 1]));
        /* the scoregroup of a quality item, as its points: "1.5" */
        char br[24];
        if (it->bracket % TRN_POINT)
            snprintf(br, sizeof br, "%d.%d", it->bracket / TRN_POINT, it->bracket % TRN_POINT);
        else
            snprintf(br, sizeof br, "%d", it->bracket / TRN_POINT);
        json_array_append_new(
            v, json_pack("{s:s,s:s,s:o,s:o,s:o,s:I,s:I,s:o}", "code", it->code, "kind",
                         KINDS[it->kind], "message", named(it->message, t), "players", pl, "board",
                         it->board ? json_integer(it->board) : json_null(), "value",
                         (json_int_t)it->value, "engine_value", (json_int_t)it->engine_value,
                         "bracket", it->in_bracket ? json_string(br) : json_null()));
    }
    return v;
}

static json_t *engine_json(const PairingCheckReport *rep, const int64_t *ids, int np)
{
    json_t *e = json_array();
    for (int i = 0; rep->engine_run && i < rep->engine.n_pairs; i++) {
        const DutchPair *p = &rep->engine.pairs[i];
        if (p->white < 1 || p->white > np || p->black < 0 || p->black > np)
            continue;
        json_array_append_new(
            e, json_pack("{s:I,s:o}", "white_id", (json_int_t)ids[p->white - 1], "black_id",
                         p->black ? json_integer(ids[p->black - 1]) : json_null()));
    }
    return e;
}

int round_edit_check(Store *s, int64_t tid, int64_t rn, json_t **out, char *err, size_t n)
{
    *out = NULL;
    json_t *round = store_row(s,
                              "SELECT r.status, t.system, t.pairing_system, "
                              "coalesce(t.rounds, 0) AS rounds "
                              "FROM rounds r JOIN tournaments t ON t.id = r.tournament_id "
                              "WHERE r.tournament_id = ?1 AND r.number = ?2",
                              "ii", tid, rn);
    if (!round)
        return error_set(err, n, STORE_E_NOT_FOUND, "no round %lld in tournament %lld",
                         (long long)rn, (long long)tid);
    bool pending = strcmp(jstr(round, "status"), "pending") == 0;
    const char *system = jstr(round, "system");
    json_t *games = store_rows(s,
                               "SELECT board, white_id, black_id FROM games WHERE "
                               "tournament_id = ?1 AND round = ?2 ORDER BY board",
                               "ii", tid, rn);
    json_t *byes = tournament_io_round_byes(s, tid, rn);
    json_t *gone = store_rows(s,
                              "SELECT id FROM players WHERE tournament_id = ?1 AND "
                              "status = 'withdrawn'",
                              "i", tid);
    Tournament *t = NULL;
    int64_t *ids = NULL;
    bool *withdrawn = NULL;
    PairingCheckProposal prop = {0};
    PairingCheckReport rep = {0};
    int rc = tournament_io_build(s, tid, (int)rn, &t, &ids, err, n);
    if (rc)
        goto done;
    int np = t->n_players;
    withdrawn = calloc((size_t)np + 1, sizeof *withdrawn);
    prop.boards = calloc(json_array_size(games) + 1, sizeof *prop.boards);
    prop.byes = calloc(json_array_size(byes) + 1, sizeof *prop.byes);
    if (!games || !gone || !withdrawn || !prop.boards || !prop.byes) {
        rc = -ENOMEM;
        goto done;
    }
    /* Column RN: absences only; a past round's player without game or bye
     * was absent (a withdrawn player of a round robin shows as the forfeit
     * loss against his scheduled opponent), a pending round's is to be
     * paired. */
    for (int i = 0; i < np; i++) {
        TrnGame *g = &t->players[i].games[rn - 1];
        bool absent =
            !pending && ((!g->opponent && g->result == TRN_RES_ZPB) ||
                         (g->colour == TRN_COLOUR_NONE && g->result == TRN_RES_FORFEIT_LOSS));
        *g = (TrnGame){0, TRN_COLOUR_NONE, absent ? TRN_RES_ZPB : TRN_RES_NONE};
    }
    size_t k;
    json_t *v;
    json_array_foreach(games, k, v)
    {
        PairingCheckBoard *b = &prop.boards[prop.n_boards++];
        b->board = (int)jsonget_int(v, "board");
        b->white = tpn_of(ids, np, jsonget_int(v, "white_id"));
        b->black = tpn_of(ids, np, jsonget_int(v, "black_id"));
    }
    json_array_foreach(byes, k, v)
    {
        const char *kind = jstr(v, "kind");
        int id = tpn_of(ids, np, jsonget_int(v, "player_id"));
        if (!id)
            continue;
        if (strcmp(kind, "pab") == 0 || strcmp(kind, "free") == 0)
            prop.byes[prop.n_byes++] = (PairingCheckBye){id, TRN_RES_PAB};
        else if (strcmp(kind, "forfeit") == 0) /* round robin: the absent opponent's game */
            prop.byes[prop.n_byes++] = (PairingCheckBye){id, TRN_RES_FORFEIT_WIN};
        else
            t->players[id - 1].games[rn - 1].result =
                strcmp(kind, "half") == 0 ? TRN_RES_HPB : TRN_RES_ZPB;
    }
    if (pending)
        json_array_foreach(gone, k, v)
        {
            int id = tpn_of(ids, np, jsonget_int(v, "id"));
            if (!id)
                continue;
            withdrawn[id] = true;
            rc = tournament_add_bye(t, (TrnBye){'Z', (int)rn, id, false});
            if (rc)
                goto done;
        }
    bool rr = strcmp(system, "roundrobin") == 0;
    /* A Swiss is judged by its own system's engine (Dutch or Burstein). */
    bool burstein = strcmp(jstr(round, "pairing_system"), "burstein") == 0;
    PairingCheckOptions opt = {rr ? PAIRING_CHECK_ROUNDROBIN : PAIRING_CHECK_SWISS,
                               0,
                               strcmp(system, "swiss") == 0,
                               withdrawn,
                               np + 1,
                               burstein ? SWISS_BURSTEIN : SWISS_DUTCH};
    if (rr && jsonget_int(round, "rounds") >= berger_rounds(np, BERGER_DOUBLE))
        opt.berger_flags = BERGER_DOUBLE | BERGER_SWAP_LAST_TWO;
    char why[200] = "";
    rc = pairing_check_round(t, (int)rn, &prop, &opt, &rep, why, sizeof why);
    if (rc == PAIRING_CHECK_E_INPUT) {
        rc = error_set(err, n, STORE_E_INVALID, "round %lld cannot be checked: %s", (long long)rn,
                       why);
        goto done;
    }
    if (rc)
        goto done;
    *out = json_pack("{s:I,s:s,s:s,s:s,s:o,s:b,s:o,s:O}", "round", (json_int_t)rn, "status",
                     jstr(round, "status"), "system", system, "pairing_system",
                     burstein ? "burstein" : "dutch", "violations", report_json(&rep, t, ids),
                     "engine_differs", rep.engine_differs, "engine", engine_json(&rep, ids, np),
                     "byes", byes);
    if (!*out)
        rc = -ENOMEM;
done:
    pairing_check_report_free(&rep);
    pairing_check_proposal_free(&prop);
    free(withdrawn);
    tournament_free(t);
    free(ids);
    json_decref(round);
    json_decref(games);
    json_decref(byes);
    json_decref(gone);
    return rc;
}

/* ---- edits ---- */

static int pending_round(Store *s, int64_t tid, int64_t rn, char *err, size_t n)
{
    char status[16];
    int rc = rounds_status_get(s, tid, rn, status, sizeof status, err, n);
    if (rc)
        return rc;
    if (strcmp(status, "pending") != 0)
        return error_set(err, n, STORE_E_STATE,
                         "round %lld has already started: its pairing is final", (long long)rn);
    return 0;
}

static int player_in(Store *s, int64_t tid, int64_t pid, char *err, size_t n)
{
    if (!tournaments_exists(s, 'p', tid, pid))
        return error_set(err, n, STORE_E_NOT_FOUND, "no player %lld in tournament %lld",
                         (long long)pid, (long long)tid);
    return 0;
}

static json_t *round_out(Store *s, int64_t tid, int64_t rn)
{
    json_t *r = rounds_get(s, tid, rn);
    if (r)
        json_object_set_new(r, "byes", tournament_io_round_byes(s, tid, rn));
    return r;
}

/* A player's place in the round: a board (GID, WHITE side or not), a bye
 * (KIND), or nothing. */
typedef struct Seat {
    int64_t gid;
    bool white;
    char kind[8];
} Seat;

static int seat_of(Store *s, int64_t tid, int64_t rn, int64_t pid, Seat *seat, char *err, size_t n)
{
    memset(seat, 0, sizeof *seat);
    json_t *g = store_row(s,
                          "SELECT id, white_id, status, (SELECT count(*) FROM game_events e "
                          "WHERE e.game_id = games.id) AS events FROM games WHERE "
                          "tournament_id = ?1 AND round = ?2 AND (white_id = ?3 OR "
                          "black_id = ?3)",
                          "iii", tid, rn, pid);
    if (g) {
        seat->gid = jsonget_int(g, "id");
        seat->white = jsonget_int(g, "white_id") == pid;
        bool started = strcmp(jstr(g, "status"), "pending") != 0 || jsonget_int(g, "events") > 0;
        json_decref(g);
        if (started)
            return error_set(err, n, STORE_E_STATE, "game %lld has already started",
                             (long long)seat->gid);
        return 0;
    }
    json_t *b = store_row(s,
                          "SELECT kind FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                          "player_id = ?3",
                          "iii", tid, rn, pid);
    if (b)
        snprintf(seat->kind, sizeof seat->kind, "%s", jstr(b, "kind"));
    json_decref(b);
    return 0;
}

static int bye_write(Store *s, int64_t tid, int64_t rn, int64_t pid, const char *kind)
{
    int rc = store_run(s, NULL,
                       "DELETE FROM byes WHERE tournament_id = ?1 AND round = ?2 AND "
                       "player_id = ?3",
                       "iii", tid, rn, pid);
    if (!rc && kind && kind[0] && strcmp(kind, "none") != 0)
        rc = store_run(s, NULL,
                       "INSERT INTO byes(tournament_id, round, player_id, kind, "
                       "created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                       "iiisi", tid, rn, pid, kind, store_now_ms());
    return rc;
}

static int seat_put(Store *s, int64_t tid, int64_t rn, const Seat *seat, int64_t pid)
{
    if (seat->gid)
        return store_run(s, NULL,
                         seat->white ? "UPDATE games SET white_id = ?2 WHERE id = ?1"
                                     : "UPDATE games SET black_id = ?2 WHERE id = ?1",
                         "ii", seat->gid, pid);
    return bye_write(s, tid, rn, pid, seat->kind);
}

int round_edit_bye(Store *s, int64_t tid, int64_t rn, int64_t pid, const char *kind, int64_t user,
                   json_t **out, char *err, size_t n)
{
    *out = NULL;
    int rc = pending_round(s, tid, rn, err, n);
    if (!rc)
        rc = player_in(s, tid, pid, err, n);
    if (rc)
        return rc;
    /* A player leaves his board for the bye: the board goes (the opponent is
     * then unpaired, to be paired by hand or given a bye in turn). */
    Seat seat;
    rc = seat_of(s, tid, rn, pid, &seat, err, n);
    if (rc)
        return rc;
    if (seat.gid && strcmp(kind, "none") != 0) {
        rc = store_run(s, NULL, "DELETE FROM games WHERE id = ?1", "i", seat.gid);
        if (rc)
            return rc > 0 ? error_set(err, n, rc, "the board was refused by the store") : rc;
    }
    rc = bye_write(s, tid, rn, pid, kind);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the bye was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I,s:I,s:s,s:I}", "tournament", (json_int_t)tid, "round",
                          (json_int_t)rn, "player", (json_int_t)pid, "kind", kind, "removed_game",
                          (json_int_t)(strcmp(kind, "none") ? seat.gid : 0));
    alerts_audit_add(s, user, 0, "round.bye", "round", d);
    json_decref(d);
    *out = round_out(s, tid, rn);
    return *out ? 0 : -ENOMEM;
}

int round_edit_swap(Store *s, int64_t tid, int64_t rn, int64_t a, int64_t b, int64_t user,
                    json_t **out, char *err, size_t n)
{
    *out = NULL;
    if (a == b)
        return error_set(err, n, STORE_E_INVALID, "a swap needs two different players");
    Seat sa, sb;
    int rc = pending_round(s, tid, rn, err, n);
    if (!rc)
        rc = player_in(s, tid, a, err, n);
    if (!rc)
        rc = player_in(s, tid, b, err, n);
    if (!rc)
        rc = seat_of(s, tid, rn, a, &sa, err, n);
    if (!rc)
        rc = seat_of(s, tid, rn, b, &sb, err, n);
    if (rc)
        return rc;
    if (sa.gid && sa.gid == sb.gid) {
        /* one board: the colours change */
        rc = store_run(s, NULL,
                       "UPDATE games SET white_id = black_id, black_id = white_id "
                       "WHERE id = ?1",
                       "i", sa.gid);
    } else {
        /* byes first: a bye row must not survive for a player now seated */
        Seat ca = sa, cb = sb;
        if (!sa.gid)
            rc = bye_write(s, tid, rn, a, NULL);
        if (!rc && !sb.gid)
            rc = bye_write(s, tid, rn, b, NULL);
        if (!rc)
            rc = seat_put(s, tid, rn, &cb, a);
        if (!rc)
            rc = seat_put(s, tid, rn, &ca, b);
    }
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the swap was refused by the store") : rc;
    json_t *d = json_pack("{s:I,s:I,s:[I,I]}", "tournament", (json_int_t)tid, "round",
                          (json_int_t)rn, "players", (json_int_t)a, (json_int_t)b);
    alerts_audit_add(s, user, 0, "round.swap", "round", d);
    json_decref(d);
    *out = round_out(s, tid, rn);
    return *out ? 0 : -ENOMEM;
}
