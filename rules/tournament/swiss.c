/*
 * swiss.c — the parts of Swiss pairing common to the Dutch and Burstein
 * engines: who plays the round, scores with acceleration, colour facts and
 * the system-free colour rules, board order, and reading a written pairing
 * back. Both engines are meant to equal bbpPairings v6, so every rule here
 * follows how that program reads a TRF (initial colour read back from the
 * first round with colours, Baku ranks over all players, and so on).
 */
#include "swiss.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TrnGame *swiss_game(const TrnPlayer *p, int r)
{
    static const TrnGame none = {0, 0, 0};
    if (r < 1 || r > p->rounds)
        return &none;
    return &p->games[r - 1];
}

int swiss_game_played(const TrnGame *g)
{
    return g->opponent && tournament_result_is_played(g->result) &&
           (g->colour == TRN_WHITE || g->colour == TRN_BLACK);
}

int swiss_game_participated(const TrnGame *g)
{
    return g->opponent || g->result == TRN_RES_PAB || g->result == TRN_RES_FORFEIT_WIN;
}

TrnPoints swiss_game_points(const Tournament *t, const TrnGame *g)
{
    if (!g->result)
        return t->points.zpb;
    return tournament_result_points(&t->points, g->result, (TrnColour)g->colour);
}

/*
 * Baku (C.04.7): the first half of the players by pairing number (the larger
 * half when odd) get a win's points in the first half of the accelerated
 * rounds and a draw's in the second; the accelerated rounds are the first
 * (rounds - 1) / 2 + 1 ... as bbpPairings counts them.  Burstein's default:
 * a win's points in rounds 1 and 2 for the players marked at setup.
 */
TrnPoints swiss_round_acceleration(const SwissRound *s, const TrnPlayer *p, int r)
{
    if (s->burstein_top)
        return r <= 2 && s->burstein_top[p->id] ? s->t->points.win_white : 0;
    if (!s->baku)
        return tournament_acceleration(s->t, p->id, r);
    int rank = s->id_rank[p->id];
    if (rank < 0 || rank > (s->t->n_players - 1) / 2)
        return 0;
    int last = (s->expected - 1) / 2, last_full = last / 2;
    if (r - 1 <= last_full)
        return s->t->points.win_white;
    if (r - 1 <= last)
        return s->t->points.draw_white;
    return 0;
}

TrnPoints swiss_round_score_at(const SwissRound *s, const TrnPlayer *p, int upto)
{
    TrnPoints sum = 0;
    for (int r = 1; r <= upto; r++)
        sum += swiss_game_points(s->t, swiss_game(p, r));
    return sum + swiss_round_acceleration(s, p, upto + 1);
}

/* True when p does not take part in `round`: a non-pairing entry in its
 * column, or a 240 / XXZ bye for it. */
static int excluded(const Tournament *t, const TrnPlayer *p, int round, int next_round)
{
    const TrnGame *g = swiss_game(p, round);
    if (!g->opponent && g->result && g->result != TRN_RES_PAB && g->result != TRN_RES_FORFEIT_WIN)
        return 1;
    for (int i = 0; i < t->n_byes; i++) {
        const TrnBye *b = &t->byes[i];
        if (b->player == p->id && (b->round == round || (b->round == 0 && round == next_round)))
            return 1;
    }
    return 0;
}

int swiss_colour_invert(int c)
{
    return c == SWISS_WHITE ? SWISS_BLACK : c == SWISS_BLACK ? SWISS_WHITE : SWISS_NONE;
}

static void colour_data(SwissPlayer *d, const TrnPlayer *p, int pr)
{
    int w = 0, b = 0, consec = 0, rep = SWISS_NONE;
    d->ncol = 0;
    d->played = 0;
    for (int r = 1; r <= pr; r++) {
        const TrnGame *g = swiss_game(p, r);
        if (!swiss_game_played(g))
            continue;
        int c = g->colour == TRN_WHITE ? SWISS_WHITE : SWISS_BLACK;
        d->cols[d->ncol++] = (unsigned char)c;
        d->played++;
        if (c == SWISS_WHITE)
            w++;
        else
            b++;
        if (!consec || c != rep)
            consec = 1;
        else
            consec++;
        rep = c;
    }
    int lower = w > b ? SWISS_BLACK : SWISS_WHITE;
    d->imb = w > b ? w - b : b - w;
    d->pref = d->imb > 1   ? lower
              : consec > 1 ? swiss_colour_invert(rep)
              : d->imb > 0 ? lower
              : consec     ? swiss_colour_invert(rep)
                           : SWISS_NONE;
    d->rep = consec > 1 ? rep : SWISS_NONE;
    d->absimb = d->imb > 1;
    d->abspref = d->absimb || d->rep != SWISS_NONE;
    d->strong = !d->abspref && d->imb;
}

