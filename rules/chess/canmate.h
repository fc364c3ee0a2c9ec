/*
 * canmate.h — "can this side still checkmate by any series of legal moves?"
 *
 * The question of Art. 5.1.2 (resignation), 5.2.2 (dead position), 6.9 (flag
 * fall), 7.5.5 (third illegal move) and A.5.3.  It asks for the existence of a
 * helpmate: a sequence of legal moves, both sides cooperating, that ends with
 * the loser checkmated.  It is not a material count: blocked pawn walls,
 * forced lines and bishops of one colour all matter.
 *
 * The answer is YES (a mating line was found and is returned), NO (proven:
 * no series of legal moves mates) or UNKNOWN (the analysis ran out of its
 * budget).  NO is only ever answered with a proof, so UNKNOWN must be treated
 * as "can still mate" by callers that would otherwise turn a loss into a
 * draw; the arbiter can always override.
 *
 * The 50/75-move and repetition counters are ignored ("any series of legal
 * moves" in the Arbiters' Manual reading): only the placement, side to move,
 * castling rights and en passant square matter.
 *
 * The analysis follows the published idea of M. Ambrona, "A Practical
 * Algorithm for Chess Unwinnability" (FUN 2022): cheap material rules,
 * semi-static proofs for blocked pawn structures (canmate_static.c), an
 * iterative-deepening helpmate search with move ordering and a
 * transposition table, a guided deep search (canmate_guided.c), and an
 * exhaustive walk of the reachable positions when they are few.
 *
 * Everything here is deterministic and reads no clock: budgets are counted
 * in positions visited.  No global state; the transposition table lives in a
 * caller-owned CanMateScratch.
 *
 * Workload: canmate_is_dead() runs after every move of every game and costs
 * well under a microsecond in open positions (it never searches there);
 * canmate_quick() costs some microseconds; canmate_search() runs at flag
 * fall, resignation and the like, a few times per game: under a millisecond
 * on average on timeout-like positions, and on constructed blocked
 * positions up to some tenths of a second when the guided search
 * (canmate_guided.c) runs to its budget of some million positions.  Mating
 * lines are legal but not always the shortest (the long ones come from
 * the guided and the greedy searches).
 */
#ifndef ARBITER_RULES_CANMATE_H
#define ARBITER_RULES_CANMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* Zero is UNKNOWN, so a zeroed result never claims a proof. */
typedef enum CanMate {
    CANMATE_UNKNOWN = 0,
    CANMATE_YES = 1,
    CANMATE_NO = 2,
} CanMate;

/* Longest mating line canmate_search() returns, in plies; a `line` buffer
 * must hold this many moves. */
enum { CANMATE_LINE_MAX = 128 };

/* Budgets of canmate_search(); a zero field takes its default. */
typedef struct CanMateLimits {
    uint64_t max_nodes;   /* positions the depth-first helpmate search may visit
                             (the guided search: some hundred times as many) */
    int max_depth;        /* the uniform search's longest helpmate, in plies (at
                             most 5 are used: the longer ones are the guided
                             search's) */
    uint64_t max_exhaust; /* positions the exhaustive NO proof may store (about
                             200 bytes each, allocated as the walk needs
                             them); the best-first searches at most a quarter */
} CanMateLimits;

/* Defaults: what canmate_analyse() uses.  They are modest on purpose: for
 * the Laws an UNKNOWN has the same effect as a YES (the result stands), so
 * search effort beyond finding the common helpmates buys nothing; only NO
 * changes a result, and NO proofs are static or come from small walks. */
enum {
    CANMATE_DEFAULT_NODES = 10000,
    CANMATE_DEFAULT_DEPTH = 9,
    CANMATE_DEFAULT_EXHAUST = 100000,
    CANMATE_EXHAUST_MAX = 1 << 24, /* larger max_exhaust values are capped */
};

/* Working memory of canmate_search() (its transposition tables); reusable
 * from one call to the next, not shared between threads. */
typedef struct CanMateScratch CanMateScratch;

