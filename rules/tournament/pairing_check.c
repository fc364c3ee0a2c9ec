/*
 * pairing_check.c — the criteria report of a proposed round (see
 * pairing_check.h).
 *
 * The player facts the criteria need (score, colour history, preference,
 * bye eligibility, absence, topscorer, the floats of the two rounds before,
 * unplayed rounds) are derived here the way the Dutch
 * engine derives them (C.04.3 Art. 1, C.04.1 Art. 4, C.04.2 3.4-3.5), so that
 * a pairing the engine makes never reports an absolute violation.  Quality
 * criteria are only reported relative to the engine's own pairing of the
 * round: an edited round is judged by where it is worse, not by how far it
 * is from an ideal that may not exist; pairing_quality.c compares them.
 * This file holds the absolute checks: presence, C1-C3, the byes, and a
 * round robin's Berger table.
 */
#include "pairing_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berger.h"
#include "pairing_ctx.h"
#include "pairing_quality.h"

/* ---- presence: every player once, nobody absent paired ---- */

static int check_presence(Ctx *c, const PairingCheckProposal *prop, bool swiss)
{
    int rc = 0;
    for (int i = 0; i < prop->n_boards; i++) {
        const PairingCheckBoard *b = &prop->boards[i];
        int ids[2] = {b->white, b->black};
        for (int k = 0; k < 2; k++) {
            Info *in = pairing_ctx_info(c, ids[k]);
            if (!in) {
                rc = rc ? rc
                        : pairing_ctx_item_add(
                              c, "PLAYER", PAIRING_CHECK_ABSOLUTE, b->board, &ids[k], 1,
                              "board %d: #%d is not a player of the tournament", b->board, ids[k]);
                continue;
            }
            in->uses++;
            if (swiss && in->withdrawn)
                rc = rc ? rc
                        : pairing_ctx_item_add(c, "WITHDRAWN", PAIRING_CHECK_ABSOLUTE, b->board,
                                               &ids[k], 1, "board %d: #%d has withdrawn", b->board,
                                               ids[k]);
            else if (in->absent)
                /* a round robin keeps its table: the absent player gets the
                 * bye and the scheduled opponent a forfeit win instead */
                rc = rc ? rc
                        : pairing_ctx_item_add(
                              c, "ABSENT", PAIRING_CHECK_ABSOLUTE, b->board, &ids[k], 1,
                              "board %d: #%d is announced absent (bye requested)%s", b->board,
                              ids[k], swiss ? "" : "; the scheduled opponent wins by forfeit");
        }
    }
    for (int i = 0; i < prop->n_byes; i++) {
        const PairingCheckBye *y = &prop->byes[i];
        Info *in = pairing_ctx_info(c, y->player);
        if (!in) {
            rc = rc ? rc
                    : pairing_ctx_item_add(c, "PLAYER", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
                                           "#%d is not a player of the tournament", y->player);
            continue;
        }
        /* A forfeit win without a game is a round robin's answer to an
         * absence; a Swiss pairs the present players. */
        if (!(swiss && y->kind == TRN_RES_FORFEIT_WIN))
            in->uses++;
        if (swiss && y->kind == TRN_RES_PAB && in->withdrawn)
            rc = rc ? rc
                    : pairing_ctx_item_add(c, "WITHDRAWN", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
                                           "#%d has withdrawn but gets the pairing-allocated bye",
                                           y->player);
        else if (swiss && y->kind == TRN_RES_PAB && in->absent)
            rc = rc ? rc
                    : pairing_ctx_item_add(
                          c, "ABSENT", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
                          "#%d is announced absent but gets the pairing-allocated bye", y->player);
    }
    for (int id = 1; id <= c->max_id && !rc; id++) {
        Info *in = pairing_ctx_info(c, id);
        if (!in)
            continue;
        if (in->uses > 1)
            rc = pairing_ctx_item_add(c, "DUP", PAIRING_CHECK_ABSOLUTE, 0, &id, 1,
                                      "#%d appears %d times in the round", id, in->uses);
        else if (in->uses == 0 && !in->withdrawn && !in->absent)
            rc = pairing_ctx_item_add(c, "UNPAIRED", PAIRING_CHECK_ABSOLUTE, 0, &id, 1,
                                      "#%d is present but has neither a game nor a bye", id);
    }
    return rc;
}

