/*
 * pairing_quality.c — the quality criteria of a proposed Swiss round
 * against the Dutch engine's own pairing of it (see pairing_quality.h).
 *
 * Both pairings are walked over the same scoregroups from the top, and each
 * quality criterion is reported once, at the first bracket where the
 * proposal is worse on it: C5 and C9 for the PAB first, then per bracket C6,
 * C7, C8 (one small matching as look-ahead), C10-C13 over the colours the
 * pairs actually get, C14-C17 (repeated floats) and C18-C21 (the scores of
 * those floats).  Workload: a few passes over the players per scoregroup.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burstein.h"
#include "matching.h"
#include "pairing_quality.h"

/* ---- Swiss: quality against the engine, bracket by bracket ---- */

/*
 * C.04.3 applies the quality criteria bracket by bracket, top scoregroup
 * first: in each bracket the fewest downfloaters (C6), then their lowest
 * scores (C7), then the colour criteria, before the next bracket counts.  A
 * whole-round total can hide an edit that is worse high up and better lower
 * down, so both pairings are walked over the same scoregroups.
 *
 * Of a complete pairing the brackets follow from the pairs alone: a pair is
 * made in the bracket of its lower score (the higher player stayed unpaired
 * in every bracket on the way down, as a moved-down player), and the PAB
 * receiver floats to the bottom.  A player of score s whose pair is made at
 * score p is thus in the brackets of every scoregroup from s down to p, and
 * a downfloater of each but the last.
 */

typedef struct Side {
    int *opp;           /* by start rank: 0 = not in the round, -1 = PAB, else opponent */
    unsigned char *col; /* P_WHITE / P_BLACK for players in a game */
} Side;

/* The counted criteria, in C.04.3's order; then the score lists. */
enum { Q10, Q11, Q12, Q13, Q14, Q15, Q16, Q17, NQ };
enum { S18, S19, S20, S21, NS };

/* One bracket of one pairing. */
typedef struct BStat {
    int ndown;
    int *down;    /* the downfloaters, score descending then start rank */
    long val[NQ]; /* players, over the pairs made here or its downfloaters */
    int n_who[NQ], who[NQ][PAIRING_CHECK_MAX_ITEM_PLAYERS];
    /* C18-C21: the players whose score differences grow, score descending:
     * MDPs who downfloated 1 / 2 rounds before and float on from here
     * (S18 / S20; residents are C14's and C16's), MDPs paired with a player
     * who upfloated 1 / 2 rounds before (S19 / S21) */
    int n_sc[NS], *sc[NS];
} BStat;

/* The score of the bracket in which ID's pair is made; false for the PAB. */
static bool pair_level(Ctx *c, const Side *s, int id, TrnPoints *lvl)
{
    int o = s->opp[id];
    Info *me = pairing_ctx_info(c, id), *oi = o > 0 ? pairing_ctx_info(c, o) : NULL;
    if (!me || !oi)
        return false;
    *lvl = me->score < oi->score ? me->score : oi->score;
    return true;
}

static void who_add(BStat *st, int k, int id, int count)
{
    st->val[k] += count;
    if (st->n_who[k] < PAIRING_CHECK_MAX_ITEM_PLAYERS)
        st->who[k][st->n_who[k]++] = id;
}

/* ids come in ascending order: insert by score only, highest first */
static void by_score_add(Ctx *c, int *list, int *n, int id)
{
    int k = (*n)++;
    while (k > 0 && pairing_ctx_info(c, list[k - 1])->score < pairing_ctx_info(c, id)->score) {
        list[k] = list[k - 1];
        k--;
    }
    list[k] = id;
}

/* C10 / C11 for one player of a topscorer pair who gets colour COL */
static void colour_stat(BStat *st, int id, const Info *in, int col)
{
    int cd = in->cd + (col == P_WHITE ? 1 : -1);
    if (cd > 2 || cd < -2)
        who_add(st, Q10, id, 1);
    if (in->rep == col)
        who_add(st, Q11, id, 1);
}

