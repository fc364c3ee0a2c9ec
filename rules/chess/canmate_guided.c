/*
 * canmate_guided.c — the guided deep helpmate search.
 *
 * A depth-first search for a helpmate in which the depth left is spent
 * unevenly (the idea of M. Ambrona's analyzer, FUN 2022; this code is our
 * own): moves towards a pictured mate in a corner of the loser's back rank
 * cost nothing, and so does the move after such a move; moves away from it
 * (the loser capturing, pieces leaving the blocked structure) cost three
 * plies.  It follows the long purposeful walks of blocked and minor-piece
 * positions far deeper than a uniform search.  Rounds of growing depth each
 * get depth * GUIDED_ROUND positions; a round that finishes without any
 * line stopped by the depth has seen every reachable position, which
 * proves NO.
 *
 * Deterministic: budgets are counted in positions.  The transposition
 * table is the caller's (canmate.c's scratch), one generation per round,
 * and a round skips what earlier rounds of the same search saw.
 *
 * Workload: at flag fall and the like, after the cheap layers failed;
 * some million positions by default (most end at a table look-up, and most
 * of the others are leaves, where only whether a side can move is asked),
 * some tenths of a second.
 */
#include "canmate_guided.h"

#include <stdlib.h>
#include <string.h>

#include "canmate_static.h"

/* The guided search's lines may wander: it follows them this deep and
 * shortens a line it finds (see shorten()) before returning it, which must
 * then fit in CANMATE_LINE_MAX plies.  About 1.5 kilobytes of stack a ply. */
enum { GUIDED_LINE_MAX = 320 };

typedef struct Guided {
    int winner;
    int corner;                    /* where the mate is pictured, SQ_NONE: chosen */
    bool aborted;                  /* a budget ran out */
    bool cut;                      /* some line was stopped by the depth */
    bool stale;                    /* the round skipped an earlier round's position */
    uint64_t nodes, max_nodes;     /* the whole search */
    uint64_t iter_nodes, iter_max; /* this round */
    CanMateTtEntry *tt;
    uint32_t tt_mask, gen;
    uint32_t first_gen; /* the generation of the search's first round */
    int line_len;
    Move line[GUIDED_LINE_MAX];
} Guided;

/*
 * The square a piece that moves is steered to: a mate in a corner of the
 * loser's back rank (seen from the winner), with the loser's king in the
 * corner, the winner's king two squares in front and a loser's man beside
 * the king to block it.  The corner is dark when the winner has a dark
 * bishop (or no bishop while the loser has a light one), since then the
 * bishops can give the check there.  `corner` (not SQ_NONE) fixes the
 * corner instead; another square than a corner is the one square every
 * piece is steered to (a mate in the open, by pawns).
 */
static int steer_target(const Board *b, int winner, bool king, int corner)
{
    if (corner != SQ_NONE) {
        int f = SQ_FILE(corner), r = SQ_RANK(corner);
        if ((f != 0 && f != 7) || (r != 0 && r != 7))
            return corner;
        if (b->side == winner)
            return king ? SQ(f, r == 7 ? 5 : 2) : corner;
        return king ? corner : SQ(f == 7 ? 6 : 1, r);
    }
    Bitboard wb = board_pieces(b, winner, BISHOP), lb = board_pieces(b, winner ^ 1, BISHOP);
    bool dark = (wb & DARK_SQUARES_BB) || (!wb && (lb & LIGHT_SQUARES_BB));
    int t;
    if (b->side == winner)
        t = king ? SQ(7, 5) : SQ(7, 7);
    else
        t = king ? SQ(7, 7) : SQ(6, 7);
    if (!dark)
        t ^= 7;
    if (winner == BLACK)
        t ^= 63;
    return t;
}

/* Whether the move from -> to brings a king (or a bishop when `bishops`)
 * or a knight nearer to t. */
static bool approaches(int type, int from, int to, int t, bool bishops)
{
    if (type == KING || (bishops && type == BISHOP))
        return bb_distance[to][t] < bb_distance[from][t];
    if (type == KNIGHT)
        return bb_knight_distance(to, t) < bb_knight_distance(from, t);
    return false;
}

/* Pawns of both sides face to face across one empty square: the square
 * between, or SQ_NONE. */
static int semi_blocked_square(const Board *b)
{
    Bitboard x = (board_pieces(b, WHITE, PAWN) << 8) & (board_pieces(b, BLACK, PAWN) >> 8);
    return x ? bb_lsb(x) : SQ_NONE;
}

/* The files that hold a square of x, a bit per file: the ranks folded
 * onto the first. */
static unsigned files_of(Bitboard x)
{
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    return (unsigned)(x & RANK_1_BB);
}

