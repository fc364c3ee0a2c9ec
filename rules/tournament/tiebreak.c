/*
 * tiebreak.c — standings and C.07 tie-breaks (see tiebreak.h).
 *
 * The tournament is first flattened into a players x rounds grid of Cells
 * (opponent index, points, played or not, voluntarily unplayed or not).
 * Every tie-break except DE is then a function of that grid and is computed
 * for all players; DE depends on who is tied, so it is computed while the
 * ranking splits the groups of tied players, tie-break by tie-break.
 */
#include "tiebreak.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- B.02 tables, typed from the FIDE Handbook (Rating Regulations 8.1) ---- */

/* 8.1.1: dp for p = .50, .51, ... 1.00 (lower p: the negative mirror). */
static const int16_t DP_TABLE[51] = {
    0,   7,   14,  21,  29,  36,  43,  50,  57,  65,  72,  80,  87,  95,  102, 110, 117,
    125, 133, 141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273,
    284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
};

/* 8.1.2: largest rating difference D for which the higher-rated player's PD is .50, .51, ... .99.
 */
static const int16_t PD_UPPER[50] = {
    3,   10,  17,  25,  32,  39,  46,  53,  61,  68,  76,  83,  91,  98,  106, 113, 121,
    129, 137, 145, 153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278,
    290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
};

int tiebreak_dp(int p)
{
    if (p < 0)
        p = 0;
    if (p > 100)
        p = 100;
    return p >= 50 ? DP_TABLE[p - 50] : -DP_TABLE[50 - p];
}

int tiebreak_expected(int diff)
{
    int d = diff < 0 ? -diff : diff;
    int pd = 100;
    for (int i = 0; i < 50; i++)
        if (d <= PD_UPPER[i]) {
            pd = 50 + i;
            break;
        }
    return diff < 0 ? 100 - pd : pd;
}

/* ---- names and parsing ---- */

static const char *const NAMES[TB_N_CODES] = {
    "PTS", "DE", "WIN", "WON", "BPG", "BWG",  "PS",   "REP", "BH",  "FB",   "AOB",
    "SB",  "KS", "ARO", "TPR", "PTP", "APRO", "APPO", "STD", "TPN", "RTNG",
};

bool tiebreak_higher_is_better(TbCode code)
{
    return code != TB_TPN;
}

void tiebreak_spec_name(const TbSpec *s, char *buf, size_t len)
{
    char mod[48] = "";
    if (s->cut_low && s->cut_low == s->cut_high)
        snprintf(mod, sizeof mod, "/M%d", s->cut_low);
    else if (s->cut_low)
        snprintf(mod, sizeof mod, "/C%d", s->cut_low);
    if (s->code == TB_KS && s->limit_percent != 50)
        snprintf(mod + strlen(mod), sizeof mod - strlen(mod), "/L%d", s->limit_percent);
    if (s->code == TB_KS && s->limit_delta)
        snprintf(mod + strlen(mod), sizeof mod - strlen(mod), "/L%c%d",
                 s->limit_delta > 0 ? '+' : '-',
                 (s->limit_delta > 0 ? s->limit_delta : -s->limit_delta) / (TRN_POINT / 2));
    if (s->as_played)
        snprintf(mod + strlen(mod), sizeof mod - strlen(mod), "/P");
    if (s->fore && s->code != TB_FB)
        snprintf(mod + strlen(mod), sizeof mod - strlen(mod), "/F");
    snprintf(buf, len, "%s%s", NAMES[s->code], mod);
}

/* Parses one modifier ("C1", "M2", "L+1", "L60", "P") into s. */
static int parse_modifier(const char *m, TbSpec *s)
{
    char c = (char)toupper((unsigned char)m[0]);
    const char *rest = m + 1;
    char *end;
    if (c == 'C' || c == 'M') {
        long v = strtol(rest, &end, 10);
        if (*end || end == rest || v < 0 || v > TRN_MAX_ROUNDS)
            return -1;
        s->cut_low = (int)v;
        s->cut_high = c == 'M' ? (int)v : 0;
        return 0;
    }
    if (c == 'L' && s->code == TB_KS) {
        if (*rest == '+' || *rest == '-') {
            long v = strtol(rest + 1, &end, 10);
            if (*end || end == rest + 1 || v > 1000)
                return -1;
            s->limit_delta = (TrnPoints)((*rest == '-' ? -v : v) * (TRN_POINT / 2));
        } else {
            long v = strtol(rest, &end, 10);
            if (*end || end == rest || v < 0 || v > 100)
                return -1;
            s->limit_percent = (int)v;
        }
        return 0;
    }
    if (c == 'P' && !*rest) {
        s->as_played = true;
        return 0;
    }
    /* Fore (TEC syntax): BH/F is FB, AOB/F averages the opponents' FB
     * (C.07 2026, 8.2).  SB has no such definition in the Handbook. */
    if (c == 'F' && !*rest && (s->code == TB_BH || s->code == TB_FB || s->code == TB_AOB)) {
        s->fore = true;
        return 0;
    }
    return -1;
}