/* LAST: the lowest bracket, whose unpaired player is the PAB receiver,
 * judged by C5 and C9 and not as a downfloater for C6-C8; the engine counts
 * the bye as his float for C14-C21, and so does this. */
static void bracket_stat(Ctx *c, const Side *s, TrnPoints score, bool last, BStat *st)
{
    st->ndown = 0;
    memset(st->val, 0, sizeof st->val);
    memset(st->n_who, 0, sizeof st->n_who);
    memset(st->n_sc, 0, sizeof st->n_sc);
    for (int id = 1; id <= c->max_id; id++) {
        Info *in = pairing_ctx_info(c, id);
        if (!in || !s->opp[id] || in->score < score)
            continue;
        TrnPoints lvl = 0;
        bool paired = pair_level(c, s, id, &lvl);
        if (!paired || lvl < score) {
            if (in->score == score && in->fl[1] == F_DOWN)
                who_add(st, Q14, id, 1);
            if (in->score == score && in->fl[2] == F_DOWN)
                who_add(st, Q16, id, 1);
            if (in->score > score && in->fl[1] == F_DOWN)
                by_score_add(c, st->sc[S18], &st->n_sc[S18], id);
            if (in->score > score && in->fl[2] == F_DOWN)
                by_score_add(c, st->sc[S20], &st->n_sc[S20], id);
            if (!paired && last)
                continue;
            by_score_add(c, st->down, &st->ndown, id);
            continue;
        }
        if (lvl > score)
            continue; /* paired above */
        int oid = s->opp[id];
        Info *o = pairing_ctx_info(c, oid);
        if (in->score == score && o->score > score) { /* the opponent of an MDP */
            if (in->fl[1] == F_UP) {
                who_add(st, Q15, id, 1);
                by_score_add(c, st->sc[S19], &st->n_sc[S19], oid);
            }
            if (in->fl[2] == F_UP) {
                who_add(st, Q17, id, 1);
                by_score_add(c, st->sc[S21], &st->n_sc[S21], oid);
            }
        }
        if (s->col[id] != P_WHITE)
            continue; /* the colours are counted from White's side */
        if (in->top || o->top) {
            colour_stat(st, id, in, P_WHITE);
            colour_stat(st, oid, o, P_BLACK);
        }
        if (in->pref == P_BLACK)
            who_add(st, Q12, id, 1);
        if (o->pref == P_WHITE)
            who_add(st, Q12, oid, 1);
        if (in->pref == P_BLACK && (in->strong || in->abspref))
            who_add(st, Q13, id, 1);
        if (o->pref == P_WHITE && (o->strong || o->abspref))
            who_add(st, Q13, oid, 1);
    }
}

/* > 0 when the players A (score descending) score more than B, first
 * difference from the top, or are more with the same scores (C7). */
static int scores_cmp(Ctx *c, const int *a, int na, const int *b, int nb, int *at)
{
    for (int i = 0; i < na && i < nb; i++) {
        TrnPoints x = pairing_ctx_info(c, a[i])->score, y = pairing_ctx_info(c, b[i])->score;
        if (x != y) {
            *at = i;
            return x > y ? 1 : -1;
        }
    }
    *at = na < nb ? na : nb; /* the first player only one side has */
    return (na > nb) - (na < nb);
}

/* "1", "1.5" */
static void points_text(TrnPoints p, char *out, size_t cap)
{
    if (p % TRN_POINT)
        snprintf(out, cap, "%d.%d", p / TRN_POINT, p % TRN_POINT);
    else
        snprintf(out, cap, "%d", p / TRN_POINT);
}

/* "#3, #7" or, with SCORES, "#3 (1.5), #7 (1)"; the first few */
static void ids_text(Ctx *c, const int *ids, int n, bool scores, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < n && i < 8 && o < cap; i++) {
        char p[16] = "";
        if (scores)
            points_text(pairing_ctx_info(c, ids[i])->score, p, sizeof p);
        o += (size_t)snprintf(out + o, cap - o, scores ? "%s#%d (%s)" : "%s#%d%s", i ? ", " : "",
                              ids[i], p);
    }
    if (n > 8 && o < cap)
        snprintf(out + o, cap - o, ", ...");
    if (!n)
        snprintf(out, cap, "none");
}

