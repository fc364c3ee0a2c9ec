/*
 * dutch.c — FIDE Dutch Swiss pairing (C.04.3, 2026) by weighted matching.
 *
 * How the criteria become one number. Every candidate pair (edge) gets a
 * weight whose bit fields, from the most significant down, say:
 *   compatibility (0 = the pair breaks C1 or C3) and completion / PAB
 *   eligibility (C2, C4, C5) | pairs made in the current bracket (C6) | the
 *   scores paired there (C7) | pairs and scores in the next bracket (C8) | the
 *   PAB receiver's played games (C9) | four colour fields (C10-C13) | repeated
 *   floats one and two rounds back (C14-C17) | their scores (C18-C21) | low
 *   bits left free for the order in which the rules generate candidates.
 * A maximum weight matching then maximises the criteria lexicographically,
 * because each field is wide enough that no sum of lower fields reaches it.
 * Score-valued fields give each scoregroup its own sub-field, so "more points
 * paired" compares scores from the highest group down.
 *
 * The bracket loop then freezes the choices the rules make in generation
 * order: first which moved-down players (MDPs) are paired (highest first),
 * then each MDP's opponent (lowest bracket number first among the optimal
 * ones), then how many and which S1/S2 exchanges happen, then each S1
 * player's partner. Each decision tweaks the low bits of a few edges and
 * re-solves; a frozen pair leaves the graph.
 *
 * Weights here are "wide" unsigned integers of ctx->L 64-bit limbs.
 * Unmatched vertices are reported as matched to themselves (mate(v) == v),
 * which the ordering tests below rely on.
 */
#include "dutch.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
#include "swiss.h"

enum { C_WHITE = 0, C_BLACK = 1, C_NONE = 2 };
enum { F_DOWN = 0, F_UP = 1, F_NONE = 2 };

typedef SwissPlayer DPlayer;

typedef struct {
    SwissRound s;          /* players; vertex i = s.pl[i] */
    unsigned char *compat; /* n*n */
    int L;
    /* field offsets */
    int sgbits, sgshift;
    int o_top, o_c6, o_c7, o_c8n, o_c8s, o_c9, o_col[4];
    int o_df[3], o_uf[3], o_dfs[3], o_ufs[3];
    int *gshift; /* per vertex: sub-field of its scoregroup */
    TrnPoints bye_score;
    int sgle;           /* the single downfloater of the bracket is the PAB receiver */
    int *unplayed_rank; /* per vertex, valid for players with score == bye_score */
    MatchingGraph *g;
    int *alive, *verts, *cmate, *mate;
} Ctx;

/* ---------------- wide integers ---------------- */

typedef uint64_t Limb;

static void wclear(Limb *w, int L)
{
    memset(w, 0, (size_t)L * sizeof *w);
}

static int wiszero(const Limb *w, int L)
{
    for (int i = 0; i < L; i++)
        if (w[i])
            return 0;
    return 1;
}

/* w += v << pos */
static void wadd_at(Limb *w, int L, uint64_t v, int pos)
{
    if (!v)
        return;
    int li = pos / 64, sh = pos % 64;
    if (li >= L)
        return;
    uint64_t lo = v << sh, hi = sh ? v >> (64 - sh) : 0;
    uint64_t old = w[li];
    w[li] += lo;
    uint64_t c = w[li] < old;
    for (int i = li + 1; i < L && (hi || c); i++) {
        old = w[i];
        w[i] += hi + c;
        c = (w[i] < old) || (c && hi + c == 0);
        hi = 0;
    }
}

/* w -= v << pos (the caller guarantees no underflow) */
static void wsub_at(Limb *w, int L, uint64_t v, int pos)
{
    if (!v)
        return;
    int li = pos / 64, sh = pos % 64;
    uint64_t lo = v << sh, hi = sh ? v >> (64 - sh) : 0;
    uint64_t old = w[li];
    w[li] -= lo;
    uint64_t b = old < lo;
    for (int i = li + 1; i < L && (hi || b); i++) {
        old = w[i];
        uint64_t d = hi + b;
        int of = (hi && b && d == 0);
        w[i] -= d;
        b = old < d || of;
        hi = 0;
    }
}

/* ---------------- player data ---------------- */

static int bits_for(long v)
{
    int b = 0;
    while (v >= 1) {
        b++;
        v /= 2;
    }
    return b;
}

