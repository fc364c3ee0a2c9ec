/*
 * movegen.c — legal move generation and perft.
 *
 * Moves are generated legal from the start: the king's checkers and the
 * pieces pinned to it are computed once per position, every non-king move is
 * confined to the squares that answer a check and, for a pinned piece, to
 * its pin line; king moves are kept off the squares the enemy attacks with
 * the king lifted off the board (one map of them per position, a look-up
 * per enemy piece).  Only en passant, which can
 * uncover a check along the rank, is checked by simulation.
 *
 * One always-inline generator serves every caller: with a list it writes
 * the moves, without one it only counts them, which lets perft count the
 * last ply by population counts alone, asked for any move it stops at the
 * first found (the searches' leaves only ask whether a side can move), and
 * asked for checks it keeps only the moves that may give one (mate-in-one
 * tests).
 */
#include "movegen.h"

#include "board.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE Bitboard shift_up(Bitboard b, int us)
{
    return us == WHITE ? b << 8 : b >> 8;
}

/* Pawn captures toward the a-file and toward the h-file. */
static ALWAYS_INLINE Bitboard shift_up_west(Bitboard b, int us)
{
    return us == WHITE ? (b & ~FILE_A_BB) << 7 : (b & ~FILE_A_BB) >> 9;
}

static ALWAYS_INLINE Bitboard shift_up_east(Bitboard b, int us)
{
    return us == WHITE ? (b & ~FILE_H_BB) << 9 : (b & ~FILE_H_BB) >> 7;
}

static ALWAYS_INLINE int emit_targets(Move *out, int n, int from, Bitboard targets)
{
    if (!out)
        return n + bb_popcount(targets);
    while (targets)
        out[n++] = move_new(from, bb_pop(&targets), MOVE_NORMAL, KNIGHT);
    return n;
}

/* Pawn moves landing on targets, all coming from (to - delta). */
static ALWAYS_INLINE int emit_pawns(Move *out, int n, Bitboard targets, int delta, bool promo)
{
    if (!out)
        return n + bb_popcount(targets) * (promo ? 4 : 1);
    while (targets) {
        int to = bb_pop(&targets);
        if (promo) {
            for (int t = QUEEN; t >= KNIGHT; t--)
                out[n++] = move_new(to - delta, to, MOVE_PROMOTION, t);
        } else {
            out[n++] = move_new(to - delta, to, MOVE_NORMAL, KNIGHT);
        }
    }
    return n;
}

/* The men of `own` pinned to their king on ksq by the enemy sliders. */
static ALWAYS_INLINE Bitboard pinned_to(int ksq, Bitboard own, Bitboard occ, Bitboard enemy,
                                        Bitboard their_rq, Bitboard their_bq)
{
    Bitboard pinned = 0;
    if (!(their_rq | their_bq))
        return 0; /* the pawn endings the searches walk most */
    Bitboard snipers =
        (bb_rook_attacks(ksq, enemy) & their_rq) | (bb_bishop_attacks(ksq, enemy) & their_bq);
    while (snipers) {
        Bitboard between = bb_between[ksq][bb_pop(&snipers)] & occ;
        if (between && !bb_more_than_one(between))
            pinned |= between & own;
    }
    return pinned;
}

/* What a piece on `from` may move to of t: along its pin line when it is
 * pinned, and only onto a square where it gives check (check_sq, by
 * type) unless it is in `keep_all`, the men that may uncover a check
 * (all men when not only checks are asked for). */
static ALWAYS_INLINE Bitboard piece_targets(const Board *b, int from, Bitboard t, int ksq,
                                            Bitboard pinned, Bitboard keep_all,
                                            const Bitboard check_sq[PIECE_TYPE_NB])
{
    if (pinned & BB(from))
        t &= bb_line[ksq][from];
    if (!(keep_all & BB(from)))
        t &= check_sq[piece_type(b->squares[from])];
    return t;
}

