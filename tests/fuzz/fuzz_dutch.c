/*
 * fuzz_dutch.c — the Dutch pairing of the next round of an arbitrary TRF.
 *
 * Files of at most 30 players are paired (larger ones are skipped so a run
 * stays fast).  The engine must refuse with a message or return a pairing
 * that keeps the absolute criteria: every board holds two different existing
 * players, nobody is paired twice, nobody meets a previous opponent again
 * (C1) or a forbidden partner, at most one pairing-allocated bye and it comes
 * last; and pairing the same file again gives the same boards.  The
 * pairing checker (pairing_check.h) must find no absolute violation in it
 * and must see it as the engine's own pairing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dutch.h"
#include "pairing_check.h"
#include "tournament.h"
#include "trf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PLAYERS = 30 };

static bool met_before(const TrnPlayer *p, int opponent, int round)
{
    for (int r = 1; r < round && r <= p->rounds; r++)
        if (p->games[r - 1].opponent == opponent && p->games[r - 1].result != TRN_RES_NONE &&
            tournament_result_is_played(p->games[r - 1].result))
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    Tournament *t = NULL;
    TrfError e;
    if (trf_read((const char *)data, size, TRF_READ_NO_POINTS_CHECK, &t, &e) != 0)
        return 0;
    if (t->n_players > MAX_PLAYERS) {
        tournament_free(t);
        return 0;
    }
    int round = dutch_next_round(t);
    DutchPairing p = {0}, q = {0};
    char err[256];
    err[0] = '\0';
    int rc = dutch_pair_round(t, round, &p, err, sizeof err);
    if (rc != 0) {
        if (rc < 0 || err[0] == '\0' || p.n_pairs != 0 || p.pairs != NULL)
            abort();
        tournament_free(t);
        return 0;
    }
    if (p.n_pairs < 0 || p.n_pairs > t->n_players)
        abort();
    bool seen[TRN_MAX_PLAYERS + 1] = {0};
    for (int i = 0; i < p.n_pairs; i++) {
        int w = p.pairs[i].white, b = p.pairs[i].black;
        const TrnPlayer *pw = tournament_player(t, w);
        if (!pw || seen[w])
            abort();
        seen[w] = true;
        if (b == 0) {
            if (i != p.n_pairs - 1)
                abort(); /* the PAB is published last */
            continue;
        }
        const TrnPlayer *pb = tournament_player(t, b);
        if (!pb || seen[b] || w == b)
            abort();
        seen[b] = true;
        if (met_before(pw, b, round) || met_before(pb, w, round) ||
            tournament_is_forbidden(t, w, b, round))
            abort();
    }
    if (dutch_pair_round(t, round, &q, err, sizeof err) != 0 || q.n_pairs != p.n_pairs ||
        (p.n_pairs && memcmp(p.pairs, q.pairs, (size_t)p.n_pairs * sizeof *p.pairs) != 0))
        abort();
    PairingCheckBoard boards[MAX_PLAYERS];
    PairingCheckBye byes[MAX_PLAYERS];
    PairingCheckProposal prop = {0, boards, 0, byes};
    for (int i = 0; i < p.n_pairs; i++) {
        if (p.pairs[i].black) {
            boards[prop.n_boards] =
                (PairingCheckBoard){prop.n_boards + 1, p.pairs[i].white, p.pairs[i].black};
            prop.n_boards++;
        } else {
            byes[prop.n_byes++] = (PairingCheckBye){p.pairs[i].white, TRN_RES_PAB};
        }
    }
    PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, true, NULL, 0, SWISS_DUTCH};
    PairingCheckReport rep;
    if (pairing_check_round(t, round, &prop, &opt, &rep, err, sizeof err) != 0 ||
        pairing_check_report_has_absolute(&rep) || !rep.engine_run || rep.engine_differs)
        abort();
    pairing_check_report_free(&rep);
    dutch_pairing_free(&p);
    dutch_pairing_free(&q);
    tournament_free(t);
    return 0;
}
