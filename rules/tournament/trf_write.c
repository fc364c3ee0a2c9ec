/*
 * trf_write.c — the TRF writer (see trf.h): header lines, the flavour's
 * extension records, then one 001 record per player with exact columns
 * (fields padded and cut by characters, not bytes, on a UTF-8 boundary:
 * name 33, title 3, federation 3, FIDE id 11, birth date 10), every line
 * ending in CR; a CR or LF in stored text is written as a blank.  Output
 * grows in one StrBuf; linear in the size of the tournament.
 */
#include "trf.h"
#include "strbuf.h"
#include "trf_field.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Points for a 4-column field: "11.5", or "100" when the decimal would not
 * fit.  Whatever was read from a 4-column field fits again this way.
 */
static void points4(TrnPoints p, char *buf)
{
    trf_field_format_points(p, buf);
    size_t n = strlen(buf);
    if (n > 4 && buf[n - 1] == '0')
        buf[n - 2] = '\0';
}

/* Bytes of the first WIDTH characters (not bytes) of s, a UTF-8 sequence
 * counting as one: a fixed-width field is cut there, on a character
 * boundary, so the column after it stays where the format puts it.  *COLS
 * gets the characters kept. */
static size_t text_prefix(const char *s, int width, int *cols)
{
    size_t n = strlen(s), i = 0;
    int c = 0;
    while (i < n && c < width) {
        i += (size_t)trf_field_char_len((const unsigned char *)s + i, n - i);
        c++;
    }
    *cols = c;
    return i < n ? i : n;
}

/* Appends N bytes of s with CR and LF as blanks: stored text cannot end a
 * line early or start a record of its own.  (Other bytes pass: whatever
 * the reader took from a line is written back as it was.) */
static void put_clean(StrBuf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        strbuf_append(o, s[i] == '\r' || s[i] == '\n' ? " " : s + i, 1);
}

/* Appends s left-aligned in width columns, cut to width characters. */
static void put_left(StrBuf *o, const char *s, int width)
{
    int c;
    put_clean(o, s, text_prefix(s, width, &c));
    for (; c < width; c++)
        strbuf_append(o, " ", 1);
}

static void put_right(StrBuf *o, const char *s, int width)
{
    int c;
    size_t n = text_prefix(s, width, &c);
    for (; c < width; c++)
        strbuf_append(o, " ", 1);
    put_clean(o, s, n);
}

/* Ends a line: trailing blanks removed, then CR. */
static void end_line(StrBuf *o)
{
    size_t n = o->len;
    while (!o->failed && n > 0 && o->data[n - 1] == ' ')
        n--;
    strbuf_truncate(o, n);
    strbuf_append(o, "\r", 1);
}

static void header(StrBuf *o, const char *code, const char *value)
{
    if (!value[0])
        return;
    strbuf_puts(o, code);
    strbuf_append(o, " ", 1);
    put_clean(o, value, strlen(value));
    end_line(o);
}

static void write_player(StrBuf *o, const Tournament *t, const TrnPlayer *p)
{
    char num[32];
    strbuf_puts(o, "001 ");
    snprintf(num, sizeof num, "%4d", p->id);
    strbuf_puts(o, num);
    strbuf_append(o, " ", 1);
    strbuf_append(o, p->sex ? &p->sex : " ", 1);
    put_right(o, p->title, 3);
    strbuf_append(o, " ", 1);
    put_left(o, p->name, 33);
    strbuf_append(o, " ", 1);
    if (p->rating)
        snprintf(num, sizeof num, "%4d", p->rating);
    else
        snprintf(num, sizeof num, "    ");
    strbuf_puts(o, num);
    strbuf_append(o, " ", 1);
    put_left(o, p->federation, 3);
    strbuf_append(o, " ", 1);
    put_right(o, p->fide_id, 11);
    strbuf_append(o, " ", 1);
    put_left(o, p->birth, 10);
    strbuf_append(o, " ", 1);
    char pts[16];
    points4(p->points, pts);
    put_right(o, pts, 4);
    strbuf_append(o, " ", 1);
    if (p->rank)
        snprintf(num, sizeof num, "%4d", p->rank);
    else
        snprintf(num, sizeof num, "    ");
    strbuf_puts(o, num);
    for (int k = 1; k <= p->rounds; k++) {
        const TrnGame *g = &p->games[k - 1];
        char col[16];
        char c = g->colour == TRN_WHITE ? 'w' : g->colour == TRN_BLACK ? 'b' : '-';
        if (!g->opponent && !g->colour && !g->result)
            snprintf(col, sizeof col, "          ");
        else if (g->opponent)
            snprintf(col, sizeof col, "  %4d %c %c", g->opponent, c, g->result ? g->result : ' ');
        else
            snprintf(col, sizeof col, "  0000 %c %c", c, g->result ? g->result : ' ');
        strbuf_puts(o, col);
    }
    (void)t;
    end_line(o);
}

