/*
 * pairing_check.h — what a proposed round breaks.
 *
 * Given a Tournament whose rounds before `round` are its history, and a
 * proposed pairing of `round` (boards White/Black by start rank, byes),
 * lists every pairing rule the proposal violates, each with a stable code,
 * the start ranks concerned and the board:
 *
 *   absolute (the pairing is illegal for a Swiss by C.04.1-3):
 *     DUP        player in more than one game or bye of the round
 *     PLAYER     start rank not in the tournament
 *     UNPAIRED   present player with neither game nor bye
 *     WITHDRAWN  withdrawn player paired or given the PAB
 *     ABSENT     player announced absent (bye requested, 240/XXZ) paired
 *                (round robin too: the absent side takes the bye, the
 *                scheduled opponent a forfeit win)
 *     C1         rematch (a played game before; forfeits are no meeting)
 *     FORBIDDEN  forbidden pair (260 / XXP)
 *     C2         PAB to a player who already had a PAB or a win's points
 *                without playing
 *     PAB        more than one PAB
 *     C3         two non-topscorers with the same absolute colour preference
 *                meet, or a player's absolute preference is not given when
 *                the opponent had none the other way (|CD| > 2 or the same
 *                colour three times running follows)
 *     BERGER     round robin: not the Berger table's game (opponent or
 *                colours; an unplayed game of the round's column of T is
 *                not judged by colours), the wrong player is free, or a
 *                forfeit win whose scheduled opponent is not absent
 *   quality (Dutch events only, and only where the proposal is worse than
 *   the Dutch engine's own pairing of the round; C6-C21 bracket by bracket
 *   as C.04.3 applies them,
 *   from the top scoregroup down, each code at the first bracket where the
 *   proposal is worse on it, the item naming that scoregroup; computed in
 *   pairing_quality.c):
 *     C5   the PAB to a player with more points
 *     C9   as many points, but more unplayed rounds before
 *     C6   more downfloaters in the bracket
 *     C7   as many, but with more points (compared from the highest)
 *     C8   as many with as many points, but other players, after whom the
 *          next bracket can at best pair fewer or float higher scores
 *     C10  topscorers or their opponents getting |CD| > 2 (actual colours)
 *     C11  ... getting one colour three times running
 *     C12  more players without their colour preference
 *     C13  more players without their strong or absolute preference
 *     C14  residents floating down who downfloated in the previous round
 *     C15  opponents of MDPs who upfloated in the previous round
 *     C16  C17  the same two rounds before
 *     C18  MDPs who downfloated in the previous round and float on (their
 *          score difference grows), more or with more points
 *     C19  as many MDPs against repeated upfloaters, with more points
 *     C20  C21  the same two rounds before
 *   (a bye or a forfeit win counts as a downfloat, as for the engine)
 *   C5 and C9 come first, then the items in the order of the brackets.
 *   note:
 *     ENGINE  the proposal is not the engine's pairing (a pairing program
 *             must reproduce published pairings: the arbiter is told)
 *
 * A Burstein event (options.swiss) is compared with the Burstein engine
 * (C.04.4.2): the absolute checks above and ENGINE with the engine's
 * pairing; the Dutch quality criteria are not Burstein's and are left out.
 * Scores count the acceleration the engines apply (250 / XXA, or Baku from
 * a *_BAKU 192 line, or Burstein's own), so the scoregroups and the
 * topscorers are the engines'.
 *
 * Withdrawn players must also be absent in T (a 240/XXZ bye for the round)
 * for the engine to leave them out as the pairing did.
 *
 * Pure: no I/O, no globals, deterministic.  Workload: a round of up to a
 * few hundred boards; one Dutch pairing of the round when compared.
 */
#ifndef ARBITER_RULES_PAIRING_CHECK_H
#define ARBITER_RULES_PAIRING_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "dutch.h"
#include "tournament.h"

enum {
    PAIRING_CHECK_MAX_ITEM_PLAYERS = 16,
    PAIRING_CHECK_E_INPUT = 1, /* round out of range or the system unknown */
};

typedef enum PairingCheckSystem {
    PAIRING_CHECK_SWISS = 0,
    PAIRING_CHECK_ROUNDROBIN = 1
} PairingCheckSystem;

