/*
 * canmate_plan.c — the plan-directed stage: where will the loser's king be
 * mated?
 *
 * In the blocked positions the earlier stages leave undecided the mate is
 * rarely in a corner: the loser's king is mated in its pen, against the
 * pawn walls that fence it in, after a long cooperative plan (a walk round
 * the wall, pieces given up so that pawns change files, tempo moves).  The
 * guided search (canmate_guided.c) follows such plans when every piece is
 * steered to the right square, and gets lost when it is steered anywhere
 * else.  So this stage pictures the mate first: every square but the
 * corners (the guided search's own pictures) is a candidate, best first
 * by how many of its neighbours a wall already closes (a mate needs every
 * flight covered; the edge, a pawn or a square the winner's pawns attack
 * covers one for nothing), then by nearness to the loser's king.  The
 * candidates are not limited to where the king can walk now: the plan may
 * open the wall first (a pawn that changes files by a capture), and the
 * mate is then often just beyond it.  The best CANMATE_PLAN_TARGETS share
 * the budget: a steered search finds its line within some hundred
 * thousand positions or, as a rule, not at all.  That is for positions
 * where pieces move; where only kings and pawns do, the plan is another.
 *
 * There the budget goes to the tempo search, for the plans where a
 * king is walled in for good and the play is a count of tempi: pawn moves
 * that must be spent in the right order, a pawn given up so that another
 * can pass, a promotion to a piece that is given up in turn.  Those moves
 * are irreversible, so there are only so many of them; the tempo search
 * makes them free and spends its depth on the reversible moves alone (a
 * king's walk), which is what these plans have few of.  Two kinds of
 * reversible move are free as well, being the steps of those plans: a
 * king's step nearer to the enemy pawns, and the loser's piece moving
 * where the winner can take it.  Where pieces move, the tempo search has
 * a third of the budget after the pictured squares (a bishop may walk out
 * only to be given up).  canmate_search() also runs the tempo search
 * alone (canmate_plan_tempo_search), in turns of its schedule, and once
 * more where the loser's king's steps towards the edge are free too
 * (canmate_plan_edge_search): in the pawn endings where the loser's king
 * walks to the edge square it is mated on while the pawns run, the plain
 * search pays a move of its depth for each step and needs several times
 * the positions; elsewhere the free steps only make the search wider, so
 * the plain search keeps its turns.  Where pieces move, a turn of the
 * tempo search alone (canmate_plan_pieces_tempo_search) takes the place of
 * the largest plan turn: the plans that turn settled there were all tempo
 * plans, found by its tempo third after the pictured squares.
 *
 * A last kind of picture is for the winner who can never cover some
 * squares: bishops of one colour, his king and pawns fixed.  The loser's
 * king can then be mated only where its own men fill every flight he
 * cannot cover, so the picture is the mate square and those blockers,
 * and the greedy search (canmate_walk_picture) is steered by the moves
 * the picture still needs: the king's steps there, the blockers' moves,
 * and the winner's men that must clear the mate square before the king
 * can step in.  Those plans are long (fourteen moves a side) but each
 * move of them brings the picture one move nearer, so a greedy search
 * follows them in a few thousand positions where the depth-first
 * searches, which pay for every waiting move of eight bishops, get lost.
 *
 * Invariants: every YES comes with a line of legal moves that mates (at
 * most CANMATE_LINE_MAX plies; the guided search's lines are shortened
 * there); this stage never answers NO (a steered search that fails
 * proves nothing, so the guided search's own NO is not passed on either).
 * Deterministic: budgets are counted in positions.
 *
 * Workload: run by canmate_search() only where the cheaper stages failed,
 * the constructed blocked positions; some million positions in all (about
 * a tenth of a microsecond each), and a few microseconds to pick the
 * squares.  The tempo search's turns in the schedule find the tempo plans
 * of the labelled vector within 1.1 million positions, most within
 * 300,000; where only kings and pawns move and no plan exists, a turn
 * runs to its budget.
 */
#include "canmate_plan.h"

#include <stdlib.h>
#include <string.h>

#include "canmate_static.h"
#include "canmate_walk.h"

/* ---------------------------------------------------------------------- */
/* The tempo search: only reversible moves cost depth                      */

/* How the tempo search orders the moves: the steps of a plan (promotions,
 * the winner's captures and pushes, the loser's pushes, the loser's
 * captures, the free walks) before the reversible moves, which alone cost
 * depth. */