/* Parses one item such as "BH/C1", "BH-C1" or "KS/L+1/P". */
static int parse_item(char *item, TbSpec *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->limit_percent = 50;
    size_t nl = strcspn(item, "/-#!:");
    char name[16];
    if (nl == 0 || nl >= sizeof name) {
        snprintf(err, errlen, "'%s' is not a tie-break", item);
        return TIEBREAK_E_SYNTAX;
    }
    memcpy(name, item, nl);
    name[nl] = '\0';
    int code = -1;
    for (int i = 0; i < TB_N_CODES; i++)
        if (strcasecmp(name, NAMES[i]) == 0)
            code = i;
    if (strcasecmp(name, "GE") == 0)
        code = TB_REP;
    if (strcasecmp(name, "BC") == 0 || strcasecmp(name, "MPTS") == 0)
        code = -1;
    if (code < 0) {
        snprintf(err, errlen, "unknown tie-break '%s'", name);
        return TIEBREAK_E_SYNTAX;
    }
    s->code = (TbCode)code;
    char *p = item + nl;
    if (*p == ':') {
        /* TEC point type: game points are the only points of an individual
         * event; match points (MP) belong to team events. */
        size_t tl = strcspn(p + 1, "/-#!");
        if (tl != 2 || strncasecmp(p + 1, "GP", 2) != 0) {
            snprintf(err, errlen, "'%s': only game points (:GP) exist in an individual event",
                     item);
            return TIEBREAK_E_SYNTAX;
        }
        p += 3;
    }
    while (*p) {
        p++; /* the separator */
        size_t ml = strcspn(p, "/#!");
        /* "KS-L+1" and "BH-C1": after the first '-' no further '-' splits. */
        char mod[16];
        if (ml == 0 || ml >= sizeof mod) {
            snprintf(err, errlen, "empty or long modifier in '%s'", item);
            return TIEBREAK_E_SYNTAX;
        }
        memcpy(mod, p, ml);
        mod[ml] = '\0';
        if (parse_modifier(mod, s)) {
            snprintf(err, errlen, "modifier '%s' does not apply to %s", mod, NAMES[code]);
            return TIEBREAK_E_SYNTAX;
        }
        p += ml;
    }
    return 0;
}

int tiebreak_parse(const char *text, TbSpec *specs, int max, int *n, char *err, size_t errlen)
{
    char buf[512];
    *n = 0;
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errlen, "tie-break list longer than %zu characters", sizeof buf - 1);
        return TIEBREAK_E_SYNTAX;
    }
    strcpy(buf, text);
    char *save = NULL;
    for (char *item = strtok_r(buf, ", ;\t\r\n", &save); item;
         item = strtok_r(NULL, ", ;\t\r\n", &save)) {
        if (*n >= max) {
            snprintf(err, errlen, "more than %d tie-breaks", max);
            return TIEBREAK_E_SYNTAX;
        }
        int rc = parse_item(item, &specs[*n], err, errlen);
        if (rc)
            return rc;
        (*n)++;
    }
    return 0;
}

/* ---- the grid ---- */

typedef struct Cell {
    int opp;       /* index of the opponent, -1 = none */
    TrnPoints pts; /* points under the event's system */
    TrnPoints std; /* 1, 0.5, 0 by result class (rating and STD) */
    bool played;   /* over the board: 1 = 0 W D L with an opponent */
    bool vur;      /* voluntarily unplayed round: H, Z, forfeit loss, blank */
    bool black;
    bool win; /* won over the board, or unplayed with a win's points */
} Cell;

