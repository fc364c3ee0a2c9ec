/*
 * team.c — the team event model (see team.h): allocation, rosters, rounds
 * of matches, match scores and the initial ranking order.  Arrays grow by
 * doubling; nothing here reads or writes outside the event it is given.
 */
#include "team.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void team_settings_default(TeamSettings *s, int boards)
{
    memset(s, 0, sizeof *s);
    if (boards < 1)
        boards = 1;
    if (boards > TEAM_MAX_BOARDS)
        boards = TEAM_MAX_BOARDS;
    s->boards = boards;
    s->mp_win = 2 * TRN_POINT;
    s->mp_draw = TRN_POINT;
    s->mp_loss = 0;
    tournament_points_default(&s->game);
    s->primary = TEAM_PRIMARY_MATCH;
    s->pref = TEAM_PREF_A;
    s->scheme = TEAM_BOARDS_ODD_WHITE;
    s->initial_colour = TRN_WHITE;
    /* Art. 1.4: a drawn match, in match points and in game points. */
    s->pab_mp = s->mp_draw;
    s->pab_gp = boards * s->game.draw_white;
}

TeamEvent *team_event_new(const TeamSettings *s)
{
    TeamEvent *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->player_index = calloc(TRN_MAX_PLAYERS + 1, sizeof *ev->player_index);
    if (!ev->player_index) {
        free(ev);
        return NULL;
    }
    if (s)
        ev->settings = *s;
    else
        team_settings_default(&ev->settings, 4);
    return ev;
}

void team_event_free(TeamEvent *ev)
{
    if (!ev)
        return;
    for (int r = 0; r < TRN_MAX_ROUNDS; r++)
        free(ev->rounds[r].matches);
    free(ev->teams);
    free(ev->players);
    free(ev->player_index);
    free(ev);
}

/*
 * Ensures *arr (capacity *cap elements of sz bytes) holds at least need
 * elements, growing by half again (at least 8) so that appends stay
 * amortised O(1).  Returns 0 or -ENOMEM (the array is then unchanged).
 */
static int reserve(void **arr, int *cap, int need, size_t sz)
{
    if (need <= *cap)
        return 0;
    int want = *cap + *cap / 2;
    if (want < need)
        want = need < 8 ? 8 : need;
    void *grown = realloc(*arr, (size_t)want * sz);
    if (grown == NULL)
        return -ENOMEM;
    *arr = grown;
    *cap = want;
    return 0;
}

TeamEntry *team_event_add_team(TeamEvent *ev, const char *name)
{
    if (ev->n_teams >= TEAM_MAX_TEAMS)
        return NULL;
    if (reserve((void **)&ev->teams, &ev->cap_teams, ev->n_teams + 1, sizeof *ev->teams))
        return NULL;
    TeamEntry *t = &ev->teams[ev->n_teams];
    memset(t, 0, sizeof *t);
    t->id = ++ev->n_teams;
    snprintf(t->name, sizeof t->name, "%s", name ? name : "");
    return t;
}

TeamPlayer *team_event_add_player(TeamEvent *ev, int team, int id)
{
    TeamEntry *t = team_event_team_mut(ev, team);
    if (!t || id < 1 || id > TRN_MAX_PLAYERS || ev->player_index[id] ||
        t->n_roster >= TEAM_MAX_ROSTER)
        return NULL;
    if (reserve((void **)&ev->players, &ev->cap_players, ev->n_players + 1, sizeof *ev->players))
        return NULL;
    TeamPlayer *p = &ev->players[ev->n_players];
    memset(p, 0, sizeof *p);
    p->id = id;
    p->team = team;
    ev->player_index[id] = ++ev->n_players;
    t->roster[t->n_roster++] = id;
    return p;
}

const TeamEntry *team_event_team(const TeamEvent *ev, int id)
{
    return id >= 1 && id <= ev->n_teams ? &ev->teams[id - 1] : NULL;
}

TeamEntry *team_event_team_mut(TeamEvent *ev, int id)
{
    return id >= 1 && id <= ev->n_teams ? &ev->teams[id - 1] : NULL;
}

const TeamPlayer *team_event_player(const TeamEvent *ev, int id)
{
    if (id < 1 || id > TRN_MAX_PLAYERS || !ev->player_index[id])
        return NULL;
    return &ev->players[ev->player_index[id] - 1];
}

TeamPlayer *team_event_player_mut(TeamEvent *ev, int id)
{
    if (id < 1 || id > TRN_MAX_PLAYERS || !ev->player_index[id])
        return NULL;
    return &ev->players[ev->player_index[id] - 1];
}