enum {
    RANK_PROMOTE,
    RANK_WIN_CAPTURE,
    RANK_WIN_PUSH,
    RANK_LOSE_PUSH,
    RANK_LOSE_CAPTURE,
    RANK_KING_CAPTURE,
    RANK_FREE_WALK,
    RANK_REVERSIBLE,
    RANK_NB
};

typedef struct Tempo {
    int winner;
    bool to_edge; /* the loser's king's steps to the edge are free walks too */
    bool aborted; /* the budget ran out */
    bool cut;     /* some reversible move was not tried for want of depth */
    uint64_t nodes, max_nodes;
    CanMateTtEntry *tt;
    uint32_t tt_mask, gen, first_gen;
    int line_len;
    Move line[CANMATE_LINE_MAX];
} Tempo;

/* The squares nearer to the nearest of `pawns`, in king steps, than sq is:
 * those within one step less than its own distance, grown a king's step at a time
 * from the pawns (empty without pawns).  One set per position, so that
 * each king step is judged by a bit, not by a distance to every pawn. */
static Bitboard nearer_squares(int sq, Bitboard pawns)
{
    Bitboard within = 0, x = pawns;
    while (x && !(x & BB(sq))) {
        within = x;
        x = bb_king_spread(x);
    }
    return within;
}

/* Steps from sq to the nearest edge of the board. */
static int edge_distance(int sq)
{
    int f = SQ_FILE(sq), r = SQ_RANK(sq);
    int d = f < 7 - f ? f : 7 - f, e = r < 7 - r ? r : 7 - r;
    return d < e ? d : e;
}

/*
 * A reversible move that is a step of the tempo plans costs no depth: a
 * king's step nearer to the enemy pawns (the plans' kings walk to take a
 * pawn or to make way beside one; the distance only shrinks until a pawn
 * moves or is taken, so such walks end) and the loser giving up a piece,
 * a move onto a square the winner attacks (the loser's promoted pieces
 * are in the way of the mate and are given up; such moves can shuttle,
 * but only while the winner's moves are free too, which ends as above).
 * With `to_edge`, so is the loser's king's step nearer to the edge; it may
 * shuttle with a step nearer to the pawns, a cycle the table cuts (the
 * position is in it, with as much left, while it is searched) and the
 * line's length bounds.
 * `nearer` holds the squares nearer to the enemy pawns than the mover's
 * king (nearer_squares).
 */
static bool free_walk(const Board *b, int from, int to, int type, int winner, Bitboard nearer,
                      bool to_edge)
{
    if (type == KING)
        return (nearer & BB(to)) ||
               (to_edge && b->side != winner && edge_distance(to) < edge_distance(from));
    return b->side != winner && board_attackers(b, to, winner, board_occupied(b) & ~BB(from)) != 0;
}

static int move_rank(const Board *b, Move m, int winner, Bitboard nearer, bool to_edge)
{
    int from = move_from(m), to = move_to(m);
    int type = piece_type(b->squares[from]);
    bool capture = b->squares[to] != PIECE_NONE || move_kind(m) == MOVE_EN_PASSANT;
    if (move_kind(m) == MOVE_PROMOTION)
        return RANK_PROMOTE;
    if (type != PAWN && !capture && move_kind(m) == MOVE_NORMAL) /* castling is rare */
        return free_walk(b, from, to, type, winner, nearer, to_edge) ? RANK_FREE_WALK
                                                                     : RANK_REVERSIBLE;
    if (b->side == winner)
        return capture ? RANK_WIN_CAPTURE : RANK_WIN_PUSH;
    if (!capture)
        return RANK_LOSE_PUSH;
    return type == KING ? RANK_KING_CAPTURE : RANK_LOSE_CAPTURE;
}

/* Counts the position with key `key` against the budget, and whether the
 * search stops there: the budget ran out (s->aborted) or the table holds a
 * failure from it with as much left.  Asked before a child is made, so
 * that the children that end here cost no make. */
static bool tempo_stop(Tempo *s, uint64_t key, int left)
{
    if (++s->nodes > s->max_nodes) {
        s->aborted = true;
        return true;
    }
    const CanMateTtEntry *e = &s->tt[key & s->tt_mask];
    if (e->key == key && e->gen >= s->first_gen && e->gen <= s->gen && e->depth >= left) {
        s->cut |= e->gen != s->gen; /* an earlier round's cuts may lie below */
        return true;
    }
    return false;
}

