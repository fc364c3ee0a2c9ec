/*
 * dutch.h — FIDE Dutch Swiss pairing (C.04.3, the rules in force from
 * 1 February 2026).
 *
 * Pairs one round of a Tournament from the results of the rounds before it:
 * scoregroups and brackets, moved-down players, the pairing-allocated bye
 * (C2, C5, C9), colour preferences and allocation (Art. 5), topscorers in the
 * last round, floats as the 2026 text defines them, forbidden pairs (260 /
 * XXP) and the players absent from the round (byes 240 / XXZ, or H/F/Z/-
 * entries written in that round's column).
 *
 * The criteria are encoded, most significant first, as bit fields of one
 * wide integer edge weight, and a maximum weight matching over all players
 * still to pair decides the bracket being paired while keeping the rest of
 * the round pairable; the choices inside a bracket (which moved-down players,
 * their opponents, which exchanges, each S1 player's partner) are then fixed
 * one at a time, each time re-solving the matching. The result is meant to
 * equal bbpPairings v6, the public reference implementation of these rules.
 *
 * Pure: no I/O, no globals, deterministic. Workload: tens to a few thousand
 * players; cost grows about as n^3 per bracket step.
 */
#ifndef ARBITER_RULES_DUTCH_H
#define ARBITER_RULES_DUTCH_H

#include <stddef.h>

#include "swiss.h"
#include "tournament.h"

enum {
    DUTCH_E_NO_PAIRING = SWISS_E_NO_PAIRING, /* no pairing satisfies the absolute criteria */
    DUTCH_E_INPUT = SWISS_E_INPUT,           /* the tournament cannot be paired as given */
};

/* One board (start ranks; black == 0: PAB) and a round's boards in
 * publication order, the PAB last: the types every Swiss engine returns. */
typedef SwissPair DutchPair;
typedef SwissPairing DutchPairing;

/*
 * Pairs round `round` (1-based) of t, using rounds 1..round-1 as history.
 * Players with a non-pairing entry in that round (H, F, Z, '-' without
 * opponent) or a 240/XXZ bye for it are left out. The initial colour
 * comes from 152 / XXC, or else is read back from the first round with
 * colours (as bbpPairings does); without either the round cannot be paired.
 * Returns 0 and fills *out, DUTCH_E_NO_PAIRING, DUTCH_E_INPUT (with a reason
 * in err), or -ENOMEM. *out is emptied first and left empty on failure.
 */
int dutch_pair_round(const Tournament *t, int round, DutchPairing *out, char *err, size_t errlen);

/* Releases the pairs; NULL or an empty pairing is fine. */
void dutch_pairing_free(DutchPairing *p);

/*
 * The round a file asks to pair next: one past the last round in which some
 * player took part in a pairing (had an opponent, a PAB or a forfeit win).
 */
int dutch_next_round(const Tournament *t);

/*
 * True when the pairing of round `round` written in t equals `p` (same
 * boards, colours as written; an entry without colour matches either).
 */
int dutch_round_matches(const Tournament *t, int round, const DutchPairing *p);

#endif
