/*
 * fuzz_trf.c — TRF import under arbitrary text, and export of what was
 * imported.
 *
 * trf_read() must refuse with a located message (and no tournament) or
 * return a tournament that keeps the model's invariants (ids in range and
 * unique, opponents that exist).  Written in the TRF-2026 flavour and read
 * again it must give the same tournament; written in either flavour, a
 * second write gives the same bytes; its standings can be computed under
 * every edition of the tie-break rules.  An odd first byte relaxes the
 * reader's points check, so both modes are covered.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"
#include "tournament.h"
#include "trf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_invariants(const Tournament *t)
{
    if (t->n_players < 1 || t->n_players > TRN_MAX_PLAYERS)
        abort();
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        if (p->id < 1 || p->id > TRN_MAX_PLAYERS || tournament_player(t, p->id) != p)
            abort();
        if (p->rounds < 0 || p->rounds > TRN_MAX_ROUNDS || p->rounds > t->rounds_played)
            abort();
        if (memchr(p->name, '\0', sizeof p->name) == NULL)
            abort();
        for (int r = 0; r < p->rounds; r++)
            if (p->games[r].opponent && !tournament_player(t, p->games[r].opponent))
                abort();
    }
}

/* TRF16 says SIXTEEN when the copy was written as TRF16: its point record
 * (bbp's XXS) has no key for TRF-2026's unknown result (X), which reads
 * back as the draw's value. */
static void same_players(const Tournament *a, const Tournament *b, int sixteen)
{
    TrnPointSystem pa = a->points;
    if (sixteen)
        pa.unknown = pa.draw_white;
    if (a->n_players != b->n_players || a->rounds_played != b->rounds_played ||
        a->n_rounds != b->n_rounds || a->initial_colour != b->initial_colour ||
        memcmp(&pa, &b->points, sizeof pa) != 0 || strcmp(a->name, b->name) ||
        strcmp(a->city, b->city) || a->n_round_dates != b->n_round_dates)
        abort();
    for (int i = 0; i < a->n_players; i++) {
        const TrnPlayer *x = &a->players[i], *y = &b->players[i];
        if (x->id != y->id || x->sex != y->sex || strcmp(x->title, y->title) ||
            strcmp(x->name, y->name) || x->rating != y->rating ||
            strcmp(x->federation, y->federation) || strcmp(x->fide_id, y->fide_id) ||
            strcmp(x->birth, y->birth) || x->points != y->points || x->rank != y->rank ||
            x->rounds != y->rounds)
            abort();
        for (int r = 0; r < x->rounds; r++)
            if (x->games[r].opponent != y->games[r].opponent ||
                x->games[r].colour != y->games[r].colour ||
                x->games[r].result != y->games[r].result)
                abort();
        for (int r = 1; r <= a->rounds_played + 1 && r <= TRN_MAX_ROUNDS; r++)
            if (tournament_acceleration(a, x->id, r) != tournament_acceleration(b, x->id, r))
                abort();
    }
}

static void same_records(const Tournament *a, const Tournament *b)
{
    if (strcmp(a->system, b->system) || strcmp(a->tiebreaks, b->tiebreaks) ||
        strcmp(a->encoded_tc, b->encoded_tc) || a->n_byes != b->n_byes ||
        a->n_forbidden != b->n_forbidden || a->n_other != b->n_other)
        abort();
    for (int i = 0; i < a->n_byes; i++)
        if (a->byes[i].type != b->byes[i].type || a->byes[i].round != b->byes[i].round ||
            a->byes[i].player != b->byes[i].player || a->byes[i].xxz != b->byes[i].xxz)
            abort();
    for (int i = 0; i < a->n_forbidden; i++) {
        const TrnForbidden *x = &a->forbidden[i], *y = &b->forbidden[i];
        if (x->first_round != y->first_round || x->last_round != y->last_round || x->n != y->n ||
            memcmp(x->players, y->players, (size_t)x->n * sizeof *x->players) != 0)
            abort();
    }
    for (int i = 0; i < a->n_other; i++)
        if (strcmp(a->other[i].text, b->other[i].text) != 0)
            abort();
}

/* Writes t, reads the text back, writes again: returns the re-read copy. */
static Tournament *write_read(const Tournament *t, TrfFlavour flavour, int flags)
{
    size_t len = 0, len2 = 0;
    char *out = trf_write(t, flavour, &len);
    if (!out || strlen(out) != len || (len && out[len - 1] != '\r') || memchr(out, '\n', len))
        abort();
    Tournament *again = NULL;
    TrfError e;
    if (trf_read(out, len, flags, &again, &e) != 0)
        abort();
    check_invariants(again);
    char *out2 = trf_write(again, flavour, &len2);
    if (!out2 || len != len2 || memcmp(out, out2, len) != 0)
        abort();
    free(out);
    free(out2);
    return again;
}

/* Standings under every edition: one row per player, ranks in order. */
static void check_standings(const Tournament *t)
{
    static const char list[] = "BH/C1,BH,SB,DE,AOB,FB,PS,KS,TPR,PTP,APRO,WIN,REP";
    TbSpec specs[TB_MAX_SPECS];
    int n;
    char err[200];
    if (tiebreak_parse(list, specs, TB_MAX_SPECS - 1, &n, err, sizeof err))
        abort();
    static const TbEdition eds[] = {TB_EDITION_2009, TB_EDITION_2023, TB_EDITION_2026};
    for (int e = 0; e < 3; e++) {
        TbOptions opt = {.edition = eds[e], .round_robin = e == 1, .unrated_rating = e ? 0 : 1500};
        Standings *st;
        int rc = tiebreak_standings(t, specs, n, &opt, &st);
        if (rc == -ENOMEM)
            continue;
        if (rc || st->n_rows != t->n_players)
            abort();
        for (int a = 1; a < st->n_rows; a++)
            if (st->rows[a].rank < st->rows[a - 1].rank)
                abort();
        tiebreak_standings_free(st);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 32768)
        return 0;
    int flags = data[0] & 1 ? TRF_READ_NO_POINTS_CHECK : 0;
    Tournament *t = NULL;
    TrfError e;
    memset(&e, 0, sizeof e);
    int rc = trf_read((const char *)data, size, flags, &t, &e);
    if (rc != 0) {
        if (rc < 0 || t != NULL || e.code != rc || e.message[0] == '\0' ||
            memchr(e.message, '\0', sizeof e.message) == NULL)
            abort();
        return 0;
    }
    check_invariants(t);
    Tournament *t26 = write_read(t, TRF_FLAVOUR_26, flags);
    same_players(t, t26, 0);
    same_records(t, t26);
    Tournament *t16 = write_read(t, TRF_FLAVOUR_16, flags);
    same_players(t, t16, 1);
    check_standings(t);
    tournament_free(t26);
    tournament_free(t16);
    tournament_free(t);
    return 0;
}