/* the last item gets the bracket and the two values */
static void item_mark(Ctx *c, TrnPoints bracket, long value, long engine_value)
{
    PairingCheckItem *it = &c->rep->items[c->rep->n_items - 1];
    it->in_bracket = true;
    it->bracket = bracket;
    it->value = value;
    it->engine_value = engine_value;
}

static int side_fill(Ctx *c, Side *s, const PairingCheckProposal *prop, const DutchPairing *e)
{
    s->opp = calloc((size_t)c->max_id + 1, sizeof *s->opp);
    s->col = calloc((size_t)c->max_id + 1, 1);
    if (!s->opp || !s->col)
        return -ENOMEM;
    int n = prop ? prop->n_boards : e->n_pairs;
    for (int i = 0; i < n; i++) {
        int w = prop ? prop->boards[i].white : e->pairs[i].white;
        int b = prop ? prop->boards[i].black : e->pairs[i].black;
        if (!pairing_ctx_info(c, w) || (b && !pairing_ctx_info(c, b)) || w == b)
            continue;
        s->opp[w] = b ? b : -1;
        s->col[w] = b ? P_WHITE : P_NONE;
        if (b) {
            s->opp[b] = w;
            s->col[b] = P_BLACK;
        }
    }
    for (int i = 0; prop && i < prop->n_byes; i++)
        if (prop->byes[i].kind == TRN_RES_PAB && pairing_ctx_info(c, prop->byes[i].player))
            s->opp[prop->byes[i].player] = -1;
    return 0;
}

static int cmp_points_desc(const void *a, const void *b)
{
    TrnPoints x = *(const TrnPoints *)a, y = *(const TrnPoints *)b;
    return (x < y) - (x > y);
}

/* The scoregroups of the players of either pairing, highest first. */
static int groups(Ctx *c, const Side *s, TrnPoints *out)
{
    int n = 0;
    for (int id = 1; id <= c->max_id; id++)
        if (pairing_ctx_info(c, id) && (s[0].opp[id] || s[1].opp[id]))
            out[n++] = c->in[id].score;
    qsort(out, (size_t)n, sizeof *out, cmp_points_desc);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!k || out[k - 1] != out[i])
            out[k++] = out[i];
    return k;
}

/*
 * C8: the best the next bracket can do after a bracket's downfloaters, over
 * every way to pair the rest of the round that the criteria above it allow:
 * the round completed (C4) with the PAB, if any, to a player eligible for it
 * with no more points than the engine's receiver (C5), then the most pairs
 * in the next bracket, then its highest scores paired, so that the lowest
 * float on.  One maximum weight matching over the players left decides it;
 * its weight has those fields from the most significant down, each wide
 * enough for every sum below it, one sub-field per scoregroup for the
 * scores (the engine's own encoding, restricted to these criteria).
 */
static void wide_add(uint64_t *w, int limbs, uint64_t v, int pos)
{
    int sh = pos % 64;
    uint64_t lo = v << sh, hi = sh ? v >> (64 - sh) : 0;
    for (int i = pos / 64; i < limbs && (lo || hi); i++) {
        uint64_t old = w[i];
        w[i] += lo;
        lo = hi + (w[i] < old);
        hi = 0;
    }
}

static bool may_meet(Ctx *c, int a, int b)
{
    Info *x = pairing_ctx_info(c, a), *y = pairing_ctx_info(c, b);
    if (pairing_ctx_met_before(c, a, b) || tournament_is_forbidden(c->t, a, b, c->round))
        return false;
    return !(x->abspref && y->abspref && x->pref == y->pref && !x->top && !y->top);
}

static int bits_of(long v)
{
    int b = 0;
    while (v > 0) {
        b++;
        v >>= 1;
    }
    return b;
}

/* Look-ahead state: scratch arrays of max_id + 1 ints each. */
typedef struct Ahead {
    int *vert, *shift, *mate, *left[2];
    TrnPoints bye_score; /* the engine's PAB receiver's points, or -1 */
} Ahead;

