/*
 * burstein.c — FIDE Burstein Swiss pairing (C.04.4.2) by weighted matching.
 *
 * An edge weight is a small sum of fields, most significant first:
 *   compatible (no rematch, no 260/XXP ban, not both absolute for one
 *   colour) | both in the same (possibly merged) scoregroup | their colour
 *   preferences agree | a priority used while fixing pairs.
 * Each field is wider than the sum over a whole matching of the fields
 * below it, so a maximum weight matching maximises them in that order.
 *
 * Three passes, as bbpPairings makes them:
 *  1. scoregroups are added from the top; after each, the matching must pair
 *     everybody above the current group and let at most one player float
 *     out of each group (two when an odd count lies above its end); a group
 *     that cannot is merged with the next. A group with an odd count above
 *     its end gets a stand-in opponent so that its floater is free to go.
 *  2. if the last group still fails it is merged upwards until it succeeds.
 *  3. group by group, in order of the tie-break scores (the floater from
 *     above included), each player takes the lowest-ordered partner that
 *     keeps the rest pairable; one who cannot is the group's floater.
 *
 * Vertex i is the i-th player in pairing order without the PAB receiver.
 * Unmatched vertices are reported as matched to themselves.
 */
#include "burstein.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"

/* tie-break scores of one player (bbpPairings' products, all in tenths) */
typedef struct {
    TrnPoints score; /* with acceleration */
    int64_t sb, bh, med;
    int rank;
    int idx; /* s.pl index, for sorting copies */
} Metric;

typedef struct {
    SwissRound s;
    int64_t *adj;        /* start rank -> score with unplayed games as draws */
    Metric *m;           /* per s.pl index */
    int *order;          /* s.pl indexes in pairing order */
    int V;               /* vertices */
    int *vx;             /* vertex -> s.pl index */
    unsigned char *ok;   /* V*V: the pair meets the absolute criteria */
    uint64_t cm, sm, km; /* colour, same-group, compatible multipliers */
    MatchingGraph *g;
    int *mate, *done;
    int *verts, *cmate; /* solve(): the vertices solved, their mates */
    int *sg, ns;        /* scoregroup boundaries (vertex indexes), a stack */
    int *list;
    int *final_mate; /* s.pl index -> s.pl index, itself for the PAB */
    int bye_failed;  /* the error is about the PAB */
} Ctx;

/* the score of the opponent standing in for an unplayed game */
static TrnPoints virtual_opponent(const Tournament *t, const TrnGame *g)
{
    const TrnPointSystem *ps = &t->points;
    switch (g->result) {
    case TRN_RES_DRAW:
    case TRN_RES_UNRATED_DRAW:
    case TRN_RES_HPB: return ps->draw_white;
    case TRN_RES_WIN:
    case TRN_RES_UNRATED_WIN:
    case TRN_RES_FORFEIT_WIN:
    case TRN_RES_FPB:
    case TRN_RES_PAB:
        if (g->result == TRN_RES_PAB && !g->opponent && ps->pab < ps->win_white)
            return ps->pab < ps->draw_white ? ps->win_white : ps->draw_white;
        return ps->forfeit_loss;
    default: return ps->win_white;
    }
}

/* Sonneborn-Berger, Buchholz and median Buchholz of p (C.04.4.2 with the
 * virtual opponent for unplayed games). */
static void metric_of(const Ctx *c, const SwissPlayer *d, Metric *m)
{
    const Tournament *t = c->s.t;
    TrnPoints draw = t->points.draw_white;
    int pr = c->s.pr;
    m->score = d->score;
    m->rank = d->rank;
    m->sb = m->bh = m->med = 0;
    int64_t vp = (int64_t)(pr - 1) * draw + swiss_round_acceleration(&c->s, d->tp, c->s.round);
    int64_t lo = INT64_MAX, hi = 0;
    for (int r = 1; r <= pr; r++) {
        const TrnGame *g = swiss_game(d->tp, r);
        int64_t pts = swiss_game_points(t, g), opp;
        if (swiss_game_played(g))
            opp = c->adj[g->opponent];
        else
            opp = vp + virtual_opponent(t, g);
        m->sb += pts * opp;
        m->bh += opp;
        lo = opp < lo ? opp : lo;
        hi = opp > hi ? opp : hi;
        vp += pts - draw;
    }
    if (pr > 2)
        m->med = m->bh - lo - hi;
}

/* True when a comes after b in the order of a scoregroup (with a floater
 * from a higher group compared by score products). */
