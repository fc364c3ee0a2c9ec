/*
 * team_pairing.c — team round robin and the Swiss Team Pairing System
 * (C.04.6), see team_pairing.h.
 *
 * The Swiss round follows Art. 3.3: the bye first, then the top score
 * group with its upfloaters, bracket by bracket.  Every "can the rest
 * still be paired" question is a maximum cardinality matching (matching.h);
 * a bracket's pairing is a maximum weight matching whose wide weights
 * encode, from the most significant field down: the edge exists (C1), C8,
 * C9, C10, and the lexicographic identifier of Art. 3.6 (first which teams
 * are top members, then in a second pass each top member's partner in
 * turn).
 *
 * The fallback, one matching over the whole round, encodes in its weights:
 *   1. the edge exists (absolute criteria met);
 *   2. minus the score difference of the two teams, scaled up for the
 *      higher score groups;
 *   3. colours: the same preference (and the same strong one) penalised;
 *   4. floats: a team that floated in the previous round does not float
 *      again (not in the last two rounds);
 *   5. order: within a score group, top half against bottom half.
 */
#include "team_pairing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "matching.h"

int team_pairing_round_robin(int n_teams, int round, int flags, TeamPair *out)
{
    BergerBoard b[BERGER_MAX_BOARDS];
    int n = berger_round(n_teams, round, flags, b);
    if (n < 0)
        return -TEAM_PAIRING_E_RANGE;
    for (int i = 0; i < n; i++) {
        if (!b[i].white || !b[i].black)
            out[i] = (TeamPair){b[i].white ? b[i].white : b[i].black, 0, TRN_COLOUR_NONE};
        else
            out[i] = (TeamPair){b[i].white, b[i].black, TRN_WHITE};
    }
    return n;
}

/* Match colour of team t in round r: its colour on board 1, NONE when it
 * had no match played (bye, absence, whole-match forfeit). */
static TrnColour match_colour(const TeamEvent *ev, int r, int t)
{
    const TeamMatch *m = team_event_match_of(ev, r, t);
    if (!m || !m->team_b || m->forfeit != TEAM_FORFEIT_NONE)
        return TRN_COLOUR_NONE;
    TrnColour c = (TrnColour)m->colour_a;
    if (m->team_a == t)
        return c;
    return c == TRN_WHITE ? TRN_BLACK : TRN_WHITE;
}

TeamColourPref team_pairing_preference(const TeamEvent *ev, int team, int round)
{
    TeamColourPref p = {TRN_COLOUR_NONE, TEAM_PREF_NO, 0};
    TrnColour last = TRN_COLOUR_NONE, before = TRN_COLOUR_NONE;
    for (int r = 1; r < round && r <= ev->n_rounds; r++) {
        TrnColour c = match_colour(ev, r, team);
        if (c == TRN_COLOUR_NONE)
            continue;
        p.cd += c == TRN_WHITE ? 1 : -1;
        before = last;
        last = c;
    }
    if (ev->settings.pref == TEAM_PREF_NONE || last == TRN_COLOUR_NONE)
        return p;
    bool two_black = last == TRN_BLACK && before == TRN_BLACK;
    bool two_white = last == TRN_WHITE && before == TRN_WHITE;
    /* Art. 1.7: the preference of type A, the strong one of type B. */
    if (p.cd <= -2 || (p.cd >= -1 && p.cd <= 0 && two_black)) {
        p.colour = TRN_WHITE;
        p.strength = TEAM_PREF_STRONG;
        return p;
    }
    if (p.cd >= 2 || (p.cd >= 0 && p.cd <= 1 && two_white)) {
        p.colour = TRN_BLACK;
        p.strength = TEAM_PREF_STRONG;
        return p;
    }
    if (ev->settings.pref != TEAM_PREF_B)
        return p;
    /* Type B mild: an odd difference, or an even one outside the last round
     * leaning on the last colour. */
    bool last_round = ev->settings.n_rounds > 0 && round >= ev->settings.n_rounds;
    if (p.cd == -1 || (p.cd == 0 && !last_round && last == TRN_BLACK))
        p.colour = TRN_WHITE;
    else if (p.cd == 1 || (p.cd == 0 && !last_round && last == TRN_WHITE))
        p.colour = TRN_BLACK;
    if (p.colour != TRN_COLOUR_NONE)
        p.strength = TEAM_PREF_MILD;
    return p;
}

/* What the pairing needs to know of a team before the round. */
typedef struct Entrant {
    int id;
    TrnPoints primary, secondary;
    int played;        /* matches with a match colour */
    bool pab_barred;   /* C2: had a PAB or a win without playing */
    bool floated;      /* Art. 1.5: met a different score in the previous round */
    bool no_secondary; /* the event does not use the secondary score (Art. 4.2.2) */
    TeamColourPref pref;
} Entrant;