/* With a list, writes the moves; without one, counts them; with `any`
 * (and no list), stops at the first group of moves found, for callers
 * that only ask whether there is a legal move.  With `checks` (and a
 * list), leaves out moves that cannot give check: the others keep their
 * order. */
static ALWAYS_INLINE int generate(const Board *b, Move *out, bool any, bool checks)
{
    const int us = b->side, them = us ^ 1;
    const Bitboard own = b->by_color[us], enemy = b->by_color[them];
    const Bitboard occ = own | enemy;
    const int ksq = board_king(b, us);
    /* The enemy's attacks with the king lifted: where it may not step,
     * and whether it stands in check (the attacks on its own square are
     * the same with it there); its checkers are looked up only then. */
    const Bitboard danger = board_attacks(b, them, occ ^ BB(ksq));
    const Bitboard checkers = danger & BB(ksq) ? board_attackers(b, ksq, them, occ) : 0;
    int n = 0;

    /* For `checks`: where each kind of man gives check from (a slider
     * moving away from the enemy king along a line through it cannot
     * uncover its own check, so the occupancy before the move will do;
     * promotions are all kept), and the men that may uncover one, whose
     * moves are all kept. */
    Bitboard check_sq[PIECE_TYPE_NB] = {0}, disc = 0;
    if (checks) {
        const int lk = board_king(b, them);
        check_sq[PAWN] = bb_pawn_attacks[them][lk];
        check_sq[KNIGHT] = bb_knight_attacks[lk];
        check_sq[BISHOP] = bb_bishop_attacks(lk, occ);
        check_sq[ROOK] = bb_rook_attacks(lk, occ);
        check_sq[QUEEN] = check_sq[BISHOP] | check_sq[ROOK];
        Bitboard snipers =
            (bb_rook_attacks(lk, 0) & own & (b->by_type[ROOK] | b->by_type[QUEEN])) |
            (bb_bishop_attacks(lk, 0) & own & (b->by_type[BISHOP] | b->by_type[QUEEN]));
        while (snipers) {
            Bitboard between = bb_between[lk][bb_pop(&snipers)] & occ;
            if (between && !bb_more_than_one(between))
                disc |= between & own;
        }
    }

    /* King steps: the king must not shield its own target square. */
    Bitboard k_targets = bb_king_attacks[ksq] & ~own;
    if (checks && !(disc & BB(ksq)))
        k_targets = 0; /* a king gives no check of its own */
    if (k_targets) {
        k_targets &= ~danger;
        if (any && k_targets)
            return 1;
        if (out)
            while (k_targets)
                out[n++] = move_new(ksq, bb_pop(&k_targets), MOVE_NORMAL, KNIGHT);
        else
            n += bb_popcount(k_targets);
    }
    if (bb_more_than_one(checkers) || (any && n))
        return n;

    const Bitboard target = checkers ? bb_between[ksq][bb_lsb(checkers)] | checkers : ~own;

    const Bitboard their_rq = enemy & (b->by_type[ROOK] | b->by_type[QUEEN]);
    const Bitboard their_bq = enemy & (b->by_type[BISHOP] | b->by_type[QUEEN]);
    const Bitboard pinned = pinned_to(ksq, own, occ, enemy, their_rq, their_bq);

    /* Knights: a pinned knight can never move. */
    Bitboard pieces = own & b->by_type[KNIGHT] & ~pinned;
    while (pieces) {
        int from = bb_pop(&pieces);
        n = emit_targets(out, n, from,
                         piece_targets(b, from, bb_knight_attacks[from] & target, ksq, pinned,
                                       checks ? disc : ~(Bitboard)0, check_sq));
    }
    if (any && n)
        return n;
    pieces = own & (b->by_type[BISHOP] | b->by_type[QUEEN]);
    while (pieces) {
        int from = bb_pop(&pieces);
        n = emit_targets(out, n, from,
                         piece_targets(b, from, bb_bishop_attacks(from, occ) & target, ksq, pinned,
                                       checks ? disc : ~(Bitboard)0, check_sq));
    }
    if (any && n)
        return n;
    pieces = own & (b->by_type[ROOK] | b->by_type[QUEEN]);
    while (pieces) {
        int from = bb_pop(&pieces);
        n = emit_targets(out, n, from,
                         piece_targets(b, from, bb_rook_attacks(from, occ) & target, ksq, pinned,
                                       checks ? disc : ~(Bitboard)0, check_sq));
    }
    if (any && n)
        return n;

    /* Pawns: unpinned ones set-wise, pinned ones along their pin line. */
    const Bitboard pawns = own & b->by_type[PAWN];
    const Bitboard last = us == WHITE ? RANK_8_BB : RANK_1_BB;
    const Bitboard third = us == WHITE ? RANK_3_BB : RANK_6_BB;
    const int up = us == WHITE ? 8 : -8;
    const int west = us == WHITE ? 7 : -9;
    const int east = us == WHITE ? 9 : -7;
    const Bitboard empty = ~occ;
    for (int pass = 0; pass < 2; pass++) {
        Bitboard movers = pass == 0 ? pawns & ~pinned : pawns & pinned;
        if (!movers)
            continue;
        /* A pinned pawn moves only along the line through it and the king;
         * the line of a pawn on the king's file keeps pushes, and so on. */
        Bitboard allow = target;
        Bitboard one = shift_up(movers, us) & empty;
        Bitboard two = shift_up(one & third, us) & empty;
        Bitboard cw = shift_up_west(movers, us) & enemy;
        Bitboard ce = shift_up_east(movers, us) & enemy;
        if (pass == 1) {
            /* Pinned pawns are few: filter each move by its own pin line. */
            Bitboard ok1 = 0, ok2 = 0, okw = 0, oke = 0;
            Bitboard m = movers;
            while (m) {
                int from = bb_pop(&m);
                Bitboard l = bb_line[ksq][from];
                ok1 |= l & BB(from + up);
                ok2 |= l & ((from + 2 * up) >= 0 && (from + 2 * up) < 64 ? BB(from + 2 * up) : 0);
                okw |= l & ((from + west) >= 0 && (from + west) < 64 ? BB(from + west) : 0);
                oke |= l & ((from + east) >= 0 && (from + east) < 64 ? BB(from + east) : 0);
            }
            one &= ok1;
            two &= ok2;
            cw &= okw;
            ce &= oke;
        }
        one &= allow;
        two &= allow;
        cw &= allow;
        ce &= allow;
        if (checks) {
            /* Promotions stay; a pawn that may uncover a check keeps all
             * its moves, the others those onto a checking square. */
            Bitboard d = movers & disc;
            one &= last | check_sq[PAWN] | shift_up(d, us);
            two &= check_sq[PAWN] | shift_up(shift_up(d, us), us);
            cw &= last | check_sq[PAWN] | shift_up_west(d, us);
            ce &= last | check_sq[PAWN] | shift_up_east(d, us);
        }
        n = emit_pawns(out, n, one & ~last, up, false);
        n = emit_pawns(out, n, one & last, up, true);
        n = emit_pawns(out, n, two, 2 * up, false);
        n = emit_pawns(out, n, cw & ~last, west, false);
        n = emit_pawns(out, n, cw & last, west, true);
        n = emit_pawns(out, n, ce & ~last, east, false);
        n = emit_pawns(out, n, ce & last, east, true);
    }
    if (any && n)
        return n;

    /* En passant: ep is set only when some capture onto it is legal, but
     * each capturer still needs its own check (pins, the uncovered rank). */
    if (b->ep != SQ_NONE) {
        int ep = b->ep, capsq = ep - up;
        Bitboard capturers = bb_pawn_attacks[them][ep] & pawns;
        while (capturers) {
            int from = bb_pop(&capturers);
            Bitboard o = (occ ^ BB(from) ^ BB(capsq)) | BB(ep);
            if (bb_rook_attacks(ksq, o) & their_rq & ~BB(capsq))
                continue;
            if (bb_bishop_attacks(ksq, o) & their_bq)
                continue;
            /* A check by anything else must be the captured pawn itself. */
            if (checkers && !(checkers & BB(capsq)) &&
                !(bb_between[ksq][bb_lsb(checkers)] & BB(ep)))
                continue;
            if (out)
                out[n] = move_new(from, ep, MOVE_EN_PASSANT, KNIGHT);
            n++;
        }
    }

    /* Castling: not out of, through or into check; the squares between the
     * king and rook empty.  The rights guarantee king and rook are home.
     * Not in check, no line through the king is open to an enemy slider,
     * so lifting it changed no attack on the squares it crosses: danger
     * holds them. */
    if (!checkers &&
        (b->castling & (us == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ))) {
        const int base = us == WHITE ? 0 : 56;
        const int kbit = us == WHITE ? CASTLE_WK : CASTLE_BK;
        const int qbit = us == WHITE ? CASTLE_WQ : CASTLE_BQ;
        if ((b->castling & kbit) && !(occ & (BB(base + 5) | BB(base + 6))) &&
            !(danger & (BB(base + 5) | BB(base + 6)))) {
            if (out)
                out[n] = move_new(base + 4, base + 6, MOVE_CASTLING, KNIGHT);
            n++;
        }
        if ((b->castling & qbit) && !(occ & (BB(base + 1) | BB(base + 2) | BB(base + 3))) &&
            !(danger & (BB(base + 3) | BB(base + 2)))) {
            if (out)
                out[n] = move_new(base + 4, base + 2, MOVE_CASTLING, KNIGHT);
            n++;
        }
    }
    return n;
}

