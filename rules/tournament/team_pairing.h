/*
 * team_pairing.h — pairing a round of a team competition: the team round
 * robin (Berger tables, berger.h) and the FIDE Swiss Team Pairing System
 * (Handbook C.04.6, in force from 1 February 2026), with a check that
 * lists what a proposed pairing breaks.
 *
 * C.04.6 as implemented (article numbers of the text):
 *  - score groups by the primary score (Art. 1.2); pairing numbers are the
 *    team ids (the initial order is left to the regulations);
 *  - absolute criteria: no rematch, a forfeited match being no meeting
 *    (C1); the pairing-allocated bye only to a team that has neither had
 *    one nor won a match without playing (C2); completion: the teams not
 *    yet paired can always all be paired (C3);
 *  - Art. 3.4 first: the bye goes to the team, among those that leave a
 *    legal pairing, with the lowest score, then the most matches played,
 *    then the largest pairing number;
 *  - Art. 3.3/3.5: the top score group takes upfloaters from the lower
 *    scores: the fewest (C4), with the highest scores (C5), leaving the
 *    next score group pairable without extra upfloaters (C6), the fewest
 *    that floated in the previous round (C7, not in the last two rounds),
 *    then the first set in the order of their numbers (sorted by score,
 *    then number); sets are searched among the best-placed candidates;
 *  - Art. 3.6: the bracket's pairing with the fewest unfulfilled colour
 *    preferences (C8), strong ones (C9, type B), upfloaters' opponents who
 *    floated in the previous round (C10, not in the last two rounds), and
 *    then the first identifier (top members' numbers, then bottom
 *    members'), exact for brackets of up to 64 teams;
 *  - if the bracket search finds nothing within its limits, one global
 *    weighted matching (same criteria, coarser) pairs the round instead;
 *  - colours (Art. 4): the first-team (higher primary score, then
 *    secondary, then smaller number); 4.3.1 round 1 by the initial colour
 *    and the first-team's number parity; then one preference, opposite
 *    preferences, the strong one (type B), the lower colour difference,
 *    alternation from the last round they differed, the first-team's
 *    preference, alternation of its last colour, then of the other's.
 * The team's colour in a round is its colour on board 1 (Art. 1.6.1) in a
 * match actually played.  Basic rules 6 and 7 of C.04.1 (colour limits)
 * never apply to teams: the preferences are quality criteria only.
 *
 * Workload: a few milliseconds for a 40-team round (tests/bench/
 * bench_team.c).  Pure, deterministic; allocates its work arrays per call.
 */
#ifndef ARBITER_RULES_TEAM_PAIRING_H
#define ARBITER_RULES_TEAM_PAIRING_H

#include <stdbool.h>

#include "team.h"

enum {
    TEAM_PAIRING_E_RANGE = 1, /* bad round, or too many teams for a round robin */
    TEAM_PAIRING_E_NONE = 2,  /* no pairing meets the absolute criteria */
    TEAM_PAIRING_MAX_ITEMS = 64,
};

/* One pairing: a is the first-named team (listed first, home side),
 * colour_a its match colour (board 1): pass both to team_event_add_match.
 * b == 0 means a gets the bye. */
typedef struct TeamPair {
    int a, b;
    TrnColour colour_a;
} TeamPair;

/* Strength of a colour preference. */
typedef enum TeamPrefStrength {
    TEAM_PREF_NO = 0,
    TEAM_PREF_MILD = 1,   /* Type B only */
    TEAM_PREF_STRONG = 2, /* Type B strong; every Type A preference */
} TeamPrefStrength;

typedef struct TeamColourPref {
    TrnColour colour;          /* wanted colour, NONE = no preference */
    TeamPrefStrength strength; /* NO with colour NONE */
    int cd;                    /* colour difference: whites minus blacks */
} TeamColourPref;