static TrnPoints primary_of(const TeamSettings *s, TrnPoints mp, TrnPoints gp)
{
    return s->primary == TEAM_PRIMARY_GAME ? gp : mp;
}

/* True when t scored a win's match points without playing (C2). */
static bool unplayed_win(const TeamEvent *ev, int r, int t)
{
    const TeamMatch *m = team_event_match_of(ev, r, t);
    if (!m)
        return false;
    if (!m->team_b)
        return m->bye == TRN_RES_PAB || m->bye == TRN_RES_FPB;
    return (m->forfeit == TEAM_FORFEIT_A && m->team_b == t) ||
           (m->forfeit == TEAM_FORFEIT_B && m->team_a == t);
}

static bool met_before(const TeamEvent *ev, int round, int a, int b)
{
    for (int r = 1; r < round && r <= ev->n_rounds; r++) {
        const TeamMatch *m = team_event_match_of(ev, r, a);
        /* A match forfeited as a whole was not a meeting. */
        if (m && m->forfeit == TEAM_FORFEIT_NONE && (m->team_a == b || m->team_b == b))
            return true;
    }
    return false;
}

static void entrant_fill(const TeamEvent *ev, int round, int t, Entrant *e)
{
    const TeamSettings *s = &ev->settings;
    TrnPoints mp, gp;
    team_event_score(ev, t, round - 1, &mp, &gp);
    memset(e, 0, sizeof *e);
    e->id = t;
    e->primary = primary_of(s, mp, gp);
    e->secondary = s->primary == TEAM_PRIMARY_GAME ? mp : gp;
    e->no_secondary = s->no_secondary;
    for (int r = 1; r < round && r <= ev->n_rounds; r++) {
        if (match_colour(ev, r, t) != TRN_COLOUR_NONE)
            e->played++;
        if (unplayed_win(ev, r, t))
            e->pab_barred = true;
    }
    e->pref = team_pairing_preference(ev, t, round);
    if (round >= 2) {
        const TeamMatch *m = team_event_match_of(ev, round - 1, t);
        if (m && m->team_b) {
            int o = m->team_a == t ? m->team_b : m->team_a;
            TrnPoints omp, ogp, tmp, tgp;
            team_event_score(ev, o, round - 2, &omp, &ogp);
            team_event_score(ev, t, round - 2, &tmp, &tgp);
            e->floated = primary_of(s, omp, ogp) != primary_of(s, tmp, tgp);
        }
    }
}

/* Art. 4.2: the first-team of a pair; true when x is. */
static bool first_team(const Entrant *x, const Entrant *y)
{
    if (x->primary != y->primary)
        return x->primary > y->primary;
    if (x->secondary != y->secondary && !x->no_secondary)
        return x->secondary > y->secondary;
    return x->id < y->id;
}

static TrnColour flip(TrnColour c)
{
    return c == TRN_WHITE ? TRN_BLACK : TRN_WHITE;
}

/* Art. 4: the colour of f, the first-team, against o. */
static TrnColour allocate(const TeamEvent *ev, int round, const Entrant *f, const Entrant *o)
{
    const TeamColourPref *pf = &f->pref, *po = &o->pref;
    if (!f->played && !o->played) {
        /* 4.3.1: the drawing of lots and the pairing number's parity. */
        TrnColour ic = ev->settings.initial_colour == TRN_BLACK ? TRN_BLACK : TRN_WHITE;
        return f->id % 2 ? ic : flip(ic);
    }
    bool hf = pf->colour != TRN_COLOUR_NONE, ho = po->colour != TRN_COLOUR_NONE;
    if (hf && !ho) /* 4.3.2 */
        return pf->colour;
    if (ho && !hf)
        return flip(po->colour);
    if (hf && ho && pf->colour != po->colour) /* 4.3.3 */
        return pf->colour;
    if (hf && ho && pf->strength != po->strength) /* 4.3.4 (type B) */
        return pf->strength == TEAM_PREF_STRONG ? pf->colour : flip(po->colour);
    if (pf->cd != po->cd) /* 4.3.5: the lower colour difference gets White */
        return pf->cd < po->cd ? TRN_WHITE : TRN_BLACK;
    for (int r = round - 1; r >= 1; r--) { /* 4.3.6 */
        TrnColour a = match_colour(ev, r, f->id), b = match_colour(ev, r, o->id);
        if (a != TRN_COLOUR_NONE && b != TRN_COLOUR_NONE && a != b)
            return flip(a);
    }
    if (hf) /* 4.3.7 */
        return pf->colour;
    for (int r = round - 1; r >= 1; r--) { /* 4.3.8 */
        TrnColour a = match_colour(ev, r, f->id);
        if (a != TRN_COLOUR_NONE)
            return flip(a);
    }
    for (int r = round - 1; r >= 1; r--) { /* 4.3.9 */
        TrnColour b = match_colour(ev, r, o->id);
        if (b != TRN_COLOUR_NONE)
            return b;
    }
    return TRN_WHITE;
}