/* True when 162 (W D L A P X) can say everything about ps. */
static bool points_fit_162(const TrnPointSystem *ps)
{
    return ps->win_white == ps->win_black && ps->forfeit_win == ps->win_white &&
           ps->fpb == ps->win_white && ps->draw_white == ps->draw_black &&
           ps->hpb == ps->draw_white && ps->loss_white == ps->loss_black &&
           ps->zpb == ps->forfeit_loss;
}

/* True when every value 162 writes fits its 4 columns. */
static bool values_fit_162(const TrnPointSystem *ps)
{
    const TrnPoints v[] = {ps->win_white, ps->draw_white, ps->loss_white,
                           ps->zpb,       ps->pab,        ps->unknown};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char buf[16];
        points4(v[i], buf);
        if (strlen(buf) > 4)
            return false;
    }
    return true;
}

static void write_162(StrBuf *o, const TrnPointSystem *ps)
{
    const struct {
        char code;
        TrnPoints v;
    } f[] = {
        {'W', ps->win_white}, {'D', ps->draw_white}, {'L', ps->loss_white},
        {'A', ps->zpb},       {'P', ps->pab},        {'X', ps->unknown},
    };
    strbuf_puts(o, "162 ");
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        char v[16], cell[32];
        points4(f[i].v, v);
        snprintf(cell, sizeof cell, "%s%c%4s", i ? "    " : " ", f[i].code, v);
        strbuf_puts(o, cell);
    }
    end_line(o);
}

static void write_xxs(StrBuf *o, const TrnPointSystem *ps)
{
    const struct {
        const char *code;
        TrnPoints v;
    } f[] = {
        {"WW", ps->win_white},  {"BW", ps->win_black},   {"WD", ps->draw_white},
        {"BD", ps->draw_black}, {"WL", ps->loss_white},  {"BL", ps->loss_black},
        {"ZPB", ps->zpb},       {"HPB", ps->hpb},        {"FPB", ps->fpb},
        {"PAB", ps->pab},       {"FW", ps->forfeit_win}, {"FL", ps->forfeit_loss},
    };
    strbuf_puts(o, "XXS");
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        char v[16], cell[32];
        trf_field_format_points(f[i].v, v);
        snprintf(cell, sizeof cell, " %s=%s", f[i].code, v);
        strbuf_puts(o, cell);
    }
    end_line(o);
}

/*
 * bbpPairings' point lines ("BBW pp.p"): it reads these and ignores XXS, so
 * a TRF16 of another point system stays checkable by it.  Written before
 * XXS, which says more (colours, byes) and so has the last word on reading.
 */
static void write_bb(StrBuf *o, const TrnPointSystem *ps)
{
    const struct {
        const char *code;
        TrnPoints v;
    } f[] = {
        {"BBW", ps->win_white}, {"BBD", ps->draw_white},   {"BBL", ps->loss_white},
        {"BBZ", ps->zpb},       {"BBF", ps->forfeit_loss}, {"BBU", ps->pab},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        char v[16], cell[32];
        points4(f[i].v, v);
        snprintf(cell, sizeof cell, "%s %4s", f[i].code, v);
        strbuf_puts(o, cell);
        end_line(o);
    }
}

static void write_ids(StrBuf *o, const char *prefix, const int *ids, int n, bool tokens)
{
    strbuf_puts(o, prefix);
    for (int i = 0; i < n; i++) {
        char cell[16];
        snprintf(cell, sizeof cell, tokens ? " %d" : " %4d", ids[i]);
        strbuf_puts(o, cell);
    }
    end_line(o);
}

