/*
 * trf_import.c — a tournament from a Tournament Report File.  See
 * trf_import.h.
 */
#include "trf_import.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsonget.h"
#include "office.h"
#include "players.h"
#include "rounds.h"
#include "swiss.h"
#include "tournaments.h"

/* What one import carries from step to step. */
typedef struct Import {
    Store *s;
    Games *g;
    const Tournament *t;
    int64_t tid, user;
    int64_t *pid;     /* start rank -> player id (index id) */
    json_t *warnings; /* texts */
    json_t *gids;     /* every game touched, to evict on failure */
    char *err;
    size_t n;
} Import;

/* ---- the tournament row ---- */

/* The digits at D[0..N) (all of them digits), else -1. */
static int digits_at(const char *d, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)d[i]))
            return -1;
        v = v * 10 + (d[i] - '0');
    }
    return v;
}

/* "YYYY/MM/DD" or "DD/MM/YYYY" (with '/', '-' or '.') as YYYY-MM-DD into
 * OUT, "" otherwise. */
static void iso_date(const char *d, char *out, size_t cap)
{
    out[0] = 0;
    if (strlen(d) != 10)
        return;
    int ymd = strchr("/-.", d[4]) && d[4] && d[7] == d[4];
    int dmy = strchr("/-.", d[2]) && d[2] && d[5] == d[2];
    int y = ymd ? digits_at(d, 4) : dmy ? digits_at(d + 6, 4) : -1;
    int m = ymd ? digits_at(d + 5, 2) : dmy ? digits_at(d + 3, 2) : -1;
    int day = ymd ? digits_at(d + 8, 2) : dmy ? digits_at(d, 2) : -1;
    if (y >= 1900 && m >= 1 && m <= 12 && day >= 1 && day <= 31)
        snprintf(out, cap, "%04d-%02d-%02d", y % 10000, m, day);
}

/* A person of a header line, "Name (12345)" or "Name". */
static json_t *person(const char *text)
{
    const char *open = strrchr(text, '(');
    size_t len = strlen(text);
    if (open && len > 2 && text[len - 1] == ')' && open[1] != ')') {
        const char *q = open + 1;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == ')') {
            size_t nl = (size_t)(open - text);
            while (nl > 0 && text[nl - 1] == ' ')
                nl--;
            return json_pack("{s:s%,s:s#}", "name", text, nl, "fide_id", open + 1,
                             (int)(q - open - 1));
        }
    }
    return json_pack("{s:s,s:s}", "name", text, "fide_id", "");
}

/* The text after PREFIX in the comment lines of T, or NULL. */
static const char *comment(const Tournament *t, const char *prefix)
{
    size_t len = strlen(prefix);
    for (int i = 0; i < t->n_other; i++) {
        const char *l = t->other[i].text;
        if (strncmp(l, "### ", 4) == 0 && strncmp(l + 4, prefix, len) == 0)
            return l + 4 + len;
    }
    return NULL;
}

static json_t *office_of(const Tournament *t)
{
    json_t *o = json_object();
    char date[24];
    if (t->federation[0])
        json_object_set_new(o, "federation", json_string(t->federation));
    iso_date(t->end_date, date, sizeof date);
    if (date[0])
        json_object_set_new(o, "end_date", json_string(date));
    if (t->chief_arbiter[0])
        json_object_set_new(o, "chief_arbiter", person(t->chief_arbiter));
    json_t *dep = json_array();
    for (int i = 0; i < t->n_other; i++)
        if (strcmp(t->other[i].code, "112") == 0 && strlen(t->other[i].text) > 4 &&
            t->other[i].text[4 + strspn(t->other[i].text + 4, " ")])
            json_array_append_new(dep, person(t->other[i].text + 4));
    json_object_set_new(o, "deputies", dep);
    if (t->time_control[0])
        json_object_set_new(o, "time_control_text", json_string(t->time_control));
    const char *code = comment(t, "FIDE event code: ");
    if (code)
        json_object_set_new(o, "event_code", json_string(code));
    const char *org = comment(t, "Chief organiser: ");
    if (org)
        json_object_set_new(o, "chief_organiser", person(org));
    json_t *dates = json_array();
    for (int i = 0; i < t->n_round_dates; i++) {
        const char *d = t->round_dates[i];
        char iso[16] = "";
        if (strlen(d) == 8)
            snprintf(iso, sizeof iso, "20%.2s-%.2s-%.2s", d, d + 3, d + 6);
        json_array_append_new(dates, json_pack("{s:s,s:s}", "date", iso, "time", ""));
    }
    json_object_set_new(o, "round_dates", dates);
    return o;
}