/* The pair as listed: the first-named team is the one whose board-1
 * colour is the scheme's first board. */
static TeamPair listed(const TeamSettings *s, int white, int black)
{
    TrnColour first = TRN_WHITE;
    if (s->scheme == TEAM_BOARDS_EVEN_WHITE ||
        (s->scheme == TEAM_BOARDS_PATTERN &&
         (s->board_pattern[0] == 'B' || s->board_pattern[0] == 'b')))
        first = TRN_BLACK;
    return first == TRN_WHITE ? (TeamPair){white, black, TRN_WHITE}
                              : (TeamPair){black, white, TRN_BLACK};
}

static TeamPair colours_of(const TeamEvent *ev, int round, const Entrant *x, const Entrant *y)
{
    bool xf = first_team(x, y);
    const Entrant *f = xf ? x : y, *o = xf ? y : x;
    TrnColour c = allocate(ev, round, f, o);
    return c == TRN_WHITE ? listed(&ev->settings, f->id, o->id)
                          : listed(&ev->settings, o->id, f->id);
}

TeamPair team_pairing_colours(const TeamEvent *ev, int round, int x, int y)
{
    Entrant ex, ey;
    entrant_fill(ev, round, x, &ex);
    entrant_fill(ev, round, y, &ey);
    return colours_of(ev, round, &ex, &ey);
}

/* True when team t is to be paired in round `round`. */
static bool to_pair(const TeamEvent *ev, int round, int t)
{
    const TeamEntry *e = team_event_team(ev, t);
    if (!e || e->withdrawn)
        return false;
    const TeamMatch *m = team_event_match_of(ev, round, t);
    return !(m && !m->team_b && m->bye != TRN_RES_PAB);
}

