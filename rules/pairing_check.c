/*
 * pairing_check.c — the criteria report of a proposed round (see
 * pairing_check.h).
 *
 * The player facts the criteria need (score, colour history, preference,
 * bye eligibility, absence, topscorer) are derived here the way the Dutch
 * engine derives them (C.04.3 Art. 1, C.04.1 Art. 4, C.04.2 3.4-3.5), so that
 * a pairing the engine makes never reports an absolute violation.  Quality
 * criteria are only reported relative to the engine's own pairing of the
 * round: an edited round is judged by where it is worse, not by how far it
 * is from an ideal that may not exist.  They are compared bracket by
 * bracket from the top scoregroup, as C.04.3 applies them; the look-ahead
 * of C8 solves one small matching when two brackets float different players.
 */
#include "pairing_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "matching.h"

enum { P_NONE = 0, P_WHITE = 1, P_BLACK = 2 };

typedef struct Info {
    bool known, absent, withdrawn, elig, top;
    TrnPoints score;
    int pref;      /* P_* */
    bool abspref;  /* |CD| > 1 or the last two played games had one colour */
    bool strong;   /* |CD| == 1, not absolute */
    int uses;      /* appearances in the proposal */
} Info;

typedef struct Ctx {
    const Tournament *t;
    int round, max_id;
    Info *in; /* max_id + 1 */
    PcReport *rep;
} Ctx;

static int played(const TrnGame *g)
{
    return g->opponent && tournament_result_is_played(g->result) &&
           (g->colour == TRN_WHITE || g->colour == TRN_BLACK);
}

static const TrnGame *game_of(const TrnPlayer *p, int r)
{
    static const TrnGame none = {0, 0, 0};
    return r >= 1 && r <= p->rounds ? &p->games[r - 1] : &none;
}

static TrnPoints points_of(const Tournament *t, const TrnGame *g)
{
    if (!g->result)
        return t->points.zpb;
    return tournament_result_points(&t->points, g->result, (TrnColour)g->colour);
}

static bool absent_in(const Tournament *t, const TrnPlayer *p, int round)
{
    const TrnGame *g = game_of(p, round);
    if (!g->opponent && g->result && g->result != TRN_RES_PAB &&
        g->result != TRN_RES_FORFEIT_WIN)
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
        const TrnGame *g = game_of(p, r);
        if (played(g))
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
        const TrnGame *g = game_of(p, r);
        if (!played(g))
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
}

static int item_add(Ctx *c, const char *code, PcKind kind, int board, const int *players, int np,
                    const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int item_add(Ctx *c, const char *code, PcKind kind, int board, const int *players, int np,
                    const char *fmt, ...)
{
    PcReport *r = c->rep;
    if (r->n_items == r->cap_items) {
        int cap = r->cap_items ? 2 * r->cap_items : 16;
        PcItem *n = realloc(r->items, (size_t)cap * sizeof *n);
        if (!n)
            return -ENOMEM;
        r->items = n;
        r->cap_items = cap;
    }
    PcItem *it = &r->items[r->n_items++];
    memset(it, 0, sizeof *it);
    snprintf(it->code, sizeof it->code, "%s", code);
    it->kind = kind;
    it->board = board;
    for (int i = 0; i < np && i < PC_MAX_ITEM_PLAYERS; i++)
        it->players[it->n_players++] = players[i];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->message, sizeof it->message, fmt, ap);
    va_end(ap);
    return 0;
}

static Info *info(Ctx *c, int id)
{
    return id >= 1 && id <= c->max_id && c->in[id].known ? &c->in[id] : NULL;
}

