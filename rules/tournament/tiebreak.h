/*
 * tiebreak.h — final standings with the FIDE tie-breaks (Handbook C.07):
 * PTS, DE, WIN, WON, BPG, BWG, PS, REP, BH, FB, AOB, SB, KS, ARO, TPR,
 * PTP, APRO, APPO (and STD, TPN, RTNG of the 2026 text), with the modifiers
 * Cut-n, Median-n, Limit (KS), /P (unplayed games as played) and /F (the
 * final round's games as draws, "fore").
 *
 * Unplayed rounds follow the edition chosen:
 *  - TB_EDITION_2009: the old "virtual opponent" (own unplayed round: an
 *    opponent with the player's score before the round, the opposite
 *    result, then draws; opponents' unplayed rounds count as draws);
 *  - TB_EDITION_2023: C.07 2023/2024 Art. 16 — own unplayed rounds count
 *    the player's own final score; opponents' requested byes followed only
 *    by unplayed rounds (withdrawals, last-round byes) count as draws; cuts
 *    take a voluntarily unplayed round (VUR) first;
 *  - TB_EDITION_2026: as 2023, but the own-score "dummy" is capped: for a
 *    forfeit at the opponent's adjusted score, otherwise at a draw per round.
 * In a round robin (TbOptions.round_robin) forfeits count as games.
 *
 * Values are integers in hundredths (TB_SCALE): points 1.5 -> 150, SB
 * 7.25 -> 725, ARO 2345 -> 234500.  The performance tie-breaks use the B.02
 * tables (8.1.1 p -> dp, 8.1.2 D -> PD), typed from the FIDE Handbook.
 *
 * Pure; cost O(players x rounds) per tie-break, O(players^2) worst case for
 * DE groups.
 */
#ifndef ARBITER_RULES_TIEBREAK_H
#define ARBITER_RULES_TIEBREAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tournament.h"

enum {
    TB_SCALE = 100,
    TB_MAX_SPECS = 32,
    TIEBREAK_E_SYNTAX = 1, /* a tie-break list cannot be read */
};

typedef enum TbCode {
    TB_PTS,
    TB_DE,
    TB_WIN,
    TB_WON,
    TB_BPG,
    TB_BWG,
    TB_PS,
    TB_REP,
    TB_BH,
    TB_FB,
    TB_AOB,
    TB_SB,
    TB_KS,
    TB_ARO,
    TB_TPR,
    TB_PTP,
    TB_APRO,
    TB_APPO,
    TB_STD,
    TB_TPN,
    TB_RTNG,
    TB_N_CODES
} TbCode;

/* One tie-break with its modifiers, as in "BH/C1", "KS/L+1", "SB-M1". */
typedef struct TbSpec {
    TbCode code;
    int cut_low;           /* Cn: drop the n least significant values; Mn: and ... */
    int cut_high;          /* ... the n most significant */
    int limit_percent;     /* KS: limit as a percentage of the maximum score (default 50) */
    TrnPoints limit_delta; /* KS: L+n / L-n moves the limit by n half points */
    bool as_played;        /* /P: unplayed games with an opponent count as played */
    bool fore;             /* /F (BH, AOB): the final round's games count as
                              draws, as in FB; AOB/F averages the opponents' FB */
} TbSpec;

typedef enum TbEdition {
    TB_EDITION_2009 = 2009,
    TB_EDITION_2023 = 2023,
    TB_EDITION_2026 = 2026,
} TbEdition;

typedef struct TbOptions {
    TbEdition edition;
    int rounds;         /* rounds to count, 0 = every round in the file */
    bool round_robin;   /* forfeits count as games; byes are the free round */
    int unrated_rating; /* rating for unrated opponents; 0 = rating tie-breaks
                           are invalid as soon as one player is unrated */
} TbOptions;

/*
 * Parses a tie-break list: TRF/TEC spelling "BH/C1,BH,SB,DE" or Handbook
 * spelling "BH-C1, BH, SB, DE" (commas, blanks or semicolons between, case
 * insensitive; GE is read as REP).  Returns 0 with *n specs, or
 * TIEBREAK_E_SYNTAX with a message in err.
 */
int tiebreak_parse(const char *text, TbSpec *specs, int max, int *n, char *err, size_t errlen);

/* Writes the TRF spelling of s ("BH/C1") into buf. */
void tiebreak_spec_name(const TbSpec *s, char *buf, size_t len);

/* True when higher values rank higher (all but TPN). */
bool tiebreak_higher_is_better(TbCode code);

typedef struct TbRow {
    int player;                  /* start rank */
    int rank;                    /* 1-based; equal for players tied on every tie-break */
    int64_t value[TB_MAX_SPECS]; /* hundredths */
    bool valid[TB_MAX_SPECS];    /* false: not defined (rating tie-break with unrated players) */
} TbRow;

typedef struct Standings {
    int rounds;
    int n_specs;
    TbSpec specs[TB_MAX_SPECS]; /* specs[0] is always PTS */
    int n_rows;
    TbRow *rows; /* standings order */
} Standings;

/*
 * Computes the standings of t after opt->rounds rounds, ranking by points
 * and then by specs in order (PTS is put first if the list lacks it; at
 * most TB_MAX_SPECS - 1 others).  Returns 0 with *out (free with
 * tiebreak_standings_free), TIEBREAK_E_SYNTAX if there are too many specs,
 * or -ENOMEM.
 */
int tiebreak_standings(const Tournament *t, const TbSpec *specs, int n_specs, const TbOptions *opt,
                       Standings **out);

/* Frees s; tiebreak_standings_free(NULL) is a no-op. */
void tiebreak_standings_free(Standings *s);

/*
 * The edition of the tie-break rules in force on a start date (TRF line 042:
 * YYYY/MM/DD, YYYY-MM-DD, DD.MM.YYYY, DD/MM/YYYY or YY/MM/DD): 2026 from
 * 2026-03-01, else 2023.  No readable date: today's rules, 2026.
 */
TbEdition tiebreak_edition_for_date(const char *date);

/* B.02 8.1.1: rating difference dp for a score fraction p in hundredths (0..100). */
int tiebreak_dp(int p_hundredths);

/* B.02 8.1.2: expected score, in hundredths, of a player rated diff points above the opponent. */
int tiebreak_expected(int diff);

#endif
