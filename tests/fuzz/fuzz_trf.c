/*
 * fuzz_trf.c — the TRF reader, writer and standings under arbitrary bytes.
 *
 * Whatever the input, trf_read() must either refuse it with a message and
 * a position, or produce a tournament that both writer flavours turn into
 * a file the reader accepts again with the same players and games, and
 * whose standings can be computed under every edition.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tiebreak.h"
#include "trf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
            continue; /* out of memory */
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
    if (size > 1 << 16)
        return 0;
    int flags = size && (data[0] & 1) ? TRF_READ_NO_POINTS_CHECK : 0;
    Tournament *t;
    TrfError e;
    int rc = trf_read((const char *)data, size, flags, &t, &e);
    if (rc) {
        if (rc > 0 && (!e.message[0] || t))
            abort(); /* a refusal must say why and leave nothing behind */
        return 0;
    }
    for (int f = 16; f <= 26; f += 10) {
        size_t len;
        char *out = trf_write(t, (TrfFlavour)f, &len);
        if (!out)
            continue;
        Tournament *u;
        if (trf_read(out, len, flags, &u, &e) != 0)
            abort();
        if (u->n_players != t->n_players || u->rounds_played != t->rounds_played)
            abort();
        for (int i = 0; i < t->n_players; i++)
            if (u->players[i].id != t->players[i].id || u->players[i].points != t->players[i].points ||
                memcmp(u->players[i].games, t->players[i].games, sizeof t->players[i].games))
                abort();
        tournament_free(u);
        free(out);
    }
    check_standings(t);
    tournament_free(t);
    return 0;
}
