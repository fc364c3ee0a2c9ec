/*
 * gen_tables.c — build-time generator of the read-only tables in
 * bitboard.h: leaper attacks, magic-bitboard slider tables, between/line
 * masks and Zobrist keys.  Writes one C file to stdout.
 *
 * It runs on the build machine once per build; its output is deterministic
 * (a fixed-seed generator), so every build has the same keys and magics.
 * This keeps rules/ free of run-time initialisation and mutable globals.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t Bitboard;

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* xorshift64*: small, fast, good enough for keys and magic candidates. */
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static int on_board(int f, int r)
{
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

static Bitboard leaper(int sq, const int (*d)[2], int n)
{
    Bitboard b = 0;
    for (int i = 0; i < n; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        if (on_board(f, r))
            b |= 1ULL << (f + 8 * r);
    }
    return b;
}

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Slider attacks from sq with blockers occ, computed the slow way. */
static Bitboard slide(int sq, Bitboard occ, const int (*d)[2])
{
    Bitboard b = 0;
    for (int i = 0; i < 4; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        while (on_board(f, r)) {
            b |= 1ULL << (f + 8 * r);
            if (occ & (1ULL << (f + 8 * r)))
                break;
            f += d[i][0];
            r += d[i][1];
        }
    }
    return b;
}

/* Relevant occupancy: the rays without their last square. */
static Bitboard relevant_mask(int sq, const int (*d)[2])
{
    Bitboard b = 0;
    for (int i = 0; i < 4; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        while (on_board(f + d[i][0], r + d[i][1])) {
            b |= 1ULL << (f + 8 * r);
            f += d[i][0];
            r += d[i][1];
        }
    }
    return b;
}

typedef struct {
    Bitboard mask, magic;
    unsigned offset, shift;
} Magic;

static Magic rook_m[64], bishop_m[64];
static Bitboard rook_table[102400], bishop_table[5248];

static unsigned find_magics(Magic *m, Bitboard *table, const int (*d)[2])
{
    static Bitboard occ[4096], ref[4096];
    static unsigned epoch[4096];
    unsigned offset = 0, attempt = 0;
    for (int sq = 0; sq < 64; sq++) {
        Bitboard mask = relevant_mask(sq, d);
        int bits = __builtin_popcountll(mask);
        int size = 0;
        Bitboard b = 0;
        do { /* Carry-Rippler enumeration of every subset of mask. */
            occ[size] = b;
            ref[size] = slide(sq, b, d);
            size++;
            b = (b - mask) & mask;
        } while (b);
        m[sq].mask = mask;
        m[sq].shift = 64 - bits;
        m[sq].offset = offset;
        for (;;) {
            Bitboard magic = rng_next() & rng_next() & rng_next();
            if (__builtin_popcountll((mask * magic) >> 56) < 6)
                continue;
            attempt++;
            int ok = 1;
            for (int i = 0; i < size && ok; i++) {
                unsigned idx = (unsigned)((occ[i] * magic) >> m[sq].shift);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    table[offset + idx] = ref[i];
                } else if (table[offset + idx] != ref[i]) {
                    ok = 0;
                }
            }
            if (ok) {
                m[sq].magic = magic;
                break;
            }
        }
        offset += 1u << bits;
    }
    return offset;
}

static void print_bb_array(const char *decl, const Bitboard *a, unsigned n)
{
    printf("%s = {", decl);
    for (unsigned i = 0; i < n; i++)
        printf("%s0x%016" PRIx64 "ULL,", i % 4 ? " " : "\n    ", a[i]);
    printf("\n};\n\n");
}

static void print_magics(const char *decl, const Magic *m)
{
    printf("%s = {\n", decl);
    for (int i = 0; i < 64; i++)
        printf("    {0x%016" PRIx64 "ULL, 0x%016" PRIx64 "ULL, %u, %u},\n", m[i].mask, m[i].magic,
               m[i].offset, m[i].shift);
    printf("};\n\n");
}