TeamRound *team_event_add_round(TeamEvent *ev)
{
    if (ev->n_rounds >= TRN_MAX_ROUNDS)
        return NULL;
    TeamRound *r = &ev->rounds[ev->n_rounds++];
    r->n_matches = 0;
    return r;
}

const TeamMatch *team_event_match_of(const TeamEvent *ev, int round, int team)
{
    if (round < 1 || round > ev->n_rounds)
        return NULL;
    const TeamRound *r = &ev->rounds[round - 1];
    for (int i = 0; i < r->n_matches; i++)
        if (r->matches[i].team_a == team || r->matches[i].team_b == team)
            return &r->matches[i];
    return NULL;
}

static TrnColour other_colour(TrnColour c)
{
    return c == TRN_WHITE ? TRN_BLACK : c == TRN_BLACK ? TRN_WHITE : TRN_COLOUR_NONE;
}

/* The first-named team's colour on board b (0-based) when it has the
 * pattern's own board-1 colour. */
static TrnColour pattern_colour(const TeamSettings *s, int b)
{
    switch (s->scheme) {
    case TEAM_BOARDS_EVEN_WHITE: return b % 2 ? TRN_WHITE : TRN_BLACK;
    case TEAM_BOARDS_PATTERN: {
        char c = s->board_pattern[b];
        return c == 'B' || c == 'b' ? TRN_BLACK : TRN_WHITE;
    }
    case TEAM_BOARDS_ODD_WHITE:
    default: return b % 2 ? TRN_BLACK : TRN_WHITE;
    }
}

TrnColour team_board_colour(const TeamSettings *s, TrnColour colour_a, int board)
{
    if (board < 1 || board > TEAM_MAX_BOARDS || (colour_a != TRN_WHITE && colour_a != TRN_BLACK))
        return TRN_COLOUR_NONE;
    TrnColour c = pattern_colour(s, board - 1);
    return colour_a == pattern_colour(s, 0) ? c : other_colour(c);
}

static TeamMatch *append_match(TeamEvent *ev, int round, int a, int b)
{
    if (round < 1 || round > ev->n_rounds || !team_event_team(ev, a) ||
        (b && (!team_event_team(ev, b) || b == a)))
        return NULL;
    if (team_event_match_of(ev, round, a) || (b && team_event_match_of(ev, round, b)))
        return NULL;
    TeamRound *r = &ev->rounds[round - 1];
    if (reserve((void **)&r->matches, &r->cap_matches, r->n_matches + 1, sizeof *r->matches))
        return NULL;
    TeamMatch *m = &r->matches[r->n_matches++];
    memset(m, 0, sizeof *m);
    m->team_a = a;
    m->team_b = b;
    return m;
}

TeamMatch *team_event_add_match(TeamEvent *ev, int round, int a, int b, TrnColour colour_a)
{
    if (!b || (colour_a != TRN_WHITE && colour_a != TRN_BLACK))
        return NULL;
    TeamMatch *m = append_match(ev, round, a, b);
    if (!m)
        return NULL;
    const TeamSettings *s = &ev->settings;
    const TeamEntry *ta = team_event_team(ev, a), *tb = team_event_team(ev, b);
    m->colour_a = (uint8_t)colour_a;
    for (int k = 0; k < s->boards && k < TEAM_MAX_BOARDS; k++) {
        TeamBoardGame *g = &m->board[k];
        g->colour_a = (uint8_t)team_board_colour(s, colour_a, k + 1);
        g->player_a = k < ta->n_roster ? ta->roster[k] : 0;
        g->player_b = k < tb->n_roster ? tb->roster[k] : 0;
    }
    return m;
}

TeamMatch *team_event_add_bye(TeamEvent *ev, int round, int team, char bye)
{
    if (bye != TRN_RES_PAB && bye != TRN_RES_FPB && bye != TRN_RES_HPB && bye != TRN_RES_ZPB)
        return NULL;
    TeamMatch *m = append_match(ev, round, team, 0);
    if (m)
        m->bye = bye;
    return m;
}

/* Match points of a side with game points gp against og. */
static TrnPoints match_points(const TeamSettings *s, TrnPoints gp, TrnPoints og)
{
    return gp > og ? s->mp_win : gp == og ? s->mp_draw : s->mp_loss;
}

