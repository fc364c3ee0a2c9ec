/*
 * burstein.h — FIDE Burstein Swiss pairing (C.04.4.2).
 *
 * Pairs one round of a Tournament from the results of the rounds before it:
 * scoregroups ordered by Sonneborn-Berger, Buchholz and median Buchholz (an
 * unplayed game counts as a draw for the opponents and a virtual opponent
 * stands in for it), at most one floater between neighbouring scoregroups,
 * the lowest-ranked eligible player taking the pairing-allocated bye, top
 * players paired against the bottom of their group, colours by C.04 Art. 5.
 * Acceleration comes from the file (XXA / 250, a *_BAKU system) or else is
 * Burstein's own (a win's points for the upper half in rounds 1 and 2).
 *
 * Meant to equal `bbpPairings --burstein` (v6), the public implementation
 * of these rules; the output has the same form as the Dutch engine's.
 *
 * Pure: no I/O, no globals, deterministic. Workload: up to a few thousand
 * players; cost grows about as n^3 per scoregroup step.
 */
#ifndef ARBITER_RULES_BURSTEIN_H
#define ARBITER_RULES_BURSTEIN_H

#include <stddef.h>

#include "swiss.h"

enum {
    BURSTEIN_E_NO_PAIRING = SWISS_E_NO_PAIRING, /* no pairing meets the absolute criteria */
    BURSTEIN_E_INPUT = SWISS_E_INPUT,           /* the tournament cannot be paired as given */
};

/*
 * Pairs round `round` (1-based) of t, using rounds 1..round-1 as history;
 * players absent from that round (an entry in its column without a pairing,
 * or a 240 / XXZ bye) are left out. Returns 0 and fills *out (release with
 * swiss_pairing_free()), BURSTEIN_E_NO_PAIRING, BURSTEIN_E_INPUT (with a
 * reason in err), or -ENOMEM; *out is left empty on failure.
 */
int burstein_pair_round(const Tournament *t, int round, SwissPairing *out, char *err,
                        size_t errlen);

#endif