/* ---- Swiss: C1, forbidden pairs, C2, PAB, C3 ---- */

static int check_swiss_boards(Ctx *c, const PairingCheckProposal *prop)
{
    int rc = 0;
    for (int i = 0; i < prop->n_boards && !rc; i++) {
        const PairingCheckBoard *b = &prop->boards[i];
        Info *w = pairing_ctx_info(c, b->white), *k = pairing_ctx_info(c, b->black);
        int ids[2] = {b->white, b->black};
        if (!w || !k || b->white == b->black)
            continue;
        if (pairing_ctx_met_before(c, b->white, b->black))
            rc = pairing_ctx_item_add(c, "C1", PAIRING_CHECK_ABSOLUTE, b->board, ids, 2,
                                      "board %d: #%d and #%d have already played each other",
                                      b->board, b->white, b->black);
        if (!rc && tournament_is_forbidden(c->t, b->white, b->black, c->round))
            rc = pairing_ctx_item_add(c, "FORBIDDEN", PAIRING_CHECK_ABSOLUTE, b->board, ids, 2,
                                      "board %d: #%d and #%d must not be paired (forbidden pair)",
                                      b->board, b->white, b->black);
        if (rc)
            break;
        bool same_abs = w->abspref && k->abspref && w->pref == k->pref;
        bool exempt = w->top || k->top;
        if (same_abs && !exempt) {
            rc = pairing_ctx_item_add(
                c, "C3", PAIRING_CHECK_ABSOLUTE, b->board, ids, 2,
                "board %d: #%d and #%d both must have %s (absolute colour preference)", b->board,
                b->white, b->black, w->pref == P_WHITE ? "White" : "Black");
            continue;
        }
        if (same_abs)
            continue; /* the topscorer exception: counted with C10 */
        int bad[2], nb = 0;
        if (w->abspref && w->pref == P_BLACK)
            bad[nb++] = b->white;
        if (k->abspref && k->pref == P_WHITE)
            bad[nb++] = b->black;
        if (nb == 2)
            rc = pairing_ctx_item_add(
                c, "C3", PAIRING_CHECK_ABSOLUTE, b->board, bad, nb,
                "board %d: colours swapped against the absolute colour preferences of "
                "#%d and #%d",
                b->board, bad[0], bad[1]);
        else if (nb)
            rc = pairing_ctx_item_add(
                c, "C3", PAIRING_CHECK_ABSOLUTE, b->board, bad, nb,
                "board %d: #%d gets the wrong colour for an absolute colour preference "
                "(colour difference beyond 2 or three times the same colour)",
                b->board, bad[0]);
    }
    return rc;
}

static int check_byes(Ctx *c, const PairingCheckProposal *prop)
{
    int rc = 0, pabs[PAIRING_CHECK_MAX_ITEM_PLAYERS], np = 0, total = 0;
    for (int i = 0; i < prop->n_byes && !rc; i++) {
        const PairingCheckBye *y = &prop->byes[i];
        Info *in = pairing_ctx_info(c, y->player);
        if (y->kind != TRN_RES_PAB || !in)
            continue;
        total++;
        if (np < PAIRING_CHECK_MAX_ITEM_PLAYERS)
            pabs[np++] = y->player;
        if (!in->elig)
            rc = pairing_ctx_item_add(
                c, "C2", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
                "#%d already had a pairing-allocated bye or a win's points without "
                "playing and may not get the bye",
                y->player);
    }
    if (!rc && total > 1)
        rc = pairing_ctx_item_add(c, "PAB", PAIRING_CHECK_ABSOLUTE, 0, pabs, np,
                                  "%d pairing-allocated byes in one round (at most one)", total);
    return rc;
}