/* The players the next bracket (scoregroup NEXT) at best leaves over after
 * side S's bracket floated ST's downfloaters, score descending, into LEFT;
 * returns their count or -ENOMEM. */
static int ahead_left(Ctx *c, const Side *s, const BStat *st, TrnPoints next, Ahead *A, int *left)
{
    int n = 0, nb, *v = A->vert;
    for (int i = 0; i < st->ndown; i++)
        v[n++] = st->down[i];
    for (int id = 1; id <= c->max_id; id++)
        if (pairing_ctx_info(c, id) && s->opp[id] && c->in[id].score == next)
            v[n++] = id;
    nb = n;
    for (int id = 1; id <= c->max_id; id++)
        if (pairing_ctx_info(c, id) && s->opp[id] && c->in[id].score < next)
            v[n++] = id;
    if (n < 2) {
        memcpy(left, v, (size_t)nb * sizeof *left);
        return nb;
    }
    int pos = 0;
    for (int i = nb - 1; i >= 0;) { /* nb players are score descending */
        int j = i;
        while (j > 0 && c->in[v[j - 1]].score == c->in[v[i]].score)
            j--;
        for (int k = j; k <= i; k++)
            A->shift[k] = pos;
        pos += bits_of(i - j + 1);
        i = j - 1;
    }
    int o_pairs = pos, o_top = o_pairs + bits_of(nb) + 1;
    int limbs = (o_top + bits_of(3L * n) + 4) / 64 + 1;
    if (limbs > 16)
        return 0; /* beyond the encoding: judged equal */
    MatchingGraph *g = matching_graph_new(n, limbs);
    if (!g)
        return -ENOMEM;
    bool odd = n & 1;
    uint64_t w[16];
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            if (!may_meet(c, v[a], v[b]))
                continue;
            memset(w, 0, sizeof w);
            Info *x = &c->in[v[a]], *y = &c->in[v[b]];
            /* C5: every player who may not take the bye is better paired */
            bool bx = x->elig && (A->bye_score < 0 || x->score <= A->bye_score);
            bool by = y->elig && (A->bye_score < 0 || y->score <= A->bye_score);
            wide_add(w, limbs, odd ? (uint64_t)(1 + !bx + !by) : 1, o_top);
            if (a < nb && b < nb) {
                wide_add(w, limbs, 1, o_pairs);
                wide_add(w, limbs, 1, A->shift[a]);
                wide_add(w, limbs, 1, A->shift[b]);
            }
            matching_graph_set(g, a, b, w);
        }
    int rc = matching_graph_solve(g, A->mate);
    matching_graph_free(g);
    if (rc)
        return rc;
    int k = 0;
    for (int a = 0; a < nb; a++)
        if (A->mate[a] < 0 || A->mate[a] >= nb)
            left[k++] = v[a];
    return k;
}

static bool same_down(const BStat *a, const BStat *b)
{
    if (a->ndown != b->ndown)
        return false;
    for (int i = 0; i < a->ndown; i++)
        if (a->down[i] != b->down[i])
            return false;
    return true;
}

/* C8 in the bracket of score HERE, where both pairings float as many
 * players with the same points (C6, C7 tie) but not the same players. */
static int compare_lookahead(Ctx *c, const Side *s, const BStat *st, TrnPoints here, TrnPoints next,
                             Ahead *A)
{
    int nl[2];
    for (int k = 0; k < 2; k++) {
        nl[k] = ahead_left(c, &s[k], &st[k], next, A, A->left[k]);
        if (nl[k] < 0)
            return nl[k];
    }
    int at = 0;
    if (scores_cmp(c, A->left[0], nl[0], A->left[1], nl[1], &at) <= 0)
        return 0;
    char br[16], nx[16], a[96], b[96], la[120], lb[120];
    points_text(here, br, sizeof br);
    points_text(next, nx, sizeof nx);
    ids_text(c, st[0].down, st[0].ndown, false, a, sizeof a);
    ids_text(c, st[1].down, st[1].ndown, false, b, sizeof b);
    ids_text(c, A->left[0], nl[0], true, la, sizeof la);
    ids_text(c, A->left[1], nl[1], true, lb, sizeof lb);
    int rc =
        pairing_ctx_item_add(c, "C8", PAIRING_CHECK_QUALITY, 0, st[0].down, st[0].ndown,
                             "in the %s-point bracket the edit floats %s down, after which the "
                             "%s-point bracket leaves at best %s over; after the engine's %s: %s",
                             br, a, nx, la, b, lb);
    if (!rc)
        item_mark(c, here, nl[0], nl[1]);
    return rc;
}

