/*
 * pairing_ctx.c — the player facts of the round being checked (see
 * pairing_ctx.h): score, colour history, preference, bye eligibility,
 * absence, topscorer, the floats of the two rounds before and the unplayed
 * rounds, derived the way the Dutch engine derives them (C.04.3 Art. 1,
 * C.04.1 Art. 4, C.04.2 3.4-3.5), scores with the acceleration the event's
 * engine applies (swiss.c); and the report items both checkers add.
 *
 * Workload: one pass over every player's games before the round.
 */
#include "pairing_ctx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static TrnPoints points_of(const Tournament *t, const TrnGame *g)
{
    if (!g->result)
        return t->points.zpb;
    return tournament_result_points(&t->points, g->result, (TrnColour)g->colour);
}

static bool absent_in(const Tournament *t, const TrnPlayer *p, int round)
{
    const TrnGame *g = pairing_ctx_game_of(p, round);
    if (!g->opponent && g->result && g->result != TRN_RES_PAB && g->result != TRN_RES_FORFEIT_WIN)
        return true;
    for (int i = 0; i < t->n_byes; i++) {
        const TrnBye *b = &t->byes[i];
        if (b->player == p->id && (b->round == round || b->round == 0))
            return true;
    }
    return false;
}

/* C.04.1 Art. 4: no PAB after a PAB, a forfeit win or a full-point bye. */
static bool bye_eligible(const Tournament *t, const TrnPlayer *p, int round)
{
    for (int r = 1; r < round; r++) {
        const TrnGame *g = pairing_ctx_game_of(p, r);
        if (pairing_ctx_played(g))
            continue;
        if (points_of(t, g) >= t->points.win_white || g->result == TRN_RES_PAB)
            return false;
    }
    return true;
}

/* Colour preference from the played games only (C.04.2 3.4). */
static void colours(Info *in, const TrnPlayer *p, int round)
{
    int w = 0, b = 0, run = 0, last = P_NONE;
    for (int r = 1; r < round; r++) {
        const TrnGame *g = pairing_ctx_game_of(p, r);
        if (!pairing_ctx_played(g))
            continue;
        int c = g->colour == TRN_WHITE ? P_WHITE : P_BLACK;
        w += c == P_WHITE;
        b += c == P_BLACK;
        run = c == last ? run + 1 : 1;
        last = c;
    }
    int imb = w > b ? w - b : b - w, lower = w > b ? P_BLACK : P_WHITE;
    int other = last == P_WHITE ? P_BLACK : last == P_BLACK ? P_WHITE : P_NONE;
    in->abspref = imb > 1 || run > 1;
    in->pref = imb > 1 ? lower : run > 1 ? other : imb ? lower : other;
    in->strong = !in->abspref && imb == 1;
    in->cd = w - b;
    in->rep = run > 1 ? last : P_NONE;
}

/* The fictitious points of P in round R: the engines' acceleration model
 * SR when there is one (Baku from the 192 line, Burstein's default), else
 * the file's own 250 / XXA records. */
static TrnPoints accel(const Tournament *t, const SwissRound *sr, const TrnPlayer *p, int r)
{
    return sr ? swiss_round_acceleration(sr, p, r) : tournament_acceleration(t, p->id, r);
}

static TrnPoints score_before(const Tournament *t, const SwissRound *sr, const TrnPlayer *p,
                              int round)
{
    TrnPoints s = 0;
    for (int r = 1; r < round; r++)
        s += points_of(t, pairing_ctx_game_of(p, r));
    return s + accel(t, sr, p, round);
}

/* The float of round RR as the engine reads it: an unplayed round with
 * more than a loss's points is a downfloat, a game against a player with
 * another score before that round a float down or up. */
