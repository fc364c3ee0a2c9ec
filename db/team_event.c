/*
 * team_event.c — loading a team competition into the rules' model.  See
 * team_event.h.
 */
#include "team_event.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonget.h"
#include "rounds.h"
#include "teams.h"

void team_event_result_chars(const char *r, char *w, char *b)
{
    *w = *b = TRN_RES_NONE;
    if (!r || !*r || strcmp(r, "*") == 0)
        return;
    const char *slash = strchr(r, '/');
    if (strlen(r) == 3 && slash == r + 1) { /* forfeits: "+/-", "-/+", "-/-", "=/=" */
        *w = r[0] == '+' ? TRN_RES_FORFEIT_WIN : r[0] == '=' ? TRN_RES_DRAW : TRN_RES_FORFEIT_LOSS;
        *b = r[2] == '+' ? TRN_RES_FORFEIT_WIN : r[2] == '=' ? TRN_RES_DRAW : TRN_RES_FORFEIT_LOSS;
        return;
    }
    /* "1-0", "0-1", "1/2-1/2", "0-0", "1/2-0", "0-1/2" */
    const char *dash = strchr(r, '-');
    if (!dash)
        return;
    *w = strncmp(r, "1/2", 3) == 0 ? TRN_RES_DRAW : r[0] == '1' ? TRN_RES_WIN : TRN_RES_LOSS;
    *b = strncmp(dash + 1, "1/2", 3) == 0 ? TRN_RES_DRAW
         : dash[1] == '1'                 ? TRN_RES_WIN
                                          : TRN_RES_LOSS;
}

void team_event_load_free(TeamLoad *l)
{
    if (!l)
        return;
    team_event_free(l->ev);
    free(l->team_ids);
    free(l->player_ids);
    for (int r = 0; r < TRN_MAX_ROUNDS; r++) {
        free(l->match_ids[r]);
        free(l->game_ids[r]);
    }
    free(l);
}

int team_event_team_num(const TeamLoad *l, int64_t team)
{
    for (int i = 0; i < l->ev->n_teams; i++)
        if (l->team_ids[i] == team)
            return i + 1;
    return 0;
}

int team_event_player_num(const TeamLoad *l, int64_t pid)
{
    for (int i = 0; i < l->ev->n_players; i++)
        if (l->player_ids[i] == pid)
            return i + 1;
    return 0;
}

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* The teams and their rosters. */
static int load_teams(Store *s, TeamLoad *l)
{
    json_t *teams = teams_list(s, l->tid);
    size_t nt = json_array_size(teams), np = 0, i;
    json_t *t;
    json_array_foreach(teams, i, t) np += json_array_size(json_object_get(t, "members"));
    l->team_ids = calloc(nt + 1, sizeof *l->team_ids);
    l->player_ids = calloc(np + 1, sizeof *l->player_ids);
    int rc = l->team_ids && l->player_ids ? 0 : -ENOMEM;
    json_array_foreach(teams, i, t)
    {
        if (rc)
            break;
        TeamEntry *e = team_event_add_team(l->ev, jsonget_str(t, "name"));
        if (!e) {
            rc = -ENOMEM;
            break;
        }
        l->team_ids[e->id - 1] = jsonget_int(t, "id");
        copy(e->federation, sizeof e->federation, jsonget_str(t, "federation"));
        copy(e->captain, sizeof e->captain, jsonget_str(t, "captain"));
        e->withdrawn = strcmp(jsonget_str(t, "status"), "withdrawn") == 0;
        size_t j;
        json_t *m;
        json_array_foreach(json_object_get(t, "members"), j, m)
        {
            int id = l->ev->n_players + 1;
            TeamPlayer *p = team_event_add_player(l->ev, e->id, id);
            if (!p)
                continue; /* a roster beyond the rules' limit: not paired */
            l->player_ids[id - 1] = jsonget_int(m, "player_id");
            copy(p->name, sizeof p->name, jsonget_str(m, "name"));
            copy(p->title, sizeof p->title, jsonget_str(m, "title"));
            copy(p->federation, sizeof p->federation, jsonget_str(m, "federation"));
            p->rating = (int)jsonget_int(m, "rating");
        }
    }
    json_decref(teams);
    return rc;
}

static const char SQL_MATCHES[] =
    "SELECT id, team_a, team_b, bye, forfeit, colour_a FROM matches WHERE tournament_id = ?1 "
    "AND round = ?2 ORDER BY table_no";
static const char SQL_BOARDS[] =
    "SELECT mg.board, g.id, g.white_id, g.black_id, CASE WHEN " ROUNDS_SQL_HELD
    " THEN '*' ELSE g.result END AS result FROM match_games mg JOIN games g ON g.id = mg.game_id "
    "WHERE mg.match_id = ?1 ORDER BY mg.board";

