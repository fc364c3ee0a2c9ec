/*
 * canmate_capture.h — the milestone search of canmate_search(): mates
 * that need men captured first (a king walled in by its own men is freed
 * by their capture), found by walking the layers of positions between
 * irreversible moves.  See canmate_capture.c.
 */
#ifndef ARBITER_RULES_CANMATE_CAPTURE_H
#define ARBITER_RULES_CANMATE_CAPTURE_H

#include <stdint.h>

#include "board.h"
#include "canmate.h"

/*
 * Searches b for a helpmate by `winner` (WHITE or BLACK) within max_nodes
 * positions walked in all.  YES with the mating line in line[0..*line_len)
 * (line may be NULL; it must hold CANMATE_LINE_MAX moves), else UNKNOWN
 * (also when out of memory): it never answers NO, since it tries only the
 * most promising captures.  *line_len is untouched unless the answer is
 * YES.  Allocates about 150 bytes per position of a layer's walk (at most
 * some 20 MB).
 */
CanMate canmate_capture_search(const Board *b, int winner, uint64_t max_nodes, Move *line,
                               int *line_len);

#endif