static int float_in(const Tournament *t, const SwissRound *sr, const TrnPlayer *p, int rr)
{
    if (rr < 1)
        return F_NONE;
    const TrnGame *g = pairing_ctx_game_of(p, rr);
    if (!pairing_ctx_played(g))
        return points_of(t, g) > t->points.loss_white ? F_DOWN : F_NONE;
    const TrnPlayer *o = tournament_player(t, g->opponent);
    if (!o)
        return F_NONE;
    TrnPoints a = score_before(t, sr, p, rr), b = score_before(t, sr, o, rr);
    return a > b ? F_DOWN : a < b ? F_UP : F_NONE;
}

int pairing_ctx_item_add(Ctx *c, const char *code, PairingCheckKind kind, int board,
                         const int *players, int np, const char *fmt, ...)
{
    PairingCheckReport *r = c->rep;
    if (r->n_items == r->cap_items) {
        int cap = r->cap_items ? 2 * r->cap_items : 16;
        PairingCheckItem *n = realloc(r->items, (size_t)cap * sizeof *n);
        if (!n)
            return -ENOMEM;
        r->items = n;
        r->cap_items = cap;
    }
    PairingCheckItem *it = &r->items[r->n_items++];
    memset(it, 0, sizeof *it);
    snprintf(it->code, sizeof it->code, "%s", code);
    it->kind = kind;
    it->board = board;
    for (int i = 0; i < np && i < PAIRING_CHECK_MAX_ITEM_PLAYERS; i++)
        it->players[it->n_players++] = players[i];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->message, sizeof it->message, fmt, ap);
    va_end(ap);
    return 0;
}

Info *pairing_ctx_info(Ctx *c, int id)
{
    return id >= 1 && id <= c->max_id && c->in[id].known ? &c->in[id] : NULL;
}

int pairing_ctx_setup(Ctx *c, const PairingCheckOptions *opt)
{
    const Tournament *t = c->t;
    for (int i = 0; i < t->n_players; i++)
        if (t->players[i].id > c->max_id)
            c->max_id = t->players[i].id;
    c->in = calloc((size_t)c->max_id + 1, sizeof *c->in);
    if (!c->in)
        return -ENOMEM;
    /* A Swiss's scores carry the acceleration its engine applies; a round
     * the engines cannot set up keeps the file's own records. */
    SwissRound sr;
    char why[200];
    int src = opt->system == PAIRING_CHECK_SWISS
                  ? swiss_round_setup(&sr, t, c->round, opt->swiss, NULL, why, sizeof why)
                  : SWISS_E_INPUT;
    if (src < 0) {
        swiss_round_free(&sr);
        return src;
    }
    const SwissRound *model = src == 0 ? &sr : NULL;
    int pr = c->round - 1;
    int expected = t->n_rounds ? t->n_rounds : t->rounds_played;
    TrnPoints wd =
        t->points.win_white > t->points.draw_white ? t->points.win_white : t->points.draw_white;
    long thr = ((long)pr * (long)wd) >> 1;
    bool last = pr >= expected - 1 && expected >= 1;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        Info *in = &c->in[p->id];
        in->known = true;
        for (int r = 1; r < c->round; r++)
            in->score += points_of(t, pairing_ctx_game_of(p, r));
        in->score += accel(t, model, p, c->round);
        in->absent = absent_in(t, p, c->round);
        in->withdrawn = opt->withdrawn && p->id < opt->n_withdrawn_slots && opt->withdrawn[p->id];
        in->elig = bye_eligible(t, p, c->round);
        in->top = last && in->score > thr;
        colours(in, p, c->round);
        for (int k = 1; k <= 2; k++)
            in->fl[k] = float_in(t, model, p, c->round - k);
        for (int r = 1; r < c->round; r++)
            in->unplayed += !pairing_ctx_played(pairing_ctx_game_of(p, r));
    }
    if (opt->system == PAIRING_CHECK_SWISS)
        swiss_round_free(&sr);
    return 0;
}

bool pairing_ctx_met_before(const Ctx *c, int a, int b)
{
    const TrnPlayer *p = tournament_player(c->t, a);
    for (int r = 1; p && r < c->round; r++) {
        const TrnGame *g = pairing_ctx_game_of(p, r);
        if (pairing_ctx_played(g) && g->opponent == b)
            return true;
    }
    return false;
}