static int setup(Ctx *c, const PcOptions *opt)
{
    const Tournament *t = c->t;
    for (int i = 0; i < t->n_players; i++)
        if (t->players[i].id > c->max_id)
            c->max_id = t->players[i].id;
    c->in = calloc((size_t)c->max_id + 1, sizeof *c->in);
    if (!c->in)
        return -ENOMEM;
    int pr = c->round - 1;
    int expected = t->n_rounds ? t->n_rounds : t->rounds_played;
    TrnPoints wd = t->points.win_white > t->points.draw_white ? t->points.win_white
                                                               : t->points.draw_white;
    long thr = ((long)pr * (long)wd) >> 1;
    bool last = pr >= expected - 1 && expected >= 1;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        Info *in = &c->in[p->id];
        in->known = true;
        for (int r = 1; r < c->round; r++)
            in->score += points_of(t, game_of(p, r));
        in->score += tournament_acceleration(t, p->id, c->round);
        in->absent = absent_in(t, p, c->round);
        in->withdrawn = opt->withdrawn && p->id < opt->n_withdrawn_slots && opt->withdrawn[p->id];
        in->elig = bye_eligible(t, p, c->round);
        in->top = last && in->score > thr;
        colours(in, p, c->round);
    }
    return 0;
}

static bool met_before(const Ctx *c, int a, int b)
{
    const TrnPlayer *p = tournament_player(c->t, a);
    for (int r = 1; p && r < c->round; r++) {
        const TrnGame *g = game_of(p, r);
        if (played(g) && g->opponent == b)
            return true;
    }
    return false;
}

/* ---- presence: every player once, nobody absent paired ---- */

static int check_presence(Ctx *c, const PcProposal *prop, bool swiss)
{
    int rc = 0;
    for (int i = 0; i < prop->n_boards; i++) {
        const PcBoard *b = &prop->boards[i];
        int ids[2] = {b->white, b->black};
        for (int k = 0; k < 2; k++) {
            Info *in = info(c, ids[k]);
            if (!in) {
                rc = rc ? rc : item_add(c, "PLAYER", PC_ABSOLUTE, b->board, &ids[k], 1,
                                        "board %d: #%d is not a player of the tournament",
                                        b->board, ids[k]);
                continue;
            }
            in->uses++;
            if (swiss && in->withdrawn)
                rc = rc ? rc : item_add(c, "WITHDRAWN", PC_ABSOLUTE, b->board, &ids[k], 1,
                                        "board %d: #%d has withdrawn", b->board, ids[k]);
            else if (swiss && in->absent)
                rc = rc ? rc : item_add(c, "ABSENT", PC_ABSOLUTE, b->board, &ids[k], 1,
                                        "board %d: #%d is announced absent (bye requested)",
                                        b->board, ids[k]);
        }
    }
    for (int i = 0; i < prop->n_byes; i++) {
        const PcBye *y = &prop->byes[i];
        Info *in = info(c, y->player);
        if (!in) {
            rc = rc ? rc : item_add(c, "PLAYER", PC_ABSOLUTE, 0, &y->player, 1,
                                    "#%d is not a player of the tournament", y->player);
            continue;
        }
        /* A forfeit win without a game is a round robin's answer to an
         * absence; a Swiss pairs the present players. */
        if (!(swiss && y->kind == TRN_RES_FORFEIT_WIN))
            in->uses++;
        if (swiss && y->kind == TRN_RES_PAB && in->withdrawn)
            rc = rc ? rc : item_add(c, "WITHDRAWN", PC_ABSOLUTE, 0, &y->player, 1,
                                    "#%d has withdrawn but gets the pairing-allocated bye",
                                    y->player);
        else if (swiss && y->kind == TRN_RES_PAB && in->absent)
            rc = rc ? rc : item_add(c, "ABSENT", PC_ABSOLUTE, 0, &y->player, 1,
                                    "#%d is announced absent but gets the pairing-allocated bye",
                                    y->player);
    }
    for (int id = 1; id <= c->max_id && !rc; id++) {
        Info *in = info(c, id);
        if (!in)
            continue;
        if (in->uses > 1)
            rc = item_add(c, "DUP", PC_ABSOLUTE, 0, &id, 1,
                          "#%d appears %d times in the round", id, in->uses);
        else if (in->uses == 0 && !in->withdrawn && !in->absent)
            rc = item_add(c, "UNPAIRED", PC_ABSOLUTE, 0, &id, 1,
                          "#%d is present but has neither a game nor a bye", id);
    }
    return rc;
}

/* ---- Swiss: C1, forbidden pairs, C2, PAB, C3 ---- */