static json_t *points_of(const TrnPointSystem *p)
{
    return json_pack("{s:f,s:f,s:f,s:f}", "win", p->win_white / (double)TRN_POINT, "draw",
                     p->draw_white / (double)TRN_POINT, "loss", p->loss_white / (double)TRN_POINT,
                     "bye", p->pab / (double)TRN_POINT);
}

static void warn(Import *im, const char *text)
{
    json_array_append_new(im->warnings, json_string(text));
}

static int rounds_in(const Tournament *t);

/* A Swiss's pairing system and acceleration from its 192 code (every
 * edition's spelling, swiss_code_read()) into the body B. */
static void swiss_system(Import *im, json_t *b)
{
    SwissSystem sys;
    int baku = 0;
    const char *code = im->t->system;
    if (!code[0] || strstr(code, "ROUNDROBIN"))
        return;
    if (!swiss_code_read(code, &sys, &baku)) {
        char why[120];
        snprintf(why, sizeof why, "pairing system '%.40s' is not known: the Dutch system is used",
                 code);
        warn(im, why);
        return;
    }
    if (strcmp(code, "FIDE_DUTCH_2017") == 0 || strcmp(code, "FIDE_DUTCH_2017_BAKU") == 0)
        warn(im, "the file was paired by the Dutch rules of 2017; the next rounds are paired by "
                 "the rules in force from 1 February 2026");
    json_object_set_new(b, "pairing_system",
                        json_string(sys == SWISS_BURSTEIN ? "burstein" : "dutch"));
    json_object_set_new(b, "acceleration", json_string(baku ? "baku" : "none"));
}

/* The tournament's body from the header; parts the store would refuse are
 * left out with a warning rather than refusing a report over them. */
static json_t *tournament_body(Import *im, const char *time_control)
{
    const Tournament *t = im->t;
    char date[24], why[200];
    const char *tc = time_control ? time_control : t->encoded_tc[0] ? t->encoded_tc : "5400+30";
    json_t *b = json_pack(
        "{s:s,s:s,s:s,s:s}", "name", t->name[0] ? t->name : "Imported tournament", "time_control",
        tc, "system", strstr(t->system, "ROUNDROBIN") ? "roundrobin" : "swiss", "place", t->city);
    swiss_system(im, b);
    if (tournaments_settings_check(NULL, tc, why, sizeof why)) {
        snprintf(why, sizeof why, "time control '%.60s' is not understood: 5400+30 is used", tc);
        warn(im, why);
        json_object_set_new(b, "time_control", json_string("5400+30"));
    }
    int rounds = t->n_rounds > 0 ? t->n_rounds : rounds_in(t);
    if (rounds > 0)
        json_object_set_new(b, "rounds", json_integer(rounds));
    iso_date(t->start_date, date, sizeof date);
    json_object_set_new(b, "start_date", json_string(date));
    if (t->points_given)
        json_object_set_new(b, "points", points_of(&t->points));
    if (t->tiebreaks[0]) {
        json_t *tb = json_pack("{s:s}", "tiebreaks", t->tiebreaks);
        if (tournaments_options_check(tb, why, sizeof why) == 0)
            json_object_set_new(b, "tiebreaks", json_string(t->tiebreaks));
        else
            warn(im, why);
        json_decref(tb);
    }
    json_t *office = office_of(t);
    json_t *probe = json_pack("{s:O}", "office", office);
    if (office_check(probe, why, sizeof why) == 0)
        json_object_set(b, "office", office);
    else
        warn(im, why);
    json_decref(probe);
    json_decref(office);
    return b;
}

/* ---- players ---- */

static const char *const TITLES[] = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", NULL};

/* The one-letter titles of older files (g GM, m IM, f FM, c CM, and w
 * before them for the women's titles). */
static const char *const OLD_TITLES[] = {"g", "m", "f", "c", "wg", "wm", "wf", "wc", NULL};