static int float_of(const Ctx *c, const TrnPlayer *p, int back)
{
    const Tournament *t = c->s.t;
    int rr = c->s.round - back;
    const TrnGame *g = swiss_game(p, rr);
    if (!swiss_game_played(g))
        return swiss_game_points(t, g) > t->points.loss_white ? F_DOWN : F_NONE;
    const TrnPlayer *o = tournament_player(t, g->opponent);
    if (!o)
        return F_NONE;
    TrnPoints a = swiss_round_score_at(&c->s, p, rr - 1),
              b = swiss_round_score_at(&c->s, o, rr - 1);
    return a > b ? F_DOWN : a < b ? F_UP : F_NONE;
}

static int bye_eligible(const Ctx *c, const TrnPlayer *p)
{
    const Tournament *t = c->s.t;
    for (int r = 1; r <= c->s.pr; r++) {
        const TrnGame *g = swiss_game(p, r);
        if (swiss_game_played(g))
            continue;
        if (swiss_game_points(t, g) >= t->points.win_white ||
            (swiss_game_participated(g) && !g->opponent))
            return 0;
    }
    return 1;
}

/* ---------------- criteria ---------------- */

static int pref_compatible(int a, int b)
{
    return a != b || a == C_NONE || b == C_NONE;
}

static int compatible(const Ctx *c, int i, int j)
{
    return c->compat[(size_t)i * (size_t)c->s.n + (size_t)j];
}

/*
 * The weight of pairing hi (higher in the order) with lo, lo being in the
 * current bracket (cur) or the next scoregroup (next) or neither.
 */
static void edge_weight(const Ctx *c, int hi, int lo, int cur, int next, int use_bye, Limb *w)
{
    int L = c->L;
    wclear(w, L);
    if (!compatible(c, hi, lo))
        return;
    const DPlayer *H = &c->s.pl[hi], *O = &c->s.pl[lo];
    TrnPoints bs = use_bye ? c->bye_score : 0;
    int ch = c->s.pl[hi].elig && H->score <= bs, cl = c->s.pl[lo].elig && O->score <= bs;
    wadd_at(w, L, (uint64_t)(1 + !ch + !cl), c->o_top);
    if (cur) {
        wadd_at(w, L, 1, c->o_c6);
        wadd_at(w, L, 1, c->o_c7 + c->gshift[hi]);
    }
    if (next) {
        wadd_at(w, L, 1, c->o_c8n);
        wadd_at(w, L, 1, c->o_c8s + c->gshift[hi]);
    }
    if (use_bye && c->sgle) {
        if (H->score == c->bye_score)
            wadd_at(w, L, (uint64_t)c->unplayed_rank[hi], c->o_c9);
        if (O->score == c->bye_score)
            wadd_at(w, L, (uint64_t)c->unplayed_rank[lo], c->o_c9);
    }
    if (cur) {
        /* the colour fields see the lower player first */
        const DPlayer *P = O, *Q = H;
        int f1 = !P->absimb || !Q->absimb || P->pref != Q->pref;
        int f2;
        if (!P->abspref || !Q->abspref || P->pref != Q->pref)
            f2 = 1;
        else if (P->imb == Q->imb)
            f2 = P->rep == C_NONE || P->rep != Q->rep;
        else
            f2 = (P->imb > Q->imb ? Q : P)->rep != swiss_colour_invert(P->pref);
        int f3 = pref_compatible(P->pref, Q->pref);
        int f4 = (!P->strong && !P->abspref) || (!Q->strong && !Q->abspref) ||
                 (P->abspref && Q->abspref) || P->pref != Q->pref;
        wadd_at(w, L, (uint64_t)f1, c->o_col[0]);
        wadd_at(w, L, (uint64_t)f2, c->o_col[1]);
        wadd_at(w, L, (uint64_t)f3, c->o_col[2]);
        wadd_at(w, L, (uint64_t)f4, c->o_col[3]);
        for (int k = 1; k <= 2 && k <= c->s.pr; k++) {
            int lf = O->fl[k], hf = H->fl[k];
            wadd_at(w, L, (uint64_t)(lf == F_DOWN), c->o_df[k]);
            wadd_at(w, L, (uint64_t)(H->score <= O->score && hf == F_DOWN), c->o_df[k]);
            int upok = !(H->score > O->score && lf == F_UP);
            wadd_at(w, L, (uint64_t)upok, c->o_uf[k]);
            wadd_at(w, L, (uint64_t)(lf == F_DOWN), c->o_dfs[k] + c->gshift[lo]);
            wadd_at(w, L, (uint64_t)(hf == F_DOWN), c->o_dfs[k] + c->gshift[hi]);
            if (upok)
                wadd_at(w, L, 1, c->o_ufs[k] + c->gshift[hi]);
        }
    }
}

/* ---------------- matching plumbing ---------------- */

