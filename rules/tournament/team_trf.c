/*
 * team_trf.c — TRF-2026 team files (see team_trf.h).  The writer builds the
 * individual Tournament and lets trf_write() produce the header and the
 * 001 records, then appends the team section; the reader does the
 * reverse.  Columns are characters (UTF-8 sequences count one), as in
 * trf_field.h.
 */
#include "team_trf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "team_standings.h"
#include "trf_field.h"

enum {
    TRF310_PLAYERS = 14, /* player columns of a 310 record */
};

/* ---- the individual part ---- */

static void copy_header(Tournament *t, const Tournament *h)
{
    memcpy(t->name, h->name, sizeof t->name);
    memcpy(t->city, h->city, sizeof t->city);
    memcpy(t->federation, h->federation, sizeof t->federation);
    memcpy(t->start_date, h->start_date, sizeof t->start_date);
    memcpy(t->end_date, h->end_date, sizeof t->end_date);
    memcpy(t->type, h->type, sizeof t->type);
    memcpy(t->chief_arbiter, h->chief_arbiter, sizeof t->chief_arbiter);
    memcpy(t->time_control, h->time_control, sizeof t->time_control);
    memcpy(t->round_dates, h->round_dates, sizeof t->round_dates);
    t->n_round_dates = h->n_round_dates;
    memcpy(t->system, h->system, sizeof t->system);
    memcpy(t->tiebreaks, h->tiebreaks, sizeof t->tiebreaks);
    memcpy(t->standings, h->standings, sizeof t->standings);
    memcpy(t->encoded_tc, h->encoded_tc, sizeof t->encoded_tc);
}

/* The 192 code of the settings: FIDE_TEAM_TYPEA_MP_GP and its kin. */
static void system_code(const TeamSettings *s, char *buf, size_t n)
{
    const char *type = s->pref == TEAM_PREF_A ? "_TYPEA" : s->pref == TEAM_PREF_B ? "_TYPEB" : "";
    const char *score = s->primary == TEAM_PRIMARY_GAME ? "GP_MP" : "MP_GP";
    snprintf(buf, n, "FIDE_TEAM%s_%.*s", type, s->no_secondary ? 2 : 5, score);
}

static bool is_team_code(const char *line)
{
    static const char *const codes[] = {"310", "013", "352", "362", "320",
                                        "330", "300", "240", "801", "802"};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (!strncmp(line, codes[i], 3))
            return true;
    return false;
}

/* Writes one board game into the players' round entries. */
static void put_game(Tournament *t, int r, int player, int opp, TrnColour c, char result)
{
    TrnPlayer *p = player ? tournament_player_mut(t, player) : NULL;
    if (!p)
        return;
    p->games[r - 1] = (TrnGame){(uint16_t)opp, (uint8_t)(opp ? c : TRN_COLOUR_NONE), result};
}

int team_trf_tournament(const TeamEvent *ev, const Tournament *head, Tournament **out)
{
    *out = NULL;
    Tournament *t = tournament_new();
    if (!t)
        return -ENOMEM;
    const TeamSettings *s = &ev->settings;
    if (head) {
        copy_header(t, head);
        for (int i = 0; i < head->n_other; i++)
            if (!is_team_code(head->other[i].text) &&
                tournament_add_other(t, head->other[i].text)) {
                tournament_free(t);
                return -ENOMEM;
            }
    }
    if (!t->system[0])
        system_code(s, t->system, sizeof t->system);
    t->points = s->game;
    TrnPointSystem def;
    tournament_points_default(&def);
    t->points_given = memcmp(&def, &s->game, sizeof def) != 0;
    t->n_rounds = s->n_rounds;
    t->initial_colour = s->initial_colour;
    for (int i = 0; i < ev->n_players; i++) {
        const TeamPlayer *q = &ev->players[i];
        TrnPlayer *p = tournament_add_player(t, q->id);
        if (!p) {
            tournament_free(t);
            return -ENOMEM;
        }
        memcpy(p->name, q->name, sizeof p->name);
        memcpy(p->title, q->title, sizeof p->title);
        memcpy(p->federation, q->federation, sizeof p->federation);
        memcpy(p->fide_id, q->fide_id, sizeof p->fide_id);
        memcpy(p->birth, q->birth, sizeof p->birth);
        p->sex = q->sex;
        p->rating = q->rating;
        p->rounds = ev->n_rounds;
    }
    for (int r = 1; r <= ev->n_rounds; r++) {
        const TeamRound *rd = &ev->rounds[r - 1];
        for (int i = 0; i < rd->n_matches; i++) {
            const TeamMatch *m = &rd->matches[i];
            if (!m->team_b || m->forfeit != TEAM_FORFEIT_NONE)
                continue;
            for (int k = 0; k < s->boards; k++) {
                const TeamBoardGame *g = &m->board[k];
                TrnColour ca = (TrnColour)g->colour_a;
                TrnColour cb = ca == TRN_WHITE ? TRN_BLACK : TRN_WHITE;
                put_game(t, r, g->player_a, g->player_b, ca, g->result_a);
                put_game(t, r, g->player_b, g->player_a, cb, g->result_b);
            }
        }
    }
    t->rounds_played = ev->n_rounds;
    for (int i = 0; i < t->n_players; i++)
        t->players[i].points = tournament_player_score(t, &t->players[i], ev->n_rounds);
    *out = t;
    return 0;
}

