/*
 * board.h — a chess position: pieces, side to move, castling rights, en
 * passant, move counters and its Zobrist key; FEN in and out; making moves;
 * legal move generation.
 *
 * Invariants of a Board built by board_from_fen() and changed only by
 * board_make():
 *   - exactly one king per side; no pawn on rank 1 or 8; the side not to move
 *     is not in check;
 *   - castling rights agree with the pieces (king and rook on their squares);
 *   - `ep` is set only when an en passant capture is actually legal for the
 *     side to move (Art. 9.2.3), so `key` is the repetition identity: two
 *     positions are "the same" for Art. 9.2 exactly when their keys match
 *     (up to hash collisions, which the caller may rule out with
 *     board_same_position()).
 *
 * Moves are 16 bits: from (0-5), to (6-11), kind (12-13), promotion piece
 * (14-15).  Castling is encoded as the king's move of two squares.
 *
 * Workload: board_make() and board_legal_moves() are the perft hot path
 * (hundreds of millions of calls); a Board is small and is copied rather than
 * unmade.
 */
#ifndef ARBITER_RULES_BOARD_H
#define ARBITER_RULES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitboard.h"

typedef uint16_t Move;

enum { MOVE_NONE = 0 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

/* The most legal moves any position has is 218. */
enum { MOVES_MAX = 256 };

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

typedef struct MoveList {
    int count;
    Move moves[MOVES_MAX];
} MoveList;

/* Documented failures of board_from_fen(); the message says which. */
enum { BOARD_E_FEN = 1 };

#define BOARD_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Longest FEN board_to_fen() writes, with its NUL. */
enum { FEN_MAX = 96 };

static inline Move move_new(int from, int to, int kind, int promo_type)
{
    return (Move)(from | (to << 6) | (kind << 12) | ((promo_type - KNIGHT) << 14));
}
static inline int move_from(Move m) { return m & 63; }
static inline int move_to(Move m) { return (m >> 6) & 63; }
static inline int move_kind(Move m) { return (m >> 12) & 3; }
/* Piece type promoted to; meaningful only for MOVE_PROMOTION. */
static inline int move_promotion(Move m) { return KNIGHT + (m >> 14); }

static inline int piece_make(int color, int type) { return color * 6 + type; }
static inline int piece_color(int piece) { return piece >= 6; }
static inline int piece_type(int piece) { return piece % 6; }

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

/* Squares of `by` pieces that attack sq, given occupancy occ. */
Bitboard board_attackers(const Board *b, int sq, int by, Bitboard occ);

/* Enemy pieces that give check to the king of the side to move. */
Bitboard board_checkers(const Board *b);

static inline bool board_in_check(const Board *b)
{
    return board_checkers(b) != 0;
}

/* Fills list with every legal move of the side to move; returns the count. */
int board_legal_moves(const Board *b, MoveList *list);

/* Number of legal moves, faster than generating them (perft leaves). */
int board_count_legal(const Board *b);

/* True when m is one of the legal moves in b. */
bool board_is_legal(const Board *b, Move m);

/* Exact Art. 9.2.3 identity: same placement, side, castling rights and legal
 * en passant square. */
bool board_same_position(const Board *a, const Board *b);

/* Zobrist key recomputed from scratch (for checking the incremental one). */
uint64_t board_compute_key(const Board *b);

/* UCI text of m ("e2e4", "e7e8q", castling "e1g1") into out[6]. */
void move_to_uci(Move m, char out[6]);

/* Leaf count of the legal move tree to depth (perft). depth >= 0. */
uint64_t board_perft(const Board *b, int depth);

#endif