/* Whether every file holding a pawn of one side that can still move (not on
 * its last two ranks) holds one of the other side too. */
static bool pawns_paired(const Board *b)
{
    Bitboard wp = board_pieces(b, WHITE, PAWN) & ~RANK_7_BB;
    Bitboard bp = board_pieces(b, BLACK, PAWN) & ~RANK_2_BB;
    return files_of(wp) == files_of(bp);
}

enum { STEP_NORMAL, STEP_REWARD, STEP_PUNISH };
/* The order the guided search tries them in: reward, normal, punish. */
#define STEP_RANK(k) ((k) == STEP_REWARD ? 0 : (k) == STEP_NORMAL ? 1 : 2)

/* How a move changes the depth left in the guided search: progress towards
 * the pictured mate is free, a step away costs triple.  targets[0] and
 * targets[1] are steer_target() for a piece and for the king. */
static int classify_step(const Board *b, Move m, int winner, const int targets[2],
                         bool must_promote, bool walled, bool semi, int semi_sq)
{
    int from = move_from(m), to = move_to(m);
    int type = piece_type(b->squares[from]);
    bool capture = b->squares[to] != PIECE_NONE || move_kind(m) == MOVE_EN_PASSANT;
    int t = targets[type == KING];
    int v = STEP_NORMAL;
    if (b->side == winner) {
        int rel = winner == WHITE ? SQ_RANK(from) : 7 - SQ_RANK(from);
        if ((type == PAWN && rel > 3) || capture || approaches(type, from, to, t, false))
            v = STEP_REWARD;
    } else {
        if (must_promote) {
            int promo = move_kind(m) == MOVE_PROMOTION ? move_promotion(m) : PAWN;
            v = type == PAWN && promo != QUEEN && promo != ROOK ? STEP_REWARD : STEP_PUNISH;
        }
        if (approaches(type, from, to, t, false))
            v = STEP_REWARD;
        else if (capture)
            v = STEP_PUNISH;
    }
    if (walled) {
        if (semi) {
            if (capture && b->side == winner)
                v = STEP_REWARD;
            else if (type == KING)
                v = semi_sq != SQ_NONE && approaches(KING, from, to, semi_sq, false) ? STEP_REWARD
                                                                                     : STEP_NORMAL;
            else
                v = STEP_PUNISH;
        } else if (approaches(type, from, to, t, true) &&
                   bb_more_than_one(board_pieces(b, winner ^ 1, BISHOP))) {
            v = STEP_REWARD;
        }
    }
    return v;
}

/* Counts the position with key `key` against the budgets, and whether the
 * search stops there: a budget ran out (s->aborted) or the table holds it
 * from this search with as much depth left.  Asked before a child is made,
 * so that the children that end here (most of them) cost no make. */
static bool guided_stop(Guided *s, uint64_t key, int left)
{
    if (++s->nodes > s->max_nodes || ++s->iter_nodes > s->iter_max) {
        s->aborted = true;
        return true;
    }
    const CanMateTtEntry *e = &s->tt[key & s->tt_mask];
    if (e->key == key && e->depth >= left && e->gen <= s->gen && e->gen >= s->first_gen) {
        /* Searched in an earlier round with as much depth left: its
         * subtree is not searched again, but then this round alone has not
         * seen every position (see canmate_guided_search_at). */
        if (e->gen != s->gen)
            s->stale = true;
        return true;
    }
    return false;
}

/* A leaf of the guided search (most of the positions it makes): the
 * answers of guided_expand() in the same order, but the moves are not
 * needed, only whether there is one, and not even that where the leaf
 * can tell nothing new: only the loser in check can be mated there, and
 * elsewhere a leaf only says that the round has not seen every position,
 * which a line stopped before already said.  `material_changed` is false
 * when b was reached by a move that took nothing and promoted nothing
 * from a position the material test let through: its answer is the same
 * then (it reads only which men stand and the colours of the bishops'
 * squares), so it is not asked again. */
static bool guided_leaf(Guided *s, const Board *b, int ply, bool material_changed)
{
    bool may_mate = b->side != s->winner && board_in_check(b);
    if (!may_mate && s->cut)
        return false;
    if (!movegen_has_legal(b)) {
        if (may_mate) {
            s->line_len = ply;
            return true;
        }
        return false;
    }
    if (!material_changed || !canmate_static_material_no(b, s->winner))
        s->cut = true;
    return false;
}

/*
 * Depth-first helpmate search where the depth left is spent unevenly:
 * moves towards the pictured mate cost nothing, moves after such a move
 * cost nothing either, moves away cost three plies.  That lets it follow
 * the long, purposeful walks of blocked and minor-piece positions far
 * deeper than a uniform search.  Positions already searched with as much
 * depth left in this round are skipped.  s->cut records that some line
 * was stopped by the depth, so a round that ends without a cut and
 * without running out of nodes has seen every reachable position.  b is
 * a position guided_stop() let through (counted, not in the table).
 */