int movegen_legal_moves(const Board *b, MoveList *list)
{
    list->count = generate(b, list->moves, false, false);
    return list->count;
}

int movegen_checking_candidates(const Board *b, MoveList *list)
{
    list->count = generate(b, list->moves, false, true);
    return list->count;
}

int movegen_count_legal(const Board *b)
{
    return generate(b, NULL, false, false);
}

/* Out of check, any move of a man that is not pinned is legal: those are
 * looked for first, a set-wise test for the pawns and knights and one
 * look-up per slider, then the king's steps (each a full attack test);
 * the general generator only for what is left. */
bool movegen_has_legal(const Board *b)
{
    const int us = b->side, them = us ^ 1;
    const Bitboard own = b->by_color[us], enemy = b->by_color[them];
    const Bitboard occ = own | enemy;
    const int ksq = board_king(b, us);
    if (!board_attackers(b, ksq, them, occ)) {
        const Bitboard pinned =
            pinned_to(ksq, own, occ, enemy, enemy & (b->by_type[ROOK] | b->by_type[QUEEN]),
                      enemy & (b->by_type[BISHOP] | b->by_type[QUEEN]));
        const Bitboard pawns = own & b->by_type[PAWN] & ~pinned;
        if ((shift_up(pawns, us) & ~occ) || (shift_up_west(pawns, us) & enemy) ||
            (shift_up_east(pawns, us) & enemy))
            return true;
        Bitboard pieces = own & b->by_type[KNIGHT] & ~pinned;
        while (pieces)
            if (bb_knight_attacks[bb_pop(&pieces)] & ~own)
                return true;
        pieces = own & (b->by_type[BISHOP] | b->by_type[QUEEN]) & ~pinned;
        while (pieces)
            if (bb_bishop_attacks(bb_pop(&pieces), occ) & ~own)
                return true;
        pieces = own & (b->by_type[ROOK] | b->by_type[QUEEN]) & ~pinned;
        while (pieces)
            if (bb_rook_attacks(bb_pop(&pieces), occ) & ~own)
                return true;
        if (bb_king_attacks[ksq] & ~own & ~board_attacks(b, them, occ ^ BB(ksq)))
            return true;
    }
    /* In check, or only pinned men, en passant or castling left. */
    return generate(b, NULL, true, false) != 0;
}