/* The boards of match M (store id MID) of round RN. */
static void load_boards(Store *s, TeamLoad *l, TeamMatch *m, int64_t mid, int64_t *gids)
{
    json_t *rows = store_rows(s, SQL_BOARDS, "i", mid);
    size_t i;
    json_t *g;
    json_array_foreach(rows, i, g)
    {
        int k = (int)jsonget_int(g, "board") - 1;
        if (k < 0 || k >= l->ev->settings.boards)
            continue;
        gids[k] = jsonget_int(g, "id");
        int w = team_event_player_num(l, jsonget_int(g, "white_id"));
        int b = team_event_player_num(l, jsonget_int(g, "black_id"));
        const TeamPlayer *pw = team_event_player(l->ev, w);
        int a_white = pw ? pw->team == m->team_a : 1;
        TeamBoardGame *bg = &m->board[k];
        bg->player_a = a_white ? w : b;
        bg->player_b = a_white ? b : w;
        bg->colour_a = a_white ? TRN_WHITE : TRN_BLACK;
        char rw, rb;
        team_event_result_chars(jsonget_str(g, "result"), &rw, &rb);
        bg->result_a = a_white ? rw : rb;
        bg->result_b = a_white ? rb : rw;
    }
    json_decref(rows);
}

static int load_round(Store *s, TeamLoad *l, int rn)
{
    if (!team_event_add_round(l->ev))
        return -ENOMEM;
    json_t *rows = store_rows(s, SQL_MATCHES, "ii", l->tid, (int64_t)rn);
    size_t nm = json_array_size(rows), i;
    int B = l->ev->settings.boards;
    l->match_ids[rn - 1] = calloc(nm + 1, sizeof(int64_t));
    l->game_ids[rn - 1] = calloc(nm * (size_t)B + 1, sizeof(int64_t));
    int rc = l->match_ids[rn - 1] && l->game_ids[rn - 1] ? 0 : -ENOMEM;
    int k = 0;
    json_t *v;
    json_array_foreach(rows, i, v)
    {
        if (rc)
            break;
        int a = team_event_team_num(l, jsonget_int(v, "team_a"));
        int b = team_event_team_num(l, jsonget_int(v, "team_b"));
        TeamMatch *m;
        if (!json_is_integer(json_object_get(v, "team_b")))
            m = team_event_add_bye(l->ev, rn, a,
                                   strcmp(jsonget_str(v, "bye"), "pab") == 0 ? TRN_RES_PAB
                                                                             : TRN_RES_ZPB);
        else
            m = team_event_add_match(l->ev, rn, a, b,
                                     strcmp(jsonget_str(v, "colour_a"), "black") == 0 ? TRN_BLACK
                                                                                      : TRN_WHITE);
        if (!m)
            continue; /* a team the rules do not know (a changed roster): left out */
        const char *f = jsonget_str(v, "forfeit");
        m->forfeit = strcmp(f, "a") == 0      ? TEAM_FORFEIT_A
                     : strcmp(f, "b") == 0    ? TEAM_FORFEIT_B
                     : strcmp(f, "both") == 0 ? TEAM_FORFEIT_BOTH
                                              : TEAM_FORFEIT_NONE;
        l->match_ids[rn - 1][k] = jsonget_int(v, "id");
        if (b)
            load_boards(s, l, m, jsonget_int(v, "id"), l->game_ids[rn - 1] + (size_t)k * B);
        k++;
    }
    json_decref(rows);
    return rc;
}

int team_event_load(Store *s, int64_t tid, int rounds, TeamLoad **out)
{
    *out = NULL;
    if (store_int(s, 0, "SELECT count(*) FROM tournaments WHERE id = ?1", "i", tid) == 0)
        return STORE_E_NOT_FOUND;
    TeamSettings ts;
    teams_settings_rules(s, tid, &ts);
    TeamLoad *l = calloc(1, sizeof *l);
    if (!l || !(l->ev = team_event_new(&ts))) {
        free(l);
        return -ENOMEM;
    }
    l->tid = tid;
    int rc = load_teams(s, l);
    int last =
        (int)store_int(s, 0, "SELECT max(number) FROM rounds WHERE tournament_id = ?1", "i", tid);
    if (rounds >= 0 && rounds < last)
        last = rounds;
    for (int rn = 1; !rc && rn <= last && rn <= TRN_MAX_ROUNDS; rn++)
        rc = load_round(s, l, rn);
    if (rc) {
        team_event_load_free(l);
        return rc;
    }
    *out = l;
    return 0;
}
