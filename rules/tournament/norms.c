/*
 * norms.c — FIDE title norms of a tournament (see norms.h).
 *
 * norms_check() does the arithmetic for one title over an explicit list of
 * opponents; norms_event() builds that list from the TRF for every player
 * and title the player could aim at.  Scores are in tenths (TRN_POINT),
 * percentages in hundredths, as the tables are.
 */
#include "norms.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tiebreak.h"

static const NormLevel LEVELS[NORM_N_TITLES] = {
    [NORM_GM] = {"GM", 2600, 2380, 2200},
    [NORM_IM] = {"IM", 2450, 2230, 2050},
    [NORM_WGM] = {"WGM", 2400, 2180, 2000},
    [NORM_WIM] = {"WIM", 2250, 2030, 1850},
};

const NormLevel *norms_level(NormTitle title)
{
    return &LEVELS[title];
}

const char *norms_title_code(const char *title)
{
    static const char *const codes[] = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"};
    for (size_t i = 0; title && i < sizeof codes / sizeof codes[0]; i++)
        if (strcasecmp(title, codes[i]) == 0)
            return codes[i];
    return "";
}

static bool is(const char *title, const char *code)
{
    return strcmp(norms_title_code(title), code) == 0;
}

/* Titles counted for the 50% rule (all of 0.31 but CM and WCM). */
static bool is_titled(const char *t)
{
    return is(t, "GM") || is(t, "IM") || is(t, "FM") || is(t, "WGM") || is(t, "WIM") ||
           is(t, "WFM");
}

/* Holds the norm's title or a higher one. */
static bool holds(NormTitle title, const char *t)
{
    switch (title) {
    case NORM_WIM:
        if (is(t, "WIM"))
            return true;
        /* fall through */
    case NORM_WGM:
        if (is(t, "WGM"))
            return true;
        /* fall through */
    case NORM_IM:
        if (is(t, "IM"))
            return true;
        /* fall through */
    case NORM_GM:
    default: return is(t, "GM");
    }
}

/* A federation that counts as one: three letters, FIDE's own "FID" aside. */
static bool real_federation(const char *f)
{
    return f && f[0] && strcmp(f, "FID") != 0;
}

/* Performance of `score` tenths over n games against average ra. */
static int performance(int ra, int score, int n)
{
    int p = (2 * score * 10 + n) / (2 * n); /* hundredths, half up */
    return ra + tiebreak_dp(p);
}