typedef enum PairingCheckKind {
    PAIRING_CHECK_ABSOLUTE = 0,
    PAIRING_CHECK_QUALITY = 1,
    PAIRING_CHECK_NOTE = 2
} PairingCheckKind;

/* One board of the proposal; board numbers are the published ones. */
typedef struct PairingCheckBoard {
    int board;
    int white, black;
} PairingCheckBoard;

/* A bye of the proposal: kind TRN_RES_PAB (the pairing-allocated bye or a
 * round robin's free round), TRN_RES_HPB, TRN_RES_ZPB or TRN_RES_FPB
 * (requested byes, i.e. announced absences), or TRN_RES_FORFEIT_WIN: in a
 * round robin the Berger table stays when a player is absent, and his
 * scheduled opponent wins by forfeit (BERGER when that opponent is not
 * absent; a Swiss has no such entry, the player stays UNPAIRED). */
typedef struct PairingCheckBye {
    int player;
    char kind;
} PairingCheckBye;

typedef struct PairingCheckProposal {
    int n_boards;
    PairingCheckBoard *boards;
    int n_byes;
    PairingCheckBye *byes;
} PairingCheckProposal;

typedef struct PairingCheckOptions {
    PairingCheckSystem system;
    int berger_flags;      /* round robin: BERGER_DOUBLE, BERGER_SWAP_LAST_TWO */
    bool compare_engine;   /* Swiss: pair the round with the engine of `swiss` too */
    const bool *withdrawn; /* by start rank (max id + 1 entries), or NULL */
    int n_withdrawn_slots; /* entries of withdrawn[] */
    SwissSystem swiss;     /* Swiss: the event's system (zero: the Dutch) */
} PairingCheckOptions;

typedef struct PairingCheckItem {
    char code[12];
    PairingCheckKind kind;
    int board; /* 0 = no single board */
    int n_players;
    int players[PAIRING_CHECK_MAX_ITEM_PLAYERS]; /* start ranks */
    long value, engine_value;                    /* counts for the quality items */
    bool in_bracket;                             /* a quality item of one bracket: */
    TrnPoints bracket;                           /* ... its scoregroup's points */
    char message[240];                           /* English, start ranks as #n */
} PairingCheckItem;

typedef struct PairingCheckReport {
    int n_items, cap_items;
    PairingCheckItem *items;
    bool engine_run;     /* the event's engine paired the round */
    bool engine_differs; /* ... and its pairing is not the proposal */
    DutchPairing engine; /* its pairing (empty when not run) */
} PairingCheckReport;

/*
 * Checks PROP as round ROUND (1-based) of T, whose rounds 1..ROUND-1 are the
 * history; entries of T in column ROUND count only as announced absences
 * (H, F, Z without opponent), as for dutch_pair_round().  Fills *OUT (emptied
 * first; release with pairing_check_report_free()).  Returns 0, PAIRING_CHECK_E_INPUT with a reason
 * in ERR, or -ENOMEM.
 */
int pairing_check_round(const Tournament *t, int round, const PairingCheckProposal *prop,
                        const PairingCheckOptions *opt, PairingCheckReport *out, char *err,
                        size_t errlen);

/* Releases what *R holds; NULL or an empty report is fine. */
void pairing_check_report_free(PairingCheckReport *r);

/* True when R lists an item of kind PAIRING_CHECK_ABSOLUTE. */
bool pairing_check_report_has_absolute(const PairingCheckReport *r);

/*
 * The round ROUND as written in T (its games and PAB 'U'; a forfeit win
 * '+' without opponent as a TRN_RES_FORFEIT_WIN entry; H/F/Z entries stay
 * absences of T) as a proposal.  Boards are numbered in order of the White player's start rank.
 * Fills *OUT (free with pairing_check_proposal_free()).  Returns 0 or -ENOMEM.
 */
int pairing_check_proposal_from_round(const Tournament *t, int round, PairingCheckProposal *out);

/* Releases the arrays of P; NULL is fine. */
void pairing_check_proposal_free(PairingCheckProposal *p);

#endif