typedef struct Ctx {
    const Tournament *t;
    const TbOptions *opt;
    int n, R;
    TrnPoints W, D;
    Cell *cells;      /* n * R */
    TrnPoints *score; /* total points */
    int *lna;         /* last round (1-based) that is not a VUR, 0 = none */
    bool all_rated;
} Ctx;

static Cell *cell(const Ctx *c, int i, int r)
{
    return &c->cells[(size_t)i * (size_t)c->R + (size_t)r];
}

static TrnPoints std_points(char res)
{
    if (res && strchr("1+WFU", res))
        return TRN_POINT;
    if (res && strchr("=DH", res))
        return TRN_POINT / 2;
    return 0;
}

static int build(Ctx *c)
{
    const Tournament *t = c->t;
    c->n = t->n_players;
    c->R =
        c->opt->rounds > 0 && c->opt->rounds < t->rounds_played ? c->opt->rounds : t->rounds_played;
    c->W = t->points.win_white;
    c->D = t->points.draw_white;
    size_t cells = (size_t)c->n * (size_t)(c->R ? c->R : 1);
    c->cells = calloc(cells, sizeof *c->cells);
    c->score = calloc((size_t)c->n, sizeof *c->score);
    c->lna = calloc((size_t)c->n, sizeof *c->lna);
    if (!c->cells || !c->score || !c->lna)
        return -ENOMEM;
    c->all_rated = true;
    for (int i = 0; i < c->n; i++) {
        const TrnPlayer *p = &t->players[i];
        if (!p->rating)
            c->all_rated = false;
        for (int r = 0; r < c->R; r++) {
            const TrnGame *g = &p->games[r];
            Cell *x = cell(c, i, r);
            x->opp = -1;
            if (g->opponent && t->index_of[g->opponent])
                x->opp = t->index_of[g->opponent] - 1;
            x->pts = tournament_result_points(&t->points, g->result, (TrnColour)g->colour);
            x->std = std_points(g->result);
            x->played = x->opp >= 0 && tournament_result_is_played(g->result);
            x->black = g->colour == TRN_BLACK;
            /* A game won over the board is a win whatever it is worth (XXS
             * may value Black's wins apart); an unplayed round is one when
             * it brought a win's points (C.07 7.1). */
            x->win = x->played ? (g->result == TRN_RES_WIN || g->result == TRN_RES_UNRATED_WIN)
                               : x->pts == c->W;
            x->vur = !x->played && !(g->result && strchr("+FU", g->result));
            c->score[i] += x->pts;
            if (!x->vur)
                c->lna[i] = r + 1;
        }
    }
    return 0;
}

/* Whether round r of player i counts as a game for BH/SB/DE under spec s. */
static bool counts_played(const Ctx *c, const TbSpec *s, int i, int r)
{
    const Cell *x = cell(c, i, r);
    if (x->played)
        return true;
    return x->opp >= 0 && (s->as_played || c->opt->round_robin);
}

/*
 * Score of player j as seen by opponents.  fore: FB, the final round
 * counted as a draw when j had an opponent in it.
 */
static TrnPoints adjusted_score(const Ctx *c, int j, bool fore)
{
    TrnPoints s = 0;
    int last = c->R - 1;
    bool fore_j = fore && c->R > 0 && (cell(c, j, last)->opp >= 0 || cell(c, j, last)->played);
    for (int r = 0; r < c->R; r++) {
        const Cell *x = cell(c, j, r);
        TrnPoints v;
        if (c->opt->edition == TB_EDITION_2009)
            v = x->played ? x->pts : c->D; /* every unplayed round as a draw */
        else if (r + 1 <= c->lna[j] || x->opp >= 0 || fore_j)
            v = x->pts;
        else
            v = c->opt->round_robin ? 0 : c->D;
        if (fore_j && r == last)
            v = c->D;
        s += v;
    }
    return s;
}

typedef struct Entry {
    TrnPoints score; /* the opponent's (or dummy's) score, tenths */
    int64_t value;   /* contribution, hundredths */
    bool vur;
} Entry;

/* Least significant first: by score, then value; the earlier round wins ties. */
static int least(const Entry *e, int n, bool vur_first)
{
    int best = -1;
    for (int k = 0; k < n; k++) {
        if (best < 0) {
            best = k;
            continue;
        }
        const Entry *a = &e[k], *b = &e[best];
        if (vur_first && a->vur != b->vur) {
            if (a->vur)
                best = k;
            continue;
        }
        if (a->score < b->score || (a->score == b->score && a->value < b->value))
            best = k;
    }
    return best;
}

