/*
 * fuzz_fen.c — FEN parsing under arbitrary bytes.
 *
 * Whatever the input, board_from_fen() must either refuse it with a message
 * or produce a board that keeps every invariant: its FEN parses back to the
 * same position, its key is the recomputed key, and its moves can be made.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';

    Board b;
    char err[160];
    err[0] = '\0';
    if (board_from_fen(&b, text, err, sizeof err) != 0) {
        if (err[0] == '\0')
            abort(); /* a refusal must say why */
        return 0;
    }
    char fen[FEN_MAX];
    board_to_fen(&b, fen);
    Board again;
    if (board_from_fen(&again, fen, err, sizeof err) != 0 || !board_same_position(&b, &again) ||
        again.key != b.key || b.key != board_compute_key(&b))
        abort();
    MoveList list;
    movegen_legal_moves(&b, &list);
    if ((uint64_t)list.count != movegen_perft(&b, 1))
        abort();
    for (int i = 0; i < list.count; i++) {
        Board child = b;
        board_make(&child, list.moves[i]);
        if (child.key != board_compute_key(&child) ||
            board_attackers(&child, board_king(&child, b.side), child.side, board_occupied(&child)))
            abort();
    }
    return 0;
}