static json_t *player_body(const TrnPlayer *p)
{
    const char *title = "";
    for (int i = 0; TITLES[i]; i++)
        if (strcasecmp(p->title, TITLES[i]) == 0 || strcmp(p->title, OLD_TITLES[i]) == 0)
            title = TITLES[i];
    char fed[4] = "";
    if (strlen(p->federation) == 3 && isupper((unsigned char)p->federation[0]) &&
        isupper((unsigned char)p->federation[1]) && isupper((unsigned char)p->federation[2]))
        snprintf(fed, sizeof fed, "%s", p->federation);
    /* A rating under FIDE's floor is a national one: the order's estimate. */
    int fide = p->rating >= 1000 && p->rating <= 3500;
    return json_pack("{s:s,s:i,s:i,s:s,s:s,s:s,s:s,s:s}", "name", p->name, "rating",
                     fide ? p->rating : 0, "rating_estimate", fide ? 0 : p->rating, "title", title,
                     "federation", fed, "fide_id", p->fide_id, "sex",
                     p->sex == 'w'   ? "w"
                     : p->sex == 'm' ? "m"
                                     : "",
                     "birth", p->birth);
}

static int add_players(Import *im)
{
    const Tournament *t = im->t;
    for (int id = 1; id <= TRN_MAX_PLAYERS; id++) {
        const TrnPlayer *p = tournament_player(t, id);
        if (!p)
            continue;
        /* No credentials yet: the arbiter issues PINs when the players come. */
        json_t *h = store_row(im->s,
                              "SELECT lower(hex(randomblob(32))) AS pin, "
                              "lower(hex(randomblob(32))) AS token",
                              "");
        json_t *body = player_body(p), *row = NULL;
        int rc = h && body ? players_create(im->s, im->tid, body, jsonget_str(h, "pin"),
                                            jsonget_str(h, "token"), im->user, &row, im->err, im->n)
                           : -ENOMEM;
        json_decref(h);
        json_decref(body);
        if (rc) {
            if (rc > 0) {
                char tmp[200];
                snprintf(tmp, sizeof tmp, "%s", im->err);
                snprintf(im->err, im->n, "line %d: %s", p->line, tmp);
            }
            return rc;
        }
        im->pid[id] = jsonget_int(row, "id");
        json_decref(row);
        /* The file's numbers stay: its rounds were paired on them. */
        rc = store_run(im->s, NULL, "UPDATE players SET start_rank = ?2 WHERE id = ?1", "ii",
                       im->pid[id], (int64_t)id);
        if (rc)
            return rc;
    }
    return 0;
}

/* The last round in which some player has an opponent or a result: blank
 * columns after it are rounds not paired yet. */
static int rounds_in(const Tournament *t)
{
    int last = 0;
    for (int i = 0; i < t->n_players; i++)
        for (int r = last; r < t->players[i].rounds; r++)
            if (t->players[i].games[r].opponent || t->players[i].games[r].result != TRN_RES_NONE)
                last = r + 1;
    return last;
}

/* ---- rounds ---- */

static int bye_row(Import *im, int rn, const TrnPlayer *p)
{
    char res = p->games[rn - 1].result;
    const char *kind = res == TRN_RES_PAB              ? "pab"
                       : res == TRN_RES_HPB            ? "half"
                       : res == TRN_RES_FORFEIT_WIN    ? "forfeit"
                       : res == TRN_RES_FPB            ? NULL
                       : tournament_result_is_win(res) ? NULL
                       : res == TRN_RES_UNRATED_DRAW   ? NULL
                       : res == TRN_RES_DRAW           ? NULL
                                                       : "zero";
    if (!kind)
        return error_set(im->err, im->n, STORE_E_INVALID,
                         "line %d: round %d: '%c' without an opponent has no place in the "
                         "server's rounds (a full-point bye or a win without a game)",
                         p->line, rn, res);
    return store_run(im->s, NULL,
                     "INSERT INTO byes(tournament_id, round, player_id, kind, created_ms) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)",
                     "iiisi", im->tid, (int64_t)rn, im->pid[p->id], kind, store_now_ms());
}

