/*
 * board.c — position state: FEN in and out, making moves, attack queries,
 * Zobrist keys and the Art. 9.2.3 position identity.
 *
 * Invariants are those of board.h; board_make() keeps them incrementally
 * (the key included) and board_from_fen() refuses any text that would break
 * them.  Legal move generation lives in movegen.c.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"

static const char piece_chars[] = "PNBRQKpnbrqk";

const uint8_t board_castle_keep[64] = {
    [0] = 15 & ~CASTLE_WQ,  [1 ... 3] = 15,         [4] = 15 & ~(CASTLE_WK | CASTLE_WQ),
    [5 ... 6] = 15,         [7] = 15 & ~CASTLE_WK,  [8 ... 55] = 15,
    [56] = 15 & ~CASTLE_BQ, [57 ... 59] = 15,       [60] = 15 & ~(CASTLE_BK | CASTLE_BQ),
    [61 ... 62] = 15,       [63] = 15 & ~CASTLE_BK,
};

/* The piece helpers keep the key up to date where `track_key` says so;
 * board_make_keyed() sets it at the end instead.  It is a constant at every
 * call, so each kind of make compiles without the other's work. */
static inline void put_piece(Board *b, int piece, int sq, bool track_key)
{
    b->by_type[piece_type(piece)] |= BB(sq);
    b->by_color[piece_color(piece)] |= BB(sq);
    b->squares[sq] = (uint8_t)piece;
    if (track_key)
        b->key ^= zobrist_piece[piece][sq];
}

static inline void remove_piece(Board *b, int sq, bool track_key)
{
    int piece = b->squares[sq];
    b->by_type[piece_type(piece)] &= ~BB(sq);
    b->by_color[piece_color(piece)] &= ~BB(sq);
    b->squares[sq] = PIECE_NONE;
    if (track_key)
        b->key ^= zobrist_piece[piece][sq];
}

static inline void move_piece(Board *b, int from, int to, bool track_key)
{
    int piece = b->squares[from];
    Bitboard ft = BB(from) | BB(to);
    b->by_type[piece_type(piece)] ^= ft;
    b->by_color[piece_color(piece)] ^= ft;
    b->squares[from] = PIECE_NONE;
    b->squares[to] = (uint8_t)piece;
    if (track_key)
        b->key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
}

Bitboard board_checkers(const Board *b)
{
    return board_attackers(b, board_king(b, b->side), b->side ^ 1, board_occupied(b));
}

/*
 * Whether the side to move has a legal en passant capture onto ep.  The
 * capture removes two pawns from one rank at once, so the usual pin logic
 * does not see every discovered check; simulate the capture instead.
 */
static bool ep_capture_legal(const Board *b, int ep)
{
    int us = b->side, them = us ^ 1;
    int capsq = us == WHITE ? ep - 8 : ep + 8;
    int ksq = board_king(b, us);
    Bitboard capturers = bb_pawn_attacks[them][ep] & board_pieces(b, us, PAWN);
    Bitboard their_rq = board_pieces(b, them, ROOK) | board_pieces(b, them, QUEEN);
    Bitboard their_bq = board_pieces(b, them, BISHOP) | board_pieces(b, them, QUEEN);
    Bitboard their_other = (board_pieces(b, them, KNIGHT) & bb_knight_attacks[ksq]) |
                           (board_pieces(b, them, PAWN) & ~BB(capsq) & bb_pawn_attacks[us][ksq]);
    if (their_other)
        return false;
    while (capturers) {
        int from = bb_pop(&capturers);
        Bitboard occ = (board_occupied(b) ^ BB(from) ^ BB(capsq)) | BB(ep);
        if (!(bb_rook_attacks(ksq, occ) & their_rq) && !(bb_bishop_attacks(ksq, occ) & their_bq))
            return true;
    }
    return false;
}

#ifndef NDEBUG /* used by assert() alone */
/*
 * The invariants of board.h that a few bit operations can check, asserted
 * after board_from_fen(): the colours are disjoint, the piece types are
 * disjoint and together are the occupancy, each side has exactly one king,
 * no pawn stands on rank 1 or 8, the side to move is WHITE or BLACK, an en
 * passant square lies on rank 3 or 6, the mailbox agrees on every square,
 * and the side not to move is not in check.
 */