static void set_w(Ctx *c, int u, int v, const Limb *w)
{
    matching_graph_set(c->g, u, v, w);
}

static void set_zero(Ctx *c, int u, int v)
{
    Limb z[64];
    wclear(z, c->L);
    matching_graph_set(c->g, u, v, z);
}

/* Solves over the vertices not yet frozen; c->mate[v] = partner or v. */
static int solve(Ctx *c)
{
    int k = 0;
    for (int v = 0; v < c->s.n; v++)
        if (c->alive[v])
            c->verts[k++] = v;
        else if (c->mate[v] < 0)
            c->mate[v] = v;
    return matching_graph_solve_mates(c->g, c->verts, k, c->cmate, c->mate);
}

/* freezes the pair u-v: both leave the graph for the rest of the round */
static void freeze(Ctx *c, int u, int v)
{
    c->alive[u] = c->alive[v] = 0;
    c->mate[u] = v;
    c->mate[v] = u;
}

/* ---------------- setup ---------------- */

/* The colour player a gets against b (Art. 5). */
static int choose_colour(const Ctx *c, const DPlayer *a, const DPlayer *b)
{
    int res = swiss_colour_neutral(a, b);
    if (res != C_NONE)
        return res;
    int init = c->s.init;
    int a_lower = a->score < b->score || (a->score == b->score && a->rank > b->rank);
    if (a->pref == C_NONE) {
        if (a_lower)
            return (b->rank & 1) ? init : swiss_colour_invert(init);
        return (a->rank & 1) ? swiss_colour_invert(init) : init;
    }
    return a_lower ? swiss_colour_invert(b->pref) : a->pref;
}

static int colour_of(const void *ctx, int a, int b)
{
    const Ctx *c = ctx;
    return choose_colour(c, &c->s.pl[a], &c->s.pl[b]);
}

static void ctx_free(Ctx *c)
{
    swiss_round_free(&c->s);
    free(c->compat);
    free(c->gshift);
    free(c->unplayed_rank);
    matching_graph_free(c->g);
    free(c->alive);
    free(c->verts);
    free(c->cmate);
    free(c->mate);
}

/* the bracket loop; fills final_mate (vertex -> vertex, or itself) */
static int pair_brackets(Ctx *c, int *final_mate);

/* The absolute criteria as a matrix: c->compat[i * n + j] is 1 when pl[i]
 * and pl[j] may meet (no game between them, no 260/XXP ban, colours
 * compatible unless one is a topscorer in the last round). */
static void fill_compat(Ctx *c)
{
    const Tournament *t = c->s.t;
    int n = c->s.n, round = c->s.round;
    int expected = c->s.expected;
    TrnPoints wd =
        t->points.win_white > t->points.draw_white ? t->points.win_white : t->points.draw_white;
    long thr = ((long)c->s.pr * (long)wd) >> 1;
    int last = c->s.pr >= expected - 1 && expected >= 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            const DPlayer *a = &c->s.pl[i], *b = &c->s.pl[j];
            int ok = 1;
            for (int r = 1; r <= c->s.pr && ok; r++) {
                const TrnGame *g = swiss_game(a->tp, r);
                if (swiss_game_played(g) && g->opponent == b->id)
                    ok = 0;
            }
            if (ok && tournament_is_forbidden(t, a->id, b->id, round))
                ok = 0;
            if (ok && a->abspref && b->abspref && a->pref == b->pref &&
                !(last && (a->score > thr || b->score > thr)))
                ok = 0;
            c->compat[(size_t)i * (size_t)n + (size_t)j] = (unsigned char)ok;
        }
}

/* Places the upfloat and downfloat fields of rounds -2 and -1 (k = 2, 1),
 * each WIDTH bits, from bit POS up; a round not played yet gets -1.
 * Returns the next free bit. */
static int lay_float_fields(int pr, int up[3], int down[3], int width, int pos)
{
    for (int k = 2; k >= 1; k--) {
        if (pr < k) {
            up[k] = down[k] = -1;
            continue;
        }
        up[k] = pos;
        pos += width;
        down[k] = pos;
        pos += width;
    }
    return pos;
}

/* The scoregroup sub-fields (c->gshift, c->sgshift, c->sgbits) and the bit
 * layout of an edge weight (c->o_*, c->L limbs).  Returns 0 or
 * DUTCH_E_INPUT when the weight would need more than 64 limbs. */