static int metric_less(const Metric *a, const Metric *b)
{
    int64_t x[3], y[3];
    int same = a->score == b->score;
    x[0] = a->sb;
    y[0] = b->sb;
    x[1] = same ? a->bh : a->bh * a->score;
    y[1] = same ? b->bh : b->bh * b->score;
    x[2] = same ? a->med : a->med * a->score;
    y[2] = same ? b->med : b->med * b->score;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i];
    return b->rank < a->rank;
}

static int cmp_pairing_order(const void *pa, const void *pb)
{
    const Metric *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return metric_less(b, a) ? -1 : metric_less(a, b) ? 1 : 0;
}

/* in-place insertion sort of vertexes by their metric, highest first */
static void sort_vertices(const Ctx *c, int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && metric_less(&c->m[c->vx[v[j]]], &c->m[c->vx[x]])) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* May receive the PAB: no earlier round won without playing in a pairing
 * (a PAB or a forfeit win). */
static int bye_eligible(const Ctx *c, const SwissPlayer *d)
{
    for (int r = 1; r <= c->s.pr; r++) {
        const TrnGame *g = swiss_game(d->tp, r);
        if (!swiss_game_played(g) && swiss_game_participated(g) &&
            tournament_result_is_win(g->result))
            return 0;
    }
    return 1;
}

static int absolute_ok(const Ctx *c, const SwissPlayer *a, const SwissPlayer *b)
{
    for (int r = 1; r <= c->s.pr; r++) {
        const TrnGame *g = swiss_game(a->tp, r);
        if (swiss_game_played(g) && g->opponent == b->id)
            return 0;
    }
    if (tournament_is_forbidden(c->s.t, a->id, b->id, c->s.round))
        return 0;
    return !(a->abspref && b->abspref && a->pref == b->pref);
}

static uint64_t edge(const Ctx *c, int u, int v, int same, int colour)
{
    if (!c->ok[(size_t)u * (size_t)c->V + (size_t)v])
        return 0;
    const SwissPlayer *a = &c->s.pl[c->vx[u]], *b = &c->s.pl[c->vx[v]];
    int agree = a->pref != b->pref || a->pref == SWISS_NONE || b->pref == SWISS_NONE;
    return c->km + (same ? c->sm : 0) + (same && colour && agree ? c->cm : 0);
}

static void set(Ctx *c, int u, int v, uint64_t w)
{
    matching_graph_set_u64(c->g, u, v, w);
}

/* Solves over the vertices below LIMIT not yet paired for good (the
 * others have no edges to them): c->mate[v] = partner or v. */
static int solve(Ctx *c, int limit)
{
    int k = 0;
    for (int v = 0; v < limit && v < c->V; v++)
        if (!c->done[v])
            c->verts[k++] = v;
    return matching_graph_solve_mates(c->g, c->verts, k, c->cmate, c->mate);
}

/* Everybody above the last group paired, and no group with more players
 * unpaired or paired outside it than its floaters allow. */
static int matching_valid(const Ctx *c)
{
    const int *sg = c->sg;
    int second = sg[c->ns - 2], back = sg[c->ns - 1];
    int it = 0, outside = 0, begin = 0;
    for (int v = 0; v < c->V && v < back; v++) {
        if (v >= sg[it]) {
            outside = 0;
            begin = v;
            do
                it++;
            while (v >= sg[it]);
        }
        int m = c->mate[v];
        if (m == v && v < second)
            return 0;
        if ((m == v || m < begin || m >= sg[it]) && ++outside > ((sg[it] & 1) ? 2 : 1))
            return 0;
    }
    return 1;
}

static void push(Ctx *c, int v)
{
    c->sg[c->ns++] = v;
}

#define BACK (c->sg[c->ns - 1])

/* Pass 1: scoregroups from the top, merged downwards while unpairable.
 * Sets *valid. */
static int add_groups(Ctx *c, int *valid)
{
    int V = c->V, rc;
    push(c, 0);
    push(c, 0);
    *valid = 1;
    while (BACK < V) {
        push(c, BACK);
        do {
            int begin = BACK;
            do {
                int x = BACK;
                for (int v = c->sg[c->ns - 3]; v < x; v++)
                    set(c, x, v, edge(c, v, x, v >= c->sg[c->ns - 2], 0));
                BACK++;
            } while (BACK < V && c->m[c->vx[begin]].score == c->m[c->vx[BACK]].score);
            /* the stand-in opponent lets the group's floater go */
            if (BACK & 1)
                for (int v = c->sg[c->ns - 2]; v < BACK; v++)
                    set(c, BACK, v, c->km);
            if ((rc = solve(c, BACK + 1)))
                return rc;
            *valid = matching_valid(c);
        } while (BACK < V && !*valid);
        if (BACK < V && !(BACK & 1))
            push(c, BACK);
    }
    return 0;
}

