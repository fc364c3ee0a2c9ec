/*
 * tournament.c — allocation and the small queries of the tournament model
 * (see tournament.h).  Everything grows by doubling; no function here reads
 * or writes anything outside the Tournament it is given.
 */
#include "tournament.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void tournament_points_default(TrnPointSystem *ps)
{
    ps->win_white = ps->win_black = TRN_POINT;
    ps->draw_white = ps->draw_black = TRN_POINT / 2;
    ps->loss_white = ps->loss_black = 0;
    ps->forfeit_win = TRN_POINT;
    ps->forfeit_loss = 0;
    ps->zpb = 0;
    ps->hpb = TRN_POINT / 2;
    ps->fpb = TRN_POINT;
    ps->pab = TRN_POINT;
    ps->unknown = TRN_POINT / 2;
}

Tournament *tournament_new(void)
{
    Tournament *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->index_of = calloc(TRN_MAX_PLAYERS + 1, sizeof *t->index_of);
    if (!t->index_of) {
        free(t);
        return NULL;
    }
    t->declared_players = -1;
    t->declared_rated = -1;
    tournament_points_default(&t->points);
    return t;
}

void tournament_free(Tournament *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_forbidden; i++)
        free(t->forbidden[i].players);
    for (int i = 0; i < t->n_other; i++)
        free(t->other[i].text);
    free(t->forbidden);
    free(t->other);
    free(t->byes);
    free(t->accel);
    free(t->players);
    free(t->index_of);
    free(t);
}

/* Makes room for one more element of size sz in *arr (count n, capacity *cap). */
static int grow(void **arr, int n, int *cap, size_t sz)
{
    if (n < *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, (size_t)nc * sz);
    if (!p)
        return -ENOMEM;
    *arr = p;
    *cap = nc;
    return 0;
}

TrnPlayer *tournament_add_player(Tournament *t, int id)
{
    if (id < 1 || id > TRN_MAX_PLAYERS || t->index_of[id])
        return NULL;
    if (grow((void **)&t->players, t->n_players, &t->cap_players, sizeof *t->players))
        return NULL;
    TrnPlayer *p = &t->players[t->n_players];
    memset(p, 0, sizeof *p);
    p->id = id;
    t->index_of[id] = ++t->n_players;
    return p;
}

const TrnPlayer *tournament_player(const Tournament *t, int id)
{
    if (id < 1 || id > TRN_MAX_PLAYERS || !t->index_of[id])
        return NULL;
    return &t->players[t->index_of[id] - 1];
}

TrnPlayer *tournament_player_mut(Tournament *t, int id)
{
    if (id < 1 || id > TRN_MAX_PLAYERS || !t->index_of[id])
        return NULL;
    return &t->players[t->index_of[id] - 1];
}

TrnPoints tournament_result_points(const TrnPointSystem *ps, char result, TrnColour colour)
{
    bool black = colour == TRN_BLACK;
    switch (result) {
    case TRN_RES_WIN:
    case TRN_RES_UNRATED_WIN: return black ? ps->win_black : ps->win_white;
    case TRN_RES_DRAW:
    case TRN_RES_UNRATED_DRAW: return black ? ps->draw_black : ps->draw_white;
    case TRN_RES_LOSS:
    case TRN_RES_UNRATED_LOSS: return black ? ps->loss_black : ps->loss_white;
    case TRN_RES_FORFEIT_WIN: return ps->forfeit_win;
    case TRN_RES_FORFEIT_LOSS: return ps->forfeit_loss;
    case TRN_RES_HPB: return ps->hpb;
    case TRN_RES_FPB: return ps->fpb;
    case TRN_RES_PAB: return ps->pab;
    default: return ps->zpb;
    }
}

bool tournament_result_is_played(char result)
{
    return strchr("1=0WDL", result) && result;
}

bool tournament_result_is_rated(char result)
{
    return result && strchr("1=0", result);
}

bool tournament_result_is_win(char result)
{
    return result && strchr("1+WFU", result);
}

TrnPoints tournament_player_score(const Tournament *t, const TrnPlayer *p, int rounds)
{
    TrnPoints s = 0;
    if (rounds > TRN_MAX_ROUNDS)
        rounds = TRN_MAX_ROUNDS;
    for (int r = 0; r < rounds; r++)
        s +=
            tournament_result_points(&t->points, p->games[r].result, (TrnColour)p->games[r].colour);
    return s;
}

TrnPoints tournament_acceleration(const Tournament *t, int id, int round)
{
    if (round < 1 || round > TRN_MAX_ROUNDS)
        return 0;
    const TrnPlayer *p = tournament_player(t, id);
    if (p && p->has_accel)
        return p->accel[round - 1];
    TrnPoints v = 0;
    for (int i = 0; i < t->n_accel; i++) {
        const TrnAccel *a = &t->accel[i];
        if (round >= a->first_round && round <= a->last_round && id >= a->first_player &&
            id <= a->last_player)
            v = a->points;
    }
    return v;
}

int tournament_add_bye(Tournament *t, TrnBye bye)
{
    if (grow((void **)&t->byes, t->n_byes, &t->cap_byes, sizeof *t->byes))
        return -ENOMEM;
    t->byes[t->n_byes++] = bye;
    return 0;
}

int tournament_add_accel(Tournament *t, TrnAccel a)
{
    if (grow((void **)&t->accel, t->n_accel, &t->cap_accel, sizeof *t->accel))
        return -ENOMEM;
    t->accel[t->n_accel++] = a;
    return 0;
}

int tournament_add_forbidden(Tournament *t, int first_round, int last_round, bool xxp,
                             const int *players, int n)
{
    if (grow((void **)&t->forbidden, t->n_forbidden, &t->cap_forbidden, sizeof *t->forbidden))
        return -ENOMEM;
    int *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
    if (!copy)
        return -ENOMEM;
    if (n > 0)
        memcpy(copy, players, (size_t)n * sizeof *copy);
    t->forbidden[t->n_forbidden++] = (TrnForbidden){
        .first_round = first_round,
        .last_round = last_round,
        .xxp = xxp,
        .n = n,
        .players = copy,
    };
    return 0;
}

int tournament_add_other(Tournament *t, const char *line)
{
    if (grow((void **)&t->other, t->n_other, &t->cap_other, sizeof *t->other))
        return -ENOMEM;
    char *copy = strdup(line);
    if (!copy)
        return -ENOMEM;
    TrnLine *l = &t->other[t->n_other++];
    memset(l->code, 0, sizeof l->code);
    strncpy(l->code, line, 3);
    l->text = copy;
    return 0;
}

bool tournament_is_forbidden(const Tournament *t, int a, int b, int round)
{
    for (int i = 0; i < t->n_forbidden; i++) {
        const TrnForbidden *f = &t->forbidden[i];
        if (round < f->first_round || round > f->last_round)
            continue;
        bool has_a = false, has_b = false;
        for (int k = 0; k < f->n; k++) {
            has_a |= f->players[k] == a;
            has_b |= f->players[k] == b;
        }
        if (has_a && has_b)
            return true;
    }
    return false;
}