/*
 * Is there a helpmate from b with at most `left` reversible moves (piece
 * and king moves that capture nothing)?  Pawn moves, captures and
 * promotions are free: there are only so many of them in any game, so the
 * search stays finite, and they are the steps of the plans of blocked
 * positions (tempo moves, sacrifices that let a pawn change files,
 * promotions), where the reversible moves are few: a king's walk.  So are
 * the free walks (free_walk): the reversible moves those plans are made
 * of.  The plies of a line are bounded too (CANMATE_LINE_MAX).  A
 * position failed from with as much left, in any round of this search, is
 * not searched again (a failure at `left` is one at every smaller left).
 * b is a position tempo_stop() let through (counted, not in the table).
 */
static bool tempo_dfs(Tempo *s, const Board *b, int left, int ply)
{
    CanMateTtEntry *e = &s->tt[b->key & s->tt_mask];
    MoveList list;
    movegen_legal_moves(b, &list);
    if (list.count == 0) {
        if (b->side != s->winner && board_in_check(b)) {
            s->line_len = ply;
            return true;
        }
        return false;
    }
    if (ply >= CANMATE_LINE_MAX || canmate_static_material_no(b, s->winner))
        return false;
    e->key = b->key;
    e->gen = s->gen;
    e->depth = left;
    /* The moves by rank, the reversible ones (most of them) last in the
     * order generated, the few others sorted by rank as they come, each
     * after those of its rank before it. */
    Move sorted[MOVES_MAX], rev[MOVES_MAX];
    uint8_t rank[MOVES_MAX];
    int first_rev = 0, n_rev = 0;
    Bitboard nearer = nearer_squares(board_king(b, b->side), board_pieces(b, b->side ^ 1, PAWN));
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int r = move_rank(b, m, s->winner, nearer, s->to_edge);
        if (r == RANK_REVERSIBLE) {
            rev[n_rev++] = m;
            continue;
        }
        int j = first_rev++;
        for (; j > 0 && rank[j - 1] > r; j--) {
            sorted[j] = sorted[j - 1];
            rank[j] = rank[j - 1];
        }
        sorted[j] = m;
        rank[j] = (uint8_t)r;
    }
    /* None of the reversible moves is tried with no depth left.  Most
     * children end at the table look-up, a cache miss: their keys come
     * first and every slot is fetched at once, and a child is made only
     * when the table lets it through. */
    if (left > 0)
        memcpy(sorted + first_rev, rev, (size_t)n_rev * sizeof *rev);
    int n = left > 0 ? list.count : first_rev;
    s->cut |= n < list.count;
    uint64_t keys[MOVES_MAX];
    for (int i = 0; i < n; i++) {
        keys[i] = board_key_after(b, sorted[i]);
        __builtin_prefetch(&s->tt[keys[i] & s->tt_mask]);
    }
    for (int i = 0; i < n; i++) {
        int next = left - (i >= first_rev);
        if (tempo_stop(s, keys[i], next)) {
            if (s->aborted)
                return false;
            continue;
        }
        Board child = *b;
        board_make_keyed(&child, sorted[i], keys[i]);
        s->line[ply] = sorted[i];
        if (tempo_dfs(s, &child, next, ply + 1))
            return true;
        if (s->aborted)
            return false;
    }
    return false;
}

/* Rounds of one more reversible move each, up to this many. */
enum { TEMPO_ROUNDS = 64 };

/* The tempo search in rounds of growing depth within max_nodes positions:
 * YES with the line, else UNKNOWN. */
static CanMate tempo_search(const Board *b, int winner, bool to_edge, uint64_t max_nodes,
                            CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen, Move *line,
                            int *line_len)
{
    Tempo *s = malloc(sizeof *s);
    if (!s)
        return CANMATE_UNKNOWN;
    s->winner = winner;
    s->to_edge = to_edge;
    s->nodes = 0;
    s->max_nodes = max_nodes;
    s->tt = tt;
    s->tt_mask = tt_mask;
    if (*gen > UINT32_MAX - TEMPO_ROUNDS - 2)
        *gen = 0; /* the rounds' generations must not wrap */
    s->first_gen = *gen + 1;
    CanMate r = CANMATE_UNKNOWN;
    for (int left = 0; left < TEMPO_ROUNDS; left++) {
        s->gen = ++*gen;
        s->aborted = false;
        s->cut = false;
        if (!tempo_stop(s, b->key, left) && tempo_dfs(s, b, left, 0)) {
            r = CANMATE_YES;
            if (line)
                memcpy(line, s->line, (size_t)s->line_len * sizeof *line);
            if (line_len)
                *line_len = s->line_len;
            break;
        }
        if (s->aborted || !s->cut)
            break; /* out of budget, or nothing more to see */
    }
    free(s);
    return r;
}