/* movegen_gives_check(), inlined into the mate-in-one test's loop. */
static ALWAYS_INLINE bool gives_check(const Board *b, Move m, int ksq)
{
    int from = move_from(m), to = move_to(m);
    int type = piece_type(b->squares[from]);
    if (move_kind(m) == MOVE_PROMOTION)
        type = move_promotion(m);
    if (type == PAWN)
        return (bb_pawn_attacks[b->side][to] & BB(ksq)) != 0;
    if (type == KING)
        return false;
    Bitboard occ = (board_occupied(b) & ~BB(from)) | BB(to);
    return (board_piece_attacks(type, to, occ) & BB(ksq)) != 0;
}

bool movegen_gives_check(const Board *b, Move m, int ksq)
{
    return gives_check(b, m, ksq);
}

/* The men of `winner` whose move could uncover a check from a slider
 * behind them on a line to the enemy king on lk. */
static Bitboard discoverers(const Board *b, int winner, int lk)
{
    Bitboard occ = board_occupied(b), found = 0;
    Bitboard rq = board_pieces(b, winner, ROOK) | board_pieces(b, winner, QUEEN);
    Bitboard bq = board_pieces(b, winner, BISHOP) | board_pieces(b, winner, QUEEN);
    Bitboard snipers = (bb_rook_attacks(lk, 0) & rq) | (bb_bishop_attacks(lk, 0) & bq);
    while (snipers) {
        Bitboard between = bb_between[lk][bb_pop(&snipers)] & occ;
        if (between && !bb_more_than_one(between))
            found |= between & b->by_color[winner];
    }
    return found;
}