static bool invariants_hold(const Board *b)
{
    Bitboard white = b->by_color[WHITE], black = b->by_color[BLACK], all = 0;
    int count = 0;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        all |= b->by_type[t];
        count += bb_popcount(b->by_type[t]);
    }
    if ((white & black) || all != (white | black) || count != bb_popcount(all))
        return false;
    if (bb_popcount(board_pieces(b, WHITE, KING)) != 1 ||
        bb_popcount(board_pieces(b, BLACK, KING)) != 1)
        return false;
    if ((b->by_type[PAWN] & (RANK_1_BB | RANK_8_BB)) || b->side > BLACK)
        return false;
    if (b->ep != SQ_NONE && !(BB(b->ep) & (RANK_3_BB | RANK_6_BB)))
        return false;
    for (int sq = 0; sq < 64; sq++) {
        int piece = b->squares[sq];
        if (piece == PIECE_NONE
                ? (all & BB(sq)) != 0
                : !(board_pieces(b, piece_color(piece), piece_type(piece)) & BB(sq)))
            return false;
    }
    return board_attackers(b, board_king(b, !b->side), b->side, all) == 0;
}

/*
 * What one move can break, asserted after every board_make(): the squares
 * it left and reached agree with the bitboards, the colours stay disjoint,
 * both kings are on the board and no pawn stands on its last rank.  The
 * searches make millions of moves, so this stays a handful of operations;
 * the full invariants_hold() on every make cost some 7 % of a search, and
 * the perft tests (every move of known trees, counted exactly) are what
 * catch a board that goes wrong in subtler ways.
 */
static bool make_kept_invariants(const Board *b, int from, int to)
{
    int piece = b->squares[to];
    return piece != PIECE_NONE &&
           (board_pieces(b, piece_color(piece), piece_type(piece)) & BB(to)) &&
           !(board_occupied(b) & BB(from)) && b->squares[from] == PIECE_NONE &&
           !(b->by_color[WHITE] & b->by_color[BLACK]) && board_pieces(b, WHITE, KING) &&
           board_pieces(b, BLACK, KING) && !(b->by_type[PAWN] & (RANK_1_BB | RANK_8_BB));
}
#endif

static inline void make_move(Board *b, Move m, bool track_key)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int us = b->side;
    int piece = b->squares[from];
    int ep_candidate = SQ_NONE;

    if (b->ep != SQ_NONE) {
        if (track_key)
            b->key ^= zobrist_ep_file[SQ_FILE(b->ep)];
        b->ep = SQ_NONE;
    }
    uint8_t castling = b->castling;
    b->halfmove++;

    if (kind == MOVE_CASTLING) {
        int rook_from = to > from ? from + 3 : from - 4;
        int rook_to = to > from ? from + 1 : from - 1;
        move_piece(b, from, to, track_key);
        move_piece(b, rook_from, rook_to, track_key);
    } else {
        if (b->squares[to] != PIECE_NONE) {
            remove_piece(b, to, track_key);
            b->halfmove = 0;
        }
        if (kind == MOVE_EN_PASSANT)
            remove_piece(b, us == WHITE ? to - 8 : to + 8, track_key);
        move_piece(b, from, to, track_key);
        if (piece_type(piece) == PAWN) {
            b->halfmove = 0;
            if (kind == MOVE_PROMOTION) {
                remove_piece(b, to, track_key);
                put_piece(b, piece_make(us, move_promotion(m)), to, track_key);
            } else if ((from ^ to) == 16) {
                int ep = (from + to) / 2;
                if (bb_pawn_attacks[us][ep] & board_pieces(b, us ^ 1, PAWN))
                    ep_candidate = ep;
            }
        }
    }

    /* Most positions searched have no castling rights left: no key
     * change then. */
    if (castling) {
        b->castling &= board_castle_keep[from] & board_castle_keep[to];
        if (track_key)
            b->key ^= zobrist_castling[castling] ^ zobrist_castling[b->castling];
    }
    b->side ^= 1;
    if (track_key)
        b->key ^= zobrist_black_to_move;
    if (us == BLACK)
        b->fullmove++;
    if (ep_candidate != SQ_NONE && ep_capture_legal(b, ep_candidate)) {
        b->ep = (uint8_t)ep_candidate;
        if (track_key)
            b->key ^= zobrist_ep_file[SQ_FILE(ep_candidate)];
    }
    assert(make_kept_invariants(b, from, to));
}

void board_make(Board *b, Move m)
{
    make_move(b, m, true);
}

void board_make_keyed(Board *b, Move m, uint64_t key)
{
    make_move(b, m, false);
    b->key = key;
}