static bool guided_expand(Guided *s, const Board *b, int left, int ply, bool progress,
                          bool was_semi)
{
    int winner = s->winner;
    if (left <= 0 || ply >= GUIDED_LINE_MAX)
        return guided_leaf(s, b, ply, true);
    CanMateTtEntry *e = &s->tt[b->key & s->tt_mask];
    MoveList list;
    movegen_legal_moves(b, &list);
    if (list.count == 0) {
        if (b->side != winner && board_in_check(b)) {
            s->line_len = ply;
            return true;
        }
        return false;
    }
    if (canmate_static_material_no(b, winner))
        return false;
    e->key = b->key;
    e->gen = s->gen;
    e->depth = left;
    bool must_promote = canmate_static_needs_help(b, winner);
    bool walled =
        !(b->by_type[KNIGHT] | b->by_type[ROOK] | b->by_type[QUEEN]) &&
        bb_popcount((board_pieces(b, WHITE, PAWN) << 8) & board_pieces(b, BLACK, PAWN)) >= 4 &&
        pawns_paired(b);
    int semi_sq = semi_blocked_square(b);
    bool semi = semi_sq != SQ_NONE;
    /* Rewarded moves first, then the others, the costly ones last.  The
     * squares steered to depend on the position only: once per node. */
    const int targets[2] = {steer_target(b, winner, false, s->corner),
                            steer_target(b, winner, true, s->corner)};
    uint8_t kind[MOVES_MAX];
    for (int i = 0; i < list.count; i++)
        kind[i] = (uint8_t)classify_step(b, list.moves[i], winner, targets, must_promote, walled,
                                         semi || was_semi, semi_sq);
    for (int i = 1; i < list.count; i++) {
        Move m = list.moves[i];
        uint8_t k = kind[i];
        int j = i - 1;
        while (j >= 0 && STEP_RANK(kind[j]) > STEP_RANK(k)) {
            kind[j + 1] = kind[j];
            list.moves[j + 1] = list.moves[j];
            j--;
        }
        kind[j + 1] = k;
        list.moves[j + 1] = m;
    }
    /* The depth left to each child, and which are leaves. */
    int16_t nexts[MOVES_MAX];
    bool leaves[MOVES_MAX];
    const int cost[3] = {[STEP_NORMAL] = progress ? 0 : 1, [STEP_REWARD] = 0, [STEP_PUNISH] = 3};
    bool deep = ply + 1 >= GUIDED_LINE_MAX;
    for (int i = 0; i < list.count; i++) {
        int next = left - cost[kind[i]];
        nexts[i] = (int16_t)next;
        leaves[i] = next <= 0 || deep;
    }
    /* Once a line of the round was stopped, a leaf tells something only
     * where it may be the loser mated (guided_leaf), and the table only
     * whether the round saw every position (stale), which the stopped
     * line already denies: a leaf where the winner is to move, or that
     * gives no check, is idle, only counted, neither looked up nor made.
     * Where a line was stopped already, the idle leaves are known before
     * the keys; a line stopped later in the loop makes more of them. */
    bool cut_before = s->cut;
    bool idle[MOVES_MAX];
    for (int i = 0; i < list.count; i++)
        idle[i] = cut_before && leaves[i] &&
                  (b->side != winner || !movegen_move_checks(b, list.moves[i]));
    /* Most children end at the table look-up, a cache miss: their keys
     * come first and every slot is fetched at once, so that the misses
     * overlap; a child is made only when the table lets it through.  A
     * child's subtree may push the slots of the later ones out of the
     * cache again, so each is also fetched AHEAD children early. */
    enum { AHEAD = 4 };
    uint64_t keys[MOVES_MAX];
    for (int i = 0; i < list.count; i++) {
        keys[i] = idle[i] ? 0 : board_key_after(b, list.moves[i]);
        __builtin_prefetch(&s->tt[keys[i] & s->tt_mask]);
    }
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int next = nexts[i];
        bool leaf = leaves[i];
        if (i + AHEAD < list.count)
            __builtin_prefetch(&s->tt[keys[i + AHEAD] & s->tt_mask]);
        if (idle[i] ||
            (!cut_before && leaf && s->cut && (b->side != winner || !movegen_move_checks(b, m)))) {
            if (++s->nodes > s->max_nodes || ++s->iter_nodes > s->iter_max) {
                s->aborted = true;
                return false;
            }
            continue;
        }
        if (guided_stop(s, keys[i], next)) {
            if (s->aborted)
                return false;
            continue;
        }
        Board child = *b;
        board_make_keyed(&child, m, keys[i]);
        s->line[ply] = m;
        if (leaf) {
            bool material_changed =
                move_kind(m) == MOVE_PROMOTION ||
                bb_popcount(board_occupied(&child)) != bb_popcount(board_occupied(b));
            if (guided_leaf(s, &child, ply + 1, material_changed))
                return true;
            continue;
        }
        if (guided_expand(s, &child, next, ply + 1, kind[i] == STEP_REWARD, semi || was_semi))
            return true;
        if (s->aborted)
            return false;
    }
    return false;
}

