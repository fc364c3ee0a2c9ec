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

/* The search's memory (some 10 MB once used), kept by the caller from one
 * call to the next; not shared between threads. */
typedef struct CanMateCapture CanMateCapture;

/* Frees m; NULL is a no-op. */
void canmate_capture_free(CanMateCapture *m);

/*
 * Searches b for a helpmate by `winner` (WHITE or BLACK) within max_nodes
 * positions walked in all.  YES with the mating line in line[0..*line_len)
 * (line may be NULL; it must hold CANMATE_LINE_MAX moves), else UNKNOWN
 * (also when out of memory): it never answers NO, since it tries only the
 * most promising captures.  *line_len is untouched unless the answer is
 * YES.  *mem is the memory, allocated on first need and kept for the next
 * call (free it with canmate_capture_free()); mem NULL: allocated and
 * freed within the call.
 */
CanMate canmate_capture_search(const Board *b, int winner, uint64_t max_nodes, CanMateCapture **mem,
                               Move *line, int *line_len);

#endif