uint64_t board_compute_key(const Board *b)
{
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b->squares[sq] != PIECE_NONE)
            key ^= zobrist_piece[b->squares[sq]][sq];
    key ^= zobrist_castling[b->castling];
    if (b->ep != SQ_NONE)
        key ^= zobrist_ep_file[SQ_FILE(b->ep)];
    if (b->side == BLACK)
        key ^= zobrist_black_to_move;
    return key;
}

bool board_same_position(const Board *a, const Board *b)
{
    return a->side == b->side && a->castling == b->castling && a->ep == b->ep &&
           memcmp(a->squares, b->squares, sizeof a->squares) == 0;
}

void board_move_to_uci(Move m, char out[6])
{
    int from = move_from(m), to = move_to(m);
    out[0] = (char)('a' + SQ_FILE(from));
    out[1] = (char)('1' + SQ_RANK(from));
    out[2] = (char)('a' + SQ_FILE(to));
    out[3] = (char)('1' + SQ_RANK(to));
    out[4] = move_kind(m) == MOVE_PROMOTION ? "nbrq"[move_promotion(m) - KNIGHT] : '\0';
    out[5] = '\0';
}

void board_start(Board *b)
{
    char err[8];
    (void)board_from_fen(b, BOARD_START_FEN, err, sizeof err);
}

/* ---- FEN ---------------------------------------------------------------- */

/* Splits at most 6 whitespace-separated fields; returns the count, or 7 if
 * there are more.  Field texts are copied into f (each bounded). */
static int split_fields(const char *s, char f[6][80])
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (!*s)
            break;
        if (n == 6)
            return 7;
        size_t len = 0;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
            if (len < 79)
                f[n][len++] = *s;
            else
                return -1;
            s++;
        }
        f[n][len] = '\0';
        n++;
    }
    return n;
}

static int parse_counter(const char *s, long max, long *out)
{
    long v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
    }
    *out = v;
    return 0;
}

static const char *const color_names[2] = {"White", "Black"};

/* Whether the piece counts could come from a real game: 16 men at most, 8
 * pawns at most, and no more promoted pieces than missing pawns. */
static int check_material(const Board *b, char *err, size_t errlen)
{
    static const int initial[PIECE_TYPE_NB] = {8, 2, 2, 2, 1, 1};
    for (int c = 0; c < 2; c++) {
        int kings = bb_popcount(board_pieces(b, c, KING));
        if (kings != 1)
            return error_set(err, errlen, BOARD_E_FEN,
                             "%s has %d kings; each side needs exactly one", color_names[c], kings);
        int total = bb_popcount(b->by_color[c]);
        if (total > 16)
            return error_set(err, errlen, BOARD_E_FEN, "%s has %d men; at most 16 are possible",
                             color_names[c], total);
        int pawns = bb_popcount(board_pieces(b, c, PAWN));
        if (pawns > 8)
            return error_set(err, errlen, BOARD_E_FEN, "%s has %d pawns; at most 8 are possible",
                             color_names[c], pawns);
        int extra = 0;
        for (int t = KNIGHT; t <= QUEEN; t++) {
            int n = bb_popcount(board_pieces(b, c, t));
            if (n > initial[t])
                extra += n - initial[t];
        }
        if (extra > 8 - pawns)
            return error_set(
                err, errlen, BOARD_E_FEN,
                "%s has %d more pieces than at the start, but only %d missing pawns to promote",
                color_names[c], extra, 8 - pawns);
    }
    return 0;
}

/* FEN field 1, the placement from rank 8 down to rank 1, onto the empty
 * board B.  Returns 0 or BOARD_E_FEN with the reason in ERR. */
static int parse_placement(Board *b, const char *s, char *err, size_t errlen)
{
    int rank = 7, file = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '/') {
            if (file != 8)
                return error_set(err, errlen, BOARD_E_FEN, "rank %d has %d squares, not 8",
                                 rank + 1, file);
            if (rank == 0)
                return error_set(err, errlen, BOARD_E_FEN, "the placement has more than 8 ranks");
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
            if (file > 8)
                return error_set(err, errlen, BOARD_E_FEN, "rank %d has more than 8 squares",
                                 rank + 1);
        } else {
            const char *c = strchr(piece_chars, *p);
            if (!c || !*p)
                return error_set(
                    err, errlen, BOARD_E_FEN,
                    "'%c' in the placement is not a piece letter (PNBRQK for White, pnbrqk "
                    "for Black) or a digit 1-8",
                    *p);
            if (file >= 8)
                return error_set(err, errlen, BOARD_E_FEN, "rank %d has more than 8 squares",
                                 rank + 1);
            put_piece(b, (int)(c - piece_chars), SQ(file, rank), true);
            file++;
        }
    }
    if (rank != 0)
        return error_set(err, errlen, BOARD_E_FEN, "the placement has %d ranks, not 8", 8 - rank);
    if (file != 8)
        return error_set(err, errlen, BOARD_E_FEN, "rank 1 has %d squares, not 8", file);

    return 0;
}

