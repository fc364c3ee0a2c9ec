/*
 * canmate_walk.h — the walks of canmate_search(): the exhaustive
 * breadth-first walk of every reachable position (a NO when none is a
 * mate) and the greedy best-first search towards a mate for the long
 * cooperative walks of minor-piece endings.  See canmate_walk.c.
 */
#ifndef ARBITER_RULES_CANMATE_WALK_H
#define ARBITER_RULES_CANMATE_WALK_H

#include <stddef.h>

#include "board.h"
#include "canmate.h"

/* The walks' memory (about 200 bytes a position of the largest budget
 * asked for, of either walk, and half a megabyte for the best-first
 * search's open list), kept by the caller from one call to the next; not
 * shared between threads. */
typedef struct CanMateWalks CanMateWalks;

/* Frees w; NULL is a no-op. */
void canmate_walks_free(CanMateWalks *w);

/*
 * Breadth-first over every position reachable from root, positions the
 * static proofs show dead for `winner` not expanded.  NO when none is a
 * mate of the loser and the walk completes within max positions; YES with
 * the shortest line in line[0..*line_len) (line may be NULL; it must hold
 * CANMATE_LINE_MAX moves); UNKNOWN when the budget (or memory) runs out.
 * A walk that ran out pauses: the next call for the same root and winner
 * with a larger budget carries on where it stopped, with the answer a
 * fresh walk would give.  *walks is the memory, allocated on first need.
 */
CanMate canmate_walk_exhaust(CanMateWalks **walks, const Board *root, int winner, size_t max,
                             Move *line, int *line_len);

/* Makes the next exhaustive walk start from its root (for measuring one
 * budget alone).  NULL is a no-op. */
void canmate_walk_forget(CanMateWalks *w);

/*
 * Greedy best-first search from root: always expands the waiting position
 * that looks nearest to a mate of the loser, whose king is steered to
 * `target` (SQ_NONE: the nearest suitable corner).  YES with the line as
 * above, or UNKNOWN after max expanded positions.  *walks as above (the
 * best-first search keeps its own part of it, so a paused exhaustive walk
 * stays intact).
 */
CanMate canmate_walk_bestfirst(CanMateWalks **walks, const Board *root, int winner, int target,
                               size_t max, Move *line, int *line_len);

/*
 * How many moves b looks from a pictured mate of the loser by `winner`:
 * the loser's king on `target`, the loser's own men on the squares of
 * `blocks`, and `target` cleared of the winner's men that stand on it or
 * bear on it through one another, each move of such a plan counted once
 * (distances on an empty board), plus 1000.  A man that can never reach a
 * block counts 9.
 */
uint32_t canmate_walk_picture_distance(const Board *b, int winner, int target, Bitboard blocks);

/*
 * canmate_walk_bestfirst() steered by a pictured mate instead: the loser's
 * king on `target` (a square), the loser's own men on the squares of
 * `blocks`.  Same memory, budget and answers.
 */
CanMate canmate_walk_picture(CanMateWalks **walks, const Board *root, int winner, int target,
                             Bitboard blocks, size_t max, Move *line, int *line_len);

#endif