static int most(const Entry *e, int n)
{
    int best = -1;
    for (int k = 0; k < n; k++)
        if (best < 0 || e[k].score > e[best].score ||
            (e[k].score == e[best].score && e[k].value > e[best].value))
            best = k;
    return best;
}

static void drop(Entry *e, int *n, int k)
{
    memmove(&e[k], &e[k + 1], (size_t)(*n - k - 1) * sizeof *e);
    (*n)--;
}

/* Applies Cut/Median to the entries and sums what is left. */
static int64_t cut_sum(Entry *e, int n, const TbSpec *s, int rounds)
{
    int low = s->cut_low > rounds ? rounds : s->cut_low;
    int high = s->cut_high;
    if (low + high > rounds)
        high = rounds - low;
    for (; low > 0 && n > 0; low--) {
        int a = least(e, n, false), b = least(e, n, true);
        /* A VUR goes first, unless the least significant value is larger (SB). */
        drop(e, &n, e[a].value > e[b].value ? a : b);
    }
    for (; high > 0 && n > 0; high--)
        drop(e, &n, most(e, n));
    int64_t sum = 0;
    for (int k = 0; k < n; k++)
        sum += e[k].value;
    return sum;
}

/* BH, FB, SB for every player into out[]. */
static int buchholz(const Ctx *c, const TbSpec *s, int64_t *out)
{
    /* FB treats the final round's games as draws; before the final round of
     * the event (line 142 / XXR) has been reached there is nothing to treat. */
    bool fore = (s->code == TB_FB || s->fore) && (c->t->n_rounds == 0 || c->R >= c->t->n_rounds);
    bool sb = s->code == TB_SB;
    TrnPoints *adj = malloc((size_t)c->n * sizeof *adj);
    Entry *e = malloc((size_t)(c->R ? c->R : 1) * sizeof *e);
    if (!adj || !e) {
        free(adj);
        free(e);
        return -ENOMEM;
    }
    for (int j = 0; j < c->n; j++)
        adj[j] = adjusted_score(c, j, fore);
    int last = c->R - 1;
    for (int i = 0; i < c->n; i++) {
        bool fore_i = fore && c->R > 0 && cell(c, i, last)->opp >= 0;
        TrnPoints own = c->score[i];
        if (fore_i)
            own += c->D - cell(c, i, last)->pts;
        int m = 0;
        TrnPoints before = 0;
        for (int r = 0; r < c->R; r++) {
            const Cell *x = cell(c, i, r);
            bool played = counts_played(c, s, i, r) || (fore_i && r == last);
            Entry en = {0, 0, x->vur};
            if (played && x->opp >= 0) {
                en.score = adj[x->opp];
                en.vur = false;
            } else if (c->opt->round_robin) {
                en.score = 0;
            } else if (c->opt->edition == TB_EDITION_2009) {
                /* Virtual opponent: our score before, the opposite result, then draws. */
                en.score = before + (c->W - x->pts) + c->D * (c->R - r - 1);
                en.vur = false;
            } else {
                en.score = own;
                if (c->opt->edition == TB_EDITION_2026) {
                    TrnPoints cap = x->opp >= 0 ? adj[x->opp] : c->D * c->R;
                    if (en.score > cap)
                        en.score = cap;
                }
            }
            TrnPoints mine = (fore_i && r == last) ? c->D : x->pts;
            en.value = sb ? (int64_t)en.score * mine : (int64_t)en.score * (TB_SCALE / TRN_POINT);
            before += x->pts;
            if (x->opp >= 0 || !c->opt->round_robin)
                e[m++] = en;
        }
        out[i] = cut_sum(e, m, s, c->R);
    }
    free(adj);
    free(e);
    return 0;
}

/* Opponents' ratings and our rated score over played games, cuts applied. */
typedef struct Perf {
    int n;
    int ratings[TRN_MAX_ROUNDS];
    TrnPoints score; /* standard points, tenths */
} Perf;