enum { GUIDED_ROUND = 10000 };

/*
 * Shortens the mating line[0..len) from b: where a position comes back
 * later on the line the moves between are dropped, and where one move
 * leads straight to a later position (the other side's moves between
 * cancelled out) it replaces the moves between.  The line stays legal
 * (the moves come from the move generator) and reaches the same mate; if
 * the end is somehow not a mate (a key collision) the line is kept as it
 * was.  Returns the new length.
 */
static int shorten(const Board *b, Move *line, int len)
{
    uint64_t keys[GUIDED_LINE_MAX + 1];
    Move orig[GUIDED_LINE_MAX];
    memcpy(orig, line, (size_t)len * sizeof *line);
    Board cur = *b;
    keys[0] = cur.key;
    for (int i = 0; i < len; i++) {
        board_make(&cur, line[i]);
        keys[i + 1] = cur.key;
    }
    cur = *b;
    int out = 0;
    for (int i = 0; i < len;) {
        int last = len;
        while (last > i && keys[last] != keys[i])
            last--;
        if (last > i) {
            i = last;
            continue;
        }
        MoveList list;
        movegen_legal_moves(&cur, &list);
        int best = i + 1;
        Move bm = line[i];
        for (int k = 0; k < list.count; k++) {
            Board child = cur;
            board_make(&child, list.moves[k]);
            for (int j = len; j > best; j--)
                if (keys[j] == child.key) {
                    best = j;
                    bm = list.moves[k];
                    break;
                }
        }
        line[out++] = bm;
        board_make(&cur, bm);
        i = best;
    }
    if (movegen_count_legal(&cur) == 0 && board_in_check(&cur))
        return out;
    memcpy(line, orig, (size_t)len * sizeof *line);
    return len;
}

CanMate canmate_guided_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                              uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len)
{
    return canmate_guided_search_at(b, winner, SQ_NONE, max_nodes, tt, tt_mask, gen, line,
                                    line_len);
}

CanMate canmate_guided_search_at(const Board *b, int winner, int corner, uint64_t max_nodes,
                                 CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen, Move *line,
                                 int *line_len)
{
    Guided *s = malloc(sizeof *s);
    if (!s)
        return CANMATE_UNKNOWN;
    s->winner = winner;
    s->corner = corner;
    s->nodes = 0;
    s->max_nodes = max_nodes;
    s->tt = tt;
    s->tt_mask = tt_mask;
    CanMate r = CANMATE_UNKNOWN;
    if (*gen > UINT32_MAX - 2 * GUIDED_LINE_MAX - 2)
        *gen = 0; /* the rounds' generations must not wrap */
    s->first_gen = *gen + 1;
    /* The table is kept from round to round, so a round skips what the
     * rounds before searched with as much depth left (most of the tree);
     * a round that looks complete is then searched again on its own
     * (strict), since only a round that saw everything proves NO.  The
     * depth grows by two plies a round: rewarded moves cost nothing, so a
     * round is hardly larger than the one before, and growing by one ply
     * spent most of the budget on searching the same tree again (measured
     * on the labelled vector: a tenth of the mean, no case lost). */
    bool strict = false;
    for (int depth = 2; depth <= GUIDED_LINE_MAX && s->nodes < max_nodes; depth += 2) {
        s->gen = ++*gen;
        if (strict)
            s->first_gen = s->gen;
        s->aborted = false;
        s->cut = false;
        s->stale = false;
        s->iter_nodes = 0;
        s->iter_max = (uint64_t)depth * GUIDED_ROUND;
        if (!guided_stop(s, b->key, depth) && guided_expand(s, b, depth, 0, false, false)) {
            int len = shorten(b, s->line, s->line_len);
            if (len > CANMATE_LINE_MAX)
                break; /* found, but too long to hand back */
            r = CANMATE_YES;
            if (line)
                memcpy(line, s->line, (size_t)len * sizeof *line);
            if (line_len)
                *line_len = len;
            break;
        }
        if (!s->aborted && !s->cut) {
            if (!s->stale) {
                r = CANMATE_NO;
                break;
            }
            strict = true;
            depth -= 2; /* the same depth again, on its own */
            continue;
        }
        strict = false;
    }
    free(s);
    return r;
}