/* ---------------------------------------------------------------------- */
/* The pictured mate squares                                                */

/* How good a square t looks for the loser's mate: its neighbours a wall
 * closes (the board's edge, a pawn, a square a winner's pawn attacks)
 * count most; nearness to the loser's king breaks ties. */
static int target_score(const Board *b, int winner, int t, int lk)
{
    Bitboard wp = board_pieces(b, winner, PAWN), watt = 0;
    while (wp)
        watt |= bb_pawn_attacks[winner][bb_pop(&wp)];
    Bitboard around = bb_king_attacks[t];
    int walls = 8 - bb_popcount(around) + bb_popcount(around & (b->by_type[PAWN] | watt));
    return 4 * walls - bb_distance[t][lk];
}

/* Whether some man besides the kings and pawns can move now (a square it
 * attacks is free of its own side's men): then the plans are walks of
 * pieces round the walls, else counts of tempi. */
static bool pieces_move(const Board *b)
{
    Bitboard occ = board_occupied(b);
    Bitboard x = occ & ~b->by_type[PAWN] & ~b->by_type[KING];
    while (x) {
        int sq = bb_pop(&x);
        int piece = b->squares[sq];
        Bitboard att;
        switch (piece_type(piece)) {
        case KNIGHT: att = bb_knight_attacks[sq]; break;
        case BISHOP: att = bb_bishop_attacks(sq, occ); break;
        case ROOK: att = bb_rook_attacks(sq, occ); break;
        default: att = bb_queen_attacks(sq, occ); break;
        }
        if (att & ~b->by_color[piece_color(piece)])
            return true;
    }
    return false;
}

/* The pictured mate squares, best first, each with `each` positions. */
static CanMate steered(const Board *b, int winner, uint64_t each, CanMateTtEntry *tt,
                       uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len)
{
    int lk = board_king(b, winner ^ 1);
    /* The corners are the guided search's own pictures, tried before. */
    Bitboard corners = BB(SQ(0, 0)) | BB(SQ(7, 0)) | BB(SQ(0, 7)) | BB(SQ(7, 7));
    Bitboard cand = ~corners;
    int sq[64], score[64], n = 0;
    while (cand) {
        int t = bb_pop(&cand);
        int s = target_score(b, winner, t, lk);
        int j = n++;
        /* Insertion by score, best first; equal scores keep square order. */
        while (j > 0 && score[j - 1] < s) {
            sq[j] = sq[j - 1];
            score[j] = score[j - 1];
            j--;
        }
        sq[j] = t;
        score[j] = s;
    }
    for (int i = 0; i < n && i < CANMATE_PLAN_TARGETS; i++) {
        if (canmate_guided_search_at(b, winner, sq[i], each, tt, tt_mask, gen, line, line_len) ==
            CANMATE_YES)
            return CANMATE_YES;
    }
    return CANMATE_UNKNOWN;
}

CanMate canmate_plan_tempo_search(const Board *b, int winner, uint64_t max_nodes,
                                  CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen, Move *line,
                                  int *line_len)
{
    if (pieces_move(b))
        return CANMATE_UNKNOWN;
    return tempo_search(b, winner, false, max_nodes, tt, tt_mask, gen, line, line_len);
}

/* Where pieces move, this share of the budget goes to the tempo search
 * (one part in PLAN_TEMPO_SHARE), the rest to the pictured squares. */
enum { PLAN_TEMPO_SHARE = 3 };