/* ---- the team section ---- */

/* Appends s in exactly `width` columns (cut or padded), left-aligned. */
static void put_cols(StrBuf *o, const char *s, int width)
{
    size_t i = 0, n = strlen(s);
    int cols = 0;
    while (i < n && cols < width) {
        int l = trf_field_char_len((const unsigned char *)s + i, n - i);
        strbuf_append(o, s + i, (size_t)l);
        i += (size_t)l;
        cols++;
    }
    for (; cols < width; cols++)
        strbuf_putc(o, ' ');
}

static void put_points(StrBuf *o, TrnPoints p, int width)
{
    char buf[16];
    trf_field_format_points(p, buf);
    strbuf_appendf(o, "%*s", width, buf);
}

static void end_line(StrBuf *o)
{
    size_t n = o->len;
    while (!o->failed && n > 0 && o->data[n - 1] == ' ')
        n--;
    strbuf_truncate(o, n);
    strbuf_putc(o, '\r');
}

/* The first-named team's colour on board 1 under the scheme. */
static TrnColour scheme_first(const TeamSettings *s)
{
    if (s->scheme == TEAM_BOARDS_EVEN_WHITE)
        return TRN_BLACK;
    if (s->scheme == TEAM_BOARDS_PATTERN &&
        (s->board_pattern[0] == 'B' || s->board_pattern[0] == 'b'))
        return TRN_BLACK;
    return TRN_WHITE;
}

/* The first-named team's colour sequence ("WBWB"). */
static void board_sequence(const TeamSettings *s, char *buf)
{
    TrnColour first = scheme_first(s);
    for (int k = 0; k < s->boards; k++)
        buf[k] = team_board_colour(s, first, k + 1) == TRN_WHITE ? 'W' : 'B';
    buf[s->boards] = '\0';
}

/* The players on the boards of team `team` in match m (0 = empty). */
static void lineup_of(const TeamEvent *ev, const TeamMatch *m, int team, int *ids)
{
    for (int k = 0; k < ev->settings.boards; k++)
        ids[k] = m->team_a == team ? m->board[k].player_a : m->board[k].player_b;
}

static bool default_lineup(const TeamEvent *ev, int team, const int *ids)
{
    const TeamEntry *t = team_event_team(ev, team);
    for (int k = 0; k < ev->settings.boards; k++)
        if (ids[k] != (k < t->n_roster ? t->roster[k] : 0))
            return false;
    return true;
}

static void write_310(StrBuf *o, const TeamEvent *ev)
{
    TeamStandings *st = NULL;
    team_standings_compute(ev, 0, NULL, 0, &st);
    for (int id = 1; id <= ev->n_teams; id++) {
        const TeamEntry *t = team_event_team(ev, id);
        TrnPoints mp, gp;
        team_event_score(ev, id, ev->n_rounds, &mp, &gp);
        int rank = 0;
        for (int i = 0; st && i < st->n_rows; i++)
            if (st->rows[i].team == id)
                rank = st->rows[i].rank;
        strbuf_appendf(o, "310 %3d ", id);
        put_cols(o, t->name, 32);
        strbuf_putc(o, ' ');
        put_cols(o, t->federation, 5);
        strbuf_appendf(o, " %6d ", team_rating_average(ev, id, ev->settings.boards));
        put_points(o, mp, 6);
        strbuf_putc(o, ' ');
        put_points(o, gp, 6);
        strbuf_appendf(o, " %3d ", rank);
        for (int k = 0; k < t->n_roster && k < TRF310_PLAYERS; k++)
            strbuf_appendf(o, " %4d", t->roster[k]);
        end_line(o);
    }
    team_standings_free(st);
}

