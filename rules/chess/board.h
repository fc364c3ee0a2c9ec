/*
 * board.h — a chess position: pieces, side to move, castling rights, en
 * passant, move counters and its Zobrist key; FEN in and out; making moves.
 *
 * Invariants of a Board built by board_from_fen() and changed only by
 * board_make() (or board_make_keyed(), the same make with the key given):
 *   - exactly one king per side; no pawn on rank 1 or 8; the side not to move
 *     is not in check;
 *   - castling rights agree with the pieces (king and rook on their squares);
 *   - `ep` is set only when an en passant capture is actually legal for the
 *     side to move (Art. 9.2.3), so `key` is the repetition identity: two
 *     positions are "the same" for Art. 9.2 exactly when their keys match
 *     (up to hash collisions, which the caller may rule out with
 *     board_same_position()).
 *
 * Moves and their generation are declared in movegen.h, included here.
 *
 * Workload: board_make() and movegen_legal_moves() are the perft hot path
 * (hundreds of millions of calls); a Board is small and is copied rather than
 * unmade.
 */
#ifndef ARBITER_RULES_BOARD_H
#define ARBITER_RULES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitboard.h"
#include "movegen.h"

/* Piece codes in Board.squares: colour * 6 + type, or PIECE_NONE. */
enum { PIECE_NONE = 12 };

enum {
    CASTLE_WK = 1, /* White O-O */
    CASTLE_WQ = 2, /* White O-O-O */
    CASTLE_BK = 4,
    CASTLE_BQ = 8,
};

typedef struct Board {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[2];
    uint8_t squares[64];
    uint8_t side;     /* WHITE or BLACK to move */
    uint8_t castling; /* CASTLE_* bits */
    uint8_t ep;       /* en passant target square, SQ_NONE unless legal */
    uint8_t pad;
    uint16_t halfmove; /* plies since the last capture or pawn move */
    uint16_t fullmove; /* starts at 1, incremented after Black's move */
    uint64_t key;      /* Zobrist key of the repetition identity */
} Board;

/* Documented failures of board_from_fen(); the message says which. */
enum { BOARD_E_FEN = 1 };

#define BOARD_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Longest FEN board_to_fen() writes, with its NUL. */
enum { FEN_MAX = 96 };

static inline int piece_make(int color, int type)
{
    return color * 6 + type;
}
static inline int piece_color(int piece)
{
    return piece >= 6;
}
/* The type of a piece code; PIECE_NONE gives PIECE_TYPE_NB, no type.  A
 * compare and a subtract: `% 6` cost a multiply-and-shift sequence on the
 * hot paths of the searches (some 2 % of canmate_search()'s time). */
static inline int piece_type(int piece)
{
    return piece >= 6 ? piece - 6 : piece;
}

static inline Bitboard board_pieces(const Board *b, int color, int type)
{
    return b->by_color[color] & b->by_type[type];
}
static inline Bitboard board_occupied(const Board *b)
{
    return b->by_color[WHITE] | b->by_color[BLACK];
}
static inline int board_king(const Board *b, int color)
{
    return bb_lsb(board_pieces(b, color, KING));
}

/*
 * Parses a FEN record into *b.  Returns 0, or BOARD_E_FEN with a
 * human-readable reason in err (NUL-terminated, truncated to errlen) when the
 * text is malformed or the position impossible.  *b is unspecified on error.
 * The en passant field is accepted when it is consistent with a double step
 * just played, even if no capture is possible; it is then dropped.
 */
int board_from_fen(Board *b, const char *fen, char *err, size_t errlen);

/* The start position. */
void board_start(Board *b);

/* Writes the FEN of b into out (at least FEN_MAX bytes). */
void board_to_fen(const Board *b, char *out);

/* Plays m, which must be legal in b. */
void board_make(Board *b, Move m);

/* board_make() for a caller that has the key already: key must be
 * board_key_after(b, m) before the move.  The searches compute that key
 * to probe their tables before they make a move; the make then does not
 * work it out a second time. */
void board_make_keyed(Board *b, Move m, uint64_t key);

/* The key b would have after board_make(b, m), for m legal in b, without
 * making the move: lets a search probe its table before it pays for the
 * copy and the make (a double step that an enemy pawn could take en
 * passant is made on a copy, since its key depends on the pin logic). */
/* Castling rights kept when a move touches a square (from or to). */
extern const uint8_t board_castle_keep[64];

