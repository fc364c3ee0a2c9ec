/*
 * bitboard.h — squares, bitboards and the precomputed attack tables.
 *
 * A square is 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file).
 * A Bitboard has bit s set for square s.  The tables declared here are
 * generated at build time by gen/gen_tables.c and are read-only: nothing in
 * rules/ keeps mutable global state.
 *
 * Workload: these helpers sit in the innermost loop of move generation, so
 * they are static inline and branch-free where they can be.
 */
#ifndef ARBITER_RULES_BITBOARD_H
#define ARBITER_RULES_BITBOARD_H

#include <stdint.h>
#include <stdlib.h>

typedef uint64_t Bitboard;

enum { SQ_NONE = 64 };
enum { WHITE = 0, BLACK = 1 };
enum { PAWN = 0, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

#define SQ(file, rank) ((file) + 8 * (rank))
#define SQ_FILE(sq)    ((sq)&7)
#define SQ_RANK(sq)    ((sq) >> 3)
#define BB(sq)         ((Bitboard)1 << (sq))

#define FILE_A_BB        0x0101010101010101ULL
#define FILE_H_BB        0x8080808080808080ULL
#define RANK_1_BB        0x00000000000000FFULL
#define RANK_2_BB        0x000000000000FF00ULL
#define RANK_3_BB        0x0000000000FF0000ULL
#define RANK_4_BB        0x00000000FF000000ULL
#define RANK_5_BB        0x000000FF00000000ULL
#define RANK_6_BB        0x0000FF0000000000ULL
#define RANK_7_BB        0x00FF000000000000ULL
#define RANK_8_BB        0xFF00000000000000ULL
#define LIGHT_SQUARES_BB 0x55AA55AA55AA55AAULL
#define DARK_SQUARES_BB  0xAA55AA55AA55AA55ULL

static inline int bb_popcount(Bitboard b)
{
    return __builtin_popcountll(b);
}

/* Lowest set square; b must not be empty. */
static inline int bb_lsb(Bitboard b)
{
    return __builtin_ctzll(b);
}

/* Removes and returns the lowest set square; *b must not be empty. */
static inline int bb_pop(Bitboard *b)
{
    int s = __builtin_ctzll(*b);
    *b &= *b - 1;
    return s;
}

/* The squares the pawns of `color` in `pawns` attack. */
static inline Bitboard bb_pawns_attacks(Bitboard pawns, int color)
{
    if (color == WHITE)
        return ((pawns << 7) & ~FILE_H_BB) | ((pawns << 9) & ~FILE_A_BB);
    return ((pawns >> 9) & ~FILE_H_BB) | ((pawns >> 7) & ~FILE_A_BB);
}

static inline int bb_more_than_one(Bitboard b)
{
    return (b & (b - 1)) != 0;
}

/* x and every square a king step away from a square of x. */
static inline Bitboard bb_king_spread(Bitboard x)
{
    Bitboard row = x | ((x << 1) & ~FILE_A_BB) | ((x >> 1) & ~FILE_H_BB);
    return row | (row << 8) | (row >> 8);
}

/* How far sq is from the nearest corner, 0 in a corner: the file and rank
 * steps plus the larger of them, so that a square near one edge only
 * counts as farther than one near both. */
static inline int bb_corner_distance(int sq)
{
    int f = SQ_FILE(sq), r = SQ_RANK(sq);
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df + dr + (df > dr ? df : dr);
}

/* Knight moves from a to b on an empty board (corner cases included). */
static inline int bb_knight_distance(int a, int b)
{
    int dx = abs(SQ_FILE(a) - SQ_FILE(b)), dy = abs(SQ_RANK(a) - SQ_RANK(b));
    if (dx < dy) {
        int t = dx;
        dx = dy;
        dy = t;
    }
    if (dx == 1 && dy == 0)
        return 3;
    if (dx == 2 && dy == 2)
        return 4;
    if (dx == 1 && dy == 1) {
        Bitboard corners = BB(0) | BB(7) | BB(56) | BB(63);
        if ((BB(a) | BB(b)) & corners)
            return 4;
    }
    int m = (dx + 1) / 2 > (dx + dy + 2) / 3 ? (dx + 1) / 2 : (dx + dy + 2) / 3;
    return m + ((m + dx + dy) & 1);
}

/* One magic-multiplication entry per square (Pradyumna Kannan's "fancy"
 * layout): index = ((occ & mask) * magic) >> shift, into table + offset. */
typedef struct {
    Bitboard mask;
    Bitboard magic;
    uint32_t offset;
    uint32_t shift;
} Magic;

extern const Bitboard bb_knight_attacks[64];
extern const Bitboard bb_king_attacks[64];
extern const Bitboard bb_pawn_attacks[2][64];
extern const Magic bb_rook_magics[64];
extern const Magic bb_bishop_magics[64];
extern const Bitboard bb_rook_table[];
extern const Bitboard bb_bishop_table[];
/* Squares strictly between a and b on a line or diagonal, else 0. */
extern const Bitboard bb_between[64][64];
/* The whole line (edge to edge) through a and b, else 0. */
extern const Bitboard bb_line[64][64];
/* King steps from a to b on an empty board (Chebyshev distance): the
 * searches' move ordering asks for it millions of times. */
extern const uint8_t bb_distance[64][64];

extern const uint64_t zobrist_piece[12][64];
extern const uint64_t zobrist_castling[16];
extern const uint64_t zobrist_ep_file[8];
extern const uint64_t zobrist_black_to_move;

static inline Bitboard bb_rook_attacks(int sq, Bitboard occ)
{
    const Magic *m = &bb_rook_magics[sq];
    return bb_rook_table[m->offset + (((occ & m->mask) * m->magic) >> m->shift)];
}

static inline Bitboard bb_bishop_attacks(int sq, Bitboard occ)
{
    const Magic *m = &bb_bishop_magics[sq];
    return bb_bishop_table[m->offset + (((occ & m->mask) * m->magic) >> m->shift)];
}

static inline Bitboard bb_queen_attacks(int sq, Bitboard occ)
{
    return bb_rook_attacks(sq, occ) | bb_bishop_attacks(sq, occ);
}

#endif