static int check_swiss_boards(Ctx *c, const PcProposal *prop)
{
    int rc = 0;
    for (int i = 0; i < prop->n_boards && !rc; i++) {
        const PcBoard *b = &prop->boards[i];
        Info *w = info(c, b->white), *k = info(c, b->black);
        int ids[2] = {b->white, b->black};
        if (!w || !k || b->white == b->black)
            continue;
        if (met_before(c, b->white, b->black))
            rc = item_add(c, "C1", PC_ABSOLUTE, b->board, ids, 2,
                          "board %d: #%d and #%d have already played each other", b->board,
                          b->white, b->black);
        if (!rc && tournament_is_forbidden(c->t, b->white, b->black, c->round))
            rc = item_add(c, "FORBIDDEN", PC_ABSOLUTE, b->board, ids, 2,
                          "board %d: #%d and #%d must not be paired (forbidden pair)", b->board,
                          b->white, b->black);
        if (rc)
            break;
        bool same_abs = w->abspref && k->abspref && w->pref == k->pref;
        bool exempt = w->top || k->top;
        if (same_abs && !exempt) {
            rc = item_add(c, "C3", PC_ABSOLUTE, b->board, ids, 2,
                          "board %d: #%d and #%d both must have %s (absolute colour preference)",
                          b->board, b->white, b->black, w->pref == P_WHITE ? "White" : "Black");
            continue;
        }
        if (same_abs)
            continue; /* the topscorer exception: counted with C10 */
        int bad[2], nb = 0;
        if (w->abspref && w->pref == P_BLACK)
            bad[nb++] = b->white;
        if (k->abspref && k->pref == P_WHITE)
            bad[nb++] = b->black;
        if (nb == 2)
            rc = item_add(c, "C3", PC_ABSOLUTE, b->board, bad, nb,
                          "board %d: colours swapped against the absolute colour preferences of "
                          "#%d and #%d", b->board, bad[0], bad[1]);
        else if (nb)
            rc = item_add(c, "C3", PC_ABSOLUTE, b->board, bad, nb,
                          "board %d: #%d gets the wrong colour for an absolute colour preference "
                          "(colour difference beyond 2 or three times the same colour)",
                          b->board, bad[0]);
    }
    return rc;
}

static int check_byes(Ctx *c, const PcProposal *prop)
{
    int rc = 0, pabs[PC_MAX_ITEM_PLAYERS], np = 0, total = 0;
    for (int i = 0; i < prop->n_byes && !rc; i++) {
        const PcBye *y = &prop->byes[i];
        Info *in = info(c, y->player);
        if (y->kind != TRN_RES_PAB || !in)
            continue;
        total++;
        if (np < PC_MAX_ITEM_PLAYERS)
            pabs[np++] = y->player;
        if (!in->elig)
            rc = item_add(c, "C2", PC_ABSOLUTE, 0, &y->player, 1,
                          "#%d already had a pairing-allocated bye or a win's points without "
                          "playing and may not get the bye",
                          y->player);
    }
    if (!rc && total > 1)
        rc = item_add(c, "PAB", PC_ABSOLUTE, 0, pabs, np,
                      "%d pairing-allocated byes in one round (at most one)", total);
    return rc;
}

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

enum { Q10, Q12, Q13, NQ };

/* One bracket of one pairing. */
typedef struct BStat {
    int ndown;
    int *down; /* the downfloaters, score descending then start rank */
    long val[NQ]; /* C10 pairs, C12 and C13 players, over the pairs made here */
    int n_who[NQ], who[NQ][PC_MAX_ITEM_PLAYERS];
} BStat;

/* The score of the bracket in which ID's pair is made; false for the PAB. */
static bool pair_level(Ctx *c, const Side *s, int id, TrnPoints *lvl)
{
    int o = s->opp[id];
    Info *me = info(c, id), *oi = o > 0 ? info(c, o) : NULL;
    if (!me || !oi)
        return false;
    *lvl = me->score < oi->score ? me->score : oi->score;
    return true;
}

static void who_add(BStat *st, int k, int id, int count)
{
    st->val[k] += count;
    if (st->n_who[k] < PC_MAX_ITEM_PLAYERS)
        st->who[k][st->n_who[k]++] = id;
}

/* LAST: the lowest bracket, whose unpaired player is the PAB receiver,
 * judged by C5 and not as a downfloater */