/* Pass 2: the last group merged upwards until the matching is valid. */
static int merge_up(Ctx *c, int *valid)
{
    int V = c->V, rc;
    while (c->ns > 3 && !*valid) {
        c->ns--;
        int boundary = BACK;
        c->ns--;
        int begin = BACK;
        c->ns--;
        for (int u = BACK; u < boundary; u++)
            for (int v = boundary; v < V; v++)
                set(c, u, v, edge(c, u, v, u >= begin, 0));
        if ((rc = solve(c, V)))
            return rc;
        push(c, begin);
        push(c, V);
        *valid = matching_valid(c);
    }
    return 0;
}

/* u and v are paired for good: their other edges go. */
static void finalize(Ctx *c, int u, int v)
{
    for (int w = 0; w < c->V; w++) {
        if (w != u)
            set(c, u, w, w == v ? 1 : 0);
        if (w != v)
            set(c, v, w, w == u ? 1 : 0);
    }
    c->done[u] = c->done[v] = 1;
    c->final_mate[c->vx[u]] = c->vx[v];
    c->final_mate[c->vx[v]] = c->vx[u];
}

/* Pass 3: inside each group, top players take the lowest partner that
 * keeps the matching; the one who cannot floats into the next group. */
static int fix_pairs(Ctx *c)
{
    int begin = c->sg[0], floater = -1, rc;
    for (int it = 1; it < c->ns; it++) {
        int end = c->sg[it];
        if (begin == end)
            continue;
        int n = 0;
        for (int v = begin; v < end; v++)
            c->list[n++] = v;
        if (floater >= 0)
            c->list[n++] = floater;
        floater = -1;
        sort_vertices(c, c->list, n);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                set(c, c->list[i], c->list[j], edge(c, c->list[i], c->list[j], 1, 1));
        for (int i = 0; i < n; i++) {
            int v = c->list[i];
            if (c->done[v])
                continue;
            uint64_t prio = 1;
            for (int j = i + 1; j < n; j++) {
                int w = c->list[j];
                if (c->done[w])
                    continue;
                uint64_t e = edge(c, v, w, 1, 1);
                if (e)
                    set(c, v, w, e + prio++);
            }
            if ((rc = solve(c, c->V)))
                return rc;
            int m = c->mate[v];
            if (m == v)
                return BURSTEIN_E_NO_PAIRING;
            if (m >= end)
                floater = v;
            else
                finalize(c, v, m);
        }
        begin = end;
    }
    return 0;
}

static int colour_of(const void *ctx, int a, int b)
{
    const Ctx *c = ctx;
    const SwissPlayer *p = &c->s.pl[a], *o = &c->s.pl[b];
    int res = swiss_colour_neutral(p, o);
    if (res != SWISS_NONE)
        return res;
    if (p->pref != SWISS_NONE) /* the same preference: the higher in order gets it */
        return metric_less(&c->m[a], &c->m[b]) ? swiss_colour_invert(o->pref) : p->pref;
    /* no preference on either side: the higher rank takes the colour its
     * rank's parity gives, alternating from the initial colour */
    const SwissPlayer *h = p->rank < o->rank ? p : o;
    int hc = (h->rank & 1) ? swiss_colour_invert(c->s.init) : c->s.init;
    return h == p ? hc : swiss_colour_invert(hc);
}

/* Frees everything c holds (a zeroed Ctx is fine). */
static void release(Ctx *c)
{
    free(c->final_mate);
    free(c->list);
    free(c->sg);
    free(c->cmate);
    free(c->verts);
    free(c->done);
    free(c->mate);
    matching_graph_free(c->g);
    free(c->ok);
    free(c->vx);
    free(c->order);
    free(c->m);
    free(c->adj);
    swiss_round_free(&c->s);
}

/* Scores, tie-breaks, pairing order, the PAB and the vertices.  Returns 0,
 * BURSTEIN_E_NO_PAIRING or -ENOMEM. */
