/*
 * team_standings.c — team standings with the C.07 team tie-breaks, board
 * prizes and individual results (see team_standings.h).
 *
 * Each team's rounds are first reduced to one line per round (opponent,
 * own and opponent's points of the match); every tie-break is then a fold
 * over those lines, the direct encounter a fold over the tied group.
 */
#include "team_standings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"

static const struct {
    const char *name;
    TeamTbCode code;
} tb_names[] = {
    {"PTS", TEAM_TB_PTS},
    {"MPTS", TEAM_TB_MPTS},
    {"GPTS", TEAM_TB_GPTS},
    {"BH:MP", TEAM_TB_BH_MP},
    {"BH:GP", TEAM_TB_BH_GP},
    {"EMMSB", TEAM_TB_EMMSB},
    {"EGGSB", TEAM_TB_EGGSB},
    {"EMGSB", TEAM_TB_EMGSB},
    {"EGMSB", TEAM_TB_EGMSB},
    {"DE", TEAM_TB_DE},
    {"MPVGP", TEAM_TB_MPVGP},
    {"WON", TEAM_TB_WON},
    {"TPN", TEAM_TB_TPN},
    /* Other spellings C.07 gives the same tie-breaks. */
    {"SB:MP", TEAM_TB_EMMSB},
    {"SB:GP", TEAM_TB_EGGSB},
    {"ESB:MM", TEAM_TB_EMMSB},
    {"ESB:GG", TEAM_TB_EGGSB},
    {"ESB:MG", TEAM_TB_EMGSB},
    {"ESB:GM", TEAM_TB_EGMSB},
    {"MP", TEAM_TB_MPTS},
    {"GP", TEAM_TB_GPTS},
    {"EDE", TEAM_TB_DE},
};

int team_standings_parse(const char *text, TeamTbSpec *specs, int max, int *n, char *err,
                         size_t errlen)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ',' || *p == ';' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char tok[32];
        size_t len = 0;
        while (*p && *p != ',' && *p != ';' && !isspace((unsigned char)*p)) {
            if (len + 1 < sizeof tok)
                tok[len++] = (char)toupper((unsigned char)*p);
            p++;
        }
        tok[len] = '\0';
        TeamTbSpec s = {TEAM_TB_PTS, 0, 0};
        char *mod = strchr(tok, '/');
        if (!mod) {
            /* Handbook spelling "BH-C1": a dash before a modifier. */
            char *d = strrchr(tok, '-');
            if (d && (d[1] == 'C' || d[1] == 'M'))
                mod = d;
        }
        if (mod)
            *mod++ = '\0';
        size_t k = 0;
        while (k < sizeof tb_names / sizeof *tb_names && strcmp(tb_names[k].name, tok))
            k++;
        if (k == sizeof tb_names / sizeof *tb_names) {
            snprintf(err, errlen, "unknown team tie-break \"%s\"", tok);
            return TEAM_STANDINGS_E_SYNTAX;
        }
        s.code = tb_names[k].code;
        if (mod) {
            int v = atoi(mod + 1);
            if ((mod[0] != 'C' && mod[0] != 'M') || v < 1 || v > 2) {
                snprintf(err, errlen, "bad modifier \"%s\" of %s", mod, tok);
                return TEAM_STANDINGS_E_SYNTAX;
            }
            s.cut_low = v;
            s.cut_high = mod[0] == 'M' ? v : 0;
        }
        if (*n >= max) {
            snprintf(err, errlen, "more than %d tie-breaks", max);
            return TEAM_STANDINGS_E_SYNTAX;
        }
        specs[(*n)++] = s;
    }
    return 0;
}

void team_standings_spec_name(const TeamTbSpec *s, char *buf, size_t len)
{
    const char *name = "?";
    for (size_t k = 0; k < sizeof tb_names / sizeof *tb_names; k++)
        if (tb_names[k].code == s->code) {
            name = tb_names[k].name;
            break;
        }
    if (s->cut_high)
        snprintf(buf, len, "%s/M%d", name, s->cut_high);
    else if (s->cut_low)
        snprintf(buf, len, "%s/C%d", name, s->cut_low);
    else
        snprintf(buf, len, "%s", name);
}