static void bracket_stat(Ctx *c, const Side *s, TrnPoints score, bool last, BStat *st)
{
    st->ndown = 0;
    memset(st->val, 0, sizeof st->val);
    memset(st->n_who, 0, sizeof st->n_who);
    for (int id = 1; id <= c->max_id; id++) {
        Info *in = info(c, id);
        if (!in || !s->opp[id] || in->score < score)
            continue;
        TrnPoints lvl = 0;
        bool paired = pair_level(c, s, id, &lvl);
        if (!paired && last)
            continue;
        if (!paired || lvl < score) {
            /* ids come in ascending order: insert by score only */
            int k = st->ndown++;
            while (k > 0 && info(c, st->down[k - 1])->score < in->score) {
                st->down[k] = st->down[k - 1];
                k--;
            }
            st->down[k] = id;
            continue;
        }
        if (lvl > score || s->col[id] != P_WHITE)
            continue; /* paired above, or counted from White's side */
        int bid = s->opp[id];
        Info *k = info(c, bid);
        bool same_abs = in->abspref && k->abspref && in->pref == k->pref;
        if (same_abs && (in->top || k->top)) {
            who_add(st, Q10, id, 1);
            who_add(st, Q10, bid, 0);
        }
        if (in->pref == P_BLACK)
            who_add(st, Q12, id, 1);
        if (k->pref == P_WHITE)
            who_add(st, Q12, bid, 1);
        if (in->pref == P_BLACK && (in->strong || in->abspref))
            who_add(st, Q13, id, 1);
        if (k->pref == P_WHITE && (k->strong || k->abspref))
            who_add(st, Q13, bid, 1);
    }
}

/* > 0 when the players A (score descending) score more than B, first
 * difference from the top, or are more with the same scores (C7). */
static int scores_cmp(Ctx *c, const int *a, int na, const int *b, int nb, int *at)
{
    for (int i = 0; i < na && i < nb; i++) {
        TrnPoints x = info(c, a[i])->score, y = info(c, b[i])->score;
        if (x != y) {
            *at = i;
            return x > y ? 1 : -1;
        }
    }
    *at = 0;
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
            points_text(info(c, ids[i])->score, p, sizeof p);
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
    PcItem *it = &c->rep->items[c->rep->n_items - 1];
    it->in_bracket = true;
    it->bracket = bracket;
    it->value = value;
    it->engine_value = engine_value;
}