static int pref_compatible(int a, int b)
{
    return a != b || a == SWISS_NONE || b == SWISS_NONE;
}

int swiss_colour_neutral(const SwissPlayer *a, const SwissPlayer *b)
{
    if (pref_compatible(a->pref, b->pref))
        return a->pref != SWISS_NONE   ? a->pref
               : b->pref != SWISS_NONE ? swiss_colour_invert(b->pref)
                                       : SWISS_NONE;
    if (a->abspref && (a->imb > b->imb || !b->abspref))
        return a->pref;
    if (b->abspref && (b->imb > a->imb || !a->abspref))
        return swiss_colour_invert(b->pref);
    if (a->strong && !b->strong)
        return a->pref;
    if (b->strong && !a->strong)
        return swiss_colour_invert(b->pref);
    /* most recent round in which their colours differed */
    int i = a->ncol - 1, j = b->ncol - 1;
    while (i >= 0 && j >= 0 && a->cols[i] == b->cols[j]) {
        i--;
        j--;
    }
    return i >= 0 && j >= 0 ? b->cols[j] : SWISS_NONE;
}

int swiss_next_round(const Tournament *t)
{
    int last = 0;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        for (int r = p->rounds; r > last; r--)
            if (swiss_game_participated(&p->games[r - 1])) {
                last = r;
                break;
            }
    }
    return last + 1;
}

/*
 * The colour drawn for the first player before round 1. When the file does
 * not say (152 / XXC), it is read back from the earliest round with colours:
 * the first player (by start rank) who took part in a pairing by then and
 * has a colour in it tells, allowing for the alternation down the ranks.
 * Returns SWISS_NONE when nothing tells.
 */
static int initial_colour(const Tournament *t)
{
    if (t->initial_colour == TRN_WHITE)
        return SWISS_WHITE;
    if (t->initial_colour == TRN_BLACK)
        return SWISS_BLACK;
    int minr = TRN_MAX_ROUNDS + 1;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        for (int r = 1; r <= p->rounds && r < minr; r++)
            if (p->games[r - 1].colour == TRN_WHITE || p->games[r - 1].colour == TRN_BLACK)
                minr = r;
    }
    if (minr > TRN_MAX_ROUNDS)
        return SWISS_NONE;
    int e = 0;
    for (int id = 1; id <= TRN_MAX_PLAYERS; id++) {
        const TrnPlayer *p = tournament_player(t, id);
        if (!p)
            continue;
        int had = 0;
        for (int r = 1; r <= minr; r++)
            had |= swiss_game_participated(swiss_game(p, r));
        if (!had)
            continue;
        const TrnGame *g = swiss_game(p, minr);
        if (g->colour == TRN_WHITE || g->colour == TRN_BLACK) {
            int col = g->colour == TRN_WHITE ? SWISS_WHITE : SWISS_BLACK;
            return (e & 1) ? swiss_colour_invert(col) : col;
        }
        e++;
    }
    return SWISS_NONE;
}