static int lay_out_weights(Ctx *c, char *err, size_t errlen)
{
    int n = c->s.n;
    /* scoregroup sub-fields, lowest group first */
    {
        int shift = 0, maxsg = 0;
        int i = n - 1;
        while (i >= 0) {
            int j = i;
            while (j > 0 && c->s.pl[j - 1].score == c->s.pl[i].score)
                j--;
            int size = i - j + 1;
            for (int k = j; k <= i; k++)
                c->gshift[k] = shift;
            shift += bits_for(size);
            if (size > maxsg)
                maxsg = size;
            i = j - 1;
        }
        c->sgshift = shift;
        c->sgbits = bits_for(maxsg);
    }
    {
        /* lay the fields out from the least significant end */
        int sb = c->sgbits, ss = c->sgshift, pos = 0;
        pos += 3 * sb + 1; /* generation-order bits */
        pos = lay_float_fields(c->s.pr, c->o_ufs, c->o_dfs, ss, pos);
        pos = lay_float_fields(c->s.pr, c->o_uf, c->o_df, sb, pos);
        for (int k = 3; k >= 0; k--) {
            c->o_col[k] = pos;
            pos += sb;
        }
        c->o_c9 = pos;
        pos += 2 * sb;
        c->o_c8s = pos;
        pos += ss;
        c->o_c8n = pos;
        pos += sb;
        c->o_c7 = pos;
        pos += ss;
        c->o_c6 = pos;
        pos += sb;
        c->o_top = pos;
        pos += 2;
        c->L = (pos + 4) / 64 + 1;
        if (c->L > 64) {
            swiss_error(err, errlen, "too many scoregroups for the weight encoding");
            return DUTCH_E_INPUT;
        }
    }
    return 0;
}

int dutch_pair_round(const Tournament *t, int round, DutchPairing *out, char *err, size_t errlen)
{
    Ctx ctx, *c = &ctx;
    memset(c, 0, sizeof *c);
    int *final_mate = NULL;
    int rc = swiss_round_setup(&c->s, t, round, SWISS_DUTCH, out, err, errlen);
    if (rc || c->s.n == 0)
        goto done;
    for (int i = 0; i < c->s.n; i++) {
        DPlayer *d = &c->s.pl[i];
        d->fl[0] = F_NONE;
        d->fl[1] = c->s.pr >= 1 ? float_of(c, d->tp, 1) : F_NONE;
        d->fl[2] = c->s.pr >= 2 ? float_of(c, d->tp, 2) : F_NONE;
        d->elig = bye_eligible(c, d->tp);
    }
    int n = c->s.n;

    /* absolute criteria: rematches (played games), 260/XXP, colours */
    c->compat = calloc((size_t)n * (size_t)n, 1);
    c->gshift = calloc((size_t)n, sizeof *c->gshift);
    c->unplayed_rank = calloc((size_t)n, sizeof *c->unplayed_rank);
    c->alive = calloc((size_t)n, sizeof *c->alive);
    c->verts = calloc((size_t)n, sizeof *c->verts);
    c->cmate = calloc((size_t)n, sizeof *c->cmate);
    c->mate = calloc((size_t)n, sizeof *c->mate);
    final_mate = calloc((size_t)n, sizeof *final_mate);
    if (!c->compat || !c->gshift || !c->unplayed_rank || !c->alive || !c->verts || !c->cmate ||
        !c->mate || !final_mate) {
        rc = -ENOMEM;
        goto done;
    }
    fill_compat(c);

    rc = lay_out_weights(c, err, errlen);
    if (rc)
        goto done;
    c->g = matching_graph_new(n, c->L);
    if (!c->g) {
        rc = -ENOMEM;
        goto done;
    }
    rc = pair_brackets(c, final_mate);
    if (rc)
        goto done;

    rc = swiss_round_emit(&c->s, final_mate, colour_of, c, out);

done:
    if (rc == DUTCH_E_NO_PAIRING)
        swiss_error(err, errlen,
                    "no pairing satisfies the absolute criteria (C1-C3) for every player");
    free(final_mate);
    ctx_free(c);
    return rc;
}

/* ---------------- the bracket loop ---------------- */

/* base weights of the bracket: pairs (l, s), s < l, l >= first */
typedef struct {
    int first, count, L;
    Limb *w;
} Base;

static Limb *BW(Base *b, int l, int s)
{
    /* row l holds s = 0..l-1; rows first..l-1 come before it */
    size_t k = (size_t)(l - b->first);
    size_t off = k * (size_t)b->first + k * (k - (k ? 1 : 0)) / 2;
    return b->w + (off + (size_t)s) * (size_t)b->L;
}

/* weight for remainder optimisation: favours few exchanges and small BSN differences */
static void ewc(const Ctx *c, Base *B, int s, int l, int srem, int rempairs, Limb *out)
{
    memcpy(out, BW(B, l, s), (size_t)c->L * sizeof(Limb));
    if (wiszero(out, c->L))
        return;
    if (srem < rempairs)
        wadd_at(out, c->L, 1, 2 * c->sgbits + 1);
    wsub_at(out, c->L, (uint64_t)srem, 1);
}