/* ---- round robin: the Berger table's round ---- */

/* True when the round's column of T already holds an unplayed game between
 * A and B (a forfeit the report writes without colours): its colours say
 * nothing about the table's. */
static bool unplayed_in_column(const Ctx *c, int a, int b)
{
    const TrnPlayer *pa = tournament_player(c->t, a), *pb = tournament_player(c->t, b);
    if (!pa || !pb)
        return false;
    const TrnGame *ga = pairing_ctx_game_of(pa, c->round);
    const TrnGame *gb = pairing_ctx_game_of(pb, c->round);
    return ga->opponent == b && gb->opponent == a && !pairing_ctx_played(ga) &&
           !pairing_ctx_played(gb);
}

/* The scheduled opponent of ID in the table TB (NB boards): 0 when free,
 * -1 when ID is not in it. */
static int table_opponent(const BergerBoard *tb, int nb, int id)
{
    for (int k = 0; k < nb; k++) {
        if (tb[k].white == id)
            return tb[k].black;
        if (tb[k].black == id)
            return tb[k].white;
    }
    return -1;
}

/* A forfeit win without a game stands for the game the table gives: the
 * scheduled opponent must be absent (requested bye) or withdrawn. */
static int check_forfeit(Ctx *c, const PairingCheckBye *y, const BergerBoard *tb, int nb)
{
    int opp = table_opponent(tb, nb, y->player);
    if (opp <= 0)
        return pairing_ctx_item_add(
            c, "BERGER", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
            "#%d wins by forfeit but has no game in round %d of the Berger table", y->player,
            c->round);
    const Info *o = pairing_ctx_info(c, opp);
    if (o && (o->absent || o->withdrawn))
        return 0;
    int ids[2] = {y->player, opp};
    return pairing_ctx_item_add(c, "BERGER", PAIRING_CHECK_ABSOLUTE, 0, ids, 2,
                                "#%d wins by forfeit, but the scheduled opponent #%d is not absent",
                                y->player, opp);
}

static int check_berger(Ctx *c, const PairingCheckProposal *prop, int flags)
{
    int np = c->t->n_players;
    BergerBoard tb[BERGER_MAX_BOARDS];
    int nb = berger_round(np, c->round, flags, tb);
    if (nb < 0)
        return pairing_ctx_item_add(c, "BERGER", PAIRING_CHECK_NOTE, 0, NULL, 0,
                                    "round %d is not in the Berger table of %d players", c->round,
                                    np);
    int rc = 0;
    for (int i = 0; i < prop->n_boards && !rc; i++) {
        const PairingCheckBoard *b = &prop->boards[i];
        int ids[2] = {b->white, b->black};
        int found = 0;
        for (int k = 0; k < nb; k++) {
            if (tb[k].white == b->white && tb[k].black == b->black)
                found = 1;
            else if (tb[k].white == b->black && tb[k].black == b->white)
                found = 2;
            if (found)
                break;
        }
        if (found == 2 && !unplayed_in_column(c, b->white, b->black))
            rc = pairing_ctx_item_add(c, "BERGER", PAIRING_CHECK_ABSOLUTE, b->board, ids, 2,
                                      "board %d: the Berger table gives White to #%d, not #%d",
                                      b->board, b->black, b->white);
        else if (!found)
            rc = pairing_ctx_item_add(
                c, "BERGER", PAIRING_CHECK_ABSOLUTE, b->board, ids, 2,
                "board %d: #%d and #%d do not meet in round %d of the Berger table", b->board,
                b->white, b->black, c->round);
    }
    for (int i = 0; i < prop->n_byes && !rc; i++) {
        const PairingCheckBye *y = &prop->byes[i];
        if (y->kind == TRN_RES_FORFEIT_WIN && pairing_ctx_info(c, y->player)) {
            rc = check_forfeit(c, y, tb, nb);
            continue;
        }
        if (y->kind != TRN_RES_PAB)
            continue;
        int ok = 0;
        for (int k = 0; k < nb; k++)
            ok |= (tb[k].white == y->player && !tb[k].black) ||
                  (tb[k].black == y->player && !tb[k].white);
        if (!ok)
            rc = pairing_ctx_item_add(c, "BERGER", PAIRING_CHECK_ABSOLUTE, 0, &y->player, 1,
                                      "#%d is not the player free in round %d of the Berger table",
                                      y->player, c->round);
    }
    return rc;
}