/* C5: the PAB to a player with more points than the engine's receiver;
 * C9: with as many points, to one with more unplayed games before */
static int compare_pab(Ctx *c, const Side *s)
{
    int who[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int id = 1; id <= c->max_id && !who[k]; id++)
            if (s[k].opp[id] == -1)
                who[k] = id;
    if (!who[0] || !who[1])
        return 0;
    const Info *x = &c->in[who[0]], *y = &c->in[who[1]];
    char a[16], b[16];
    points_text(x->score, a, sizeof a);
    points_text(y->score, b, sizeof b);
    int rc;
    long v, ev;
    if (x->score > y->score) {
        rc = pairing_ctx_item_add(
            c, "C5", PAIRING_CHECK_QUALITY, 0, &who[0], 1,
            "the bye goes to #%d with %s point%s; the engine's to a player with %s", who[0], a,
            x->score == TRN_POINT ? "" : "s", b);
        v = x->score;
        ev = y->score;
    } else if (x->score == y->score && x->unplayed > y->unplayed) {
        rc = pairing_ctx_item_add(
            c, "C9", PAIRING_CHECK_QUALITY, 0, &who[0], 1,
            "the bye goes to #%d, who has %d unplayed round%s before this one; the "
            "engine's receiver #%d, with as many points, has %d",
            who[0], x->unplayed, x->unplayed == 1 ? "" : "s", who[1], y->unplayed);
        v = x->unplayed;
        ev = y->unplayed;
    } else {
        return 0;
    }
    if (!rc) {
        c->rep->items[c->rep->n_items - 1].value = v;
        c->rep->items[c->rep->n_items - 1].engine_value = ev;
    }
    return rc;
}

/* C10-C17: the counts of bracket G, each at its first worse bracket */
static int compare_counts(Ctx *c, const BStat *st, TrnPoints score, bool *seen)
{
    static const char *const code[NQ] = {"C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17"};
    static const char *const what[NQ] = {
        "topscorers or their opponents getting a colour difference beyond 2",
        "topscorers or their opponents getting one colour three times running",
        "players without their colour preference",
        "players without their strong or absolute colour preference",
        "resident downfloaters who also downfloated in the previous round",
        "opponents of moved-down players who also upfloated in the previous round",
        "resident downfloaters who also downfloated two rounds before",
        "opponents of moved-down players who also upfloated two rounds before"};
    int rc = 0;
    char br[16], a[200];
    points_text(score, br, sizeof br);
    for (int k = 0; k < NQ && !rc; k++) {
        if (seen[k] || st[0].val[k] <= st[1].val[k])
            continue;
        seen[k] = true;
        ids_text(c, st[0].who[k], st[0].n_who[k], false, a, sizeof a);
        rc = pairing_ctx_item_add(
            c, code[k], PAIRING_CHECK_QUALITY, 0, st[0].who[k], st[0].n_who[k],
            "in the %s-point bracket %s: %ld (%s); in the engine's pairing: %ld", br, what[k],
            st[0].val[k], a, st[1].val[k]);
        if (!rc)
            item_mark(c, score, st[0].val[k], st[1].val[k]);
    }
    return rc;
}

/* C18-C21: the scores of the repeated floats, compared from the highest:
 * an MDP who downfloated before and floats on instead of being paired here
 * gets a larger score difference below (C18, C20: the engine pairs such
 * MDPs first, the highest first); an MDP with more points against a player
 * who upfloated before makes a larger difference (C19, C21: compared where
 * C15 / C17 count as many). */