/* One round of one team, reduced. */
typedef struct Line {
    int opp;            /* opponent met (match not forfeited as a whole), 0 = none */
    int fopp;           /* opponent of a match forfeited as a whole, 0 = none */
    TrnPoints mp, gp;   /* scored in the round */
    TrnPoints omp, ogp; /* opponent's score in the match */
    bool won;           /* the match won, over the board or by forfeit */
} Line;

typedef struct Ctx {
    const TeamEvent *ev;
    int rounds;
    Line *lines;        /* [team - 1][round - 1] */
    TrnPoints *mp, *gp; /* final scores, [team - 1] */
} Ctx;

static Line *line_at(const Ctx *c, int team, int r)
{
    return &c->lines[(size_t)(team - 1) * (size_t)(c->rounds ? c->rounds : 1) + (size_t)(r - 1)];
}

static void reduce(Ctx *c)
{
    const TeamEvent *ev = c->ev;
    for (int t = 1; t <= ev->n_teams; t++)
        for (int r = 1; r <= c->rounds; r++) {
            Line *l = line_at(c, t, r);
            memset(l, 0, sizeof *l);
            const TeamMatch *m = team_event_match_of(ev, r, t);
            if (!m)
                continue;
            TeamMatchScore sc;
            team_match_score(&ev->settings, m, &sc);
            bool a = m->team_a == t;
            l->mp = a ? sc.mp_a : sc.mp_b;
            l->gp = a ? sc.gp_a : sc.gp_b;
            l->omp = a ? sc.mp_b : sc.mp_a;
            l->ogp = a ? sc.gp_b : sc.gp_a;
            if (m->team_b) {
                l->won = l->gp > l->ogp || (m->forfeit == (a ? TEAM_FORFEIT_B : TEAM_FORFEIT_A));
                if (m->forfeit == TEAM_FORFEIT_NONE)
                    l->opp = a ? m->team_b : m->team_a;
                else
                    l->fopp = a ? m->team_b : m->team_a;
            }
            c->mp[t - 1] += l->mp;
            c->gp[t - 1] += l->gp;
        }
}

typedef struct Contrib {
    int64_t key, value; /* cut by key (the opponent's score), sum values */
} Contrib;

static int cmp_contrib(const void *a, const void *b)
{
    const Contrib *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->value > y->value) - (x->value < y->value);
}

/* Sum of the n contributions after the cuts of s. */
static int64_t cut_sum(const TeamTbSpec *s, Contrib *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_contrib);
    int64_t sum = 0;
    for (int i = s->cut_low; i < n - s->cut_high; i++)
        sum += v[i].value;
    return sum;
}

static int64_t opponents_fold(const Ctx *c, int t, const TeamTbSpec *s)
{
    Contrib v[TRN_MAX_ROUNDS];
    int n = 0;
    const TeamSettings *st = &c->ev->settings;
    for (int r = 1; r <= c->rounds; r++) {
        const Line *l = line_at(c, t, r);
        int64_t omp, ogp;
        if (l->opp) {
            omp = c->mp[l->opp - 1];
            ogp = c->gp[l->opp - 1];
        } else {
            /* C.07 Art. 16 (2026): an own unplayed round meets a dummy with
             * the team's own score, capped at the forfeiting opponent's
             * score, or at a draw in every round for a bye or absence. */
            int64_t cap_mp = (int64_t)st->mp_draw * c->rounds;
            int64_t cap_gp = (int64_t)st->boards * st->game.draw_white * c->rounds;
            if (l->fopp) {
                cap_mp = c->mp[l->fopp - 1];
                cap_gp = c->gp[l->fopp - 1];
            }
            omp = c->mp[t - 1] < cap_mp ? c->mp[t - 1] : cap_mp;
            ogp = c->gp[t - 1] < cap_gp ? c->gp[t - 1] : cap_gp;
        }
        int64_t key = 0, val = 0;
        switch (s->code) {
        case TEAM_TB_BH_MP: key = val = omp * 10; break;
        case TEAM_TB_BH_GP: key = val = ogp * 10; break;
        case TEAM_TB_EMMSB: /* tenths x tenths = hundredths */
            key = omp;
            val = omp * l->mp;
            break;
        case TEAM_TB_EGGSB:
            key = ogp;
            val = ogp * l->gp;
            break;
        case TEAM_TB_EMGSB:
            key = omp;
            val = omp * l->gp;
            break;
        case TEAM_TB_EGMSB:
            key = ogp;
            val = ogp * l->mp;
            break;
        default: break;
        }
        v[n++] = (Contrib){key, val};
    }
    return cut_sum(s, v, n);
}