void swiss_error(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

static int cmp_order(const void *a, const void *b)
{
    const SwissPlayer *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->rank - y->rank;
}

/* The Swiss codes of the 192 line (C.02.03 Annex C, the tournament type
 * code table of TRF-2026): the Dutch by edition (2017, 2026) or bare (the
 * edition in force at the event's date), each with or without _BAKU, and
 * Burstein.  FIDE_DUTCH_2025 is the spelling of the TEC's draft table,
 * which bbpPairings v6 reads and writes for the 2026 rules. */
static const struct {
    const char *code;
    SwissSystem system;
    int baku;
} SWISS_CODES[] = {
    {"FIDE_DUTCH_2026", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2026_BAKU", SWISS_DUTCH, 1},
    {"FIDE_DUTCH", SWISS_DUTCH, 0},       {"FIDE_DUTCH_BAKU", SWISS_DUTCH, 1},
    {"FIDE_DUTCH_2025", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2025_BAKU", SWISS_DUTCH, 1},
    {"FIDE_DUTCH_2017", SWISS_DUTCH, 0},  {"FIDE_DUTCH_2017_BAKU", SWISS_DUTCH, 1},
    {"FIDE_BURSTEIN", SWISS_BURSTEIN, 0}, {"FIDE_BURSTEIN_BAKU", SWISS_BURSTEIN, 1},
};

int swiss_code_read(const char *code, SwissSystem *system, int *baku)
{
    for (size_t i = 0; i < sizeof SWISS_CODES / sizeof SWISS_CODES[0]; i++)
        if (strcmp(code, SWISS_CODES[i].code) == 0) {
            *system = SWISS_CODES[i].system;
            *baku = SWISS_CODES[i].baku;
            return 1;
        }
    return 0;
}

const char *swiss_code_name(SwissSystem system, int baku)
{
    if (system == SWISS_BURSTEIN)
        return baku ? "FIDE_BURSTEIN_BAKU" : "FIDE_BURSTEIN";
    return baku ? "FIDE_DUTCH_2026_BAKU" : "FIDE_DUTCH_2026";
}

/* True when the 192 line asks for Baku acceleration (whichever system then
 * pairs, as bbpPairings reads it). */
static int names_baku(const char *sys)
{
    SwissSystem ignored;
    int baku = 0;
    return swiss_code_read(sys, &ignored, &baku) && baku;
}

/* Sets up the acceleration model of s (ids sorts all players by start
 * rank).  Returns 0, SWISS_E_INPUT or -ENOMEM. */
static int setup_acceleration(SwissRound *s, const int *ids, SwissSystem system, int next_round,
                              char *err, size_t errlen)
{
    const Tournament *t = s->t;
    int manual = t->n_accel > 0;
    for (int k = 0; k < t->n_players; k++)
        manual |= t->players[k].has_accel;
    if (manual)
        return 0;
    if (names_baku(t->system)) {
        const TrnPointSystem *ps = &t->points;
        if (ps->loss_white || 2 * ps->draw_white != ps->win_white) {
            swiss_error(err, errlen, "the point system does not suit Baku acceleration");
            return SWISS_E_INPUT;
        }
        s->baku = 1;
        return 0;
    }
    if (system != SWISS_BURSTEIN)
        return 0;
    /* Burstein's default: walking down the start ranks, players are marked
     * until the marked players of round 1 are half of those in it */
    s->burstein_top = calloc(TRN_MAX_PLAYERS + 1, 1);
    if (!s->burstein_top)
        return -ENOMEM;
    int bound = 0;
    for (int k = 0; k < t->n_players; k++)
        bound += !excluded(t, &t->players[k], 1, next_round);
    for (int k = 0; k < t->n_players && bound > 1; k++) {
        const TrnPlayer *p = &t->players[ids[k]];
        s->burstein_top[p->id] = 1;
        if (!excluded(t, p, 1, next_round))
            bound -= 2;
    }
    return 0;
}

/* The players taking part in s->round, each with its rank among them,
 * score and raw score, into s->pl[0..s->n).  Returns 0, SWISS_E_INPUT or
 * -ENOMEM. */
static int collect_players(SwissRound *s, SwissSystem system, char *err, size_t errlen)
{
    const Tournament *t = s->t;
    int round = s->round;
    int next_round = swiss_next_round(t);
    int *ids = calloc((size_t)t->n_players + 1, sizeof *ids);
    if (!ids)
        return -ENOMEM;
    for (int i = 0; i < t->n_players; i++)
        ids[i] = i;
    /* players[] is in file order; rank by id */
    for (int i = 1; i < t->n_players; i++) {
        int x = ids[i], j = i - 1;
        while (j >= 0 && t->players[ids[j]].id > t->players[x].id) {
            ids[j + 1] = ids[j];
            j--;
        }
        ids[j + 1] = x;
    }
    s->expected = t->n_rounds ? t->n_rounds : t->rounds_played;
    s->id_rank = malloc((TRN_MAX_PLAYERS + 1) * sizeof *s->id_rank);
    if (!s->id_rank) {
        free(ids);
        return -ENOMEM;
    }
    for (int k = 0; k <= TRN_MAX_PLAYERS; k++)
        s->id_rank[k] = -1;
    for (int k = 0; k < t->n_players; k++)
        s->id_rank[t->players[ids[k]].id] = k;
    int rc = setup_acceleration(s, ids, system, next_round, err, errlen);
    if (rc) {
        free(ids);
        return rc;
    }
    /* rank: order of start rank among the players taking part in the
     * tournament at this round (present now, or paired before) */
    int rank = 0;
    for (int k = 0; k < t->n_players; k++) {
        const TrnPlayer *p = &t->players[ids[k]];
        int ex = excluded(t, p, round, next_round);
        int took_part = 0;
        for (int r = 1; r < round; r++)
            took_part |= swiss_game_participated(swiss_game(p, r));
        if (ex && !took_part)
            continue;
        int my_rank = rank++;
        if (ex)
            continue;
        SwissPlayer *d = &s->pl[s->n++];
        d->tp = p;
        d->id = p->id;
        d->rank = my_rank;
        d->score = swiss_round_score_at(s, p, s->pr);
        d->raw = d->score - swiss_round_acceleration(s, p, round);
        colour_data(d, p, s->pr);
    }
    free(ids);
    qsort(s->pl, (size_t)s->n, sizeof *s->pl, cmp_order);
    return 0;
}

int swiss_round_setup(SwissRound *s, const Tournament *t, int round, SwissSystem system,
                      SwissPairing *out, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (out) {
        out->n_pairs = 0;
        out->pairs = NULL;
    }
    s->t = t;
    s->round = round;
    s->pr = round - 1;
    if (round < 1 || round > TRN_MAX_ROUNDS) {
        swiss_error(err, errlen, "round number out of range");
        return SWISS_E_INPUT;
    }
    s->init = initial_colour(t);
    if (s->init == SWISS_NONE) {
        swiss_error(err, errlen, "the initial colour is not given (152 or XXC white1/black1)");
        return SWISS_E_INPUT;
    }
    s->pl = calloc((size_t)t->n_players + 1, sizeof *s->pl);
    if (!s->pl)
        return -ENOMEM;
    return collect_players(s, system, err, errlen);
}

void swiss_round_free(SwissRound *s)
{
    free(s->pl);
    free(s->id_rank);
    free(s->burstein_top);
    s->pl = NULL;
    s->id_rank = NULL;
    s->burstein_top = NULL;
}

void swiss_pairing_free(SwissPairing *p)
{
    if (!p)
        return;
    free(p->pairs);
    p->pairs = NULL;
    p->n_pairs = 0;
}

typedef struct {
    SwissPair pr;
    TrnPoints hs, ls; /* scores (without acceleration) of the higher and lower */
    int hrank, bye;
} Board;

static int cmp_board(const void *a, const void *b)
{
    const Board *x = a, *y = b;
    if (x->bye != y->bye)
        return x->bye - y->bye;
    if (x->hs != y->hs)
        return x->hs > y->hs ? -1 : 1;
    if (x->ls != y->ls)
        return x->ls > y->ls ? -1 : 1;
    return x->hrank - y->hrank;
}

int swiss_round_emit(const SwissRound *s, const int *mate, SwissColourFn colour, const void *ctx,
                     SwissPairing *out)
{
    int n = s->n;
    Board *boards = calloc((size_t)n + 1, sizeof *boards);
    if (!boards)
        return -ENOMEM;
    int nb = 0;
    for (int v = 0; v < n; v++) {
        int m = mate[v];
        const SwissPlayer *a = &s->pl[v];
        if (m == v) {
            Board *b = &boards[nb++];
            b->pr.white = a->id;
            b->pr.black = 0;
            b->bye = 1;
            b->hs = a->raw;
            b->ls = a->raw;
            b->hrank = a->rank;
            continue;
        }
        const SwissPlayer *o = &s->pl[m];
        if (a->id > o->id)
            continue;
        Board *b = &boards[nb++];
        int col = colour(ctx, v, m);
        b->pr.white = col == SWISS_WHITE ? a->id : o->id;
        b->pr.black = col == SWISS_WHITE ? o->id : a->id;
        /* higher of the two by unaccelerated score, then start rank */
        const SwissPlayer *h = a, *l = o;
        if (o->raw > a->raw || (o->raw == a->raw && o->rank < a->rank)) {
            h = o;
            l = a;
        }
        b->hs = h->raw;
        b->ls = l->raw;
        b->hrank = h->rank;
        b->bye = 0;
    }
    qsort(boards, (size_t)nb, sizeof *boards, cmp_board);
    out->pairs = calloc((size_t)nb + 1, sizeof *out->pairs);
    if (!out->pairs) {
        free(boards);
        return -ENOMEM;
    }
    for (int i = 0; i < nb; i++)
        out->pairs[i] = boards[i].pr;
    out->n_pairs = nb;
    free(boards);
    return 0;
}

int swiss_round_matches(const Tournament *t, int round, const SwissPairing *p)
{
    int boards = 0;
    for (int i = 0; i < p->n_pairs; i++) {
        const SwissPair *b = &p->pairs[i];
        const TrnPlayer *w = tournament_player(t, b->white);
        if (!w)
            return 0;
        const TrnGame *g = swiss_game(w, round);
        if (b->black == 0) {
            if (g->opponent || !swiss_game_participated(g))
                return 0;
            boards++;
            continue;
        }
        if (g->opponent != b->black || g->colour == TRN_BLACK)
            return 0;
        boards++;
    }
    /* every pairing written in the file must be one of ours */
    int written = 0;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *pl = &t->players[i];
        const TrnGame *g = swiss_game(pl, round);
        if (g->opponent) {
            if (pl->id < g->opponent)
                written++;
        } else if (swiss_game_participated(g)) {
            written++;
        }
    }
    return written == boards;
}
