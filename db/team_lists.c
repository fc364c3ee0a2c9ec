/*
 * team_lists.c — team standings, players' results, board prizes and the
 * team crosstable.  See team_lists.h.
 */
#include "team_lists.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "team_event.h"
#include "team_standings.h"
#include "team_trf.h"
#include "tournament_io.h"
#include "teams.h"

static double pts(TrnPoints t)
{
    return (double)t / TRN_POINT;
}

/* The standings of L after ROUNDS rounds by the settings' tie-breaks. */
static int standings(Store *s, const TeamLoad *l, int rounds, TeamStandings **st, char *err,
                     size_t n)
{
    json_t *set = teams_settings_get(s, l->tid);
    TeamTbSpec specs[TEAM_TB_MAX];
    int ns = 0;
    char why[160] = "";
    int rc = team_standings_parse(json_string_value(json_object_get(set, "tiebreaks")), specs,
                                  TEAM_TB_MAX - 1, &ns, why, sizeof why);
    json_decref(set);
    if (rc)
        return error_set(err, n, STORE_E_INVALID, "tiebreaks: %s", why);
    rc = team_standings_compute(l->ev, rounds, specs, ns, st);
    if (rc > 0)
        return error_set(err, n, STORE_E_INVALID, "too many tie-breaks");
    return rc;
}

int team_lists_standings(Store *s, int64_t tid, int rounds, json_t **out, char *err, size_t n)
{
    TeamLoad *l = NULL;
    int rc = team_event_load(s, tid, rounds > 0 ? rounds : -1, &l);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "no tournament %lld", (long long)tid) : rc;
    TeamStandings *st = NULL;
    rc = standings(s, l, rounds, &st, err, n);
    if (rc) {
        team_event_load_free(l);
        return rc;
    }
    json_t *names = json_array(), *rows = json_array();
    for (int i = 0; i < st->n_specs; i++) {
        char name[32];
        team_standings_spec_name(&st->specs[i], name, sizeof name);
        json_array_append_new(names, json_string(name));
    }
    for (int i = 0; i < st->n_rows; i++) {
        const TeamRow *r = &st->rows[i];
        json_t *values = json_array();
        for (int k = 0; k < st->n_specs; k++)
            json_array_append_new(values, json_real((double)r->value[k] / 100));
        json_array_append_new(rows, json_pack("{s:i,s:I,s:s,s:i,s:f,s:f,s:o}", "rank", r->rank,
                                              "team_id", (json_int_t)l->team_ids[r->team - 1],
                                              "name", team_event_team(l->ev, r->team)->name,
                                              "pairing_number", r->team, "match_points", pts(r->mp),
                                              "game_points", pts(r->gp), "values", values));
    }
    *out = json_pack("{s:i,s:o,s:o}", "rounds", st->rounds, "tiebreaks", names, "rows", rows);
    team_standings_free(st);
    team_event_load_free(l);
    return 0;
}

/* Every player's results of L (ev->n_players entries) or NULL. */
static TeamPlayerResult *results_of(const TeamLoad *l)
{
    TeamPlayerResult *res = calloc((size_t)l->ev->n_players + 1, sizeof *res);
    if (res)
        team_standings_players(l->ev, 0, res);
    return res;
}

static json_t *player_json(const TeamLoad *l, const TeamPlayerResult *r)
{
    const TeamPlayer *p = team_event_player(l->ev, r->player);
    return json_pack("{s:I,s:s,s:I,s:i,s:i,s:f,s:f,s:i}", "player_id",
                     (json_int_t)l->player_ids[r->player - 1], "name", p ? p->name : "", "team_id",
                     (json_int_t)l->team_ids[r->team - 1], "board", r->board, "games", r->games,
                     "points", pts(r->points), "percent", (double)r->percent / 100, "performance",
                     r->performance);
}

json_t *team_lists_players(Store *s, int64_t tid)
{
    TeamLoad *l = NULL;
    if (team_event_load(s, tid, -1, &l))
        return NULL;
    TeamPlayerResult *res = results_of(l);
    json_t *out = json_array();
    for (int i = 0; res && i < l->ev->n_players; i++) {
        json_t *p = player_json(l, &res[i]);
        json_t *rounds = json_array();
        for (int r = 0; r < l->ev->n_rounds; r++) {
            const TrnGame *g = &res[i].rounds[r];
            char result[2] = {g->result ? g->result : '-', 0};
            json_array_append_new(rounds,
                                  json_pack("{s:i,s:o,s:s,s:s}", "round", r + 1, "opponent_id",
                                            g->opponent > 0 && g->opponent <= l->ev->n_players
                                                ? json_integer(l->player_ids[g->opponent - 1])
                                                : json_null(),
                                            "colour",
                                            g->colour == TRN_WHITE   ? "white"
                                            : g->colour == TRN_BLACK ? "black"
                                                                     : "",
                                            "result", g->result ? result : ""));
        }
        json_object_set_new(p, "rounds", rounds);
        json_array_append_new(out, p);
    }
    free(res);
    team_event_load_free(l);
    return out;
}

