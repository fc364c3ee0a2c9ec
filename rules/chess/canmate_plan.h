/*
 * canmate_plan.h — the plan-directed stage of canmate_search(): picture
 * where the loser's king will be mated, against the walls, and steer the
 * guided search (canmate_guided.c) to each such square in turn, the most
 * walled-in first; where no piece but the kings and pawns moves, a search
 * that spends its depth on reversible moves alone, for the tempo plans of
 * walled-in kings (also tried, where pieces move, after the squares, and
 * run alone in turns of canmate_search()'s schedule).  For the long
 * cooperative plans of blocked positions whose mate is not in a corner.
 * See canmate_plan.c.
 */
#ifndef ARBITER_RULES_CANMATE_PLAN_H
#define ARBITER_RULES_CANMATE_PLAN_H

#include <stdint.h>

#include "board.h"
#include "canmate.h"
#include "canmate_guided.h"
#include "canmate_walk.h"

/* Pictured mate squares tried at most; they share the budget equally. */
enum { CANMATE_PLAN_TARGETS = 6 };

/* Pictured mates with blockers tried at most; they share the budget. */
enum { CANMATE_PLAN_PICTURES = 4 };

/*
 * Searches b for a helpmate by `winner` within max_nodes positions in all,
 * split among the pictured mate squares (or all of it for the tempo
 * search where only kings and pawns move), using the guided search's table tt
 * (tt_mask + 1 entries, a power of two) and generation counter *gen.  YES
 * with the mating line in line[0..*line_len) (line may be NULL; it must
 * hold CANMATE_LINE_MAX moves), else UNKNOWN: it never answers NO, since
 * each search it runs is steered and bounded.  *line_len is untouched
 * unless the answer is YES.
 */
CanMate canmate_plan_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                            uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len);

/*
 * The tempo search alone, where no man but the kings and pawns can move
 * (elsewhere UNKNOWN at once): a helpmate by `winner` whose reversible
 * moves (king moves that take nothing, but for the free walks of the
 * tempo plans) are fewest, within max_nodes positions.  Arguments and
 * answers as canmate_plan_search(): YES with the line, else UNKNOWN.
 * Cheap where it succeeds (some hundred thousand positions on the walled
 * kings of the labelled vector), so canmate_search() tries it before the
 * long searches.
 */
CanMate canmate_plan_tempo_search(const Board *b, int winner, uint64_t max_nodes,
                                  CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen, Move *line,
                                  int *line_len);

/*
 * canmate_plan_tempo_search() where the loser's king's steps towards the
 * edge of the board cost no depth either: the plans where that king walks
 * to the edge square it is mated on while pawns promote.  Same arguments
 * and answers.
 */
CanMate canmate_plan_edge_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                                 uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len);

/*
 * canmate_plan_tempo_search() also where pieces move: their moves cost
 * depth unless they give the piece up.  What the plan stage's own tempo
 * search does with a third of its budget, as a turn of its own, for the
 * positions where a piece must walk out to be given up before the tempo
 * plan.  Same arguments and answers.
 */
CanMate canmate_plan_pieces_tempo_search(const Board *b, int winner, uint64_t max_nodes,
                                         CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen,
                                         Move *line, int *line_len);

/*
 * Where the winner can never cover some squares (his only pieces are
 * bishops of one colour, his pawns and king fixed), the loser's king can
 * be mated only where its own men fill the flights he cannot cover.
 * Pictures such mates, nearest first by canmate_walk_picture_distance(),
 * and runs the greedy search steered by each (canmate_walk_picture()), the
 * best CANMATE_PLAN_PICTURES sharing max positions, with the walks'
 * memory *walks.  YES with the line (as canmate_plan_search()), else
 * UNKNOWN, at once where every square may be covered.
 */
CanMate canmate_plan_picture_search(const Board *b, int winner, uint64_t max, CanMateWalks **walks,
                                    Move *line, int *line_len);

#endif