int main(void)
{
    static const int knight_d[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};
    static Bitboard knight[64], king[64], pawn[2][64], between[64][64], line[64][64];

    for (int sq = 0; sq < 64; sq++) {
        knight[sq] = leaper(sq, knight_d, 8);
        king[sq] = leaper(sq, king_d, 8);
        pawn[0][sq] = leaper(sq, wpawn_d, 2);
        pawn[1][sq] = leaper(sq, bpawn_d, 2);
    }
    unsigned rook_size = find_magics(rook_m, rook_table, rook_dirs);
    unsigned bishop_size = find_magics(bishop_m, bishop_table, bishop_dirs);
    if (rook_size != 102400 || bishop_size != 5248) {
        fprintf(stderr, "gen_tables: unexpected table sizes %u %u\n", rook_size, bishop_size);
        return 1;
    }
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            if (a == b)
                continue;
            const int(*d)[2] = NULL;
            if (slide(a, 0, rook_dirs) & (1ULL << b))
                d = rook_dirs;
            else if (slide(a, 0, bishop_dirs) & (1ULL << b))
                d = bishop_dirs;
            if (!d)
                continue;
            line[a][b] = (slide(a, 0, d) & slide(b, 0, d)) | (1ULL << a) | (1ULL << b);
            between[a][b] = slide(a, 1ULL << b, d) & slide(b, 1ULL << a, d);
        }

    printf("/* Generated by gen_tables.c at build time. Do not edit. */\n");
    printf("#include \"bitboard.h\"\n\n");
    print_bb_array("const Bitboard bb_knight_attacks[64]", knight, 64);
    print_bb_array("const Bitboard bb_king_attacks[64]", king, 64);
    printf("const Bitboard bb_pawn_attacks[2][64] = {\n");
    for (int c = 0; c < 2; c++) {
        printf("{");
        for (int i = 0; i < 64; i++)
            printf("%s0x%016" PRIx64 "ULL,", i % 4 ? " " : "\n    ", pawn[c][i]);
        printf("},\n");
    }
    printf("};\n\n");
    print_magics("const Magic bb_rook_magics[64]", rook_m);
    print_magics("const Magic bb_bishop_magics[64]", bishop_m);
    print_bb_array("const Bitboard bb_rook_table[102400]", rook_table, 102400);
    print_bb_array("const Bitboard bb_bishop_table[5248]", bishop_table, 5248);
    print_bb_array("const Bitboard bb_between[64][64]", &between[0][0], 4096);
    print_bb_array("const Bitboard bb_line[64][64]", &line[0][0], 4096);
    printf("const uint8_t bb_distance[64][64] = {\n");
    for (int a = 0; a < 64; a++) {
        printf("{");
        for (int b = 0; b < 64; b++) {
            int df = abs((a & 7) - (b & 7)), dr = abs((a >> 3) - (b >> 3));
            printf("%s%d,", b % 16 ? " " : "\n    ", df > dr ? df : dr);
        }
        printf("},\n");
    }
    printf("};\n\n");

    static uint64_t zp[12 * 64], zc[16], ze[8];
    for (int i = 0; i < 12 * 64; i++)
        zp[i] = rng_next();
    /* Castling keys combine per right so that losing one right is one xor. */
    uint64_t right[4] = {rng_next(), rng_next(), rng_next(), rng_next()};
    for (int i = 0; i < 16; i++)
        for (int r = 0; r < 4; r++)
            if (i & (1 << r))
                zc[i] ^= right[r];
    for (int i = 0; i < 8; i++)
        ze[i] = rng_next();
    print_bb_array("const uint64_t zobrist_piece[12][64]", zp, 12 * 64);
    print_bb_array("const uint64_t zobrist_castling[16]", zc, 16);
    print_bb_array("const uint64_t zobrist_ep_file[8]", ze, 8);
    printf("const uint64_t zobrist_black_to_move = 0x%016" PRIx64 "ULL;\n", rng_next());
    return 0;
}