typedef struct RatedGame {
    int rating;
    TrnPoints pts;
} RatedGame;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static bool perf_of(const Ctx *c, const TbSpec *s, int i, Perf *pf)
{
    if (!c->all_rated && !c->opt->unrated_rating)
        return false;
    RatedGame g[TRN_MAX_ROUNDS];
    int n = 0;
    for (int r = 0; r < c->R; r++) {
        const Cell *x = cell(c, i, r);
        if (!x->played)
            continue;
        int rt = c->t->players[x->opp].rating;
        g[n].rating = rt ? rt : c->opt->unrated_rating;
        g[n].pts = x->std;
        n++;
    }
    /* Sort by rating to cut the lowest / highest rated opponents. */
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && g[b].rating < g[b - 1].rating; b--) {
            RatedGame tmp = g[b];
            g[b] = g[b - 1];
            g[b - 1] = tmp;
        }
    int lo = s->cut_low, hi = s->cut_high;
    if (lo > n)
        lo = n;
    if (hi > n - lo)
        hi = n - lo;
    pf->n = 0;
    pf->score = 0;
    for (int k = lo; k < n - hi; k++) {
        pf->ratings[pf->n++] = g[k].rating;
        pf->score += g[k].pts;
    }
    qsort(pf->ratings, (size_t)pf->n, sizeof pf->ratings[0], cmp_int);
    return pf->n > 0;
}

static int aro(const Perf *pf)
{
    long sum = 0;
    for (int k = 0; k < pf->n; k++)
        sum += pf->ratings[k];
    return (int)((2 * sum + pf->n) / (2 * pf->n)); /* half up */
}

static int tpr(const Perf *pf)
{
    int p = (int)((2L * pf->score * 10 + pf->n) / (2L * pf->n)); /* hundredths, half up */
    return aro(pf) + tiebreak_dp(p);
}