/* Half-points of a result character for the arbiter's result event. */
static int half_points(char r)
{
    return tournament_result_is_win(r)                        ? 2
           : (r == TRN_RES_DRAW || r == TRN_RES_UNRATED_DRAW) ? 1
                                                              : 0;
}

static int set_result(Import *im, int64_t gid, char w, char b)
{
    GameEvent ev;
    game_event_init(&ev, GAME_EV_RESULT, GAME_ACTOR_ARBITER, 0);
    ev.score[0] = (int8_t)half_points(w);
    ev.score[1] = (int8_t)half_points(b);
    ev.forfeit = w == TRN_RES_FORFEIT_WIN || w == TRN_RES_FORFEIT_LOSS;
    GameOutcome o;
    memset(&o, 0, sizeof o);
    json_array_append_new(im->gids, json_integer(gid));
    int rc = games_act(im->g, im->s, gid, &ev, -1, &o, im->err, im->n);
    games_outcome_clear(&o);
    return rc;
}

static int add_round(Import *im, int rn)
{
    const Tournament *t = im->t;
    json_t *pairings = json_array();
    /* (white, black) start ranks of each board, and their results. */
    int nb = 0, with_result = 0, unrated = 0;
    int *white = calloc((size_t)t->n_players + 1, sizeof *white);
    int *black = calloc((size_t)t->n_players + 1, sizeof *black);
    int rc = pairings && white && black ? 0 : -ENOMEM;
    for (int i = 0; !rc && i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        const TrnGame *gm = &p->games[rn - 1];
        if (rn > p->rounds || gm->opponent == 0)
            continue;
        /* Each game once: from White's line, or from the lower start
         * rank's line of a forfeit written without colours. */
        int w = gm->colour == TRN_WHITE || (gm->colour == TRN_COLOUR_NONE && p->id < gm->opponent)
                    ? p->id
                    : 0;
        if (!w)
            continue;
        white[nb] = w;
        black[nb] = gm->opponent;
        nb++;
        json_array_append_new(pairings, json_pack("{s:i,s:I,s:I}", "board", nb, "white_id",
                                                  (json_int_t)im->pid[w], "black_id",
                                                  (json_int_t)im->pid[gm->opponent]));
        with_result += gm->result != TRN_RES_NONE;
        unrated += gm->result == TRN_RES_UNRATED_WIN || gm->result == TRN_RES_UNRATED_DRAW ||
                   gm->result == TRN_RES_UNRATED_LOSS;
    }
    json_t *round = NULL;
    if (!rc)
        rc = rounds_create(im->s, im->tid, pairings, im->user, &round, im->err, im->n);
    json_t *games = json_object_get(round, "games");
    for (int i = 0; !rc && i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        if (rn <= p->rounds && p->games[rn - 1].opponent == 0)
            rc = bye_row(im, rn, p);
    }
    if (!rc && with_result) {
        GameOutcome *outs = NULL;
        rc = games_round_act(im->g, im->s, im->tid, rn, GAME_EV_START, &outs, im->err, im->n);
        for (GameOutcome *o = outs; o; o = o->next)
            json_array_append_new(im->gids, json_integer(o->gid));
        games_outcome_free(outs);
    }
    for (int k = 0; !rc && k < nb; k++) {
        const TrnPlayer *pw = tournament_player(t, white[k]), *pb = tournament_player(t, black[k]);
        char rw = pw->games[rn - 1].result, rb = pb->games[rn - 1].result;
        if (rw != TRN_RES_NONE)
            rc = set_result(im, jsonget_int(json_array_get(games, (size_t)k), "id"), rw, rb);
    }
    /* A report's rounds were public at the venue. */
    if (!rc)
        rc = store_run(im->s, NULL,
                       "UPDATE rounds SET published_ms = coalesce(published_ms, ?3) WHERE "
                       "tournament_id = ?1 AND number = ?2",
                       "iii", im->tid, (int64_t)rn, store_now_ms());
    if (!rc && unrated) {
        char w[120];
        snprintf(w, sizeof w,
                 "round %d: %d result(s) of a game shorter than a move (W D L) "
                 "stored as played",
                 rn, unrated);
        warn(im, w);
    }
    json_decref(round);
    json_decref(pairings);
    free(white);
    free(black);
    return rc;
}