void norms_check(NormTitle title, const NormOpponent *opp, int n, int score,
                 const char *own_federation, bool federations_waived, int min_games, int remaining,
                 NormCheck *c)
{
    const NormLevel *lv = &LEVELS[title];
    memset(c, 0, sizeof *c);
    c->title = title;
    c->games = n;
    c->score = score;
    c->remaining = remaining;
    c->need = -1;
    if (min_games <= 0)
        min_games = NORMS_MIN_GAMES;

    long sum = 0;
    int low = -1;
    for (int i = 0; i < n; i++) {
        int r = opp[i].rating > 0 ? opp[i].rating : NORMS_UNRATED;
        sum += r;
        if (low < 0 || r < (opp[low].rating > 0 ? opp[low].rating : NORMS_UNRATED))
            low = i;
        c->unrated += opp[i].rating <= 0;
        c->titled += is_titled(opp[i].title);
        c->title_holders += holds(title, opp[i].title);
    }
    if (low >= 0) {
        int r = opp[low].rating > 0 ? opp[low].rating : NORMS_UNRATED;
        if (r < lv->floor) {
            c->raised_from = r;
            sum += lv->floor - r;
        }
    }

    /* Federations: distinct ones other than the player's, and the largest group. */
    int others = 0;
    for (int i = 0; i < n; i++) {
        const char *f = opp[i].federation;
        if (!f)
            f = "";
        bool own = own_federation && own_federation[0] && strcmp(f, own_federation) == 0;
        c->own_federation += own;
        int same = 0, first = i;
        for (int j = 0; j < n; j++)
            if (strcmp(opp[j].federation ? opp[j].federation : "", f) == 0) {
                same++;
                if (j < first)
                    first = j;
            }
        if (f[0] && same > c->max_one_federation)
            c->max_one_federation = same;
        if (first == i && !own && real_federation(f))
            others++;
    }
    c->federations = others;
    c->federations_waived = federations_waived;

    c->ok_games = n >= min_games;
    c->ok_titled = 2 * c->titled >= n;
    c->ok_title_holders = 3 * c->title_holders >= n && c->title_holders >= 3;
    c->ok_unrated = 5 * c->unrated <= n;
    c->ok_federations = federations_waived || (others >= 2 && 5 * c->own_federation <= 3 * n &&
                                               3 * c->max_one_federation <= 2 * n);
    if (n > 0) {
        c->average = (int)((2 * sum + n) / (2 * n));
        c->performance = performance(c->average, score, n);
    }
    c->ok_average = n > 0 && c->average >= lv->min_average;
    c->ok_performance = n > 0 && c->performance >= lv->performance;
    c->norm = c->ok_games && c->ok_titled && c->ok_title_holders && c->ok_unrated &&
              c->ok_federations && c->ok_average && c->ok_performance;

    /* The fewest points from the remaining rounds, the average unchanged. */
    if (n > 0 && c->ok_average) {
        int total = n + remaining;
        for (int s = 0; s <= remaining * TRN_POINT; s += TRN_POINT / 2)
            if (performance(c->average, score + s, total) >= lv->performance) {
                c->need = s;
                break;
            }
    }
    /* Still possible: the score can be reached and the counts can still be
     * met if every remaining opponent helps (a GM, from another federation). */
    int fin = n + remaining;
    bool counts = 2 * (c->titled + remaining) >= fin && 3 * (c->title_holders + remaining) >= fin &&
                  c->title_holders + remaining >= 3 && 5 * c->unrated <= fin;
    c->possible = c->norm || (remaining > 0 && c->need >= 0 && fin >= min_games && counts);
}

bool norms_swiss_exception(const Tournament *t)
{
    const char *host = t->federation;
    if (!host[0])
        return false;
    int rated = 0, titled = 0, feds = 0;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        if (p->rating <= 0 || !p->federation[0] || strcmp(p->federation, host) == 0)
            continue;
        rated++;
        titled +=
            is(p->title, "GM") || is(p->title, "IM") || is(p->title, "WGM") || is(p->title, "WIM");
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            const TrnPlayer *q = &t->players[j];
            seen = q->rating > 0 && strcmp(q->federation, p->federation) == 0;
        }
        feds += !seen;
    }
    return rated >= 20 && feds >= 3 && titled >= 10;
}

/* The titles player p could make a norm for. */
/*
 * The smallest set of the player's wins (the first NORMS_MAX_DROPPED) whose
 * games left out make the norm; on success *C becomes the check of the
 * games that remain, with the rounds left out in C->dropped.  Sets are
 * tried by size, and within a size in the order of their rounds.
 */
static void drop_wins(NormTitle title, const NormOpponent *opp, const bool *won,
                      const unsigned char *round_of, int n, int score, const char *fed, bool waived,
                      int min_games, int remaining, NormCheck *c)
{
    int wins[NORMS_MAX_DROPPED], nw = 0;
    for (int i = 0; i < n && nw < NORMS_MAX_DROPPED; i++)
        if (won[i])
            wins[nw++] = i;
    int min = min_games > 0 ? min_games : NORMS_MIN_GAMES;
    NormOpponent kept[TRN_MAX_ROUNDS];
    for (int size = 1; size <= nw && n - size >= min; size++) {
        /* Subsets of `size` wins in lexicographic order of their indexes. */
        int pick[NORMS_MAX_DROPPED];
        for (int i = 0; i < size; i++)
            pick[i] = i;
        for (;;) {
            bool out[TRN_MAX_ROUNDS] = {false};
            for (int i = 0; i < size; i++)
                out[wins[pick[i]]] = true;
            int m = 0;
            for (int i = 0; i < n; i++)
                if (!out[i])
                    kept[m++] = opp[i];
            NormCheck t;
            norms_check(title, kept, m, score - size * TRN_POINT, fed, waived, min_games, remaining,
                        &t);
            if (t.norm) {
                for (int i = 0; i < size; i++)
                    t.dropped[i] = round_of[wins[pick[i]]];
                t.n_dropped = size;
                *c = t;
                return;
            }
            int j = size - 1;
            while (j >= 0 && pick[j] == nw - size + j)
                j--;
            if (j < 0)
                break;
            pick[j]++;
            for (int i = j + 1; i < size; i++)
                pick[i] = pick[i - 1] + 1;
        }
    }
}