static int compare_float_scores(Ctx *c, const BStat *st, TrnPoints score, bool *seen)
{
    static const char *const code[NS] = {"C18", "C19", "C20", "C21"};
    static const char *const what[NS] = {
        "moved-down players floating on who also downfloated in the previous round",
        "moved-down players paired with a player who upfloated in the previous round",
        "moved-down players floating on who also downfloated two rounds before",
        "moved-down players paired with a player who upfloated two rounds before"};
    int rc = 0;
    char br[16], a[200], b[200];
    points_text(score, br, sizeof br);
    for (int k = 0; k < NS && !rc; k++) {
        int at = 0;
        bool counted = k == S19 || k == S21;
        if (seen[k] || (counted && st[0].n_sc[k] != st[1].n_sc[k]) ||
            scores_cmp(c, st[0].sc[k], st[0].n_sc[k], st[1].sc[k], st[1].n_sc[k], &at) <= 0)
            continue;
        seen[k] = true;
        ids_text(c, st[0].sc[k], st[0].n_sc[k], true, a, sizeof a);
        ids_text(c, st[1].sc[k], st[1].n_sc[k], true, b, sizeof b);
        rc = pairing_ctx_item_add(
            c, code[k], PAIRING_CHECK_QUALITY, 0, st[0].sc[k], st[0].n_sc[k],
            "in the %s-point bracket the %s have more points: %s; the engine's: %s", br, what[k], a,
            b);
        /* at the first difference; the engine's list may be shorter */
        if (!rc)
            item_mark(c, score, pairing_ctx_info(c, st[0].sc[k][at])->score,
                      at < st[1].n_sc[k] ? pairing_ctx_info(c, st[1].sc[k][at])->score : 0);
    }
    return rc;
}

/*
 * Every quality criterion at the first bracket, from the top, where the edit
 * (s[0]) is worse on it than the engine (s[1]).  C7 is only compared where
 * both leave as many downfloaters (C6 decides before it), C8 only where C7
 * ties too but the downfloaters differ.
 */
static int compare_brackets(Ctx *c, const Side *s)
{
    size_t n = (size_t)c->max_id + 1;
    TrnPoints *sg = calloc(n, sizeof *sg);
    int *buf = calloc(5 * n, sizeof *buf), *sbuf = calloc(2 * NS * n, sizeof *sbuf), rc = 0;
    BStat st[2] = {{.down = calloc(n, sizeof(int))}, {.down = calloc(n, sizeof(int))}};
    Ahead A = {buf, buf + n, buf + 2 * n, {buf + 3 * n, buf + 4 * n}, -1};
    if (!sg || !st[0].down || !st[1].down || !buf || !sbuf) {
        rc = -ENOMEM;
        goto done;
    }
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < NS; j++)
            st[k].sc[j] = sbuf + (size_t)(k * NS + j) * n;
    for (int id = 1; id <= c->max_id; id++)
        if (s[1].opp[id] == -1)
            A.bye_score = c->in[id].score;
    bool seen6 = false, seen7 = false, seen8 = false, seen[NQ] = {false}, seen_s[NS] = {false};
    int ng = groups(c, s, sg);
    for (int g = 0; g < ng && !rc; g++) {
        for (int k = 0; k < 2; k++)
            bracket_stat(c, &s[k], sg[g], g == ng - 1, &st[k]);
        char br[16], a[200], b[200];
        points_text(sg[g], br, sizeof br);
        int at = 0, d = scores_cmp(c, st[0].down, st[0].ndown, st[1].down, st[1].ndown, &at);
        if (!seen6 && st[0].ndown > st[1].ndown) {
            seen6 = true;
            ids_text(c, st[0].down, st[0].ndown, false, a, sizeof a);
            ids_text(c, st[1].down, st[1].ndown, false, b, sizeof b);
            rc = pairing_ctx_item_add(
                c, "C6", PAIRING_CHECK_QUALITY, 0, st[0].down, st[0].ndown,
                "in the %s-point bracket the edit leaves %d downfloaters (%s) where "
                "the engine's pairing leaves %d%s%s%s",
                br, st[0].ndown, a, st[1].ndown, st[1].ndown ? " (" : "", st[1].ndown ? b : "",
                st[1].ndown ? ")" : "");
            if (!rc)
                item_mark(c, sg[g], st[0].ndown, st[1].ndown);
        } else if (!seen7 && st[0].ndown == st[1].ndown && d > 0) {
            seen7 = true;
            ids_text(c, st[0].down, st[0].ndown, true, a, sizeof a);
            ids_text(c, st[1].down, st[1].ndown, true, b, sizeof b);
            rc = pairing_ctx_item_add(
                c, "C7", PAIRING_CHECK_QUALITY, 0, st[0].down, st[0].ndown,
                "in the %s-point bracket the edit's downfloaters have more points: "
                "%s; the engine's: %s",
                br, a, b);
            if (!rc)
                item_mark(c, sg[g], pairing_ctx_info(c, st[0].down[at])->score,
                          pairing_ctx_info(c, st[1].down[at])->score);
        } else if (!seen8 && d == 0 && g + 1 < ng && !same_down(&st[0], &st[1])) {
            int before = c->rep->n_items;
            rc = compare_lookahead(c, s, st, sg[g], sg[g + 1], &A);
            seen8 = c->rep->n_items > before;
        }
        if (!rc)
            rc = compare_counts(c, st, sg[g], seen);
        if (!rc)
            rc = compare_float_scores(c, st, sg[g], seen_s);
    }
