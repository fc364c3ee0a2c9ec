/*
 * canmate_guided.h — the guided deep helpmate search of canmate_search():
 * a depth-first search that spends no depth on moves towards a pictured
 * corner mate, for the long helpmates of blocked and minor-piece positions.
 * See canmate_guided.c.
 */
#ifndef ARBITER_RULES_CANMATE_GUIDED_H
#define ARBITER_RULES_CANMATE_GUIDED_H

#include <stdint.h>

#include "board.h"
#include "canmate.h"

/* An entry of the helpmate searches' transposition table: the position
 * `key` was searched in generation `gen` with `depth` plies (or depth left)
 * without finding a mate.  Zeroed entries are unused. */
typedef struct CanMateTtEntry {
    uint64_t key;
    uint32_t gen;
    int32_t depth;
} CanMateTtEntry;

/*
 * Searches b for a helpmate by `winner` within max_nodes positions, using
 * the table tt (tt_mask + 1 entries, a power of two) and advancing *gen,
 * its generation counter, once per round.  YES with the mating line in
 * line[0..*line_len) (line may be NULL; it must hold CANMATE_LINE_MAX
 * moves), NO when a round saw every reachable position without a mate,
 * else UNKNOWN (also when out of memory).  *line_len is untouched unless
 * the answer is YES.
 */
CanMate canmate_guided_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                              uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len);

/*
 * The same with the mate pictured at `corner`: a corner square puts the
 * loser's king there, another square is where every piece is steered
 * (SQ_NONE: the corner chosen from the bishops, as above).
 */
CanMate canmate_guided_search_at(const Board *b, int winner, int corner, uint64_t max_nodes,
                                 CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen, Move *line,
                                 int *line_len);

#endif