void team_match_score(const TeamSettings *s, const TeamMatch *m, TeamMatchScore *out)
{
    memset(out, 0, sizeof *out);
    out->complete = true;
    TrnPoints all = (TrnPoints)s->boards * s->game.forfeit_win;
    if (!m->team_b) {
        switch (m->bye) {
        case TRN_RES_PAB:
            out->mp_a = s->pab_mp;
            out->gp_a = s->pab_gp;
            break;
        case TRN_RES_FPB: /* a full-point bye: a match won by forfeit */
            out->mp_a = s->mp_win;
            out->gp_a = all;
            break;
        case TRN_RES_HPB:
            out->mp_a = s->mp_draw;
            out->gp_a = (TrnPoints)s->boards * s->game.hpb;
            break;
        default: break;
        }
        return;
    }
    switch (m->forfeit) {
    case TEAM_FORFEIT_A:
        out->gp_b = all;
        out->mp_b = s->mp_win;
        out->mp_a = s->mp_loss;
        return;
    case TEAM_FORFEIT_B:
        out->gp_a = all;
        out->mp_a = s->mp_win;
        out->mp_b = s->mp_loss;
        return;
    case TEAM_FORFEIT_BOTH: out->mp_a = out->mp_b = s->mp_loss; return;
    default: break;
    }
    for (int k = 0; k < s->boards && k < TEAM_MAX_BOARDS; k++) {
        const TeamBoardGame *g = &m->board[k];
        TrnColour ca = (TrnColour)g->colour_a;
        if (g->result_a == TRN_RES_NONE || g->result_b == TRN_RES_NONE)
            out->complete = false;
        if (g->result_a != TRN_RES_NONE)
            out->gp_a += tournament_result_points(&s->game, g->result_a, ca);
        if (g->result_b != TRN_RES_NONE)
            out->gp_b += tournament_result_points(&s->game, g->result_b, other_colour(ca));
    }
    out->mp_a = match_points(s, out->gp_a, out->gp_b);
    out->mp_b = match_points(s, out->gp_b, out->gp_a);
}

void team_event_score(const TeamEvent *ev, int team, int rounds, TrnPoints *mp, TrnPoints *gp)
{
    TrnPoints m = 0, g = 0;
    if (rounds > ev->n_rounds)
        rounds = ev->n_rounds;
    for (int r = 1; r <= rounds; r++) {
        const TeamMatch *x = team_event_match_of(ev, r, team);
        if (!x)
            continue;
        TeamMatchScore sc;
        team_match_score(&ev->settings, x, &sc);
        bool is_a = x->team_a == team;
        m += is_a ? sc.mp_a : sc.mp_b;
        g += is_a ? sc.gp_a : sc.gp_b;
    }
    if (mp)
        *mp = m;
    if (gp)
        *gp = g;
}

static int cmp_int_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Roster ratings sorted best first; returns their count. */
static int sorted_ratings(const TeamEvent *ev, const TeamEntry *t, int *r)
{
    int n = 0;
    for (int i = 0; i < t->n_roster; i++) {
        const TeamPlayer *p = team_event_player(ev, t->roster[i]);
        r[n++] = p ? p->rating : 0;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_int_desc);
    return n;
}

/* Mean of the first `top` of the sorted ratings r[0..n-1], rounded half up. */
static int mean_top(const int *r, int n, int top)
{
    if (top > n)
        top = n;
    if (top <= 0)
        return 0;
    long sum = 0;
    for (int i = 0; i < top; i++)
        sum += r[i];
    return (int)((2 * sum + top) / (2 * top));
}

int team_rating_average(const TeamEvent *ev, int team, int top)
{
    const TeamEntry *t = team_event_team(ev, team);
    if (!t)
        return 0;
    int r[TEAM_MAX_ROSTER];
    return mean_top(r, sorted_ratings(ev, t, r), top);
}

typedef struct RankKey {
    int id;
    int top, all, best;
    const char *name;
} RankKey;

static int cmp_rank(const void *a, const void *b)
{
    const RankKey *x = a, *y = b;
    if (x->top != y->top)
        return x->top > y->top ? -1 : 1;
    if (x->all != y->all)
        return x->all > y->all ? -1 : 1;
    if (x->best != y->best)
        return x->best > y->best ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return (x->id > y->id) - (x->id < y->id);
}

void team_event_rank_order(const TeamEvent *ev, int *order)
{
    RankKey *k = malloc((size_t)(ev->n_teams ? ev->n_teams : 1) * sizeof *k);
    if (!k) {
        /* Out of memory: the current numbering is a valid order. */
        for (int i = 0; i < ev->n_teams; i++)
            order[i] = i + 1;
        return;
    }
    for (int i = 0; i < ev->n_teams; i++) {
        const TeamEntry *t = &ev->teams[i];
        int r[TEAM_MAX_ROSTER];
        int n = sorted_ratings(ev, t, r);
        k[i] = (RankKey){t->id, mean_top(r, n, ev->settings.boards), mean_top(r, n, n),
                         n ? r[0] : 0, t->name};
    }
    qsort(k, (size_t)ev->n_teams, sizeof *k, cmp_rank);
    for (int i = 0; i < ev->n_teams; i++)
        order[i] = k[i].id;
    free(k);
}