bool movegen_move_checks(const Board *b, Move m)
{
    int lk = board_king(b, b->side ^ 1), from = move_from(m);
    if (move_kind(m) == MOVE_CASTLING || move_kind(m) == MOVE_EN_PASSANT) {
        Board child = *b;
        board_make(&child, m);
        return board_in_check(&child);
    }
    if (gives_check(b, m, lk))
        return true;
    /* A man alone between the king and a slider uncovers the check unless
     * it stays on that line, and then it stays between them: no man can
     * pass the slider or the king, and a knight or a man moving across
     * the line cannot land on it again. */
    return (discoverers(b, b->side, lk) & BB(from)) && !(bb_line[lk][from] & BB(move_to(m)));
}

/* Whether the king of the side to move has a safe square to step to: the
 * cheap way to see that most checks are not mate. */
static bool king_can_step(const Board *b)
{
    int us = b->side, k = board_king(b, us);
    Bitboard occ = board_occupied(b) ^ BB(k);
    Bitboard to = bb_king_attacks[k] & ~b->by_color[us];
    while (to) {
        int sq = bb_pop(&to);
        if (!board_attackers(b, sq, us ^ 1, occ))
            return true;
    }
    return false;
}

Move movegen_mating_move(const Board *b, const MoveList *list)
{
    int lk = board_king(b, b->side ^ 1);
    Bitboard disc = discoverers(b, b->side, lk);
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int from = move_from(m);
        if (move_kind(m) != MOVE_CASTLING && move_kind(m) != MOVE_EN_PASSANT &&
            !(disc & BB(from)) && !gives_check(b, m, lk))
            continue;
        Board child = *b;
        board_make(&child, m);
        if (board_in_check(&child) && !king_can_step(&child) && movegen_count_legal(&child) == 0)
            return m;
    }
    return MOVE_NONE;
}

bool movegen_is_legal(const Board *b, Move m)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

uint64_t movegen_perft(const Board *b, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)movegen_count_legal(b);
    MoveList list;
    movegen_legal_moves(b, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        nodes += movegen_perft(&child, depth - 1);
    }
    return nodes;
}