/* ---- phase 1: can the round be completed, and who could get the PAB ---- */

/* Solves the whole round once with only the absolute criteria and the
 * PAB's eligibility: DUTCH_E_NO_PAIRING when no pairing exists.  For an
 * odd number of players it fixes the PAB receiver's score (c->bye_score),
 * whether the single downfloater of the top bracket is the PAB receiver
 * (c->sgle) and the played-game ranks of the possible receivers, then sets
 * the edge weights that take the PAB into account. */
static int plan_bye(Ctx *c, TrnPoints top)
{
    int n = c->s.n, L = c->L, rc;
    Limb w[64];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            if (n & 1) {
                wclear(w, L);
                if (compatible(c, i, j)) {
                    uint64_t hi = (uint64_t)(1 + !c->s.pl[i].elig + !c->s.pl[j].elig);
                    wadd_at(w, L, hi, c->sgshift + c->sgbits);
                    wadd_at(w, L, (uint64_t)(c->gshift[i] + c->gshift[j]), c->sgbits);
                    wadd_at(w, L, (uint64_t)(c->s.pl[i].score >= top), 0);
                }
                set_w(c, i, j, w);
            } else {
                c->bye_score = 0;
                edge_weight(c, j, i, 0, 0, 0, w);
                set_w(c, i, j, w);
            }
        }
    if ((rc = solve(c)))
        return rc;
    int unmatched = 0;
    for (int v = 0; v < n; v++)
        if (c->mate[v] == v) {
            if (unmatched || !c->s.pl[v].elig)
                return DUTCH_E_NO_PAIRING;
            unmatched = 1;
        }
    c->sgle = 0;
    if (!(n & 1))
        return 0;
    for (int v = 0; v < n; v++)
        if (c->mate[v] == v) {
            c->bye_score = c->s.pl[v].score;
            break;
        }
    if (c->bye_score >= top) {
        c->sgle = 1;
        for (int v = 0; v < n && c->s.pl[v].score >= top; v++)
            if (c->s.pl[c->mate[v]].score < top) {
                c->sgle = 0;
                break;
            }
    }
    /* rank of played-game counts among the possible PAB receivers,
     * most games first; equal counts share the last rank given */
    int cnt[TRN_MAX_ROUNDS + 2];
    memset(cnt, 0, sizeof cnt);
    for (int v = 0; v < n; v++)
        if (c->s.pl[v].score == c->bye_score)
            cnt[c->s.pl[v].played]++;
    int rankof[TRN_MAX_ROUNDS + 2];
    int seen = 0;
    for (int pg = TRN_MAX_ROUNDS + 1; pg >= 0; pg--) {
        if (cnt[pg]) {
            seen += cnt[pg];
            rankof[pg] = seen - 1;
        }
    }
    for (int v = 0; v < n; v++)
        c->unplayed_rank[v] = c->s.pl[v].score == c->bye_score ? rankof[c->s.pl[v].played] : 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            edge_weight(c, j, i, 0, 0, 1, w);
            set_w(c, i, j, w);
        }
    return 0;
}

/* ---- phase 2: the brackets, from the top ---- */

/*
 * The bracket being paired.  pb lists its players as vertices: first the
 * moved-down players (MDPs, positions 0..sg_begin-1), then the resident
 * scoregroup (sg_begin..nsg_begin-1), then the next scoregroup
 * (nsg_begin..np-1), which is looked at so that the downfloaters of this
 * bracket can be paired there.  Vertices of the resident group are
 * sg_begin_v..nsg_begin_v-1.  rem lists, after remainder_solve(), the
 * positions of the remainder's players; its first rem_pairs are S1.
 */
typedef struct {
    int *pb, *npb, *rem;
    unsigned char *matched; /* per vertex: paired for good in this round */
    Base B;
    int np, nextv;
    int sg_begin, sg_begin_v, nsg_begin, nsg_begin_v;
    int grp_first;
    TrnPoints grp_score;
    int nrem, rem_pairs;
} Bracket;

/* Whether vertex M belongs to the bracket's resident scoregroup. */
static int in_bracket(const Bracket *k, int m)
{
    return m >= k->sg_begin_v && m < k->nsg_begin_v;
}

/* Takes in the next scoregroup and sets the base weights of every pair
 * with at least one resident or next-group player. */