static int64_t value_of(const Ctx *c, int t, const TeamTbSpec *s)
{
    const TeamSettings *st = &c->ev->settings;
    switch (s->code) {
    case TEAM_TB_PTS:
        return 10 * (int64_t)(st->primary == TEAM_PRIMARY_GAME ? c->gp[t - 1] : c->mp[t - 1]);
    case TEAM_TB_MPTS: return 10 * (int64_t)c->mp[t - 1];
    case TEAM_TB_GPTS: return 10 * (int64_t)c->gp[t - 1];
    case TEAM_TB_MPVGP: /* the score that is not the primary one */
        return 10 * (int64_t)(st->primary == TEAM_PRIMARY_GAME ? c->mp[t - 1] : c->gp[t - 1]);
    case TEAM_TB_WON: {
        int64_t w = 0;
        for (int r = 1; r <= c->rounds; r++)
            w += line_at(c, t, r)->won;
        return w * 100;
    }
    case TEAM_TB_TPN: return -(int64_t)t; /* the smaller number ranks higher */
    case TEAM_TB_DE: return 0;            /* set per tied group */
    default: return opponents_fold(c, t, s);
    }
}

/* Order of two rows on their first `keys` values: negative when x ranks higher. */
static int cmp_rows(const TeamRow *x, const TeamRow *y, int keys)
{
    for (int k = 0; k < keys; k++)
        if (x->value[k] != y->value[k])
            return x->value[k] > y->value[k] ? -1 : 1;
    return x->team - y->team;
}