/* A new, empty scratch area, or NULL when out of memory: its tables are
 * allocated on first need (a 4 MB transposition table when a search
 * runs, and about 200 bytes per max_exhaust position the exhaustive walk
 * stores, a quarter of that again and half a megabyte for the best-first
 * searches, and up to 10 MB for the milestone search).
 * Free it with canmate_scratch_free(). */
CanMateScratch *canmate_scratch_new(void);

/* Frees s; NULL is a no-op. */
void canmate_scratch_free(CanMateScratch *s);

/*
 * The cheap test: material rules, the semi-static proof for frozen pawn
 * structures and a small bounded helpmate search, with no allocation.
 * `winner` (WHITE or BLACK) is the side that would mate; either side may be
 * to move in b.  Returns YES, NO or, when it cannot decide, UNKNOWN.
 */
CanMate canmate_quick(const Board *b, int winner);

/*
 * The full analysis under the budgets of lim (NULL: defaults).  scratch may
 * be NULL (one is then allocated for the call; UNKNOWN if that fails).  On
 * YES, when line is not NULL, line[0..*line_len) receives a sequence of
 * legal moves from b that ends with `winner` mating (possibly empty when b
 * is already mate); line must hold CANMATE_LINE_MAX moves.  *line_len is set
 * to 0 for NO and UNKNOWN.  line_len may be NULL when line is NULL.
 */
CanMate canmate_search(const Board *b, int winner, const CanMateLimits *lim,
                       CanMateScratch *scratch, Move *line, int *line_len);

/* canmate_quick(), then canmate_search() with the default limits when the
 * quick test cannot decide.  For the Laws engine. */
CanMate canmate_analyse(const Board *b, int winner);

/* Art. 5.2.2, for the check after every move: true only when it is proven
 * that neither side can mate.  Cheap: the static layers for both sides
 * (well under a microsecond in open positions), then, only when little can
 * move (at most two minor pieces besides kings and pawns, kings penned in
 * by pawns), a small exhaustive walk.  False means "not proven dead"; use
 * canmate_search() per side for the full analysis. */
bool canmate_is_dead(const Board *b);

/*
 * canmate_search() stage by stage, for measuring its schedule
 * (tests/bench/bench_canmate_stages.c).  After the static layers, the
 * positions one move away and the short mates, canmate_search() runs the
 * stages of one menu, in an order chosen by the position, until one
 * answers; a stage of the exhaustive walk carries on where the walk
 * stages before it stopped.
 */
typedef struct CanMateStage {
    const char *kind; /* "guided", "walk", "best-first", "tempo", "first-moves",
                         "plan" or "capture" (static text) */
    int corner;       /* the corner a guided or best-first stage aims at
                         (0..3: a1, h1, a8, h8 seen from the winner), -1: its own choice */
    unsigned share;   /* the budget, per mille of the kind's default unit */
    bool resumes;     /* carries on from the stages of its kind run before */
} CanMateStage;

/* The number of stages in the menu. */
int canmate_stage_count(void);

/* What stage (0 <= stage < canmate_stage_count()) is, into *out; kind
 * "none" for a stage out of range. */
void canmate_stage_info(int stage, CanMateStage *out);

/* The stages in the order canmate_search() runs them for b and winner,
 * into order[0..n) (room for canmate_stage_count()); returns n.  Each stage
 * is there at most once: an order may leave some out. */
int canmate_stage_order(const Board *b, int winner, int *order);

/* What canmate_search() with the default limits settles before its
 * stages: YES, NO, or UNKNOWN when the stages would run (also when
 * scratch is NULL or memory runs out). */
CanMate canmate_search_prelude(const Board *b, int winner, CanMateScratch *scratch);

/* One stage alone with the default limits, as if it came first (a walk
 * starts from b): YES, NO or UNKNOWN (also for a stage out of range or a
 * NULL scratch). */
CanMate canmate_stage_run(const Board *b, int winner, int stage, CanMateScratch *scratch);

/* "yes", "no" or "unknown". */
const char *canmate_name(CanMate r);

#endif