static int bracket_open(Ctx *c, Bracket *k)
{
    int n = c->s.n, L = c->L;
    k->nsg_begin = k->np;
    k->nsg_begin_v = k->sg_begin_v + (k->nsg_begin - k->sg_begin);
    k->grp_first = k->nextv;
    k->grp_score = k->nextv < n ? c->s.pl[k->nextv].score : 0;
    while (k->nextv < n && c->s.pl[k->nextv].score >= c->s.pl[k->grp_first].score)
        k->pb[k->np++] = k->nextv++;
    /* vertices in pb are consecutive from position sg_begin on */
    free(k->B.w);
    k->B.first = k->sg_begin;
    k->B.count = k->np;
    size_t rows = (size_t)(k->np - k->sg_begin);
    size_t cells = rows * (size_t)k->sg_begin + rows * (rows - 1) / 2 + rows;
    k->B.w = calloc(cells * (size_t)L + 1, sizeof(Limb));
    if (!k->B.w)
        return -ENOMEM;
    for (int l = k->sg_begin; l < k->np; l++)
        for (int s = 0; s < l; s++) {
            Limb *bw = BW(&k->B, l, s);
            edge_weight(c, k->pb[s], k->pb[l], l < k->nsg_begin, l >= k->nsg_begin, 1, bw);
            set_w(c, k->pb[l], k->pb[s], bw);
        }
    return solve(c);
}

/* Decides which MDPs get paired in this bracket, from the top. */
static int choose_mdps(Ctx *c, Bracket *k)
{
    int L = c->L, rc;
    Limb w[64];
    const int *pb = k->pb;
    TrnPoints mdsg = 0;
    int rem_players = 0, rem_matched = 0;
    for (int pi = 0; pi < k->sg_begin; pi++) {
        if (!pi || c->s.pl[pb[pi]].score < mdsg) {
            mdsg = c->s.pl[pb[pi]].score;
            rem_players = rem_matched = 0;
            for (int q = pi; q < k->np && c->s.pl[pb[q]].score >= mdsg; q++) {
                rem_players++;
                if (in_bracket(k, c->mate[pb[q]]))
                    rem_matched++;
            }
        }
        if (!rem_matched)
            continue;
        int v = pb[pi];
        if (rem_players <= rem_matched) {
            k->matched[v] = 1;
            continue;
        }
        rem_players--;
        if (!in_bracket(k, c->mate[v])) {
            for (int o = k->sg_begin; o < k->nsg_begin; o++) {
                memcpy(w, BW(&k->B, o, pi), (size_t)L * sizeof(Limb));
                if (!wiszero(w, L)) {
                    w[0] |= 1;
                    set_w(c, v, pb[o], w);
                }
            }
            if ((rc = solve(c)))
                return rc;
        }
        if (in_bracket(k, c->mate[v])) {
            k->matched[v] = 1;
            rem_matched--;
            for (int o = k->sg_begin; o < k->nsg_begin; o++) {
                memcpy(w, BW(&k->B, o, pi), (size_t)L * sizeof(Limb));
                if (!wiszero(w, L)) {
                    w[0] |= (uint64_t)(k->nsg_begin - k->sg_begin);
                    wadd_at(w, L, 1, 0);
                    set_w(c, v, pb[o], w);
                }
            }
        }
    }
    return 0;
}

/* Offers V the edge to OV with its base weight (row L, column S of B)
 * raised by ADDEND, the preference among the candidates; false when the
 * pair is not allowed at all (zero weight). */
static bool offer_edge(Ctx *c, Base *B, int v, int ov, int l, int s, uint64_t addend)
{
    Limb w[64];
    memcpy(w, BW(B, l, s), (size_t)c->L * sizeof(Limb));
    if (wiszero(w, c->L))
        return false;
    wadd_at(w, c->L, addend, 0);
    set_w(c, v, ov, w);
    return true;
}

/* Solves with V's offers in place and freezes V with the partner it got. */
static int fix_partner(Ctx *c, Bracket *k, int v)
{
    int rc = solve(c);
    if (rc)
        return rc;
    int mv = c->mate[v];
    k->matched[v] = k->matched[mv] = 1;
    freeze(c, v, mv);
    return 0;
}

/* Fixes the opponents of the paired MDPs, the highest MDP first. */
static int pair_mdps(Ctx *c, Bracket *k)
{
    int rc;
    for (int pi = 0; pi < k->sg_begin; pi++) {
        int v = k->pb[pi];
        if (!k->matched[v])
            continue;
        uint64_t addend = (uint64_t)k->np;
        for (int o = k->nsg_begin - 1; o >= k->sg_begin; o--) {
            int ov = k->pb[o];
            if (k->matched[ov])
                continue;
            if (offer_edge(c, &k->B, v, ov, o, pi, addend))
                addend++;
        }
        if ((rc = fix_partner(c, k, v)))
            return rc;
    }
    return 0;
}