/* Insertion sort of the rows (stable, no global state; a few hundred rows). */
static void sort_rows(TeamRow *rows, int n, int keys)
{
    for (int i = 1; i < n; i++) {
        TeamRow r = rows[i];
        int j = i;
        while (j > 0 && cmp_rows(&rows[j - 1], &r, keys) > 0) {
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = r;
    }
}

/* True when x and y are equal on their first `keys` values. */
static bool tied(const TeamRow *x, const TeamRow *y, int keys)
{
    for (int k = 0; k < keys; k++)
        if (x->value[k] != y->value[k])
            return false;
    return true;
}

/*
 * DE for rows[lo..hi): the primary score of the matches among them, when
 * every two of them have met (C.07 Art. 6.1); otherwise 0 for all, as the
 * order cannot be settled by the encounters.
 */
static void direct_encounter(const Ctx *c, TeamRow *rows, int lo, int hi, int k)
{
    bool primary_gp = c->ev->settings.primary == TEAM_PRIMARY_GAME;
    int met_pairs = 0;
    for (int i = lo; i < hi; i++) {
        int64_t pts = 0;
        for (int r = 1; r <= c->rounds; r++) {
            const Line *l = line_at(c, rows[i].team, r);
            for (int j = lo; j < hi; j++)
                if (l->opp && l->opp == rows[j].team) {
                    pts += 10 * (int64_t)(primary_gp ? l->gp : l->mp);
                    met_pairs += j > i;
                    break;
                }
        }
        rows[i].value[k] = pts;
    }
    int n = hi - lo;
    if (met_pairs < n * (n - 1) / 2)
        for (int i = lo; i < hi; i++)
            rows[i].value[k] = 0;
}

int team_standings_compute(const TeamEvent *ev, int rounds, const TeamTbSpec *specs, int n_specs,
                           TeamStandings **out)
{
    *out = NULL;
    if (n_specs > TEAM_TB_MAX - 1)
        return TEAM_STANDINGS_E_SYNTAX;
    if (rounds <= 0 || rounds > ev->n_rounds)
        rounds = ev->n_rounds;
    int nt = ev->n_teams;
    Ctx c = {ev, rounds, NULL, NULL, NULL};
    TeamStandings *s = calloc(1, sizeof *s);
    size_t nl = (size_t)(nt ? nt : 1) * (size_t)(rounds ? rounds : 1);
    c.lines = calloc(nl, sizeof *c.lines);
    c.mp = calloc((size_t)nt + 1, sizeof *c.mp);
    c.gp = calloc((size_t)nt + 1, sizeof *c.gp);
    if (s)
        s->rows = calloc((size_t)nt + 1, sizeof *s->rows);
    if (!s || !s->rows || !c.lines || !c.mp || !c.gp) {
        team_standings_free(s);
        s = NULL;
        goto done;
    }
    s->rounds = rounds;
    s->specs[s->n_specs++] = (TeamTbSpec){TEAM_TB_PTS, 0, 0};
    for (int i = 0; i < n_specs; i++)
        if (specs[i].code != TEAM_TB_PTS || i > 0)
            s->specs[s->n_specs++] = specs[i];
    reduce(&c);
    s->n_rows = nt;
    for (int t = 1; t <= nt; t++) {
        TeamRow *row = &s->rows[t - 1];
        row->team = t;
        row->mp = c.mp[t - 1];
        row->gp = c.gp[t - 1];
        for (int k = 0; k < s->n_specs; k++)
            row->value[k] = value_of(&c, t, &s->specs[k]);
    }
    for (int k = 0; k < s->n_specs; k++) {
        if (s->specs[k].code != TEAM_TB_DE)
            continue;
        sort_rows(s->rows, nt, k);
        for (int lo = 0, hi; lo < nt; lo = hi) {
            hi = lo + 1;
            while (hi < nt && tied(&s->rows[lo], &s->rows[hi], k))
                hi++;
            if (hi - lo > 1)
                direct_encounter(&c, s->rows, lo, hi, k);
        }
    }
    sort_rows(s->rows, nt, s->n_specs);
    /* Equal on everything: the same rank; the pairing number orders the list. */
    for (int i = 0; i < nt; i++)
        s->rows[i].rank =
            i > 0 && tied(&s->rows[i - 1], &s->rows[i], s->n_specs) ? s->rows[i - 1].rank : i + 1;
done:
    free(c.lines);
    free(c.mp);
    free(c.gp);
    *out = s;
    return s ? 0 : -ENOMEM;
}

void team_standings_free(TeamStandings *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s);
}

static void add_game(const TeamEvent *ev, TeamPlayerResult *res, int r, int player, int opp,
                     TrnColour colour, char result)
{
    if (!player || !ev->player_index[player])
        return;
    TeamPlayerResult *p = &res[ev->player_index[player] - 1];
    p->rounds[r - 1] = (TrnGame){(uint16_t)opp, (uint8_t)colour, result};
    TrnPoints pts = tournament_result_points(&ev->settings.game, result, colour);
    if (result == TRN_RES_FORFEIT_WIN || result == TRN_RES_FORFEIT_LOSS) {
        p->forfeit_points += pts;
        return;
    }
    if (!tournament_result_is_played(result))
        return;
    p->games++;
    p->points += pts;
    const TeamPlayer *o = team_event_player(ev, opp);
    if (tournament_result_is_rated(result) && o && o->rating > 0) {
        p->rated_games++;
        p->opp_rating_sum += o->rating;
        p->performance += pts; /* rated points for now, turned into TPR below */
    }
}