/*
 * Team round robin, round `round` (1-based) for n_teams teams, flags as in
 * berger.h (BERGER_DOUBLE, BERGER_SWAP_LAST_TWO).  Team i is Berger number
 * i; the table's White team is a, with colour_a TRN_WHITE (its colour on
 * board 1: under TEAM_BOARDS_EVEN_WHITE, or a pattern starting with B, the
 * caller lists b first with TRN_BLACK so that the first-named team keeps
 * the scheme's board 1).  A team meeting the dummy of an odd field gets
 * {team, 0} (free; the regulations say what it scores).  Returns the number
 * of pairs written to out (room for BERGER_MAX_BOARDS), or
 * -TEAM_PAIRING_E_RANGE.
 */
int team_pairing_round_robin(int n_teams, int round, int flags, TeamPair *out);

/*
 * The colour preference of team `team` before round `round` under the
 * settings' rule, from its match colours in rounds 1..round-1 (rounds
 * without a match colour do not count).
 */
TeamColourPref team_pairing_preference(const TeamEvent *ev, int team, int round);

/*
 * Pairs round `round` of ev by C.04.6: every team not withdrawn and without
 * a bye already entered in that round (team_event_add_bye with FPB, HPB or
 * ZPB before pairing) is paired.  Rounds 1..round-1 are the history.
 * Writes the pairs in table order (highest score first, the bye last) to
 * out (room for TEAM_MAX_TEAMS / 2 + 1) and their number to *n_out.
 * Returns 0, TEAM_PAIRING_E_RANGE, TEAM_PAIRING_E_NONE or -ENOMEM.
 */
int team_pairing_swiss(const TeamEvent *ev, int round, TeamPair *out, int *n_out);

/*
 * Colour allocation of one match (Art. 4) between teams x and y before
 * round `round`: returns the pair as the pairing lists it, a = the
 * first-named team under settings.scheme (the match White for odd boards
 * White) and colour_a = its match colour.
 */
TeamPair team_pairing_colours(const TeamEvent *ev, int round, int x, int y);

/* What a proposed pairing breaks (codes below). */
typedef enum TeamViolationCode {
    TEAM_V_TEAM,      /* a team number that is not in the event */
    TEAM_V_DUP,       /* a team twice in the round */
    TEAM_V_UNPAIRED,  /* a present team with neither match nor bye */
    TEAM_V_WITHDRAWN, /* a withdrawn team paired */
    TEAM_V_ABSENT,    /* a team with a requested bye in the round paired */
    TEAM_V_C1,        /* rematch */
    TEAM_V_C2,        /* PAB to a team that had one or a win without playing */
    TEAM_V_PAB,       /* more than one PAB, or a PAB with an even field */
} TeamViolationCode;

typedef struct TeamViolation {
    TeamViolationCode code;
    int team, other; /* teams concerned (other 0 if one) */
} TeamViolation;

/* "C1", "DUP", ... */
const char *team_pairing_violation_name(TeamViolationCode code);

/*
 * Checks the proposed pairing pairs[0..n-1] of round `round` against the
 * absolute criteria.  Writes at most max items to out and returns how many
 * violations there are (0 = legal), possibly more than max.
 */
int team_pairing_check(const TeamEvent *ev, int round, const TeamPair *pairs, int n,
                       TeamViolation *out, int max);

/* How a proposed pairing compares with the engine's own (a note for the
 * arbiter: a program must reproduce the published pairings). */
typedef enum TeamCompare {
    TEAM_SAME = 0,         /* the engine pairs the round the same way */
    TEAM_OTHER_PAIRS = 1,  /* the engine would pair other teams together */
    TEAM_OTHER_COLOURS = 2 /* the same pairs, another first-named team or colour */
} TeamCompare;

/*
 * Compares pairs[0..n-1] (any order) with team_pairing_swiss() for round
 * `round`.  Returns a TeamCompare, TEAM_PAIRING_E_NONE / _E_RANGE as the
 * engine does (negated), or -ENOMEM.
 */
int team_pairing_compare(const TeamEvent *ev, int round, const TeamPair *pairs, int n);

#endif