/* Collects the remainder (S1 = its first rem_pairs players) and solves it
 * with the weights that favour few exchanges; *EXCHANGES is how many the
 * solution needs. */
static int remainder_solve(Ctx *c, Bracket *k, int *exchanges)
{
    int rc;
    Limb w[64];
    k->nrem = k->rem_pairs = 0;
    for (int pi = k->sg_begin; pi < k->nsg_begin; pi++) {
        int v = k->pb[pi];
        if (c->mate[v] < k->sg_begin_v)
            continue;
        k->rem[k->nrem++] = pi;
        if (c->mate[v] < v)
            k->rem_pairs++;
    }
    for (int a = 0; a < k->nrem; a++)
        for (int b2 = 0; b2 < a; b2++) {
            ewc(c, &k->B, k->rem[b2], k->rem[a], b2, k->rem_pairs, w);
            set_w(c, k->pb[k->rem[b2]], k->pb[k->rem[a]], w);
        }
    if ((rc = solve(c)))
        return rc;
    *exchanges = 0;
    for (int a = 0; a < k->rem_pairs; a++) {
        int v = k->pb[k->rem[a]];
        *exchanges += c->mate[v] <= v || c->mate[v] >= k->nsg_begin_v;
    }
    return 0;
}

/* Chooses the S1 players that move down into S2, from the bottom of S1. */
static int exchange_down(Ctx *c, Bracket *k, int exchanges)
{
    int L = c->L, rc;
    Limb w[64];
    const int *pb = k->pb, *rem = k->rem;
    int left = exchanges;
    for (int a = k->rem_pairs - 1; a >= 0 && left; a--) {
        int pi = rem[a], v = pb[pi];
        if (c->mate[v] > v && c->mate[v] < k->nsg_begin_v) {
            for (int b2 = a + 1; b2 < k->nrem; b2++) {
                ewc(c, &k->B, pi, rem[b2], a, k->rem_pairs, w);
                if (!wiszero(w, L)) {
                    wsub_at(w, L, 1, 0);
                    set_w(c, v, pb[rem[b2]], w);
                }
            }
            if ((rc = solve(c)))
                return rc;
        }
        int ex = c->mate[v] <= v || c->mate[v] >= k->nsg_begin_v;
        left -= ex;
        for (int b2 = a + 1; b2 < k->nrem; b2++) {
            if (ex)
                wclear(BW(&k->B, rem[b2], pi), L);
            ewc(c, &k->B, pi, rem[b2], a, k->rem_pairs, w);
            set_w(c, v, pb[rem[b2]], w);
        }
    }
    return 0;
}

/* Chooses the S2 players that move up into S1, from the top of S2. */
static int exchange_up(Ctx *c, Bracket *k, int exchanges)
{
    int L = c->L, rc;
    Limb w[64];
    const int *pb = k->pb, *rem = k->rem;
    int left = exchanges;
    for (int a = k->rem_pairs; a < k->nrem && left > 1; a++) {
        int pi = rem[a], v = pb[pi];
        int already = c->mate[v] > v && c->mate[v] < k->nsg_begin_v;
        if (!already) {
            for (int b2 = a + 1; b2 < k->nrem; b2++) {
                ewc(c, &k->B, pi, rem[b2], a, k->rem_pairs, w);
                if (!wiszero(w, L)) {
                    wadd_at(w, L, 1, 0);
                    set_w(c, v, pb[rem[b2]], w);
                }
            }
            if ((rc = solve(c)))
                return rc;
        }
        int ex = c->mate[v] > v && c->mate[v] < k->nsg_begin_v;
        if (ex) {
            left--;
            for (int b2 = 0; b2 < a; b2++) {
                wclear(BW(&k->B, pi, rem[b2]), L);
                set_zero(c, v, pb[rem[b2]]);
            }
            for (int o = k->nsg_begin; o < k->np; o++) {
                wclear(BW(&k->B, o, pi), L);
                set_zero(c, v, pb[o]);
            }
        }
        if (!already)
            for (int b2 = a + 1; b2 < k->nrem; b2++) {
                ewc(c, &k->B, pi, rem[b2], a, k->rem_pairs, w);
                set_w(c, v, pb[rem[b2]], w);
            }
    }
    return 0;
}

/* Freezes who is in S1 after the exchanges, then pairs each S1 player,
 * from the top of S1. */