static void write_rounds(StrBuf *o, const TeamEvent *ev)
{
    const TeamSettings *s = &ev->settings;
    bool any_pab = false;
    for (int r = 1; r <= ev->n_rounds; r++)
        for (int t = 1; t <= ev->n_teams; t++) {
            const TeamMatch *m = team_event_match_of(ev, r, t);
            any_pab = any_pab || (m && !m->team_b && m->bye == TRN_RES_PAB);
        }
    if (any_pab) {
        strbuf_puts(o, "320 ");
        put_points(o, s->pab_mp, 4);
        strbuf_putc(o, ' ');
        put_points(o, s->pab_gp, 4);
        for (int r = 1; r <= ev->n_rounds; r++) {
            int pab = 0;
            for (int t = 1; t <= ev->n_teams && !pab; t++) {
                const TeamMatch *m = team_event_match_of(ev, r, t);
                if (m && !m->team_b && m->bye == TRN_RES_PAB)
                    pab = t;
            }
            strbuf_appendf(o, " %03d", pab);
        }
        end_line(o);
    }
    for (int r = 1; r <= ev->n_rounds; r++)
        for (int t = 1; t <= ev->n_teams; t++) {
            const TeamMatch *m = team_event_match_of(ev, r, t);
            if (!m || !m->team_b || m->team_a != t)
                continue;
            bool a_white = m->colour_a == TRN_WHITE;
            int white = a_white ? m->team_a : m->team_b, black = a_white ? m->team_b : m->team_a;
            if (m->forfeit != TEAM_FORFEIT_NONE) {
                int winner = m->forfeit == TEAM_FORFEIT_A   ? m->team_b
                             : m->forfeit == TEAM_FORFEIT_B ? m->team_a
                                                            : 0;
                const char *type = !winner ? "--" : winner == white ? "+-" : "-+";
                strbuf_appendf(o, "330 %s %03d %03d %03d", type, r, white, black);
                end_line(o);
                continue;
            }
            for (int side = 0; side < 2; side++) {
                int team = side ? m->team_b : m->team_a, opp = side ? m->team_a : m->team_b;
                int ids[TEAM_MAX_BOARDS];
                lineup_of(ev, m, team, ids);
                if (default_lineup(ev, team, ids))
                    continue;
                strbuf_appendf(o, "300 %03d %03d %03d", r, team, opp);
                for (int k = 0; k < s->boards; k++)
                    strbuf_appendf(o, " %04d", ids[k]);
                end_line(o);
            }
        }
    static const char kinds[] = {TRN_RES_FPB, TRN_RES_HPB, TRN_RES_ZPB};
    for (int r = 1; r <= ev->n_rounds; r++)
        for (size_t k = 0; k < sizeof kinds; k++) {
            bool started = false;
            for (int t = 1; t <= ev->n_teams; t++) {
                const TeamMatch *m = team_event_match_of(ev, r, t);
                if (!m || m->team_b || m->bye != kinds[k])
                    continue;
                if (!started)
                    strbuf_appendf(o, "240 %c %03d", kinds[k], r);
                started = true;
                strbuf_appendf(o, " %4d", t);
            }
            if (started)
                end_line(o);
        }
}

char *team_trf_write(const TeamEvent *ev, const Tournament *head, size_t *len)
{
    Tournament *t;
    if (team_trf_tournament(ev, head, &t))
        return NULL;
    size_t n;
    char *indiv = trf_write(t, TRF_FLAVOUR_26, &n);
    tournament_free(t);
    if (!indiv)
        return NULL;
    StrBuf o = {0};
    strbuf_append(&o, indiv, n);
    free(indiv);
    const TeamSettings *s = &ev->settings;
    char seq[TEAM_MAX_BOARDS + 1];
    board_sequence(s, seq);
    strbuf_appendf(&o, "352 %s", seq);
    end_line(&o);
    strbuf_puts(&o, "362 TW");
    put_points(&o, s->mp_win, 4);
    strbuf_puts(&o, "   TD");
    put_points(&o, s->mp_draw, 4);
    strbuf_puts(&o, "   TL");
    put_points(&o, s->mp_loss, 4);
    end_line(&o);
    write_310(&o, ev);
    write_rounds(&o, ev);
    if (len)
        *len = o.len;
    return strbuf_take(&o);
}