/* Inline: the searches ask it for every move of most positions they see. */
static inline uint64_t board_key_after(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int us = b->side;
    int piece = b->squares[from];
    if (piece_type(piece) == PAWN && (from ^ to) == 16 &&
        (bb_pawn_attacks[us][(from + to) / 2] & board_pieces(b, us ^ 1, PAWN))) {
        Board copy = *b;
        board_make(&copy, m);
        return copy.key;
    }
    uint64_t key = b->key ^ zobrist_black_to_move ^ zobrist_castling[b->castling] ^
                   zobrist_castling[b->castling & board_castle_keep[from] & board_castle_keep[to]];
    if (b->ep != SQ_NONE)
        key ^= zobrist_ep_file[SQ_FILE(b->ep)];
    key ^= zobrist_piece[piece][from];
    if (kind == MOVE_CASTLING) {
        int rook_from = to > from ? from + 3 : from - 4;
        int rook_to = to > from ? from + 1 : from - 1;
        int rook = b->squares[rook_from];
        return key ^ zobrist_piece[piece][to] ^ zobrist_piece[rook][rook_from] ^
               zobrist_piece[rook][rook_to];
    }
    if (b->squares[to] != PIECE_NONE)
        key ^= zobrist_piece[b->squares[to]][to];
    if (kind == MOVE_EN_PASSANT) {
        int cap = us == WHITE ? to - 8 : to + 8;
        key ^= zobrist_piece[b->squares[cap]][cap];
    }
    int landed = kind == MOVE_PROMOTION ? piece_make(us, move_promotion(m)) : piece;
    return key ^ zobrist_piece[landed][to];
}

/* Squares of `by` pieces that attack sq, given occupancy occ.  Inline: it
 * is in the innermost loops of move generation and of the searches. */
static inline Bitboard board_attackers(const Board *b, int sq, int by, Bitboard occ)
{
    Bitboard them = b->by_color[by];
    Bitboard rq = them & (b->by_type[ROOK] | b->by_type[QUEEN]);
    Bitboard bq = them & (b->by_type[BISHOP] | b->by_type[QUEEN]);
    Bitboard a = them & ((bb_pawn_attacks[by ^ 1][sq] & b->by_type[PAWN]) |
                         (bb_knight_attacks[sq] & b->by_type[KNIGHT]) |
                         (bb_king_attacks[sq] & b->by_type[KING]));
    /* The sliders' look-ups only where there are sliders: the pawn endings
     * the searches walk most have none. */
    if (rq)
        a |= bb_rook_attacks(sq, occ) & rq;
    if (bq)
        a |= bb_bishop_attacks(sq, occ) & bq;
    return a;
}

/* Every square a man of `color` attacks, given occupancy occ: a look-up
 * per piece.  With the other king lifted off occ, the squares that king
 * may not step to (and its own square exactly when it is in check).
 * Inline: move generation asks it once per position. */
static inline Bitboard board_attacks(const Board *b, int color, Bitboard occ)
{
    const Bitboard own = b->by_color[color];
    Bitboard att =
        bb_pawns_attacks(own & b->by_type[PAWN], color) | bb_king_attacks[board_king(b, color)];
    Bitboard x = own & b->by_type[KNIGHT];
    while (x)
        att |= bb_knight_attacks[bb_pop(&x)];
    x = own & (b->by_type[BISHOP] | b->by_type[QUEEN]);
    while (x)
        att |= bb_bishop_attacks(bb_pop(&x), occ);
    x = own & (b->by_type[ROOK] | b->by_type[QUEEN]);
    while (x)
        att |= bb_rook_attacks(bb_pop(&x), occ);
    return att;
}

/* Squares a piece of `type` on sq attacks, given occupancy occ: a knight,
 * bishop, rook or queen; any other type answers as a king. */
static inline Bitboard board_piece_attacks(int type, int sq, Bitboard occ)
{
    switch (type) {
    case KNIGHT: return bb_knight_attacks[sq];
    case BISHOP: return bb_bishop_attacks(sq, occ);
    case ROOK: return bb_rook_attacks(sq, occ);
    case QUEEN: return bb_queen_attacks(sq, occ);
    default: return bb_king_attacks[sq];
    }
}

/* Enemy pieces that give check to the king of the side to move. */
Bitboard board_checkers(const Board *b);

static inline bool board_in_check(const Board *b)
{
    return board_checkers(b) != 0;
}

/* Exact Art. 9.2.3 identity: same placement, side, castling rights and legal
 * en passant square. */
bool board_same_position(const Board *a, const Board *b);

/* Zobrist key recomputed from scratch (for checking the incremental one). */
uint64_t board_compute_key(const Board *b);

/* UCI text of m ("e2e4", "e7e8q", castling "e1g1") into out[6]. */
void board_move_to_uci(Move m, char out[6]);

#endif