static int ptp(const Perf *pf)
{
    if (pf->score == 0)
        return pf->ratings[0] - 800;
    long target = (long)pf->score * 10; /* hundredths */
    if (target > 100L * pf->n)
        return pf->ratings[pf->n - 1] + 800;
    /* Expected score grows with R: find the lowest R reaching the target. */
    int lo = pf->ratings[0] - 1000, hi = pf->ratings[pf->n - 1] + 1000;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        long e = 0;
        for (int k = 0; k < pf->n; k++)
            e += tiebreak_expected(mid - pf->ratings[k]);
        if (e >= target)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* Value of a non-DE tie-break for every player; valid[i] false if undefined. */
static int compute(const Ctx *c, const TbSpec *s, int64_t *v, bool *valid)
{
    for (int i = 0; i < c->n; i++)
        valid[i] = true;
    switch (s->code) {
    case TB_BH:
    case TB_FB:
    case TB_SB: return buchholz(c, s, v);
    case TB_AOB: {
        TbSpec bh = *s;
        bh.code = TB_BH;
        int64_t *b = malloc((size_t)c->n * sizeof *b);
        if (!b)
            return -ENOMEM;
        int rc = buchholz(c, &bh, b);
        for (int i = 0; i < c->n && rc == 0; i++) {
            int64_t sum = 0;
            int num = 0;
            for (int r = 0; r < c->R; r++)
                if (cell(c, i, r)->played) {
                    sum += b[cell(c, i, r)->opp];
                    num++;
                }
            valid[i] = num > 0;
            v[i] = num ? (2 * sum + num) / (2 * num) : 0;
        }
        free(b);
        return rc;
    }
    case TB_ARO:
    case TB_TPR:
    case TB_PTP:
        for (int i = 0; i < c->n; i++) {
            Perf pf;
            valid[i] = perf_of(c, s, i, &pf);
            int x = !valid[i]           ? 0
                    : s->code == TB_ARO ? aro(&pf)
                    : s->code == TB_TPR ? tpr(&pf)
                                        : ptp(&pf);
            v[i] = (int64_t)x * TB_SCALE;
        }
        return 0;
    case TB_APRO:
    case TB_APPO: {
        int *pr = malloc((size_t)c->n * sizeof *pr);
        bool *ok = malloc((size_t)c->n * sizeof *ok);
        if (!pr || !ok) {
            free(pr);
            free(ok);
            return -ENOMEM;
        }
        for (int j = 0; j < c->n; j++) {
            Perf pf;
            ok[j] = perf_of(c, s, j, &pf);
            pr[j] = !ok[j] ? 0 : s->code == TB_APRO ? tpr(&pf) : ptp(&pf);
        }
        for (int i = 0; i < c->n; i++) {
            long sum = 0;
            int num = 0;
            for (int r = 0; r < c->R; r++) {
                const Cell *x = cell(c, i, r);
                if (x->played && ok[x->opp]) {
                    sum += pr[x->opp];
                    num++;
                }
            }
            valid[i] = num > 0;
            v[i] = num ? (int64_t)((2 * sum + num) / (2 * num)) * TB_SCALE : 0;
        }
        free(pr);
        free(ok);
        return 0;
    }
    default: break;
    }
    /* KS: the most games anyone can play; in a round robin with an odd
     * number of players every cycle has one free round per player, and
     * entrants who never played lower it too. */
    long maxgames = c->R;
    if (c->opt->round_robin && c->n > 0) {
        if (c->R % c->n == 0)
            maxgames -= c->R / c->n;
        for (int j = 0; j < c->n; j++) {
            bool met = false;
            for (int r = 0; r < c->R; r++)
                met |= cell(c, j, r)->opp >= 0;
            maxgames -= !met;
        }
    }
    long lim100 = (long)s->limit_percent * c->W * maxgames + (long)s->limit_delta * 100;
    for (int i = 0; i < c->n; i++) {
        int64_t x = 0;
        const TrnPlayer *p = &c->t->players[i];
        TrnPoints running = 0;
        for (int r = 0; r < c->R; r++) {
            const Cell *cl = cell(c, i, r);
            running += cl->pts;
            switch (s->code) {
            case TB_PTS: x += cl->pts * (TB_SCALE / TRN_POINT); break;
            case TB_WIN: x += cl->win ? TB_SCALE : 0; break;
            case TB_WON: x += cl->win && cl->played ? TB_SCALE : 0; break;
            case TB_BPG: x += cl->black && cl->played ? TB_SCALE : 0; break;
            case TB_BWG: x += cl->black && cl->played && cl->win ? TB_SCALE : 0; break;
            case TB_REP:
                /* every round but half- and zero-point byes and forfeit losses */
                x += cl->played || (p->games[r].result && strchr("+FU", p->games[r].result))
                         ? TB_SCALE
                         : 0;
                break;
            case TB_PS:
                if (r >= s->cut_low)
                    x += running * (TB_SCALE / TRN_POINT);
                break;
            case TB_STD: x += cl->std * (TB_SCALE / TRN_POINT); break;
            case TB_KS:
                if (cl->opp >= 0 && (long)c->score[cl->opp] * 100 >= lim100)
                    x += cl->pts * (TB_SCALE / TRN_POINT);
                break;
            default: break;
            }
        }
        if (s->code == TB_TPN)
            x = (int64_t)p->id * TB_SCALE;
        if (s->code == TB_RTNG) {
            x = (int64_t)p->rating * TB_SCALE;
            valid[i] = c->all_rated || c->opt->unrated_rating;
            if (!p->rating)
                x = (int64_t)c->opt->unrated_rating * TB_SCALE;
        }
        v[i] = x;
    }
    return 0;
}

/* ---- ranking ---- */

typedef struct Ranker {
    const Ctx *c;
    const TbSpec *specs;
    int n_specs;
    int64_t *val; /* n_specs x n */
    bool *ok;
} Ranker;

/* Value and validity of spec k for player index i. */
static int64_t *V(const Ranker *rk, int k, int i)
{
    return &rk->val[(size_t)k * (size_t)rk->c->n + (size_t)i];
}

static bool *OK(const Ranker *rk, int k, int i)
{
    return &rk->ok[(size_t)k * (size_t)rk->c->n + (size_t)i];
}

/* DE points of each member of group g against the others; fills deval/demax. */
static void direct_encounter(const Ranker *rk, const TbSpec *s, const int *g, int m, int64_t *deval,
                             int64_t *demax, bool *met_all)
{
    const Ctx *c = rk->c;
    *met_all = true;
    for (int a = 0; a < m; a++) {
        int i = g[a];
        int64_t total = 0;
        int met = 0;
        for (int b = 0; b < m; b++) {
            if (b == a)
                continue;
            int64_t sum = 0;
            int cnt = 0;
            for (int r = 0; r < c->R; r++) {
                const Cell *x = cell(c, i, r);
                if (x->opp == g[b] && counts_played(c, s, i, r)) {
                    sum += x->pts * (TB_SCALE / TRN_POINT);
                    cnt++;
                }
            }
            if (cnt) {
                total += sum / cnt; /* repeated meetings are averaged */
                met++;
            }
        }
        deval[a] = total;
        demax[a] = total;
        if (met < m - 1 && !c->opt->round_robin) {
            *met_all = false;
            demax[a] = total + (int64_t)(m - 1 - met) * c->W * (TB_SCALE / TRN_POINT);
        }
    }
}

typedef struct SortItem {
    int64_t key;
    bool ok;
    int pos; /* position before sorting: keeps the sort stable */
    int player;
} SortItem;

static int cmp_item(const void *a, const void *b)
{
    const SortItem *x = a, *y = b;
    if (x->ok != y->ok)
        return x->ok ? -1 : 1; /* undefined values last */
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sorts g[0..m) by key descending, undefined last, stable. */
static int sort_by(int *g, int64_t *key, bool *ok, int m)
{
    SortItem *it = malloc((size_t)m * sizeof *it);
    if (!it)
        return -ENOMEM;
    for (int a = 0; a < m; a++)
        it[a] = (SortItem){key[a], ok[a], a, g[a]};
    qsort(it, (size_t)m, sizeof *it, cmp_item);
    for (int a = 0; a < m; a++) {
        g[a] = it[a].player;
        key[a] = it[a].key;
        ok[a] = it[a].ok;
    }
    free(it);
    return 0;
}

/*
 * Ranks group g (players tied on specs before k) by spec k onward; writes
 * boundaries: split[a] = true when g[a] ranks strictly below g[a-1].
 */
static int rank_group(Ranker *rk, int k, int *g, int m, bool *split, int depth)
{
    if (m <= 1 || k >= rk->n_specs)
        return 0;
    int rc = -ENOMEM;
    const TbSpec *s = &rk->specs[k];
    int64_t *keys = malloc((size_t)m * sizeof *keys);
    bool *ok = malloc((size_t)m * sizeof *ok);
    int64_t *demax = malloc((size_t)m * sizeof *demax);
    if (!keys || !ok || !demax)
        goto out;
    if (s->code == TB_DE) {
        bool met_all;
        direct_encounter(rk, s, g, m, keys, demax, &met_all);
        for (int a = 0; a < m; a++) {
            ok[a] = true;
            *V(rk, k, g[a]) = keys[a];
            *OK(rk, k, g[a]) = true;
        }
        if (!met_all) {
            /* Swiss: peel off leaders nobody below can catch any more. */
            int64_t *mx = demax;
            /* By DE points, then by the most they could still reach. */
            for (int a = 1; a < m; a++)
                for (int b = a; b > 0; b--) {
                    bool sw =
                        keys[b] > keys[b - 1] || (keys[b] == keys[b - 1] && mx[b] > mx[b - 1]);
                    if (!sw)
                        break;
                    int t = g[b];
                    g[b] = g[b - 1];
                    g[b - 1] = t;
                    int64_t x = keys[b];
                    keys[b] = keys[b - 1];
                    keys[b - 1] = x;
                    x = mx[b];
                    mx[b] = mx[b - 1];
                    mx[b - 1] = x;
                }
            int a = 1;
            for (; a < m; a++) {
                int64_t best_below = mx[a];
                for (int b = a + 1; b < m; b++)
                    if (mx[b] > best_below)
                        best_below = mx[b];
                if (keys[a - 1] > best_below)
                    split[a] = true;
                else
                    break;
            }
            /* g[0 .. a-2] rank alone; the rest stay tied on DE and go on. */
            if (m - (a - 1) > 1)
                rc = rank_group(rk, k + 1, g + (a - 1), m - (a - 1), split + (a - 1), depth);
            else
                rc = 0;
            goto out;
        }
    } else {
        for (int a = 0; a < m; a++) {
            keys[a] = *V(rk, k, g[a]);
            ok[a] = *OK(rk, k, g[a]);
            if (!tiebreak_higher_is_better(s->code))
                keys[a] = -keys[a];
        }
    }
    if (sort_by(g, keys, ok, m))
        goto out;
    int start = 0;
    for (int a = 1; a <= m; a++) {
        if (a < m && ok[a] == ok[start] && keys[a] == keys[start])
            continue;
        if (a < m)
            split[a] = true;
        int len = a - start;
        if (len > 1) {
            /* DE all met: re-apply DE to a smaller sub-tie before moving on. */
            if (s->code == TB_DE && len < m && depth < 32)
                rc = rank_group(rk, k, g + start, len, split + start, depth + 1);
            else
                rc = rank_group(rk, k + 1, g + start, len, split + start, depth);
            if (rc)
                goto out;
        }
        start = a;
    }
    rc = 0;
out:
    free(keys);
    free(ok);
    free(demax);
    return rc;
}

int tiebreak_standings(const Tournament *t, const TbSpec *specs, int n_specs, const TbOptions *opt,
                       Standings **out)
{
    TbOptions dflt = {.edition = TB_EDITION_2023};
    if (!opt)
        opt = &dflt;
    *out = NULL;
    Standings *st = calloc(1, sizeof *st);
    Ctx c = {.t = t, .opt = opt};
    Ranker rk = {.c = &c};
    int *g = NULL;
    bool *split = NULL;
    int rc = -ENOMEM;
    if (!st)
        return -ENOMEM;
    st->specs[0] = (TbSpec){.code = TB_PTS, .limit_percent = 50};
    st->n_specs = 1;
    for (int k = 0; k < n_specs; k++) {
        if (k == 0 && specs[k].code == TB_PTS)
            continue;
        if (st->n_specs >= TB_MAX_SPECS) {
            rc = TIEBREAK_E_SYNTAX;
            goto fail;
        }
        st->specs[st->n_specs++] = specs[k];
    }
    if ((rc = build(&c)))
        goto fail;
    st->rounds = c.R;
    rk.specs = st->specs;
    rk.n_specs = st->n_specs;
    size_t cells = (size_t)st->n_specs * (size_t)(c.n ? c.n : 1);
    rk.val = calloc(cells, sizeof *rk.val);
    rk.ok = calloc(cells, sizeof *rk.ok);
    g = malloc((size_t)(c.n ? c.n : 1) * sizeof *g);
    split = calloc((size_t)(c.n ? c.n : 1), sizeof *split);
    st->rows = calloc((size_t)(c.n ? c.n : 1), sizeof *st->rows);
    rc = -ENOMEM;
    if (!rk.val || !rk.ok || !g || !split || !st->rows)
        goto fail;
    for (int k = 0; k < st->n_specs; k++)
        if (st->specs[k].code != TB_DE &&
            (rc = compute(&c, &st->specs[k], V(&rk, k, 0), OK(&rk, k, 0))))
            goto fail;
    /* Start in TPN order so complete ties list by start rank. */
    for (int i = 0; i < c.n; i++)
        g[i] = i;
    for (int a = 1; a < c.n; a++)
        for (int b = a; b > 0 && t->players[g[b]].id < t->players[g[b - 1]].id; b--) {
            int x = g[b];
            g[b] = g[b - 1];
            g[b - 1] = x;
        }
    if ((rc = rank_group(&rk, 0, g, c.n, split, 0)))
        goto fail;
    st->n_rows = c.n;
    for (int a = 0; a < c.n; a++) {
        TbRow *row = &st->rows[a];
        row->player = t->players[g[a]].id;
        row->rank = (a == 0 || split[a]) ? a + 1 : st->rows[a - 1].rank;
        for (int k = 0; k < st->n_specs; k++) {
            row->value[k] = *V(&rk, k, g[a]);
            row->valid[k] = *OK(&rk, k, g[a]);
        }
    }
    rc = 0;
fail:
    free(c.cells);
    free(c.score);
    free(c.lna);
    free(rk.val);
    free(rk.ok);
    free(g);
    free(split);
    if (rc) {
        tiebreak_standings_free(st);
        return rc;
    }
    *out = st;
    return 0;
}

void tiebreak_standings_free(Standings *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s);
}

TbEdition tiebreak_edition_for_date(const char *d)
{
    int a, b, c;
    char s1, s2;
    if (!d || sscanf(d, "%d%c%d%c%d", &a, &s1, &b, &s2, &c) != 5 || s1 != s2)
        return TB_EDITION_2026;
    int y = a, m = b, day = c;
    if (c >= 1000) { /* DD.MM.YYYY */
        y = c;
        day = a;
    } else if (a < 100 && s1 == '/') { /* YY/MM/DD */
        y = 2000 + a;
    }
    if (m < 1 || m > 12 || day < 1 || day > 31)
        return TB_EDITION_2026;
    return y * 10000 + m * 100 + day >= 20260301 ? TB_EDITION_2026 : TB_EDITION_2023;
}