/* ---- the reader ---- */

/* Columns c1..c2 (1-based characters) of the line, blanks trimmed. */
static void col_field(const char *s, size_t n, int c1, int c2, char *buf, size_t cap)
{
    size_t i = 0, start = n, end = n;
    for (int col = 1; i < n && col <= c2; col++) {
        if (col == c1)
            start = i;
        i += (size_t)trf_field_char_len((const unsigned char *)s + i, n - i);
        if (col == c2)
            end = i;
    }
    if (start >= n) {
        buf[0] = '\0';
        return;
    }
    if (end > n)
        end = n;
    while (start < end && s[start] == ' ')
        start++;
    while (end > start && s[end - 1] == ' ')
        end--;
    size_t len = end - start < cap - 1 ? end - start : cap - 1;
    memcpy(buf, s + start, len);
    buf[len] = '\0';
}

/* "11.5" -> 115 tenths; false if it is not a number. */
static bool parse_points(const char *s, TrnPoints *out)
{
    int sign = 1, whole = 0, tenth = 0;
    if (*s == '-') {
        sign = -1;
        s++;
    }
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        whole = whole * 10 + (*s++ - '0');
    if (*s == '.' && s[1] >= '0' && s[1] <= '9') {
        tenth = s[1] - '0';
        s += 2;
    }
    *out = sign * (whole * TRN_POINT + tenth);
    return *s == '\0';
}

static int int_field(const char *s, size_t n, int c1, int c2)
{
    char buf[32];
    col_field(s, n, c1, c2, buf, sizeof buf);
    return atoi(buf);
}

typedef struct TeamLine {
    const char *s;
    size_t n;
    int no; /* 1-based line number in the file */
} TeamLine;

typedef struct TReader {
    TeamLine *lines;
    int n_lines;
    TrfError *err;
    Tournament *t;
    TeamEvent *ev;
    char seq[TEAM_MAX_BOARDS + 1];
} TReader;