/* FEN field 3, the castling rights, and the king and rook each one needs
 * where they stand on B.  Returns 0 or BOARD_E_FEN with the reason in ERR. */
static int parse_castling(Board *b, const char *s, char *err, size_t errlen)
{
    if (strcmp(s, "-") != 0) {
        for (const char *p = s; *p; p++) {
            const char *c = strchr("KQkq", *p);
            if (!c || !*p)
                return error_set(
                    err, errlen, BOARD_E_FEN,
                    "'%c' in the castling field is not one of K, Q, k, q (or '-' for none)", *p);
            int bit = 1 << (c - "KQkq");
            if (b->castling & bit)
                return error_set(err, errlen, BOARD_E_FEN, "castling right '%c' is given twice",
                                 *p);
            b->castling |= (uint8_t)bit;
        }
    }
    static const struct {
        int bit, color, king, rook;
        char letter;
    } rights[4] = {{CASTLE_WK, WHITE, 4, 7, 'K'},
                   {CASTLE_WQ, WHITE, 4, 0, 'Q'},
                   {CASTLE_BK, BLACK, 60, 63, 'k'},
                   {CASTLE_BQ, BLACK, 60, 56, 'q'}};
    for (int i = 0; i < 4; i++) {
        if (!(b->castling & rights[i].bit))
            continue;
        if (b->squares[rights[i].king] != piece_make(rights[i].color, KING))
            return error_set(err, errlen, BOARD_E_FEN,
                             "castling right '%c' needs the %s king on %c%d", rights[i].letter,
                             rights[i].color ? "black" : "white", 'e', rights[i].color ? 8 : 1);
        if (b->squares[rights[i].rook] != piece_make(rights[i].color, ROOK))
            return error_set(err, errlen, BOARD_E_FEN,
                             "castling right '%c' needs a %s rook on %c%d", rights[i].letter,
                             rights[i].color ? "black" : "white", 'a' + SQ_FILE(rights[i].rook),
                             rights[i].color ? 8 : 1);
    }
    return 0;
}

/* FEN field 4, the square a pawn of the side not to move just passed (kept
 * only when a capture there is legal, as the Laws' "same position" wants).
 * HALF is the halfmove clock read.  Returns 0 or BOARD_E_FEN with ERR. */