CanMate canmate_plan_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                            uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len)
{
    if (!pieces_move(b))
        return tempo_search(b, winner, false, max_nodes, tt, tt_mask, gen, line, line_len);
    /* Pieces that can move may still serve a tempo plan (a bishop walks
     * out to be given up, or to free a king): after the pictured squares,
     * which decide the walled cases sooner. */
    uint64_t tempo_nodes = max_nodes / PLAN_TEMPO_SHARE;
    if (steered(b, winner, (max_nodes - tempo_nodes) / CANMATE_PLAN_TARGETS, tt, tt_mask, gen, line,
                line_len) == CANMATE_YES)
        return CANMATE_YES;
    return tempo_search(b, winner, false, tempo_nodes, tt, tt_mask, gen, line, line_len);
}

CanMate canmate_plan_edge_search(const Board *b, int winner, uint64_t max_nodes, CanMateTtEntry *tt,
                                 uint32_t tt_mask, uint32_t *gen, Move *line, int *line_len)
{
    if (pieces_move(b))
        return CANMATE_UNKNOWN;
    return tempo_search(b, winner, true, max_nodes, tt, tt_mask, gen, line, line_len);
}

CanMate canmate_plan_pieces_tempo_search(const Board *b, int winner, uint64_t max_nodes,
                                         CanMateTtEntry *tt, uint32_t tt_mask, uint32_t *gen,
                                         Move *line, int *line_len)
{
    return tempo_search(b, winner, false, max_nodes, tt, tt_mask, gen, line, line_len);
}

/* ---------------------------------------------------------------------- */
/* Pictured mates with blockers                                             */

/* The squares the winner may ever attack, over-approximated: every square
 * where he has a knight, a rook or a queen, or a pawn that can still move
 * (it may promote); else the colours of his bishops and what his pawns
 * and king attack now. */
static Bitboard ever_covered(const Board *b, int winner)
{
    Bitboard own = b->by_color[winner], occ = board_occupied(b);
    if (own & (b->by_type[KNIGHT] | b->by_type[ROOK] | b->by_type[QUEEN]))
        return ~(Bitboard)0;
    Bitboard pawns = own & b->by_type[PAWN];
    Bitboard ahead = winner == WHITE ? pawns << 8 : pawns >> 8;
    Bitboard pawn_att = bb_pawns_attacks(pawns, winner);
    if ((ahead & ~occ) || (pawn_att & b->by_color[winner ^ 1]))
        return ~(Bitboard)0;
    Bitboard bishops = own & b->by_type[BISHOP], cover = pawn_att;
    if (bishops & DARK_SQUARES_BB)
        cover |= DARK_SQUARES_BB;
    if (bishops & LIGHT_SQUARES_BB)
        cover |= LIGHT_SQUARES_BB;
    return cover | bb_king_attacks[board_king(b, winner)];
}

CanMate canmate_plan_picture_search(const Board *b, int winner, uint64_t max, CanMateWalks **walks,
                                    Move *line, int *line_len)
{
    Bitboard cover = ever_covered(b, winner);
    if (cover == ~(Bitboard)0)
        return CANMATE_UNKNOWN;
    /* The loser's king can stand where the winner's king and pawns never
     * leave nor attack; he is checked where the winner's men can reach. */
    Bitboard wfixed = board_pieces(b, winner, PAWN) | board_pieces(b, winner, KING);
    Bitboard banned = wfixed | bb_pawns_attacks(board_pieces(b, winner, PAWN), winner) |
                      bb_king_attacks[board_king(b, winner)];
    Bitboard cand = cover & ~banned;
    int sq[64], n = 0;
    uint32_t score[64];
    Bitboard blocks_of[64];
    while (cand) {
        int t = bb_pop(&cand);
        Bitboard blocks = bb_king_attacks[t] & ~cover;
        uint32_t d = canmate_walk_picture_distance(b, winner, t, blocks);
        int j = n++;
        /* Insertion by distance, nearest first; ties keep square order. */
        for (; j > 0 && score[j - 1] > d; j--) {
            sq[j] = sq[j - 1];
            score[j] = score[j - 1];
        }
        sq[j] = t;
        score[j] = d;
        blocks_of[t] = blocks;
    }
    if (n > CANMATE_PLAN_PICTURES)
        n = CANMATE_PLAN_PICTURES;
    for (int i = 0; i < n; i++) {
        if (canmate_walk_picture(walks, b, winner, sq[i], blocks_of[sq[i]], (size_t)(max / n), line,
                                 line_len) == CANMATE_YES)
            return CANMATE_YES;
    }
    return CANMATE_UNKNOWN;
}