static int tfail(TReader *r, int code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int tfail(TReader *r, int code, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->err->code = code;
    r->err->line = line;
    r->err->column = 0;
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
    return code;
}

/* Settings from 352, 362, 320 and the individual header. */
static int read_settings(TReader *r, TeamSettings *s)
{
    Tournament *t = r->t;
    int boards = 0;
    r->seq[0] = '\0';
    for (int i = 0; i < r->n_lines; i++)
        if (!strncmp(r->lines[i].s, "352", 3)) {
            col_field(r->lines[i].s, r->lines[i].n, 5, 4 + TEAM_MAX_BOARDS, r->seq, sizeof r->seq);
            boards = (int)strlen(r->seq);
            for (int k = 0; k < boards; k++)
                if (r->seq[k] != 'W' && r->seq[k] != 'B')
                    return tfail(r, TRF_E_SYNTAX, r->lines[i].no,
                                 "352: board %d is neither W nor B", k + 1);
        }
    team_settings_default(s, boards ? boards : 4);
    if (!boards)
        for (int k = 0; k < s->boards; k++)
            r->seq[k] = k % 2 ? 'B' : 'W';
    s->boards = boards ? boards : s->boards;
    bool alt = true;
    for (int k = 1; k < s->boards; k++)
        alt = alt && r->seq[k] != r->seq[k - 1];
    if (alt)
        s->scheme = r->seq[0] == 'W' ? TEAM_BOARDS_ODD_WHITE : TEAM_BOARDS_EVEN_WHITE;
    else {
        s->scheme = TEAM_BOARDS_PATTERN;
        memcpy(s->board_pattern, r->seq, sizeof s->board_pattern);
    }
    s->game = t->points;
    s->n_rounds = t->n_rounds;
    s->initial_colour = t->initial_colour ? t->initial_colour : TRN_WHITE;
    if (!strncmp(t->system, "FIDE_TEAM", 9)) {
        s->pref = strstr(t->system, "_TYPEB")   ? TEAM_PREF_B
                  : strstr(t->system, "_TYPEA") ? TEAM_PREF_A
                  : strcmp(t->system, "FIDE_TEAM") && strncmp(t->system, "FIDE_TEAM_BAKU", 14)
                      ? TEAM_PREF_NONE
                      : TEAM_PREF_A;
        const char *sc = t->system + 9;
        if (!strncmp(sc, "_TYPEA", 6) || !strncmp(sc, "_TYPEB", 6))
            sc += 6;
        s->primary = !strncmp(sc, "_GP", 3) ? TEAM_PRIMARY_GAME : TEAM_PRIMARY_MATCH;
        /* FIDE_TEAM_TYPEA_MP: no secondary score for the colours. */
        s->no_secondary = (!strncmp(sc, "_MP", 3) || !strncmp(sc, "_GP", 3)) &&
                          (sc[3] == '\0' || !strncmp(sc + 3, "_BAKU", 5));
    }
    for (int i = 0; i < r->n_lines; i++) {
        const TeamLine *l = &r->lines[i];
        char buf[16];
        if (!strncmp(l->s, "362", 3)) {
            static const char *const codes[] = {"TW", "TD", "TL"};
            TrnPoints *dst[] = {&s->mp_win, &s->mp_draw, &s->mp_loss};
            for (int c = 5; c + 5 <= (int)l->n; c += 9) {
                char code[4];
                col_field(l->s, l->n, c, c + 1, code, sizeof code);
                col_field(l->s, l->n, c + 2, c + 5, buf, sizeof buf);
                for (int k = 0; k < 3; k++)
                    if (!strcmp(code, codes[k]) && !parse_points(buf, dst[k]))
                        return tfail(r, TRF_E_SYNTAX, l->no, "362: bad value for %s", code);
            }
        } else if (!strncmp(l->s, "320", 3)) {
            col_field(l->s, l->n, 5, 8, buf, sizeof buf);
            if (!parse_points(buf, &s->pab_mp))
                return tfail(r, TRF_E_SYNTAX, l->no, "320: bad match points");
            col_field(l->s, l->n, 10, 13, buf, sizeof buf);
            if (!parse_points(buf, &s->pab_gp))
                return tfail(r, TRF_E_SYNTAX, l->no, "320: bad game points");
        }
    }
    return 0;
}

/* Teams and rosters from the 310 records, in team number order. */
static int read_teams(TReader *r)
{
    int n = 0;
    for (int i = 0; i < r->n_lines; i++)
        n += !strncmp(r->lines[i].s, "310", 3);
    for (int id = 1; id <= n; id++) {
        const TeamLine *l = NULL;
        for (int i = 0; i < r->n_lines && !l; i++)
            if (!strncmp(r->lines[i].s, "310", 3) &&
                int_field(r->lines[i].s, r->lines[i].n, 5, 7) == id)
                l = &r->lines[i];
        if (!l)
            return tfail(r, TRF_E_SYNTAX, 0, "310: no team number %d", id);
        char name[TEAM_NAME_MAX];
        col_field(l->s, l->n, 9, 40, name, sizeof name);
        TeamEntry *t = team_event_add_team(r->ev, name);
        if (!t)
            return -ENOMEM;
        col_field(l->s, l->n, 42, 46, t->federation, sizeof t->federation);
        for (int c = 74; c + 3 <= (int)l->n; c += 5) {
            int pid = int_field(l->s, l->n, c, c + 3);
            if (!pid)
                continue;
            const TrnPlayer *src = tournament_player(r->t, pid);
            TeamPlayer *p = src ? team_event_add_player(r->ev, id, pid) : NULL;
            if (!p)
                return tfail(r, TRF_E_OPPONENT, l->no, "310: player %d unknown or in two teams",
                             pid);
            memcpy(p->name, src->name, sizeof p->name);
            memcpy(p->title, src->title, sizeof p->title);
            memcpy(p->federation, src->federation, sizeof p->federation);
            memcpy(p->fide_id, src->fide_id, sizeof p->fide_id);
            memcpy(p->birth, src->birth, sizeof p->birth);
            p->sex = src->sex;
            p->rating = src->rating;
        }
    }
    for (int i = 0; i < r->t->n_players; i++)
        if (!team_event_player(r->ev, r->t->players[i].id))
            return tfail(r, TRF_E_SYNTAX, r->t->players[i].line, "player %d is in no team",
                         r->t->players[i].id);
    return 0;
}

/* The line-up of team in round r: its 300 record, else the roster order. */
static void read_lineup(const TReader *r, int round, int team, int *ids)
{
    const TeamEvent *ev = r->ev;
    const TeamEntry *t = team_event_team(ev, team);
    for (int k = 0; k < ev->settings.boards; k++)
        ids[k] = k < t->n_roster ? t->roster[k] : 0;
    for (int i = 0; i < r->n_lines; i++) {
        const TeamLine *l = &r->lines[i];
        if (strncmp(l->s, "300", 3) || int_field(l->s, l->n, 5, 7) != round ||
            int_field(l->s, l->n, 9, 11) != team)
            continue;
        for (int k = 0; k < ev->settings.boards; k++)
            ids[k] = int_field(l->s, l->n, 17 + 5 * k, 20 + 5 * k);
    }
}

static const TrnGame *game_of(const TReader *r, int player, int round)
{
    const TrnPlayer *p = player ? tournament_player(r->t, player) : NULL;
    return p && round <= p->rounds ? &p->games[round - 1] : NULL;
}

/* The match of team a in round `round` rebuilt from its players' games. */
static int read_match(TReader *r, int round, int a)
{
    TeamEvent *ev = r->ev;
    const TeamSettings *s = &ev->settings;
    int la[TEAM_MAX_BOARDS], lb[TEAM_MAX_BOARDS], b = 0;
    read_lineup(r, round, a, la);
    TrnColour ca = TRN_COLOUR_NONE;
    for (int k = 0; k < s->boards; k++) {
        const TrnGame *g = game_of(r, la[k], round);
        if (!g || !g->opponent)
            continue;
        const TeamPlayer *o = team_event_player(ev, g->opponent);
        if (o && !b)
            b = o->team;
        if (ca == TRN_COLOUR_NONE && g->colour)
            ca = team_board_colour(s, TRN_WHITE, k + 1) == (TrnColour)g->colour ? TRN_WHITE
                                                                                : TRN_BLACK;
    }
    if (!b || b == a || team_event_match_of(ev, round, b))
        return 0;
    read_lineup(r, round, b, lb);
    if (ca == TRN_COLOUR_NONE)
        ca = TRN_WHITE;
    TrnColour first = r->seq[0] == 'B' ? TRN_BLACK : TRN_WHITE;
    bool a_first = ca == first;
    TrnColour cb = ca == TRN_WHITE ? TRN_BLACK : TRN_WHITE;
    TeamMatch *m =
        team_event_add_match(ev, round, a_first ? a : b, a_first ? b : a, a_first ? ca : cb);
    if (!m)
        return -ENOMEM;
    const int *lf = a_first ? la : lb, *ls = a_first ? lb : la;
    for (int k = 0; k < s->boards; k++) {
        TeamBoardGame *g = &m->board[k];
        g->player_a = lf[k];
        g->player_b = ls[k];
        const TrnGame *x = game_of(r, lf[k], round), *y = game_of(r, ls[k], round);
        g->result_a = x ? x->result : 0;
        g->result_b = y ? y->result : 0;
        /* An empty board loses by forfeit. */
        if (!lf[k])
            g->result_a = TRN_RES_FORFEIT_LOSS;
        if (!ls[k])
            g->result_b = TRN_RES_FORFEIT_LOSS;
    }
    return 0;
}

static int read_rounds(TReader *r)
{
    TeamEvent *ev = r->ev;
    int rounds = r->t->rounds_played;
    for (int i = 0; i < r->n_lines; i++) {
        const TeamLine *l = &r->lines[i];
        int rr = 0;
        if (!strncmp(l->s, "330", 3))
            rr = int_field(l->s, l->n, 8, 10);
        else if (!strncmp(l->s, "300", 3) || !strncmp(l->s, "240", 3))
            rr = int_field(l->s, l->n, !strncmp(l->s, "240", 3) ? 7 : 5,
                           !strncmp(l->s, "240", 3) ? 9 : 7);
        else if (!strncmp(l->s, "320", 3))
            rr = ((int)l->n - 14 + 3) / 4;
        if (rr > rounds)
            rounds = rr;
    }
    if (rounds > TRN_MAX_ROUNDS)
        return tfail(r, TRF_E_RANGE, 0, "more than %d rounds", TRN_MAX_ROUNDS);
    TrnColour first = r->seq[0] == 'B' ? TRN_BLACK : TRN_WHITE;
    for (int round = 1; round <= rounds; round++) {
        if (!team_event_add_round(ev))
            return -ENOMEM;
        for (int i = 0; i < r->n_lines; i++) {
            const TeamLine *l = &r->lines[i];
            if (strncmp(l->s, "330", 3) || int_field(l->s, l->n, 8, 10) != round)
                continue;
            char type[4];
            col_field(l->s, l->n, 5, 6, type, sizeof type);
            int white = int_field(l->s, l->n, 12, 14), black = int_field(l->s, l->n, 16, 18);
            int a = first == TRN_WHITE ? white : black, b = first == TRN_WHITE ? black : white;
            TeamMatch *m = team_event_add_match(ev, round, a, b, first);
            if (!m)
                return tfail(r, TRF_E_SYNTAX, l->no, "330: a team already plays in round %d",
                             round);
            int absent = !strcmp(type, "+-") ? black : !strcmp(type, "-+") ? white : 0;
            m->forfeit = !absent               ? TEAM_FORFEIT_BOTH
                         : absent == m->team_a ? TEAM_FORFEIT_A
                                               : TEAM_FORFEIT_B;
        }
        for (int t = 1; t <= ev->n_teams; t++) {
            if (team_event_match_of(ev, round, t))
                continue;
            int rc = read_match(r, round, t);
            if (rc)
                return rc;
        }
        for (int i = 0; i < r->n_lines; i++) {
            const TeamLine *l = &r->lines[i];
            if (!strncmp(l->s, "320", 3)) {
                int t = int_field(l->s, l->n, 15 + 4 * (round - 1), 17 + 4 * (round - 1));
                if (t && !team_event_add_bye(ev, round, t, TRN_RES_PAB))
                    return tfail(r, TRF_E_SYNTAX, l->no, "320: bad team in round %d", round);
            } else if (!strncmp(l->s, "240", 3) && int_field(l->s, l->n, 7, 9) == round) {
                char kind[4];
                col_field(l->s, l->n, 5, 5, kind, sizeof kind);
                for (int c = 11; c + 3 <= (int)l->n; c += 5) {
                    int t = int_field(l->s, l->n, c, c + 3);
                    if (t && !team_event_add_bye(ev, round, t, kind[0]))
                        return tfail(r, TRF_E_SYNTAX, l->no, "240: bad team in round %d", round);
                }
            }
        }
    }
    return 0;
}

int team_trf_read(const char *text, size_t len, TeamEvent **ev, Tournament **indiv, TrfError *err)
{
    *ev = NULL;
    if (indiv)
        *indiv = NULL;
    memset(err, 0, sizeof *err);
    TReader r = {0};
    r.err = err;
    StrBuf rest = {0};
    int rc = -ENOMEM, cap = 0;
    for (size_t i = 0, no = 1; i < len; no++) {
        size_t j = i;
        while (j < len && text[j] != '\r' && text[j] != '\n')
            j++;
        if (j - i >= 3 && is_team_code(text + i)) {
            if (r.n_lines == cap) {
                cap = cap ? 2 * cap : 64;
                TeamLine *nl = realloc(r.lines, (size_t)cap * sizeof *nl);
                if (!nl)
                    goto out;
                r.lines = nl;
            }
            r.lines[r.n_lines++] = (TeamLine){text + i, j - i, (int)no};
        } else {
            strbuf_append(&rest, text + i, j - i);
            strbuf_putc(&rest, '\r');
        }
        if (j < len && text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
            j++;
        i = j + 1;
    }
    if (rest.failed)
        goto out;
    rc = trf_read(rest.data ? rest.data : "", rest.len, 0, &r.t, err);
    if (rc)
        goto out;
    TeamSettings s;
    if ((rc = read_settings(&r, &s)))
        goto out;
    rc = -ENOMEM;
    r.ev = team_event_new(&s);
    if (!r.ev)
        goto out;
    if ((rc = read_teams(&r)) || (rc = read_rounds(&r)))
        goto out;
    *ev = r.ev;
    r.ev = NULL;
    if (indiv) {
        *indiv = r.t;
        r.t = NULL;
    }
out:
    team_event_free(r.ev);
    tournament_free(r.t);
    strbuf_free(&rest);
    free(r.lines);
    return rc;
}
