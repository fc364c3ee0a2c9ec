/*
 * rating.c — FIDE rating changes of a tournament (see rating.h).
 *
 * Each player's rounds are walked once: a round counts when its result is
 * a rated game (1 = 0) against an opponent present in the file; for a
 * rated player the opponent must be rated too.  Rated players get
 * K x (W - We) per game, unrated players the 7.1 first-rating figures.
 */
#include "rating.h"
#include "timecontrol.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"

int rating_dp(int p)
{
    return tiebreak_dp(p);
}

int rating_expected(int own, int opp)
{
    int d = own - opp;
    if (d > RATING_MAX_DIFF)
        d = RATING_MAX_DIFF;
    if (d < -RATING_MAX_DIFF)
        d = -RATING_MAX_DIFF;
    return tiebreak_expected(d);
}

int rating_k_default(RatingKind kind, int rating, int age, bool new_player, bool reached_2400)
{
    if (kind != RATING_STANDARD)
        return 20;
    if (reached_2400 || rating >= 2400)
        return 10;
    if (new_player)
        return 40;
    if (age > 0 && age <= 18 && rating < 2300)
        return 40;
    return 20;
}

int rating_k_limit(int k, int n)
{
    if (n > 0 && k * n > RATING_KN_MAX)
        return RATING_KN_MAX / n;
    return k;
}

RatingInitial rating_initial(int n, long sum, int score, int *ra, int *p, int *ru)
{
    /* Two hypothetical draws against 1800s join the real games. */
    long games = n + 2;
    long total = sum + 2L * RATING_INITIAL_ANCHOR;
    *ra = (int)((2 * total + games) / (2 * games)); /* half up */
    long pts = score + 100;                         /* hundredths */
    *p = (int)((2 * pts + games) / (2 * games));    /* hundredths, half up */
    *ru = *ra + rating_dp(*p);
    if (n < RATING_INITIAL_MIN_GAMES)
        return RATING_INITIAL_FEW_GAMES;
    if (score <= 0)
        return RATING_INITIAL_ZERO;
    if (*ru < RATING_FLOOR)
        return RATING_INITIAL_BELOW_FLOOR;
    return RATING_INITIAL_OK;
}

RatingKind rating_kind_for_control(const char *tc)
{
    if (!tc || !isdigit((unsigned char)tc[0]))
        return RATING_STANDARD;
    /* The Laws' own reading first (Appendices A.1, B.1: every period and
     * delay counted), so "40/5400+30:1800+30" is standard, not 40 s. */
    TimeControl parsed;
    char err[8];
    if (timecontrol_parse(&parsed, tc, err, sizeof err) == 0) {
        int c = timecontrol_category(&parsed);
        return c == TC_BLITZ ? RATING_BLITZ : c == TC_RAPID ? RATING_RAPID : RATING_STANDARD;
    }
    /* TRF 222 texts the grammar does not take: minutes + increment. */
    char *end;
    long base = strtol(tc, &end, 10), inc = 0;
    if (*end == '+')
        inc = strtol(end + 1, &end, 10);
    long total = base + 60 * inc;
    if (total <= 600)
        return RATING_BLITZ;
    if (total < 3600)
        return RATING_RAPID;
    return RATING_STANDARD;
}

/* The first four-digit number from 1900 to 2099 in s, or 0. */
static int year_in(const char *s)
{
    for (; *s; s++) {
        if (!isdigit((unsigned char)s[0]))
            continue;
        int n = 0;
        while (isdigit((unsigned char)s[n]))
            n++;
        if (n == 4) {
            int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
            if (y >= 1900 && y <= 2099)
                return y;
        }
        s += n - 1;
    }
    return 0;
}

/* Points of a rated result in hundredths. */
static int game_score(char result)
{
    return result == TRN_RES_WIN ? 100 : result == TRN_RES_DRAW ? 50 : 0;
}

static int fill_row(const Tournament *t, const TrnPlayer *p, const RatingOptions *opt, int rounds,
                    int year, RatingRow *row)
{
    row->player = p->id;
    row->rating = p->rating;
    row->games = malloc(sizeof row->games[0] * (size_t)(rounds ? rounds : 1));
    if (!row->games)
        return -ENOMEM;
    long sum = 0;
    for (int r = 1; r <= rounds && r <= p->rounds; r++) {
        const TrnGame *g = &p->games[r - 1];
        if (!g->opponent || !tournament_result_is_rated(g->result))
            continue;
        const TrnPlayer *o = tournament_player(t, g->opponent);
        if (!o || o->rating <= 0)
            continue; /* unrated opponents rate nobody's game here */
        RatingGame *rg = &row->games[row->n_games++];
        rg->round = r;
        rg->opponent = o->id;
        rg->opp_rating = o->rating;
        rg->score = game_score(g->result);
        row->score += rg->score;
        sum += o->rating;
    }
    row->rated_games = row->n_games;
    if (p->rating <= 0) {
        row->initial = rating_initial(row->n_games, sum, row->score, &row->initial_ra,
                                      &row->initial_p, &row->initial_rating);
        return 0;
    }
    if (opt->force_k > 0) {
        row->k = opt->force_k;
        row->k_given = true;
    } else if (opt->k_of && opt->k_of[p->id] > 0) {
        row->k = opt->k_of[p->id];
        row->k_given = true;
    } else {
        int by = year_in(p->birth);
        int age = by && year ? year - by : 0;
        row->k =
            rating_k_limit(rating_k_default(opt->kind, p->rating, age, false, false), row->n_games);
    }
    for (int i = 0; i < row->n_games; i++) {
        RatingGame *rg = &row->games[i];
        rg->expected = rating_expected(p->rating, rg->opp_rating);
        rg->change = row->k * (rg->score - rg->expected);
        row->expected += rg->expected;
        row->change += rg->change;
    }
    return 0;
}

int rating_event(const Tournament *t, const RatingOptions *opt, RatingReport **out)
{
    *out = NULL;
    int rounds = opt->rounds ? opt->rounds : t->rounds_played;
    if (rounds < 0 || rounds > TRN_MAX_ROUNDS || opt->force_k < 0 || opt->force_k > 100)
        return RATING_E_RANGE;
    RatingReport *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->kind = opt->kind;
    r->rounds = rounds;
    r->rows = calloc((size_t)(t->n_players ? t->n_players : 1), sizeof r->rows[0]);
    if (!r->rows)
        goto fail;
    int year = opt->event_year ? opt->event_year : year_in(t->start_date);
    for (int i = 0; i < t->n_players; i++) {
        r->n_rows++;
        if (fill_row(t, &t->players[i], opt, rounds, year, &r->rows[i]))
            goto fail;
    }
    *out = r;
    return 0;
fail:
    rating_report_free(r);
    return -ENOMEM;
}

void rating_report_free(RatingReport *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_rows; i++)
        free(r->rows[i].games);
    free(r->rows);
    free(r);
}