static int prepare(Ctx *c, char *err, size_t errlen)
{
    const Tournament *t = c->s.t;
    int n = c->s.n;
    c->adj = calloc(TRN_MAX_PLAYERS + 1, sizeof *c->adj);
    c->m = calloc((size_t)n, sizeof *c->m);
    c->order = calloc((size_t)n, sizeof *c->order);
    c->vx = calloc((size_t)n, sizeof *c->vx);
    c->final_mate = calloc((size_t)n, sizeof *c->final_mate);
    if (!c->adj || !c->m || !c->order || !c->vx || !c->final_mate)
        return -ENOMEM;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        int64_t a = swiss_round_acceleration(&c->s, p, c->s.round);
        for (int r = 1; r <= c->s.pr; r++) {
            const TrnGame *g = swiss_game(p, r);
            a += swiss_game_played(g) ? swiss_game_points(t, g) : t->points.draw_white;
        }
        c->adj[p->id] = a;
    }
    Metric *sorted = calloc((size_t)n, sizeof *sorted);
    if (!sorted)
        return -ENOMEM;
    for (int i = 0; i < n; i++) {
        metric_of(c, &c->s.pl[i], &c->m[i]);
        c->m[i].idx = i;
        sorted[i] = c->m[i];
        c->final_mate[i] = i;
    }
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_pairing_order);
    for (int i = 0; i < n; i++)
        c->order[i] = sorted[i].idx;
    free(sorted);
    int bye = -1;
    if (n & 1) {
        for (int k = n - 1; k >= 0 && bye < 0; k--)
            if (bye_eligible(c, &c->s.pl[c->order[k]]))
                bye = k;
        if (bye < 0) {
            swiss_error(err, errlen, "no player may receive the pairing-allocated bye");
            c->bye_failed = 1;
            return BURSTEIN_E_NO_PAIRING;
        }
    }
    for (int k = 0; k < n; k++)
        if (k != bye)
            c->vx[c->V++] = c->order[k];
    return 0;
}

/* The absolute criteria, the multipliers and the matching state. */
static int build_graph(Ctx *c)
{
    int V = c->V;
    c->ok = calloc((size_t)V * (size_t)V + 1, 1);
    c->mate = calloc((size_t)V + 1, sizeof *c->mate);
    c->done = calloc((size_t)V + 1, sizeof *c->done);
    c->verts = calloc((size_t)V + 1, sizeof *c->verts);
    c->cmate = calloc((size_t)V + 1, sizeof *c->cmate);
    c->sg = calloc(2 * (size_t)V + 8, sizeof *c->sg);
    c->list = calloc((size_t)V + 2, sizeof *c->list);
    c->g = matching_graph_new(V, 1);
    if (!c->ok || !c->mate || !c->done || !c->verts || !c->cmate || !c->sg || !c->list || !c->g)
        return -ENOMEM;
    for (int u = 0; u < V; u++)
        for (int v = 0; v < V; v++)
            if (u != v)
                c->ok[(size_t)u * (size_t)V + (size_t)v] =
                    (unsigned char)absolute_ok(c, &c->s.pl[c->vx[u]], &c->s.pl[c->vx[v]]);
    /* priorities of one player plus those left on its group's floater stay
     * below cm; a matching's colour and same-group sums below sm and km */
    c->cm = 2 * (uint64_t)V + 4;
    c->sm = c->cm * ((uint64_t)V / 2 + 2);
    c->km = c->sm * ((uint64_t)V / 2 + 2);
    return 0;
}

int burstein_pair_round(const Tournament *t, int round, SwissPairing *out, char *err, size_t errlen)
{
    Ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    Ctx *c = &ctx;
    int rc = swiss_round_setup(&c->s, t, round, SWISS_BURSTEIN, out, err, errlen);
    if (!rc && c->s.n > 0)
        rc = prepare(c, err, errlen);
    if (rc || c->s.n == 0)
        goto done;
    if (c->V > 0) {
        int valid;
        if ((rc = build_graph(c)) || (rc = add_groups(c, &valid)) || (rc = merge_up(c, &valid)))
            goto done;
        if (!valid) {
            rc = BURSTEIN_E_NO_PAIRING;
            goto done;
        }
        if ((rc = fix_pairs(c)))
            goto done;
        for (int v = 0; v < c->V; v++)
            if (!c->done[v])
                rc = BURSTEIN_E_NO_PAIRING;
        if (rc)
            goto done;
    }
    rc = swiss_round_emit(&c->s, c->final_mate, colour_of, c, out);
done:
    if (rc == BURSTEIN_E_NO_PAIRING && !c->bye_failed)
        swiss_error(err, errlen, "no pairing satisfies the absolute criteria for every player");
    release(c);
    return rc;
}