static int pair_s1(Ctx *c, Bracket *k)
{
    int L = c->L, rc;
    const int *pb = k->pb, *rem = k->rem;
    for (int a = 0; a < k->nrem; a++) {
        int pi = rem[a], v = pb[pi];
        for (int b2 = a + 1; b2 < k->nrem; b2++) {
            int qi = rem[b2], ov = pb[qi];
            if (c->mate[v] <= v || c->mate[v] >= k->nsg_begin_v ||
                (c->mate[ov] > ov && c->mate[ov] < k->nsg_begin_v))
                wclear(BW(&k->B, qi, pi), L);
            set_w(c, v, ov, BW(&k->B, qi, pi));
        }
    }
    for (int a = 0; a < k->nrem; a++) {
        int pi = rem[a], v = pb[pi];
        if (!(c->mate[v] > v && c->mate[v] < k->nsg_begin_v))
            continue;
        uint64_t addend = 0;
        for (int b2 = k->nrem - 1; b2 >= 0; b2--) {
            int qi = rem[b2], ov = pb[qi];
            if (qi <= pi || k->matched[ov])
                continue;
            offer_edge(c, &k->B, v, ov, qi, pi, addend);
            addend++;
        }
        if ((rc = fix_partner(c, k, v)))
            return rc;
    }
    return 0;
}

/* Records the bracket's pairs in FINAL_MATE and carries the unpaired down:
 * they become the MDPs of the next bracket. */
static void bracket_close(Ctx *c, Bracket *k, int *final_mate)
{
    int n = c->s.n;
    int nn = 0;
    int new_begin = 0;
    c->sgle = (n & 1) && k->grp_first < n && c->bye_score >= k->grp_score;
    for (int pi = 0; pi < k->np; pi++) {
        int v = k->pb[pi];
        if (pi < k->nsg_begin && k->matched[v]) {
            final_mate[v] = c->mate[v];
            final_mate[c->mate[v]] = v;
        } else {
            k->npb[nn++] = v;
            if (pi < k->nsg_begin)
                new_begin++;
            if (c->sgle && c->s.pl[c->mate[v]].score < k->grp_score)
                c->sgle = 0;
        }
    }
    memcpy(k->pb, k->npb, (size_t)nn * sizeof *k->pb);
    k->np = nn;
    k->sg_begin = new_begin;
    k->sg_begin_v = k->nsg_begin_v;
}

/* Pairs one bracket: the MDPs first, then the remainder with its
 * exchanges, then the carry into the next bracket. */
static int pair_bracket(Ctx *c, Bracket *k, int *final_mate)
{
    int rc, exchanges;
    if ((rc = bracket_open(c, k)) || (rc = choose_mdps(c, k)) || (rc = pair_mdps(c, k)) ||
        (rc = remainder_solve(c, k, &exchanges)) || (rc = exchange_down(c, k, exchanges)) ||
        (rc = exchange_up(c, k, exchanges)) || (rc = pair_s1(c, k)))
        return rc;
    bracket_close(c, k, final_mate);
    return 0;
}

static int pair_brackets(Ctx *c, int *final_mate)
{
    int n = c->s.n, rc;
    for (int v = 0; v < n; v++) {
        c->alive[v] = 1;
        c->mate[v] = -1;
        final_mate[v] = v;
    }
    TrnPoints top = c->s.pl[0].score;
    if ((rc = plan_bye(c, top)))
        return rc;

    Bracket k = {0};
    k.B.L = c->L;
    k.pb = malloc((size_t)n * sizeof *k.pb);
    k.npb = malloc((size_t)n * sizeof *k.npb);
    k.rem = malloc((size_t)n * sizeof *k.rem);
    k.matched = calloc((size_t)n, 1);
    rc = 0;
    if (!k.pb || !k.npb || !k.rem || !k.matched) {
        rc = -ENOMEM;
        goto out;
    }
    while (k.nextv < n && c->s.pl[k.nextv].score >= top)
        k.pb[k.np++] = k.nextv++;
    int guard = 0;
    while (k.np > 1 || k.nextv < n) {
        if (++guard > 4 * n + 8) {
            rc = DUTCH_E_NO_PAIRING;
            goto out;
        }
        if ((rc = pair_bracket(c, &k, final_mate)))
            goto out;
    }
out:
    free(k.B.w);
    free(k.pb);
    free(k.npb);
    free(k.rem);
    free(k.matched);
    return rc;
}

int dutch_round_matches(const Tournament *t, int round, const DutchPairing *p)
{
    return swiss_round_matches(t, round, p);
}

int dutch_next_round(const Tournament *t)
{
    return swiss_next_round(t);
}

void dutch_pairing_free(DutchPairing *p)
{
    swiss_pairing_free(p);
}