json_t *team_lists_prizes(Store *s, int64_t tid, int min_games, const char *by)
{
    TeamLoad *l = NULL;
    if (team_event_load(s, tid, -1, &l))
        return NULL;
    TeamPrizeBy how = strcmp(by, "performance") == 0 ? TEAM_PRIZE_PERFORMANCE
                      : strcmp(by, "points") == 0    ? TEAM_PRIZE_POINTS
                                                     : TEAM_PRIZE_PERCENT;
    TeamPlayerResult *res = results_of(l);
    int *order = calloc((size_t)l->ev->n_players + 1, sizeof *order);
    json_t *out = json_array();
    for (int b = 1; res && order && b <= l->ev->settings.boards; b++) {
        int k = team_standings_board_prizes(l->ev, res, b, min_games, how, order);
        json_t *players = json_array();
        for (int i = 0; i < k; i++)
            json_array_append_new(players, player_json(l, &res[order[i]]));
        json_array_append_new(out, json_pack("{s:i,s:o}", "board", b, "players", players));
    }
    free(order);
    free(res);
    team_event_load_free(l);
    return out;
}

/* Team T's cell of round RN of L. */
static json_t *cross_cell(const TeamLoad *l, int rn, int t)
{
    const TeamMatch *m = team_event_match_of(l->ev, rn, t);
    if (!m)
        return json_pack("{s:i,s:n,s:s,s:f,s:f,s:f,s:s,s:s}", "round", rn, "opponent", "colour", "",
                         "game_points", 0.0, "opponent_game_points", 0.0, "match_points", 0.0,
                         "bye", "absent", "forfeit", "");
    TeamMatchScore sc;
    team_match_score(&l->ev->settings, m, &sc);
    int a = m->team_a == t;
    int opp = a ? m->team_b : m->team_a;
    int colour = a ? m->colour_a : (m->colour_a == TRN_WHITE ? TRN_BLACK : TRN_WHITE);
    const char *bye = m->team_b ? "" : m->bye == TRN_RES_PAB ? "pab" : "free";
    const char *ff = m->forfeit == TEAM_FORFEIT_BOTH                       ? "both"
                     : m->forfeit == (a ? TEAM_FORFEIT_A : TEAM_FORFEIT_B) ? "lost"
                     : m->forfeit != TEAM_FORFEIT_NONE                     ? "won"
                                                                           : "";
    return json_pack("{s:i,s:o,s:s,s:f,s:f,s:f,s:s,s:s}", "round", rn, "opponent",
                     opp ? json_integer(opp) : json_null(), "colour",
                     !opp                  ? ""
                     : colour == TRN_WHITE ? "white"
                                           : "black",
                     "game_points", pts(a ? sc.gp_a : sc.gp_b), "opponent_game_points",
                     pts(a ? sc.gp_b : sc.gp_a), "match_points", pts(a ? sc.mp_a : sc.mp_b), "bye",
                     bye, "forfeit", ff);
}

int team_lists_crosstable(Store *s, int64_t tid, json_t **out, char *err, size_t n)
{
    TeamLoad *l = NULL;
    int rc = team_event_load(s, tid, -1, &l);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "no tournament %lld", (long long)tid) : rc;
    TeamStandings *st = NULL;
    if ((rc = standings(s, l, 0, &st, err, n))) {
        team_event_load_free(l);
        return rc;
    }
    json_t *teams = json_array();
    for (int i = 0; i < st->n_rows; i++) {
        const TeamRow *r = &st->rows[i];
        json_t *rounds = json_array();
        for (int rn = 1; rn <= l->ev->n_rounds; rn++)
            json_array_append_new(rounds, cross_cell(l, rn, r->team));
        json_array_append_new(teams,
                              json_pack("{s:i,s:I,s:s,s:i,s:f,s:f,s:o}", "rank", r->rank, "team_id",
                                        (json_int_t)l->team_ids[r->team - 1], "name",
                                        team_event_team(l->ev, r->team)->name, "pairing_number",
                                        r->team, "match_points", pts(r->mp), "game_points",
                                        pts(r->gp), "rounds", rounds));
    }
    *out = json_pack("{s:i,s:o}", "rounds", l->ev->n_rounds, "teams", teams);
    team_standings_free(st);
    team_event_load_free(l);
    return 0;
}

char *team_lists_trf(Store *s, int64_t tid, size_t *len, char *err, size_t n)
{
    TeamLoad *l = NULL;
    Tournament *head = NULL;
    int64_t *ids = NULL;
    char *text = NULL;
    int rc = team_event_load(s, tid, -1, &l);
    if (rc == 0)
        rc = tournament_io_build(s, tid, 0, &head, &ids, err, n);
    if (rc == 0 && !(text = team_trf_write(l->ev, head, len)))
        rc = -ENOMEM;
    if (rc && !err[0])
        snprintf(err, n, "the report could not be written");
    free(ids);
    tournament_free(head);
    team_event_load_free(l);
    return text;
}