static int candidate_titles(const TrnPlayer *p, NormTitle *out)
{
    const char *t = p->title;
    bool woman = p->sex == 'w' || p->sex == 'W' || p->sex == 'f' || p->sex == 'F';
    int n = 0;
    if (!is(t, "GM"))
        out[n++] = NORM_GM;
    if (!is(t, "GM") && !is(t, "IM"))
        out[n++] = NORM_IM;
    if (woman && !is(t, "GM") && !is(t, "WGM"))
        out[n++] = NORM_WGM;
    if (woman && !is(t, "GM") && !is(t, "IM") && !is(t, "WGM") && !is(t, "WIM"))
        out[n++] = NORM_WIM;
    return n;
}

int norms_event(const Tournament *t, const NormOptions *opt, NormReport **out)
{
    *out = NULL;
    int rounds = opt->rounds ? opt->rounds : t->rounds_played;
    int total = opt->total_rounds ? opt->total_rounds : t->n_rounds;
    if (total < rounds)
        total = rounds;
    if (rounds < 0 || rounds > TRN_MAX_ROUNDS || total > TRN_MAX_ROUNDS || opt->min_games < 0)
        return NORMS_E_RANGE;
    NormReport *r = calloc(1, sizeof *r);
    NormOpponent *opp = malloc(sizeof *opp * TRN_MAX_ROUNDS);
    bool won[TRN_MAX_ROUNDS];
    unsigned char round_of[TRN_MAX_ROUNDS];
    if (!r || !opp)
        goto fail;
    r->rounds = rounds;
    r->total_rounds = total;
    r->swiss_exception = opt->swiss && norms_swiss_exception(t);
    r->rows = calloc((size_t)(t->n_players ? t->n_players : 1), sizeof r->rows[0]);
    if (!r->rows)
        goto fail;
    bool waived = opt->national_championship || r->swiss_exception;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        NormTitle titles[NORM_N_TITLES];
        int nt = candidate_titles(p, titles);
        if (!nt)
            continue;
        int n = 0, score = 0;
        for (int k = 1; k <= rounds && k <= p->rounds; k++) {
            const TrnGame *g = &p->games[k - 1];
            const TrnPlayer *o = g->opponent ? tournament_player(t, g->opponent) : NULL;
            if (!o || !tournament_result_is_rated(g->result))
                continue;
            opp[n].rating = o->rating;
            opp[n].title = o->title;
            opp[n].federation = o->federation;
            won[n] = g->result == TRN_RES_WIN;
            round_of[n] = (unsigned char)k;
            n++;
            score += g->result == TRN_RES_WIN    ? TRN_POINT
                     : g->result == TRN_RES_DRAW ? TRN_POINT / 2
                                                 : 0;
        }
        NormRow *row = &r->rows[r->n_rows++];
        row->player = p->id;
        for (int k = 0; k < nt; k++) {
            NormCheck *c = &row->checks[row->n_checks++];
            norms_check(titles[k], opp, n, score, p->federation, waived, opt->min_games,
                        total - rounds, c);
            if (!c->norm)
                drop_wins(titles[k], opp, won, round_of, n, score, p->federation, waived,
                          opt->min_games, total - rounds, c);
        }
    }
    free(opp);
    *out = r;
    return 0;
fail:
    free(opp);
    norms_report_free(r);
    return -ENOMEM;
}

void norms_report_free(NormReport *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r);
}