static int side_fill(Ctx *c, Side *s, const PcProposal *prop, const DutchPairing *e)
{
    s->opp = calloc((size_t)c->max_id + 1, sizeof *s->opp);
    s->col = calloc((size_t)c->max_id + 1, 1);
    if (!s->opp || !s->col)
        return -ENOMEM;
    int n = prop ? prop->n_boards : e->n_pairs;
    for (int i = 0; i < n; i++) {
        int w = prop ? prop->boards[i].white : e->pairs[i].white;
        int b = prop ? prop->boards[i].black : e->pairs[i].black;
        if (!info(c, w) || (b && !info(c, b)) || w == b)
            continue;
        s->opp[w] = b ? b : -1;
        s->col[w] = b ? P_WHITE : P_NONE;
        if (b) {
            s->opp[b] = w;
            s->col[b] = P_BLACK;
        }
    }
    for (int i = 0; prop && i < prop->n_byes; i++)
        if (prop->byes[i].kind == TRN_RES_PAB && info(c, prop->byes[i].player))
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
        if (info(c, id) && (s[0].opp[id] || s[1].opp[id]))
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
    Info *x = info(c, a), *y = info(c, b);
    if (met_before(c, a, b) || tournament_is_forbidden(c->t, a, b, c->round))
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
static int ahead_left(Ctx *c, const Side *s, const BStat *st, TrnPoints next, Ahead *A,
                      int *left)
{
    int n = 0, nb, *v = A->vert;
    for (int i = 0; i < st->ndown; i++)
        v[n++] = st->down[i];
    for (int id = 1; id <= c->max_id; id++)
        if (info(c, id) && s->opp[id] && c->in[id].score == next)
            v[n++] = id;
    nb = n;
    for (int id = 1; id <= c->max_id; id++)
        if (info(c, id) && s->opp[id] && c->in[id].score < next)
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
static int compare_lookahead(Ctx *c, const Side *s, const BStat *st, TrnPoints here,
                             TrnPoints next, Ahead *A)
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
    int rc = item_add(c, "C8", PC_QUALITY, 0, st[0].down, st[0].ndown,
                      "in the %s-point bracket the edit floats %s down, after which the "
                      "%s-point bracket leaves at best %s over; after the engine's %s: %s",
                      br, a, nx, la, b, lb);
    if (!rc)
        item_mark(c, here, nl[0], nl[1]);
    return rc;
}

/* C5: the PAB to a player with more points than the engine's receiver */
static int compare_pab(Ctx *c, const Side *s)
{
    int who[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int id = 1; id <= c->max_id && !who[k]; id++)
            if (s[k].opp[id] == -1)
                who[k] = id;
    if (!who[0] || !who[1] || c->in[who[0]].score <= c->in[who[1]].score)
        return 0;
    char a[16], b[16];
    points_text(c->in[who[0]].score, a, sizeof a);
    points_text(c->in[who[1]].score, b, sizeof b);
    int rc = item_add(c, "C5", PC_QUALITY, 0, &who[0], 1,
                      "the bye goes to #%d with %s point%s; the engine's to a player with %s",
                      who[0], a, c->in[who[0]].score == TRN_POINT ? "" : "s", b);
    if (!rc) {
        c->rep->items[c->rep->n_items - 1].value = c->in[who[0]].score;
        c->rep->items[c->rep->n_items - 1].engine_value = c->in[who[1]].score;
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
    static const char *const code[NQ] = {"C10", "C12", "C13"};
    static const char *const what[NQ] = {
        "topscorer pairs in which both must have the same colour",
        "players without their colour preference",
        "players without their strong or absolute colour preference"};
    size_t n = (size_t)c->max_id + 1;
    TrnPoints *sg = calloc(n, sizeof *sg);
    BStat st[2] = {{.down = calloc(n, sizeof(int))}, {.down = calloc(n, sizeof(int))}};
    int *buf = calloc(5 * n, sizeof *buf), rc = 0;
    Ahead A = {buf, buf + n, buf + 2 * n, {buf + 3 * n, buf + 4 * n}, -1};
    if (!sg || !st[0].down || !st[1].down || !buf) {
        rc = -ENOMEM;
        goto done;
    }
    for (int id = 1; id <= c->max_id; id++)
        if (s[1].opp[id] == -1)
            A.bye_score = c->in[id].score;
    bool seen6 = false, seen7 = false, seen8 = false, seen[NQ] = {false};
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
            rc = item_add(c, "C6", PC_QUALITY, 0, st[0].down, st[0].ndown,
                          "in the %s-point bracket the edit leaves %d downfloaters (%s) where "
                          "the engine's pairing leaves %d%s%s%s",
                          br, st[0].ndown, a, st[1].ndown, st[1].ndown ? " (" : "",
                          st[1].ndown ? b : "", st[1].ndown ? ")" : "");
            if (!rc)
                item_mark(c, sg[g], st[0].ndown, st[1].ndown);
        } else if (!seen7 && st[0].ndown == st[1].ndown && d > 0) {
            seen7 = true;
            ids_text(c, st[0].down, st[0].ndown, true, a, sizeof a);
            ids_text(c, st[1].down, st[1].ndown, true, b, sizeof b);
            rc = item_add(c, "C7", PC_QUALITY, 0, st[0].down, st[0].ndown,
                          "in the %s-point bracket the edit's downfloaters have more points: "
                          "%s; the engine's: %s", br, a, b);
            if (!rc)
                item_mark(c, sg[g], info(c, st[0].down[at])->score,
                          info(c, st[1].down[at])->score);
        } else if (!seen8 && d == 0 && g + 1 < ng && !same_down(&st[0], &st[1])) {
            int before = c->rep->n_items;
            rc = compare_lookahead(c, s, st, sg[g], sg[g + 1], &A);
            seen8 = c->rep->n_items > before;
        }
        for (int k = 0; k < NQ && !rc; k++) {
            if (seen[k] || st[0].val[k] <= st[1].val[k])
                continue;
            seen[k] = true;
            ids_text(c, st[0].who[k], st[0].n_who[k], false, a, sizeof a);
            rc = item_add(c, code[k], PC_QUALITY, 0, st[0].who[k], st[0].n_who[k],
                          "in the %s-point bracket %s: %ld (%s); in the engine's pairing: %ld",
                          br, what[k], st[0].val[k], a, st[1].val[k]);
            if (!rc)
                item_mark(c, sg[g], st[0].val[k], st[1].val[k]);
        }
    }
done:
    free(sg);
    free(buf);
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

static int compare_engine(Ctx *c, const PcProposal *prop)
{
    PcReport *r = c->rep;
    char why[200] = "";
    int rc = dutch_pair_round(c->t, c->round, &r->engine, why, sizeof why);
    if (rc < 0)
        return rc;
    if (rc)
        return item_add(c, "ENGINE", PC_NOTE, 0, NULL, 0,
                        "the Dutch engine finds no pairing of this round%s%s", why[0] ? ": " : "",
                        why);
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

    Side s[2] = {{NULL, NULL}, {NULL, NULL}};
    rc = side_fill(c, &s[0], prop, NULL);
    if (!rc)
        rc = side_fill(c, &s[1], NULL, &r->engine);
    if (!rc)
        rc = item_add(c, "ENGINE", PC_NOTE, 0, NULL, 0,
                      "the round differs from the Dutch engine's pairing (a pairing program must "
                      "reproduce the published pairings)");
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

/* ---- round robin: the Berger table's round ---- */

/* True when the round's column of T already holds an unplayed game between
 * A and B (a forfeit the report writes without colours): its colours say
 * nothing about the table's. */
static bool unplayed_in_column(const Ctx *c, int a, int b)
{
    const TrnPlayer *pa = tournament_player(c->t, a), *pb = tournament_player(c->t, b);
    if (!pa || !pb)
        return false;
    const TrnGame *ga = game_of(pa, c->round), *gb = game_of(pb, c->round);
    return ga->opponent == b && gb->opponent == a && !played(ga) && !played(gb);
}

/* The scheduled opponent of ID in the table TB (NB boards): 0 when free,
 * -1 when ID is not in it. */
static int table_opponent(const BergerBoard *tb, int nb, int id)
{
    for (int k = 0; k < nb; k++) {
        if (tb[k].white == id)
            return tb[k].black;
        if (tb[k].black == id)
            return tb[k].white;
    }
    return -1;
}

/* A forfeit win without a game stands for the game the table gives: the
 * scheduled opponent must be absent (requested bye) or withdrawn. */
static int check_forfeit(Ctx *c, const PcBye *y, const BergerBoard *tb, int nb)
{
    int opp = table_opponent(tb, nb, y->player);
    if (opp <= 0)
        return item_add(c, "BERGER", PC_ABSOLUTE, 0, &y->player, 1,
                        "#%d wins by forfeit but has no game in round %d of the Berger table",
                        y->player, c->round);
    const Info *o = info(c, opp);
    if (o && (o->absent || o->withdrawn))
        return 0;
    int ids[2] = {y->player, opp};
    return item_add(c, "BERGER", PC_ABSOLUTE, 0, ids, 2,
                    "#%d wins by forfeit, but the scheduled opponent #%d is not absent",
                    y->player, opp);
}

static int check_berger(Ctx *c, const PcProposal *prop, int flags)
{
    int np = c->t->n_players;
    BergerBoard tb[BERGER_MAX_BOARDS];
    int nb = berger_round(np, c->round, flags, tb);
    if (nb < 0)
        return item_add(c, "BERGER", PC_NOTE, 0, NULL, 0,
                        "round %d is not in the Berger table of %d players", c->round, np);
    int rc = 0;
    for (int i = 0; i < prop->n_boards && !rc; i++) {
        const PcBoard *b = &prop->boards[i];
        int ids[2] = {b->white, b->black};
        int found = 0;
        for (int k = 0; k < nb; k++) {
            if (tb[k].white == b->white && tb[k].black == b->black)
                found = 1;
            else if (tb[k].white == b->black && tb[k].black == b->white)
                found = 2;
            if (found)
                break;
        }
        if (found == 2 && !unplayed_in_column(c, b->white, b->black))
            rc = item_add(c, "BERGER", PC_ABSOLUTE, b->board, ids, 2,
                          "board %d: the Berger table gives White to #%d, not #%d", b->board,
                          b->black, b->white);
        else if (!found)
            rc = item_add(c, "BERGER", PC_ABSOLUTE, b->board, ids, 2,
                          "board %d: #%d and #%d do not meet in round %d of the Berger table",
                          b->board, b->white, b->black, c->round);
    }
    for (int i = 0; i < prop->n_byes && !rc; i++) {
        const PcBye *y = &prop->byes[i];
        if (y->kind == TRN_RES_FORFEIT_WIN && info(c, y->player)) {
            rc = check_forfeit(c, y, tb, nb);
            continue;
        }
        if (y->kind != TRN_RES_PAB)
            continue;
        int ok = 0;
        for (int k = 0; k < nb; k++)
            ok |= (tb[k].white == y->player && !tb[k].black) ||
                  (tb[k].black == y->player && !tb[k].white);
        if (!ok)
            rc = item_add(c, "BERGER", PC_ABSOLUTE, 0, &y->player, 1,
                          "#%d is not the player free in round %d of the Berger table",
                          y->player, c->round);
    }
    return rc;
}

int pc_check(const Tournament *t, int round, const PcProposal *prop, const PcOptions *opt,
             PcReport *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (round < 1 || round > TRN_MAX_ROUNDS) {
        snprintf(err, errlen, "round %d is out of range", round);
        return PC_E_INPUT;
    }
    if (opt->system != PC_SWISS && opt->system != PC_ROUNDROBIN) {
        snprintf(err, errlen, "unknown pairing system");
        return PC_E_INPUT;
    }
    Ctx c = {.t = t, .round = round, .rep = out};
    int rc = setup(&c, opt);
    bool swiss = opt->system == PC_SWISS;
    if (!rc)
        rc = check_presence(&c, prop, swiss);
    if (!rc && swiss)
        rc = check_swiss_boards(&c, prop);
    if (!rc && swiss)
        rc = check_byes(&c, prop);
    if (!rc && !swiss)
        rc = check_berger(&c, prop, opt->berger_flags);
    if (!rc && swiss && opt->compare_engine)
        rc = compare_engine(&c, prop);
    free(c.in);
    if (rc)
        pc_report_free(out);
    return rc;
}

void pc_report_free(PcReport *r)
{
    if (!r)
        return;
    free(r->items);
    dutch_pairing_free(&r->engine);
    memset(r, 0, sizeof *r);
}

bool pc_report_has_absolute(const PcReport *r)
{
    for (int i = 0; i < r->n_items; i++)
        if (r->items[i].kind == PC_ABSOLUTE)
            return true;
    return false;
}

int pc_proposal_from_round(const Tournament *t, int round, PcProposal *out)
{
    memset(out, 0, sizeof *out);
    out->boards = calloc((size_t)t->n_players / 2 + 1, sizeof *out->boards);
    out->byes = calloc((size_t)t->n_players + 1, sizeof *out->byes);
    if (!out->boards || !out->byes) {
        pc_proposal_free(out);
        return -ENOMEM;
    }
    /* players[] is in file order; boards follow the White player's rank */
    for (int id = 1; id <= TRN_MAX_PLAYERS; id++) {
        const TrnPlayer *p = tournament_player(t, id);
        if (!p)
            continue;
        const TrnGame *g = game_of(p, round);
        if (g->opponent) {
            bool white = g->colour == TRN_WHITE || (g->colour != TRN_BLACK && id < g->opponent);
            if (white && out->n_boards < t->n_players / 2) {
                out->boards[out->n_boards] = (PcBoard){out->n_boards + 1, id, g->opponent};
                out->n_boards++;
            }
        } else if (g->result == TRN_RES_PAB || g->result == TRN_RES_FORFEIT_WIN) {
            out->byes[out->n_byes++] = (PcBye){id, g->result};
        }
    }
    return 0;
}

void pc_proposal_free(PcProposal *p)
{
    if (!p)
        return;
    free(p->boards);
    free(p->byes);
    memset(p, 0, sizeof *p);
}