void team_standings_players(const TeamEvent *ev, int rounds, TeamPlayerResult *out)
{
    if (rounds <= 0 || rounds > ev->n_rounds)
        rounds = ev->n_rounds;
    int per_board[TEAM_MAX_BOARDS];
    for (int i = 0; i < ev->n_players; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].player = ev->players[i].id;
        out[i].team = ev->players[i].team;
    }
    for (int r = 1; r <= rounds; r++) {
        const TeamRound *rd = &ev->rounds[r - 1];
        for (int i = 0; i < rd->n_matches; i++) {
            const TeamMatch *m = &rd->matches[i];
            if (!m->team_b || m->forfeit != TEAM_FORFEIT_NONE)
                continue;
            for (int k = 0; k < ev->settings.boards; k++) {
                const TeamBoardGame *g = &m->board[k];
                TrnColour ca = (TrnColour)g->colour_a;
                TrnColour cb = ca == TRN_WHITE ? TRN_BLACK : TRN_WHITE;
                add_game(ev, out, r, g->player_a, g->player_b, ca, g->result_a);
                add_game(ev, out, r, g->player_b, g->player_a, cb, g->result_b);
            }
        }
    }
    for (int i = 0; i < ev->n_players; i++) {
        TeamPlayerResult *p = &out[i];
        const TeamEntry *t = team_event_team(ev, p->team);
        int pos = 0;
        while (t && pos < t->n_roster && t->roster[pos] != p->player)
            pos++;
        p->board = pos + 1;
        if (p->board > ev->settings.boards) {
            /* A reserve: the board it played most often, the higher on a tie. */
            memset(per_board, 0, sizeof per_board);
            for (int r = 1; r <= rounds; r++) {
                const TeamMatch *m = team_event_match_of(ev, r, p->team);
                for (int k = 0; m && k < ev->settings.boards; k++)
                    if (m->board[k].player_a == p->player || m->board[k].player_b == p->player)
                        per_board[k]++;
            }
            int best = 0;
            for (int k = 1; k < ev->settings.boards; k++)
                if (per_board[k] > per_board[best])
                    best = k;
            p->board = best + 1;
        }
        if (p->games)
            p->percent = (int)((int64_t)p->points * 1000 / p->games);
        if (p->rated_games) {
            int aro = (2 * p->opp_rating_sum + p->rated_games) / (2 * p->rated_games);
            int pct = (p->performance * 10 + p->rated_games / 2) / p->rated_games;
            p->performance = aro + tiebreak_dp(pct);
        } else {
            p->performance = 0;
        }
    }
}

/* Negative when board prize candidate x ranks above y under `by`. */
static int cmp_prize(const TeamPlayerResult *x, const TeamPlayerResult *y, TeamPrizeBy by)
{
    int64_t kx[3], ky[3];
    switch (by) {
    case TEAM_PRIZE_PERFORMANCE:
        kx[0] = x->performance, kx[1] = x->percent, kx[2] = x->games;
        ky[0] = y->performance, ky[1] = y->percent, ky[2] = y->games;
        break;
    case TEAM_PRIZE_POINTS:
        kx[0] = x->points, kx[1] = x->percent, kx[2] = x->performance;
        ky[0] = y->points, ky[1] = y->percent, ky[2] = y->performance;
        break;
    case TEAM_PRIZE_PERCENT:
    default:
        kx[0] = x->percent, kx[1] = x->games, kx[2] = x->performance;
        ky[0] = y->percent, ky[1] = y->games, ky[2] = y->performance;
        break;
    }
    for (int k = 0; k < 3; k++)
        if (kx[k] != ky[k])
            return kx[k] > ky[k] ? -1 : 1;
    return (x->player > y->player) - (x->player < y->player);
}

int team_standings_board_prizes(const TeamEvent *ev, const TeamPlayerResult *res, int board,
                                int min_games, TeamPrizeBy by, int *order)
{
    int n = 0;
    for (int i = 0; i < ev->n_players; i++) {
        if (res[i].board != board || res[i].games < min_games || res[i].games == 0)
            continue;
        int j = n++;
        while (j > 0 && cmp_prize(&res[order[j - 1]], &res[i], by) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    return n;
}