int pairing_check_round(const Tournament *t, int round, const PairingCheckProposal *prop,
                        const PairingCheckOptions *opt, PairingCheckReport *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (round < 1 || round > TRN_MAX_ROUNDS) {
        snprintf(err, errlen, "round %d is out of range", round);
        return PAIRING_CHECK_E_INPUT;
    }
    if (opt->system != PAIRING_CHECK_SWISS && opt->system != PAIRING_CHECK_ROUNDROBIN) {
        snprintf(err, errlen, "unknown pairing system");
        return PAIRING_CHECK_E_INPUT;
    }
    Ctx c = {.t = t, .round = round, .swiss = opt->swiss, .rep = out};
    int rc = pairing_ctx_setup(&c, opt);
    bool swiss = opt->system == PAIRING_CHECK_SWISS;
    if (!rc)
        rc = check_presence(&c, prop, swiss);
    if (!rc && swiss)
        rc = check_swiss_boards(&c, prop);
    if (!rc && swiss)
        rc = check_byes(&c, prop);
    if (!rc && !swiss)
        rc = check_berger(&c, prop, opt->berger_flags);
    if (!rc && swiss && opt->compare_engine)
        rc = pairing_quality_compare(&c, prop);
    free(c.in);
    if (rc)
        pairing_check_report_free(out);
    return rc;
}

void pairing_check_report_free(PairingCheckReport *r)
{
    if (!r)
        return;
    free(r->items);
    dutch_pairing_free(&r->engine);
    memset(r, 0, sizeof *r);
}

bool pairing_check_report_has_absolute(const PairingCheckReport *r)
{
    for (int i = 0; i < r->n_items; i++)
        if (r->items[i].kind == PAIRING_CHECK_ABSOLUTE)
            return true;
    return false;
}

int pairing_check_proposal_from_round(const Tournament *t, int round, PairingCheckProposal *out)
{
    memset(out, 0, sizeof *out);
    out->boards = calloc((size_t)t->n_players / 2 + 1, sizeof *out->boards);
    out->byes = calloc((size_t)t->n_players + 1, sizeof *out->byes);
    if (!out->boards || !out->byes) {
        pairing_check_proposal_free(out);
        return -ENOMEM;
    }
    /* players[] is in file order; boards follow the White player's rank */
    for (int id = 1; id <= TRN_MAX_PLAYERS; id++) {
        const TrnPlayer *p = tournament_player(t, id);
        if (!p)
            continue;
        const TrnGame *g = pairing_ctx_game_of(p, round);
        if (g->opponent) {
            bool white = g->colour == TRN_WHITE || (g->colour != TRN_BLACK && id < g->opponent);
            if (white && out->n_boards < t->n_players / 2) {
                out->boards[out->n_boards] =
                    (PairingCheckBoard){out->n_boards + 1, id, g->opponent};
                out->n_boards++;
            }
        } else if (g->result == TRN_RES_PAB || g->result == TRN_RES_FORFEIT_WIN) {
            out->byes[out->n_byes++] = (PairingCheckBye){id, g->result};
        }
    }
    return 0;
}

void pairing_check_proposal_free(PairingCheckProposal *p)
{
    if (!p)
        return;
    free(p->boards);
    free(p->byes);
    memset(p, 0, sizeof *p);
}