char *trf_write(const Tournament *t, TrfFlavour flavour, size_t *len)
{
    StrBuf o = STRBUF_INIT;
    char buf[64];
    bool f26 = flavour == TRF_FLAVOUR_26;
    header(&o, "012", t->name);
    header(&o, "022", t->city);
    header(&o, "032", t->federation);
    header(&o, "042", t->start_date);
    header(&o, "052", t->end_date);
    if (t->declared_players >= 0) {
        snprintf(buf, sizeof buf, "%d", t->declared_players);
        header(&o, "062", buf);
    }
    if (t->declared_rated >= 0) {
        snprintf(buf, sizeof buf, "%d", t->declared_rated);
        header(&o, "072", buf);
    }
    header(&o, "092", t->type);
    header(&o, "102", t->chief_arbiter);
    /* Deputy arbiters and other uninterpreted header lines keep their order. */
    for (int i = 0; i < t->n_other; i++) {
        strbuf_puts(&o, t->other[i].text);
        end_line(&o);
    }
    header(&o, "122", t->time_control);
    if (t->n_round_dates) {
        strbuf_puts(&o, "132");
        for (int c = 4; c <= 91; c++)
            strbuf_append(&o, " ", 1);
        for (int k = 0; k < t->n_round_dates; k++) {
            put_left(&o, t->round_dates[k], 8);
            strbuf_append(&o, "  ", 2);
        }
        end_line(&o);
    }
    if (f26) {
        if (t->n_rounds) {
            snprintf(buf, sizeof buf, "%d", t->n_rounds);
            header(&o, "142", buf);
        }
        if (t->initial_colour)
            header(&o, "152", t->initial_colour == TRN_WHITE ? "W" : "B");
        if (t->points_given && values_fit_162(&t->points))
            write_162(&o, &t->points);
        if (t->points_given && !(points_fit_162(&t->points) && values_fit_162(&t->points)))
            write_xxs(&o, &t->points);
        header(&o, "192", t->system);
        header(&o, "202", t->tiebreaks);
        header(&o, "212", t->standings);
        header(&o, "222", t->encoded_tc);
        if (t->pair_by_rank)
            header(&o, "XXC", "rank");
    } else {
        if (t->n_rounds) {
            snprintf(buf, sizeof buf, "%d", t->n_rounds);
            header(&o, "XXR", buf);
        }
        if (t->initial_colour || t->pair_by_rank) {
            snprintf(buf, sizeof buf, "%s%s%s", t->pair_by_rank ? "rank" : "",
                     t->pair_by_rank && t->initial_colour ? " " : "",
                     t->initial_colour == TRN_WHITE   ? "white1"
                     : t->initial_colour == TRN_BLACK ? "black1"
                                                      : "");
            header(&o, "XXC", buf);
        }
        if (t->points_given) {
            write_bb(&o, &t->points);
            write_xxs(&o, &t->points);
        }
    }
    for (int i = 0; i < t->n_players; i++)
        write_player(&o, t, &t->players[i]);
    /* Byes: one 240 line per (type, round), XXZ for "the round to pair". */
    int *ids = malloc(((size_t)t->n_byes + (size_t)t->n_players + 1) * sizeof *ids);
    if (!ids) {
        strbuf_free(&o);
        return NULL;
    }
    for (int i = 0; i < t->n_byes; i++) {
        const TrnBye *b = &t->byes[i];
        bool first = true;
        for (int j = 0; j < i; j++)
            if (t->byes[j].type == b->type && t->byes[j].round == b->round &&
                t->byes[j].xxz == b->xxz)
                first = false;
        if (!first)
            continue;
        int n = 0;
        for (int j = i; j < t->n_byes; j++)
            if (t->byes[j].type == b->type && t->byes[j].round == b->round &&
                t->byes[j].xxz == b->xxz)
                ids[n++] = t->byes[j].player;
        if (b->xxz) {
            write_ids(&o, "XXZ", ids, n, true);
        } else {
            snprintf(buf, sizeof buf, "240 %c %03d", b->type, b->round);
            write_ids(&o, buf, ids, n, false);
        }
    }
    /* Acceleration: 250 records in TRF-2026, per-player XXA lines in TRF16. */
    if (f26) {
        for (int i = 0; i < t->n_accel; i++) {
            const TrnAccel *a = &t->accel[i];
            char mp[16] = "", gp[16];
            if (a->match_points)
                points4(a->match_points, mp);
            points4(a->points, gp);
            snprintf(buf, sizeof buf, "250 %4s %4s %03d %03d %04d %04d", mp, gp, a->first_round,
                     a->last_round, a->first_player, a->last_player);
            strbuf_puts(&o, buf);
            end_line(&o);
        }
    }
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        if (!p->has_accel && (f26 || t->n_accel == 0))
            continue;
        int last = 0;
        for (int k = 1; k <= TRN_MAX_ROUNDS; k++)
            if (tournament_acceleration(t, p->id, k))
                last = k;
        if (!p->has_accel && last == 0)
            continue;
        snprintf(buf, sizeof buf, "XXA %4d", p->id);
        strbuf_puts(&o, buf);
        for (int k = 1; k <= last; k++) {
            char v[16];
            points4(tournament_acceleration(t, p->id, k), v);
            snprintf(buf, sizeof buf, " %4s", v);
            strbuf_puts(&o, buf);
        }
        end_line(&o);
    }
    for (int i = 0; i < t->n_forbidden; i++) {
        const TrnForbidden *f = &t->forbidden[i];
        if (!f->xxp) { /* 260 in both flavours: XXP has no round range */
            snprintf(buf, sizeof buf, "260 %03d %03d", f->first_round, f->last_round);
            write_ids(&o, buf, f->players, f->n, false);
        } else {
            write_ids(&o, "XXP", f->players, f->n, true);
        }
    }
    free(ids);
    size_t n = o.len;
    char *text = strbuf_take(&o);
    if (text && len)
        *len = n;
    return text;
}