static int cmp_entrant(const void *a, const void *b)
{
    const Entrant *x = a, *y = b;
    if (x->primary != y->primary)
        return x->primary > y->primary ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Edge weight fields, see the file comment. */
enum {
    W_EDGE_SHIFT = 56,  /* limb 1 */
    W_SCORE_SHIFT = 24, /* limb 1, 21 bits */
    W_COLOUR_SHIFT = 12,
    W_FLOAT_SHIFT = 0,
    W_SCORE_MAX = (1 << 21) - 1,
};

typedef struct Work {
    int n;
    Entrant *e;      /* sorted by score, then id */
    int *group;      /* score group index of e[i], 0 = top */
    int *pos, *size; /* position inside its group, and the group's size */
    int n_groups;
    MatchingGraph *g;
    int *verts, *mate;
} Work;

static void set_weights(const TeamEvent *ev, int round, Work *w)
{
    const TeamSettings *s = &ev->settings;
    bool relax = s->n_rounds > 0 && round >= s->n_rounds - 1;
    for (int i = 0; i < w->n; i++)
        for (int j = i + 1; j < w->n; j++) {
            const Entrant *a = &w->e[i], *b = &w->e[j];
            uint64_t wt[2] = {0, 0};
            if (!met_before(ev, round, a->id, b->id)) {
                int64_t sd = a->primary - b->primary;
                int64_t weight = (int64_t)(w->n_groups - w->group[i]);
                int64_t pen = sd * weight;
                if (pen > W_SCORE_MAX)
                    pen = W_SCORE_MAX;
                uint64_t col = 3;
                if (a->pref.colour != TRN_COLOUR_NONE && a->pref.colour == b->pref.colour) {
                    col -= 2;
                    if (a->pref.strength == TEAM_PREF_STRONG &&
                        b->pref.strength == TEAM_PREF_STRONG)
                        col -= 1;
                }
                uint64_t flt = 2;
                if (!relax && sd > 0 && b->floated)
                    flt -= 2;
                wt[1] = (1ull << W_EDGE_SHIFT) | ((uint64_t)(W_SCORE_MAX - pen) << W_SCORE_SHIFT) |
                        (col << W_COLOUR_SHIFT) | (flt << W_FLOAT_SHIFT);
                /* Order: j's distance from i's natural partner in S2. */
                int d = 0;
                if (w->group[i] == w->group[j]) {
                    int want = w->pos[i] + w->size[i] / 2;
                    d = abs(w->pos[j] - want);
                } else {
                    /* Across groups: the lowest of the higher group meets
                     * the highest of the lower one. */
                    d = TEAM_MAX_TEAMS + w->pos[j] + (w->size[i] - 1 - w->pos[i]);
                }
                wt[0] = (uint64_t)(4 * TEAM_MAX_TEAMS - d);
            }
            matching_graph_set(w->g, i, j, wt);
        }
}

/* Solves without vertex `skip` (-1: none); true if all others are matched. */
static int solve_without(Work *w, int skip, bool *perfect)
{
    int k = 0;
    for (int i = 0; i < w->n; i++)
        if (i != skip)
            w->verts[k++] = i;
    int rc = matching_graph_solve_subset(w->g, w->verts, k, w->mate);
    if (rc)
        return rc;
    *perfect = true;
    for (int i = 0; i < k; i++)
        if (w->mate[i] < 0)
            *perfect = false;
    return 0;
}

static int cmp_pab(const void *a, const void *b)
{
    const Entrant *x = a, *y = b;
    if (x->primary != y->primary)
        return x->primary < y->primary ? -1 : 1;
    if (x->played != y->played)
        return x->played > y->played ? -1 : 1;
    return (x->id < y->id) - (x->id > y->id);
}

typedef struct Table {
    TeamPair p;
    TrnPoints hi, sum;
    int low_id;
} Table;

static int cmp_table(const void *a, const void *b)
{
    const Table *x = a, *y = b;
    bool xb = !x->p.b, yb = !y->p.b;
    if (xb != yb)
        return xb ? 1 : -1;
    if (x->hi != y->hi)
        return x->hi > y->hi ? -1 : 1;
    if (x->sum != y->sum)
        return x->sum > y->sum ? -1 : 1;
    return (x->low_id > y->low_id) - (x->low_id < y->low_id);
}

/* ---- Art. 3.3-3.6: bracket by bracket ---- */

enum {
    EXACT_MAX = 64, /* brackets up to this size get the exact lexicographic order */
};

typedef struct Brackets {
    const TeamEvent *ev;
    int round;
    Work *w;
    bool relax;          /* the last two rounds: C7 and C10 do not apply */
    bool *legal;         /* w->n x w->n: may meet (C1) */
    bool *done;          /* paired or given the bye */
    int *pair_of;        /* index of the partner, -1 */
    MatchingGraph *card; /* weight 1 on legal edges: completion checks */
    int *tmp, *tmp2;
} Brackets;

/* Largest matching of the vertices idx[0..k-1] on legal edges: sets *unmatched. */
static int unmatched_of(Brackets *b, const int *idx, int k, int *unmatched)
{
    *unmatched = 0;
    if (k == 0)
        return 0;
    int rc = matching_graph_solve_subset(b->card, idx, k, b->w->mate);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        *unmatched += b->w->mate[i] < 0;
    return 0;
}

static int bits_for(uint64_t v)
{
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* ORs v (< 2^64) into the wide number w at bit `shift`. */
static void wide_or(uint64_t *w, int shift, uint64_t v)
{
    int l = shift / 64, o = shift % 64;
    w[l] |= v << o;
    if (o && (v >> (64 - o)))
        w[l + 1] |= v >> (64 - o);
}

/*
 * Pairs the bracket br[0..n-1] (indices into w->e, sorted by pairing
 * number) by Art. 3.6: the fewest unfulfilled colour preferences (C8), then
 * strong ones (C9), then upfloaters' opponents who floated (C10), then the
 * first pairing in the order of its identifier (top members' numbers, then
 * their bottom members').  `top` is the bracket's resident score.  Up to
 * EXACT_MAX teams the order is exact (tops first, then each top's partner
 * in turn, solved in two passes); above, the tops are the upper half as
 * closely as the rest allows.
 */
static int pair_bracket(Brackets *b, const int *br, int n, TrnPoints top)
{
    Work *w = b->w;
    int m = n / 2;
    bool exact = n <= EXACT_MAX;
    int cbits = bits_for((uint64_t)n) + 2;
    int bb = bits_for((uint64_t)m) + 1;
    int w6 = exact ? m * bb : bits_for((uint64_t)(3 * n)) + bits_for((uint64_t)m) + 1;
    int w5 = exact ? n : 0;
    int s6 = 0, s5 = s6 + w6, s4 = s5 + w5, s3 = s4 + cbits, s2 = s3 + cbits, s1 = s2 + cbits;
    int total = s1 + cbits;
    int limbs = (total + 3) / 64 + 2;
    int rc = -ENOMEM;
    MatchingGraph *g = matching_graph_new(n, limbs);
    uint64_t *wt = calloc((size_t)limbs, sizeof *wt);
    int *mate = calloc((size_t)n, sizeof *mate);
    int *verts = calloc((size_t)n, sizeof *verts);
    bool *is_top = calloc((size_t)n, sizeof *is_top);
    int *rank_bottom = calloc((size_t)n, sizeof *rank_bottom);
    int *pos_top = calloc((size_t)n, sizeof *pos_top);
    if (!g || !wt || !mate || !verts || !is_top || !rank_bottom || !pos_top)
        goto out;
    for (int i = 0; i < n; i++)
        verts[i] = i;
    for (int pass = 0; pass < (exact ? 2 : 1); pass++) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                memset(wt, 0, (size_t)limbs * sizeof *wt);
                const Entrant *x = &w->e[br[i]], *y = &w->e[br[j]];
                bool ok = b->legal[br[i] * w->n + br[j]];
                if (pass == 1)
                    ok = ok && is_top[i] && !is_top[j];
                if (ok) {
                    bool same =
                        x->pref.colour != TRN_COLOUR_NONE && x->pref.colour == y->pref.colour;
                    bool strong = same && x->pref.strength == TEAM_PREF_STRONG &&
                                  y->pref.strength == TEAM_PREF_STRONG;
                    int c10 = 0;
                    if (!b->relax)
                        c10 = (x->primary < top && y->floated) + (y->primary < top && x->floated);
                    wide_or(wt, s1, 1);
                    wide_or(wt, s2, !same);
                    wide_or(wt, s3, !strong);
                    wide_or(wt, s4, (uint64_t)(2 - c10));
                    if (exact && pass == 0) {
                        wide_or(wt, s5 + (n - 1 - i), 1);
                    } else if (exact) {
                        uint64_t digit = (uint64_t)((1 << bb) - 1 - rank_bottom[j]);
                        wide_or(wt, s6 + bb * (m - 1 - pos_top[i]), digit);
                    } else {
                        int d = abs(j - i - m) + (i >= m ? n : 0);
                        wide_or(wt, s6, (uint64_t)(3 * n - d));
                    }
                }
                matching_graph_set(g, i, j, wt);
            }
        rc = matching_graph_solve_subset(g, verts, n, mate);
        if (rc)
            goto out;
        for (int i = 0; i < n; i++)
            if (mate[i] < 0) {
                rc = TEAM_PAIRING_E_NONE;
                goto out;
            }
        if (exact && pass == 0) {
            int t = 0, bo = 0;
            for (int i = 0; i < n; i++) {
                is_top[i] = mate[i] > i;
                if (is_top[i])
                    pos_top[i] = t++;
                else
                    rank_bottom[i] = bo++;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        b->pair_of[br[i]] = br[mate[i]];
        b->done[br[i]] = true;
    }
    rc = 0;
out:
    matching_graph_free(g);
    free(wt);
    free(mate);
    free(verts);
    free(is_top);
    free(rank_bottom);
    free(pos_top);
    return rc;
}

/* A candidate set of upfloaters with its keys (Art. 3.5). */
typedef struct Cand {
    int k;
    int idx[8];         /* indices into w->e, ordered by score desc, then number */
    TrnPoints score[8]; /* their scores, ascending: C5 compares these */
} Cand;

/* C5: negative when x's upfloaters have the higher scores (better). */
static int cmp_c5(const Cand *x, const Cand *y)
{
    for (int i = 0; i < x->k; i++)
        if (x->score[i] != y->score[i])
            return x->score[i] > y->score[i] ? -1 : 1;
    return 0;
}

/* Art. 3.5.4: the sets' own order: their numbers, as sorted in 3.5.3. */
static int cmp_lex(const Work *w, const Cand *x, const Cand *y)
{
    for (int i = 0; i < x->k; i++)
        if (w->e[x->idx[i]].id != w->e[y->idx[i]].id)
            return w->e[x->idx[i]].id < w->e[y->idx[i]].id ? -1 : 1;
    return 0;
}

/* Fills the candidate from chosen pool positions. */
static void cand_make(const Work *w, const int *pool, const int *pick, int k, Cand *c)
{
    c->k = k;
    for (int i = 0; i < k; i++)
        c->idx[i] = pool[pick[i]];
    /* Pool order is score desc, number asc: that is the order of 3.5.3. */
    for (int i = 0; i < k; i++)
        c->score[i] = w->e[c->idx[k - 1 - i]].primary;
}

/*
 * Checks a candidate: the bracket T + U pairs legally, the rest can be
 * completed (C3).  Then C6 (the next score group can be paired with no
 * more upfloaters than its parity needs) and C7 (upfloaters that floated).
 * *legal false when it fails the first two.
 */
static int cand_eval(Brackets *b, const int *tgroup, int nt, const int *rest, int nr, const Cand *c,
                     bool *legal, int *c6, int *c7)
{
    Work *w = b->w;
    int *br = b->tmp, *rem = b->tmp2, nb = 0, nrem = 0, un;
    for (int i = 0; i < nt; i++)
        br[nb++] = tgroup[i];
    for (int i = 0; i < c->k; i++)
        br[nb++] = c->idx[i];
    *legal = false;
    int rc = unmatched_of(b, br, nb, &un);
    if (rc || un)
        return rc;
    for (int i = 0; i < nr; i++) {
        bool in = false;
        for (int j = 0; j < c->k; j++)
            in = in || rest[i] == c->idx[j];
        if (!in)
            rem[nrem++] = rest[i];
    }
    rc = unmatched_of(b, rem, nrem, &un);
    if (rc || un)
        return rc;
    *legal = true;
    /* C6: the next score group is the highest score left in rem. */
    int ng = 0;
    while (ng < nrem && w->e[rem[ng]].primary == w->e[rem[0]].primary)
        ng++;
    *c6 = 0;
    if (ng > 0) {
        rc = unmatched_of(b, rem, ng, &un);
        if (rc)
            return rc;
        *c6 = un > ng % 2;
    }
    *c7 = 0;
    if (!b->relax)
        for (int i = 0; i < c->k; i++)
            *c7 += w->e[c->idx[i]].floated;
    return 0;
}

/* How many teams of the pool to consider for k upfloaters. */
static int pool_size(int k, int avail)
{
    int extra = k <= 1 ? 24 : k == 2 ? 12 : k <= 4 ? 6 : 2;
    int n = k + extra;
    return n < avail ? n : avail;
}

/*
 * Art. 3.5: chooses the upfloaters for the top score group tgroup[0..nt-1]
 * from rest[0..nr-1] (score desc, number asc).  Writes the set to *best;
 * returns 0, TEAM_PAIRING_E_NONE when no set within the searched pools
 * works, or -ENOMEM.
 */
static int choose_upfloaters(Brackets *b, const int *tgroup, int nt, const int *rest, int nr,
                             Cand *best)
{
    Work *w = b->w;
    for (int k = nt % 2; k <= nr && k <= 8; k += 2) {
        int np = pool_size(k, nr);
        int pick[8];
        for (int i = 0; i < k; i++)
            pick[i] = i;
        bool found = false;
        int bc6 = 0, bc7 = 0;
        /* Subsets in lexicographic order of pool positions; pool positions
         * follow the scores, so the C5-best come first. */
        for (;;) {
            Cand c;
            cand_make(w, rest, pick, k, &c);
            int cmp = found ? cmp_c5(&c, best) : -1;
            if (found && k <= 1 && bc6 == 0 && bc7 == 0 && cmp >= 0) {
                /* One upfloater: the pool runs in number order within a
                 * score, so nothing later can beat a flawless find. */
                break;
            }
            if (found && cmp > 0) {
                /* A worse C5 key than the best found: skip it. */
            } else {
                bool legal;
                int c6, c7;
                int rc = cand_eval(b, tgroup, nt, rest, nr, &c, &legal, &c6, &c7);
                if (rc)
                    return rc;
                if (legal && (!found || cmp < 0 || c6 < bc6 || (c6 == bc6 && c7 < bc7) ||
                              (c6 == bc6 && c7 == bc7 && cmp_lex(w, &c, best) < 0))) {
                    *best = c;
                    found = true;
                    bc6 = c6;
                    bc7 = c7;
                }
            }
            /* Next k-subset of 0..np-1. */
            int i = k - 1;
            while (i >= 0 && pick[i] == np - k + i)
                i--;
            if (i < 0)
                break;
            pick[i]++;
            for (int j = i + 1; j < k; j++)
                pick[j] = pick[j - 1] + 1;
        }
        if (found)
            return 0;
    }
    return TEAM_PAIRING_E_NONE;
}

/*
 * Pairs every team of w not yet done, score group by score group.
 * Returns 0, TEAM_PAIRING_E_NONE (then the caller falls back on one
 * global matching) or -ENOMEM.
 */
static int pair_by_brackets(Brackets *b)
{
    Work *w = b->w;
    int *tgroup = calloc((size_t)w->n, sizeof *tgroup);
    int *rest = calloc((size_t)w->n, sizeof *rest);
    int *br = calloc((size_t)w->n, sizeof *br);
    int rc = -ENOMEM;
    if (!tgroup || !rest || !br)
        goto out;
    for (;;) {
        int nt = 0, nr = 0;
        TrnPoints top = 0;
        for (int i = 0; i < w->n; i++) {
            if (b->done[i])
                continue;
            if (nt == 0 || w->e[i].primary == top) {
                top = w->e[i].primary;
                tgroup[nt++] = i;
            } else {
                rest[nr++] = i;
            }
        }
        rc = 0;
        if (nt == 0)
            break;
        Cand c = {0};
        rc = choose_upfloaters(b, tgroup, nt, rest, nr, &c);
        if (rc)
            break;
        int nb = 0;
        for (int i = 0; i < nt; i++)
            br[nb++] = tgroup[i];
        for (int i = 0; i < c.k; i++)
            br[nb++] = c.idx[i];
        /* 3.6.1: within the bracket the pairing numbers order the teams. */
        for (int i = 1; i < nb; i++) {
            int v = br[i], j = i;
            while (j > 0 && w->e[br[j - 1]].id > w->e[v].id) {
                br[j] = br[j - 1];
                j--;
            }
            br[j] = v;
        }
        rc = pair_bracket(b, br, nb, top);
        if (rc)
            break;
    }
out:
    free(tgroup);
    free(rest);
    free(br);
    return rc;
}

int team_pairing_swiss(const TeamEvent *ev, int round, TeamPair *out, int *n_out)
{
    *n_out = 0;
    if (round < 1 || round > TRN_MAX_ROUNDS || round > ev->n_rounds + 1)
        return TEAM_PAIRING_E_RANGE;
    Work w = {0};
    Brackets bk = {0};
    int rc = -ENOMEM;
    Table *tab = NULL;
    int cap = ev->n_teams ? ev->n_teams : 1;
    w.e = calloc((size_t)cap, sizeof *w.e);
    w.group = calloc((size_t)cap, sizeof *w.group);
    w.pos = calloc((size_t)cap, sizeof *w.pos);
    w.size = calloc((size_t)cap, sizeof *w.size);
    w.verts = calloc((size_t)cap, sizeof *w.verts);
    w.mate = calloc((size_t)cap, sizeof *w.mate);
    tab = calloc((size_t)cap, sizeof *tab);
    if (!w.e || !w.group || !w.pos || !w.size || !w.verts || !w.mate || !tab)
        goto fail;
    for (int t = 1; t <= ev->n_teams; t++)
        if (to_pair(ev, round, t))
            entrant_fill(ev, round, t, &w.e[w.n++]);
    rc = 0;
    if (w.n == 0)
        goto fail;
    qsort(w.e, (size_t)w.n, sizeof *w.e, cmp_entrant);
    for (int i = 0, g = -1, start = 0; i <= w.n; i++) {
        if (i == w.n || i == 0 || w.e[i].primary != w.e[i - 1].primary) {
            for (int k = start; k < i; k++)
                w.size[k] = i - start;
            if (i == w.n)
                break;
            g++;
            start = i;
        }
        w.group[i] = g;
        w.pos[i] = i - start;
        w.n_groups = g + 1;
    }
    w.g = matching_graph_new(w.n, 2);
    bk.ev = ev;
    bk.round = round;
    bk.w = &w;
    bk.relax = ev->settings.n_rounds > 0 && round >= ev->settings.n_rounds - 1;
    bk.legal = calloc((size_t)w.n * (size_t)w.n, sizeof *bk.legal);
    bk.done = calloc((size_t)w.n, sizeof *bk.done);
    bk.pair_of = calloc((size_t)w.n, sizeof *bk.pair_of);
    bk.card = matching_graph_new(w.n, 1);
    bk.tmp = calloc((size_t)w.n, sizeof *bk.tmp);
    bk.tmp2 = calloc((size_t)w.n, sizeof *bk.tmp2);
    rc = -ENOMEM;
    if (!w.g || !bk.legal || !bk.done || !bk.pair_of || !bk.card || !bk.tmp || !bk.tmp2)
        goto fail;
    set_weights(ev, round, &w);

    int bye = -1;
    bool perfect = false;
    if (w.n % 2) {
        /* Art. 3.4: candidates from the lowest score up. */
        Entrant *order = calloc((size_t)w.n, sizeof *order);
        if (!order)
            goto fail;
        for (int k = 0; k < w.n; k++)
            order[k] = w.e[k];
        qsort(order, (size_t)w.n, sizeof *order, cmp_pab);
        for (int k = 0; k < w.n && !perfect; k++) {
            if (order[k].pab_barred)
                continue;
            int idx = 0;
            while (w.e[idx].id != order[k].id)
                idx++;
            rc = solve_without(&w, idx, &perfect);
            if (rc) {
                free(order);
                goto fail;
            }
            if (perfect)
                bye = idx;
        }
        free(order);
    } else {
        rc = solve_without(&w, -1, &perfect);
        if (rc)
            goto fail;
    }
    rc = TEAM_PAIRING_E_NONE;
    if (!perfect)
        goto fail;
    /* The global matching is the fallback; the brackets of Art. 3.3
     * replace it when their search succeeds. */
    int nv = w.n - (bye >= 0);
    for (int k = 0; k < nv; k++)
        bk.pair_of[w.verts[k]] = w.verts[w.mate[k]];
    if (bye >= 0)
        bk.done[bye] = true;
    for (int i = 0; i < w.n; i++)
        for (int j = i + 1; j < w.n; j++) {
            bool ok = !met_before(ev, round, w.e[i].id, w.e[j].id);
            bk.legal[i * w.n + j] = bk.legal[j * w.n + i] = ok;
            matching_graph_set_u64(bk.card, i, j, ok);
        }
    rc = pair_by_brackets(&bk);
    if (rc < 0)
        goto fail;
    if (rc) {
        for (int k = 0; k < nv; k++)
            bk.pair_of[w.verts[k]] = w.verts[w.mate[k]];
    }
    int nt = 0;
    for (int i = 0; i < w.n; i++) {
        int j = bk.pair_of[i];
        if (i == bye || j < i)
            continue;
        const Entrant *a = &w.e[i], *b = &w.e[j];
        tab[nt].p = colours_of(ev, round, a, b);
        tab[nt].hi = a->primary > b->primary ? a->primary : b->primary;
        tab[nt].sum = a->primary + b->primary;
        tab[nt].low_id = a->id < b->id ? a->id : b->id;
        nt++;
    }
    if (bye >= 0) {
        tab[nt].p = (TeamPair){w.e[bye].id, 0, TRN_COLOUR_NONE};
        nt++;
    }
    qsort(tab, (size_t)nt, sizeof *tab, cmp_table);
    for (int i = 0; i < nt; i++)
        out[i] = tab[i].p;
    *n_out = nt;
    rc = 0;
fail:
    matching_graph_free(w.g);
    matching_graph_free(bk.card);
    free(bk.legal);
    free(bk.done);
    free(bk.pair_of);
    free(bk.tmp);
    free(bk.tmp2);
    free(w.e);
    free(w.group);
    free(w.pos);
    free(w.size);
    free(w.verts);
    free(w.mate);
    free(tab);
    return rc;
}

const char *team_pairing_violation_name(TeamViolationCode code)
{
    static const char *const names[] = {"TEAM",   "DUP", "UNPAIRED", "WITHDRAWN",
                                        "ABSENT", "C1",  "C2",       "PAB"};
    return (unsigned)code < sizeof names / sizeof *names ? names[code] : "?";
}

static void note(TeamViolation *out, int max, int *n, TeamViolationCode code, int team, int other)
{
    if (*n < max)
        out[*n] = (TeamViolation){code, team, other};
    (*n)++;
}

int team_pairing_check(const TeamEvent *ev, int round, const TeamPair *pairs, int n,
                       TeamViolation *out, int max)
{
    int nv = 0, pabs = 0, present = 0;
    unsigned char *seen = calloc((size_t)ev->n_teams + 1, 1);
    if (!seen)
        return -ENOMEM;
    for (int i = 0; i < n; i++) {
        int side[2] = {pairs[i].a, pairs[i].b};
        for (int s = 0; s < 2; s++) {
            int t = side[s];
            if (s == 1 && t == 0)
                continue;
            const TeamEntry *e = team_event_team(ev, t);
            if (!e) {
                note(out, max, &nv, TEAM_V_TEAM, t, 0);
                continue;
            }
            if (seen[t]++)
                note(out, max, &nv, TEAM_V_DUP, t, 0);
            if (e->withdrawn)
                note(out, max, &nv, TEAM_V_WITHDRAWN, t, 0);
            else if (!to_pair(ev, round, t))
                note(out, max, &nv, TEAM_V_ABSENT, t, 0);
        }
        int a = pairs[i].a, b = pairs[i].b;
        if (!team_event_team(ev, a))
            continue;
        if (b && team_event_team(ev, b) && met_before(ev, round, a, b))
            note(out, max, &nv, TEAM_V_C1, a, b);
        if (!b) {
            pabs++;
            Entrant e;
            entrant_fill(ev, round, a, &e);
            if (e.pab_barred)
                note(out, max, &nv, TEAM_V_C2, a, 0);
        }
    }
    for (int t = 1; t <= ev->n_teams; t++)
        if (to_pair(ev, round, t)) {
            present++;
            if (!seen[t])
                note(out, max, &nv, TEAM_V_UNPAIRED, t, 0);
        }
    if (pabs > 1 || (pabs == 1 && present % 2 == 0))
        note(out, max, &nv, TEAM_V_PAB, 0, 0);
    free(seen);
    return nv;
}

int team_pairing_compare(const TeamEvent *ev, int round, const TeamPair *pairs, int n)
{
    TeamPair *mine = calloc((size_t)ev->n_teams / 2 + 2, sizeof *mine);
    if (!mine)
        return -ENOMEM;
    int nm = 0, rc = team_pairing_swiss(ev, round, mine, &nm);
    if (rc) {
        free(mine);
        return rc < 0 ? rc : -rc;
    }
    int verdict = nm == n ? TEAM_SAME : TEAM_OTHER_PAIRS;
    for (int i = 0; i < n && verdict != TEAM_OTHER_PAIRS; i++) {
        const TeamPair *p = &pairs[i];
        int j = 0;
        while (j < nm && !((mine[j].a == p->a && mine[j].b == p->b) ||
                           (mine[j].a == p->b && mine[j].b == p->a)))
            j++;
        if (j == nm)
            verdict = TEAM_OTHER_PAIRS;
        else if (p->b && (mine[j].a != p->a || mine[j].colour_a != p->colour_a))
            verdict = TEAM_OTHER_COLOURS;
    }
    free(mine);
    return verdict;
}