static int parse_en_passant(Board *b, const char *s, long half, char *err, size_t errlen)
{
    int them = b->side ^ 1;
    if (strcmp(s, "-") != 0) {
        const char *e = s;
        if (strlen(e) != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
            return error_set(err, errlen, BOARD_E_FEN,
                             "en passant field '%s' is not a square such as e3 or '-'", e);
        int ep = SQ(e[0] - 'a', e[1] - '1');
        int want_rank = b->side == WHITE ? 5 : 2;
        if (SQ_RANK(ep) != want_rank)
            return error_set(
                err, errlen, BOARD_E_FEN,
                "en passant square %s cannot be: with %s to move it must be on rank %d", e,
                color_names[b->side], want_rank + 1);
        int pawn_sq = b->side == WHITE ? ep - 8 : ep + 8;
        int start_sq = b->side == WHITE ? ep + 8 : ep - 8;
        if (b->squares[pawn_sq] != piece_make(them, PAWN))
            return error_set(err, errlen, BOARD_E_FEN,
                             "en passant square %s cannot be: no %s pawn stands on %c%d", e,
                             them ? "black" : "white", e[0], SQ_RANK(pawn_sq) + 1);
        if (b->squares[ep] != PIECE_NONE || b->squares[start_sq] != PIECE_NONE)
            return error_set(
                err, errlen, BOARD_E_FEN,
                "en passant square %s cannot be: %s and %c%d must be empty after a double step", e,
                e, e[0], SQ_RANK(start_sq) + 1);
        if (half != 0)
            return error_set(
                err, errlen, BOARD_E_FEN,
                "en passant square %s needs a halfmove clock of 0 (a pawn just moved), not %ld", e,
                half);
        if (ep_capture_legal(b, ep)) {
            b->ep = (uint8_t)ep;
            b->key ^= zobrist_ep_file[SQ_FILE(ep)];
        }
    }
    return 0;
}

int board_from_fen(Board *b, const char *fen, char *err, size_t errlen)
{
    char f[6][80];
    if (!fen)
        return error_set(err, errlen, BOARD_E_FEN, "no FEN given");
    int n = split_fields(fen, f);
    if (n < 0)
        return error_set(err, errlen, BOARD_E_FEN, "a FEN field is too long");
    if (n == 0)
        return error_set(err, errlen, BOARD_E_FEN, "the FEN is empty");
    if (n == 7)
        return error_set(
            err, errlen, BOARD_E_FEN,
            "too many fields: a FEN has 6 (placement, side, castling, en passant, halfmove, "
            "fullmove)");
    if (n < 4)
        return error_set(
            err, errlen, BOARD_E_FEN,
            "too few fields: a FEN has placement, side to move, castling and en passant, then "
            "the two move counters");
    if (n == 5)
        return error_set(err, errlen, BOARD_E_FEN,
                         "the fullmove number is missing after the halfmove clock");

    memset(b, 0, sizeof *b);
    memset(b->squares, PIECE_NONE, sizeof b->squares);
    b->ep = SQ_NONE;

    int rc = parse_placement(b, f[0], err, errlen);
    if (rc)
        return rc;

    if (strcmp(f[1], "w") == 0)
        b->side = WHITE;
    else if (strcmp(f[1], "b") == 0) {
        b->side = BLACK;
        b->key ^= zobrist_black_to_move;
    } else
        return error_set(err, errlen, BOARD_E_FEN, "side to move is '%s'; it must be 'w' or 'b'",
                         f[1]);

    if (check_material(b, err, errlen))
        return BOARD_E_FEN;
    if ((b->by_type[PAWN] & (RANK_1_BB | RANK_8_BB)))
        return error_set(err, errlen, BOARD_E_FEN, "a pawn stands on the first or last rank");

    rc = parse_castling(b, f[2], err, errlen);
    if (rc)
        return rc;
    b->key ^= zobrist_castling[b->castling];

    /* Counters. */
    long half = 0, full = 1;
    if (n == 6) {
        if (parse_counter(f[4], 9999, &half))
            return error_set(err, errlen, BOARD_E_FEN,
                             "halfmove clock '%s' is not a whole number from 0 to 9999", f[4]);
        if (parse_counter(f[5], 9999, &full) || full < 1)
            return error_set(err, errlen, BOARD_E_FEN,
                             "fullmove number '%s' is not a whole number from 1 to 9999", f[5]);
    }
    b->halfmove = (uint16_t)half;
    b->fullmove = (uint16_t)full;

    int them = b->side ^ 1;
    if (board_attackers(b, board_king(b, them), b->side, board_occupied(b)))
        return error_set(err, errlen, BOARD_E_FEN, "%s is in check but it is %s's move",
                         color_names[them], color_names[b->side]);
    Bitboard checkers = board_checkers(b);
    if (bb_popcount(checkers) > 2)
        return error_set(err, errlen, BOARD_E_FEN,
                         "%s is in check from %d pieces; at most two can give check at once",
                         color_names[b->side], bb_popcount(checkers));

    rc = parse_en_passant(b, f[3], half, err, errlen);
    if (rc)
        return rc;
    assert(invariants_hold(b));
    return 0;
}

#undef FAIL

void board_to_fen(const Board *b, char *out)
{
    char *p = out;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int pc = b->squares[SQ(file, rank)];
            if (pc == PIECE_NONE) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = piece_chars[pc];
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (rank)
            *p++ = '/';
    }
    *p++ = ' ';
    *p++ = b->side == WHITE ? 'w' : 'b';
    *p++ = ' ';
    if (!b->castling)
        *p++ = '-';
    for (int i = 0; i < 4; i++)
        if (b->castling & (1 << i))
            *p++ = "KQkq"[i];
    *p++ = ' ';
    if (b->ep == SQ_NONE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + SQ_FILE(b->ep));
        *p++ = (char)('1' + SQ_RANK(b->ep));
    }
    sprintf(p, " %u %u", (unsigned)b->halfmove, (unsigned)b->fullmove);
}
