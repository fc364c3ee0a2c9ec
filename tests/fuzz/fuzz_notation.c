/*
 * fuzz_notation.c — move input under arbitrary bytes.
 *
 * The first byte picks one of a few positions (castling, en passant,
 * promotions, pins); the rest is the text.  notation_parse() must either
 * refuse with a message and a documented code, or return a legal move whose
 * SAN, in every language, reads back as the same move.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fens[] = {
    BOARD_START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1n1r3k/P3P1pp/8/8/8/8/1p6/R3K2R b KQ - 0 1",
    "2k5/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1",
    "k7/8/8/8/1b6/8/8/r2NK2N w - - 0 1",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    Board b;
    char err[NOTATION_ERR_MAX];
    if (board_from_fen(&b, fens[data[0] % (sizeof fens / sizeof fens[0])], err, sizeof err))
        abort();
    char text[128];
    size--;
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data + 1, size);
    text[size] = '\0';

    Move m;
    err[0] = '\0';
    int rc = notation_parse(&b, text, &m, err, sizeof err);
    if (rc != 0) {
        if (rc < NOTATION_E_MALFORMED || rc > NOTATION_E_NO_PROMOTION || err[0] == '\0')
            abort();
        if (rc == NOTATION_E_NO_PROMOTION && !board_is_legal(&b, m))
            abort();
        if (rc == NOTATION_E_ILLEGAL && m != MOVE_NONE) {
            int piece = b.squares[move_from(m)];
            if (piece == PIECE_NONE || piece_color(piece) != b.side || board_is_legal(&b, m))
                abort();
        }
        return 0;
    }
    if (!board_is_legal(&b, m))
        abort();
    static const char *const langs[] = {"en", "ru", "bg", "figurine"};
    for (int i = 0; i < 4; i++) {
        char san[NOTATION_SAN_MAX];
        Move back;
        if (notation_san_localized(&b, m, langs[i], san) != 0 ||
            notation_parse(&b, san, &back, err, sizeof err) != 0 || back != m)
            abort();
    }
    return 0;
}