/* Whether round RN of T has no game and no result but a bye announced. */
static int announced_only(const Tournament *t, int rn)
{
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        if (p->rounds < rn)
            continue;
        const TrnGame *g = &p->games[rn - 1];
        if (g->opponent ||
            !(g->result == TRN_RES_NONE || g->result == TRN_RES_HPB || g->result == TRN_RES_ZPB))
            return 0;
    }
    return 1;
}

/* ---- forbidden pairs ---- */

static int add_forbidden(Import *im)
{
    const Tournament *t = im->t;
    for (int f = 0; f < t->n_forbidden; f++) {
        const TrnForbidden *fb = &t->forbidden[f];
        for (int a = 0; a < fb->n; a++)
            for (int b = a + 1; b < fb->n; b++) {
                int64_t x = im->pid[fb->players[a]], y = im->pid[fb->players[b]];
                if (!x || !y || x == y)
                    continue;
                int rc =
                    store_run(im->s, NULL,
                              "INSERT OR IGNORE INTO forbidden_pairs(tournament_id, "
                              "player_a, player_b, first_round, last_round, created_ms) "
                              "VALUES (?1, min(?2, ?3), max(?2, ?3), nullif(?4, 0), "
                              "nullif(?5, 0), ?6)",
                              "iiiiii", im->tid, x, y, (int64_t)(fb->xxp ? 0 : fb->first_round),
                              (int64_t)(fb->xxp ? 0 : fb->last_round), store_now_ms());
                if (rc)
                    return rc;
            }
    }
    return 0;
}

int trf_import_create(Store *s, Games *g, const Tournament *t, const char *time_control,
                      int64_t user, json_t **out, char *err, size_t n)
{
    Import im = {s, g, t, 0, user, NULL, json_array(), json_array(), err, n};
    json_t *tour = NULL, *body = NULL;
    int rc = 0;
    im.pid = calloc(TRN_MAX_PLAYERS + 1, sizeof *im.pid);
    if (!im.pid || !im.warnings || !im.gids) {
        rc = -ENOMEM;
        goto fail;
    }
    if (t->n_players == 0) {
        rc = error_set(err, n, STORE_E_INVALID, "the file has no player (no 001 line)");
        goto fail;
    }
    body = tournament_body(&im, time_control);
    rc = tournaments_create(s, body, user, &tour, err, n);
    if (rc)
        goto fail;
    im.tid = jsonget_int(tour, "id");
    rc = add_players(&im);
    int rounds = rounds_in(t);
    /* A last column of nothing but byes announced (H, Z) is the round to
     * pair: its byes are requested ones, the round is not there yet. */
    if (rounds > 0 && announced_only(t, rounds))
        rounds--;
    for (int rn = 1; !rc && rn <= rounds; rn++)
        rc = add_round(&im, rn);
    for (int i = 0; !rc && i < t->n_players && rounds < rounds_in(t); i++) {
        const TrnPlayer *p = &t->players[i];
        char res = p->rounds > rounds ? p->games[rounds].result : TRN_RES_NONE;
        if (res == TRN_RES_HPB || res == TRN_RES_ZPB)
            rc = store_run(s, NULL,
                           "INSERT INTO byes(tournament_id, round, player_id, kind, created_ms) "
                           "VALUES (?1, ?2, ?3, ?4, ?5)",
                           "iiisi", im.tid, (int64_t)rounds + 1, im.pid[p->id],
                           res == TRN_RES_HPB ? "half" : "zero", store_now_ms());
    }
    if (!rc)
        rc = add_forbidden(&im);
    if (rc)
        goto fail;
    int accel = t->n_accel > 0;
    for (int i = 0; i < t->n_players; i++)
        accel |= t->players[i].has_accel;
    if (accel)
        warn(&im, "acceleration (250 / XXA) is not imported");
    json_decref(tour);
    *out = json_pack("{s:o,s:i,s:i,s:O}", "tournament", tournaments_get(s, im.tid), "players",
                     t->n_players, "rounds", rounds, "warnings", im.warnings);
fail:
    if (rc) {
        size_t k;
        json_t *v;
        json_array_foreach(im.gids, k, v) games_evict(g, json_integer_value(v));
        json_decref(tour);
    }
    json_decref(body);
    json_decref(im.warnings);
    json_decref(im.gids);
    free(im.pid);
    return rc;
}