done:
    free(sg);
    free(buf);
    free(sbuf);
    free(st[0].down);
    free(st[1].down);
    return rc;
}

static bool in_engine(const DutchPairing *e, int white, int black)
{
    for (int i = 0; i < e->n_pairs; i++)
        if (e->pairs[i].white == white && e->pairs[i].black == black)
            return true;
    return false;
}

int pairing_quality_compare(Ctx *c, const PairingCheckProposal *prop)
{
    PairingCheckReport *r = c->rep;
    char why[200] = "";
    bool burstein = c->swiss == SWISS_BURSTEIN;
    const char *name = burstein ? "Burstein" : "Dutch";
    int rc = burstein ? burstein_pair_round(c->t, c->round, &r->engine, why, sizeof why)
                      : dutch_pair_round(c->t, c->round, &r->engine, why, sizeof why);
    if (rc < 0)
        return rc;
    if (rc)
        return pairing_ctx_item_add(c, "ENGINE", PAIRING_CHECK_NOTE, 0, NULL, 0,
                                    "the %s engine finds no pairing of this round%s%s", name,
                                    why[0] ? ": " : "", why);
    r->engine_run = true;
    int pabs = 0;
    for (int i = 0; i < prop->n_byes; i++)
        pabs += prop->byes[i].kind == TRN_RES_PAB;
    r->engine_differs = r->engine.n_pairs != prop->n_boards + pabs;
    for (int i = 0; i < prop->n_boards; i++)
        r->engine_differs |= !in_engine(&r->engine, prop->boards[i].white, prop->boards[i].black);
    for (int i = 0; i < prop->n_byes; i++)
        if (prop->byes[i].kind == TRN_RES_PAB)
            r->engine_differs |= !in_engine(&r->engine, prop->byes[i].player, 0);
    if (!r->engine_differs)
        return 0;
    rc = pairing_ctx_item_add(c, "ENGINE", PAIRING_CHECK_NOTE, 0, NULL, 0,
                              "the round differs from the %s engine's pairing (a pairing "
                              "program must reproduce the published pairings)",
                              name);
    /* C5-C21 are the Dutch system's own criteria (C.04.3); a Burstein
     * round is judged by the absolute criteria and its engine only. */
    if (rc || burstein)
        return rc;

    Side s[2] = {{NULL, NULL}, {NULL, NULL}};
    rc = side_fill(c, &s[0], prop, NULL);
    if (!rc)
        rc = side_fill(c, &s[1], NULL, &r->engine);
    if (!rc)
        rc = compare_pab(c, s);
    if (!rc)
        rc = compare_brackets(c, s);
    for (int k = 0; k < 2; k++) {
        free(s[k].opp);
        free(s[k].col);
    }
    return rc;
}
