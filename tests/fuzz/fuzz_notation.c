/*
 * fuzz_notation.c — move input under arbitrary text.
 *
 * The first byte picks one of a few positions chosen to exercise every
 * branch of the reader (castling both ways, en passant, promotions with and
 * without capture, several pieces that can reach one square, a pin, Black to
 * move, check); the rest is the text a player typed.  Whatever the text,
 * notation_parse() either refuses it with a message and the documented *out,
 * or returns a legal move whose SAN, in every language we write, reads back
 * to the same move.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const positions[] = {
    BOARD_START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/4P3/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
    "1r2k3/P1P5/8/8/8/8/2p3p1/4K2R w K - 0 1",
    "4k3/8/8/8/8/8/1p4p1/R3K1N1 b Q - 0 1",
    "2k5/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1",
    "4k3/8/8/8/8/1N6/8/1N3N1K w - - 0 1",
    "4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "8/8/8/8/8/8/2B1B3/k1K5 w - - 0 1",
    "1n1r3k/P3P1pp/8/8/8/8/1p6/R3K2R b KQ - 0 1",
    "k7/8/8/8/1b6/8/8/r2NK2N w - - 0 1",
};
enum { NPOS = sizeof positions / sizeof positions[0] };

static void parse_back(const Board *b, Move m, const char *lang)
{
    char san[NOTATION_SAN_MAX], err[NOTATION_ERR_MAX];
    Move again = MOVE_NONE;
    int rc = lang ? notation_san_localized(b, m, lang, san) : notation_san(b, m, san);
    if (rc != 0 || san[0] == '\0')
        abort();
    if (notation_parse(b, san, &again, err, sizeof err) != 0 || again != m)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    Board b;
    char err[NOTATION_ERR_MAX];
    if (board_from_fen(&b, positions[data[0] % NPOS], err, sizeof err) != 0)
        abort();
    char text[128];
    size--;
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data + 1, size);
    text[size] = '\0';

    Move m = MOVE_NONE;
    err[0] = '\0';
    int rc = notation_parse(&b, text, &m, err, sizeof err);
    if (rc == 0) {
        if (m == MOVE_NONE || !movegen_is_legal(&b, m))
            abort();
        parse_back(&b, m, NULL);
        parse_back(&b, m, "en");
        parse_back(&b, m, "ru");
        parse_back(&b, m, "bg");
        parse_back(&b, m, "figurine");
        char uci[8];
        board_move_to_uci(m, uci);
        Move again = MOVE_NONE;
        if (notation_parse(&b, uci, &again, err, sizeof err) != 0 || again != m)
            abort();
        return 0;
    }
    if (err[0] == '\0' || strlen(err) >= sizeof err)
        abort(); /* a refusal says why */
    switch (rc) {
    case NOTATION_E_NO_PROMOTION:
        /* Art. 7.5.2: the queen promotion the player meant, which is legal. */
        if (!movegen_is_legal(&b, m) || move_kind(m) != MOVE_PROMOTION ||
            move_promotion(m) != QUEEN)
            abort();
        break;
    case NOTATION_E_ILLEGAL:
        /* MOVE_NONE or the from/to of an own piece's move that is not legal. */
        if (m != MOVE_NONE &&
            (movegen_is_legal(&b, m) || move_kind(m) != MOVE_NORMAL || move_from(m) == move_to(m) ||
             !(b.by_color[b.side] & BB(move_from(m)))))
            abort();
        break;
    case NOTATION_E_MALFORMED:
    case NOTATION_E_AMBIGUOUS:
        if (m != MOVE_NONE)
            abort();
        break;
    default: abort();
    }
    return 0;
}
